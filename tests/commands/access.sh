#!/usr/bin/env bash
# Run inside test_install.py's throwaway root once it is a game night's hub and a table at
# once: who may read which file of /etc/table-companion, tried as each service's user, and
# the roster as the hub's code reads it (the roster written by the host in between).
set -euo pipefail
dir=/etc/table-companion
files=("$dir/config.toml" "$dir/night-ca.crt" "$dir/mqtt-password" "$dir/roster.toml"
       "$dir/hub-password" "$dir/host-password" "$dir/night/table-1/mqtt-password")
as() { setpriv --reuid="$1" --regid="$1" --init-groups "${@:2}"; }

stat -c '%n %U:%G %a' "$dir" "${files[@]:0:6}" "$dir/night"
for file in "${files[@]}"; do
    for user in table-companion table-companion-hub; do
        if as "$user" cat "$file" >/dev/null 2>&1; then echo "$user reads $file"; fi
    done
done
table-companion roster merge Christopher Chris  # the host, with sudo
stat -c '%n %U:%G %a' "$dir/roster.toml"

chmod 1777 /tmp
for user in table-companion-hub table-companion; do
    if [ "$user" = table-companion ]; then echo "as the table:"; else echo "as the hub:"; fi
    as "$user" /opt/table-companion/venv/bin/python -I - <<'PY'
import logging
import sys
import tempfile
from pathlib import Path

from firmware_host.hub.broadcast import Broadcast
from firmware_host.hub.league.roster import RosterFile
from firmware_host.hub.listener import Listener
from firmware_host.hub.store import Store
from firmware_host.night.mqtt import Link
from firmware_host.night.topics import parse_broker

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stdout)
with tempfile.TemporaryDirectory() as folder:
    store = Store.open(Path(folder) / "night.sqlite3")
    link = Link(parse_broker("mqtt://127.0.0.1:9"), "night_hub", "-", keepalive=10,
                log=logging.getLogger("link"))
    roster = RosterFile(Path("/etc/table-companion/roster.toml"))
    Listener(store, link, Broadcast()).reread(roster)
    print("Chris is shown as", store.roster.name_of("Chris"))
    store.close()
PY
done
