#!/usr/bin/env bash
# Whole `harness run`s against misbehaving servers on loopback, each client in turn: how long the run takes, what its
# summary.md counts the calls as, and the runner's peak memory (its peak RSS, from /usr/bin/time -v, or VmHWM sampled
# from /proc when that is missing; and the peak working set the run recorded of itself, summary.md's "peak MB").
# The servers are bench/hostile_server.py (python3), the cases of tests/.../HostileRunTests.cs plus silent ones:
#   grpc-silent, grpc-frame-size (a PING of 7 bytes), grpc-hpack-bomb (150 KB of headers from 2.5 KB),
#   grpc-length-2g (a message prefix of 2^31-1), soap-silent, soap-endless-chunked, soap-continue-forever
#   (100 Continue without end), soap-length-1g-slow (Content-Length 1 GiB, a byte every 50 ms)
# gRPC cases run with --grpc-client lean and grpcnet (Grpc.Net.Client), SOAP ones with --soap-client lean and wcf
# (WCF over HttpClient). Each server is also the run's metrics= address, so the runner's /metrics reads meet it too.
# Usage: scripts/bench-hostile.sh [--cases LIST] [--clients LIST] [--time-scale F] [--timeout D] [--output DIR]
#   --cases LIST     comma-separated, from the cases above; default all
#   --clients LIST   comma-separated, from lean, other (grpcnet for gRPC, wcf for SOAP); default lean,other
#   --time-scale F   the quick profile's time scale (default 0.2: 4 s of load); --warm-up 0 always
#   --timeout D      each call's --timeout (default 3s)
#   --output DIR     where results go (default artifacts/bench-hostile/<time>): results.tsv, results.md, and per run
#                    its console output, /usr/bin/time's report and its run folder
# A run that takes longer than its bound (load + timeout + 30 s drain + 60 s) is stopped and reported as such.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

all_cases="grpc-silent,grpc-frame-size,grpc-hpack-bomb,grpc-length-2g,soap-silent,soap-endless-chunked,soap-continue-forever,soap-length-1g-slow"
cases=$all_cases clients="lean,other" scale=0.2 timeout=3s output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=${2:-}; shift 2 ;;
    --clients) clients=${2:-}; shift 2 ;;
    --time-scale) [[ "${2:-}" =~ ^(0\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]] || die "--time-scale '${2:-}': takes a number above 0 and at most 1, e.g. 0.2." 2; scale=$2; shift 2 ;;
    --timeout) [[ "${2:-}" =~ ^[1-9][0-9]*(ms|s)$ ]] || die "--timeout '${2:-}': takes a whole number of ms or s, e.g. 3s." 2; timeout=$2; shift 2 ;;
    --output) output=${2:-}; [ -n "$output" ] || die "--output: takes a directory." 2; shift 2 ;;
    -h|--help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --cases, --clients, --time-scale, --timeout, --output, -h." 2 ;;
  esac
done
IFS=, read -r -a case_list <<<"$cases"
IFS=, read -r -a client_list <<<"$clients"
[ "${#case_list[@]}" -gt 0 ] || die "--cases: name at least one case." 2
[ "${#client_list[@]}" -gt 0 ] || die "--clients: name at least one of lean, other." 2
for c in "${case_list[@]}"; do [[ ",$all_cases," == *",$c,"* ]] || die "--cases: '$c' is not one of ${all_cases//,/, }." 2; done
for c in "${client_list[@]}"; do case "$c" in lean|other) ;; *) die "--clients: '$c' is not one of lean, other." 2 ;; esac; done
command -v python3 >/dev/null || die "python3 is missing (the hostile servers are Python)."

# /usr/bin/time for the peak RSS: installed with apt when missing and run as root; otherwise VmHWM is sampled.
if [ ! -x /usr/bin/time ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing time (for /usr/bin/time -v)…"
  apt-get install -y -qq time >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq time >/dev/null 2>&1; } || true
fi

load_seconds=$(awk -v s="$scale" 'BEGIN { printf "%.1f", 20 * s }')
timeout_seconds=$(awk -v t="$timeout" 'BEGIN { v = t + 0; printf "%.1f", t ~ /ms$/ ? v / 1000 : v }')
bound=$(awk -v l="$load_seconds" -v t="$timeout_seconds" 'BEGIN { printf "%d", l + t + 30 + 60 }')
[ -n "$output" ] || output="$root/artifacts/bench-hostile/$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$output"
output=$(cd "$output" && pwd)
results="$output/results.tsv"

echo "building the runner…"
build_release "$root/loadtests/Harness.LoadTests" || exit 1

work=$(mktemp -d)
server_pid=""
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# start_server CASE: the case's server in the background; sets server_pid and port.
start_server() {
  rm -f "$work/port"
  python3 "$root/scripts/bench/hostile_server.py" "$1" "$work/port" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
  [ -s "$work/port" ] || { cat "$work/server.log" >&2; die "the $1 server did not start within 10 s"; }
  port=$(cat "$work/port")
}

stop_server() { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; }

# sample_hwm PID: the largest VmHWM of PID seen while it runs (the fallback without /usr/bin/time), into $work/hwm.
sample_hwm() {
  local pid=$1 hwm=0 now
  for _ in $(seq 1 $((bound * 5))); do
    now=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || break
    [ -z "$now" ] || [ "$now" -le "$hwm" ] || hwm=$now
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "$hwm" >"$work/hwm"
}

printf 'case\tclient\tends_in_s\texit\tfailure_kinds\terror_rate\tpeak_rss_mb\trecorded_peak_mb\n' >"$results"
total=$(( ${#case_list[@]} * ${#client_list[@]} )) n=0
echo "$(nproc --all) processors, load average $(cut -d' ' -f1-3 /proc/loadavg); $total runs of quick at --time-scale $scale, --timeout $timeout, each bounded to ${bound}s; results in $output"
for case in "${case_list[@]}"; do
  stack=${case%%-*}
  for choice in "${client_list[@]}"; do
    n=$((n + 1))
    if [ "$choice" = lean ]; then client=lean; elif [ "$stack" = grpc ]; then client=grpcnet; else client=wcf; fi
    name="$case.$client"
    start_server "$case"
    address="http://127.0.0.1:$port"
    args=(run --target "$stack=$address,metrics=$address" --mode-label hostile --operations compute "--$stack-client" "$client"
      --profile quick --time-scale "$scale" --warm-up 0 --timeout "$timeout" --output "$output/$name")
    started=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
      set +e
      timeout --kill-after=10 "$bound" /usr/bin/time -v -o "$output/$name.time" dotnet "$runner_out/harness.dll" "${args[@]}" >"$output/$name.log" 2>&1
      code=$?
      set -e
      rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$output/$name.time" 2>/dev/null || true)
    else
      timeout --kill-after=10 "$bound" dotnet "$runner_out/harness.dll" "${args[@]}" >"$output/$name.log" 2>&1 &
      run_pid=$!
      sleep 0.5 # timeout's child, dotnet, started
      sample_hwm "$(pgrep -P "$run_pid" -n dotnet || echo "$run_pid")" &
      set +e; wait "$run_pid"; code=$?; set -e
      wait
      rss_kb=$(cat "$work/hwm")
    fi
    ended=$(date +%s.%N)
    stop_server
    seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')
    summary=$(ls "$output/$name"/*/summary.md 2>/dev/null | head -n 1 || true)
    kinds="—" rate="—" recorded="—"
    if [ -n "$summary" ]; then
      # "- hostile: UNAVAILABLE 1,234, INTERNAL 5" under "Failures by status:"; the mode row's error rate; the runner's peak MB.
      kinds=$(awk '/^Failures by status:/ { f = 1; next } f && /^- hostile: / && !/no server samples/ { sub(/^- hostile: /, ""); print; exit }' "$summary")
      rate=$(awk -F' *\\| *' '/^\| hostile \|/ && $13 ~ /%/ { print $13; exit }' "$summary")
      recorded=$(awk -F' *\\| *' '/^\| [a-z]+-compute-hostile \|/ { print $3; exit }' "$summary")
    elif [ "$code" = 124 ] || [ "$code" = 137 ]; then
      kinds="stopped at the ${bound}s bound"
    fi
    rss_mb=$([ -n "${rss_kb:-}" ] && [ "${rss_kb:-0}" -gt 0 ] && awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }' || echo "?")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$case" "$client" "$seconds" "$code" "${kinds:-—}" "${rate:-—}" "$rss_mb" "${recorded:-—}" >>"$results"
    echo "[$n/$total] $case, $client: ended in ${seconds}s (exit $code); ${kinds:-—}; error rate ${rate:-—}; peak RSS ${rss_mb} MB (recorded ${recorded:-—} MB)"
  done
done

{
  echo "| case | client | ends in | failure kind (calls) | error rate | peak runner RSS | recorded peak working set |"
  echo "|---|---|---:|---|---:|---:|---:|"
  awk -F'\t' 'NR > 1 { printf "| %s | %s | %s s%s | %s | %s | %s MB | %s MB |\n", $1, $2, $3, ($4 == 0 ? "" : " (exit " $4 ")"), $5, $6, $7, $8 }' "$results"
} >"$output/results.md"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$output/results.md"
