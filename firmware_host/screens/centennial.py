"""Centennial: every marker's place on the 1..12..1 trip, the throw, what it lets you take.

Between throws the screen shows each player's progress (a number with an arrow for the
direction, and a bar of the 23 targets for a glance) beside the latest throw and what came
of it. While the roller says where to stop, or claims are open, the dice move up into the
band and the choices take the body, under one line naming the chain or the claimable numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.screens.banner import BODY_TOP, draw_banner, turn_title
from firmware_host.screens.canvas import Canvas
from firmware_host.screens.dice import SIZE, dice_width, draw_dice
from firmware_host.screens.font import SMALL, fit
from firmware_host.screens.names import shown_name
from firmware_host.screens.opening import draw_opening
from firmware_host.screens.pointed import draw_pointed
from firmware_host.screens.standings import draw_final
from firmware_host.views import GameView
from games.centennial import HOME, TARGETS, TOP, Centennial

LINE = 9
BAR = 26  # pixels of the progress bar: 23 targets and its two ends


def place(progress: int) -> str:
    """A position in four characters or fewer: ``off``, ``9↑``, ``11↓``, ``home``."""
    if progress == 0:
        return "off"
    if progress == HOME:
        return "home"
    return f"{TARGETS[progress - 1]}{'↓' if progress > TOP else '↑'}"


def numbers(targets: Sequence[int], room: int) -> str:
    """Targets as a short list: ``7 8 9``, or ``1-6`` / ``10-12-9`` when they do not fit."""
    spelled = " ".join(map(str, targets))
    if len(spelled) <= room or len(targets) < 3:
        return spelled
    peak = "-12" if 12 in targets[1:-1] else ""
    return f"{targets[0]}{peak}-{targets[-1]}"


def draw(canvas: Canvas, view: GameView) -> None:
    game = view.game
    assert isinstance(game, Centennial)
    result = game.result()
    if result is not None:
        draw_final(canvas, game, result, [place(p) for p in game.progress])
    elif game.opening.winner is None:
        draw_opening(canvas, game, game.opening, view.rolling or (), view.thrower)
    elif view.choices:
        _draw_choosing(canvas, game, view)
    else:
        _draw_between_throws(canvas, game, view)


def _draw_choosing(canvas: Canvas, game: Centennial, view: GameView) -> None:
    """Stop or claim: the throw in the band, a line on the chain or claims, the choices."""
    throw = game.throw
    draw_banner(canvas, turn_title(game, view.thrower),
                dice=throw.dice if throw is not None else ())
    if game.awaiting_stop:
        line = f"stop? goes {numbers(game.chain, 9)}"
    else:
        asked = game.asked
        who = f" ask {game.name(asked)}" if asked is not None else ""
        line = f"claim {numbers(game.claimable, 8)}{who}"
    canvas.text(0, BODY_TOP + 1, fit(line, SMALL, canvas.width))
    top = BODY_TOP + LINE + 1
    draw_pointed(canvas, (0, top, canvas.width, canvas.height - top), view.choices, view.cursor,
                 view.scroll)


def _draw_between_throws(canvas: Canvas, game: Centennial, view: GameView) -> None:
    # tumbling dice take the note's place rather than push it aside: less to rewrite
    draw_banner(canvas, turn_title(game, view.thrower),
                () if view.rolling else ("roll", "3 dice"),
                view.rolling or ())
    dice_left = canvas.width - dice_width(3)
    _draw_players(canvas, game, dice_left - 2)
    throw = game.throw
    if throw is None:
        return
    draw_dice(canvas, dice_left, BODY_TOP, throw.dice)
    lines = [shown_name(game, throw.roller, canvas.width - dice_left)]
    if throw.stop is None:
        lines.append(f"goes {numbers(game.chain, 3)}")
    elif throw.stop == throw.start:
        lines.append("no move")
    else:
        lines.append(f"{place(throw.start)}→{place(throw.stop)}")
    lines.extend(f"{game.name(c.player)}+{c.number}" for c in game.claims)
    for index, line in enumerate(lines[:3]):
        y = BODY_TOP + SIZE + 1 + index * LINE  # rows 33, 42, 51: a descender clear
        canvas.text(dice_left, y, fit(line, SMALL, canvas.width - dice_left))


def _draw_players(canvas: Canvas, game: Centennial, width: int) -> None:
    """One row a player (a bar when there is room), the name of the player to throw inverted,
    as Multi-Gam marks it. Moving the mark rewrites two names, not two whole rows, which
    cost their full width over the three pages two 9-row rows straddle."""
    top = BODY_TOP
    rows = (canvas.height - top) // LINE
    columns = 1 if game.players <= rows else 2
    column_width = width // columns
    for player, progress in enumerate(game.progress):
        x = (player // rows) * column_width
        y = top + (player % rows) * LINE
        text_width = column_width - (BAR + 2 if columns == 1 else 0)
        current = player == game.turn
        label = place(progress)
        name = shown_name(game, player, text_width - SMALL.width(label) - 4)
        if current:
            canvas.fill(x, y, SMALL.width(name) + 2, LINE)
        canvas.text(x + 1, y + 1, name, on=not current)
        canvas.text_right(x + text_width - 2, y + 1, label)
        if columns == 1:
            _draw_bar(canvas, x + text_width + 1, y + 1, progress)


def _draw_bar(canvas: Canvas, x: int, y: int, progress: int) -> None:
    """The trip as a bar: filled as far as the marker got, a notch at the turn at 12."""
    canvas.frame(x, y, BAR, 7)
    canvas.fill(x + 1, y + 1, round(progress * (BAR - 2) / HOME), 5)
    turn = x + 1 + round(TOP * (BAR - 2) / HOME)
    canvas.vline(turn, y - 1, 1)
    canvas.vline(turn, y + 7, 1)
