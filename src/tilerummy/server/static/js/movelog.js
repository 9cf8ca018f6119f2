// The move log: what each turn did, as one line in the player's language ("Ana placed 5♥ 6♥ 7♥ and
// moved 7♠ to a new group"). Pure: the words come from the t() it is given, tiles are named by label().

import { bareToken, readSet } from "./rules.js";

// A turn as the log keeps it: {kind: "play" | "draw" | "pass" | "timeout", seat, placed, moved, drawn, tiles}.
// placed: tokens laid from the rack; moved: [{tiles, into: "new_run" | "run" | "new_group" | ...}];
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
  const placed = [];
  const moved = [];
  rest.forEach((tiles, index) => {
    const movedHere = [];
    for (const text of tiles) {
      const key = bareToken(text);
      if (onTable.get(key)) {
        onTable.set(key, onTable.get(key) - 1);
        movedHere.push(text);
      } else {
        placed.push(text);
      }
    }
    if (movedHere.length) {
      const reading = readSet(after[index], { wrap });
      const kind = reading.ok ? reading.kind : "set";
      moved.push({ tiles: movedHere, into: origin.has(index) ? kind : `new_${kind}` });
    }
  });
  return { placed, moved };
}

// The line for a turn. name: the player as the page names them; label: a tile's short name.
export function describe(entry, { t, name, label = (text) => text }) {
  const tiles = (list) => list.map(label).join(" ");
  if (entry.kind === "draw") {
    return entry.tiles ? t("log_drew_tiles", { name, tiles: tiles(entry.tiles) }) : t("log_drew", { name });
  }
  if (entry.kind === "pass") return t("log_passed", { name });
  if (entry.kind === "timeout") return t("log_timeout", { name, n: entry.drawn });
  const clauses = [];
  if (entry.placed.length) clauses.push(t("log_placed", { tiles: tiles(entry.placed) }));
  for (const move of entry.moved) clauses.push(t(`log_moved_${move.into}`, { tiles: tiles(move.tiles) }));
  if (!clauses.length) return t("log_rearranged", { name });
  const last = clauses.pop();
  const what = clauses.length ? t("log_and", { first: clauses.join(", "), last }) : last;
  return t("log_play", { name, what });
}
