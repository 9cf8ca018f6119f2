"""The environments for learning agents: PettingZoo's and Gymnasium's own checks,
determinism, what an observation holds, masks and rewards."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from tilerummy import Game
from tilerummy.bots import EasyBot
from tilerummy.deal import Deal
from tilerummy.env import FACES, MAX_SEATS, OBSERVATION_LAYOUT, encode_observation, legal_plays, observation_size
from tilerummy.env.aec import TileRummyEnv, env, round_rewards
from tilerummy.env.single import ILLEGAL_REWARD, SingleSeatEnv
from tilerummy.rules import Rules
from tilerummy.scoring import RoundScore
from tilerummy.tiles import Tile, parse_tiles

# A dict observation holding the action mask is PettingZoo's own convention
# for masked actions; its checker still warns about it for other than its own games.
_DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@pytest.fixture
def dict_observations_allowed() -> Iterator[None]:
    with warnings.catch_warnings():
        for message in _DICT_OBSERVATION_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        yield


def play_first_open(environment: TileRummyEnv, seed: int) -> list[tuple[str, int]]:
    """Play a round taking the first open action each turn; the agents and actions in order."""
    environment.reset(seed=seed)
    taken = []
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(np.flatnonzero(observation["action_mask"])[0])
        taken.append((agent, action))
        environment.step(action)
    return taken


@pytest.mark.usefixtures("dict_observations_allowed")
@pytest.mark.parametrize(("players", "rules"), [(2, "standard"), (3, "casual"), (5, "six-player")])
def test_passes_pettingzoo_api_test(players: int, rules: str) -> None:
    api_test(env(players=players, rules=rules), num_cycles=10)


def test_single_seat_passes_gymnasium_check_env() -> None:
    check_env(SingleSeatEnv(("greedy",)), skip_render_check=True)


def test_seeded_reset_deals_and_plays_the_same_round() -> None:
    first, second = TileRummyEnv(players=3), TileRummyEnv(players=3)
    assert play_first_open(first, 11) == play_first_open(second, 11)
    assert first.game.actions == second.game.actions
    assert first.game.deal == second.game.deal
    second.reset(seed=12)
    assert second.game.deal != first.game.deal


def test_observation_layout_adds_up_to_the_vector() -> None:
    assert sum(length for _, length in OBSERVATION_LAYOUT) + 8 * len(FACES) == observation_size(8)
    assert dict(OBSERVATION_LAYOUT)["rack_sizes"] == MAX_SEATS


def test_observation_encodes_the_seats_own_view() -> None:
    environment = TileRummyEnv(players=3)
    environment.reset(seed=5)
    game = environment.game
    for seat, agent in enumerate(environment.possible_agents):
        vector = environment.observe(agent)["observation"]
        faces = len(FACES)
        rack = {FACES[index]: int(count) for index, count in enumerate(vector[:faces]) if count}
        expected: dict[Tile, int] = {}
        for tile in game.rack_tiles(seat):
            expected[tile] = expected.get(tile, 0) + 1
        assert rack == expected
        sizes = vector[2 * faces : 2 * faces + MAX_SEATS]
        assert list(sizes) == [
            len(game.rack(seat)),
            len(game.rack((seat + 1) % 3)),
            len(game.rack((seat + 2) % 3)),
            0,
            0,
            0,
        ]
        assert vector[2 * faces + 2 * MAX_SEATS] == game.pool_size
        assert vector[2 * faces + 2 * MAX_SEATS + 1] == 3


def test_observation_is_the_same_whatever_the_hidden_tiles() -> None:
    rules = Rules.preset("standard")
    own = parse_tiles("R1 R2 R3 B7 B8 B9 Y11 K11 B11 R13 K13 Y5 Y6 J")
    tiles = [piece.tile for piece in rules.tile_set.pieces()]
    for tile in own:
        tiles.remove(tile)
    # The same own rack; the opponent's rack and the pool dealt two ways.
    one = Deal.explicit(rules, [own, tiles[:14]], tiles[14:])
    other = Deal.explicit(rules, [own, tiles[-14:]], tiles[:-14])
    views = [Game(rules, deal).view(0) for deal in (one, other)]
    plays = [legal_plays(view) for view in views]
    assert [play.placed for play in plays[0]] == [play.placed for play in plays[1]]
    assert plays[0], "the rack opens with R1 R2 R3 and Y11 K11 B11"
    np.testing.assert_array_equal(encode_observation(views[0], plays[0]), encode_observation(views[1], plays[1]))


def test_mask_offers_the_plays_and_drawing_only_to_the_seat_to_move() -> None:
    environment = TileRummyEnv(players=2)
    environment.reset(seed=3)
    mover = environment.agent_selection
    waiting = next(agent for agent in environment.agents if agent != mover)
    mask = environment.observe(mover)["action_mask"]
    assert mask[-1] == 1
    assert mask[:-1].sum() == len(legal_plays(environment.game.view(environment.game.turn)))
    assert not environment.observe(waiting)["action_mask"].any()


def test_a_closed_action_is_refused_and_changes_nothing() -> None:
    environment = TileRummyEnv(players=2)
    environment.reset(seed=1)
    for _ in range(40):  # to a turn where some play slot is closed
        mask = environment.observe(environment.agent_selection)["action_mask"]
        if not mask.all():
            break
        environment.step(environment.plays)
    closed = int(np.flatnonzero(mask == 0)[0])
    before = environment.game.actions
    with pytest.raises(ValueError, match=f"action {closed} is not open"):
        environment.step(closed)
    assert environment.game.actions == before


def test_rewards_come_at_the_end_and_name_the_winner() -> None:
    environment = TileRummyEnv(players=3)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    environment.reset(seed=2)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    result = environment.game.result
    assert result is not None
    assert totals == {f"seat_{seat}": (1.0 if seat == result.winner else -1.0) for seat in range(3)}


def test_score_rewards_are_the_round_scores_in_hundreds() -> None:
    result = RoundScore(scores=(30, -10, -20), winner=0, values=(0, 10, 20), adjusted=(0, 10, 20), went_out=True)
    assert round_rewards(result, "score") == [0.3, -0.1, -0.2]
    assert round_rewards(result, "win") == [1.0, -1.0, -1.0]


def test_single_seat_plays_a_round_against_bots() -> None:
    single = SingleSeatEnv(("greedy", "easy"), rules="casual", seat=None)
    observation, _ = single.reset(seed=4)
    steps, reward, terminated = 0, 0.0, False
    while not terminated:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward_now, terminated, truncated, _ = single.step(action)
        reward = float(reward_now)
        assert not truncated
        steps += 1
    result = single.game.result
    assert result is not None
    assert reward == (1.0 if result.winner == single.seat else -1.0)
    assert steps > 0


def test_single_seat_ends_an_episode_on_a_closed_action() -> None:
    single = SingleSeatEnv(("greedy",))
    observation, _ = single.reset(seed=8)
    while observation["action_mask"].all():
        observation, _, _, _, _ = single.step(single.plays)
    closed = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = single.game.actions
    _, reward, terminated, _, info = single.step(closed)
    assert (reward, terminated, info) == (ILLEGAL_REWARD, True, {"illegal_action": True})
    assert single.game.actions == before


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="plays=0"):
        TileRummyEnv(plays=0)
    with pytest.raises(ValueError, match="seat=3"):
        SingleSeatEnv(("greedy",), seat=3)
    single = SingleSeatEnv(("greedy",))
    single.reset(seed=0)
    with pytest.raises(ValueError, match="outside the action space"):
        single.step(99)


def test_single_seat_takes_a_bot_of_ones_own_as_an_opponent() -> None:
    seeds: list[int] = []

    def own_easy(seed: int) -> EasyBot:
        seeds.append(seed)
        return EasyBot(seed)

    def play(opponent: str | Callable[[int], EasyBot]) -> list[object]:
        single = SingleSeatEnv((opponent,), seat=1)
        observation, _ = single.reset(seed=12)
        terminated = False
        while not terminated:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, _, terminated, _, _ = single.step(action)
        return list(single.game.actions)

    assert play(own_easy) == play("easy")
    # The seed a named level gets: the round's deal, plus the bot's seat (0 here).
    deal = int(seeding.np_random(12)[0].integers(2**63))
    assert seeds == [deal % 2**63]
    with pytest.raises(ValueError, match="opponent 7"):
        SingleSeatEnv((7,))  # type: ignore[arg-type]
