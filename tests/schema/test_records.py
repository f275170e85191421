"""Every record the project produces validates against docs/schema/, and the schema refuses
a field a producer added or renamed without it (the night harness checks the same records
as they cross the broker and leave the hub: tests/night/test_night_schema.py)."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from journal_helpers import CET, FakeClock
from jsonschema import Draft202012Validator
from schema_helpers import SCHEMA_FILE, check, check_message, problems, schema

from firmware_host.cli import main
from firmware_host.hub import page
from firmware_host.hub.store import Store
from firmware_host.hub.tonight import dated
from firmware_host.journal import Journal
from firmware_host.night import topics
from firmware_host.night.follow import snapshot
from games.dalmatian import Dalmatian

NOW = datetime(2026, 11, 21, 23, 0, tzinfo=CET)


def night_journal(path: Path, games: int = 2) -> Journal:
    """``games`` finished Dalmatian games of 3 players and one in its first turn."""
    rng = random.Random(5)
    journal = Journal.open(path, FakeClock())
    for number in range(games + 1):
        game = Dalmatian.new(3, ["Ann", "Ben", "Zoë ❤"], rounds=1)
        journal.start(game)
        while not game.is_over and not (number == games and len(game.history) >= 4
                                         and game.phase.value == "move"):
            advice = game.advice()
            if advice is None:
                dice = "-".join(str(rng.randint(1, 6)) for _ in range(game.dice_wanted))
                journal.apply(game, "roll " + dice, source="button")
            elif advice.stops:
                journal.apply(game, "stop")
            else:
                journal.apply(game, "reroll " + "-".join(map(str, advice.reroll)))
    return journal


@pytest.fixture
def journal(tmp_path: Path) -> Any:
    with night_journal(tmp_path / "journal.sqlite3") as opened:
        yield opened


def messages(journal: Journal) -> list[tuple[str, bytes]]:
    """What a publisher sends for ``journal``: status, each game, the live state."""
    snap = snapshot(journal, "table-1", "Table 1", NOW)
    return [(topics.status_topic("table-1"), topics.ONLINE.encode()),
            (topics.status_topic("table-1"), topics.OFFLINE.encode()),
            *((topics.game_topic("table-1", g.id), topics.game_payload(g)) for g in snap.games),
            (topics.live_topic("table-1"), topics.live_payload(snap.live))]


def test_the_schema_is_a_draft_2020_12_schema_with_a_version() -> None:
    whole = schema()
    Draft202012Validator.check_schema(whole)
    assert whole["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert whole["$id"].endswith(f":{topics.VERSION}")


def test_every_message_a_publisher_sends_validates(journal: Journal) -> None:
    sent = messages(journal)
    assert [check_message(*message) for message in sent] == [
        "mqttStatus", "mqttStatus", "mqttGame", "mqttGame", "mqttLive"]
    live = json.loads(sent[-1][1])
    assert live["dice"] and live["phase"] in ("roll", "move")  # a game in play, dice shown
    finished = json.loads(sent[2][1])
    assert len(finished["luck"]) == 3  # a game of Dalmatian: each player's
    throws = [text.split(":") for text in finished["throws"]]
    assert [seat for seat, _, _ in throws[:3]] == ["0", "1", "2"]  # the opening, by seat
    assert {source for _, source, _ in throws} == {"button"}


def test_the_hubs_json_and_events_validate(journal: Journal, tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    for topic, payload in messages(journal):
        store.apply(dated(topics.parse(topic, payload), NOW))
    night = store.night()
    assert len(night.games) == 2 and night.tables[0].live is not None
    check("hubNight", json.loads(json.dumps(page.as_json(night, 3))))
    check("eventState", {"html": page.main(night)})
    check("eventResults", page.results(night))
    check("eventCard", {"id": night.tables[0].id, "html": page.card(night.tables[0])})
    check("eventBanner", {"html": page.banner("The hub lost the broker")})
    store.close()


def test_the_json_export_validates(journal: Journal, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--format", "json", "--all", "--journal", str(journal.path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert len(exported["nights"][0]["games"]) == 2
    check("export", exported)


def test_a_field_added_or_renamed_by_a_producer_is_refused(journal: Journal) -> None:
    """What a producer changed without the schema fails, in the MQTT messages and the
    hub's records alike."""
    sent = {kind: json.loads(payload) for kind, payload in
            (("game", messages(journal)[2][1]), ("live", messages(journal)[-1][1]))}
    for kind, record in (("mqttGame", sent["game"]), ("mqttLive", sent["live"]),
                         ("hubLive", {**_without(sent["live"], "v"), "table": "table-1"})):
        assert problems(kind, {**record, "luck": 3.1})  # added
        renamed = _without(record, "name")
        assert problems(kind, {**renamed, "table_name": record["name"]})  # renamed
    player = sent["game"]["players"][0]
    assert problems("mqttGame", {**sent["game"], "players": [{**player, "rating": 25}]})


def test_the_schema_names_every_field_of_the_night_records() -> None:
    """The records the hub serves are its dataclasses as they are: a field added there is a
    field of the JSON, and must be in the schema."""
    defs = schema()["$defs"]
    assert set(defs["liveState"]["properties"]) | {"table"} == {f.name for f in
                                                                 fields(topics.Live)}
    assert set(defs["gameResult"]["properties"]) | {"table"} == {f.name for f in
                                                                  fields(topics.Game)}
    assert set(defs["result"]["properties"]) == {f.name for f in fields(topics.Player)}
    assert set(defs["luck"]["properties"]) == {f.name for f in fields(topics.Luck)}
    assert set(defs["throw"]["properties"]) == {f.name for f in fields(topics.Thrown)}


def test_what_the_wire_refuses_the_schema_refuses_too(journal: Journal) -> None:
    """Values :func:`topics.parse` refuses break the schema as well: a reader of our records
    may rely on the same limits."""
    live = json.loads(messages(journal)[-1][1])
    for bad in ({"phase": "dancing"}, {"dice": [7]}, {"name": ""}, {"name": "A\u202eB"},
                {"at": "2026-11-21 20:00"}, {"v": 2}, {"finished": [0]}):
        assert problems("mqttLive", {**live, **bad}), bad
        with pytest.raises(topics.BadMessage):
            topics.parse(topics.live_topic("table-1"), json.dumps({**live, **bad}).encode())


def _without(record: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != key}


def test_the_schema_file_is_what_the_records_declare() -> None:
    """docs/schema/ is made by ``python -m firmware_host.night.schema``; a record changed without
    making it again fails here (the derived definitions are the records' own)."""
    from firmware_host.night import schema as made

    assert SCHEMA_FILE.read_text(encoding="utf-8") == made.text(), (
        "docs/schema/ differs from the records: python -m firmware_host.night.schema > "
        "docs/schema/records-1.schema.json")
    wire = made.document()["$defs"]
    assert wire["mqttRoster"]["properties"]["players"]["maxItems"] == topics.MAX_ROSTER
    assert wire["liveState"]["properties"]["finished"]["maxItems"] == topics.MAX_GAMES


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=70),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
LIVE = topics.Live("table-2", "Table 2", "Dalmatian", ("Ann", "Ben"), "Ben", "roll", (3, 4),
                   (10, 12), "roll 3-4", 17, (5, 7), "2026-11-24T20:31:00+01:00", "round 2")
GAME = topics.Game("table-2", "Table 2", 7, "Dalmatian", "2026-11-24T20:00:00+01:00",
                   "2026-11-24T20:30:00+01:00", "2026-11-24",
                   (topics.Player(0, "Ann", 48, 1, "ann"), topics.Player(1, "Ben", 42, 2)),
                   (topics.Luck(0, 310, 40), topics.Luck(1, -125, 0)),
                   (topics.Thrown(0, "button", (1, 2)),), 1)


SEATING = topics.Seating((topics.SeatedTable("3", "Centennial", ("Ann", "Bob")),
                          topics.SeatedTable("4", "Sequence", ("Cy", "Dee", "Eve", "Fay"),
                                             (("Cy", "Eve"), ("Dee", "Fay")))),
                         "2026-11-24T22:00:00+01:00")
ROSTER = topics.NightRoster((topics.Listed("ann", "Ann"), topics.Listed("ben", "Ben")))
# each kind of object in a message: its topic, the message, where the object is in it
MESSAGES: dict[str, tuple[str, bytes, tuple[str | int, ...]]] = {
    "live": (topics.live_topic("table-2"), topics.live_payload(LIVE), ()),
    "game": (topics.game_topic("table-2", 7), topics.game_payload(GAME), ()),
    "player": (topics.game_topic("table-2", 7), topics.game_payload(GAME), ("players", 1)),
    "luck": (topics.game_topic("table-2", 7), topics.game_payload(GAME), ("luck", 0)),
    "seating": (topics.SEATING, topics.seating_payload(SEATING), ()),
    "seated": (topics.SEATING, topics.seating_payload(SEATING), ("tables", 1)),
    "roster": (topics.ROSTER, topics.roster_payload(ROSTER), ()),
    "listed": (topics.ROSTER, topics.roster_payload(ROSTER), ("players", 0)),
}


def within(data: Any, where: tuple[str | int, ...]) -> Any:
    for step in where:
        data = data[step]
    return data


FIELDS = {kind: sorted(within(json.loads(payload), where))
          for kind, (_, payload, where) in MESSAGES.items()}


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(sorted(FIELDS)).flatmap(
    lambda kind: st.tuples(st.just(kind), st.sampled_from(FIELDS[kind]))), JSON)
def test_what_the_records_accept_the_schema_accepts(field: tuple[str, str], value: Any) -> None:
    """The validator and the schema come from one declaration: a message the wire's parser
    takes, with any field of any of its objects changed to anything, validates against its
    definition."""
    kind, key = field
    topic, payload, where = MESSAGES[kind]
    data = json.loads(payload)
    within(data, where)[key] = value
    changed = json.dumps(data).encode()
    try:
        topics.parse(topic, changed)
    except topics.BadMessage:
        return
    check_message(topic, changed)
