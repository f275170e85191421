"""Reed bounce, slides and real moves through the mock pins, as JSON.

A :class:`~hardware.board.mock.MockBoard` on gpiozero's ``MockFactory`` under the daemon's
own :class:`~hardware.board.matrix.ReedMatrix`, on a manual clock stepped 0.25 ms at a time.
The matrix runs as in the daemon: idle until a column edge wakes it, then polled when it
asks (:meth:`ReedMatrix.poll`). Every change of a magnet bounces: a burst of 1-8 flips over
up to 30 ms, ending on the new state.

- ``phantom``: settled changes nobody made, from ``bursts`` bursts of chatter up to 30 ms that
  end where they began, and from ``slides``: a piece slid from its cell across 1-3
  neighbouring cells to a free one in up to 150 ms (a reed closes while the magnet is within
  0.6 of a cell's pitch, so two close at each hand-over); only the lift at the start and the
  place at the end are real.
- ``missed`` / ``wrong``: out of ``moves`` real moves with bouncing switches (a place, a lift,
  a lift and put back after 150-400 ms, a move to another cell), a change that never came,
  and one that came but was not made. A cell is moved again only after the slow chatter
  window (hands at a game do not work one cell over and over; a switch that does is failing).
- ``latency_ms``: from a magnet coming to rest (its last bounce) to the ``CellChanged``, on
  the manual clock: the settle time plus the wake-up and scan schedule. The goal is 150 ms.
- ``moves_after_a_still_spell``: the same moves, each after the table was still for 6-12 s.
- ``hands``: ``HANDS`` moves as real hands make them (:func:`gesture`): every make and break
  bouncing for 1-20 ms; a piece brought over 1-2 neighbours dwelling 10-100 ms on each, or
  put on a wrong neighbour first for 0.3-0.8 s, or put straight down; lifts; moves; swaps
  (a chip lifted and another put on the same cell 80-400 ms later); one move in five made by
  two hands at once, far apart; a pause of 0-10 s before each (half of them long enough for
  the table to be still). ``phantom``: a change no hand made (a cell crossed, a bounce);
  ``missed``: a change made and not reported; ``wrong_board_cells``: cells where the
  matrix's board and the magnets disagree after the move; ``latency_ms``: from the last
  magnet of a move at rest to the move's last ``CellChanged``, at rest and busy. A swap
  made by stacking the new chip on the old and pulling the old one out is no change the
  sensors can see, so it is not among them.
- ``failing_cells``: whole Sequence Dice games through the referee and a journal in which
  one cell fails (:mod:`failing_cells`): chattering, stuck closed or stuck open, with
  players who wait on a fix they cannot make and with players who play on; the actions no
  player made that reach the journal, the players' actions it misses, and how many
  failures were named on the screen within 10 s. Habits of hands that must blame no
  sensor (a chip straightened, tapped, hesitated over) are :mod:`hands`'s.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable
from functools import partial
from typing import Any

from failing_cells import TRIALS, failing_cells
from gpiozero.pins.mock import MockFactory
from smoke import sized

from hardware.board.matrix import REST_AFTER_S, SLOW_CHATTER, ReedMatrix
from hardware.board.mock import MockBoard
from hardware.events import CellChanged, CellFault, Event
from hardware.pins.clock import ManualClock

ROWS = (7, 8, 9, 10, 11, 12)
COLS = (20, 21, 22, 23, 24, 25)
STEP = 0.00025
LATENCY_GOAL_MS = 150
HANDS = sized(20_000, 30)
SLOW_WINDOW_S = SLOW_CHATTER[1]
Cell = tuple[int, int]


class Bench:
    """The board, the matrix and a clock; :meth:`run` lets time pass as the daemon would."""

    def __init__(self) -> None:
        factory = self.factory = MockFactory()
        self.board = MockBoard(factory, ROWS, COLS)
        self.clock = ManualClock()
        self.events: list[tuple[float, Event]] = []
        self.woken = False
        self.matrix = ReedMatrix(ROWS, COLS, factory, self._emit, ticks=self.clock,
                                 waker=self._wake)
        self.due: float | None = self.matrix.poll()

    def _emit(self, event: Event) -> None:
        self.events.append((self.clock(), event))

    def _wake(self) -> None:
        self.woken = True

    def run(self, seconds: float) -> None:
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(STEP)
            self._service()

    def rest(self, seconds: float) -> None:
        """Let a still table pass ``seconds``, from one poll the matrix asked for to the next
        (nothing moves, so nothing is missed by the long steps)."""
        end = self.clock() + seconds
        while self.due is not None and self.due < end:
            self.clock.advance(max(0.0, self.due - self.clock()))
            self._service()
        self.clock.advance(end - self.clock())
        for pin in self.factory.pins.values():  # a mock pin keeps every state it had: a
            pin.clear_states()  # still table's patrol would fill gigabytes with them

    def _service(self) -> None:
        if self.woken or (self.due is not None and self.clock() >= self.due):
            self.woken = False
            self.due = self.matrix.poll()

    def bounce(self, cell: Cell, closed: bool, rng: random.Random, *,
               longest: float = 0.03, end_on: bool | None = None) -> float:
        """A bouncing contact ending ``closed`` (or, with ``end_on``, where it began); when
        it came to rest (its last flip)."""
        flips = rng.randint(1, 8)
        times = sorted(rng.uniform(0, longest) for _ in range(flips))
        start = self.clock()
        state = not closed
        for at in times:
            self.run(max(0.0, start + at - self.clock()))
            state = not state
            self._set(cell, state)
        final = closed if end_on is None else end_on
        if state != final:
            self._set(cell, final)
        return self.clock()

    def _set(self, cell: Cell, closed: bool) -> None:
        (self.board.place if closed else self.board.lift)(*cell)
        self._service()

    def changes(self, since: int) -> list[tuple[float, Event]]:
        return self.events[since:]


def chatter_bursts(bench: Bench, rng: random.Random, count: int) -> dict[str, Any]:
    phantom = faults = 0
    for _ in range(count):
        cell = (rng.randrange(6), rng.randrange(6))
        closed = cell in bench.board.magnets
        seen = len(bench.events)
        bench.bounce(cell, not closed, rng, end_on=closed)
        bench.run(rng.uniform(0.1, 0.3))
        for _at, event in bench.changes(seen):
            phantom += isinstance(event, CellChanged)
            faults += isinstance(event, CellFault)
    return {"bursts": count, "phantom": phantom, "chatter_faults": faults}


def slides(bench: Bench, rng: random.Random, count: int) -> dict[str, Any]:
    phantom = missed = 0
    for _ in range(count):
        path = _straight_path(bench, rng)
        if path is None:
            continue
        seconds = rng.uniform(0.04, 0.15)
        seen = len(bench.events)
        start = bench.clock()
        src, dst = path[0], path[-1]
        while (elapsed := bench.clock() - start) < seconds:
            at = elapsed / seconds * (len(path) - 1)
            for index, cell in enumerate(path):
                closed = abs(at - index) < 0.6
                if closed != (cell in bench.board.magnets):
                    bench._set(cell, closed)
            bench.run(0.001)
        for cell in path[:-1]:
            bench.board.lift(*cell)
        bench.bounce(dst, True, rng, longest=0.01)
        bench.run(0.4)
        got = [(e.row, e.col, e.occupied) for _at, e in bench.changes(seen)
               if isinstance(e, CellChanged)]
        wanted = [(*src, False), (*dst, True)]
        phantom += len([g for g in got if g not in wanted])
        missed += len([w for w in wanted if w not in got])
    return {"slides": count, "phantom": phantom, "missed": missed}


def _straight_path(bench: Bench, rng: random.Random) -> list[Cell] | None:
    """A piece and a free straight run of 1-3 cells beyond it, then a free cell."""
    pieces = sorted(bench.board.magnets)
    if not pieces:
        return None
    src = rng.choice(pieces)
    steps = rng.randint(2, 4)
    dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)])
    path = [(src[0] + dr * k, src[1] + dc * k) for k in range(steps + 1)]
    if any(not (0 <= r < 6 and 0 <= c < 6) for r, c in path) \
            or any(cell in bench.board.magnets for cell in path[1:]):
        return None
    return path


def real_moves(bench: Bench, rng: random.Random, count: int, *,
               still: float = 0.0) -> dict[str, Any]:
    """``count`` moves 0.3-0.8 s apart, or each after the table was ``still`` to twice that."""
    missed = wrong = 0
    latencies: list[float] = []
    kinds = {"place": 0, "lift": 0, "put_back": 0, "move": 0}
    missed_by_kind = dict.fromkeys(kinds, 0)
    touched: dict[Cell, float] = {}  # when each cell was last moved
    for _ in range(count):
        fresh = [(r, c) for r in range(6) for c in range(6)
                 if bench.clock() - touched.get((r, c), -SLOW_WINDOW_S) >= SLOW_WINDOW_S]
        pieces = sorted(cell for cell in fresh if cell in bench.board.magnets)
        free = [cell for cell in fresh if cell not in bench.board.magnets]
        kind = rng.choice(["place"] * bool(free)
                          + ["lift", "put_back", "move"] * bool(pieces) * (1 + (not free)))
        if len(bench.board.magnets) > 24 and pieces:
            kind = "lift"
        if kind == "move" and not free:
            kind = "lift"
        kinds[kind] += 1
        if still:
            bench.rest(rng.uniform(still, 2 * still))
        seen = len(bench.events)
        wanted: list[tuple[int, int, bool]] = []
        arrivals: dict[Cell, float] = {}
        if kind == "place":
            cell = rng.choice(free)
            arrivals[cell] = bench.bounce(cell, True, rng)
            wanted = [(*cell, True)]
        elif kind == "lift":
            cell = rng.choice(pieces)
            bench.bounce(cell, False, rng)
            wanted = [(*cell, False)]
        elif kind == "put_back":
            cell = rng.choice(pieces)
            bench.bounce(cell, False, rng)
            bench.run(rng.uniform(0.15, 0.4) - 0.03)
            arrivals[cell] = bench.bounce(cell, True, rng)
            wanted = [(*cell, False), (*cell, True)]
        else:
            src, dst = rng.choice(pieces), rng.choice(free)
            bench.bounce(src, False, rng)
            bench.run(rng.uniform(0.1, 0.4))
            arrivals[dst] = bench.bounce(dst, True, rng)
            wanted = [(*src, False), (*dst, True)]
        touched.update(((row, col), bench.clock()) for row, col, _closed in wanted)
        bench.run(rng.uniform(0.3, 0.8))
        got = [(at, (e.row, e.col, e.occupied)) for at, e in bench.changes(seen)
               if isinstance(e, CellChanged)]
        faults = [e for _at, e in bench.changes(seen) if isinstance(e, CellFault)]
        changes = [change for _at, change in got]
        lost = len([w for w in wanted if w not in changes])
        missed += lost
        missed_by_kind[kind] += lost
        wrong += len([c for c in changes if c not in wanted]) + len(faults)
        for at, (row, col, occupied) in got:
            if occupied and (row, col) in arrivals:
                latencies.append((at - arrivals[(row, col)]) * 1000)
    latencies.sort()
    spread = {} if not latencies else {
        "median": round(statistics.median(latencies), 1),
        "p99": round(latencies[int(len(latencies) * 0.99)], 1), "max": round(latencies[-1], 1)}
    return {"moves": count, "kinds": kinds, "missed": missed,
            "missed_by_kind": missed_by_kind, "wrong": wrong,
            "latency_ms": spread}


Flip = tuple[float, Cell, bool]  # when, which cell, closed after it


class Hand:
    """Plans what a hand does to the magnets, as flips in time: every make and break
    bounces for 1-20 ms, a piece crossing a free cell closes it for 10-100 ms."""

    def __init__(self, rng: random.Random, pieces: set[Cell]) -> None:
        self.rng = rng
        self.pieces = pieces  # where magnets will be once the planned flips are done
        self.flips: list[Flip] = []
        self.wanted: list[tuple[Cell, bool, float]] = []  # real changes, when they rested

    def contact(self, at: float, cell: Cell, closed: bool) -> float:
        """A bouncing make or break at ``at``; when it rests."""
        rng = self.rng
        longest = rng.uniform(0.001, 0.02)
        ends = sorted(rng.uniform(0, longest) for _ in range(2 * rng.randint(0, 3)))
        state = closed
        for offset in (0.0, *ends):
            self.flips.append((at + offset, cell, state))
            state = not state
        return at + (ends[-1] if ends else 0.0)

    def cross(self, at: float, cells: list[Cell]) -> float:
        """Slide over ``cells`` (a free one closes while the piece is over it); when the
        piece reaches the cell after them."""
        for cell in cells:
            leave = at + self.rng.uniform(0.01, 0.1)
            if cell not in self.pieces:  # the break comes after the make has stopped bouncing
                leave = max(leave, self.contact(at, cell, True) + 0.001)
                leave = self.contact(leave, cell, False)
            at = leave
        return at

    def put(self, at: float, cell: Cell) -> float:
        rest = self.contact(at, cell, True)
        self.pieces.add(cell)
        self.wanted.append((cell, True, rest))
        return rest

    def take(self, at: float, cell: Cell) -> float:
        rest = self.contact(at, cell, False)
        self.pieces.discard(cell)
        self.wanted.append((cell, False, rest))
        return rest


def around(cell: Cell) -> list[Cell]:
    return [(cell[0] + dr, cell[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= cell[0] + dr < 6 and 0 <= cell[1] + dc < 6]


def approach(hand: Hand, at: float, dst: Cell, came_from: Cell | None = None) -> float:
    """Come to ``dst`` over 1-2 neighbours, or put it on a wrong neighbour first (not the
    cell the piece was just lifted from: that is a fumble, no move) and then slide it over,
    or straight down; when the piece is over ``dst``."""
    rng = hand.rng
    way = rng.random()
    if way < 0.5:
        path = [rng.choice(around(dst))]
        if rng.random() < 0.5:
            path.insert(0, rng.choice(around(path[0])))
        return hand.cross(at, [c for c in path if c != dst])
    if way < 0.7:
        wrong = rng.choice([c for c in around(dst) if c not in hand.pieces and c != came_from]
                           or [dst])
        if wrong != dst:
            rest = hand.put(at, wrong)
            return hand.take(rest + rng.uniform(0.3, 0.8), wrong) + rng.uniform(0.01, 0.1)
    return at


def gesture(hand: Hand, at: float, near: set[Cell]) -> tuple[str, float]:
    """One move of one hand, away from the cells in ``near`` (the other hand's); its kind
    and when it is over."""
    rng = hand.rng
    far = [(r, c) for r in range(6) for c in range(6)
           if all(max(abs(r - n[0]), abs(c - n[1])) > 2 for n in near)]
    pieces = [c for c in far if c in hand.pieces]
    free = [c for c in far if c not in hand.pieces]
    kinds = ["place"] * bool(free) + ["lift", "swap_lift_first", "move"] * bool(pieces)
    kind = rng.choice(kinds if len(hand.pieces) < 24 or not pieces else ["lift"])
    if kind == "place":
        dst = rng.choice(free)
        return kind, hand.put(approach(hand, at, dst), dst)
    src = rng.choice(pieces)
    if kind == "lift":
        return kind, hand.take(at, src)
    if kind == "swap_lift_first":  # an opponent's chip off, one's own on, 80-400 ms later
        rest = hand.take(at, src)
        return kind, hand.put(rest + rng.uniform(0.08, 0.4), src)
    targets = [c for c in free if c != src]
    if not targets:
        return "lift", hand.take(at, src)
    dst = rng.choice(targets)
    rest = hand.take(at, src)
    return kind, hand.put(approach(hand, rest + rng.uniform(0.05, 0.3), dst, src), dst)


def play(bench: Bench, flips: list[Flip]) -> None:
    """Do ``flips`` (times relative to now) as the table's clock passes."""
    start = bench.clock()
    for at, cell, closed in sorted(flips):
        bench.run(max(0.0, start + at - bench.clock()))
        if closed != (cell in bench.board.magnets):
            bench._set(cell, closed)


def hands(bench: Bench, rng: random.Random, count: int, *,
          still_share: float = 0.5) -> dict[str, Any]:
    """``count`` moves of real hands (see :func:`gesture`), each after a pause of 0-10 s
    (``still_share`` of them long enough for the table to be still), one in five made by
    two hands at once: phantom, missed and wrong changes, and the latency from the last
    magnet of a gesture coming to rest to the gesture's last ``CellChanged``, at rest and
    busy."""
    phantom = missed = wrong = 0
    kinds: dict[str, int] = {}
    latency: dict[str, list[float]] = {"at_rest": [], "busy": []}
    moves = 0
    while moves < count:
        pause = rng.uniform(REST_AFTER_S, 10.0) if rng.random() < still_share \
            else rng.uniform(0, 1.0)
        bench.rest(pause)
        when = "at_rest" if pause >= REST_AFTER_S else "busy"
        seen = len(bench.events)
        hand = Hand(rng, set(bench.board.magnets))
        kind, end = gesture(hand, 0.0, set())
        kinds[kind] = kinds.get(kind, 0) + 1
        if rng.random() < 0.2:  # a second hand, far from the first
            near = {cell for _at, cell, _closed in hand.flips}
            kind2, end2 = gesture(hand, rng.uniform(0.0, 0.2), near)
            kinds[f"two_hands_{kind2}"] = kinds.get(f"two_hands_{kind2}", 0) + 1
            end = max(end, end2)
            moves += 1
        moves += 1
        start = bench.clock()
        play(bench, hand.flips)
        bench.run(max(0.0, start + end - bench.clock()) + 0.6)
        got = [(at, (e.row, e.col), e.occupied) for at, e in bench.changes(seen)
               if isinstance(e, CellChanged)]
        wanted = [(cell, closed) for cell, closed, _rest in hand.wanted]
        changes = [(cell, closed) for _at, cell, closed in got]
        phantom += len([c for c in changes if c not in wanted])
        missed += len([w for w in wanted if w not in changes])
        wrong += len(bench.matrix.occupied() ^ bench.board.magnets)
        done = [next((at for at, c, o in got if (c, o) == (cell, closed)
                      and at >= start + rest), None) for cell, closed, rest in hand.wanted]
        if done and None not in done:  # from the last magnet at rest to the last change
            last_rest = max(rest for _cell, _closed, rest in hand.wanted)
            latency[when].append((max(d for d in done if d is not None) - start - last_rest)
                                 * 1000)
        if wrong:  # put the matrix right again, so one error is counted once
            bench.board.set(bench.matrix.occupied())
    return {"moves": moves, "kinds": dict(sorted(kinds.items())), "phantom": phantom,
            "missed": missed, "wrong_board_cells": wrong,
            "latency_ms": {name: spread(values) for name, values in latency.items()}}


def spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    values = sorted(values)
    return {"n": len(values), "median": round(statistics.median(values), 1),
            "p99": round(values[int(len(values) * 0.99)], 1), "max": round(values[-1], 1)}


def measured(part: Callable[[Bench, random.Random, int], dict[str, Any]], count: int,
             seed: int) -> dict[str, Any]:
    bench = Bench()
    rng = random.Random(seed)
    for _ in range(8):  # a few pieces on the board, settled
        cell = (rng.randrange(6), rng.randrange(6))
        bench.board.place(*cell)
    bench.run(0.3)
    bench.events.clear()
    return part(bench, rng, count)


def main() -> None:
    bursts = measured(chatter_bursts, sized(10_000, 30), 1)
    slid = measured(slides, sized(3_000, 10), 2)
    moves = measured(real_moves, sized(4_000, 20), 3)
    rested = measured(partial(real_moves, still=REST_AFTER_S + 1), sized(500, 3), 4)
    handled = measured(hands, HANDS, 5)
    failing = failing_cells(sized(TRIALS, 1))
    latency = moves["latency_ms"]["p99"]
    goals = {name: {"value": value, "goal": 0, "ok": value == 0}
             for name, value in (("phantom", bursts["phantom"] + slid["phantom"]),
                                 ("missed", moves["missed"]), ("wrong", moves["wrong"]))}
    goals["placement_to_change_p99_ms"] = {"value": latency, "goal": LATENCY_GOAL_MS,
                                           "ok": latency <= LATENCY_GOAL_MS}
    for name in ("phantom", "missed", "wrong_board_cells"):
        goals[f"hands_{name}"] = {"value": handled[name], "goal": 0, "ok": handled[name] == 0}
    for when, figures in handled["latency_ms"].items():
        goals[f"hands_{when}_p99_ms"] = {"value": figures["p99"], "goal": LATENCY_GOAL_MS,
                                         "ok": figures["p99"] <= LATENCY_GOAL_MS}
    for kind, figures in failing.items():
        goals[f"{kind}_phantom_actions"] = {"value": figures["phantom_actions"], "goal": 0,
                                            "ok": figures["phantom_actions"] == 0}
        shown = figures["trials"] - figures["never_showed"]
        goals[f"{kind}_reported_within_10_s"] = {
            "value": figures["reported"], "goal": shown, "ok": figures["reported"] == shown}
    print(json.dumps({
        "bench": "chatter",
        "phantom": bursts["phantom"] + slid["phantom"],
        "missed": moves["missed"],
        "wrong": moves["wrong"],
        "placement_to_change_ms": moves["latency_ms"],
        "goal": {"phantom": 0, "missed": 0, "wrong": 0, "latency_ms": LATENCY_GOAL_MS},
        "goals": goals,
        "placement_after_a_still_spell_ms": rested["latency_ms"],
        "bursts": bursts, "slides": slid, "moves": moves, "moves_after_a_still_spell": rested,
        "hands": handled,
        "at_rest_p99_ms": handled["latency_ms"]["at_rest"]["p99"],
        "failing_cells": failing,
    }))


if __name__ == "__main__":
    main()
