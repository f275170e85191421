"""Dalmatian: match dice to a starting total of two dice; highest score after 12 rounds wins.

Rules as the companion referees them (seed text and RULINGS.md):

- 2 to 6 players. Opening: everyone rolls five dice, the highest total starts, tied players
  roll again. Each round the starting player rolls two dice, the starting total (2-12); then
  every player, from the starter's left and ending with the starter, takes a turn; the next
  round's starter is the player to the left.
- A turn: roll five dice, then up to two rerolls of any dice (kept ones included); the player
  may stop early. The score of the final dice is computed by the companion and recorded when
  the turn ends (:mod:`games.dalmatian_score`).

Choices the texts leave open:

- Dice are a multiset: ``reroll 3-6`` picks up one 3 and one 6, whichever ones.
- A turn ends by itself when no reroll is left (two used, or the budget spent) and when all
  five dice already score, since no reroll could then help.
- Tied players share the win (RULINGS.md). Under ``round_winner_only`` the round's score is
  recorded once the round is complete; the sheet keeps every player's turn score anyway.

Options:

- ``dice_in_several_groups`` (false): variation 1, a die may serve in several groups; the
  score counts the dice in at least one.
- ``round_winner_only`` (false): variation 2, only the round's highest score is recorded, by
  every player who made it.
- ``reroll_budget`` (none | 8): variation 3, up to 8 dice rerolled in a turn, in as many
  rerolls as the player likes, in place of the two-reroll limit.
- ``rounds`` (12): fewer (or more) rounds for a shorter (or longer) game, 1 to 24.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from games.core import GameState, Opening, Option, Phase, Result, Roll, Setup, rank_by
from games.dalmatian_advice import REROLLS, Advice, advise, prepare
from games.dalmatian_score import Group, best_split, score
from games.dice_multisets import HAND_SIZE
from games.errors import IllegalAction, NotationError, OptionError

MAX_ROUNDS = 24


@dataclass(frozen=True)
class Reroll:
    """Pick up these dice (values, any order) and throw them again."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "reroll " + "-".join(str(d) for d in sorted(self.dice))


@dataclass(frozen=True)
class Stop:
    """End the turn and score the dice showing."""

    def __str__(self) -> str:
        return "stop"


Action = Reroll | Stop


@dataclass(frozen=True)
class Turn:
    """A finished turn: who, against which total, with which dice."""

    player: int
    total: int
    dice: tuple[int, ...]


class Dalmatian(GameState[Action]):
    """A game of Dalmatian.

    Read-only view for screens:

    - ``opening``: the opening throws (``opening.latest``: player -> five dice).
    - ``round_number`` (1-based, the round being played or about to start), ``rounds``,
      ``starter``: this round's starting player, ``total``: its starting total (None until
      rolled).
    - ``dice``: the dice showing in the current turn, sorted (fewer than five while rerolled
      dice are awaited); ``turn_score`` and ``groups``: their score and best split.
    - ``rerolls_left`` (standard) or ``budget_left`` (``reroll_budget``): None under the
      other rule; ``advice()``: the hold with the best expected score, for a hint.
    - ``sheet``: per round, each player's turn score (None: not played yet); ``totals``: the
      starting total of each round; ``last_turn``: the most recently finished turn.
    """

    NAME = "dalmatian"
    TITLE = "Dalmatian"
    SUMMARY = "match five dice to a total of two; most dice after 12 rounds wins"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    THROW_SHOWN = False
    NO_MOVE_TOLD = False
    OPTIONS = {
        "dice_in_several_groups": Option(
            False, "a die may count in several groups (variation 1)",
            label="Shared dice"),
        "round_winner_only": Option(
            False, "only the round's highest score is recorded (variation 2)",
            label="Best score only"),
        "reroll_budget": Option(
            "none", "dice that may be rerolled in a turn, in place of two rerolls (variation 3)",
            ("none", "8"), label="Rerolls", words={"none": "two a turn", "8": "8 dice"}),
        "rounds": Option(12, f"rounds in a game, 1 to {MAX_ROUNDS}", label="Rounds"),
    }

    @classmethod
    def check_setup(cls, setup: Setup) -> None:
        rounds = setup.options["rounds"]
        if not 1 <= rounds <= MAX_ROUNDS:
            raise OptionError(f"option 'rounds' cannot be {rounds}: 1 to {MAX_ROUNDS} allowed",
                              "rounds")

    def _start(self) -> None:
        self.opening = Opening(self.players, HAND_SIZE)
        self._totals: list[int] = []
        self._rows: list[list[int | None]] = []
        self._dice: tuple[int, ...] = ()
        self._rerolled: list[int] = []  # dice picked up by each reroll of this turn
        self.last_turn: Turn | None = None

    # -- options ------------------------------------------------------------------------

    @property
    def several_groups(self) -> bool:
        return bool(self.setup.options["dice_in_several_groups"])

    @property
    def budget(self) -> int | None:
        """Dice a turn may reroll under variation 3; None under the two-reroll rule."""
        value = self.setup.options["reroll_budget"]
        return None if value == "none" else int(value)

    @property
    def rounds(self) -> int:
        return int(self.setup.options["rounds"])

    # -- position -----------------------------------------------------------------------

    @property
    def _round_open(self) -> bool:
        return bool(self._rows) and None in self._rows[-1]

    @property
    def rounds_played(self) -> int:
        return len(self._rows) - self._round_open

    @property
    def round_number(self) -> int:
        return min(self.rounds_played + 1, self.rounds)

    @property
    def starter(self) -> int | None:
        """This round's starting player (the next round's between rounds)."""
        if self.opening.winner is None:
            return None
        return (self.opening.winner + self.rounds_played) % self.players

    @property
    def total(self) -> int | None:
        return self._totals[-1] if self._round_open else None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def sheet(self) -> tuple[tuple[int | None, ...], ...]:
        return tuple(tuple(row) for row in self._rows)

    @property
    def dice(self) -> tuple[int, ...]:
        return self._dice

    @property
    def turn_player(self) -> int | None:
        """Whose turn it is within the open round."""
        if not self._round_open or self.starter is None:
            return None
        done = sum(s is not None for s in self._rows[-1])
        return (self.starter + 1 + done) % self.players

    @property
    def turn_score(self) -> int | None:
        """The score of the five dice showing; None while dice are awaited."""
        if len(self._dice) < HAND_SIZE or self.total is None:
            return None
        return score(self._dice, self.total, self.several_groups)

    @property
    def groups(self) -> tuple[Group, ...]:
        if self.turn_score is None or self.total is None:
            return ()
        return best_split(self._dice, self.total, self.several_groups)

    @property
    def rerolls_left(self) -> int | None:
        return REROLLS - len(self._rerolled) if self.budget is None else None

    @property
    def budget_left(self) -> int | None:
        return None if self.budget is None else self.budget - sum(self._rerolled)

    def advice(self) -> Advice | None:
        """The advisor's best hold for the dice showing; None unless a choice is due."""
        if self.phase is not Phase.MOVE or self.total is None:
            return None
        return advise(self._dice, self.total, rerolls=self.rerolls_left, budget=self.budget_left,
                      several_groups=self.several_groups)

    def prepare_advice(self) -> None:
        """Build the advisor's tables for this round's starting total now, so that no
        :meth:`advice` of the round waits for them (cheap once built; nothing between rounds)."""
        if self.total is not None:
            prepare(self.total, budget=self.budget, several_groups=self.several_groups)

    @property
    def _reroll_limit(self) -> int:
        """The most dice one reroll may pick up now (0: none may)."""
        if self.budget is None:
            return HAND_SIZE if len(self._rerolled) < REROLLS else 0
        return min(HAND_SIZE, self.budget - sum(self._rerolled))

    # -- the GameState interface ----------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.opening.winner is None:
            return Phase.ROLL
        if self.rounds_played >= self.rounds:
            return Phase.OVER
        if not self._round_open or len(self._dice) < HAND_SIZE:
            return Phase.ROLL
        return Phase.MOVE

    @property
    def current_player(self) -> int | None:
        if self.opening.winner is None:
            return self.opening.roller
        if self.phase is Phase.OVER:
            return None
        return self.turn_player if self._round_open else self.starter

    @property
    def dice_wanted(self) -> int:
        if self.phase is not Phase.ROLL:
            return 0
        if self.opening.winner is None:
            return HAND_SIZE
        return HAND_SIZE - len(self._dice) if self._round_open else 2

    def legal_actions(self) -> list[Action]:
        if self.phase is not Phase.MOVE:
            return []
        picks = sorted({pick for size in range(1, self._reroll_limit + 1)
                        for pick in combinations(self._dice, size)}, key=lambda p: (len(p), p))
        return [Stop(), *(Reroll(pick) for pick in picks)]

    def parse_action(self, text: str) -> Action:
        words = text.strip().lower()
        if words == "stop":
            return Stop()
        match = re.fullmatch(r"reroll\b([\d\s,-]*)", words)
        if match is None:
            raise NotationError(
                f"{text!r} is not a Dalmatian move: write 'stop' or 'reroll' and the dice to "
                "pick up, e.g. 'reroll 1-3'")
        dice = tuple(sorted(int(d) for d in re.findall(r"\d+", match.group(1))))
        if not dice:
            raise NotationError(f"{text!r} names no dice: write e.g. 'reroll 1-3'")
        return Reroll(dice)

    def _apply(self, action: Action | Roll) -> None:
        if isinstance(action, Roll):
            self._take_roll(action.dice)
        elif isinstance(action, Stop):
            self._end_turn()
        else:
            self._check_reroll(action)
            rest = Counter(self._dice) - Counter(action.dice)
            self._dice = tuple(sorted(rest.elements()))
            self._rerolled.append(len(action.dice))

    def _take_roll(self, dice: tuple[int, ...]) -> None:
        if self.opening.winner is None:
            self.opening.record(dice)
        elif not self._round_open:
            self._totals.append(sum(dice))
            self._rows.append([None] * self.players)
        else:
            self._dice = tuple(sorted(self._dice + dice))
            if self._reroll_limit == 0 or self.turn_score == HAND_SIZE:
                self._end_turn()

    def _check_reroll(self, action: Reroll) -> None:
        showing = "-".join(map(str, self._dice))
        missing = Counter(action.dice) - Counter(self._dice)
        if missing:
            face = min(missing)
            have = self._dice.count(face)
            count = ("no", "only one", "only two", "only three", "only four")[have]
            raise IllegalAction(f"cannot {action}: the dice show {showing}, {count} {face}")
        if len(action.dice) > self._reroll_limit:
            if self.budget is None:
                raise IllegalAction(f"cannot {action}: both rerolls are used; 'stop' to score")
            raise IllegalAction(
                f"cannot {action}: the reroll budget has {self.budget_left} "
                f"{'die' if self.budget_left == 1 else 'dice'} left")

    def _end_turn(self) -> None:
        player, total = self.turn_player, self.total
        assert player is not None and total is not None
        self._rows[-1][player] = score(self._dice, total, self.several_groups)
        self.last_turn = Turn(player, total, self._dice)
        self._dice = ()
        self._rerolled = []

    def _recorded(self, row: list[int | None]) -> list[int]:
        """What a round adds to each player's total on the score sheet."""
        scores = [s or 0 for s in row]
        if not self.setup.options["round_winner_only"]:
            return scores
        if None in row:
            return [0] * self.players
        best = max(scores)
        return [s if s == best else 0 for s in scores]

    def scores(self) -> tuple[int, ...]:
        totals = [0] * self.players
        for row in self._rows:
            for player, points in enumerate(self._recorded(row)):
                totals[player] += points
        return tuple(totals)

    def result(self) -> Result | None:
        if not self.is_over:
            return None
        final = self.scores()
        return Result(final, rank_by(final))

    def check_invariants(self) -> None:
        assert len(self._rows) == len(self._totals) <= self.rounds
        assert all(2 <= t <= 12 for t in self._totals)
        assert all(None not in row for row in self._rows[:-1]), "an earlier round is unfinished"
        assert all(s is None or 0 <= s <= HAND_SIZE for row in self._rows for s in row)
        assert list(self._dice) == sorted(self._dice) and len(self._dice) <= HAND_SIZE
        assert all(1 <= d <= 6 for d in self._dice)
        assert self._dice == () or self._round_open, "dice showing outside a turn"
        if self.budget is None:
            assert len(self._rerolled) <= REROLLS
        else:
            assert sum(self._rerolled) <= self.budget
        if self._round_open:  # the turns so far go round from the starter's left
            row = self._rows[-1]
            assert self.starter is not None
            order = [(self.starter + 1 + k) % self.players for k in range(self.players)]
            played = [row[p] is not None for p in order]
            assert played == sorted(played, reverse=True), "turns out of order"
