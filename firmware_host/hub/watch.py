"""The hub watches its own ear: is the link to the broker alive, and are the tables heard?

:meth:`Watch.tick` runs every second. It tells the page what is wrong (a banner: the link's
thread ended, the broker is lost, or no table has been heard for two keep-alives although
some are online, which tables prevent by sending their status every half keep-alive), sends
a table's card again when the table falls quiet or is heard again (its "last heard ... ago"),
sends the results again when the night ends or opens again (the TV's winner of the night),
and pings systemd's watchdog while the link does its job: connected and hearing, or trying
to connect. A broker that is away is the banner's to say, with the time it went (a
restart would lose that time, drop every phone's page and bring no broker back); the hub
is restarted only when its link's thread has ended or is stuck, or when it is connected
yet hears nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from firmware_host.hub import page
from firmware_host.hub.broadcast import sse
from firmware_host.hub.listener import Listener
from firmware_host.hub.store import Night
from firmware_host.notify import Notifier

log = logging.getLogger("table_companion.hub")
SILENT_KEEPALIVES = 2
TROUBLE = {
    "stopped": "The hub stopped listening to the tables; it restarts by itself.",
    "refused": "The broker refused the hub's login: the host should check its password.",
    "connecting": "The hub is still connecting to the broker.",
    "lost": "The hub lost the broker at {at}: what you see may be out of date. The tables "
            "keep every game.",
    "silent": "The hub has heard nothing from the tables since {at}: what you see may be "
              "out of date.",
}


class Watch:
    """Watches ``listener``'s link; ``keepalive`` is the tables' (and the hub's) keep-alive;
    ``notifier`` tells systemd (the one in the environment unless given)."""

    def __init__(self, listener: Listener, keepalive: float,
                 clock: Callable[[], float] = time.monotonic,
                 notifier: Notifier | None = None) -> None:
        self.listener = listener
        self.keepalive = keepalive
        self.clock = clock
        self.notifier = notifier or Notifier.from_environ()
        self.kind = ""
        self.trouble = ""
        self._connected_once = False
        self._quiet: set[str] = set()
        self._over = False
        self._banner = ""
        listener.store.quiet_after = keepalive

    def night(self) -> Night:
        """The night as the page shows it: the store's, with the hub's trouble."""
        return replace(self.listener.store.night(), trouble=self.banner())

    def banner(self) -> str:
        """The banner's words, for the host: the link's trouble, and the tables that sent
        more than their share."""
        return " ".join(words for words in (self.trouble, self.listener.refusals.note())
                        if words)

    def silent(self) -> bool:
        """No message for two keep-alives while tables are online: the link hears nothing."""
        return (self.clock() - self.listener.heard_at > SILENT_KEEPALIVES * self.keepalive
                and self.listener.store.online())

    def tick(self) -> None:
        link = self.listener.link
        kind = self._trouble()
        if kind != self.kind:
            self.kind = kind
            self.trouble = TROUBLE[kind].format(at=f"{datetime.now():%H:%M}") if kind else ""
            if kind:
                log.warning("%s", self.trouble)
            else:
                log.info("the hub hears the tables again")
            self.notifier.status(self.trouble or "hearing the tables")
        if self.banner() != self._banner:
            self._banner = self.banner()
            self.listener.broadcast.send("banner", sse("banner", {
                "html": page.banner(self._banner)}))
        self.listener.refusals.say()
        if link.trying() and not (link.is_connected() and self.silent()):
            self.notifier.watchdog()
        quiet = self.listener.store.quiet()
        self.listener.cards(quiet ^ self._quiet)
        self._quiet = quiet
        over = self.listener.store.over()
        if over != self._over:  # the TV's winner of the night, shown or taken down
            self._over = over
            self.listener.send_results()

    def _trouble(self) -> str:
        """What is wrong with the link: a key of :data:`TROUBLE`, or ''."""
        link = self.listener.link
        if not link.trying():
            return "stopped"
        if link.refused is not None:
            return "refused"
        if link.is_connected():
            self._connected_once = True
            return "silent" if self.silent() else ""
        return "lost" if self._connected_once else "connecting"
