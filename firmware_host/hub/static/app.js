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
  take("state", function (data) {
    document.getElementById("main").innerHTML = data.html;
    known = finished();  // a stream (re)started: what it shows is not news
    round = nextRound();
    tables();
  });
  function parts(data) {  // the parts of this page among those sent (by their ids)
    Object.keys(data).forEach(function (id) {
      var old = document.getElementById(id);
      if (old) { old.outerHTML = data[id]; }
    });
  }
  take("results", function (data) {
    parts(data);
    var now = finished();
    Object.keys(now).forEach(function (key) {
      if (!(key in known)) {
        say("Game over: " + now[key], mine && key.indexOf(mine.value + "/") === 0);
        announce("Game over: " + now[key]);
      }
    });
    known = now;
  });
  take("game", function (data) {  // one finished game changed: its line alone
    var old = document.querySelector('#games li[data-game="' + data.id + '"]');
    if (old) { old.outerHTML = data.html; }
  });
  take("seating", function (data) {
    parts(data);
    var now = nextRound();
    if (now && now !== round) { announce("Next round. " + now); }
    round = now;
  });
  take("card", function (data) {
    var old = document.getElementById("table-" + data.id);
    if (old) { old.outerHTML = data.html; } else { insert(data); }
    tables();
    if (mine && data.id === mine.value) { turnAtMine(); }
  });
  function insert(data) {
    var cards = document.getElementById("cards");
    var empty = cards.querySelector(".empty");
    if (empty) { empty.remove(); }
    var after = Array.prototype.find.call(cards.children, function (card) {
      return card.id > "table-" + data.id;
    });
    if (after) { after.insertAdjacentHTML("beforebegin", data.html); }
    else { cards.insertAdjacentHTML("beforeend", data.html); }
  }
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

  // For a screen reader (the news region is aria-live): every finished game, and whose
  // turn it is at the player's own table, chosen here and remembered by this browser
  var news = document.getElementById("news");
  var mine = document.getElementById("mine");
  var KEPT = "table-companion.mine";
  var known = finished();
  var lastTurn = "";
  function say(text, ofMine) {  // ofMine: a line of the player's own table, to be spoken
    if (!news) { return; }
    var line = document.createElement("p");
    line.textContent = text;
    news.appendChild(line);
    while (news.children.length > 5) { news.removeChild(news.firstChild); }
    if (ofMine) { aloud(text); }
  }

  // Spoken: with Speak on, each news line of the player's own table is said by the phone,
  // in the page's language. Browsers speak only after a tap on the page; a line not yet
  // said when a newer one comes is dropped, so the voice never falls behind the table.
  var speak = document.getElementById("speak");
  var SPEAK = "table-companion.speak";
  var tapped = false;
  function aloud(text) {
    if (!speak || !speak.checked || !tapped || !window.speechSynthesis) { return; }
    window.speechSynthesis.cancel();
    utter(text);
  }
  function utter(text) {  // in the page's language, after what is being said
    var utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang || "en";
    window.speechSynthesis.speak(utterance);
  }
  if (speak) {
    speak.checked = localStorage.getItem(SPEAK) === "1";
    document.addEventListener("pointerdown", function () { tapped = true; });
    speak.addEventListener("change", function () {
      tapped = true;
      localStorage.setItem(SPEAK, speak.checked ? "1" : "0");
      if (!speak.checked && window.speechSynthesis) { window.speechSynthesis.cancel(); }
    });
  }
  function finished() {  // a key per finished game on the page (phone or TV): its words
    var games = {};
    Array.prototype.forEach.call(document.querySelectorAll("#games li[data-game]"),
      function (item) {
        games[item.dataset.game] = item.innerText.trim().replace(/\s*\n\s*/g, ": ");
      });
    Array.prototype.forEach.call(document.querySelectorAll("#latest li"), function (item) {
      var places = Array.prototype.map.call(item.querySelectorAll(".place"),
        function (place) { return place.textContent.trim(); });
      var text = item.querySelector(".what").textContent.trim() + ": " + places.join(", ");
      games["tv: " + text] = text;  // the TV's latest games: a line new to it is news
    });
    return games;
  }
  function tableName(card) {
    return card.querySelector("h3").firstChild.textContent.trim();
  }
  function tables() {  // the choice follows the tables on the page
    if (!mine) { return; }
    var chosen = mine.value || localStorage.getItem(KEPT) || "";
    while (mine.options.length > 1) { mine.remove(1); }
    Array.prototype.forEach.call(document.querySelectorAll("#cards .card"), function (card) {
      mine.add(new Option(tableName(card), card.id.slice("table-".length)));
    });
    mine.value = chosen;
    if (mine.value !== chosen) { mine.value = ""; }
  }
  function turnAtMine() {
    var card = document.getElementById("table-" + mine.value);
    if (!card) { return; }
    var turn = card.querySelector(".game .turn");
    var dice = card.querySelector(".dice .words");
    var text = tableName(card) + ": " + (turn ? turn.textContent : "no game") +
      (dice ? ", " + dice.textContent : "");
    if (text !== lastTurn) { lastTurn = text; say(text, true); }
  }
  if (mine) {
    tables();
    document.getElementById("mine-choice").hidden = false;
    mine.addEventListener("change", function () {
      localStorage.setItem(KEPT, mine.value);
      lastTurn = "";
      turnAtMine();
    });
  }

  // The TV says the night's big moments aloud, a game's end and the next round, when its
  // address asks for it (/tv?speak=1) and its browser lets a page speak unprompted (a kiosk
  // started with --autoplay-policy=no-user-gesture-required; else after a click or key).
  // Each is queued behind the last, none dropped: they are few, and each is news to the room.
  var round = nextRound();
  var loud = tv && /(^|[?&])speak=1(&|$)/.test(location.search);
  function announce(text) {
    if (loud && window.speechSynthesis) { utter(text); }
  }
  function nextRound() {  // the TV's next round in words: "Table 1, Centennial: Ann, Cat."
    return Array.prototype.map.call(document.querySelectorAll("#next-round article"),
      function (tile) {
        var names = Array.prototype.map.call(tile.querySelectorAll(".names li"),
          function (name) { return name.textContent.trim(); });
        return tile.querySelector("h3").textContent.trim() + ", " +
          tile.querySelector(".title").textContent.trim() + ": " + names.join(", ") + ".";
      }).join(" ");
  }

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
