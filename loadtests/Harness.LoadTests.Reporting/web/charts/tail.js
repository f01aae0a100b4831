// The tail of a group's latency: the percentile spectrum (HdrHistogram's percentile distribution on the "number of
// nines" axis, x = 1 / (1 - p)) and one latency heatmap per series (seconds × latency bands, colour = count).
(function (H) {
  'use strict';

  // 1 / (1 - p) back to the percentile it stands for: 1 → 0 %, 10 → 90 %, 1000 → 99.9 %.
  function nines(x) {
    return String(Math.round(100 * (1 - (1 / x)) * 1e6) / 1e6) + ' %';
  }

  function spectrumPoints(line, factor) {
    var points = line.percentiles.map(function (p, i) { return { x: 1 / (1 - (p / 100)), y: line.ms[i] * factor }; });
    var last = points.length ? points[points.length - 1].x : 1;
    points.push({ x: Math.max(line.count, last), y: line.maxMs * factor });
    return points;
  }

  function drawSpectrum(group, grid, v) {
    var lines = [];
    var top = 10;
    group.spectra.forEach(function (s) {
      if (s.service) {
        lines.push(H.line(s.label, s.color, spectrumPoints(s.service, v.factor), { borderWidth: 2 }));
        top = Math.max(top, s.service.count);
      }

      if (s.intended) {
        lines.push(H.line(s.label + ' from the intended start', s.color, spectrumPoints(s.intended, v.factor), { borderDash: [6, 4], borderWidth: 1.4 }));
        top = Math.max(top, s.intended.count);
      }
    });
    if (lines.length === 0) {
      return;
    }

    var decades = [];
    for (var d = 1; d <= top * 10 && decades.length < 12; d *= 10) {
      decades.push(d);
    }

    var open = group.spectra.some(function (s) { return s.intended; });
    var canvas = H.card(grid, 'Percentile spectrum', 'latency at each percentile of the successful requests after the warm-up (HdrHistogram\'s ' +
      'percentile distribution); x: the number of nines, 1 ÷ (1 − p); each line ends at its maximum' +
      (open ? '; dashed: from the intended start (open model)' : ''));
    H.draw(canvas, {
      type: 'line',
      data: { datasets: lines },
      options: {
        parsing: false,
        scales: {
          x: {
            type: 'logarithmic',
            min: 1,
            max: decades[decades.length - 1],
            title: { display: true, text: 'percentile' },
            afterBuildTicks: function (scale) { scale.ticks = decades.map(function (value) { return { value: value }; }); },
            ticks: { callback: function (value) { return nines(value); } },
          },
          y: H.valueScale(v.unit),
        },
        plugins: {
          tooltip: {
            mode: 'nearest',
            intersect: false,
            callbacks: {
              title: function (items) { return items.length ? 'p' + nines(items[0].parsed.x) : ''; },
              label: function (item) { return item.dataset.label + ': ' + H.fmt(item.parsed.y) + ' ' + v.unit; },
            },
          },
        },
      },
    }, 'Percentile spectrum');
  }

  // Light yellow (few) to dark purple (many).
  var STOPS = [[255, 247, 188], [254, 196, 79], [236, 112, 20], [153, 52, 4], [60, 20, 70]];

  function heat(t) {
    var position = Math.max(0, Math.min(1, t)) * (STOPS.length - 1);
    var i = Math.min(STOPS.length - 2, Math.floor(position));
    var f = position - i;
    var c = STOPS[i].map(function (value, k) { return Math.round(value + ((STOPS[i + 1][k] - value) * f)); });
    return 'rgb(' + c.join(',') + ')';
  }

  function heatPlugin(map, series, factor) {
    return {
      id: 'harnessHeatmap',
      beforeDatasetsDraw: function (chart) {
        var a = chart.chartArea;
        var x = chart.scales.x;
        var y = chart.scales.y;
        var ctx = chart.ctx;
        var cells = series.cells;
        var top = Math.log(1 + series.maxCount);
        ctx.save();
        ctx.beginPath();
        ctx.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
        ctx.clip();
        for (var i = 0; i + 2 < cells.length; i += 3) {
          var x0 = x.getPixelForValue(cells[i] * map.secondsPerColumn);
          var x1 = x.getPixelForValue((cells[i] + 1) * map.secondsPerColumn);
          var y0 = y.getPixelForValue(map.edgesMs[cells[i + 1]] * factor);
          var y1 = y.getPixelForValue(map.edgesMs[cells[i + 1] + 1] * factor);
          ctx.fillStyle = heat(Math.log(1 + cells[i + 2]) / top);
          ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.max(1, Math.abs(x1 - x0)), Math.max(1, Math.abs(y1 - y0)));
        }

        ctx.restore();
      },
    };
  }

  function drawHeatmaps(group, grid, v) {
    var map = group.heatmap;
    if (!map || map.edgesMs.length < 2) {
      return;
    }

    var low = map.edgesMs[0] * v.factor;
    var high = map.edgesMs[map.edgesMs.length - 1] * v.factor;
    map.series.forEach(function (s) {
      var series = group.series.filter(function (candidate) { return candidate.label === s.label; })[0];
      if (s.cells.length === 0 || !series) {
        return;
      }

      var title = 'Latency heatmap: ' + s.label;
      var canvas = H.card(grid, title, 'successful requests per ' + (map.secondsPerColumn > 1 ? map.secondsPerColumn + ' s' : 'second') +
        ' and latency band (4 bands per doubling, log scale); colour: how many, light (1) to dark (' + H.fmt(s.maxCount) +
        '), log scale; line: p99 each second');
      H.draw(canvas, {
        type: 'line',
        data: { datasets: [H.line('p99', '#1d2430', H.points(series.timeline.p99, v.factor), { borderWidth: 1 })] },
        options: {
          parsing: false,
          scales: {
            x: H.timeScale(group),
            y: { type: 'logarithmic', min: low, max: high, title: { display: true, text: v.unit }, ticks: { callback: H.fmt, maxTicksLimit: 10 } },
          },
          plugins: { legend: { display: false }, tooltip: H.tooltips(v.unit, 'second') },
        },
        plugins: [heatPlugin(map, s, v.factor), H.eventPlugin(group, s.label)],
      }, title);
    });
  }

  H.drawSpectrum = drawSpectrum;

  H.drawTail = function (group, grid, v) {
    drawSpectrum(group, grid, v);
    drawHeatmaps(group, grid, v);
  };
})(window.HarnessReport);
