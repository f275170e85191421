"""Actions held up by another program's lock on the journal, kept on disk until written.

While another program holds the journal (a ``sqlite3`` shell left in a transaction), a move
the table made cannot be committed: the table shows it and writes it once the lock goes.
Until then it is kept in ``NAME-held``, one small record (the game's number, the action
count and last hash it follows, the actions as text, where a throw's dice came from),
written to a new file, synced and renamed into place: a power cut leaves no record, or a
whole one. The journal removes it once a later commit is on disk; at the next start a
record still there is played on the resumed game when it follows it exactly, and named
as lost otherwise, so that no move the table showed disappears without a word.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Held:
    """Actions waiting for the lock, and the place in the game they follow."""

    game: int
    after: int  # the game's action count before them
    last: str  # the hash of the game's last action before them (its own hash if none)
    actions: tuple[str, ...]
    source: str | None  # where a throw among them came from

    def named(self) -> str:
        """The actions for a person: "the roll 6-6-6-6-5", "the moves reroll 6-6, roll 2-3"."""
        listed = ", ".join(self.actions)
        if len(self.actions) == 1 and listed.startswith("roll "):
            return f"the {listed}"
        return f"the move{'s' if len(self.actions) > 1 else ''} {listed}"


class HeldFile:
    """``NAME-held`` beside the journal at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + "-held")
        self.present = self.path.exists()

    def write(self, held: Held) -> None:
        """Keep ``held`` on disk: on disk once this returns."""
        partial = self.path.with_name(f".{self.path.name}.partial")
        data = json.dumps({"game": held.game, "after": held.after, "last": held.last,
                           "actions": list(held.actions), "source": held.source})
        with open(partial, "w", encoding="utf-8") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, self.path)
        _sync_folder(self.path.parent)
        self.present = True

    def read(self) -> Held | None:
        """The record kept, or None (none, or one that does not read: nothing to replay)."""
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
            held = Held(int(found["game"]), int(found["after"]), str(found["last"]),
                        tuple(str(action) for action in found["actions"]),
                        None if found["source"] is None else str(found["source"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return held if held.actions else None

    def clear(self) -> None:
        """Forget the record: what it held is written, or has been told lost."""
        if self.present:
            try:
                self.path.unlink(missing_ok=True)
                _sync_folder(self.path.parent)
            except OSError:
                return  # read again at the next start, and found written
            self.present = False


def _sync_folder(folder: Path) -> None:
    """A rename or removal in ``folder`` on disk too."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
