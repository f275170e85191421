"""The frames the referee hands the loop: one drawn only when the screen changed, and a
drawing that fails gives a plain frame (logged once, not at every frame) instead of a blank
table."""

from __future__ import annotations

import logging
from collections.abc import Callable

from PIL import Image

from firmware_host.referee.parts import Renderer
from firmware_host.views import NoticeView, View

log = logging.getLogger("firmware_host.referee.referee")  # the referee's words in the log


class Frames:
    """Draws a view with ``render`` when :attr:`changed` says the screen has changed."""

    def __init__(self, render: Renderer) -> None:
        self.render = render
        self.changed = True  # the screen has changed since the last frame
        self._failure = ""  # what the last frame's drawing raised, logged once

    def frame(self, view: Callable[[], View]) -> Image.Image | None:
        """The new screen, ``view`` drawn, or None when nothing changed since the last."""
        if not self.changed:
            return None
        self.changed = False
        try:
            image = self.render(view())
        except Exception as err:  # a bug must not blank the table: a plain frame, play goes on
            failure = f"{type(err).__name__}: {err}"
            if failure != self._failure:  # logged once, not at every frame
                log.exception("while drawing the screen")
            self._failure = failure
            return self.render(NoticeView("Screen error", (
                f"internal error ({type(err).__name__}), logged", "play goes on: no move lost")))
        self._failure = ""
        return image
