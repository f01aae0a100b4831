// The soak charts of one group (docs/report.md, "Soak"): p99 per window, successful req/s, working set and OS
// threads, each with its series' least-squares trend (dashed) and the first and last windows shaded.
(function (H) {
  'use strict';

  // Shades each series' first and last window: once in grey when every series has the same, else in each one's colour.
  function windowsPlugin(soak) {
    var withWindows = soak.filter(function (s) { return s.first && s.last; });
    var key = function (s) { return s.first.join(',') + ';' + s.last.join(','); };
    var shared = withWindows.length > 0 && withWindows.every(function (s) { return key(s) === key(withWindows[0]); });
    var shades = shared ? [{ s: withWindows[0], color: H.REFERENCE, label: '' }]
      : withWindows.map(function (s) { return { s: s, color: s.color, label: ' ' + s.label }; });
    return {
      id: 'harnessSoakWindows',
      beforeDatasetsDraw: H.overChart(function (ctx, a, x) {
        shades.forEach(function (shade, i) {
          [['first', shade.s.first], ['last', shade.s.last]].forEach(function (w) {
            var x0 = Math.max(a.left, x.getPixelForValue(w[1][0]));
            var x1 = Math.min(a.right, x.getPixelForValue(w[1][1]));
            if (x1 > x0) {
              ctx.fillStyle = H.alpha(shade.color, 0.1);
              ctx.fillRect(x0, a.top, x1 - x0, a.bottom - a.top);
              ctx.fillStyle = H.alpha(shade.color, 0.85);
              ctx.font = '9px sans-serif';
              ctx.textAlign = 'left';
              ctx.textBaseline = 'bottom';
              ctx.fillText(w[0] + ' ' + H.fmt(shade.s.windowPercent) + ' %' + shade.label, x0 + 2, a.bottom - 2 - (i * 11));
            }
          });
        });
      }),
    };
  }

  function trend(s, ends, factor, what) {
    if (!ends) {
      return [];
    }

    return [H.line(s.label + ' ' + what, s.color, [{ x: ends[0], y: ends[1] * factor }, { x: ends[2], y: ends[3] * factor }],
      { borderDash: [7, 4], borderWidth: 1.8, reference: true })];
  }

  function successes(s) {
    return s.timeline.requests.map(function (r, i) {
      return r === null ? null : r - (s.timeline.failures[i] || 0);
    });
  }

  H.drawSoak = function (group, grid, v) {
    var soak = group.soak;
    var byLabel = {};
    group.series.forEach(function (s) { byLabel[s.label] = s; });
    var plugins = [windowsPlugin(soak)];

    var p99 = [];
    soak.forEach(function (s) {
      p99.push(H.line(s.label + ' p99 per window', s.color, s.p99Windows.map(function (p) { return { x: p.x, y: p.y * v.factor }; }),
        { pointRadius: 3, borderWidth: 1.4 }));
      p99 = p99.concat(trend(s, s.p99Trend, v.factor, 'trend'));
    });
    H.timeChart(grid, group, 'Soak: p99', 'p99 of the successful requests of each consecutive ' + H.fmt(soak[0].windowPercent) +
      ' % of the series (points) and its least-squares trend (dashed); shaded: the first and last windows compared', v.unit, p99, false, plugins);

    var rps = [];
    soak.forEach(function (s) {
      rps.push(H.line(s.label, s.color, H.points(successes(byLabel[s.label]))));
      rps = rps.concat(trend(s, s.rpsTrend, 1, 'trend'));
    });
    H.timeChart(grid, group, 'Soak: successful req/s', 'successful requests each second and their trend (dashed)', 'req/s', rps, false, plugins);

    if (!group.series.some(function (s) { return s.hasServer; })) {
      return;
    }

    var memory = [];
    var threads = [];
    soak.forEach(function (s) {
      memory.push(H.line(s.label, s.color, H.points(byLabel[s.label].timeline.memoryMb)));
      memory = memory.concat(trend(s, s.memoryTrend, 1, 'trend'));
      threads.push(H.line(s.label, s.color, H.points(byLabel[s.label].timeline.threads)));
      threads = threads.concat(trend(s, s.threadsTrend, 1, 'trend'));
    });
    H.timeChart(grid, group, 'Soak: memory', 'working set of the target and its trend (dashed); growth = slope per hour ÷ the first window\'s level', 'MB',
      memory, false, plugins);
    H.timeChart(grid, group, 'Soak: server threads', 'OS threads of the target (process_threads) and their trend (dashed)', 'threads', threads, false, plugins);
  };
})(window.HarnessReport);
