"""The league: every finished game of every night, by player, with ratings.

Built from the hub's games in the order they ended, through the roster (a player is an
id, whatever the tables called them). It holds no game twice: :meth:`League.add` takes the
next game to have ended; a game that arrives out of order (or one removed) takes the league
back to just before it (:meth:`League.rewind`) and rates on from there, and a change of the
roster rates all from scratch (:func:`build`), so its ratings always equal a computation
from scratch over the same games.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import repeat
from typing import Any, Generic, TypeVar

from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.league.ratings import Rating, Side, rate
from firmware_host.hub.league.roster import Roster
from games import game_class
from games.errors import UnknownGameError

Key = tuple[str, str, int]  # a game's night, table id and game id
Rated = tuple[dict[str, Rating], dict[str, Rating]]  # after a game: overall, in its game
K = TypeVar("K")


def key(game: FinishedGame) -> Key:
    return (game.night, game.table, game.id)


def order(game: FinishedGame) -> tuple[object, ...]:
    """When a game ended (its key after, for games that ended in the same instant)."""
    return (datetime.fromisoformat(game.ended), key(game))


@dataclass(frozen=True)
class Appearance:
    """One player's part in one finished game, with their ratings after it (None when the
    game was not rated: a player listed twice in it)."""

    game: FinishedGame
    seat: int
    name: str  # as the table wrote it
    place: int
    score: int
    overall: Rating | None
    in_game: Rating | None

    @property
    def won(self) -> bool:
        return self.place == 1


@dataclass
class Tally:
    """What a player's page sums over all their games, kept as each game is added: a
    regular of hundreds of nights has thousands of games, and their page should cost what
    it shows, not a pass over every game."""

    names: dict[str, None] = field(default_factory=dict)  # every name written, first first
    titles: dict[str, list[int]] = field(default_factory=dict)  # a game's title: wins, games
    nights: dict[str, list[int]] = field(default_factory=dict)  # a night: wins, games
    shown: list[int] = field(default_factory=list)  # the shown rating after each rated game
    luck: list[int] = field(default_factory=lambda: [0, 0, 0])  # games, luck, decisions

    def add(self, a: Appearance) -> None:
        self.names[a.name] = None
        for counted in (self.titles.setdefault(a.game.game, [0, 0]),
                        self.nights.setdefault(a.game.night, [0, 0])):
            counted[0] += a.won
            counted[1] += 1
        if a.overall is not None:
            self.shown.append(a.overall.shown)
        mine = next((x for x in a.game.luck if x.seat == a.seat), None)
        if mine is not None:
            self.luck[0] += 1
            self.luck[1] += mine.luck
            self.luck[2] += mine.decisions

    @classmethod
    def of(cls, appearances: Iterable[Appearance]) -> Tally:
        tally = cls()
        for a in appearances:
            tally.add(a)
        return tally


@dataclass
class Player:
    """A player's games (kept without their throws: see :class:`Dice`) and ratings."""

    id: str
    name: str  # as the pages show it
    appearances: list[Appearance] = field(default_factory=list)
    rating: Rating = field(default_factory=Rating)
    by_game: dict[str, Rating] = field(default_factory=dict)  # a game's title: its rating
    tally: Tally = field(default_factory=Tally)  # sums over appearances, kept with them

    def appear(self, a: Appearance) -> None:
        self.appearances.append(a)
        self.tally.add(a)


def lean(game: FinishedGame) -> FinishedGame:
    """``game`` without its throws (hundreds a game: kept for every game of every night,
    they would be most of what the hub holds; :class:`Dice` counts them instead)."""
    return replace(game, throws=()) if game.throws else game


def _sized(dice: str) -> tuple[int, int]:
    """How many dice a throw's text (``1-2-3``: one digit a die) holds, and their total."""
    return (len(dice) + 1) // 2, sum(map(int, dice[::2]))


@dataclass
class Counts(Generic[K]):
    """The dice thrown under each key: every face, and the totals of each number of dice
    thrown at once."""

    faces: dict[K, Counter[int]] = field(default_factory=dict)
    totals: dict[K, dict[int, Counter[int]]] = field(default_factory=dict)

    def add(self, key: K, dice: tuple[int, ...]) -> None:
        self.add_all(key, [dice])

    def add_all(self, key: K, throws: Iterable[tuple[int, ...]]) -> None:
        """Every throw of ``throws`` under ``key``."""
        self.add_texts(key, ["-".join(map(str, dice)) for dice in throws])

    def add_texts(self, key: K, throws: list[str]) -> None:
        """Every throw of ``throws`` (their dice as the wire writes them, ``1-2-3``) under
        ``key``: counted in a few bulk updates (a league's first page counts hundreds of
        thousands of throws), faces and sizes in the order they first appear."""
        faces = Counter("".join(throws))
        faces.pop("-", None)
        sums: defaultdict[int, Counter[int]] = defaultdict(Counter)
        for text, times in Counter(throws).items():  # in the order each first appears
            size, total = _sized(text)
            sums[size][total] += times
        self.faces.setdefault(key, Counter()).update({int(f): n for f, n in faces.items()})
        totals = self.totals.setdefault(key, {})
        for size, counted in sums.items():
            totals.setdefault(size, Counter()).update(counted)

    def update(self, other: Counts[K]) -> None:
        """Add ``other``'s counts to these."""
        for key, faces in other.faces.items():
            self.faces.setdefault(key, Counter()).update(faces)
        for key, sizes in other.totals.items():
            for size, counted in sizes.items():
                self.totals.setdefault(key, {}).setdefault(size, Counter()).update(counted)


@dataclass
class Dice:
    """The dice of games, counted twice: by each name a table wrote (a player's page), and
    by table name and source of dice (the fairness page: a loaded die typed in must not hide
    behind a fair roller). :meth:`take` counts a game's throws and gives it back lean, as the
    games are read, so a whole league's throws are never held at once."""

    players: Counts[str] = field(default_factory=Counts)
    tables: Counts[tuple[str, str]] = field(default_factory=Counts)

    def take(self, game: FinishedGame) -> FinishedGame:
        if not game.throws:
            return game
        self.count([(game, [str(throw) for throw in game.throws])])
        return lean(game)

    def count(self, games: Iterable[tuple[FinishedGame, list[str]]]) -> None:
        """Count games' throws given as their texts (``0:button:1-2-3``), as the store reads
        them from its file without a record for each: grouped first, so that each name and
        each table's source is counted in one bulk update for all of ``games``."""
        by_name: defaultdict[str, list[str]] = defaultdict(list)
        by_source: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
        for game, throws in games:
            names = {text: p.name for p in game.players  # a seat may be written 05
                     for text in (str(p.seat), f"{p.seat:02d}")}
            for seat, source, dice in map(str.split, throws, repeat(":")):
                by_name[names[seat]].append(dice)
                by_source[game.name, source].append(dice)
        for name, texts in by_name.items():
            self.players.add_texts(name, texts)
        for table_source, texts in by_source.items():
            self.tables.add_texts(table_source, texts)

    @classmethod
    def counted(cls, games: Iterable[FinishedGame]) -> Dice:
        """The dice of ``games`` (one night's, say)."""
        dice = cls()
        for game in games:
            dice.take(game)
        return dice

    @classmethod
    def total(cls, parts: Iterable[Dice]) -> Dice:
        """The counts of ``parts`` together (each night's, say)."""
        total = cls()
        for part in parts:
            total.players.update(part.players)
            total.tables.update(part.tables)
        return total

    def as_json(self) -> dict[str, Any]:
        """The counts as JSON (the hub keeps a closed night's so)."""
        def counts(of: Counts[Any], key: Callable[[Any], str]) -> dict[str, Any]:
            return {key(k): [dict(faces), {size: dict(c) for size, c in
                                           of.totals.get(k, {}).items()}]
                    for k, faces in of.faces.items()}
        return {"players": counts(self.players, str),
                "tables": counts(self.tables, lambda k: json.dumps(list(k)))}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dice:
        """The counts :meth:`as_json` wrote; ValueError, TypeError or KeyError if ``data``
        is not that."""
        dice = cls()

        def fill(of: Counts[Any], kept: dict[str, Any], key: Callable[[str], Any]) -> None:
            for text, (faces, totals) in kept.items():
                k = key(text)
                of.faces[k] = Counter({int(f): int(n) for f, n in faces.items()})
                of.totals[k] = {int(size): Counter({int(t): int(n) for t, n in c.items()})
                                for size, c in totals.items()}

        fill(dice.players, data["players"], str)
        fill(dice.tables, data["tables"], lambda text: tuple(map(str, json.loads(text))))
        return dice

    def of(self, player: Player) -> tuple[Counter[int], dict[int, Counter[int]]]:
        """The faces and totals of every name the player was written as."""
        faces: Counter[int] = Counter()
        totals: dict[int, Counter[int]] = {}
        for name in player.tally.names:
            faces.update(self.players.faces.get(name, {}))
            for size, counted in self.players.totals.get(name, {}).items():
                totals.setdefault(size, Counter()).update(counted)
        return faces, totals


@dataclass
class League:
    roster: Roster
    players: dict[str, Player] = field(default_factory=dict)
    games: list[FinishedGame] = field(default_factory=list)  # in the order they ended, lean
    dice: Dice = field(default_factory=Dice)
    unrated: dict[Key, str] = field(default_factory=dict)  # a game not rated: why

    def add(self, game: FinishedGame, known: Rated | None = None) -> None:
        """Rate ``game``, which ended after every game the league holds (or take its
        ratings as ``known``: as they were rated before, after the same games)."""
        if self.games and order(game) <= order(self.games[-1]):
            raise ValueError(f"game {key(game)} ended before the league's last; rebuild")
        ids = [self.roster.id_of(p.name, p.id) for p in game.players]
        names = self.roster.shown_as(p.name for p in game.players)
        for player_id, player in zip(ids, game.players, strict=True):
            person = self.roster.person(player_id)
            self.players.setdefault(player_id, Player(player_id, "")).name = \
                person.name if person is not None else names[player.name]
        game = lean(game)
        self.games.append(game)
        overall: dict[str, Rating] = {}
        in_game: dict[str, Rating] = {}
        if len(set(ids)) != len(ids):
            self.unrated[key(game)] = "a player is named twice in it"
        elif known is not None:
            overall, in_game = known
        elif len(ids) > 1:
            sides = self._sides(game, ids)
            overall = rate({i: self.players[i].rating for i in ids}, sides)
            in_game = rate({i: self.players[i].by_game.get(game.game, Rating()) for i in ids},
                           sides)
        for player_id, player in zip(ids, game.players, strict=True):
            seen = self.players[player_id]
            if player_id in overall:
                seen.rating = overall[player_id]
                seen.by_game[game.game] = in_game[player_id]
            seen.appear(Appearance(game, player.seat, player.name, player.place, player.score,
                                   overall.get(player_id), in_game.get(player_id)))

    def rewind(self, count: int) -> None:
        """Back to the league of its first ``count`` games, as if the others had never been
        added: a game that ended before some the league holds is rated from its place on,
        not from the start."""
        gone = {key(g) for g in self.games[count:]}
        del self.games[count:]
        for k in gone:
            self.unrated.pop(k, None)
        for player_id, player in list(self.players.items()):
            kept = player.appearances
            if not kept or key(kept[-1].game) not in gone:
                continue
            while kept and key(kept[-1].game) in gone:
                kept.pop()
            if not kept:
                del self.players[player_id]
                continue
            player.tally = Tally.of(kept)
            rated = [a for a in kept if a.overall is not None]
            player.rating = rated[-1].overall if rated and rated[-1].overall else Rating()
            player.by_game = {a.game.game: a.in_game for a in rated if a.in_game is not None}

    def rated_after(self, games: Iterable[Key]) -> dict[Key, Rated]:
        """Each of ``games``' ratings after it, as its players' appearances hold them (one
        pass over every appearance: asked for only when a night closes)."""
        found: dict[Key, Rated] = {k: ({}, {}) for k in games}
        for player in self.players.values():
            for a in player.appearances:
                rated = found.get(key(a.game))
                if rated is not None and a.overall is not None and a.in_game is not None:
                    rated[0][player.id] = a.overall
                    rated[1][player.id] = a.in_game
        return found

    def _sides(self, game: FinishedGame, ids: list[str]) -> list[Side]:
        """The game's sides: each player alone, or partners together where the game plays
        in teams (by its rules' ``seat_sides``)."""
        try:
            of_seat = game_class(game.game).seat_sides(len(game.players))
        except UnknownGameError:
            of_seat = ()
        teams: dict[int, list[int]] = {}
        for index, player in enumerate(game.players):
            side = of_seat[player.seat] if player.seat < len(of_seat) else -1 - index
            teams.setdefault(side, []).append(index)
        return [Side(tuple(ids[i] for i in members),
                     min(game.players[i].place for i in members))
                for members in teams.values()]

    def ranked(self) -> list[Player]:
        """Players by their shown rating, the provisional after the others."""
        return sorted(self.players.values(),
                      key=lambda p: (p.rating.provisional, -p.rating.shown, p.name.lower()))


def build(games: Iterable[FinishedGame], roster: Roster,
          known: Mapping[Key, tuple[int, Rated]] | None = None) -> League:
    """The league of ``games`` (any order) named by ``roster``, from scratch; ``known``:
    ratings kept from an earlier build with the same roster (each with its game's place in
    the order), taken for the games from the first on as long as each is at its place (the
    same games before it), rated from the first that is not."""
    league = League(roster)
    kept = known or {}
    for place, game in enumerate(sorted(games, key=order)):
        found = kept.get(key(game))
        if found is not None and found[0] != place:
            kept, found = {}, None
        league.add(game, found[1] if found else None)
        if found is None:
            kept = {}
    return league


def rated_json(rated: Rated) -> str:
    """A game's ratings after it, as the hub keeps them."""
    return json.dumps([{i: [r.mu, r.sigma, r.games] for i, r in part.items()}
                       for part in rated])


def rated_from_json(text: str) -> Rated:
    """What :func:`rated_json` wrote; ValueError, TypeError or KeyError if not that."""
    overall, in_game = (
        {str(i): Rating(float(mu), float(sigma), int(games)) for i, (mu, sigma, games)
         in part.items()} for part in json.loads(text))
    return overall, in_game


def extended(league: League, games: list[FinishedGame], roster: Roster,
             known: Callable[[], Mapping[Key, tuple[int, Rated]]] | None = None) -> League:
    """The league of ``games``: ``league`` rated on from the first game where the two
    differ (one that ended before others, or was removed), if the roster is the same; else
    from scratch, with the ratings ``known()`` kept (:func:`build`)."""
    ordered = sorted(games, key=order)
    if roster != league.roster or not league.games:
        return build(ordered, roster, known() if known else None)
    same = 0
    for held, game in zip(league.games, ordered, strict=False):
        if held != lean(game):
            break
        same += 1
    if same < len(league.games):
        league.rewind(same)
    for game in ordered[same:]:
        league.add(game)
    return league
