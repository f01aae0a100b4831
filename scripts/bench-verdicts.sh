#!/usr/bin/env bash
# Are the report's and the gate's verdicts right on real runs? Three parts, each selectable:
#   aa     A/A main jobs: `harness run --modes threadpool,threadpool,threadpool --repeat R` (both stacks, Compute),
#          counting per run the verdicts of summary.md: better / worse / no difference / inconclusive among the mode
#          ratios (every one a false alarm if marked), and apart from them in the gRPC ÷ SOAP table (two stacks: a
#          marked ratio there may be real).
#   gate   A/A gate pairs: `harness compare A B --fail-on-regression 5%` of two such runs (consecutive aa runs of this
#          invocation, when aa runs too; else two runs of its own per pair), recording the exit code
#          (0 pass, 1 fail, 7 inconclusive, 2 not judged).
#   power  A/B runs with a true difference: two gRPC services started here on loopback, B's Compute doing
#          ComputeWork__Factor times the work (1.10, 1.20, 1.40; and 1.00 as the A/A control), loaded in one run
#          (`--target …,mode=a --target …,mode=b --modes a,b --repeat R`, balanced rounds a b | b a | b a | a b…);
#          counts whether b's mean is judged worse (found), inconclusive, no difference, or better (wrong). Sizes go in a balanced
#          order across rounds, so no size always gets the machine's earlier minutes.
# Results are appended, one line per run, to TSV files under the output folder as each run ends, so an interrupted
# script loses nothing; the summary at the end gives each rate with its 95 % Wilson interval. Figures and reading:
# docs/results.md, "Verdicts on real runs".
#   scripts/bench-verdicts.sh [--parts LIST] [--runs N] [--pairs N] [--power-runs N] [--sizes LIST] [--repeat R]
#                             [--time-scale F] [--output DIR] [-- more run options]
#   --parts LIST      comma-separated, from aa, gate, power (default aa,gate,power)
#   --runs N          aa: A/A main jobs (default 10)
#   --pairs N         gate: A/A pairs (default 5; with aa, taken from its runs in order, so at most runs ÷ 2)
#   --power-runs N    power: runs per size, the control included (default 3)
#   --sizes LIST      power: B's factors, each 1.0–10.0 (default 1.10,1.20,1.40; the 1.00 control is always added)
#   --repeat R        rounds of every run (default 2)
#   --time-scale F    the runs' --time-scale (default 0.25: the quick profile's 20 s series become 5 s after a 3 s warm-up)
#   --output DIR      run folders and TSVs (default artifacts/bench-verdicts/DATE-TIME)
#   --summary-only    print the summary of an existing --output DIR's TSVs and stop
#   after --          more `harness run` options for every run (e.g. -- --iterations 500000)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

parts="aa,gate,power"; runs=10; pairs=5; power_runs=3; sizes="1.10,1.20,1.40"; repeat=2; scale=0.25
out=""; summary_only=0; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --parts) parts=${2:-}; shift 2 ;;
    --runs) whole_number "$1" "${2:-}"; runs=$2; shift 2 ;;
    --pairs) whole_number "$1" "${2:-}"; pairs=$2; shift 2 ;;
    --power-runs) whole_number "$1" "${2:-}"; power_runs=$2; shift 2 ;;
    --sizes) sizes=${2:-}; shift 2 ;;
    --repeat) whole_number "$1" "${2:-}"; repeat=$2; shift 2 ;;
    --time-scale) [[ "${2:-}" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--time-scale '${2:-}': takes a positive number, e.g. 0.25." 2; scale=$2; shift 2 ;;
    --output) [ -n "${2:-}" ] || die "--output: takes a folder." 2; out=$2; shift 2 ;;
    --summary-only) summary_only=1; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,31s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --parts, --runs, --pairs, --power-runs, --sizes, --repeat, --time-scale, --output, --summary-only, -- (run options)." 2 ;;
  esac
done
IFS=, read -r -a selected <<< "$parts"
[ "${#selected[@]}" -gt 0 ] || die "--parts: name at least one of aa, gate, power." 2
for p in "${selected[@]}"; do
  case "$p" in aa|gate|power) ;; *) die "--parts: '$p' is not one of aa, gate, power." 2 ;; esac
done
has_part() { [[ ",$parts," == *",$1,"* ]]; }
IFS=, read -r -a factors <<< "$sizes"
for f in "${factors[@]}"; do
  awk -v f="$f" 'BEGIN { exit !(f ~ /^[0-9]+(\.[0-9]+)?$/ && f + 0 >= 1 && f + 0 <= 10) }' \
    || die "--sizes: '$f' is not a factor between 1.0 and 10.0 (ComputeWork__Factor's range)." 2
done
[ "$repeat" -ge 2 ] || die "--repeat $repeat: verdicts need 2 rounds or more." 2
[ "$repeat" -le 20 ] || die "--repeat $repeat: harness run takes 20 at most." 2
[ -n "$out" ] || out="artifacts/bench-verdicts/$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
aa_tsv="$out/aa.tsv"; gate_tsv="$out/gate.tsv"; power_tsv="$out/power.tsv"

# wilson K N: "k/n = p % (low–high %)", the 95 % Wilson score interval of k successes in n.
wilson() {
  awk -v k="$1" -v n="$2" 'BEGIN {
    if (n == 0) { print "0/0"; exit }
    z = 1.959964; p = k / n; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo = c - h < 0 ? 0 : c - h; hi = c + h > 1 ? 1 : c + h
    printf "%d/%d = %.0f %% (95 %% interval %.0f–%.0f %%)", k, n, p * 100, lo * 100, hi * 100 }'
}

summary() {
  echo
  echo "== summary ($out) =="
  if [ "$(wc -l < "$aa_tsv" 2>/dev/null || echo 0)" -gt 1 ]; then
    awk -F'\t' 'NR > 1 { n++; any += ($5 + $6 > 0); b += $5; w += $6; nd += $7; inc += $8; sany += ($9 + $10 > 0); sb += $9; sw += $10; snd += $11; sinc += $12; sec += $3 }
      END { printf "aa: %d runs, %.0f s each on average; mode ratios judged: %d better, %d worse, %d no difference, %d inconclusive; gRPC ÷ SOAP: %d better, %d worse, %d no difference, %d inconclusive\n", n, sec / n, b, w, nd, inc, sb, sw, snd, sinc
        print any, n, sany > "/dev/stderr" }' "$aa_tsv" 2> "$out/.aa-counts"
    read -r any n sany < "$out/.aa-counts"
    echo "  report false alarms (runs with any better/worse among mode ratios): $(wilson "$any" "$n")   goal ≤ 5 %"
    echo "  runs with any better/worse in gRPC ÷ SOAP (may be real):            $(wilson "$sany" "$n")"
  fi
  if [ "$(wc -l < "$gate_tsv" 2>/dev/null || echo 0)" -gt 1 ]; then
    read -r n fail pass inc nj < <(awk -F'\t' 'NR > 1 { n++; f += ($4 == 1); p += ($4 == 0); i += ($4 == 7); j += ($4 == 2) } END { print n + 0, f + 0, p + 0, i + 0, j + 0 }' "$gate_tsv")
    echo "gate: $n A/A pairs: $pass pass, $fail fail, $inc inconclusive, $nj not judged"
    echo "  gate false alarms (exit 1):   $(wilson "$fail" "$n")   goal ≤ 5 %"
    echo "  gate passes (exit 0):         $(wilson "$pass" "$n")"
  fi
  if [ "$(wc -l < "$power_tsv" 2>/dev/null || echo 0)" -gt 1 ]; then
    for f in $(awk -F'\t' 'NR > 1 { print $2 }' "$power_tsv" | sort -un); do
      read -r n worse inc nd better < <(awk -F'\t' -v f="$f" 'NR > 1 && $2 == f { n++; w += ($5 == "worse"); i += ($5 == "inconclusive"); d += ($5 == "no-difference"); b += ($5 == "better") } END { print n + 0, w + 0, i + 0, d + 0, b + 0 }' "$power_tsv")
      label=$(awk -v f="$f" 'BEGIN { printf (f == 1 ? "control (A/A)" : "+%.0f %% work"), (f - 1) * 100 }')
      echo "power, B at factor $f ($label): $n runs: $worse worse, $inc inconclusive, $nd no difference, $better better; b's mean judged worse: $(wilson "$worse" "$n")"
    done
  fi
}
if [ "$summary_only" = 1 ]; then summary; exit 0; fi

scripts/harness.sh --help >/dev/null   # builds the runner (and the services beside it) when a source changed, before any timing
[ -f "$runner_out/Harness.GrpcService.dll" ] || die "no Harness.GrpcService.dll beside the runner in $runner_out"
echo "$(nproc --all) processors, load average $(cut -d' ' -f1-3 /proc/loadavg); parts $parts; --repeat $repeat --time-scale $scale; writing $out" >&2

# verdicts SUMMARY_MD: "mode_better mode_worse mode_nodiff mode_inconclusive stack_better stack_worse stack_nodiff
# stack_inconclusive": the judged cells of summary.md's tables, the gRPC ÷ SOAP section apart from the rest. A judged
# cell reads "1.02× (0.90–1.31) better|worse|no difference beyond ±5 %|inconclusive: between …"; the prose above
# each table is not counted (only table rows, and only a verdict after an interval's closing parenthesis).
verdicts() {
  awk -F'|' '
    /^## / { stack = index($0, "gRPC ÷ SOAP") > 0 }
    /^\|/ { for (i = 2; i < NF; i++) {
        c = $i; k = stack ? 5 : 1
        if (c ~ /\) better *$/) v[k]++; else if (c ~ /\) worse *$/) v[k + 1]++
        else if (c ~ /\) no difference beyond/) v[k + 2]++; else if (c ~ /\) inconclusive/) v[k + 3]++ } }
    END { for (i = 1; i <= 8; i++) printf "%d%s", v[i], (i < 8 ? "\t" : "\n") }' "$1"
}

# run_aa N DIR: one A/A main job into DIR; appends its line to aa.tsv and sets last_folder to its run folder.
last_folder=""
run_aa() {
  local n=$1 dir=$2 load started code=0 folder seconds counts
  load=$(cut -d' ' -f1 /proc/loadavg); started=$(date +%s)
  echo "aa run $n (load average $load) $(date -u +%T)" >&2
  dotnet "$runner_out/harness.dll" run --modes threadpool,threadpool,threadpool --repeat "$repeat" --time-scale "$scale" \
    --operations compute --output "$dir" ${extra[@]+"${extra[@]}"} > "$dir.log" 2>&1 || code=$?
  seconds=$(($(date +%s) - started))
  folder=$(ls -td "$dir"/*/ 2>/dev/null | head -n 1)
  if [ -z "$folder" ] || [ ! -f "$folder/summary.md" ]; then
    tail -n 20 "$dir.log" >&2; die "aa run $n wrote no summary.md (exit $code); its output: $dir.log"
  fi
  counts=$(verdicts "$folder/summary.md")
  printf '%d\t%s\t%d\t%s\t%s\t%d\n' "$n" "$folder" "$seconds" "$load" "$counts" "$code" >> "$aa_tsv"
  read -r mb mw mn mi sb sw sn si <<< "$counts"
  echo "  ${seconds} s, exit $code; mode ratios: $mb better, $mw worse, $mn no difference, $mi inconclusive; gRPC ÷ SOAP: $sb better, $sw worse, $sn no difference, $si inconclusive" >&2
  last_folder=${folder%/}
}

# gate K A B: compare two A/A runs with the 5 % gate; appends the exit code to gate.tsv.
gate() {
  local k=$1 a=$2 b=$3 code=0
  dotnet "$runner_out/harness.dll" compare "$a" "$b" --fail-on-regression 5% --output "$out/compare-$k" > "$out/compare-$k.log" 2>&1 || code=$?
  printf '%d\t%s\t%s\t%d\n' "$k" "$a" "$b" "$code" >> "$gate_tsv"
  local word; case "$code" in 0) word=pass ;; 1) word=fail ;; 7) word=inconclusive ;; 2) word="not judged" ;; *) word="error (see $out/compare-$k.log)" ;; esac
  echo "  gate pair $k: exit $code ($word)" >&2
}

[ -f "$aa_tsv" ] || printf 'run\tfolder\tseconds\tload\tmode_better\tmode_worse\tmode_nodiff\tmode_inconclusive\tstack_better\tstack_worse\tstack_nodiff\tstack_inconclusive\texit\n' > "$aa_tsv"
[ -f "$gate_tsv" ] || printf 'pair\trun_a\trun_b\texit\n' > "$gate_tsv"
[ -f "$power_tsv" ] || printf 'run\tfactor\tfolder\tseconds\tb_mean\tb_p99\tb_rps\tload\texit\n' > "$power_tsv"

aa_folders=()
if has_part aa; then
  for ((n = 1; n <= runs; n++)); do
    run_aa "$n" "$out/aa-$n"; aa_folders+=("$last_folder")
    if has_part gate && ((n % 2 == 0)) && ((n / 2 <= pairs)); then gate $((n / 2)) "${aa_folders[n - 2]}" "${aa_folders[n - 1]}"; fi
  done
elif has_part gate; then
  for ((k = 1; k <= pairs; k++)); do
    run_aa "g$k-a" "$out/gate-$k-a"; a=$last_folder
    run_aa "g$k-b" "$out/gate-$k-b"; gate "$k" "$a" "$last_folder"
  done
fi


pids=()
stop_services() {
  local pid
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap stop_services EXIT

# start_grpc NAME PORT FACTOR LOG: a gRPC service in threadpool mode whose Compute does FACTOR times the work, healthy within 60 s.
start_grpc() {
  local name=$1 port=$2 factor=$3 log=$4
  env -u DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS Scheduling__Mode=threadpool ComputeWork__Factor="$factor" \
    dotnet "$runner_out/Harness.GrpcService.dll" "--Listen:Port=$port" "--Listen:AdminPort=$((port + 1))" \
    "--Listen:MetricsPort=$((port + 2))" --Serilog:MinimumLevel:Default=Warning > "$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$((port + 1))/healthz" > /dev/null 2>&1 && return
    sleep 0.5
  done
  cat "$log" >&2; die "$name did not answer /healthz on port $((port + 1)) within 60 s"
}

# b_verdict SUMMARY_MD COLUMN: the verdict word of mode b's row in the mode-ratio table, for the column whose heading
# is COLUMN (mean, p99, req/s): worse, better, no-difference, inconclusive, or "?" when the table has no such cell.
b_verdict() {
  awk -F'|' -v col="$2" '
    /^## / { stack = index($0, "gRPC ÷ SOAP") > 0 }
    stack { next }
    !/^\|/ { at = 0; next }
    { for (i = 2; i < NF; i++) { h = $i; gsub(/^ +| +$/, "", h); if (h == col) { at = i } } }
    at && $2 ~ /^ *b *$/ { c = $at
      if (c ~ /\) worse *$/) w = "worse"; else if (c ~ /\) better *$/) w = "better"
      else if (c ~ /\) no difference beyond/) w = "no-difference"; else if (c ~ /\) inconclusive/) w = "inconclusive"
      if (w != "") { print w; found = 1; exit } }
    END { if (!found) print "?" }' "$1"
}

if has_part power; then
  all=(1.00 "${factors[@]}")
  for ((r = 1; r <= power_runs; r++)); do
    order=("${all[@]}")
    if ((r % 2 == 0)); then order=(); for ((i = ${#all[@]} - 1; i >= 0; i--)); do order+=("${all[$i]}"); done; fi
    for f in "${order[@]}"; do
      dir="$out/power-$f-$r"; mkdir -p "$dir"
      load=$(cut -d' ' -f1 /proc/loadavg); started=$(date +%s)
      echo "power run $r/$power_runs, B at factor $f (load average $load) $(date -u +%T)" >&2
      pa=$(free_ports 3); start_grpc a "$pa" 1.0 "$dir/a.log"
      pb=$(free_ports 3); start_grpc b "$pb" "$f" "$dir/b.log"
      code=0
      dotnet "$runner_out/harness.dll" run --stacks grpc --operations compute --modes a,b --repeat "$repeat" --time-scale "$scale" \
        --target "grpc=http://127.0.0.1:$pa,metrics=http://127.0.0.1:$((pa + 2))/,mode=a" \
        --target "grpc=http://127.0.0.1:$pb,metrics=http://127.0.0.1:$((pb + 2))/,mode=b" \
        --output "$dir" ${extra[@]+"${extra[@]}"} > "$dir.log" 2>&1 || code=$?
      stop_services
      seconds=$(($(date +%s) - started))
      folder=$(ls -td "$dir"/*/ 2>/dev/null | head -n 1)
      [ -n "$folder" ] && [ -f "$folder/summary.md" ] || { tail -n 20 "$dir.log" >&2; die "power run $r ($f) wrote no summary.md (exit $code); its output: $dir.log"; }
      mean=$(b_verdict "$folder/summary.md" mean); p99=$(b_verdict "$folder/summary.md" p99); rps=$(b_verdict "$folder/summary.md" "req/s")
      printf '%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\n' "$r" "$f" "$folder" "$seconds" "$mean" "$p99" "$rps" "$load" "$code" >> "$power_tsv"
      echo "  ${seconds} s, exit $code; b's mean $mean, p99 $p99, req/s $rps" >&2
    done
  done
fi

summary
