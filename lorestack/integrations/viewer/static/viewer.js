// lorestack viewer: the only script. Pages work without it; it adds "select all" on Review.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("select-all");
    if (!button) { return; }
    button.addEventListener("click", function () {
      var boxes = document.querySelectorAll("input.pick");
      var all = Array.prototype.every.call(boxes, function (b) { return b.checked; });
      Array.prototype.forEach.call(boxes, function (b) { b.checked = !all; });
      button.textContent = all ? "select all" : "select none";
    });
  });
})();
