"""The next round's seating, from the host's command line to the room: ``seat --publish``
sends it as the host's login to a real broker; the real hub shows it on the phone page and on
/tv (in headless Chromium), and a table's real publisher writes that table's line beside its
journal for the offline referee. Only the host's login may publish it; ``--clear`` takes it
down.

The TV's seating page is kept as ``build/night/tv-seating-1920x1080.png``, the phone's as
``build/night/page-seating-390x844.png``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from night_parts import (
    PASSWORD,
    PHONE,
    ROOT,
    Broker,
    Hub,
    Table,
    hang_up,
    keep,
    mqtt_client,
    private,
    send,
    until,
)
from schema_helpers import check, check_message

from firmware_host import next_round
from firmware_host.commands.seat import as_seating, read_night
from firmware_host.hub import tv
from firmware_host.night import topics
from firmware_host.seating import propose

SHOT = "tv-seating-1920x1080.png"
PHONE_SHOT = ROOT / "build" / "night" / "page-seating-390x844.png"
NIGHT = """\
players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "<b>Bo</b>"]
apart = [["Ann", "Ben"]]
rounds = [[["Ann", "Cat", "Eve", "Gus"], ["Ben", "Dan", "Fay", "<b>Bo</b>"]]]
[[tables]]
name = "1"
game = "centennial"
[[tables]]
name = "2"
game = "sequence"
"""


def seat(tmp_path: Path, broker: Broker, *args: str,
         password: str = PASSWORD) -> subprocess.CompletedProcess[str]:
    secret = private(tmp_path / "host-password", password)
    return subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "seat", *args, "--broker", broker.url,
         "--password-file", str(secret)], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_a_published_seating_reaches_the_page_the_tv_and_the_tables_screen(
        tmp_path: Path, browser: Any, broker: Broker, hub: Hub, tables: list[Table]) -> None:
    table, early = tables[0], tables[1]
    table.play()
    table.publish()
    line_file = next_round.beside(table.journal)
    # a publisher whose link is up before the referee has made the journal hears it too
    early.publish()
    until(lambda: "connected to" in early.publisher.output(), 10,  # type: ignore[union-attr]
          "table 2's publisher at the broker before its journal exists")
    early.play()
    night = tmp_path / "night.toml"
    night.write_text(NIGHT)
    done = seat(tmp_path, broker, str(night), "--json", "--publish")
    assert done.returncode == 0, done.stderr
    proposal = json.loads(done.stdout)
    assert "Published to mqtt://127.0.0.1" in done.stderr
    seated = {t["name"]: t for t in proposal["tables"]}
    mine = seated["1"]["players"]

    shown = until(lambda: hub.night()["seating"]["tables"], 10, "the seating at the hub")
    check("hubNight", hub.night())
    assert check_message(topics.SEATING, topics.seating_payload(as_seating(
        propose(read_night(night), 0), datetime.now().astimezone()))) == "mqttSeating"
    assert [t["players"] for t in shown] == [t["players"] for t in proposal["tables"]]
    until(line_file.exists, 10, "the table's line beside its journal")
    assert next_round.read(line_file) == f"Next round: table 1 with {', '.join(mine)}"
    theirs = ", ".join(seated["2"]["players"])
    until(lambda: next_round.read(next_round.beside(early.journal))
          == f"Next round: table 2 with {theirs}", 10, "table 2's line beside its journal")

    page = browser.new_page(viewport=PHONE)
    page.goto(hub.url, wait_until="domcontentloaded")
    rows = page.locator("#seating tbody tr")
    assert rows.count() == 2
    assert page.locator("#seating th[scope=col]").all_inner_texts() == ["Table", "Game",
                                                                        "Players"]
    assert page.locator("#seating b").count() == 0  # a name is text, never markup
    assert "<b>Bo</b>" in page.locator("#seating").inner_text()
    teams = seated["2"]["teams"]
    assert rows.nth(1).inner_text().split("\t") == [
        "Table 2", "Sequence Dice", " against ".join(" and ".join(t) for t in teams)]
    PHONE_SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PHONE_SHOT))
    page.close()

    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.clock.install()
    screen.goto(hub.url + "tv", wait_until="domcontentloaded")
    screen.wait_for_selector("#link.up", timeout=10_000)  # live (a selector: the CSP forbids eval)
    assert screen.locator("#tables").is_visible()  # one page of tables, then the seating
    screen.clock.run_for(tv.CYCLE_S * 1000)
    assert screen.locator("#next-round").is_visible() and not screen.locator("#tables").is_visible()
    tiles = screen.locator("#next-round article")
    assert tiles.count() == 2 and "<b>Bo</b>" in screen.locator("#next-round").inner_text()
    assert " against " in tiles.nth(1).inner_text()
    keep(screen, SHOT, docs=SHOT)

    # a table's login cannot seat the room: the broker drops it, the host's stays
    intruder = mqtt_client(broker, "table-2")
    send(intruder, topics.SEATING, b"")
    hang_up(intruder)
    until(lambda: "Denied PUBLISH from table-2" in broker.log, 5, "the broker refusing it")
    assert hub.night()["seating"]["tables"] == shown

    cleared = seat(tmp_path, broker, "--clear")
    assert cleared.returncode == 0, cleared.stderr
    until(lambda: not hub.night()["seating"]["tables"], 10, "the seating cleared at the hub")
    until(lambda: not line_file.exists(), 10, "the table's line gone")
    until(lambda: screen.locator("#next-round article").count() == 0, 10,
          "the TV without the seating")
    screen.clock.run_for(tv.CYCLE_S * 1000)
    assert screen.locator("#tables").is_visible()
    screen.close()


def test_a_restarted_hub_keeps_the_seating_its_broker_lost(
        tmp_path: Path, broker: Broker, hub: Hub) -> None:
    night = tmp_path / "night.toml"
    night.write_text(NIGHT)
    done = seat(tmp_path, broker, str(night), "--json", "--publish")
    assert done.returncode == 0, done.stderr
    seated = [t["players"] for t in json.loads(done.stdout)["tables"]]

    def shown() -> list[list[str]]:
        return [t["players"] for t in hub.night()["seating"]["tables"]]

    until(lambda: shown() == seated, 10, "the seating at the hub")
    assert hub.tool is not None
    hub.tool.stop()
    broker.stop(signal.SIGKILL)
    broker.forget()  # the broker lost its retained messages, the seating with them
    broker.start()
    hub.start()
    assert shown() == seated
    assert hub.tool is not None
    hub.tool.stop()
    cleared = seat(tmp_path, broker, "--clear")  # while the hub is down
    assert cleared.returncode == 0, cleared.stderr
    hub.start()
    until(lambda: not shown(), 10, "the hub hearing the seating was taken down")
    got = mqtt_client(broker, "night_hub")
    kept: list[bytes] = []
    got.on_message = lambda client, userdata, message: kept.append(message.payload)
    got.subscribe(topics.SEATING, qos=1)
    until(lambda: kept, 5, "the broker's retained seating")
    hang_up(got)
    assert check_message(topics.SEATING, kept[0]) == "mqttSeating"


@pytest.mark.parametrize("password, why", [("guess", "refused night_host: Not authorized"),
                                           ("", "is empty")])
def test_a_wrong_host_password_is_one_clear_line(tmp_path: Path, broker: Broker,
                                                 password: str, why: str) -> None:
    night = tmp_path / "night.toml"
    night.write_text(NIGHT)
    done = seat(tmp_path, broker, str(night), "--publish", password=password)
    assert done.returncode == 2
    assert why in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
