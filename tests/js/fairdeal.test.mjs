// The fair deal's check, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { test } from "node:test";

import { checkDeal, commitmentOf, parseKeepingSeeds, recordDeal, shortCommitment } from "../../src/tilerummy/server/static/js/fairdeal.js";

const subtle = webcrypto.subtle;
const SEED = "8125306977610341012";
const SALT = "5be00000000000000000000000000000";
// tilerummy.fairness.commitment_of(8125306977610341012, SALT), worked out by the engine.
const COMMITMENT = "998d9d45f3d3c8a09fde46dca35918b6bfa8fd8647c472aa3610c0106bfdb579";

test("the page's SHA-256 of seed:salt is the engine's commitment", async () => {
  assert.equal(await commitmentOf(SEED, SALT, subtle), COMMITMENT);
});

test("a revealed seed and salt that match the commitment verify the deal", async () => {
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: SEED, salt: SALT }, subtle), "verified");
});

test("a seed one off, or another salt, is a mismatch", async () => {
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: "8125306977610341013", salt: SALT }, subtle), "mismatch");
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: SEED, salt: "5be1" + SALT.slice(4) }, subtle), "mismatch");
});

test("during the game the deal is sealed; without SHA-256 the check cannot run; no commitment is missing", async () => {
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: null, salt: null }, subtle), "sealed");
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: SEED, salt: SALT }, null), "unavailable");
  assert.equal(await checkDeal(null, subtle), "missing");
  assert.equal(await checkDeal({ commitment: COMMITMENT, seed: SEED, salt: SALT }, { digest: () => Promise.reject(new Error("no")) }), "unavailable");
});

test("a seed past 2^53 is read as its exact decimal text", () => {
  const message = parseKeepingSeeds(`{"type":"game","game":{"fairness":{"commitment":"${COMMITMENT}","seed": ${SEED},"salt":"${SALT}"}},"name":"\\"seed\\":1"}`);
  assert.equal(message.game.fairness.seed, SEED);
  assert.equal(message.name, '"seed":1');
  assert.notEqual(String(JSON.parse(SEED)), SEED);
  assert.equal(parseKeepingSeeds('{"seed":null}').seed, null);
});

test("a record's deal takes its seed from the record and the rest from its fairness", () => {
  const record = parseKeepingSeeds(`{"seed":${SEED},"fairness":{"commitment":"${COMMITMENT}","salt":"${SALT}"}}`);
  assert.deepEqual(recordDeal(record), { commitment: COMMITMENT, seed: SEED, salt: SALT });
  assert.equal(recordDeal({ seed: 1 }), null);
  assert.equal(shortCommitment(COMMITMENT), "998d9d45");
});
