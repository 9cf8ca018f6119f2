"""Every rule option of the game in one immutable object, and named presets.

>>> Rules().initial_meld_points
30
>>> Rules.preset("six-player").tile_set
<TileSet.SIX_PLAYER: 'six-player'>
>>> Rules(wrap=True, joker_penalty=25).wrap
True
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .tiles import TileSet

RACK_SIZE = 14
MIN_PLAYERS = 2

#: The smallest value each whole-number option takes (``turn_seconds`` is any number above 0).
OPTION_MINIMUM: dict[str, int] = {
    "initial_meld_points": 0,
    "timeout_penalty": 0,
    "joker_penalty": 0,
    "target_score": 1,
    "rounds": 1,
}

#: The largest value each numeric option takes: far past any game played, and
#: small enough that a typing mistake (or a hostile record) is refused rather
#: than played.
OPTION_MAXIMUM: dict[str, int] = {
    "initial_meld_points": 1000,
    "timeout_penalty": 160,
    "joker_penalty": 1000,
    "turn_seconds": 86_400,
    "target_score": 1_000_000,
    "rounds": 1000,
}


class JokerReplacement(enum.Enum):
    """Where the tile that frees a joker from the table may come from."""

    RACK = "rack"
    RACK_OR_TABLE = "rack_or_table"
    FREE = "free"


class PoolExhausted(enum.Enum):
    """How a round ends once the pool is empty and nobody has gone out."""

    ONE_MORE_ROUND = "one_more_round"
    UNTIL_BLOCKED = "until_blocked"


class FirstPlayer(enum.Enum):
    DRAW = "draw"
    RANDOM = "random"


class PoolDraws(enum.Enum):
    """Which pool tile a draw takes."""

    SHARED = "shared"  # the top of one pool, whoever draws
    PER_SEAT = "per_seat"  # each seat's own share of the pool, in a fixed order


class Display(enum.Enum):
    TILES = "tiles"
    CARDS = "cards"


_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "tile_set": TileSet,
    "joker_replacement": JokerReplacement,
    "pool_exhausted": PoolExhausted,
    "first_player": FirstPlayer,
    "pool_draws": PoolDraws,
    "display": Display,
}

#: One line per option, for ``tilerummy rules`` and the docs.
OPTION_HELP: dict[str, str] = {
    "tile_set": "standard (106 tiles, 2-4 players) or six-player (160 tiles, 2-6 players)",
    "initial_meld_points": "points the first play must be worth",
    "initial_meld_strict": "the first play must be worth more than the points, not just as many",
    "initial_meld_lay_off": "the first play may also add rack tiles to sets on the table",
    "wrap": "a 1 may follow 13 at the end of a run (12 13 1)",
    "joker_replacement": "where the tile freeing a table joker comes from: rack, rack_or_table or free",
    "turn_seconds": "seconds a turn lasts, or none",
    "timeout_penalty": "tiles drawn when a turn runs out of time",
    "pool_exhausted": "once the pool is empty: one_more_round, or until_blocked",
    "joker_penalty": "what a joker left on a rack counts",
    "unmelded_penalty": "-200 / -100 for ending a round without the initial meld",
    "first_player": "who starts: draw (highest tile) or random",
    "redraw_duplicates": "a starting rack with two identical tiles swaps one until none is left",
    "pool_draws": "shared (the top of the pool), or per_seat (each seat draws its own share of the pool in order)",
    "target_score": "a match ends when a player reaches this total (none: not used)",
    "rounds": "a match ends after this many rounds (none: not used)",
    "display": "tiles, or cards (A, 2-10, J, Q, K; suits for colours)",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one game; docs/rules.md explains each.

    Strings are accepted for the enumerated options
    (``Rules(joker_replacement="free")``).

    :raises RulesError: when an option is out of range.
    """

    tile_set: TileSet = TileSet.STANDARD
    initial_meld_points: int = 30
    initial_meld_strict: bool = False
    initial_meld_lay_off: bool = False
    wrap: bool = False
    joker_replacement: JokerReplacement = JokerReplacement.RACK
    turn_seconds: float | None = 120
    timeout_penalty: int = 3
    pool_exhausted: PoolExhausted = PoolExhausted.ONE_MORE_ROUND
    joker_penalty: int = 30
    unmelded_penalty: bool = True
    first_player: FirstPlayer = FirstPlayer.DRAW
    redraw_duplicates: bool = False
    pool_draws: PoolDraws = PoolDraws.SHARED
    target_score: int | None = None
    rounds: int | None = None
    display: Display = Display.TILES

    def __post_init__(self) -> None:
        for name, kind in _ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    object.__setattr__(self, name, kind(value))
                except ValueError:
                    choices = ", ".join(str(member.value) for member in kind)
                    raise RulesError(f"{name}={value!r}: expected one of {choices}") from None
        for name in ("initial_meld_strict", "initial_meld_lay_off", "wrap", "unmelded_penalty", "redraw_duplicates"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name}={getattr(self, name)!r}: expected true or false")
        _check_int("initial_meld_points", self.initial_meld_points)
        _check_int("timeout_penalty", self.timeout_penalty)
        _check_int("joker_penalty", self.joker_penalty)
        if self.turn_seconds is not None:
            if isinstance(self.turn_seconds, bool) or not isinstance(self.turn_seconds, int | float):
                raise RulesError(f"turn_seconds={self.turn_seconds!r}: expected a number of seconds or none")
            if not 0 < self.turn_seconds < math.inf:
                raise RulesError(f"turn_seconds={self.turn_seconds!r}: must be more than 0, or none")
            if self.turn_seconds > OPTION_MAXIMUM["turn_seconds"]:
                raise RulesError(
                    f"turn_seconds={self.turn_seconds!r}: must be at most {OPTION_MAXIMUM['turn_seconds']}"
                )
        if self.target_score is not None:
            _check_int("target_score", self.target_score)
        if self.rounds is not None:
            _check_int("rounds", self.rounds)

    @classmethod
    def preset(cls, name: str, **options: Any) -> Rules:
        """A named preset, with any options changed.

        :raises RulesError: for an unknown preset or option.
        """
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {name!r} (presets: {', '.join(PRESETS)})") from None
        return base.replace(**options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed.

        :raises RulesError: for an unknown option or a bad value.
        """
        unknown = sorted(set(options) - set(OPTION_HELP))
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r} (options: {', '.join(OPTION_HELP)})")
        return dataclasses.replace(self, **options)

    @property
    def max_players(self) -> int:
        return self.tile_set.max_players

    @property
    def meld_threshold(self) -> int:
        """The least value an initial meld may have."""
        return self.initial_meld_points + (1 if self.initial_meld_strict else 0)

    @property
    def is_match(self) -> bool:
        return self.target_score is not None or self.rounds is not None

    def check_players(self, players: int) -> None:
        """Refuse a number of players these rules cannot seat.

        :raises RulesError: naming the allowed range.
        """
        if players < MIN_PLAYERS:
            raise RulesError(f"{players} player{'s' if players != 1 else ''}: the game needs at least 2")
        if players > self.max_players:
            if self.tile_set is TileSet.STANDARD and players <= TileSet.SIX_PLAYER.max_players:
                raise RulesError(f"{players} players need the six-player set (the standard set takes 2 to 4)")
            raise RulesError(f"{players} players: the {self.tile_set.value} set takes 2 to {self.max_players}")

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, as JSON values (enums by their value)."""
        result: dict[str, Any] = {}
        for option in dataclasses.fields(self):
            value = getattr(self, option.name)
            result[option.name] = value.value if isinstance(value, enum.Enum) else value
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Read options written by :meth:`to_dict`; ``"preset"`` names a base.

        :raises RulesError: for an unknown preset or option, or a bad value.
        """
        options = dict(data)
        preset = options.pop("preset", "standard")
        if not isinstance(preset, str):
            raise RulesError(f"preset={preset!r}: expected a preset's name")
        return cls.preset(preset, **options)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the defaults (for short summaries)."""
        default = Rules().to_dict()
        return {key: value for key, value in self.to_dict().items() if default[key] != value}


def option_from_text(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` from a command line: true/false, none, numbers, or text.

    >>> option_from_text("wrap=true"), option_from_text("turn_seconds=none")
    (('wrap', True), ('turn_seconds', None))

    :raises RulesError: when the text is not NAME=VALUE with a known name.
    """
    name, equals, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals or not name:
        raise RulesError(f"{text!r}: write an option as NAME=VALUE, e.g. wrap=true")
    if name not in OPTION_HELP:
        raise RulesError(f"unknown option {name!r} (options: {', '.join(OPTION_HELP)})")
    value = value.strip()
    words: dict[str, Any] = {"true": True, "false": False, "none": None}
    if value.lower() in words:
        return name, words[value.lower()]
    for number in (int, float):
        try:
            return name, number(value)
        except ValueError:
            pass
    return name, value


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name}={value!r}: expected a whole number")
    # Python will not print an integer of thousands of digits: name its size instead.
    shown = str(value) if abs(value) < 10**12 else f"{'-' if value < 0 else ''}1e{int(math.log10(abs(value)))}"
    if value < OPTION_MINIMUM[name]:
        raise RulesError(f"{name}={shown}: must be at least {OPTION_MINIMUM[name]}")
    if value > OPTION_MAXIMUM[name]:
        raise RulesError(f"{name}={shown}: must be at most {OPTION_MAXIMUM[name]}")


PRESETS: dict[str, Rules] = {
    # The online rules: the defaults.
    "standard": Rules(),
    "six-player": Rules(tile_set=TileSet.SIX_PLAYER),
    # The Spanish rule sheet: more than 30 to open, no -200/-100.
    "classic": Rules(initial_meld_strict=True, unmelded_penalty=False),
    # The Portuguese house rules.
    "house": Rules(
        wrap=True,
        joker_penalty=25,
        pool_exhausted=PoolExhausted.UNTIL_BLOCKED,
        redraw_duplicates=True,
        first_player=FirstPlayer.RANDOM,
        timeout_penalty=1,
        unmelded_penalty=False,
    ),
    # For a relaxed game at a physical table or against bots: no clock.
    "casual": Rules(turn_seconds=None),
}
