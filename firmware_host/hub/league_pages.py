"""The league's pages: every player ranked by rating, and a page per player.

A player's page has their games and wins by game and by night, their rating over time (an
SVG line, no script), their luck and decisions in Dalmatian (the hundredths the tables sent
with each game) and the dice they threw (a histogram and the fairness words of
:mod:`league.fairness`). Every value goes through :func:`markup.render`, as on the night's
page; the league's exports are JSON and CSV.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Any
from urllib.parse import quote

from firmware_host.hub import urls
from firmware_host.hub.league.fairness import judge_page
from firmware_host.hub.league.finished import Luck
from firmware_host.hub.league.league import Appearance, League, Player, key
from firmware_host.hub.league.ratings import PROVISIONAL_WORDS, TARGET, Rating
from firmware_host.hub.markup import EMPTY, Html, join, render
from firmware_host.hub.page import NEWLINE, dice_report, document, legend, ranks
from firmware_host.hub.results import COLUMNS, rows
from games.dalmatian_luck import points
from games.words import count

CHART_W, CHART_H, PAD = 320, 120, 24
MOST_PLAYERS = 500  # rows of /players: a league of regulars is tens; more is a flood
MOST_GAMES = 200  # a player's latest games listed on their page (a few nights' worth)
MOST_NIGHTS = 50  # nights in a player's tables by night (a season); the JSON has every one
CHART_POINTS = CHART_W - 2 * PAD + 1  # a point a pixel at most on the rating's line


def href(player: Player) -> str:
    return urls.player(quote(player.id, safe=""))


def shown(rating: Rating) -> str:
    """``112``, or ``112, provisional`` below enough games (the legend says what that is)."""
    return f"{rating.shown}, provisional" if rating.provisional else str(rating.shown)


def rating_cell(rating: Rating) -> Html:
    """A rating in the league's table: the score, and under it "provisional" in small type."""
    return render('{value}<span class="prov">provisional</span>', value=rating.shown
                  ) if rating.provisional else render("{value}", value=rating.shown)


PLAYER_COLUMNS = (
    ("#", "place by rating; =2: level on Rating"),
    ("Player", "as the roster names them"),
    ("Rating", f"a score: newcomers start at {TARGET:g}"),
    ("Won", "games won; a shared win counts"),
    ("Games", "games played, every night"),
)
"""Each column of the league's table, and what it means in a line."""
ABOUT = render("<p class=\"what\">A rating is a score: {target} for a newcomer, higher "
                "for a player the results show to be stronger; provisional: {words}.</p>",
                target=f"{TARGET:g}", words=PROVISIONAL_WORDS)
PROVISIONAL = render("<p class=\"what\">Provisional: {words}; they are listed after the "
                     "others.</p>", words=PROVISIONAL_WORDS)


def players_page(league: League, most: int = MOST_PLAYERS) -> Html:
    """Every player by rating (the provisional after), with games and wins: the ``most``
    first, and how many more /league.csv lists."""
    everyone = league.ranked()
    ranked = everyone[:most]
    places = ranks([(p.rating.provisional, p.rating.shown) for p in ranked])
    rows_ = join((render('<tr><td>{rank}</td><td><a href="{href}">{name}</a></td>'
                         "<td>{rating}</td><td>{wins}</td><td>{games}</td></tr>", rank=rank,
                         href=href(p), name=p.name, rating=rating_cell(p.rating),
                         wins=sum(w for w, _ in p.tally.titles.values()), games=len(p.appearances))
                  for rank, p in zip(places, ranked, strict=True)), NEWLINE)
    table = render('<table><thead><tr><th scope="col">#</th><th scope="col">Player</th>'
                   '<th scope="col">Rating</th><th scope="col">Won</th><th scope="col">Games'
                   "</th></tr></thead><tbody>\n{rows}\n</tbody></table>\n{legend}",
                   rows=rows_, legend=legend(PLAYER_COLUMNS)
                   ) if rows_ else render('<p class="empty">No game yet.</p>')
    if len(everyone) > most:
        table = render('{table}\n<p class="more">The first {most} of {count} players; '
                       '<a href="/league.csv">the CSV</a> lists every one.</p>', table=table,
                       most=most, count=len(everyone))
    return document("Players", render(
        '<main>\n<section id="league"><h2>League, every night</h2>\n{table}\n{provisional}\n'
        '<p class="what">Ratings are openskill\'s Plackett-Luce over each game\'s finishing '
        "order (partners as a team, ties as ties), shown as a score: {target} for a "
        "newcomer, higher for a player the results show to be stronger, and a rating grows "
        "as more games make it sure.</p></section>\n</main>\n<footer>Export: "
        '<a href="/league.csv">CSV</a> · <a href="/league.json">JSON</a> · '
        '<a href="{nights}">Every night</a> · <a href="/">Live page</a></footer>',
        table=table, provisional=PROVISIONAL, target=f"{TARGET:g}", nights=urls.NIGHTS))


def player_page(player: Player, league: League) -> Html:
    games = player.appearances
    return document(player.name, render(
        '<main>\n<section id="rating"><h2>Rating: {rating}</h2>\n{chart}\n{by_game}\n{about}'
        "</section>\n"
        '<section id="nights"><h2>By night</h2>\n{by_night}</section>\n'
        '<section id="luck"><h2>Dalmatian: luck and decisions</h2>\n{luck}</section>\n'
        '<section id="dice"><h2>Dice seen</h2>\n{dice}</section>\n'
        '<section id="games"><h2>Games ({count})</h2>\n<ol reversed>\n{items}\n</ol>{more}'
        "</section>"
        "\n</main>\n<footer>{names}Export: <a href=\"{json}\">JSON</a> · "
        '<a href="{players}">Players</a> · <a href="/">Live page</a></footer>',
        rating=shown(player.rating), chart=rating_chart(player.tally.shown),
        by_game=by_game(player), about=ABOUT,
        by_night=by_night(player), luck=luck(player), dice=dice(*league.dice.of(player)),
        count=len(games),
        items=join((game_item(a) for a in games[:-MOST_GAMES - 1:-1]), NEWLINE),
        more=render('<p class="more">The latest {most}; <a href="{json}">the JSON</a> lists '
                    "every one.</p>", most=MOST_GAMES, json=href(player) + ".json")
        if len(games) > MOST_GAMES else EMPTY,
        names=written(player), json=href(player) + ".json", players=urls.PLAYERS))


def written(player: Player) -> Html:
    names = [n for n in player.tally.names if n != player.name]
    return render("Tables also wrote: {names}. ", names=", ".join(names)) if names else render(
        "")


def by_game(player: Player) -> Html:
    """Games, wins and the rating of each game the player played."""
    rows_ = join((render("<tr><td>{game}</td><td>{wins}</td><td>{games}</td>"
                         "<td>{rating}</td></tr>", game=title, wins=wins, games=games,
                         rating=shown(player.by_game.get(title, Rating())))
                  for title, (wins, games) in player.tally.titles.items()), NEWLINE)
    return render('<table class="plain"><thead><tr><th>Game</th><th>Won</th><th>Games</th>'
                  "<th>Rating</th></tr></thead><tbody>\n{rows}\n</tbody></table>", rows=rows_)


def by_night(player: Player) -> Html:
    """Games and wins of each of the latest nights, the latest first (as the league counted
    them: a regular of hundreds of nights has thousands of games)."""
    counted = player.tally.nights
    rows_ = join((render('<tr><td><a href="{href}">{night}</a></td><td>{wins}</td>'
                         "<td>{games}</td></tr>", href=urls.night(night), night=night,
                         wins=counted[night][0], games=counted[night][1])
                  for night in latest_nights(player.appearances)), NEWLINE)
    return render('<table class="plain"><thead><tr><th>Night</th><th>Won</th><th>Games</th>'
                  "</tr></thead><tbody>\n{rows}\n</tbody></table>", rows=rows_)


def latest_nights(games: list[Appearance]) -> list[str]:
    """The nights of ``games``, the latest first: :data:`MOST_NIGHTS` of them at most."""
    nights: dict[str, None] = {}
    for a in reversed(games):
        if a.game.night not in nights and len(nights) == MOST_NIGHTS:
            break
        nights[a.game.night] = None
    return list(nights)


def game_item(a: Appearance) -> Html:
    return render('<li><a class="what" href="{href}">{game} · {table} · {night}</a><br>'
                  "{place} of {players}, {score} points{rating}</li>",
                  href=urls.game(a.game.night, a.game.table, a.game.id), game=a.game.game,
                  table=a.game.name, night=a.game.night, place=ordinal(a.place),
                  players=len(a.game.players), score=a.score,
                  rating=render("; rating {r}", r=shown(a.overall)) if a.overall else "")


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def rating_chart(rated: list[int]) -> Html:
    """The shown rating after each rated game (``rated``), as a line from a newcomer's,
    with the lowest and highest values labelled (SVG: no script, no request)."""
    values = [Rating().shown, *rated]
    if len(values) < 2:
        return render('<p class="empty">No rated game yet.</p>')
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    games_count = len(values) - 1
    if len(values) > CHART_POINTS:  # no more points than the line has pixels
        values = [values[round(i * games_count / (CHART_POINTS - 1))]
                  for i in range(CHART_POINTS)]
    step = (CHART_W - 2 * PAD) / (len(values) - 1)
    points = " ".join(f"{PAD + i * step:.1f},{PAD + (high - v) / span * (CHART_H - 2 * PAD):.1f}"
                      for i, v in enumerate(values))
    return render('<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
                  'role="img" aria-label="rating over {games}: from {first} to {last}, '
                  'lowest {low}, highest {high}"><polyline class="line" points="{points}"/>'
                  '<text x="2" y="{top}">{high}</text><text x="2" y="{bottom}">{low}</text>'
                  '<text x="{right}" y="{bottom}" text-anchor="end">{games}</text>'
                  "</svg>", w=CHART_W, h=CHART_H, games=count(games_count, "game"),
                  first=values[0], last=values[-1], low=low, high=high,
                  points=points, top=PAD - 6, bottom=CHART_H - 6, right=CHART_W - 2)


def my_luck(a: Appearance) -> Luck | None:
    """The player's luck and decisions in a game of Dalmatian (hundredths of a point)."""
    return next((x for x in a.game.luck if x.seat == a.seat), None)


def luck(player: Player) -> Html:
    found, summed_luck, summed_decisions = player.tally.luck
    if not found:
        return render('<p class="empty">No game of Dalmatian yet.</p>')
    total = render("<p>In all {games}: {line}</p>", games=count(found, "game"), line=words(
        summed_luck, summed_decisions))
    nights: dict[str, list[int]] = {}  # the latest first: luck, decisions
    for a in reversed(player.appearances):
        x = my_luck(a)
        if x is None:
            continue
        luck_, decisions = x.luck, x.decisions
        if a.game.night not in nights and len(nights) == MOST_NIGHTS:
            break
        summed = nights.setdefault(a.game.night, [0, 0])
        summed[0] += luck_
        summed[1] += decisions
    per_night = join((render("<li>{night}: {line}</li>", night=night, line=words(*summed))
                      for night, summed in nights.items()), NEWLINE)
    return render('{total}\n<ul>\n{nights}\n</ul>\n<p class="what">Luck is the score less '
                  "what the choices were worth on average; decisions, the expected points "
                  "the choices gave away against the best ones.</p>", total=total,
                  nights=per_night)


def words(luck_: int, decisions: int) -> str:
    """``+3.14 luck, -0.42 decisions`` from hundredths, as the game's page says it."""
    return f"{points(luck_ / 100)} luck, {points(-decisions / 100)} decisions"


def dice(faces: Counter[int], totals: dict[int, Counter[int]]) -> Html:
    """A player's dice: the faces as a histogram, and the fairness tests' words."""
    if not faces:
        return render('<p class="empty">No throw was sent with these games.</p>')
    return dice_report(judge_page({"": (faces, totals)})[""])


def player_json(player: Player, league: League) -> dict[str, Any]:
    """A player's record for ``/players/ID.json``."""
    return {
        "id": player.id, "name": player.name,
        "rating": rating_json(player.rating),
        "by_game": {title: rating_json(r) for title, r in player.by_game.items()},
        "games": [{
            "night": a.game.night, "table": a.game.table, "id": a.game.id,
            "game": a.game.game, "ended": a.game.ended, "name": a.name, "place": a.place,
            "players": len(a.game.players), "score": a.score,
            "rating": None if a.overall is None else rating_json(a.overall),
            **hundredths(my_luck(a)),
        } for a in player.appearances],
        "dice": dict(sorted(league.dice.of(player)[0].items())),
    }


def hundredths(luck_: Luck | None) -> dict[str, float | None]:
    if luck_ is None:
        return {"luck": None, "decisions": None}
    return {"luck": luck_.luck / 100, "decisions": luck_.decisions / 100}


def rating_json(rating: Rating) -> dict[str, Any]:
    return {"shown": rating.shown, "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3), "games": rating.games,
            "provisional": rating.provisional}


def league_json(league: League) -> dict[str, Any]:
    """The league for ``/league.json``: every player ranked, with their games."""
    return {"players": [player_json(p, league) for p in league.ranked()],
            "unrated": [{"night": k[0], "table": k[1], "id": k[2], "why": why}
                        for k, why in league.unrated.items()]}


LEAGUE_COLUMNS = (*COLUMNS, "player_id", "rating_after", "provisional")


def league_csv(league: League) -> str:
    """One row per player per game, every night, in the order the games ended: the night's
    CSV columns, then the player's id and rating after the game."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEAGUE_COLUMNS)
    seated = {(key(a.game), a.seat): (p.id, a.overall) for p in league.players.values()
              for a in p.appearances}
    for game in league.games:
        for row, player in zip(rows(game), game.players, strict=True):
            player_id, after = seated[(key(game), player.seat)]
            writer.writerow([*row, player_id, "" if after is None else str(after.shown),
                             "" if after is None else str(after.provisional).lower()])
    return out.getvalue()
