#!/usr/bin/env bash
# Set up .venv and run every check: ruff, mypy, then the test suite. Extra arguments go to pytest.
. "$(dirname "$0")/scripts/venv.sh"
ensure_venv dev
echo "== ruff" && .venv/bin/ruff check .
if [ -x .venv/bin/mypy ] || [ -n "${TABLE_COMPANION_CI:-}" ]; then
    echo "== mypy" && .venv/bin/mypy
else  # pyproject leaves it out where its librt has no wheel
    echo "== mypy: not installed on $(wheel_machine) (the index has no wheel of its librt here)"
fi
echo "== pytest" && .venv/bin/python -m pytest "$@"
