"""The adapter to the peer solver (rummikub-solver 1.0.0), checked by hand and
against the brute-force reference."""

from __future__ import annotations

import random

import pytest

from tilerummy import COLOURS, InvalidMeld, JokerReplacement, Meld, Rules, Table, Tile, TileSet, parse_tiles
from tilerummy.tiles import JOKER

pytest.importorskip("rummikub_solver")

from .peer import PEER_COLOURS, peer_answer, peer_max_tiles, peer_model, unsupported
from .solver_reference import reference_best

STANDARD = Rules()


def peer_tiles(rack: str, table: str = "", *, melded: bool = True, rules: Rules = STANDARD) -> int | None:
    return peer_max_tiles(parse_tiles(rack), Table.parse(table, wrap=rules.wrap), rules, initial_meld_done=melded)


def why(rack: str, table: str = "", *, melded: bool = True, rules: Rules = STANDARD) -> str | None:
    return unsupported(parse_tiles(rack), Table.parse(table, wrap=rules.wrap), rules, initial_meld_done=melded)


def test_tile_mapping() -> None:
    model = peer_model()
    assert len(model.to_peer) == 53
    for tile, theirs in model.to_peer.items():
        assert model.from_peer[int(theirs)] == tile
        if tile.is_joker:
            assert repr(theirs).startswith("<Joker")
        else:
            assert tile.colour is not None
            assert getattr(theirs, "value") == tile.number  # noqa: B009
            assert getattr(theirs, "colour") is PEER_COLOURS[tile.colour]  # noqa: B009
    # Yellow is the peer's orange; black its first colour.
    assert repr(model.to_peer[Tile.parse("Y7")]) == "<Orange 7 (33)>"
    assert int(model.to_peer[Tile.parse("K1")]) == 1


@pytest.mark.parametrize(
    ("rack", "table", "melded", "expected"),
    [
        ("K10 B10 Y10", "", False, 3),
        ("R1 R2 R3", "", False, 0),  # worth 6: no initial meld
        ("K10 B10 J", "", False, 3),
        ("R8 K10 B10 Y10", "R5 R6 R7", False, 3),  # the initial meld leaves the table alone
        ("K11 K12 K13 B13 Y13", "", True, 3),
        ("R1 R2 R4 J K13 B13", "", True, 4),
        ("R1 R2 R3 R4 B5 Y5", "R5 R6 R7 | K5 K6 K7 K8", True, 6),
        ("R1 B3 Y5 K7", "R10 R11 R12", True, 0),
    ],
)
def test_certified(rack: str, table: str, melded: bool, expected: int) -> None:
    assert peer_tiles(rack, table, melded=melded) == expected


def test_sets_it_cannot_write() -> None:
    # A joker at the end of a run of 4, or in a group of 4: not among its sets.
    assert why("R1 R2 R3", "K5 K6 K7 J") == "the table cannot be written with the peer's sets"
    assert why("K1 K2 K3", "R5 B5 Y5 J") is not None
    assert peer_tiles("K1 K2 K3", "R5 B5 Y5 J") is None
    # The same tiles read another way are fine: R5 J R7 R8 has its joker inside.
    assert why("B1 B2 B3", "R5 J R7 R8") is None
    # Laying a joker off on a set of three, or a run of 4 ending in a joker:
    # it finds nothing, the bound says one tile might go, so no answer.
    assert peer_tiles("J", "R5 R6 R7") is None
    assert peer_tiles("R3", "R4 R5 J") is None
    answer = peer_answer(parse_tiles("K1 K2 K3 J"), Table(), STANDARD, initial_meld_done=True)
    assert answer is not None
    assert (len(answer.placed), answer.bound, answer.exact) == (3, 4, False)


def test_joker_rule() -> None:
    # The peer moves the table's joker (R8) to B1 Y1; legal only when jokers move freely.
    rack, table = "B1 Y1", "R5 B5 Y5 K5 | R6 R7 J"
    answer = peer_answer(parse_tiles(rack), Table.parse(table), STANDARD, initial_meld_done=True)
    assert answer is not None
    assert len(answer.placed) == 2
    assert answer.table is None
    assert peer_tiles(rack, table) is None
    assert peer_tiles(rack, table, rules=Rules(joker_replacement=JokerReplacement.FREE)) == 2


def test_rule_options_it_cannot_express() -> None:
    assert why("R12 R13 R1", rules=Rules(wrap=True)) is not None
    assert why("R12 R13 B1", rules=Rules(wrap=True)) is None  # no 1 of the run's colour
    assert peer_tiles("R11 R12 R13", rules=Rules(wrap=True)) == 3
    assert why("K10 B10 Y10", "R5 R6 R7", melded=False, rules=Rules(initial_meld_lay_off=True)) is not None
    assert why("K10 B10 Y10", melded=False, rules=Rules(initial_meld_lay_off=True)) is None
    assert why("K10 B10 Y10", melded=False, rules=Rules(initial_meld_points=60)) is not None
    six = Rules.preset("six-player")
    assert why("J J J R1 R2", rules=six) is not None
    assert peer_tiles("R5 R5 R5 B5 B5 B5 Y5 Y5 Y5", rules=six) == 9
    assert peer_tiles("K10 B10 Y10", melded=False, rules=Rules(initial_meld_strict=True)) == 0


def _small_position(rng: random.Random) -> tuple[list[Tile], Table]:
    """A table of up to 9 tiles in valid sets (some with a joker) and a rack of
    up to 6 tiles, many of them next to the table's."""
    pool = [piece.tile for piece in TileSet.STANDARD.pieces()]
    melds: list[Meld] = []
    for _ in range(60):
        if rng.random() < 0.5:
            length = rng.randint(3, 5)
            start = rng.randint(1, 14 - length)
            colour = rng.choice(COLOURS)
            tiles = [Tile(colour, number) for number in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            tiles = [Tile(colour, number) for colour in rng.sample(COLOURS, rng.randint(3, 4))]
        if rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = JOKER
        if sum(map(len, melds)) + len(tiles) > 9 or any(pool.count(t) < tiles.count(t) for t in tiles):
            continue
        try:
            melds.append(Meld.from_tiles(tiles))
        except InvalidMeld:
            continue
        for tile in tiles:
            pool.remove(tile)
    rack: list[Tile] = []
    near = [tile for meld in melds for tile in meld if tile.colour is not None]
    for _ in range(rng.randint(1, 6)):
        tile = rng.choice(pool)
        if near and rng.random() < 0.6:
            base = rng.choice(near)
            assert base.colour is not None
            numbers = [n for n in (base.number - 1, base.number + 1) if 1 <= n <= 13]
            tile = rng.choice([Tile(base.colour, n) for n in numbers] + [Tile(c, base.number) for c in COLOURS])
        if tile in pool:
            pool.remove(tile)
            rack.append(tile)
    return rack, Table(tuple(melds))


@pytest.mark.parametrize("seed", range(3))
def test_agrees_with_reference(seed: int) -> None:
    rng = random.Random(seed)
    rules_options = [STANDARD, Rules(joker_replacement=JokerReplacement.FREE), Rules(wrap=True)]
    certified = 0
    for _ in range(12):
        rules = rng.choice(rules_options)
        rack, table = _small_position(rng)
        melded = rng.random() < 0.8
        expected = reference_best(rack, table, rules, initial_meld_done=melded, objective="tiles")
        answer = peer_answer(rack, table, rules, initial_meld_done=melded)
        if answer is None:
            continue
        best = expected[0] if expected is not None else 0
        assert answer.bound >= best, (rack, table)
        if answer.exact:
            certified += 1
            assert len(answer.placed) == best, (rack, table)
    assert certified > 0
