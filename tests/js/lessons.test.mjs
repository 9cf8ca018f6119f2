// The tutorial's steps, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { judgeLesson, LESSONS } from "../../src/tilerummy/server/static/js/lessons.js";
import { readSet } from "../../src/tilerummy/server/static/js/rules.js";

const lesson = (key) => LESSONS.find((step) => step.key === key);
const left = (step, laid) => step.rack.filter((tile) => !laid.includes(tile));

test("the tutorial teaches runs, groups, the first play, rearranging and jokers, in that order", () => {
  assert.deepEqual(LESSONS.map((step) => step.key), ["run", "group", "meld", "rearrange", "joker"]);
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
