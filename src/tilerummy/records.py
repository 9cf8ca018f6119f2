"""Game records: the rules, the players, the deal and the actions, as JSON.

The format is documented in ``docs/record-format.md``. A record replays
exactly: the same record always gives the same game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .deal import Deal
from .errors import IllegalAction, NotationError, RecordError, RulesError, TilerummyError
from .fairness import Fairness
from .game import Action, Draw, Game, Pass, Play, Timeout
from .melds import Table
from .rules import Rules
from .tiles import format_tiles, parse_tiles

FORMAT = "tilerummy-record"
VERSION = 1


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
        """Read a record.

        :raises RecordError: naming the field at fault.
        """
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"version: this program reads version {VERSION}, got {data.get('version')!r}")
        known = {"format", "version", "rules", "players", "seed", "deal", "started_at", "actions", "result", "fairness"}
        if "result" in data and not isinstance(data["result"], dict):
            raise RecordError("result: expected an object")
        unknown = sorted(set(data) - known)
        if unknown:
            raise RecordError(f"unknown field {unknown[0]!r}")
        try:
            rules = Rules.from_dict(_expect(data, "rules", dict))
        except (RulesError, TypeError) as error:
            raise RecordError(f"rules: {error}") from None
        players = _expect(data, "players", list)
        if not all(isinstance(name, str) and name for name in players):
            raise RecordError("players: expected a list of names")
        if len(set(players)) < len(players):
            raise RecordError("players: two players have the same name")
        started_at = data.get("started_at")
        if started_at is not None and not _is_number(started_at):
            raise RecordError("started_at: expected a number of seconds")
        deal = _read_deal(data, rules, len(players))
        fairness = _read_fairness(data)
        if fairness is not None and deal.seed is None:
            raise RecordError("fairness: a commitment goes with a seed, not with a deal written out")
        raw_actions = _expect(data, "actions", list)
        actions = tuple(_read_action(index, raw, rules) for index, raw in enumerate(raw_actions))
        return cls(rules, tuple(players), deal, actions, started_at, fairness)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON: {error}") from None
        return cls.from_dict(data)

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


def _expect(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise RecordError(f"{key}: missing")
    value = data[key]
    if not isinstance(value, kind):
        raise RecordError(f"{key}: expected {'an object' if kind is dict else 'a list'}")
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _read_deal(data: Mapping[str, Any], rules: Rules, players: int) -> Deal:
    has_seed, has_deal = "seed" in data, "deal" in data
    if has_seed == has_deal:
        raise RecordError("a record gives either a seed or a deal")
    try:
        if has_seed:
            seed = data["seed"]
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise RecordError("seed: expected a whole number, 0 or more")
            return Deal.from_seed(rules, players, seed)
        deal = _expect(data, "deal", dict)
        extra = sorted(set(deal) - {"first", "racks", "pool"})
        if extra:
            raise RecordError(f"deal: unknown field {extra[0]!r}")
        racks = deal.get("racks")
        if not isinstance(racks, list) or not all(isinstance(rack, str) for rack in racks):
            raise RecordError("deal.racks: expected one string of tiles per player")
        if len(racks) != players:
            raise RecordError(f"deal.racks: {len(racks)} racks for {players} players")
        pool = deal.get("pool")
        if not isinstance(pool, str):
            raise RecordError("deal.pool: expected a string of tiles")
        first = deal.get("first", 0)
        if isinstance(first, bool) or not isinstance(first, int):
            raise RecordError("deal.first: expected a seat number")
        try:
            return Deal.explicit(rules, [parse_tiles(rack) for rack in racks], parse_tiles(pool), first)
        except NotationError as error:
            raise RecordError(f"deal: {error}") from None
    except RulesError as error:
        raise RecordError(f"players: {error}") from None


def _read_fairness(data: Mapping[str, Any]) -> Fairness | None:
    if "fairness" not in data:
        return None
    raw = _expect(data, "fairness", dict)
    extra = sorted(set(raw) - {"commitment", "salt"})
    if extra:
        raise RecordError(f"fairness: unknown field {extra[0]!r}")
    commitment, salt = raw.get("commitment"), raw.get("salt")
    if not isinstance(commitment, str):
        raise RecordError("fairness.commitment: expected a string of hex digits")
    if salt is not None and not isinstance(salt, str):
        raise RecordError("fairness.salt: expected a string of hex digits")
    return Fairness(commitment, salt)


_ACTION_TYPES = {"play": Play, "draw": Draw, "pass": Pass, "timeout": Timeout}


def _read_action(index: int, raw: Any, rules: Rules) -> Action:
    where = f"actions[{index}]"
    if not isinstance(raw, dict):
        raise RecordError(f"{where}: expected an object")
    kind = raw.get("type")
    if kind not in _ACTION_TYPES:
        raise RecordError(f"{where}.type: expected one of {', '.join(_ACTION_TYPES)}, got {kind!r}")
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RecordError(f"{where}.seat: expected a seat number")
    at = raw.get("at")
    if at is not None and not _is_number(at):
        raise RecordError(f"{where}.at: expected a number of seconds")
    extra = sorted(set(raw) - {"type", "seat", "at", "table"})
    if extra:
        raise RecordError(f"{where}: unknown field {extra[0]!r}")
    if kind == "play":
        text = raw.get("table")
        if not isinstance(text, str):
            raise RecordError(f"{where}.table: expected the table in notation")
        try:
            table: Table | str = Table.parse(text, wrap=rules.wrap)
        except TilerummyError:
            # Invalid sets are an illegal play, which the replay reports.
            table = text
        return Play(seat, table, at)
    if "table" in raw:
        raise RecordError(f"{where}: only a play has a table")
    cls = _ACTION_TYPES[kind]
    action: Action = cls(seat, at)
    return action


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action in the record format (``docs/record-format.md``)."""
    data: dict[str, Any] = {"seat": action.seat, "type": action.kind}
    if isinstance(action, Play):
        data["table"] = str(action.table)
    if action.at is not None:
        data["at"] = action.at
    return data
