// The classic chart of a ramp, one per mode: users, throughput and mean response time on one time axis.
(function (H) {
  'use strict';

  H.drawClassic = function (group, host, v) {
    var classic = document.createElement('div');
    classic.className = 'charts classic';
    host.appendChild(classic);
    // One scale per axis for the whole row: charts side by side with scales of their own would mislead.
    var ideal = Math.max.apply(null, [0].concat(group.series.map(function (s) { return s.idealLatencyMs || 0; })));
    var shared = {
      y: H.maxOf(group, function (s) { return s.timeline.users; }),
      y1: H.maxOf(group, function (s) { return s.timeline.requests; }),
      y2: Math.max(H.maxOf(group, function (s) { return s.timeline.mean; }), ideal) * v.factor,
    };
    var top = function (id) { return shared[id] > 0 ? { suggestedMax: shared[id] } : {}; };
    group.series.forEach(function (s) {
      var title = s.label + ': users, req/s and mean response time';
      var canvas = H.card(classic, title, 'scales shared by the modes · users: grey area (left axis) · req/s: dashed · mean: solid (' + v.unit + ')' +
        (s.idealLatencyMs !== null ? ' · ideal: dotted' + (s.idealMethod ? ' (' + s.idealMethod + ')' : '') : ''));
      var sets = [
        H.line('users', H.NEUTRAL, H.points(s.timeline.users), { yAxisID: 'y', stepped: true, fill: true, backgroundColor: H.alpha(H.NEUTRAL, 0.15), borderWidth: 1 }),
        H.line('req/s', H.alpha(s.color, 0.6), H.points(s.timeline.requests), { yAxisID: 'y1', borderDash: [5, 3], borderWidth: 1.3 }),
        H.line('mean ' + v.unit, s.color, H.points(s.timeline.mean, v.factor), { yAxisID: 'y2', borderWidth: 2.2 }),
      ];
      if (s.idealLatencyMs !== null) {
        sets.push(H.line('ideal ' + H.fmt(s.idealLatencyMs * v.factor) + ' ' + v.unit, H.REFERENCE,
          H.constant(s.idealLatencyMs * v.factor, 0, v.end), { yAxisID: 'y2', borderDash: [2, 3], borderWidth: 1.2, reference: true }));
      }

      H.draw(canvas, {
        type: 'line',
        data: { datasets: sets },
        options: {
          parsing: false,
          scales: {
            x: H.timeScale(group),
            y: H.valueScale(v.open ? 'users / rate' : 'users', Object.assign({ position: 'left' }, top('y'))),
            y1: H.valueScale('req/s', Object.assign({ position: 'right', grid: { drawOnChartArea: false } }, top('y1'))),
            y2: H.valueScale('mean ' + v.unit, Object.assign({ position: 'right', grid: { drawOnChartArea: false } }, top('y2'))),
          },
          plugins: { tooltip: H.tooltips('', 'second') },
        },
        plugins: [H.eventPlugin(group, s.label)].concat(s.knee
          ? [H.kneePlugin([{ x: s.knee.second, color: s.color, label: 'knee: ' + s.knee.load + (s.model === 'open' ? ' req/s' : ' users') }])] : []),
      }, title);
    });
  };
})(window.HarnessReport);
