#!/usr/bin/env bash
# Runs the harness on the Kubernetes cluster your kubeconfig's current context names: applies an overlay
# (kubectl apply -k), waits with bounded timeouts for the services and the load Jobs (the distributed overlay
# has two: its agents and their coordinator), copies the run folders and logs to reports/k8s-<overlay>-<time>/, and deletes everything
# it applied: on success, on failure and on Ctrl+C. docs/kubernetes.md explains each step.
#
# Usage: scripts/k8s-run.sh OVERLAY [--dry-run] [--timeout D]
#   OVERLAY      base, soak, distributed, registry, monitoring (k8s/overlays/NAME), or a folder holding a kustomization.yaml
#   --dry-run    print the rendered manifests (kubectl kustomize) and exit; contacts no cluster
#   --timeout D  bound on the whole run: 90s, 45m, 5h (default: the sum of the Jobs' activeDeadlineSeconds + 10m)
# Exit codes: 0 the load Jobs completed; 1 one failed (a crossed --assert threshold included) or a wait
# timed out; 2 bad usage or a missing tool; 130 interrupted. KUBECTL=path picks the kubectl.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() { sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2; }
fail_usage() { echo "error: $*" >&2; usage; exit 2; }

overlay="" dry_run=0 timeout=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --timeout) [[ $# -ge 2 ]] || fail_usage "--timeout needs a duration, e.g. 45m"; timeout="$2"; shift ;;
    --timeout=*) timeout="${1#--timeout=}" ;;
    -h | --help) usage; exit 0 ;;
    -*) fail_usage "unknown option '$1'; valid: --dry-run, --timeout D" ;;
    *) [[ -z "$overlay" ]] || fail_usage "one OVERLAY only; got '$overlay' and '$1'"; overlay="$1" ;;
  esac
  shift
done

[[ -n "$overlay" ]] || fail_usage "OVERLAY is missing"
available="base $(cd "$root/k8s/overlays" && echo */ | tr -d /)"
if [[ -f "$root/k8s/overlays/$overlay/kustomization.yaml" ]]; then
  dir="$root/k8s/overlays/$overlay"
elif [[ "$overlay" == base ]]; then
  dir="$root/k8s/base"
elif [[ -f "$overlay/kustomization.yaml" ]]; then
  dir="$(cd "$overlay" && pwd)"
else
  fail_usage "no overlay '$overlay': name one of: $available, or a folder holding a kustomization.yaml"
fi
name="$(basename "$dir")"

timeout_seconds=""
if [[ -n "$timeout" ]]; then
  [[ "$timeout" =~ ^([0-9]+)(s|m|h)?$ ]] || fail_usage "--timeout '$timeout' is not a duration; write e.g. 90s, 45m or 5h"
  case "${BASH_REMATCH[2]}" in h) factor=3600 ;; m) factor=60 ;; *) factor=1 ;; esac
  timeout_seconds=$((BASH_REMATCH[1] * factor))
  ((timeout_seconds > 0)) || fail_usage "--timeout must be more than 0"
fi

kubectl="${KUBECTL:-$(command -v kubectl || true)}"
if [[ -z "$kubectl" || ! -x "$kubectl" ]]; then
  echo "error: kubectl not found${KUBECTL:+ at KUBECTL=$KUBECTL}; install kubectl 1.27+ (kustomize v5), or run .ci/run, which unpacks one into .tools/kubectl" >&2
  exit 2
fi
if ! "$kubectl" version --client -o json 2>/dev/null | grep -Eq '"kustomizeVersion": *"v([5-9]|[1-9][0-9])'; then
  echo "error: $kubectl has no kustomize v5 or newer (the overlays use resources: ../../base, labels: and inline patches); install kubectl 1.27+" >&2
  exit 2
fi

manifests="$("$kubectl" kustomize "$dir")"
if ((dry_run)); then
  printf '%s\n' "$manifests"
  exit 0
fi

# --- From here on the cluster of the current context is used, and only it. ---------------------------------------
ns="$(awk '/^---$/ { doc = 0 } /^kind: Namespace$/ { doc = 1 } doc && /^  name: / { print $2; exit }' <<<"$manifests")"
[[ -n "$ns" ]] || die "the overlay renders no Namespace; the harness runs in its own restricted namespace" 2
context="$("$kubectl" config current-context 2>/dev/null || true)"
[[ -n "$context" ]] || die "your kubeconfig has no current context; pick one with kubectl config use-context NAME" 2
# Pinned: a context switched in another terminal during a 4-hour soak must not redirect the clean-up.
k() { "$kubectl" --context "$context" "$@"; }
kn() { k --namespace "$ns" "$@"; }

if [[ -z "$timeout_seconds" ]]; then
  deadlines="$(awk '/^  activeDeadlineSeconds: / { s += $2 } END { print s + 0 }' <<<"$manifests")"
  timeout_seconds=$((deadlines + 600))
fi
deadline=$((SECONDS + timeout_seconds))
left() { local l=$((deadline - SECONDS)); echo $((l > 0 ? l : 1)); }

reports="${REPORTS_DIR:-reports}"
[[ "$reports" == /* ]] || reports="$root/$reports"
out="$reports/k8s-$name-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs"
printf '%s\n' "$manifests" >"$out/manifests.yaml"

if k get namespace "$ns" >/dev/null 2>&1; then
  echo "error: namespace $ns already exists in context $context; the run deletes its namespace at the end, so it will not reuse one. Remove it first: kubectl delete -k $dir" >&2
  exit 2
fi

applied=0
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if ((applied)); then
    echo "deleting what $name applied (namespace $ns)"
    k delete -k "$dir" --ignore-not-found --wait=true --timeout=180s >/dev/null 2>&1 \
      || echo "warning: the clean-up did not finish; check with: kubectl --context $context get namespace $ns" >&2
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

echo "applying $name to context $context, namespace $ns (bound: ${timeout_seconds}s); output: $out"
applied=1
k apply -k "$dir" >/dev/null

echo "waiting for the services"
if ! kn wait --for=condition=Available deployment --all --timeout="$(($(left) < 600 ? $(left) : 600))s"; then
  kn get pods -o wide >&2 || true
  echo "error: the services did not become available; see the pods above (kubectl describe pod shows why)" >&2
  exit 1
fi

# Waits, bounded, until a Job is Complete or Failed; prints which. Once a minute it shows the Job's latest log line
# (the runner's progress line) on stderr, so a 4-hour soak is not silent.
finished() {
  local job="$1" state="" polls=0
  while ((SECONDS < deadline)); do
    state="$(kn get "$job" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')"
    case " $state " in
      *" Complete "*) echo Complete; return ;;
      *" Failed "*) echo Failed; return ;;
    esac
    sleep 10
    if ((++polls % 6 == 0)); then
      echo "  ${job#*/} $(date +%H:%M:%S): $(kn logs "$job" --tail=1 2>/dev/null | cut -c1-160)" >&2
    fi
  done
  echo Timeout
}

status=0
run_stage() {
  local stage="$1" job result
  for job in $(kn get jobs -l "harness/stage=$stage" -o name); do
    [[ "$stage" == load ]] || kn patch "$job" --type=merge -p '{"spec":{"suspend":false}}' >/dev/null
    echo "waiting for $job"
    result="$(finished "$job")"
    kn logs -l "job-name=${job#*/}" --all-containers --prefix --tail=-1 --max-log-requests=20 >"$out/logs/${job#*/}.log" 2>&1 || true
    echo "$job: $result (log: $out/logs/${job#*/}.log)"
    [[ "$result" == Complete ]] || status=1
    [[ "$result" != Timeout ]] || die "$job did not finish within the bound; raise --timeout"
  done
}
run_stage load

# A service that restarted mid-run measured two processes: say so next to the report.
restarts="$(kn get pods -l app.kubernetes.io/component=service -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.containerStatuses[0].restartCount}{"\n"}{end}' | awk '$2 > 0')"
[[ -z "$restarts" ]] || { echo "warning: services restarted during the run; their figures are not comparable:" >&2; echo "$restarts" >&2; }

echo "copying the run folders"
kn patch job/collect --type=merge -p '{"spec":{"suspend":false}}' >/dev/null
pod=""
while [[ -z "$pod" ]] && ((SECONDS < deadline)); do
  pod="$(kn get pods -l job-name=collect -o jsonpath='{.items[0].metadata.name}' 2>/dev/null || true)"
  [[ -n "$pod" ]] || sleep 2
done
[[ -n "$pod" ]] && kn wait --for=condition=Ready "pod/$pod" --timeout="$(($(left) < 300 ? $(left) : 300))s" >/dev/null \
  || die "the collect pod did not start; the run folders stay on the volume until the clean-up"
kn cp -c collect "$pod:/runs" "$out/runs" >/dev/null

find "$out/runs" -name index.html | sed 's/^/Report: /'
echo "done: $out (load $([[ $status == 0 ]] && echo passed || echo 'failed: see the logs and the report'))"
exit "$status"
