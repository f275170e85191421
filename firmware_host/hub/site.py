"""What each address of the hub's pages answers (apart from today's page and its stream,
which the server renders and sends itself): exports, the night list and every night.

Each answer is built from the store when asked for; an address that names no night or game
the hub holds is not found. Dates and ids in a path are matched whole by :mod:`urls`'
patterns before anything is looked up. The league's pages, every night's dice and a QR
code's short address read every night the first time (seconds on a Pi Zero 2 W):
:meth:`Site.heavy` names them, and the server builds them away from its event loop.
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import unquote

from firmware_host.hub import league_pages, page, urls
from firmware_host.hub.league.finished import FinishedGame
from firmware_host.hub.league.league import (
    Dice,
    Key,
    League,
    Rated,
    extended,
    key,
    order,
    rated_from_json,
    rated_json,
)
from firmware_host.hub.league.roster import Roster
from firmware_host.hub.store import Night, Store
from firmware_host.night import topics

JSON = "application/json"
CSV = "text/csv; charset=utf-8"
HTML = "text/html; charset=utf-8"
NEVER = 2**30  # a collector's threshold never reached


@dataclass(frozen=True)
class Reply:
    data: bytes
    kind: str
    extra: dict[str, str] = field(default_factory=dict)
    status: HTTPStatus = HTTPStatus.OK


def see_other(path: str) -> Reply:
    return Reply(b"", "text/plain", {"Location": path}, HTTPStatus.SEE_OTHER)


def download(data: str, kind: str, filename: str) -> Reply:
    return Reply(data.encode(), kind,
                 {"Content-Disposition": f'attachment; filename="{filename}"'})


@dataclass(frozen=True)
class Read:
    """A night's games as the league reads them (without their throws), the dice counted
    from those, and the store's count of the night's changes when they were read."""

    changes: int
    games: list[FinishedGame]
    dice: Dice


class Site:
    """The hub's addresses over ``store``; ``night`` is today's night as the page shows it
    (with the hub's trouble), ``rejected`` the count of messages refused and ``refused``
    those past a table's share, by table and kind (:mod:`~firmware_host.hub.league.shares`)."""

    def __init__(self, store: Store, night: Callable[[], Night],
                 rejected: Callable[[], int],
                 refused: Callable[[], dict[str, dict[str, int]]] = dict) -> None:
        self.store = store
        self.night = night
        self.rejected = rejected
        self.refused = refused  # the part of rejected past a table's share, by table
        self._league = League(Roster())
        self._league_version = -1
        self._older: dict[str, Read] = {}  # the older nights as the league last read them
        self._reading = threading.Lock()  # of the two above: read and rated once at a time
        self._players_page = (-1, b"")  # /players as last rendered, and of which version
        # the ratings the store keeps: for which roster, each game's place in the order
        self._ratings_kept: tuple[str, dict[Key, int]] = ("", {})

    def league(self) -> League:
        """Every night's games by player, with ratings, and every night's dice: games that
        ended since last time are rated on, a game that ended before others (or one removed)
        rates on from its place, and a change of the roster rates all again, taking the
        closed nights' ratings the store kept for that roster. Only the latest night is read
        again, and an older one that changed since."""
        with self._reading:
            version = self.store.version
            if version != self._league_version:
                roster = self.store.roster
                fingerprint = roster_fingerprint(roster)
                anew = self._league_version < 0 or roster != self._league.roster  # rare
                with uncollected() if anew else contextlib.nullcontext():
                    nights = self._nights()
                    self._league = extended(
                        self._league, [g for n in nights for g in n.games], roster,
                        lambda: self._kept_ratings(fingerprint))
                self._league.dice = Dice.total(n.dice for n in nights)
                self._league_version = version
                self._keep_ratings(fingerprint)
            return self._league

    def _kept_ratings(self, fingerprint: str) -> dict[Key, tuple[int, Rated]]:
        kept = {}
        for game, (place, text) in self.store.kept_ratings(fingerprint).items():
            with contextlib.suppress(ValueError, TypeError, KeyError):
                kept[game] = (place, rated_from_json(text))
        self._ratings_kept = (fingerprint, {game: place for game, (place, _) in kept.items()})
        return kept

    def _keep_ratings(self, fingerprint: str) -> None:
        """The ratings of the closed nights' games not kept yet (or kept at another place
        in the order), for the store to keep."""
        was, places = self._ratings_kept
        if was != fingerprint:
            places = {}
        first_open = self.store.first_open()
        new = {key(g): place for place, g in enumerate(self._league.games)
               if g.night < first_open and places.get(key(g)) != place}
        if new:
            rated = self._league.rated_after(new)
            self.store.keep_ratings(fingerprint, [(k, place, rated_json(rated[k]))
                                                  for k, place in new.items()])
            places.update(new)
        self._ratings_kept = (fingerprint, places)

    def _nights(self) -> list[Read]:
        """Every night's games as the league reads them: the latest read again, an older
        night only when its games changed since it was last read."""
        latest, older = self.store.older_nights()
        self._older = {night: self._older[night] if night in self._older
                       and self._older[night].changes == changes
                       else self._read(night, changes)
                       for night, changes in older.items()}
        return [*self._older.values(), self._read(latest, 0)]

    def _read(self, night: str, changes: int) -> Read:
        """A night's games and dice: a closed night's as the store keeps them, if it does
        (no throw read or counted again), else read from its games and then kept."""
        kept = self.store.closed_night(night)
        if kept is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
                return Read(changes, kept[0], Dice.from_json(json.loads(kept[1])))
        thrown: list[tuple[FinishedGame, list[str]]] = []
        games = self.store.counted_games_of(night, lambda *game: thrown.append(game))
        dice = Dice()
        dice.count(thrown)
        read = Read(changes, games, dice)
        if night != self.store.latest:
            self.store.keep_closed(night, read.games, json.dumps(dice.as_json()).encode())
        return read

    def heavy(self, path: str) -> bool:
        """Whether ``path``'s answer may read more than tonight's games: every night (the
        first time after the hub starts, or after an older night changed), the night
        list, or an older night's games (thousands, should a table have sent them)."""
        night = urls.NIGHT_PATH.fullmatch(path) or urls.NIGHT_DICE_PATH.fullmatch(path)
        if night is not None:
            return night[1] != self.store.latest
        return (path in (urls.DICE, urls.PLAYERS, urls.LEAGUE_JSON, urls.LEAGUE_CSV,
                         urls.NIGHTS)
                or path.startswith(urls.PLAYERS + "/")
                or urls.SHORT_PATH.fullmatch(path) is not None)

    def get(self, path: str) -> Reply | None:
        """The answer to a GET of ``path``, or None if there is nothing there."""
        if path == "/night.json":
            return Reply(_json({**page.as_json(self.night(), self.rejected()),
                                "refused": self.refused()}), JSON)
        if path == "/night.csv":
            return download(page.as_csv(self.night()), CSV, "night.csv")
        if path == urls.NIGHTS:
            return Reply(page.nights_page(self.store.nights()).encode(), HTML)
        if match := urls.NIGHT_PATH.fullmatch(path):
            return self._night(match[1], match[2] or "")
        if match := urls.GAME_PATH.fullmatch(path):
            game = self.store.game(match[1], match[2], int(match[3]))
            return None if game is None else Reply(page.game_page(game).encode(), HTML)
        if urls.SHORT_PATH.fullmatch(path):
            return self._short(path)
        if match := urls.NIGHT_DICE_PATH.fullmatch(path):
            night = self.store.night(match[1])
            return None if not night.games else Reply(page.dice_page(
                "Dice of " + night.night, Dice.counted(night.games).tables).encode(), HTML)
        if path == urls.DICE:
            return Reply(page.dice_page("Dice of every night", self.league().dice.tables)
                         .encode(), HTML)
        if path == urls.PLAYERS:
            return Reply(self._players(), HTML)
        if path == urls.LEAGUE_JSON:
            return Reply(_json(league_pages.league_json(self.league())), JSON)
        if path == urls.LEAGUE_CSV:
            return download(league_pages.league_csv(self.league()), CSV, "league.csv")
        if path.startswith(urls.PLAYERS + "/"):
            return self._player(unquote(path.removeprefix(urls.PLAYERS + "/")))
        return None

    def _players(self) -> bytes:
        """The league's page, rendered once for each version of the league (every visitor
        until a game or the roster changes it gets the same bytes)."""
        self.league()
        with self._reading:  # one build at a time, of the league as of its version
            if self._players_page[0] != self._league_version:
                self._players_page = (self._league_version,
                                      league_pages.players_page(self._league).encode())
            return self._players_page[1]

    def _player(self, rest: str) -> Reply | None:
        """A player's page, or with ``.json`` their record, by id (one the league does not
        hold is not found: the path is only ever a key)."""
        league = self.league()
        player = league.players.get(rest.removesuffix(".json"))
        if player is None:
            return None
        if rest.endswith(".json"):
            return Reply(_json(league_pages.player_json(player, league)), JSON)
        return Reply(league_pages.player_page(player, league).encode(), HTML)

    def _short(self, path: str) -> Reply | None:
        """The game a table's QR code names, by its short address: the latest to end, should
        a table's journal have started its numbers again. Looked up in the nights as the
        league reads them, so a scan reads no older night from the file again."""
        with self._reading:
            nights = self._nights()
        found = [game for night in nights for game in night.games
                 if topics.short_path(game.table, game.id) == path]
        if not found:
            return None
        game = max(found, key=order)
        return see_other(urls.game(game.night, game.table, game.id))

    def _night(self, date: str, kind: str) -> Reply | None:
        night = self.store.night(date)
        if not night.games:
            return None
        if kind == ".json":
            return Reply(_json(page.as_json(night, self.rejected())), JSON)
        if kind == ".csv":
            return download(page.as_csv(night), CSV, f"night-{date}.csv")
        latest = date == self.store.latest
        return Reply(page.night_page(night, latest).encode(), HTML)


@contextlib.contextmanager
def uncollected() -> Iterator[None]:
    """No full collection of Python's cycle collector while a league is built from
    scratch, and what the hub then holds moved out of its sight (:func:`gc.freeze`): a full
    collection walks every object with the interpreter locked, so each one the build set
    off held ``/`` (82 ms at 50 nights, more with every night), and every one after it
    walked the league again. The young generations are still collected (the ratings'
    library leaves cycles behind, 16 objects a game); the league holds no cycle: its old
    games and ratings go by their counts. Only the first build after a start and a
    roster's change come here, so what else is frozen with the league stays small."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], NEVER)
    try:
        yield
    finally:
        gc.freeze()
        gc.set_threshold(*thresholds)


def roster_fingerprint(roster: Roster) -> str:
    """What of ``roster`` the ratings depend on (who is whom), as one text."""
    return json.dumps([[[p.id, p.name, list(p.aliases)] for p in roster.people],
                       sorted(roster.claims.items())])


def _json(value: object) -> bytes:
    return json.dumps(value, indent=1).encode()
