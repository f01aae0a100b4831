#!/usr/bin/env bash
# Do inline socket completions in the runner (DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 given to the harness,
# which keeps it from the services) add latency when very many calls are in flight? With them, socket continuations
# run on the socket event threads, so one slow continuation delays the other connections' events.
# Per stack, in a balanced order (off, on, on, off, …), the harness holds USERS calls of a DELAY ms third-party wait
# (task-delay, iocp mode) in flight against its own local services, and prints per run the latency above the wait
# (p50, p99, mean), req/s, and the runner's CPU (over the series, and per thread group over the middle half of the
# hold), then the medians per arm.
# Usage: scripts/bench-runner-inline.sh [--users N] [--delay-ms MS] [--seconds S] [--warm-up S] [--repeat N] [--stacks grpc,soap]
# The services and the runner share this machine's cores.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

users=2000 delay=1000 seconds=30 warm_up=10 repeat=2 stacks=grpc,soap
while [ $# -gt 0 ]; do
  case "$1" in
    --users) whole_number "$1" "${2:-}"; users=$2; shift 2 ;;
    --delay-ms) whole_number "$1" "${2:-}"; delay=$2; shift 2 ;;
    --seconds) whole_number "$1" "${2:-}"; seconds=$2; shift 2 ;;
    --warm-up) whole_number "$1" "${2:-}"; warm_up=$2; shift 2 ;;
    --repeat) whole_number "$1" "${2:-}"; repeat=$2; shift 2 ;;
    --stacks) stacks=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --users, --delay-ms, --seconds, --warm-up, --repeat, --stacks." 2 ;;
  esac
done
for s in ${stacks//,/ }; do
  case "$s" in grpc|soap) ;; *) die "--stacks '$stacks': valid values are grpc, soap." 2 ;; esac
done

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
build_release "$root/loadtests/Harness.LoadTests" || exit 1
bin="$runner_out"
work=$(mktemp -d)
pid=""
# An interrupted script stops the harness run under way (which stops its own services) before removing its folder.
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cat >"$work/hold.json" <<EOF
{ "name": "bench-runner-inline", "description": "$users users for ${seconds}s", "stages": [ { "kind": "rampingConstant", "copies": $users, "during": "5s" }, { "kind": "keepConstant", "copies": $users, "during": "${seconds}s" } ] }
EOF

# The runner's CPU ticks per thread group (socket engine, pool workers, background GC, the rest), from each
# thread's /proc stat; the fields after the "(comm)", whose name may hold spaces.
thread_ticks() {
  local t
  for t in /proc/"$1"/task/*; do
    printf '%s\t%s\n' "$(cat "$t/comm" 2>/dev/null)" "$(sed 's/.*) //' "$t/stat" 2>/dev/null | awk '{ print $12 + $13 }')"
  done | awk -F'\t' '{ g = $1 ~ /Sockets/ ? "engine" : $1 ~ /TP Worker/ ? "pool" : $1 ~ /BGC/ ? "gc" : "rest"; c[g] += $2 }
    END { print c["engine"] + 0, c["pool"] + 0, c["gc"] + 0, c["rest"] + 0 }'
}
clk=$(getconf CLK_TCK)

# One run: arm (off|on), stack. Appends "stack arm p50-over p99-over mean-over rps runner-cpu engine pool gc" to
# results; the last three are % of one core over the middle half of the hold, sampled from outside the runner.
run_one() {
  local arm=$1 stack=$2 value folder row runner before after window
  [ "$arm" = on ] && value=1 || value=0
  rm -rf "$work/runs"
  DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=$value dotnet "$bin/harness.dll" run --profile "$work/hold.json" \
    --stacks "$stack" --modes iocp --operations call-third-party --fanout 1 --delay-ms "$delay" --style task-delay \
    --warm-up "${warm_up}s" --output "$work/runs" >"$work/out" 2>&1 &
  pid=$!
  # About 5 s to start the services and warm the client, then the warm-up and the 5 s ramp.
  window=$((seconds / 2))
  sleep $((5 + warm_up + 5 + seconds / 4))
  before="" after=""
  kill -0 "$pid" 2>/dev/null && before=$(thread_ticks "$pid")
  sleep "$window"
  # Both samples from the hold of a live runner, or none (a run shorter than the estimate above).
  kill -0 "$pid" 2>/dev/null && after=$(thread_ticks "$pid")
  kill -0 "$pid" 2>/dev/null || after=""
  wait "$pid" || { pid=""; cat "$work/out" >&2; die "the $arm run on $stack failed"; }
  pid=""
  folder=$(ls -d "$work/runs"/*/ | head -1)
  # | mode | requests | req/s | mean ms | p50 ms | p90 ms | p99 ms | …, and the load runner's CPU % of one core.
  # The report groups thousands with commas (1,004).
  row=$(awk -F'|' '$2 ~ /^ iocp $/ && $3 ~ /[0-9]/ { print $4, $5, $6, $8; exit }' "$folder/summary.md" | tr -d ,)
  runner=$(tr -d , <"$folder/summary.md" | awk -F'|' -v s="$stack-call-third-party-iocp" '$2 ~ s && NF > 6 { v = $6 } END { print v + 0 }')
  read -r rps mean p50 p99 <<<"$row"
  [ -n "${p99:-}" ] || { cat "$folder/summary.md" >&2; die "no iocp row in the $arm run's summary"; }
  awk -v s="$stack" -v a="$arm" -v d="$delay" -v p50="$p50" -v p99="$p99" -v m="$mean" -v r="$rps" -v c="$runner" \
    -v b="$before" -v e="$after" -v w="$window" -v clk="$clk" \
    'BEGIN { printf "%s %s %.1f %.1f %.1f %s %s", s, a, p50 - d, p99 - d, m - d, r, c
             if (b == "" || e == "") { print " - - -"; exit }
             split(b, x, " "); split(e, y, " "); f = 100 / (w * clk)
             for (i = 1; i <= 3; i++) printf " %s", (y[i] >= x[i] ? sprintf("%.1f", (y[i] - x[i]) * f) : "-")
             print "" }' | tee -a "$work/results"
}

echo "runner inline completions off/on: $users users, ${delay} ms task-delay waits, ${seconds} s measured after ${warm_up} s, repeat $repeat"
echo "stack arm p50-above-wait-ms p99-above-wait-ms mean-above-wait-ms req/s runner-cpu-%-of-1-core socket-engine-% pool-% background-gc-%"
run=0 runs=0
for stack in ${stacks//,/ }; do runs=$((runs + 2 * repeat)); done
for stack in ${stacks//,/ }; do
  for r in $(seq 1 "$repeat"); do
    if [ $((r % 2)) = 1 ]; then order="off on"; else order="on off"; fi
    for arm in $order; do
      run=$((run + 1))
      echo "  … run $run of $runs: $stack, inline $arm (about $((seconds + warm_up + 25)) s)" >&2
      run_one "$arm" "$stack"
    done
  done
done

echo "medians (off → on):"
awk "$(cat "$root/scripts/lib/median.awk")"'
  function arm(s, a, c,   k, x, j) {
    k = s SUBSEP a SUBSEP c
    if (!n[k]) return "n/a"
    for (j = 1; j <= n[k]; j++) x[j] = v[k, j]
    return sprintf("%.1f", median(x, n[k]))
  }
  BEGIN { split("p50-above-wait p99-above-wait mean-above-wait req/s runner-cpu socket-engine pool background-gc", names, " ") }
  { if (!($1 in seen)) { seen[$1]; order[++stacks] = $1 }
    for (c = 3; c <= 10; c++) if ($c != "-") { k = $1 SUBSEP $2 SUBSEP c; v[k, ++n[k]] = $c } }
  END { for (i = 1; i <= stacks; i++) for (c = 3; c <= 10; c++)
          printf "  %-5s %-18s %10s → %10s\n", order[i], names[c - 2], arm(order[i], "off", c), arm(order[i], "on", c) }' "$work/results"
