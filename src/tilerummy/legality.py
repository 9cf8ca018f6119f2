"""Whether a table submitted at the end of a turn is legal (docs/rules.md, "A turn").

The player submits the whole table as it should be after the turn; this
module compares it with the table at the start of the turn and the rack.

Decisions where the rules are silent:

* Jokers are not told apart: the play is legal if *some* way of matching the
  jokers on the table before the turn to those after it satisfies the joker
  rule (the player could have moved them that way).
* A joker keeps its meaning if it can still stand for a tile it could stand
  for before (a joker in a group of three may stand for either missing colour).
* Under ``rack_or_table``, the tile that replaces a joker may be any tile on
  the table at the end of the turn; the engine sees only the end of the turn.
* With ``initial_meld_lay_off``, the initial meld turn may add rack tiles to
  sets on the table but not rearrange them; only the new sets count towards
  the threshold, and no joker on the table may change its meaning.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import IllegalPlay, InvalidMeld, NotationError, Reason
from .melds import Meld, Table
from .rules import JokerReplacement, Rules
from .tiles import JOKER, Tile, format_tiles


@dataclass(frozen=True, slots=True)
class JudgedPlay:
    """What a legal play did: the tiles taken from the rack and, for an
    initial meld, the value of the new sets."""

    table: Table
    from_rack: Counter[Tile]
    meld_value: int | None


def read_table(table: Table | str, rules: Rules) -> Table:
    """The submitted table, checked under these rules (``wrap``) and read
    afresh from its tiles, so a hand-built set cannot claim another value.

    :raises IllegalPlay: with ``INVALID_SET`` naming the set at fault.
    """
    if isinstance(table, str):
        try:
            return Table.parse(table, wrap=rules.wrap)
        except (InvalidMeld, NotationError) as error:
            raise IllegalPlay(Reason.INVALID_SET, str(error)) from None
    if not isinstance(table, Table):
        raise IllegalPlay(Reason.INVALID_SET, f"expected a table (its notation or a Table), got {type(table).__name__}")
    melds = []
    for index, meld in enumerate(table.melds, start=1):
        if not isinstance(meld, Meld):
            raise IllegalPlay(Reason.INVALID_SET, f"set {index}: expected a set, got {type(meld).__name__}")
        read = _reread(meld, wrap=rules.wrap)
        if read == meld:
            melds.append(read)
            continue
        try:
            read = Meld.parse(str(meld), wrap=rules.wrap)
        except (InvalidMeld, NotationError) as error:
            raise IllegalPlay(Reason.INVALID_SET, f"set {index}: {error}") from None
        if (read.kind, read.number, read.colour, sorted(read.tiles)) != (
            meld.kind,
            meld.number,
            meld.colour,
            sorted(meld.tiles),
        ):
            raise IllegalPlay(Reason.INVALID_SET, f"set {index}: {meld} is not the {meld.kind.value} it claims to be")
        melds.append(read)
    return Table(tuple(melds))


def _reread(meld: Meld, *, wrap: bool) -> Meld | None:
    """The set its tiles make, read in their order (None if they make none):
    the same as reading its notation, but for a group whose joker's colour
    the notation has to spell out, which the caller reads from it."""
    try:
        return Meld.from_tiles(meld.tiles, wrap=wrap)
    except InvalidMeld:
        return None


def judge_play(
    before: Table,
    after: Table | str,
    rack: Sequence[Tile],
    rules: Rules,
    *,
    melded: bool,
) -> JudgedPlay:
    """Check a play and say what it took from the rack.

    :raises IllegalPlay: naming the first rule the play breaks.
    """
    key: tuple[Table, Table, Rules, bool] | None = None
    if isinstance(after, Table):
        key = (before, after, rules, melded)
        try:
            known = _JUDGED.get(key)
        except TypeError:  # a table holding what no set holds: judged below, and refused
            key, known = None, None
        if known is not None:
            # Judged legal before: only whether this rack holds the tiles added is left to check.
            _check_held(known.from_rack, rack)
            return JudgedPlay(known.table, Counter(known.from_rack), known.meld_value)
    judged = _judge_play(before, after, rack, rules, melded=melded)
    if key is not None:
        if len(_JUDGED) >= _JUDGED_MOST:
            _JUDGED.clear()
        _JUDGED[key] = judged
    return JudgedPlay(judged.table, Counter(judged.from_rack), judged.meld_value)


#: Legal plays judged lately, by the table before, the table after, the rules and
#: whether the seat had melded. The same play is often judged twice (by the solver
#: that found it, then by the game it is made in), and again in games that replay
#: a position; whether the rack holds the tiles is the only check that depends on more.
_JUDGED: dict[tuple[Table, Table, Rules, bool], JudgedPlay] = {}
_JUDGED_MOST = 2048


def forget_judged() -> None:
    """Forget the plays judged lately (a bounded memory: to measure what else a process keeps)."""
    _JUDGED.clear()


def _check_held(added: Counter[Tile], rack: Sequence[Tile]) -> None:
    not_held = _beyond(added, Counter(rack))
    if not_held:
        raise IllegalPlay(
            Reason.NOT_IN_RACK,
            f"{_some(not_held)} {_is_or_are(not_held)} neither on the table nor in your rack",
        )


def _judge_play(before: Table, after: Table | str, rack: Sequence[Tile], rules: Rules, *, melded: bool) -> JudgedPlay:
    """Every check of :func:`judge_play`, in its order."""
    after = read_table(after, rules)
    old_tiles, new_tiles = before.tiles(), after.tiles()
    missing = _beyond(old_tiles, new_tiles)
    if missing:
        raise IllegalPlay(
            Reason.TABLE_TILE_REMOVED,
            f"{_some(missing)} {_was_or_were(missing)} on the table and must stay there",
        )
    added = _beyond(new_tiles, old_tiles)
    _check_held(added, rack)
    if not added:
        raise IllegalPlay(
            Reason.NOTHING_PLAYED,
            "no tile from your rack was played: play at least one, or draw",
        )
    meld_value = None
    if not melded:
        meld_value = _check_initial_meld(before, after, rules)
    _check_jokers(before, after, added, rules, may_change=melded)
    return JudgedPlay(after, added, meld_value)


def _beyond(more: Counter[Tile], less: Counter[Tile]) -> Counter[Tile]:
    """``more - less``: the counts left above zero (the same as Counter's
    subtraction, without its per-tile default lookups in Python)."""
    held = less.get
    return Counter({tile: count - held(tile, 0) for tile, count in more.items() if count > held(tile, 0)})


def _check_initial_meld(before: Table, after: Table, rules: Rules) -> int:
    """The value of the new sets of an initial meld, if the turn is one."""
    if rules.initial_meld_lay_off:
        new_sets = _new_sets_with_lay_off(before, after)
    else:
        kept = Counter(after.melds)
        changed = [meld for meld in before.melds if not _take(kept, meld)]
        if changed:
            raise IllegalPlay(
                Reason.INITIAL_MELD_TOUCHES_TABLE,
                f"an initial meld may not change the sets on the table ({changed[0]} was changed)",
            )
        new_sets = list(kept.elements())
    value = sum(meld.value for meld in new_sets)
    if value < rules.meld_threshold:
        need = f"more than {rules.initial_meld_points}" if rules.initial_meld_strict else str(rules.initial_meld_points)
        raise IllegalPlay(Reason.INITIAL_MELD_TOO_LOW, f"initial meld worth {value}, need {need}")
    return value


def _take(pool: Counter[Meld], meld: Meld) -> bool:
    if pool[meld] > 0:
        pool[meld] -= 1
        return True
    return False


def _new_sets_with_lay_off(before: Table, after: Table) -> list[Meld]:
    """Match each old set to a distinct new set holding all of its tiles;
    the new sets left over are the meld. The matching leaving the most
    value in new sets wins."""
    old = list(before.melds)
    new = list(after.melds)
    fits = [
        [index for index, meld in enumerate(new) if not Counter(old_meld.tiles) - Counter(meld.tiles)]
        for old_meld in old
    ]
    best: list[int] | None = None
    best_value = -1

    def assign(position: int, used: list[int]) -> None:
        nonlocal best, best_value
        if position == len(old):
            value = sum(meld.value for index, meld in enumerate(new) if index not in used)
            if value > best_value:
                best, best_value = list(used), value
            return
        for index in fits[position]:
            if index not in used:
                used.append(index)
                assign(position + 1, used)
                used.pop()

    assign(0, [])
    if best is None:
        changed = next((meld for meld, options in zip(old, fits, strict=True) if not options), old[0] if old else None)
        raise IllegalPlay(
            Reason.INITIAL_MELD_TOUCHES_TABLE,
            f"an initial meld may only add tiles to the sets on the table ({changed} was broken up)",
        )
    return [meld for index, meld in enumerate(new) if index not in best]


def _check_jokers(before: Table, after: Table, added: Counter[Tile], rules: Rules, *, may_change: bool) -> None:
    old_readings = joker_readings(before)
    if not old_readings[0] or (may_change and rules.joker_replacement is JokerReplacement.FREE):
        return
    new_readings = joker_readings(after)
    if rules.joker_replacement is JokerReplacement.RACK:
        replacements = Counter({tile: count for tile, count in added.items() if not tile.is_joker})
    else:
        replacements = Counter({tile: count for tile, count in after.tiles().items() if not tile.is_joker})
    jokers = len(old_readings[0])
    fewest_changed: list[Tile] | None = None
    for old in old_readings:
        for new in new_readings:
            for targets in itertools.permutations(range(len(new)), jokers):
                changed = [meaning for meaning, target in zip(old, targets, strict=True) if meaning != new[target]]
                if not changed:
                    return
                if may_change and _replaceable(changed, replacements):
                    return
                if fewest_changed is None or len(changed) < len(fewest_changed):
                    fewest_changed = changed
    assert fewest_changed is not None
    unreplaced = [tile for tile in fewest_changed if replacements[tile] == 0]
    stood_for = str((unreplaced or fewest_changed)[0])
    if not may_change:
        raise IllegalPlay(
            Reason.JOKER_NOT_REPLACED,
            f"the joker standing for {stood_for} may not change before your initial meld",
        )
    source = "your rack" if rules.joker_replacement is JokerReplacement.RACK else "your rack or the table"
    raise IllegalPlay(
        Reason.JOKER_NOT_REPLACED,
        f"the joker standing for {stood_for} changed without {stood_for} from {source} taking its place",
    )


def joker_readings(table: Table) -> list[tuple[Tile, ...]]:
    """Every way to say what each joker on the table stands for, one tile each.

    A run's jokers have one reading; the jokers of a group stand for distinct
    missing colours, in any arrangement.
    """
    per_meld: list[list[tuple[Tile, ...]]] = []
    for meld in table.melds:
        if JOKER not in meld.tiles:
            continue  # most sets: seen without working out their jokers
        meanings = meld.jokers
        if not meanings:
            continue
        if meld.is_run:
            per_meld.append([tuple(next(iter(meaning)) for meaning in meanings)])
        else:
            missing = sorted(meanings[0], key=lambda tile: tile.sort_key)
            per_meld.append(list(itertools.permutations(missing, len(meanings))))
    return [tuple(tile for part in parts for tile in part) for parts in itertools.product(*per_meld)]


def _replaceable(changed: list[Tile], replacements: Counter[Tile]) -> bool:
    """Whether each changed joker can get its own tile equal to what it stood for."""
    return not Counter(changed) - replacements


def _some(tiles: Counter[Tile]) -> str:
    return format_tiles(sorted(tiles.elements()))


def _was_or_were(tiles: Counter[Tile]) -> str:
    return "was" if sum(tiles.values()) == 1 else "were"


def _is_or_are(tiles: Counter[Tile]) -> str:
    return "is" if sum(tiles.values()) == 1 else "are"
