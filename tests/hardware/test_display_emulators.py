"""PNG frames, GIF recording and the half-block terminal view, each skipping repeats."""

from __future__ import annotations

import io
from itertools import pairwise
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from hardware.display.emulators import GifRecorder, PngFrames, TerminalView, half_block_lines
from hardware.display.protocol import new_frame
from hardware.display.samples import alignment_pattern


def frame_with(*pixels: tuple[int, int]) -> Image.Image:
    frame = new_frame()
    for pixel in pixels:
        frame.putpixel(pixel, 1)
    return frame


def test_half_blocks_put_two_pixel_rows_in_one_character() -> None:
    # column 0: top pixel; 1: bottom pixel; 2: both; 3: neither; row 1 of text: (0, 2)
    lines = half_block_lines(frame_with((0, 0), (1, 1), (2, 0), (2, 1), (0, 2)))
    assert len(lines) == 32 and {len(line) for line in lines} == {128}
    assert lines[0][:4] == "▀▄█ "
    assert lines[1][:2] == "▀ "
    assert lines[2:] == [" " * 128] * 30


def test_terminal_view_draws_a_box_and_redraws_in_place() -> None:
    stream = io.StringIO()
    view = TerminalView(stream)
    view.show(frame_with((127, 63)))
    first = stream.getvalue().split("\n")
    assert first[0] == "┌" + "─" * 128 + "┐"
    assert first[32] == "│" + " " * 127 + "▄│"
    assert first[33] == "└" + "─" * 128 + "┘"
    assert first[34] == "" and len(first) == 35
    view.show(frame_with((127, 63)))  # unchanged: nothing written
    assert stream.getvalue() == "\n".join(first)
    view.show(frame_with((0, 0)))
    second = stream.getvalue()[len("\n".join(first)):]
    assert second.startswith("\x1b[34F┌")  # cursor back to the box's first line
    assert second.split("\n")[1] == "│▀" + " " * 127 + "│"


def test_terminal_view_for_logs_writes_frames_one_below_the_other() -> None:
    stream = io.StringIO()
    view = TerminalView(stream, in_place=False)
    view.show(frame_with((0, 0)))
    view.show(frame_with((1, 0)))
    assert "\x1b" not in stream.getvalue()
    assert stream.getvalue().count("┌") == 2


def test_png_frames_are_numbered_and_repeats_skipped(tmp_path: Path) -> None:
    sink = PngFrames(tmp_path / "frames")
    sink.show(frame_with((3, 4)))
    sink.show(frame_with((3, 4)))
    sink.show(frame_with((5, 6)))
    assert [path.name for path in sorted((tmp_path / "frames").iterdir())] == [
        "frame-00001.png", "frame-00002.png"]
    with Image.open(tmp_path / "frames" / "frame-00002.png") as saved:
        assert saved.size == (128, 64)
        assert saved.convert("1").getpixel((5, 6)) == 255
        assert saved.convert("1").getpixel((3, 4)) == 0


def test_gif_holds_each_new_frame_for_as_long_as_it_was_shown(tmp_path: Path) -> None:
    clock = iter([10.0, 10.25, 11.0])
    gif = GifRecorder(tmp_path / "game.gif", frame_ms=500, ticks=lambda: next(clock))
    frames = [frame_with((0, 0)), frame_with((0, 0)), frame_with((9, 9)), frame_with((1, 1))]
    gif.show(frames[0])
    gif.show(frames[1])  # a repeat: no tick taken, no frame added
    gif.show(frames[2])
    gif.show(frames[3])
    assert gif.frames == 3
    gif.save()
    with Image.open(tmp_path / "game.gif") as saved:
        assert saved.n_frames == 3
        shown = []
        for index in range(3):
            saved.seek(index)
            shown.append((saved.info["duration"], saved.convert("1").getpixel((9, 9))))
    assert shown == [(250, 0), (750, 255), (500, 0)]


def test_gif_without_a_clock_uses_the_fixed_frame_time(tmp_path: Path) -> None:
    gif = GifRecorder(tmp_path / "x.gif", frame_ms=120)
    gif.save()
    assert not (tmp_path / "x.gif").exists()  # nothing shown, nothing written
    frame = new_frame()
    ImageDraw.Draw(frame).rectangle((0, 0, 10, 10), fill=1)
    gif.show(frame)
    gif.save()
    with Image.open(tmp_path / "x.gif") as saved:
        assert (saved.n_frames, saved.info["duration"], saved.info["loop"]) == (1, 120, 0)


def test_gif_frames_are_written_as_they_come_not_kept(tmp_path: Path) -> None:
    """A simulator run of any length holds one frame: the file grows with every new frame
    (before, every frame stayed in memory until save: 305 MB after 13,000 actions)."""
    gif = GifRecorder(tmp_path / "long.gif", frame_ms=50)
    sizes = []
    for index in range(300):
        gif.show(frame_with((index % 128, index // 128)))
        sizes.append((tmp_path / "long.gif").stat().st_size if index else 0)
    assert all(later > earlier for earlier, later in pairwise(sizes))
    gif.save()
    with Image.open(tmp_path / "long.gif") as saved:
        assert saved.n_frames == 300
        saved.seek(299)
        assert saved.convert("1").getpixel((299 % 128, 299 // 128)) == 255


def test_every_emulator_refuses_a_wrong_frame(tmp_path: Path) -> None:
    for view in (TerminalView(io.StringIO()), PngFrames(tmp_path), GifRecorder(tmp_path / "g")):
        with pytest.raises(ValueError, match="64 pixels, got mode '1' of 64x32"):
            view.show(Image.new("1", (64, 32)))


def test_the_alignment_pattern_lights_every_edge() -> None:
    lines = half_block_lines(alignment_pattern())
    assert lines[0][0] == "█" and lines[0][-1] == "█"  # the diagonals meet the border
    assert lines[-1][0] == "█" and lines[-1][-1] == "█"
    assert set(lines[0][1:-1]) <= {"▀", "█"}  # the top border is the upper half-row
    assert set(lines[-1][1:-1]) <= {"▄", "█"}
    assert all(line[0] == "█" and line[-1] == "█" for line in lines)
