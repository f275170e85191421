"""The house's layers: imports run one way, and no folder grows into a flat room again.

``games`` imports nothing of ours; ``hardware`` imports neither ``games`` nor ``firmware_host``;
the daemon's core (everything in ``firmware_host`` but ``commands/``, ``sim/`` and ``cli.py``)
imports neither ``commands/`` nor ``sim/``, and the simulator does not import ``commands/``.
Every import counts, also those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "hardware", "firmware_host")
MAX_MODULES = 20
MANY_MODULES_ALLOWED = {"firmware_host/screens"}  # one module per screen


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved to absolute names."""
    package = module_name(path, root)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{alias.name}" for alias in node.names)
    return found


def forbidden_for(module: str) -> tuple[str, ...]:
    """The layers ``module`` may not import from."""
    top = module.split(".")[0]
    if top == "games":
        return ("hardware", "firmware_host")
    if top == "hardware":
        return ("games", "firmware_host")
    if module.startswith("firmware_host.sim"):
        return ("firmware_host.commands", "firmware_host.cli")
    if module.startswith(("firmware_host.commands", "firmware_host.cli")):
        return ()
    return ("firmware_host.commands", "firmware_host.sim", "firmware_host.cli")


def layer_violations(root: Path) -> list[str]:
    problems = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(path, root)
            for imported in sorted(imports_of(path, root)):
                for layer in forbidden_for(module):
                    if imported == layer or imported.startswith(layer + "."):
                        problems.append(f"{module} imports {imported} (a layer above it)")
    return problems


def crowded_folders(root: Path) -> list[str]:
    problems = []
    for package in (*PACKAGES, "tests"):
        for folder in [root / package, *(p for p in (root / package).rglob("*") if p.is_dir())]:
            name = folder.relative_to(root).as_posix()
            modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            if len(modules) > MAX_MODULES and name not in MANY_MODULES_ALLOWED:
                problems.append(f"{name}/ holds {len(modules)} modules (at most {MAX_MODULES})")
    return problems


def test_no_module_imports_from_a_layer_above_it() -> None:
    assert layer_violations(ROOT) == []


def test_no_folder_holds_more_than_twenty_modules() -> None:
    assert crowded_folders(ROOT) == []


@pytest.mark.parametrize(("where", "source", "expected"), [
    ("games/rules.py", "from hardware.events import Event\n",
     "games.rules imports hardware.events (a layer above it)"),
    ("hardware/board/scan.py", "def f():\n    import firmware_host.journal\n",
     "hardware.board.scan imports firmware_host.journal (a layer above it)"),
    ("firmware_host/referee.py", "from .commands import UsageError\n",
     "firmware_host.referee imports firmware_host.commands (a layer above it)"),
    ("firmware_host/screens/menu.py", "from ..sim import keys\n",
     "firmware_host.screens.menu imports firmware_host.sim (a layer above it)"),
    ("firmware_host/sim/keys.py", "from firmware_host import commands\n",
     "firmware_host.sim.keys imports firmware_host.commands (a layer above it)"),
])
def test_a_planted_upward_import_is_caught(tmp_path: Path, where: str, source: str,
                                           expected: str) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    assert expected in layer_violations(tmp_path)


def test_the_daemon_may_import_downwards(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "firmware_host" / "commands").mkdir()
    (tmp_path / "firmware_host" / "commands" / "run.py").write_text(
        "from firmware_host.sim import keys\nfrom firmware_host.journal import Journal\n"
        "from hardware.events import Event\nimport games\n")
    assert layer_violations(tmp_path) == []


def test_a_crowded_folder_is_caught(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "tests").mkdir()
    for n in range(MAX_MODULES + 1):
        (tmp_path / "hardware" / f"part{n}.py").write_text("")
    assert crowded_folders(tmp_path) == [f"hardware/ holds {MAX_MODULES + 1} modules (at most 20)"]
