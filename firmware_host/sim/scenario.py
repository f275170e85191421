"""Simulator scenarios: a TOML list of what a player's hands do, step by step, in time.

A scenario is checked whole on load against the pin map it runs on, so a typo stops it
before anything runs, with the file, the step and the key named. Loaded, it is a flat tuple
of :class:`Step` (repeats expanded); :meth:`Step.acts` times a step's pin actions from a
start, which is how both the scenario runner and the simulator's keyboard drive the pins.

The format (``firmware_host/sim/scenarios/demo.toml`` uses every kind of step)::

    title = "what it shows"    # optional
    pin_map = "pi40"           # optional: the wiring its steps need (default: the config's)
    settle = 0.1               # optional: seconds let pass after each step (default 0.1)

    [[step]]
    click = "roll"             # press and release; seconds = how long it is down (0.1)
    [[step]]
    hold = "roll"              # a long press; seconds = how long it is down (1.5)
    [[step]]
    press = "back"             # push down and keep down ...
    [[step]]
    release = "back"           # ... until released
    [[step]]
    turn = -2                  # knob detents, negative anticlockwise
    [[step]]
    place = "B3"               # put a magnet on a cell ("box 7" or 7 on a track)
    [[step]]
    lift = "B3"
    [[step]]
    dice = [3, 4]              # dice as if typed in (source "manual")
    [[step]]
    wait = 2.5                 # let time pass
    [[step]]
    repeat = 12                # the steps under it, 12 times
    [[step.step]]
    click = "roll"

Any step but ``wait`` and ``repeat`` takes ``after = seconds`` in place of ``settle``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_host.errors import UsageError
from hardware.controls.mock_table import MockTable
from hardware.errors import WiringError
from hardware.events import Control, DiceRolled
from hardware.pins.driver_types import Emit
from hardware.tomlfile import TomlFileError
from hardware.tomlfile import load as load_toml
from hardware.tomlreader import Keys, TomlReader, within
from hardware.wiring.pinmap import MatrixPins, PinMap, load_pin_map

SETTLE_S = 0.1  # long enough for a button's 20 ms debounce and the matrix's three scans
CLICK_S = 0.1
HOLD_S = 1.5  # the dice button's long press is 1 s
CONTROL_ACTIONS = ("click", "hold", "press", "release")
ACTIONS = (*CONTROL_ACTIONS, "turn", "place", "lift", "dice", "wait", "repeat")
MODIFIERS = ("seconds", "after", "step")
MAX_REPEAT = 1000
MAX_NESTING = 4
"""A repeat inside a repeat inside ...: deeper than this is a mistake, not a scenario."""
MAX_STEPS = 100_000
MAX_DICE = 10
MAX_SECONDS = 600.0
"""The longest wait, press or settle a step may ask for: ten minutes of table time."""
MAX_TABLE_S = 4 * 3600.0
"""All steps together: a long game night. The simulator passes table time at about a minute
a second, so no scenario runs for more than a few minutes."""
MAX_DETENTS = 100
"""Knob detents in one turn step (the menus are a few dozen lines at most)."""


class ScenarioError(UsageError, ValueError):
    """A scenario that cannot run; the message names the file, the step and the key."""


@dataclass(frozen=True)
class Act:
    """One thing the hands do at a moment: a pin change, or dice typed in."""

    at: float
    verb: str  # press, release, turn, place, lift or dice
    control: Control = Control.ROLL
    cell: tuple[int, int] = (0, 0)
    detents: int = 0
    dice: tuple[int, ...] = ()

    def perform(self, table: MockTable, emit: Emit) -> None:
        match self.verb:
            case "press":
                table.press(self.control)
            case "release":
                table.release(self.control)
            case "turn":
                table.turn(self.detents)
            case "place":
                table.place(*self.cell)
            case "lift":
                table.lift(*self.cell)
            case "dice":
                emit(DiceRolled(self.dice, source="manual"))


@dataclass(frozen=True)
class Step:
    """One checked step; ``seconds`` is how long a button stays down, or the wait."""

    action: str
    where: str  # "step 4.2": the fourth step's second inner step, for messages
    control: Control = Control.ROLL
    cell: tuple[int, int] = (0, 0)
    detents: int = 0
    dice: tuple[int, ...] = ()
    seconds: float = 0.0
    after: float = SETTLE_S

    def acts(self, start: float) -> tuple[list[Act], float]:
        """The step's acts from ``start``, and when the next step may begin."""
        if self.action == "wait":
            return [], start + self.seconds
        if self.action in ("click", "hold"):
            down = Act(start, "press", self.control)
            up = Act(start + self.seconds, "release", self.control)
            return [down, up], start + self.seconds + self.after
        act = Act(start, self.action, self.control, self.cell, self.detents, self.dice)
        return [act], start + self.after


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    pin_map: PinMap
    map_source: str  # the pin map's name, or its file's path: what a Config names
    steps: tuple[Step, ...]

    def timeline(self, start: float = 0.0) -> tuple[list[Act], float]:
        """Every act in time order, and when the last step has settled."""
        acts: list[Act] = []
        at = start
        for step in self.steps:
            more, at = step.acts(at)
            acts += more
        return acts, at


def shipped_names() -> list[str]:
    folder = resources.files("firmware_host.sim").joinpath("scenarios")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


def locate(name_or_path: str) -> Path:
    """A shipped scenario by name, in any case (``demo``, ``Dalmatian``), or a scenario
    file."""
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        return Path(name_or_path)
    name = name_or_path.strip().lower()
    shipped = resources.files("firmware_host.sim").joinpath(f"scenarios/{name}.toml")
    if not shipped.is_file():
        raise ScenarioError(f"no scenario {name_or_path!r}; shipped: "
                            f"{', '.join(shipped_names())} (or give the path of a .toml file)")
    return Path(str(shipped))


def load(name_or_path: str, default_map: str) -> Scenario:
    """The scenario, checked against its own pin map or else ``default_map``."""
    path = locate(name_or_path)
    try:
        data = load_toml(path, missing="no such scenario file")
    except TomlFileError as err:
        raise ScenarioError(err.message(path)) from None
    return parse(data, path, default_map)


def parse(data: Mapping[str, Any], path: Path, default_map: str) -> Scenario:
    return _Reader(path).scenario(data, default_map)


def cell_named(matrix: MatrixPins, name: str | int) -> tuple[int, int] | None:
    """The (row, col) a player calls ``name`` ("B3"; "box 7" or 7 on a track), or None."""
    wanted = re.sub(r"\s+", " ", str(name).strip().upper())
    for row in range(len(matrix.rows)):
        for col in range(len(matrix.cols)):
            label = matrix.label(row, col).upper()
            if wanted in (label, label.removeprefix("BOX ")):
                return row, col
    return None


def cell_range(matrix: MatrixPins) -> str:
    last = (len(matrix.rows) - 1, len(matrix.cols) - 1)
    return f"{matrix.label(0, 0)} to {matrix.label(*last)}"


class _Reader(TomlReader):
    """Checks the parsed TOML step by step; every problem names the file, step and key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, keys: Keys, problem: str) -> ScenarioError:
        """``keys`` is the step (``"step 4.2"``, or "" at the top) and its key."""
        place = "".join(f"{where}: " for where in keys[:-1] if where)
        return ScenarioError(f"{self.path}: {place}{keys[-1]}: {problem}")

    def scenario(self, data: Mapping[str, Any], default_map: str) -> Scenario:
        self.known(data, (), ("title", "pin_map", "settle", "step"))
        title = self.value(data, ("title",), str, "", say=lambda value: f"{value!r} is not a "
                           "string")
        map_name = self.value(data, ("pin_map",), str, default_map,
                              say=lambda value: f"{value!r} is not a pin map name")
        if "pin_map" in data and (map_name.endswith(".toml") or "/" in map_name):
            map_name = str(self.relative(("pin_map",), map_name, self.path.parent))
        try:
            pin_map = load_pin_map(map_name)
        except WiringError as err:
            raise self.fail(("pin_map",), str(err)) from None
        settle = self.number(data, "", "settle", SETTLE_S, minimum=0.0)
        steps: list[Step] = []
        self.steps(data.get("step"), "", "step", pin_map, settle, steps)
        if not steps:
            raise self.fail(("step",), "no steps; add a [[step]] table")
        at = 0.0
        for step in steps:
            _, at = step.acts(at)
            if at > MAX_TABLE_S:
                raise self.fail((step.where, step.action), f"the steps up to here take more "
                                f"than {MAX_TABLE_S / 3600:g} hours of table time; shorten them")
        return Scenario(self.path.stem, title, pin_map, map_name, tuple(steps))

    def steps(self, raw: Any, prefix: str, key: str, pin_map: PinMap, settle: float,
              out: list[Step]) -> None:
        if raw is None:
            return
        if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
            raise self.fail((prefix.rstrip("."), key), "write the steps as [[step]] tables")
        for number, table in enumerate(raw, start=1):
            self.step(table, f"{prefix}{number}", pin_map, settle, out)

    def step(self, table: Mapping[str, Any], number: str, pin_map: PinMap, settle: float,
             out: list[Step]) -> None:
        where = f"step {number}"
        self.known(table, (where,), (*ACTIONS, *MODIFIERS), say="unknown key; a step is one "
                   f"of {', '.join(ACTIONS)}, with {', '.join(MODIFIERS)}")
        actions = [key for key in table if key in ACTIONS]
        if not actions:
            raise self.fail((where, "step"), f"no action; give one of {', '.join(ACTIONS)}")
        if len(actions) > 1:
            raise self.fail((where, actions[1]), f"a step does one thing, and this one already "
                            f"has {actions[0]}; split it into two steps")
        action = actions[0]
        allowed = {"click": ("seconds", "after"), "hold": ("seconds", "after"),
                   "repeat": ("step",), "wait": ()}.get(action, ("after",))
        for key in MODIFIERS:
            if key in table and key not in allowed:
                raise self.fail((where, key), f"not used by a {action} step")
        if action == "repeat":
            self.repeat(table, number, pin_map, settle, out)
            return
        after = self.number(table, where, "after", settle, minimum=0.0)
        value = table[action]
        if action in CONTROL_ACTIONS:
            length = CLICK_S if action == "click" else HOLD_S
            seconds = self.number(table, where, "seconds", length, minimum=0.0, strict=True)
            step = Step(action, where, control=self.control(value, where, action, pin_map),
                        seconds=seconds if action in ("click", "hold") else 0.0, after=after)
        elif action == "turn":
            step = Step(action, where, detents=self.detents(table, where, pin_map), after=after)
        elif action in ("place", "lift"):
            step = Step(action, where, cell=self.cell(value, where, action, pin_map),
                        after=after)
        elif action == "dice":
            step = Step(action, where, dice=self.dice(table, where), after=after)
        else:
            step = Step(action, where, seconds=self.number(table, where, "wait", 0.0,
                                                           minimum=0.0, strict=True))
        if len(out) >= MAX_STEPS:
            raise self.fail((where, action), f"more than {MAX_STEPS} steps in all; repeat less")
        out.append(step)

    def repeat(self, table: Mapping[str, Any], number: str, pin_map: PinMap, settle: float,
               out: list[Step]) -> None:
        where = f"step {number}"
        count = self.value(table, (where, "repeat"), int, 1, within(1, MAX_REPEAT, ""),
                           say=lambda value: f"{value!r} is not a count from 1 to {MAX_REPEAT}")
        if number.count(".") >= MAX_NESTING:
            raise self.fail((where, "repeat"), f"repeats nested more than {MAX_NESTING} deep; "
                            "flatten the inner ones")
        if "step" not in table:
            raise self.fail((where, "step"), "nothing to repeat; add [[step.step]] tables")
        block: list[Step] = []
        self.steps(table["step"], f"{number}.", "step", pin_map, settle, block)
        if len(out) + count * len(block) > MAX_STEPS:
            raise self.fail((where, "repeat"), f"more than {MAX_STEPS} steps in all; repeat "
                            "less")
        for _ in range(count):
            out.extend(block)

    def number(self, table: Mapping[str, Any], where: str, key: str, default: float, *,
               minimum: float, strict: bool = False) -> float:
        """Seconds from ``minimum`` (excluded when ``strict``) to :data:`MAX_SECONDS`."""
        word = "more than" if strict else "at least"
        return self.value(
            table, (where, key), float, default,
            lambda value: None if (value > minimum if strict else value >= minimum)
            and value <= MAX_SECONDS else "",
            say=lambda value: f"{value!r} is not a number of seconds {word} {minimum:g} and "
            f"at most {MAX_SECONDS:g}")

    def control(self, value: Any, where: str, key: str, pin_map: PinMap) -> Control:
        names = [c.value for c in Control if c is Control.ROLL or c in pin_map.buttons]
        control = next((c for c in Control if c.value == value), None)
        if not isinstance(value, str) or control is None:
            raise self.fail((where, key), f"{value!r} is not a control; pin map "
                            f"{pin_map.name} has {', '.join(names)}")
        if control.value not in names:
            raise self.fail((where, key), f"pin map {pin_map.name} has no {value} button; it "
                            f"has {', '.join(names)}")
        return control

    def detents(self, table: Mapping[str, Any], where: str, pin_map: PinMap) -> int:
        if pin_map.encoder is None:
            raise self.fail((where, "turn"), f"pin map {pin_map.name} has no knob (rotary "
                            "encoder); use click = \"up\" or \"down\"")
        return self.value(table, (where, "turn"), int, 0,
                          lambda value: None if value and abs(value) <= MAX_DETENTS else "",
                          say=lambda value: f"{value!r} is not a number of detents from "
                          f"-{MAX_DETENTS} to {MAX_DETENTS} (e.g. 1, or -2 anticlockwise)")

    def cell(self, value: Any, where: str, key: str, pin_map: PinMap) -> tuple[int, int]:
        cell = cell_named(pin_map.matrix, value) if isinstance(value, str | int) else None
        if cell is None or isinstance(value, bool):
            raise self.fail((where, key), f"{value!r} is not a cell of pin map "
                            f"{pin_map.name}'s board ({cell_range(pin_map.matrix)})")
        return cell

    def dice(self, table: Mapping[str, Any], where: str) -> tuple[int, ...]:
        faces = self.value(table, (where, "dice"), list, [], lambda value: None if all(
            type(d) is int and 1 <= d <= 6 for d in value) and 1 <= len(value) <= MAX_DICE
            else "", say=lambda value: f"{value!r} is not a list of 1 to {MAX_DICE} die faces "
            "from 1 to 6, e.g. [3, 4]")
        return tuple(faces)
