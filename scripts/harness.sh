#!/usr/bin/env bash
# Builds (once, Release) and runs the harness command: scripts/harness.sh [run|compare|report] [options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
dotnet build "$root/loadtests/Harness.LoadTests" -c Release -warnaserror --nologo -v quiet >/dev/null
exec dotnet "$root/loadtests/Harness.LoadTests/bin/Release/net10.0/harness.dll" "$@"
