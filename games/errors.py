"""Every error the rule modules raise.

Each one also inherits a built-in (``ValueError``, ``LookupError``) so callers that know
nothing of the games can still catch it, and each message is written for a player: it names
the bad input and says what would have been allowed.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of everything ``games`` raises on purpose."""


class UnknownGameError(GameError, LookupError):
    """No game of that name is registered."""


class OptionError(GameError, ValueError):
    """A game option, player count or player name is not allowed; ``option`` names the
    option refused, when one is."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class NotationError(GameError, ValueError):
    """Text that does not parse as an action of this game."""


class IllegalAction(GameError, ValueError):
    """A well-formed action the rules forbid here. The state is left unchanged."""


class GameOverError(IllegalAction):
    """The game has ended; nothing more can be played."""


class WrongPhaseError(IllegalAction):
    """Dice were given when a move was due, or a move when dice were due."""


class NotYourTurnError(IllegalAction):
    """The action belongs to a player whose turn it is not."""


class BadDiceError(IllegalAction):
    """Dice that cannot be: the wrong number of them, or a face outside 1-6."""


class TopologyError(GameError, ValueError):
    """A board description file (Center Point's topology) is malformed."""
