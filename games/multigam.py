"""Multi-Gam: four players race five checkers each from the BAR over six points and off.

Rules from the rule sheet and the Multi-Gam rulings:

- Four players, clockwise, five checkers each, all on the BAR (point 0) at the start. Every
  checker travels BAR -> 1 -> ... -> 6 -> OFF (point 7). Two dice; a double is played four
  times.
- A checker moves exactly the die's pips. It may not land on a point held by two or more
  checkers of one opponent (a prime); landing on a single opponent checker (a blot) hits it
  back to its owner's BAR. A point never holds checkers of two players. Jumping over a prime
  is allowed; every landing point, intermediate ones included, must be open.
- Loose bar: checkers on the BAR need not enter before others move.
- Bearing off is exact (to point 7) at any time; a larger die bears off a checker only when
  no own checker is further back (on a lower point or the BAR).
- A player who bears off all five checkers is ranked and skipped from then on. The game ends
  when three have finished; the fourth is ranked last. Scores 5, 3, 2, 1.
- Opening: everyone rolls one die; only the tied highest roll again. The winner's first turn
  is their winning die plus the lowest die showing on the table (latest re-rolls for the tied,
  first rolls for the rest): never a double, and no fresh dice are thrown for it.

Option ``dice_rule`` (how much of the roll must be used):

- ``max_then_larger`` (default, standard backgammon): play as many dice as possible; if only
  one of two dice can be played, play the larger when it can be played. A hit is therefore
  forced only when it is part of every legal play.
- ``max_only``: play as many dice as possible, either die when only one can be played.
- ``free``: play one die or more, as the player likes, when any can be played.

Choices where the texts leave the rules open:

- An action is a whole turn, a *play*: every checker move of the turn, in order. Plays that
  reach the same end position (own checkers and the blots hit) are one choice; the one listed
  is the first found trying the larger die first and the backmost checker first. A play
  typed in another order or with other dice for the same end is accepted as that choice.
- A roll that allows no play passes the turn at once (``no_play`` says whose roll it was);
  under ``free`` a player who can move must move at least one checker.
- The scoreboard shows the points already earned: 5, 3, 2 to the finishers so far, 1 to the
  last player once the game is over.

Notation (short enough for a 128x64 screen): one move per die, ``from/to``, separated by
spaces; points are ``bar``, ``1`` to ``6`` and ``off``; a ``*`` after the landing point marks
a hit, as in backgammon: ``bar/3* 3/off``. Typing it, a chain ``bar/3/off`` stands for
``bar/3 3/off``, the ``*`` may be left out, and ``b``/``o`` may stand for ``bar``/``off``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from games.core import GameState, Opening, Option, Phase, Result, Roll
from games.errors import IllegalAction, NotationError, NotYourTurnError

PLAYERS = 4
CHECKERS = 5
BAR = 0
OFF = 7
POINTS = range(1, 7)
PLACE_POINTS = (5, 3, 2, 1)
DICE_RULES = ("max_then_larger", "max_only", "free")

# A player's checkers packed in one int: 3 bits for each of BAR and points 1-6 (OFF is what
# is left of five). A play's end is that int with the mask of points hit above bit 21.
_BITS = 3
_UNIT = tuple(1 << (_BITS * s) for s in range(OFF))
_CODE_MASK = (1 << (_BITS * OFF)) - 1
_HITS_SHIFT = _BITS * OFF

_RawStep = tuple[int, int, bool]  # start, end, hit
_Raw = tuple[int, tuple[_RawStep, ...]]  # end key, steps


def point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


@dataclass(frozen=True)
class Step:
    """One checker moved by one die: ``5/off``, ``bar/3``; ``1/3*`` hits a blot on 3."""

    start: int
    end: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.start)}/{point_name(self.end)}{'*' if self.hit else ''}"


@dataclass(frozen=True)
class Play:
    """A whole turn: the checker moves in the order played, ``bar/6 5/off``."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return " ".join(str(step) for step in self.steps)

    @classmethod
    def parse(cls, text: str) -> Play:
        steps: list[Step] = []
        for token in text.replace(",", " ").split():
            parts = token.lower().split("/")
            if len(parts) < 2:
                raise NotationError(_bad(text, f"{token!r} is no move"))
            points = [_point(text, part) for part in parts]
            if points[0][1]:
                raise NotationError(_bad(text, f"{token!r} marks a hit where no checker lands"))
            for (start, _), (end, hit) in pairwise(points):
                if start == OFF or end == BAR or end <= start:
                    raise NotationError(_bad(text, f"{token!r} does not move forward"))
                if hit and end == OFF:
                    raise NotationError(_bad(text, f"{token!r} marks a hit off the board"))
                steps.append(Step(start, end, hit))
        if not steps:
            raise NotationError(_bad(text, "no move is named"))
        if len(steps) > 4:
            raise NotationError(_bad(text, "a turn has at most four moves"))
        return cls(tuple(steps))


_STEPS = {(start, end, hit): Step(start, end, hit)
          for start in range(OFF) for end in range(start + 1, OFF + 1) for hit in (False, True)}

_POINT = re.compile(r"(bar|b|off|o|[0-7])(\*?)")


def _point(text: str, part: str) -> tuple[int, bool]:
    match = _POINT.fullmatch(part)
    if match is None:
        raise NotationError(_bad(text, f"{part!r} is no point"))
    word = match.group(1)
    point = BAR if word in ("bar", "b") else OFF if word in ("off", "o") else int(word)
    return point, bool(match.group(2))


def _bad(text: str, why: str) -> str:
    return (f"{text!r} is not a Multi-Gam play: {why}; write each move as from/to, points "
            "bar, 1-6 and off, e.g. 'bar/3 3/off'")


# -- the move generator: pure functions of packed positions, memoised ---------------------


def _moves(code: int, hits: int, die: int, prime: int, blot: int) -> list[tuple[int, int,
                                                                                 _RawStep]]:
    """Every single move of ``die``: (new code, new hits, step)."""
    found = []
    behind = False  # an own checker on a lower point (or the BAR) than ``start``
    unit = _UNIT
    for start in range(OFF):
        if (code >> (_BITS * start)) & 7:
            end = start + die
            if end < OFF:
                bit = 1 << end
                if not prime & bit:
                    found.append((code - unit[start] + unit[end], hits | (blot & bit),
                                  (start, end, blot & ~hits & bit != 0)))
            elif end == OFF or not behind:
                found.append((code - unit[start], hits, (start, OFF, False)))
            behind = True
    return found


def _raw_plays(code: int, prime: int, blot: int, high: int, low: int, rule: str) -> tuple[_Raw,
                                                                                           ...]:
    """Every legal play by ``rule`` with dice ``high >= low``, merged by end position."""
    if high == low:
        return _double_plays(code, prime, blot, high, rule)
    both: dict[int, tuple[_RawStep, ...]] = {}
    singles: tuple[dict[int, tuple[_RawStep, ...]], ...] = ({}, {})
    for first, second, single in ((high, low, singles[0]), (low, high, singles[1])):
        for code1, hits1, step1 in _moves(code, 0, first, prime, blot):
            single.setdefault(code1 | hits1 << _HITS_SHIFT, (step1,))
            for code2, hits2, step2 in _moves(code1, hits1, second, prime, blot):
                both.setdefault(code2 | hits2 << _HITS_SHIFT, (step1, step2))
    if rule == "max_then_larger":
        return tuple((both or singles[0] or singles[1]).items())
    if rule == "max_only":
        return tuple(both.items()) if both else _merged(singles)
    return _merged((both, *singles))


def _merged(found: Sequence[dict[int, tuple[_RawStep, ...]]]) -> tuple[_Raw, ...]:
    """Plays merged by end key, the first found kept."""
    merged: dict[int, tuple[_RawStep, ...]] = {}
    for plays in found:
        for key, steps in plays.items():
            merged.setdefault(key, steps)
    return tuple(merged.items())


def _double_plays(code: int, prime: int, blot: int, die: int, rule: str) -> tuple[_Raw, ...]:
    levels: list[dict[int, tuple[_RawStep, ...]]] = []
    level: dict[int, tuple[_RawStep, ...]] = {code: ()}
    for _ in range(4):
        following: dict[int, tuple[_RawStep, ...]] = {}
        for key, steps in level.items():
            for code2, hits2, step in _moves(key & _CODE_MASK, key >> _HITS_SHIFT, die, prime,
                                             blot):
                following.setdefault(code2 | hits2 << _HITS_SHIFT, (*steps, step))
        if not following:
            break
        levels.append(following)
        level = following
    if not levels:
        return ()
    if rule != "free":
        return tuple(levels[-1].items())
    return _merged(levels[::-1])


@lru_cache(maxsize=1024)
def legal_plays(code: int, prime: int, blot: int, dice: tuple[int, int], rule: str) -> tuple[
        tuple[int, Play], ...]:
    """The legal plays, each with its end key, for a packed position and a roll.

    Memoised because one turn asks several times (the roll, the screen's list, the checked
    play, undo's replay); a small memo keeps a Pi's memory and the collector's work low.
    """
    high, low = max(dice), min(dice)
    return tuple((key, _play(steps)) for key, steps in _raw_plays(code, prime, blot, high, low,
                                                                   rule))


@lru_cache(maxsize=4096)
def _play(steps: tuple[_RawStep, ...]) -> Play:
    """The same play for the same moves: most turns repeat a play seen before."""
    return Play(tuple(map(_STEPS.__getitem__, steps)))


def pack(counts: Sequence[int]) -> int:
    """A player's checkers on BAR and points 1-6 as the generator's int."""
    return sum(counts[s] << (_BITS * s) for s in range(OFF))


def unpack(code: int) -> list[int]:
    """The counts on BAR, 1-6 and OFF from a packed int."""
    counts = [(code >> (_BITS * s)) & 7 for s in range(OFF)]
    return [*counts, CHECKERS - sum(counts)]


# -- the game ---------------------------------------------------------------------------------


class MultiGam(GameState[Play]):
    """A game of Multi-Gam for four players.

    What a screen draws from:
      ``points``           points 1-6 as ``points[n - 1]``: (owner or None, checkers)
      ``bar``, ``off``     each player's checkers on the BAR, and borne off
      ``checkers(p)``      player ``p``'s counts on BAR, 1-6 and OFF (eight numbers)
      ``dice``             the pair of the turn in play or last played (the opening's
                           composed pair included), None before the first turn
      ``dice_to_play``     the dice the player to move must play (a double four times),
                           None unless the phase is MOVE
      ``opening``          the opening throws (:class:`~games.core.Opening`, one die each);
                           ``opening_throws`` gives each player's latest, None if not thrown
      ``finishing_order``  players in the order they finished (the last one once over)
      ``last_play``        (player, play) of the last play made, None before any
      ``no_play``          (player, dice) of the last roll that allowed no play, None else
    :meth:`plays` lists the legal plays for any dice, for an advisor or a hint.
    """

    NAME = "multigam"
    TITLE = "Multi-Gam"
    SUMMARY = "four players race five checkers from the bar past each other's primes and off"
    MIN_PLAYERS = PLAYERS
    MAX_PLAYERS = PLAYERS
    THROW_SHOWN = False
    NO_MOVE_TOLD = True
    OPTIONS = {
        "dice_rule": Option(DICE_RULES[0], "how much of a roll must be played: as many dice as "
                            "possible then the larger, as many as possible, or any",
                            DICE_RULES, label="Dice rule",
                            words={"max_then_larger": "standard", "max_only": "most dice",
                                   "free": "free"}),
    }

    def _start(self) -> None:
        self.opening = Opening(self.players, dice=1)
        self._counts = [[CHECKERS] + [0] * OFF for _ in range(self.players)]
        self.turn = 0
        self.dice: tuple[int, int] | None = None
        self.dice_to_play: tuple[int, ...] | None = None
        self._finished: list[int] = []
        self.last_play: tuple[int, Play] | None = None
        self.no_play: tuple[int, tuple[int, int]] | None = None

    # -- the position ---------------------------------------------------------------------

    @property
    def dice_rule(self) -> str:
        rule: str = self.setup.options["dice_rule"]
        return rule

    def checkers(self, player: int) -> tuple[int, ...]:
        return tuple(self._counts[player])

    @property
    def points(self) -> tuple[tuple[int | None, int], ...]:
        found = []
        for point in POINTS:
            held = [(p, row[point]) for p, row in enumerate(self._counts) if row[point]]
            found.append(held[0] if held else (None, 0))
        return tuple(found)

    @property
    def bar(self) -> tuple[int, ...]:
        return tuple(row[BAR] for row in self._counts)

    @property
    def off(self) -> tuple[int, ...]:
        return tuple(row[OFF] for row in self._counts)

    @property
    def finishing_order(self) -> tuple[int, ...]:
        return tuple(self._finished)

    @property
    def opening_throws(self) -> tuple[int | None, ...]:
        return tuple(self.opening.latest[p][0] if p in self.opening.latest else None
                     for p in range(self.players))

    # -- the game API ---------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if len(self._finished) == self.players:
            return Phase.OVER
        return Phase.ROLL if self.dice_to_play is None else Phase.MOVE

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        if self.opening.winner is None:
            return self.opening.roller
        return self.turn

    @property
    def dice_wanted(self) -> int:
        if self.phase is not Phase.ROLL:
            return 0
        return 1 if self.opening.winner is None else 2

    def legal_actions(self) -> list[Play]:
        if self.dice is None or self.dice_to_play is None:
            return []
        return [play for _, play in self._legal(self.turn, self.dice)]

    def plays(self, dice: tuple[int, int]) -> list[Play]:
        """The legal plays of the player to move (or about to roll) for ``dice``."""
        player = self.current_player
        if player is None or self.opening.winner is None:
            return []
        return [play for _, play in self._legal(player, dice)]

    def _legal(self, player: int, dice: tuple[int, int]) -> tuple[tuple[int, Play], ...]:
        return legal_plays(*self._packed(player), dice, self.dice_rule)

    def _packed(self, player: int) -> tuple[int, int, int]:
        """(own checkers packed, opponents' primes mask, opponents' blots mask)."""
        prime = blot = 0
        for other, row in enumerate(self._counts):
            if other != player:
                for point in POINTS:
                    if row[point] >= 2:
                        prime |= 1 << point
                    elif row[point] == 1:
                        blot |= 1 << point
        return pack(self._counts[player]), prime, blot

    def parse_action(self, text: str) -> Play:
        return Play.parse(text)

    def _apply(self, action: Play | Roll) -> None:
        if isinstance(action, Roll):
            self._roll(action.dice)
        else:
            self._play(action)

    def _roll(self, dice: tuple[int, ...]) -> None:
        if self.opening.winner is None:
            starter = self.opening.record(dice)
            if starter is not None:
                lowest = min(throw[0] for throw in self.opening.latest.values())
                self.turn = starter
                self._begin_turn((self.opening.latest[starter][0], lowest))
            return
        self._begin_turn((dice[0], dice[1]))

    def _begin_turn(self, dice: tuple[int, int]) -> None:
        self.dice = dice
        if self._legal(self.turn, dice):
            self.dice_to_play = dice * 2 if dice[0] == dice[1] else dice
        else:
            self.no_play = (self.turn, dice)
            self._next_turn()

    def _play(self, play: Play) -> None:
        assert self.dice is not None and self.dice_to_play is not None
        legal = self._legal(self.turn, self.dice)
        end = self._follow(play, legal)
        row = self._counts[self.turn]
        row[:] = unpack(end & _CODE_MASK)
        hits = end >> _HITS_SHIFT
        for point in POINTS:
            if hits >> point & 1:
                for other, counts in enumerate(self._counts):
                    if other != self.turn and counts[point]:
                        counts[point] -= 1
                        counts[BAR] += 1
        self.last_play = (self.turn, play)
        self.dice_to_play = None
        if row[OFF] == CHECKERS:
            self._finished.append(self.turn)
            if len(self._finished) == self.players - 1:
                self._finished.extend(p for p in range(self.players) if p not in self._finished)
                return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        while self.turn in self._finished:
            self.turn = (self.turn + 1) % self.players

    # -- checking a play ------------------------------------------------------------------

    def _follow(self, play: Play, legal: tuple[tuple[int, Play], ...]) -> int:
        """The end key of ``play`` if it is legal; IllegalAction saying why otherwise."""
        assert self.dice_to_play is not None
        code, prime, blot = self._packed(self.turn)
        dice = self.dice_to_play
        if len(play.steps) > len(dice):
            raise IllegalAction(self._refusal(
                f"{self._dice_text()} gives {_moves_word(len(dice))}, "
                f"not {len(play.steps)}", legal))
        end = _walk(code, 0, play.steps, dice, prime, blot)
        if end is None:
            raise IllegalAction(self._refusal(self._first_fault(play, code, prime, blot), legal))
        if any(key == end for key, _ in legal):
            return end
        most = max(len(p.steps) for _, p in legal)
        if len(play.steps) < most:
            why = f"you must play {_dice_word(most, len(dice))} when you can"
        else:
            why = (f"only one die can be played, so it must be the larger, the "
                   f"{max(dice)}")
        raise IllegalAction(self._refusal(why, legal))

    def _first_fault(self, play: Play, code: int, prime: int, blot: int) -> str:
        """Why the moves of ``play`` cannot be made one after another with the dice."""
        assert self.dice_to_play is not None
        left = list(self.dice_to_play)
        hits = 0
        for step in play.steps:
            counts = unpack(code)
            start, end = point_name(step.start), point_name(step.end)
            if not counts[step.start]:
                holder = self._holder(step.start)
                if holder is not None:
                    raise NotYourTurnError(
                        f"{self.name(holder)}'s checkers are on {start}: it is "
                        f"{self.name(self.turn)}'s turn to move")
                where = "on the bar" if step.start == BAR else f"on {start}"
                return f"{step}: you have no checker {where}"
            if step.end < OFF and prime >> step.end & 1:
                holder = self._holder(step.end)
                assert holder is not None
                return (f"{step}: point {end} is blocked, {self.name(holder)} holds it with "
                        f"{self._counts[holder][step.end]} checkers")
            if step.hit and not (blot & ~hits) >> step.end & 1:
                return f"{step}: there is no blot to hit on {end}"
            dice = _dice_for(step, counts)
            usable = [d for d in left if d in dice]
            if not usable:
                return self._die_fault(step, counts, left)
            left.remove(min(usable))
            code, hits = _step(code, hits, step, blot)
        return f"{play} cannot be played with {self._dice_text()}"

    def _die_fault(self, step: Step, counts: list[int], left: list[int]) -> str:
        exact = step.end - step.start
        if step.end == OFF and any(d > exact for d in left):
            behind = next(point_name(p) for p in range(step.start) if counts[p])
            where = "on the bar" if behind == "bar" else f"on {behind}"
            return (f"{step} needs a {exact}: a larger die bears off only your backmost "
                    f"checker, and you have one {where}")
        return f"{step} needs a {exact}; the dice left are {'-'.join(str(d) for d in left)}"

    def _holder(self, point: int) -> int | None:
        """The opponent whose checkers are on ``point``, if any."""
        if point in (BAR, OFF):
            return None
        return next((p for p, row in enumerate(self._counts) if row[point] and p != self.turn),
                    None)

    def _dice_text(self) -> str:
        assert self.dice is not None
        return f"{self.dice[0]}-{self.dice[1]}"

    def _refusal(self, why: str, legal: tuple[tuple[int, Play], ...]) -> str:
        plays = [str(play) for _, play in legal]
        if len(plays) <= 4:
            return f"{why}; allowed: {', '.join(plays)}"
        return f"{why}; {len(plays)} plays are allowed, e.g. {', '.join(plays[:3])}"

    # -- scores ---------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        points = [0] * self.players
        for place, player in enumerate(self._finished):
            points[player] = PLACE_POINTS[place]
        return tuple(points)

    def result(self) -> Result | None:
        if not self.is_over:
            return None
        return Result(self.scores(), tuple((p,) for p in self._finished))

    def check_invariants(self) -> None:
        for player, row in enumerate(self._counts):
            assert len(row) == OFF + 1 and min(row) >= 0 and sum(row) == CHECKERS, \
                f"{self.name(player)} does not have five checkers: {row}"
        for point in POINTS:
            owners = [p for p, row in enumerate(self._counts) if row[point]]
            assert len(owners) <= 1, f"point {point} holds checkers of players {owners}"
        done = [p for p, row in enumerate(self._counts) if row[OFF] == CHECKERS]
        ranked = self._finished[:len(done)]
        assert sorted(ranked) == done and len(set(self._finished)) == len(self._finished), \
            f"finishing order {self._finished} but all off: {done}"
        assert len(self._finished) in (len(done), self.players), self._finished
        assert self.is_over == (len(done) >= self.players - 1), "the game should have ended"
        if self.opening.winner is None:
            assert self.dice is None and not any(self.off) and self.bar == (CHECKERS,) * 4
        if not self.is_over:
            assert self.turn not in self._finished, "a finished player is to move"
        if self.phase is Phase.MOVE:
            assert self.legal_actions(), "a move is due but no play is legal"


def _dice_for(step: Step, counts: list[int]) -> range:
    """The dice that can make ``step`` as far as bearing off goes."""
    exact = step.end - step.start
    if step.end == OFF and not any(counts[p] for p in range(step.start)):
        return range(exact, 7)
    return range(exact, exact + 1)


def _step(code: int, hits: int, step: Step, blot: int) -> tuple[int, int]:
    code -= _UNIT[step.start]
    if step.end < OFF:
        code += _UNIT[step.end]
        hits |= blot & (1 << step.end)
    return code, hits


def _walk(code: int, hits: int, steps: tuple[Step, ...], left: tuple[int, ...], prime: int,
          blot: int) -> int | None:
    """The end key of ``steps`` made one by one with dice from ``left``; None if they cannot."""
    if not steps:
        return code | hits << _HITS_SHIFT
    step, rest = steps[0], steps[1:]
    counts = unpack(code)
    if not counts[step.start] or (step.end < OFF and prime >> step.end & 1):
        return None
    if step.hit and not (blot & ~hits) >> step.end & 1:
        return None
    fits = _dice_for(step, counts)
    for die in sorted(set(left)):
        if die in fits:
            remaining = list(left)
            remaining.remove(die)
            code2, hits2 = _step(code, hits, step, blot)
            end = _walk(code2, hits2, rest, tuple(remaining), prime, blot)
            if end is not None:
                return end
    return None


def _moves_word(count: int) -> str:
    return {1: "one move", 2: "two moves", 3: "three moves", 4: "four moves"}[count]


def _dice_word(count: int, dice: int) -> str:
    if count == dice:
        return "both dice" if dice == 2 else "all four moves"
    return {1: "one move", 2: "two moves", 3: "three moves"}[count]
