#!/usr/bin/env bash
# Set up .venv (the first time) and start the companion. With no arguments: on a Raspberry Pi
# the daemon on the real pins (unless the service runs it already), elsewhere the simulator
# (mocked pins, the screen drawn in the terminal). Arguments go to the command alone, e.g.
# ./run.sh games, ./run.sh --help
. "$(dirname "$0")/scripts/venv.sh"

if [ $# -eq 0 ] && on_raspberry_pi && systemctl is-active --quiet table-companion 2>/dev/null
then  # the service holds the pins: a second daemon could only fail to claim them
    cat >&2 <<'EOF'
table-companion already runs as a service on this Pi. Watch it:
    journalctl -u table-companion -f
or stop it to run the companion by hand (start it again with systemctl start):
    sudo systemctl stop table-companion && ./run.sh
EOF
    exit 0
fi

# shellcheck disable=SC2119  # no extra: the runtime dependencies alone
ensure_venv

# The subcommand run.sh starts when given none.
default_command() {
    if on_raspberry_pi; then echo run; else echo sim; fi
}

if [ $# -eq 0 ]; then set -- "$(default_command)"; fi
exec .venv/bin/table-companion "$@"
