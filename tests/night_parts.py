"""Real parts for the game-night tests: a mosquitto on a random loopback port with the
shipped config and ACL, and ``table-companion`` processes (sim, publish, hub).

Every wait is bounded in time; a test that waits too long fails with what it waited for.
"""

from __future__ import annotations

import getpass
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from firmware_host.night.broker import free_port

ROOT = Path(__file__).parents[1]
SHIPPED = ROOT / "systemd" / "mosquitto"
NIGHT_CERTS = str(ROOT / "systemd" / "night-certs.sh")
SBIN = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
MOSQUITTO = shutil.which("mosquitto", path=SBIN)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd", path=SBIN)
HUB_USER = "night_hub"
HOST_USER = "night_host"
PASSWORD = "night-pass"
KEEPALIVE_S = 2
# The broker drops a silent client after 1.5 keep-alives; mosquitto 2.0 looks about once a
# second or two, so a cut-off table is offline within this
OFFLINE_WITHIN_S = 1.5 * KEEPALIVE_S + 3

CHROMIUM = next((path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
                 if Path(path).exists()), None)
PHONE = {"width": 390, "height": 844}
SHOTS = ROOT / "build" / "night"
DOCS = ROOT / "docs"
REFRESH_DOCS = "REFRESH_DOCS"  # set to 1: the tests write the README's pictures too


def keep(page: Any, name: str, docs: str = "", full_page: bool = False) -> Path:
    """A screenshot of ``page`` kept as ``build/night/NAME``; one the README shows (``docs``,
    its name under docs/) is written there too when REFRESH_DOCS=1 is set, so every picture
    in the README is a test's own: ``REFRESH_DOCS=1 ./test.sh tests/night/room``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path), full_page=full_page)
    if docs and os.environ.get(REFRESH_DOCS) == "1":
        shutil.copyfile(path, DOCS / docs)
    return path

T = TypeVar("T")


def missing(what: str, why: str = "") -> NoReturn:
    """Skip on a laptop without ``what`` (``why``: the reason, else how to install it); in CI
    (.ci/run installs it) that is a failure."""
    import pytest

    if os.environ.get("TABLE_COMPANION_CI"):
        pytest.fail(f"{what} is not installed, and .ci/run should have installed it")
    pytest.skip(f"{what} is not installed ({why or f'sudo apt install {what}'})")


def until(check: Callable[[], T], seconds: float, what: str, every: float = 0.05) -> T:
    """``check()``'s first true value within ``seconds``; AssertionError naming ``what``."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(every)


def private(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(0o600)
    return path


@dataclass
class Broker:
    """A mosquitto with the shipped config, on 127.0.0.1, that a test stops and starts."""

    folder: Path
    port: int = field(default_factory=free_port)
    tls_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The plain listener, which the shipped config keeps for the hub on its machine."""
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def tls_url(self) -> str:
        """The TLS listener the tables use over the network."""
        return f"mqtts://127.0.0.1:{self.tls_port}"

    @property
    def ca(self) -> Path:
        """The night's certificate authority, which a table trusts."""
        return self.folder / "certs" / "night-ca.crt"

    @property
    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def write_config(self, users: list[str], readers: tuple[str, ...] = ()) -> Path:
        """The shipped config and ACL for ``users``, and ``readers``: logins the ACL lets
        read every topic (an observer of the whole night)."""
        passwd = self.folder / "passwd"
        passwd.write_text("")
        acl = SHIPPED / "table-companion.acl"
        if readers:
            acl = self.folder / "table-companion.acl"
            acl.write_text((SHIPPED / "table-companion.acl").read_text() + "".join(
                f"\nuser {reader}\ntopic read tc/#\n" for reader in readers))
        for user in [*users, *readers]:
            subprocess.run([MOSQUITTO_PASSWD, "-b", str(passwd), user, PASSWORD], check=True,
                           capture_output=True)
        passwd.chmod(0o600)
        certs = self.folder / "certs"
        subprocess.run([NIGHT_CERTS, str(certs), "localhost", "127.0.0.1"], check=True,
                       capture_output=True)
        lines = []
        for line in (SHIPPED / "table-companion.conf").read_text().splitlines():
            key = line.split(" ")[0]
            if line == "listener 8883":
                line = f"listener {self.tls_port} 127.0.0.1"
            elif key == "listener":
                line = f"listener {self.port} 127.0.0.1"
            elif key in ("certfile", "keyfile"):
                line = f"{key} {certs / Path(line.split(' ')[1]).name}"
            elif key == "password_file":
                line = f"password_file {passwd}"
            elif key == "acl_file":
                line = f"acl_file {acl}"
            lines.append(line)
        lines += [f"persistence_location {self.folder}/", f"user {getpass.getuser()}",
                  f"log_dest file {self.folder / 'mosquitto.log'}", "log_type all"]
        config = self.folder / "mosquitto.conf"
        config.write_text("\n".join(lines) + "\n")
        return config

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until(self._listening, 5, f"mosquitto listening on {self.port}")

    def _listening(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"mosquitto exited: {self.log[-2000:]}")
        return all(_accepts(port) for port in (self.port, self.tls_port))

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """Stop it: SIGTERM saves its persistence file, SIGKILL does not."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None

    def forget(self) -> None:
        """Remove the persistence file: the next start knows no retained message."""
        (self.folder / "mosquitto.db").unlink(missing_ok=True)


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Tool:
    """One ``table-companion`` process, its output in a file."""

    args: list[str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)  # added to this process's
    files: int = 0  # its open-files limit, as LimitNOFILE= sets it (0: this process's)

    def start(self) -> Tool:
        def limit() -> None:
            if self.files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "firmware_host.cli", *self.args], cwd=ROOT,
                stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **self.env},
                preexec_fn=limit)
        return self

    def send(self, sig: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> int | None:
        if self.process is None:
            return None
        self.send(sig)
        self.send(signal.SIGCONT)  # a stopped process cannot act on SIGTERM
        try:
            return self.process.wait(timeout=10)
        finally:
            self.process = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Table:
    """A simulated table: a config with a [night] section, its own journal and publisher."""

    folder: Path
    name: str
    players: tuple[str, ...]
    broker: Broker
    password: str = PASSWORD
    publisher: Tool | None = None
    broker_url: str = ""  # '' for the broker's plain listener

    @property
    def id(self) -> str:
        return self.name.lower().replace(" ", "-")

    @property
    def config(self) -> Path:
        return self.folder / "config.toml"

    @property
    def journal(self) -> Path:
        return self.folder / "journal.sqlite3"

    def write(self) -> Table:
        self.folder.mkdir(parents=True, exist_ok=True)
        private(self.folder / "password", self.password + "\n")
        names = ", ".join(json.dumps(n) for n in self.players)
        self.config.write_text(f'players = [{names}]\njournal = "journal.sqlite3"\n'
                               f'[night]\ntable = "{self.name}"\n'
                               f'broker = "{self.broker_url or self.broker.url}"\n'
                               f'credentials = "password"\nca = "{self.broker.ca}"\n')
        return self

    def play(self, scenario: str = "dalmatian", seed: int = 1) -> None:
        """One whole scenario through the simulator on this table's journal."""
        done = subprocess.run([sys.executable, "-m", "firmware_host.cli", "sim", "--config",
                               str(self.config), "--journal", str(self.journal), "--scenario",
                               scenario, "--out", str(self.folder / "frames"), "--seed",
                               str(seed)], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{self.name}: sim exited {done.returncode}: {done.stderr}"

    def publish(self) -> Tool:
        self.publisher = Tool(["publish", "--config", str(self.config), "--keepalive",
                               str(KEEPALIVE_S)], self.folder / "publish.log").start()
        return self.publisher

    def finished(self) -> set[tuple[str, int, tuple[tuple[str, int, int], ...]]]:
        """Every finished game in the journal: (table, game id, (name, score, place)...)."""
        from firmware_host.journal import Journal
        if not self.journal.exists():
            return set()
        with Journal.open_existing(self.journal) as journal:
            return {(self.id, g.id, tuple((p.name, p.score, p.place) for p in g.players))
                    for g in journal.finished_games()}


@dataclass
class Hub:
    folder: Path
    broker: Broker
    port: int = field(default_factory=free_port)
    tool: Tool | None = None
    env: dict[str, str] = field(default_factory=dict)
    files: int = 0  # the hub's open-files limit (0: this process's)
    args: tuple[str, ...] = ()  # more of the hub's options

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> Hub:
        password = private(self.folder / "hub-password", PASSWORD)
        self.tool = Tool(["hub", "--broker", self.broker.url, "--user", HUB_USER,
                          "--password-file", str(password), "--listen",
                          f"127.0.0.1:{self.port}", "--db", str(self.folder / "night.sqlite3"),
                          "--keepalive", str(KEEPALIVE_S), *self.args], self.folder / "hub.log",
                         env=self.env, files=self.files).start()
        until(self._serving, 10, "the hub serving its page")
        return self

    def _serving(self) -> bool:
        assert self.tool is not None and self.tool.process is not None
        if self.tool.process.poll() is not None:
            raise AssertionError(f"the hub exited: {self.tool.output()[-2000:]}")
        try:
            self.night()
        except OSError:
            return False
        return True

    def night(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "night.json", timeout=5) as reply:
            data: dict[str, Any] = json.load(reply)
            return data

    def results(self) -> list[tuple[str, int, tuple[tuple[str, int, int], ...]]]:
        """The hub's finished games as :meth:`Table.finished` gives a journal's (a list, so
        a game held twice would show)."""
        return [(g["table"], g["id"], tuple((p["name"], p["score"], p["place"])
                                            for p in g["players"]))
                for g in self.night()["games"]]

    def table(self, table_id: str) -> dict[str, Any] | None:
        return next((t for t in self.night()["tables"] if t["id"] == table_id), None)


def mqtt_client(broker: Broker, user: str, password: str = PASSWORD, *, client_id: str = "",
                port: int = 0, tls: bool = False) -> Any:
    """A paho client logged in as ``user`` (at the plain listener unless ``tls``, at
    ``port`` if given), connected (or refused) before it returns; its ``refused`` attribute
    holds the broker's reason, if any."""
    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"test-{user}")
    client.username_pw_set(user, password)
    if tls:
        client.tls_set(ca_certs=str(broker.ca))
    client.refused = None
    answered = threading.Event()

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        client.refused = str(reason) if reason.is_failure else None
        answered.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", port or (broker.tls_port if tls else broker.port),
                   keepalive=KEEPALIVE_S)
    client.loop_start()
    assert answered.wait(5), "the broker did not answer"
    return client


def hang_up(client: Any) -> None:
    """Disconnect ``client``, then stop its network thread: stopped first, the thread sits
    out its one-second wait for the socket before it ends."""
    client.disconnect()
    client.loop_stop()


def send(client: Any, topic: str, payload: bytes) -> None:
    """Publish retained with QoS 1 and wait until the broker has it (or dropped it)."""
    client.publish(topic, payload, qos=1, retain=True).wait_for_publish(timeout=5)
