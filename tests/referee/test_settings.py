"""The evening's settings are a value: turning one makes new settings, the old stay as they were."""

from __future__ import annotations

import pytest

from firmware_host.config import Config
from firmware_host.referee.settings import Settings


def test_the_evening_starts_as_the_config_says() -> None:
    assert Settings.of(Config()) == Settings(hint=True, sound=True)
    assert Settings.of(Config(hint=False, sound="off")) == Settings(hint=False, sound=False)


@pytest.mark.parametrize("name", ["hint", "sound"])
def test_toggling_makes_new_settings_and_leaves_the_old(name: str) -> None:
    before = Settings()
    after = before.toggled(name)  # type: ignore[arg-type]
    assert before == Settings() and after != before
    assert getattr(after, name) is False and after.shown(name) == "off"  # type: ignore[arg-type]
    assert after.toggled(name) == before  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        after.hint = True  # type: ignore[misc]


def test_kept_settings_come_back_and_anything_else_is_left_as_it_was() -> None:
    kept = Settings(hint=False, sound=True).to_json()
    assert kept == {"hint": False, "sound": True}
    assert Settings().kept(kept) == Settings(hint=False, sound=True)
    assert Settings().kept({"hint": "no", "sound": 0, "volume": False}) == Settings()
