#!/usr/bin/env bash
# Where do the bytes of a call in flight go? Holds USERS calls in flight on a local service (each waits 60 s without a
# thread: task-delay), then suspends the service for a moment and walks its GC heap with ClrMD
# (scripts/bench/HeapCensus.cs): the live bytes and objects per call, by type, and the strings it keeps.
# Figures and reading: docs/s1-scale.md, "Where the bytes of an in-flight call go".
#   scripts/heap-census.sh [users=20000] [stack=grpc|soap] [top=40]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
users="${1:-20000}"; stack="${2:-grpc}"; top="${3:-40}"
[[ "$users" =~ ^[1-9][0-9]*$ && "$top" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [users>=1] [grpc|soap] [top>=1]" >&2; exit 2; }
case "$stack" in grpc) dll=Harness.GrpcService.dll ;; soap) dll=Harness.SoapService.dll ;;
  *) die "stack must be grpc or soap, got '$stack'" 2 ;; esac

app="$root/scripts/bench/HeapCensus.cs"
echo "building $app" >&2
dotnet build "$app" -c Release --nologo -v quiet >&2
census="$(dotnet build "$app" -c Release --nologo -v quiet -getProperty:TargetPath 2>/dev/null | tail -n 1)"
[[ -f "$census" ]] || die "the build did not produce $census" 5

# Built now (when a source changed), not inside the run below, whose calls must be in flight within 90 s.
"$root/scripts/harness.sh" --help >/dev/null
work="$(mktemp -d)"
trap 'kill "$harness" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
# Users are added over 10 s, then held; no call ends before 60 s, so at 30 s everything on the heap that is not
# garbage belongs to the service itself or to a call in flight.
printf '{ "name": "census", "description": "%s users added over 10 s, then held", "stages": [ { "kind": "rampingConstant", "copies": %s, "during": "10s" }, { "kind": "keepConstant", "copies": %s, "during": "40s" } ] }\n' \
  "$users" "$users" "$users" >"$work/census.json"
"$root/scripts/harness.sh" run --output "$work/reports" --profile "$work/census.json" --operations call-third-party \
  --fanout 1 --delay-ms 60000 --style task-delay --modes threadpool --stacks "$stack" --repeat 1 --warm-up 0s \
  >"$work/run.log" 2>&1 &
harness=$!

# The service is a descendant of this harness process; wait (bounded) until every user's call is in flight.
service=""
for _ in $(seq 1 90); do
  sleep 1
  kill -0 "$harness" 2>/dev/null || { echo "error: the run ended early:" >&2; tail -5 "$work/run.log" >&2; exit 1; }
  service="$({ pgrep -f "^dotnet .*/$dll" || true; } | while read -r pid; do
    p=$pid; while [[ "$p" -gt 1 ]]; do [[ "$p" == "$harness" ]] && { echo "$pid"; break; }; p=$(ps -o ppid= -p "$p" | tr -d ' '); done
  done | head -n 1)"
  in_flight="$(grep -o 'in flight [0-9]*' "$work/run.log" | tail -n 1 | grep -o '[0-9]*$' || true)"
  [[ -n "$service" && "${in_flight:-0}" -ge "$users" ]] && break
  echo "waiting: ${in_flight:-0} of $users calls in flight" >&2
done
[[ -n "$service" && "${in_flight:-0}" -ge "$users" ]] || die "$users calls were not in flight within 90 s"
sleep 5
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $stack service (pid $service) with $users calls in flight, task-delay 60 s"
dotnet "$census" "$service" "$top" "$users" strings
