#!/usr/bin/env bash
# Set up .venv and run every check: ruff, mypy, then the test suite. Extra arguments go to pytest.
. "$(dirname "$0")/scripts/venv.sh"
ensure_venv dev
echo "== ruff" && .venv/bin/ruff check .
echo "== mypy" && .venv/bin/mypy
echo "== pytest" && .venv/bin/python -m pytest "$@"
