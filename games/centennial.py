"""Centennial (also Ohio, Martinetti): race a marker 1 to 12 and back to 1 with three dice.

The rule sheet and the house rulings decide most things; where they left room:

- A marker's position is its *progress*: how many of the 23 targets (1 .. 12, 11 .. 1) it has
  reached. 0 is off the board, 23 is home. Reaching home wins at once, by a throw or a claim.
- A throw makes every single die, every sum of two dice and the sum of all three. The marker
  goes on while its next target is made, over the turn at 12 if need be (from 11, 6-6-5 goes
  12 then 11). With ``dice_reuse = false`` each die serves one step and the companion takes
  the longest chain the dice allow. :func:`targets_reached` computes the chain.
- ``mode = auto`` (default): the companion moves the roller along the whole chain. Nothing is
  overlooked, so nothing is claimable and no move is ever chosen; the claim options have no
  effect in this mode.
- ``mode = declare``: after a throw that makes a move the roller says where they stop
  (``P1 stops at 9``): anywhere from where they stand, overlooking the whole throw, to the end
  of the chain. A throw that makes no move passes the turn at once.
- Overlooked numbers are the targets of the chain beyond the stop, and only those: a number
  the roller never needed is never claimable. A claim names its claimant (``P2 claims 10``)
  and takes one overlooked number equal to the claimant's next target, whichever way that
  claimant travels. The roller cannot claim from their own throw. Each overlooked number is
  claimed once (an 11 made on both sides of the turn at 12 is two numbers).
- ``claim_chain = true``: a claimant may go on taking overlooked numbers one after another as
  long as each is their next target; ``false``: one claim per player per throw.
- ``claim_mode = first_caller``: any player may claim while claims are open; the referee enters
  the claims in the order they were called and closes them with ``no more claims``.
  ``claim_mode = turn_order``: players are asked clockwise from the roller's left; the player
  asked claims or says ``P3 passes``. Players with nothing to claim are never asked.
- Claims settle before the next throw: they close with the action above, or by themselves as
  soon as nobody is left who could claim anything. Only then are dice due again.
- ``roll_again = true`` (the text's variation): the roller throws again after every throw that
  moved their own marker; claims by others neither add nor take away a throw.
- First player: everyone rolls one die, highest starts, tied players roll again; then play goes
  clockwise (to the next seat number).
- Scores show each player's progress (0 to 23); at the end players rank by progress.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import assert_never

from games.core import GameState, Opening, Option, Phase, Result, Roll, rank_by
from games.errors import IllegalAction, NotationError, NotYourTurnError

TARGETS: tuple[int, ...] = (*range(1, 13), *range(11, 0, -1))
HOME = len(TARGETS)  # progress of a marker that has finished the round trip
TOP = TARGETS.index(12) + 1  # progress on 12; any higher progress is on the way back


def made_numbers(dice: Iterable[int]) -> frozenset[int]:
    """Every number a throw makes: each die, each sum of two dice, the sum of them all."""
    faces = tuple(dice)
    return frozenset(
        sum(group) for size in range(1, len(faces) + 1) for group in combinations(faces, size)
    )


def targets_reached(progress: int, dice: Sequence[int], dice_reuse: bool = True) -> tuple[int, ...]:
    """The targets a throw carries a marker through, in order, from ``progress``.

    ``progress`` counts targets already reached (0: off the board). The marker lands on
    ``progress + len(result)``. Off the board + 1-2-3 gives (1, 2, 3, 4, 5, 6), or (1, 2, 3)
    without reuse; from 11 (progress 11), 6-6-5 gives (12, 11).
    """
    if not 0 <= progress <= HOME:
        raise ValueError(f"progress runs from 0 (off board) to {HOME} (home), not {progress}")
    steps = _steps(progress, tuple(sorted(dice)), dice_reuse)
    return TARGETS[progress : progress + steps]


@lru_cache(maxsize=8192)
def _steps(progress: int, dice: tuple[int, ...], dice_reuse: bool) -> int:
    if not dice_reuse:
        return _steps_using_each_die_once(progress, dice)
    made = made_numbers(dice)
    end = progress
    while end < HOME and TARGETS[end] in made:
        end += 1
    return end - progress


def _steps_using_each_die_once(progress: int, dice: tuple[int, ...]) -> int:
    """The longest chain in which every step is made by dice no other step used."""
    if progress == HOME:
        return 0
    best = 0
    for size in range(1, len(dice) + 1):
        for picked in combinations(range(len(dice)), size):
            if sum(dice[i] for i in picked) == TARGETS[progress]:
                rest = tuple(d for i, d in enumerate(dice) if i not in picked)
                best = max(best, 1 + _steps_using_each_die_once(progress + 1, rest))
    return best


def label(progress: int) -> str:
    """A position as players say it: 'off board', '9', '12', '11 back' ... '1 back' (home)."""
    if progress == 0:
        return "off board"
    number = TARGETS[progress - 1]
    return f"{number} back" if progress > TOP else str(number)


def _seat(player: int) -> str:
    return f"P{player + 1}"


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stop:
    """The roller says where their marker stops (declare mode); ``at`` is a progress."""

    player: int
    at: int

    def __str__(self) -> str:
        where = "off board" if self.at == 0 else f"at {label(self.at)}"
        return f"{_seat(self.player)} stops {where}"


@dataclass(frozen=True)
class Claim:
    """Another player takes an overlooked number as their next target."""

    player: int
    number: int

    def __str__(self) -> str:
        return f"{_seat(self.player)} claims {self.number}"


@dataclass(frozen=True)
class Pass:
    """The player asked for claims (turn order) claims nothing more."""

    player: int

    def __str__(self) -> str:
        return f"{_seat(self.player)} passes"


@dataclass(frozen=True)
class NoMoreClaims:
    """The referee closes the claims (first caller): nobody else calls."""

    def __str__(self) -> str:
        return "no more claims"


CentennialAction = Stop | Claim | Pass | NoMoreClaims

_STOP = re.compile(r"p(\d+)\s+stops\s+(?:(off\s+board)|at\s+(\d+)(\s+back)?)")
_CLAIM = re.compile(r"p(\d+)\s+claims\s+(\d+)")
_PASS = re.compile(r"p(\d+)\s+pass(?:es)?")
_NO_MORE = re.compile(r"no\s+more\s+claims|done")
_FORMS = "'P1 stops at 9', 'P1 stops at 11 back', 'P2 claims 10', 'P3 passes', 'no more claims'"


@dataclass(frozen=True)
class Throw:
    """One throw of the three dice: who threw, from which progress, where they stopped.

    ``stop`` is None while the roller has still to say where they stop (declare mode).
    """

    roller: int
    dice: tuple[int, ...]
    start: int
    stop: int | None = None


class Centennial(GameState[CentennialAction]):
    """A game of Centennial. The position, for screens and tests (all read-only):

    - ``progress``: per player, targets reached (0 off board .. 23 home); ``label(p)`` names it;
      ``next_target(player)`` is the number the marker needs next.
    - ``opening``: the opening rolls (one die each) until ``opening.winner`` is known.
    - ``turn``: the player whose turn it is once the opening is decided.
    - ``throw``: the latest throw (roller, dice, start, stop); ``chain`` the targets it allows
      the roller; ``made`` every number it makes.
    - ``awaiting_stop``: the roller has to say where they stop (declare mode).
    - ``overlooked``: the chain beyond the roller's stop; ``claims`` taken from it so far;
      ``claimable`` what is left; ``claims_open`` while claims may be made; ``asked`` the
      player asked to claim or pass (turn order), else None.
    - ``winner``: the player home, or None.
    """

    NAME = "centennial"
    TITLE = "Centennial"
    SUMMARY = "three dice carry a marker 1 to 12 and back; others may claim what the roller misses"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 8
    THROW_SHOWN = True
    NO_MOVE_TOLD = False
    OPTIONS = {
        "mode": Option(
            "auto",
            "auto: the companion moves the roller along the whole chain; "
            "declare: the roller says where they stop and others claim the rest",
            ("auto", "declare"),
            label="Moves", words={"auto": "whole chain", "declare": "roller says"},
        ),
        "dice_reuse": Option(True, "a die may serve several steps of one throw",
                             label="Reuse a die"),
        "claim_chain": Option(True, "a claimant may take several overlooked numbers in a row",
                              label="Claim a chain"),
        "claim_mode": Option(
            "first_caller",
            "who gets an overlooked number: whoever calls first, or asked in turn order",
            ("first_caller", "turn_order"),
            label="Claims",
            words={"first_caller": "1st caller", "turn_order": "turn order"},
        ),
        "roll_again": Option(False, "throw again after every throw that moved your marker",
                             label="Extra throw"),
    }

    def _start(self) -> None:
        self._progress = [0] * self.players
        self.opening = Opening(self.players, dice=1)
        self.turn = 0
        self.throw: Throw | None = None
        self._claims: list[Claim] = []
        self._passed: list[int] = []
        self.claims_open = False

    # -- the position -------------------------------------------------------------------

    @property
    def progress(self) -> tuple[int, ...]:
        return tuple(self._progress)

    def next_target(self, player: int) -> int | None:
        """The number ``player``'s marker needs next; None once home."""
        progress = self._progress[player]
        return TARGETS[progress] if progress < HOME else None

    @property
    def winner(self) -> int | None:
        return self._progress.index(HOME) if HOME in self._progress else None

    @property
    def chain(self) -> tuple[int, ...]:
        """The targets the latest throw allows its roller (empty before any throw)."""
        if self.throw is None:
            return ()
        reuse: bool = self.setup.options["dice_reuse"]
        return targets_reached(self.throw.start, self.throw.dice, reuse)

    @property
    def made(self) -> frozenset[int]:
        return made_numbers(self.throw.dice) if self.throw is not None else frozenset()

    @property
    def awaiting_stop(self) -> bool:
        return self.throw is not None and self.throw.stop is None

    @property
    def overlooked(self) -> tuple[int, ...]:
        if self.throw is None or self.throw.stop is None:
            return ()
        return self.chain[self.throw.stop - self.throw.start :]

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(self._claims)

    @property
    def claimable(self) -> tuple[int, ...]:
        left = list(self.overlooked)
        for claim in self._claims:
            left.remove(claim.number)
        return tuple(left)

    @property
    def asked(self) -> int | None:
        if not self.claims_open or self.setup.options["claim_mode"] != "turn_order":
            return None
        left = self._claims_left()
        return left[0].player if left else None

    # -- what the rules provide ---------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return Phase.OVER
        if self.opening.winner is not None and (self.awaiting_stop or self.claims_open):
            return Phase.MOVE
        return Phase.ROLL

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        if self.opening.winner is None:
            return self.opening.roller
        asked = self.asked
        return asked if asked is not None else self.turn

    @property
    def dice_wanted(self) -> int:
        if self.phase is not Phase.ROLL:
            return 0
        return 1 if self.opening.winner is None else 3

    def legal_actions(self) -> list[CentennialAction]:
        if self.phase is not Phase.MOVE:
            return []
        throw = self.throw
        assert throw is not None
        if throw.stop is None:
            end = throw.start + len(self.chain)
            return [Stop(throw.roller, at) for at in range(throw.start, end + 1)]
        asked = self.asked
        if asked is None:
            return [*self._claims_left(), NoMoreClaims()]
        return [*(c for c in self._claims_left() if c.player == asked), Pass(asked)]

    def parse_action(self, text: str) -> CentennialAction:
        words = text.strip().lower()
        if _NO_MORE.fullmatch(words):
            return NoMoreClaims()
        if match := _STOP.fullmatch(words):
            player = self._parse_seat(match.group(1), text)
            if match.group(2):
                return Stop(player, 0)
            return Stop(player, self._parse_position(int(match.group(3)), bool(match.group(4))))
        if match := _CLAIM.fullmatch(words):
            number = int(match.group(2))
            if not 1 <= number <= 12:
                raise NotationError(f"{text!r}: the board has numbers 1 to 12, not {number}")
            return Claim(self._parse_seat(match.group(1), text), number)
        if match := _PASS.fullmatch(words):
            return Pass(self._parse_seat(match.group(1), text))
        raise NotationError(f"{text!r} is no Centennial move; write e.g. {_FORMS}")

    def _parse_seat(self, digits: str, text: str) -> int:
        seat = int(digits)
        if not 1 <= seat <= self.players:
            raise NotationError(f"{text!r}: this game has players P1 to P{self.players}")
        return seat - 1

    @staticmethod
    def _parse_position(number: int, back: bool) -> int:
        if back and not 1 <= number <= 11:
            raise NotationError(f"the way back runs 11 to 1, so '{number} back' is no position")
        if not 1 <= number <= 12:
            raise NotationError(f"the board has numbers 1 to 12, not {number}")
        return HOME + 1 - number if back else number

    def _apply(self, action: CentennialAction | Roll) -> None:
        match action:
            case Roll():
                self._throw(action.dice)
            case Stop():
                self._stop(action)
            case Claim():
                self._claim(action)
            case Pass():
                self._pass(action)
            case NoMoreClaims():
                self._no_more_claims()
            case _:
                assert_never(action)

    def scores(self) -> tuple[int, ...]:
        return self.progress

    def result(self) -> Result | None:
        if not self.is_over:
            return None
        return Result(self.progress, rank_by(self._progress))

    def check_invariants(self) -> None:
        assert len(self._progress) == self.players
        assert all(0 <= p <= HOME for p in self._progress), self._progress
        assert self._progress.count(HOME) <= 1, "two players home"
        if self.throw is not None:
            throw = self.throw
            assert throw.roller == self.turn or not self.awaiting_stop
            if throw.stop is not None:
                assert throw.start <= throw.stop <= throw.start + len(self.chain)
            taken = Counter(c.number for c in self._claims)
            assert taken <= Counter(self.overlooked), "a claim took a number nobody overlooked"
        if self.claims_open:
            assert not self.awaiting_stop and self._claims_left(), "open claims nobody can make"
        assert self.phase is not Phase.MOVE or self.legal_actions()

    # -- performing -----------------------------------------------------------------------

    def _throw(self, dice: tuple[int, ...]) -> None:
        if self.opening.winner is None:
            first = self.opening.record(dice)
            if first is not None:
                self.turn = first
            return
        start = self._progress[self.turn]
        self.throw = Throw(self.turn, dice, start)
        self._claims.clear()
        self._passed.clear()
        if not self.chain:
            self._stop_at(start)
        elif self.setup.options["mode"] == "auto":
            self._stop_at(start + len(self.chain))

    def _stop(self, stop: Stop) -> None:
        throw = self.throw
        assert throw is not None
        if throw.stop is not None:
            raise IllegalAction(
                f"{self.name(throw.roller)} has stopped at {label(throw.stop)} already; "
                f"claims are open: {self._claims_hint()}"
            )
        if stop.player != throw.roller:
            raise NotYourTurnError(
                f"{self.name(stop.player)} did not throw: {self.name(throw.roller)} says "
                "where to stop"
            )
        end = throw.start + len(self.chain)
        if not throw.start <= stop.at <= end:
            raise IllegalAction(
                f"{self.name(throw.roller)} cannot stop at {label(stop.at)}: the throw "
                f"{_show_dice(throw.dice)} goes from {label(throw.start)} "
                f"as far as {label(end)}"
            )
        self._stop_at(stop.at)

    def _stop_at(self, at: int) -> None:
        assert self.throw is not None
        self.throw = replace(self.throw, stop=at)
        self._progress[self.throw.roller] = at
        if at == HOME:
            return
        self.claims_open = bool(self._claims_left())
        if not self.claims_open:
            self._end_throw()

    def _claim(self, claim: Claim) -> None:
        self._check_claim(claim)
        self._claims.append(claim)
        self._progress[claim.player] += 1
        if self._progress[claim.player] == HOME:
            self.claims_open = False
        elif not self._claims_left():
            self._end_throw()

    def _check_claim(self, claim: Claim) -> None:
        throw = self.throw
        assert throw is not None
        who, number = self.name(claim.player), claim.number
        if throw.stop is None:
            raise IllegalAction(
                f"nothing is claimable yet: {self.name(throw.roller)} must first say where "
                "they stop"
            )
        if claim.player == throw.roller:
            raise IllegalAction(f"{who} threw these dice and cannot claim from their own throw")
        if number not in self.overlooked:
            missed = _show_numbers(self.overlooked) or "nothing"
            raise IllegalAction(
                f"{number} is not claimable: {self.name(throw.roller)} overlooked {missed}"
            )
        if number not in self.claimable:
            taker = next(c.player for c in reversed(self._claims) if c.number == number)
            raise IllegalAction(f"{number} was already claimed by {self.name(taker)}")
        target = self.next_target(claim.player)
        if target != number:
            raise IllegalAction(f"{who} cannot claim {number}: their next target is {target}")
        if not self.setup.options["claim_chain"]:
            earlier = next((c for c in self._claims if c.player == claim.player), None)
            if earlier is not None:
                raise IllegalAction(
                    f"{who} already claimed {earlier.number} from this throw: one claim each "
                    "(claim_chain = false)"
                )
        if claim.player in self._passed:
            raise NotYourTurnError(f"{who} passed on this throw and cannot claim any more")
        asked = self.asked
        if asked is not None and claim.player != asked:
            raise NotYourTurnError(
                f"claims go in turn order: {self.name(asked)} claims or passes first"
            )

    def _pass(self, passing: Pass) -> None:
        throw = self.throw
        assert throw is not None
        if throw.stop is None:
            raise IllegalAction(f"{self.name(throw.roller)} must first say where they stop")
        asked = self.asked
        if asked is None:
            raise IllegalAction(
                "claims go to whoever calls first here (claim_mode = first_caller): "
                "say 'no more claims' to close them"
            )
        if passing.player != asked:
            raise NotYourTurnError(
                f"claims go in turn order: {self.name(asked)} is asked, not "
                f"{self.name(passing.player)}"
            )
        self._passed.append(passing.player)
        if not self._claims_left():
            self._end_throw()

    def _no_more_claims(self) -> None:
        throw = self.throw
        assert throw is not None
        if throw.stop is None:
            raise IllegalAction(f"{self.name(throw.roller)} must first say where they stop")
        if self.asked is not None:
            raise IllegalAction(f"claims go in turn order: {self._claims_hint()}")
        self._end_throw()

    def _end_throw(self) -> None:
        """Claims are settled: the roller throws again (roll_again) or the turn passes."""
        throw = self.throw
        assert throw is not None and throw.stop is not None
        self.claims_open = False
        moved = throw.stop > throw.start
        if not (moved and self.setup.options["roll_again"]):
            self.turn = (self.turn + 1) % self.players

    # -- claims -------------------------------------------------------------------------

    def _claims_left(self) -> list[Claim]:
        """Claims still possible, in seat order from the roller's left; passed players out."""
        throw = self.throw
        if throw is None or throw.stop is None:
            return []
        claimable = self.claimable
        one_each = not self.setup.options["claim_chain"]
        claimed = {c.player for c in self._claims}
        found = []
        for offset in range(1, self.players):
            player = (throw.roller + offset) % self.players
            target = self.next_target(player)
            if player in self._passed or (one_each and player in claimed):
                continue
            if target is not None and target in claimable:
                found.append(Claim(player, target))
        return found

    def _claims_hint(self) -> str:
        asked = self.asked
        if asked is not None:
            return f"{self.name(asked)} claims or passes"
        return "claim a number or say 'no more claims'"


def _show_dice(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def _show_numbers(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)
