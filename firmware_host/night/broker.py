"""A Mosquitto of one's own on a loopback port: for ``night --demo`` and the bench.

The settings are those of the shipped ``systemd/mosquitto/`` files (logins required, the same
ACL, client ids tied to logins, persistence, the night's limits), with one plain listener on
127.0.0.1 instead of the two (TLS for the network) and every file in one folder. When
Mosquitto is not installed, :class:`NoMosquitto` says how to install it.
"""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path

from firmware_host.errors import UsageError

ACL = """\
# Who may do what on a game night (mosquitto acl_file). Tables log in with their table id as
# user name, which is what %u stands for: a table writes, and reads back, only its own
# topics. The hub's user name cannot be a table id (ids have no "_"): it reads every table.
user night_hub
topic read tc/#

# The hub also writes the night's roster (players and their ids) for the tables.
topic write tc/_night/roster

# The host's login (table-companion seat --publish on the hub's machine) writes the next
# round's seating and nothing else; every table reads it and the roster ("_" is in no
# table id).
user night_host
topic write tc/_night/seating

# A table's three topics and nothing deeper or beside them: a login cannot make the broker
# keep junk under its id (tc/%u/junk/...), only its status, live state and finished games.
pattern readwrite tc/%u/status
pattern readwrite tc/%u/live
pattern readwrite tc/%u/game/+
pattern read tc/_night/seating
pattern read tc/_night/roster
"""
HUB_USER = "night_hub"
SEARCH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])


class NoMosquitto(UsageError):
    """Mosquitto is not installed here."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port no one listens on at ``host`` now (0.0.0.0: on every address)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def find(program: str) -> str:
    found = shutil.which(program, path=SEARCH)
    if found is None:
        raise NoMosquitto(f"{program} is not installed; sudo apt install mosquitto")
    return found


class LocalBroker:
    """Mosquitto on 127.0.0.1 with ``users``, each with a password file in ``folder``."""

    def __init__(self, folder: Path, users: list[str], port: int = 0) -> None:
        self.binary = find("mosquitto")
        self.folder = folder
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        passwd = folder / "mosquitto.passwd"
        passwd.write_text("")
        passwd.chmod(0o600)
        for user in users:
            secret = self.password_file(user)
            secret.write_text(secrets.token_urlsafe(16) + "\n")
            secret.chmod(0o600)
            subprocess.run([find("mosquitto_passwd"), "-b", str(passwd), user,
                            secret.read_text().strip()], check=True, capture_output=True)
        (folder / "mosquitto.acl").write_text(ACL)
        (folder / "mosquitto.conf").write_text("\n".join([
            "per_listener_settings false",
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {folder / 'mosquitto.acl'}",
            "use_username_as_clientid true",
            "persistence true",
            f"persistence_location {folder}/",
            "max_queued_messages 20000",
            "max_queued_bytes 33554432",
            "max_inflight_messages 100",
            "max_packet_size 16896",
            f"log_dest file {folder / 'mosquitto.log'}",
            f"user {getpass.getuser()}",  # as root, mosquitto would switch to its own user
        ]) + "\n")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def password_file(self, user: str) -> Path:
        return self.folder / f"{user}.password"

    def start(self, wait: float = 5.0) -> None:
        """Start it and wait until it listens; UsageError with its log if it will not."""
        self.process = subprocess.Popen([self.binary, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        log = self.folder / "mosquitto.log"
        tail = log.read_text(errors="replace").strip().splitlines()[-1:] if log.exists() else []
        self.stop()
        raise UsageError(f"mosquitto did not start on 127.0.0.1:{self.port}"
                         + (f" ({tail[0]})" if tail else ""))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
