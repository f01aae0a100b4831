#!/usr/bin/env bash
# Builds every harness image from the repository's one Dockerfile: harness/stub, harness/soap, harness/grpc,
# harness/runner (tag: local).
# With --local-base (the default when mcr.microsoft.com is unreachable) it first builds the local base images
# (scripts/build-base-images.sh) and passes them as build arguments; otherwise the official images are used.
# Usage: scripts/build-images.sh [--local-base|--official-base] [--tag TAG]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

base=auto
tag=local
while [[ $# -gt 0 ]]; do
  case "$1" in
    --local-base) base=local ;;
    --official-base) base=official ;;
    --tag) tag=${2:?--tag needs a value}; shift ;;
    *) die "unknown option '$1'; valid: --local-base, --official-base, --tag TAG" 2 ;;
  esac
  shift
done

require_docker

if [[ $base == auto ]]; then
  # A registry answers within seconds or not at all here; don't wait for the pull's own long timeout.
  if timeout 15 docker pull -q mcr.microsoft.com/dotnet/aspnet:10.0 >/dev/null 2>&1; then base=official; else base=local; fi
fi

args=()
if [[ $base == local ]]; then
  scripts/build-base-images.sh
  args=(--build-arg SDK_IMAGE=harness/dotnet-sdk:10.0 --build-arg RUNTIME_IMAGE=harness/dotnet-aspnet:10.0
        --build-arg NODE_IMAGE=harness/node:20)
fi

# build NAME PROJECT TARGET [--build-arg ...]: one image from the repository's one Dockerfile.
build() {
  local name=$1 project=$2 target=$3 started
  shift 3
  started=$(date +%s)
  echo "building harness/$name:$tag ($project, target $target, $base base images)..."
  # Host networking lets the build's restore use the machine's own DNS and proxy settings.
  if ! docker build --force-rm --network host "${args[@]}" --build-arg "PROJECT=$project" "$@" --target "$target" \
      -t "harness/$name:$tag" . >"artifacts/docker-build-$name.log" 2>&1; then
    tail -n 30 "artifacts/docker-build-$name.log" >&2
    echo "error: building harness/$name failed; full log: artifacts/docker-build-$name.log" >&2
    exit 1
  fi
  echo "  harness/$name:$tag built in $(( $(date +%s) - started )) s"
}

mkdir -p artifacts
build stub services/Harness.ThirdPartyStub service --build-arg PORT=5080
build soap services/Harness.SoapService service --build-arg PORT=5081 --build-arg METRICS_PORT=5084
build grpc services/Harness.GrpcService service --build-arg PORT=5082 --build-arg ADMIN_PORT=5083 --build-arg METRICS_PORT=5084
build runner loadtests/Harness.LoadTests runner

docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep "^harness/.*:$tag" | sort
