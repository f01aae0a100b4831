// Draws the report's charts from the inline JSON (#report-data) with the inlined Chart.js.
// When done it records on <body>: data-charts-expected, data-charts-drawn (charts that plotted at least one
// point and left ink on their canvas), data-charts-blank and data-chart-errors; the rendering test reads them.
(function () {
  'use strict';

  var body = document.body;
  var counts = { expected: 0, drawn: 0, blank: 0, errors: 0 };

  function finish() {
    body.dataset.chartsExpected = String(counts.expected);
    body.dataset.chartsDrawn = String(counts.drawn);
    body.dataset.chartsBlank = String(counts.blank);
    body.dataset.chartErrors = String(counts.errors);
  }

  function report(message) {
    counts.errors++;
    var host = document.getElementById('report-errors');
    if (host) {
      var div = document.createElement('div');
      div.className = 'notice error';
      div.textContent = message;
      host.appendChild(div);
    }
  }

  var data;
  try {
    data = JSON.parse(document.getElementById('report-data').textContent);
  } catch (e) {
    report('The report data could not be read: ' + e.message);
    finish();
    return;
  }

  if (typeof Chart === 'undefined') {
    report('The chart library did not load, so the charts are missing; the tables are complete.');
    finish();
    return;
  }

  var NEUTRAL = '#8a94a3';
  var REFERENCE = '#4a4f57';

  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = getComputedStyle(body).fontFamily;
  Chart.defaults.font.size = 11;
  Chart.defaults.color = '#5b6576';
  Chart.defaults.borderColor = '#e6e9ef';
  Chart.defaults.elements.point.radius = 0;
  Chart.defaults.elements.point.hoverRadius = 3;
  Chart.defaults.elements.line.borderWidth = 1.6;
  Chart.defaults.plugins.legend.labels.usePointStyle = true;
  Chart.defaults.plugins.legend.labels.pointStyle = 'line';
  Chart.defaults.plugins.legend.labels.boxWidth = 22;
  Chart.defaults.plugins.legend.position = 'bottom';
  Chart.defaults.plugins.tooltip.mode = 'x';
  Chart.defaults.plugins.tooltip.intersect = false;

  function alpha(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + ((n >> 16) & 255) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }

  function fmt(v) {
    if (v === null || v === undefined || !isFinite(v)) {
      return '—';
    }

    var m = Math.abs(v);
    return v.toLocaleString('en-US', { maximumFractionDigits: m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : 3 });
  }

  function points(values, factor) {
    var out = [];
    if (!values) {
      return out;
    }

    for (var i = 0; i < values.length; i++) {
      out.push({ x: i, y: values[i] === null ? null : values[i] * (factor || 1) });
    }

    return out;
  }

  function constant(value, from, to) {
    return [{ x: from, y: value }, { x: to, y: value }];
  }

  // Event markers and fault windows, drawn on the time charts of one group.
  // label: only the markers of that series (and run-wide ones), for a chart of one series.
  function eventPlugin(group, label) {
    var mine = function (item) { return label === undefined || item.label === null || item.label === label; };
    var events = group.events.filter(mine);
    var windows = group.windows.filter(mine);
    return {
      id: 'harnessEvents',
      beforeDatasetsDraw: function (chart) {
        var a = chart.chartArea;
        var x = chart.scales.x;
        var ctx = chart.ctx;
        ctx.save();
        windows.forEach(function (w) {
          var x0 = Math.max(a.left, x.getPixelForValue(w.from));
          var x1 = Math.min(a.right, x.getPixelForValue(w.to));
          if (x1 > x0) {
            ctx.fillStyle = alpha(w.color, 0.1);
            ctx.fillRect(x0, a.top, x1 - x0, a.bottom - a.top);
          }
        });
        ctx.restore();
      },
      afterDatasetsDraw: function (chart) {
        var a = chart.chartArea;
        var x = chart.scales.x;
        var ctx = chart.ctx;
        ctx.save();
        events.forEach(function (ev) {
          var px = x.getPixelForValue(ev.x);
          if (px < a.left - 0.5 || px > a.right + 0.5) {
            return;
          }

          ctx.strokeStyle = ev.color;
          ctx.lineWidth = 1.2;
          ctx.setLineDash([4, 3]);
          ctx.beginPath();
          ctx.moveTo(px, a.top + 14);
          ctx.lineTo(px, a.bottom);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = ev.color;
          ctx.beginPath();
          ctx.arc(px, a.top + 7, 7, 0, Math.PI * 2);
          ctx.fill();
          ctx.fillStyle = '#fff';
          ctx.font = 'bold 9px sans-serif';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(String(ev.number), px, a.top + 7.5);
        });
        ctx.restore();
      },
    };
  }

  function card(container, title, caption, wide) {
    var div = document.createElement('div');
    div.className = 'chart-card' + (wide ? ' wide' : '');
    var h = document.createElement('h4');
    h.textContent = title;
    var p = document.createElement('p');
    p.className = 'caption';
    p.textContent = caption || '';
    var box = document.createElement('div');
    box.className = 'box';
    var canvas = document.createElement('canvas');
    box.appendChild(canvas);
    div.appendChild(h);
    div.appendChild(p);
    div.appendChild(box);
    container.appendChild(div);
    return canvas;
  }

  function emptyCard(container, title, message) {
    var div = document.createElement('div');
    div.className = 'chart-card empty wide';
    var h = document.createElement('h4');
    h.textContent = title;
    var box = document.createElement('div');
    box.className = 'box';
    box.textContent = message;
    div.appendChild(h);
    div.appendChild(box);
    container.appendChild(div);
  }

  // Counts a chart as drawn when a data set plotted a point and the canvas holds ink.
  function verify(chart) {
    var plotted = 0;
    chart.data.datasets.forEach(function (d, i) {
      if (d.reference || !chart.isDatasetVisible(i)) {
        return;
      }

      chart.getDatasetMeta(i).data.forEach(function (el) {
        if (!el.skip && isFinite(el.x) && isFinite(el.y)) {
          plotted++;
        }
      });
    });
    var canvas = chart.canvas;
    var pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    var ink = 0;
    for (var k = 3; k < pixels.length; k += 16) {
      if (pixels[k] !== 0) {
        ink++;
      }
    }

    return plotted > 0 && ink > 0;
  }

  function draw(canvas, config, title) {
    counts.expected++;
    try {
      var chart = new Chart(canvas, config);
      if (verify(chart)) {
        counts.drawn++;
      } else {
        counts.blank++;
      }
    } catch (e) {
      report('Chart "' + title + '" failed: ' + e.message);
    }
  }

  function timeScale(group) {
    return {
      type: 'linear',
      min: 0,
      max: Math.max(1, group.length - 1),
      title: { display: true, text: 'seconds since the series started' },
      ticks: { maxTicksLimit: 12 },
    };
  }

  function valueScale(title, extra) {
    var scale = { type: 'linear', beginAtZero: true, title: { display: true, text: title }, ticks: { callback: fmt } };
    return Object.assign(scale, extra || {});
  }

  function line(label, color, data, options) {
    return Object.assign({ label: label, data: data, borderColor: color, backgroundColor: color, spanGaps: false }, options || {});
  }

  function tooltips(unit, xTitle) {
    return {
      callbacks: {
        title: function (items) {
          return items.length ? xTitle + ' ' + fmt(items[0].parsed.x) : '';
        },
        label: function (item) {
          return item.dataset.label + ': ' + fmt(item.parsed.y) + (unit ? ' ' + unit : '');
        },
      },
    };
  }

  function timeChart(container, group, title, caption, unit, datasets, wide) {
    var canvas = card(container, title, caption, wide);
    draw(canvas, {
      type: 'line',
      data: { datasets: datasets },
      options: {
        parsing: false,
        normalized: true,
        scales: { x: timeScale(group), y: valueScale(unit) },
        plugins: { tooltip: tooltips(unit, 'second') },
      },
      plugins: [eventPlugin(group)],
    }, title);
  }

  function idealLatencyLines(group, factor, from, to) {
    var withIdeal = group.series.filter(function (s) { return s.idealLatencyMs !== null; });
    var distinct = withIdeal.map(function (s) { return s.idealLatencyMs; }).filter(function (v, i, all) { return all.indexOf(v) === i; });
    return withIdeal
      .filter(function (s, i) { return distinct.length > 1 || i === 0; })
      .map(function (s) {
        var label = distinct.length > 1 ? 'ideal (' + s.label + ')' : 'ideal ' + fmt(s.idealLatencyMs) + ' ms';
        return line(label, distinct.length > 1 ? s.color : REFERENCE, constant(s.idealLatencyMs * factor, from, to),
          { borderDash: [2, 3], borderWidth: 1.4, reference: true, pointRadius: 0 });
      });
  }

  function idealThroughputLines(group, from, to) {
    var withIdeal = group.series.filter(function (s) { return s.idealThroughput !== null; });
    var distinct = withIdeal.map(function (s) { return s.idealThroughput; }).filter(function (v, i, all) { return all.indexOf(v) === i; });
    return withIdeal
      .filter(function (s, i) { return distinct.length > 1 || i === 0; })
      .map(function (s) {
        var label = distinct.length > 1 ? 'ideal (' + s.label + ')' : 'ideal ' + fmt(s.idealThroughput) + ' req/s';
        return line(label, distinct.length > 1 ? s.color : REFERENCE, constant(s.idealThroughput, from, to),
          { borderDash: [2, 3], borderWidth: 1.4, reference: true });
      });
  }

  function maxOf(group, pick) {
    var max = 0;
    group.series.forEach(function (s) {
      (pick(s) || []).forEach(function (v) {
        if (v !== null && v > max) {
          max = v;
        }
      });
    });
    return max;
  }

  function drawGroup(group, host) {
    var end = Math.max(1, group.length - 1);
    var open = group.series.some(function (s) { return s.model === 'open'; });
    var allOpen = group.series.every(function (s) { return s.model === 'open'; });
    var slow = maxOf(group, function (s) { return s.timeline.p99; }) >= 2000;
    var factor = slow ? 0.001 : 1;
    var unit = slow ? 's' : 'ms';
    var usersTitle = allOpen ? 'arrival rate (requests started per s)' : open ? 'users (closed) / arrival rate per s (open)' : 'virtual users';
    var noServer = function (s) { return s.hasServer ? s.label : s.label + ' (no server samples)'; };

    // The classic chart of seed 002, one per mode: users, throughput and mean response time on one time axis.
    var classic = document.createElement('div');
    classic.className = 'charts classic';
    host.appendChild(classic);
    group.series.forEach(function (s) {
      var title = s.label + ': users, req/s and mean response time';
      var canvas = card(classic, title, 'users: grey area (left axis) · req/s: dashed · mean: solid (' + unit + ')');
      var sets = [
        line('users', NEUTRAL, points(s.timeline.users), { yAxisID: 'y', stepped: true, fill: true, backgroundColor: alpha(NEUTRAL, 0.15), borderWidth: 1 }),
        line('req/s', alpha(s.color, 0.6), points(s.timeline.requests), { yAxisID: 'y1', borderDash: [5, 3], borderWidth: 1.3 }),
        line('mean ' + unit, s.color, points(s.timeline.mean, factor), { yAxisID: 'y2', borderWidth: 2.2 }),
      ];
      if (s.idealLatencyMs !== null) {
        sets.push(line('ideal ' + fmt(s.idealLatencyMs * factor) + ' ' + unit, REFERENCE,
          constant(s.idealLatencyMs * factor, 0, end), { yAxisID: 'y2', borderDash: [2, 3], borderWidth: 1.2, reference: true }));
      }

      draw(canvas, {
        type: 'line',
        data: { datasets: sets },
        options: {
          parsing: false,
          scales: {
            x: timeScale(group),
            y: valueScale(open ? 'users / rate' : 'users', { position: 'left' }),
            y1: valueScale('req/s', { position: 'right', grid: { drawOnChartArea: false } }),
            y2: valueScale('mean ' + unit, { position: 'right', grid: { drawOnChartArea: false } }),
          },
          plugins: { tooltip: tooltips('', 'second') },
        },
        plugins: [eventPlugin(group, s.label)],
      }, title);
    });

    var grid = document.createElement('div');
    grid.className = 'charts';
    host.appendChild(grid);

    timeChart(grid, group, 'Load', usersTitle + ', each second', allOpen ? 'requests started/s' : open ? 'users / rate' : 'users',
      group.series.map(function (s) { return line(s.label, s.color, points(s.timeline.users), { stepped: true }); }));

    timeChart(grid, group, 'Throughput', 'requests completed per second, failed ones included' +
      (group.series.some(function (s) { return s.idealThroughput !== null; }) ? '; dotted: ideal (cores ÷ single-call time)' : ''), 'req/s',
      group.series.map(function (s) { return line(s.label, s.color, points(s.timeline.requests)); })
        .concat(idealThroughputLines(group, 0, end)));

    var latency = [];
    group.series.forEach(function (s) {
      latency.push(line(s.label + ' mean', s.color, points(s.timeline.mean, factor), { borderWidth: 2 }));
      latency.push(line(s.label + ' p99', s.color, points(s.timeline.p99, factor), { borderDash: [6, 4], borderWidth: 1.2 }));
    });
    timeChart(grid, group, 'Response time over time', 'service time of the requests completed each second: mean solid, p99 dashed', unit,
      latency.concat(idealLatencyLines(group, factor, 0, end)));

    // Response time against users: each users level's seconds merged into one histogram.
    var levels = [];
    var maxUsers = 1;
    group.series.forEach(function (s) {
      var mean = [];
      var p99 = [];
      s.byUsers.users.forEach(function (u, i) {
        mean.push({ x: u, y: s.byUsers.mean[i] === null ? null : s.byUsers.mean[i] * factor });
        p99.push({ x: u, y: s.byUsers.p99[i] === null ? null : s.byUsers.p99[i] * factor });
        maxUsers = Math.max(maxUsers, u);
      });
      levels.push(line(s.label + ' mean', s.color, mean, { borderWidth: 2, pointRadius: 2.5 }));
      levels.push(line(s.label + ' p99', s.color, p99, { borderDash: [6, 4], borderWidth: 1.2, pointRadius: 2, pointStyle: 'rectRot' }));
    });
    var vsUsers = card(grid, 'Response time against load', 'mean (solid) and p99 (dashed) of all requests completed while each ' +
      (open ? 'users level / arrival rate' : 'users level') + ' was applied');
    draw(vsUsers, {
      type: 'line',
      data: { datasets: levels.concat(idealLatencyLines(group, factor, 0, maxUsers)) },
      options: {
        parsing: false,
        scales: {
          x: { type: 'linear', beginAtZero: true, title: { display: true, text: usersTitle } },
          y: valueScale(unit),
        },
        plugins: { tooltip: Object.assign(tooltips(unit, open ? 'load' : 'users'), { mode: 'nearest', intersect: false }) },
      },
    }, 'Response time against load');

    if (open) {
      var intended = [];
      group.series.filter(function (s) { return s.timeline.intendedMean; }).forEach(function (s) {
        intended.push(line(s.label + ' mean', s.color, points(s.timeline.intendedMean, factor), { borderWidth: 2 }));
        intended.push(line(s.label + ' p99', s.color, points(s.timeline.intendedP99, factor), { borderDash: [6, 4], borderWidth: 1.2 }));
      });
      timeChart(grid, group, 'Latency from the intended start (open model)',
        'coordinated omission corrected: measured from when each request should have started', unit, intended);
    }

    if (group.series.some(function (s) { return s.timeline.failures.some(function (v) { return v > 0; }); })) {
      timeChart(grid, group, 'Failures', 'requests that failed each second (by status in the summary)', 'failures/s',
        group.series.map(function (s) { return line(s.label, s.color, points(s.timeline.failures)); }));
    }

    if (!group.series.some(function (s) { return s.hasServer; })) {
      emptyCard(grid, 'Server counters', 'No server samples: the targets\' /metrics never answered during these series.');
      return;
    }

    timeChart(grid, group, 'Server threads', 'OS threads of the target process (process_threads)', 'threads',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.threads)); }));

    timeChart(grid, group, 'Busy scheduler threads', 'threads of the mode\'s scheduler running a work item; dotted: the ' +
      group.cores + ' cores', 'threads',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.busyThreads)); })
        .concat([line(group.cores + ' cores', REFERENCE, constant(group.cores, 0, end), { borderDash: [2, 3], borderWidth: 1.2, reference: true })]));

    timeChart(grid, group, 'Queue length', 'work items queued on the mode\'s scheduler, not yet started', 'items',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.queue)); }));

    timeChart(grid, group, 'CPU', 'CPU time per second of the target, in % of one core; dotted: all ' + group.cores +
      ' cores (' + group.coresSource + ')', '% of one core',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.cpu)); })
        .concat([line('all ' + group.cores + ' cores', REFERENCE, constant(group.cores * 100, 0, end), { borderDash: [2, 3], borderWidth: 1.2, reference: true })]));

    timeChart(grid, group, 'Context switches', 'voluntary + involuntary context switches of the target per second', 'switches/s',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.contextSwitches)); }));

    timeChart(grid, group, 'Memory', 'working set of the target process', 'MB',
      group.series.map(function (s) { return line(noServer(s), s.color, points(s.timeline.memoryMb)); }));

    // Only runs whose targets are containers of harness matrix have the container's CPU quota stats.
    var throttled = group.series.filter(function (s) { return s.timeline.throttled; });
    if (throttled.length > 0) {
      timeChart(grid, group, 'CPU throttling', 'share of the container\'s CPU quota periods in which it was throttled (docker stats)', '% of periods',
        throttled.map(function (s) { return line(s.label, s.color, points(s.timeline.throttled)); }));
    }
  }

  data.groups.forEach(function (group, index) {
    var host = document.querySelector('.charts-host[data-group="' + index + '"]');
    if (!host) {
      report('No place for the charts of ' + group.title + '.');
      return;
    }

    try {
      drawGroup(group, host);
    } catch (e) {
      report('The charts of ' + group.title + ' failed: ' + e.message);
    }
  });

  finish();
})();
