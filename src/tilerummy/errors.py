"""Exceptions raised by tilerummy.

Every error is a :class:`ValueError` whose message names the problem, so a
caller can show ``str(error)`` to a person as it is.
"""

from __future__ import annotations

import enum


class TilerummyError(ValueError):
    """Base class of every error tilerummy raises on bad input."""


class NotationError(TilerummyError):
    """Text that is not a tile, set or table in the notation."""


class InvalidMeld(TilerummyError):
    """Tiles that do not form a valid set (group or run)."""


class RulesError(TilerummyError):
    """Options that are out of range or cannot be combined."""


class RecordError(TilerummyError):
    """A game record that is malformed or does not match its rules."""


class Reason(enum.Enum):
    """Why the engine refused an action; the value is a stable machine name."""

    GAME_OVER = "game_over"
    ROUND_NOT_OVER = "round_not_over"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_SEAT = "unknown_seat"
    INVALID_SET = "invalid_set"
    NOT_IN_RACK = "not_in_rack"
    TABLE_TILE_REMOVED = "table_tile_removed"
    NOTHING_PLAYED = "nothing_played"
    INITIAL_MELD_TOO_LOW = "initial_meld_too_low"
    INITIAL_MELD_TOUCHES_TABLE = "initial_meld_touches_table"
    JOKER_NOT_REPLACED = "joker_not_replaced"
    POOL_EMPTY = "pool_empty"
    POOL_NOT_EMPTY = "pool_not_empty"
    NO_TIME_LIMIT = "no_time_limit"
    TIME_NOT_UP = "time_not_up"
    TIME_UP = "time_up"


class IllegalAction(TilerummyError):
    """An action the rules do not allow now; the game is left unchanged."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail

    def __repr__(self) -> str:
        return f"{type(self).__name__}(reason={self.reason}, detail={self.detail!r})"


class IllegalPlay(IllegalAction):
    """A table submitted at the end of a turn that breaks the rules."""


class NotYourTurn(IllegalAction):
    """An action from a seat whose turn it is not."""

    def __init__(self, detail: str) -> None:
        super().__init__(Reason.NOT_YOUR_TURN, detail)
