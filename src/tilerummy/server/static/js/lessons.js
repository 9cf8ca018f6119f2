// The tutorial's steps: a fixed rack and table for each, and what the step asks of the player's turn.
// Pure: the texts are catalogue keys, the sets are read as the engine reads them (rules.js).

import { isJoker, readSet } from "./rules.js";

// Each step: its texts' keys, whether the first play (30 points) is already made, the table and rack it
// starts from, and done(table, rackLeft): whether the turn did what the step asks. A step that asks for
// a draw gives the drawn tile instead (drawn); a step with done text (doneText) says more once done.
export const LESSONS = [
  {
    key: "run",
    melded: true,
    table: [],
    rack: ["R3", "R4", "R5", "B7", "Y7", "K7", "B12"],
    done: (table) => laidNew(table, []).some((reading) => reading.kind === "run"),
  },
  {
    key: "group",
    melded: true,
    table: [["R3", "R4", "R5"]],
    rack: ["R8", "B8", "K8", "Y1", "Y2", "Y3", "B12"],
    done: (table, rackLeft, start) => laidNew(table, start).some((reading) => reading.kind === "group"),
  },
  {
    key: "add",
    melded: true,
    table: [["R4", "R5", "R6"], ["B9", "Y9", "K9"]],
    rack: ["R7", "B2", "Y11", "K5", "B13"],
    // The red 7 joined the run already there (at its end or, read as a run, anywhere it fits).
    done: (table, rackLeft) => !rackLeft.includes("R7") && table.some((set) => set.includes("R7") && set.includes("R4") && readSet(set).ok),
  },
  {
    key: "meld",
    melded: false,
    table: [],
    rack: ["R10", "R11", "R12", "K2", "B2", "Y2", "B5", "K9"],
    // The turn's own check holds the 30 points back; a turn that may end has them.
    done: (table) => table.length > 0,
  },
  {
    key: "draw",
    melded: true,
    table: [["Y3", "Y4", "Y5"], ["R10", "B10", "K10"]],
    rack: ["R1", "B5", "Y9", "K12", "B13"],
    drawn: "K6",
    // Nothing on this rack fits: the step is done by drawing, never by a play.
    done: () => false,
  },
  {
    key: "rearrange",
    melded: true,
    table: [["R4", "R5", "R6", "R7"]],
    rack: ["B7", "K7", "Y13"],
    done: (table, rackLeft) => !rackLeft.includes("B7") && !rackLeft.includes("K7"),
  },
  {
    key: "joker",
    melded: true,
    table: [["R4", "R5", "R6"], ["R7", "B7", "K7"]],
    rack: ["J", "B10", "B11", "Y5"],
    done: (table, rackLeft) => !rackLeft.some(isJoker) && !rackLeft.includes("B10") && !rackLeft.includes("B11") && table.some((set) => set.some(isJoker) && set.includes("B10")),
  },
  {
    key: "takejoker",
    melded: true,
    table: [["R5", "J", "R7"], ["Y1", "Y2", "Y3"]],
    rack: ["R6", "B9", "K9", "Y12"],
    // The red 6 took the joker's place, and the joker went on with the blue and black 9.
    done: (table, rackLeft) =>
      !["R6", "B9", "K9"].some((tile) => rackLeft.includes(tile)) &&
      table.some((set) => ["R5", "R6", "R7"].every((tile) => set.includes(tile)) && !set.some(isJoker)) &&
      table.some((set) => set.some(isJoker) && set.includes("B9") && set.includes("K9")),
  },
  {
    key: "score",
    melded: true,
    table: [["B1", "B2", "B3"], ["R8", "B8", "K8"]],
    rack: ["Y10", "Y11", "Y12"],
    doneText: true,
    done: (table, rackLeft) => rackLeft.length === 0,
  },
];

// The readings of the valid sets on the table that were not there at the start.
function laidNew(table, start) {
  const before = new Set(start.map((set) => [...set].sort().join(" ")));
  return table
    .filter((set) => !before.has([...set].sort().join(" ")))
    .map((set) => readSet(set))
    .filter((reading) => reading.ok);
}

// What the step says of a turn the table allows: null when it did what the step asks, else the step's hint key.
export function judgeLesson(lesson, table, rackLeft) {
  return lesson.done(table, rackLeft, lesson.table) ? null : `lesson_${lesson.key}_wrong`;
}
