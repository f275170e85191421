"""The shape every rule module shares.

A game is a :class:`GameState` subclass created from a validated :class:`Setup`. Dice are
chance outcomes given from outside as :class:`Roll` actions, so a game is fully determined by
its setup and its action list: that list is what is saved, replayed and undone.
"""

from __future__ import annotations

import copy
import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from games.errors import (
    BadDiceError,
    GameOverError,
    NotationError,
    OptionError,
    WrongPhaseError,
)
from games.words import count

DIE_FACES = range(1, 7)


class Phase(enum.Enum):
    """What the game waits for next."""

    ROLL = "roll"  # dice from the current player (or the roller)
    MOVE = "move"  # a choice among legal_actions()
    OVER = "over"  # nothing: the game has ended


@dataclass(frozen=True)
class Option:
    """One game option: its default, the values allowed, and a help line.

    The type of the default is the type of the option. ``choices`` lists the allowed values;
    without it any value of the right type is allowed (booleans and strings alike).
    ``label`` is what a set-up screen calls the option, in a player's words ("Dice rule");
    ``words`` names values the same way (``{"max_then_larger": "standard"}``); booleans
    read "yes"/"no" unless ``words`` says otherwise.
    """

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    label: str = ""
    words: Mapping[Any, str] = field(default_factory=dict)

    def text(self, value: Any) -> str:
        """``value`` as a set-up screen shows it."""
        if value in self.words:
            return self.words[value]
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def validate(self, name: str, value: Any) -> Any:
        kind = type(self.default)
        if kind is bool and isinstance(value, str) and value.lower() in ("true", "false"):
            value = value.lower() == "true"
        elif kind is int and isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            value = int(value)
        elif kind is str and type(value) is int:  # `reroll_budget = 8` in a TOML file
            value = str(value)
        if type(value) is not kind or (self.choices is not None and value not in self.choices):
            raise OptionError(f"option {name!r} cannot be {value!r}: {self.allowed()}", name)
        return value

    def allowed(self) -> str:
        values = self.choices if self.choices is not None else ()
        if type(self.default) is bool:
            values = (False, True)
        if values:
            return "allowed " + " | ".join(_show(v) for v in values)
        return "any text is allowed" if type(self.default) is str else "a number is allowed"


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Setup:
    """Who plays which game with which options; validated by :meth:`GameState.new`."""

    game: str
    names: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.names)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "names": list(self.names), "options": dict(self.options)}


@dataclass(frozen=True)
class Roll:
    """Dice thrown at the table, by hand, by the button roller or by a test."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + "-".join(str(d) for d in self.dice)

    @classmethod
    def parse(cls, text: str) -> Roll | None:
        """``roll 1-2-3`` (or ``roll 1 2 3``) as a Roll; None when the text is no roll."""
        match = re.fullmatch(r"\s*roll\b\s*([\d\s,-]*)", text, re.IGNORECASE)
        if match is None:
            return None
        faces = re.findall(r"\d+", match.group(1))
        if not faces:
            raise NotationError(f"{text!r} names no dice: write e.g. 'roll 1-2-3'")
        return cls(tuple(int(f) for f in faces))


def check_dice(dice: Sequence[int], count: int) -> tuple[int, ...]:
    """The dice as a tuple, or BadDiceError naming what is wrong with them."""
    if len(dice) != count:
        raise BadDiceError(f"{count} {'die is' if count == 1 else 'dice are'} due, got {len(dice)}")
    for die in dice:
        if not isinstance(die, int) or die not in DIE_FACES:
            raise BadDiceError(f"a die shows 1 to 6, got {die!r}")
    return tuple(dice)


@dataclass(frozen=True)
class Result:
    """The end of a game: points per player and the ranking (tied players share a place)."""

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0]


def rank_by(scores: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Players grouped by score, highest first; equal scores share a place."""
    order = sorted(set(scores), reverse=True)
    return tuple(tuple(p for p, s in enumerate(scores) if s == level) for level in order)


@dataclass
class Opening:
    """Everyone rolls; the highest total starts; only tied players roll again.

    ``latest`` keeps each player's most recent throw: what is "showing on the table".
    """

    players: int
    dice: int
    latest: dict[int, tuple[int, ...]] = field(default_factory=dict)
    contenders: list[int] = field(default_factory=list)
    to_roll: list[int] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        self.contenders = list(range(self.players))
        self.to_roll = list(self.contenders)

    @property
    def roller(self) -> int | None:
        return self.to_roll[0] if self.to_roll else None

    def record(self, dice: Sequence[int]) -> int | None:
        """Record the next roller's throw; returns the starting player once decided."""
        player = self.to_roll.pop(0)
        self.latest[player] = check_dice(dice, self.dice)
        if not self.to_roll:
            best = max(sum(self.latest[p]) for p in self.contenders)
            tied = [p for p in self.contenders if sum(self.latest[p]) == best]
            if len(tied) == 1:
                self.winner = tied[0]
            else:
                self.contenders = tied
                self.to_roll = list(tied)
        return self.winner


A = TypeVar("A")


class GameState(ABC, Generic[A]):
    """A game in progress. Subclasses fill in the rules; this class keeps the history.

    The checked path is :meth:`apply`: it parses text, refuses anything once the game is
    over, lets the rules validate (raising an :class:`~games.errors.IllegalAction` *before*
    changing anything) and records the action. Undo and JSON both rest on replay.
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    SUMMARY: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    # facts the table reads: every game says each (no default, so none is left out unawares)
    THROW_SHOWN: ClassVar[bool]
    """The position shows the last throw itself (who threw, the dice, where it took a
    marker), so a notice of the throw would only hide it."""
    NO_MOVE_TOLD: ClassVar[bool]
    """A throw is followed by a move from the legal actions, so a throw that passes the
    turn by itself had none, which the position after it would not tell."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.history: list[A | Roll] = []
        self._start()

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def new(
        cls, players: int | None = None, names: Iterable[str] | None = None, **options: Any
    ) -> Self:
        """A new game from options as a user gives them; errors name the bad one."""
        return cls(cls.make_setup(players, names, options))

    @classmethod
    def make_setup(
        cls, players: int | None, names: Iterable[str] | None, options: Mapping[str, Any]
    ) -> Setup:
        name_list = [str(n).strip() for n in names] if names is not None else None
        count = players if players is not None else len(name_list or []) or cls.MIN_PLAYERS
        if not cls.MIN_PLAYERS <= count <= cls.MAX_PLAYERS:
            span = (f"{cls.MIN_PLAYERS}" if cls.MIN_PLAYERS == cls.MAX_PLAYERS
                    else f"{cls.MIN_PLAYERS} to {cls.MAX_PLAYERS}")
            raise OptionError(f"{cls.TITLE} is for {span} players, not {count}")
        if name_list is None:
            name_list = [f"P{i + 1}" for i in range(count)]
        if len(name_list) != count:
            raise OptionError(f"{count} players need {count} names, got {len(name_list)}")
        if any(not n for n in name_list) or len(set(name_list)) != len(name_list):
            raise OptionError(f"player names must be distinct and not empty: {name_list}")
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(cls.OPTIONS) or "none"
            raise OptionError(f"{cls.TITLE} has no option {unknown[0]!r}; options: {known}")
        values = {k: opt.validate(k, options.get(k, opt.default)) for k, opt in cls.OPTIONS.items()}
        setup = Setup(cls.NAME, tuple(name_list), values)
        cls.check_setup(setup)
        return setup

    @classmethod
    def seat_sides(cls, players: int) -> tuple[int, ...]:
        """Each seat's side: one side a seat unless the game plays in teams (team mates
        share a side), so a seating can say who partners whom."""
        return tuple(range(players))

    @classmethod
    def check_setup(cls, setup: Setup) -> None:
        """Hook for combinations of options that are not allowed together."""

    # -- what the rules provide -----------------------------------------------------------

    @abstractmethod
    def _start(self) -> None:
        """Set up the position before any action, from ``self.setup``."""

    @property
    @abstractmethod
    def phase(self) -> Phase: ...

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Who acts (or rolls) now; None once the game is over."""

    @property
    def dice_wanted(self) -> int:
        """How many dice the next Roll must hold; 0 unless the phase is ROLL."""
        return 0

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every action allowed now (empty while dice are awaited or the game is over)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """A move in this game's notation; NotationError naming the text otherwise."""

    @abstractmethod
    def _apply(self, action: A | Roll) -> None:
        """Validate then perform; raise IllegalAction before changing anything."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """What the scoreboard shows for each player now."""

    @abstractmethod
    def result(self) -> Result | None:
        """Final scores and ranking; None until the game is over."""

    def check_invariants(self) -> None:
        """Raise AssertionError when the position is impossible (pieces lost, ...)."""

    # -- provided -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return self.setup.players

    def name(self, player: int) -> str:
        return self.setup.names[player]

    def parse(self, text: str) -> A | Roll:
        """An action or a Roll from text."""
        roll = Roll.parse(text)
        return roll if roll is not None else self.parse_action(text)

    def apply(self, action: A | Roll | str) -> A | Roll:
        """The checked path: perform ``action`` or raise an IllegalAction, state unchanged."""
        if isinstance(action, str):
            action = self.parse(action)
        if self.is_over:
            raise GameOverError(f"the game is over; {action} cannot be played")
        if isinstance(action, Roll):
            if self.phase is not Phase.ROLL:
                raise WrongPhaseError(f"no dice are due: {self.name(self._who())} must move")
            check_dice(action.dice, self.dice_wanted)
        elif self.phase is Phase.ROLL:
            raise WrongPhaseError(
                f"{self.name(self._who())} must roll {count(self.dice_wanted, 'die')} before moving"
            )
        self._apply(action)
        self.history.append(action)
        return action

    def roll(self, *dice: int) -> Roll:
        """Shorthand for ``apply(Roll(dice))``."""
        action = self.apply(Roll(tuple(dice)))
        assert isinstance(action, Roll)
        return action

    def _who(self) -> int:
        player = self.current_player
        assert player is not None
        return player

    def undo(self) -> A | Roll:
        """Take back the last action (by replaying all the others); returns it."""
        if not self.history:
            raise GameOverError("nothing to undo: no action has been played")
        last = self.history[-1]
        self._become(self.replay(self.setup, self.history[:-1]))
        return last

    # -- copies -------------------------------------------------------------------------

    def copy(self) -> Self:
        """This game as a game of its own: playing on either leaves the other as it was.

        The actions played are frozen values, so the copy's history is a new list of the
        same actions (copying each again would cost more than the rest of the position once
        a game is a few dozen actions old), and the setup, which the rules never change, is
        shared. A part of a game that the rules never change either (a board loaded once)
        shares itself by its own ``__deepcopy__``."""
        return self._copied(list(self.history))

    def snapshot(self) -> Self:
        """The position without its actions, for :meth:`restore`: it costs the same in a
        game's 50,000th action as in its first."""
        return self._copied([])

    def restore(self, snapshot: Self, history: Iterable[A | Roll]) -> None:
        """Take the position of ``snapshot`` (from :meth:`snapshot`) in place, with
        ``history`` as the actions that led there; the snapshot stays as it was."""
        self._become(snapshot._copied(list(history)))

    def _copied(self, history: list[A | Roll]) -> Self:
        return copy.deepcopy(self, {id(self.history): history, id(self.setup): self.setup})

    def _become(self, other: Self) -> None:
        """Take ``other``'s position in place: undo and restore change the very game that
        the referee and the journal hold."""
        vars(self).clear()
        vars(self).update(vars(other))

    @classmethod
    def replay(cls, setup: Setup, actions: Iterable[A | Roll | str]) -> Self:
        state = cls(setup)
        for action in actions:
            state.apply(action if isinstance(action, str) else str(action))
        return state

    def to_json(self) -> dict[str, Any]:
        """JSON-able data from which :func:`games.from_json` rebuilds this exact state."""
        return {**self.setup.to_json(), "actions": [str(a) for a in self.history]}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.phase.value} after {len(self.history)} actions>"
