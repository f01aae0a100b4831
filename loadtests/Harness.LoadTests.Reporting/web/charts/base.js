// The shared part of the report's chart scripts (web/charts/*.js, inlined in this order: base, markers, classic, client,
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

  // A plugin hook that draws over a chart: draw(ctx, area, x) with the canvas state saved around it.
  H.overChart = function (draw) {
    return function (chart) {
      chart.ctx.save();
      draw(chart.ctx, chart.chartArea, chart.scales.x);
      chart.ctx.restore();
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

  // What the rendering test reads off each canvas: every axis' range (data-scales="y=0..40 y1=0..12") and how
  // many points carry a marker (data-markers), the isolated seconds a line cannot draw.
  function describe(chart) {
    var scales = Object.keys(chart.scales).filter(function (id) { return id !== 'x'; }).map(function (id) {
      return id + '=' + chart.scales[id].min + '..' + chart.scales[id].max;
    });
    var markers = 0;
    chart.data.datasets.forEach(function (d) {
      if (!d.reference && Array.isArray(d.pointRadius)) {
        markers += d.pointRadius.filter(function (r) { return r > 0; }).length;
      }
    });
    chart.canvas.dataset.scales = scales.join(' ');
    chart.canvas.dataset.markers = String(markers);
  }

  H.draw = function (canvas, config, title) {
    counts.expected++;
    try {
      var chart = new Chart(canvas, config);
      describe(chart);
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

  // Gaps stay gaps (spanGaps false: a missing second is not interpolated). A second with data between two empty
  // ones has no segment to draw, so it gets a point marker of its own, or it would vanish.
  H.line = function (label, color, data, options) {
    var line = { label: label, data: data, borderColor: color, backgroundColor: color, spanGaps: false };
    if (!options || options.pointRadius === undefined) {
      line.pointRadius = isolatedRadii(data);
    }

    return Object.assign(line, options || {});
  };

  function isolatedRadii(data) {
    var present = function (i) { return i >= 0 && i < data.length && data[i].y !== null && data[i].y !== undefined; };
    return data.map(function (p, i) { return present(i) && !present(i - 1) && !present(i + 1) ? 2.5 : 0; });
  }

  // Lines of several series that coincide (iocp exactly over custompool) would hide one another. Chart.js draws
  // the first data set on top, so each later series' lines are drawn wider and a little transparent: one that
  // lies under another still shows as a coloured edge around it. Reference lines keep their style.
  H.layer = function (group, datasets) {
    var colors = group.series.map(function (s) { return s.color; });
    datasets.forEach(function (d) {
      var index = colors.indexOf(d.borderColor);
      if (d.reference || index < 0) {
        return;
      }

      d.borderWidth = (d.borderWidth || Chart.defaults.elements.line.borderWidth) + (1.6 * index);
      d.borderColor = H.alpha(d.borderColor, 0.85);
    });
    return datasets;
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
      data: { datasets: H.layer(group, datasets) },
      options: {
        parsing: false,
        normalized: true,
        scales: { x: H.timeScale(group), y: H.valueScale(unit) },
        plugins: { tooltip: H.tooltips(unit, 'second') },
      },
      plugins: [H.eventPlugin(group)].concat(extraPlugins || []),
    }, title);
  };

  // The top of a value axis shared by small multiples, so that side by side they compare: the group's largest
  // value (ideal lines included by the caller), for Chart.js to round up to the same tick on every chart.
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
