"""What a table may change during the evening: the hint and the sound, as one value.

The journal keeps them with the game (:meth:`firmware_host.journal.Journal.keep_settings`), so a
table that turned the sound off finds it off after a quit, a resume or a power cut."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from firmware_host.config import Config

Setting = Literal["hint", "sound"]
SETTINGS: tuple[Setting, ...] = ("hint", "sound")


@dataclass(frozen=True)
class Settings:
    """``hint``: the advisor's hint on the game screen; ``sound``: the buzzer plays."""

    hint: bool = True
    sound: bool = True

    @classmethod
    def of(cls, config: Config) -> Settings:
        """The evening starts as the config file says."""
        return cls(hint=config.hint, sound=config.sound == "on")

    def kept(self, stored: Mapping[str, object]) -> Settings:
        """These settings as the journal kept them; a value that is not a yes or no (a
        damaged or hand-edited file) leaves the setting as it is."""
        return replace(self, **{name: value for name, value in stored.items()
                                if name in SETTINGS and isinstance(value, bool)})

    def to_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in SETTINGS}

    def toggled(self, name: Setting) -> Settings:
        """These settings with ``name`` turned the other way."""
        on: bool = getattr(self, name)
        return replace(self, **{name: not on})

    def shown(self, name: Setting) -> str:
        """The setting as its menu line shows it."""
        return "on" if getattr(self, name) else "off"
