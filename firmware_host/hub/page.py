"""The night's page as HTML, and its export as JSON and CSV, from the hub's :class:`Night`.

The server renders everything; the browser's script only swaps in fragments rendered here
(a table's card, the results). Every fragment is made by :func:`markup.render`, which
escapes each value it is given, so there is one way a name reaches the page, with
JavaScript or without.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from firmware_host.hub import urls
from firmware_host.hub.league.bgstats import create_play_link
from firmware_host.hub.league.fairness import (
    SOURCE_WORDS,
    Tested,
    could_see,
    group_label,
    judge_page,
    page_verdict,
)
from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.league.league import Counts
from firmware_host.hub.markup import EMPTY, Html, join, render
from firmware_host.hub.results import csv_text, night_record
from firmware_host.hub.store import HeardTable, Night, NightSummary
from firmware_host.journal import Standing
from firmware_host.night.topics import SeatedTable, moment
from firmware_host.voice.phrases import dice_words
from games.core import DIE_FACES as FACES

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
REFRESH_S = 15  # without JavaScript the page reloads itself this often
PHASE_WORDS = {"over": "game over", "roll": "to roll", "move": "to move", "idle": "idle"}
NEWLINE = render("\n")
HIDDEN = render(" hidden")
LATEST = 3  # finished games on the TV
SHOWN_GAMES = 8  # finished games on the live page; the night's own page lists every one
TILES = 4  # tiles a page on the TV: two across, two down (eight names of eight letters fit)


def page(night: Night) -> Html:
    """Today's page; it works as it is, and ``/app.js`` keeps it live. With it, a player
    may choose their own table: the news region then also says whose turn it is there
    (finished games it says for every table), for a screen reader to announce; and with
    Speak on, the phone says the news of that table aloud."""
    return document("Game night", render(
        '<main>\n<p id="mine-choice" class="mine" hidden><label for="mine">Your table</label>\n'
        '<select id="mine"><option value="">none</option></select>\n'
        '<label class="speak"><input type="checkbox" id="speak"> Speak</label></p>\n'
        '<div id="news" class="news" role="log" aria-live="polite" aria-label="News"></div>\n'
        '<div id="main">\n{main}\n</div>\n</main>\n<footer>Export: <a href="/night.csv">CSV'
        '</a> · <a href="/night.json">JSON</a> · <a href="{nights}">Every night</a> · '
        '<a href="{players}">Players</a></footer>',
        main=main(night), nights=urls.NIGHTS, players=urls.PLAYERS), live=True)


def document(title: str, body: Html, live: bool = False) -> Html:
    """A whole page of the hub: ``live`` ones keep themselves up to date (by ``/app.js``, or
    by reloading without JavaScript); the others are pages of a past that does not move."""
    scripts = render('<noscript><meta http-equiv="refresh" content="{refresh}"></noscript>\n'
                     '<script src="/app.js" defer></script>\n', refresh=REFRESH_S) if live else ""
    state = render('<p id="link" class="link">updated when you reload</p>') if live else ""
    return render("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/app.css">
{scripts}</head>
<body>
<header><h1>{title}</h1>{state}</header>
{body}
</body>
</html>
""", title=title, scripts=scripts, state=state, body=body)


def night_page(night: Night, latest: bool) -> Html:
    """A night as it ended (or as it is, without the tables' cards, for the latest)."""
    base = urls.night(night.night)
    now = render(' · <a href="/">Live page</a>') if latest else ""
    return document("Game night of " + night.night, render(
        '<main>\n{standings}\n{games}\n</main>\n<footer>Export: <a href="{base}.csv">CSV</a>'
        ' · <a href="{base}.json">JSON</a> · <a href="{dice}">Dice</a> · '
        '<a href="{nights}">Every night</a>{now}</footer>',
        standings=standings(night), games=games(night, None), base=base, nights=urls.NIGHTS,
        now=now, dice=urls.night_dice(night.night)))


def nights_page(nights: list[NightSummary]) -> Html:
    """Every night the hub holds, the latest first."""
    items = join((render('<li><a href="{href}">{night}</a>: {games} {noun} at {tables} '
                         '{tables_noun}</li>', href=urls.night(n.night), night=n.night,
                         games=n.games, noun=plural(n.games, "game"), tables=n.tables,
                         tables_noun=plural(n.tables, "table"))
                  for n in nights), NEWLINE)
    listing = render('<ol class="nights">\n{items}\n</ol>', items=items) if items else render(
        '<p class="empty">No game has finished yet.</p>')
    return document("Every night", render(
        '<main>\n<section id="nights"><h2>Nights ({count})</h2>\n{listing}\n</section>\n'
        '</main>\n<footer><a href="{dice}">Every night\'s dice</a> · '
        '<a href="{players}">Players</a> · <a href="/">Live page</a></footer>',
        dice=urls.DICE, players=urls.PLAYERS, count=len(nights),
        listing=listing))


def plural(count: int, noun: str) -> str:
    return noun if count == 1 else noun + "s"


def main(night: Night) -> Html:
    """What is wrong with the hub, if anything, then the standings (what players look for),
    the tables and the games played."""
    cards = join((card(table) for table in night.tables), NEWLINE) or render(
        '<p class="empty">No table has reported yet.</p>')
    return render('{banner}\n{seating}\n{standings}\n<section id="tables"><h2>Tables</h2>\n'
                  '<div id="cards">\n{cards}\n</div></section>\n{games}',
                  banner=banner(night.trouble), seating=seating(night), standings=standings(night),
                  cards=cards, games=games(night))


def banner(trouble: str) -> Html:
    """The hub's own trouble (it lost the broker), shown above everything; hidden when none."""
    if not trouble:
        return render('<div id="banner" class="banner" hidden></div>')
    return render('<div id="banner" class="banner" role="alert">{trouble}</div>',
                  trouble=trouble)


def standings(night: Night, top: int | None = None) -> Html:
    """The night's standings: every player, or (on the TV) the ``top`` ones and, when there
    are more, how many in all ("top 8 of 23")."""
    shown = night.standings[:top]
    places = ranks([(s.wins, ahead(s)) for s in night.standings])
    rows = join((render("<tr><td>{rank}</td><td>{name}</td><td>{wins}</td><td>{played}</td>"
                        "<td>{ahead}%</td></tr>", rank=rank, name=s.name, wins=s.wins,
                        played=s.played, ahead=ahead(s))
                 for rank, s in zip(places, shown, strict=False)), NEWLINE)
    table = render(
        '<table><thead><tr><th scope="col">#</th><th scope="col">Player</th>'
        '<th scope="col">Won</th><th scope="col">Games</th><th scope="col">Ahead</th></tr>'
        "</thead><tbody>\n{rows}\n</tbody></table>\n{legend}", rows=rows,
        legend=legend(STANDING_COLUMNS)
    ) if rows else render('<p class="empty">No game has finished yet.</p>')
    title = render('Standings<span class="night">, night of {night}</span>',
                   night=night.night) if night.night else render("Standings")
    count = render(' <span class="range">top {top} of {all}</span>', top=len(shown),
                   all=len(night.standings)) if len(shown) < len(night.standings) else EMPTY
    return render('<section id="standings"><h2>{title}{count}</h2>\n{table}\n</section>',
                  title=title, count=count, table=table)


STANDING_COLUMNS = (
    ("#", "place by Won, then Ahead; =2 a tie", "place, =2 a tie"),
    ("Player", "as the tables name them"),
    ("Won", "games won"),
    ("Games", "games played"),
    ("Ahead", "% of opponents beaten"),
)
"""Each column of the standings and what it means in a line; where the TV has less room
than the phone, a shorter line for it after."""


def legend(columns: tuple[tuple[str, ...], ...]) -> Html:
    """What each column of a table means, a line each, under it: (column, words) or
    (column, words, fewer words for the TV)."""
    def meaning(words: str, *short: str) -> Html:
        if not short:
            return render("{words}", words=words)
        return render('<span class="long">{words}</span><span class="short">{short}</span>',
                      words=words, short=short[0])

    return render('<dl class="legend">{items}</dl>', items=join(
        render('<div class="col-{n}"><dt>{name}</dt><dd>{meaning}</dd></div>', n=n,
               name=name, meaning=meaning(*words))
        for n, (name, *words) in enumerate(columns, start=1)))


def ahead(standing: Standing) -> int:
    """The share of opponents finished behind, in whole per cent, as the page shows it."""
    return round(100 * standing.ahead)


def ranks(keys: Sequence[object]) -> list[str]:
    """Each row's place from its key (rows in order): ``1``, ``=2``, ``=2``, ``4``: rows
    whose keys are equal share a place, marked ``=``."""
    places = []
    for n, key in enumerate(keys):
        first = n
        while first and keys[first - 1] == key:
            first -= 1
        tied = (first < n) or (n + 1 < len(keys) and keys[n + 1] == key)
        places.append(("=" if tied else "") + str(first + 1))
    return places


def winners(night: Night) -> list[Standing]:
    """The night's first place: one player, or several level on Won and Ahead."""
    places = ranks([(s.wins, ahead(s)) for s in night.standings])
    return [s for s, place in zip(night.standings, places, strict=True)
            if place.lstrip("=") == "1"]


def spotlight(night: Night) -> Html:
    """At the night's end (:attr:`Night.over`), the winner of the night, for the TV; a hidden
    place for it before."""
    first = winners(night) if night.over else []
    if not first:
        return render('<section id="spotlight" class="spotlight" hidden></section>')
    names = join(render('<p class="winner">{name}</p>', name=s.name) for s in first)
    best = first[0]
    return render('<section id="spotlight" class="spotlight" role="status"><h2>{title}</h2>'
                  '{names}<p class="why">{wins} {won} in {played} {games}, ahead of {ahead}% '
                  "of opponents</p></section>",
                  title="Winner of the night" if len(first) == 1 else "Winners of the night",
                  names=names, wins=best.wins, won=plural(best.wins, "win"),
                  played=best.played, games=plural(best.played, "game"), ahead=ahead(best))


def games(night: Night, most: int | None = SHOWN_GAMES) -> Html:
    """The finished games, the latest first: the ``most`` latest (None: every one), and a
    link to the night's own page for the others."""
    items = join((game_item(g) for g in night.games[::-1][:most]), NEWLINE)
    count = len(night.games)
    more = render('<p class="more">The latest {most} of {count}: <a href="{href}">every game '
                  "of the night</a></p>", most=most, count=count, href=urls.night(night.night)
                  ) if most is not None and count > most else EMPTY
    return render('<section id="games"><h2>Finished games ({count})</h2>\n'
                  '<ol reversed start="{count}">\n{items}\n</ol>{more}</section>', count=count,
                  items=items, more=more)


def game_item(g: FinishedGame) -> Html:
    """A finished game in the list (``data-game``: the key a change of it is sent by)."""
    return render('<li data-game="{table}/{id}"><a class="what" href="{href}">{game} · '
                  "{name}</a><br>{players}</li>", table=g.table, id=g.id, game=g.game,
                  href=urls.game(g.night, g.table, g.id), name=g.name, players=join(
                      (render("{place}. {name} {score}", place=p.place, name=p.name,
                              score=p.score)
                       for p in sorted(g.players, key=lambda p: p.place)), render(", ")))


def latest(night: Night) -> Html:
    """The TV's latest finished games: where, what, and the first two places."""
    items = join((render('<li><span class="what">{game} at {name}</span>{places}</li>',
                         game=g.game, name=g.name, places=join(
                             render('<span class="place">{place}. {name} {score}</span>',
                                    place=p.place, name=p.name, score=p.score)
                             for p in sorted(g.players, key=lambda p: p.place)[:2]))
                  for g in night.games[::-1][:LATEST]), NEWLINE)
    return render('<section id="latest"><h2>Latest games</h2>\n<ol>{items}</ol></section>',
                  items=items) if items else render(
        '<section id="latest"><h2>Latest games</h2>\n'
        '<p class="empty">No game has finished yet.</p></section>')


def seated(night: Night) -> list[SeatedTable]:
    """The next round's tables where someone sits."""
    return [table for table in night.seating.tables if table.players]


def seating(night: Night) -> Html:
    """The next round's seating as a table (hidden when there is none)."""
    if not seated(night):
        return render('<section id="seating" hidden></section>')
    rows = join((render("<tr><td>{table}</td><td>{game}</td><td>{players}</td></tr>",
                        table=t.label, game=t.game, players=together(t))
                 for t in seated(night)), NEWLINE)
    return render('<section id="seating"><h2>Next round</h2>\n<table><thead><tr>'
                  '<th scope="col">Table</th><th scope="col">Game</th>'
                  '<th scope="col">Players</th></tr></thead><tbody>\n{rows}\n</tbody></table>'
                  "</section>", rows=rows)


def together(table: SeatedTable) -> str:
    """``Ann, Bob, Cy``, or ``Ann and Cy against Bob and Dee`` in a team game."""
    if table.teams:
        return " against ".join(" and ".join(team) for team in table.teams)
    return ", ".join(table.players)


def next_round(night: Night, start: int = 0, end: int | None = None) -> Html:
    """The TV's tiles of the next round, those outside ``start`` to ``end`` hidden (the
    section too when none is shown)."""
    tables = seated(night)
    end = len(tables) if end is None else end
    tiles = join((render('<article class="seat" id="seat-{n}"{hidden}><h3>{table}</h3>'
                         '<p class="title">{game}</p><ul class="names">{names}</ul>'
                         "{teams}</article>", n=n, table=t.label, game=t.game,
                         hidden=EMPTY if start <= n < end else HIDDEN,
                         names=join(render("<li>{name}</li>", name=p) for p in t.players),
                         teams=render('<p class="teams">{teams}</p>', teams=together(t))
                         if t.teams else EMPTY)
                  for n, t in enumerate(tables)), NEWLINE)
    return render('<section id="next-round" data-tiles{hidden}><h2>Next round '
                  '<span class="range">{range}</span></h2>\n<div class="tiles">\n{tiles}\n'
                  "</div></section>", tiles=tiles, range=tile_range(start, end, len(tables)),
                  hidden=EMPTY if tables and start < end else HIDDEN)


def tile_range(start: int, end: int, count: int) -> Html:
    """``7-10 of 20`` (as app.js writes it too); nothing when every tile fits one page."""
    if count <= TILES:
        return render("")
    return render("{first}-{last} of {count}", first=start + 1, last=min(end, count),
                  count=count)


def seating_parts(night: Night) -> dict[str, Html]:
    """What changes when the host publishes a seating: the phone's and the TV's."""
    return {"seating": seating(night), "next-round": next_round(night)}


def game_page(game: FinishedGame) -> Html:
    """A finished game: its players by place, when it was played, each player's luck and
    decisions in a game of Dalmatian, and the link that adds the play to BG Stats."""
    started, ended = moment(game.started), moment(game.ended)
    names = {player.seat: player.name for player in game.players}
    rows = join((render("<tr><td>{place}</td><td>{name}</td><td>{score}</td></tr>",
                        place=p.place, name=p.name, score=p.score)
                 for p in sorted(game.players, key=lambda p: (p.place, p.seat))), NEWLINE)
    luck = render(
        '<section id="luck"><h2>Luck and decisions</h2>\n<ul>\n{lines}\n</ul>\n'
        '<p class="what">Luck is the score less what the choices were worth on average; '
        "decisions, the points the choices gave away against the best ones.</p></section>",
        lines=join((render("<li>{line}</li>", line=x.line(names.get(x.seat, "?")))
                    for x in game.luck), NEWLINE)) if game.luck else ""
    return document(game.game + " at " + game.name, render(
        '<main>\n<p class="what">Game #{id}, night of <a href="{night_href}">{night}</a>, '
        "{start} to {end} ({minutes} min)</p>\n"
        '<section id="result"><table><thead><tr><th>#</th><th>Player</th><th>Score</th></tr>'
        "</thead><tbody>\n{rows}\n</tbody></table></section>\n{luck}\n"
        '<p><a id="bgstats" class="button" href="{bgstats}" rel="external noreferrer">'
        "Add to BG Stats</a></p>\n</main>\n"
        '<footer><a href="{night_href}">The night</a> · <a href="/">Live page</a></footer>',
        id=game.id, night=game.night, night_href=urls.night(game.night),
        start=started.strftime("%H:%M"), end=ended.strftime("%H:%M"),
        minutes=max(1, round((ended - started).total_seconds() / 60)), rows=rows, luck=luck,
        bgstats=create_play_link(game)))


def dice_page(title: str, dice: Counts[tuple[str, str]]) -> Html:
    """Were the dice fair? Every throw counted in ``dice``, one table and one source of dice
    at a time (a loaded die typed in must not hide behind a fair roller): the faces against
    a fair die as a histogram, and the chi-square tests' words (:mod:`league.fairness`)."""
    sources = list(SOURCE_WORDS)
    shown = sorted((key for key in dice.faces if key[1] in SOURCE_WORDS),
                   key=lambda key: (key[0].lower(), key[0], sources.index(key[1])))
    found = judge_page({key: (dice.faces[key], dice.totals[key]) for key in shown})
    sections = join((dice_section(name, source, found[name, source])
                     for name, source in shown), NEWLINE) or render(
        '<p class="empty">No throw was sent with these games.</p>')
    verdict = page_verdict(found, group_label)
    return document(title, render(
        '<main>\n<p class="verdict">{verdict}</p>\n{sections}\n<p class="what">"Unusual" is '
        "a reason to keep counting, not proof of a loaded die: every test of this page is "
        "judged together, so a page of fair dice is flagged at most one time in twenty."
        '</p>\n</main>\n'
        '<footer><a href="{nights}">Every night</a> · <a href="/">Live page</a></footer>',
        verdict=verdict, sections=sections, nights=urls.NIGHTS))


def dice_section(table: str, source: str, found: Tested) -> Html:
    return render('<section class="dice-report"><h2>{table}, {source}</h2>\n{report}'
                  '</section>', table=table, source=SOURCE_WORDS[source],
                  report=dice_report(found))


def dice_report(found: Tested) -> Html:
    """One group's dice (a table's source, or a player's): the faces as a histogram against
    a fair die's, each test's words, and what so many dice could have shown."""
    verdict, counts = found["faces"]
    lines = join((render("<li>{name}: {verdict}</li>", name=name, verdict=str(v))
                  for name, (v, _) in found.items()), NEWLINE)
    return render('{chart}\n<ul>\n{lines}\n</ul>\n<p class="what">{seen}</p>',
                  chart=histogram(counts, verdict.throws / len(FACES)), lines=lines,
                  seen=could_see(verdict.throws, verdict.family))


CHART_W, CHART_H, BAR_W, BAR_GAP, BAR_TOP = 240, 110, 30, 10, 80


def histogram(counts: Counter[int], expected: float) -> Html:
    """Each face's count as a bar, and a fair die's expected count as a dashed line (SVG:
    no script, no request)."""
    top = max([*counts.values(), expected, 1]) * 1.15
    base = 14 + BAR_TOP

    def height(value: float) -> int:
        return round(value / top * BAR_TOP)

    bars = join((render('<rect class="bar" x="{x}" y="{y}" width="{w}" height="{h}"/>'
                        '<text x="{mid}" y="{above}">{count}</text>'
                        '<text x="{mid}" y="{below}">{face}</text>',
                        x=x, y=base - height(counts[face]), w=BAR_W, h=height(counts[face]),
                        mid=x + BAR_W // 2, above=base - height(counts[face]) - 3,
                        count=counts[face], below=base + 14, face=face)
                 for face, x in zip(FACES, range(5, CHART_W, BAR_W + BAR_GAP),
                                    strict=False)))
    label = ", ".join(str(face) + ": " + str(counts[face]) for face in FACES)
    return render('<svg class="histogram" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
                  'role="img" aria-label="faces {label}; a fair die: {expected} each">{bars}'
                  '<line class="expected" x1="0" x2="{w}" y1="{ey}" y2="{ey}"/></svg>',
                  w=CHART_W, h=CHART_H, label=label, expected=round(expected, 1), bars=bars,
                  ey=base - height(expected))


def results(night: Night) -> dict[str, Html]:
    """What changes when a game ends: the standings and the list of games (the TV's latest
    games); the browser replaces those of its page."""
    return {"standings": standings(night), "games": games(night), "latest": latest(night),
            "spotlight": spotlight(night)}


def card(table: HeardTable, hidden: bool = False) -> Html:
    """One table: its game, whose turn, the dice, the scores, online or not (``hidden``: on
    another of the TV's pages)."""
    live = table.live
    state = "online" if table.online else "offline"
    head = render('<article class="card {state}" id="table-{id}"{hidden}><h3>{name} '
                  '<span class="status">{state}</span></h3>{heard}', state=state, id=table.id,
                  hidden=HIDDEN if hidden else EMPTY,
                  name=live.name if live is not None else table.id, heard=heard(table.quiet_s))
    if live is None or not live.game:
        return render('{head}<p class="empty">No game yet.</p></article>', head=head)
    phase = PHASE_WORDS.get(live.phase, live.phase)
    turn = render("{player} {phase}", player=live.turn, phase=phase) if live.turn else phase
    scores = join((render('<li class="turn"><span>{player}<span class="words">, to play'
                          "</span></span><b>{score}</b></li>", player=player, score=score)
                   if player == live.turn else
                   render("<li><span>{player}</span><b>{score}</b></li>", player=player,
                          score=score))
                  for player, score in zip(live.players, live.scores, strict=False))
    dice = render('<p class="dice" title="dice {numbers}"><span aria-hidden="true">{faces}'
                  '</span><span class="words">dice {words}</span></p>',
                  numbers="-".join(str(d) for d in live.dice), words=dice_words(live.dice),
                  faces=" ".join(DIE_FACES[d - 1] for d in live.dice)) if live.dice else ""
    last = render('<p class="last">Last: {last}</p>', last=live.last) if live.last else ""
    detail = render('<span class="detail">{detail}</span><span class="sep"> · </span>',
                    detail=live.detail) if live.detail else EMPTY
    return render('{head}<p class="game"><span class="title">{game}</span>'
                  '<span class="sep"> · </span>{detail}'
                  '<span class="turn">{turn}</span></p>{dice}<ol class="scores">{scores}</ol>'
                  '{last}</article>', head=head, game=live.game, detail=detail, turn=turn,
                  dice=dice, scores=scores, last=last)


def heard(quiet_s: int | None) -> Html:
    """How long ago the hub last heard from a table, once it is longer than it should be
    (``app.js`` counts on from there)."""
    if quiet_s is None:
        return render("")
    return render('<p class="heard" data-quiet="{quiet}">last heard {ago} ago</p>',
                  quiet=quiet_s, ago=ago(quiet_s))


def ago(seconds: int) -> str:
    """``42 s``, ``5 min``, ``3 h``: as app.js writes it too."""
    if seconds < 120:
        return str(seconds) + " s"
    return str(seconds // 60) + " min" if seconds < 7200 else str(seconds // 3600) + " h"


def as_json(night: Night, rejected: int) -> dict[str, Any]:
    """The night for ``/night.json``: tables, games and standings, and messages refused."""
    return {
        **night_record(night.night, night.games, night.standings),  # as export writes it
        "tables": [{"id": t.id, "online": t.online, "quiet_s": t.quiet_s,
                    "live": None if t.live is None else asdict(t.live)}
                   for t in night.tables],
        "rejected": rejected,
        "trouble": night.trouble,
        "seating": asdict(night.seating),
    }


def as_csv(night: Night) -> str:
    """The night's results as ``table-companion export`` writes them (``hub.results``)."""
    return csv_text(night.games)
