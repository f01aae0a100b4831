#!/usr/bin/env bash
# Reruns one of the published experiments (../shared/EXPERIMENTS.md; docs/experiments.md) with the harness.
# Usage: scripts/experiment.sh S0|S1|S2|S2-matrix|S3 [extra harness options, e.g. --stacks grpc or --time-scale 0.25]
# Each writes its run folder(s) under reports/<experiment>/ and prints the report path. These are benchmarks:
# S2 takes 8 minutes per mode and stack as published (48 minutes for both stacks and three modes).
set -euo pipefail
cd "$(dirname "$0")/.."
cores=$(nproc)
experiment=${1:-}
shift || true

case "$experiment" in
  S0)
    # CPU-bound Compute at 5×cores concurrent users: threadpool vs the IOCP rule.
    scripts/harness.sh run --output reports/S0 --profile constant --users $((5 * cores)) \
      --operations compute --iterations 20000000 --modes threadpool,iocp "$@"
    ;;
  S1)
    # Many concurrent 4 s waits: holding a thread each (task-wait) vs holding none (task-delay).
    # In-process stand-ins keep the client and stub out of the way; raise --users as far as the machine allows.
    for style in task-wait task-delay; do
      scripts/harness.sh run --output "reports/S1-$style" --profile constant --users 2000 \
        --operations call-third-party --fanout 1 --delay-ms 4000 --style "$style" --modes threadpool --stacks grpc "$@"
    done
    ;;
  S2)
    # Seed 002: ramp 4 users +4 every 45 s for 8 minutes; each request fans out 4 blocking 4 s calls.
    scripts/harness.sh run --output reports/S2 --profile ramp \
      --operations call-third-party --fanout 4 --delay-ms 4000 --style blocking --modes threadpool,iocp,custompool "$@"
    ;;
  S2-matrix)
    # S2 with each mode in its own container under the same limits (harness matrix; needs Docker and
    # scripts/build-images.sh). Defaults: SOAP, 1 CPU and 512 MiB per container; override with --cpus/--memory.
    scripts/harness.sh matrix --output reports/S2-matrix --profile ramp --stacks soap \
      --operations call-third-party --fanout 4 --delay-ms 4000 --style blocking --modes threadpool,iocp,custompool \
      --cpus 1 --memory 512m "$@"
    ;;
  S3)
    # Seed 003: 8 blocking reads per request, sequential vs the default degree of parallelism (cores) vs 8.
    for parallelism in 1 "$cores" 8; do
      scripts/harness.sh run --output "reports/S3-p$parallelism" --profile constant --users 1 --time-scale 0.25 \
        --operations call-third-party --fanout 8 --delay-ms 250 --style blocking --parallelism "$parallelism" \
        --modes custompool "$@"
    done
    ;;
  *)
    echo "usage: scripts/experiment.sh S0|S1|S2|S2-matrix|S3 [harness options]" >&2
    exit 2
    ;;
esac
