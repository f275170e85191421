"""systemd/install.sh run for real in a throwaway root: this machine's /usr read-only, a copy
of its /etc, an empty /opt and /var, the checkout mounted read-only (so the script cannot
leave a file in the user's clone), and stand-ins for what would touch the machine itself
(systemctl, apt, udevadm), each writing down how it was called.

It runs as root in a private mount namespace (unshare), as CI does; the venv is made and
filled from requirements/pi.lock with pip --require-hashes exactly as on a Pi.
"""

from __future__ import annotations

import re
import shlex
import socket
import subprocess
from pathlib import Path

from namespace_helpers import needs_private_mounts

from firmware_host.cli import build_parser

REPO = Path(__file__).parents[2]

STUB = """#!/bin/sh
# A stand-in for {name}: writes its arguments down and answers from /stub/state.
echo "{name} $*" >> /stub/log
case "{name} $1" in
    "apt-get install") shift; for p in "$@"; do echo "$p" >> /stub/state/packages; done ;;
    "dpkg-query -W") grep -qx "$3" /stub/state/packages 2>/dev/null \\
                         && printf 'install ok installed' ;;
    "apt-cache policy") printf '%s:\\n  Installed: (none)\\n  Candidate: (none)\\n' "$2" ;;
    "systemctl enable") touch /stub/state/enabled ;;
    "systemctl disable") rm -f /stub/state/enabled /stub/state/active ;;
    "systemctl restart") touch /stub/state/active ;;
    "systemctl is-enabled") test -e /stub/state/enabled ;;
    "systemctl is-active") test -e /stub/state/active ;;
esac
"""

BOOT_CONFIG = "# Raspberry Pi OS's config.txt\n#dtparam=i2c_arm=on\n#dtparam=spi=on\n[all]\n"

# Debian's raspi-firmware hook as it treats config.txt (/etc/kernel/postinst.d/z50-raspi-firmware
# in the package): written anew, with /etc/default/raspi-firmware-custom's lines at the end.
RASPI_FIRMWARE = """#!/bin/sh
[ "$DEB_MAINT_PARAMS" = configure ] || exit 0
{
    printf '# Do not modify this file!\\n\\nenable_uart=1\\nkernel=vmlinuz-6.12\\n'
    if [ -f /etc/default/raspi-firmware-custom ]; then
        printf '\\n# Inserted by /etc/default/raspi-firmware-custom\\n'
        cat /etc/default/raspi-firmware-custom
    fi
} >/boot/firmware/config.txt
"""

# Each step's output goes to /out/<step>, "exit N" ending it; the stand-ins' calls to
# /out/<step>.calls.
SCRIPT = r"""
set -eu
root=$1 repo=$2
for dir in usr etc opt var/lib tmp proc dev run root boot/firmware src stub/state out local; do
    mkdir -p "$root/$dir"
done
for link in bin sbin lib lib64; do [ -e "/$link" ] && ln -s "usr/$link" "$root/$link"; done
cp -a /etc/. "$root/etc/"
rm -rf "$root/etc/modules-load.d"  # a minimal system without systemd has none
mount --bind /usr "$root/usr" && mount -o remount,bind,ro "$root/usr"
mount --bind "$root/local" "$root/usr/local"
mount --bind "$repo" "$root/src" && mount -o remount,bind,ro "$root/src"
mount --bind /dev "$root/dev"
mount -t proc proc "$root/proc"
for dir in /opt/wheels /opt/pypi /opt/pypi-more; do  # this machine's package mirror, if any
    if [ -d "$dir" ]; then mkdir -p "$root$dir" && mount --bind "$dir" "$root$dir"; fi
done
step() {
    name=$1; shift
    chroot "$root" /usr/bin/env -i PATH=/stub:/usr/local/bin:/usr/sbin:/usr/bin HOME=/root \
        "$@" >"$root/out/$name" 2>&1 </dev/null && status=0 || status=$?
    echo "exit $status" >>"$root/out/$name"
    touch "$root/stub/log" && mv "$root/stub/log" "$root/out/$name.calls"
}
step 1-chroot bash /src/systemd/install.sh --yes
mkdir -p "$root/run/systemd/system"  # from here on systemd runs
step 2-booted bash /src/systemd/install.sh
step 3-again bash /src/systemd/install.sh
step games table-companion games
step night-hub bash /src/systemd/install.sh --hub --tables 2
cp "$root/etc/systemd/system/table-companion-hub.service" "$root/out/hub.service"
step night-hub-again bash /src/systemd/install.sh --hub --tables 2
step night-broker unshare --net /opt/table-companion/venv/bin/python \
    /src/tests/commands/hub_broker_check.py /etc/table-companion/night/table-2
step night-publish bash /src/systemd/install.sh --publish /etc/table-companion/night/table-2
cp "$root/etc/table-companion/config.toml" "$root/out/config-published.toml"
step night-access bash /src/tests/commands/access.sh  # this Pi: the hub and a table
chmod 0700 "$root/etc/table-companion"  # as an earlier install.sh --hub left it
chmod 0644 "$root/etc/table-companion/roster.toml"
step night-hub-mended bash /src/systemd/install.sh --hub --tables 2
step night-publish-again bash /src/systemd/install.sh --publish /etc/table-companion/night/table-2
step night-unpublish bash /src/systemd/install.sh --uninstall --publish
cp "$root/etc/table-companion/config.toml" "$root/out/config-unpublished.toml"
step night-unhub bash /src/systemd/install.sh --uninstall --hub --purge
printf 'pin_map = "pi40-spi"\n[display]\nbus = "spi"\n[voice]\nengine = "espeak-ng"\n' \
    >"$root/etc/table-companion/config.toml"
step 4-spi bash /src/systemd/install.sh --yes
cp "$root/boot/firmware/config.txt" "$root/out/config-spi.txt"
printf 'pin_map = "mine.toml"\n' >"$root/etc/table-companion/config.toml"
printf '%s\n' 'base = "pi40"' 'title = "an SPI screen on the matrix pins"' '[display]' \
    'bus = "spi"' 'dc = 24' 'reset = 25' >"$root/etc/table-companion/mine.toml"
step 5-bad-config bash /src/systemd/install.sh --yes
step 6-uninstall bash /src/systemd/install.sh --uninstall
cp "$root/boot/firmware/config.txt" "$root/out/config-uninstalled.txt"
step 7-purge bash /src/systemd/install.sh --uninstall --purge
rmdir "$root/run/systemd/system"  # a chroot again: the unit is enabled offline, once more
mkdir -p "$root/etc/kernel/postinst.d"  # and plain Debian's raspi-firmware keeps config.txt
cp "$root/stub/raspi-firmware" "$root/etc/kernel/postinst.d/z50-raspi-firmware"
step 8-reinstall bash /src/systemd/install.sh --yes
cp "$root/boot/firmware/config.txt" "$root/out/config-debian.txt"
step 9-uninstall-offline bash /src/systemd/install.sh --uninstall
"""


def started_with(unit: str) -> list[str]:
    """The unit's ExecStart as systemd runs it here: lines joined, %H (the host's name)
    and %% expanded."""
    text = unit.replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    expanded = re.sub(r"%[H%]", lambda m: socket.gethostname() if m[0] == "%H" else "%", line)
    return shlex.split(expanded.removeprefix("ExecStart="))


@needs_private_mounts
def test_install_upgrade_spi_and_uninstall_in_a_throwaway_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "stub").mkdir(parents=True)
    for name in ("systemctl", "apt-get", "apt-cache", "dpkg-query", "udevadm"):
        stub = root / "stub" / name
        stub.write_text(STUB.format(name=name))
        stub.chmod(0o755)
    (root / "stub" / "raspi-firmware").write_text(RASPI_FIRMWARE)
    (root / "stub" / "raspi-firmware").chmod(0o755)
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", SCRIPT,
                    "setup", str(root), str(REPO)], check=True, timeout=600)
    out = {path.name: path.read_text() for path in (root / "out").iterdir()}
    calls = {name: out.pop(f"{name}.calls").splitlines() for name in list(out)
             if f"{name}.calls" in out}

    first = out["1-chroot"]
    assert first.endswith("exit 0\n"), first
    assert "Installed python3-venv from the distribution" in first
    assert "GPIO library: lgpio from the package index" in first
    assert "Enabled table-companion.service: it starts when this system boots" in first
    assert "systemd is not running here" in first
    assert ("sudo -u table-companion env STATE_DIRECTORY=/var/lib/table-companion "
            "LG_WD=/var/lib/table-companion table-companion run") in first
    assert "Wrote /etc/modules-load.d/table-companion.conf" in first
    assert "systemctl enable --quiet table-companion.service" in calls["1-chroot"]
    assert not any(call.startswith("systemctl restart") for call in calls["1-chroot"])

    booted = out["2-booted"]
    assert booted.endswith("exit 0\n"), booted
    assert "/opt/table-companion/venv is up to date" in booted
    assert "table-companion is running: systemctl status table-companion" in booted
    assert calls["2-booted"][-3:] == ["systemctl daemon-reload",
                                      "systemctl enable --quiet table-companion.service",
                                      "systemctl restart table-companion.service"]

    assert out["3-again"].endswith(
        "Nothing to change: table-companion is installed and up to date\nexit 0\n")
    assert not any("install" in call or "restart" in call for call in calls["3-again"])
    assert "dalmatian" in out["games"] and out["games"].endswith("exit 0\n")

    hub = out["night-hub"]
    assert hub.endswith("exit 0\n"), hub
    assert "Made the night's certificate authority /etc/mosquitto/certs/night-ca.crt" in hub
    assert "Wrote /etc/table-companion/night/table-2: copy it to Table 2's Pi" in hub
    assert "Added the login table-2 to /etc/mosquitto/table-companion.passwd" in hub
    assert "Added the login night_host to /etc/mosquitto/table-companion.passwd" in hub
    assert "Installed /etc/systemd/system/table-companion-hub.service" in hub
    assert calls["night-hub"][-2:] == ["systemctl enable --quiet table-companion-hub.service",
                                       "systemctl restart table-companion-hub.service"]
    assert "systemctl restart mosquitto.service" in calls["night-hub"]
    assert not any("table-companion.service" in call for call in calls["night-hub"])
    said = re.search(r"The night's page: (\S+)", hub)
    assert said is not None, hub  # ... and the QR code on /tv gives the players the same
    hub_command = started_with(out["hub.service"])
    assert build_parser("hub").parse_args(hub_command[1:]).page == said[1]
    assert out["night-hub-again"].endswith(
        "Nothing to change: the hub is installed and up to date\nexit 0\n")
    assert not any("restart" in call for call in calls["night-hub-again"])
    assert out["night-broker"].splitlines() == [
        "plain listener on: 127.0.0.1", "TLS listener on: 0.0.0.0",
        "table-2 over TLS with its folder: Success",
        "table-2 with a wrong password: Not authorized",
        "table-2 without TLS on 8883: no answer",
        "the hub on the plain listener: Success",
        "the host on the plain listener: Success", "exit 0"]
    access = out["night-access"].splitlines()
    assert access[:access.index("as the hub:")] == [
        "/etc/table-companion root:root 755",
        "/etc/table-companion/config.toml root:root 644",
        "/etc/table-companion/night-ca.crt root:root 644",
        "/etc/table-companion/mqtt-password table-companion:table-companion 600",
        "/etc/table-companion/roster.toml root:table-companion-hub 640",
        "/etc/table-companion/hub-password root:root 600",
        "/etc/table-companion/host-password root:root 600",
        "/etc/table-companion/night root:root 700",
        "table-companion reads /etc/table-companion/config.toml",
        "table-companion-hub reads /etc/table-companion/config.toml",
        "table-companion reads /etc/table-companion/night-ca.crt",
        "table-companion-hub reads /etc/table-companion/night-ca.crt",
        "table-companion reads /etc/table-companion/mqtt-password",
        "table-companion-hub reads /etc/table-companion/roster.toml",
        "christopher: Christopher, also Chris (written to /etc/table-companion/roster.toml)",
        "/etc/table-companion/roster.toml root:table-companion-hub 640"], access
    assert access[access.index("as the hub:"):] == [
        "as the hub:",
        "INFO players named by /etc/table-companion/roster.toml (1 listed)",
        "Chris is shown as Christopher",
        "as the table:",
        "WARNING roster not read: /etc/table-companion/roster.toml: cannot be read "
        "(Permission denied); players are named as before",
        "Chris is shown as Chris",
        "exit 0"], access
    mended = out["night-hub-mended"]
    assert ("Made /etc/table-companion passable to the services (mode 755; each file keeps "
            "its own)\nMade /etc/table-companion/roster.toml readable by root and the hub "
            "alone (root:table-companion-hub, mode 640)\n") in mended, mended
    assert mended.endswith("exit 0\n")
    assert "User=table-companion-hub" in out["hub.service"]
    assert "LoadCredential=hub-password:/etc/table-companion/hub-password" in out["hub.service"]
    published = out["night-publish"]
    assert published.endswith("exit 0\n"), published
    assert "This table publishes as Table 2 (table-2) to mqtts://" in published
    assert "Installed /etc/systemd/system/table-companion-publish.service" in published
    assert 'ca = "/etc/table-companion/night-ca.crt"' in out["config-published.toml"]
    assert not any("restart table-companion-publish" in call
                   for call in calls["night-publish-again"])
    assert "Removed the [night] section" in out["night-unpublish"]
    assert "\n[night]" not in out["config-unpublished.toml"]  # only the commented example
    assert "Removed /etc/mosquitto/certs/night-ca.key" in out["night-unhub"]
    assert not (root / "etc" / "table-companion" / "night").exists()

    spi = out["4-spi"]
    assert spi.endswith("exit 0\n"), spi
    assert "apt-get install -y -qq --no-install-recommends python3-spidev" in calls["4-spi"]
    # the voice's engine comes only with a config that asks for it
    assert ("apt-get install -y -qq --no-install-recommends espeak-ng alsa-utils"
            in calls["4-spi"])
    assert not any("espeak-ng" in call for call in calls["1-chroot"] + calls["2-booted"])
    assert "dtparam=spi=on" in out["config-spi.txt"]
    assert "dtparam=i2c_arm_baudrate=400000" in out["config-spi.txt"]
    bad = out["5-bad-config"]
    assert "pin map mine: GPIO10 is used twice: matrix row 4 and OLED D1 (MOSI)" in bad
    assert bad.endswith("exit 1\n"), bad

    removed = out["6-uninstall"]
    assert "Kept /etc/table-companion (--uninstall --purge removes it)" in removed
    assert "Kept /var/lib/table-companion" in removed
    assert not (root / "opt" / "table-companion").exists()
    assert not (root / "local" / "bin" / "table-companion").exists()
    assert "systemctl disable --now --quiet table-companion.service" in calls["6-uninstall"]
    assert out["config-uninstalled.txt"] == BOOT_CONFIG
    assert "Removed /etc/table-companion" in out["7-purge"]
    assert "Removed the user table-companion" in out["7-purge"]
    assert "Removed /var/lib/table-companion" in out["7-purge"]
    again = out["8-reinstall"]
    assert "Wrote /etc/table-companion/config.toml" in again  # the purge had removed it
    assert "Enabled table-companion.service" in again
    assert ("Changed /etc/default/raspi-firmware-custom\nraspi-firmware wrote "
            "/boot/firmware/config.txt from it: reboot for it to take effect (sudo reboot)\n"
            ) in again
    debian = out["config-debian.txt"]
    assert debian.startswith("# Do not modify this file!")
    assert "# Inserted by /etc/default/raspi-firmware-custom\n# >>> table-companion" in debian
    assert "dtparam=i2c_arm_baudrate=400000" in debian
    assert "systemctl disable --quiet table-companion.service" in calls["9-uninstall-offline"]
    assert "Removed the table-companion lines from /etc/default/raspi-firmware-custom" in out[
        "9-uninstall-offline"]
    assert not (root / "etc" / "default" / "raspi-firmware-custom").exists()
    assert "table-companion" not in (root / "boot" / "firmware" / "config.txt").read_text()
