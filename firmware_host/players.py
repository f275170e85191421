"""Who plays at the table: a name, and the night's id for it when the roster gave one.

A table names its players from several places: its config file, the names its journal
has seen (the latest game first), the night's roster the publisher keeps beside the
journal (:func:`roster_beside`), the next round's seating, and names typed in at the table.
Every name from a file is untrusted text: :func:`clean` keeps a name only when it is one a
person could have typed, within :data:`MAX_NAME`. :func:`problem` is the one rule a table's
players keep: a name each, no two alike (as the night matches names: case, spaces and
accents aside). A name longer than the screen's room is no error: the screens cut it.

The roster file is written whole (a rename) by the publisher, one JSON object a line
(``{"name": "Ann", "id": "ann"}``), and read bounded: at most :data:`MAX_ROSTER` players.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

MAX_NAME = 64  # as the night's messages carry a name
MAX_TYPED = 20  # letters typed at the table; a longer name comes from the roster
MAX_ROSTER = 400  # players in the roster file the table reads
ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")  # the roster's ids
HIDDEN = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""Characters no name needs that can hide or disguise text, as the night refuses them
everywhere: controls, Unicode's line breaks, and the bidirectional embeddings, overrides and
isolates that turn the text after them around (as ranges of a character class)."""
HIDING = re.compile(f"[{HIDDEN}\ud800-\udfff]")  # and lone surrogates: not writable as UTF-8
DIRECTION_MARKS = "\u061c\u200e\u200f"
"""The invisible marks that set a text's direction (Arabic's, left-to-right's, right-to-left's):
harmless, often pasted with a name, and dropped from it."""
UNSHOWN = re.compile(f"[{HIDDEN}{DIRECTION_MARKS}\ud800-\udfff]")


@dataclass(frozen=True)
class Player:
    """A player at the table: the name shown, and the roster's id ('' for none: the hub
    then matches the name, as it always has)."""

    name: str
    id: str = ""

    def __str__(self) -> str:
        return self.name


def clean(text: object) -> str | None:
    """``text`` as a player's name (spaces at the ends dropped), or None when it is not one
    a person could have typed: empty, too long, or holding characters that hide text."""
    if not isinstance(text, str):
        return None
    name = text.strip()
    if not name or len(name) > MAX_NAME or HIDING.search(name):
        return None
    name = normal(name).strip()
    return name if name and name.isprintable() else None


def normal(text: str) -> str:
    """``text`` in one spelling however it was typed: NFC ("é" one character, not "e" and an
    accent), without the marks that only set its direction, nor any character that hides or
    turns text (:data:`HIDDEN`), so it is drawn and matched as it reads."""
    return unicodedata.normalize("NFC", UNSHOWN.sub("", text))


def clean_id(text: object) -> str:
    """``text`` if it is a roster id, else ''."""
    return text if isinstance(text, str) and ID.fullmatch(text) else ""


def same(a: str, b: str) -> bool:
    """Whether two names are one player's at a table: case, spaces and accents aside."""
    return _key(a) == _key(b)


def _key(name: str) -> str:
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def problem(name: str, seated: Sequence[Player | None]) -> str | None:
    """Why ``name`` cannot join the players ``seated`` (seat by seat, None for an empty
    seat), in one line for the screen; None when it can."""
    if clean(name) is None:
        return (f"a name is 1 to {MAX_NAME} letters, digits or signs" if name.strip()
                else "type a name first")
    for seat, player in enumerate(seated, start=1):
        if player is not None and same(player.name, name):
            return f"{player.name} plays at seat {seat} already"
    return None


def pool(*sources: Iterable[Player]) -> tuple[Player, ...]:
    """The players of ``sources`` in order, each once (the first with its name keeps it,
    and an id found later joins a name that had none)."""
    found: list[Player] = []
    for source in sources:
        for player in source:
            index = next((i for i, p in enumerate(found) if same(p.name, player.name)), None)
            if index is None:
                found.append(player)
            elif not found[index].id and player.id:
                found[index] = Player(found[index].name, player.id)
    return tuple(found)


def roster_beside(journal: Path) -> Path:
    """The night's roster for the journal at ``journal``."""
    return journal.with_name(journal.name + ".roster")


def write_roster(path: Path, players: Sequence[Player]) -> None:
    """``players`` in ``path`` whole, or no file when there are none."""
    if not players:
        path.unlink(missing_ok=True)
        return
    part = path.with_name(path.name + ".part")
    part.write_text("".join(json.dumps({"name": p.name, "id": p.id}, ensure_ascii=False) + "\n"
                            for p in players[:MAX_ROSTER]), encoding="utf-8")
    os.replace(part, path)


def read_roster(path: Path) -> tuple[Player, ...]:
    """The players in ``path`` (none when there is no file), each checked as untrusted: a
    line that is not a name and an id is left out."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_ROSTER * 4 * (MAX_NAME + 60))
    except OSError:
        return ()
    found = []
    for line in data.decode("utf-8", errors="replace").splitlines()[:MAX_ROSTER]:
        try:
            item = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(item, dict):
            continue
        name, player_id = clean(item.get("name")), clean_id(item.get("id"))
        if name is not None and player_id:
            found.append(Player(name, player_id))
    return pool(found)
