#!/usr/bin/env bash
# How many of each series' measured seconds have server counters (/metrics answered) in the series that starve
# the ThreadPool: threadpool × CallThirdParty on both stacks, under the main job's quick profile. Runs N times
# (default 3, about a minute and a half each) and prints each group's coverage note from summary.md.
# Usage: scripts/measure-metrics-coverage.sh [N]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"
runs="${1:-3}"
out="$(mktemp -d)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
for i in $(seq "$runs"); do
  scripts/harness.sh run --stacks soap,grpc --operations call-third-party --modes threadpool --output "$out/$i" >/dev/null
  folder="$(ls -d "$out/$i"/*/)"
  awk -v run="$i" '
    function flush() { if (group != "") print "run " run ", " group ": " (note != "" ? note : "server metrics for every second under load") }
    /^## (soap|grpc) / { flush(); group = substr($0, 4); note = "" }
    /^- threadpool: (server metrics for|no server samples)/ { note = substr($0, 15); sub(/ —.*/, "", note) }
    END { flush() }' "$folder/summary.md"
done
echo "run folders: $out"
