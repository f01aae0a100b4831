#!/usr/bin/env bash
# Packs the packages a user references (Harness.LoadTests, Harness.Scheduling.AspNetCore) and the ones they depend on,
# and the harness command as a .NET tool (Harness.Cli, docs/install.md): every project of the solution that sets
# IsPackable (docs/packages.md).
# Usage: scripts/pack.sh [--output DIR] [--version VERSION] [--no-build]
#   --output   where the .nupkg files go (default: artifacts/packages)
#   --version  the packages' version (default: the VersionPrefix of Directory.Build.props)
#   --no-build pack what the last Release build of the solution left (scripts/test.sh builds it)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
output="$root/artifacts/packages"
version=""
build=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --output) output=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --no-build) build=(--no-build); shift ;;
    *) die "unknown argument '$1'; valid: --output DIR, --version VERSION, --no-build" 2 ;;
  esac
done

mkdir -p "$output"
output="$(cd "$output" && pwd)"
args=(pack "$root/Harness.sln" -c Release -o "$output" --nologo -v quiet "${build[@]}")
[[ -n $version ]] && args+=("-p:Version=$version")
echo "packing into $output${version:+ (version $version)}"
dotnet "${args[@]}"
ls -1 "$output"/*.nupkg
