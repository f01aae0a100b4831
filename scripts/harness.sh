#!/usr/bin/env bash
# Builds (Release, only when a source changed) and runs the harness command: scripts/harness.sh [run|compare|report] [options]
# With no arguments it runs the main job: every mode twice in the balanced order (A B C C B A), on series half the
# default profile's length, so that every ratio of the report has a spread to be judged by, in about the time one
# round of full-length series took.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
source "$root/scripts/lib/build-if-changed.sh"

# The runner's inputs: every file under loadtests/ and services/ (sources, projects, profiles, the report's scripts).
build_if_changed "$root/loadtests/Harness.LoadTests" "$runner_out/harness.dll" "$runner_out/.harness-built" "$root/loadtests" "$root/services" || exit 1

if [ $# -eq 0 ]; then
  set -- run --repeat 2 --time-scale 0.5
  echo "harness.sh: the main job (harness run --repeat 2 --time-scale 0.5); give any option to run something else."
fi

exec dotnet "$runner_out/harness.dll" "$@"
