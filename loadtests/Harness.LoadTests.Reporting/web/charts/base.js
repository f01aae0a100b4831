// The shared part of the report's chart scripts (web/charts/*.js, inlined in this order: base, classic, client,
// server, soak, tail, main). It reads the inline JSON (#report-data), sets Chart.js' defaults and holds the helpers every
// chart family uses, on the one global window.HarnessReport.
// When done, main.js records on <body>: data-charts-expected, data-charts-drawn (charts that plotted at least one
// point and left ink on their canvas), data-charts-blank and data-chart-errors; the rendering test reads them.
window.HarnessReport = (function () {
  'use strict';

  var H = { ready: false, NEUTRAL: '#8a94a3', REFERENCE: '#4a4f57' };
  var body = document.body;
  var counts = { expected: 0, drawn: 0, blank: 0, errors: 0 };

  H.finish = function () {
    body.dataset.chartsExpected = String(counts.expected);
    body.dataset.chartsDrawn = String(counts.drawn);
    body.dataset.chartsBlank = String(counts.blank);
    body.dataset.chartErrors = String(counts.errors);
  };

  H.report = function (message) {
    counts.errors++;
    var host = document.getElementById('report-errors');
    if (host) {
      var div = document.createElement('div');
      div.className = 'notice error';
      div.textContent = message;
      host.appendChild(div);
    }
  };

  try {
    H.data = JSON.parse(document.getElementById('report-data').textContent);
  } catch (e) {
    H.report('The report data could not be read: ' + e.message);
    H.finish();
    return H;
  }

  if (typeof Chart === 'undefined') {
    H.report('The chart library did not load, so the charts are missing; the tables are complete.');
    H.finish();
    return H;
  }

  H.ready = true;
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

  H.alpha = function (hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + ((n >> 16) & 255) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  };

  H.fmt = function (v) {
    if (v === null || v === undefined || !isFinite(v)) {
      return '—';
    }

    var m = Math.abs(v);
    return v.toLocaleString('en-US', { maximumFractionDigits: m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : 3 });
  };

  H.points = function (values, factor) {
    var out = [];
    if (!values) {
      return out;
    }

    for (var i = 0; i < values.length; i++) {
      out.push({ x: i, y: values[i] === null ? null : values[i] * (factor || 1) });
    }

    return out;
  };

  H.constant = function (value, from, to) {
    return [{ x: from, y: value }, { x: to, y: value }];
  };

  // Event markers, fault windows and where each series was back after one, drawn on the time charts of one group.
  // label: only the markers of that series (and run-wide ones), for a chart of one series.
  H.eventPlugin = function (group, label) {
    var mine = function (item) { return label === undefined || item.label === null || item.label === label; };
    var events = group.events.filter(mine);
    var windows = group.windows.filter(mine);
    var recoveries = group.recoveries.filter(function (r) { return r.at !== null && mine(r); });
    var warmUps = group.warmUps.filter(mine);
    return {
      id: 'harnessEvents',
      beforeDatasetsDraw: function (chart) {
        var a = chart.chartArea;
        var x = chart.scales.x;
        var ctx = chart.ctx;
        ctx.save();
        // Warm-up: recorded and drawn, left out of every figure of the tables.
        warmUps.forEach(function (w, i) {
          var x1 = Math.min(a.right, x.getPixelForValue(w.to));
          if (x1 > a.left) {
            ctx.fillStyle = H.alpha(w.color, 0.08);
            ctx.fillRect(a.left, a.top, x1 - a.left, a.bottom - a.top);
            ctx.fillStyle = H.alpha(w.color, 0.8);
            ctx.font = '9px sans-serif';
            ctx.textAlign = 'left';
            ctx.textBaseline = 'top';
            ctx.fillText(w.label === null ? 'warm-up' : 'warm-up ' + w.label, a.left + 3, a.top + 16 + (i * 11));
          }
        });
        windows.forEach(function (w) {
          var x0 = Math.max(a.left, x.getPixelForValue(w.from));
          var x1 = Math.min(a.right, x.getPixelForValue(w.to));
          if (x1 > x0) {
            ctx.fillStyle = H.alpha(w.color, 0.1);
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
        recoveries.forEach(function (r) {
          var px = x.getPixelForValue(r.at);
          var from = Math.max(a.left, x.getPixelForValue(r.windowEnd));
          if (px < a.left - 0.5 || px > a.right + 0.5) {
            return;
          }

          // A solid line where the series was back, joined to the window's end by a bracket at the foot of the chart.
          ctx.strokeStyle = r.color;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(px, a.top + 18);
          ctx.lineTo(px, a.bottom);
          ctx.moveTo(from, a.bottom - 4);
          ctx.lineTo(px, a.bottom - 4);
          ctx.stroke();
          ctx.fillStyle = r.color;
          ctx.font = 'bold 9px sans-serif';
          ctx.textAlign = 'left';
          ctx.textBaseline = 'bottom';
          ctx.fillText('back +' + H.fmt(r.seconds) + ' s', Math.min(px + 3, a.right - 48), a.bottom - 6);
        });
        ctx.restore();
      },
    };
  };

  // Where ramps left their ideal: a dashed vertical line per mark ({ x, color, label }), labelled at the top.
  H.kneePlugin = function (marks) {
    return {
      id: 'harnessKnees',
      afterDatasetsDraw: function (chart) {
        var a = chart.chartArea;
        var x = chart.scales.x;
        var ctx = chart.ctx;
        ctx.save();
        marks.forEach(function (m, i) {
          var px = x.getPixelForValue(m.x);
          if (px < a.left - 0.5 || px > a.right + 0.5) {
            return;
          }

          ctx.strokeStyle = m.color;
          ctx.lineWidth = 1.6;
          ctx.setLineDash([3, 3]);
          ctx.beginPath();
          ctx.moveTo(px, a.top);
          ctx.lineTo(px, a.bottom);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = m.color;
          ctx.font = 'bold 9px sans-serif';
          ctx.textAlign = 'left';
          ctx.textBaseline = 'top';
          ctx.fillText(m.label, Math.max(a.left, Math.min(px + 3, a.right - 90)), a.top + 30 + (i * 11));
        });
        ctx.restore();
      },
    };
  };

  H.card = function (container, title, caption, wide) {
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
  };

  H.emptyCard = function (container, title, message) {
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
  };

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

  H.draw = function (canvas, config, title) {
    counts.expected++;
    try {
      var chart = new Chart(canvas, config);
      if (verify(chart)) {
        counts.drawn++;
      } else {
        counts.blank++;
      }
    } catch (e) {
      H.report('Chart "' + title + '" failed: ' + e.message);
    }
  };

  H.timeScale = function (group) {
    return {
      type: 'linear',
      min: 0,
      max: Math.max(1, group.length - 1),
      title: { display: true, text: 'seconds since the series started' },
      ticks: { maxTicksLimit: 12 },
    };
  };

  H.valueScale = function (title, extra) {
    var scale = { type: 'linear', beginAtZero: true, title: { display: true, text: title }, ticks: { callback: H.fmt } };
    return Object.assign(scale, extra || {});
  };

  H.line = function (label, color, data, options) {
    return Object.assign({ label: label, data: data, borderColor: color, backgroundColor: color, spanGaps: false }, options || {});
  };

  H.tooltips = function (unit, xTitle) {
    return {
      callbacks: {
        title: function (items) {
          return items.length ? xTitle + ' ' + H.fmt(items[0].parsed.x) : '';
        },
        label: function (item) {
          return item.dataset.label + ': ' + H.fmt(item.parsed.y) + (unit ? ' ' + unit : '');
        },
      },
    };
  };

  // extraPlugins: drawn besides the group's events (e.g. the soak windows).
  H.timeChart = function (container, group, title, caption, unit, datasets, wide, extraPlugins) {
    var canvas = H.card(container, title, caption, wide);
    H.draw(canvas, {
      type: 'line',
      data: { datasets: datasets },
      options: {
        parsing: false,
        normalized: true,
        scales: { x: H.timeScale(group), y: H.valueScale(unit) },
        plugins: { tooltip: H.tooltips(unit, 'second') },
      },
      plugins: [H.eventPlugin(group)].concat(extraPlugins || []),
    }, title);
  };

  H.maxOf = function (group, pick) {
    var max = 0;
    group.series.forEach(function (s) {
      (pick(s) || []).forEach(function (v) {
        if (v !== null && v > max) {
          max = v;
        }
      });
    });
    return max;
  };

  // What every chart family of one group needs to agree on: its time span, units and axis titles.
  H.view = function (group) {
    var open = group.series.some(function (s) { return s.model === 'open'; });
    var allOpen = group.series.every(function (s) { return s.model === 'open'; });
    var slow = H.maxOf(group, function (s) { return s.timeline.p99; }) >= 2000;
    return {
      end: Math.max(1, group.length - 1),
      open: open,
      allOpen: allOpen,
      factor: slow ? 0.001 : 1,
      unit: slow ? 's' : 'ms',
      usersTitle: allOpen ? 'arrival rate (requests started per s)' : open ? 'users (closed) / arrival rate per s (open)' : 'virtual users',
    };
  };

  // Calls draw(group, host, view) for every group of the page in its place, reporting a group whose place is
  // missing or whose charts throw instead of leaving the page half drawn; then records the counts on <body>.
  H.drawGroups = function (draw) {
    H.data.groups.forEach(function (group, index) {
      var host = document.querySelector('.charts-host[data-group="' + index + '"]');
      if (!host) {
        H.report('No place for the charts of ' + group.title + '.');
        return;
      }

      try {
        draw(group, host, H.view(group));
      } catch (e) {
        H.report('The charts of ' + group.title + ' failed: ' + e.message);
      }
    });

    H.finish();
  };

  return H;
})();
