"""The game record's JSON format as one strict pydantic model, and its JSON Schema.

The model checks the shape of a record: every field's type, the bounds of
every number (no NaN or Infinity), unknown fields refused. What needs the
rules (that the seats fit the tile set, that a deal is the whole set) is
checked when :class:`~tilerummy.records.GameRecord` is built from it. Errors
name the field at fault by its path, e.g. ``actions[3].at``.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from .errors import RecordError
from .rules import OPTION_HELP, OPTION_MAXIMUM, OPTION_MINIMUM, PRESETS, Rules
from .tiles import shorten

FORMAT = "tilerummy-record"
VERSION = 1

#: The most seats any tile set takes (the six-player set).
MAX_SEATS = 6
#: A seed is a 64-bit unsigned integer.
MAX_SEED = 2**64 - 1
#: Times are seconds on the clock the game used, from 0 (a monotonic or an epoch clock) to here.
MAX_SECONDS = 1e12
#: Longer than any name a client allows.
MAX_NAME_CHARS = 100
#: More actions than any round takes (a round ends once the pool is out and everyone has passed).
MAX_ACTIONS = 100_000
#: Longer than the notation of every tile of the largest set, with separators.
MAX_TILES_TEXT = 10_000

Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS, description="a seat, from 0")]
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, description="seconds on the clock the game used")]
TilesText = Annotated[str, Field(max_length=MAX_TILES_TEXT, description='tiles in notation, e.g. "R5 K13 J"')]


class _Strict(BaseModel):
    # Strict: no "5" for 5, no 1.0 for a seat, no true for 1, no NaN; unknown fields refused.
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class PlayModel(_Strict):
    """The player ends the turn with this table."""

    type: Literal["play"]
    seat: Seat
    table: Annotated[
        str, Field(max_length=MAX_TILES_TEXT, description='the whole table after the turn, "R5 R6 R7 | B10 Y10 K10"')
    ]
    at: Seconds | None = None


class DrawModel(_Strict):
    """The player draws one tile."""

    type: Literal["draw"]
    seat: Seat
    at: Seconds | None = None


class PassModel(_Strict):
    """The player passes (only when the pool is empty)."""

    type: Literal["pass"]
    seat: Seat
    at: Seconds | None = None


class TimeoutModel(_Strict):
    """The turn ran out of time: the player draws the penalty tiles."""

    type: Literal["timeout"]
    seat: Seat
    at: Seconds | None = None


ActionModel = Annotated[PlayModel | DrawModel | PassModel | TimeoutModel, Field(discriminator="type")]
ACTION_TYPES = ("play", "draw", "pass", "timeout")


class DealModel(_Strict):
    """A deal written out: the racks and the pool in draw order."""

    first: Seat = 0
    racks: Annotated[list[TilesText], Field(min_length=1, max_length=MAX_SEATS)]
    pool: TilesText


class FairnessModel(_Strict):
    """The deal's commitment (docs/fairness.md)."""

    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of '<seed>:<salt>', in hex")]
    salt: Annotated[str, Field(pattern=r"^[0-9a-f]{1,256}$", description="revealed when the game ends")] | None = None


def _option_type(name: str, hint: Any) -> Any:
    """The strict type of one rule option, with its documented bounds."""
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    base = next(arg for arg in typing.get_args(hint) if arg is not type(None)) if optional else hint
    kind: Any
    if isinstance(base, type) and issubclass(base, enum.Enum):
        # An enumerated option is written by its value; the model reads it as text.
        kind = Annotated[Literal[tuple(member.value for member in base)], Field(description=OPTION_HELP[name])]
    elif base is bool:
        kind = Annotated[bool, Field(description=OPTION_HELP[name])]
    elif base is int:
        bounds = Field(ge=OPTION_MINIMUM.get(name), le=OPTION_MAXIMUM.get(name), description=OPTION_HELP[name])
        kind = Annotated[int, bounds]
    else:
        kind = Annotated[float, Field(gt=0, le=OPTION_MAXIMUM.get(name), description=OPTION_HELP[name])]
    return kind | None if optional else kind


def _without_null_defaults(schema: dict[str, Any]) -> None:
    # An option left out takes its preset's value, not null: the schema shows no default for it.
    for option in schema.get("properties", {}).values():
        if "default" in option and option["default"] is None:
            del option["default"]


class _RulesBase(_Strict):
    model_config = ConfigDict(json_schema_extra=_without_null_defaults)


def _rules_model() -> type[BaseModel]:
    hints = typing.get_type_hints(Rules)
    fields: dict[str, Any] = {
        "preset": (
            Literal[tuple(PRESETS)],
            Field(default="standard", description="the preset the other options change"),
        )
    }
    for option in dataclasses.fields(Rules):
        # No default: an option left out takes the preset's value (see model_fields_set).
        fields[option.name] = (_option_type(option.name, hints[option.name]), Field(default=None))
    model: type[BaseModel] = create_model("RulesModel", __base__=_RulesBase, __doc__=_RULES_DOC, **fields)
    return model


_RULES_DOC = "The rule options by name (tilerummy rules --json); those left out take the preset's values."
RulesModel = _rules_model()


class RecordModel(_Strict):
    """A game record, version 1 (docs/record-format.md)."""

    model_config = ConfigDict(title="tilerummy game record")

    format: Literal["tilerummy-record"]
    version: Literal[1]
    rules: RulesModel  # type: ignore[valid-type]
    players: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]],
        Field(min_length=1, max_length=MAX_SEATS, description="the names in seat order"),
    ]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED, description="the deal comes from this seed")] | None = None
    deal: DealModel | None = None
    fairness: FairnessModel | None = None
    started_at: Seconds | None = None
    actions: Annotated[list[ActionModel], Field(max_length=MAX_ACTIONS)]
    result: dict[str, Any] | None = Field(
        default=None, description="the result as saved; a replay checks that its scores are the same"
    )

    @model_validator(mode="after")
    def _one_deal(self) -> RecordModel:
        if (self.seed is None) == (self.deal is None):
            raise ValueError("a record gives either a seed or a deal")
        if self.fairness is not None and self.seed is None:
            raise ValueError("fairness: a commitment goes with a seed, not with a deal written out")
        if len(set(self.players)) < len(self.players):
            raise ValueError("players: two players have the same name")
        return self


def validate_record(data: Any) -> RecordModel:
    """The record's shape checked.

    :raises RecordError: naming the field at fault and what is wrong with it.
    """
    try:
        return RecordModel.model_validate(data)
    except ValidationError as error:
        raise RecordError(describe_error(error)) from None
    except RecursionError:
        raise RecordError("not a record: nested too deeply") from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the record format."""
    schema = RecordModel.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def describe_error(error: ValidationError) -> str:
    """The first problem pydantic found, as one line naming the field: ``actions[3].at: expected ...``."""
    problem = error.errors(include_url=False)[0]
    location = list(problem["loc"])
    kind = problem["type"]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        location.append("type")
    # A discriminated union adds the action's type to the path: the reader knows it already.
    location = [
        part
        for index, part in enumerate(location)
        if not (part in ACTION_TYPES and index > 0 and isinstance(location[index - 1], int))
    ]
    if not location and kind == "model_type":
        return f"a record is a JSON object, not {_shown(problem.get('input'))}"
    if kind == "extra_forbidden":
        field = location.pop()
        return _at(location, f"unknown field {shorten(str(field))!r}")
    if location[:1] == ["rules"] and len(location) == 2:
        # As Rules words its own refusals: rules: wrap='yes': expected true or false.
        return f"rules: {location[1]}={_shown(problem.get('input'))}: {_reason(problem, quote_input=False)}"
    return _at(location, _reason(problem))


def _at(location: list[Any], reason: str) -> str:
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in location).lstrip(".")
    return f"{path}: {reason}" if path else reason


def _shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return "a huge number"
    try:
        return shorten(repr(value), 40)
    except RecursionError:
        return "a value nested too deeply"


def _items(count: object) -> str:
    return f"{count} item{'' if count == 1 else 's'}"


def _reason(problem: Any, *, quote_input: bool = True) -> str:
    kind, context = problem["type"], problem.get("ctx", {})
    given = f", got {_shown(problem['input'])}" if quote_input and "input" in problem and kind != "missing" else ""
    reasons = {
        "missing": "missing",
        "int_type": f"expected a whole number{given}",
        "float_type": f"expected a number{given}",
        "finite_number": "expected a finite number (not NaN or Infinity)",
        "string_type": f"expected a string{given}",
        "bool_type": f"expected true or false{given}",
        "list_type": f"expected a list{given}",
        "dict_type": f"expected an object{given}",
        "model_type": f"expected an object{given}",
        "model_attributes_type": f"expected an object{given}",
        "union_tag_invalid": f"expected one of {', '.join(ACTION_TYPES)}, got {_shown(context.get('tag'))}",
        "union_tag_not_found": f"expected one of {', '.join(ACTION_TYPES)}",
        "literal_error": f"expected {context.get('expected')}{given}",
        "greater_than_equal": f"expected {context.get('ge')} or more{given}",
        "greater_than": f"expected more than {context.get('gt')}{given}",
        "less_than_equal": f"expected at most {context.get('le')}{given}",
        "less_than": f"expected less than {context.get('lt')}{given}",
        "too_short": f"expected at least {_items(context.get('min_length'))}",
        "too_long": f"expected at most {_items(context.get('max_length'))}",
        "string_too_short": "expected a non-empty string",
        "string_too_long": f"expected at most {context.get('max_length')} characters",
        "string_pattern_mismatch": f"expected text matching {context.get('pattern')}{given}",
    }
    if kind in reasons:
        return reasons[kind]
    message = str(problem["msg"])
    return message.removeprefix("Value error, ")
