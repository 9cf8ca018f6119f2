// A deal worked out again from its seed, as the engine deals it: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { dealFromSeed, rackValue, tilesLeft } from "../../src/tilerummy/server/static/js/deal.js";

const STANDARD = { tile_set: "standard", first_player: "draw", pool_draws: "shared", timeout_penalty: 3, joker_penalty: 30 };
const sorted = (rack) => [...rack].sort();

// Deal.from_seed(Rules.preset("standard"), 3, 2**62 + 12345), as the engine (deal.py) gives it.
const SEED = "4611686018427400249";
const ENGINE_RACKS = [
  ["B11", "B12", "B4", "B4", "B9", "K2", "K3", "K9", "R10", "R5", "Y11", "Y6", "Y8", "Y9"],
  ["B1", "B3", "B5", "K1", "K12", "K13", "K7", "R1", "R1", "R12", "Y3", "Y3", "Y5", "Y8"],
  ["B2", "B5", "B8", "B9", "J", "K10", "K11", "K13", "K2", "R11", "R2", "Y1", "Y4", "Y7"],
];

test("a seed past 2^53 deals the racks, the first player and the pool as the engine does", () => {
  const deal = dealFromSeed(STANDARD, 3, SEED);
  assert.deepEqual(deal.racks.map(sorted), ENGINE_RACKS);
  assert.equal(deal.first, 1);
  assert.deepEqual(deal.pool.slice(0, 6), ["R13", "Y1", "Y2", "K10", "R12", "Y12"]);
  assert.equal(deal.pool.length, 106 - 3 * 14);
});

test("the tiles left follow the record's draws, timeouts and plays", () => {
  const deal = dealFromSeed(STANDARD, 2, "7");
  const [first] = deal.racks;
  const run = first.filter((tile) => tile !== "J").slice(0, 3);
  const record = {
    seed: "7",
    players: ["Ana", "Bo"],
    actions: [
      { seat: 0, type: "draw" },
      { seat: 1, type: "timeout" },
      { seat: 0, type: "play", table: run.join(" ") },
    ],
  };
  const left = tilesLeft(record, STANDARD);
  const kept = [...first];
  for (const tile of run) kept.splice(kept.indexOf(tile), 1);
  assert.deepEqual(sorted(left[0]), sorted([...kept, deal.pool[0]]));
  assert.deepEqual(sorted(left[1]), sorted([...deal.racks[1], ...deal.pool.slice(1, 4)]));
  assert.equal(tilesLeft({ ...record, seed: null }, STANDARD), null);
  assert.equal(tilesLeft(record, { ...STANDARD, pool_draws: "own" }), null);
});

test("a rack's value counts a joker as the joker penalty", () => {
  assert.equal(rackValue(["R5", "K13", "J"], 30), 48);
  assert.equal(rackValue(["J"], 50), 50);
});
