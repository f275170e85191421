"""The simulator's keys, acted out on the mock pins as a player's hands would.

A key does not make an event: it becomes a scenario :class:`~firmware_host.sim.scenario.Step`
(click SELECT, turn the knob, put a magnet on B3) whose acts press and release the mock
pins on the real clock, so the drivers debounce and emit exactly as on a Pi. Steps run one
after another; keys typed meanwhile wait their turn.

A terminal reports no key releases, only repeats while a key is held. So ``r`` keeps ROLL
down for :data:`REPEAT_WAIT` in case repeats follow, and each repeat keeps it down a little
longer: holding ``r`` is a long press, as holding the button is. ``R`` is a long press too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace

from firmware_host.sim.scenario import CLICK_S, HOLD_S, Act, Step, cell_named, cell_range
from hardware.controls.mock_table import MockTable
from hardware.events import Control
from hardware.pins.driver_types import Emit
from hardware.wiring.pinmap import HOLDS, PinMap

REPEAT_WAIT = 0.6  # seconds: longer than most terminals wait before a held key repeats
REPEAT_GAP = 0.15  # ... and longer than the gap between two repeats
MAX_WAITING = 16  # keys beyond this, typed while steps are still running, are dropped

ESCAPES = {"[A": "up", "[B": "down", "[C": "right", "[D": "left",
           "OA": "up", "OB": "down", "OC": "right", "OD": "left"}
NAMED = {"\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace"}


def decode(text: str) -> Iterator[str]:
    """Key names from what the terminal sent: ``up`` for an arrow, ``esc``, ``enter``,
    ``backspace``, or the character itself."""
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\x1b":
            sequence = text[i + 1:i + 3]
            if sequence in ESCAPES:
                yield ESCAPES[sequence]
                i += 3
                continue
            if sequence[:1] in ("[", "O"):  # another sequence (F keys, Home): skip it
                end = i + 2
                while end < len(text) and not text[end].isalpha() and text[end] != "~":
                    end += 1
                i = end + 1
                continue
            yield "esc"
        else:
            yield NAMED.get(char, char)
        i += 1


class Keyboard:
    """Turns keys into hands on ``table``; :meth:`poll` is one of the loop's pollers.

    ``read`` returns what was typed since the last call ("" for nothing, None once the
    input has closed); ``quit`` is called once the steps in hand are done after ``q``;
    ``changed`` whenever the status line changes; ``magnets`` are the cells that already
    hold one; ``pixels`` throws the mock Pixels dice (key t) and says what it did.
    """

    def __init__(self, table: MockTable, pin_map: PinMap, emit: Emit,
                 read: Callable[[], str | None], quit: Callable[[], None],
                 changed: Callable[[], None] = lambda: None,
                 magnets: set[tuple[int, int]] | None = None,
                 pixels: Callable[[float], str] | None = None) -> None:
        self.table = table
        self.pixels = pixels
        self.pin_map = pin_map
        self.emit = emit
        self.read = read
        self.quit = quit
        self.changed = changed
        self.status = f"pin map {pin_map.name}: {pin_map.title}"
        self.entry: str | None = None  # the cell being typed after p
        self._waiting: deque[Step] = deque()
        self._acts: list[Act] = []
        self._busy_until = 0.0
        self._rolling = False  # the steps in hand are a click of ROLL
        # where magnets are: put there by the keys, or by the simulator for a resumed game
        self._magnets: set[tuple[int, int]] = set(magnets or ())
        self._quitting = False
        self._quit_called = False

    def help(self) -> str:
        """One line, within 80 columns, naming the keys this pin map has."""
        pins = self.pin_map
        if {Control.UP, Control.DOWN} <= pins.buttons.keys():
            moves = "↑↓ up/down" + ("  ←→ knob" if pins.encoder is not None else "")
        else:  # w a s d do what the arrows do, for a terminal whose arrows do not arrive
            moves = "↑↓←→ knob" if pins.encoder is not None else "↑↓ up/down"
        roll = "r/R roll  t dice" if self.pixels is not None else "r roll (R: long)"
        parts = [roll, moves, "Enter select", "Esc back"]
        holds = [n for n, c in enumerate(HOLDS, start=1) if c in pins.buttons]
        if holds:
            parts.append(f"{holds[0]}-{holds[-1]} hold" if len(holds) > 1 else f"{holds[0]} hold")
        parts += ["p cell", "q quit"]
        return "  ".join(parts)

    def poll(self, now: float) -> None:
        text = self.read()
        if text is None:
            self._quitting = True
        else:
            for key in decode(text):
                self._key(key, now)
        while True:
            while self._acts and self._acts[0].at <= now:
                self._acts.pop(0).perform(self.table, self.emit)
            if self._acts or now < self._busy_until or not self._waiting:
                break
            self._start(self._waiting.popleft(), now)
        idle = not self._acts and not self._waiting and now >= self._busy_until
        if self._quitting and idle and not self._quit_called:
            self._quit_called = True
            self.quit()

    def _key(self, key: str, now: float) -> None:
        if self.entry is not None:
            self._entry_key(key)
            return
        if key == "r" and self._extend_roll(now):
            return
        if key == "t":
            self._say(self.pixels(now) if self.pixels is not None
                      else "no Pixels dice here: start the simulator with --pixels")
            return
        step = self._step_for(key)
        if isinstance(step, str):
            self._say(step)
        elif step is not None and len(self._waiting) < MAX_WAITING:
            self._waiting.append(step)

    def _step_for(self, key: str) -> Step | str | None:
        """The step a key asks for, a message when this table cannot do it, or None."""
        buttons = self.pin_map.buttons
        knob = self.pin_map.encoder is not None
        match key:
            case "r":
                return Step("click", "key r", Control.ROLL, seconds=REPEAT_WAIT)
            case "R":
                return Step("hold", "key R", Control.ROLL, seconds=HOLD_S)
            case "up" | "w" | "down" | "s":
                control = Control.UP if key in ("up", "w") else Control.DOWN
                if control in buttons:
                    return Step("click", f"key {key}", control, seconds=CLICK_S)
                return Step("turn", f"key {key}", detents=-1 if control is Control.UP else 1)
            case "left" | "a" | "right" | "d":
                if not knob:
                    return f"pin map {self.pin_map.name} has no knob; use w/s"
                return Step("turn", f"key {key}", detents=-1 if key in ("left", "a") else 1)
            case "enter":
                return Step("click", "key Enter", Control.SELECT, seconds=CLICK_S)
            case "esc" | "backspace":
                return Step("click", "key Esc", Control.BACK, seconds=CLICK_S)
            case "1" | "2" | "3" | "4" | "5":
                hold = HOLDS[int(key) - 1]
                if hold not in buttons:
                    return f"pin map {self.pin_map.name} has no {hold.name} button"
                return Step("click", f"key {key}", hold, seconds=CLICK_S)
            case "p":
                self.entry = ""
                self._say(self._prompt())
                return None
            case "q" | "Q":
                self._quitting = True
                self._say("quitting")
                return None
        return None

    def _entry_key(self, key: str) -> None:
        assert self.entry is not None
        if key == "esc":
            self.entry = None
            self._say("no cell changed")
        elif key == "backspace":
            self.entry = self.entry[:-1]
            self._say(self._prompt())
        elif key == "enter":
            name, self.entry = self.entry, None
            cell = cell_named(self.pin_map.matrix, name)
            if cell is None:
                self._say(f"no cell {name!r} on this board ({cell_range(self.pin_map.matrix)})")
                return
            label = self.pin_map.matrix.label(*cell)
            if cell in self._magnets:
                self._magnets.discard(cell)
                self._waiting.append(Step("lift", "key p", cell=cell))
                self._say(f"magnet lifted from {label}")
            else:
                self._magnets.add(cell)
                self._waiting.append(Step("place", "key p", cell=cell))
                self._say(f"magnet put on {label}")
        elif len(key) == 1 and key.isprintable() and len(self.entry) < 8:
            self.entry += key
            self._say(self._prompt())

    def _prompt(self) -> str:
        return f"cell to toggle ({cell_range(self.pin_map.matrix)}), Enter: {self.entry}_"

    def _start(self, step: Step, now: float) -> None:
        acts, self._busy_until = step.acts(now)
        self._acts = acts
        self._rolling = step.action == "click" and step.control is Control.ROLL

    def _extend_roll(self, now: float) -> bool:
        """A repeat of a held ``r``: keep ROLL down a little longer, if it is still down."""
        if not self._rolling or not self._acts:
            return False
        release = self._acts[-1]
        later = max(release.at, now + REPEAT_GAP)
        self._acts[-1] = replace(release, at=later)
        self._busy_until += later - release.at
        return True

    def _say(self, message: str) -> None:
        self.status = message
        self.changed()
