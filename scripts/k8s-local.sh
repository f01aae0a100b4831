#!/usr/bin/env bash
# Runs a k8s/ overlay on this machine without a cluster: the kubelet stand-in (tools/Harness.KubeletStandIn) renders
# it with kubectl kustomize, parses it strictly and runs every pod it describes under Docker, as a one-node cluster
# would (probes, Services as network aliases, volumes, fsGroup, Indexed and suspended Jobs, deadlines), then copies
# the volumes and the pods' logs to --output and removes everything it created. docs/kubernetes.md, "Running the
# manifests here: the kubelet stand-in", says what it exercises and what it does not.
#
# Usage: scripts/k8s-local.sh OVERLAY --output DIR [--agents N] [--duration D] [--runner-arg ARG]... [--timeout D] [--keep]
#   OVERLAY           base, soak, distributed (k8s/overlays/NAME), or a folder holding a kustomization.yaml
#   --output DIR      where the volumes' contents, logs/ and manifests.yaml go (absent or empty)
#   --agents N        completions = parallelism of every Indexed Job, and every container variable named AGENTS
#   --duration D      the runner's --duration (containers whose args start with run) and every SOAK_DURATION
#   --runner-arg ARG  appended to every container whose args start with run; repeatable
#   --timeout D       bound on the whole run (default: the sum of the Jobs' activeDeadlineSeconds + 10m)
#   --keep            leave the containers, network and volumes for inspection
# Exit codes: 0 every Job succeeded; 1 a Job failed or timed out, or a Deployment never became available; 2 bad
# usage, a missing tool or image, or manifests it cannot run; 130 interrupted. The last line is always "restarts: N"
# (containers restarted after a failed liveness or startup probe). KUBECTL=path picks the kubectl; DOCKER_HOST the engine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project="$root/tools/Harness.KubeletStandIn"
out="$project/bin/Release/net10.0"
stamp="$out/.kubelet-stand-in-built"

# Whether any input of the build is newer than the last good build: a file of the project (bin/ and obj/ are
# outputs) or a build setting at the root. A failed build leaves the stamp as it was, so the next call builds again.
changed() {
  [[ -f "$stamp" && -f "$out/Harness.KubeletStandIn.dll" ]] || return 0
  [[ -n "$(find "$project" \( -name bin -o -name obj \) -prune -o -type f -newer "$stamp" -print -quit)" ]] && return 0
  [[ -n "$(find "$root" -maxdepth 1 \( -name 'Directory.*' -o -name global.json -o -name NuGet.config -o -name .editorconfig \) \
      -newer "$stamp" -print -quit)" ]]
}

if changed; then
  # The stamp takes the time the build started, so a file saved during the build is seen by the next call.
  started="$project/obj/.kubelet-stand-in-build-started"
  mkdir -p "$(dirname "$started")"
  touch "$started"
  build_log=$(dotnet build "$project" -c Release -warnaserror --nologo -v quiet 2>&1) || { echo "$build_log" >&2; echo "restarts: 0"; exit 2; }
  mv "$started" "$stamp"
fi

# exec: the stand-in gets Ctrl+C and SIGTERM itself, and cleans up before it exits.
exec dotnet "$out/Harness.KubeletStandIn.dll" "$@"
