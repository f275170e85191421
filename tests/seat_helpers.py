"""``table-companion seat`` run as the host runs it, on a night's TOML written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main


def seat(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *options: str
         ) -> tuple[int, str, str]:
    """``seat NIGHT.toml OPTIONS`` with ``text`` as the file: its exit status, its output
    and its errors."""
    path = tmp_path / "night.toml"
    path.write_text(text)
    try:
        status = main(["seat", str(path), *options])
    except SystemExit as end:
        status = int(end.code or 0)
    out, err = capsys.readouterr()
    return status, out, err
