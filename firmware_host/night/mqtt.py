"""One place that builds a paho-mqtt 2 client the way the night needs it.

Both ends log in with a user name and password, keep the connection alive with pings every
``keepalive`` seconds and reconnect by themselves (1 s, doubling to at most 8 s), so a table
whose Wi-Fi comes back is on the night again within seconds. A refusal by the broker (a
wrong password, a user the ACL does not know) is logged once per streak, in one line; so is
a broker that cannot be reached, and a TLS handshake refused (a certificate from another
authority than the CA file, or for other names than the broker URL's), with what to check.

:meth:`Link.trying` tells a supervisor whether the link still works at its job (connected,
or its thread starting attempts as often as it should): a broker that is away is not a
reason to restart the process that waits for it.
"""

from __future__ import annotations

import logging
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware_host.night.topics import Broker

RECONNECT_S = (1, 8)
CONNECT_TIMEOUT_S = 5.0  # for the TCP connection, and again for a TLS handshake


NAME_MISMATCH = (62, 64)  # OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH, _IP_ADDRESS_MISMATCH


class _Context(ssl.SSLContext):
    """A client's TLS settings that keep why the last handshake failed (paho retries and
    keeps only that it failed)."""

    failure: ssl.SSLError | None = None


class _Socket(ssl.SSLSocket):
    def do_handshake(self, block: bool = False) -> None:
        try:
            super().do_handshake(block)
        except ssl.SSLError as err:
            if isinstance(self.context, _Context):
                self.context.failure = err
            raise


def tls_context(ca: Path | None) -> _Context:
    """TLS for a client: the broker's certificate must come from ``ca`` (else from the
    system's authorities) and name the host the URL names. OSError if ``ca`` cannot be
    read or holds no certificate."""
    context = _Context(ssl.PROTOCOL_TLS_CLIENT)  # checks the certificate and its names
    if ca is None:
        context.load_default_certs()
    else:
        context.load_verify_locations(cafile=str(ca))
    context.sslsocket_class = _Socket
    return context


def handshake_refused(broker: Broker, ca: Path | None, err: ssl.SSLError) -> str:
    """One line for a failed TLS handshake with ``broker``, saying what to check."""
    if isinstance(err, ssl.SSLCertVerificationError):
        why = f"its certificate was refused ({err.verify_message})"
        if err.verify_code in NAME_MISMATCH:
            return (f"the broker {broker}: {why}; check the host name in the broker URL "
                    f"({broker.host}) against the names in the broker's certificate (the "
                    "hub's install.sh --hub makes it for the hub's name, NAME.local and its "
                    "addresses)")
        if ca is None:
            return (f"the broker {broker}: {why}; only the system's authorities were "
                    "trusted: give the night's night-ca.crt from the hub as the CA file")
        return (f"the broker {broker}: {why}; check the CA file ({ca}): it must be the "
                "night's night-ca.crt from the hub that made the broker's certificate")
    return (f"the broker {broker}: TLS failed ({err.reason or err}); check that the URL's "
            "port is the broker's TLS listener (8883)")


class Link:
    """A client for ``user`` at ``broker``; ``connected`` runs (in paho's thread) after
    every successful connection, first or again."""

    def __init__(self, broker: Broker, user: str, password: str, *, keepalive: int,
                 log: logging.Logger, will: tuple[str, bytes] | None = None,
                 ca: Path | None = None) -> None:
        self.broker = broker
        self.user = user
        self.keepalive = keepalive
        self.log = log
        self.connected: Callable[[], None] = lambda: None  # set by the publisher or hub
        self.refused: str | None = None  # the broker's last refusal, for tests and the log
        self._reported: str | None = None
        self.attempted_at = time.monotonic()  # when the thread last began to connect
        client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"tc-{user}",
                             clean_session=True)
        client.username_pw_set(user, password)
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        self.ca = ca
        self._tls = tls_context(ca) if broker.tls else None
        if self._tls is not None:
            client.tls_set_context(self._tls)
        client.reconnect_delay_set(*RECONNECT_S)
        client.connect_timeout = CONNECT_TIMEOUT_S
        client.on_pre_connect = self._on_pre_connect
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        self.client = client
        self._thread = threading.Thread(target=self._run, name="mqtt", daemon=True)

    def start(self) -> None:
        """Connect in the background; the network thread retries until :meth:`stop`."""
        self.client.connect_async(self.broker.host, self.broker.port, self.keepalive)
        self._thread.start()

    def _run(self) -> None:
        """paho's network loop, in a thread of our own so that :meth:`alive` can tell when
        it has ended; what ended it is logged, once."""
        try:
            self.client.loop_forever(retry_first_connection=True)
        except Exception as err:  # paho's, or a callback's: the link is dead, say why
            self.log.error("the link to the broker %s stopped: %s: %s", self.broker,
                           type(err).__name__, err)

    def alive(self) -> bool:
        """Whether the network thread still runs (it reconnects by itself while it does)."""
        return self._thread.is_alive()

    def patience(self) -> float:
        """The longest a working thread goes between two attempts to connect: a TCP
        connection's and a handshake's timeout, the broker's answer (paho waits a keep-alive
        for it), the longest wait before retrying, and a second of slack for each step."""
        return 2 * CONNECT_TIMEOUT_S + self.keepalive + RECONNECT_S[1] + 4

    def trying(self, now: float | None = None) -> bool:
        """Whether the link does its job: its thread runs and is connected, or began an
        attempt to connect within :meth:`patience` (a thread stuck elsewhere is not trying)."""
        if not self.alive():
            return False
        moment = time.monotonic() if now is None else now
        return self.is_connected() or moment - self.attempted_at <= self.patience()

    def stop(self, last: tuple[str, bytes] | None = None) -> None:
        """Send ``last`` (retained, waited for at most 2 s) if connected, then disconnect and
        wait for the network thread to end (at most a retry's wait and a connection's)."""
        if last is not None and self.client.is_connected():
            info = self.client.publish(last[0], last[1], qos=1, retain=True)
            info.wait_for_publish(timeout=2.0)
        deadline = time.monotonic() + RECONNECT_S[1] + 2
        self.client.disconnect()
        while self._thread.is_alive() and time.monotonic() < deadline:
            self._thread.join(timeout=0.2)
            # again: asked before paho had its socket, it forgets the first and connects
            self.client.disconnect()

    def is_connected(self) -> bool:
        return bool(self.client.is_connected())

    def publish(self, topic: str, payload: bytes) -> bool:
        """Send retained with QoS 1; False (nothing queued) while not connected."""
        if not self.client.is_connected():
            return False
        info = self.client.publish(topic, payload, qos=1, retain=True)
        return info.rc == paho.MQTT_ERR_SUCCESS

    def _on_pre_connect(self, client: paho.Client, userdata: Any) -> None:
        self.attempted_at = time.monotonic()

    def _on_connect_fail(self, client: paho.Client, userdata: Any) -> None:
        tls = self._tls
        if tls is not None and tls.failure is not None:
            failure, tls.failure = tls.failure, None
            self._report(handshake_refused(self.broker, self.ca, failure), logging.ERROR)
        else:
            self._report(f"cannot reach the broker {self.broker}; trying again every "
                         f"{RECONNECT_S[1]} s at most", logging.WARNING)

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any,
                    reason: ReasonCode, properties: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            self._report(f"the broker {self.broker} refused {self.user}: {reason}; check "
                         "the user's password (and the broker's password file)", logging.ERROR)
            return
        self.refused = None
        self._report(f"connected to {self.broker} as {self.user}")
        self.connected()

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any,
                       reason: ReasonCode, properties: Any) -> None:
        if reason.is_failure and self.refused is None:
            self._report(f"lost the broker {self.broker} ({reason}); reconnecting")

    def _report(self, line: str, level: int = logging.INFO) -> None:
        """``line``, unless it was the last one said: one line per streak of failures."""
        if line != self._reported:
            self._reported = line
            self.log.log(level, "%s", line)


class NotSent(Exception):
    """A one-shot message the broker did not take; the text says why."""


def send_once(broker: Broker, user: str, password: str, topic: str, payload: bytes,
              timeout: float = 10.0, ca: Path | None = None) -> None:
    """Log in, send ``payload`` retained with QoS 1, wait until the broker has it, and log
    out; :class:`NotSent` if the broker cannot be reached, refuses the login or does not
    confirm within ``timeout`` seconds. Over TLS the broker's certificate must come from
    ``ca`` (else from the system's authorities; OSError if ``ca`` cannot be used)."""
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"tc-{user}", clean_session=True)
    client.username_pw_set(user, password)
    if broker.tls:
        client.tls_set_context(tls_context(ca))
    answer: list[ReasonCode] = []
    answered = threading.Event()

    def on_connect(client: paho.Client, userdata: Any, flags: Any, reason: ReasonCode,
                   properties: Any) -> None:
        answer.append(reason)
        answered.set()

    client.on_connect = on_connect
    try:
        client.connect(broker.host, broker.port, keepalive=max(int(timeout), 5))
    except ssl.SSLError as err:
        raise NotSent(handshake_refused(broker, ca, err)) from None
    except (OSError, ValueError) as err:
        why = getattr(err, "strerror", None) or err
        raise NotSent(f"cannot reach the broker at {broker} ({why})") from None
    client.loop_start()
    try:
        if not answered.wait(timeout):
            raise NotSent(f"the broker at {broker} did not answer within {timeout:.0f} s")
        if answer[0].is_failure:
            raise NotSent(f"the broker at {broker} refused {user}: {answer[0]}; check the "
                          "password file (and the broker's password file and ACL)")
        info = client.publish(topic, payload, qos=1, retain=True)
        info.wait_for_publish(timeout)
        if not info.is_published():
            raise NotSent(f"the broker at {broker} did not confirm the message within "
                          f"{timeout:.0f} s")
    finally:
        client.disconnect()
        client.loop_stop()
