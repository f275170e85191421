"""Lines held back until the frame is out are written once, in order, and only when INFO shows."""

from __future__ import annotations

import logging

import pytest

from firmware_host.referee.later_log import LaterLog


def test_lines_wait_for_write_and_are_written_once(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.later")
    caplog.set_level(logging.INFO, logger="test.later")
    later = LaterLog(log)
    later.info("dice %s from %s", "6-5", "button")
    later.info("second")
    assert caplog.text == ""
    later.write()
    assert [r.getMessage() for r in caplog.records] == ["dice 6-5 from button", "second"]
    later.write()
    assert len(caplog.records) == 2


def test_nothing_is_kept_when_info_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.later.quiet")
    caplog.set_level(logging.WARNING, logger="test.later.quiet")
    later = LaterLog(log)
    later.info("dropped")
    caplog.set_level(logging.INFO, logger="test.later.quiet")
    later.write()
    assert caplog.records == []
