"""``tilerummy replay``: validate a game record and play it again."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..console import count, verb
from ..errors import TilerummyError
from ..game import Game
from ..record_model import json_schema
from ._common import read_record_and_result

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    replay = commands.add_parser("replay", help="validate and replay a game record")
    replay.add_argument("record", nargs="?", metavar="RECORD.json")
    replay.add_argument("--json", action="store_true", help="print JSON")
    replay.add_argument("--schema", action="store_true", help="print the record format's JSON Schema and exit")
    replay.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.schema:
        print(json.dumps(json_schema(), indent=1))
        return 0
    if args.record is None:
        raise TilerummyError("name the record to replay: tilerummy replay RECORD.json")
    record, stored = read_record_and_result(args.record)
    replay = record.replay()
    game = replay.game
    result = game.result.to_dict() if game.result is not None else None
    # A stored result must be the replay's: same scores, and the round over.
    mismatch = stored is not None and (result is None or stored.get("scores") != result["scores"])
    if args.json:
        print(
            json.dumps(
                {
                    "ok": replay.ok and not mismatch,
                    "actions": len(record.actions),
                    "applied": len(game.actions),
                    "error": None
                    if replay.error is None
                    else {
                        "index": replay.error_index,
                        "reason": replay.error.reason.value,
                        "detail": replay.error.detail,
                    },
                    "result": result,
                    "result_matches_record": None if stored is None else not mismatch,
                    "table": str(game.table),
                    "racks": [" ".join(map(str, game.rack_tiles(seat))) for seat in range(len(game.players))],
                    "pool_size": game.pool_size,
                    "turn": game.turn,
                    "over": game.is_over,
                },
                ensure_ascii=False,
            )
        )
    else:
        applied = f"{len(game.actions)} of {count(len(record.actions), 'action')}"
        print(f"{', '.join(game.players)}; {applied} applied.")
        if replay.error is not None and replay.error_index is not None:
            action = record.actions[replay.error_index]
            print(
                f"Action {replay.error_index} ({action.kind} by seat {action.seat}) is illegal: "
                f"{replay.error.reason.value}: {replay.error.detail}"
            )
        print(f"Table: {game.table or '(empty)'}")
        for seat, name in enumerate(game.players):
            print(f"  {name}: {count(len(game.rack(seat)), 'tile')}")
        if game.result is not None:
            print(f"Round over: {_scores_line(game)}")
            if stored is not None and mismatch:
                print(f"The record's stored scores {stored.get('scores')} differ from the replay's.")
        elif replay.ok:
            name = game.players[game.turn]
            print(f"The round is not over: {name} {verb(name, 'is', 'are')} to play; the pool holds {game.pool_size}.")
            if mismatch:
                print("The record stores a result, but its actions do not finish the round.")
    return 0 if replay.ok and not mismatch else 1


def _scores_line(game: Game) -> str:
    assert game.result is not None
    return ", ".join(f"{name} {score:+d}" for name, score in zip(game.players, game.result.scores, strict=True))
