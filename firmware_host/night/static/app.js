// Keeps the night's page (and the TV's, body.tv) live: the hub sends fragments it rendered
// (and escaped) itself; this script only puts them in place, and on the TV turns the pages
// of tiles. Without it the page reloads itself.
"use strict";
(function () {
  if (!window.EventSource) { return; }
  var tv = document.body.classList.contains("tv");
  var link = document.getElementById("link");
  var source = new EventSource(tv ? "/events?view=tv" : "/events");
  function take(event, apply) {
    source.addEventListener(event, function (message) {
      apply(JSON.parse(message.data));
      if (tv) { turn(0); }
    });
  }
  take("state", function (data) { document.getElementById("main").innerHTML = data.html; });
  take("results", function (data) {
    Object.keys(data).forEach(function (id) {  // the page's own parts of the results
      var old = document.getElementById(id);
      if (old) { old.outerHTML = data[id]; }
    });
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

  // The TV: each section's tiles (tables, then the next round) a page at a time, in turn
  var perPage = Number(document.body.dataset.perPage) || 6;
  var shown = 0;
  function pages() {
    var list = [];
    Array.prototype.forEach.call(document.querySelectorAll("section[data-tiles]"),
      function (section) {
        var tiles = section.querySelectorAll("article");
        for (var start = 0; start < tiles.length; start += perPage) {
          list.push({ section: section, start: start, count: tiles.length });
        }
      });
    return list;
  }
  function turn(by) {
    var list = pages();
    if (!list.length) { return; }
    shown = (shown + by) % list.length;
    var page = list[shown];
    Array.prototype.forEach.call(document.querySelectorAll("section[data-tiles]"),
      function (section) {
        section.hidden = section !== page.section;
        Array.prototype.forEach.call(section.querySelectorAll("article"), function (tile, n) {
          tile.hidden = n < page.start || n >= page.start + perPage;
        });
      });
    var range = page.section.querySelector(".range");
    range.textContent = page.count <= perPage ? "" : (page.start + 1) + "-" +
      Math.min(page.start + perPage, page.count) + " of " + page.count;
  }
  if (tv) {
    turn(0);
    setInterval(function () { turn(1); }, 1000 * (Number(document.body.dataset.cycleS) || 12));
  }
})();
