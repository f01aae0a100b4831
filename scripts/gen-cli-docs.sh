#!/usr/bin/env bash
# Rewrites docs/cli.md, the command-line reference, from the harness command itself: scripts/gen-cli-docs.sh
# (builds the runner, then runs its hidden `harness docs cli --output docs/cli.md`). CliReferenceTests fails when the
# committed page and the command differ; run this after changing an option.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage="usage: scripts/gen-cli-docs.sh (no options): rewrites docs/cli.md from the harness command"
case "${1-}" in
  "") ;;
  -h | --help) echo "$usage"; exit 0 ;;
  *) echo "$usage" >&2; exit 2 ;;
esac

build_release "$root/loadtests/Harness.LoadTests/Harness.LoadTests.csproj" || exit 1
dotnet "$runner_out/harness.dll" docs cli --output "$root/docs/cli.md"
