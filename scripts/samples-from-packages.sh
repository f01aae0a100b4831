#!/usr/bin/env bash
# Builds samples/ the way a user's project outside this repository is built: against the packages scripts/pack.sh
# made, through a package source of their own, with no project reference into the repository. Then, unless
# --no-run, starts the OrderService sample (built from the Harness.Scheduling.AspNetCore package) on loopback in each
# of the three modes and runs the OrderLoad sample (built from the Harness.LoadTests package) against the three, a
# few seconds per series, with an error-rate threshold.
# Usage: scripts/samples-from-packages.sh [--packages DIR] [--no-run]
#   --packages  a folder of .nupkg files from scripts/pack.sh (default: pack the last Release build into a scratch folder)
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
service_pids=()
cleanup() {
  for pid in "${service_pids[@]}"; do
    kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

# A version of its own each time, so the machine's package cache never serves an older build of the same version.
version="0.1.0-local.$(date +%s)"
if [[ -z $packages ]]; then
  packages="$scratch/packages"
  "$root/scripts/pack.sh" --no-build --output "$packages" --version "$version" >/dev/null
else
  version="$(packed_version "$packages" Harness.LoadTests)"
fi
packages="$(cd "$packages" && pwd)"

# Outside the repository: the samples and the build settings a user's repository would have of its own (here ours).
mkdir -p "$scratch/repo"
cp -r "$root/samples" "$root/Directory.Build.props" "$root/Directory.Build.targets" "$root/Directory.Packages.props" "$root/global.json" "$root/.editorconfig" "$scratch/repo/"
find "$scratch/repo/samples" \( -name bin -o -name obj \) -type d -prune -exec rm -rf {} +
cat > "$scratch/repo/NuGet.config" <<CONFIG
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <!-- The packages under test; everything else comes from the machine's own package source. -->
    <add key="harness-packages" value="$packages" />
  </packageSources>
</configuration>
CONFIG

cache="${NUGET_PACKAGES:-$HOME/.nuget/packages}"
remove_cached() {
  find "$cache" -maxdepth 2 -path "$cache/harness.*/$version" -type d -exec rm -rf {} + 2>/dev/null || true
  find "$cache" -maxdepth 1 -name 'harness.*' -type d -empty -delete 2>/dev/null || true
}
trap 'remove_cached; cleanup' EXIT

for sample in OrderService OrderLoad; do
  echo "building samples/$sample from the packages $version"
  dotnet build "$scratch/repo/samples/$sample" -c Release --nologo -v quiet -warnaserror \
    -p:UseHarnessPackages=true -p:HarnessPackageVersion="$version"
  # The proof that the build took the package, not a project: the assets file names it as one.
  assets="$scratch/repo/samples/$sample/obj/project.assets.json"
  if grep -q '"type": "project"' "$assets"; then
    echo "error: samples/$sample still references a project of the repository" >&2
    exit 1
  fi
done
[[ $run -eq 1 ]] || exit 0

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return 0; }
  done
  echo "error: no free loopback port found in 50 tries" >&2
  return 1
}
out="$scratch/repo/samples"
targets=()
for mode in threadpool iocp custompool; do
  grpc_port="$(free_port)"
  metrics_port="$(free_port)"
  Scheduling__Mode=$mode ASPNETCORE_URLS="http://127.0.0.1:$grpc_port" Kestrel__EndpointDefaults__Protocols=Http2 \
    Listen__MetricsPort="$metrics_port" Logging__LogLevel__Default=Warning \
    dotnet "$out/OrderService/bin/Release/net10.0/OrderService.dll" >"$scratch/service-$mode.log" 2>&1 &
  service_pids+=($!)
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:$metrics_port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  # Up, and in the mode it was given: its scheduler's counters carry the mode's name.
  if ! curl -fsS "http://127.0.0.1:$metrics_port/metrics" 2>/dev/null | grep -q "mode=\"$mode\""; then
    echo "error: OrderService in $mode did not become healthy, or its /metrics names no mode $mode" >&2
    cat "$scratch/service-$mode.log" >&2
    exit 1
  fi
  targets+=(--target "grpc=http://127.0.0.1:$grpc_port,metrics=http://127.0.0.1:$metrics_port,mode=$mode")
done

echo "running OrderLoad against OrderService in threadpool, iocp and custompool"
dotnet "$out/OrderLoad/bin/Release/net10.0/OrderLoad.dll" run "${targets[@]}" \
  --profile quick --time-scale 0.1 --warm-up 1s --assert 'errors<1%' --output "$scratch/reports"
