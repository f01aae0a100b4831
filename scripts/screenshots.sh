#!/usr/bin/env bash
# Regenerates the screenshots in docs/images (the README's and the docs') from two short real runs on loopback (local services):
#   docs/images/compare.png   the comparison report of run B against run A (`harness compare A B`)
#   docs/images/spectrum.png  the percentile-spectrum chart of run B's report
#   docs/images/live.png      the --live page of a third run (one series)
# Needs headless Chromium (apt-get install chromium). Usage: scripts/screenshots.sh [extra run options…]
# The figures in the pictures are whatever this machine measures; the pictures show the pages, not results.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
images="$root/docs/images"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "screenshots.sh needs Chromium: apt-get install -y chromium" >&2; exit 2; }

run() { # run NAME [options…]: a short real run into $work/NAME; prints its run folder
  CI=true "$root/scripts/harness.sh" run --stacks grpc --operations compute --iterations 200000 \
    --output "$work/$1" "${@:2}" >"$work/$1.log"
  find "$work/$1" -mindepth 1 -maxdepth 1 -type d | head -1
}

shoot() { # shoot URL PNG WIDTH HEIGHT (five minutes at most)
  timeout 300 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars \
    --user-data-dir="$work/chromium" --force-device-scale-factor=1 --window-size="$3,$4" \
    --virtual-time-budget=5000 --screenshot="$2" "$1" 2>/dev/null
}

a="$(run a --time-scale 0.2 --modes threadpool,iocp --repeat 2 "$@")"
b="$(run b --time-scale 0.2 --modes threadpool,iocp --repeat 2 "$@")"

# A live page: Chromium's virtual time stands still while the page waits for the next second, so the picture is
# taken once the run has ended, its series on the page. Opened once the series is under way; a screenshot of the
# page was seen to hang now and then (Chromium 156), hence the time limit and a warning rather than a failure.
run live --live --modes iocp --time-scale 0.5 "$@" >/dev/null &
runner=$!
for _ in $(seq 180); do grep -q '^\[1/' "$work/live.log" 2>/dev/null && break; sleep 1; done
url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/live.log" | head -1)"
shoot "$url" "$images/live.png" 1200 1250 || echo "warning: no picture of the live page" >&2
wait "$runner"
CI=true "$root/scripts/harness.sh" compare "$a" "$b" --output "$work/compare" >/dev/null

shoot "file://$work/compare/index.html" "$images/compare.png" 1200 1300

# The spectrum alone: a copy of B's report whose last script keeps only that chart's card on the page.
cp "$b/index.html" "$work/spectrum.html"
cat >> "$work/spectrum.html" <<'HTML'
<script>
(function () {
  var title = Array.prototype.find.call(document.querySelectorAll('.chart-card h4'), function (h) { return h.textContent === 'Percentile spectrum'; });
  var card = title.closest('.chart-card');
  document.body.innerHTML = '';
  document.body.style.padding = '12px';
  document.body.appendChild(card);
})();
</script>
HTML
shoot "file://$work/spectrum.html" "$images/spectrum.png" 900 380

ls -l "$images/compare.png" "$images/spectrum.png" "$images/live.png"
