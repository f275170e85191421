# shellcheck shell=bash
# Sourced by run.sh and test.sh: defines ensure_venv, which makes ./.venv (once) and installs
# the project into it (again only when pyproject.toml changed). It reads no positional
# arguments, so whatever the caller was given stays the caller's.
# On a Raspberry Pi, and on 32-bit ARM, the venv sees the system's site-packages, so that the
# distribution's packages serve where the package index has no wheel (scripts/distribution.sh
# says which; systemd/install.sh takes the same).
set -eu
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
. scripts/distribution.sh

on_raspberry_pi() {
    grep -qs "Raspberry Pi" /proc/device-tree/model
}

# ensure_venv [EXTRA]: the venv with the project installed, with pyproject's EXTRA (e.g. dev)
ensure_venv() {
    local extras=${1:-} stamp
    # Installed already (the usual case): nothing to decide, not even what comes from apt.
    for stamp in ".installed${extras:+-$extras}" ".installed-${extras:+$extras,}pi"; do
        if [ -f ".venv/$stamp" ] && [ ! pyproject.toml -nt ".venv/$stamp" ]; then return 0; fi
    done
    if ! command -v "$PYTHON" >/dev/null 2>&1; then
        echo "table-companion needs Python 3.11 or newer: sudo apt install python3 python3-venv" >&2
        exit 1
    fi
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        echo "table-companion needs Python 3.11 or newer; $PYTHON is $("$PYTHON" -V 2>&1)" >&2
        exit 1
    fi
    # What this machine takes from the distribution: 32-bit ARM's Pillow and cbor2, and on a
    # Pi the GPIO library where the index has none for it (nothing: the [pi] extra's wheel).
    local gpio="" from_apt missing=() package
    if on_raspberry_pi; then gpio=$(gpio_package "$PYTHON"); fi
    from_apt="$(imaging_packages) $gpio"
    for package in $from_apt; do installed "$package" || missing+=("$package"); done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "The package index has no wheel of these for $("$PYTHON" -V 2>&1) on" \
            "$(wheel_machine), so pip would have to compile them; take the distribution's:" >&2
        echo "    sudo apt install ${missing[*]}" >&2
        exit 1
    fi
    if [ ! -x .venv/bin/python ]; then
        if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
            echo "Python's venv module is missing: sudo apt install python3-venv" >&2
            exit 1
        fi
        local site=""
        if on_raspberry_pi || [ -n "${from_apt// /}" ]; then site="--system-site-packages"; fi
        echo "Creating .venv ..." >&2
        "$PYTHON" -m venv $site .venv
    fi
    if on_raspberry_pi && [ -z "$gpio" ]; then extras=${extras:+$extras,}pi; fi
    stamp=.venv/.installed${extras:+-$extras}
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        # dev's tools that have 64-bit wheels only (decided here: pip's markers see the
        # kernel's machine, aarch64 under a 32-bit system on a 64-bit kernel)
        local wanted=$extras
        if [[ ,$extras, == *,dev,* ]] && ! arm32_userland; then wanted+=,dev-64bit; fi
        echo "Installing table-companion${wanted:+[$wanted]} into .venv ..." >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${wanted:+[$wanted]}"
        touch "$stamp" .venv/.installed  # with extras, the project alone is in too
    fi
}
