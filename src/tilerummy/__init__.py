"""tilerummy: the rules engine for Rummikub-style tile rummy.

>>> from tilerummy import Game, Meld, Tile
>>> Tile.parse("r5")
Tile.parse('R5')
>>> Meld.parse("K10 B10 Y10").value
30
"""

from .deal import Deal
from .errors import (
    IllegalAction,
    IllegalPlay,
    InvalidMeld,
    NotationError,
    NotYourTurn,
    Reason,
    RecordError,
    RulesError,
    TilerummyError,
)
from .game import Action, Draw, Game, Pass, Play, PlayerView, Timeout
from .match import Match
from .melds import Meld, MeldKind, Table
from .openings import best_opening, has_opening
from .records import GameRecord, Replay
from .rules import PRESETS, Display, FirstPlayer, JokerReplacement, PoolExhausted, Rules
from .scoring import MatchStanding, RoundScore, match_standing, rack_value, score_round
from .solver import Solution, candidates, solve
from .tiles import COLOURS, JOKER, Colour, Piece, Tile, TileSet, format_tiles, parse_tiles

__version__ = "0.1.0"

__all__ = [
    "COLOURS",
    "JOKER",
    "PRESETS",
    "Action",
    "Colour",
    "Deal",
    "Display",
    "Draw",
    "FirstPlayer",
    "Game",
    "GameRecord",
    "IllegalAction",
    "IllegalPlay",
    "InvalidMeld",
    "JokerReplacement",
    "Match",
    "MatchStanding",
    "Meld",
    "MeldKind",
    "NotYourTurn",
    "NotationError",
    "Pass",
    "Piece",
    "Play",
    "PlayerView",
    "PoolExhausted",
    "Reason",
    "RecordError",
    "Replay",
    "RoundScore",
    "Rules",
    "RulesError",
    "Solution",
    "Table",
    "Tile",
    "TileSet",
    "TilerummyError",
    "Timeout",
    "best_opening",
    "candidates",
    "format_tiles",
    "has_opening",
    "match_standing",
    "parse_tiles",
    "rack_value",
    "score_round",
    "solve",
]
