// The table a player arranges during their turn, with undo and redo and the turn's local checks.
// Pure: no page, no language, no connection; the game screen draws it and the server judges it.

import { bareToken, byColour, byNumber, readSet } from "./rules.js";

// Tiles are {id, t}: ids starting "t" were on the table when the turn began, "r" come from the rack.
export const fromRack = (tile) => tile.id[0] === "r";

let nextId = 0;
const tableTile = (text) => ({ id: `t${nextId++}`, t: text });
const rackTile = (text) => ({ id: `r${nextId++}`, t: text });

const copyWork = (work) => ({
  sets: work.sets.map((set) => ({ orig: set.orig, tiles: [...set.tiles] })),
  rack: [...work.rack],
});

export const compareFor = (mode) => (mode === "number" ? byNumber : byColour);

export class Draft {
  // table: the sets as the server has them; rack: the player's tiles, kept in the order of `order` where it holds them.
  constructor(table, rack, { order = [], sortMode = "colour" } = {}) {
    const sets = table.map((tiles, index) => ({ orig: index, tiles: tiles.map(tableTile) }));
    this.work = { sets, rack: orderLike(rack, order, sortMode).map(rackTile) };
    this.base = copyWork(this.work);
    this.history = [];
    this.future = [];
  }

  get sets() {
    return this.work.sets;
  }

  get rack() {
    return this.work.rack;
  }

  get canUndo() {
    return this.history.length > 0;
  }

  get canRedo() {
    return this.future.length > 0;
  }

  // Every change goes through here: the arrangement before it can be had back.
  change(apply) {
    this.history.push(copyWork(this.work));
    this.future = [];
    apply(this.work);
    this.work.sets = this.work.sets.filter((set) => set.tiles.length > 0);
  }

  undo() {
    if (!this.history.length) return false;
    this.future.push(copyWork(this.work));
    this.work = this.history.pop();
    return true;
  }

  redo() {
    if (!this.future.length) return false;
    this.history.push(copyWork(this.work));
    this.work = this.future.pop();
    return true;
  }

  // Everything back as the turn began (itself a change, so it can be undone).
  resetTurn() {
    this.change((work) => Object.assign(work, copyWork(this.base)));
  }

  // A sort is not a move to take back: the rack is sorted in every arrangement undo or redo can bring
  // back (and in the turn's start), so Undo takes back the last tile moved and the rack stays in order.
  sortRack(mode) {
    const compare = compareFor(mode);
    const sort = (rack) => rack.sort((a, b) => compare(a.t, b.t));
    for (const work of [this.work, this.base, ...this.history, ...this.future]) sort(work.rack);
  }

  find(id) {
    for (const set of this.work.sets) {
      const index = set.tiles.findIndex((tile) => tile.id === id);
      if (index >= 0) return { list: set.tiles, index, set };
    }
    const index = this.work.rack.findIndex((tile) => tile.id === id);
    return index >= 0 ? { list: this.work.rack, index, set: null } : null;
  }

  // The ids that may go to a target: table tiles never go back to the rack; off-turn, only the rack can be reordered.
  movable(ids, target, { myTurn }) {
    const toRack = target === "rack";
    return ids.filter((id) => {
      const place = this.find(id);
      if (!place) return false;
      if (toRack && !fromRack({ id })) return false;
      return myTurn || (toRack && place.set === null);
    });
  }

  // Move tiles to a target ("set:N", "new" or "rack") before the index-th tile left there.
  moveTiles(ids, target, index = null) {
    if (!ids.length) return;
    this.change((work) => {
      const tiles = ids.map((id) => {
        const place = this.find(id);
        return place.list.splice(place.index, 1)[0];
      });
      let list;
      if (target === "new") {
        list = [];
        work.sets.push({ orig: null, tiles: list });
      } else if (target === "rack") {
        list = work.rack;
      } else {
        list = work.sets[Number(target.slice(4))].tiles;
      }
      list.splice(index === null ? list.length : Math.min(index, list.length), 0, ...tiles);
    });
  }

  // One place along its set or the rack; false when it is already at that end.
  shift(id, step) {
    const place = this.find(id);
    const to = place ? place.index + step : -1;
    if (to < 0 || to >= place.list.length) return false;
    this.change(() => place.list.splice(to, 0, place.list.splice(place.index, 1)[0]));
    return true;
  }

  // The tiles of a set as the server will read them: a changed set's jokers lose a named meaning.
  tokensOf(set) {
    const original = set.orig !== null ? this.base.sets[set.orig] : null;
    const unchanged = original && original.tiles.length === set.tiles.length && original.tiles.every((tile, index) => tile.id === set.tiles[index].id);
    return set.tiles.map((tile) => (unchanged ? tile.t : bareToken(tile.t)));
  }

  // The table to send with play.
  table() {
    return this.work.sets.map((set) => this.tokensOf(set));
  }

  // The table to show others while it is built.
  liveTable() {
    return this.work.sets.map((set) => set.tiles.map((tile) => bareToken(tile.t)));
  }

  // What the turn would be. rules: the room's rules; melded: whether the player has made the initial meld.
  // reason is null when the turn may end, else {key, params} naming what stops it.
  check(rules, melded) {
    const wrap = Boolean(rules.wrap);
    const readings = this.work.sets.map((set) => readSet(this.tokensOf(set), { wrap }));
    const placed = this.work.sets.reduce((count, set) => count + set.tiles.filter(fromRack).length, 0);
    const need = rules.initial_meld_points ?? 30;
    const strict = Boolean(rules.initial_meld_strict);
    let meldValue = 0;
    let touched = false;
    if (!melded) {
      this.work.sets.forEach((set, index) => {
        if (set.tiles.every(fromRack) && readings[index].ok) meldValue += readings[index].value;
      });
      const unchanged = (set) => {
        const before = this.base.sets[set.orig];
        return before.tiles.length === set.tiles.length && set.tiles.every((tile) => before.tiles.some((old) => old.id === tile.id));
      };
      const kept = this.work.sets.filter((set) => set.orig !== null && unchanged(set)).length;
      touched = kept !== this.base.sets.length && !rules.initial_meld_lay_off;
    }
    const invalid = readings.filter((reading) => !reading.ok).length;
    const enough = strict ? meldValue > need : meldValue >= need;
    let reason = null;
    if (placed === 0) reason = { key: "reason_nothing_placed", params: {} };
    else if (invalid === 1) reason = { key: "reason_invalid_set", params: {} };
    else if (invalid > 1) reason = { key: "reason_invalid_sets", params: { n: invalid } };
    else if (touched) reason = { key: "reason_touch_table", params: {} };
    else if (!melded && !enough) reason = { key: strict ? "reason_meld_low_strict" : "reason_meld_low", params: { value: meldValue, need } };
    return { readings, placed, melded, meldValue, need, enough, reason };
  }

  // Arrange the turn's tiles as a whole table (a hint's), starting from the table as it was; the placed rack tiles' ids.
  applyTable(tableSets) {
    let placed = [];
    this.change((work) => {
      const start = copyWork(this.base);
      const tableTiles = start.sets.flatMap((set) => set.tiles);
      const rackTiles = [...start.rack];
      const take = (pool, text) => {
        const index = pool.findIndex((tile) => bareToken(tile.t) === bareToken(text));
        return index >= 0 ? pool.splice(index, 1)[0] : null;
      };
      const sets = tableSets.map((texts) => {
        const tiles = texts.map((text) => take(tableTiles, text) || take(rackTiles, text)).filter(Boolean);
        const origin = start.sets.findIndex((set) => set.tiles.length === tiles.length && set.tiles.every((tile, index) => tile.id === tiles[index].id));
        return { orig: origin >= 0 ? origin : null, tiles };
      });
      work.sets = sets;
      work.rack = rackTiles;
      placed = sets.flatMap((set) => set.tiles.filter(fromRack).map((tile) => tile.id));
    });
    return placed;
  }
}

// --- Comparing tables and racks --------------------------------------------------

export function sameTiles(a, b) {
  if (!a || !b) return a === b;
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

// The tiles a play added to the table, as bare tokens with counts.
export function newTiles(before, after) {
  const counts = new Map();
  for (const text of before.flat()) counts.set(bareToken(text), (counts.get(bareToken(text)) || 0) + 1);
  const added = new Map();
  for (const text of after.flat()) {
    const key = bareToken(text);
    if (counts.get(key)) counts.set(key, counts.get(key) - 1);
    else added.set(key, (added.get(key) || 0) + 1);
  }
  return added;
}

// The ids of the table tiles the last move added (the last of each kind, as the new sets come last).
export function markNew(sets, added) {
  const left = new Map(added);
  const ids = new Set();
  for (const set of [...sets].reverse()) {
    for (const tile of set.tiles) {
      const key = bareToken(tile.t);
      if (left.get(key)) {
        left.set(key, left.get(key) - 1);
        ids.add(tile.id);
      }
    }
  }
  return ids;
}

// The ids of rack tiles that were not on the rack before (a drawn tile).
export function markNewRack(rack, before) {
  const counts = new Map();
  for (const text of before) counts.set(text, (counts.get(text) || 0) + 1);
  const ids = new Set();
  for (const tile of rack) {
    if (counts.get(tile.t)) counts.set(tile.t, counts.get(tile.t) - 1);
    else ids.add(tile.id);
  }
  return ids;
}

// The ids of rack tiles holding the texts (each text marks one tile): the tiles drawn, found again in a new rack.
export function pickTiles(rack, texts) {
  const counts = new Map();
  for (const text of texts) counts.set(text, (counts.get(text) || 0) + 1);
  const ids = new Set();
  for (const tile of rack) {
    if (counts.get(tile.t)) {
      counts.set(tile.t, counts.get(tile.t) - 1);
      ids.add(tile.id);
    }
  }
  return ids;
}

// The texts of the tiles a rack holds that the rack before did not (a draw, a timeout's penalty).
export function tilesAdded(rack, before) {
  const counts = new Map();
  for (const text of before) counts.set(text, (counts.get(text) || 0) + 1);
  return rack.filter((text) => {
    if (!counts.get(text)) return true;
    counts.set(text, counts.get(text) - 1);
    return false;
  });
}

// The rack in the order the player had it, new tiles sorted into place by the chosen order.
export function orderLike(rack, oldOrder, mode) {
  const compare = compareFor(mode);
  const sorted = [...rack].sort(compare);
  if (!oldOrder.length) return sorted;
  const left = [...sorted];
  const kept = [];
  for (const text of oldOrder) {
    const index = left.indexOf(text);
    if (index >= 0) kept.push(left.splice(index, 1)[0]);
  }
  for (const text of left) {
    const at = kept.findIndex((other) => compare(text, other) < 0);
    kept.splice(at < 0 ? kept.length : at, 0, text);
  }
  return kept;
}
