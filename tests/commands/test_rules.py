"""``table-companion rules``: each game's rules for players, the same as docs/rules.md, with
the options the game really takes and worked examples the rules code agrees with."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pty_helpers import COMMAND

import games
from games.dalmatian_score import score

ROOT = Path(__file__).parents[2]


def rules(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMMAND, "rules", *argv], capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize(("typed", "name"), [("Dalmatian", "dalmatian"),
                                             ("sequence-dice", "sequence"),
                                             ("CENTER POINT", "centerpoint")])
def test_a_games_rules_in_any_case(typed: str, name: str) -> None:
    done = rules(typed)
    assert done.returncode == 0 and done.stderr == ""
    cls = games.game_class(name)
    title = done.stdout.splitlines()[0]
    assert title.startswith(f"{cls.TITLE} (") and done.stdout.splitlines()[1] == "=" * len(title)
    for key in cls.OPTIONS:  # the option table, not a copy of it
        assert f"\n- {key}: " in done.stdout
    assert "**" not in done.stdout and "`" not in done.stdout  # plain text in a terminal
    assert max(len(line) for line in done.stdout.splitlines()) < 80


def test_docs_rules_md_is_what_the_command_prints() -> None:
    done = rules("--all")
    assert done.returncode == 0
    assert (ROOT / "docs" / "rules.md").read_text() == done.stdout, (
        "regenerate: table-companion rules --all > docs/rules.md")
    headings = re.findall(r"^## (.+) \(", done.stdout, flags=re.M)
    assert headings == [games.game_class(name).TITLE for name in games.REGISTRY]


def test_without_a_game_the_games_are_listed_and_a_wrong_one_is_one_line() -> None:
    listed = rules().stdout.splitlines()
    assert [line.split()[0] for line in listed[:-1]] == list(games.REGISTRY)
    wrong = rules("chess")
    assert wrong.returncode == 2 and wrong.stderr == (
        "table-companion rules: error: argument GAME: no game 'chess'; games: centennial, "
        "sequence, centerpoint, dalmatian, multigam; see table-companion rules --help\n")


def test_dalmatians_examples_are_scored_as_the_text_says() -> None:
    text = rules("dalmatian").stdout
    examples = re.findall(r"^- (\d+), (\d)-(\d)-(\d)-(\d)-(\d): (\d)", text, flags=re.M)
    assert len(examples) == 6
    for total, *dice, points in examples:
        assert score([int(d) for d in dice], int(total)) == int(points)
    assert score([1, 2, 3, 4, 5], 6, True) == 5 and "1-2-3-4-5 scores 5" in text
    assert score([1, 6, 6, 6, 6], 7, True) == 5 and "1-6-6-6-6 scores 5" in text
