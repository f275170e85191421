// Keeps the night's page live: the hub sends fragments it rendered (and escaped) itself;
// this script only puts them in place. Without it the page reloads itself.
"use strict";
(function () {
  if (!window.EventSource) { return; }
  var link = document.getElementById("link");
  var source = new EventSource("/events");
  function take(event, apply) {
    source.addEventListener(event, function (message) { apply(JSON.parse(message.data)); });
  }
  take("state", function (data) { document.getElementById("main").innerHTML = data.html; });
  take("results", function (data) {
    document.getElementById("standings").outerHTML = data.standings;
    document.getElementById("games").outerHTML = data.games;
  });
  take("card", function (data) {
    var old = document.getElementById("table-" + data.id);
    if (old) { old.outerHTML = data.html; return; }
    var cards = document.getElementById("cards");
    var empty = cards.querySelector(".empty");
    if (empty) { empty.remove(); }
    var after = Array.prototype.find.call(cards.children, function (card) {
      return card.id > "table-" + data.id;
    });
    if (after) { after.insertAdjacentHTML("beforebegin", data.html); }
    else { cards.insertAdjacentHTML("beforeend", data.html); }
  });
  take("banner", function (data) {
    document.getElementById("banner").outerHTML = data.html;
  });
  // "last heard 12 s ago" counts on from what the hub said, by this phone's own clock
  function ago(seconds) {
    if (seconds < 120) { return seconds + " s"; }
    return seconds < 7200 ? Math.floor(seconds / 60) + " min" : Math.floor(seconds / 3600) + " h";
  }
  setInterval(function () {
    Array.prototype.forEach.call(document.querySelectorAll(".heard"), function (heard) {
      if (!heard.dataset.since) {
        heard.dataset.since = Date.now() - 1000 * Number(heard.dataset.quiet);
      }
      var seconds = Math.floor((Date.now() - Number(heard.dataset.since)) / 1000);
      heard.textContent = "last heard " + ago(seconds) + " ago";
    });
  }, 1000);
  source.onopen = function () { link.textContent = "live"; link.className = "link up"; };
  source.onerror = function () {
    link.textContent = "reconnecting…"; link.className = "link down";
  };
})();
