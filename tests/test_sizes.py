"""The classes that gather concerns stay small: a size met once is kept only this way.

A class's attributes are the names it assigns on ``self`` in its own methods (its state a
reader must keep in mind); a function's or a class's length is its lines from ``def`` or
``class`` to its last statement, docstrings and comments included. Each anchor class is
listed with its caps; a class that needs more gives a concern an owner of its own (see
DESIGN.md), as the referee gave failing sensors the board watch.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_FUNCTION_LINES = 40
ANCHORS = [  # module, class, most attributes
    ("firmware_host/referee/referee.py", "Referee", 12),
    ("firmware_host/referee/board_watch.py", "BoardWatch", 8),
    ("hardware/board/matrix.py", "ReedMatrix", 20),
]
LONG_ANCHORS = [  # module, class, most lines
    ("firmware_host/referee/referee.py", "Referee", 350),
]


def class_node(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(node for node in tree.body if isinstance(node, ast.ClassDef)
                and node.name == name)


def attributes(cls: ast.ClassDef) -> set[str]:
    """The names the class's methods assign on ``self``, however they assign them."""
    found = set()
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets += target.elts
            elif isinstance(target, ast.Starred):
                targets.append(target.value)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == "self":
                found.add(target.attr)
    return found


def length(node: ast.stmt) -> int:
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1


def long_functions(tree: ast.Module, limit: int) -> list[str]:
    return [f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > limit]


@pytest.mark.parametrize(("path", "name", "most"), ANCHORS)
def test_an_anchor_class_keeps_its_attributes_few(path: str, name: str, most: int) -> None:
    found = attributes(class_node(ast.parse((ROOT / path).read_text()), name))
    assert len(found) <= most, f"{name} has {len(found)} attributes: {sorted(found)}"


@pytest.mark.parametrize(("path", "name", "most"), LONG_ANCHORS)
def test_an_anchor_class_keeps_its_lines_few(path: str, name: str, most: int) -> None:
    lines = length(class_node(ast.parse((ROOT / path).read_text()), name))
    assert lines <= most, f"{name} is {lines} lines long"


@pytest.mark.parametrize("path", sorted({path for path, _name, _most in ANCHORS}))
def test_no_function_of_an_anchor_module_is_long(path: str) -> None:
    assert long_functions(ast.parse((ROOT / path).read_text()), MAX_FUNCTION_LINES) == []


def test_the_measures_count_what_they_say() -> None:
    tree = ast.parse("class A:\n"
                     "    def __init__(self):\n"
                     "        self.a = self.b = 1\n"
                     "        self.c: int = 2\n"
                     "        self.d, (self.e, x) = 3, (4, 5)\n"
                     "        self.a += 1\n"
                     "        other.f = 6\n"
                     "    def go(self):\n"
                     "        self.g.h = self.i[0] = 7\n"
                     "        *self.j, self.k = [8, 9]\n"
                     "        return self.i\n")
    assert attributes(class_node(tree, "A")) == {"a", "b", "c", "d", "e", "j", "k"}
    assert long_functions(tree, 4) == ["__init__ (line 2): 6 lines"]
    assert long_functions(tree, 6) == []
    assert length(class_node(tree, "A")) == 11
