#!/usr/bin/env bash
# Install table-companion as a service on Raspberry Pi OS (Debian 12 "bookworm" or newer).
#
#   sudo systemd/install.sh
#
# What it does, each step only when it is not already done (so running it again upgrades):
#   - installs python3-venv and python3-lgpio from the distribution
#   - creates the system user table-companion, in the groups gpio, i2c, spi and dialout
#   - makes a venv in /opt/table-companion/venv that sees the system's packages (so the
#     system's lgpio serves) and installs this checkout into it
#   - copies systemd/config.toml to /etc/table-companion/config.toml (never over your edits)
#   - enables I2C and SPI with raspi-config when it is there
#   - installs, enables and (re)starts table-companion.service
set -euo pipefail

SERVICE=table-companion
PREFIX=/opt/table-companion
CONFIG_DIR=/etc/table-companion
UNIT_DIR=/etc/systemd/system
GROUPS_NEEDED=(gpio i2c spi dialout)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '%s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
    say "install.sh changes system folders and services, so it must run as root:" >&2
    say "    sudo $0" >&2
    exit 1
fi
if ! command -v systemctl >/dev/null 2>&1; then
    say "install.sh needs systemd (systemctl was not found); run the companion by hand:" >&2
    say "    ./run.sh" >&2
    exit 1
fi

missing=()
for package in python3-venv python3-lgpio; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "Installing ${missing[*]} ..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id -u "$SERVICE" >/dev/null 2>&1; then
    say "Creating the system user $SERVICE ..."
    useradd --system --user-group --home-dir "/var/lib/$SERVICE" --no-create-home \
        --shell /usr/sbin/nologin --comment "table-companion service" "$SERVICE"
fi
usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE"

if [ ! -x "$PREFIX/venv/bin/python" ]; then
    say "Creating $PREFIX/venv ..."
    mkdir -p "$PREFIX"
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
say "Installing table-companion from $SOURCE ..."
"$PREFIX/venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$SOURCE"

if [ -e "$CONFIG_DIR/config.toml" ]; then
    say "Keeping $CONFIG_DIR/config.toml (the shipped example is $SOURCE/systemd/config.toml)"
else
    install -D -m 0644 "$SOURCE/systemd/config.toml" "$CONFIG_DIR/config.toml"
    say "Wrote $CONFIG_DIR/config.toml: set the players' names and the display there"
fi

if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_i2c 0
    raspi-config nonint do_spi 0
fi

install -m 0644 "$SOURCE/systemd/$SERVICE.service" "$UNIT_DIR/$SERVICE.service"
systemctl daemon-reload
systemctl enable --quiet "$SERVICE.service"
systemctl restart "$SERVICE.service"
say "table-companion is running: systemctl status $SERVICE, journalctl -u $SERVICE -f"
