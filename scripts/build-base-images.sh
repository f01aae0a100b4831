#!/usr/bin/env bash
# Builds local stand-ins for the official .NET base images, for machines that reach no image registry:
#   harness/base:bookworm       Debian bookworm minbase from the machine's own apt mirror (debootstrap)
#   harness/dotnet-aspnet:10.0  base + the ASP.NET Core and .NET shared runtimes of the installed SDK
#   harness/dotnet-sdk:10.0     base + the whole installed SDK
#   harness/node:20             base + the machine's Node.js and npm (the runner's image fetches Chart.js with npm)
# Like the official images they define APP_UID=1654 with a user 'app', and DOTNET_RUNNING_IN_CONTAINER=true.
# The host's extra CA certificates (/usr/local/share/ca-certificates) are trusted too, so a restore inside the SDK
# image works through the same TLS-intercepting proxy as the host's.
# Usage: scripts/build-base-images.sh [--force]   (skips images that exist unless --force)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

force=false
[[ "${1:-}" == "--force" ]] && force=true

command -v docker >/dev/null || die "docker is not installed (apt-get install docker.io)"
require_docker

dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
runtime_version=$(ls "$dotnet_root/shared/Microsoft.AspNetCore.App" | sort -V | tail -n 1)
[[ -n "$runtime_version" ]] || die "no ASP.NET Core shared runtime under $dotnet_root"

have() { ! $force && docker image inspect "$1" >/dev/null 2>&1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if have harness/base:bookworm; then
  echo "harness/base:bookworm exists"
else
  command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
  # The machine's own Debian mirror, as apt is configured; never a name written here.
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [[ -n "$mirror" ]] || mirror=$(awk '$1 == "deb" && $2 !~ /^\[/ {print $2; exit} $1 == "deb" {print $3; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [[ -n "$mirror" ]] || die "no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list; configure apt first"
  echo "debootstrap bookworm from $mirror (about a minute)..."
  debootstrap --variant=minbase --include=ca-certificates,libicu72,libssl3,tzdata bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$work/rootfs/usr/local/share/ca-certificates/"
    chroot "$work/rootfs" update-ca-certificates >/dev/null
  fi
  chroot "$work/rootfs" sh -c 'groupadd --gid 1654 app && useradd --uid 1654 --gid 1654 --create-home app && apt-get clean && rm -rf /var/lib/apt/lists/*'
  tar -C "$work/rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV APP_UID=1654' \
    - harness/base:bookworm >/dev/null
  echo "built harness/base:bookworm"
fi

if have harness/dotnet-aspnet:10.0; then
  echo "harness/dotnet-aspnet:10.0 exists"
else
  mkdir -p "$work/aspnet/dotnet/shared"
  cp -a "$dotnet_root/dotnet" "$dotnet_root/host" "$dotnet_root/LICENSE.txt" "$work/aspnet/dotnet/"
  for framework in Microsoft.NETCore.App Microsoft.AspNetCore.App; do
    mkdir -p "$work/aspnet/dotnet/shared/$framework"
    cp -a "$dotnet_root/shared/$framework/$runtime_version" "$work/aspnet/dotnet/shared/$framework/"
  done
  cat >"$work/aspnet/Dockerfile" <<'EOF'
FROM harness/base:bookworm
COPY dotnet /usr/share/dotnet
RUN ln -s /usr/share/dotnet/dotnet /usr/bin/dotnet
ENV APP_UID=1654 DOTNET_RUNNING_IN_CONTAINER=true ASPNETCORE_HTTP_PORTS=8080
EOF
  docker build -q -t harness/dotnet-aspnet:10.0 "$work/aspnet" >/dev/null
  echo "built harness/dotnet-aspnet:10.0 (runtime $runtime_version)"
fi

if have harness/dotnet-sdk:10.0; then
  echo "harness/dotnet-sdk:10.0 exists"
else
  mkdir -p "$work/sdk"
  cp -a "$dotnet_root" "$work/sdk/dotnet"
  cat >"$work/sdk/Dockerfile" <<'EOF'
FROM harness/base:bookworm
COPY dotnet /usr/share/dotnet
RUN ln -s /usr/share/dotnet/dotnet /usr/bin/dotnet
ENV APP_UID=1654 DOTNET_RUNNING_IN_CONTAINER=true DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 \
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 NUGET_XMLDOC_MODE=skip
EOF
  docker build -q -t harness/dotnet-sdk:10.0 "$work/sdk" >/dev/null
  echo "built harness/dotnet-sdk:10.0 (SDK $(dotnet --version))"
fi

if have harness/node:20; then
  echo "harness/node:20 exists"
else
  node_bin=$(readlink -f "$(command -v node || true)" || true)
  npm_cli=$(readlink -f "$(command -v npm || true)" || true)
  npm_dir=$(dirname "$(dirname "$npm_cli")")
  if [[ -x "$node_bin" && -f "$npm_dir/bin/npm-cli.js" ]]; then
    mkdir -p "$work/node"
    cp "$node_bin" "$work/node/node"
    cp -a "$npm_dir" "$work/node/npm"
    cat >"$work/node/Dockerfile" <<'EOF'
FROM harness/base:bookworm
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# Node keeps its own CA list; trust the system store, which holds the host's extra CAs (see above).
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && node --version
EOF
    docker build -q -t harness/node:20 "$work/node" >/dev/null
    echo "built harness/node:20 (node $("$node_bin" --version))"
  else
    echo "warning: no node/npm on this machine; harness/node:20 not built (the runner's image needs it, or NODE_IMAGE)" >&2
  fi
fi

docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep '^harness/' | sort
