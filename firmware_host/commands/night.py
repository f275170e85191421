"""``table-companion night --demo``: a whole game night on this machine, to try the page.

Starts a Mosquitto on a free loopback port, a hub, and three simulated tables, each with its
own config, journal and publisher, playing short Dalmatian games one action a second, at a
pace a person can follow on the page (the seats turn, so the winners change). Prints the
page's address and runs until Ctrl-C; every file is in one folder: a temporary one, removed
when the demo stops however it stops, or ``--folder DIR``, kept. On a real night the hub
and each table's publisher run as services instead (README, "Game night").
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_host.commands import Subparsers, add_command
from firmware_host.errors import UsageError
from firmware_host.journal import Journal
from firmware_host.night.broker import HUB_USER, LocalBroker, free_port
from firmware_host.night.signals import StopFlag, Stopping
from firmware_host.night.topics import HOST_USER, table_id
from games.core import Phase, Roll
from games.dalmatian import Dalmatian, Stop

PLAYERS = (("Ann", "Ben"), ("Cat", "Dan"), ("Eve", "Fay"))
PAUSE_S = (4.0, 9.0)  # between a table's games: long enough to watch the page change
STEP_S = 1.0  # between a demo game's actions: each turn stays on the page to be read
ROUNDS = 2  # a demo game: about 15 s of play, so the cards show live turns most of the time
START_S = 10.0


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "night", description=(
        "With --demo: a game night on this machine (a Mosquitto on a loopback port, a hub and "
        "three simulated tables), until Ctrl-C. Needs mosquitto (sudo apt install "
        "mosquitto)."))
    parser.add_argument("--demo", action="store_true", required=True,
                        help="run the demonstration night")
    parser.add_argument("--port", type=int, default=0, metavar="N",
                        help="serve the page on 127.0.0.1:N (default: a free port)")
    parser.add_argument("--folder", type=Path, metavar="DIR",
                        help="keep the night's files here (default: a temporary folder, "
                             "removed when the demo stops)")
    parser.set_defaults(handler=run)


@dataclass
class DemoTable:
    name: str
    players: tuple[str, ...]
    folder: Path

    @property
    def config(self) -> Path:
        return self.folder / "config.toml"

    def seats(self, turn: int) -> tuple[str, ...]:
        """The players turned by ``turn`` seats, so another player starts."""
        return self.players[turn % len(self.players):] + self.players[:turn % len(self.players)]

    def write(self, broker: LocalBroker, turn: int) -> None:
        """The table's config, its seats turned by ``turn``."""
        seats = self.seats(turn)
        self.config.write_text(
            f"players = {json.dumps(list(seats))}\njournal = \"journal.sqlite3\"\n\n"
            f"[night]\ntable = \"{self.name}\"\nbroker = \"{broker.url}\"\n"
            f"credentials = \"{broker.password_file(table_id(self.name))}\"\n")


def run(args: argparse.Namespace) -> int:
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
        return demo(args.folder, args.port, kept=True)
    folder = Path(tempfile.mkdtemp(prefix="table-companion-night-"))
    try:
        return demo(folder, args.port, kept=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def demo(folder: Path, port: int, *, kept: bool) -> int:
    """The night in ``folder`` until Ctrl-C (or SIGTERM), every process stopped on return."""
    tables = [DemoTable(f"Table {n}", players, folder / f"table-{n}")
              for n, players in enumerate(PLAYERS, start=1)]
    broker = LocalBroker(folder, [HUB_USER, HOST_USER, *(table_id(t.name) for t in tables)])
    stop = StopFlag.on_signals()
    children: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}  # and its log
    players: list[threading.Thread] = []
    broker.start()
    try:
        port = port or free_port()
        url = f"http://127.0.0.1:{port}/"
        children["the hub"] = spawn(folder / "hub.log", "hub", "--broker", broker.url,
                                    "--password-file", str(broker.password_file(HUB_USER)),
                                    "--listen", f"127.0.0.1:{port}",
                                    "--db", str(folder / "night.sqlite3"))
        wait_for_page(url, *children["the hub"])
        for table in tables:
            table.folder.mkdir(exist_ok=True)
            table.write(broker, 0)
            children[f"{table.name}'s publisher"] = spawn(
                table.folder / "publish.log", "publish", "--config", str(table.config))
        players += [threading.Thread(target=play, args=(table, broker, stop, n), daemon=True)
                    for n, table in enumerate(tables)]
        for thread in players:
            thread.start()
        where = "" if kept else " (removed when it stops)"
        print(f"Game night demo: open {url} (three tables play; Ctrl-C stops it), "
              f"{url}tv for a TV\n"
              f"broker {broker.url}, files and logs in {folder}{where}\n"
              f"seat the next round: table-companion seat FILE --publish --broker "
              f"{broker.url} --password-file {broker.password_file(HOST_USER)}", flush=True)
        while not stop.wait(1.0):
            for name, (child, log) in children.items():
                if child.poll() is not None:
                    raise UsageError(f"{name} stopped (exit status {child.returncode}): "
                                     f"{last_line(log)}")
    finally:
        stop.set()
        for child, _ in children.values():
            child.terminate()
        for child, _ in children.values():
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        for thread in players:
            thread.join(timeout=10)
        broker.stop()
    print("table-companion night: stopped", flush=True)
    return 0


def spawn(log: Path, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
    """A ``table-companion`` process writing into ``log``, and the log."""
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *args],
                                stdout=out, stderr=subprocess.STDOUT), log


def last_line(log: Path) -> str:
    """What a process said last: the reason it stopped, told before its folder goes."""
    lines = log.read_text(errors="replace").strip().splitlines()
    return lines[-1] if lines else "it said nothing"


def wait_for_page(url: str, hub: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline and hub.poll() is None:
        try:
            with urllib.request.urlopen(url + "night.json", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise UsageError(f"the hub did not start: {last_line(log)}")


def play(table: DemoTable, broker: LocalBroker, stop: Stopping, offset: int) -> None:
    """Play short games at ``table`` until stopped, an action a :data:`STEP_S`, a pause
    between games."""
    turn = 0
    rng = random.Random(offset)
    stop.wait(1.0 + offset * 2.0)
    while not stop.is_set():
        seats = turn // (offset + 1)  # seats turn at their own pace per table
        table.write(broker, seats)
        with Journal.open(table.folder / "journal.sqlite3") as journal:
            if not demo_game(journal, table.seats(seats), rng, lambda: stop.wait(STEP_S)):
                return
        turn += 1
        stop.wait(PAUSE_S[0] + (turn * 7 + offset * 3) % int(PAUSE_S[1] - PAUSE_S[0]))


def demo_game(journal: Journal, names: tuple[str, ...], rng: random.Random,
              wait: Callable[[], bool]) -> bool:
    """A game of Dalmatian of :data:`ROUNDS` rounds into ``journal``, ``wait`` before each
    action (True: stop); thrown dice come from ``rng``, and a turn stops once it scores
    two dice or has no reroll left. Whether it was played to its end."""
    if journal.resume() is not None:
        journal.abandon()  # a demo stopped in the middle of a game, in a kept folder
    game = Dalmatian.new(len(names), list(names), rounds=ROUNDS)
    journal.start(game)
    while not game.is_over:
        if wait():
            return False
        if game.phase is Phase.ROLL:
            action: object = Roll(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)))
        elif (game.turn_score or 0) >= 2 or not game.rerolls_left:
            action = Stop()
        else:
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Stop)])
        journal.apply(game, action, source="button")  # generated as the button does
    return True


