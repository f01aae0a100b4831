#!/usr/bin/env bash
# What --data-feed costs the runner at its full rate. One gRPC --call (harness.v1.HarnessService/Compute, iterations 1,
# on the project's own gRPC service started here, loopback) with N closed-model users, enough to saturate the runner,
# in four arms against one warm service, in a balanced order (A B C D E, then E D C B A…):
#   constant   --data '{"iterations":1}'                       one request, encoded once for every call
#   rendered   --data '{"iterations":{{rand 1 1}}}'            rendered and encoded per call (the service's only field is
#                                                              the loop's count, so {{seq}} would grow its work; a
#                                                              one-value {{rand}} takes the same per-call path)
#   circular   --data '{"iterations":{{feed.iterations}}}' --data-feed ROWS.csv (circular)
#   random     the same feed, --data-feed-order random
#   shuffle    the same feed, --data-feed-order shuffle
# Prints each run's calls/s and the runner's CPU seconds per 1,000 calls (read from /proc between the end of the
# warm-up and the end of the load), then each arm's median and range and its ratio to constant. Each run must have
# no failed call, the service must have completed at least the calls the runner counted, and a feed run must have
# made at least as many calls as the feed has rows (circular and shuffle then took every row; random draws with
# replacement and reaches most).
# Usage: scripts/bench-feed.sh [--users N] [--rows N] [--duration S] [--warm-up S] [--repeat N] [--arms LIST]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

users=32 rows=100000 duration=15 warm_up=10 repeat=2 arms=constant,rendered,circular,random,shuffle
while [ $# -gt 0 ]; do
  case "$1" in
    --users) whole_number "$1" "${2:-}"; users=$2; shift 2 ;;
    --rows) whole_number "$1" "${2:-}"; rows=$2; shift 2 ;;
    --duration) whole_number "$1" "${2:-}"; duration=$2; shift 2 ;;
    --warm-up) whole_number "$1" "${2:-}"; warm_up=$2; shift 2 ;;
    --repeat) whole_number "$1" "${2:-}"; repeat=$2; shift 2 ;;
    --arms) arms=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --users, --rows, --duration, --warm-up, --repeat, --arms." 2 ;;
  esac
done
for a in ${arms//,/ }; do
  case "$a" in constant|rendered|circular|random|shuffle) ;; *) die "--arms '$arms': valid arms are constant, rendered, circular, random, shuffle." 2 ;; esac
done
[ "$rows" -le 1000000 ] || die "--rows $rows: a data feed has at most 1,000,000 rows." 2
command -v curl >/dev/null || die "curl is missing; install the Debian package curl." 2

build_release "$root/loadtests/Harness.LoadTests" || exit 1
bin="$runner_out"
work=$(mktemp -d)
service_pid=""
cleanup() {
  [ -z "$service_pid" ] || { kill "$service_pid" 2>/dev/null || true; wait "$service_pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

feed="$work/rows.csv"
{ echo "id,iterations"; seq 1 "$rows" | awk '{ print $1 ",1" }'; } >"$feed"
cat >"$work/closed.json" <<EOF
{ "name": "bench-feed", "description": "$users users for ${duration}s", "stages": [ { "kind": "keepConstant", "copies": $users, "during": "${duration}s" } ] }
EOF

port=$(free_ports 2)
admin=$((port + 1))
Scheduling__Mode=threadpool dotnet "$bin/Harness.GrpcService.dll" "--Listen:Port=$port" "--Listen:AdminPort=$admin" \
  --Serilog:MinimumLevel:Default=Warning >"$work/grpc.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 120); do curl -fs "http://127.0.0.1:$admin/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
curl -fs "http://127.0.0.1:$admin/healthz" >/dev/null || { cat "$work/grpc.log" >&2; die "the gRPC service did not answer /healthz within 60 s" 5; }

counter() {
  curl -fs "http://127.0.0.1:$admin/metrics" | awk -v m="harness_operations_$1_total{operation=\"compute\"}" '$1 == m { print $2 }'
}
clk=$(getconf CLK_TCK)
proc_cpu() { awk -v clk="$clk" '{ print ($14 + $15) / clk }' "/proc/$1/stat"; }

# run_arm ARM: one harness run; sets rps, calls, cpu.
run_arm() {
  local arm=$1 data='{"iterations":1}' extra=() fifo="$work/harness.fifo" out="$work/harness.out" hpid watchdog line
  local first_cpu="" first_n="" last_cpu="" last_n="" failures
  case "$arm" in
    rendered) data='{"iterations":{{rand 1 1}}}' ;;
    circular|random|shuffle) data='{"iterations":{{feed.iterations}}}' extra=(--data-feed "$feed" --data-feed-order "$arm") ;;
  esac
  rm -rf "$work/runs" "$fifo"
  mkfifo "$fifo"
  dotnet "$bin/harness.dll" run --profile "$work/closed.json" --target "grpc=http://127.0.0.1:$port,metrics=http://127.0.0.1:$admin" \
    --call harness.v1.HarnessService/Compute --data "$data" ${extra[@]+"${extra[@]}"} --warm-up "${warm_up}s" --output "$work/runs" >"$fifo" 2>&1 &
  hpid=$!
  # Bounded: the run's own seconds and two minutes for its start, lone calls and report.
  (sleep $((warm_up + duration + 120)); kill "$hpid") 2>/dev/null &
  watchdog=$!
  : >"$out"
  while IFS= read -r line; do
    echo "$line" >>"$out"
    # As bench-runner.sh: the progress line's "errors N/s (F of R)", outside the warm-up and the drain.
    if [[ "$line" =~ ^\[1/1\ .*\]\ ([0-9:]+)/.*errors\ [0-9]+/s\ \([0-9,]+\ of\ ([0-9,]+)\) ]] && [[ "$line" != *warm-up* ]] && [[ "$line" != *"users "*"/0  "* ]]; then
      last_cpu=$(proc_cpu "$hpid" 2>/dev/null || echo "$last_cpu")
      last_n=${BASH_REMATCH[2]//,/}
      [ -n "$first_cpu" ] || first_cpu=$last_cpu first_n=$last_n
    fi
  done <"$fifo"
  wait "$hpid" || { cat "$out" >&2; die "the harness run ($arm) failed or ran past its bound" 5; }
  pkill -P "$watchdog" sleep 2>/dev/null || true # its sleep, by the watchdog's own pid
  wait "$watchdog" 2>/dev/null || true
  read -r rps calls failures < <(awk -F, 'NR > 1 && $24 == 0 && $2 > 0 { n += $3; f += $4; s++ } END { printf "%.0f %d %d\n", n / s, n, f }' "$(ls "$work"/runs/*/csv/*.csv)")
  [ "$failures" = 0 ] || { cat "$out" >&2; die "$arm: the harness saw $failures failed calls" 5; }
  if [ -n "$first_n" ] && [ "$last_n" -gt "$first_n" ]; then
    cpu=$(awk -v a="$last_cpu" -v b="$first_cpu" -v n=$((last_n - first_n)) 'BEGIN { printf "%.4f", (a - b) / n * 1000 }')
  else
    cpu="?"
  fi
  # The whole run's calls, warm-up included (the feed's rows are taken from the first call on).
  all=$(awk -F, 'NR > 1 { n += $3 } END { print n + 0 }' "$(ls "$work"/runs/*/csv/*.csv)")
  case "$arm" in circular|random|shuffle)
    [ "$all" -ge "$rows" ] || die "$arm: $all calls, fewer than the feed's $rows rows; give a longer --duration or fewer --rows" 5 ;;
  esac
}

results="$work/results"
: >"$results"
echo "bench-feed: gRPC --call Compute(iterations 1) through Grpc.Net.Client, $users users, ${duration}s per run after ${warm_up}s warm-up, feed of $rows rows, $repeat repetitions, $(nproc) cores"
echo "machine load before: $(uptime | sed 's/.*load average/load average/')"
printf '%-9s %3s %10s %14s %10s  %s\n' arm run "calls/s" "CPU s/1k calls" "all calls" time
read -r -a order <<<"${arms//,/ }"
for r in $(seq 1 "$repeat"); do
  list=("${order[@]}")
  # A B C…, then …C B A: over two repetitions every arm has been early and late once.
  if [ $((r % 2)) = 0 ]; then list=(); for ((i = ${#order[@]} - 1; i >= 0; i--)); do list+=("${order[i]}"); done; fi
  for arm in "${list[@]}"; do
    ok0=$(counter completed) failed0=$(counter failed)
    run_arm "$arm"
    ok1=$(counter completed) failed1=$(counter failed)
    [ "$((failed1 - failed0))" = 0 ] || die "$arm: the service counted $((failed1 - failed0)) failed Compute calls" 5
    [ "$((ok1 - ok0))" -ge "$calls" ] || die "$arm: the runner counted $calls calls but the service completed only $((ok1 - ok0))" 5
    printf '%-9s %3s %10s %14s %10s  %s\n' "$arm" "$r" "$rps" "$cpu" "$all" "$(date -u +%H:%M:%S)"
    echo "$arm $r $rps $cpu" >>"$results"
  done
done
echo "machine load after: $(uptime | sed 's/.*load average/load average/')"
echo
echo "each arm: median calls/s and runner CPU s per 1,000 calls (min–max), and the ratio to constant's median"
for arm in "${order[@]}"; do
  awk -v arm="$arm" "$(cat "$root/scripts/lib/median.awk")"'
    function range(a, n,   i, lo, hi) { lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] } return lo "–" hi }
    $1 == "constant" { b[++nb] = $3; if ($4 != "?") bc[++nbc] = $4 }
    $1 == arm { r[++n] = $3; if ($4 != "?") c[++nc] = $4 }
    END {
      line = sprintf("%-9s %8.0f calls/s (%s)", arm, median(r, n), range(r, n))
      if (nb) line = line sprintf(" %.2f×", median(r, n) / median(b, nb))
      if (nc) line = line sprintf("   CPU %.4f (%s)", median(c, nc), range(c, nc))
      if (nc && nbc) line = line sprintf(" %.2f×, %+.1f µs a call", median(c, nc) / median(bc, nbc), (median(c, nc) - median(bc, nbc)) * 1000)
      print line
    }' "$results"
done
