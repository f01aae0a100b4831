#!/usr/bin/env bash
# The test command: builds the solution with warnings as errors and runs every test project.
# Usage: scripts/test.sh [extra dotnet test arguments, e.g. --filter Category!=Measurement]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

# The stub capacity test holds 10,000 sockets at each end; ask for the descriptors it needs.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

results=artifacts/test-results
rm -rf "$results"

dotnet build Harness.sln -c Release -warnaserror

# The --call tests' gRPC service in Node.js (tests/Assets/grpc-js-service): its npm packages, from its lock, when
# missing or older than it. Fails, naming what is missing, without node or npm.
tests/Assets/grpc-js-service/install.sh

# One test assembly at a time: several measure timing, and 2 cores shared by five test hosts would skew them.
status=0
dotnet test Harness.sln -c Release --no-build -maxcpucount:1 \
  --logger "console;verbosity=normal" --logger trx \
  --results-directory "$results" \
  "$@" || status=$?

# The packages, proven as a user gets them (docs/packages.md): samples/ built outside the repository from the ones a
# project references, and run; the harness installed from its tool package (docs/install.md), and run. Packed once
# for both, with a version of its own, so no package cache serves an older build under the same version. After the
# assemblies, so a failure here still leaves their results above.
if [[ $# -eq 0 ]]; then
  packages="$(mktemp -d)"
  if scripts/pack.sh --no-build --output "$packages" --version "0.1.0-local.$(date +%s)" >/dev/null; then
    echo "samples from packages:"
    scripts/samples-from-packages.sh --packages "$packages" || { echo "FAILED samples-from-packages: samples/ did not build or run from the packed packages"; status=1; }
    echo "harness as a dotnet tool:"
    scripts/tool-from-package.sh --packages "$packages" || { echo "FAILED tool-from-package: the Harness.Cli tool did not install, or its help or its run failed"; status=1; }
  else
    echo "FAILED pack: scripts/pack.sh could not pack the Release build"
    status=1
  fi
  rm -rf "$packages"
fi

# One line for the whole suite, summed from each assembly's TRX counters.
cat "$results"/*.trx 2>/dev/null | grep -o '<Counters [^>]*>' | awk '
  { for (i = 1; i <= NF; i++) { split($i, kv, "=\""); v = kv[2]; sub("\".*", "", v); n[kv[1]] += v } }
  END { printf "%d passed, %d failed, %d skipped\n", n["passed"], n["failed"], n["notExecuted"] }'

# Name each failed test and the first line of its message last, where a log's tail (CI shows only that) keeps them.
for trx in "$results"/*.trx; do
  [[ -f $trx ]] || continue
  awk 'BEGIN { RS = "<UnitTestResult " }
    NR > 1 {
      # The outcome of this result alone: its own tag (a record runs on to the next result, or past the last one
      # into the run summary, which has an outcome of its own).
      tag = $0; sub(/>.*/, "", tag)
      if (tag !~ /outcome="Failed"/) next
      name = tag; sub(/.*testName="/, "", name); sub(/".*/, "", name)
      msg = $0; if (sub(/.*<Message>/, "", msg)) { sub(/<\/Message>.*/, "", msg); sub(/\n.*/, "", msg) } else msg = ""
      printf "FAILED %s\n  %s\n", name, substr(msg, 1, 400)
    }' "$trx"
done
exit "$status"
