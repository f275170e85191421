"""Tell systemd how the service is (``sd_notify``): one datagram to ``$NOTIFY_SOCKET``.

``READY=1`` once the page is served (the unit is ``Type=notify``), ``WATCHDOG=1`` while the
hub's link does its job (the unit's ``WatchdogSec=`` restarts a hub that stops saying it),
``STATUS=...`` for ``systemctl status``. Outside systemd there is no socket and nothing is
sent.
"""

from __future__ import annotations

import os
import socket


def notify(state: str) -> bool:
    """Send ``state`` (``KEY=value`` lines); False when not under systemd or it failed."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(state.encode(), address)
    except OSError:
        return False
    return True
