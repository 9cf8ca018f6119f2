"""The package's layers: the engine stands alone, and the solver is reached through its public names."""

from __future__ import annotations

import ast
from pathlib import Path

import tilerummy

PACKAGE = Path(tilerummy.__file__).parent
# The pure core: no I/O, no server, no command line.
CORE = ("tiles", "melds", "rules", "deal", "legality", "game", "scoring", "match", "openings", "records", "errors")


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, as absolute names."""
    package = ".".join(("tilerummy", *path.relative_to(PACKAGE).parent.parts))
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_no_module_outside_the_solver_imports_its_private_modules() -> None:
    offenders = {
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in PACKAGE.rglob("*.py")
        if "solver" not in path.relative_to(PACKAGE).parts
        for name in imported_modules(path)
        if name.startswith("tilerummy.solver._")
    }
    assert not offenders


def test_the_core_imports_no_shell() -> None:
    shells = ("tilerummy.server", "tilerummy.cli", "tilerummy.terminal", "tilerummy.arena", "tilerummy.bots")
    offenders = {
        f"{name}: {module}"
        for name in CORE
        for module in imported_modules(PACKAGE / f"{name}.py")
        if module.startswith(shells)
    }
    assert not offenders


def test_relative_imports_are_read_as_absolute_names() -> None:
    # The check above is only as good as this reading of "from .x import y".
    names = imported_modules(PACKAGE / "openings.py")
    assert "tilerummy.solver" in names
    assert "tilerummy.melds.Meld" in names


SERVER = PACKAGE / "server"
#: A room's fields that only the room core changes.
CORE_FIELDS = {"seq", "game_seq", "status", "game", "live"}


def assigned_room_fields(path: Path) -> set[str]:
    """Every assignment in a source file to an attribute named as one of the core's fields."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in CORE_FIELDS:
                    found.add(f"line {part.lineno}: .{part.attr}")
    return found


def test_only_the_room_core_changes_a_rooms_sequence_number_status_game_and_live_table() -> None:
    offenders = {
        f"{path.relative_to(PACKAGE)} {found}"
        for path in SERVER.rglob("*.py")
        if path.name != "room_core.py"
        for found in assigned_room_fields(path)
    }
    assert not offenders


def test_the_check_of_the_rooms_fields_sees_every_kind_of_assignment(tmp_path: Path) -> None:
    # The check above is only as good as this reading of assignments.
    source = tmp_path / "shell.py"
    source.write_text("room.seq += 1\nroom.status, other = 'open', 2\nroom.live: object = None\nx = room.game\n")
    assert {found.split(": ")[1] for found in assigned_room_fields(source)} == {".seq", ".status", ".live"}
    assert assigned_room_fields(SERVER / "room_core.py")
