#!/usr/bin/env bash
# Runs the tests that measure the services (on separate processes) and prints the figures they record:
# the stub's concurrent-request capacity, the iocp peak under 4×cores Compute calls, 50 concurrent
# blocking 1 s calls on each scheduling mode, and how long the probes take while Compute or blocking calls
# saturate each mode of each stack. Takes about three minutes on 2 cores.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

echo "machine: $(nproc) cores, $(dotnet --version) SDK"
build_release tests/Harness.Services.Tests || exit 1
# Every mode of the blocking-calls test, not only the one it asserts (SchedulingBehaviourTests.BlockingCallModes).
HARNESS_MEASURE_ALL_MODES=1 dotnet test tests/Harness.Services.Tests -c Release --no-build \
  --filter "Category=Measurement" \
  --logger "console;verbosity=detailed" 2>&1 \
  | grep -E "^\s+(soap|grpc|Soap|Grpc|stub)[ :]|Passed!|Failed!|error" || true
