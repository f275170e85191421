"""Center Point: race four markers round concentric circles, through the bypasses, to the centre.

Rules from the rule sheet (it stops in the middle of BYPASS, its examples are lost) and the
Center Point rulings. The board is data, read by :mod:`games.centerpoint_board`; the shipped
board is a reconstruction whose longest route is 110 spaces and shortest 20, as the text says.

Options:

- ``six_enters = false | true``: a 6 may be used as a 1 to move a marker to its start (and
  then grants no extra roll).
- ``board = "centerpoint"``: the name of a shipped board or the path of a board TOML file
  (see the header of ``games/data/centerpoint.toml`` for the format).

Choices where the texts leave the rules open:

- Colours: players take the board's colours in seat order, spread evenly round the board
  (with four colours, two players sit opposite: the first and third colour).
- Markers are numbered 1-4. Markers at the beginning are interchangeable, so they enter in
  number order: only the lowest-numbered one waiting may enter.
- Notation ``m2+5``: marker 2 moves 5 spaces. Entering moves a marker from its beginning to its
  start, which counts as 1 space whatever the die (a 6 used as a 1 also enters with ``m1+1``).
- A position holds one marker. A marker may not land on its own marker or pass over it; it may
  not land on an opponent resting on that opponent's own safety or bypass. Markers sent back
  return to their beginning.
- Short cut: a move that ends exactly on another colour's bypass stops there, and
  the marker's next move goes through that bypass into the next circle. Passing over another
  colour's bypass never turns inward. A marker resting on another colour's bypass is not
  protected: the owner of the bypass sends it back by landing on it or passing over it.
  Landing exactly on another colour's bypass where an opponent of a third colour rests is
  allowed (the ruling): that marker is sent back, and the lander rests there as on a free
  bypass, so its next move takes the short cut.
- A marker passing or landing on its own bypass turns inward into the next circle.
- Blocks: a marker resting on its own safety or bypass blocks every other player. A player
  with no other move may pass any number of blocks with a move that lands exactly on their
  own safety or bypass. A 6 that gives no move at all is carried: the player rolls again and,
  if that roll gives no other move, may pass a block with the new die plus any number of the
  carried sixes ("one or more sixes plus the exact number"). Carried sixes lapse when a
  marker moves or the turn passes.
- The centre needs the exact number. A larger roll may stop the marker on the bypass that
  leads into the centre (its own, or the one it took as a short cut): a move of fewer spaces
  than the die, e.g. ``m2+3`` with a 5. A marker already on that bypass needs a 1.
- A 6 grants another roll after any move except entering with a 6 used as a 1, and also when
  it gives no move. When a roll gives no move otherwise, the turn passes.
- Opening: everyone rolls one die, highest starts, tied players roll again; the opening
  throw is not played.
- The first player with all four markers in the centre wins at once. Scores are markers in
  the centre; the others rank by that count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from games.centerpoint_board import SHIPPED_BOARD, Location, Off, Place, load_board
from games.core import GameState, Opening, Option, Phase, Result, Roll, Setup, rank_by
from games.errors import IllegalAction, NotationError, OptionError
from games.words import count

MARKERS = 4
SIX = 6
MOVE_NOTATION = re.compile(r"\s*m?\s*(\d+)\s*\+\s*(\d+)\s*", re.IGNORECASE)

Occupants = dict[Place, tuple[int, int]]  # place -> (player, marker index)


@dataclass(frozen=True)
class Move:
    """Marker ``marker`` (1-4) of the player to move goes ``steps`` spaces: ``m2+5``."""

    marker: int
    steps: int

    def __str__(self) -> str:
        return f"m{self.marker}+{self.steps}"


@dataclass(frozen=True)
class _Plan:
    """A checked move and what it does."""

    move: Move
    destination: Location
    sends_back: tuple[tuple[int, int], ...]  # (player, marker index) returned to the beginning
    enters: bool


class CenterPoint(GameState[Move]):
    """A game of Center Point.

    Read-only position for screens:

    - ``board``: the :class:`~games.centerpoint_board.Board` (circles, starts, safeties,
      bypasses and where they lead);
    - ``colours``: the board colour index of each player;
    - ``markers``: per player, the location of markers 1-4: a
      :class:`~games.centerpoint_board.Place` or ``Off.BEGINNING`` / ``Off.CENTRE``;
    - ``die``: the die the player to move must play (None while a roll is due);
    - ``carried``: sixes rolled this turn that gave no move (they help pass a block);
    - ``opening``: the opening rolls (:class:`~games.core.Opening`);
    - ``winner``: the player who brought all four markers to the centre, else None;
    - :meth:`occupant` and :meth:`is_protected` answer questions about single positions.
    """

    NAME = "centerpoint"
    TITLE = "Center Point"
    SUMMARY = "race four markers round the circles and through the bypasses to the centre"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    THROW_SHOWN = False
    NO_MOVE_TOLD = True
    OPTIONS = {
        "six_enters": Option(False, "a 6 may be used as a 1 to enter a marker",
                             label="A 6 enters too"),
        "board": Option(SHIPPED_BOARD, "a shipped board's name or the path of a board file",
                        label="Board"),
    }

    @classmethod
    def check_setup(cls, setup: Setup) -> None:
        board = load_board(setup.options["board"])
        if setup.players > len(board.colours):
            raise OptionError(
                f"board {board.name} has {len(board.colours)} colours, "
                f"so at most {len(board.colours)} can play, not {setup.players}"
            )

    def _start(self) -> None:
        self.board = load_board(self.setup.options["board"])
        self.opening = Opening(self.players, 1)
        self._where: list[list[Location]] = [[Off.BEGINNING] * MARKERS for _ in self.setup.names]
        self.turn = 0
        self.die: int | None = None
        self.carried = 0
        self.winner: int | None = None

    # -- the position ---------------------------------------------------------------------

    @cached_property
    def colours(self) -> tuple[int, ...]:
        count = len(self.board.colours)
        return tuple(player * count // self.players for player in range(self.players))

    @property
    def markers(self) -> tuple[tuple[Location, ...], ...]:
        return tuple(tuple(row) for row in self._where)

    def occupant(self, place: Place) -> tuple[int, int] | None:
        """(player, marker number 1-4) of the marker on ``place``, or None."""
        found = self._occupants().get(place)
        return None if found is None else (found[0], found[1] + 1)

    def is_protected(self, player: int, place: Place) -> bool:
        """Whether a marker of ``player`` on ``place`` rests on its own safety or bypass."""
        mark = self.board.marks.get(place)
        return mark is not None and mark.colour == self.colours[player]

    @property
    def phase(self) -> Phase:
        if self.winner is not None:
            return Phase.OVER
        return Phase.ROLL if self.die is None else Phase.MOVE

    @property
    def current_player(self) -> int | None:
        if self.winner is not None:
            return None
        return self.opening.roller if self.opening.winner is None else self.turn

    @property
    def dice_wanted(self) -> int:
        return 1 if self.phase is Phase.ROLL else 0

    def legal_actions(self) -> list[Move]:
        if self.die is None or self.winner is not None:
            return []
        return [plan.move for plan in self._legal_plans(self.die)]

    def scores(self) -> tuple[int, ...]:
        return tuple(row.count(Off.CENTRE) for row in self._where)

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result(self.scores(), rank_by(self.scores()))

    # -- notation -------------------------------------------------------------------------

    def parse_action(self, text: str) -> Move:
        match = MOVE_NOTATION.fullmatch(text)
        if match is None:
            raise NotationError(
                f"{text!r} is not a Center Point move: write m<marker>+<spaces>, e.g. m2+5"
            )
        marker, steps = int(match.group(1)), int(match.group(2))
        if not 1 <= marker <= MARKERS:
            raise NotationError(f"{text!r}: there is no marker {marker}; markers are 1 to 4")
        if steps < 1:
            raise NotationError(f"{text!r}: a move goes at least 1 space")
        return Move(marker, steps)

    # -- playing --------------------------------------------------------------------------

    def _apply(self, action: Move | Roll) -> None:
        if isinstance(action, Roll):
            self._roll(action)
        else:
            self._perform(self._checked_plan(action))

    def _roll(self, roll: Roll) -> None:
        if self.opening.winner is None:
            first = self.opening.record(roll.dice)
            if first is not None:
                self.turn = first
            return
        die = roll.dice[0]
        if self._legal_plans(die):
            self.die = die
        elif die == SIX:
            self.carried += SIX  # no move: roll again, and the six may help pass a block
        else:
            self._pass_turn()

    def _perform(self, plan: _Plan) -> None:
        die = self.die
        for player, index in plan.sends_back:
            self._where[player][index] = Off.BEGINNING
        self._where[self.turn][plan.move.marker - 1] = plan.destination
        self.die = None
        self.carried = 0
        if all(where is Off.CENTRE for where in self._where[self.turn]):
            self.winner = self.turn
        elif die != SIX or plan.enters:
            self._pass_turn()

    def _pass_turn(self) -> None:
        self.carried = 0
        self.turn = (self.turn + 1) % self.players

    # -- the move generator ---------------------------------------------------------------

    def _occupants(self) -> Occupants:
        return {
            where: (player, index)
            for player, row in enumerate(self._where)
            for index, where in enumerate(row)
            if isinstance(where, Place)
        }

    def _legal_plans(self, die: int) -> list[_Plan]:
        """Ordinary moves; only when there are none, the moves that pass a block."""
        occupants = self._occupants()
        return self._ordinary_plans(die, occupants) or self._passing_plans(die, occupants)

    def _ordinary_plans(self, die: int, occupants: Occupants) -> list[_Plan]:
        plans = (self._plan(move, False, occupants) for move in self._ordinary_moves(die))
        return [plan for plan in plans if isinstance(plan, _Plan)]

    def _passing_plans(self, die: int, occupants: Occupants) -> list[_Plan]:
        plans = (
            self._plan(Move(index + 1, steps), True, occupants)
            for index, where in enumerate(self._where[self.turn])
            if isinstance(where, Place)
            for steps in self._block_passing_steps(die)
        )
        return [plan for plan in plans if isinstance(plan, _Plan)]

    def _ordinary_moves(self, die: int) -> Iterator[Move]:
        """One candidate per marker: enter, move the die, or stop on the last bypass."""
        row = self._where[self.turn]
        if Off.BEGINNING in row and die in self._entering_faces():
            yield Move(row.index(Off.BEGINNING) + 1, 1)
        for index, where in enumerate(row):
            if isinstance(where, Place):
                steps = self._steps_for(where, die)
                if steps is not None:
                    yield Move(index + 1, steps)

    def _steps_for(self, place: Place, die: int) -> int | None:
        """The die, or fewer spaces when the centre is nearer (None: already on its bypass)."""
        path = self.board.path(self.colours[self.turn], place, die)
        if len(path) == die:
            return die
        return len(path) - 1 if len(path) > 1 else None

    def _block_passing_steps(self, die: int) -> range:
        """The die plus any number of the carried sixes."""
        return range(die, die + self.carried + 1, SIX)

    def _entering_faces(self) -> tuple[int, ...]:
        return (1, SIX) if self.setup.options["six_enters"] else (1,)

    def _plan(self, move: Move, passing_blocks: bool, occupants: Occupants) -> _Plan | str:
        """The move checked against the position: a plan, or why it is not allowed."""
        player, colour = self.turn, self.colours[self.turn]
        where = self._where[player][move.marker - 1]
        if where is Off.CENTRE:
            return f"marker {move.marker} is already in the centre"
        if where is Off.BEGINNING:
            path: tuple[Location, ...] = (self.board.starts[colour],)
        else:
            path = self.board.path(colour, where, move.steps)
            if len(path) < move.steps:
                return (f"marker {move.marker} is {len(path)} spaces from the centre, "
                        "which needs the exact number")
        blocks: list[Place] = []
        sends_back: list[tuple[int, int]] = []
        for place in path[:-1]:
            assert isinstance(place, Place)
            found = occupants.get(place)
            if found is None:
                continue
            if found[0] == player:
                return f"marker {move.marker} may not pass your marker {found[1] + 1} on {place}"
            if self.is_protected(found[0], place):
                blocks.append(place)
            elif self.is_protected(player, place):
                sends_back.append(found)
        end = path[-1]
        found = occupants.get(end) if isinstance(end, Place) else None
        if isinstance(end, Place) and found is not None:
            problem = self._landing_problem(end, found)
            if problem:
                return problem
            sends_back.append(found)
        if blocks and not passing_blocks:
            return self._describe_block(blocks[0], occupants[blocks[0]][0]) + " and blocks the way"
        if passing_blocks and not blocks:
            return f"carried sixes only help to pass a block, and marker {move.marker} passes none"
        if passing_blocks and not (isinstance(end, Place) and self.is_protected(player, end)):
            return (self._describe_block(blocks[0], occupants[blocks[0]][0]) + "; with no "
                    "other move a block may be passed only by landing exactly on your own "
                    "safety or bypass")
        return _Plan(move, end, tuple(sends_back), where is Off.BEGINNING)

    def _landing_problem(self, place: Place, found: tuple[int, int]) -> str | None:
        """Why a marker may not land on ``place`` held by ``found``; None if it sends it back."""
        player, index = found
        if player == self.turn:
            return f"your marker {index + 1} already stands on {place}"
        if self.is_protected(player, place):
            return self._describe_block(place, player) + ", where it cannot be sent back"
        return None

    def _describe_block(self, place: Place, player: int) -> str:
        return f"{self.name(player)}'s marker rests on {self.board.mark_name(place)} on {place}"

    # -- checked moves --------------------------------------------------------------------

    def _checked_plan(self, move: Move) -> _Plan:
        assert self.die is not None
        legal = self._legal_plans(self.die)
        for plan in legal:
            if plan.move == move:
                return plan
        raise IllegalAction(self._why_not(move, [plan.move for plan in legal]))

    def _why_not(self, move: Move, legal: list[Move]) -> str:
        """A player's explanation of why ``move`` is not among ``legal``."""
        assert self.die is not None
        die, where = self.die, self._where[self.turn][move.marker - 1]
        occupants = self._occupants()
        passing = not self._ordinary_plans(die, occupants)
        others = ", ".join(str(m) for m in legal)
        reason: _Plan | str
        if where is Off.BEGINNING:
            waiting = self._where[self.turn].index(Off.BEGINNING) + 1
            faces = " or ".join(str(f) for f in self._entering_faces())
            if die not in self._entering_faces():
                reason = f"marker {move.marker} is at the beginning: entering needs a {faces}"
            elif waiting != move.marker:
                reason = f"markers enter in number order: marker {waiting} enters first"
            elif move.steps != 1:
                reason = f"entering moves marker {move.marker} 1 space, to its start: m{waiting}+1"
            else:
                reason = self._plan(move, False, occupants)
        elif isinstance(where, Place):
            steps = self._steps_for(where, die)
            if steps is None:
                reason = f"marker {move.marker} is on its last bypass: only a 1 takes it home"
            elif move.steps == steps or (passing and move.steps in self._block_passing_steps(die)):
                reason = self._plan(move, passing, occupants)
            elif steps != die:
                reason = (f"marker {move.marker} cannot reach the centre with a {die}; it may "
                          f"stop on its last bypass: m{move.marker}+{steps}")
            else:
                reason = f"the die shows {die}: marker {move.marker} moves {count(die, 'space')}"
        else:
            reason = self._plan(move, False, occupants)
        text = reason if isinstance(reason, str) else f"{move} is not a move for a {die}"
        return f"{text}; play {others}" if others else text

    # -- consistency ----------------------------------------------------------------------

    def check_invariants(self) -> None:
        places = [w for row in self._where for w in row if isinstance(w, Place)]
        assert len(places) == len(set(places)), f"two markers share a position: {places}"
        for place in places:
            assert 1 <= place.circle <= len(self.board.sizes), place
            assert 0 <= place.position < self.board.sizes[place.circle - 1], place
        assert all(len(row) == MARKERS for row in self._where)
        assert self.carried % SIX == 0 and self.carried >= 0, self.carried
        finished = [p for p in range(self.players) if self.scores()[p] == MARKERS]
        assert finished == ([] if self.winner is None else [self.winner]), finished
        if self.phase is Phase.MOVE:
            assert self.legal_actions(), "a move is due but none is legal"
