"""The roster: a player's id from any way a table wrote their name, the file the host keeps,
and ``table-companion roster``."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.hub.league.roster import (
    ID,
    Person,
    Roster,
    RosterError,
    RosterFile,
    player_id,
    read,
)
from firmware_host.hub.store import Store
from firmware_host.night import topics
from firmware_host.night.topics import Game, Live, Player

CHRIS = """\
[players.chris]
name = "Christopher"
aliases = ["Kit"]

[players.jose]
name = "José Díaz"
"""


def test_names_that_differ_in_case_spaces_accents_or_punctuation_are_one_player() -> None:
    assert {player_id(n) for n in ("José Díaz", "jose  diaz", " JOSE DIAZ ", "José-Díaz",
                                   "Jose\u0301 Di\u0301az")} == {"jose-diaz"}
    assert player_id("Ann") != player_id("Anne")
    # letters of any script are spelt in Latin letters, so the roster file can name them
    assert [player_id(n) for n in ("Łukasz", "Ærø", "Đorđe", "Γιώργος", "Юлия", "Straße")] == [
        "lukasz", "aero", "dorde", "giorgos", "yuliya", "strasse"]
    assert player_id("Ann Lee") != player_id("AnnLee")  # two words against one, as README says
    assert player_id("!!!").startswith("player-") and player_id("!!!") != player_id("???")


@given(st.text(min_size=1, max_size=64))
def test_an_id_is_always_one_the_roster_file_could_name_or_a_word(name: str) -> None:
    key = player_id(name)
    assert ID.fullmatch(key) and key == player_id(key)  # stable: an id is its own id


def test_a_roster_leads_every_name_of_a_player_to_their_id(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    path.write_text(CHRIS, encoding="utf-8")
    roster = read(path)
    assert [roster.id_of(n) for n in ("Christopher", "kit", "CHRIS", "jose diaz", "Ann")] == [
        "chris", "chris", "chris", "jose", "ann"]
    assert roster.name_of("kit") == "Christopher" and roster.name_of("Ann") == "Ann"
    assert roster.shown_as(["ann", "Kit", "Ann"]) == {"ann": "Ann", "Kit": "Christopher",
                                                       "Ann": "Ann"}
    assert read(tmp_path / "none.toml") == Roster()  # no file: names alone


@pytest.mark.parametrize(("text", "words"), [
    ("[players.chris]\nname = 3\n", "players.chris.name: a name of 1 to 64"),
    ("[players.Chris]\nname = \"C\"\n", "players.Chris: an id is 1 to 40 lower-case"),
    ("[players.chris]\nname = \"C\"\nalias = [\"K\"]\n", "players.chris.alias: not a player's"),
    ("[players.chris]\nname = \"C\"\naliases = \"K\"\n", "players.chris.aliases: a list of"),
    ("[players.a]\nname = \"Kit\"\n[players.b]\nname = \"kit \"\n",
     "players.b: 'kit ' is already players.a's name"),
    ("[player.chris]\nname = \"C\"\n", "player: not a roster key"),
    ("[players.chris\nname = \"C\"\n", "line 1"),
    ("[players.chris]\nname = \"C\u202e\"\n", "players.chris.name: a name of 1 to 64"),
    ("players = 3\n", "players: write each player as a table"),
])
def test_a_bad_roster_file_says_where_and_what(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "roster.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RosterError, match="^" + str(path)) as err:
        read(path)
    assert words in str(err.value)


def test_merging_joins_names_and_listed_players(tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    path.write_text(CHRIS, encoding="utf-8")
    roster = read(path).merge("Christopher", "Chris P", "José")
    assert roster.person("chris") == Person("chris", "Christopher",
                                            ("Kit", "Chris P", "José Díaz", "jose"))
    assert roster.person("jose") is None and roster.id_of("jose diaz") == "chris"
    unlisted = Roster().merge("Ann", "Annie")
    assert unlisted.people == (Person("ann", "Ann", ("Annie",)),)
    with pytest.raises(RosterError, match="'kit' is already 'Christopher'"):
        roster.merge("chris", "kit")
    again = tmp_path / "again.toml"
    again.write_text(roster.toml(), encoding="utf-8")
    assert read(again) == roster  # the file it writes reads back the same


def test_a_name_with_quotes_and_backslashes_is_written_as_toml_reads_it(tmp_path: Path) -> None:
    roster = Roster.of([Person("odd", 'Ann "the" \\ one', ('Zoë #1 = [x]',))])
    path = tmp_path / "roster.toml"
    path.write_text(roster.toml(), encoding="utf-8")
    assert read(path) == roster


# a name in each of 20 languages, each with the letters that language adds to Latin's, or in
# its own script
NAMES = ("Łukasz Żółć", "Søren Ærø", "Đorđe Šćekić", "Γιώργος Παπαδόπουλος", "Юлия Ёлкина",
         "José Ñúñez", "Zoë Brontë", "Björn Größe", "Ægir Þórsson", "İlker Çağlar",
         "Nguyễn Văn Anh", "Jiří Dvořák", "Ľudovít Ťažký", "Ilona Szőke", "Ștefan Țurcan",
         "Māris Ķēniņš", "Jonas Čepulis", "王伟", "محمد علي", "Ана Стојановић")


def test_names_of_twenty_languages_are_written_and_read_back(tmp_path: Path) -> None:
    roster = Roster()
    for name in NAMES:  # each name merged with its plain-Latin spelling and a nickname
        roster = roster.merge(name, f"{name} (nick)")
    path = tmp_path / "roster.toml"
    path.write_text(roster.toml(), encoding="utf-8")
    again = read(path)
    assert again == roster and len(again.people) == len(NAMES)
    assert all(ID.fullmatch(p.id) for p in again.people)
    assert [again.name_of(f"{n} (nick)") for n in NAMES] == list(NAMES)


def test_merging_a_name_with_its_plain_latin_spelling_says_they_are_one_already(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "roster.toml"
    assert main(["roster", "--roster", str(path), "merge", "Łukasz", "Ola"]) == 0
    with pytest.raises(SystemExit) as exit_info:
        main(["roster", "--roster", str(path), "merge", "Łukasz", "Lukasz"])
    assert exit_info.value.code == 2
    assert "'Lukasz' is already 'Łukasz' (id lukasz)" in capsys.readouterr().err
    assert main(["roster", "--roster", str(path)]) == 0  # the file still reads
    assert read(path).id_of("LUKASZ") == "lukasz"


def test_a_merge_keeps_the_roster_files_group_and_mode(tmp_path: Path) -> None:
    """install.sh --hub makes it readable by the hub's group alone; a merge by the host must
    leave it so (a new file is readable by all)."""
    path = tmp_path / "roster.toml"
    assert main(["roster", "--roster", str(path), "merge", "Christopher", "Chris"]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o640)
    group = path.stat().st_gid
    if os.geteuid() == 0:  # root may give it any group, as install.sh does
        group = 4321
        os.chown(path, -1, group)
    assert main(["roster", "--roster", str(path), "merge", "Christopher", "Kit"]) == 0
    assert read(path).id_of("Kit") == read(path).id_of("Chris") == "christopher"
    assert (stat.S_IMODE(path.stat().st_mode), path.stat().st_gid) == (0o640, group)


def test_the_roster_file_is_read_again_when_it_changes_and_a_bad_one_is_not_taken(
        tmp_path: Path) -> None:
    path = tmp_path / "roster.toml"
    file = RosterFile(path)
    assert not file.reload() and file.roster == Roster()
    path.write_text(CHRIS, encoding="utf-8")
    assert file.reload() and file.roster.id_of("Kit") == "chris"
    assert not file.reload()  # unchanged
    path.write_text("[players.chris\n", encoding="utf-8")
    assert not file.reload() and file.roster.id_of("Kit") == "chris"
    assert file.problem.startswith(f"{path}, line 1, column 15: not valid TOML: Expected ']'")
    path.write_text(CHRIS.replace("Kit", "Kitty"), encoding="utf-8")
    os.utime(path, ns=(time.time_ns() + 10**9,) * 2)
    assert file.reload() and file.roster.id_of("Kit") == "kit" and file.problem == ""


def test_a_roster_the_hub_cannot_reach_is_a_problem_not_no_roster(tmp_path: Path) -> None:
    """A folder the hub's user may not pass stands here as one that is no folder (root, who
    runs the tests, passes any); tests/commands/test_install.py tries the real permissions
    as the hub's user."""
    path = tmp_path / "roster.toml"
    path.write_text(CHRIS, encoding="utf-8")
    file = RosterFile(path)
    assert file.reload() and file.roster.id_of("Kit") == "chris"
    path.rename(tmp_path / "kept.toml")
    (tmp_path / "etc").write_text("")
    file.path = tmp_path / "etc" / "roster.toml"
    assert not file.reload() and file.roster.id_of("Kit") == "chris"  # as it was
    assert file.problem == f"{file.path}: cannot be read (Not a directory)"
    (tmp_path / "etc").unlink()
    (tmp_path / "etc").mkdir()
    assert file.reload() and file.roster == Roster() and file.problem == ""  # none there


def test_a_roster_changed_in_its_inode_alone_is_read_again(tmp_path: Path) -> None:
    """A chmod or chown that lets the hub read the file changes only its ctime: the same
    size and modification time must not hide it."""
    path = tmp_path / "roster.toml"
    bad = CHRIS.replace("[players.", "[players!")
    assert len(bad) == len(CHRIS)
    path.write_text(bad, encoding="utf-8")
    file = RosterFile(path)
    assert not file.reload() and file.problem
    was = path.stat()
    path.write_text(CHRIS, encoding="utf-8")
    os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))
    assert file.reload() and file.roster.id_of("Kit") == "chris" and file.problem == ""


def game(table: str, game_id: int, night: str, *names: str) -> Game:
    return Game(table, table, game_id, "Dalmatian", f"{night}T20:00:00+00:00",
                f"{night}T20:30:00+00:00", night,
                tuple(Player(seat, name, 10 - seat, seat + 1) for seat, name in enumerate(names)))


def hub_file(path: Path, *games: Game) -> None:
    store = Store.open(path)
    for played in games:
        store.apply(played)
        store.apply(Live(played.table, played.table, "", (), "", "idle", (), (), "", 0,
                         (played.id,), played.ended))
    store.close()


def test_the_standings_of_a_night_follow_the_roster(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "night.sqlite3")
    for played in (game("t1", 1, "2026-11-20", "Chris", "Ann"),
                   game("t2", 1, "2026-11-20", "Christopher", "ann")):
        store.apply(played)
        store.apply(Live(played.table, played.table, "", (), "", "idle", (), (), "", 0,
                         (played.id,), played.ended))
    assert [s.name for s in store.night().standings] == ["Chris", "Christopher", "ann"]
    store.use(Roster.of([Person("chris", "Christopher", ("Chris",))]))
    assert [(s.name, s.played, s.wins) for s in store.night().standings] == [
        ("Christopher", 2, 2), ("ann", 2, 0)]


def test_roster_lists_and_merges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, roster = tmp_path / "night.sqlite3", tmp_path / "roster.toml"
    hub_file(db, game("t1", 1, "2026-11-20", "Chris", "Ann"),
             game("t1", 2, "2026-11-21", "Christopher", "ann"))
    assert main(["roster", "--db", str(db), "--roster", str(roster)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["ann", "ann"] and "(also Ann)" in out[0]
    assert "2 games, 2 nights" in out[0]
    assert main(["roster", "merge", "Christopher", "Chris", "--roster", str(roster)]) == 0
    assert capsys.readouterr().out == (
        f"christopher: Christopher, also Chris (written to {roster})\n")
    assert oct(roster.stat().st_mode & 0o777) == "0o644"
    assert main(["roster", "list", "--db", str(db), "--roster", str(roster)]) == 0
    listing = capsys.readouterr().out
    assert "christopher  Christopher (also Chris)" in listing and "2 games, 2 nights" in listing


@pytest.mark.parametrize(("args", "words"), [
    (["merge", "Ann"], "merge takes the name to keep and at least one other"),
    (["merge", "Ann", "ann"], "'ann' is already 'Ann' (id ann)"),
    (["list", "Ann"], "list takes no names"),
])
def test_roster_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   args: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["roster", *args, "--roster", str(tmp_path / "roster.toml")])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err


def test_roster_refuses_a_bad_file_and_a_file_that_is_not_the_hubs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "roster.toml"
    roster.write_text("[players.chris]\nname = 3\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["roster", "--roster", str(roster)])
    assert "players.chris.name: a name of 1 to 64" in capsys.readouterr().err
    other = tmp_path / "other.sqlite3"
    other.write_bytes(b"not a database at all, just text" * 10)
    with pytest.raises(SystemExit):
        main(["roster", "--db", str(other), "--roster", str(tmp_path / "none.toml")])
    assert f"--db {other}: not a hub's nights" in capsys.readouterr().err


def test_a_game_message_names_a_player_the_roster_knows(tmp_path: Path) -> None:
    parsed = topics.parse(topics.game_topic("t1", 1), topics.game_payload(
        game("t1", 1, "2026-11-20", "Kit", "Ann")))
    assert isinstance(parsed, Game)
    roster = Roster.of([Person("chris", "Christopher", ("Kit",))])
    assert [roster.id_of(p.name) for p in parsed.players] == ["chris", "ann"]


def test_the_hub_says_once_that_it_has_no_roster_and_again_once_it_has_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from firmware_host.hub.broadcast import Broadcast
    from firmware_host.hub.listener import Listener
    from firmware_host.night.mqtt import Link

    link = Link(topics.parse_broker("mqtt://127.0.0.1:1"), "night_hub", "x", keepalive=10,
                log=logging.getLogger("test.link"))
    store = Store.open(tmp_path / "night.sqlite3")
    listener = Listener(store, link, Broadcast())
    file = RosterFile(tmp_path / "roster.toml")
    with caplog.at_level(logging.INFO):
        listener.reread(file)
        listener.reread(file)  # still none: said once
        assert file.missing
        (tmp_path / "roster.toml").write_text(CHRIS, encoding="utf-8")
        listener.reread(file)
    said = [r.getMessage() for r in caplog.records if "roster" in r.getMessage()]
    assert said[0] == (f"no roster at {file.path}: players are matched by their names alone "
                       "(table-companion roster merge writes one)")
    assert said[1:] == [f"players named by {file.path} (2 listed)"]
    assert not file.missing
    store.close()
