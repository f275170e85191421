"""The night's page as HTML, and its export as JSON and CSV, from the hub's :class:`Night`.

The server renders everything; the browser's script only swaps in fragments rendered here
(a table's card, the results), so there is one way a name reaches the page, through
:func:`html.escape`, with JavaScript or without.
"""

from __future__ import annotations

from dataclasses import asdict
from html import escape
from typing import Any

from firmware_host.night.results import csv_text
from firmware_host.night.store import Night, Table

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
REFRESH_S = 15  # without JavaScript the page reloads itself this often


def page(night: Night) -> str:
    """The whole page; it works as it is, and ``/app.js`` keeps it live."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Game night</title>
<link rel="stylesheet" href="/app.css">
<noscript><meta http-equiv="refresh" content="{REFRESH_S}"></noscript>
<script src="/app.js" defer></script>
</head>
<body>
<header><h1>Game night</h1><p id="link" class="link">updated when you reload</p></header>
<main id="main">
{main(night)}
</main>
<footer>Export: <a href="/night.csv">CSV</a> · <a href="/night.json">JSON</a></footer>
</body>
</html>
"""


def main(night: Night) -> str:
    """Standings first (what players look for), then the tables, then the games played."""
    cards = "\n".join(card(table) for table in night.tables) or (
        '<p class="empty">No table has reported yet.</p>')
    return (f"{standings(night)}\n<section id=\"tables\"><h2>Tables</h2>\n"
            f"<div id=\"cards\">\n{cards}\n</div></section>\n{games(night)}")


def standings(night: Night) -> str:
    rows = "\n".join(
        f"<tr><td>{rank}</td><td>{escape(s.name)}</td><td>{s.wins}</td><td>{s.played}</td>"
        f"<td>{s.beaten}</td></tr>" for rank, s in enumerate(night.standings, start=1))
    table = (
        '<table><thead><tr><th>#</th><th>Player</th><th title="games won">Won</th>'
        '<th title="games played">Games</th><th title="opponents beaten">Beat</th></tr>'
        f"</thead><tbody>\n{rows}\n</tbody></table>"
        if rows else '<p class="empty">No game has finished yet.</p>')
    title = f"Standings, night of {escape(night.night)}" if night.night else "Standings"
    return f'<section id="standings"><h2>{title}</h2>\n{table}\n</section>'


def games(night: Night) -> str:
    """The finished games, the latest first."""
    items = "\n".join(
        f'<li data-game="{escape(g.table)}/{g.id}"><span class="what">{escape(g.game)} · '
        f"{escape(g.name)}</span><br>"
        + ", ".join(f"{p.place}. {escape(p.name)} {p.score}"
                    for p in sorted(g.players, key=lambda p: p.place))
        + "</li>" for g in reversed(night.games))
    return (f'<section id="games"><h2>Finished games ({len(night.games)})</h2>\n'
            f"<ol reversed>\n{items}\n</ol></section>")


def results(night: Night) -> dict[str, str]:
    """What changes when a game ends: the standings and the list of games."""
    return {"standings": standings(night), "games": games(night)}


def card(table: Table) -> str:
    """One table: its game, whose turn, the dice, the scores, online or not."""
    live = table.live
    name = live.name if live is not None else table.id
    state = "online" if table.online else "offline"
    head = (f'<article class="card {state}" id="table-{escape(table.id)}">'
            f'<h3>{escape(name)} <span class="status">{state}</span></h3>')
    if live is None or not live.game:
        return f'{head}<p class="empty">No game yet.</p></article>'
    phase = {"over": "game over", "roll": "to roll", "move": "to move"}.get(live.phase,
                                                                           live.phase)
    turn = f"{escape(live.turn)} {phase}" if live.turn else phase
    scores = "".join(
        f'<li{" class=turn" if player == live.turn else ""}><span>{escape(player)}</span>'
        f"<b>{score}</b></li>" for player, score in zip(live.players, live.scores, strict=False))
    faces = " ".join(DIE_FACES[d - 1] for d in live.dice)
    dice = (f'<p class="dice" title="dice {"-".join(str(d) for d in live.dice)}">{faces}</p>'
            if live.dice else "")
    last = f'<p class="last">Last: {escape(live.last)}</p>' if live.last else ""
    return (f'{head}<p class="game">{escape(live.game)} · <span class="turn">{turn}</span>'
            f'</p>{dice}<ol class="scores">{scores}</ol>{last}</article>')


def as_json(night: Night, rejected: int) -> dict[str, Any]:
    """The night for ``/night.json``: tables, games and standings, and messages refused."""
    return {
        "night": night.night,
        "tables": [{"id": t.id, "online": t.online,
                    "live": None if t.live is None else asdict(t.live)}
                   for t in night.tables],
        "games": [asdict(game) for game in night.games],
        "standings": [asdict(row) for row in night.standings],
        "rejected": rejected,
    }


def as_csv(night: Night) -> str:
    """The night's results as ``table-companion export`` writes them (``night.results``)."""
    return csv_text(night.games)
