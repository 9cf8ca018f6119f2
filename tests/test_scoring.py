from __future__ import annotations

import pytest

from tilerummy import Rules, TilerummyError, match_standing, parse_tiles, rack_value, score_round


def racks(*texts: str) -> list[list[object]]:
    return [parse_tiles(text) for text in texts]  # type: ignore[misc]


def test_rack_value_counts_jokers_at_the_penalty() -> None:
    assert rack_value(parse_tiles("J R5"), Rules()) == 35
    assert rack_value(parse_tiles("J R5"), Rules(joker_penalty=25)) == 30


def test_online_rules_pool_exhausted_example() -> None:
    result = score_round([parse_tiles(t) for t in ("R6", "B1 B2 Y2 K7", "J R5", "Y9 K10")], Rules())
    assert result.values == (6, 12, 35, 19)
    assert result.adjusted == (0, 6, 29, 13)
    assert result.scores == (48, -6, -29, -13)
    assert result.winner == 0
    assert not result.went_out


def test_going_out() -> None:
    result = score_round([parse_tiles(t) for t in ("B1 B2", "", "J K13")], Rules())
    assert result.winner == 1
    assert result.went_out
    assert result.scores == (-3, 46, -43)
    assert sum(result.scores) == 0


def test_joker_penalty_option() -> None:
    result = score_round([parse_tiles(t) for t in ("", "J")], Rules(joker_penalty=25))
    assert result.scores == (25, -25)


def test_unmelded_200_and_100_replace_the_rack_score() -> None:
    result = score_round(
        [parse_tiles(t) for t in ("", "R1", "K13 K12", "B2")],
        Rules(),
        unmelded={2: True, 3: False},
    )
    assert result.scores == (301, -1, -200, -100)


def test_unmelded_cannot_win_an_exhausted_pool() -> None:
    result = score_round([parse_tiles(t) for t in ("R1", "K13", "K12")], Rules(), unmelded={0: False})
    assert result.winner == 2
    assert result.scores == (-100, -1, 101)


def test_nobody_melded_scores_on_racks_alone() -> None:
    result = score_round([parse_tiles(t) for t in ("R1", "K13")], Rules(), unmelded={0: True, 1: False})
    assert result.scores == (12, -12)


def test_unmelded_penalty_off() -> None:
    result = score_round([parse_tiles(t) for t in ("", "K13")], Rules(unmelded_penalty=False), unmelded={1: True})
    assert result.scores == (13, -13)


def test_ties_on_an_exhausted_pool() -> None:
    # Equal values: fewer tiles wins.
    result = score_round([parse_tiles(t) for t in ("R2 R3", "R5", "K9")], Rules())
    assert result.winner == 1
    # Equal values and tiles: first in turn order.
    result = score_round([parse_tiles(t) for t in ("R5", "B5", "K9")], Rules(), turn_order=[1, 2, 0])
    assert result.winner == 1


def test_bad_rounds_are_refused() -> None:
    with pytest.raises(TilerummyError, match="only one player goes out"):
        score_round([[], []], Rules())
    with pytest.raises(TilerummyError, match="at least 2"):
        score_round([parse_tiles("R1")], Rules())
    with pytest.raises(TilerummyError, match="seat 5"):
        score_round([parse_tiles("R1"), []], Rules(), unmelded={5: True})
    with pytest.raises(TilerummyError, match="went out"):
        score_round([parse_tiles("R1"), []], Rules(), unmelded={1: True})


def test_match_ends_at_target_or_round_limit() -> None:
    rules = Rules(target_score=100)
    standing = match_standing([(60, -60), (50, -50)], 2, rules)
    assert standing.over
    assert standing.totals == (110, -110)
    assert standing.winners == (0,)
    assert not match_standing([(60, -60)], 2, rules).over
    rounds = Rules(rounds=2)
    assert not match_standing([(10, -10)], 2, rounds).over
    tied = match_standing([(10, -10), (-10, 10)], 2, rounds)
    assert tied.over
    assert tied.winners == (0, 1)
    assert match_standing([(5, -5)], 2, Rules()).over
