"""The brute-force reference itself, on positions worked out by hand."""

from __future__ import annotations

import pytest

from tilerummy import JokerReplacement, Rules, Table, parse_tiles
from tilerummy.legality import judge_play

from .solver_reference import reference_best, reference_play, sub_multisets

STANDARD = Rules()


def best(
    rack: str,
    table: str = "",
    *,
    melded: bool = True,
    objective: str = "tiles",
    rules: Rules = STANDARD,
) -> tuple[int, int] | None:
    return reference_best(
        parse_tiles(rack), Table.parse(table, wrap=rules.wrap), rules, initial_meld_done=melded, objective=objective
    )


@pytest.mark.parametrize(
    ("rack", "table", "melded", "objective", "expected"),
    [
        # A group of 10s is worth exactly 30: an initial meld.
        ("K10 B10 Y10", "", False, "tiles", (3, 30)),
        # 1-2-3 is worth 6: too little to open, fine once melded.
        ("R1 R2 R3", "", False, "tiles", None),
        ("R1 R2 R3", "", True, "tiles", (3, 6)),
        # A joker counts as the 10 it stands for towards 30, and 30 on the rack.
        ("K10 B10 J", "", False, "tiles", (3, 50)),
        # A new run beside the table's sets.
        ("K1 K2 K3", "R5 B5 Y5 J", True, "tiles", (3, 6)),
        ("R1 R2 R3", "K5 K6 K7 J", True, "tiles", (3, 6)),
        # K13 is in both sets: the three 13s (39) beat 11-12-13 (36).
        ("K11 K12 K13 B13 Y13", "", True, "value", (3, 39)),
        ("K11 K12 K13 B13 Y13", "", True, "tiles", (3, 39)),
        # The joker goes in 1-2-_-4 (four tiles) or with the two 13s (worth more).
        ("R1 R2 R4 J K13 B13", "", True, "tiles", (4, 37)),
        ("R1 R2 R4 J K13 B13", "", True, "value", (3, 56)),
        # K5 from the rack frees the table's joker (K5), which then joins B6 B7.
        ("K5 B6 B7", "R5 B5 Y5 J", True, "tiles", (3, 18)),
        # B5 leaves the group; the joker can still be K5 in R5 Y5 J, so it need not be replaced.
        ("B6 B7", "R5 B5 Y5 J", True, "tiles", (2, 13)),
        # The joker (R8) may join B8 Y8, where it can still be R8; not B9 Y9 without R8.
        ("B8 Y8", "R5 R6 R7 J", True, "tiles", (2, 16)),
        ("B9 Y9", "R5 R6 R7 J", True, "tiles", None),
        # A joker laid off on a run counts the joker penalty.
        ("J", "R5 R6 R7", True, "tiles", (1, 30)),
        # An initial meld leaves the table alone: R8 stays on the rack.
        ("R8 K10 B10 Y10", "R5 R6 R7", False, "tiles", (3, 30)),
        ("R8 K10 B10 Y10", "R5 R6 R7", True, "tiles", (4, 38)),
        # Nothing fits.
        ("R1 B3 Y5 K7", "R10 R11 R12", True, "tiles", None),
    ],
)
def test_hand_computed(rack: str, table: str, melded: bool, objective: str, expected: tuple[int, int] | None) -> None:
    assert best(rack, table, melded=melded, objective=objective) == expected


def test_rule_options() -> None:
    # free: the joker moves like any tile.
    assert best("B9 Y9", "R5 R6 R7 J", rules=Rules(joker_replacement=JokerReplacement.FREE)) == (2, 18)
    # rack_or_table: R8 from the rack frees the joker (R8), which joins B9 Y9.
    assert best("R8 B9 Y9", "R5 R6 R7 J", rules=Rules(joker_replacement=JokerReplacement.RACK_OR_TABLE)) == (3, 26)
    # rack_or_table: the R8 of a group of four may replace the joker (R8); not under rack.
    assert best("B9 Y9", "R5 R6 R7 J | R8 B8 Y8 K8", rules=Rules(joker_replacement=JokerReplacement.RACK_OR_TABLE)) == (
        2,
        18,
    )
    assert best("B9 Y9", "R5 R6 R7 J | R8 B8 Y8 K8") is None
    # initial_meld_lay_off: the first play may add R8 to the run on the table.
    assert best("R8 K10 B10 Y10", "R5 R6 R7", melded=False, rules=Rules(initial_meld_lay_off=True)) == (4, 38)
    # initial_meld_strict: 30 is not enough.
    assert best("K10 B10 Y10", melded=False, rules=Rules(initial_meld_strict=True)) is None
    # wrap: 12-13-1.
    assert best("R12 R13 R1") is None
    assert best("R12 R13 R1", rules=Rules(wrap=True)) == (3, 26)
    # joker_penalty sets what a joker removes from the rack.
    assert best("J", "R5 R6 R7", rules=Rules(joker_penalty=25)) == (1, 25)


def test_play_is_legal() -> None:
    rack = parse_tiles("R4 R8 B9 Y9 K1 J")
    table = Table.parse("R5 R6 R7 J | K10 B10 Y10")
    play = reference_play(rack, table, STANDARD, initial_meld_done=True, objective="tiles")
    assert play is not None
    placed, after = play
    judged = judge_play(table, after, rack, STANDARD, melded=True)
    assert sorted(judged.from_rack.elements()) == sorted(placed)
    # R8 frees the table's joker; both jokers are used, K1 stays on the rack.
    assert reference_best(rack, table, STANDARD, initial_meld_done=True, objective="tiles") == (5, 60)


def test_sub_multisets() -> None:
    parts = sub_multisets(parse_tiles("R5 R5 J"))
    assert len(parts) == 5  # R5, R5 R5, J, R5 J, R5 R5 J
    assert len(set(parts)) == len(parts)


def test_unknown_objective() -> None:
    with pytest.raises(ValueError, match="objective"):
        best("R1 R2 R3", objective="speed")
