"""Game.pop: taking back the last action leaves the game, and every view of it, as it was."""

from __future__ import annotations

import copy
import dataclasses
import enum
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tilerummy import Game, Rules
from tilerummy.bots import RandomBot, SimpleBot
from tilerummy.game import Action, Draw, Pass, Play, Timeout
from tilerummy.tiles import Tile

from .effort import examples
from .helpers import scenario

_FIXED = {"_before", "rules", "deal", "players", "started_at", "_pool_owner"}


def full_state(game: Game) -> object:
    """Everything an action could change, hidden or shown, and what each seat and a spectator see."""
    seats = range(len(game.players))
    return (
        [game.rack(seat) for seat in seats],
        game.table,
        game.table_pieces,
        game.pool,
        game.turn,
        game.actions,
        game.melded,
        game.could_meld,
        game.result,
        game.deadline,
        [game.view(seat) for seat in seats],
        game.spectator_view(),
        # And what no accessor shows (the counts behind the end of the round): every attribute
        # but the undo stack itself and what never changes.
        {name: _snapshot(value) for name, value in vars(game).items() if name not in _FIXED},
    )


def _snapshot(value: object) -> object:
    """``value`` as it is now: lists copied, what cannot change shared, anything else deep-copied.
    The same comparison as a deep copy of it all, without rebuilding a long game's every action
    and piece at every position."""
    if type(value) is list:
        return [_snapshot(item) for item in value]
    return value if _unchanging(value) else copy.deepcopy(value)


def _unchanging(value: object) -> bool:
    """Whether nothing reachable from ``value`` can change: numbers, strings, tiles, enums, and
    tuples and frozen dataclasses of such."""
    if value is None or isinstance(value, (int, float, str, Tile, enum.Enum)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(_unchanging(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return all(_unchanging(getattr(value, field.name)) for field in dataclasses.fields(value))
    return False


def check_pop_restores(game: Game, action: Action, before: object | None = None) -> object:
    """Apply, take back, compare, and apply again (so the game goes on); the state after it.

    ``before``, when the caller already holds it, is ``full_state(game)`` as it is now.
    """
    if before is None:
        before = full_state(game)
    game.apply(action)
    applied = game.actions[-1]
    assert game.pop() == applied
    assert full_state(game) == before
    game.apply(action)
    assert game.actions[-1] == applied
    return full_state(game)


def test_pop_after_each_kind_of_action() -> None:
    rules = Rules(turn_seconds=60, timeout_penalty=3)
    game = scenario(["R10 R11 R12 B1", "K1 K2"], rules=rules, pool_size=4)
    game = Game(game.rules, game.deal, game.players, started_at=0)
    check_pop_restores(game, Play(0, "R10 R11 R12", at=5))  # the initial meld
    check_pop_restores(game, Timeout(1, at=65))  # a penalty of three: one tile is left
    assert game.pool_size == 1
    check_pop_restores(game, Draw(0, at=70))  # the pool runs out
    assert game.pool_size == 0
    check_pop_restores(game, Pass(1, at=71))
    assert not game.is_over
    assert [action.kind for action in game.actions] == ["play", "timeout", "draw", "pass"]


def test_pop_after_the_play_that_ends_the_round() -> None:
    game = scenario(["R10 R11 R12", "K1 K2 K3 B9"])
    before = full_state(game)
    game.play(0, "R10 R11 R12")
    assert game.is_over and game.result is not None
    popped = game.pop()
    assert isinstance(popped, Play) and popped.seat == 0
    assert not game.is_over and full_state(game) == before
    game.draw(0)  # the taken-back turn may end differently
    assert game.turn == 1 and len(game.rack(0)) == 4


def test_pop_on_a_fresh_deal_is_refused_and_changes_nothing() -> None:
    game = Game.new(2, seed=4)
    before = full_state(game)
    with pytest.raises(IndexError, match="no action to take back"):
        game.pop()
    assert full_state(game) == before


def test_a_refused_action_leaves_nothing_to_pop() -> None:
    game = scenario(["R10 R11 R12 B1", "K1 K2"])
    game.draw(0)
    with pytest.raises(Exception, match="pool"):
        game.pass_turn(1)
    assert game.pop() == Draw(0)
    assert game.actions == ()


VARIANTS = {
    "clocked": Rules(turn_seconds=30, timeout_penalty=3),
    "house": Rules.preset("house"),
    "per-seat draws": Rules(turn_seconds=None).replace(pool_draws="per_seat"),
}


# Every variant at least once, with each number of players, whatever else is drawn.
@example(seed=7, variant="clocked", players=3)
@example(seed=11, variant="house", players=4)
@example(seed=13, variant="per-seat draws", players=2)
@settings(max_examples=examples(3), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(VARIANTS)), st.integers(2, 4))
def test_pop_restores_every_position_of_random_games(seed: int, variant: str, players: int) -> None:
    rules = VARIANTS[variant]
    clocked = rules.turn_seconds is not None
    game = Game.new(players, rules=rules, seed=seed, started_at=0.0 if clocked else None)
    bots = [RandomBot(seed + seat) if seat % 2 else SimpleBot() for seat in range(players)]
    rng = random.Random(seed)
    positions = [full_state(game)]
    while not game.is_over:
        seat = game.turn
        action: Action = bots[seat].choose(game.view(seat))
        if clocked:
            deadline = game.deadline
            assert deadline is not None
            # Now and then the clock runs out; otherwise the bot answers within its turn.
            action = Timeout(seat, deadline) if rng.random() < 0.2 else _at(action, deadline - rng.uniform(0.5, 29.5))
        positions.append(check_pop_restores(game, action, positions[-1]))
        assert len(game.actions) < 2000
    # Back from the end of the round to the deal, position by position.
    for position in reversed(positions[:-1]):
        game.pop()
        assert full_state(game) == position
    assert game.actions == ()


def _at(action: Action, at: float) -> Action:
    if isinstance(action, Play):
        return Play(action.seat, action.table, at)
    return Draw(action.seat, at) if isinstance(action, Draw) else Pass(action.seat, at)


def test_a_limited_undo_takes_back_the_last_actions_and_says_when_it_can_go_no_further() -> None:
    game = Game.new(2, seed=11)
    dealt = full_state(game)
    game.apply(Draw(game.turn))
    game.limit_undo(1)
    after_one = full_state(game)
    game.apply(Draw(game.turn))
    game.pop()
    assert full_state(game) == after_one
    with pytest.raises(IndexError, match="only the last 1 actions"):
        game.pop()
    assert full_state(game) == after_one
    game.limit_undo(3)
    game.apply(Draw(game.turn))
    game.apply(Draw(game.turn))
    game.pop()
    game.pop()
    assert full_state(game) == after_one
    # What was forgotten stays forgotten: the deal itself is out of reach.
    with pytest.raises(IndexError, match="only the last 3 actions"):
        game.pop()
    assert full_state(game) != dealt
    with pytest.raises(ValueError, match="1 or more"):
        game.limit_undo(0)
