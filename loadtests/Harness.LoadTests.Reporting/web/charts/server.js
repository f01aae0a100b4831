// The target's own counters, scraped from /metrics each second: threads, busy threads, queue, CPU, context
// switches, memory and, for containers of harness matrix, CPU throttling; the ThreadPool as the target's .NET runtime
// reported it, when it did, dashed on the threads and queue charts.
(function (H) {
  'use strict';

  H.drawServer = function (group, grid, v) {
    var noServer = function (s) { return s.hasServer ? s.label : s.label + ' (no server samples)'; };
    if (!group.series.some(function (s) { return s.hasServer; })) {
      H.emptyCard(grid, 'Server counters', 'No server samples: the targets\' /metrics never answered during these series.');
      return;
    }

    // The ThreadPool as the target's .NET runtime reported it, dashed beside the service's own figure, when it did.
    var runtime = function (column) {
      return group.series.filter(function (s) { return s.timeline[column]; }).map(function (s) {
        return H.line(s.label + ' · runtime ThreadPool', s.color, H.points(s.timeline[column]), { borderDash: [5, 3], borderWidth: 1.4 });
      });
    };
    var runtimeThreads = runtime('runtimeThreads');
    var runtimeQueue = runtime('runtimeQueue');

    H.timeChart(grid, group, 'Server threads', 'OS threads of the target process (process_threads)' +
      (runtimeThreads.length > 0 ? '; dashed: the ThreadPool\'s threads as the .NET runtime reported them (dotnet_thread_pool_thread_count)' : ''), 'threads',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.threads)); }).concat(runtimeThreads));

    H.timeChart(grid, group, 'Busy scheduler threads', 'threads of the mode\'s scheduler running a work item; dotted: the ' +
      group.cores + ' cores', 'threads',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.busyThreads)); })
        .concat([H.line(group.cores + ' cores', H.REFERENCE, H.constant(group.cores, 0, v.end), { borderDash: [2, 3], borderWidth: 1.2, reference: true })]));

    H.timeChart(grid, group, 'Queue length', 'work items queued on the mode\'s scheduler, not yet started' +
      (runtimeQueue.length > 0 ? '; dashed: the ThreadPool\'s queue as the .NET runtime reported it (dotnet_thread_pool_queue_length, one sample a second)' : ''), 'items',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.queue)); }).concat(runtimeQueue));

    H.timeChart(grid, group, 'CPU', 'CPU time per second of the target, in % of one core; dotted: all ' + group.cores +
      ' cores (' + group.coresSource + ')', '% of one core',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.cpu)); })
        .concat([H.line('all ' + group.cores + ' cores', H.REFERENCE, H.constant(group.cores * 100, 0, v.end), { borderDash: [2, 3], borderWidth: 1.2, reference: true })]));

    H.timeChart(grid, group, 'Context switches', 'voluntary + involuntary context switches of the target per second', 'switches/s',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.contextSwitches)); }));

    H.timeChart(grid, group, 'Memory', 'working set of the target process', 'MB',
      group.series.map(function (s) { return H.line(noServer(s), s.color, H.points(s.timeline.memoryMb)); }));

    // Only runs whose targets are containers of harness matrix have the container's CPU quota stats.
    var throttled = group.series.filter(function (s) { return s.timeline.throttled; });
    if (throttled.length > 0) {
      H.timeChart(grid, group, 'CPU throttling', 'share of the container\'s CPU quota periods in which it was throttled (docker stats)', '% of periods',
        throttled.map(function (s) { return H.line(s.label, s.color, H.points(s.timeline.throttled)); }));
    }
  };
})(window.HarnessReport);
