#!/usr/bin/env bash
# Does a process setting narrow the A/A noise? For each setting, `harness calibrate` (one mode twice, each against
# services started afresh; warm-up left out) is run once per round, the settings in a balanced order across rounds
# (A B C, C B A, A B C…), so no setting always gets the machine's earlier or later minutes. Prints each pair's spread
# on the mean and p99, then per setting the median and the largest. Figures and reading: docs/results.md, "Pinning".
#   scripts/bench-noise.sh [--pairs N] [--time-scale F] [--settings LIST] [-- more calibrate options]
#   --pairs N        pairs per setting (default 3)
#   --time-scale F   calibrate's --time-scale (default 0.5: 20 s measured per series after a 5 s warm-up)
#   after --          more calibrate options; keep the load within one processor when pinned is among the settings
#                    (pinned gives the services one processor: e.g. -- --iterations 2000000 at calibrate's 30 calls/s)
#   --settings LIST  comma-separated, from: default, pinned (the runner on processor 0, the stub and services on 1:
#                    taskset and --service-cpus), pinned-pc2 (pinned, the services' runtime told it has 2 processors:
#                    DOTNET_PROCESSOR_COUNT=2), pgo-off (the services' DOTNET_TieredPGO=0), gc-nonconcurrent (the
#                    services' DOTNET_gcConcurrent=0); default "default,pinned,pgo-off"
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

pairs=3; scale=0.5; settings="default,pinned,pgo-off"; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) whole_number "$1" "${2:-}"; pairs=$2; shift 2 ;;
    --time-scale) [[ "${2:-}" =~ ^[0-9]*\.?[0-9]+$ ]] || die "--time-scale '${2:-}': takes a positive number, e.g. 0.5." 2; scale=$2; shift 2 ;;
    --settings) settings=${2:-}; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --pairs, --time-scale, --settings, -- (calibrate options)." 2 ;;
  esac
done
IFS=, read -r -a listed <<< "$settings"
for s in "${listed[@]}"; do
  case "$s" in default|pinned|pinned-pc2|pgo-off|gc-nonconcurrent) ;; *) die "--settings: '$s' is not one of default, pinned, pinned-pc2, pgo-off, gc-nonconcurrent." 2 ;; esac
done
[ "${#listed[@]}" -gt 0 ] || die "--settings: name at least one setting." 2
if [[ " ${listed[*]} " == *" pinned"* ]]; then
  [ "$(nproc --all)" -ge 2 ] || die "pinned needs 2 processors or more (the runner on one, the services on another)."
  command -v taskset >/dev/null || die "pinned needs taskset (util-linux)."
fi

scripts/harness.sh --help >/dev/null   # builds the runner when a source changed, before any timing
out="$(mktemp -d)"
results="$out/pairs.tsv"
echo "$(nproc --all) processors; $pairs pair(s) per setting at --time-scale $scale; run folders under $out" >&2

calibrate() {  # calibrate SETTING: one A/A pair, its run folder under $out/SETTING
  local setting=$1 prefix=() env_vars=() options=()
  case "$setting" in
    pinned) prefix=(taskset -c 0); options=(--service-cpus 1) ;;
    pinned-pc2) prefix=(taskset -c 0); options=(--service-cpus 1); env_vars=(HARNESS_SERVICE_DOTNET_PROCESSOR_COUNT=2) ;;
    pgo-off) env_vars=(HARNESS_SERVICE_DOTNET_TieredPGO=0) ;;
    gc-nonconcurrent) env_vars=(HARNESS_SERVICE_DOTNET_gcConcurrent=0) ;;
  esac
  env ${env_vars[@]+"${env_vars[@]}"} ${prefix[@]+"${prefix[@]}"} dotnet "$runner_out/harness.dll" calibrate \
    --time-scale "$scale" --output "$out/$setting" ${options[@]+"${options[@]}"} ${extra[@]+"${extra[@]}"}
}

for ((round = 1; round <= pairs; round++)); do
  order=("${listed[@]}")
  if ((round % 2 == 0)); then
    order=(); for ((i = ${#listed[@]} - 1; i >= 0; i--)); do order+=("${listed[$i]}"); done
  fi
  for setting in "${order[@]}"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "round $round/$pairs: $setting (load average $load) $(date -u +%T)" >&2
    table=$(calibrate "$setting" 2>&1) || { echo "$table" >&2; die "calibrate failed for $setting in round $round"; }
    # The calibrate table's rows: "mean ms   #1   #2   #2÷#1   spread %   limit"; the spread is the sixth field.
    mean=$(awk '$1 == "mean" && $2 == "ms" { print $6; exit }' <<< "$table")
    p99=$(awk '$1 == "p99" && $2 == "ms" { print $6; exit }' <<< "$table")
    [[ -n "$mean" && -n "$p99" ]] || { echo "$table" >&2; die "no spread rows in calibrate's output for $setting"; }
    # The services' own execution time per call, #1 and #2 (summary.md's server-time table, 9 columns): how fast each
    # process computed, apart from any queueing in front of it.
    folder=$(ls -td "$out/$setting"/*/ | head -n 1)
    server=$(awk -F'|' 'NF == 11 && $2 ~ / #[12] $/ { gsub(/[ ,]/, "", $4); v[++n] = $4 }
      END { if (n == 2 && v[1] > 0 && v[2] > 0) printf "%.1f", (v[1] > v[2] ? v[1] / v[2] : v[2] / v[1]) * 100 - 100 }' "$folder/summary.md")
    printf '%s\t%d\t%s\t%s\t%s\t%s\n' "$setting" "$round" "$mean" "$p99" "$load" "${server:-?}" >> "$results"
    printf '  mean spread %s %%, p99 spread %s %%, server time spread %s %%\n' "$mean" "$p99" "${server:-?}" >&2
  done
done

echo
printf '%-18s %-24s %-24s %-24s %s\n' setting "mean spread % (pairs)" "p99 spread % (pairs)" "server time spread %" "median mean / p99 / server, largest mean / p99"
for setting in "${listed[@]}"; do
  awk -F'\t' -v s="$setting" '$1 == s { m[++n] = $3; p[n] = $4; t[n] = $6 }
    function median(a, n,   i, j, t, b) { for (i = 1; i <= n; i++) b[i] = a[i]
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (b[j] < b[i]) { t = b[i]; b[i] = b[j]; b[j] = t }
      return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2 }
    function largest(a, n,   i, x) { x = a[1]; for (i = 2; i <= n; i++) if (a[i] > x) x = a[i]; return x }
    END { ms = ""; ps = ""; ts = ""; for (i = 1; i <= n; i++) { ms = ms m[i] " "; ps = ps p[i] " "; ts = ts t[i] " " }
      printf "%-18s %-24s %-24s %-24s %.1f / %.1f / %.1f, %.1f / %.1f\n", s, ms, ps, ts, median(m, n), median(p, n), median(t, n), largest(m, n), largest(p, n) }' "$results"
done
echo "target: an A/A pair within 5 % on the mean and 10 % on p99"
