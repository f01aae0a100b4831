// Draws every group's charts into its place on the page, family by family, then records the counts on <body>.
(function (H) {
  'use strict';

  if (!H.ready) {
    return;
  }

  H.drawGroups(function (group, host, v) {
    H.drawClassic(group, host, v);
    if (group.soak) {
      var soak = document.createElement('div');
      soak.className = 'charts soak';
      host.appendChild(soak);
      H.drawSoak(group, soak, v);
    }

    var grid = document.createElement('div');
    grid.className = 'charts';
    host.appendChild(grid);
    H.drawClient(group, grid, v);
    H.drawTail(group, grid, v);
    H.drawServer(group, grid, v);
  });
})(window.HarnessReport);
