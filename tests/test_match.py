from __future__ import annotations

import pytest

from tilerummy import Game, IllegalAction, Match, Rules
from tilerummy.bots import SimpleBot


def finish(game: Game) -> None:
    bot = SimpleBot()
    while not game.is_over:
        game.apply(bot.choose(game.view(game.turn)))


def test_match_over_a_number_of_rounds() -> None:
    match = Match(["Ana", "Bruno"], Rules().replace(rounds=2), seed=9)
    with pytest.raises(IllegalAction, match="not over"):
        match.next_round()
    finish(match.current)
    assert not match.is_over
    second = match.next_round()
    assert second.deal != match.rounds[0].deal
    finish(second)
    standing = match.standing()
    assert standing.over
    assert standing.rounds_played == 2
    first_scores = match.rounds[0].result.scores if match.rounds[0].result else ()
    second_scores = second.result.scores if second.result else ()
    assert standing.totals == tuple(a + b for a, b in zip(first_scores, second_scores, strict=True))
    assert standing.winners == tuple(
        seat for seat, total in enumerate(standing.totals) if total == max(standing.totals)
    )
    with pytest.raises(IllegalAction, match="match is over"):
        match.next_round()


def test_match_to_a_target_score() -> None:
    match = Match(["Ana", "Bruno", "Carla"], Rules().replace(target_score=100), seed=4)
    while True:
        finish(match.current)
        if match.is_over:
            break
        match.next_round()
    standing = match.standing()
    assert max(standing.totals) >= 100
    assert sum(standing.totals) == 0


def test_match_is_deterministic() -> None:
    first = Match(["A", "B"], Rules().replace(rounds=3), seed=1)
    second = Match(["A", "B"], Rules().replace(rounds=3), seed=1)
    assert first.current.deal == second.current.deal
