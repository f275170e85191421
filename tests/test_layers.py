"""The house's layers: imports run one way, and no folder grows into a flat room again.

``games`` imports nothing of ours; ``hardware`` imports neither ``games`` nor ``firmware_host``;
the table's side (everything in ``firmware_host`` but ``hub/``, ``commands/``, ``sim/`` and
``cli.py``) imports none of those, the simulator neither ``commands/`` nor the hub, and the
night's hub (``hub/``, its league within) neither ``commands/`` nor ``sim/``: the table's
programs run without the hub's code, which reads the wire through ``night.topics``. The
league reads only the hub's records, never the wire's (``night/``). No two
packages beside each other import each other, whichever way the imports go (the one folder
still imports the other). Every import counts, also those inside functions.
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
        return ("firmware_host.commands", "firmware_host.cli", "firmware_host.hub")
    if module.startswith(("firmware_host.commands", "firmware_host.cli")):
        return ()
    if module.startswith("firmware_host.hub.league"):  # the hub reads the wire for it
        return ("firmware_host.commands", "firmware_host.sim", "firmware_host.cli",
                "firmware_host.night")
    if module.startswith("firmware_host.hub"):
        return ("firmware_host.commands", "firmware_host.sim", "firmware_host.cli")
    return ("firmware_host.commands", "firmware_host.sim", "firmware_host.cli", "firmware_host.hub")


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


def is_package(name: str, root: Path) -> bool:
    folder = root / name.replace(".", "/")
    return name in PACKAGES or (folder / "__init__.py").is_file()


def packages_apart(module: str, imported: str, root: Path) -> tuple[str, str] | None:
    """The two packages beside each other (one parent) that hold ``module`` and ``imported``,
    if they are in two such packages: ``firmware_host.night`` and ``firmware_host.hub`` for
    ``firmware_host.night.publisher`` importing ``firmware_host.hub.store.Store``."""
    ours, theirs = module.split("."), imported.split(".")
    for depth, (mine, other) in enumerate(zip(ours, theirs, strict=False)):
        if mine != other:
            one, two = ".".join(ours[:depth + 1]), ".".join(theirs[:depth + 1])
            if is_package(one, root) and is_package(two, root):
                return one, two
            return None
    return None


def packages_importing_each_other(root: Path) -> list[str]:
    first: dict[tuple[str, str], str] = {}  # (importer, imported) -> the first import seen
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(path, root)
            for imported in sorted(imports_of(path, root)):
                pair = packages_apart(module, imported, root)
                if pair is not None:
                    first.setdefault(pair, f"{module} imports {imported}")
    return [f"{one} and {two} import each other: {first[one, two]}, {first[two, one]}"
            for one, two in sorted(first) if one < two and (two, one) in first]


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


def test_no_two_packages_import_each_other() -> None:
    assert packages_importing_each_other(ROOT) == []


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
    ("firmware_host/night/publisher.py", "from firmware_host.hub.store import Store\n",
     "firmware_host.night.publisher imports firmware_host.hub.store (a layer above it)"),
    ("firmware_host/config.py", "def f():\n    from .hub import league\n",
     "firmware_host.config imports firmware_host.hub (a layer above it)"),
    ("firmware_host/hub/tv.py", "from firmware_host.sim import keys\n",
     "firmware_host.hub.tv imports firmware_host.sim (a layer above it)"),
    ("firmware_host/hub/league/league.py", "from firmware_host.night.topics import Game\n",
     "firmware_host.hub.league.league imports firmware_host.night.topics (a layer above it)"),
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


def _packages(root: Path, *names: str) -> None:
    for name in names:
        folder = root / name.replace(".", "/")
        folder.mkdir(parents=True, exist_ok=True)
        if "." in name:
            (folder / "__init__.py").write_text("")


def test_two_packages_importing_each_other_are_caught(tmp_path: Path) -> None:
    _packages(tmp_path, *PACKAGES, "firmware_host.hub", "firmware_host.hub.league",
              "firmware_host.night")
    (tmp_path / "firmware_host" / "night" / "topics.py").write_text("")
    (tmp_path / "firmware_host" / "hub" / "league" / "ratings.py").write_text(
        "from firmware_host.night.topics import Game\n")
    assert packages_importing_each_other(tmp_path) == []  # one way is the way it should be
    (tmp_path / "firmware_host" / "night" / "follow.py").write_text(
        "def f():\n    from ..hub.league import ratings\n")
    assert packages_importing_each_other(tmp_path) == [
        "firmware_host.hub and firmware_host.night import each other: "
        "firmware_host.hub.league.ratings imports firmware_host.night.topics, "
        "firmware_host.night.follow imports firmware_host.hub.league"]


def test_a_package_may_import_the_modules_of_its_own_parent(tmp_path: Path) -> None:
    """The parent's modules wire its packages together (``firmware_host.daemon`` imports the
    referee, which imports ``firmware_host.players``): a parent is not beside its packages."""
    _packages(tmp_path, *PACKAGES, "firmware_host.referee")
    (tmp_path / "firmware_host" / "players.py").write_text("")
    (tmp_path / "firmware_host" / "daemon.py").write_text("from .referee import core\n")
    (tmp_path / "firmware_host" / "referee" / "core.py").write_text(
        "from firmware_host.players import Player\n")
    assert packages_importing_each_other(tmp_path) == []
