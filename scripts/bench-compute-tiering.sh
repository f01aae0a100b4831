#!/usr/bin/env bash
# Does the Compute loop run at one speed in every process? Starts fresh processes that warm CpuWorkload.Run the way a
# service does (two threads at once), then time it alone; prints each process's least CPU time per call under the
# runtime's default tiering and two alternatives. Figures and reading: docs/results.md, "Why two processes of one mode differ".
#   scripts/bench-compute-tiering.sh [processes=8] [iterations=5000000] [warm calls per thread=100]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
processes="${1:-8}"; iterations="${2:-5000000}"; warm="${3:-100}"
[[ "$processes" =~ ^[1-9][0-9]*$ && "$iterations" =~ ^[1-9][0-9]*$ && "$warm" =~ ^[0-9]+$ ]] || {
  echo "usage: $0 [processes>=1] [iterations>=1] [warm calls per thread>=0]" >&2; exit 2; }
app="$root/scripts/bench/ComputeTiering.cs"
echo "building $app" >&2
dll="$(dotnet build "$app" -c Release --nologo -v quiet -getProperty:TargetPath 2>/dev/null | tail -n 1)"
dotnet build "$app" -c Release --nologo -v quiet >&2
[[ -f "$dll" ]] || die "the build did not produce $dll" 5
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $processes processes per setting, Compute($iterations), 2 threads x $warm warm calls, then the least of 10 calls alone (CPU ms)"
for setting in "default" "DOTNET_TieredPGO=0" "DOTNET_TieredCompilation=0"; do
  env_args=(); [[ "$setting" == default ]] || env_args=("$setting")
  results=()
  for ((p = 1; p <= processes; p++)); do
    results+=("$(env "${env_args[@]}" dotnet "$dll" "$iterations" 2 "$warm" 10)")
  done
  sorted="$(printf '%s\n' "${results[@]}" | sort -n | tr '\n' ' ')"
  printf '%-28s %s\n' "$setting" "$sorted" | awk '{ printf "%s  min %s  max %s  max/min %.2f\n", $0, $2, $NF, $NF / $2 }'
done
