#!/usr/bin/env bash
# Builds (Release, only when a source changed) and runs the harness command: scripts/harness.sh [run|compare|report] [options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
out="$root/loadtests/Harness.LoadTests/bin/Release/net10.0"
source "$root/scripts/lib/build-if-changed.sh"

# The runner's inputs: every file under loadtests/ and services/ (sources, projects, profiles, the report's scripts).
build_if_changed "$root/loadtests/Harness.LoadTests" "$out/harness.dll" "$out/.harness-built" "$root/loadtests" "$root/services" || exit 1

exec dotnet "$out/harness.dll" "$@"
