"""Phrases written for the ear, the one source of what the table and the phones say.

A screen's words are short for the eye ("roll 4-5-2", "m1+3"); said aloud they want whole
words: "four, five, two: total eleven", "Ann, your turn", "not allowed: ...", "Ann wins, 34
to 29". Pure: no clock, no I/O, so a test reads exactly what would be said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import GameState, Phase, Roll

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
         "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number(n: int) -> str:
    """``n`` in words below a thousand ("thirty-four"), in digits beyond."""
    if n < 0 or n >= 1000:
        return str(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES[hundreds] + " hundred" + (" and " + number(rest) if rest else "")


def dice_words(dice: Sequence[int]) -> str:
    """``five, two, two``: the faces in the order they lie."""
    return ", ".join(number(d) for d in dice)


def dice(faces: Sequence[int]) -> str:
    """A throw: ``four, five, two: total eleven`` (one die: ``four``)."""
    if len(faces) == 1:
        return number(faces[0])
    return f"{dice_words(faces)}: total {number(sum(faces))}"


def turn(name: str) -> str:
    return f"{name}, your turn"


def refused(reason: str) -> str:
    """A refusal in short: its first sentence, after ``not allowed``."""
    return "not allowed: " + _first_sentence(reason)


def notice(text: str) -> str:
    """Anything else the screen tells, said as it reads."""
    return _first_sentence(text)


def what_it_did(told: str) -> tuple[str, ...]:
    """What a throw did, said after its dice: the screen's ``Ben threw 4-4-6: Ben
    starts`` without the dice just said (``+5`` said ``plus 5``; a bare total, nothing)."""
    did = re.sub(r"^.*? threw [\d-]+: ", "", told.strip())
    if did.startswith("total"):
        return ()
    return (notice(re.sub(r"(?<![\w])\+(\d)", r"plus \1", did)),)


def move(action: object) -> str:
    """A move in the game's notation, dashed numbers said one by one
    (``reroll 2-5-6`` -> ``reroll two, five, six``): for a game without words of its own."""
    return re.sub(r"\d+(?:-\d+)+", lambda m: dice_words([int(d) for d in m[0].split("-")]),
                  str(action))


def played(game: GameState[Any], mover: int | None, action: object) -> str:
    """A move of ``game`` by seat ``mover`` in words for the ear: ``Ann places on C2``
    rather than the screen's ``place C2``; a game without words here, or a move nobody is
    named for, is said in the game's notation (:func:`move`)."""
    words = _GAME_WORDS.get(game.NAME)
    said = None if words is None else words(action, game.name, mover)
    return move(action) if said is None else said


def legal(game: GameState[Any], most: int = 6) -> str:
    """The moves the player to move may play now, for a player who asked to hear them:
    ``3 moves: Ann places on C2, or places on D4, or replaces the chip on B3`` (the first
    ``most``, then how many more); while dice are due, that they are."""
    if game.is_over:
        return "the game is over"
    player = game.current_player
    who = "" if player is None else game.name(player)
    if game.phase is Phase.ROLL:
        return f"{who}, throw the dice" if who else "throw the dice"
    actions = game.legal_actions()
    if not actions:
        return "no moves now"
    said = [played(game, player, action) for action in actions[:most]]
    said[1:] = [text.removeprefix(who + " ") if who else text for text in said[1:]]
    more = f", and {number(len(actions) - most)} more" if len(actions) > most else ""
    heading = "one move" if len(actions) == 1 else f"{number(len(actions))} moves"
    return f"{heading}: " + ", or ".join(said) + more


def _centennial(action: Any, name: Callable[[int], str], mover: int | None) -> str | None:
    from games import centennial as c

    if isinstance(action, c.Stop):
        where = "off the board" if action.at == 0 else "at " + _numbers(c.label(action.at))
        return f"{name(action.player)} stops {where}"
    if isinstance(action, c.Claim):
        return f"{name(action.player)} claims {number(action.number)}"
    if isinstance(action, c.Pass):
        return f"{name(action.player)} passes"
    return None


def _centerpoint(action: Any, name: Callable[[int], str], mover: int | None) -> str | None:
    if mover is None:
        return None
    steps = "one space" if action.steps == 1 else f"{number(action.steps)} spaces"
    return f"{name(mover)} moves marker {number(action.marker)} {steps}"


def _dalmatian(action: Any, name: Callable[[int], str], mover: int | None) -> str | None:
    from games.dalmatian import Reroll

    if mover is None:
        return None
    if isinstance(action, Reroll):
        dice = sorted(action.dice)
        count = "one die" if len(dice) == 1 else f"{number(len(dice))} dice"
        return f"{name(mover)} rerolls {count}: {dice_words(dice)}"
    return f"{name(mover)} stops"


def _multigam(action: Any, name: Callable[[int], str], mover: int | None) -> str | None:
    from games.multigam import BAR, OFF

    if mover is None or not action.steps:
        return None

    def point(p: int) -> str:
        return "the bar" if p == BAR else number(p)

    said = []
    for n, step in enumerate(action.steps):  # the first checker's verb, then "then one"
        if n == 0:
            said.append("bears a checker off" if step.end == OFF else "moves a checker")
        else:
            said.append("then one off" if step.end == OFF else "then one")
        said[-1] += (f" from {point(step.start)}" if step.end == OFF
                     else f" from {point(step.start)} to {point(step.end)}")
        if step.hit:
            said[-1] += ", hitting"
    return f"{name(mover)} " + ", ".join(said)


def _sequence(action: Any, name: Callable[[int], str], mover: int | None) -> str | None:
    if mover is None:
        return None
    verb = action.verb.value
    where = "on" if verb == "place" else "the chip on"
    return f"{name(mover)} {verb}s {where} {action.cell}"


def _numbers(text: str) -> str:
    return re.sub(r"\d+", lambda m: number(int(m[0])), text)


_GAME_WORDS: dict[str, Callable[[Any, Callable[[int], str], int | None], str | None]] = {
    "centennial": _centennial, "centerpoint": _centerpoint, "dalmatian": _dalmatian,
    "multigam": _multigam, "sequence": _sequence}
"""Each game's moves in words, by the game's name: the action, a seat's name, the mover."""


def end(names: Sequence[str], scores: Sequence[int], winners: Sequence[int]) -> str:
    """``Ann wins, 34 to 29``: the winner (or winners) and the scores, highest first."""
    won = " and ".join(names[w] for w in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    told = " to ".join(str(s) for s in sorted(scores, reverse=True))
    return f"{won} {verb}, {told}" if scores else f"{won} {verb}"


def vocabulary(names: Sequence[str], top: int = 12) -> tuple[str, ...]:
    """What a game will surely say, made when it starts: every player's turn and the
    numbers from one to ``top``."""
    return (*(turn(n) for n in names), *(number(n) for n in range(1, top + 1)))


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.;])\s", text.strip(), maxsplit=1)[0].rstrip(".;")


@dataclass(frozen=True)
class Glimpse:
    """What a phrase is told from: a game as it stood and the message on its screen."""

    game: GameState[Any] | None
    moves: int
    player: int | None
    over: bool
    message: str | None
    told: str | None = None  # what the last throw did
    asked: bool = False  # the message is what a player asked for: news, not a refusal

    @classmethod
    def of(cls, game: GameState[Any] | None, message: str | None,
           told: str | None = None, asked: bool = False) -> Glimpse:
        if game is None:
            return cls(None, 0, None, False, message, told, asked)
        return cls(game, len(game.history), game.current_player, game.is_over, message, told,
                   asked)


def between(before: Glimpse, now: Glimpse, *, status: bool = False) -> list[str]:
    """What to say for the change from ``before`` to ``now``: each action played and
    what a throw did, a new message (a refusal when nothing was played, unless ``status``:
    a device's news), whose turn it is when that changed, and the end. A game started or
    resumed says whose turn it is."""
    game = now.game
    said: list[str] = []
    if game is None:
        return said
    if game is not before.game:  # started or resumed: no move of it is news, nor refused
        before, status = Glimpse(game, now.moves, None, now.over, before.message), True
    for action in game.history[before.moves:now.moves]:  # a throw and the move it allows
        said.append(dice(action.dice) if isinstance(action, Roll)
                    else played(game, before.player, action))
    if now.told is not None and (now.told != before.told or now.moves != before.moves):
        said.extend(what_it_did(now.told))
    if now.message is not None and now.message != before.message:
        plain = status or now.moves != before.moves or now.asked
        said.append(notice(now.message) if plain else refused(now.message))
    result = game.result()
    if now.over and not before.over and result is not None:
        said.append(end(game.setup.names, result.scores, result.winners))
    elif not now.over and now.player is not None and now.player != before.player:
        said.append(turn(game.name(now.player)))
    return said
