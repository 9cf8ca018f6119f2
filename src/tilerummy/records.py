"""Game records: the rules, the players, the deal and the actions, as JSON.

The format is documented in ``docs/record-format.md``. A record replays
exactly: the same record always gives the same game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from .deal import Deal
from .errors import IllegalAction, NotationError, RecordError, RulesError, TilerummyError
from .fairness import Fairness
from .game import Action, Draw, Game, Pass, Play, Timeout
from .melds import Table
from .record_model import FORMAT as FORMAT
from .record_model import VERSION as VERSION
from .record_model import ActionModel, PlayModel, RecordModel, validate_record
from .rules import Rules
from .tiles import format_tiles, parse_tiles


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a round."""

    rules: Rules
    players: tuple[str, ...]
    deal: Deal
    actions: tuple[Action, ...]
    started_at: float | None = None
    fairness: Fairness | None = None  # the deal's commitment (docs/fairness.md), with a seed

    @classmethod
    def from_game(cls, game: Game, *, fairness: Fairness | None = None) -> GameRecord:
        return cls(game.rules, game.players, game.deal, game.actions, game.started_at, fairness)

    def to_dict(self, *, result: Mapping[str, Any] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
        }
        if self.deal.seed is not None:
            data["seed"] = self.deal.seed
            if self.fairness is not None:
                data["fairness"] = self.fairness.to_dict()
        else:
            data["deal"] = {
                "first": self.deal.first,
                "racks": [format_tiles(piece.tile for piece in rack) for rack in self.deal.racks],
                "pool": format_tiles(piece.tile for piece in self.deal.pool),
            }
        if self.started_at is not None:
            data["started_at"] = self.started_at
        data["actions"] = [action_to_dict(action) for action in self.actions]
        if result is not None:
            data["result"] = dict(result)
        return data

    def to_json(self, *, result: Mapping[str, Any] | None = None) -> str:
        return json.dumps(self.to_dict(result=result), indent=1, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record (its shape is :class:`~tilerummy.record_model.RecordModel`).

        :raises RecordError: naming the field at fault.
        """
        model = validate_record(data)
        try:
            # Options left out take the preset's values, so only those written are passed on.
            rules = Rules.from_dict(cast(BaseModel, model.rules).model_dump(exclude_unset=True))
        except RulesError as error:
            raise RecordError(f"rules: {error}") from None
        deal = _read_deal(model, rules)
        fairness = Fairness(model.fairness.commitment, model.fairness.salt) if model.fairness is not None else None
        actions = tuple(_read_action(action, rules) for action in model.actions)
        return cls(rules, tuple(model.players), deal, actions, model.started_at, fairness)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls.from_dict(read_json(text))

    def new_game(self) -> Game:
        """The game before any action."""
        return Game(self.rules, self.deal, self.players, started_at=self.started_at)

    def replay(self) -> Replay:
        """Apply the actions in order, stopping at the first illegal one."""
        game = self.new_game()
        for index, action in enumerate(self.actions):
            try:
                game.apply(action)
            except IllegalAction as error:
                return Replay(game, index, error)
        return Replay(game, None, None)


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the game as far as it went and the first illegal
    action, if any (its index in the record and the error)."""

    game: Game
    error_index: int | None
    error: IllegalAction | None

    @property
    def ok(self) -> bool:
        return self.error is None


def read_json(text: str) -> Any:
    """Strict JSON: no NaN or Infinity (no clock reads them), and numbers of a sane length.

    :raises RecordError: naming what is not JSON.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("not a record: nested too deeply") from None
    except ValueError as error:
        # Python refuses to convert integers of thousands of digits.
        raise RecordError(f"not a record: {str(error).split(';')[0]}") from None


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold (JSON has no {name})")


def _read_deal(model: RecordModel, rules: Rules) -> Deal:
    try:
        if model.seed is not None:
            return Deal.from_seed(rules, len(model.players), model.seed)
        assert model.deal is not None  # the model holds a seed or a deal
        racks = model.deal.racks
        if len(racks) != len(model.players):
            raise RecordError(f"deal.racks: {len(racks)} racks for {len(model.players)} players")
        try:
            tiles = [parse_tiles(rack) for rack in racks]
            return Deal.explicit(rules, tiles, parse_tiles(model.deal.pool), model.deal.first)
        except NotationError as error:
            raise RecordError(f"deal: {error}") from None
    except RulesError as error:
        raise RecordError(f"players: {error}") from None


def _read_action(model: ActionModel, rules: Rules) -> Action:
    if isinstance(model, PlayModel):
        try:
            table: Table | str = Table.parse(model.table, wrap=rules.wrap)
        except TilerummyError:
            # Invalid sets are an illegal play, which the replay reports.
            table = model.table
        return Play(model.seat, table, model.at)
    kinds: dict[str, type[Draw | Pass | Timeout]] = {"draw": Draw, "pass": Pass, "timeout": Timeout}
    return kinds[model.type](model.seat, model.at)


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action in the record format (``docs/record-format.md``)."""
    data: dict[str, Any] = {"seat": action.seat, "type": action.kind}
    if isinstance(action, Play):
        data["table"] = str(action.table)
    if action.at is not None:
        data["at"] = action.at
    return data
