"""The speaker off the referee's loop: a WAV made once per language and text, a queue that
drops stale phrases, one line when it cannot speak; and, with espeak-ng installed (CI
installs it), a Dalmatian game's WAVs heard by sox and made again by no second game."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from voice_helpers import Recorder, play_out, spoken_table

from firmware_host.config import VoiceConfig
from firmware_host.voice import speaker as speaker_module
from firmware_host.voice.speaker import Speaker, SpeakerError, WavCache, espeak, open_speaker


def fake_make(text: str, path: Path) -> None:
    path.write_text(text)


class Gate:
    """A player that waits until let go, and notes what it played."""

    def __init__(self) -> None:
        self.played: list[str] = []
        self.go = threading.Event()

    def play(self, path: Path) -> None:
        self.go.wait(10)
        self.played.append(path.read_text())


def test_a_phrase_is_made_once_per_language_and_text(tmp_path: Path) -> None:
    made: list[str] = []

    def make(text: str, path: Path) -> None:
        made.append(text)
        fake_make(text, path)

    cache = WavCache(tmp_path, "en", make)
    assert cache.wav("Ann, your turn") == cache.wav("Ann, your turn")
    assert made == ["Ann, your turn"] and cache.made == 1
    assert WavCache(tmp_path, "en", fake_make).wav("Ann, your turn").exists()
    assert WavCache(tmp_path, "de", fake_make).path("x") != cache.path("x")
    assert not list(tmp_path.glob("*.part"))


def test_phrases_that_wait_behind_newer_ones_are_dropped(tmp_path: Path) -> None:
    gate = Gate()
    speaker = Speaker(WavCache(tmp_path, "en", fake_make), gate.play)
    try:
        speaker.say("first")  # being said while the rest come
        assert speaker.idle(0.2) is False
        for n in range(6):
            speaker.say(f"then {n}")
        gate.go.set()
        assert speaker.idle()
    finally:
        speaker.close()
    assert gate.played == ["first", "then 3", "then 4", "then 5"]
    assert speaker.dropped == 3


def test_a_phrase_not_begun_in_time_is_not_said(tmp_path: Path) -> None:
    now = [0.0]
    played: list[str] = []

    def slow_make(text: str, path: Path) -> None:
        now[0] += 5.0  # the engine took longer than a phrase may wait
        fake_make(text, path)

    speaker = Speaker(WavCache(tmp_path, "en", slow_make), lambda p: played.append(p.name),
                      clock=lambda: now[0])
    speaker.say("late")
    assert speaker.idle()
    speaker.close()
    assert played == [] and speaker.dropped == 1


def test_a_failing_device_is_one_line_and_the_table_plays_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def broken(path: Path) -> None:
        raise SpeakerError("aplay -D plughw:9,0 failed: no such card")

    speaker = Speaker(WavCache(tmp_path, "en", fake_make), broken)
    with caplog.at_level(logging.WARNING):
        for text in ("one", "two", "three"):
            speaker.say(text)
            assert speaker.idle()
    speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.name == speaker_module.__name__]
    assert lines == ["voice: aplay -D plughw:9,0 failed: no such card; the table plays on "
                     "silent until it works again"]


def test_no_engine_or_no_device_is_one_clear_line_at_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    assert open_speaker(VoiceConfig(), tmp_path) is None  # none asked for: nothing said
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING):
        assert open_speaker(VoiceConfig("espeak-ng"), tmp_path) is None
    assert [r.getMessage() for r in caplog.records] == [
        "voice: espeak-ng is not installed (sudo apt install espeak-ng); the table plays on "
        "silent"]
    caplog.clear()
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")

    def no_card(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "aplay: main:831: audio open "
                                           "error: No such file or directory\n")

    monkeypatch.setattr(subprocess, "run", no_card)
    with caplog.at_level(logging.WARNING):
        assert open_speaker(VoiceConfig("espeak-ng", device="plughw:9,0"), tmp_path) is None
    assert [r.getMessage() for r in caplog.records] == [
        "voice: the device 'plughw:9,0' cannot play (aplay -D plughw:9,0 failed: aplay: "
        "main:831: audio open error: No such file or directory; `aplay -L` lists the "
        "devices); the table plays on silent"]


def rms(wav: Path) -> tuple[float, float]:
    """sox's length in seconds and RMS amplitude of ``wav``."""
    out = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True,
                         timeout=30, check=True).stderr
    figures = {line.split(":")[0].strip(): line.split(":")[1].strip()
               for line in out.splitlines() if ":" in line}
    return float(figures["Length (seconds)"]), float(figures["RMS     amplitude"])


def needs(program: str, package: str) -> None:
    if shutil.which(program) is None:  # .ci/run installs it
        if os.environ.get("TABLE_COMPANION_CI"):
            pytest.fail(f"{program} is not installed, and .ci/run should have installed it")
        pytest.skip(f"{program} is not installed (sudo apt install {package})")


def test_a_dalmatian_game_is_spoken_aloud_and_its_phrases_kept(tmp_path: Path) -> None:
    needs("espeak-ng", "espeak-ng")
    needs("sox", "sox")
    cache = WavCache(tmp_path / "voice", "en", espeak(VoiceConfig("espeak-ng")))
    played: list[Path] = []

    def one_game(journal: str) -> Recorder:
        speaker = Speaker(cache, played.append)
        said = Recorder()

        class Both(Recorder):  # heard as the players hear it: a pause for every phrase
            def say(self, text: str) -> None:
                said.say(text)
                speaker.say(text)
                assert speaker.idle()

            def prepare(self, texts: object) -> None:
                speaker.prepare(list(texts))  # type: ignore[call-overload]

        play_out(spoken_table(tmp_path / journal, "dalmatian", Both()), seed=1)
        assert speaker.idle()
        speaker.close()
        return said

    first = one_game("one.sqlite3")
    made = cache.made
    assert len(played) == len(first.said) > 50
    for wav in set(played):
        length, loudness = rms(wav)
        assert length > 0.2 and loudness > 0.01, f"{wav.name}: {length} s, RMS {loudness}"
    second = one_game("two.sqlite3")
    assert second.said == first.said
    assert cache.made == made  # every phrase of the second game came from the cache

