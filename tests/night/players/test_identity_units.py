"""The parts of identity one at a time: the roster and the player ids on the wire (checked
as untrusted), the publisher's files beside the journal, the league preferring an id a
game carries, and BG Stats' ``sourcePlayerId``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from schema_helpers import check_message

from firmware_host import next_round
from firmware_host.hub.league.bgstats import play
from firmware_host.hub.league.league import build
from firmware_host.hub.league.roster import Person, Roster
from firmware_host.hub.store import Store
from firmware_host.journal import Journal
from firmware_host.night import topics
from firmware_host.night.publisher import Publisher
from firmware_host.night.topics import BadMessage, Listed, NightRoster
from firmware_host.players import Player, read_roster, roster_beside

ROSTER = NightRoster((Listed("ann-lee", "Ann Lee"), Listed("bob", "Bob")))
GAME = topics.Game("table-1", "Table 1", 7, "Dalmatian", "2026-11-24T20:00:00+00:00",
                   "2026-11-24T20:30:00+00:00", "2026-11-24",
                   (topics.Player(0, "Ann Lee", 40, 1, "ann-lee"),
                    topics.Player(1, "Zed", 30, 2)))


def test_the_roster_goes_over_the_wire_and_back() -> None:
    payload = topics.roster_payload(ROSTER)
    assert topics.parse(topics.ROSTER, payload) == ROSTER
    assert topics.parse(topics.ROSTER, b"") == NightRoster(())
    assert check_message(topics.ROSTER, payload) == "mqttRoster"


@pytest.mark.parametrize(("players", "why"), [
    ([{"id": "ann", "name": "Ann"}, {"id": "ann", "name": "Anne"}], "names Anne \\(ann\\) twice"),
    ([{"id": "ann", "name": "Ann"}, {"id": "an2", "name": "ANN"}], "names ANN \\(an2\\) twice"),
    ([{"id": "Ann!", "name": "Ann"}], "a player's id is 1 to 40"),
    ([{"id": "ann", "name": "A\u202eB"}], "name must be a name"),
    ([{"id": "ann"}], "name must be a str"),
    ([["ann", "Ann"]], "players must be objects"),
])
def test_a_roster_that_breaks_the_contract_is_refused(players: Any, why: str) -> None:
    with pytest.raises(BadMessage, match=why):
        topics.parse(topics.ROSTER, topics.encode({"players": players}))


def test_a_roster_too_big_for_a_message_is_cut_to_what_fits() -> None:
    many = NightRoster(tuple(Listed(f"player-{n:03d}-" + "x" * 29, "Ñ" * 60 + f"{n:04d}")
                             for n in range(topics.MAX_ROSTER)))  # 2 bytes a letter
    cut = topics.fit_roster(many)
    payload = topics.roster_payload(cut)
    assert 0 < len(cut.players) < len(many.players) and cut.players == many.players[
        :len(cut.players)]
    assert len(payload) <= topics.MAX_PAYLOAD  # what the hub and the broker take
    assert topics.parse(topics.ROSTER, payload) == cut


def test_a_games_player_ids_go_over_the_wire_and_old_messages_have_none() -> None:
    topic = topics.game_topic("table-1", 7)
    payload = topics.game_payload(GAME)
    assert topics.parse(topic, payload) == GAME
    data = json.loads(payload)
    assert data["players"][0]["id"] == "ann-lee" and "id" not in data["players"][1]
    assert check_message(topic, payload) == "mqttGame"
    for player in data["players"]:
        player.pop("id", None)
    old = topics.parse(topic, json.dumps(data).encode())
    assert isinstance(old, topics.Game) and [p.id for p in old.players] == ["", ""]
    for bad in ("Ann Lee", "x" * 41, "-ann", 7, None):
        data["players"][0]["id"] = bad
        with pytest.raises(BadMessage, match="id is 1 to 40"):
            topics.parse(topic, json.dumps(data).encode())


@dataclass
class Client:
    on_message: Any = None
    subscribed: list[Any] = field(default_factory=list)

    def subscribe(self, topic: Any, qos: int = 0) -> None:
        self.subscribed.append(topic)


@dataclass
class Link:
    """Enough of a link for the publisher to hear messages: never connected."""

    user: str = "table-3"
    client: Client = field(default_factory=Client)
    connected: Any = None

    def is_connected(self) -> bool:
        return False


@dataclass
class Message:
    topic: str
    payload: bytes


def test_the_publisher_keeps_the_roster_and_the_seat_with_its_ids_beside_the_journal(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        publisher = Publisher(journal, Link(), "Table 3", lambda: None)  # type: ignore[arg-type]
        hear = publisher.link.client.on_message
        hear(None, None, Message(topics.ROSTER, topics.roster_payload(ROSTER)))
        assert read_roster(roster_beside(path)) == (Player("Ann Lee", "ann-lee"),
                                                   Player("Bob", "bob"))
        seating = topics.Seating((topics.SeatedTable("3", "Dalmatian", ("Zed", "ann lee")),),
                                 "2026-11-24T20:00:00+00:00")
        hear(None, None, Message(topics.SEATING, topics.seating_payload(seating)))
        here = next_round.beside(path)
        assert next_round.read(here) == "Next round: table 3 with Zed, ann lee"
        assert next_round.read_seat(here) == next_round.Seat(
            "Dalmatian", (Player("Zed"), Player("Ann Lee", "ann-lee")))
        twice = json.loads(topics.seating_payload(seating))
        twice["tables"][0]["players"] = ["Zed", "Zed"]
        hear(None, None, Message(topics.SEATING, json.dumps(twice).encode()))
        assert next_round.read(here) == ("Next round: the host's seating was refused (the "
                                         "seating names Zed twice at table 3)")
        assert next_round.read_seat(here) is None
        hear(None, None, Message(topics.ROSTER, b""))
        assert not roster_beside(path).exists()


def test_the_league_prefers_the_id_a_game_carries() -> None:
    roster = Roster.of([Person("ann-lee", "Ann Lee", ("Annie",))])
    later = replace(GAME, id=8, started="2026-11-24T21:00:00+00:00",
                    ended="2026-11-24T21:30:00+00:00",
                    players=(topics.Player(0, "Annie", 10, 2),  # matched by the roster
                             topics.Player(1, "Zed", 20, 1, "zed-t")))  # carried: kept
    league = build([GAME, later], roster)
    assert sorted(league.players) == ["ann-lee", "zed", "zed-t"]  # two people called Zed
    assert league.players["ann-lee"].name == "Ann Lee"
    assert len(league.players["ann-lee"].appearances) == 2
    assert [len(league.players[i].appearances) for i in ("zed", "zed-t")] == [1, 1]


def test_bg_stats_knows_a_player_by_the_rosters_id_else_by_the_name() -> None:
    assert [(p["name"], p["sourcePlayerId"]) for p in play(GAME)["players"]] == [
        ("Ann Lee", "ann-lee"), ("Zed", "Zed")]


def test_the_nights_standings_know_a_player_by_the_id_carried_whatever_the_spelling(
        tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    store.use(Roster.of([Person("ann-lee", "Annabel Lee")]))
    again = replace(GAME, id=8, players=(topics.Player(0, "A. Lee", 5, 2, "ann-lee"),
                                         topics.Player(1, "Zed", 9, 1)))
    for message in (GAME, again, topics.Live("table-1", "Table 1", "", (), "", "idle", (), (),
                                             "", 0, (7, 8), "2026-11-24T22:00:00+00:00")):
        store.apply(message)
    assert {row.name: (row.played, row.wins) for row in store.night().standings} == {
        "Annabel Lee": (2, 1), "Zed": (2, 1)}
    store.close()
