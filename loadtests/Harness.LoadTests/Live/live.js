// The --live page: asks /data for the seconds it lacks (the harness answers as soon as a second ends, or after a few
// seconds with none), adds them to five charts, and starts afresh when the next series begins.
// It records on <body>: data-seconds-received (of the current series), data-updates (answers that brought seconds),
// data-series (the series' index) and data-ended; the live page's test reads them.
(function (H) {
  'use strict';

  var body = document.body;
  var host = document.getElementById('charts');
  var series = -1;
  var received = 0;
  var updates = 0;
  var charts = [];
  var P50 = '#2f6fbd', P99 = '#d1495b', RATE = '#2e9e6a', ERRORS = '#d1495b', USERS = '#8a94a3', THREADS = '#7b5ea7';

  function text(id, value) {
    document.getElementById(id).textContent = value;
  }

  // The warm-up shaded up to where the measured part starts, as the report shades it; a warm-up burst that runs apart
  // has no known end until it has drained, so up to its last second until then.
  var warmUpPlugin = {
    id: 'warmUp',
    beforeDatasetsDraw: function (chart) {
      var last = chart.$warmUpEnd;
      if (last === undefined) {
        return;
      }

      var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.fillStyle = 'rgba(138, 148, 163, 0.12)';
      ctx.fillRect(area.left, area.top, Math.max(0, Math.min(x.getPixelForValue(last), area.right) - area.left), area.bottom - area.top);
      ctx.restore();
    },
  };

  function chart(title, caption, unit, lines) {
    var canvas = H.card(host, title, caption, false);
    var c = new Chart(canvas, {
      type: 'line',
      data: {
        datasets: lines.map(function (l) {
          return H.line(l.label, l.color, [], { stepped: l.stepped || false });
        }),
      },
      options: {
        parsing: false,
        normalized: true,
        scales: {
          x: { type: 'linear', min: 0, title: { display: true, text: 'seconds since the series started' }, ticks: { maxTicksLimit: 12 } },
          y: H.valueScale(unit),
        },
        plugins: { tooltip: H.tooltips(unit, 'second') },
      },
      plugins: [warmUpPlugin],
    });
    c.$pick = lines.map(function (l) { return l.pick; });
    charts.push(c);
  }

  function build() {
    chart('Latency', 'p50 and p99 of each second\'s successful requests', 'ms', [
      { label: 'p50', color: P50, pick: function (s) { return s.p50; } },
      { label: 'p99', color: P99, pick: function (s) { return s.p99; } },
    ]);
    chart('Throughput', 'requests completed per second', 'req/s', [
      { label: 'req/s', color: RATE, pick: function (s) { return s.rps; } },
    ]);
    chart('Errors', 'failed requests per second', 'errors/s', [
      { label: 'errors/s', color: ERRORS, pick: function (s) { return s.errors; } },
    ]);
    chart('Load', 'virtual users (closed model) or arrival rate (open model)', 'users', [
      { label: 'users', color: USERS, stepped: true, pick: function (s) { return s.users; } },
    ]);
    chart('Server threads', 'OS threads of the target process (process_threads), as last scraped from its /metrics', 'threads', [
      { label: 'threads', color: THREADS, stepped: true, pick: function (s) { return s.threads; } },
    ]);
  }

  function add(seconds) {
    charts.forEach(function (c) {
      seconds.forEach(function (s) {
        c.$pick.forEach(function (pick, i) {
          var v = pick(s);
          c.data.datasets[i].data.push({ x: s.t, y: v === null || v === undefined ? NaN : v });
        });
        if (s.warmUpEnd !== null && s.warmUpEnd !== undefined) {
          c.$warmUpEnd = s.warmUpEnd;
        } else if (s.warmUp) {
          c.$warmUpEnd = s.t;
        }
      });
      c.update('none');
    });
  }

  function reset() {
    charts.forEach(function (c) {
      c.data.datasets.forEach(function (d) { d.data = []; });
      c.$warmUpEnd = undefined;
    });
  }

  function ended(message) {
    body.dataset.ended = 'true';
    text('state', message);
  }

  function apply(update) {
    if (update.series !== null && update.seriesIndex !== series) {
      reset();
      series = update.seriesIndex;
      body.dataset.series = String(series);
      text('series', update.series);
    }

    if (update.seconds.length > 0) {
      add(update.seconds);
      updates++;
      text('line', update.seconds[update.seconds.length - 1].line);
    }

    received = update.received;
    body.dataset.secondsReceived = String(received);
    body.dataset.updates = String(updates);
    text('received', String(received));
  }

  function poll() {
    fetch('data?series=' + series + '&received=' + received, { cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) {
          throw new Error('HTTP ' + response.status);
        }

        return response.json();
      })
      .then(function (update) {
        apply(update);
        if (update.ended) {
          ended('the run has ended; its report is in the run folder');
          return;
        }

        poll();
      })
      .catch(function () {
        ended('the harness no longer answers: the run has ended');
      });
  }

  if (!H.ready) {
    return;
  }

  build();
  poll();
})(window.HarnessReport);
