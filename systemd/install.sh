#!/usr/bin/env bash
# Install table-companion as a service on Raspberry Pi OS (bookworm, trixie) or plain Debian
# (arm64, armhf), or bring an install up to date:
#
#   sudo systemd/install.sh [--yes]               install or update; --yes: change the boot
#                                                  config without asking
#   sudo systemd/install.sh --uninstall [--purge]  remove the service, the venv and the command;
#                                                  --purge: the journal and the config too
#   sudo systemd/install.sh --hub [--tables N]     a game night's hub (systemd/install-night.sh)
#   sudo systemd/install.sh --publish DIR          this table at the night, DIR from the hub
#   sudo systemd/install.sh --uninstall --hub|--publish [--purge]   remove that part only
#
# What it does, each step only when it is not done already (a second run changes nothing):
#   - apt: python3-venv; python3-lgpio where the archive has it (Raspberry Pi OS), else lgpio
#     from the lock where the index has a wheel for this Python and machine, else (32-bit ARM
#     with Python 3.13) python3-rpi.gpio; python3-spidev when the pin map drives an SPI
#     screen; on 32-bit ARM python3-pil and python3-cbor2, which pip would compile there;
#     espeak-ng and alsa-utils only when the config's [voice] asks for espeak-ng
#   - the system user table-companion, in the groups gpio, i2c, spi, dialout and audio, and
#     on plain Debian udev rules that give those groups the GPIO, I2C and SPI devices
#   - /opt/table-companion/venv (seeing the system's packages) with the exact versions of
#     requirements/pi.lock (pip --require-hashes), and this checkout, built in a temporary copy
#     so that nothing in it ends up owned by root
#   - /usr/local/bin/table-companion, a link to the venv's command
#   - /etc/table-companion/config.toml from systemd/config.toml (never over your edits)
#   - the boot config: I2C on at 400 kHz, SPI on only for an SPI screen (asks first)
#   - installs, enables and (re)starts table-companion.service, when systemd runs
set -euo pipefail

SERVICE=table-companion
PREFIX=/opt/table-companion
VENV=$PREFIX/venv
STAMP=$PREFIX/installed.sha256
CONFIG_DIR=/etc/table-companion
STATE_DIR=/var/lib/table-companion
UNIT=/etc/systemd/system/$SERVICE.service
LINK=/usr/local/bin/table-companion
UDEV_RULES=/etc/udev/rules.d/60-table-companion.rules
MODULES=/etc/modules-load.d/table-companion.conf
GROUPS_NEEDED=(gpio i2c spi dialout audio)
RASPI_CUSTOM=/etc/default/raspi-firmware-custom  # plain Debian's additions to config.txt
RASPI_HOOK=/etc/kernel/postinst.d/z50-raspi-firmware  # writes config.txt from them
BLOCK_BEGIN="# >>> table-companion (systemd/install.sh)"
BLOCK_END="# <<< table-companion"
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCK=$SOURCE/requirements/pi.lock
# shellcheck source=scripts/distribution.sh
. "$SOURCE/scripts/distribution.sh"  # what comes from the distribution, and the machine

say() { printf '%s\n' "$*"; }
fail() { say "install.sh: $*" >&2; exit 1; }
changed=0
did() { changed=1; say "$*"; }

yes=0 uninstall=0 purge=0 mode=table tables=4 publish_dir=
while [ $# -gt 0 ]; do
    arg=$1
    shift
    case $arg in
        --yes|-y) yes=1 ;;
        --uninstall) uninstall=1 ;;
        --purge) purge=1 ;;
        --hub) mode=hub ;;
        --tables) tables=${1:-}; shift || true
                  [[ $tables =~ ^[1-9][0-9]?$ ]] || fail "--tables takes a number from 1 to 99" ;;
        --publish) mode=publish
                   if [ "$uninstall" -eq 0 ] && [[ ${1:-} != -* ]]; then publish_dir=${1:-}; shift || true; fi ;;
        -h|--help) sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
                   sed -n '2,13s/^# \{0,1\}//p' "$SOURCE/systemd/install-night.sh"; exit 0 ;;
        *) fail "unknown option $arg (see --help)" ;;
    esac
done
if [ "$purge" -eq 1 ] && [ "$uninstall" -eq 0 ]; then
    fail "--purge goes with --uninstall"
fi
if [ "$mode" = publish ] && [ "$uninstall" -eq 0 ]; then
    [ -d "$publish_dir" ] || fail "--publish takes the folder the hub's install.sh --hub wrote for this table"
    publish_dir=$(cd "$publish_dir" && pwd)
fi

if [ "$(id -u)" -ne 0 ]; then
    say "install.sh changes system folders and services, so it must run as root:" >&2
    say "    sudo $0 $*" >&2
    exit 1
fi

systemd_runs() { [ -d /run/systemd/system ]; }

apt_updated=0
apt_install() {
    local missing=() package
    for package in "$@"; do installed "$package" || missing+=("$package"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$apt_updated" -eq 0 ]; then apt-get update -qq; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
        >/dev/null  # dpkg is chatty even then; errors go to stderr
    did "Installed ${missing[*]} from the distribution"
}

# Install, enable and (re)start the unit $1 when it or anything before it changed ($2: 1);
# $3: what to say once it runs. Without a running systemd it is only enabled.
start_unit() {
    local name=$1 again=$2 unit=/etc/systemd/system/$1.service
    if ! cmp -s "$SOURCE/systemd/$name.service" "$unit"; then
        install -D -m 0644 "$SOURCE/systemd/$name.service" "$unit"
        did "Installed $unit"
        again=1
    fi
    if ! systemd_runs; then
        if command -v systemctl >/dev/null 2>&1 \
                && ! systemctl is-enabled --quiet "$name.service" 2>/dev/null; then
            systemctl enable --quiet "$name.service"  # works offline: it only makes links
            did "Enabled $name.service: it starts when this system boots with systemd"
        fi
    elif [ "$again" -eq 1 ] || ! systemctl is-enabled --quiet "$name.service" \
            || ! systemctl is-active --quiet "$name.service"; then
        systemctl daemon-reload
        systemctl enable --quiet "$name.service"
        systemctl restart "$name.service"
        did "$3"
    fi
}

# The boot config a Raspberry Pi reads, as this system keeps it; empty where there is none
# (not a Pi image). Raspberry Pi OS: config.txt itself. Plain Debian: its raspi-firmware
# package writes config.txt anew at every kernel update, from its settings and the lines of
# raspi-firmware-custom, which is where ours go.
boot_config() {
    local path
    if [ -x "$RASPI_HOOK" ]; then echo "$RASPI_CUSTOM"; return; fi
    for path in /boot/firmware/config.txt /boot/config.txt; do
        if [ -f "$path" ]; then echo "$path"; return; fi
    done
}

# The file (if any) with our block (between BLOCK_BEGIN and BLOCK_END) replaced by stdin.
with_block() {
    if [ -f "$1" ]; then
        awk -v begin="$BLOCK_BEGIN" -v end="$BLOCK_END" '
            $0 == begin { skip = 1; next }
            $0 == end { skip = 0; next }
            !skip { print }' "$1"
    fi
    local block
    block=$(cat)
    if [ -n "$block" ]; then printf '%s\n%s\n%s\n' "$BLOCK_BEGIN" "$block" "$BLOCK_END"; fi
}

# Writes BOOT (our block replaced by stdin); on plain Debian, has raspi-firmware write
# config.txt anew from it, as it does after a kernel update. Says when it takes effect.
write_boot_config() {
    local boot=$1 config=/boot/firmware/config.txt
    with_block "$boot" >"$boot.new" && mv "$boot.new" "$boot"
    if [ "$boot" != "$RASPI_CUSTOM" ]; then
        say "Reboot for it to take effect (sudo reboot)"
        return
    fi
    [ -s "$boot" ] || rm -f "$boot"
    DEB_MAINT_PARAMS=configure "$RASPI_HOOK" 2>&1 | sed 's/^/    /' || true
    local want=no have=no
    if grep -qsxF "$BLOCK_BEGIN" "$boot"; then want=yes; fi
    if grep -qsxF "$BLOCK_BEGIN" "$config"; then have=yes; fi
    if [ -f "$config" ] && [ "$want" = "$have" ]; then
        say "raspi-firmware wrote $config from it: reboot for it to take effect (sudo reboot)"
    else
        say "raspi-firmware could not write $config now (no kernel in /boot?); it takes"
        say "$boot in when it does: at the next kernel update, or"
        say "sudo dpkg-reconfigure raspi-firmware"
    fi
}

uninstall() {
    if [ -f "$UNIT" ]; then
        if systemd_runs; then
            systemctl disable --now --quiet "$SERVICE.service" || true
        elif command -v systemctl >/dev/null 2>&1; then
            systemctl disable --quiet "$SERVICE.service" || true  # offline: removes the links
        fi
        rm -f "$UNIT"
        if systemd_runs; then systemctl daemon-reload; fi
        did "Removed $UNIT"
    fi
    if [ -L "$LINK" ]; then rm -f "$LINK"; did "Removed $LINK"; fi
    if [ -d "$PREFIX" ]; then rm -rf "$PREFIX"; did "Removed $PREFIX"; fi
    if [ -f "$UDEV_RULES" ]; then rm -f "$UDEV_RULES"; did "Removed $UDEV_RULES"; fi
    if [ -f "$MODULES" ]; then rm -f "$MODULES"; did "Removed $MODULES"; fi
    local boot
    boot=$(boot_config)
    if [ -n "$boot" ] && grep -qsxF "$BLOCK_BEGIN" "$boot"; then
        did "Removed the table-companion lines from $boot (I2C stays as it was before)"
        write_boot_config "$boot" </dev/null
    fi
    if [ "$purge" -eq 1 ]; then
        for dir in "$CONFIG_DIR" "$STATE_DIR"; do
            if [ -d "$dir" ]; then rm -rf "$dir"; did "Removed $dir"; fi
        done
        if id -u "$SERVICE" >/dev/null 2>&1; then userdel "$SERVICE"; did "Removed the user $SERVICE"; fi
    else
        for dir in "$CONFIG_DIR" "$STATE_DIR"; do
            if [ -d "$dir" ]; then say "Kept $dir (--uninstall --purge removes it)"; fi
        done
    fi
    if [ "$changed" -eq 0 ]; then say "Nothing to remove: table-companion is not installed"; fi
}

# shellcheck source=systemd/install-night.sh
. "$SOURCE/systemd/install-night.sh"  # install_hub, install_publish and their uninstalls

if [ "$uninstall" -eq 1 ]; then
    case $mode in
        hub) uninstall_hub ;;
        publish) uninstall_publish ;;
        *) uninstall_publish; uninstall_hub; uninstall ;;
    esac
    if [ "$changed" -eq 0 ] && [ "$mode" != table ]; then say "Nothing to remove"; fi
    exit 0
fi

[ -f "$LOCK" ] || fail "$LOCK is missing; run this script from a complete checkout"

# --- packages from the distribution --------------------------------------------------------
apt_install python3-venv
# What pip would have to compile here comes from the distribution, as for ./run.sh
# (scripts/distribution.sh), and is left out of the lock.
if ! installed python3-lgpio && [ "$apt_updated" -eq 0 ]; then  # is it in the archive?
    apt-get update -qq; apt_updated=1
fi
gpio=$(gpio_package python3)
read -r -a imaging <<<"$(imaging_packages)"
read -r -a from_distribution <<<"$(lock_names_from_distribution python3)"
case $gpio in
    python3-lgpio) gpio_source="lgpio (python3-lgpio from the distribution)" ;;
    python3-rpi.gpio) gpio_source="RPi.GPIO (python3-rpi.gpio from the distribution: the package \
index has no lgpio for $(python3 -V) on $(wheel_machine))" ;;
    *) gpio_source="lgpio from the package index (the archive has no python3-lgpio)"
       if python3 -c 'import sys; sys.exit(sys.version_info < (3, 13))'; then
           gpio_source+="; from Python 3.13 on adafruit-lgpio's wheel"
       fi ;;
esac
if [ -n "$gpio" ]; then apt_install "$gpio"; fi
if [ ${#imaging[@]} -gt 0 ]; then apt_install "${imaging[@]}"; fi

# --- the service user and its device groups ------------------------------------------------
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || { groupadd --system "$group"; did "Created the group $group"; }
done
if ! id -u "$SERVICE" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "table-companion service" "$SERVICE"
    did "Created the system user $SERVICE"
fi
for group in "${GROUPS_NEEDED[@]}"; do
    if ! id -nG "$SERVICE" | tr ' ' '\n' | grep -qxF "$group"; then
        usermod --append --groups "$group" "$SERVICE"
        did "Added $SERVICE to the group $group"
    fi
done
# Raspberry Pi OS gives these groups the devices (99-com.rules); plain Debian does not.
if ! ls /etc/udev/rules.d/99-com.rules /usr/lib/udev/rules.d/99-com.rules >/dev/null 2>&1; then
    rules='SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"'
    if [ "$(cat "$UDEV_RULES" 2>/dev/null)" != "$rules" ]; then
        mkdir -p "$(dirname "$UDEV_RULES")"
        printf '%s\n' "$rules" >"$UDEV_RULES"
        did "Wrote $UDEV_RULES: the groups gpio, i2c and spi may use their devices"
        if systemd_runs && command -v udevadm >/dev/null 2>&1; then
            udevadm control --reload || true
            udevadm trigger || true
        fi
    fi
fi

# --- the venv, from the lock ---------------------------------------------------------------
lock=$(mktemp)
build=$(mktemp -d)
trap 'rm -rf "$lock" "$build"' EXIT
# The lock without the packages the distribution provides (a requirement is a line
# "name==version ..." followed by its indented --hash lines).
awk -v skip=" ${from_distribution[*]:-} " '
    /^[A-Za-z0-9]/ { name = tolower($1); sub(/==.*/, "", name); drop = index(skip, " " name " ") }
    !drop' "$LOCK" >"$lock"
# Copy what the build needs, so that pip's build/ and egg-info land in a temporary folder.
tar -C "$SOURCE" --exclude=__pycache__ --exclude='*.egg-info' -cf - \
    pyproject.toml README.md games hardware firmware_host wiring | tar -C "$build" -xf -
wanted=$( { cat "$lock"; find "$build" -type f -print0 | sort -z | xargs -0 sha256sum \
    | sed "s#$build##"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$STAMP" 2>/dev/null)" = "$wanted" ] && [ -x "$VENV/bin/table-companion" ]; then
    say "$VENV is up to date"
else
    if [ ! -x "$VENV/bin/python" ]; then
        mkdir -p "$PREFIX"
        python3 -m venv --system-site-packages "$VENV"
        did "Created $VENV"
    fi
    say "Installing the locked versions into $VENV ..."
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --require-hashes -r "$lock"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --no-build-isolation "$build"
    # pip check judges the system's packages too (the venv sees them: a desktop's python3-gi
    # may lack its optional pycairo); only what the lock and the project need counts here.
    unfit=$("$VENV/bin/python" -m pip check --disable-pip-version-check | awk '
        function name(word) { word = tolower(word); gsub(/[-_.]+/, "-", word); return word }
        BEGIN { ours["table-companion"] = 1 }
        NR == FNR { if (/^[A-Za-z0-9]/) { sub(/[=;].*/, "", $1); ours[name($1)] = 1 }; next }
        name($1) in ours' "$lock" -) || true
    [ -z "$unfit" ] || fail "the venv's packages do not fit together:
$unfit"
    echo "$wanted" >"$STAMP"
    did "Installed table-companion and the versions of requirements/pi.lock into $VENV"
fi
say "GPIO library: $gpio_source"
if [ ${#from_distribution[@]} -gt 0 ]; then
    say "From the distribution instead of the lock: ${from_distribution[*]}"
fi

if [ "$(readlink "$LINK" 2>/dev/null)" != "$VENV/bin/table-companion" ]; then
    mkdir -p "$(dirname "$LINK")"
    ln -sfn "$VENV/bin/table-companion" "$LINK"
    did "Linked $LINK"
fi
if [ "$mode" = hub ]; then  # the hub needs the command, not the table's hardware or service
    install_hub "$tables"
    if [ "$changed" -eq 0 ]; then say "Nothing to change: the hub is installed and up to date"; fi
    exit 0
fi

# --- the config, and the buses its pin map needs -------------------------------------------
config_dir  # an earlier --hub left it closed to the service's user
if [ -e "$CONFIG_DIR/config.toml" ]; then
    say "Keeping $CONFIG_DIR/config.toml (the shipped example is $SOURCE/systemd/config.toml)"
else
    install -D -m 0644 "$SOURCE/systemd/config.toml" "$CONFIG_DIR/config.toml"
    did "Wrote $CONFIG_DIR/config.toml: set the players' names and the display there"
fi
# "i2c" or "spi", then the GPIOs of SPI0 that other parts use, then the voice's engine; a bad
# config stops here.
read -r bus spi_pins_used voice < <("$VENV/bin/python" -I - "$CONFIG_DIR/config.toml" <<'EOF' || echo fail
import sys
from pathlib import Path

from firmware_host.config import ConfigError, load
from hardware.wiring.pinmap import SPI0

try:
    config = load(Path(sys.argv[1]))
    pins = config.pins()
except ConfigError as err:
    print(f"install.sh: {err}", file=sys.stderr)
    raise SystemExit(1) from None
used = sorted({gpio for _, gpio in pins.gpio_uses() if gpio in SPI0.values()})
print(pins.display.bus, ",".join(f"GPIO{gpio}" for gpio in used) or "-", config.voice.engine)
EOF
)
[ "$bus" = fail ] && fail "fix $CONFIG_DIR/config.toml, then run install.sh again"
if [ "$bus" = spi ]; then
    apt_install python3-spidev
fi
if [ "$voice" = espeak-ng ]; then  # the table's own voice, only when the config asks for it
    apt_install espeak-ng alsa-utils
fi

spi_on=off
if [ "$bus" = spi ]; then spi_on=on; fi
boot=$(boot_config)
block="[all]
dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=400000"
if [ "$spi_on" = on ]; then
    block+=$'\n'"dtparam=spi=on"
elif [ "$spi_pins_used" != - ]; then
    block+=$'\n'"# the pin map uses $spi_pins_used for other parts: SPI must stay off"
    block+=$'\n'"dtparam=spi=off"
fi
modules="i2c-dev"
if [ "$(cat "$MODULES" 2>/dev/null)" != "$modules" ]; then
    mkdir -p "$(dirname "$MODULES")"  # a minimal system may have no modules-load.d yet
    printf '%s\n' "$modules" >"$MODULES"
    did "Wrote $MODULES: the I2C device nodes appear at boot"
fi
if [ -z "$boot" ]; then
    say "No Raspberry Pi boot config (/boot/firmware/config.txt) here: turn on I2C at 400 kHz"
    say "(and SPI $spi_on) the way your board does"
elif ! printf '%s\n' "$block" | with_block "$boot" | cmp -s - "$boot" 2>/dev/null; then
    say "The boot config $boot needs: I2C on at 400 kHz (the OLED takes it; the Pi's"
    say "default 100 kHz spends 4 times as long on each screen update), SPI $spi_on."
    answer=n
    if [ "$yes" -eq 1 ]; then
        answer=y
    elif [ -t 0 ]; then
        read -r -p "Change $boot? [y/N] " answer
    fi
    if [ "$answer" = y ] || [ "$answer" = Y ]; then
        did "Changed $boot"
        printf '%s\n' "$block" | write_boot_config "$boot"
    else
        say "Left $boot as it was; run install.sh --yes to change it"
    fi
fi

# --- the service ---------------------------------------------------------------------------
if [ ! -d "$STATE_DIR" ]; then  # systemd makes it (StateDirectory=); a start by hand needs it
    install -d -o "$SERVICE" -g "$SERVICE" -m 0750 "$STATE_DIR"
    did "Created $STATE_DIR for the journal"
fi
start_unit "$SERVICE" "$changed" \
    "table-companion is running: systemctl status $SERVICE, journalctl -u $SERVICE -f"
if ! systemd_runs; then
    say "systemd is not running here (a container or a chroot?), so the service was not"
    say "started. Start the companion by hand as its user (lgpio keeps its pipes in LG_WD,"
    say "the service's own folder, which no other user shares):"
    say "    sudo -u $SERVICE env STATE_DIRECTORY=$STATE_DIR LG_WD=$STATE_DIR table-companion run"
fi
say "The service's journal belongs to its user: sudo -u $SERVICE table-companion export"
if [ "$mode" = publish ]; then
    install_publish "$publish_dir"
fi
if [ "$changed" -eq 0 ]; then
    say "Nothing to change: table-companion is installed and up to date"
fi
