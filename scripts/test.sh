#!/usr/bin/env bash
# The test command: builds the solution and runs every test project.
# Usage: scripts/test.sh [extra dotnet test arguments, e.g. --filter Category!=Measurement]
set -euo pipefail
cd "$(dirname "$0")/.."

# The stub capacity test holds 10,000 sockets at each end; ask for the descriptors it needs.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

dotnet build Harness.sln -c Release -warnaserror
# One test assembly at a time: several measure timing, and 2 cores shared by five test hosts would skew them.
dotnet test Harness.sln -c Release --no-build -maxcpucount:1 \
  --logger "console;verbosity=normal" \
  --results-directory artifacts/test-results \
  "$@"
