#!/usr/bin/env bash
# Measures the container figures of docs/containers.md: image sizes, the time `docker-compose up -d` takes for
# the whole stack, and for each service the time from its container's start to its first passing healthcheck
# (read from docker inspect; compose probes every 2 s, so the figure includes up to one probe interval).
# `harness matrix` prints a finer figure (its own /healthz polling from container start) in its "time to
# healthy" line.
# Usage: scripts/measure-containers.sh        (needs dockerd and the images of scripts/build-images.sh)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

require_docker
compose=docker-compose
command -v docker-compose >/dev/null || compose="docker compose"

echo "## Image sizes"
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^harness/' | sort

project="harness-measure-$$"
services=(stub soap-threadpool soap-iocp soap-custompool grpc-threadpool grpc-iocp grpc-custompool)
cleanup() { $compose -p "$project" down --remove-orphans >/dev/null 2>&1 || true; }
trap cleanup EXIT

echo "## Time to healthy (cpus ${SERVICE_CPUS:-2.0}, memory ${SERVICE_MEMORY:-512m} each)"
started=$(date +%s.%N)
$compose -p "$project" up -d "${services[@]}" >/dev/null 2>&1
printf '%-16s %5.1f s for the whole stack (up -d waits for the stub to be healthy first)\n' "up -d" \
  "$(awk -v now="$(date +%s.%N)" -v start="$started" 'BEGIN { print now - start }')"
deadline=$(( $(date +%s) + 120 ))
for service in "${services[@]}"; do
  id=$($compose -p "$project" ps -q "$service")
  until [[ $(docker inspect -f '{{.State.Health.Status}}' "$id") == healthy ]]; do
    [[ $(date +%s) -lt $deadline ]] || { die "$service not healthy within 120 s"; }
    sleep 0.5
  done
  # From the container's start to the end of its first passing probe (compose probes every 2 s).
  docker inspect -f '{{.State.StartedAt}} {{range .State.Health.Log}}{{if eq .ExitCode 0}}{{.End}} {{end}}{{end}}' "$id" |
    awk -v name="$service" '
      function hms(t,   c) { split(t, c, ":"); return c[1] * 3600 + c[2] * 60 + c[3] }
      # $1: StartedAt, 2026-11-23T01:38:54.264Z; $2 $3: the probe end, 2026-11-23 01:38:56.515 +0000 UTC.
      { start = $1; sub(/^.*T/, "", start); sub(/Z$/, "", start)
        printf "%-16s first passing probe %4.1f s after the container started\n", name, hms($3) - hms(start) }'
done
