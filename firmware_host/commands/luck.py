"""``table-companion luck``: how much of each Dalmatian score was the dice, and how much the
choices, for the latest night (``--night DATE``, ``--all``) of a journal.

    Dalmatian #3, 2026-11-22 20:01
      Ann: +3.14 luck, -0.42 decisions (scored 31; best play averages 28.28)

Luck is the score less what the player's choices were worth on average; decisions are the
expected points those choices gave away against the best ones
(:mod:`games.dalmatian_luck`). A night's totals per player follow the games.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

from firmware_host.commands import Subparsers, add_command, add_journal_options, journal_to_read
from firmware_host.commands.export import add_night_options, of_night, read_games
from firmware_host.journal import PlayedGame
from games.dalmatian import Dalmatian
from games.dalmatian_luck import PlayerLuck, by_player, line, turns
from games.errors import GameError


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "luck", description=(
        "For each finished Dalmatian game of the latest night (or --night DATE, --all): each "
        "player's luck (score less what their choices were worth on average) and the "
        "expected points their decisions gave away, from the advisor's exact values."))
    add_journal_options(parser, "the journal file")
    add_night_options(parser)
    parser.add_argument("--json", action="store_true",
                        help="print every turn's numbers as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    path = journal_to_read(args)
    reading = read_games(path, "luck", replay={Dalmatian.NAME})
    for problem in reading.problems + reading.earlier:
        print(f"table-companion luck: {path}: {problem}", file=sys.stderr)
    games = [g for g in of_night(reading.games, args, path) if g.id in reading.actions]
    reports = []
    for game in games:
        try:
            reports.append((game, report(game, reading.actions[game.id])))
        except GameError as err:  # the journal's hashes hold, so the rules changed since
            print(f"table-companion luck: {path}: game #{game.id} cannot be replayed "
                  f"({err}); left out", file=sys.stderr)
    if args.json:
        json.dump([as_json(game, players) for game, players in reports], sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(as_text(reports))
    return 1 if reading.problems else 0


def report(game: PlayedGame, actions: list[str]) -> list[PlayerLuck]:
    names = [player.name for player in sorted(game.players, key=lambda p: p.seat)]
    setup = Dalmatian.make_setup(None, names, game.options)
    return by_player(setup, turns(setup, actions))


def as_text(reports: list[tuple[PlayedGame, list[PlayerLuck]]]) -> str:
    if not reports:
        return "No finished Dalmatian game on that night.\n"
    lines = []
    night: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for game, players in reports:
        lines.append(f"Dalmatian #{game.id}, {game.started:%Y-%m-%d %H:%M}")
        kept = {result.seat: result.score for result in game.players}
        for player in players:
            lines.append(f"  {player} ({scored(player.scored, kept[player.player])}; "
                         f"best play averages {player.optimal:.2f})")
            night[player.name][0] += player.luck
            night[player.name][1] += player.decisions
    lines.append("All these games:")
    for name, (luck, decisions) in sorted(night.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"  {line(name, luck, decisions)}")
    return "\n".join(lines) + "\n"


def scored(dice: int, game: int) -> str:
    """The score luck explains, the dice's: with "Best score only" the game keeps only
    each round's best, so its score can be less, and both are named."""
    if dice == game:
        return f"scored {dice}"
    return f"the dice scored {dice}, the game kept {game}: a round's best score only"


def as_json(game: PlayedGame, players: list[PlayerLuck]) -> dict[str, Any]:
    return {
        "id": game.id,
        "night": str(game.night),
        "started": game.started.isoformat(),
        "players": [{
            "seat": player.player,
            "name": player.name,
            "scored": player.scored,
            "optimal": player.optimal,
            "decisions": player.decisions,
            "luck": player.luck,
            "turns": [{"round": t.round, "total": t.total, "optimal": t.optimal,
                       "chosen": t.chosen, "scored": t.scored, "decisions": t.decisions,
                       "luck": t.luck} for t in player.turns],
        } for player in players],
    }
