#!/usr/bin/env bash
# ./test.sh with Debian 13 trixie's Python 3.13 (today's Raspberry Pi OS has it), in a trixie
# root filesystem on this machine (no emulation): catches what changed between the Python
# versions the README promises, and trixie's mosquitto, chromium and systemd-analyze too.
#
#   sudo scripts/trixie-suite.sh [PYTEST-ARGS...]
#
# The root filesystem is made once with debootstrap (about 3.5 minutes) and kept in
# $TRIXIE_ROOT (default /var/cache/table-companion/trixie-amd64), with its .venv between runs;
# this checkout's files (not .git or .venv) are copied in anew each time. Needs root and the
# package registries (Debian's and the Python package index).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${TRIXIE_ROOT:-/var/cache/table-companion/trixie-amd64}
packages=python3,python3-venv,ca-certificates,systemd,mosquitto,chromium-headless-shell,shellcheck

if [ "$(id -u)" -ne 0 ]; then
    echo "trixie-suite.sh makes and enters a root filesystem, so it must run as root" >&2
    exit 1
fi
if [ ! -x "$root/usr/bin/python3.13" ]; then
    command -v debootstrap >/dev/null \
        || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
    echo "== making a Debian trixie root filesystem in $root (debootstrap) ..."
    rm -rf "$root.new" && mkdir -p "$(dirname "$root")"
    debootstrap --variant=minbase --include="$packages" trixie "$root.new" \
        http://deb.debian.org/debian >"$root.log" 2>&1 \
        || { tail -n 20 "$root.log" >&2; exit 1; }
    rm -rf "$root" && mv "$root.new" "$root"
fi

src=$root/srv/table-companion  # where the suite's nobody may read it too
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=__pycache__ \
    --exclude=./build -cf - . | tar -C "$src" -xf -
cp /etc/resolv.conf "$root/etc/resolv.conf"
# pip reaches the package index through this machine's TLS set-up: its CA bundle
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

echo "== ./test.sh in Debian trixie ($(chroot "$root" python3 -V))"
# shellcheck disable=SC2016  # expanded by the inner bash
exec unshare --mount --propagation private bash -c '
    root=$1; shift
    mount --bind "$root" "$root"  # a mount point, so that the tests may unshare inside it
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666
    mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"
    mount -t tmpfs tmpfs "$root/tmp"
    mount -t tmpfs tmpfs "$root/run"
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin \
        ${TABLE_COMPANION_CI:+TABLE_COMPANION_CI=$TABLE_COMPANION_CI} \
        bash -c "cd /srv/table-companion && ./test.sh \"\$@\"" test "$@"
' trixie "$root" "$@"
