// The move log's lines on the page: tiles written as the table shows them. As tiles, each is a small
// tile of its colour (spoken as "red 10"); as playing cards, its card ("10♥", "Q♦").

import { t } from "./i18n.js";
import { describe } from "./movelog.js";
import { isJoker, parseToken } from "./rules.js";
import { h, settings, tileLabel, tileSpoken } from "./ui.js";

// Marks a tile inside a line's text, to be drawn as a tile once the line is worded.
const MARK = "\u0001";

// The line for a turn, as an element (a string with cards). name: the player as the page names them.
export function logLine(entry, name) {
  if (settings.cards) return describe(entry, { t, name, label: tileLabel });
  const text = describe(entry, { t, name, label: (token) => `${MARK}${token}${MARK}` });
  return h("span", { class: "log-line" }, text.split(MARK).map((part, index) => (index % 2 ? miniTile(part) : part)));
}

// The same line as words, for a screen reader's label: tiles named by colour and number.
export function logText(entry, name) {
  return describe(entry, { t, name, label: settings.cards ? tileLabel : tileSpoken });
}

function miniTile(token) {
  const joker = isJoker(token);
  const colour = joker ? "J" : parseToken(token).colour;
  return h("span", { class: `log-tile c-${colour}`, role: "img", "aria-label": tileSpoken(token), title: tileSpoken(token) }, joker ? "☺" : String(parseToken(token).number));
}
