#!/usr/bin/env bash
# A gRPC service the harness did not write, loaded over TLS on each of its four methods: tests/Assets/grpc-js-service
# (Node.js, @grpc/grpc-js, snake_case fields) serving TLS with a CA this script makes, and one `harness run --call`
# per method (unary, server-streaming, client-streaming, bidirectional) with --cacert, the methods found by the
# server's reflection and --data in proto field names. Prints each run's errors and its per-message figures (the
# Streams lines of the summary) and writes them to results.md. Loopback only; every run is bounded.
# Usage: scripts/streaming-tls.sh [--time-scale F] [--output DIR]
#   --time-scale F   the quick profile's time scale (default 0.25: 5 s measured after a 2 s warm-up)
#   --output DIR     where results go (default artifacts/streaming-tls/<time>): results.md, the runs and their logs
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$root"

scale=0.25 output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --time-scale) [[ "${2:-}" =~ ^(0\.[0-9]*[1-9][0-9]*|1(\.0*)?)$ ]] || die "--time-scale '${2:-}': takes a number above 0 and at most 1, e.g. 0.25." 2; scale=$2; shift 2 ;;
    --output) output=${2:-}; [ -n "$output" ] || die "--output: takes a directory." 2; shift 2 ;;
    -h|--help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$1'; valid: --time-scale, --output, -h." 2 ;;
  esac
done
command -v openssl >/dev/null || die "openssl is not on PATH: it makes the test CA and the server's certificate." 1
output=${output:-artifacts/streaming-tls/$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$output"
build_release "$root/loadtests/Harness.LoadTests/Harness.LoadTests.csproj" || exit 1
tests/Assets/grpc-js-service/install.sh

# A CA, and a server certificate it signs for 127.0.0.1 (the address the harness dials, checked as curl checks it).
pki="$output/pki"
mkdir -p "$pki"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=harness streaming-tls CA" \
  -keyout "$pki/ca-key.pem" -out "$pki/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$pki/server-key.pem" -out "$pki/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$pki/ext.cnf"
openssl x509 -req -in "$pki/server.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca-key.pem" -CAcreateserial -days 1 \
  -extfile "$pki/ext.cnf" -out "$pki/server.pem" 2>/dev/null

# The service, on a free loopback port it prints; it ends with this script (its standard input closes).
coproc SERVICE { exec node tests/Assets/grpc-js-service/server.js --port 0 --cert "$pki/server.pem" --key "$pki/server-key.pem" 2>&1; }
trap 'kill "$SERVICE_PID" 2>/dev/null || true' EXIT
read -r -t 20 listening <&"${SERVICE[0]}" || die "the grpc-js service did not say it was listening within 20 s" 1
[[ $listening =~ ^listening\ 127\.0\.0\.1:([0-9]+)$ ]] || die "the grpc-js service said '$listening', not 'listening 127.0.0.1:PORT'" 1
address="https://127.0.0.1:${BASH_REMATCH[1]}"
echo "grpc-js service at $address (TLS, the CA of $pki/ca.pem)" >&2

calls=(
  'GetOrder|{"order_id":"o-{{seq}}","customer_name":"c-{{user}}"}'
  'ListOrders|{"customer_name":"c-{{user}}","item_count":50}'
  'UploadOrders|[{"order_id":"u-{{seq}}","line_items":[{"sku":"a","unit_price_cents":100}]},{"order_id":"v-{{seq}}","line_items":[{"sku":"b","unit_price_cents":250}]},{"order_id":"w","line_items":[{"sku":"c"}]}]'
  'TrackOrders|[{"order_id":"t-{{seq}}"},{"order_id":"t2"},{"order_id":"t3"},{"order_id":"t4"},{"order_id":"t5"}]'
)
{
  echo "# streaming-tls, $(date -u +%Y-%m-%dT%H:%MZ), load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
  echo
} >"$output/results.md"
for entry in "${calls[@]}"; do
  method=${entry%%|*} data=${entry#*|}
  echo "shop.v1.Orders/$method" >&2
  # Bounded: about 7 s at the default scale; 3 minutes is far beyond any healthy run.
  timeout 180 dotnet "$runner_out/harness.dll" run --target "grpc=$address" --cacert "$pki/ca.pem" \
    --call "shop.v1.Orders/$method" --data "$data" --profile quick --time-scale "$scale" --warm-up 2s \
    --output "$output/runs" >"$output/$method.log" 2>&1 || die "the $method run failed: see $output/$method.log" 1
  {
    echo "## $method"
    echo
    echo '```'
    grep -E '^  grpc-[a-z-]+-external: [0-9]+ requests' "$output/$method.log" || true
    sed -n '/^Streams:/,/^$/p' "$output/$method.log"
    echo '```'
    echo
  } >>"$output/results.md"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$output/results.md"
cat "$output/results.md"
