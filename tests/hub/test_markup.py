"""One way to the page: every value is escaped by markup.render, and page.py has no other."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from firmware_host.hub import markup, page, tv
from firmware_host.hub.markup import Html, join, render


def test_every_value_is_escaped_unless_already_html() -> None:
    assert render('<p title="{t}">{x}</p>', t='" onclick="x', x="<b>&</b>") == (
        '<p title="&quot; onclick=&quot;x">&lt;b&gt;&amp;&lt;/b&gt;</p>')
    assert render("<i>{x}</i>", x="'") == "<i>&#x27;</i>"
    assert render("<i>{x}</i>", x=render("<b>{y}</b>", y="<")) == "<i><b>&lt;</b></i>"
    assert render("{x}", x="{x}{0}%s") == "{x}{0}%s"  # a value is never a template
    assert join([render("<b>1</b>"), render("<b>2</b>")], render(", ")) == "<b>1</b>, <b>2</b>"
    assert isinstance(join([]), Html)


@pytest.mark.parametrize("module", [page, tv], ids=lambda m: m.__name__)
def test_the_page_makes_html_only_through_render(module: ModuleType) -> None:
    """No f-string, %, .format or Html(...) in page.py or tv.py, and every template is a
    literal: a value can only reach the page as a value of render, which escapes it."""
    tree = ast.parse(Path(str(module.__file__)).read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(f"line {node.lineno}: an f-string")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and (
                not isinstance(node.left, ast.BinOp)):  # (a - b) % n is arithmetic
            found.append(f"line {node.lineno}: % formatting")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in ("format", "format_map")):
            found.append(f"line {node.lineno}: .{node.func.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "Html":
                found.append(f"line {node.lineno}: Html(...) made by hand")
            if node.func.id == "render" and not (
                    isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(f"line {node.lineno}: a template that is not a literal")
    assert found == []
    assert markup.render is module.render


def test_html_is_made_by_hand_nowhere_but_in_markup() -> None:
    package = Path(markup.__file__).parents[1]
    made = [f"{path.relative_to(package)}:{node.lineno}"
            for path in package.rglob("*.py") if path.name != "markup.py"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Html"]
    assert made == []
