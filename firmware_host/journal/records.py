"""What makes a journal row trustworthy: decoded values and one hash chain per game.

A game's row carries a hash of its number, setup and start time. Each action's hash covers
the hash before it (the game's, for action 1), its number, its text and its time, so a value
that changed on disk, or an action lost or moved, breaks the chain at the first bad action.
A finished game's seal covers its last action's hash, its end and its results. Checking a
game reads its rows and replays nothing, so an export can check a year of nights quickly;
resume replays the unfinished game through the rules as well.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from hashlib import blake2b
from typing import Any


def _digest(text: str) -> str:
    return blake2b(text.encode(), digest_size=16).hexdigest()


def game_hash(game_id: int, setup: str, started_at: str) -> str:
    return _digest(f"game\x1f{game_id}\x1f{setup}\x1f{started_at}")


def action_hash(before: str, seq: int, action: str, at: str) -> str:
    """Called once per action at resume: one string, one digest."""
    return _digest(f"{before}\x1f{seq}\x1f{action}\x1f{at}")


def seal_hash(last: str, ended_at: str, results: Sequence[tuple[int, int, int]]) -> str:
    """Over the last action's hash, the end, and (seat, score, place) in seat order."""
    rows = "\x1f".join(f"{s}:{p}:{q}" for s, p, q in sorted(results))
    return _digest(f"{last}\x1f{ended_at}\x1f{rows}")


class Damaged(Exception):
    """A game's record cannot be trusted; the message says where (see :class:`Problem`)."""

    def __init__(self, text: str, seq: int | None = None) -> None:
        super().__init__(text)
        self.seq = seq


@dataclass(frozen=True)
class Problem:
    """One damaged game (or the file itself, with no game number): one line for a person."""

    game_id: int | None
    text: str
    lost: int = 0  # actions that could not be read back (the game itself is kept)

    def __str__(self) -> str:
        return self.text if self.game_id is None else f"game #{self.game_id}: {self.text}"


@dataclass(frozen=True)
class GameRow:
    """A game's row, decoded and checked: what the export and resume may rely on."""

    id: int
    setup: dict[str, Any]
    started: datetime
    started_at: str
    ended: datetime | None
    ended_at: str | None
    outcome: str | None
    hash: str | None

    @property
    def names(self) -> list[str]:
        names: list[str] = self.setup["names"]
        return names


def decode_game(row: Sequence[Any]) -> GameRow:
    """``(id, setup, started_at, ended_at, outcome, hash)`` as a GameRow, or Damaged."""
    game_id, setup_text, started_at, ended_at, outcome, stored = row
    try:
        setup = json.loads(setup_text)
    except (TypeError, ValueError):
        raise Damaged("its setup is not readable (bad JSON)") from None
    if not (isinstance(setup, dict) and isinstance(setup.get("game"), str)
            and isinstance(setup.get("options"), dict) and _good_names(setup.get("names"))):
        raise Damaged("its setup lacks the game, the options or distinct player names")
    started = _moment(started_at, "start")
    ended = None if ended_at is None else _moment(ended_at, "end")
    if stored is not None and stored != game_hash(game_id, setup_text, started_at):
        raise Damaged("its setup or start time changed on disk (hash mismatch)")
    return GameRow(game_id, setup, started, started_at, ended, ended_at, outcome, stored)


def check_chain(game: GameRow, rows: Sequence[Sequence[Any]]) -> str | None:
    """The last hash of ``(seq, action, at, hash)`` rows in order, or Damaged naming the
    first bad action. Rows of a journal written before hashes (None) are taken as they are."""
    last = game.hash
    for expected, (seq, action, at, stored) in enumerate(rows, start=1):
        if seq != expected:
            raise Damaged(f"action {expected} is missing", expected)
        if not isinstance(action, str) or not isinstance(at, str):
            raise Damaged(f"action {seq} is not readable", seq)
        if last is not None and stored != action_hash(last, seq, action, at):
            raise Damaged(f"action {seq} ({action!r}) changed on disk (hash mismatch)", seq)
        last = stored
    return last


def check_results(game: GameRow, last: str | None, results: Sequence[Sequence[Any]],
                  seal: str | None) -> list[tuple[int, int, int]]:
    """A finished game's ``(seat, score, place)`` rows, checked against its players and seal."""
    if game.ended_at is None:
        raise Damaged("it is marked finished but has no end time")
    count = len(game.names)
    rows = [tuple(row) for row in results]
    seats = [row[0] for row in rows]
    if seats != list(range(count)):
        raise Damaged(f"its results name seats {seats}, not one per player of {count}")
    for seat, score, place in rows:
        if not (isinstance(score, int) and isinstance(place, int) and 1 <= place <= count):
            raise Damaged(f"the result of seat {seat} is not readable")
    checked = [(int(s), int(p), int(q)) for s, p, q in rows]
    if last is not None and seal != seal_hash(last, game.ended_at, checked):
        raise Damaged("its results or end time changed on disk (seal mismatch)")
    return checked


def _good_names(names: object) -> bool:
    return (isinstance(names, list) and bool(names) and len(set(names)) == len(names)
            and all(isinstance(name, str) and name for name in names))


def _moment(text: object, what: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise Damaged(f"its {what} time {text!r} is not a date and time with its offset")
    return moment
