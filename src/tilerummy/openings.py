"""Sets a rack can make on its own, and the best initial meld it holds.

An exact exhaustive search, used for the -200 / -100 rule (did a rack hold
an initial meld?) and by the simple built-in players. It considers every way
to read jokers (``R10 J J`` as a run worth 33 or a group worth 30).
"""

from __future__ import annotations

from collections.abc import Iterable

from .melds import Meld
from .rules import Rules
from .solver import rack_melds, rack_sets
from .tiles import Tile


def candidate_melds(rack: Iterable[Tile], *, wrap: bool = False) -> list[Meld]:
    """Every distinct set the rack's tiles can form on their own."""
    return rack_sets(rack, wrap=wrap)


def best_opening(rack: Iterable[Tile], rules: Rules) -> list[Meld] | None:
    """The initial meld of highest value the rack holds, or None if none reaches the threshold."""
    melds, value = _search(rack, rules, stop_at=None)
    return melds if value >= _least_value(rules) else None


def find_opening(rack: Iterable[Tile], rules: Rules) -> list[Meld] | None:
    """An initial meld the rack holds (the first found, not always the best), or None.

    Much faster than :func:`best_opening` on large racks.
    """
    melds, value = _search(rack, rules, stop_at=_least_value(rules))
    return melds if value >= _least_value(rules) else None


def has_opening(rack: Iterable[Tile], rules: Rules) -> bool:
    """Whether the rack holds an initial meld worth the rules' threshold."""
    _, value = _search(rack, rules, stop_at=_least_value(rules))
    return value >= _least_value(rules)


def _least_value(rules: Rules) -> int:
    """An initial meld is at least one set (every set is worth 3 or more)."""
    return max(rules.meld_threshold, 1)


def _search(rack: Iterable[Tile], rules: Rules, *, stop_at: int | None) -> tuple[list[Meld], int]:
    """Disjoint sets from the rack of greatest total value (or the first reaching stop_at)."""
    return rack_melds(rack, wrap=rules.wrap, min_value=_least_value(rules), stop_at=stop_at)
