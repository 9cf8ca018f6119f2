// The move log: what each turn did, as one line in the player's language ("Ana placed 7♠ and moved 7♥
// from 4♥–7♥ to 7♣ 7♦ 7♠"). Pure: the words come from the t() it is given, tiles are named by label().

import { newTiles } from "./draft.js";
import { bareToken, readSet } from "./rules.js";

// A turn as the log keeps it: {kind: "play" | "draw" | "pass" | "timeout", seat, placed, moved, drawn, tiles}.
// placed: tokens laid from the rack (placedSets: the same, by the set each went to); moved: the table tiles each set took, [{tiles, kind, from, to, others}]:
// kind is the set's ("run", "group" or "set"), from the sets they left and to the set they joined (each
// {kind, tiles} as it was before the play; to is null for a new set, whose others are its other tiles);
// drawn: how many tiles were drawn; tiles: the drawn tiles when the reader may see them (their own draw).
export function playEntry(seat, before, after, { wrap = false } = {}) {
  return { kind: "play", seat, ...tableChange(before, after, { wrap }) };
}

export function drawEntry(kind, seat, drawn, tiles = null) {
  return { kind, seat, drawn, tiles };
}

// What a play did to the table: the rack tiles laid, and the table tiles that changed set (and where to).
export function tableChange(before, after, { wrap = false } = {}) {
  const count = (tiles) => {
    const counts = new Map();
    for (const text of tiles) counts.set(bareToken(text), (counts.get(bareToken(text)) || 0) + 1);
    return counts;
  };
  const overlap = (a, b) => {
    const left = count(b);
    let shared = 0;
    for (const text of a) {
      const key = bareToken(text);
      if (left.get(key)) {
        left.set(key, left.get(key) - 1);
        shared += 1;
      }
    }
    return shared;
  };
  // Each set of the new table comes from the old set it shares most with (each old set at most once).
  const pairs = [];
  after.forEach((set, index) => before.forEach((old, from) => pairs.push({ index, from, shared: overlap(set, old) })));
  pairs.sort((a, b) => b.shared - a.shared || a.index - b.index || a.from - b.from);
  const origin = new Map();
  const used = new Set();
  for (const pair of pairs) {
    if (pair.shared === 0 || origin.has(pair.index) || used.has(pair.from)) continue;
    origin.set(pair.index, pair.from);
    used.add(pair.from);
  }
  // A tile that stayed in its set is not news; of the rest, those the old table had were moved, the others placed.
  const onTable = count(before.flat());
  const rest = after.map((set, index) => {
    const stays = origin.has(index) ? count(before[origin.get(index)]) : new Map();
    return set.filter((text) => {
      const key = bareToken(text);
      if (!stays.get(key)) return true;
      stays.set(key, stays.get(key) - 1);
      onTable.set(key, onTable.get(key) - 1);
      return false;
    });
  });
  // Where the moved tiles came from: what each old set lost, taken in the order of the old table.
  const lost = before.map((old, from) => {
    const into = [...origin.entries()].find(([, source]) => source === from);
    const stays = into ? count(after[into[0]]) : new Map();
    return count(old.filter((text) => {
      const key = bareToken(text);
      if (!stays.get(key)) return true;
      stays.set(key, stays.get(key) - 1);
      return false;
    }));
  });
  const described = (set) => {
    const reading = readSet(set, { wrap });
    return { kind: reading.ok ? reading.kind : "set", tiles: [...set] };
  };
  const placed = [];
  const placedSets = [];
  const moved = [];
  rest.forEach((tiles, index) => {
    const movedHere = [];
    const placedHere = [];
    const sources = [];
    for (const text of tiles) {
      const key = bareToken(text);
      if (onTable.get(key)) {
        onTable.set(key, onTable.get(key) - 1);
        movedHere.push(text);
        const from = lost.findIndex((left) => left.get(key) > 0);
        if (from >= 0) {
          lost[from].set(key, lost[from].get(key) - 1);
          if (!sources.includes(from)) sources.push(from);
        }
      } else {
        placed.push(text);
        placedHere.push(text);
      }
    }
    if (placedHere.length) placedSets.push(placedHere);
    if (movedHere.length) {
      const existing = origin.has(index);
      const others = existing ? [] : after[index].filter((text) => !movedHere.includes(text));
      moved.push({
        tiles: movedHere,
        kind: described(after[index]).kind,
        from: sources.map((from) => described(before[from])),
        to: existing ? described(before[origin.get(index)]) : null,
        others,
      });
    }
  });
  return { placed, placedSets, moved };
}

// A set as the log names it: a run by its ends ("4♥–7♥"), any other set by its tiles ("7♥ 7♣ 7♠").
export function setName(set, label = (text) => text) {
  const tiles = set.tiles;
  if (set.kind === "run" && tiles.length > 2) return `${label(tiles[0])}–${label(tiles[tiles.length - 1])}`;
  return tiles.map(label).join(" ");
}

// The line for a turn. name: the player as the page names them; label: a tile's short name.
// "Ana placed 7♣ 7♠ and moved 7♥ from 4♥–7♥ to a new group with 7♣ 7♠": the rack tiles first, then
// each set that took tiles from the table, with where they came from.
export function describe(entry, { t, name, label = (text) => text }) {
  const tiles = (list) => list.map(label).join(" ");
  if (entry.kind === "draw") {
    return entry.tiles ? t("log_drew_tiles", { name, tiles: tiles(entry.tiles) }) : t("log_drew", { name });
  }
  if (entry.kind === "pass") return t("log_passed", { name });
  if (entry.kind === "timeout") return t("log_timeout", { name, n: entry.drawn });
  const clauses = [];
  // The rack tiles by the set each went to, the sets apart ("3♥ 4♥ 5♥ · 8♣ 8♠").
  const laid = entry.placedSets ? entry.placedSets.map(tiles).join(" · ") : tiles(entry.placed);
  if (entry.placed.length) clauses.push(t("log_placed", { tiles: laid }));
  const sets = (list) => {
    const names = list.map((set) => setName(set, label));
    const last = names.pop();
    return names.length ? t("log_and", { first: names.join(", "), last }) : last;
  };
  for (const move of entry.moved) {
    // A line kept from before the log said where tiles came from has nothing more to say of them.
    if (!move.from) continue;
    const said = { tiles: tiles(move.tiles), from: sets(move.from), kind: move.kind };
    if (move.to) clauses.push(t("log_moved", { ...said, to: setName(move.to, label) }));
    else if (move.others.length) clauses.push(t("log_moved_new", { ...said, others: tiles(move.others) }));
    else clauses.push(t("log_moved_new_alone", said));
  }
  if (!clauses.length) return t("log_rearranged", { name });
  const last = clauses.pop();
  const what = clauses.length ? t("log_and", { first: clauses.join(", "), last }) : last;
  return t("log_play", { name, what });
}

// The log of a game joined (or reloaded) while it is played, from the snapshot's history: every
// action with its count of moves; a play is read from the table before it (the last play's, empty at
// first) to the table after it. A draw names no tile: nobody but its player saw it.
export function historyEntries(history, { wrap = false } = {}) {
  const entries = [];
  let table = [];
  (history || []).forEach((move, index) => {
    const moves = index + 1;
    if (move.kind === "play" && move.table) {
      entries.push({ ...playEntry(move.seat, table, move.table, { wrap }), moves, standIn: false });
      table = move.table;
    } else if (move.kind !== "play") {
      entries.push({ ...drawEntry(move.kind, move.seat, move.drawn || 0), moves, standIn: false });
    }
  });
  return entries;
}

// The tiles the others placed that a seat has not yet had its turn after (bare tokens with counts), from
// the snapshot's history: every play by another seat since the seat's own last action; for a watcher
// (seat null), the latest play's. What a page that followed the game live marks, for one that did not.
export function othersPlaced(history, seat) {
  const placed = new Map();
  let table = [];
  for (const move of history || []) {
    if (seat !== null && move.seat === seat) placed.clear();
    if (move.kind !== "play" || !move.table) continue;
    if (move.seat !== seat) {
      if (seat === null) placed.clear();
      for (const [key, count] of newTiles(table, move.table)) placed.set(key, (placed.get(key) || 0) + count);
    }
    table = move.table;
  }
  return placed;
}
