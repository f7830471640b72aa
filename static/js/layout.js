/* WIMS layout: keep what the expert scrolls to clear of the sticky top bar.
 *
 * The top bar wraps when its links do not fit one row, so its height is measured, not assumed: it goes to
 * the --topbar-height property that html's scroll-padding-top reads (wims.css). Where the bar does not
 * stick (phones) the property is 0. Without this script the stylesheet's one-row height applies.
 */
(function () {
  "use strict";
  var bar = document.querySelector(".topbar");
  if (!bar || !window.ResizeObserver) return;
  var root = document.documentElement;
  new ResizeObserver(function () {
    var sticky = getComputedStyle(bar).position === "sticky";
    root.style.setProperty("--topbar-height", (sticky ? bar.offsetHeight : 0) + "px");
    root.dataset.topbarMeasured = "1"; // the observer runs after load: tests wait for this
  }).observe(bar);
})();
