"""Players are people: one stable id for every name a table wrote for the same person.

Tables name players as people type them: "Chris" at one table, "christopher " at another,
"José" and "Jose", "Łukasz" and "Lukasz". A name's :func:`player_id` is its words spelt in
plain Latin letters, lower case, joined by '-' ("José  Díaz" -> ``jose-diaz``, "Γιώργος" ->
``giorgos``), so names that differ only in case, accents, punctuation or the number of
spaces between words are one player with no roster at all. "Ann Lee" and "AnnLee" are
two words against one: two players until the host joins them. The host joins the
others in a small TOML file (by hand, or with ``table-companion roster merge``)::

    [players.chris]
    name = "Christopher"          # shown on the pages
    aliases = ["Chris", "Kit"]    # other names tables use for him

A listed player's id, name and aliases all lead to the id; a name no entry claims is its
own player. The file is checked whole, and each mistake is a :class:`RosterError` naming
its line or key; :class:`RosterFile` reloads the file when it changes, and keeps the last
good roster when the new one is wrong.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w
from anyascii import anyascii

from firmware_host.players import HIDING, ID, MAX_NAME
from hardware.tomlfile import TomlFileError
from hardware.tomlfile import load as load_toml
from hardware.tomlreader import TomlReader

MAX_ALIASES = 64
MAX_PLAYERS = 10_000
_NOT_WORD = re.compile(r"[\W_]+")
HEADER = """\
# The game night's players, as the hub knows them across tables and nights.
# A table's name for a player is matched to an entry's id, name or aliases after case,
# spaces, accents and punctuation are set aside; names no entry claims are players of
# their own. `table-companion roster merge` rewrites this file (comments are not kept).
"""


class RosterError(ValueError):
    """A roster file that cannot be used; the text names where and what."""


def player_id(name: str) -> str:
    """The id of ``name`` when no roster says otherwise: ``José  Díaz`` -> ``jose-diaz``,
    ``Łukasz`` -> ``lukasz``: always a valid :data:`ID`, so the roster file can name it.

    Any script is spelt in Latin letters first (anyascii: "Юлия" -> ``yuliya``); a name of
    no letters or digits at all (``!!``) gets an id from its hash."""
    bare = anyascii(name).casefold()
    slug = _NOT_WORD.sub("-", bare).strip("-")[:40].strip("-")
    return slug or "player-" + hashlib.sha256(name.encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roster:
    """The listed people, and from every name's :func:`player_id` to its person's id."""

    people: tuple[Person, ...] = ()
    claims: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, people: Iterable[Person]) -> Roster:
        """The roster of ``people``; RosterError if two claim the same name."""
        listed = tuple(sorted(people, key=lambda p: p.id))
        claims: dict[str, str] = {}
        for person in listed:
            for name in (person.id, person.name, *person.aliases):
                key = player_id(name)
                owner = claims.setdefault(key, person.id)
                if owner != person.id:
                    raise RosterError(f"players.{person.id}: {name!r} is already "
                                      f"players.{owner}'s name; a name leads to one player")
        return cls(listed, claims)

    def id_of(self, name: str, carried: str = "") -> str:
        """The player a table's ``name`` is: the id the table ``carried`` with it (a name
        chosen from the night's roster), else the one the name leads to."""
        if carried and ID.fullmatch(carried):
            return carried
        key = player_id(name)
        return self.claims.get(key, key)

    def person(self, player: str) -> Person | None:
        return next((p for p in self.people if p.id == player), None)

    def name_of(self, name: str) -> str:
        """How the pages show the player a table calls ``name``: the roster's name for a
        listed one, else ``name`` as the table wrote it."""
        person = self.person(self.id_of(name))
        return name if person is None else person.name

    def shown_as(self, names: Iterable[str]) -> dict[str, str]:
        """How the pages show each of ``names`` (in the order they were written): the
        roster's name of a listed player, else the latest spelling of that player's id, so
        "ann" and "Ann" are one player with one name."""
        written = list(names)
        latest = {self.id_of(name): name for name in written}
        return {name: self.name_of(latest[self.id_of(name)]) for name in written}

    def merge(self, keep: str, *others: str) -> Roster:
        """``others`` (names or ids) become ``keep``'s aliases, with every name a listed one
        had; ``keep`` is listed if it was not. RosterError if a name is ``keep`` already."""
        kept_id = self.id_of(keep)
        kept = self.person(kept_id) or Person(kept_id, keep)
        aliases = list(kept.aliases)
        gone = set()
        for other in others:
            other_id = self.id_of(other)
            if other_id == kept_id:
                raise RosterError(f"{other!r} is already {kept.name!r} (id {kept_id})")
            person = self.person(other_id)
            names = [other] if person is None else [person.name, *person.aliases]
            if person is not None and player_id(person.id) not in map(player_id, names):
                names.append(person.id)
            aliases += [n for n in names if player_id(n) not in map(player_id, aliases)]
            gone.add(other_id)
        merged = Person(kept_id, kept.name, tuple(aliases))
        return Roster.of([merged, *(p for p in self.people if p.id not in gone | {kept_id})])

    def toml(self) -> str:
        """The roster as its file, written by a TOML library (names in any script and with
        any quotes read back as they were)."""
        players = {person.id: {"name": person.name}
                   | ({"aliases": list(person.aliases)} if person.aliases else {})
                   for person in self.people}
        return HEADER + "\n" + tomli_w.dumps({"players": players})


def read(path: Path) -> Roster:
    """The roster in ``path`` (an empty one if there is no such file); RosterError names the
    file, and the line or key, of what is wrong."""
    try:
        data = load_toml(path)
    except FileNotFoundError:
        return Roster()
    except TomlFileError as err:
        raise RosterError(err.message(path)) from None
    try:
        return roster_from(data)
    except RosterError as err:
        raise RosterError(f"{path}: {err}") from None


def roster_from(data: Mapping[str, Any]) -> Roster:
    reader = _Reader()
    reader.known(data, (), ("players",), say="not a roster key; the file has [players.ID] "
                 "tables only")
    players = reader.table(data, ("players",))
    if len(players) > MAX_PLAYERS:
        raise reader.fail(("players",), f"more than {MAX_PLAYERS:,}; is it the right file?")
    return Roster.of(reader.person(players, key) for key in players)


class _Reader(TomlReader):
    """The roster file's reads; a problem names its key (``players.chris.name``)."""

    sort_unknown = True

    def fail(self, keys: tuple[str, ...], problem: str) -> RosterError:
        return RosterError(f"{'.'.join(keys)}: {problem}")

    def unknown(self, keys: tuple[str, ...], key: str, allowed: Collection[str]) -> str:
        return "not a player's key; use name and aliases"

    def not_table(self, keys: tuple[str, ...], value: Any) -> str:
        if len(keys) == 1:
            return "write each player as a table, [players.ID]"
        return 'write it as a table with name = "..."'

    def person(self, players: Mapping[str, Any], key: str) -> Person:
        keys = ("players", key)
        if not ID.fullmatch(key):
            raise self.fail(keys, "an id is 1 to 40 lower-case letters, digits and '-' "
                            "inside, e.g. [players.chris]")
        entry = self.table(players, keys, ("name", "aliases"))
        aliases = self.value(entry, (*keys, "aliases"), list, [],
                             lambda found: None if len(found) <= MAX_ALIASES else "",
                             say=lambda _: f"a list of up to {MAX_ALIASES} names, "
                             'e.g. aliases = ["Chris"]')
        return Person(key, self.name(entry.get("name"), (*keys, "name")),
                      tuple(self.name(alias, (*keys, "aliases")) for alias in aliases))

    def name(self, value: Any, keys: tuple[str, ...]) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME \
                or HIDING.search(value):
            raise self.fail(keys, f"a name of 1 to {MAX_NAME} printable characters, in "
                            'quotes, e.g. "Christopher"')
        return value


@dataclass
class RosterFile:
    """The roster in ``path`` as it is now: :meth:`reload` reads it again if it changed."""

    path: Path
    roster: Roster = field(default_factory=Roster)
    problem: str = ""  # what is wrong with the file now, '' when nothing is
    missing: bool = False  # no file there at the last look: names are matched alone
    _seen: tuple[int, int, int, int] | None = None

    def reload(self) -> bool:
        """Read the file if it changed since last time; whether the roster changed. A bad
        file, or one this user cannot reach or read, leaves the roster as it was, with
        :attr:`problem` saying why; only a file that is not there at all is no roster."""
        try:
            info = self.path.stat()
            # ctime: a chmod or chown that lets this user read it is a change too
            seen: tuple[int, int, int, int] | None = (
                info.st_ino, info.st_mtime_ns, info.st_ctime_ns, info.st_size)
        except FileNotFoundError:
            seen = None
        except OSError as err:  # a folder this user may not pass, say
            self.missing = False
            self._seen = None
            self.problem = f"{self.path}: cannot be read ({err.strerror or err})"
            return False
        self.missing = seen is None
        if seen == self._seen and self._seen is not None:
            return False
        self._seen = seen
        try:
            roster = read(self.path) if seen is not None else Roster()
        except RosterError as err:
            self.problem = str(err)
            return False
        self.problem = ""
        changed, self.roster = roster != self.roster, roster
        return changed
