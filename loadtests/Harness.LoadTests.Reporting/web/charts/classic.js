// The classic chart of seed 002, one per mode: users, throughput and mean response time on one time axis.
(function (H) {
  'use strict';

  H.drawClassic = function (group, host, v) {
    var classic = document.createElement('div');
    classic.className = 'charts classic';
    host.appendChild(classic);
    group.series.forEach(function (s) {
      var title = s.label + ': users, req/s and mean response time';
      var canvas = H.card(classic, title, 'users: grey area (left axis) · req/s: dashed · mean: solid (' + v.unit + ')' +
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
            y: H.valueScale(v.open ? 'users / rate' : 'users', { position: 'left' }),
            y1: H.valueScale('req/s', { position: 'right', grid: { drawOnChartArea: false } }),
            y2: H.valueScale('mean ' + v.unit, { position: 'right', grid: { drawOnChartArea: false } }),
          },
          plugins: { tooltip: H.tooltips('', 'second') },
        },
        plugins: [H.eventPlugin(group, s.label)].concat(s.knee
          ? [H.kneePlugin([{ x: s.knee.second, color: s.color, label: 'knee: ' + s.knee.load + (s.model === 'open' ? ' req/s' : ' users') }])] : []),
      }, title);
    });
  };
})(window.HarnessReport);
