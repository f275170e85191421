"""``seat --hub``: the night's past rounds and ratings come from the hub, from its file or
over HTTP, and the words printed claim nothing the input cannot support."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from hub_helpers import serving
from seat_helpers import seat

from firmware_host.hub.league.ratings import TARGET
from firmware_host.hub.store import Store
from firmware_host.night.topics import Game, Live, Player

NIGHT = "2026-11-24"
TABLES = """\
[[tables]]
name = "1"
game = "centennial"
[[tables]]
name = "2"
game = "centennial"
"""
FOUR = 'players = ["Ann", "Ben", "Cat", "Dan"]\n' + TABLES


def game(number: int, night: str, *names: str) -> Game:
    """A finished 2-player game at table 1, the first name first."""
    hour = 10 + number // 60
    at = f"{night}T{hour:02d}:{number % 60:02d}:00+00:00"
    return Game("table-1", "Table 1", number, "Centennial", at, at, night,
                tuple(Player(seat, name, 10 - seat, seat + 1) for seat, name in enumerate(names)))


def hub_file(tmp_path: Path, games: list[Game]) -> Path:
    path = tmp_path / "night.sqlite3"
    store = Store.open(path)
    for played in games:
        store.apply(played)
    latest = max((g.night for g in games), default="")
    # the table's live state lists its finished games of the latest night: the hub shows them
    store.apply(Live("table-1", "Table 1", "", (), "", "idle", (), (), "", 0,
                     tuple(g.id for g in games if g.night == latest), f"{NIGHT}T23:00:00+00:00"))
    store.close()
    return path


def met_eight_times(tmp_path: Path) -> Path:
    """Ann and Ben met 8 times tonight ("ann" once, as a table wrote her); Cat and Dan
    once; a night before, Ann and Cat 20 times."""
    before = "2026-11-17"
    return hub_file(tmp_path, [
        *(game(n, before, "Ann", "Cat") for n in range(1, 21)),
        *(game(100 + n, NIGHT, *(("ann", "Ben") if n % 2 else ("Ben", "Ann")))
          for n in range(8)),
        game(200, NIGHT, "Cat", "Dan")])


def groups(out: str) -> list[set[str]]:
    return [set(t["players"]) for t in json.loads(out)["tables"]]


SEEDS = (5, 6, 9, 10)  # seeds that seat Ann with Ben when nobody's meetings are counted


@pytest.mark.parametrize("seed", SEEDS)
def test_players_who_met_eight_times_tonight_are_not_seated_together(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    hub = met_eight_times(tmp_path)
    roster = ["--roster", str(tmp_path / "no-roster.toml")]
    status, out, err = seat(tmp_path, capsys, FOUR, "--hub", str(hub), *roster,
                            "--seed", str(seed), "--json")
    assert status == 0, err
    seated = groups(out)
    assert {"Ann", "Ben"} not in seated and {"Cat", "Dan"} not in seated
    data = json.loads(out)
    assert data["repeats"] == 0
    assert data["hub"] == [f"From the hub: 9 finished games of the night of {NIGHT} as past "
                           "rounds."]
    assert "Nobody meets a player they have met tonight." in data["explanation"]


def test_without_the_hub_some_of_those_seeds_seat_them_together(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The test above can fail: it is the meetings read from the hub that keep them apart."""
    for seed in SEEDS:
        assert {"Ann", "Ben"} in groups(seat(tmp_path, capsys, FOUR, "--seed", str(seed),
                                             "--json")[1])


def test_the_hub_over_http_gives_the_same_seating(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = met_eight_times(tmp_path)
    from_file = seat(tmp_path, capsys, FOUR, "--hub", str(path), "--roster",
                     str(tmp_path / "none.toml"), "--json")
    with serving(Store.open(path)) as url:
        over_http = seat(tmp_path, capsys, FOUR, "--hub", url, "--json")
        older = seat(tmp_path, capsys, FOUR, "--hub", url + "/", "--night", "2026-11-17",
                     "--json")
        missing = seat(tmp_path, capsys, FOUR, "--hub", url, "--night", "2026-01-01")
    assert over_http[0] == 0, over_http[2]
    assert json.loads(over_http[1]) == json.loads(from_file[1])
    assert {"Ann", "Cat"} not in groups(older[1])
    assert json.loads(older[1])["hub"][0].startswith("From the hub: 20 finished games")
    assert missing[0] == 2 and missing[2].count("\n") == 1
    assert "the hub answered 404 Not Found; no such night there" in missing[2]


def test_a_newcomer_gets_a_newcomers_rating_and_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hub = met_eight_times(tmp_path)
    status, out, err = seat(tmp_path, capsys, FOUR.replace('"Dan"]', '"Dan", "Eve", "Fay"]'),
                            "--hub", str(hub), "--roster", str(tmp_path / "none.toml"))
    assert status == 0, err
    assert out.splitlines()[0] == (
        f"From the hub: 9 finished games of the night of {NIGHT} as past rounds; Eve, Fay "
        f"not rated yet, counted as a newcomer ({TARGET:g}).")


def test_without_past_rounds_it_does_not_claim_nobody_meets_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = seat(tmp_path, capsys, FOUR)
    assert status == 0
    assert "Nobody meets a player they have met tonight." not in out
    assert "No past round was given, so who met whom was not counted." in out.splitlines()
    empty = hub_file(tmp_path, [])
    status, out, _ = seat(tmp_path, capsys, FOUR, "--hub", str(empty), "--roster",
                          str(tmp_path / "none.toml"))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == ("From the hub: 0 finished games of the hub's night as past rounds; "
                        f"Ann, Ben, Cat, Dan not rated yet, counted as a newcomer ({TARGET:g}).")
    assert "No past round was given, so who met whom was not counted." in lines


class Hostile(BaseHTTPRequestHandler):
    """A "hub" that answers anything but a night."""

    replies: dict[str, bytes] = {}

    def do_GET(self) -> None:
        body = self.replies.get(self.path, b"")
        self.send_response(200 if self.path in self.replies else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize(("night", "league", "said"), [
    (b"[" * 100_000, b"{}", "not JSON"),
    (b'{"night": "2026-11-24", "games": "many"}', b'{"players": []}', "TypeError"),
    (b'{"night": "2026-11-24", "games": []}',
     b'{"players": [{"id": "ann", "name": "Ann", "games": [], '
     b'"rating": {"shown": -3, "games": 2}}]}', "a rating is not a whole number"),
    (b'{"night": "yesterday", "games": []}', b'{"players": []}', "ValueError"),
    (b"<html>", b"{}", "not JSON"),
])
def test_a_hostile_hub_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   night: bytes, league: bytes, said: str) -> None:
    Hostile.replies = {"/night.json": night, "/league.json": league}
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        status, out, err = seat(tmp_path, capsys, FOUR, "--hub",
                                f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()
    assert status == 2 and out == ""
    assert err.startswith("table-companion seat: error: --hub: ") and err.count("\n") == 1
    assert said in err


@pytest.mark.parametrize(("options", "said"), [
    (("--hub", "nowhere.sqlite3"), "--hub nowhere.sqlite3: no such file"),
    (("--hub", "http://127.0.0.1:9"), "is the hub running there?"),
    (("--hub", "x.sqlite3", "--night", "soon"), "--night soon: not a date"),
])
def test_a_hub_that_is_not_there_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...],
        said: str) -> None:
    status, _, err = seat(tmp_path, capsys, FOUR, *options)
    assert status == 2 and said in err and err.count("\n") == 1


def test_ratings_in_the_file_and_from_the_hub_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hub = met_eight_times(tmp_path)
    status, _, err = seat(tmp_path, capsys, "ratings = { Ann = 100, Ben = 100, Cat = 100, "
                          "Dan = 100 }\n" + FOUR, "--hub", str(hub))
    assert status == 2 and "the file gives ratings and --hub does too" in err


def test_a_file_that_is_not_a_hubs_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.sqlite3"
    other.write_bytes(b"not a database at all" * 100)
    status, _, err = seat(tmp_path, capsys, FOUR, "--hub", str(other))
    assert status == 2 and "not a hub's nights" in err and err.count("\n") == 1


def test_a_player_chosen_from_the_roster_is_met_by_the_id_the_table_carried(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table that wrote "Annie" but carried the roster's id "ann" seated Ann: the host's
    "Ann" met Ben there, in the hub's file and over HTTP alike."""
    games = [replace(game(100 + n, NIGHT, "Annie", "Ben"), players=(
        Player(0, "Annie", 9, 1, "ann"), Player(1, "Ben", 4, 2))) for n in range(3)]
    path = hub_file(tmp_path, games)
    for seed in SEEDS:
        status, out, err = seat(tmp_path, capsys, FOUR, "--hub", str(path), "--roster",
                                str(tmp_path / "none.toml"), "--seed", str(seed), "--json")
        assert status == 0, err
        assert {"Ann", "Ben"} not in groups(out)
    with serving(Store.open(path)) as url:
        for seed in SEEDS:
            status, out, err = seat(tmp_path, capsys, FOUR, "--hub", url, "--seed", str(seed),
                                    "--json")
            assert status == 0, err
            assert {"Ann", "Ben"} not in groups(out)
