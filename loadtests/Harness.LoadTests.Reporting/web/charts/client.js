// The client's charts of one group: load, throughput, response time over time and against load, the latency from
// the intended start (open model) and the error rate.
(function (H) {
  'use strict';

  function idealLatencyLines(group, factor, from, to) {
    var withIdeal = group.series.filter(function (s) { return s.idealLatencyMs !== null; });
    var distinct = withIdeal.map(function (s) { return s.idealLatencyMs; }).filter(function (v, i, all) { return all.indexOf(v) === i; });
    return withIdeal
      .filter(function (s, i) { return distinct.length > 1 || i === 0; })
      .map(function (s) {
        var label = distinct.length > 1 ? 'ideal (' + s.label + ')' : 'ideal ' + H.fmt(s.idealLatencyMs) + ' ms';
        return H.line(label, distinct.length > 1 ? s.color : H.REFERENCE, H.constant(s.idealLatencyMs * factor, from, to),
          { borderDash: [2, 3], borderWidth: 1.4, reference: true, pointRadius: 0 });
      });
  }

  // How the ideal was measured (SeriesInfo.IdealMethod), for the captions of the charts that draw it.
  H.idealMethods = function (group) {
    var methods = group.series.filter(function (s) { return s.idealMethod; }).map(function (s) { return s.idealMethod; })
      .filter(function (m, i, all) { return all.indexOf(m) === i; });
    return methods.length ? ' (ideal: ' + methods.join('; ') + ')' : '';
  };

  function idealThroughputLines(group, from, to) {
    var withIdeal = group.series.filter(function (s) { return s.idealThroughput !== null; });
    var distinct = withIdeal.map(function (s) { return s.idealThroughput; }).filter(function (v, i, all) { return all.indexOf(v) === i; });
    return withIdeal
      .filter(function (s, i) { return distinct.length > 1 || i === 0; })
      .map(function (s) {
        var label = distinct.length > 1 ? 'ideal (' + s.label + ')' : 'ideal ' + H.fmt(s.idealThroughput) + ' req/s';
        return H.line(label, distinct.length > 1 ? s.color : H.REFERENCE, H.constant(s.idealThroughput, from, to),
          { borderDash: [2, 3], borderWidth: 1.4, reference: true });
      });
  }

  // Response time against users: each users level's seconds merged into one histogram.
  function drawAgainstLoad(group, grid, v) {
    var levels = [];
    var maxUsers = 1;
    group.series.forEach(function (s) {
      var mean = [];
      var p99 = [];
      s.byUsers.users.forEach(function (u, i) {
        mean.push({ x: u, y: s.byUsers.mean[i] === null ? null : s.byUsers.mean[i] * v.factor });
        p99.push({ x: u, y: s.byUsers.p99[i] === null ? null : s.byUsers.p99[i] * v.factor });
        maxUsers = Math.max(maxUsers, u);
      });
      levels.push(H.line(s.label + ' mean', s.color, mean, { borderWidth: 2, pointRadius: 2.5 }));
      levels.push(H.line(s.label + ' p99', s.color, p99, { borderDash: [6, 4], borderWidth: 1.2, pointRadius: 2, pointStyle: 'rectRot' }));
    });
    var knees = group.series.filter(function (s) { return s.knee; }).map(function (s) {
      return { x: s.knee.load, color: s.color, label: 'knee ' + s.label + ' ' + s.knee.load };
    });
    var canvas = H.card(grid, 'Response time against load', 'mean (solid) and p99 (dashed) of the successful requests completed while each ' +
      (v.open ? 'users level / arrival rate' : 'users level') + ' was applied' +
      (knees.length ? '; dashed verticals: where each ramp left its ideal (knee)' : '') +
      (group.series.some(function (s) { return s.idealLatencyMs !== null; }) ? '; dotted: ideal latency' + H.idealMethods(group) : ''));
    H.draw(canvas, {
      type: 'line',
      data: { datasets: levels.concat(idealLatencyLines(group, v.factor, 0, maxUsers)) },
      options: {
        parsing: false,
        scales: {
          x: { type: 'linear', beginAtZero: true, title: { display: true, text: v.usersTitle } },
          y: H.valueScale(v.unit),
        },
        plugins: { tooltip: Object.assign(H.tooltips(v.unit, v.open ? 'load' : 'users'), { mode: 'nearest', intersect: false }) },
      },
      plugins: [H.kneePlugin(knees)],
    }, 'Response time against load');
  }

  H.drawClient = function (group, grid, v) {
    H.timeChart(grid, group, 'Load', v.usersTitle + ', each second', v.allOpen ? 'requests started/s' : v.open ? 'users / rate' : 'users',
      group.series.map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.users), { stepped: true }); }));

    H.timeChart(grid, group, 'Throughput', 'requests completed per second, failed ones included' +
      (group.series.some(function (s) { return s.idealThroughput !== null; }) ? '; dotted: ideal (cores ÷ single-call time)' + H.idealMethods(group) : ''), 'req/s',
      group.series.map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.requests)); })
        .concat(idealThroughputLines(group, 0, v.end)));

    var latency = [];
    group.series.forEach(function (s) {
      latency.push(H.line(s.label + ' mean', s.color, H.points(s.timeline.mean, v.factor), { borderWidth: 2 }));
      latency.push(H.line(s.label + ' p99', s.color, H.points(s.timeline.p99, v.factor), { borderDash: [6, 4], borderWidth: 1.2 }));
    });
    var hasIdeal = group.series.some(function (s) { return s.idealLatencyMs !== null; });
    H.timeChart(grid, group, 'Response time over time', 'service time of the successful requests completed each second: mean solid, p99 dashed' +
      (hasIdeal ? '; dotted: ideal latency' + H.idealMethods(group) : ''), v.unit,
      latency.concat(idealLatencyLines(group, v.factor, 0, v.end)));

    // Where the time of a successful request went, for series whose replies carried the server's execution time.
    var timed = group.series.filter(function (s) { return s.timeline.serverMean; });
    if (timed.length > 0) {
      var split = [];
      timed.forEach(function (s) {
        split.push(H.line(s.label + ' server', s.color, H.points(s.timeline.serverMean, v.factor), { borderWidth: 2 }));
        split.push(H.line(s.label + ' queue + transport', s.color, H.points(s.timeline.queueMean, v.factor), { borderDash: [2, 2], borderWidth: 1.4 }));
      });
      H.timeChart(grid, group, 'Server execution and queue time', 'mean per second of the successful requests that reported it: the server\'s ' +
        'execution time (solid) and the rest of the latency, queueing and transport (dotted)', v.unit, split);
    }

    drawAgainstLoad(group, grid, v);

    if (v.open) {
      var intended = [];
      group.series.filter(function (s) { return s.timeline.intendedMean; }).forEach(function (s) {
        intended.push(H.line(s.label + ' mean', s.color, H.points(s.timeline.intendedMean, v.factor), { borderWidth: 2 }));
        intended.push(H.line(s.label + ' p99', s.color, H.points(s.timeline.intendedP99, v.factor), { borderDash: [6, 4], borderWidth: 1.2 }));
      });
      H.timeChart(grid, group, 'Latency from the intended start (open model)',
        'coordinated omission corrected: measured from when each request should have started', v.unit, intended);
    }

    if (group.series.some(function (s) { return s.timeline.failures.some(function (f) { return f > 0; }); })) {
      H.timeChart(grid, group, 'Error rate', '% of the requests completed each second that failed (by status in the summary)', '% failed',
        group.series.map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.errorRate)); }));
    }
  };
})(window.HarnessReport);
