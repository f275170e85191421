"""The table's speaker: phrases made into WAVs with espeak-ng and played with aplay, on a
thread of its own, so the referee's loop only ever appends to a short queue.

A phrase is made once per language and text and kept in a cache folder (a game's turns and
numbers are made when it starts, while the players sit down); a phrase waiting when newer
ones come is dropped, and one older than :data:`STALE_S` when its turn comes is not said,
so the voice never falls behind the table. A speaker that fails is one line in the log,
and the table plays on silent.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_host.config import VoiceConfig

log = logging.getLogger(__name__)

WAITING = 2  # phrases that may wait behind the one being said; older ones are dropped
STALE_S = 4.0  # a phrase not begun this long after it was asked for is news no more
TIMEOUT_S = 15.0  # a stuck espeak-ng or aplay is given up on

Make = Callable[[str, Path], None]
"""Writes the WAV of a text to a path."""
Play = Callable[[Path], None]


class SpeakerError(RuntimeError):
    """The engine or the device failed: the message says which and what to do."""


class WavCache:
    """The WAV of each text in ``language``, made by ``make`` once and kept in ``folder``."""

    def __init__(self, folder: Path, language: str, make: Make) -> None:
        self.folder = folder
        self.language = language
        self._make = make
        self.made = 0  # WAVs made by this cache, not found in the folder

    def path(self, text: str) -> Path:
        digest = hashlib.sha256(f"{self.language}\0{text}".encode()).hexdigest()[:24]
        return self.folder / f"{self.language}-{digest}.wav"

    def wav(self, text: str) -> Path:
        path = self.path(text)
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            part = path.with_suffix(f".{os.getpid()}.part")
            self._make(text, part)
            part.replace(path)  # whole or absent: a power cut leaves no half WAV
            self.made += 1
        return path


def espeak(config: VoiceConfig, program: str = "espeak-ng") -> Make:
    def make(text: str, path: Path) -> None:
        _run([program, "-v", config.language, "-s", str(config.rate), "-a",
              str(config.volume), "-w", str(path), "--", text], program)
    return make


def aplay(device: str, program: str = "aplay") -> Play:
    def play(path: Path) -> None:
        _run([program, "-q", "-D", device, str(path)], f"{program} -D {device}")
    return play


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SpeakerError(f"{what} failed: {err}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SpeakerError(f"{what} failed: {last}")


class Speaker:
    """Says phrases on its own thread; :meth:`say` and :meth:`prepare` never wait.

    ``started`` is told each phrase as it begins to play, with the clock's time (the bench
    measures the voice's lag with it)."""

    def __init__(self, cache: WavCache, play: Play, *, clock: Callable[[], float] = time.monotonic,
                 started: Callable[[str, float], None] | None = None) -> None:
        self.cache = cache
        self._play = play
        self._clock = clock
        self._started = started
        self._queue: deque[tuple[str, float]] = deque(maxlen=1 + WAITING)
        self._ahead: deque[str] = deque()
        self._awake = threading.Condition()
        self._closed = False
        self.dropped = 0
        self._failed = False
        self._busy = False  # a phrase is being made or said
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        with self._awake:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append((text, self._clock()))
            self._awake.notify()

    def prepare(self, texts: Sequence[str]) -> None:
        with self._awake:
            self._ahead.extend(texts)
            self._awake.notify()

    def close(self) -> None:
        with self._awake:
            self._closed = True
            self._awake.notify()
        self._thread.join(timeout=TIMEOUT_S)

    def idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is queued or being made (for tests and the bench)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._awake:
                if not self._queue and not self._ahead and not self._busy:
                    return True
            time.sleep(0.01)
        return False

    def _run(self) -> None:
        while True:
            with self._awake:
                while not (self._queue or self._ahead or self._closed):
                    self._awake.wait()
                if self._closed:
                    return
                job = self._queue.popleft() if self._queue else None
                ahead = self._ahead.popleft() if job is None else None
                self._busy = True
            try:
                if job is not None:
                    self._say(*job)
                elif ahead is not None:
                    self.cache.wav(ahead)
            except SpeakerError as err:
                self._fail(str(err))
            finally:
                with self._awake:
                    self._busy = False

    def _say(self, text: str, asked: float) -> None:
        wav = self.cache.wav(text)
        if self._clock() - asked > STALE_S:
            self.dropped += 1
            return
        if self._started is not None:
            self._started(text, self._clock())
        self._play(wav)

    def _fail(self, problem: str) -> None:
        if not self._failed:  # one line, not one a phrase
            log.warning("voice: %s; the table plays on silent until it works again", problem)
        self._failed = True


def open_speaker(config: VoiceConfig, folder: Path,
                 started: Callable[[str, float], None] | None = None) -> Speaker | None:
    """The speaker ``config`` asks for, its WAVs kept in ``folder``; None, after one clear
    line in the log, when it asks for none or the engine or the device is missing."""
    if not config.on:
        return None
    for program, package in (("espeak-ng", "espeak-ng"), ("aplay", "alsa-utils")):
        if shutil.which(program) is None:
            log.warning("voice: %s is not installed (sudo apt install %s); the table plays "
                        "on silent", program, package)
            return None
    cache = WavCache(folder, config.language, espeak(config))
    play = aplay(config.device)
    try:
        play(_silence(folder))
    except SpeakerError as err:
        log.warning("voice: the device %r cannot play (%s; `aplay -L` lists the devices); "
                    "the table plays on silent", config.device, err)
        return None
    return Speaker(cache, play, started=started)


def _silence(folder: Path) -> Path:
    """A twentieth of a second of silence, to try the device with."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "silence.wav"
    if not path.exists():
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(22050)
            out.writeframes(b"\0\0" * 1102)
    return path
