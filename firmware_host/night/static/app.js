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
  source.onopen = function () { link.textContent = "live"; link.className = "link up"; };
  source.onerror = function () {
    link.textContent = "reconnecting…"; link.className = "link down";
  };
})();
