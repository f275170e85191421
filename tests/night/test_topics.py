"""The night's wire contract: what a publisher sends parses back, and what breaks it is refused."""

from __future__ import annotations

import pytest

from firmware_host.night import topics
from firmware_host.night.topics import BadMessage, Cleared, Game, Live, Player, Status

GAME = Game("table-2", "Table 2", 7, "Dalmatian", "2026-11-24T20:00:00+01:00",
            "2026-11-24T20:30:00+01:00", "2026-11-24",
            (Player(0, "Ann", 48, 1), Player(1, "<b>Ben</b>", 42, 2)))
LIVE = Live("table-2", "Table 2", "Dalmatian", ("Ann", "Ben"), "Ben", "roll", (3, 4, 5),
            (10, 12), "roll 3-4-5", 17, (5, 7), "2026-11-24T20:31:00+01:00")


def test_table_ids_are_topic_and_user_names() -> None:
    assert topics.table_id(" Table 2 ") == "table-2"
    assert topics.table_id("Green/Room #1") == "green-room-1"
    assert topics.table_id("!!") == ""
    assert topics.table_id("x" * 33) == ""


def test_brokers_parse_from_urls() -> None:
    assert topics.parse_broker("mqtt://hub.local") == topics.Broker("hub.local", 1883)
    assert topics.parse_broker("mqtts://h:1") == topics.Broker("h", 1, tls=True)
    for bad in ("hub.local", "http://h", "mqtt://h:0x", "mqtt://h/path", "mqtt://u:p@h"):
        with pytest.raises(ValueError):
            topics.parse_broker(bad)


def test_what_a_publisher_sends_parses_back() -> None:
    assert topics.parse(topics.game_topic("table-2", 7), topics.game_payload(GAME)) == GAME
    assert topics.parse(topics.live_topic("table-2"), topics.live_payload(LIVE)) == LIVE
    assert topics.parse("tc/table-2/status", b"offline") == Status("table-2", False)
    assert topics.parse("tc/table-2/game/7", b"") == Cleared("table-2", 7)


@pytest.mark.parametrize(("topic", "payload", "problem"), [
    ("tc/table-2/game/8", topics.game_payload(GAME), "differs from its topic"),
    ("tc/table-2/game/07", topics.game_payload(GAME), "unknown topic"),
    ("tc/Table 2/live", topics.live_payload(LIVE), "not a table's topic"),
    ("other/x/live", b"{}", "not a table's topic"),
    ("tc/table-2/status", b"maybe", "status must be"),
    ("tc/table-2/live", b"\xff{", "not UTF-8 JSON"),
    ("tc/table-2/live", b"[1]", "not a version 1 object"),
    ("tc/table-2/live", b'{"v": 1}', "players must be a list"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b"[3,4,5]", b"[3,4,9]"),
     "dice must be numbers from 1 to 6"),
    ("tc/table-2/live", b"x" * (topics.MAX_PAYLOAD + 1), "more than"),
    ("tc/table-2/game/7", topics.game_payload(GAME).replace(b"Ann", b"A\\u0000n"),
     "printable"),
])
def test_messages_that_break_the_contract_are_refused(topic: str, payload: bytes,
                                                      problem: str) -> None:
    with pytest.raises(BadMessage, match=problem):
        topics.parse(topic, payload)
