#!/usr/bin/env bash
# Installs the harness command the way a user gets it, as a .NET tool (docs/install.md): `dotnet tool install` of the
# Harness.Cli package into a scratch tool folder, with the packages' folder as the only package source (the tool
# package depends on none). Then runs `harness --help` and, unless --no-run, a short run of the default job from
# the installed tool: the third-party stub and both services, started from the tool's own folder, one mode, two
# series of two seconds, with thresholds on the errors and the throughput. Fails if either fails, or if a process
# started from the tool's folder outlives the run.
# Usage: scripts/tool-from-package.sh [--packages DIR] [--no-run]
#   --packages  a folder of .nupkg files from scripts/pack.sh (default: pack the last Release build of Harness.Cli
#               into a scratch folder)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
packages=""
run=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --packages) packages=$2; shift 2 ;;
    --no-run) run=0; shift ;;
    *) die "unknown argument '$1'; valid: --packages DIR, --no-run" 2 ;;
  esac
done

scratch="$(mktemp -d)"
tools="$scratch/tools"
# Anything still running from the tool's folder once the run is over: the services it started, which it must not leave.
leftovers() { pgrep -f -- "$tools/" || true; }
cleanup() {
  local pid
  for pid in $(leftovers); do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT

if [[ -z $packages ]]; then
  # A version of its own each time, so no cache can serve an older build under the same version.
  version="0.1.0-local.$(date +%s)"
  packages="$scratch/packages"
  dotnet pack "$root/loadtests/Harness.Cli/Harness.Cli.csproj" -c Release --no-build --nologo -v quiet \
    --output "$packages" -p:Version="$version" >/dev/null
else
  version="$(packed_version "$packages" Harness.Cli)"
fi
packages="$(cd "$packages" && pwd)"
size="$(du -k "$packages/Harness.Cli.$version.nupkg" | cut -f1)"

# The packages' folder alone: the tool carries everything it runs, and no other source's Harness.Cli can stand in.
cat > "$scratch/NuGet.config" <<CONFIG
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="harness-packages" value="$packages" />
  </packageSources>
</configuration>
CONFIG

echo "installing Harness.Cli $version (${size} KB) into a scratch tool folder"
dotnet tool install Harness.Cli --version "$version" --tool-path "$tools" --configfile "$scratch/NuGet.config" >/dev/null

# The help, under the command's own name (the tool's entry point is harness.dll, which names the usage line).
help="$("$tools/harness" --help)"
if ! grep -q 'harness \[command\] \[options\]' <<<"$help"; then
  echo "error: harness --help did not print the usage of 'harness'; it printed:" >&2
  echo "$help" >&2
  exit 1
fi
echo "harness --help: $(grep -c . <<<"$help") lines"
[[ $run -eq 1 ]] || exit 0

# The default job, shortened: the stub and both services from the tool's folder, one mode (iocp: no starvation to
# wait out), the call through the stub, two series of 2 s. errors<1% and rps>=20 fail a run whose calls did not go
# through, and a threshold that matches no series fails too.
cd "$scratch"
"$tools/harness" run --stacks soap,grpc --modes iocp --operations call-third-party --fanout 1 --delay-ms 5 \
  --time-scale 0.1 --warm-up 0s --output "$scratch/reports" --assert 'errors<1%' --assert 'rps>=20' \
  | grep -v '^\['
left="$(leftovers)"
if [[ -n $left ]]; then
  echo "error: processes started from the tool's folder outlived the run:" >&2
  ps -o pid=,args= -p "${left//$'\n'/,}" >&2 || true
  exit 1
fi
