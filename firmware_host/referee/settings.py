"""What a table may change during the evening: the hint and the sound, as one value."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from firmware_host.config import Config

Setting = Literal["hint", "sound"]


@dataclass(frozen=True)
class Settings:
    """``hint``: the advisor's hint on the game screen; ``sound``: the buzzer plays."""

    hint: bool = True
    sound: bool = True

    @classmethod
    def of(cls, config: Config) -> Settings:
        """The evening starts as the config file says."""
        return cls(hint=config.hint, sound=config.sound == "on")

    def toggled(self, name: Setting) -> Settings:
        """These settings with ``name`` turned the other way."""
        on: bool = getattr(self, name)
        return replace(self, **{name: not on})

    def shown(self, name: Setting) -> str:
        """The setting as its menu line shows it."""
        return "on" if getattr(self, name) else "off"
