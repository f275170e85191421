"""HTML that cannot carry a stray tag: every value is escaped on its way into a template.

:class:`Html` is text already safe to put in a page. :func:`render` fills a template (a
literal in the code, ``str.format`` style) and escapes every value that is not already
:class:`Html`, for text and quoted attributes alike; :func:`join` puts fragments together.
The page is made only of these (mypy sees a plain ``str`` where :class:`Html` is due, and a
test checks ``page.py`` builds no HTML another way), so any text from a table reaches a
phone only through :func:`html.escape`.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape


class Html(str):
    """Markup made by :func:`render` or :func:`join` (or a literal written here)."""

    __slots__ = ()


def render(template: str, /, **values: object) -> Html:
    """``template`` with each ``{name}`` filled: :class:`Html` as it is, anything else as
    escaped text (``&``, ``<``, ``>`` and both quotes)."""
    return Html(template.format_map({
        key: value if isinstance(value, Html) else escape(str(value), quote=True)
        for key, value in values.items()}))


EMPTY = Html("")


def join(parts: Iterable[Html], separator: Html = EMPTY) -> Html:
    return Html(separator.join(parts))
