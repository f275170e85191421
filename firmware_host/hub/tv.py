"""The night on a TV or projector (``/tv``): read from across the room, nothing to press.

One 16:9 screen in large type, every size in ``vh`` (so 1920x1080 and 1280x720 look alike
and hold the same): the standings' leaders and how many players there are in all (each
name whole, on a second line if need be), a tile per table, the latest finished games, the
QR code of the phone page, and the next round's seating when there is one. Under the
standings a line says what each column means. At the night's end (the hub's
:meth:`~firmware_host.hub.store.Store.over`: a game has finished, no table is in a game
or has been for a quarter of an hour, and no next round is published) the winner of the
night takes the middle of the screen, and steps aside again if a game starts. The tiles are
the phone page's cards (the same fragments and the same live events, styled by ``tv.css``),
shown :data:`TILES` at a time: with JavaScript ``app.js`` turns the pages every
:data:`CYCLE_S`; without it the page reloads itself onto the next one (``/tv?page=N``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache

from firmware_host.hub.markup import EMPTY, Html, join, render
from firmware_host.hub.page import (
    HIDDEN,
    NEWLINE,
    TILES,
    banner,
    card,
    latest,
    next_round,
    seated,
    spotlight,
    standings,
    tile_range,
)
from firmware_host.hub.store import Night

CYCLE_S = 12  # seconds a page stays up
LEADERS = 8  # the standings' rows at most
LEADER_LINES = 9  # lines of names that fit above the legend's three lines and the QR code
# (measured in Chromium at 16:9)
NAME_CHARS = 14  # characters of a name a line holds (18.6 px each at 1080p, of 265 px
# beside a place wide enough for a tie's "=8")


@dataclass(frozen=True)
class Shown:
    """One of the TV's pages: tiles ``start`` to ``start + TILES`` of ``section``."""

    section: str  # "tables" or "next-round"
    start: int


def pages(night: Night) -> list[Shown]:
    """The pages in turn: the tables, then the next round's seating if there is one,
    :data:`TILES` tiles at a time (one page of tables when there is nothing)."""
    return [*(Shown("tables", start) for start in range(0, len(night.tables), TILES)),
            *(Shown("next-round", start) for start in range(0, len(seated(night)), TILES))
            ] or [Shown("tables", 0)]


def leaders(night: Night) -> int:
    """How many of the standings the TV shows: the first :data:`LEADERS`, fewer if their
    names, each whole, would need more than :data:`LEADER_LINES` lines (and reach under
    the QR code)."""
    lines = 0
    for shown, standing in enumerate(night.standings[:LEADERS]):
        lines += len(textwrap.wrap(standing.name, NAME_CHARS)) or 1
        if lines > LEADER_LINES:
            return shown
    return min(len(night.standings), LEADERS)


def page_number(query: str) -> int:
    """The 1-based page asked for in ``query`` (``page=N``); 1 for anything else."""
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name == "page" and value.isascii() and value.isdigit() and len(value) <= 4:
            return max(int(value), 1)
    return 1


def tv(night: Night, number: int, url: str) -> Html:
    """The whole TV page, on page ``number`` (counted from 1, wrapping round); ``url`` is
    the phone page's address for the QR code ('' for none)."""
    shown = pages(night)
    index = (number - 1) % len(shown)
    return render("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Game night</title>
<link rel="stylesheet" href="/tv.css">
<noscript><meta http-equiv="refresh" content="{cycle};url=/tv?page={next}"></noscript>
<script src="/app.js" defer></script>
</head>
<body class="tv" data-per-page="{per}" data-cycle-s="{cycle}">
<header><h1>Game night{date}</h1><p id="link" class="link">updated every {cycle} s</p></header>
<main id="main">
{main}
</main>
{join}
</body>
</html>
""", cycle=CYCLE_S, next=(index + 1) % len(shown) + 1, per=TILES,
                  date=render(", {night}", night=night.night) if night.night else EMPTY,
                  main=tv_main(night, shown[index]), join=join_us(url))


def tv_main(night: Night, shown: Shown | None = None) -> Html:
    """What the TV's live stream replaces: every part but the QR code; ``shown`` hides the
    tiles of the other pages (None: every tile shown, for ``app.js`` to page)."""
    def window(section: str, count: int) -> tuple[int, int]:
        if shown is None:
            return 0, count
        return (shown.start, shown.start + TILES) if shown.section == section else (0, 0)

    tables = night.tables
    start, end = window("tables", len(tables))
    cards = join((card(table, hidden=not start <= n < end)
                  for n, table in enumerate(tables)), NEWLINE) or render(
        '<p class="empty">No table has reported yet.</p>')
    elsewhere = shown is not None and shown.section != "tables"
    return render('{banner}\n{spotlight}\n{standings}\n<section id="tables" data-tiles{hidden}><h2>'
                  'Tables <span class="range">{range}</span></h2>\n<div id="cards" '
                  'class="tiles">\n{cards}\n</div></section>\n{next}\n{latest}',
                  banner=banner(night.trouble), spotlight=spotlight(night),
                  standings=standings(night, leaders(night)),
                  cards=cards,
                  hidden=HIDDEN if elsewhere else EMPTY, range=tile_range(start, end, len(tables)),
                  next=next_round(night, *window("next-round", len(seated(night)))),
                  latest=latest(night))


def join_us(url: str) -> Html:
    """The phone page's address as a QR code and as text, for the players to open."""
    if not url:
        return render("")
    return render('<aside class="join" aria-label="The night on your phone">{code}'
                  '<p>Scan or open<br><b>{url}</b></p></aside>', code=qr_svg(url), url=url)


@lru_cache(maxsize=8)
def qr_svg(text: str) -> Html:
    """``text`` as a QR code in SVG: a dark square a dark module, on a light quiet zone of
    four modules (drawn here, so no markup of segno's reaches the page)."""
    import segno

    matrix = segno.make_qr(text, error="m", boost_error=True).matrix
    side = len(matrix)
    modules = join(render("M{x} {y}h1v1h-1z", x=x, y=y)
                   for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark)
    return render('<svg class="qr" viewBox="-4 -4 {box} {box}" role="img" '
                  'aria-label="QR code of {text}"><rect x="-4" y="-4" width="{box}" '
                  'height="{box}" fill="#fff"/><path fill="#000" d="{modules}"/></svg>',
                  box=side + 8, text=text, modules=modules)
