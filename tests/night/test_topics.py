"""The night's wire contract: what a publisher sends parses back, and what breaks it is refused."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    brackets = replace(LIVE, players=('[[[["Ann"]]]]', "{{{{Ben"), turn="{{{{Ben",
                       last="9" * 100)  # brackets and long numbers in names are only text
    assert topics.parse("tc/table-2/live", topics.live_payload(brackets)) == brackets


def test_a_games_luck_travels_in_hundredths_and_is_checked() -> None:
    lucky = replace(GAME, luck=(topics.Luck(0, 310, 40), topics.Luck(1, -125, 0)))
    payload = topics.game_payload(lucky)
    assert b'"luck":[{"seat":0,"luck":310,"decisions":40}' in payload
    assert topics.parse(topics.game_topic("table-2", 7), payload) == lucky
    assert b"luck" not in topics.game_payload(GAME)  # other games send none
    assert lucky.luck[0].line("Ann") == "Ann: +3.10 luck, -0.40 decisions"
    assert lucky.luck[1].line("Ben") == "Ben: -1.25 luck, 0.00 decisions"
    data = json.loads(payload)
    for bad, problem in (([{"seat": 0, "luck": 1, "decisions": 0}], "each player's seat"),
                         ([{"seat": 0, "luck": 1.5, "decisions": 0}] * 2, "whole"),
                         ([{"seat": s, "luck": 1, "decisions": -1} for s in (0, 1)],
                          "decisions must be"),
                         ([[0, 1, 0], [1, 1, 0]], "luck must be objects"),
                         ({"seat": 0}, "luck must be a list")):
        with pytest.raises(BadMessage, match=problem):
            topics.parse(topics.game_topic("table-2", 7), json.dumps({**data, "luck": bad})
                         .encode())


def test_a_games_throws_travel_as_texts_and_are_checked() -> None:
    thrown = replace(GAME, throws=(topics.Thrown(0, "button", (1, 2, 3, 4, 5)),
                                   topics.Thrown(1, "manual", (6,)),
                                   topics.Thrown(0, "unknown", (3, 3))))
    payload = topics.game_payload(thrown)
    assert b'"throws":["0:button:1-2-3-4-5","1:manual:6","0:unknown:3-3"]' in payload
    assert topics.parse(topics.game_topic("table-2", 7), payload) == thrown
    data = json.loads(payload)
    for bad in (["2:button:1"], ["0:dice app:1"], ["0:button:7"], ["0:button:"], [0],
                ["0:button:1-2 "], ["00:button:1"] * (topics.MAX_THROWS + 1)):
        with pytest.raises(BadMessage, match="throws"):
            topics.parse(topics.game_topic("table-2", 7),
                         json.dumps({**data, "throws": bad}).encode())


def _both(payload: bytes) -> tuple[object, object]:
    """What parse and parse_counted make of a game's payload: the message (the counted one's
    throws put back from its texts) or the refusal."""
    topic = topics.game_topic("table-2", 7)
    results: list[object] = []
    for read in (topics.parse, topics.parse_counted):
        try:
            got = read(topic, payload)
        except BadMessage:
            got = BadMessage
        if isinstance(got, tuple):
            message, texts = got
            got = replace(message, throws=tuple(topics.ThrowText().check(t, "") for t in texts)
                          ) if isinstance(message, Game) else message
        results.append(got)
    return results[0], results[1]


THROW_TEXT = r"\A[0-9]{1,2}:(button|manual|dice app|unknown):[0-9](-[0-9]){0,16}\Z"
THROW_TEXTS = st.lists(st.from_regex(THROW_TEXT)
                       | st.sampled_from(["0:button:1\n1:manual:2", "00:button:6", "01:serial:2-3",
                                          "1:pixels:1-2-3-4-5-6-1-2-3-4-5-6-1-2-3-4"])
                       | st.integers() | st.none(), max_size=6) | st.none() | st.text(max_size=4)


@settings(max_examples=300, deadline=None)
@given(THROW_TEXTS)
def test_a_games_throws_read_as_texts_pass_and_fail_as_when_read_one_by_one(throws: object
                                                                             ) -> None:
    data = json.loads(topics.game_payload(GAME))
    parsed, counted = _both(json.dumps({**data, "throws": throws}).encode())
    assert counted == parsed


def test_a_games_throws_read_as_texts_are_the_games_throws() -> None:
    thrown = replace(GAME, throws=(topics.Thrown(0, "button", (1, 2, 3, 4, 5)),
                                   topics.Thrown(1, "manual", (6,))))
    game, texts = topics.parse_counted(topics.game_topic("table-2", 7),
                                       topics.game_payload(thrown))
    assert (game, texts) == (replace(thrown, throws=()), ["0:button:1-2-3-4-5", "1:manual:6"])
    data = json.loads(topics.game_payload(thrown))
    for bad in (["2:button:1"], ["0:button:1\n1:manual:2"], [0], "0:button:1",
                ["00:button:1"] * (topics.MAX_THROWS + 1)):
        assert _both(json.dumps({**data, "throws": bad}).encode()) == (BadMessage, BadMessage)
    for other in (topics.game_payload(GAME).replace(b"20:30:00", b"19:30:00"), b"", b"{"):
        assert _both(other)[0] == _both(other)[1]


def test_a_game_too_long_with_its_throws_is_sent_without_them() -> None:
    from datetime import datetime

    from firmware_host.journal import PlayedGame, PlayerResult
    from firmware_host.night.follow import as_game

    when = datetime.fromisoformat(GAME.started)
    played = PlayedGame(7, "dalmatian", {}, when, when,
                        (PlayerResult(0, "Ann", 1, 1), PlayerResult(1, "Ben", 0, 2)))
    few = (topics.Thrown(0, "serial", (1, 2, 3, 4, 5)),) * 10
    many = few * 100
    assert as_game("table-2", "Table 2", played, (), few).throws == few
    assert as_game("table-2", "Table 2", played, (), many).throws == ()
    assert len(topics.game_payload(as_game("table-2", "Table 2", played, (), few * 60))) <= \
        topics.MAX_PAYLOAD


@pytest.mark.parametrize(("topic", "payload", "problem"), [
    ("tc/table-2/game/8", topics.game_payload(GAME), "differs from its topic"),
    ("tc/table-2/game/07", topics.game_payload(GAME), "unknown topic"),
    ("tc/Table 2/live", topics.live_payload(LIVE), "not a table's topic"),
    ("other/x/live", b"{}", "not a table's topic"),
    ("tc/table-2/status", b"maybe", "status must be"),
    ("tc/table-2/live", b"\xff{", "not UTF-8 JSON"),
    ("tc/table-2/live", b"[1]", "not a version 1 object"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b'"v":1', b'"v":true'),
     "not a version 1 object"),  # true == 1 in Python, not in JSON
    ("tc/table-2/live", b'{"v": 1}', "players must be a list"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b"[3,4,5]", b"[3,4,9]"),
     "dice must be numbers from 1 to 6"),
    ("tc/table-2/live", b"x" * (topics.MAX_PAYLOAD + 1), "more than"),
    ("tc/table-2/game/7", topics.game_payload(GAME).replace(b"Ann", b"A\\u0000n"),
     "printable"),
    # what the standard library's parser or the store would have raised on
    ("tc/table-2/live", b'{"v":1,"players":' + b"[" * 8000 + b"]" * 8000 + b"}", "lists"),
    ("tc/table-2/live", b'{"v":1,"players":[[[{"a":"[[[["}]]]}', "nested more than 3"),
    ("tc/table-2/live", b"[" * 16_000, "more than 64 lists"),
    ("tc/table-2/live", b'{"v":1,"x":[' + b"[]," * 64 + b"[]]}", "more than 64 lists"),
    ("tc/table-2/game/7", b'{"v":1,"id":' + b"9" * 5000 + b"}", "more than 10 digits"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b'"moves":17', b'"moves":1e999'),
     "whole"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b'"moves":17', b'"moves":NaN'),
     "whole"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b"Ann", b"\\ud800"), "printable"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b"Ann", b"\xe2\x80\xaeAnn"),
     "printable"),  # a right-to-left override
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b'"roll",', b'"<b>",'), "phase"),
    ("tc/table-2/live", topics.live_payload(LIVE).replace(b'"turn":"Ben"', b'"turn":"Zed"'),
     "turn must be one of the players"),
    ("tc/table-2/game/7", topics.game_payload(GAME).replace(b'"score":48', b'"score":10000001'),
     "score must be a number"),
    ("tc/table-2/game/7", topics.game_payload(GAME).replace(b"Ann", b"A" * 10_000),
     "printable"),
    ("tc/table-2/game/7", topics.game_payload(GAME).replace(b"20:30:00", b"19:30:00"),
     "ends after it starts"),
])
def test_messages_that_break_the_contract_are_refused(topic: str, payload: bytes,
                                                      problem: str) -> None:
    with pytest.raises(BadMessage, match=problem):
        topics.parse(topic, payload)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
TOPICS = st.sampled_from(["tc/table-2/live", "tc/table-2/game/7", "tc/table-2/status",
                          "tc/table-2/game/1"])


@settings(max_examples=300, deadline=None)
@given(TOPICS, st.binary(max_size=64) | JSON.map(lambda v: json.dumps(v).encode()))
def test_nothing_but_a_bad_message_is_raised_by_any_payload(topic: str, payload: bytes) -> None:
    with contextlib.suppress(BadMessage):
        topics.parse(topic, payload)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(json.loads(topics.live_payload(LIVE)))), JSON)
def test_any_value_in_any_field_of_a_live_state_is_checked(key: str, value: object) -> None:
    data = json.loads(topics.live_payload(LIVE))
    data[key] = value
    try:
        live = topics.parse("tc/table-2/live", json.dumps(data).encode())
    except BadMessage:
        return
    assert topics.parse("tc/table-2/live", topics.live_payload(live)) == live  # storable


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["name", "score", "seat", "place"]), JSON)
def test_any_value_in_a_players_field_of_a_game_is_checked(key: str, value: object) -> None:
    data = json.loads(topics.game_payload(GAME))
    data["players"][0][key] = value
    try:
        game = topics.parse("tc/table-2/game/7", json.dumps(data).encode())
    except BadMessage:
        return
    assert topics.parse("tc/table-2/game/7", topics.game_payload(game)) == game


SEATING = topics.Seating((
    topics.SeatedTable("3", "Centennial", ("Ann", "Bob", "Cy")),
    topics.SeatedTable("Table 4", "Sequence Dice", ("Dee", "Eve", "Fay", "Gus"),
                       (("Dee", "Fay"), ("Eve", "Gus"))),
    topics.SeatedTable("5", "Dalmatian", ())), "2026-11-24T22:00:00+01:00")


def test_the_seating_parses_back_and_names_each_tables_line() -> None:
    assert topics.parse(topics.SEATING, topics.seating_payload(SEATING)) == SEATING
    assert topics.parse(topics.SEATING, b"") == topics.NO_SEATING
    assert SEATING.at_table("table-3") == SEATING.tables[0]
    assert SEATING.tables[0].line() == "Next round: table 3 with Ann, Bob, Cy"
    assert SEATING.at_table("table-4") == SEATING.tables[1]
    assert SEATING.tables[1].line() == "Next round: table 4 with Dee, Eve, Fay, Gus"
    assert SEATING.at_table("table-5") is None  # nobody sits there
    assert SEATING.at_table("table-33") is None


@pytest.mark.parametrize("change, why", [
    (lambda d: d["tables"][0]["players"].append("Dee"), "a player sits at two tables"),
    (lambda d: d["tables"][0]["players"].append("Ann"), "the seating names Ann twice at table"),
    (lambda d: d["tables"][1]["teams"].pop(), "teams must give each player's team"),
    (lambda d: d["tables"][0].update(name="\u202eevil"), "name must be a name"),
    (lambda d: d["tables"][0].update(game=""), "game must be a name of 1 to"),
    (lambda d: d.update(tables=[{"name": "1", "game": "x", "players": []}] * 65),
     "tables has more than 64 items"),
    (lambda d: d.update(extra=[[] for _ in range(200)]), "more than 194 lists and objects"),
    (lambda d: d["tables"][0]["players"].append([["deep"]]), "nested more than 4 deep"),
    (lambda d: d.update(at="tonight"), "at must be a time"),
])
def test_a_seating_that_breaks_the_contract_is_refused(change: object, why: str) -> None:
    data = json.loads(topics.seating_payload(SEATING))
    change(data)  # type: ignore[operator]
    with pytest.raises(BadMessage, match=why):
        topics.parse(topics.SEATING, json.dumps(data).encode())


def test_no_other_topic_under_the_nights_own_is_taken() -> None:
    with pytest.raises(BadMessage, match="not a table's topic"):
        topics.parse("tc/_night/other", topics.seating_payload(SEATING))
