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
source "$(dirname "$0")/lib/common.sh"
project="$root/tools/Harness.KubeletStandIn"
out="$project/bin/Release/net10.0"
source "$root/scripts/lib/build-if-changed.sh"

# The stand-in's inputs: its own project folder (it references no other project of the repository).
build_if_changed "$project" "$out/Harness.KubeletStandIn.dll" "$out/.kubelet-stand-in-built" "$project" || { echo "restarts: 0"; exit 2; }

# exec: the stand-in gets Ctrl+C and SIGTERM itself, and cleans up before it exits.
exec dotnet "$out/Harness.KubeletStandIn.dll" "$@"
