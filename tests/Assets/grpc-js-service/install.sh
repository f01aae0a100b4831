#!/usr/bin/env bash
# Installs the service's npm packages (package-lock.json, from the machine's configured package source) into
# node_modules beside it, when node_modules is missing or older than the lock; otherwise does nothing, quickly.
# scripts/test.sh runs it before the tests, and the tests' GrpcJsService fixture runs it too, so a lone
# `dotnet test` on a clean clone works. Needs Node.js 18 or later and npm on PATH.
set -euo pipefail
cd "$(dirname "$0")"

missing=""
command -v node >/dev/null 2>&1 || missing="node"
command -v npm >/dev/null 2>&1 || missing="${missing:+$missing and }npm"
if [[ -n $missing ]]; then
  echo "error: tests/Assets/grpc-js-service (the @grpc/grpc-js service of the --call tests) needs Node.js 18 or later and npm, and PATH has no $missing; install them (e.g. 'apt-get install nodejs npm') and run again." >&2
  exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if (( major < 18 )); then
  echo "error: tests/Assets/grpc-js-service needs Node.js 18 or later; this node is $(node --version)." >&2
  exit 1
fi

# Our own stamp: npm keeps the packages' own (old) timestamps on the files it unpacks.
stamp=node_modules/.harness-npm-ci.stamp
up_to_date() { [[ -f $stamp && ! package-lock.json -nt $stamp && ! package.json -nt $stamp ]]; }
up_to_date && exit 0

# Two test processes may start at once: one installs, the other waits (bounded) and finds it done.
exec 9>.install.lock
flock -w 300 9 || { echo "error: another install of tests/Assets/grpc-js-service held its lock for 5 minutes" >&2; exit 1; }
up_to_date && exit 0
echo "installing the npm packages of tests/Assets/grpc-js-service (npm ci)"
npm ci --no-audit --no-fund --loglevel=error
touch "$stamp"
