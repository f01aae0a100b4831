#!/usr/bin/env bash
# Builds (Release, only when a source changed) and runs the harness command: scripts/harness.sh [run|compare|report] [options]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
source "$root/scripts/lib/build-if-changed.sh"

# The runner's inputs: every file under loadtests/ and services/ (sources, projects, profiles, the report's scripts).
build_if_changed "$root/loadtests/Harness.LoadTests" "$runner_out/harness.dll" "$runner_out/.harness-built" "$root/loadtests" "$root/services" || exit 1

exec dotnet "$runner_out/harness.dll" "$@"
