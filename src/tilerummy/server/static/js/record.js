// A game's record (GET /api/games/{id}/record) read into its positions: the table, rack sizes and pool after
// each action, with the move log's entry for it. Pure: the replay and the analysis both start from it.

import { drawEntry, playEntry } from "./movelog.js";
import { bareToken } from "./rules.js";

const RACK_SIZE = 14;

// "R5 R6 R7 | K1 B1 Y1" -> [["R5", "R6", "R7"], ["K1", "B1", "Y1"]].
export function tableOf(text) {
  if (!text || !text.trim()) return [];
  return text.split("|").map((set) => set.trim().split(/[\s,]+/).filter(Boolean));
}

export function wrapOf(record) {
  return Boolean(record.rules.wrap);
}

// Every position of the game: frames[0] is the deal, frames[i + 1] follows the record's action i.
export function frames(record) {
  const players = record.players.length;
  const sixPlayer = (record.rules.tile_set || record.rules.preset) === "six-player";
  const penalty = record.rules.timeout_penalty ?? 3;
  const wrap = wrapOf(record);
  let pool = (sixPlayer ? 160 : 106) - RACK_SIZE * players;
  let table = [];
  let racks = Array(players).fill(RACK_SIZE);
  const list = [{ table, racks, pool, entry: null }];
  for (const action of record.actions) {
    racks = [...racks];
    let entry;
    if (action.type === "play") {
      const after = tableOf(action.table);
      racks[action.seat] -= after.flat().length - table.flat().length;
      entry = playEntry(action.seat, table, after, { wrap });
      table = after;
    } else {
      const count = action.type === "draw" ? Math.min(1, pool) : action.type === "timeout" ? Math.min(penalty, pool) : 0;
      racks[action.seat] += count;
      pool -= count;
      entry = drawEntry(action.type, action.seat, count);
    }
    list.push({ table, racks, pool, entry });
  }
  return list;
}

// Going over a later table tile by tile: whether each tile is one the table `before` did not have
// (each tile of `before` answers for one tile only).
export function notOn(before) {
  const counts = new Map();
  for (const key of before.flat().map(bareToken)) counts.set(key, (counts.get(key) || 0) + 1);
  return (text) => {
    const key = bareToken(text);
    if (!counts.get(key)) return true;
    counts.set(key, counts.get(key) - 1);
    return false;
  };
}
