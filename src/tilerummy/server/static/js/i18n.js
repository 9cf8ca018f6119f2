// Every text the page shows comes from one catalogue per language (static/i18n/LANG.json), written in
// ICU's message format: "{name}" puts in a value, "{n, plural, one {# tile} other {# tiles}}" words a
// count by the language's plural rules (Intl.PluralRules), "{kind, select, run {...} other {...}}"
// chooses by a word. No quoting: a catalogue never shows a brace.

// The languages the switch offers, by catalogue: "pt" is Brazilian Portuguese, "pt-PT" European.
export const LANGUAGES = { en: "English", es: "Español", it: "Italiano", pt: "Português (Brasil)", "pt-PT": "Português (Portugal)" };
// What the switch shows of each, and its locale: the page's lang attribute (for the voice a screen reader
// speaks it in) and its plural rules.
export const SHORT_NAMES = { en: "EN", es: "ES", it: "IT", pt: "PT-BR", "pt-PT": "PT-PT" };
export const LOCALES = { en: "en", es: "es", it: "it", pt: "pt-BR", "pt-PT": "pt-PT" };
// Where Portuguese is written as in Portugal (every Portuguese-speaking country but Brazil).
const EUROPEAN_PORTUGUESE = new Set(["PT", "AO", "MZ", "CV", "GW", "ST", "TL", "MO", "GQ", "LU", "CH"]);
const STORAGE_KEY = "tilerummy.lang";

let catalogue = {};
let fallback = {};
let current = "en";

// The catalogue for a language as a browser names it ("pt-PT", "pt_br", "ES"), or null for none.
export function catalogueFor(wanted) {
  const [language, region = ""] = String(wanted).replace("_", "-").split("-");
  const code = language.toLowerCase();
  if (code === "pt") return EUROPEAN_PORTUGUESE.has(region.toUpperCase()) ? "pt-PT" : "pt";
  return code in LANGUAGES ? code : null;
}

export function chosenLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = catalogueFor(wanted);
    if (code) return code;
  }
  return "en";
}

async function load(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  return response.json();
}

export async function setLanguage(lang, { remember = false } = {}) {
  if (!(lang in LANGUAGES)) lang = "en";
  // Remembered at once, so a page opened while the texts load speaks the new language.
  if (remember) localStorage.setItem(STORAGE_KEY, lang);
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalogue = lang === "en" ? fallback : await load(lang);
  current = lang;
  document.documentElement.lang = LOCALES[lang];
}

export const language = () => current;

// t("meld_counter", {value: 24, need: 30}) -> "24 / 30"; a missing key shows itself, to be noticed.
export function t(key, params = {}) {
  const own = catalogue[key];
  return own !== undefined ? formatMessage(own, params, LOCALES[current]) : formatMessage(fallback[key] ?? key, params, "en");
}

// --- The message format --------------------------------------------------------

const parsed = new Map();
const pluralRules = new Map();

// A message worded with these values in this locale: formatMessage("{n, plural, one {# tile} other {# tiles}}", {n: 1}, "en") -> "1 tile".
// A value the message names but is not given shows as its placeholder ("{n}"), to be noticed.
export function formatMessage(text, params = {}, locale = "en") {
  let nodes = parsed.get(text);
  if (!nodes) {
    nodes = parseMessage(text);
    parsed.set(text, nodes);
  }
  return render(nodes, params, locale, null);
}

// The plural rules of a locale, made once.
export function pluralRulesFor(locale) {
  if (!pluralRules.has(locale)) pluralRules.set(locale, new Intl.PluralRules(locale));
  return pluralRules.get(locale);
}

function render(nodes, params, locale, count) {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") out += node;
    else if (node.hash) out += count === null ? "#" : String(count);
    else if (!(node.name in params)) out += `{${node.name}}`;
    else if (node.type === "plural") {
      const value = Number(params[node.name]);
      const branch = node.options[`=${value}`] ?? node.options[pluralRulesFor(locale).select(value)] ?? node.options.other;
      out += render(branch, params, locale, value);
    } else if (node.type === "select") {
      out += render(node.options[String(params[node.name])] ?? node.options.other, params, locale, count);
    } else out += String(params[node.name]);
  }
  return out;
}

// A message read into its parts: text, {name} values, and plural and select choices with their branches.
// Throws a SyntaxError naming the place for a message that is not well formed (the catalogues' test reads them all).
export function parseMessage(text) {
  let at = 0;
  const fail = (what) => {
    throw new SyntaxError(`${what} at ${at} in ${JSON.stringify(text)}`);
  };
  const space = () => {
    while (/\s/.test(text[at] || "")) at += 1;
  };
  const word = () => {
    space();
    const match = /^[^\s{},]+/.exec(text.slice(at));
    if (!match) fail("a name expected");
    at += match[0].length;
    space();
    return match[0];
  };
  // Text and values up to the closing brace of a branch (or the end of the message).
  const message = (inPlural) => {
    const nodes = [];
    let literal = "";
    const flush = () => {
      if (literal) nodes.push(literal);
      literal = "";
    };
    while (at < text.length && text[at] !== "}") {
      const character = text[at];
      if (character === "{") {
        flush();
        at += 1;
        nodes.push(argument());
      } else if (character === "#" && inPlural) {
        flush();
        nodes.push({ hash: true });
        at += 1;
      } else {
        literal += character;
        at += 1;
      }
    }
    flush();
    return nodes;
  };
  const argument = () => {
    const name = word();
    if (text[at] === "}") {
      at += 1;
      return { name };
    }
    if (text[at] !== ",") fail("a comma or a closing brace expected");
    at += 1;
    const type = word();
    if (type !== "plural" && type !== "select") fail(`an unknown kind of value "${type}"`);
    if (text[at] !== ",") fail("a comma expected");
    at += 1;
    const options = {};
    space();
    while (text[at] !== "}") {
      const key = word();
      if (text[at] !== "{") fail(`a branch expected for "${key}"`);
      at += 1;
      options[key] = message(type === "plural");
      if (text[at] !== "}") fail("a closing brace expected");
      at += 1;
      space();
      if (at >= text.length) fail("a closing brace expected");
    }
    at += 1;
    if (!("other" in options)) fail(`no "other" branch for ${name}`);
    return { name, type, options };
  };
  const nodes = message(false);
  if (at < text.length) fail("an unmatched closing brace");
  return nodes;
}
