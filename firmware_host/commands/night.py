"""``table-companion night --demo``: a whole game night on this machine, to try the page.

Starts a Mosquitto on a free loopback port, a hub, and five simulated tables, one for each
game (so every game's card shows), each with its own config, journal and publisher, playing
short games at a pace a person can follow on the page: about half a minute a game, Dalmatian
one action a second (the seats turn, so the winners change). Prints the page's address and
runs until Ctrl-C; every file is in one folder: a temporary one, removed when the demo stops
however it stops, or ``--folder DIR``, kept. The page is on 127.0.0.1 unless ``--listen``
puts it where a phone can open it, with a warning that anyone on that network can. On a
real night the hub and each table's publisher run as services instead (README, "Game
night").
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
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
from firmware_host.commands.hub import listen_address
from firmware_host.errors import UsageError
from firmware_host.journal import Journal
from firmware_host.night.broker import HUB_USER, LocalBroker, free_port
from firmware_host.night.topics import HOST_USER, table_id
from firmware_host.signals import StopFlag, Stopping
from games import game_class
from games.core import Phase, Roll
from games.dalmatian import Dalmatian, Stop


@dataclass(frozen=True)
class DemoGame:
    """What a demo table plays: its game, its players, and the seconds between actions
    (about half a minute a game, so the cards show live turns most of the time)."""

    game: str
    players: tuple[str, ...]
    step_s: float


GAMES = (DemoGame(Dalmatian.NAME, ("Ann", "Ben"), 1.0),  # each turn stays up to be read
         DemoGame("centennial", ("Cat", "Dan", "Eve"), 0.4),
         DemoGame("sequence", ("Fay", "Gus"), 0.3),
         DemoGame("centerpoint", ("Hal", "Ivy"), 0.1),  # about 330 moves a game
         DemoGame("multigam", ("Jo", "Kim", "Lu", "Mo"), 0.5))
PAUSE_S = (4.0, 9.0)  # between a table's games: long enough to watch the page change
ROUNDS = 2  # a demo game of Dalmatian: about 20 s of play
START_S = 30.0  # for the hub to answer: seconds on a busy or small machine
LOOPBACK = "127.0.0.1"


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "night", description=(
        "With --demo: a game night on this machine (a Mosquitto on a loopback port, a hub and "
        "five simulated tables, one for each game), until Ctrl-C. Needs mosquitto (sudo apt "
        "install mosquitto)."))
    parser.add_argument("--demo", action="store_true", required=True,
                        help="run the demonstration night")
    parser.add_argument("--port", type=int, default=0, metavar="N",
                        help="serve the page on port N (default: a free port)")
    parser.add_argument("--listen", metavar="ADDRESS", default=LOOPBACK,
                        help="serve the page on ADDRESS (HOST or HOST:PORT), e.g. 0.0.0.0 to "
                             "open it on a phone on this network: anyone on the network can "
                             "then (default: 127.0.0.1, this machine only)")
    parser.add_argument("--folder", type=Path, metavar="DIR",
                        help="keep the night's files here (default: a temporary folder, "
                             "removed when the demo stops)")
    parser.set_defaults(handler=run)


@dataclass
class DemoTable:
    name: str
    plays: DemoGame
    folder: Path

    @property
    def players(self) -> tuple[str, ...]:
        return self.plays.players

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
    host, port = where(args.listen, args.port)
    if host != LOOPBACK:
        print(f"Warning: the demo's page is served on {host}: anyone on this network can open "
              "it and /tv (read-only, made-up players). Without --listen it stays on this "
              "machine.", file=sys.stderr, flush=True)
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
        return demo(args.folder, port, kept=True, host=host)
    folder = Path(tempfile.mkdtemp(prefix="table-companion-night-"))
    try:
        return demo(folder, port, kept=False, host=host)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def where(listen: str, port: int) -> tuple[str, int]:
    """The host and port ``--listen`` (HOST or HOST:PORT) and ``--port`` name; a
    :class:`UsageError` for a port named twice or one out of range."""
    if listen.startswith("[") or listen.count(":") == 1:
        host, named = listen_address(listen)
        if port and named and port != named:
            raise UsageError(f"--listen {listen} and --port {port} name two ports; give one")
        port = named or port
    else:
        host = listen
    if not host or any(c.isspace() for c in host):
        raise UsageError(f"--listen {listen}: write HOST or HOST:PORT, e.g. 0.0.0.0:8080")
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: a port is 1 to 65535")
    return host, port


def page_url(host: str, port: int) -> str:
    """The page's address for a browser: ``host``'s, or for every address (0.0.0.0) this
    machine's address on its network (its own name when that cannot be found)."""
    if host in ("0.0.0.0", "::"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # no packet is sent: the route picks the address
                host = probe.getsockname()[0]
        except OSError:
            host = socket.gethostname()
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def demo(folder: Path, port: int, *, kept: bool, host: str = LOOPBACK) -> int:
    """The night in ``folder`` until Ctrl-C (or SIGTERM), every process stopped on return."""
    tables = [DemoTable(f"Table {n}", plays, folder / f"table-{n}")
              for n, plays in enumerate(GAMES, start=1)]
    broker = LocalBroker(folder, [HUB_USER, HOST_USER, *(table_id(t.name) for t in tables)])
    stop = StopFlag.on_signals()
    children: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}  # and its log
    players: list[threading.Thread] = []
    broker.start()
    try:
        port = port or free_port(host)
        url = page_url(host, port)
        children["the hub"] = spawn(folder / "hub.log", "hub", "--broker", broker.url,
                                    "--password-file", str(broker.password_file(HUB_USER)),
                                    "--listen", f"{f'[{host}]' if ':' in host else host}:{port}",
                                    "--page", url, "--db", str(folder / "night.sqlite3"))
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
        print(f"Game night demo: open {url} (five tables play; Ctrl-C stops it), "
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
    """Play short games at ``table`` until stopped, an action every ``step_s`` of its game,
    a pause between games."""
    turn = 0
    rng = random.Random(offset)
    stop.wait(1.0 + offset * 2.0)
    while not stop.is_set():
        seats = turn // (offset + 1)  # seats turn at their own pace per table
        table.write(broker, seats)
        with Journal.open(table.folder / "journal.sqlite3") as journal:
            if not demo_game(journal, table.plays.game, table.seats(seats), rng,
                             lambda: stop.wait(table.plays.step_s)):
                return
        turn += 1
        stop.wait(PAUSE_S[0] + (turn * 7 + offset * 3) % int(PAUSE_S[1] - PAUSE_S[0]))


def demo_game(journal: Journal, name: str, names: tuple[str, ...], rng: random.Random,
              wait: Callable[[], bool]) -> bool:
    """A game of ``name`` (Dalmatian of :data:`ROUNDS` rounds) into ``journal``, ``wait``
    before each action (True: stop); thrown dice come from ``rng``, and so does each move
    among the legal ones, but a Dalmatian turn stops once it scores two dice or has no
    reroll left. Whether it was played to its end."""
    if journal.resume() is not None:
        journal.abandon()  # a demo stopped in the middle of a game, in a kept folder
    options = {"rounds": ROUNDS} if name == Dalmatian.NAME else {}
    game = game_class(name).new(len(names), list(names), **options)
    journal.start(game)
    while not game.is_over:
        if wait():
            return False
        if game.phase is Phase.ROLL:
            action: object = Roll(tuple(rng.randint(1, 6) for _ in range(game.dice_wanted)))
        elif not isinstance(game, Dalmatian):
            action = rng.choice(game.legal_actions())
        elif (game.turn_score or 0) >= 2 or not game.rerolls_left:
            action = Stop()
        else:
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Stop)])
        journal.apply(game, action, source="button")  # generated as the button does
    return True


