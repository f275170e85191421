"""The integer-row canvas draws exactly what Pillow draws, clipping at the frame's edges included.

The golden images cover the screens as laid out today; these cover the primitives anywhere on
(or partly off) the frame, against Pillow's own rectangle, point and mask paste.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware_host.screens.canvas import Canvas
from firmware_host.screens.dice import SIZE, draw_die, face_bitmap
from firmware_host.screens.font import BIG, GLYPH_H, GLYPH_W, ROWS, SMALL, line_rows, stand_in
from firmware_host.screens.glyphs import GLYPHS
from firmware_host.screens.letters import letter
from hardware.display.protocol import new_frame

xs = st.integers(-20, 140)
ys = st.integers(-20, 80)
sizes = st.integers(0, 40)


def pillow_mask(char: str, scale: int) -> Image.Image:
    """A glyph drawn with Pillow: putdata, then a NEAREST resize of its capitals and, one row
    deep at any scale, its descender below them."""
    rows = GLYPHS.get(char) or letter(char) or GLYPHS[stand_in(char)]
    mask = Image.new("1", (GLYPH_W, ROWS))
    mask.putdata([255 if c == "#" else 0 for row in rows for c in row])
    caps = mask.crop((0, 0, GLYPH_W, GLYPH_H)).resize((GLYPH_W * scale, GLYPH_H * scale),
                                                      Image.Resampling.NEAREST)
    descender = mask.crop((0, GLYPH_H, GLYPH_W, ROWS)).resize((GLYPH_W * scale, 1),
                                                              Image.Resampling.NEAREST)
    whole = Image.new("1", (GLYPH_W * scale, line_rows(scale)))
    whole.paste(caps, (0, 0))
    whole.paste(descender, (0, GLYPH_H * scale))
    return whole


@given(x=xs, y=ys, w=sizes, h=sizes, on=st.booleans(), outline=st.booleans())
def test_rectangles_match_pillow(x: int, y: int, w: int, h: int, on: bool, outline: bool) -> None:
    if outline:
        w, h = max(w, 2), max(h, 2)  # Pillow outlines a 1-high box with two rows; ours is a line
    canvas, reference = Canvas(), new_frame()
    canvas.fill(10, 10, 100, 40)  # something lit underneath, so clearing shows
    draw = ImageDraw.Draw(reference)
    draw.rectangle((10, 10, 109, 49), fill=255)
    (canvas.frame if outline else canvas.fill)(x, y, w, h, on)
    if w > 0 and h > 0:
        box = (x, y, x + w - 1, y + h - 1)
        if outline:
            draw.rectangle(box, outline=255 if on else 0)
        else:
            draw.rectangle(box, fill=255 if on else 0)
    assert canvas.to_image().tobytes() == reference.tobytes()


@given(x=xs, y=ys, on=st.booleans())
def test_dots_match_pillow(x: int, y: int, on: bool) -> None:
    canvas, reference = Canvas(), new_frame()
    canvas.fill(0, 0, 128, 32)
    ImageDraw.Draw(reference).rectangle((0, 0, 127, 31), fill=255)
    canvas.dot(x, y, on)
    if 0 <= x < 128 and 0 <= y < 64:
        reference.putpixel((x, y), 255 if on else 0)
    assert canvas.to_image().tobytes() == reference.tobytes()


@given(x=xs, y=ys, text=st.text(alphabet="".join(GLYPHS) + "éŁÆЖψ", max_size=12),
       big=st.booleans(), on=st.booleans())
def test_text_matches_pasted_glyph_masks(x: int, y: int, text: str, big: bool, on: bool) -> None:
    face = BIG if big else SMALL
    canvas, reference = Canvas(), new_frame()
    canvas.fill(0, 20, 128, 30)
    ImageDraw.Draw(reference).rectangle((0, 20, 127, 49), fill=255)
    end = canvas.text(x, y, text, face, on)
    for index, char in enumerate(text):
        reference.paste(255 if on else 0, (x + index * face.advance, y),
                        pillow_mask(char, face.scale))
    assert canvas.to_image().tobytes() == reference.tobytes()
    assert end == x + len(text) * face.advance


def test_a_die_replaces_what_was_under_it_and_clips_at_the_edge() -> None:
    canvas = Canvas()
    canvas.fill(0, 0, 128, 64)
    draw_die(canvas, 120, 55, 5)
    image = canvas.to_image()
    assert image.getpixel((120, 55)) == 0  # a rounded corner, dark on the lit ground
    assert image.getpixel((121, 55)) == 255  # the frame
    assert image.getpixel((121, 56)) == 0  # inside the frame
    assert image.getpixel((119, 55)) == 255  # left of the die untouched
    whole = face_bitmap(5, False)
    assert canvas.cut(120, 55, 8, 9) == tuple(row >> (SIZE - 8) for row in whole[:9])
    blank = Canvas()
    draw_die(blank, -SIZE, 0, 6)  # wholly off the frame: nothing drawn
    assert not any(blank.rows)
