"""``tilerummy score``: the scores of a finished round, from the racks left."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..errors import TilerummyError
from ..scoring import score_round
from ..tiles import parse_tiles, shorten
from ._common import rules_from

if TYPE_CHECKING:
    from ._common import Commands


def register(commands: Commands) -> None:
    score = commands.add_parser(
        "score",
        help="score a finished round from the racks left",
        description='Score a finished round. Give each rack in seat order; an empty rack (--rack "") '
        "is the player who went out; with no empty rack the pool ran out.",
    )
    score.add_argument("--rack", action="append", required=True, metavar="TILES", help="a rack, in seat order")
    score.add_argument(
        "--unmelded",
        action="append",
        default=[],
        metavar="SEAT:could|SEAT:never",
        help="a seat (from 0) that never made the initial meld, and whether its rack could have",
    )
    score.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (default standard)")
    score.add_argument("--joker-penalty", type=int, metavar="N", help="what a joker on a rack counts")
    score.add_argument(
        "--first", type=int, metavar="SEAT", help="who played first in the round (breaks ties; default 0)"
    )
    score.add_argument("--json", action="store_true", help="print JSON")
    score.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from(args.rules, joker_penalty=args.joker_penalty)
    racks = [parse_tiles(text) for text in args.rack]
    rules.check_players(len(racks))
    rules.tile_set.check([tile for rack in racks for tile in rack], "the racks")
    if args.first is not None and not 0 <= args.first < len(racks):
        raise TilerummyError(f"--first {args.first}: seats run from 0 to {len(racks) - 1}")
    unmelded: dict[int, bool] = {}
    for entry in args.unmelded:
        seat_text, _, could = entry.partition(":")
        if not (seat_text.isascii() and seat_text.isdigit()) or could not in ("could", "never"):
            raise TilerummyError(f"--unmelded {shorten(entry)!r}: write SEAT:could or SEAT:never (seats from 0)")
        # Past two digits it is no seat, and converting thousands of digits would fail.
        seat = int(seat_text) if len(seat_text) <= 2 else len(racks)
        if seat >= len(racks):
            raise TilerummyError(f"--unmelded {shorten(entry)}: seats run from 0 to {len(racks) - 1}")
        if unmelded.get(seat, could == "could") != (could == "could"):
            raise TilerummyError(f"--unmelded: seat {seat} is given both as could and as never")
        unmelded[seat] = could == "could"
    first = args.first or 0
    order = [(first + offset) % len(racks) for offset in range(len(racks))]
    result = score_round(racks, rules, unmelded=unmelded, turn_order=order)
    if args.json:
        print(json.dumps({"scores": list(result.scores), "winner": result.winner, "values": list(result.values)}))
        return 0
    if result.went_out:
        how = "went out"
    elif rules.unmelded_penalty and unmelded and len(unmelded) < len(racks):
        how = "has the lowest rack of those who made the initial meld (the pool ran out)"
    else:
        how = "has the lowest rack (the pool ran out)"
    print(f"Seat {result.winner} wins: {how}.")
    for seat, rack in enumerate(racks):
        note = ""
        if (
            seat in unmelded
            and rules.unmelded_penalty
            and result.adjusted[seat] in (100, 200)
            and seat != result.winner
        ):
            note = "  (no initial meld)"
        print(
            f"  seat {seat}: {' '.join(map(str, rack)) or '(empty)':<40} value {result.values[seat]:>4}  "
            f"score {result.scores[seat]:>+5}{note}"
        )
    return 0
