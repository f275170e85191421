"""Sequence Dice: roll two dice, cover a cell of that number, be first to a line of chips.

The board has four cells each of 2 to 9 and 12 (corners are 2s, the centre block 12s) and
none of 10 or 11. Each side (player, or team of two) has one colour of chips.

Rolls
    2-9 or 12   place a chip on an empty cell of that number; if all four are covered,
                replace one opponent chip on them; if all four are yours, the turn ends.
    10          defensive: remove one opponent chip, not from a 2 or 12 cell; the turn ends
                when there is none.
    11          wild: place a chip on any empty cell; on a full board replace one opponent
                chip; the turn ends when there is none to replace.
    2 or 12     another turn follows, also when nothing could be placed.
A placement (or replacement) that makes a line of ``sequence_length`` own chips across, down
or diagonally wins at once.

Options
    sequence_length = 5 | 6
        Chips in a line to win. The rule sheet recommends 6 when two sides play (two players
        or two teams): :meth:`SequenceDice.recommended_options` says so to a set-up screen.
    wild_may_replace_corner_and_centre = true | false
        Whether a wild 11 on a full board may replace a chip on a 2 or 12 cell.

Choices the rule sheet and rulings leave open
    - Cells are written column letter A-F (left to right) and row number 1-6, row 1 being the
      far edge as the board is printed in the rules, so "A1" is the far left corner, as
      read on a screen drawn top to bottom.
    - Four players are two teams: seats 1 and 3 against seats 2 and 4, one colour a team.
      Turns pass to the left in seat order, so the team colours alternate.
    - Opening: every player (all four in the team game) rolls both dice; the highest total
      starts; only tied players roll again.
    - The 10 removal is compulsory whenever an opponent chip can be removed.
    - The wild 11 may cover any empty cell, 2 and 12 cells included; only a rolled total of 2
      or 12 gives another turn, never a chip placed on such a cell with an 11.
    - Another turn on 2 or 12 is one more roll by the same player; it chains.
    - The 20 chips a colour has are not counted: a table that ran short would fetch more
      rather than stop the game.
    - A line longer than ``sequence_length`` wins as well. The winning line reported is the
      longest run of own chips through the chip just placed.
    - The scoreboard shows each player's longest run of own chips (team mates share it); the
      result ranks the winning side first and every other player second, together.

Notation: ``place B3``, ``replace B3``, ``remove B3``; a bare ``B3`` means the one kind of
move the roll allows.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from games.core import GameState, Opening, Option, Phase, Result, Roll
from games.errors import IllegalAction, NotationError

SIZE = 6
BOARD: tuple[tuple[int, ...], ...] = (
    (2, 3, 4, 5, 6, 2),
    (6, 7, 8, 9, 7, 3),
    (5, 9, 12, 12, 8, 4),
    (4, 8, 12, 12, 9, 5),
    (3, 7, 9, 8, 7, 6),
    (2, 6, 5, 4, 3, 2),
)
"""The printed numbers; ``BOARD[row][col]``, row 0 (notation row 1) being the far edge."""

CORNER_AND_CENTRE = frozenset({2, 12})
"""Numbers whose cells a 10 cannot clear, and rolled totals that give another turn."""
DEFENSIVE = 10
WILD = 11
COLOURS = ("green", "blue", "red")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # across, down, diagonal, anti-diagonal
COLUMN_LETTERS = "ABCDEF"


class Cell(NamedTuple):
    """A board cell; written column letter and row number, e.g. ``B3``."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    @property
    def number(self) -> int:
        return BOARD[self.row][self.col]

    def __deepcopy__(self, memo: dict[int, Any]) -> Cell:
        """A cell is a value: a copied position shares it (copying each chip's cell took
        most of the time a recogniser's trial of a move takes)."""
        return self

    @classmethod
    def parse(cls, text: str) -> Cell:
        match = re.fullmatch(r"\s*([a-f])\s*([1-6])\s*", text, re.IGNORECASE)
        if match is None:
            raise NotationError(
                f"{text!r} is not a cell: write a column A-F and a row 1-6, e.g. B3"
            )
        return cls(int(match.group(2)) - 1, COLUMN_LETTERS.index(match.group(1).upper()))


CELLS = tuple(Cell(row, col) for row in range(SIZE) for col in range(SIZE))


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


@cache
def cells_numbered(number: int) -> tuple[Cell, ...]:
    """The cells printed with ``number`` (none for 10 and 11)."""
    return tuple(cell for cell in CELLS if cell.number == number)


@cache
def lines(length: int) -> tuple[tuple[Cell, ...], ...]:
    """Every straight run of ``length`` cells across, down and along both diagonals."""
    found = []
    for d_row, d_col in DIRECTIONS:
        for start in CELLS:
            end_row, end_col = start.row + d_row * (length - 1), start.col + d_col * (length - 1)
            if on_board(end_row, end_col):
                found.append(tuple(
                    Cell(start.row + d_row * i, start.col + d_col * i) for i in range(length)
                ))
    return tuple(found)


def a_number(number: int) -> str:
    """``a 2``, ``an 8``, ``an 11``: a number as a sentence says it."""
    return f"an {number}" if number in (8, 11) else f"a {number}"


def seat_colours(players: int) -> tuple[int, ...]:
    """Each seat's colour: one each, except four players, who are two teams (1+3, 2+4)."""
    return (0, 1, 0, 1) if players == 4 else tuple(range(players))


class Verb(enum.Enum):
    PLACE = "place"  # a chip on an empty cell
    REPLACE = "replace"  # an opponent chip by an own chip
    REMOVE = "remove"  # an opponent chip, on a defensive 10


@dataclass(frozen=True)
class ChipMove:
    """What the player does with the rolled total: ``place B3``, ``replace B3``, ``remove B3``."""

    verb: Verb
    cell: Cell

    def __str__(self) -> str:
        return f"{self.verb.value} {self.cell}"

    @classmethod
    def parse(cls, text: str) -> ChipMove:
        """A move written in full, verb and cell: ``place B3``."""
        words = text.split()
        verbs = {verb.value: verb for verb in Verb}
        if len(words) != 2 or words[0].lower() not in verbs:
            raise NotationError(
                f"{text!r} is not a move: write place, replace or remove and a cell, e.g. place B3"
            )
        return cls(verbs[words[0].lower()], Cell.parse(words[1]))


class SequenceDice(GameState[ChipMove]):
    """Sequence Dice for 2 or 3 players, or 4 as two teams.

    What a screen draws from:
      ``board``           rows of chips: each cell's colour index, or None when empty
      ``chip(cell)``      one cell's colour index or None; ``BOARD`` holds the numbers
      ``colours``         each seat's colour index into ``COLOURS`` (team mates share one)
      ``dice``            the dice last thrown (opening throws included), None before any
      ``total_to_play``   the rolled total awaiting a move, None unless the phase is MOVE
      ``opening``         the opening throws while the first player is being decided
      ``winning_line``    the cells of the winning line once the game is over
    """

    NAME = "sequence"
    TITLE = "Sequence Dice"
    SUMMARY = "cover the numbers you roll; first to five (or six) chips in a line wins"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    THROW_SHOWN = False
    NO_MOVE_TOLD = True
    OPTIONS = {
        "sequence_length": Option(5, "chips in a line to win (6 is advised for two sides)",
                                  (5, 6), label="Chips in a line"),
        "wild_may_replace_corner_and_centre": Option(
            True, "a wild 11 on a full board may replace a chip on a 2 or 12 cell",
            label="11 replaces 2/12"),
    }

    @classmethod
    def recommended_options(cls, players: int) -> dict[str, Any]:
        """The rule sheet's advice: a sequence of six when two sides play."""
        sides = len(set(seat_colours(players)))
        return {"sequence_length": 6 if sides == 2 else 5}

    @classmethod
    def seat_sides(cls, players: int) -> tuple[int, ...]:
        return seat_colours(players)

    def _start(self) -> None:
        self.opening: Opening | None = Opening(self.players, dice=2)
        self.turn = 0
        self.dice: tuple[int, ...] | None = None
        self.total_to_play: int | None = None
        self.winning_line: tuple[Cell, ...] | None = None
        self._chips: dict[Cell, int] = {}

    # -- the position ---------------------------------------------------------------------

    @property
    def sequence_length(self) -> int:
        length: int = self.setup.options["sequence_length"]
        return length

    @property
    def colours(self) -> tuple[int, ...]:
        return seat_colours(self.players)

    def colour(self, player: int) -> int:
        return self.colours[player]

    def players_of(self, colour: int) -> tuple[int, ...]:
        return tuple(p for p, c in enumerate(self.colours) if c == colour)

    def chip(self, cell: Cell) -> int | None:
        return self._chips.get(cell)

    @property
    def taken(self) -> frozenset[Cell]:
        """The cells holding a chip."""
        return frozenset(self._chips)

    @property
    def board(self) -> tuple[tuple[int | None, ...], ...]:
        return tuple(
            tuple(self._chips.get(Cell(row, col)) for col in range(SIZE)) for row in range(SIZE)
        )

    def colour_label(self, colour: int) -> str:
        """A colour as players know it: ``blue (P2+P4)``."""
        return f"{COLOURS[colour]} ({'+'.join(self.name(p) for p in self.players_of(colour))})"

    def longest_run(self, colour: int) -> int:
        """The most chips of ``colour`` in one straight unbroken line.

        The chips are bits of one integer, a row of eight a board row (the two spare
        columns keep a shift from running into the next row); ``run &= run >> step`` keeps
        the chips whose neighbour one step on is kept too, so a direction's longest run is
        how many times that can be done before none is left. The screen asks after every
        move."""
        board = 0
        for cell, owner in self._chips.items():
            if owner == colour:
                board |= 1 << (cell.row * 8 + cell.col)
        best = 0
        for d_row, d_col in DIRECTIONS:
            step = d_row * 8 + d_col
            run, length = board, 0
            while run:
                length += 1
                run &= run >> step
            best = max(best, length)
        return best

    def _reach(self, cell: Cell, d_row: int, d_col: int) -> list[Cell]:
        """The cells beyond ``cell`` in one direction holding the same colour, nearest first."""
        colour = self._chips[cell]
        found = []
        row, col = cell.row + d_row, cell.col + d_col
        while on_board(row, col) and self._chips.get(Cell(row, col)) == colour:
            found.append(Cell(row, col))
            row, col = row + d_row, col + d_col
        return found

    def _line_through(self, cell: Cell) -> tuple[Cell, ...] | None:
        """The longest winning run through ``cell``, or None."""
        best: tuple[Cell, ...] | None = None
        for d_row, d_col in DIRECTIONS:
            run = [*self._reach(cell, -d_row, -d_col), cell, *self._reach(cell, d_row, d_col)]
            if len(run) >= self.sequence_length and (best is None or len(run) > len(best)):
                best = tuple(sorted(run))
        return best

    # -- the game API ---------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.winning_line is not None:
            return Phase.OVER
        return Phase.ROLL if self.total_to_play is None else Phase.MOVE

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        if self.opening is not None:
            return self.opening.roller
        return self.turn

    @property
    def dice_wanted(self) -> int:
        return 2 if self.phase is Phase.ROLL else 0

    def legal_actions(self) -> list[ChipMove]:
        if self.total_to_play is None:
            return []
        return self._choices(self.total_to_play)

    def _choices(self, total: int) -> list[ChipMove]:
        mine = self.colour(self.turn)

        def opponent(cell: Cell) -> bool:
            return self._chips.get(cell, mine) != mine

        if total == DEFENSIVE:
            return [ChipMove(Verb.REMOVE, cell) for cell in CELLS
                    if opponent(cell) and cell.number not in CORNER_AND_CENTRE]
        targets = CELLS if total == WILD else cells_numbered(total)
        empty = [ChipMove(Verb.PLACE, cell) for cell in targets if cell not in self._chips]
        if empty:
            return empty
        protected = (total == WILD
                     and not self.setup.options["wild_may_replace_corner_and_centre"])
        return [ChipMove(Verb.REPLACE, cell) for cell in targets
                if opponent(cell) and not (protected and cell.number in CORNER_AND_CENTRE)]

    def parse_action(self, text: str) -> ChipMove:
        words = text.split()
        if len(words) == 1:
            legal = self.legal_actions()
            return ChipMove(legal[0].verb if legal else Verb.PLACE, Cell.parse(words[0]))
        return ChipMove.parse(text)

    def _apply(self, action: ChipMove | Roll) -> None:
        if isinstance(action, Roll):
            self._roll(action.dice)
        else:
            self._move(action)

    def _roll(self, dice: tuple[int, ...]) -> None:
        self.dice = dice
        if self.opening is not None:
            starter = self.opening.record(dice)
            if starter is not None:
                self.turn = starter
                self.opening = None
            return
        total = sum(dice)
        if self._choices(total):
            self.total_to_play = total
        else:
            self._end_turn(total)

    def _move(self, action: ChipMove) -> None:
        total = self.total_to_play
        assert total is not None  # apply() lets moves through only in the MOVE phase
        legal = self._choices(total)
        if action not in legal:
            raise IllegalAction(self._refusal(action, total, legal))
        if action.verb is Verb.REMOVE:
            del self._chips[action.cell]
        else:
            self._chips[action.cell] = self.colour(self.turn)
            self.winning_line = self._line_through(action.cell)
            if self.winning_line is not None:
                self.total_to_play = None
                return
        self._end_turn(total)

    def _end_turn(self, total: int) -> None:
        self.total_to_play = None
        if total not in CORNER_AND_CENTRE:
            self.turn = (self.turn + 1) % self.players

    def _refusal(self, action: ChipMove, total: int, legal: Sequence[ChipMove]) -> str:
        """Why ``action`` is not among ``legal`` (never empty), and what is allowed."""
        verb, cell = legal[0].verb, action.cell
        holder = self._chips.get(cell)
        mine = self.colour(self.turn)
        if action.verb is not verb:
            why = f"a roll of {total} {self._duty(total, verb)}, it does not {action.verb.value}"
        elif total not in (DEFENSIVE, WILD) and cell.number != total:
            why = f"{cell} is {a_number(cell.number)}, the roll is {total}"
        elif holder is None and verb is not Verb.PLACE:
            why = f"{cell} is empty"
        elif holder == mine:
            why = f"{cell} holds your own chip"
        elif holder is not None and verb is Verb.PLACE:
            why = f"{cell} is taken: {self.colour_label(holder)} holds it"
        elif verb is Verb.REMOVE:
            why = f"{cell} is a {cell.number} cell: a defensive 10 cannot clear 2 or 12 cells"
        else:
            why = (f"{cell} is a {cell.number} cell: a wild 11 may not replace chips on 2 or 12 "
                   f"cells (option wild_may_replace_corner_and_centre)")
        cells = [str(move.cell) for move in legal]
        allowed = ", ".join(cells) if len(cells) <= 8 else f"any of {len(cells)} cells"
        return f"{why}; allowed: {verb.value} {allowed}"

    @staticmethod
    def _duty(total: int, verb: Verb) -> str:
        if verb is Verb.REMOVE:
            return "removes an opponent chip (not from a 2 or 12 cell)"
        if verb is Verb.PLACE:
            where = "any empty cell" if total == WILD else f"an empty {total}"
            return f"places a chip on {where}"
        if total == WILD:
            return "replaces an opponent chip: the board is full"
        return f"replaces an opponent chip: all four {total}s are covered"

    def scores(self) -> tuple[int, ...]:
        runs = [self.longest_run(colour) for colour in range(len(set(self.colours)))]
        return tuple(runs[colour] for colour in self.colours)

    def result(self) -> Result | None:
        if self.winning_line is None:
            return None
        winners = self.players_of(self._chips[self.winning_line[0]])
        others = tuple(p for p in range(self.players) if p not in winners)
        return Result(self.scores(), (winners, others))

    def check_invariants(self) -> None:
        sides = len(set(self.colours))
        assert all(cell in CELLS and 0 <= c < sides for cell, c in self._chips.items()), \
            f"a chip off the board or of no side's colour: {self._chips}"
        assert self.phase is not Phase.MOVE or self.legal_actions(), "MOVE with no choice"
        assert self.opening is None or self.total_to_play is None, "a move during the opening"
        complete = [line for line in lines(self.sequence_length)
                    if len({self._chips.get(cell) for cell in line} - {None}) == 1
                    and all(cell in self._chips for cell in line)]
        if self.winning_line is None:
            assert not complete, f"a sequence stands but the game goes on: {complete[0]}"
        else:
            owners = {self._chips.get(cell) for cell in self.winning_line}
            assert len(owners) == 1 and None not in owners, "the winning line is not one colour"
            assert self.winning_line in lines(len(self.winning_line)), "the line is not straight"
