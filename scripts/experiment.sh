#!/usr/bin/env bash
# Reruns one of the published experiments (docs/experiments.md) with the harness.
# Usage: scripts/experiment.sh S0|S0-burst|S0-closed|S0-open|S1|S1-transports|S1-tcp|S1-unix|S2|S2-matrix|S3 [extra harness options]
#   e.g. scripts/experiment.sh S2 --stacks grpc --time-scale 0.25
# Every experiment runs each mode twice (--repeat 2: A B B A…, each repetition against services started afresh), so
# the report shows each mode's spread and says "inconclusive", with its bounds, where the run cannot tell the modes apart; pass --repeat N
# to change it. Each writes its run folder(s) under reports/<experiment>/ and prints the report path. These are
# benchmarks: S2 takes 8 minutes per series as published (2 stacks × 3 modes × 2 repetitions = 96 minutes).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"
cores=$(nproc)
experiment=${1:-}
shift || true

# --repeat N (or --repeat=N) among the extra options replaces the default of 2; the rest go to the harness as given.
repeat=2
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat=${2:?--repeat needs a number}; shift 2 ;;
    --repeat=*) repeat=${1#--repeat=}; shift ;;
    *) extra+=("$1"); shift ;;
  esac
done

harness() { scripts/harness.sh "$@" --repeat "$repeat" ${extra[@]+"${extra[@]}"}; }

# Writes a profile file: write_profile FILE NAME DESCRIPTION STAGE_JSON...
write_profile() {
  local file=$1 name=$2 description=$3
  shift 3
  local IFS=,
  printf '{ "name": "%s", "description": "%s", "stages": [ %s ] }\n' "$name" "$description" "$*" >"$file"
}

# S3's runs side by side: per stack and degree, the median of its series' mean and p99 over the runs this
# invocation made (newer than the file $1), with their range, and the median mean ÷ sequential's.
s3_summary() {
  local folder degree
  echo
  echo "S3: stack, degree of parallelism, series, median mean ms (min–max), median p99 ms (min–max), mean ÷ degree 1"
  for folder in $(find reports/S3-p* -mindepth 1 -maxdepth 1 -type d -newer "$1" | sort); do
    [ -f "$folder/summary.md" ] || continue
    degree=${folder#reports/S3-p}; degree=${degree%%/*}
    # The rows of each stack's first table ("| mode | requests | req/s | mean ms | p50 ms | p90 ms | p99 ms |"),
    # under "## STACK · …": one per series.
    awk -F'|' -v d="$degree" '/^## / { stack = $0; sub(/^## /, "", stack); sub(/ .*/, "", stack) }
      /^\| mode \| requests \|/ { rows = 1; next } /^$/ { rows = 0 }
      rows && $2 !~ /^-/ { gsub(/[ ,]/, "", $5); gsub(/[ ,]/, "", $8); print stack, d, $5, $8 }' "$folder/summary.md"
  done | sort -k1,1 -k2,2n | awk "$(cat scripts/lib/median.awk)"'
    { key = $1 " " $2; if (!(key in count)) order[++k] = key; n = ++count[key]; means[key, n] = $3; p99s[key, n] = $4 }
    END { for (i = 1; i <= k; i++) { key = order[i]; split(key, f, " "); n = count[key]
            for (j = 1; j <= n; j++) { m[j] = means[key, j]; p[j] = p99s[key, j] }
            mean = median(m, n); p99 = median(p, n)  # each sorted in place: [1] the least, [n] the most
            if (f[2] == 1) base[f[1]] = mean
            printf "  %-5s %2s  %2d  %7.0f (%.0f–%.0f)  %7.0f (%.0f–%.0f)  %s\n", f[1], f[2], n, mean, m[1], m[n], p99, p[1], p[n],
              (f[1] in base) ? sprintf("%.2f×", mean / base[f[1]]) : "—" } }'
  rm -f "$1"
}

# S0: CPU-bound Compute (20,000,000 iterations) on both stacks, threadpool vs the IOCP rule, in three load models.
s0_iterations=20000000
s0_burst() {
  # The published burst: 5 calls per core released at once on an idle service, each made once (profile burst).
  harness run --output reports/S0-burst --profile burst --operations compute --iterations "$s0_iterations" --modes threadpool,iocp
}
s0_closed() {
  # Closed model: 5 × cores virtual users, each calling again as soon as its call returns, for 2 minutes.
  harness run --output reports/S0-closed --profile constant --users $((5 * cores)) \
    --operations compute --iterations "$s0_iterations" --modes threadpool,iocp
}
s0_open() {
  # Open model: arrivals on schedule at about 85 % of the cores, so queueing shows in the latency and no mode can
  # slow the load down. The rate is 0.85 × cores ÷ one lone call's time, the ideal a short probe measures on a warm
  # gRPC service (S0_RATE=N skips the probe).
  local rate=${S0_RATE:-}
  if [ -z "$rate" ]; then
    local probe profile ideal
    probe=$(mktemp -d)
    profile="$probe/probe.json"
    echo '{ "name": "probe", "description": "one user", "stages": [ { "kind": "keepConstant", "copies": 1, "during": "5s" } ] }' >"$profile"
    scripts/harness.sh run --output "$probe" --profile "$profile" --warm-up 5s --stacks grpc --modes threadpool \
      --operations compute --iterations "$s0_iterations" >"$probe/output.txt" \
      || { cat "$probe/output.txt" >&2; echo "S0-open: the probe run failed; set S0_RATE to skip it" >&2; exit 1; }
    ideal=$(grep -o '"idealLatencyMs": *[0-9.]*' "$probe"/*/run.json | head -1 | sed 's/.*: *//')
    rm -rf "$probe"
    [ -n "$ideal" ] || { echo "S0-open: the probe measured no lone-call time; set S0_RATE" >&2; exit 1; }
    rate=$(awk -v cores="$cores" -v ms="$ideal" 'BEGIN { r = int(0.85 * cores * 1000 / ms + 0.5); print (r < 1 ? 1 : r) }')
    echo "S0-open: one lone call takes $ideal ms; $rate requests/s is about 85 % of $cores cores"
  fi
  local folder profile
  folder=$(mktemp -d)
  profile="$folder/open-85.json"
  write_profile "$profile" open-85 "Arrivals ramped to $rate/s over 10 s, then $rate/s for 2 minutes: about 85 % of $cores cores." \
    "{ \"kind\": \"rampingInject\", \"rate\": $rate, \"interval\": \"1s\", \"during\": \"10s\" }" \
    "{ \"kind\": \"inject\", \"rate\": $rate, \"interval\": \"1s\", \"during\": \"2m\" }"
  harness run --output reports/S0-open --profile "$profile" --operations compute --iterations "$s0_iterations" --modes threadpool,iocp
  rm -rf "$folder"
}

# S1's 100,000 calls in flight against one gRPC service this script starts itself, reached over TRANSPORT (tcp:
# loopback, or unix: the service's Listen__UnixSocket, what the published experiment's named pipes are on Linux) with the GC as .NET sets it
# (S1_GC=tuned: DOTNET_GCConserveMemory=9 and a 896 MiB heap limit, as S1 sets). While the run lasts, the service's
# /proc/PID/status is read every second; at the end one line gives its peak working set (VmHWM), peak private bytes
# (RssAnon) and the run's folder, whose report has the GC heap, failures and latency. s1_transport TRANSPORT
s1_transport() {
  local transport=$1 users=${S1_USERS:-100000} wait_ms=${S1_WAIT_MS:-60000} folder out port metrics target service
  out=loadtests/Harness.LoadTests/bin/Release/net10.0
  scripts/harness.sh --help >/dev/null  # builds the runner and, beside it, the service
  folder=$(mktemp -d)
  # Two loopback ports nothing answers on (a few tries, from a random start in the unprivileged range).
  local free=() p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 30000))
    (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || free+=("$p")
    [ ${#free[@]} -ge 2 ] && break
  done
  port=${free[0]:?no free loopback port} metrics=${free[1]:?no free loopback port}
  local service_env=()
  if [ "${S1_GC:-default}" = tuned ]; then
    service_env=(DOTNET_GCConserveMemory=9 DOTNET_GCHeapHardLimit=0x38000000)
  fi
  env ${service_env[@]+"${service_env[@]}"} dotnet "$out/Harness.GrpcService.dll" --Listen:Port="$port" \
    --Listen:MetricsPort="$metrics" --Listen:AdminPort=0 --Listen:UnixSocket="$folder/grpc.sock" --Scheduling:Mode=threadpool \
    --Serilog:MinimumLevel:Default=Warning >"$folder/service.log" 2>&1 &
  service=$!
  for _ in $(seq 1 60); do
    curl -sf "http://127.0.0.1:$metrics/healthz" >/dev/null 2>&1 && break
    kill -0 "$service" 2>/dev/null || { cat "$folder/service.log" >&2; return 1; }
    sleep 1
  done
  case "$transport" in
    unix) target="grpc=unix://$folder/grpc.sock" ;;
    *) target="grpc=http://127.0.0.1:$port" ;;
  esac
  # Bounded by the service's life: the run below ends it.
  ( while kill -0 "$service" 2>/dev/null; do
      awk -v t="$(date +%s)" '/^(VmRSS|VmHWM|RssAnon):/ { v[$1] = $2 } END { print t, v["VmRSS:"], v["VmHWM:"], v["RssAnon:"] }' \
        "/proc/$service/status" 2>/dev/null || true
      sleep 1
    done ) >"$folder/proc.txt" &
  write_profile "$folder/s1.json" s1 "$users users added evenly over one ${wait_ms} ms wait, then held for 2 minutes." \
    "{ \"kind\": \"rampingConstant\", \"copies\": $users, \"during\": \"$((wait_ms / 1000))s\" }" \
    "{ \"kind\": \"keepConstant\", \"copies\": $users, \"during\": \"2m\" }"
  local status=0
  scripts/harness.sh run --output "reports/S1-$transport" --profile "$folder/s1.json" \
    --target "$target,metrics=http://127.0.0.1:$metrics,mode=$transport" --operations call-third-party --fanout 1 \
    --delay-ms "$wait_ms" --style task-delay --repeat 1 ${extra[@]+"${extra[@]}"} || status=$?
  local hwm anon run heap
  hwm=$(tail -n 1 "$folder/proc.txt" | awk '{ print $3 }')
  anon=$(awk '$4 > m { m = $4 } END { print m + 0 }' "$folder/proc.txt")
  kill "$service" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
  run=$(ls -d "reports/S1-$transport"/*/ | tail -n 1)
  # The service's GC heap after its last collection, as scraped from its /metrics each second.
  heap=$(cat "$run"series/*.jsonl | grep -o '"dotnet_gc_heap_bytes":[0-9.eE+]*' | awk -F: '$2 + 0 > m { m = $2 + 0 } END { printf "%.0f", m / 1048576 }')
  echo "S1 over $transport (GC ${S1_GC:-default}): service peak working set $((hwm / 1024)) MiB (VmHWM), peak private $((anon / 1024)) MiB (RssAnon, sampled 1/s), peak GC heap $heap MiB; report: $run"
  rm -rf "$folder"
  return "$status"
}

case "$experiment" in
  S0)
    s0_burst
    s0_closed
    s0_open
    ;;
  S0-burst) s0_burst ;;
  S0-closed) s0_closed ;;
  S0-open) s0_open ;;
  S1)
    # At the published scale: 100,000 users (S1_USERS), each keeping one call in flight whose 60 s wait
    # (S1_WAIT_MS) holds no thread (task-delay), on gRPC, where HTTP/2 carries them all on a few connections. Users
    # are added evenly over one wait, so calls start and end at an even rate (100,000 / 60 s, about 1,700/s) instead
    # of in waves; then held for 2 minutes. docs/s1-scale.md says where the memory goes and why.
    users=${S1_USERS:-100000}
    wait_ms=${S1_WAIT_MS:-60000}
    # Each call's objects outlive the young collections and die in gen 2, which is collected late: with this the GC
    # works harder to keep the heap small, and the service's peak fell from 1.8-2.1 GB to 1.3 GB, the runner's from 1.5-1.7 to
    # 0.9 GB (docs/s1-scale.md). The services inherit it from the runner.
    export DOTNET_GCConserveMemory=${DOTNET_GCConserveMemory:-9}
    # And the service's GC heap is held to 896 MiB, so that heap and runtime stay within 1 GiB: the live set is about
    # 790 MiB at 100,000 calls in flight, and without a limit the gen 2 garbage above it took the service to 1.13 GB.
    # For the services alone (HARNESS_SERVICE_*): the runner's heap holds 610-830 MB of its own at this scale.
    export HARNESS_SERVICE_DOTNET_GCHeapHardLimit=${HARNESS_SERVICE_DOTNET_GCHeapHardLimit:-0x38000000}
    folder=$(mktemp -d)
    profile="$folder/s1.json"
    write_profile "$profile" s1 "$users users added evenly over one ${wait_ms} ms wait, then held for 2 minutes." \
      "{ \"kind\": \"rampingConstant\", \"copies\": $users, \"during\": \"$((wait_ms / 1000))s\" }" \
      "{ \"kind\": \"keepConstant\", \"copies\": $users, \"during\": \"2m\" }"
    harness run --output reports/S1-task-delay --profile "$profile" \
      --operations call-third-party --fanout 1 --delay-ms "$wait_ms" --style task-delay --modes threadpool --stacks grpc
    rm -rf "$folder"
    # The blocking counterpart (a thread per wait) at the largest count this machine survives (S1_BLOCKING_USERS):
    # the report charts its threads and memory over time.
    harness run --output reports/S1-task-wait --profile constant --users "${S1_BLOCKING_USERS:-2000}" \
      --operations call-third-party --fanout 1 --delay-ms "$wait_ms" --style task-wait --modes threadpool --stacks grpc
    # SOAP on HTTP/1.1 holds a connection per call in flight: as many users as the descriptor limit allows (the
    # harness refuses more before the run, naming the limit).
    harness run --output reports/S1-soap --profile constant --users "${S1_SOAP_USERS:-$(($(ulimit -Hn) - 512))}" \
      --operations call-third-party --fanout 1 --delay-ms "$wait_ms" --style task-delay --modes threadpool --stacks soap
    ;;
  S1-transports)
    # S1's task-delay series over loopback TCP, then over a Unix domain socket, each against a service started afresh.
    s1_transport tcp
    s1_transport unix
    ;;
  S1-tcp) s1_transport tcp ;;
  S1-unix) s1_transport unix ;;
  S2)
    # As published: ramp 4 users +4 every 45 s for 8 minutes; each request fans out 4 blocking 4 s calls.
    harness run --output reports/S2 --profile ramp \
      --operations call-third-party --fanout 4 --delay-ms 4000 --style blocking --modes threadpool,iocp,custompool
    ;;
  S2-matrix)
    # S2 with each mode in its own container under the same limits (harness matrix; needs Docker and
    # scripts/build-images.sh). Defaults: SOAP, 1 CPU and 512 MiB per container; override with --cpus/--memory.
    harness matrix --output reports/S2-matrix --profile ramp --stacks soap \
      --operations call-third-party --fanout 4 --delay-ms 4000 --style blocking --modes threadpool,iocp,custompool \
      --cpus 1 --memory 512m
    ;;
  S3)
    # As published: 8 blocking reads per request, sequential vs the default degree of parallelism (cores) vs 8. The
    # degree is an operation argument, not a mode, so each is a run of its own: six runs in the balanced order
    # 1 cores 8 8 cores 1 (each degree early once and late once), each with its warm-up and --repeat repetitions.
    started=$(mktemp)
    scale=(--time-scale 0.25)  # a --time-scale among the extra options replaces it
    for option in ${extra[@]+"${extra[@]}"}; do
      case "$option" in --time-scale|--time-scale=*) scale=() ;; esac
    done
    for parallelism in 1 "$cores" 8 8 "$cores" 1; do
      harness run --output "reports/S3-p$parallelism" --profile constant --users 1 ${scale[@]+"${scale[@]}"} \
        --operations call-third-party --fanout 8 --delay-ms 250 --style blocking --parallelism "$parallelism" \
        --modes custompool
    done
    s3_summary "$started"
    ;;
  *)
    echo "usage: scripts/experiment.sh S0|S0-burst|S0-closed|S0-open|S1|S1-transports|S1-tcp|S1-unix|S2|S2-matrix|S3 [--repeat N] [harness options]" >&2
    exit 2
    ;;
esac
