// What the time charts draw over their lines: the warm-up and fault windows shaded, numbered event markers,
// where a series was back after a window, and the knees of ramps. Inlined right after base.js.
(function (H) {
  'use strict';

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
      beforeDatasetsDraw: H.overChart(function (ctx, a, x) {
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
      }),
      afterDatasetsDraw: H.overChart(function (ctx, a, x) {
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
      }),
    };
  };

  // Where ramps left their ideal: a dashed vertical line per mark ({ x, color, label }), labelled at the top.
  H.kneePlugin = function (marks) {
    return {
      id: 'harnessKnees',
      afterDatasetsDraw: H.overChart(function (ctx, a, x) {
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
      }),
    };
  };
})(window.HarnessReport);
