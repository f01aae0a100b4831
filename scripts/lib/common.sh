# What the scripts share; each sources it first: source "$(dirname "$0")/lib/common.sh"
#   root                        the repository's root, absolute
#   runner_out                  the runner's Release build output (harness.dll)
#   die MESSAGE [CODE]          prints "error: MESSAGE" on stderr and exits CODE (default 1; 2 is bad usage)
#   whole_number OPTION VALUE   exits 2 naming OPTION unless VALUE is a whole number of 1 or more
#   require_docker              exits 1 unless a Docker engine answers
#   build_release PROJECT [ARG…] builds PROJECT (Release, warnings as errors) quietly; a failed build prints its log
#                               and returns 1
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runner_out="$root/loadtests/Harness.LoadTests/bin/Release/net10.0"

die() { echo "error: $1" >&2; exit "${2:-1}"; }

whole_number() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 '$2': takes a whole number of 1 or more." 2; }

require_docker() {
  docker info >/dev/null 2>&1 || die "no Docker engine answers on ${DOCKER_HOST:-unix:///var/run/docker.sock}; start dockerd"
}

build_release() {
  local build_log
  build_log=$(dotnet build "$1" -c Release -warnaserror --nologo -v quiet "${@:2}" 2>&1) || { echo "$build_log" >&2; return 1; }
}
