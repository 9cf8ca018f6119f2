// A finished game's deal worked out again from its revealed seed, as the engine deals (deal.py, on Python's
// random.Random), and every seat's tiles left at the end, from the record's actions. Pure: no page, no
// connection; the result dialog shows the others' tiles left with it once the seed is out.

import { bareToken } from "./rules.js";

const RACK_SIZE = 14;
const COLOURS = ["R", "B", "Y", "K"];
const N = 624;
const M = 397;

// Python's Mersenne Twister (MT19937 seeded by init_by_array, as random.Random(int) seeds it).
class Twister {
  constructor(seed) {
    let rest = BigInt(seed < 0n ? -seed : seed);
    const key = [];
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    this.mt = new Uint32Array(N);
    this.index = N;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const previous = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      this.mt[i] = (this.mt[i] ^ Math.imul(previous, 1664525)) + key[j] + j;
      i += 1;
      j += 1;
      if (i >= N) {
        this.mt[0] = this.mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const previous = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      this.mt[i] = (this.mt[i] ^ Math.imul(previous, 1566083941)) - i;
      i += 1;
      if (i >= N) {
        this.mt[0] = this.mt[N - 1];
        i = 1;
      }
    }
    this.mt[0] = 0x80000000;
  }

  initGenrand(seed) {
    this.mt[0] = seed;
    for (let i = 1; i < N; i++) {
      const previous = this.mt[i - 1] ^ (this.mt[i - 1] >>> 30);
      this.mt[i] = Math.imul(previous, 1812433253) + i;
    }
  }

  uint32() {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
        mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  // random.getrandbits(k) for 0 < k <= 32.
  bits(k) {
    return this.uint32() >>> (32 - k);
  }

  // random._randbelow(n): a whole number in [0, n), n below 2^32.
  below(n) {
    const k = n.toString(2).length;
    let r = this.bits(k);
    while (r >= n) r = this.bits(k);
    return r;
  }

  shuffle(list) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
}

// The set's tiles in the engine's fixed order (tiles.py, TileSet.pieces): every number of every colour, its
// copies together, then the jokers.
function pieces(tileSet) {
  const six = tileSet === "six-player";
  const copies = six ? 3 : 2;
  const list = [];
  for (const colour of COLOURS) for (let number = 1; number <= 13; number++) for (let copy = 0; copy < copies; copy++) list.push(`${colour}${number}`);
  for (let copy = 0; copy < (six ? 4 : 2); copy++) list.push("J");
  return list;
}

const isJokerText = (text) => text === "J";

function drawForFirst(all, players, rng) {
  let deck = [...all];
  rng.shuffle(deck);
  let contenders = [...Array(players).keys()];
  for (;;) {
    const drawn = new Map();
    for (const seat of contenders) {
      for (;;) {
        if (!deck.length) {
          deck = [...all];
          rng.shuffle(deck);
        }
        const tile = deck.pop();
        if (!isJokerText(tile)) {
          drawn.set(seat, Number(tile.slice(1)));
          break;
        }
      }
    }
    const top = Math.max(...drawn.values());
    contenders = contenders.filter((seat) => drawn.get(seat) === top);
    if (contenders.length === 1) return contenders[0];
  }
}

// The deal of `players` seats from `seed` (a BigInt or its decimal text) under the rules (the room's, in full):
// {racks, pool, first}, tiles as text; null for rules the page does not deal (duplicates redrawn).
export function dealFromSeed(rules, players, seed) {
  if (rules.redraw_duplicates) return null;
  const rng = new Twister(BigInt(seed));
  const all = pieces(rules.tile_set);
  const first = rules.first_player === "random" ? rng.below(players) : drawForFirst(all, players, rng);
  const shuffled = [...all];
  rng.shuffle(shuffled);
  const racks = [...Array(players).keys()].map((seat) => shuffled.slice(seat * RACK_SIZE, (seat + 1) * RACK_SIZE));
  return { racks, pool: shuffled.slice(players * RACK_SIZE), first };
}

// Every seat's tiles at the end of the record (GET /api/games/{id}/record, read with parseKeepingSeeds), under
// the room's rules in full; null where the page cannot work them out (draws from a seat's own share of the pool).
export function tilesLeft(record, rules) {
  if (record.seed == null || (rules.pool_draws && rules.pool_draws !== "shared")) return null;
  const deal = dealFromSeed(rules, record.players.length, record.seed);
  if (!deal) return null;
  const racks = deal.racks.map((rack) => [...rack]);
  let pool = [...deal.pool];
  let table = [];
  const penalty = rules.timeout_penalty ?? 3;
  for (const action of record.actions) {
    const rack = racks[action.seat];
    if (action.type === "play") {
      const after = action.table.trim() ? action.table.split("|").map((set) => set.trim().split(/[\s,]+/).filter(Boolean)) : [];
      const before = new Map();
      for (const text of table.flat()) before.set(bareToken(text), (before.get(bareToken(text)) || 0) + 1);
      for (const text of after.flat()) {
        const key = bareToken(text);
        if (before.get(key)) {
          before.set(key, before.get(key) - 1);
          continue;
        }
        const at = rack.indexOf(key);
        if (at < 0) return null;
        rack.splice(at, 1);
      }
      table = after;
    } else if (action.type === "draw" || action.type === "timeout") {
      const count = Math.min(action.type === "draw" ? 1 : penalty, pool.length);
      rack.push(...pool.slice(0, count));
      pool = pool.slice(count);
    }
  }
  return racks;
}

// A rack's value as the round scores it: the numbers, a joker counting the joker penalty.
export function rackValue(rack, jokerPenalty = 30) {
  return rack.reduce((sum, text) => sum + (isJokerText(bareToken(text)) ? jokerPenalty : Number(text.slice(1))), 0);
}
