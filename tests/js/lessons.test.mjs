// The tutorial's steps, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { judgeLesson, LESSONS } from "../../src/tilerummy/server/static/js/lessons.js";
import { readSet } from "../../src/tilerummy/server/static/js/rules.js";

const lesson = (key) => LESSONS.find((step) => step.key === key);
const left = (step, laid) => step.rack.filter((tile) => !laid.includes(tile));

test("the tutorial teaches runs, groups, adding to a set, the first play, drawing, rearranging, jokers, taking a joker back and the end of a round, in that order", () => {
  assert.deepEqual(LESSONS.map((step) => step.key), ["run", "group", "add", "meld", "draw", "rearrange", "joker", "takejoker", "score"]);
  for (const step of LESSONS) for (const set of step.table) assert.ok(readSet(set).ok, `${step.key}: ${set}`);
});

test("the run step takes a run and turns a group away with its hint", () => {
  const step = lesson("run");
  assert.equal(judgeLesson(step, [["R3", "R4", "R5"]], left(step, ["R3", "R4", "R5"])), null);
  assert.equal(judgeLesson(step, [["B7", "Y7", "K7"]], left(step, ["B7", "Y7", "K7"])), "lesson_run_wrong");
});

test("the group step wants a new group; the run already on the table does not count", () => {
  const step = lesson("group");
  assert.equal(judgeLesson(step, [["R3", "R4", "R5"], ["R8", "B8", "K8"]], left(step, ["R8", "B8", "K8"])), null);
  assert.equal(judgeLesson(step, [["R3", "R4", "R5"], ["Y1", "Y2", "Y3"]], left(step, ["Y1", "Y2", "Y3"])), "lesson_group_wrong");
});

test("the rearranging step wants the two 7s placed, the red 7 taken from the run", () => {
  const step = lesson("rearrange");
  assert.equal(judgeLesson(step, [["R4", "R5", "R6"], ["R7", "B7", "K7"]], ["Y13"]), null);
  assert.equal(judgeLesson(step, [["R4", "R5", "R6", "R7"]], step.rack), "lesson_rearrange_wrong");
});

test("the joker step wants the joker in a set with the blue 10 and 11", () => {
  const step = lesson("joker");
  assert.equal(judgeLesson(step, [...step.table, ["B10", "B11", "J"]], ["Y5"]), null);
  assert.equal(judgeLesson(step, [["R4", "R5", "R6", "J"], step.table[1]], ["B10", "B11", "Y5"]), "lesson_joker_wrong");
});

test("the adding step wants the red 7 on the red run already on the table, not a set of its own", () => {
  const step = lesson("add");
  assert.equal(judgeLesson(step, [["R4", "R5", "R6", "R7"], step.table[1]], left(step, ["R7"])), null);
  assert.equal(judgeLesson(step, step.table, step.rack), "lesson_add_wrong");
});

test("the drawing step has nothing to play on its rack, and gives a tile to draw", () => {
  const step = lesson("draw");
  assert.ok(step.drawn && !step.rack.includes(step.drawn));
  // No tile of the rack joins a set on the table, and no three of them make a set.
  for (const tile of step.rack) for (const set of step.table) for (const place of [0, set.length]) {
    const joined = [...set.slice(0, place), tile, ...set.slice(place)];
    assert.ok(!readSet(joined).ok, `${tile} fits ${set}`);
  }
  for (const a of step.rack) for (const b of step.rack) for (const c of step.rack) {
    if (a < b && b < c) assert.ok(!readSet([a, b, c]).ok && !readSet([a, c, b]).ok, `${a} ${b} ${c}`);
  }
  assert.equal(judgeLesson(step, step.table, step.rack), "lesson_draw_wrong");
});

test("the joker step back wants the red 6 in the joker's place and the joker with the two 9s", () => {
  const step = lesson("takejoker");
  assert.equal(judgeLesson(step, [["R5", "R6", "R7"], step.table[1], ["B9", "K9", "J"]], ["Y12"]), null);
  // The 9s laid without the joker leave it in the run: not what the step asks.
  assert.equal(judgeLesson(step, [["R5", "J", "R7", "R8"], step.table[1]], ["R6", "B9", "K9", "Y12"]), "lesson_takejoker_wrong");
});

test("the last step is won by emptying the rack, and says what the round scores", () => {
  const step = lesson("score");
  assert.ok(step.doneText);
  assert.equal(judgeLesson(step, [...step.table, ["Y10", "Y11", "Y12"]], []), null);
  assert.equal(judgeLesson(step, [...step.table, ["B9", "B10"]], step.rack), "lesson_score_wrong");
});
