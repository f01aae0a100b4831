#!/usr/bin/env bash
# The runner's own cost: is the harness the bottleneck it claims to measure?
# On the same running service, endpoint and concurrency, one after another in a balanced order (T, H, P, then P, H, T…),
# it loads Compute(iterations=1) with load tools and with the harness, and prints each run's req/s, the load
# process's CPU seconds per 1,000 requests, the connections it held, and per stack the ratio harness ÷ each tool.
#   gRPC: h2load (Debian's nghttp2-client), gRPC-framed POST to /harness.v1.HarnessService/Compute
#   SOAP: wrk (Debian's wrk), a Lua script posting the SOAP envelope to /HarnessService.svc; and autocannon 9 (npm,
#         Node: a load tool of a managed runtime, HTTP/1.1), the same envelope and headers
# Goals: harness ÷ h2load and harness ÷ wrk at least 0.8, harness ÷ autocannon at least 1.0 (the runner must not be
# the bottleneck it measures: within 20 % of the C tools, and no slower than a managed runtime's tool).
# Usage: scripts/bench-runner.sh [--concurrency N] [--duration S] [--warm-up S] [--repeat N] [--stacks grpc,soap]
#                                [--mode threadpool|iocp|custompool] [--wrk-threads N] [--baseline WORKTREE]
#                                [--harness-args "ARGS"] [--tls]
#   --baseline WORKTREE: in place of the C tools, the harness built from another checkout (e.g. a detached worktree of
#   main), same order and figures: an A/B of the runner's own CPU per request, old build against this one.
#   --harness-args "ARGS": more options for this build's harness runs, e.g. "--soap-client wcf" or "--grpc-client grpcnet".
#   --tls: in place of the tools, the harness against the same service over plain text and over TLS (a second, https
#   endpoint of Kestrel with a CA and server certificate the script makes with openssl; the harness trusts the CA with
#   --cacert), order plain tls, tls plain…: what TLS adds to the runner's CPU per call.
# The services and every load process share this machine's cores: the figures say how the runner compares with
# a C client under the same conditions, not what the service could do alone.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

concurrency=32 duration=15 warm_up=10 repeat=2 stacks=grpc,soap mode=threadpool wrk_threads=1 baseline="" harness_args="" tls=""
while [ $# -gt 0 ]; do
  case "$1" in
    --concurrency) whole_number "$1" "${2:-}"; concurrency=$2; shift 2 ;;
    --duration) whole_number "$1" "${2:-}"; duration=$2; shift 2 ;;
    --warm-up) whole_number "$1" "${2:-}"; warm_up=$2; shift 2 ;;
    --repeat) whole_number "$1" "${2:-}"; repeat=$2; shift 2 ;;
    --wrk-threads) whole_number "$1" "${2:-}"; wrk_threads=$2; shift 2 ;;
    --stacks) stacks=${2:-}; shift 2 ;;
    --mode) mode=${2:-}; shift 2 ;;
    --baseline) baseline=${2:-}; shift 2 ;;
    --harness-args) harness_args=${2:-}; shift 2 ;;
    --tls) tls=1; shift ;;
    -h|--help) sed -n '2,21s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "error: unknown option '$1'; valid: --concurrency, --duration, --warm-up, --repeat, --stacks, --mode, --wrk-threads, --baseline, --harness-args, --tls." >&2; exit 2 ;;
  esac
done
for s in ${stacks//,/ }; do
  case "$s" in grpc|soap) ;; *) echo "error: --stacks '$stacks': valid values are grpc, soap." >&2; exit 2 ;; esac
done
case "$mode" in threadpool|iocp|custompool) ;; *) echo "error: --mode '$mode': valid values are threadpool, iocp, custompool." >&2; exit 2 ;; esac
[ -z "$baseline" ] || [ -f "$baseline/loadtests/Harness.LoadTests/Harness.LoadTests.csproj" ] || { echo "error: --baseline '$baseline': takes a checkout of this repository (a directory holding loadtests/Harness.LoadTests)." >&2; exit 2; }
[ -z "$tls" ] || [ -z "$baseline" ] || { echo "error: --tls and --baseline are two different comparisons; give one." >&2; exit 2; }
[ "$wrk_threads" -le "$concurrency" ] || { echo "error: --wrk-threads $wrk_threads: at most --concurrency ($concurrency)." >&2; exit 2; }

# The C tools: installed with apt when missing and run as root, otherwise a message naming the package.
need() {
  local tool=$1 package=$2
  command -v "$tool" >/dev/null && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing $package (for $tool)…"
    apt-get install -y -qq "$package" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$package" >/dev/null 2>&1; } || true
  fi
  command -v "$tool" >/dev/null || { echo "error: $tool is missing; install the Debian package $package (apt-get install $package)." >&2; exit 2; }
}
need curl curl
need ss iproute2
if [ -n "$tls" ]; then need openssl openssl; else need h2load nghttp2-client; need wrk wrk; fi
# autocannon: npm's, pinned; installed globally when missing and npm is there, as the C tools are with apt.
autocannon_version=9.0.0
if [ -z "$baseline" ] && [ -z "$tls" ] && [[ ",$stacks," == *,soap,* ]] && ! command -v autocannon >/dev/null; then
  if command -v npm >/dev/null; then
    echo "installing autocannon $autocannon_version (npm install -g)…"
    npm install -g --no-fund --no-audit "autocannon@$autocannon_version" >/dev/null 2>&1 || true
  fi
  command -v autocannon >/dev/null || { echo "error: autocannon is missing; install it with npm install -g autocannon@$autocannon_version (needs Node.js and npm)." >&2; exit 2; }
fi

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
build_release "$root/loadtests/Harness.LoadTests" || exit 1
bin="$runner_out"
if [ -n "$baseline" ]; then
  baseline=$(cd "$baseline" && pwd)
  build_release "$baseline/loadtests/Harness.LoadTests" || exit 1
  baseline_bin="$baseline/loadtests/Harness.LoadTests/bin/Release/net10.0"
fi

work=$(mktemp -d)
pids=()
cleanup() {
  local pid
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM


# make_certificates: a CA and a server certificate for 127.0.0.1 signed by it (ECDSA P-256, as most servers now
# have), for --tls; the harness trusts the CA with --cacert, as it would a private CA.
make_certificates() {
  local c="$work/tls"
  mkdir -p "$c"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=bench-runner-ca \
    -keyout "$c/ca.key" -out "$c/ca.pem" >/dev/null 2>&1 || die "openssl could not make the CA" 5
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
    -keyout "$c/server.key" -out "$c/server.csr" >/dev/null 2>&1 || die "openssl could not make the server's key" 5
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n' >"$c/ext.cnf"
  openssl x509 -req -in "$c/server.csr" -CA "$c/ca.pem" -CAkey "$c/ca.key" -CAcreateserial -days 1 \
    -extfile "$c/ext.cnf" -out "$c/server.pem" >/dev/null 2>&1 || die "openssl could not sign the server's certificate" 5
}

# start NAME DLL PORT ADMIN [TLS_PORT PROTOCOLS]: the service in the chosen mode, healthy within 60 s; with TLS_PORT,
# also an https endpoint of Kestrel there (from configuration, beside the plain ports the service listens on itself).
start_service() {
  local name=$1 dll=$2 port=$3 admin=$4 tls_port=${5:-} tls_env=()
  [ -z "$tls_port" ] || tls_env=(Kestrel__Endpoints__Tls__Url="https://127.0.0.1:$tls_port" Kestrel__Endpoints__Tls__Protocols="$6"
    Kestrel__Endpoints__Tls__Certificate__Path="$work/tls/server.pem" Kestrel__Endpoints__Tls__Certificate__KeyPath="$work/tls/server.key")
  # DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS, when given, tunes the load runner alone (as harness run does).
  env -u DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS ${tls_env[@]+"${tls_env[@]}"} Scheduling__Mode=$mode dotnet "$bin/$dll" "--Listen:Port=$port" "--Listen:AdminPort=$admin" \
    --Serilog:MinimumLevel:Default=Warning >"$work/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$admin/healthz" >/dev/null 2>&1 && return
    sleep 0.5
  done
  cat "$work/$name.log" >&2
  echo "error: $name did not answer /healthz on port $admin within 60 s" >&2; exit 5
}

# counter ADMIN NAME: a Compute counter of the service (harness_operations_<NAME>_total{operation="compute"}).
counter() {
  curl -fs "http://127.0.0.1:$1/metrics" | awk -v m="harness_operations_$2_total{operation=\"compute\"}" '$1 == m { print $2 }'
}

# The CPU seconds (user + system) of this shell's finished children, for the C tools' runs.
# `times` runs in this shell, not in a command substitution: a forked subshell starts with no children's times.
children_cpu() {
  times >"$work/times"
  awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$work/times"
}

# connections_later PORT AFTER FILE: established TCP connections to the port, counted AFTER seconds from now.
conns_pid=""
connections_later() {
  local port=$1 after=$2 out=$3
  (sleep "$after"; ss -Htn state established "( dport = :$port )" | wc -l >"$out") &
  conns_pid=$!
}

clk=$(getconf CLK_TCK)
proc_cpu() { awk -v clk="$clk" '{ print ($14 + $15) / clk }' "/proc/$1/stat"; }

grpc_frame="$work/compute-1.bin"
# gRPC message: flag 0 (not compressed), length 2 (big-endian), then ComputeRequest{iterations = 1}: field 1 varint 1.
printf '\x00\x00\x00\x00\x02\x08\x01' >"$grpc_frame"
soap_envelope='<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Compute xmlns="http://tempuri.org/"><iterations>1</iterations></Compute></s:Body></s:Envelope>'
soap_action='"http://tempuri.org/IHarnessService/Compute"'
cat >"$work/soap.lua" <<EOF
wrk.method = "POST"
wrk.body = '$soap_envelope'
wrk.headers["Content-Type"] = "text/xml; charset=utf-8"
wrk.headers["SOAPAction"] = '$soap_action'
EOF
cat >"$work/closed.json" <<EOF
{ "name": "bench-runner", "description": "$concurrency users for ${duration}s", "stages": [ { "kind": "keepConstant", "copies": $concurrency, "during": "${duration}s" } ] }
EOF

# One call of each kind by curl, to be sure the C tools send what the service runs as Compute (h2load counts any
# HTTP 200 as a success, whatever the grpc-status trailer says).
check_grpc() {
  local port=$1 reply status
  reply=$(curl -s --http2-prior-knowledge -X POST -H 'content-type: application/grpc' -H 'te: trailers' \
    --data-binary @"$grpc_frame" -D "$work/grpc-headers" -o "$work/grpc-reply" "http://127.0.0.1:$port/harness.v1.HarnessService/Compute" -w '%{http_code}')
  status=$(awk 'tolower($1) == "grpc-status:" { print $2 }' "$work/grpc-headers" | tr -d '\r')
  [ "$reply" = 200 ] && [ "$status" = 0 ] || { echo "error: the gRPC Compute frame was not answered OK (HTTP $reply, grpc-status '$status')" >&2; exit 5; }
}
check_soap() {
  local port=$1 reply
  reply=$(curl -s -X POST -H 'Content-Type: text/xml; charset=utf-8' -H "SOAPAction: $soap_action" \
    --data "$soap_envelope" "http://127.0.0.1:$port/HarnessService.svc")
  [[ "$reply" == *"<Result>89</Result>"* ]] || { echo "error: the SOAP Compute envelope was not answered with a result: $reply" >&2; exit 5; }
}

# run_tool TOOL PORT SECONDS: one run of a load tool (h2load, wrk, autocannon); sets rps, requests, cpu, conns.
run_tool() {
  local tool=$1 port=$2 seconds=$3 out="$work/tool.out"
  rm -f "$work/conns"
  connections_later "$port" $((seconds / 2)) "$work/conns"
  children_cpu >"$work/before"
  if [ "$tool" = h2load ]; then
    # One connection carrying up to N streams, as the harness's one gRPC channel does.
    h2load -c 1 -m "$concurrency" -t 1 -D "$seconds" -H 'content-type: application/grpc' -H 'te: trailers' \
      -d "$grpc_frame" "http://127.0.0.1:$port/harness.v1.HarnessService/Compute" >"$out" 2>&1
    children_cpu >"$work/after"
    requests=$(awk '$1 == "requests:" { print $8 }' "$out")
    local bad
    bad=$(awk '$1 == "requests:" { print $10 + $12 + $14 }' "$out")
    [ "$bad" = 0 ] || { cat "$out" >&2; echo "error: h2load saw failed, errored or timed-out requests" >&2; exit 5; }
    grep -q " 0 3xx, 0 4xx, 0 5xx" "$out" || { cat "$out" >&2; echo "error: h2load saw non-2xx answers" >&2; exit 5; }
  elif [ "$tool" = wrk ]; then
    # N HTTP/1.1 connections, one request at a time each, as the harness's SOAP client's N connections.
    wrk -t "$wrk_threads" -c "$concurrency" -d "${seconds}s" -s "$work/soap.lua" "http://127.0.0.1:$port/HarnessService.svc" >"$out" 2>&1
    children_cpu >"$work/after"
    requests=$(awk '$2 == "requests" && $3 == "in" { print $1 }' "$out")
    ! grep -q "Non-2xx" "$out" || { cat "$out" >&2; echo "error: wrk saw non-2xx answers" >&2; exit 5; }
    ! grep -q "Socket errors" "$out" || { cat "$out" >&2; echo "error: wrk saw socket errors" >&2; exit 5; }
  else
    # The same N HTTP/1.1 connections from Node, one request at a time each (no pipelining), results as JSON.
    autocannon -c "$concurrency" -d "$seconds" -m POST -H "Content-Type=text/xml; charset=utf-8" -H "SOAPAction=$soap_action" \
      -b "$soap_envelope" -j -n "http://127.0.0.1:$port/HarnessService.svc" >"$out" 2>"$work/autocannon.err"
    children_cpu >"$work/after"
    local counts
    counts=$(node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r["2xx"], r.non2xx + r.errors + r.timeouts + (r.mismatches || 0))' "$out") \
      || { cat "$out" "$work/autocannon.err" >&2; echo "error: autocannon's results could not be read" >&2; exit 5; }
    read -r requests bad <<<"$counts"
    [ "$bad" = 0 ] || { cat "$out" >&2; echo "error: autocannon saw $bad non-2xx answers, errors or timeouts" >&2; exit 5; }
  fi
  wait "$conns_pid"
  rps=$(awk -v n="$requests" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
  cpu=$(awk -v a="$(cat "$work/after")" -v b="$(cat "$work/before")" -v n="$requests" 'BEGIN { printf "%.4f", (a - b) / n * 1000 }')
  conns=$(cat "$work/conns")
}

# run_harness STACK PORT ADMIN [BIN]: one harness run (of BIN's build, this one's by default) against the running
# service; sets rps, requests, cpu, conns.
# CPU is read from /proc at the progress lines (every 5 s) between the end of the warm-up and the end of the load,
# so the runner's start-up, JIT warm-up, lone-call ideal and report are left out, as the C tools have none of them.
# OVER: plain (default) or tls, the service's https endpoint at TLS_PORT, the script's CA trusted with --cacert.
run_harness() {
  local stack=$1 port=$2 admin=$3 harness_bin=${4:-$bin} over=${5:-plain} target out="$work/harness.out" fifo="$work/harness.fifo" hpid line
  local first_cpu="" first_n="" last_cpu="" last_n="" scheme=http extra=()
  conns_pid=""
  if [ "$over" = tls ]; then scheme=https port=$tls_port extra=(--cacert "$work/tls/ca.pem"); fi
  target="$stack=$scheme://127.0.0.1:$port,metrics=http://127.0.0.1:$admin"
  rm -rf "$work/runs" "$fifo" "$work/conns"
  mkfifo "$fifo"
  # Only this build's runs take --harness-args: a --baseline checkout may not know them.
  [ "$harness_bin" != "$bin" ] || { local more=(); read -r -a more <<<"$harness_args"; extra+=(${more[@]+"${more[@]}"}); }
  dotnet "$harness_bin/harness.dll" run --profile "$work/closed.json" --target "$target" --operations compute --iterations 1 \
    --warm-up "${warm_up}s" --mode-label "$mode" --output "$work/runs" ${extra[@]+"${extra[@]}"} >"$fifo" 2>&1 &
  hpid=$!
  # Bounded: the run's own seconds and two minutes for its start, lone calls and report (a watchdog, so that $hpid
  # stays the runner's own process, whose CPU is read).
  (sleep $((warm_up + duration + 120)); kill "$hpid") 2>/dev/null &
  local watchdog=$!
  : >"$out"
  while IFS= read -r line; do
    echo "$line" >>"$out"
    # The progress line ends its counts with "errors N/s (F of R)": R, the requests so far, with thousands separators.
    # "users R/0": the load has stopped (a target of 0) and only the drain is left.
    if [[ "$line" =~ ^\[1/1\ .*\]\ ([0-9:]+)/.*errors\ [0-9]+/s\ \([0-9,]+\ of\ ([0-9,]+)\) ]] && [[ "$line" != *warm-up* ]] && [[ "$line" != *"users "*"/0  "* ]]; then
      last_cpu=$(proc_cpu "$hpid" 2>/dev/null || echo "$last_cpu")
      last_n=${BASH_REMATCH[2]//,/}
      if [ -z "$first_cpu" ]; then
        first_cpu=$last_cpu first_n=$last_n
        connections_later "$port" $((duration / 2 - 2 > 0 ? duration / 2 - 2 : 0)) "$work/conns"
      fi
    fi
  done <"$fifo"
  wait "$hpid" || { cat "$out" >&2; echo "error: the harness run failed (or ran past its bound)" >&2; exit 5; }
  pkill -P "$watchdog" sleep 2>/dev/null || true # its sleep, by the watchdog's own pid
  wait "$watchdog" 2>/dev/null || true
  [ -z "$conns_pid" ] || wait "$conns_pid"
  local csv
  csv=$(ls "$work"/runs/*/csv/*.csv)
  # Measured seconds: after the warm-up, while users ran (the last, partial second is left out).
  read -r rps requests failures < <(awk -F, 'NR > 1 && $24 == 0 && $2 > 0 { n += $3; f += $4; s++ } END { printf "%.0f %d %d\n", n / s, n, f }' "$csv")
  [ "$failures" = 0 ] || { cat "$out" >&2; echo "error: the harness saw $failures failed requests" >&2; exit 5; }
  if [ -n "$first_n" ] && [ "$last_n" -gt "$first_n" ]; then
    cpu=$(awk -v a="$last_cpu" -v b="$first_cpu" -v n=$((last_n - first_n)) 'BEGIN { printf "%.4f", (a - b) / n * 1000 }')
  else
    cpu="?"
  fi
  conns=$(cat "$work/conns" 2>/dev/null || echo "?")
}

# verify NAME ADMIN OK_BEFORE FAILED_BEFORE: the service really ran at least as many Computes as the load process
# counted (h2load and wrk cannot see a gRPC or SOAP failure inside an HTTP 200), and none failed.
verify() {
  local tool=$1 admin=$2 ok0=$3 failed0=$4 ok1 failed1
  ok1=$(counter "$admin" completed) failed1=$(counter "$admin" failed)
  [ "$((failed1 - failed0))" = 0 ] || { echo "error: $tool: the service counted $((failed1 - failed0)) failed Compute calls" >&2; exit 5; }
  [ "$((ok1 - ok0))" -ge "$requests" ] || { echo "error: $tool counted $requests requests but the service completed only $((ok1 - ok0)) Compute calls" >&2; exit 5; }
}

results="$work/results"
: >"$results"
[ -z "$tls" ] || make_certificates
echo "bench-runner: Compute(iterations=1), $concurrency at once, ${duration}s per run (harness after ${warm_up}s warm-up), mode $mode, $repeat repetitions, $(nproc) cores${harness_args:+, harness $harness_args}${tls:+, plain text against TLS}"
[ -z "$tls" ] || echo "TLS: ECDSA P-256 server certificate from the script's own CA (--cacert); gRPC: the lean client's SslStream, ALPN h2, one connection; SOAP: plain text goes through the lean client's own HTTP/1.1 writer, https through HttpClient (SocketsHttpHandler, ALPN http/1.1), so its tls arm also measures HttpClient; $concurrency connections"
echo "machine load before: $(uptime | sed 's/.*load average/load average/')"
printf '%-5s %-8s %3s %10s %14s %6s  %s\n' stack tool run "req/s" "CPU s/1k req" conns time
for stack in ${stacks//,/ }; do
  port=$(free_ports 3) # the service's own, its metrics (admin) port, and with --tls its https port
  admin=$((port + 1)) tls_port=$((port + 2))
  if [ "$stack" = grpc ]; then
    start_service grpc Harness.GrpcService.dll "$port" "$admin" ${tls:+"$tls_port" Http2}
    check_grpc "$port"
    tools=(h2load)
  else
    start_service soap Harness.SoapService.dll "$port" "$admin" ${tls:+"$tls_port" Http1}
    check_soap "$port"
    tools=(wrk autocannon)
  fi
  [ -z "$baseline" ] || tools=(baseline)
  # Warm the service (JIT, thread injection) before anything is measured; with --tls, each run's warm-up does it.
  if [ -n "$tls" ]; then :; elif [ "$stack" = grpc ]; then run_tool h2load "$port" 5; else run_tool wrk "$port" 5; fi
  for r in $(seq 1 "$repeat"); do
    # T H [P], then [P] H T, …: over two repetitions each tool has been before and after the harness once.
    if [ $((r % 2)) = 1 ]; then order="${tools[0]} harness ${tools[1]:-}"; else order="${tools[1]:-} harness ${tools[0]}"; fi
    # --tls: plain tls, then tls plain.
    if [ -n "$tls" ]; then if [ $((r % 2)) = 1 ]; then order="plain tls"; else order="tls plain"; fi; fi
    for who in $order; do
      ok0=$(counter "$admin" completed) failed0=$(counter "$admin" failed)
      if [ "$who" = baseline ]; then run_harness "$stack" "$port" "$admin" "$baseline_bin"; name=$who
      elif [ "$who" = plain ] || [ "$who" = tls ]; then run_harness "$stack" "$port" "$admin" "$bin" "$who"; name=$who
      elif [ "$who" != harness ]; then run_tool "$who" "$port" "$duration"; name=$who; else run_harness "$stack" "$port" "$admin"; name=harness; fi
      verify "$name" "$admin" "$ok0" "$failed0"
      printf '%-5s %-8s %3s %10s %14s %6s  %s\n' "$stack" "$name" "$r" "$rps" "$cpu" "$conns" "$(date -u +%H:%M:%S)"
      echo "$stack $name $r $rps $cpu" >>"$results"
    done
  done
  kill "${pids[-1]}" 2>/dev/null || true
  wait "${pids[-1]}" 2>/dev/null || true
  unset 'pids[-1]'
done
echo "machine load after: $(uptime | sed 's/.*load average/load average/')"
echo
if [ -n "$tls" ]; then
  echo "tls ÷ plain, the same harness and service (median of each arm, min–max in brackets)"
  for stack in ${stacks//,/ }; do
    awk -v stack="$stack" "$(cat "$root/scripts/lib/median.awk")"'
      function range(a, n,   i, lo, hi) { lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] } return lo "–" hi }
      $1 == stack && $2 == "plain" { p[++np] = $4; if ($5 != "?") pc[++npc] = $5 }
      $1 == stack && $2 == "tls" { t[++nt] = $4; if ($5 != "?") tc[++ntc] = $5 }
      END {
        printf "%-5s req/s: plain %.0f (%s), tls %.0f (%s), tls ÷ plain %.2f\n", stack, median(p, np), range(p, np), median(t, nt), range(t, nt), median(t, nt) / median(p, np)
        if (npc && ntc)
          printf "%-5s runner CPU s per 1,000 calls: plain %.4f (%s), tls %.4f (%s): TLS adds %.1f µs of runner CPU per call (%.2f×)\n", stack,
            median(pc, npc), range(pc, npc), median(tc, ntc), range(tc, ntc), (median(tc, ntc) - median(pc, npc)) * 1000, median(tc, ntc) / median(pc, npc)
      }' "$results"
  done
  exit 0
fi
echo "harness ÷ ${baseline:+baseline (}${baseline:-each tool}${baseline:+)} (median req/s of each; each repetition's ratio in brackets)"
for stack in ${stacks//,/ }; do
  for tool in $(awk -v stack="$stack" '$1 == stack && $2 != "harness" && !seen[$2]++ { print $2 }' "$results"); do
    # The goals: as fast as the C tools within 20 %, and no slower than the managed runtime's tool.
    case "$tool" in autocannon) goal=1.0 ;; baseline) goal="" ;; *) goal=0.8 ;; esac
    awk -v stack="$stack" -v tool="$tool" -v goal="$goal" "$(cat "$root/scripts/lib/median.awk")"'
      function cpu(a, n) { return n ? sprintf("%.4f", median(a, n)) : "?" }
      $1 == stack && $2 == "harness" { h[++nh] = $4; hr[$3] = $4; if ($5 != "?") hc[++nhc] = $5 }
      $1 == stack && $2 == tool { t[++nt] = $4; tr[$3] = $4; if ($5 != "?") tc[++ntc] = $5 }
      END {
        pairs = ""
        for (r = 1; r <= nh; r++) pairs = pairs sprintf("%s%.2f", r > 1 ? ", " : "", hr[r] / tr[r])
        ratio = median(h, nh) / median(t, nt)
        verdict = goal == "" ? "" : ratio >= goal + 0 ? sprintf("(goal ≥ %s met)", goal) : sprintf("(below the goal of %s)", goal)
        printf "%-5s harness %.0f req/s ÷ %s %.0f req/s = %.2f  [%s]  CPU s per 1,000 requests: harness %s, %s %s  %s\n",
          stack, median(h, nh), tool, median(t, nt), ratio, pairs, cpu(hc, nhc), tool, cpu(tc, ntc), verdict
      }' "$results"
  done
done
