#!/usr/bin/env bash
# Regenerate requirements/pi.lock, the exact versions (with the hashes of every file of each)
# that systemd/install.sh installs with pip --require-hashes: pyproject.toml's dependencies,
# its [pi] extra and requirements/pi.in, resolved once for every machine and Python >= 3.11,
# with requirements/from-distribution.txt's overrides (what 32-bit ARM takes from apt).
# Run it after changing a dependency, then ./test.sh: tests/commands/test_lock.py checks that
# the lock still fits pyproject.toml and that the index has a wheel of every pin for each
# promised Pi (Python 3.11 and 3.13 on aarch64 and armv7l).   scripts/lock.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install --quiet --disable-pip-version-check "uv>=0.4"
"$tools/bin/uv" pip compile pyproject.toml requirements/pi.in --extra pi --universal \
    --override requirements/from-distribution.txt --python-version 3.11 --generate-hashes \
    --no-header --quiet -o requirements/pi.lock
sed -i '1i # Made by scripts/lock.sh from pyproject.toml and requirements/pi.in: do not edit.' \
    requirements/pi.lock
echo "requirements/pi.lock: $(grep -c '^[a-z]' requirements/pi.lock) packages"
