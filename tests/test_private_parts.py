"""No private parts of a library: what Pillow, luma, gpiozero or any other dependency keeps
behind an underscore is not ours to read or write, so a new release cannot break us there.

Checked in every module of the three packages: an underscored name read from a library's
module or class (``Image._x``, ``Device._y``), an underscored name imported from one, a
``__dict__`` (ours copy through the game's own ``copy``/``snapshot``/``restore``), a class
made from Pillow's, and, in a class made from a library's, an underscored attribute of
``self`` the class does not make itself. gpiozero documents a few underscored methods as
the interface of a pin implementation (``PiPin``'s descendants override and call them); those
are named below and allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "hardware", "firmware_host")
OURS = (*PACKAGES, "wiring", "__future__")
PIN_HOOKS = {"_get_state", "_set_state", "_get_function", "_set_function", "_call_when_changed",
             "_enable_event_detect", "_disable_event_detect", "_get_frequency",
             "_set_frequency", "_get_pull", "_set_pull", "_get_bounce", "_set_bounce",
             "_get_edges", "_set_edges"}
"""gpiozero's pin implementation interface (gpiozero/pins/pi.py: PiPin's docstring)."""


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PIN_HOOKS


def library_names(tree: ast.Module) -> set[str]:
    """The names a module binds to another distribution's modules and classes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                         if alias.name.split(".")[0] not in OURS)
        elif isinstance(node, ast.ImportFrom) and not node.level \
                and (node.module or "").split(".")[0] not in OURS:
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def problems_in(source: str, where: str) -> list[str]:
    tree = ast.parse(source)
    libraries = library_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level \
                and (node.module or "").split(".")[0] not in OURS:
            found += [f"{where}:{node.lineno}: imports {alias.name} from {node.module}"
                      for alias in node.names if private(alias.name)]
        elif isinstance(node, ast.Attribute) and (node.attr == "__dict__" or (
                private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in libraries)):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base) for base in node.bases]
            from_library = [b for b in bases if b.split(".")[0] in libraries]
            found += [f"{where}:{node.lineno}: class {node.name}({b}) is made from Pillow's"
                      for b in from_library if b.split(".")[0] in ("Image", "PIL")]
            if from_library:
                found += inherited_privates(node, where)
    return found


def inherited_privates(cls: ast.ClassDef, where: str) -> list[str]:
    """``self._x`` in a class made from a library's, where the class does not make ``_x``."""
    own = {node.name for node in cls.body if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign) else []
        own.update(t.attr for t in targets if isinstance(t, ast.Attribute))
    return [f"{where}:{node.lineno}: {ast.unparse(node)} is the library's"
            for node in ast.walk(cls)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self" and private(node.attr) and node.attr not in own]


def test_no_module_uses_a_librarys_private_parts() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found += problems_in(path.read_text(encoding="utf-8"),
                                 path.relative_to(ROOT).as_posix())
    assert found == []


@pytest.mark.parametrize(("source", "expected"), [
    ("from PIL import Image\nclass Frame(Image.Image):\n    pass\n",
     ["x.py:2: class Frame(Image.Image) is made from Pillow's"]),
    ("from PIL import Image\ndef f(image):\n    return image.__dict__['_im']\n",
     ["x.py:3: image.__dict__"]),
    ("from gpiozero import Device\nDevice._default_pin_factory()\n",
     ["x.py:2: Device._default_pin_factory"]),
    ("from PIL.Image import _conv_type_shape\n",
     ["x.py:1: imports _conv_type_shape from PIL.Image"]),
    ("from gpiozero.pins.mock import MockPin\nclass P(MockPin):\n"
     "    def _get_state(self):\n        return self._function == 'input'\n",
     ["x.py:4: self._function is the library's"]),
    ("from gpiozero.pins.mock import MockPin\nclass P(MockPin):\n"
     "    def __init__(self):\n        self._mine = 1\n"
     "    def _get_state(self):\n        return self._mine and super()._get_state()\n", []),
    ("class Own:\n    def f(self, other):\n        return other._x\n", []),
])
def test_the_check_finds_what_is_planted(source: str, expected: list[str]) -> None:
    assert problems_in(source, "x.py") == expected
