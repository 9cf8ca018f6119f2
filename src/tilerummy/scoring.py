"""Rack values, round scores and match totals.

Decisions where the rules are silent:

* Pool exhausted with a tie for the lowest rack value: the tied player with
  fewer tiles wins; if still tied, the one who comes first in turn order
  (from the round's first player).
* With ``unmelded_penalty``, a player who never made the initial meld cannot
  win a round that ended on an empty pool; if nobody made it, the penalty is
  not applied and the round is scored on rack values alone.
* A match ending with several players sharing the highest total has several
  winners.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import TilerummyError
from .rules import Rules
from .tiles import Tile

#: Scores that replace a rack's value for a player who never melded.
UNMELDED_COULD = 200
UNMELDED_NEVER = 100


def rack_value(rack: Iterable[Tile], rules: Rules) -> int:
    """The sum of the numbers on a rack, a joker counting ``rules.joker_penalty``."""
    return sum(rules.joker_penalty if tile.is_joker else tile.number for tile in rack)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The outcome of one round.

    ``values`` are the rack values; ``adjusted`` what each player pays the
    winner (the winner's own entry is 0); ``scores`` sum to zero.
    """

    scores: tuple[int, ...]
    winner: int
    values: tuple[int, ...]
    adjusted: tuple[int, ...]
    went_out: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "scores": list(self.scores),
            "winner": self.winner,
            "values": list(self.values),
            "adjusted": list(self.adjusted),
            "went_out": self.went_out,
        }


def score_round(
    racks: Sequence[Sequence[Tile]],
    rules: Rules,
    *,
    unmelded: Mapping[int, bool] | None = None,
    turn_order: Sequence[int] | None = None,
) -> RoundScore:
    """Score a finished round from the racks left, in seat order.

    An empty rack is the player who went out; with none, the pool ran out.
    ``unmelded`` maps each seat that never made the initial meld to whether
    its rack held one at the start of one of its turns (for the -200 / -100
    rule). ``turn_order`` breaks ties on an empty pool (default: seat order).

    :raises TilerummyError: for fewer than two racks, several empty racks, or
        an unmelded seat that went out.
    """
    players = len(racks)
    if players < 2:
        raise TilerummyError("a round needs at least 2 racks")
    unmelded = dict(unmelded or {})
    for seat in unmelded:
        if not 0 <= seat < players:
            raise TilerummyError(f"seat {seat} is not in the round (seats 0 to {players - 1})")
    order = list(turn_order) if turn_order is not None else list(range(players))
    if sorted(order) != list(range(players)):
        raise TilerummyError("turn_order must list every seat once")
    values = tuple(rack_value(rack, rules) for rack in racks)
    empty = [seat for seat, rack in enumerate(racks) if not rack]
    if len(empty) > 1:
        raise TilerummyError(f"seats {', '.join(map(str, empty))} all have empty racks: only one player goes out")
    penalised = rules.unmelded_penalty
    if empty:
        winner = empty[0]
        if winner in unmelded:
            raise TilerummyError(f"seat {winner} went out, so it made the initial meld")
        owed = list(values)
    else:
        contenders = [seat for seat in range(players) if not (penalised and seat in unmelded)]
        if not contenders:
            contenders, penalised = list(range(players)), False
        winner = min(contenders, key=lambda seat: (values[seat], len(racks[seat]), order.index(seat)))
        owed = [value - values[winner] for value in values]
    adjusted = []
    for seat in range(players):
        if seat == winner:
            adjusted.append(0)
        elif penalised and seat in unmelded:
            adjusted.append(UNMELDED_COULD if unmelded[seat] else UNMELDED_NEVER)
        else:
            adjusted.append(owed[seat])
    scores = tuple(sum(adjusted) if seat == winner else -adjusted[seat] for seat in range(players))
    return RoundScore(scores, winner, values, tuple(adjusted), went_out=bool(empty))


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """Running totals after some rounds, and whether the match is over."""

    totals: tuple[int, ...]
    rounds_played: int
    over: bool
    winners: tuple[int, ...]


def match_standing(round_scores: Sequence[Sequence[int]], players: int, rules: Rules) -> MatchStanding:
    """Totals of the rounds so far; over at the target score or the round limit.

    With neither option set, a match is a single round.
    """
    totals = [0] * players
    for scores in round_scores:
        if len(scores) != players:
            raise TilerummyError(f"a round scored {len(scores)} players, the match has {players}")
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
    played = len(round_scores)
    if not rules.is_match:
        over = played >= 1
    else:
        reached = rules.target_score is not None and any(total >= rules.target_score for total in totals)
        limit = rules.rounds is not None and played >= rules.rounds
        over = reached or limit
    winners: tuple[int, ...] = ()
    if over:
        top = max(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == top)
    return MatchStanding(tuple(totals), played, over, winners)
