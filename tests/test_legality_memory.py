"""Legal plays judged before are remembered, and a remembered verdict is the one a new judgment gives."""

from __future__ import annotations

import pytest

from tilerummy.errors import IllegalPlay, Reason
from tilerummy.legality import _judge_play, judge_play
from tilerummy.melds import Table
from tilerummy.rules import Rules
from tilerummy.tiles import parse_tiles


def test_a_play_judged_again_gets_the_same_verdict_and_its_own_counts() -> None:
    rules = Rules()
    before = Table.parse("R5 R6 R7 | B10 Y10 K10")
    after = Table.parse("R4 R5 R6 R7 R8 | B10 Y10 K10 R10")
    rack = parse_tiles("R4 R8 R10 K1")
    first = judge_play(before, after, rack, rules, melded=True)
    again = judge_play(Table.parse(str(before)), Table.parse(str(after)), rack, rules, melded=True)
    assert again == first == _judge_play(before, after, rack, rules, melded=True)
    again.from_rack.clear()  # each verdict's counts are its own
    assert judge_play(before, after, rack, rules, melded=True).from_rack == first.from_rack


def test_a_remembered_play_is_refused_to_a_rack_without_its_tiles_as_a_new_judgment_would() -> None:
    rules = Rules()
    before = Table.parse("R5 R6 R7")
    after = Table.parse("R5 R6 R7 R8")
    judge_play(before, after, parse_tiles("R8"), rules, melded=True)
    with pytest.raises(IllegalPlay) as fresh:
        _judge_play(before, after, parse_tiles("B8"), rules, melded=True)
    with pytest.raises(IllegalPlay) as remembered:
        judge_play(before, after, parse_tiles("B8"), rules, melded=True)
    assert remembered.value.reason is fresh.value.reason is Reason.NOT_IN_RACK
    assert str(remembered.value) == str(fresh.value)


def test_an_illegal_play_is_refused_every_time() -> None:
    rules = Rules()
    before = Table()
    after = Table.parse("R1 R2 R3")
    for _ in range(2):
        with pytest.raises(IllegalPlay) as refused:
            judge_play(before, after, parse_tiles("R1 R2 R3"), rules, melded=False)
        assert refused.value.reason is Reason.INITIAL_MELD_TOO_LOW
