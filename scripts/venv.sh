# Sourced by run.sh and test.sh: make ./.venv (once) and install the project into it.
# On a Raspberry Pi the venv sees the system's site-packages so that python3-lgpio serves.
set -eu
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
extras=${1:-}

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "table-companion needs Python 3.11 or newer: sudo apt install python3 python3-venv" >&2
    exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "table-companion needs Python 3.11 or newer; $PYTHON is $("$PYTHON" -V 2>&1)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
        echo "Python's venv module is missing: sudo apt install python3-venv" >&2
        exit 1
    fi
    site=""
    if grep -qs "Raspberry Pi" /proc/device-tree/model; then site="--system-site-packages"; fi
    echo "Creating .venv ..." >&2
    "$PYTHON" -m venv $site .venv
fi
stamp=.venv/.installed${extras:+-$extras}
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "Installing table-companion${extras:+[$extras]} into .venv ..." >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras:+[$extras]}"
    touch "$stamp"
fi
