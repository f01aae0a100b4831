// The comparison page (harness compare): per compared series, the runs' lines overlaid on seconds since each series
// started: response time, throughput, server threads, and the percentile spectrum (tail.js). Replaces main.js there.
(function (H) {
  'use strict';

  if (!H.ready) {
    return;
  }

  H.drawGroups(function (group, host, v) {
    var grid = document.createElement('div');
    grid.className = 'charts';
    host.appendChild(grid);

    var latency = [];
    group.series.forEach(function (s) {
      latency.push(H.line(s.label + ' mean', s.color, H.points(s.timeline.mean, v.factor), { borderWidth: 2 }));
      latency.push(H.line(s.label + ' p99', s.color, H.points(s.timeline.p99, v.factor), { borderDash: [6, 4], borderWidth: 1.2 }));
    });
    H.timeChart(grid, group, 'Response time over time', 'service time of the successful requests completed each second, each run in its colour: mean solid, p99 dashed',
      v.unit, latency);

    H.timeChart(grid, group, 'Throughput', 'requests completed per second, failed ones included', 'req/s',
      group.series.map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.requests)); }));

    if (group.series.some(function (s) { return s.hasServer; })) {
      H.timeChart(grid, group, 'Server threads', 'OS threads of the target process (process_threads)', 'threads',
        group.series.filter(function (s) { return s.hasServer; }).map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.threads)); }));
    }

    H.drawSpectrum(group, grid, v);
  });
})(window.HarnessReport);
