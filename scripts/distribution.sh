# shellcheck shell=bash
# Sourced by scripts/venv.sh (./run.sh, ./test.sh) and systemd/install.sh, so that both take
# the same Python packages from the distribution rather than the package index: those the
# index has no wheel of for this Python and machine, which pip would compile (with gcc, swig
# or Rust, none of which a Pi has). tests/commands/test_lock_wheels.py keeps the lock to
# wheels on the other machines.

# The machine the wheels must be built for: the userland's, not the kernel's (a 32-bit system
# may run on a 64-bit kernel, where uname says aarch64). Raspberry Pi OS's 32-bit armhf also
# runs on armv6 (Pi 1, Zero, Zero W), for which the index has no wheels at all.
wheel_machine() {
    case $(dpkg --print-architecture 2>/dev/null) in
        arm64) echo aarch64 ;;
        armhf|armel) if [ "$(uname -m)" = armv6l ]; then echo armv6l; else echo armv7l; fi ;;
        *) uname -m ;;
    esac
}

# Whether this userland is 32-bit ARM, for which the index lacks many wheels.
arm32_userland() {
    case $(wheel_machine) in armv6l|armv7l) return 0 ;; *) return 1 ;; esac
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# Whether the distribution's archive offers a package (only Raspberry Pi OS's has python3-lgpio).
archive_offers() {
    apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -qv none
}

# The distribution's GPIO library for PYTHON here, or nothing where pyproject's [pi] extra
# has a wheel: python3-lgpio where the archive has it; else RPi.GPIO where the index has no
# lgpio for this Python and machine (32-bit ARM with Python 3.13 on, armv6 with any).
gpio_package() {
    if installed python3-lgpio || archive_offers python3-lgpio; then
        echo python3-lgpio
        return
    fi
    case $(wheel_machine) in
        armv7l) "$1" -c 'import sys; sys.exit(sys.version_info < (3, 13))' \
                    && echo python3-rpi.gpio ;;
        armv6l) echo python3-rpi.gpio ;;
    esac
    return 0
}

# Pillow and cbor2 (luma.core's) from the distribution where the index has no wheel of them.
imaging_packages() {
    if arm32_userland; then echo python3-pil python3-cbor2; fi
}

# The names in requirements/pi.lock of what the distribution gives here for PYTHON, which
# install.sh leaves out of the lock: the lock's markers cannot, since pip's platform_machine
# is the kernel's (aarch64 under a 32-bit system on a 64-bit kernel).
lock_names_from_distribution() {
    if [ -n "$(gpio_package "$1")" ]; then printf 'lgpio adafruit-lgpio '; fi
    if arm32_userland; then printf 'pillow cbor2'; fi
    echo
}
