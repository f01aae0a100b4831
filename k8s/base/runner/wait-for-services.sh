#!/usr/bin/env bash
# Waits, bounded, until every HOST:PORT argument answers GET /healthz with 200. A Job starts as soon as it is
# applied; without this its first seconds would record the services' start-up as errors. The images carry no curl,
# so the request is plain bash. WAIT_SECONDS bounds the whole wait (default 300).
set -u
limit=${WAIT_SECONDS:-300}
deadline=$((SECONDS + limit))
for target in "$@"; do
  host=${target%:*}
  port=${target##*:}
  until timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1" && printf "GET /healthz HTTP/1.0\r\nHost: %s\r\n\r\n" "$0" >&3 && head -n 1 <&3 | grep -q " 200 "' "$host" "$port" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      echo "error: $target did not answer /healthz with 200 within ${limit} s" >&2
      exit 1
    fi
    sleep 2
  done
  echo "$target is healthy"
done
