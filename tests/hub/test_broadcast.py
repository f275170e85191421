"""The event streams' broadcast: one shared write for streams that keep up, the newest of each
table for one that fell behind, nothing queued for it meanwhile, and a stuck one closed; and
the server's tally of connections that ended badly."""

from __future__ import annotations

import asyncio
import logging

import pytest

from firmware_host.hub.broadcast import FULL, STUCK_S, Broadcast, Parts
from firmware_host.hub.server import Tally


class Socket(asyncio.WriteTransport):
    """A stream's socket: what was written to it, and how much it has not sent yet."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.unsent = 0
        self.aborted = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True


def test_streams_that_keep_up_share_one_write_of_the_newest_changes() -> None:
    broadcast = Broadcast()
    sockets = [Socket() for _ in range(3)]
    for socket in sockets:
        broadcast.join(socket, broadcast.seq)
    broadcast.send("card 1", b"1a")
    broadcast.send("card 2", b"2a")
    broadcast.send("card 1", b"1b")  # in place of 1a, which no stream has had yet
    assert broadcast.flush(0.0)
    assert [s.written for s in sockets] == [[b"2a1b"]] * 3
    assert sockets[0].written[0] is sockets[2].written[0]  # one blob for all
    assert not broadcast.flush(0.1)  # nothing new


def test_a_stream_that_falls_behind_gets_the_newest_of_each_key_and_nothing_queued() -> None:
    broadcast = Broadcast()
    slow, quick = Socket(), Socket()
    for socket in (slow, quick):
        broadcast.join(socket, broadcast.seq)
    slow.unsent = FULL  # a phone that stopped reading
    for n in range(100):
        broadcast.send(f"card {n % 4}", b"%d;" % n)
        broadcast.flush(n * 0.1)
    assert slow.written == [] and len(quick.written) == 100
    slow.unsent = 0  # it reads again
    broadcast.send("results", b"r;")
    broadcast.flush(10.0)
    assert slow.written == [b"96;97;98;99;r;"]  # each table's latest, once
    assert quick.written[-1] == b"r;"


def test_a_stream_stuck_too_long_is_closed_so_its_browser_starts_afresh() -> None:
    broadcast = Broadcast()
    stuck = Socket()
    broadcast.join(stuck, broadcast.seq)
    stuck.unsent = FULL
    broadcast.send("card 1", b"x")
    broadcast.flush(100.0)
    broadcast.flush(100.0 + STUCK_S - 1)
    assert not stuck.aborted and len(broadcast) == 1
    broadcast.flush(100.0 + STUCK_S)
    assert stuck.aborted and len(broadcast) == 0


def test_a_stream_joining_with_an_older_state_gets_what_changed_since() -> None:
    broadcast = Broadcast()
    broadcast.send("card 1", b"1a")
    seen = broadcast.seq  # the state it was sent shows card 1 as 1a
    broadcast.send("card 2", b"2a")
    late = Socket()
    broadcast.join(late, seen)
    broadcast.send("card 3", b"3a")
    broadcast.flush(0.0)
    assert late.written == [b"2a3a"]


def test_connections_that_end_badly_are_one_line_a_minute(
        caplog: pytest.LogCaptureFixture) -> None:
    tally = Tally(since=0.0)
    for _ in range(500):
        tally.count("reset")
    tally.count("timed out")
    with caplog.at_level(logging.INFO, "table_companion.hub"):
        tally.say(60.0)
        tally.say(120.0)  # nothing since: nothing said
    assert caplog.messages == [
        "the page's connections in the last 60 s: 500 reset, 1 timed out"]


def test_the_results_send_only_the_parts_and_games_that_changed() -> None:
    broadcast = Broadcast()
    sent: list[tuple[str, bytes]] = []
    broadcast.send = lambda key, event: sent.append((key, event))  # type: ignore[method-assign]
    parts = Parts(broadcast)
    items = {"t1/1": "<li>a</li>", "t1/2": "<li>b</li>"}
    parts.send({"standings": "S", "games": "G1"}, "games", items, 2)
    assert [key for key, _ in sent] == ["results standings", "results games"]
    sent.clear()
    parts.send({"standings": "S", "games": "G2"}, "games", {**items, "t1/2": "<li>c</li>"}, 2)
    assert sent == [("game t1/2", b'event: game\ndata: {"id":"t1/2","html":"<li>c</li>"}\n\n')]
    sent.clear()
    parts.send({"standings": "S", "games": "G2"}, "games", {**items, "t1/2": "<li>c</li>"}, 2)
    assert sent == []  # nothing changed: nothing sent
    parts.send({"standings": "S2", "games": "G3"}, "games", {**items, "t1/3": "<li>d</li>"}, 3)
    assert [key for key, _ in sent] == ["results standings", "results games"]  # a new game
    sent.clear()
    parts.send({"standings": "S2", "games": "G4"}, "games", {**items, "t1/3": "<li>d</li>"}, 4)
    assert [key for key, _ in sent] == ["results games"]  # the count in its heading
