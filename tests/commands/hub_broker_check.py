"""Run inside the throwaway root after ``install.sh --hub``, in a network namespace of its own
(``unshare --net``): start Mosquitto with the config the install put in place and log in as
a table would with the folder the install wrote for it. Prints one line per check.
"""

from __future__ import annotations

import fcntl
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

FOLDER = Path(sys.argv[1])  # the table's folder from the hub's install
SIOCSIFFLAGS, UP_LOOPBACK_RUNNING = 0x8914, 0x1 | 0x8 | 0x40


def login(port: int, user: str, password: str, ca: Path | None) -> str:
    """The broker's answer to a login, or why there was none."""
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=user)
    client.username_pw_set(user, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca))
    answer: list[str] = []
    answered = threading.Event()

    def on_connect(client: paho.Client, userdata: object, flags: object, reason: object,
                   properties: object) -> None:
        answer.append(str(reason))
        answered.set()

    client.on_connect = on_connect
    try:
        client.connect("127.0.0.1", port, keepalive=5)
    except OSError as err:
        return f"no connection ({type(err).__name__})"
    client.loop_start()
    answered.wait(5)
    client.disconnect()
    client.loop_stop()
    return answer[0] if answer else "no answer"


def listening(port: int) -> list[str]:
    """The addresses the port is listened on (from /proc/net/tcp)."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.append(socket.inet_ntoa(struct.pack("<I", int(address, 16))))
    return found


def main() -> None:
    with socket.socket() as sock:  # loopback up in this new network namespace
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", UP_LOOPBACK_RUNNING))
    broker = subprocess.Popen(["mosquitto", "-c", "/etc/mosquitto/conf.d/table-companion.conf"],
                              cwd="/tmp", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not (listening(1883) and listening(8883)) and time.monotonic() < deadline:
            time.sleep(0.1)
        password = (FOLDER / "mqtt-password").read_text().strip()
        ca = FOLDER / "night-ca.crt"
        hub = Path("/etc/table-companion/hub-password").read_text().strip()
        print("plain listener on:", " ".join(listening(1883)))
        print("TLS listener on:", " ".join(listening(8883)))
        print("table-2 over TLS with its folder:", login(8883, "table-2", password, ca))
        print("table-2 with a wrong password:", login(8883, "table-2", "guess", ca))
        print("table-2 without TLS on 8883:", login(8883, "table-2", password, None))
        print("the hub on the plain listener:", login(1883, "night_hub", hub, None))
        host = Path("/etc/table-companion/host-password").read_text().strip()
        print("the host on the plain listener:", login(1883, "night_host", host, None))
    finally:
        broker.terminate()
        _, errors = broker.communicate(timeout=10)
        if broker.returncode not in (0, -15):
            print("mosquitto:", errors.decode(errors="replace")[-500:])


if __name__ == "__main__":
    main()
