// Small shared pieces: building elements, tiles, toasts and sounds.

import { isJoker, parseToken } from "./rules.js";
import { t } from "./i18n.js";

// h("button", {class: "x", onclick}, "text", child) -> an element.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value == null) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// Icons drawn inline: emoji fonts are missing on many machines.
const ICONS = {
  sound: '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>',
  muted: '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  bulb: '<path d="M12 3a6 6 0 0 0-3.5 10.9V16h7v-2.1A6 6 0 0 0 12 3z" fill="currentColor"/><path d="M9 18.5h6M10 21h4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  bot: '<rect x="5" y="8" width="14" height="11" rx="3" fill="currentColor"/><circle cx="9.5" cy="13" r="1.6" fill="#fff"/><circle cx="14.5" cy="13" r="1.6" fill="#fff"/><path d="M12 4v4" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="3.5" r="1.5" fill="currentColor"/>',
  clock: '<circle cx="12" cy="13" r="8" stroke="currentColor" stroke-width="2" fill="none"/><path d="M12 9v4l3 2M10 2h4" stroke="currentColor" stroke-width="2" stroke-linecap="round" fill="none"/>',
  cards: '<rect x="4" y="3" width="12" height="17" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M10 8.5c-1.4-1.9-4 .2-2.2 2.1L10 13l2.2-2.4c1.8-1.9-.8-4-2.2-2.1z" fill="currentColor"/><path d="M18 6l2 .6-3.6 13.2-4.4-1.2" stroke="currentColor" stroke-width="2" fill="none"/>',
  first: '<path d="M6 5v14" stroke="currentColor" stroke-width="2.5"/><path d="M19 5L8 12l11 7z" fill="currentColor"/>',
  last: '<path d="M18 5v14" stroke="currentColor" stroke-width="2.5"/><path d="M5 5l11 7-11 7z" fill="currentColor"/>',
  play: '<path d="M7 5l12 7-12 7z" fill="currentColor"/>',
  pause: '<path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor"/>',
  lock: '<rect x="5" y="10" width="14" height="11" rx="2" fill="currentColor"/><path d="M8 10V7a4 4 0 0 1 8 0v3" stroke="currentColor" stroke-width="2.2" fill="none"/>',
  chat: '<path d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H10l-5 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" fill="currentColor"/>',
  tiles: '<rect x="3" y="4" width="8" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><rect x="13" y="8" width="8" height="12" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M6 9h2M16 13h2" stroke="currentColor" stroke-width="2"/>',
};

export function icon(name) {
  const span = document.createElement("span");
  span.className = `svg-icon icon-${name}`;
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 24 24" width="1.2em" height="1.2em">${ICONS[name]}</svg>`;
  return span;
}

export const SUITS = { R: "♥", B: "♣", Y: "♦", K: "♠" };
const COLOUR_KEYS = { R: "colour_red", B: "colour_blue", Y: "colour_yellow", K: "colour_black" };
const CARD_RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };

export const settings = {
  cards: localStorage.getItem("tilerummy.cards") === "1",
  // Until the player picks, a game whose rules show cards shows cards.
  cardsChosen: localStorage.getItem("tilerummy.cards") !== null,
  muted: localStorage.getItem("tilerummy.muted") === "1",
};

export function saveSettings() {
  settings.cardsChosen = true;
  localStorage.setItem("tilerummy.cards", settings.cards ? "1" : "0");
  localStorage.setItem("tilerummy.muted", settings.muted ? "1" : "0");
}

// A tile's short name in texts: "5♥", or "Q♦" with cards; the joker is "★".
export function tileLabel(text) {
  if (isJoker(text)) return "★";
  const tile = parseToken(text);
  const rank = settings.cards ? CARD_RANKS[tile.number] ?? tile.number : tile.number;
  return `${rank}${SUITS[tile.colour]}`;
}

// The words a screen reader says for a tile: "red 5", "joker".
export function tileSpoken(text) {
  if (isJoker(text)) return t("joker");
  const tile = parseToken(text);
  return t("tile_spoken", { colour: t(COLOUR_KEYS[tile.colour]), number: tile.number });
}

// A tile (or card) face; the caller adds behaviour.
export function tileFace(text, attributes = {}) {
  const joker = isJoker(text);
  const tile = joker ? null : parseToken(text);
  const colour = joker ? "J" : tile.colour;
  const classes = ["tile", `c-${colour}`, settings.cards ? "card" : "", attributes.class || ""].join(" ");
  const face = [];
  if (joker) {
    // As a card, a "J" under the star would read as a jack: the star alone says joker.
    if (settings.cards) face.push(h("span", { class: "rank", "aria-hidden": "true" }, "★"));
    else face.push(h("span", { class: "rank" }, "☺"), h("span", { class: "suit" }, "J"));
  } else {
    const rank = settings.cards ? CARD_RANKS[tile.number] ?? tile.number : tile.number;
    face.push(h("span", { class: "rank" }, rank), h("span", { class: "suit", "aria-hidden": "true" }, SUITS[colour]));
  }
  return h("span", { ...attributes, class: classes, "aria-label": tileSpoken(text), title: tileSpoken(text) }, face);
}

// A dialog over the page (outside the screen, which is redrawn as the game goes on), closed by its
// button, Escape or a click beside it. name: its id prefix and class; body(close): its content.
export function modal(name, title, body) {
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => event.key === "Escape" && close();
  const overlay = h(
    "div",
    { class: `overlay help-overlay ${name}-overlay`, onclick: (event) => event.target === overlay && close() },
    h(
      "div",
      { class: `dialog ${name}-dialog`, role: "dialog", "aria-modal": "true", "aria-labelledby": `${name}-title` },
      h("h2", { id: `${name}-title` }, title),
      body(close),
      h("button", { class: "primary", id: `${name}-close`, onclick: close }, t("close")),
    ),
  );
  document.addEventListener("keydown", onKey);
  document.body.append(overlay);
  overlay.querySelector(`#${name}-close`).focus();
}

let toastTimer = null;
export function toast(text, kind = "info") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = text;
  box.className = `show ${kind}`;
  placeToast();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.className = ""), 3500);
}

// The message shown now goes away (the turn it spoke of is over).
export function clearToast() {
  const box = document.getElementById("toast");
  if (box) box.className = "";
}

// In a game the message takes its place in the page, between the table and the turn's status, so it
// covers none of the tiles it speaks of; elsewhere it floats at the top.
export function placeToast() {
  const box = document.getElementById("toast");
  const status = document.querySelector("main.game > .status");
  if (!box) return;
  if (status && box.nextElementSibling !== status) status.before(box);
  else if (!status && box.parentElement !== document.body) document.body.append(box);
}

// Whether the player asked for less movement (the system's setting).
export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Short beeps from the Web Audio API: nothing to download, nothing to license.
let audio = null;
const TUNES = {
  place: [[660, 0.05]],
  turn: [[523, 0.09], [784, 0.14]],
  error: [[196, 0.18]],
  tick: [[880, 0.04]],
  draw: [[392, 0.07]],
  win: [[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.3]],
};
export function beep(name) {
  if (settings.muted) return;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [frequency, seconds] of TUNES[name]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      oscillator.type = "triangle";
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + seconds);
      at += seconds * 0.9;
    }
  } catch {
    // No sound where the browser allows none; the game goes on.
  }
}
