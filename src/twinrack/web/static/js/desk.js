// Tournament desk: the round timer ticks, and entry forms show only the fields that apply.
// Everything works without JavaScript too: the forms are plain HTML and the server checks all.
(function () {
  "use strict";

  function tickTimers() {
    document.querySelectorAll("[data-seconds-left]").forEach(function (el) {
      var end = Date.now() + parseFloat(el.dataset.secondsLeft) * 1000;
      function show() {
        var left = Math.floor((end - Date.now()) / 1000);
        if (left <= 0) {
          el.textContent = "time is up";
          el.classList.add("up");
          return false;
        }
        var m = Math.floor(left / 60), s = left % 60;
        el.textContent = m + ":" + (s < 10 ? "0" : "") + s + " left";
        return true;
      }
      show();
      var id = setInterval(function () { if (!show()) clearInterval(id); }, 1000);
    });
  }

  function endSwitch(form) {
    var radios = form.querySelectorAll("input[name=end]");
    if (!radios.length) return;
    function update() {
      var chosen = form.querySelector("input[name=end]:checked");
      var end = chosen ? chosen.value : "mahjongg";
      form.querySelectorAll("[data-end]").forEach(function (el) {
        el.hidden = el.dataset.end !== end;
      });
    }
    radios.forEach(function (r) { r.addEventListener("change", update); });
    update();
  }

  function kindSwitch(form) {
    form.querySelectorAll("fieldset.evline").forEach(function (line) {
      var select = line.querySelector("[data-kind-switch]");
      function update() {
        var kind = select.value;
        line.querySelectorAll("[data-kinds]").forEach(function (el) {
          el.hidden = el.dataset.kinds.split(" ").indexOf(kind) < 0;
        });
        var player = line.querySelector("fieldset.choice");
        if (player) player.hidden = !kind;
      }
      select.addEventListener("change", update);
      update();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    tickTimers();
    document.querySelectorAll("form.entry-form").forEach(function (form) {
      endSwitch(form);
      kindSwitch(form);
    });
  });
})();
