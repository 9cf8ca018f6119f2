"""Post-game analysis: for every turn, what was played against the most that could have been.

Each turn of a record is replayed, and before it the solver is asked for the
most rack tiles the player to move could have placed then, under that turn's
rules: the best initial meld while the player has not made one, any play
otherwise. A turn's *missed tiles* are that best less what was placed (a
draw, a pass or a timeout places none). The summary per player adds them up.

>>> from tilerummy import Game, GameRecord
>>> game = Game.new(["Ana", "Bruno"], rules="casual", seed=3)
>>> game.draw(game.turn)
>>> report = analyse(GameRecord.from_game(game))
>>> turn = report.turns[0]
>>> (turn.action, turn.placed, turn.best >= 0)
('draw', 0, True)

"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction, RecordError
from .game import Action, Game
from .melds import Table
from .records import GameRecord
from .solver import Solution, solve
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn: who moved, what they did, and the best they could have done."""

    index: int  # the action's index in the record
    seat: int
    action: str  # "play", "draw", "pass" or "timeout"
    placed: int  # rack tiles placed on this turn
    best: int  # the most rack tiles that could have been placed
    best_play: Solution | None  # one such play (fewest sets changed); None when nothing could be placed
    initial_meld: bool  # the turn was still looking for its initial meld
    rack: int = 0  # tiles in the rack as the turn began

    @property
    def missed(self) -> int:
        return self.best - self.placed

    @property
    def missed_go_out(self) -> bool:
        """The whole rack could have been placed (the player could have gone out), and was not."""
        return self.rack > 0 and self.best == self.rack and self.placed < self.best

    def to_dict(self) -> dict[str, Any]:
        best_play = self.best_play
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "placed": self.placed,
            "best": self.best,
            "best_play": str(best_play.table) if best_play is not None else None,
            "best_placed": [str(tile) for tile in best_play.placed] if best_play is not None else [],
            "best_steps": list(best_play.steps) if best_play is not None else [],
            "initial_meld": self.initial_meld,
            "rack": self.rack,
            "missed_go_out": self.missed_go_out,
        }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's turns added up."""

    seat: int
    name: str
    turns: int
    missed_tiles: int  # the sum over the player's turns of best less placed
    turns_with_better_play: int
    placed: int = 0  # rack tiles placed over the game
    best: int = 0  # the sum over the player's turns of the most that could have been placed
    missed_go_outs: int = 0  # turns that could have placed the whole rack and did not

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "turns": self.turns,
            "missed_tiles": self.missed_tiles,
            "turns_with_better_play": self.turns_with_better_play,
            "placed": self.placed,
            "best": self.best,
            "missed_go_outs": self.missed_go_outs,
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    turns: tuple[TurnAnalysis, ...]
    players: tuple[PlayerSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "turns": [turn.to_dict() for turn in self.turns],
            "players": [player.to_dict() for player in self.players],
        }


def analyse(
    record: GameRecord,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse every turn of a record (``progress(done, total)`` is called after each).

    :raises RecordError: when the record holds an illegal action (its index and reason).
    """
    game = record.new_game()
    total = len(record.actions)
    turns: list[TurnAnalysis] = []
    for index, action in enumerate(record.actions):
        seat = action.seat
        if game.is_over or not 0 <= seat < len(game.players):
            raise RecordError(f"actions[{index}]: no turn to analyse (the round is over or the seat is unknown)")
        rack = game.rack_tiles(seat)
        melded = game.melded[seat]
        best_play = _best_play(rack, game.table, record, melded)
        replay_error = _apply(game, action)
        if replay_error is not None:
            raise RecordError(f"actions[{index}]: {replay_error}")
        placed = max(len(rack) - len(game.rack(seat)), 0) if action.kind == "play" else 0
        best = best_play.tiles_placed if best_play is not None else 0
        turns.append(TurnAnalysis(index, seat, action.kind, placed, best, best_play, not melded, len(rack)))
        if progress is not None:
            progress(index + 1, total)
    return GameAnalysis(tuple(turns), _summaries(record, turns))


def _best_play(rack: list[Tile], table: Table, record: GameRecord, melded: bool) -> Solution | None:
    if not rack:
        return None
    return solve(rack, table, rules=record.rules, initial_meld_done=melded)


def _apply(game: Game, action: Action) -> str | None:
    try:
        game.apply(action)
    except IllegalAction as error:
        return str(error)
    return None


def _summaries(record: GameRecord, turns: list[TurnAnalysis]) -> tuple[PlayerSummary, ...]:
    summaries = []
    for seat, name in enumerate(record.players):
        own = [turn for turn in turns if turn.seat == seat]
        summaries.append(
            PlayerSummary(
                seat=seat,
                name=name,
                turns=len(own),
                missed_tiles=sum(turn.missed for turn in own),
                turns_with_better_play=sum(1 for turn in own if turn.missed > 0),
                placed=sum(turn.placed for turn in own),
                best=sum(turn.best for turn in own),
                missed_go_outs=sum(1 for turn in own if turn.missed_go_out),
            )
        )
    return tuple(summaries)
