#!/usr/bin/env bash
# A Pi owner's first evening, in a Debian root filesystem of another machine (qemu-user): from
# a clone, the README's commands and systemd/install.sh, each step timed, every word it
# prints kept. The recipe, and what it showed, are in docs/pi-check.md.
#
#   scripts/pi-check.sh ROOT OUT [--tests-only] [PYTEST-ARGS...]
#
# PI_UNAME_MACHINE=aarch64: a 32-bit system on a 64-bit kernel (Raspberry Pi OS 32-bit on a Pi
# 3, 4 or 5 boots one by default), which qemu-arm cannot be: uname, and Python's os.uname (so
# pip's platform_machine marker), then say aarch64 where qemu-arm says armv7l.
#
# ROOT: made by debootstrap (docs/pi-check.md), e.g. /work/rootfs/trixie-arm64; it is made to
# look like a Pi (a /proc/device-tree/model). OUT: a folder for each step's output and
# summary.txt. PYTEST-ARGS: what ./test.sh runs inside (a subset: the whole suite is slow
# under emulation); none: ./test.sh is left out. --tests-only: the clone (brought up to this
# checkout's commit where a check made it before) and ./test.sh alone. Run as root; this
# checkout is cloned in.
set -euo pipefail
root=$(realpath "$1") out=$(realpath -m "$2")
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
: >"$out/summary.txt"

# Inside a private mount namespace: /proc is a tmpfs holding links to the real one and a
# device tree that names a Pi; this checkout's commits are there, as a remote to clone.
if [ -z "${PI_CHECK_INSIDE:-}" ]; then
    exec env PI_CHECK_INSIDE=1 unshare --mount --propagation private "$0" "$root" "$out" "$@"
fi
mount -t proc proc "$root/proc"
mkdir -p "$root/run/realproc" "$root/mnt/src"
mount --move "$root/proc" "$root/run/realproc"
mount -t tmpfs -o mode=0755 tmpfs "$root/proc"
for entry in "$root"/run/realproc/*; do
    name=${entry##*/}
    case $name in [0-9]*) ;; *) ln -s "/run/realproc/$name" "$root/proc/$name" ;; esac
done
ln -s /run/realproc/1 "$root/proc/1"
mkdir "$root/proc/device-tree"
printf '%s\0' "${PI_MODEL:-Raspberry Pi 4 Model B Rev 1.5}" >"$root/proc/device-tree/model"
mount --bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666  # the tests' ptys
mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"
mount -t tmpfs tmpfs "$root/tmp"
if [ -n "${PI_UNAME_MACHINE:-}" ]; then  # over uname and Python's sitecustomize, here alone
    kernel=$root/run/kernel
    mkdir -p "$kernel" && mount -t tmpfs tmpfs "$kernel"
    cp "$root/usr/bin/uname" "$kernel/uname.real"
    printf '#!/bin/sh\n/run/kernel/uname.real "$@" | sed "s/armv7l/%s/"\n' "$PI_UNAME_MACHINE" \
        >"$kernel/uname"
    chmod 0755 "$kernel/uname"
    mount --bind "$kernel/uname" "$root/usr/bin/uname"
    for site in "$root"/etc/python3.*/sitecustomize.py; do
        copy=$kernel/${site//\//_}
        { cat "$site"; printf 'import os\n_uname = os.uname\n'
          printf 'os.uname = lambda: os.uname_result((*_uname()[:4], "%s"))\n' \
              "$PI_UNAME_MACHINE"; } >"$copy"
        mount --bind "$copy" "$site"
    done
fi
mount -t tmpfs tmpfs "$root/mnt/src"
git clone -q --bare "$repo" "$root/mnt/src/clone.git"  # what is committed, as a remote
cp -a "$repo/scripts" "$root/mnt/src/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# pip reaches the package index through this machine's TLS set-up: its CA bundle
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

as_root() { chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
as_pi() { as_root runuser -u pi -- env HOME=/home/pi "$@"; }

# step NAME COMMAND...: runs it, keeps its output in OUT/NAME, its time and status in summary
step() {
    local name=$1 start status
    shift
    start=$EPOCHREALTIME
    "$@" >"$out/$name" 2>&1 </dev/null && status=0 || status=$?
    awk -v name="$name" -v start="$start" -v end="$EPOCHREALTIME" -v status="$status" \
        'BEGIN { printf "%-24s %7.1f s  exit %s\n", name, end - start, status }' \
        | tee -a "$out/summary.txt"
}

as_root sh -c 'id -u pi >/dev/null 2>&1 || useradd --create-home --shell /bin/bash pi'
chown -R "$(as_root id -u pi)" "$root/mnt/src/clone.git"  # git clones only its owner's
{
    printf 'machine: %s, userland %s, %s; Python says %s\n' "$(as_root uname -m)" \
        "$(as_root dpkg --print-architecture)" "$(as_root python3 -V)" \
        "$(as_root python3 -c 'import platform; print(platform.machine())')"
    printf 'compilers: %s\n' "$(as_root sh -c 'command -v gcc cc swig rustc cargo' || echo none)"
    printf 'model: %s\n' "$(tr -d '\0' <"$root/proc/device-tree/model")"
} | tee -a "$out/summary.txt"

tests_only=0
if [ "${1:-}" = --tests-only ]; then tests_only=1; shift; fi
if [ -d "$root/home/pi/table-companion" ]; then
    # shellcheck disable=SC2016  # expanded inside the Pi
    step 01-update as_pi sh -c 'cd ~/table-companion && git fetch -q origin HEAD &&
        git checkout -q --detach FETCH_HEAD && git log --oneline -1'  # .venv stays
else
    step 01-clone as_pi git clone -q /mnt/src/clone.git /home/pi/table-companion
fi
if [ "$tests_only" -eq 0 ]; then
    step 02-selftest-mock as_pi sh -c 'cd ~/table-companion && ./run.sh selftest --mock'
    if [ -n "$(as_root sh -c '. /mnt/src/scripts/distribution.sh; imaging_packages; gpio_package python3')" ]; then
        # the README's word for this machine, as the first try asked
        # shellcheck disable=SC2016  # expanded inside the Pi
        step 03-apt-as-readme as_root sh -c '. /mnt/src/scripts/distribution.sh;
            apt-get update -qq && apt-get install -y -qq $(imaging_packages) $(gpio_package python3)'
        step 04-selftest-mock as_pi sh -c 'cd ~/table-companion && ./run.sh selftest --mock'
    fi
    step 05-games as_pi sh -c 'cd ~/table-companion && ./run.sh games'
    step 06-selftest-real-pins as_pi sh -c 'cd ~/table-companion && ./run.sh selftest'
    step 07-install as_root /home/pi/table-companion/systemd/install.sh --yes
    step 08-again as_root /home/pi/table-companion/systemd/install.sh --yes
    step 09-command-on-path as_pi table-companion selftest --mock
    step 10-unit-enabled as_root systemctl is-enabled table-companion.service
fi
if [ $# -gt 0 ]; then
    step 11-test-sh as_pi sh -c "cd ~/table-companion && ./test.sh $*"
fi
printf 'compilers after: %s\n' "$(as_root sh -c 'command -v gcc cc swig rustc cargo' \
    || echo none)" | tee -a "$out/summary.txt"
