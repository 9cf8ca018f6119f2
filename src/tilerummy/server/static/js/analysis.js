// A finished game's analysis (GET /api/games/{id}/analysis) set beside its positions: for each turn, what was
// played and the most tiles that could have been placed, with that best play as a move-log entry and a table.
// Pure: the words are the move log's (movelog.js), given their t() by the page.

import { playEntry } from "./movelog.js";
import { tableOf } from "./record.js";

// One turn's review. positions: frames(record) (record.js); turn: one of the analysis's turns.
export function reviewTurn(turn, positions, { wrap = false } = {}) {
  const before = positions[turn.index].table;
  const bestTable = turn.best_play ? tableOf(turn.best_play) : null;
  return {
    index: turn.index,
    seat: turn.seat,
    action: turn.action,
    placed: turn.placed,
    best: turn.best,
    missed: Math.max(0, turn.best - turn.placed),
    initialMeld: turn.initial_meld,
    played: positions[turn.index + 1].entry,
    bestTable,
    // The best play worded as the log words a play: what it lays from the rack and what it moves.
    bestEntry: bestTable ? playEntry(turn.seat, before, bestTable, { wrap }) : null,
  };
}

// Every turn's review, by the action's index in the record (the replay's step is that index + 1).
export function reviewGame(analysis, positions, options = {}) {
  return new Map(analysis.turns.map((turn) => [turn.index, reviewTurn(turn, positions, options)]));
}

// How a turn went: "best" (nothing better was possible), "missed" (more could have been placed).
export function verdict(review) {
  return review.missed > 0 ? "missed" : "best";
}

// The players' summaries, the fewest missed tiles first (the seat breaks ties).
export function ranking(analysis) {
  return [...analysis.players].sort((a, b) => a.missed_tiles - b.missed_tiles || a.seat - b.seat);
}
