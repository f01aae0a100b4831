#!/usr/bin/env bash
# Builds (Release, only when a source changed) and runs the harness command: scripts/harness.sh [run|compare|report] [options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
out="$root/loadtests/Harness.LoadTests/bin/Release/net10.0"
stamp="$out/.harness-built"

# Whether any input of the runner's build is newer than the last good build: a file under loadtests/ or services/
# (sources, projects, profiles, the report's scripts) or a build setting at the root. bin/, obj/ and node_modules/
# are outputs. A failed build leaves the stamp as it was, so the next call builds again.
changed() {
  [[ -f "$stamp" && -f "$out/harness.dll" ]] || return 0
  [[ -n "$(find "$root/loadtests" "$root/services" \
      \( -name bin -o -name obj -o -name node_modules \) -prune -o -type f -newer "$stamp" -print -quit)" ]] && return 0
  [[ -n "$(find "$root" -maxdepth 1 \( -name 'Directory.*' -o -name global.json -o -name NuGet.config -o -name .editorconfig \) \
      -newer "$stamp" -print -quit)" ]]
}

if changed; then
  # The stamp takes the time the build started, so a file saved during the build is seen by the next call.
  started="$root/loadtests/Harness.LoadTests/obj/.harness-build-started"
  mkdir -p "$(dirname "$started")"
  touch "$started"
  build_log=$(dotnet build "$root/loadtests/Harness.LoadTests" -c Release -warnaserror --nologo -v quiet 2>&1) || { echo "$build_log" >&2; exit 1; }
  mv "$started" "$stamp"
fi

exec dotnet "$out/harness.dll" "$@"
