#!/usr/bin/env bash
# Set up .venv and start the companion. On a laptop this is the simulator (mocked pins, the
# screen drawn in the terminal); on a Raspberry Pi it is the daemon on the real pins.
# Any arguments replace the default subcommand, e.g. ./run.sh games
. "$(dirname "$0")/scripts/venv.sh"
if [ $# -eq 0 ]; then
    if grep -qs "Raspberry Pi" /proc/device-tree/model; then set -- run; else set -- sim; fi
fi
exec .venv/bin/table-companion "$@"
