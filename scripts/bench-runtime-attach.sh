#!/usr/bin/env bash
# What the runner's EventPipe session (--runtime-events on, docs/runtime.md) costs the service it attaches to: whole
# `harness run`s of the gRPC service in threadpool mode under a constant closed load, with the session on and off in a
# balanced order (on off off on, repeated), each against a service started afresh. Per run: the service's CPU per
# request (process_cpu_seconds_total over the measured seconds ÷ their requests) and its requests a second; then the
# median of each side with its range, and on ÷ off.
# Usage: scripts/bench-runtime-attach.sh [--pairs N] [--time-scale F] [--users N] [--output DIR]
#   --pairs N        ABBA blocks (each 4 runs: on off off on); default 2, at most 6
#   --time-scale F   the constant profile's time scale (default 0.1: 12 s measured after a 2 s warm-up)
#   --users N        closed-model users (default 8)
#   --output DIR     where results go (default artifacts/bench-runtime-attach/<time>): results.tsv and the runs
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

pairs=2 scale=0.1 users=8 output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) [[ "${2:-}" =~ ^[1-6]$ ]] || die "--pairs '${2:-}': takes a whole number from 1 to 6." 2; pairs=$2; shift 2 ;;
    --time-scale) [[ "${2:-}" =~ ^(0\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]] || die "--time-scale '${2:-}': takes a number above 0 and at most 1, e.g. 0.1." 2; scale=$2; shift 2 ;;
    --users) [[ "${2:-}" =~ ^[1-9][0-9]{0,2}$ ]] || die "--users '${2:-}': takes a whole number from 1 to 999." 2; users=$2; shift 2 ;;
    --output) output=${2:-}; [ -n "$output" ] || die "--output: takes a directory." 2; shift 2 ;;
    -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --pairs, --time-scale, --users, --output, -h." 2 ;;
  esac
done
output=${output:-artifacts/bench-runtime-attach/$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$output"
build_release "$root/loadtests/Harness.LoadTests/Harness.LoadTests.csproj" || exit 1

order=()
for _ in $(seq 1 "$pairs"); do order+=(on off off on); done
printf 'run\tsession\trequests\tseconds\tcpu_ms_per_request\trequests_per_second\n' >"$output/results.tsv"
n=0
for session in "${order[@]}"; do
  n=$((n + 1))
  runs="$output/run-$n-$session"
  echo "run $n of ${#order[@]}: --runtime-events $session" >&2
  # Bounded: a 12 s run at the default scale; 5 minutes is far beyond any healthy one.
  timeout 300 dotnet "$runner_out/harness.dll" run --stacks grpc --operations compute --modes threadpool \
    --iterations 200000 --profile constant --users "$users" --time-scale "$scale" --warm-up 2s \
    --runtime-events "$session" --output "$runs" >"$runs.log" 2>&1 || die "run $n failed: see $runs.log" 1
  python3 - "$runs" "$n" "$session" >>"$output/results.tsv" <<'EOF'
import glob, json, sys
folder, n, session = sys.argv[1:]
run = sorted(glob.glob(f"{folder}/*/run.json"))[-1]
manifest = json.load(open(run))
series = manifest["series"][0]
warm = series.get("warmUpSeconds", 0)
lines = [json.loads(l) for l in open(run.replace("run.json", f"series/{series['id']}.jsonl")) if l.strip()]
measured = [s for s in lines if s["second"] >= warm]
cpu = [s["server"].get("process_cpu_seconds_total") for s in measured]
cpu = [c for c in cpu if isinstance(c, (int, float))]
requests = sum(s["requests"] - s["failures"] for s in measured)
seconds = len(measured)
print(f"{n}\t{session}\t{requests}\t{seconds}\t{(cpu[-1] - cpu[0]) * 1000 / requests:.4f}\t{requests / seconds:.0f}")
EOF
done

python3 - "$output/results.tsv" <<'EOF' | tee "$output/results.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def side(name, field):
    values = sorted(float(r[field]) for r in rows if r["session"] == name)
    return statistics.median(values), values[0], values[-1]
print("| session | runs | service CPU per request, ms (median, range) | requests a second (median, range) |")
print("|---|---:|---|---|")
for name in ("on", "off"):
    cpu, rps = side(name, "cpu_ms_per_request"), side(name, "requests_per_second")
    runs = sum(r["session"] == name for r in rows)
    print(f"| {name} | {runs} | {cpu[0]:.3f} ({cpu[1]:.3f}–{cpu[2]:.3f}) | {rps[0]:,.0f} ({rps[1]:,.0f}–{rps[2]:,.0f}) |")
on, off = side("on", "cpu_ms_per_request")[0], side("off", "cpu_ms_per_request")[0]
print(f"\non ÷ off, CPU per request: {on / off:.3f}")
EOF
echo "results: $output/results.md" >&2
