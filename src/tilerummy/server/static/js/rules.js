// The rules of a set (group or run), read the way the engine reads them (src/tilerummy/melds.py),
// so the table can be marked valid or invalid while the player arranges it. The server's
// judgement when the turn ends is what counts; this only spares a round trip.

export const COLOURS = ["R", "B", "Y", "K"];
const MAX_NUMBER = 13;
// With the wrap option a 1 may stand after 13, as the run's 14th number.
const WRAPPED_ONE = MAX_NUMBER + 1;

class InvalidSet extends Error {
  constructor(key, params = {}) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

// "R5" -> {colour: "R", number: 5}; "J" -> joker; "J(B10)" -> joker with a named meaning.
export function parseToken(text) {
  const hinted = /^J\((.+)\)$/i.exec(text);
  if (hinted) return { colour: null, number: 0, hint: parseToken(hinted[1]) };
  if (text.toUpperCase() === "J") return { colour: null, number: 0, hint: null };
  const match = /^([RBYK])(\d+)$/i.exec(text);
  if (!match) throw new Error(`not a tile: ${text}`);
  return { colour: match[1].toUpperCase(), number: Number(match[2]), hint: null };
}

export const isJoker = (text) => text[0] === "J" || text[0] === "j";
export const bareToken = (text) => (isJoker(text) ? "J" : text.toUpperCase());
const nameOf = (tile) => (tile.colour === null ? "J" : `${tile.colour}${tile.number}`);
const numberTile = (colour, number) => `${colour}${number === WRAPPED_ONE ? 1 : number}`;
const known = (token) => (token.hint !== null ? token.hint : token);

// The set's reading: {ok: true, kind, value, jokers: [meaning per joker]} or {ok: false, key, params}.
export function readSet(texts, { wrap = false } = {}) {
  try {
    return { ok: true, ...readTokens(texts.map(parseToken), wrap) };
  } catch (error) {
    if (error instanceof InvalidSet) return { ok: false, key: error.key, params: error.params };
    throw error;
  }
}

function readTokens(tokens, wrap) {
  if (tokens.length < 3) throw new InvalidSet("too_short");
  const numbered = tokens.filter((token) => token.colour !== null);
  if (numbered.length === 0) throw new InvalidSet("no_number");
  const seen = new Set();
  for (const tile of numbered) {
    if (seen.has(nameOf(tile))) throw new InvalidSet("twice", { tile: nameOf(tile) });
    seen.add(nameOf(tile));
  }
  const hints = tokens.filter((token) => token.hint !== null).map((token) => token.hint);
  const numbers = new Set(numbered.map((tile) => tile.number));
  const colours = new Set(numbered.map((tile) => tile.colour));
  let canBeGroup = numbers.size === 1;
  let canBeRun = colours.size === 1;
  if (hints.length) {
    canBeGroup = canBeGroup && hints.every((hint) => numbers.has(hint.number));
    canBeRun = canBeRun && hints.every((hint) => colours.has(hint.colour));
  }
  if (canBeRun) {
    try {
      return readRun(tokens, wrap);
    } catch (error) {
      if (!canBeGroup) throw error;
    }
  }
  if (canBeGroup) return readGroup(tokens);
  if (hints.length && (numbers.size === 1 || colours.size === 1)) throw new InvalidSet("joker_meaning");
  throw new InvalidSet("neither");
}

function readGroup(tokens) {
  if (tokens.length > COLOURS.length) throw new InvalidSet("group_too_big");
  const numbered = tokens.filter((token) => token.colour !== null);
  const number = numbered[0].number;
  const present = new Set(numbered.map((tile) => tile.colour));
  const hints = tokens.filter((token) => token.hint !== null).map((token) => nameOf(token.hint));
  for (const hint of hints) {
    if (present.has(hint[0])) throw new InvalidSet("joker_taken", { tile: hint });
  }
  if (new Set(hints).size < hints.length) throw new InvalidSet("jokers_same");
  const missing = COLOURS.filter((colour) => !present.has(colour)).map((colour) => `${colour}${number}`);
  const jokers = tokens.filter((token) => token.colour === null).map(() => missing);
  return { kind: "group", value: number * tokens.length, jokers };
}

function readRun(tokens, wrap) {
  const colour = tokens.find((token) => token.colour !== null).colour;
  const start = startAsWritten(tokens, wrap);
  if (start === null) {
    try {
      return readUnorderedRun(tokens, colour, wrap);
    } catch (error) {
      raiseOnMisplacedWrap(tokens, wrap);
      throw error;
    }
  }
  const end = start + tokens.length - 1;
  if (start < 1) {
    throw new InvalidSet("below_one", { tile: nameOf(tokens.find((token) => token.colour !== null)) });
  }
  if (end > MAX_NUMBER && !(wrap && end === WRAPPED_ONE)) {
    if (wrap) throw new InvalidSet("after_wrap");
    throw new InvalidSet(end === WRAPPED_ONE ? "above_13_wrap" : "above_13");
  }
  return checkedRun(tokens, colour, start);
}

function startAsWritten(tokens, wrap) {
  const consistent = [];
  for (const wrapped of wrap ? [false, true] : [false]) {
    const starts = new Set();
    tokens.forEach((token, place) => {
      const tile = known(token);
      if (tile.colour === null) return;
      const number = wrapped && tile.number === 1 && place > 0 ? WRAPPED_ONE : tile.number;
      starts.add(number - place);
    });
    if (starts.size === 1) consistent.push([...starts][0]);
  }
  const top = wrap ? WRAPPED_ONE : MAX_NUMBER;
  for (const start of consistent) {
    if (start >= 1 && start + tokens.length - 1 <= top) return start;
  }
  return consistent.length ? consistent[0] : null;
}

function raiseOnMisplacedWrap(tokens, wrap) {
  for (let place = 0; place < tokens.length - 1; place++) {
    if (tokens[place].number === MAX_NUMBER && tokens[place + 1].number === 1) {
      throw new InvalidSet(wrap ? "after_wrap" : "wrap_only");
    }
  }
}

function readUnorderedRun(tokens, colour, wrap) {
  const byNumber = new Map();
  for (const token of tokens) {
    const tile = known(token);
    if (tile.colour === null) continue;
    if (byNumber.has(tile.number)) throw new InvalidSet("two_for_number", { tile: numberTile(colour, tile.number) });
    byNumber.set(tile.number, token);
  }
  const freeJokers = tokens.length - byNumber.size;
  const readings = [byNumber];
  if (wrap && byNumber.has(1) && !byNumber.has(2)) {
    readings.push(new Map([...byNumber].map(([number, token]) => [number === 1 ? WRAPPED_ONE : number, token])));
  }
  let fewestMissing = null;
  for (const reading of readings) {
    const numbers = [...reading.keys()].sort((a, b) => a - b);
    const low = numbers[0];
    const high = numbers[numbers.length - 1];
    const missing = [];
    for (let number = low; number <= high; number++) if (!reading.has(number)) missing.push(number);
    if (missing.length > freeJokers) {
      if (fewestMissing === null || missing.length < fewestMissing.length) fewestMissing = missing;
      continue;
    }
    const spare = freeJokers - missing.length;
    const top = wrap && low >= 2 ? WRAPPED_ONE : MAX_NUMBER;
    const above = Math.min(spare, Math.max(0, top - high));
    const start = low - (spare - above);
    if (start < 1) throw new InvalidSet("too_many_jokers");
    const ordered = [];
    for (let number = start; number < start + tokens.length; number++) {
      ordered.push(reading.get(number) ?? { colour: null, number: 0, hint: null });
    }
    return checkedRun(ordered, colour, start);
  }
  throw new InvalidSet("gap", { missing: fewestMissing.map((number) => numberTile(colour, number)).join(" ") });
}

function checkedRun(tokens, colour, start) {
  tokens.forEach((token, place) => {
    const expected = numberTile(colour, start + place);
    if (token.hint !== null && nameOf(token.hint) !== expected) {
      throw new InvalidSet("joker_place", { place: place + 1, tile: expected, hint: nameOf(token.hint) });
    }
  });
  if (start === 1 && start + tokens.length - 1 === WRAPPED_ONE) throw new InvalidSet("number_twice");
  let value = 0;
  const jokers = [];
  tokens.forEach((token, place) => {
    const number = start + place === WRAPPED_ONE ? 1 : start + place;
    value += number;
    if (token.colour === null) jokers.push([numberTile(colour, start + place)]);
  });
  return { kind: "run", value, jokers };
}

// Sort keys: by colour then number (runs side by side), or by number then colour (groups).
export function byColour(a, b) {
  return colourKey(a) - colourKey(b);
}
export function byNumber(a, b) {
  return numberKey(a) - numberKey(b);
}
function colourKey(text) {
  if (isJoker(text)) return 1000;
  const tile = parseToken(text);
  return COLOURS.indexOf(tile.colour) * 100 + tile.number;
}
function numberKey(text) {
  if (isJoker(text)) return 1000;
  const tile = parseToken(text);
  return tile.number * 10 + COLOURS.indexOf(tile.colour);
}
