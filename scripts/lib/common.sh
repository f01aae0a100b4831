# What the scripts share; each sources it first: source "$(dirname "$0")/lib/common.sh"
#   root                        the repository's root, absolute
#   runner_out                  the runner's Release build output (harness.dll)
#   die MESSAGE [CODE]          prints "error: MESSAGE" on stderr and exits CODE (default 1; 2 is bad usage)
#   whole_number OPTION VALUE   exits 2 naming OPTION unless VALUE is a whole number of 1 or more
#   require_docker              exits 1 unless a Docker engine answers
#   packed_version DIR ID       prints the newest version of package ID among DIR's .nupkg files; exits 2, naming
#                               scripts/pack.sh, when DIR holds none
#   build_release PROJECT [ARG…] builds PROJECT (Release, warnings as errors) quietly; a failed build prints its log
#                               and returns 1
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runner_out="$root/loadtests/Harness.LoadTests/bin/Release/net10.0"

die() { echo "error: $1" >&2; exit "${2:-1}"; }

# free_ports N: the first of N free loopback ports in a row (a service's own, then its admin or metrics ports), below the
# ephemeral range, where load tools' own connections would otherwise take them, and used by no socket at all.
free_ports() {
  local count=$1 port low filter i
  low=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 1 50); do
    port=$((10000 + RANDOM % (low - 10000 - count)))
    filter="sport = :$port"
    for ((i = 1; i < count; i++)); do filter+=" or sport = :$((port + i))"; done
    if ! ss -Htan "( $filter )" | grep -q .; then
      echo "$port"
      return
    fi
  done
  die "no $count free loopback ports in a row found" 5
}

packed_version() {
  local dir=$1 id=$2
  compgen -G "$dir/$id.[0-9]*.nupkg" >/dev/null ||
    die "--packages $dir holds no $id package; make them with scripts/pack.sh --output $dir" 2
  ls "$dir/$id".[0-9]*.nupkg | sed "s/.*${id//./\\.}\\.//; s/\\.nupkg\$//" | sort -V | tail -n 1
}

whole_number() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 '$2': takes a whole number of 1 or more." 2; }

require_docker() {
  docker info >/dev/null 2>&1 || die "no Docker engine answers on ${DOCKER_HOST:-unix:///var/run/docker.sock}; start dockerd"
}

build_release() {
  local build_log
  build_log=$(dotnet build "$1" -c Release -warnaserror --nologo -v quiet "${@:2}" 2>&1) || { echo "$build_log" >&2; return 1; }
}
