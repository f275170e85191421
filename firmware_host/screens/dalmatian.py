"""Dalmatian: the round, the starting total, the five dice and the best split of them.

During a turn: the dice (held ones lit) beside the starting total in big figures, the
groups the companion found with the score they make, the advisor's hold when hints are on,
and the choices a row at a time. Between turns: the total, the turn just scored and the
running totals. Between rounds: the round just finished, everyone's score in it and totals.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.screens.banner import BODY_TOP, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.choices import ROW
from firmware_host.screens.dice import SIZE, dice_width, draw_dice
from firmware_host.screens.font import BIG, SMALL, fit
from firmware_host.screens.names import shown_name
from firmware_host.screens.opening import draw_opening
from firmware_host.screens.pointed import draw_pointed
from firmware_host.screens.standings import draw_final
from firmware_host.views import GameView
from games.dalmatian import Dalmatian
from games.dice_multisets import HAND_SIZE
from games.words import count

LINE = 9
GROUPS_Y = BODY_TOP + SIZE + 1  # row 33, under the dice and one dark row: page 4
HINT_Y = GROUPS_Y + LINE  # row 42: clear of the descenders of "no group" above


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    assert isinstance(game, Dalmatian)
    result = game.result()
    if result is not None:
        draw_final(canvas, game, result)
    elif game.opening.winner is None:
        draw_opening(canvas, game, game.opening, view.rolling or (), view.thrower)
    elif game.total is None:
        _draw_between_rounds(canvas, game)
    elif game.dice or view.rolling:
        _draw_turn(canvas, game, view)
    else:
        _draw_between_turns(canvas, game)


def _round_note(game: Dalmatian, second: str) -> tuple[str, str]:
    return f"round {game.round_number}/{game.rounds}", second


def _left_note(game: Dalmatian) -> str:
    if game.budget_left is not None:
        return f"budget {game.budget_left}"
    left = game.rerolls_left or 0
    # "1 reroll " ends where "2 rerolls" does: the right-aligned word stays put on the band
    return f"{left} reroll{' ' if left == 1 else 's'}"


def shown_dice(game: Dalmatian, rolling: Sequence[int] | None,
               layout: Sequence[int] = ()) -> tuple[int, ...]:
    """The dice to draw, in the places the hold buttons number (``layout``, from the
    referee; else the game's dice in order): tumbling faces while a throw settles, ``0`` for
    any die still due."""
    if rolling and len(rolling) == HAND_SIZE:
        return tuple(rolling)
    dice = tuple(layout) or tuple(game.dice)
    if rolling:  # no layout: the tumbling dice follow the kept ones
        dice = tuple(d for d in dice if d) + tuple(rolling)
    return dice + (0,) * (HAND_SIZE - len(dice))


def groups_line(game: Dalmatian) -> str:
    """``1+6 3+4 → 4``: the best split and the dice it scores."""
    if game.turn_score is None:
        return f"throw {count(HAND_SIZE - len(game.dice), 'die')}"
    groups = " ".join("+".join(map(str, group)) for group in game.groups) or "no group"
    return f"{groups} → {game.turn_score}"


def hint_line(game: Dalmatian, room: int) -> str:
    """The advisor's best play, in faces, and the score it expects, labelled:
    ``keep 5-5 ≈3.4 pts`` or ``reroll 1-2 ≈3.4 pts``, whichever names fewer dice (the
    play alone if even that does not fit ``room`` characters). Stopping is certain:
    ``stop: scores 4``."""
    advice = game.advice()
    if advice is None:
        return ""
    if advice.stops:
        return f"stop: scores {game.turn_score}"
    reroll = "reroll all" if not advice.hold else f"reroll {'-'.join(map(str, advice.reroll))}"
    keep = f"keep {'-'.join(map(str, advice.hold))}"
    play = keep if advice.hold and len(keep) < len(reroll) else reroll
    line = f"{play} ≈{advice.expected:.1f} pts"
    return line if len(line) <= room else play


def _draw_turn(canvas: Canvas, game: Dalmatian, view: GameView) -> None:
    draw_banner(canvas, turn_title(game, view.thrower), _round_note(game, _left_note(game)))
    dice = shown_dice(game, view.rolling, view.layout)
    held = view.held if not view.rolling else frozenset()
    draw_dice(canvas, 0, BODY_TOP, dice, solid=held)
    canvas.text(dice_width(HAND_SIZE) + 4, BODY_TOP + 1, f"={game.total}", BIG)
    width = canvas.width
    canvas.text(0, GROUPS_Y, fit(groups_line(game), SMALL, width))
    hint = hint_line(game, SMALL.chars_in(width)) if view.hint else ""
    if hint:
        canvas.text(0, HINT_Y, fit(hint, SMALL, width))
    if view.choices:
        top = canvas.height - ROW
        draw_pointed(canvas, (0, top, width, ROW), view.choices, view.cursor, view.scroll)


def _draw_between_turns(canvas: Canvas, game: Dalmatian) -> None:
    """The total, the turn just scored, the running totals."""
    draw_banner(canvas, turn_title(game), _round_note(game, "roll 5"))
    x = canvas.text(0, BODY_TOP + 1, f"={game.total}", BIG) + 6
    last = game.last_turn
    if last is not None and last.total == game.total:
        score = game.sheet[-1][last.player]
        scored = f" → {score}"
        name = shown_name(game, last.player, canvas.width - x - SMALL.width(scored) - 1)
        canvas.text(x, BODY_TOP + 1, name + scored)
        canvas.text(x, BODY_TOP + 1 + LINE, " ".join(map(str, last.dice)))
    _draw_totals(canvas, game, BODY_TOP + 18, ())


def _draw_between_rounds(canvas: Canvas, game: Dalmatian) -> None:
    """The starter throws the total; the round just played and everyone's total so far."""
    draw_banner(canvas, turn_title(game), ("roll 2", "for total"))
    if not game.sheet:
        lines = (f"{game.rounds} rounds.", "Two dice give the", "round's total.")
        for index, line in enumerate(lines):
            canvas.text(0, BODY_TOP + 2 + index * LINE, line)
        return
    played = len(game.sheet)
    canvas.text(0, BODY_TOP + 1, f"round {played}: total {game.totals[-1]}")
    _draw_totals(canvas, game, BODY_TOP + 1 + LINE, game.sheet[-1])


def _draw_totals(canvas: Canvas, game: Dalmatian, top: int,
                 this_round: Sequence[int | None]) -> None:
    """Every player's total, with this round's score as ``+n`` when given; columns of
    players side by side are parted by a rule, so a total never reads as the next name's."""
    rows = (canvas.height - top) // LINE
    columns = -(-game.players // rows)
    width = canvas.width // columns
    scores = game.scores()
    for column in range(1, columns):
        canvas.vline(column * width - 5, top, canvas.height - top)
    for player in range(game.players):
        x, y = (player // rows) * width, top + (player % rows) * LINE
        gained = this_round[player] if this_round else None
        right = f"+{gained} {scores[player]:>2}" if gained is not None else f"{scores[player]}"
        end = x + width - (10 if columns > 1 and player < rows * (columns - 1) else 1)
        canvas.text(x, y, shown_name(game, player, end - x - SMALL.width(right) - 5))
        canvas.text_right(end, y, right)
