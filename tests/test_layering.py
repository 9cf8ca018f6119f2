"""The package's layers: the engine stands alone, and the solver is reached through its public names."""

from __future__ import annotations

import ast
import asyncio
import json
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import tilerummy

from .hubkit import Player, running_hub

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


#: The rest of a room's state and its seats': changed by the core, through the room's own
#: methods (``rooms.py``) at most.
ROOM_FIELDS = {
    "connections",
    "away_since",
    "spectators",
    "muted",
    "host_token_hash",
    "host_name",
    "catching_up",
    "match_scores",
    "games_played",
    "game_id",
    "fairness",
    "rated_game",
    "token_hash",
    "seated_at",
}


def assigned_room_fields(path: Path, fields: set[str] = CORE_FIELDS) -> set[str]:
    """Every assignment in a source file to an attribute named as one of ``fields``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr in fields:
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


def test_only_the_room_core_and_the_rooms_own_methods_change_the_rest_of_a_room() -> None:
    offenders = {
        f"{path.relative_to(PACKAGE)} {found}"
        for path in SERVER.rglob("*.py")
        if path.name not in {"room_core.py", "rooms.py"}
        for found in assigned_room_fields(path, ROOM_FIELDS)
    }
    assert not offenders


def test_the_check_of_the_rooms_fields_sees_every_kind_of_assignment(tmp_path: Path) -> None:
    # The check above is only as good as this reading of assignments.
    source = tmp_path / "shell.py"
    source.write_text("room.seq += 1\nroom.status, other = 'open', 2\nroom.live: object = None\nx = room.game\n")
    assert {found.split(": ")[1] for found in assigned_room_fields(source)} == {".seq", ".status", ".live"}
    assert assigned_room_fields(SERVER / "room_core.py")


#: The modules that hold one action's steps after ``connection.py`` hands its frame over
#: (docs/protocol.md, "One action, end to end"), and those that supply what the steps speak:
#: the messages, the room's state, a connection's member, the store's changes and SQL.
ACTION_PATH = {"hub", "turns", "room_core", "writer"}
VOCABULARY = {"client_messages", "protocol", "rooms", "members", "store"}


def test_one_action_runs_through_the_modules_the_docs_name(tmp_path: Path) -> None:
    """A draw from the frame's text to its answer, every server function it calls recorded:
    the modules are the documented path's and the vocabulary's, no more."""
    ran: set[str] = set()

    def record(frame: FrameType, event: str, arg: Any) -> None:
        name = frame.f_globals.get("__name__", "")
        if event == "call" and name.startswith("tilerummy.server."):
            ran.add(name.removeprefix("tilerummy.server."))

    async def main() -> None:
        async with running_hub(tmp_path / "server.sqlite3") as hub:
            ana, bruno = await Player.hello(hub, "Ana"), await Player.hello(hub, "Bruno")
            joined = await ana.create([{"kind": "person"}, {"kind": "person"}], rules={"preset": "casual"})
            await bruno.join(joined["code"])
            started = await ana.request({"type": "start_game"})
            mover = ana if started["game"]["turn"] == ana.seat else bruno
            frame = json.dumps({"type": "draw", "id": "d", "seq": started["seq"]})
            sys.setprofile(record)
            try:
                await hub.receive(mover.member, frame)
            finally:
                sys.setprofile(None)
            answer = await mover.wait_for(lambda message: message.get("reply_to") == "d")
            assert answer["type"] == "game" and answer["game"]["moves"] == 1

    asyncio.run(main())
    assert ran - VOCABULARY == ACTION_PATH
    # connection.py reads the frame and sends the answers: five modules in all.
    assert len(ACTION_PATH | {"connection"}) <= 5
