/* Dashboards: draws each chart with uPlot from the JSON the page carries in <script type="application/json">
   (Django's json_script: data, not script, so the Content-Security-Policy needs no inline script). */
(function () {
  "use strict";
  if (typeof uPlot === "undefined") return;

  var COLOURS = ["#1f5fbf", "#c2410c", "#1c7c45", "#7c3aed", "#a3262a", "#0e7490", "#94610a", "#be185d", "#5b6677"];
  var ACCEPT_REJECT = { accepted: "#1c7c45", rejected: "#a3262a" };
  var DAY = 86400;

  function daySeconds(iso) {
    var p = iso.split("-");
    return Date.UTC(+p[0], +p[1] - 1, +p[2]) / 1000;
  }

  function width(el) {
    return Math.max(240, Math.floor(el.getBoundingClientRect().width));
  }

  function height(el) {
    return el.getBoundingClientRect().width < 500 ? 220 : 280;
  }

  // Dash patterns by series: sites that publish alike draw the same line, and colour alone would hide all but one.
  var DASHES = [null, [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 5], [12, 6], [6, 2, 1, 2]];
  // Days drawn at least: a fresh install's single day is not squeezed against the right edge of 30.
  var MIN_DAYS = 7;

  function total(values, from) {
    return values.slice(from).reduce(function (a, b) { return a + b; }, 0);
  }

  // Lines over days: x in UTC midnights, labelled in UTC so that the server's day is the day shown. Days before
  // the first count are left out (down to MIN_DAYS); with no day under the cursor, the legend gives each line's
  // total over the days drawn, so it reads without hovering.
  function overTime(el, data) {
    var firstCount = data.x.findIndex(function (_, i) {
      return data.series.some(function (s) { return s.values[i] > 0; });
    });
    var from = Math.max(0, Math.min(firstCount < 0 ? 0 : firstCount, data.x.length - MIN_DAYS));
    var days = data.x.slice(from);
    var x = days.map(daySeconds);
    var span = days[0] + " – " + days[days.length - 1];
    var series = [{
      label: "day",
      value: function (u, v) { return v == null ? span : new Date(v * 1000).toISOString().slice(0, 10); },
    }];
    data.series.forEach(function (s, i) {
      var colour = s.label === "other" ? COLOURS[COLOURS.length - 1] : COLOURS[i % (COLOURS.length - 1)];
      var sum = total(s.values, from);
      series.push({
        label: s.label,
        stroke: colour,
        width: 2,
        dash: DASHES[i % DASHES.length] || undefined,
        points: { size: 4 },
        value: function (u, v) { return v == null ? "total " + sum : String(v); },
      });
    });
    return {
      opts: {
        width: width(el),
        height: height(el),
        tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"); },
        scales: { x: { time: true, range: [x[0] - DAY / 2, x[x.length - 1] + DAY / 2] }, y: { range: zeroUp } },
        axes: [{}, { size: 44 }],
        series: series,
        legend: { markers: { dash: function (u, i) { return u.series[i].dash ? "dashed" : "solid"; } } },
      },
      data: [x].concat(data.series.map(function (s) { return s.values.slice(from); })),
    };
  }

  function zeroUp(u, min, max) {
    return [0, Math.max(1, Math.ceil(max * 1.1))];
  }

  // Bars over categories (review states, rules): x is 0..n-1, labelled with the category.
  function categories(el, data) {
    var n = data.x.length;
    var x = data.x.map(function (_, i) { return i; });
    var many = data.series.length > 1;
    // with no bar under the cursor, the legend gives each series' total, as the charts over days do
    var series = [{ label: data.xLabel, value: function (u, v) { return v == null ? "all " + n : data.x[v]; } }];
    data.series.forEach(function (s, i) {
      var colour = ACCEPT_REJECT[s.label] || COLOURS[i];
      var sum = total(s.values, 0);
      series.push({
        label: s.label,
        value: function (u, v) { return v == null ? "total " + sum : String(v); },
        stroke: colour,
        fill: colour + "cc",
        width: 1,
        points: { show: false },
        paths: uPlot.paths.bars({ size: [many ? 0.4 : 0.6, 80], align: many ? (i === 0 ? -1 : 1) : 0 }),
      });
    });
    return {
      opts: {
        width: width(el),
        height: height(el),
        scales: { x: { time: false, range: [-0.5, Math.max(n, 1) - 0.5] }, y: { range: zeroUp } },
        axes: [
          {
            splits: function () { return x; },
            values: function (u, splits) {
              // every label when they fit, else every k-th (the legend and the CSV name the rest)
              var room = u.bbox.width / devicePixelRatio / Math.max(n, 1);
              var step = Math.max(1, Math.ceil(60 / room));
              return splits.map(function (i) { return i % step === 0 ? shorten(data.x[i], room * step) : ""; });
            },
            grid: { show: false },
          },
          { size: 44 },
        ],
        series: series,
        legend: { show: true },
      },
      data: [x].concat(data.series.map(function (s) { return s.values; })),
    };
  }

  function shorten(label, px) {
    var chars = Math.max(4, Math.floor(px / 7));
    return label.length > chars ? label.slice(0, chars - 1) + "…" : label;
  }

  var plots = [];
  document.querySelectorAll(".chart[data-chart]").forEach(function (el) {
    var source = document.getElementById("chart-" + el.dataset.chart + "-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var built = data.byDay ? overTime(el, data) : categories(el, data);
    plots.push({ el: el, plot: new uPlot(built.opts, built.data, el) });
  });

  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      plots.forEach(function (p) { p.plot.setSize({ width: width(p.el), height: height(p.el) }); });
    }, 100);
  });
})();
