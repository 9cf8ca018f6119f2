// The move log's lines, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatMessage } from "../../src/tilerummy/server/static/js/i18n.js";
import { describe, drawEntry, historyEntries, othersPlaced, playEntry, setName, tableChange } from "../../src/tilerummy/server/static/js/movelog.js";

const english = JSON.parse(
  await (await import("node:fs/promises")).readFile(new URL("../../src/tilerummy/server/static/i18n/en.json", import.meta.url), "utf8"),
);
const t = (key, params = {}) => {
  assert.ok(key in english, `no text for ${key}`);
  return formatMessage(english[key], params, "en");
};
const line = (entry, name = "Ana") => describe(entry, { t, name });

test("a first play lays new sets", () => {
  const change = tableChange([], [["R5", "R6", "R7"], ["K10", "B10", "Y10"]]);
  assert.deepEqual(change, { placed: ["R5", "R6", "R7", "K10", "B10", "Y10"], placedSets: [["R5", "R6", "R7"], ["K10", "B10", "Y10"]], moved: [] });
  assert.equal(line(playEntry(0, [], [["R5", "R6", "R7"]])), "Ana placed R5 R6 R7");
  // Two sets laid: the sets apart.
  assert.equal(line(playEntry(0, [], [["R5", "R6", "R7"], ["K10", "B10", "Y10"]])), "Ana placed R5 R6 R7 · K10 B10 Y10");
});

test("tiles added to a set are placed; a tile taken to a new group is moved", () => {
  const before = [["K4", "K5", "K6", "K7"], ["B1", "B2", "B3"]];
  const after = [["K4", "K5", "K6"], ["B1", "B2", "B3", "B4"], ["K7", "R7", "Y7"]];
  const entry = playEntry(1, before, after);
  assert.deepEqual(entry.placed, ["B4", "R7", "Y7"]);
  assert.deepEqual(entry.moved, [{ tiles: ["K7"], kind: "group", from: [{ kind: "run", tiles: ["K4", "K5", "K6", "K7"] }], to: null, others: ["R7", "Y7"] }]);
  assert.equal(line(entry, "Bruno"), "Bruno placed B4 · R7 Y7 and moved K7 from K4–K7 to a new group with R7 Y7");
});

test("a set split in two keeps one half; the other half moved to a new run", () => {
  const entry = playEntry(0, [["R1", "R2", "R3", "R4", "R5", "R6"]], [["R1", "R2", "R3", "R4"], ["R5", "R6", "R7"]]);
  assert.deepEqual(entry.placed, ["R7"]);
  assert.deepEqual(entry.moved, [{ tiles: ["R5", "R6"], kind: "run", from: [{ kind: "run", tiles: ["R1", "R2", "R3", "R4", "R5", "R6"] }], to: null, others: ["R7"] }]);
  assert.equal(line(entry), "Ana placed R7 and moved R5 R6 from R1–R6 to a new run with R7");
});

test("a joker taken from a set and replaced, named as the table names it", () => {
  const before = [["R5", "J(R6)", "R7"]];
  const after = [["R5", "R6", "R7"], ["J", "B9", "K9"]];
  const entry = playEntry(0, before, after);
  assert.deepEqual(entry.placed, ["R6", "B9", "K9"]);
  assert.deepEqual(entry.moved.map((move) => move.tiles), [["J"]]);
  assert.equal(line(entry), "Ana placed R6 · B9 K9 and moved J from R5–R7 to a new group with B9 K9");
});

test("a tile taken from a run to start a group", () => {
  const before = [["R3", "R4", "R5", "R6"], ["B7", "B8", "B9"]];
  const after = [["R4", "R5", "R6"], ["R3", "B3", "K3"], ["B6", "B7", "B8", "B9"]];
  const entry = playEntry(0, before, after);
  assert.equal(line(entry), "Ana placed B3 K3 · B6 and moved R3 from R3–R6 to a new group with B3 K3");
});

test("the same tile twice: the copy on the table stays, the one from the rack is placed", () => {
  const entry = playEntry(0, [["R5", "B5", "K5"]], [["R5", "B5", "K5"], ["R5", "R6", "R7"]]);
  assert.deepEqual(entry.placed, ["R5", "R6", "R7"]);
  assert.deepEqual(entry.moved, []);
});

test("moves to several sets make one clause each", () => {
  const before = [["R3", "R4", "R5", "R6"], ["B5", "B6", "B7", "B8"], ["Y1", "Y2", "Y3"]];
  const after = [["R4", "R5", "R6"], ["B5", "B6", "B7"], ["Y1", "Y2", "Y3"], ["R3", "K3", "Y3"], ["B8", "K8", "R8"]];
  const entry = playEntry(0, before, after);
  assert.equal(line(entry), "Ana placed K3 Y3 · K8 R8, moved R3 from R3–R6 to a new group with K3 Y3 and moved B8 from B5–B8 to a new group with K8 R8");
});

test("a tile moved into a set already on the table names the set it joined and the one it left", () => {
  // The riddle this replaces: "moved 2♦ to another group and moved 2♣ to a new group".
  const entry = playEntry(0, [["Y1", "Y2", "Y3", "Y4"], ["R2", "K2", "B2"]], [["Y2", "R2", "K2", "B2"], ["Y3", "Y4", "Y5"], ["Y1", "R1", "K1"]]);
  assert.equal(line(entry), "Ana placed Y5 · R1 K1, moved Y2 from Y1–Y4 to R2 K2 B2 and moved Y1 from Y1–Y4 to a new group with R1 K1");
  // Tiles from two sets into a new one, with no rack tile: the sets they left, and what they make.
  const three = playEntry(0, [["R6", "R7", "R8", "R9"], ["B6", "B7", "B8", "B9"], ["K6", "K7", "K8", "K9"]], [["R6", "R7", "R8"], ["B6", "B7", "B8"], ["K6", "K7", "K8"], ["R9", "B9", "K9"], ["Y1", "Y2", "Y3"]]);
  assert.equal(line(three), "Ana placed Y1 Y2 Y3 and moved R9 B9 K9 from R6–R9, B6–B9 and K6–K9 to make a new group");
});

test("a set is named by its ends when it is a run, by its tiles when it is a group", () => {
  assert.equal(setName({ kind: "run", tiles: ["R4", "R5", "R6", "R7"] }), "R4–R7");
  assert.equal(setName({ kind: "group", tiles: ["R7", "B7", "K7"] }), "R7 B7 K7");
  assert.equal(setName({ kind: "run", tiles: ["J(R3)", "R4", "R5"] }, (text) => `<${text}>`), "<J(R3)>–<R5>");
});

test("a line the log kept from before it named the sets still reads", () => {
  const old = { kind: "play", seat: 0, placed: ["R7"], moved: [{ tiles: ["K7"], into: "new_group" }] };
  assert.equal(line(old), "Ana placed R7");
});

test("draws, passes and timeouts", () => {
  assert.equal(line(drawEntry("draw", 1, 1), "Computer 2"), "Computer 2 drew a tile");
  assert.equal(line(drawEntry("draw", 0, 1, ["B12"])), "Ana drew B12");
  assert.equal(line(drawEntry("pass", 0, 0)), "Ana passed");
  assert.equal(line(drawEntry("timeout", 1, 3), "Bruno"), "Bruno ran out of time and drew 3 tiles");
  assert.equal(line(drawEntry("timeout", 1, 1), "Bruno"), "Bruno ran out of time and drew 1 tile");
  assert.equal(line(drawEntry("timeout", 1, 0), "Bruno"), "Bruno ran out of time and drew no tile");
});

test("tiles are named by the label it is given", () => {
  const entry = playEntry(0, [], [["R1", "R2", "R3"]]);
  assert.equal(describe(entry, { t, name: "Ana", label: (text) => `<${text}>` }), "Ana placed <R1> <R2> <R3>");
});

test("a snapshot's history reads as the log of the game so far, each play against the table before it", () => {
  const history = [
    { kind: "draw", seat: 0, drawn: 1, table: null },
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7"]] },
    { kind: "timeout", seat: 0, drawn: 3, table: null },
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7", "R8"], ["K10", "B10", "Y10"]] },
    { kind: "pass", seat: 0, drawn: 0, table: null },
  ];
  const entries = historyEntries(history);
  assert.deepEqual(entries.map((entry) => entry.moves), [1, 2, 3, 4, 5]);
  assert.deepEqual(
    entries.map((entry) => line(entry, entry.seat ? "Bruno" : "Ana")),
    ["Ana drew a tile", "Bruno placed R5 R6 R7", "Ana ran out of time and drew 3 tiles", "Bruno placed R8 · K10 B10 Y10", "Ana passed"],
  );
  assert.deepEqual(historyEntries(undefined), []);
});

test("the others' tiles to mark come from the history: since the seat's own last action, or the latest play", () => {
  const history = [
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7"]] },
    { kind: "draw", seat: 0, drawn: 1, table: null },
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7", "R8"]] },
    { kind: "play", seat: 2, drawn: 0, table: [["R5", "R6", "R7", "R8"], ["K10", "B10", "Y10"]] },
  ];
  // Seat 0 drew after the first play: the two plays since are marked, R5-R7 no longer.
  assert.deepEqual([...othersPlaced(history, 0)].sort(), [["B10", 1], ["K10", 1], ["R8", 1], ["Y10", 1]]);
  // Seat 1 played the first and third: only seat 2's play since.
  assert.deepEqual([...othersPlaced(history, 1)].sort(), [["B10", 1], ["K10", 1], ["Y10", 1]]);
  // Seat 2's own play was the last action: nothing.
  assert.equal(othersPlaced(history, 2).size, 0);
  // A watcher sees the latest play's tiles.
  assert.deepEqual([...othersPlaced(history, null)].sort(), [["B10", 1], ["K10", 1], ["Y10", 1]]);
  // Seat 0 has not acted yet: both plays count, and a tile moved on the table is not placed again.
  const moved = [
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7", "R8"]] },
    { kind: "play", seat: 1, drawn: 0, table: [["R5", "R6", "R7"], ["R8", "B8", "Y8"]] },
  ];
  assert.deepEqual([...othersPlaced(moved, 0)].sort(), [["B8", 1], ["R5", 1], ["R6", 1], ["R7", 1], ["R8", 1], ["Y8", 1]]);
  assert.equal(othersPlaced(undefined, 0).size, 0);
});
