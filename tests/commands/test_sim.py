"""``table-companion sim``: scenarios checked and played on mock pins, keys acted out on
them, the fallback without a terminal, and the live view in a pseudo-terminal."""

from __future__ import annotations

import fcntl
import io
import os
import queue
import select
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageSequence

from firmware_host import daemon, screens
from firmware_host.cli import main
from firmware_host.config import Config, default_journal, sim_journal
from firmware_host.journal import Journal
from firmware_host.loop import Controller
from firmware_host.referee import Referee
from firmware_host.sim import scenario as scenarios
from firmware_host.sim.keys import REPEAT_WAIT, Keyboard, decode
from firmware_host.sim.runner import play
from firmware_host.sim.scenario import ScenarioError, locate
from firmware_host.views import View
from games.core import GameState
from hardware.controls.dice_button import DiceButton
from hardware.controls.inputs import InputSet
from hardware.controls.mock_table import MockTable
from hardware.display.emulators import PngFrames
from hardware.events import (
    CellChanged,
    Control,
    ControlHeld,
    ControlPressed,
    ControlTurned,
    DiceRolled,
    Event,
)
from hardware.pins.clock import ManualClock
from hardware.pins.edges import WAKE
from hardware.wiring.pinmap import load_pin_map


class Recorder:
    """The controller make_controller chose, with every event it was handed noted."""

    def __init__(self, inner: Controller, roller: DiceButton) -> None:
        self.inner = inner
        self.roller = roller
        self.events: list[Event] = []

    def handle(self, event: Event) -> None:
        self.events.append(event)
        self.inner.handle(event)

    def tick(self, now: float) -> None:
        self.inner.tick(now)

    def frame(self) -> Image.Image | None:
        return self.inner.frame()


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[Recorder]:
    made: list[Recorder] = []
    chosen = daemon.make_controller

    def make(config: Config, journal: Journal, game: GameState[Any] | None, inputs: InputSet,
             shutdown: Callable[[], None]) -> Controller:
        made.append(Recorder(chosen(config, journal, game, inputs, shutdown), inputs.dice))
        return made[-1]

    monkeypatch.setattr(daemon, "make_controller", make)
    return made


def load_text(tmp_path: Path, text: str, default_map: str = "pi40") -> scenarios.Scenario:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return scenarios.load(str(path), default_map)


# --- scenarios: the format and its errors


def test_the_demo_uses_every_kind_of_step_and_repeats_a_block() -> None:
    demo = scenarios.load("demo", "pi40-buttons")  # it names its own map
    assert demo.pin_map.name == "pi40"
    assert {step.action for step in demo.steps} == {
        "click", "hold", "press", "release", "turn", "place", "lift", "dice", "wait"}
    wheres = [step.where for step in demo.steps]
    assert wheres.count("step 2.1") == 2 and wheres[-1] == "step 17"
    acts, end = demo.timeline()
    assert [a.at for a in acts] == sorted(a.at for a in acts)
    assert end == pytest.approx(10.8)


def test_the_demo_plays_a_real_game_with_one_refusal_shown_on_purpose(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    drawn = screens.render

    def render(view: View) -> Image.Image:
        message = getattr(view, "message", None)
        if message and (not shown or shown[-1] != message):
            shown.append(message)
        return drawn(view)

    monkeypatch.setattr(screens, "render", render)
    demo = scenarios.load("demo", "pi40")
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        play(demo, Config(), journal, MockFactory(), tmp_path / "out", seed=1)
        game = journal.resume()
    assert game is not None and game.NAME == "sequence"
    assert [str(a) for a in game.history][:6] == [
        "roll 6-6", "roll 1-2", "roll 3-4", "place B2", "roll 4-4", "place C2"]
    assert shown == ["P2 threw 1-2: P1 starts",
                     "D4 is a 12, the roll is 8; allowed: place C2, E3, B4, D5"]


def test_steps_are_timed_from_their_settings(tmp_path: Path) -> None:
    scenario = load_text(tmp_path, """
settle = 0.2
[[step]]
click = "select"
seconds = 0.05
[[step]]
hold = "roll"
[[step]]
turn = -2
after = 0
[[step]]
place = "F6"
[[step]]
wait = 1
[[step]]
dice = [6, 6, 1]
""")
    acts, end = scenario.timeline()
    assert [(round(a.at, 3), a.verb) for a in acts] == [
        (0.0, "press"), (0.05, "release"), (0.25, "press"), (1.75, "release"),
        (1.95, "turn"), (1.95, "place"), (3.15, "dice")]
    assert acts[2].control is Control.ROLL and acts[4].detents == -2
    assert acts[5].cell == (5, 5) and acts[6].dice == (6, 6, 1)
    assert end == pytest.approx(3.35)


def test_a_track_names_its_boxes(tmp_path: Path) -> None:
    scenario = load_text(tmp_path, '[[step]]\nplace = 7\n[[step]]\nlift = "box 12"\n',
                         "pi40-track")
    assert [s.cell for s in scenario.steps] == [(1, 2), (2, 3)]


@pytest.mark.parametrize(("text", "message"), [
    ('[[step]]\nclick = "jump"\n', "s.toml: step 1: click: 'jump' is not a control; pin map "
     "pi40 has roll, select, back, hold1, hold2, hold3, hold4, hold5"),
    ('[[step]]\nwait = 1\n[[step]]\nclick = "up"\n', "s.toml: step 2: click: pin map pi40 "
     "has no up button"),
    ('[[step]]\nturn = 1\nplace = "A1"\n', "s.toml: step 1: place: a step does one thing, "
     "and this one already has turn; split it into two steps"),
    ('[[step]]\nafter = 1\n', "s.toml: step 1: step: no action; give one of click,"),
    ('[[step]]\nclik = "roll"\n', "s.toml: step 1: clik: unknown key; a step is one of"),
    ('[[step]]\nturn = 1\nseconds = 2\n', "s.toml: step 1: seconds: not used by a turn step"),
    ('[[step]]\nplace = "G1"\n', "s.toml: step 1: place: 'G1' is not a cell of pin map "
     "pi40's board (A1 to F6)"),
    ('[[step]]\ndice = [3, 7]\n', "s.toml: step 1: dice: [3, 7] is not a list of 1 to 10 die "
     "faces from 1 to 6, e.g. [3, 4]"),
    ('[[step]]\nwait = -1\n', "s.toml: step 1: wait: -1 is not a number of seconds more "
     "than 0"),
    ('[[step]]\nhold = "roll"\nseconds = "long"\n', "s.toml: step 1: seconds: 'long' is not "
     "a number of seconds more than 0"),
    ('[[step]]\nrepeat = 2\n[[step.step]]\nwait = 1\n[[step.step]]\nturn = 0\n',
     "s.toml: step 1.2: turn: 0 is not a number of detents"),
    ('[[step]]\nrepeat = 0\n', "s.toml: step 1: repeat: 0 is not a count from 1 to 1000"),
    ('[[step]]\nrepeat = 2\n', "s.toml: step 1: step: nothing to repeat"),
    ('pin_map = "pi40-buttons"\n[[step]]\nturn = 1\n', "s.toml: step 1: turn: pin map "
     "pi40-buttons has no knob"),
    ('pin_map = "pi50"\n[[step]]\nwait = 1\n', "s.toml: pin_map: no pin map 'pi50'"),
    ('speed = 2\n[[step]]\nwait = 1\n', "s.toml: speed: unknown key; allowed: title, pin_map,"),
    ('title = "nothing"\n', "s.toml: step: no steps; add a [[step]] table"),
    ("step = 3\n", "s.toml: step: write the steps as [[step]] tables"),
    ("[[step]\n", "s.toml, line 1, column 7: not valid TOML: Expected ']]'"),
])
def test_a_bad_scenario_is_refused_naming_file_step_and_key(
        tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        load_text(tmp_path, text)
    assert str(refused.value).startswith(f"{tmp_path}/{message}")
    assert "\n" not in str(refused.value)


def test_scenario_errors_are_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.toml").write_text('[[step]]\ndice = "3 4"\n')
    for scenario, message in (
            (str(tmp_path / "bad.toml"), f"{tmp_path}/bad.toml: step 1: dice: '3 4' is not"),
            ("nope", "no scenario 'nope'; shipped: dalmatian, demo"),
            (str(tmp_path / "gone.toml"), f"{tmp_path}/gone.toml: no such scenario file")):
        with pytest.raises(SystemExit) as exited:
            main(["sim", "--scenario", scenario, "--journal", str(tmp_path / "j.sqlite3")])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"table-companion sim: error: {message}")
        assert err.count("\n") == 1 and "Traceback" not in err


def test_a_shipped_scenario_is_found_by_its_name_in_any_case() -> None:
    assert locate("Dalmatian") == locate(" DEMO ").with_name("dalmatian.toml")
    assert locate("Dalmatian").is_file()


# --- scenarios played through the daemon on mock pins


def test_a_scenario_drives_the_pins_and_records_every_frame(
        tmp_path: Path, recorded: list[Recorder]) -> None:
    scenario = load_text(tmp_path, """
[[step]]
click = "roll"
[[step]]
repeat = 2
[[step.step]]
turn = 1
[[step.step]]
click = "select"
[[step]]
press = "back"
[[step]]
release = "back"
[[step]]
place = "B3"
after = 0.2
[[step]]
lift = "B3"
[[step]]
click = "hold5"
[[step]]
dice = [3, 4]
[[step]]
hold = "roll"
""")
    out = tmp_path / "out"
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        played = play(scenario, Config(), journal, MockFactory(), out, seed=1)
    [controller] = recorded
    assert isinstance(controller.inner, Referee)
    rolled, *rest = controller.events
    assert isinstance(rolled, DiceRolled) and rolled.source == "button"
    assert len(rolled.dice) == controller.roller.count == 2
    assert rest == [
        ControlTurned(1), ControlPressed(Control.SELECT), ControlTurned(1),
        ControlPressed(Control.SELECT), ControlPressed(Control.BACK), CellChanged(2, 1, True),
        CellChanged(2, 1, False), ControlPressed(Control.HOLD5), DiceRolled((3, 4), "manual"),
        ControlHeld(Control.ROLL)]
    assert played.handled == len(controller.events) == 11
    pngs = sorted(out.glob("frame-*.png"))
    assert played.frames == len(pngs) >= 2
    with Image.open(pngs[0]) as first:
        assert first.size == (128, 64)
    with Image.open(played.gif) as gif:
        assert sum(1 for _ in ImageSequence.Iterator(gif)) == len(pngs)
    assert played.gif == out / "s.gif"
    assert played.journal == "no game in progress"
    assert played.summary(scenario).startswith(
        "scenario s: 11 events handled in 3.2 s of table time, 8 frames written ")


def test_the_same_seed_plays_the_same_frames(tmp_path: Path) -> None:
    demo = scenarios.load("demo", "pi40")
    gifs = []
    for seed, folder in ((7, "a"), (7, "b"), (8, "c")):
        with Journal.open(tmp_path / f"{folder}.sqlite3") as journal:
            played = play(demo, Config(), journal, MockFactory(), tmp_path / folder, seed=seed)
        gifs.append(played.gif.read_bytes())
    assert gifs[0] == gifs[1] != gifs[2]


def test_old_frames_in_the_folder_are_replaced(tmp_path: Path) -> None:
    scenario = load_text(tmp_path, '[[step]]\nturn = 1\n')
    out = tmp_path / "out"
    out.mkdir()
    (out / "frame-00099.png").write_bytes(b"old")
    (out / "notes.txt").write_text("mine")
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        played = play(scenario, Config(), journal, MockFactory(), out, seed=1)
    assert sorted(p.name for p in out.iterdir()) == [
        "frame-00001.png", "frame-00002.png", "notes.txt", "s.gif"]
    assert played.frames == 2


def test_without_a_terminal_sim_plays_the_demo(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli", "sim", "--journal",
         str(tmp_path / "j.sqlite3"), "--out", str(tmp_path / "out")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20, cwd=tmp_path,
        env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("table-companion sim: no terminal to read keys from; "
                                  "playing the demo scenario")
    assert "Traceback" not in done.stderr
    assert done.stdout.startswith("scenario demo: ")
    assert "journal: Sequence Dice in progress, 7 moves" in done.stdout
    assert (tmp_path / "out" / "demo.gif").is_file()
    assert (tmp_path / "out" / "frame-00002.png").is_file()
    assert (tmp_path / "j.sqlite3").is_file() and not (tmp_path / "state").exists()


def test_the_simulators_journal_is_never_the_services() -> None:
    home = Path.home()
    assert sim_journal({}) == home / ".local/state/table-companion/sim-journal.sqlite3"
    assert sim_journal({"XDG_STATE_HOME": "/x/state"}) == Path(
        "/x/state/table-companion/sim-journal.sqlite3")
    assert sim_journal({"XDG_STATE_HOME": "relative"}) == sim_journal({})
    assert sim_journal({"STATE_DIRECTORY": "/var/lib/table-companion"}) == sim_journal({})


def test_the_journal_is_the_services_state_folder_or_the_users() -> None:
    home = Path.home()
    assert default_journal({"STATE_DIRECTORY": "/var/lib/table-companion:/var/lib/x",
                            "XDG_STATE_HOME": "/x/state"}) == Path(
        "/var/lib/table-companion/journal.sqlite3")
    assert default_journal({"XDG_STATE_HOME": "/x/state"}) == Path(
        "/x/state/table-companion/journal.sqlite3")
    assert default_journal({}) == home / ".local/state/table-companion/journal.sqlite3"


# --- keys acted out on the pins


def test_escape_sequences_decode_to_keys() -> None:
    assert list(decode("r\x1b[A\x1bOD\x1b\r\n\x7fq\x1b[15~x")) == [
        "r", "up", "left", "esc", "enter", "enter", "backspace", "q", "x"]


class KeyRig:
    """A Keyboard on mock pins with the pin map's drivers, on a manual clock."""

    def __init__(self, map_name: str = "pi40") -> None:
        self.pin_map = load_pin_map(map_name)
        factory = MockFactory()
        self.table = MockTable(self.pin_map, factory)
        self.clock = ManualClock()
        self.events: list[Event] = []
        self.inputs = InputSet(self.pin_map, factory, self.events.append, ticks=self.clock)
        self.typed: list[str | None] = []
        self.quit = 0
        self.keyboard = Keyboard(self.table, self.pin_map, self.events.append, self.read,
                                 quit=self.stop)

    def read(self) -> str | None:
        return self.typed.pop(0) if self.typed else ""

    def stop(self) -> None:
        self.quit += 1

    def type(self, text: str | None, seconds: float = 0.0) -> list[Event]:
        """Type ``text``, then let ``seconds`` pass; the events that came meanwhile."""
        self.typed.append(text)
        seen = len(self.events)
        for _ in range(max(1, round(seconds / 0.005))):
            self.keyboard.poll(self.clock())
            self.inputs.poll()
            self.clock.advance(0.005)
        return [event for event in self.events[seen:] if event != WAKE]


def test_keys_press_the_buttons_turn_the_knob_and_place_magnets() -> None:
    rig = KeyRig()
    assert rig.type("d\x1b[Cas\x1b[A", 1.0) == [ControlTurned(1)] * 2 + [ControlTurned(-1)] + \
        [ControlTurned(1), ControlTurned(-1)]
    assert rig.type("\r\x1b\x7f3", 1.0) == [ControlPressed(Control.SELECT),
                                           ControlPressed(Control.BACK),
                                           ControlPressed(Control.BACK),
                                           ControlPressed(Control.HOLD3)]
    rig.type("p")
    assert rig.keyboard.status == "cell to toggle (A1 to F6), Enter: _"
    rig.type("b33\x7f")
    assert rig.keyboard.status == "cell to toggle (A1 to F6), Enter: b3_"
    assert rig.type("\r", 0.2) == [CellChanged(2, 1, True)]
    assert rig.keyboard.status == "magnet put on B3"
    assert rig.type("pB3\r", 0.2) == [CellChanged(2, 1, False)]
    assert rig.type("pZ9\r", 0.2) == []
    assert rig.keyboard.status == "no cell 'Z9' on this board (A1 to F6)"


def test_r_throws_and_holding_r_or_capital_r_is_a_long_press() -> None:
    rig = KeyRig()
    [rolled] = rig.type("r", REPEAT_WAIT + 0.2)
    assert isinstance(rolled, DiceRolled) and rolled.source == "button"
    held = rig.type("r", 0.5)  # held: the terminal repeats the key ...
    for _ in range(20):
        held += rig.type("r", 0.04)  # ... every 40 ms
    held += rig.type("", 0.3)
    assert held == [ControlHeld(Control.ROLL)]
    assert rig.type("R", 2.0) == [ControlHeld(Control.ROLL)]


def test_keys_the_pin_map_lacks_say_so_and_up_down_use_buttons_when_there() -> None:
    rig = KeyRig("pi40-buttons")
    assert rig.type("w\x1b[B", 0.5) == [ControlPressed(Control.UP),
                                          ControlPressed(Control.DOWN)]
    assert rig.type("a", 0.2) == []
    assert rig.keyboard.status == "pin map pi40-buttons has no knob; use w/s"
    assert "a/d" not in rig.keyboard.help() and "1-5 hold" in rig.keyboard.help()
    rig = KeyRig("pi40-track")
    assert rig.type("1", 0.2) == []
    assert rig.keyboard.status == "pin map pi40-track has no HOLD1 button"
    assert "hold" not in rig.keyboard.help().replace("hold r", "")


def test_q_quits_once_the_keys_in_hand_are_done() -> None:
    rig = KeyRig()
    assert rig.type("\rq", 0.05) == [ControlPressed(Control.SELECT)]
    assert rig.quit == 0  # the click is not over yet
    rig.type("", 0.2)
    assert rig.quit == 1
    rig = KeyRig()
    rig.type(None, 0.01)  # the input closed
    assert rig.quit == 1


# --- the live view in a terminal


@pytest.fixture
def terminal() -> Iterator[tuple[int, int]]:
    master, slave = os.openpty()
    # wide enough for half blocks (smaller terminals: tests/sim/test_sim_pty.py)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    yield master, slave
    for fd in (master, slave):
        with suppress(OSError):
            os.close(fd)


def test_keys_in_a_terminal_drive_the_pins_and_the_terminal_is_restored(
        tmp_path: Path, terminal: tuple[int, int], recorded: list[Recorder],
        monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = terminal
    before = termios.tcgetattr(slave)
    keys = io.TextIOWrapper(io.FileIO(os.dup(slave), "rb"))
    screen = io.TextIOWrapper(io.FileIO(os.dup(slave), "wb"), encoding="utf-8",
                              write_through=True)
    monkeypatch.setattr(sys, "stdin", keys)
    monkeypatch.setattr(sys, "stdout", screen)
    output = bytearray()

    def player() -> None:
        """Wait for the first frame, then type; reads the terminal until it closes."""
        typed = False
        while True:
            ready = select.select([master], [], [], 10)[0]
            if not ready and typed:
                return
            try:
                data = os.read(master, 65536) if ready else b""
            except OSError:
                return
            output.extend(data)
            if not typed and ("┘".encode() in output or not ready):
                os.write(master, b"d\x1b[A\rpb3\r2q")
                typed = True

    hands = threading.Thread(target=player, daemon=True)
    hands.start()
    with ExitStack() as closing:
        closing.callback(keys.close)
        closing.callback(screen.close)
        status = main(["sim", "--journal", str(tmp_path / "j.sqlite3"), "--seed", "3"])
    after = termios.tcgetattr(slave)
    os.close(slave)
    hands.join(5)
    text = output.decode("utf-8", errors="replace")
    assert status == 0
    events = recorded[0].events
    assert events[:3] == [ControlTurned(1), ControlTurned(-1), ControlPressed(Control.SELECT)]
    # a piece put down takes 120 ms to settle: the press typed after it may come first
    assert sorted(map(repr, events[3:])) == sorted(map(repr, [
        CellChanged(2, 1, True, 1), ControlPressed(Control.HOLD2)]))
    assert after == before
    assert "▀" in text or "▄" in text
    assert "r roll" in text and "magnet put on B3" in text
    assert text.count("\x1b[?25l") == text.count("\x1b[?25h") == 1
    assert "table-companion sim: 5 events handled; journal " in text


def test_a_roller_is_handed_to_make_controller(tmp_path: Path,
                                               recorded: list[Recorder]) -> None:
    with ExitStack() as resources, Journal.open(tmp_path / "j.sqlite3") as journal:
        factory = MockFactory()
        resources.callback(factory.close)
        events: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        built = daemon.assemble(Config(), journal, factory, PngFrames(tmp_path), resources,
                                events=events)
        assert recorded[0].roller is built.inputs.dice
        built.inputs.dice.count = 5
        assert len(built.inputs.dice.roll()) == 5


def test_voice_prints_what_the_table_would_say_beside_a_scenario(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--scenario", "dalmatian", "--out", str(tmp_path / "out"),
                 "--voice"]) == 0
    *said, summary = capsys.readouterr().out.splitlines()
    assert summary.startswith("scenario dalmatian: ")
    assert said[:4] == ["says: P1, your turn", "says: six, six, six, six, six: total thirty",
                        "says: P2, your turn", "says: one, one, one, one, one: total five"]
    assert "says: P2 rerolls three dice: one, one, one" in said
    main(["sim", "--scenario", "dalmatian", "--out", str(tmp_path / "out")])
    assert not any(line.startswith("says:") for line in capsys.readouterr().out.splitlines())
