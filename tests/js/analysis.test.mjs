// The post-game analysis beside the record's positions, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { ranking, reviewGame, reviewTurn, verdict } from "../../src/tilerummy/server/static/js/analysis.js";
import { frames, notOn, tableOf } from "../../src/tilerummy/server/static/js/record.js";

const RECORD = {
  players: ["Ana", "Bo"],
  rules: {},
  actions: [
    { type: "play", seat: 0, table: "R10 R11 R12" },
    { type: "draw", seat: 1 },
    { type: "play", seat: 0, table: "R9 R10 R11 R12 | K1 B1 Y1" },
  ],
};
const ANALYSIS = {
  turns: [
    { index: 0, seat: 0, action: "play", placed: 3, best: 4, best_play: "R10 R11 R12 R13", best_placed: ["R10", "R11", "R12", "R13"], best_steps: [], initial_meld: true },
    { index: 1, seat: 1, action: "draw", placed: 0, best: 3, best_play: "R10 R11 R12 | K5 B5 Y5", best_placed: ["K5", "B5", "Y5"], best_steps: [], initial_meld: true },
    { index: 2, seat: 0, action: "play", placed: 4, best: 4, best_play: "R9 R10 R11 R12 | K1 B1 Y1", best_placed: ["R9", "K1", "B1", "Y1"], best_steps: [], initial_meld: false },
  ],
  players: [
    { seat: 0, name: "Ana", turns: 2, missed_tiles: 1, turns_with_better_play: 1 },
    { seat: 1, name: "Bo", turns: 1, missed_tiles: 3, turns_with_better_play: 1 },
  ],
};

test("a record's positions: the table, racks and pool after each action", () => {
  const positions = frames(RECORD);
  assert.equal(positions.length, 4);
  assert.deepEqual(positions[1].table, [["R10", "R11", "R12"]]);
  assert.deepEqual(positions[2].racks, [11, 15]);
  assert.equal(positions[2].pool, 106 - 28 - 1);
  assert.deepEqual(tableOf(" "), []);
});

test("a turn that placed fewer tiles than it could: what it played, what it missed, the best play as a log entry", () => {
  const review = reviewTurn(ANALYSIS.turns[0], frames(RECORD));
  assert.equal(review.missed, 1);
  assert.equal(verdict(review), "missed");
  assert.deepEqual(review.played.placed, ["R10", "R11", "R12"]);
  assert.deepEqual(review.bestTable, [["R10", "R11", "R12", "R13"]]);
  assert.deepEqual(review.bestEntry.placed, ["R10", "R11", "R12", "R13"]);
});

test("a draw when a group could have been laid: the best play is read against the table of that turn", () => {
  const review = reviewTurn(ANALYSIS.turns[1], frames(RECORD));
  assert.equal(review.played.kind, "draw");
  assert.equal(review.missed, 3);
  // The run was already on the table: only the group comes from the rack.
  assert.deepEqual(review.bestEntry.placed, ["K5", "B5", "Y5"]);
  assert.deepEqual(review.bestEntry.moved, []);
});

test("a turn that did the most possible is the best; every turn is found by its action's index", () => {
  const reviews = reviewGame(ANALYSIS, frames(RECORD));
  assert.deepEqual([...reviews.keys()], [0, 1, 2]);
  assert.equal(verdict(reviews.get(2)), "best");
  assert.equal(reviews.get(2).missed, 0);
});

test("the players are ranked by the fewest tiles missed", () => {
  assert.deepEqual(ranking(ANALYSIS).map((player) => player.name), ["Ana", "Bo"]);
});

test("a later table's tiles are new when the earlier table had none left like them", () => {
  const added = notOn([["R5", "R6", "R7"], ["J(K1)", "B1", "Y1"]]);
  assert.deepEqual(["R5", "R5", "J", "K1", "R6"].map(added), [false, true, false, true, false]);
});
