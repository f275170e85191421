"""Sequence Dice: the 6x6 board in miniature, the roll and what it allows, whose chips are whose.

The board takes the left of the body, one 8-pixel cell per square: a dot marks an empty
cell, a plus an empty cell the roll allows, and the cell under the cursor is inverted. At
the end the winning line is inverted. On the right: the total big with what it does and
the cell the knob is on (else whose colour plays next and the last roll), and under it, all
game long in the same place, a legend naming the colour of each chip pattern (filled green,
hollow blue, a red cross) with each side's longest run, a pointer at the colour to play; the
choices are the board's marked cells, so no list comes and goes with each roll.
"""

from __future__ import annotations

from functools import lru_cache

from firmware_host.screens.banner import BODY_TOP, HEIGHT, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.chips import CHIP, draw_chip
from firmware_host.screens.font import BIG, SMALL, fit
from firmware_host.screens.opening import draw_opening
from firmware_host.screens.pointed import MARK, draw_mark
from firmware_host.screens.standings import winners_title
from firmware_host.views import GameView
from games.sequence import CELLS, COLOURS, DEFENSIVE, SIZE, WILD, Cell, ChipMove, SequenceDice

CELL = 8
BOARD_TOP = HEIGHT  # the board's 48 rows fill the screen below the band
PANEL = SIZE * CELL + 3  # left edge of the panel beside the board
LINE = 9


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    assert isinstance(game, SequenceDice)
    if game.opening is not None:
        draw_opening(canvas, game, game.opening, view.rolling or (), view.thrower)
        return
    chips = tuple(game.chip(cell) for cell in CELLS)
    result = game.result()
    if result is not None:
        draw_banner(canvas, winners_title(game, result), ("game", "over"))
        _draw_board(canvas, chips, set(game.winning_line or ()), set(), None)
        _draw_legend(canvas, game, chips, BODY_TOP + 1)
        return
    dice = view.rolling or (game.dice if game.total_to_play is not None else None) or ()
    draw_banner(canvas, turn_title(game, view.thrower), () if dice else ("roll", "2 dice"),
                dice)
    moves = _moves(view)
    cursor = moves[view.cursor].cell if 0 <= view.cursor < len(moves) else None
    _draw_board(canvas, chips, set(), {m.cell for m in moves}, cursor)
    total = game.total_to_play
    if total is None:
        _draw_last_roll(canvas, game)
    else:
        _draw_total(canvas, game, total, moves, cursor)
    _draw_legend(canvas, game, chips, BODY_TOP + 2 * LINE)  # in one place all game


def _moves(view: GameView) -> list[ChipMove]:
    """The choices as moves (the referee lists them in notation, in full)."""
    return [_move(text) for text in view.choices]


@lru_cache(maxsize=256)
def _move(text: str) -> ChipMove:
    return ChipMove.parse(text)


def _draw_board(canvas: Canvas, chips: tuple[int | None, ...], lit: set[Cell],
                allowed: set[Cell], cursor: Cell | None) -> None:
    """The board a row of cells at a time, each row's pixels drawn once for what its six
    cells show and kept: a move changes one or two rows."""
    marked = {cell.row * SIZE + cell.col for cell in allowed}
    inverted = {cell.row * SIZE + cell.col for cell in lit}
    if cursor is not None:
        inverted.add(cursor.row * SIZE + cursor.col)
    states = [(-1 if chip is None else chip, index in marked, index in inverted)
              for index, chip in enumerate(chips)]  # chips are in CELLS order, row by row
    for row in range(SIZE):
        bitmap = _board_row(tuple(states[row * SIZE : (row + 1) * SIZE]))
        canvas.stamp(0, BOARD_TOP + row * CELL, SIZE * CELL, bitmap)


@lru_cache(maxsize=1024)
def _board_row(states: tuple[tuple[int, bool, bool], ...]) -> tuple[int, ...]:
    """One row of cells from each cell's (chip or -1, allowed, inverted), put together from
    the cells' own bitmaps: a roll's marks change several rows at once, and a row made of
    kept cells costs a fifth of one drawn."""
    cells = [_cell(*state) for state in states]
    shifts = [(SIZE - 1 - col) * CELL for col in range(SIZE)]
    return tuple(sum(cell[r] << shift for cell, shift in zip(cells, shifts, strict=True))
                 for r in range(CELL))


@lru_cache(maxsize=32)
def _cell(chip: int, allowed: bool, inverted: bool) -> tuple[int, ...]:
    """One cell: a dot marks it empty, a plus empty and allowed by the roll; inverted, the
    cell is lit and its mark dark. Everything stays inside the cell's 8x8 pixels."""
    canvas = Canvas()
    if inverted:
        canvas.fill(0, 0, CELL, CELL)
    if chip >= 0:
        draw_chip(canvas, 1, 1, chip, on=not inverted)
    elif allowed:
        canvas.fill(1, 3, 5, 1, on=not inverted)
        canvas.fill(3, 1, 1, 5, on=not inverted)
    else:
        canvas.dot(3, 3, on=not inverted)
    return canvas.cut(0, 0, CELL, CELL)


def _draw_total(canvas: Canvas, game: SequenceDice, total: int, moves: list[ChipMove],
                cursor: Cell | None) -> None:
    """The rolled total big, and in small letters what it does and to which cell: the
    board shows the cells allowed (``+``) and the one the knob is on (inverted); the
    legend below says whose colour is whose."""
    x = canvas.text(PANEL, BODY_TOP, str(total), BIG) + 2  # a word's gap from the number
    verb = moves[0].verb.value if moves else "pass"
    kind = {WILD: "wild", DEFENSIVE: "defend"}.get(total, f"on {total}s")
    canvas.text(x, BODY_TOP, verb)
    where = f"{cursor} {kind}" if cursor is not None else kind
    if cursor is not None and SMALL.width(where) > canvas.width - x:
        where = str(cursor)  # the verb above says what the cell is for
    canvas.text(x, BODY_TOP + LINE, fit(where, SMALL, canvas.width - x))


def _draw_last_roll(canvas: Canvas, game: SequenceDice) -> None:
    """Between turns: the colour to play next and the dice that were last thrown, on the
    rows of the total's two lines (pages 2 and 3), so a roll rewrites those pages only."""
    draw_chip(canvas, PANEL, BODY_TOP + 1, game.colour(game.turn))
    canvas.text(PANEL + CHIP + 3, BODY_TOP, "to play")
    if game.dice:
        last = f"last {'+'.join(map(str, game.dice))}={sum(game.dice)}"
        canvas.text(PANEL, BODY_TOP + LINE, fit(last, SMALL, canvas.width - PANEL))


def _draw_legend(canvas: Canvas, game: SequenceDice, chips: tuple[int | None, ...],
                 top: int) -> None:
    """Each colour in play: its pattern, its name (the chips on the table are coloured,
    and messages name colours: "put a blue chip on B3") and its longest run, ``run 3``;
    the colour of the player named in the band pointed at, as the lists point at their
    item: a turn moves a three-pixel pointer, not a row's inversion, across the wire."""
    scores = _scores(game, chips)
    entries = []
    for colour in range(len(COLOURS)):
        players = game.players_of(colour)
        if players:
            entries.append((colour, f"run {scores[players[0]]}"))
    turn = game.current_player
    playing = game.colour(turn) if turn is not None else None
    canvas.stamp(PANEL, top, canvas.width - PANEL, _legend(tuple(entries), playing))


@lru_cache(maxsize=32)
def _legend(entries: tuple[tuple[int, str], ...], playing: int | None) -> tuple[int, ...]:
    """The legend's pixels for each colour's (colour, run) and the colour playing, drawn
    once and kept."""
    canvas = Canvas()
    width = canvas.width - PANEL
    chip_x = MARK + 1
    for colour, run in entries:
        y = colour * LINE
        if colour == playing:
            draw_mark(canvas, 0, y + 1)
        draw_chip(canvas, chip_x, y + 1, colour)  # as on the board: a filled chip never hollow
        canvas.text(chip_x + CHIP + 3, y + 1, COLOURS[colour])
        canvas.text_right(width - 1, y + 1, run)
    return canvas.cut(0, 0, width, len(COLOURS) * LINE)


_last_scores: tuple[tuple[object, ...], tuple[int, ...]] = ((), ())


def _scores(game: SequenceDice, chips: tuple[int | None, ...]) -> tuple[int, ...]:
    """``game.scores()``, kept while the chips and seats stay as they are: the legend is
    drawn on every frame, the runs change only when a chip does (searching them is half of
    this screen's drawing time)."""
    global _last_scores
    key = (chips, game.colours)
    if _last_scores[0] != key:
        _last_scores = (key, game.scores())
    return _last_scores[1]
