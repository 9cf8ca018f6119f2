// The draft table, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { Draft, markNew, markNewRack, newTiles, orderLike, pickTiles, sameTiles, tilesAdded } from "../../src/tilerummy/server/static/js/draft.js";

const STANDARD = { initial_meld_points: 30 };
const texts = (tiles) => tiles.map((tile) => tile.t);
const rackId = (draft, text) => draft.rack.find((tile) => tile.t === text).id;

test("a new draft holds the table as it is and the rack sorted", () => {
  const draft = new Draft([["R5", "R6", "R7"]], ["K2", "R9", "B1"]);
  assert.deepEqual(draft.table(), [["R5", "R6", "R7"]]);
  assert.deepEqual(texts(draft.rack), ["R9", "B1", "K2"]);
  assert.equal(draft.canUndo, false);
});

test("the rack keeps the player's order, a new tile sorted into it", () => {
  assert.deepEqual(orderLike(["R9", "B1", "K2", "R3"], ["K2", "B1", "R9"], "colour"), ["R3", "K2", "B1", "R9"]);
  assert.deepEqual(orderLike(["R9", "B9", "R1"], [], "number"), ["R1", "R9", "B9"]);
});

test("moving tiles to a new set, then undo, redo and putting everything back", () => {
  const draft = new Draft([], ["R1", "R2", "R3", "K9"]);
  draft.moveTiles([rackId(draft, "R1"), rackId(draft, "R2")], "new");
  draft.moveTiles([rackId(draft, "R3")], "set:0");
  assert.deepEqual(draft.table(), [["R1", "R2", "R3"]]);
  assert.deepEqual(texts(draft.rack), ["K9"]);
  assert.equal(draft.undo(), true);
  assert.deepEqual(draft.table(), [["R1", "R2"]]);
  assert.equal(draft.redo(), true);
  assert.deepEqual(draft.table(), [["R1", "R2", "R3"]]);
  assert.equal(draft.redo(), false);
  draft.resetTurn();
  assert.deepEqual(draft.table(), []);
  assert.equal(draft.rack.length, 4);
  draft.undo();
  assert.deepEqual(draft.table(), [["R1", "R2", "R3"]]);
});

test("a change after an undo forgets what could be redone", () => {
  const draft = new Draft([], ["R1", "R2"]);
  draft.moveTiles([rackId(draft, "R1")], "new");
  draft.undo();
  draft.moveTiles([rackId(draft, "R2")], "new");
  assert.equal(draft.canRedo, false);
  assert.deepEqual(draft.table(), [["R2"]]);
});

test("an emptied set disappears and a tile goes where it is dropped", () => {
  const draft = new Draft([["R5", "R6", "R7"], ["K1", "B1", "Y1"]], ["R4"]);
  draft.moveTiles([rackId(draft, "R4")], "set:0", 0);
  assert.deepEqual(draft.table()[0], ["R4", "R5", "R6", "R7"]);
  const ones = draft.sets[1].tiles.map((tile) => tile.id);
  draft.moveTiles(ones, "set:0");
  assert.equal(draft.sets.length, 1);
});

test("table tiles never go back to the rack, and off turn only the rack moves", () => {
  const draft = new Draft([["R5", "R6", "R7"]], ["K2"]);
  const tableTile = draft.sets[0].tiles[0].id;
  const rackTile = rackId(draft, "K2");
  assert.deepEqual(draft.movable([tableTile, rackTile], "rack", { myTurn: true }), [rackTile]);
  assert.deepEqual(draft.movable([tableTile, rackTile], "set:0", { myTurn: true }), [tableTile, rackTile]);
  assert.deepEqual(draft.movable([rackTile], "set:0", { myTurn: false }), []);
  assert.deepEqual(draft.movable([rackTile], "rack", { myTurn: false }), [rackTile]);
});

test("shift carries a tile one place and stops at the ends", () => {
  const draft = new Draft([], ["R1", "R2", "R3"]);
  const first = draft.rack[0].id;
  assert.equal(draft.shift(first, -1), false);
  assert.equal(draft.shift(first, 1), true);
  assert.deepEqual(texts(draft.rack), ["R2", "R1", "R3"]);
});

test("the turn's checks say what stops it, in order", () => {
  const draft = new Draft([], ["R10", "R11", "R12", "K1", "B1", "Y1", "K5"]);
  assert.equal(draft.check(STANDARD, false).reason.key, "reason_nothing_placed");
  draft.moveTiles([rackId(draft, "R10"), rackId(draft, "R11")], "new");
  draft.moveTiles([rackId(draft, "K5")], "new");
  const two = draft.check(STANDARD, false);
  assert.deepEqual(two.reason, { key: "reason_invalid_sets", params: { n: 2 } });
  draft.undo();
  assert.equal(draft.check(STANDARD, false).reason.key, "reason_invalid_set");
  draft.moveTiles([rackId(draft, "R12")], "set:0");
  const low = draft.check(STANDARD, false);
  assert.equal(low.reason, null);
  assert.equal(low.meldValue, 33);
  assert.equal(low.enough, true);
  assert.deepEqual(draft.check({ initial_meld_points: 40 }, false).reason, { key: "reason_meld_low", params: { value: 33, need: 40 } });
  assert.deepEqual(draft.check({ initial_meld_points: 33, initial_meld_strict: true }, false).reason, {
    key: "reason_meld_low_strict",
    params: { value: 33, need: 33 },
  });
  assert.equal(draft.check({ initial_meld_points: 40 }, true).reason, null);
});

test("a first play may not change the table's sets, unless the rules let it", () => {
  const draft = new Draft([["R5", "R6", "R7"]], ["R8", "K10", "B10", "Y10"]);
  draft.moveTiles([rackId(draft, "R8")], "set:0");
  draft.moveTiles(["K10", "B10", "Y10"].map((text) => rackId(draft, text)), "new");
  assert.equal(draft.check(STANDARD, false).reason.key, "reason_touch_table");
  assert.equal(draft.check({ ...STANDARD, initial_meld_lay_off: true }, false).reason, null);
  assert.equal(draft.check(STANDARD, true).reason, null);
});

test("a joker keeps its named meaning only in a set left as it was", () => {
  const draft = new Draft([["R5", "J(R6)", "R7"], ["K1", "J(B1)", "Y1"]], ["R8"]);
  draft.moveTiles([rackId(draft, "R8")], "set:0");
  assert.deepEqual(draft.table(), [["R5", "J", "R7", "R8"], ["K1", "J(B1)", "Y1"]]);
  assert.deepEqual(draft.liveTable()[1], ["K1", "J", "Y1"]);
});

test("a whole table (a hint's) is laid from the turn's start, its rack tiles named", () => {
  const draft = new Draft([["R5", "R6", "R7"]], ["R8", "K2", "B2", "Y2"]);
  draft.moveTiles([rackId(draft, "K2")], "new");
  const placed = draft.applyTable([["R5", "R6", "R7", "R8"], ["K2", "B2", "Y2"]]);
  assert.deepEqual(draft.table(), [["R5", "R6", "R7", "R8"], ["K2", "B2", "Y2"]]);
  assert.equal(placed.length, 4);
  assert.deepEqual(draft.rack, []);
  assert.equal(draft.sets[0].orig, null);
  draft.undo();
  assert.deepEqual(draft.table(), [["R5", "R6", "R7"], ["K2"]]);
});

test("the tiles a play added are found and marked", () => {
  const added = newTiles([["R5", "R6", "R7"]], [["R5", "R6", "R7", "R8"], ["K2", "J(B2)", "Y2"]]);
  assert.deepEqual([...added], [["R8", 1], ["K2", 1], ["J", 1], ["Y2", 1]]);
  const draft = new Draft([["R5", "R6", "R7", "R8"], ["K2", "J(B2)", "Y2"]], ["R8"]);
  const marked = markNew(draft.sets, added);
  assert.equal(marked.size, 4);
  assert.equal(marked.has(draft.sets[0].tiles[0].id), false);
  const fresh = markNewRack(draft.rack, []);
  assert.equal(fresh.size, 1);
  assert.equal(sameTiles(["R1", "K2"], ["K2", "R1"]), true);
  assert.equal(sameTiles(["R1"], null), false);
});

test("a rack sort is no move to take back: undo takes back the last tile moved, the rack stays sorted", () => {
  const draft = new Draft([], ["R1", "B1", "R2", "K1"], { order: ["K1", "R2", "B1", "R1"] });
  draft.moveTiles([rackId(draft, "R1")], "new");
  draft.sortRack("number");
  assert.deepEqual(texts(draft.rack), ["B1", "K1", "R2"]);
  assert.equal(draft.undo(), true);
  assert.deepEqual(draft.table(), []);
  assert.deepEqual(texts(draft.rack), ["R1", "B1", "K1", "R2"]);
  assert.equal(draft.undo(), false);
  draft.redo();
  draft.resetTurn();
  assert.deepEqual(texts(draft.rack), ["R1", "B1", "K1", "R2"]);
});

test("the tiles drawn are found again in a new rack, each text one tile", () => {
  assert.deepEqual(tilesAdded(["R5", "R5", "K2", "J"], ["R5", "K2"]), ["R5", "J"]);
  const rack = [{ id: "a", t: "R5" }, { id: "b", t: "R5" }, { id: "c", t: "J" }];
  assert.deepEqual([...pickTiles(rack, ["R5", "J"])], ["a", "c"]);
  assert.deepEqual([...pickTiles(rack, [])], []);
});
