// Every text the page shows comes from one catalogue per language (static/i18n/LANG.json).

export const LANGUAGES = { en: "English", es: "Español", it: "Italiano", pt: "Português" };
const STORAGE_KEY = "tilerummy.lang";

let catalogue = {};
let fallback = {};
let current = "en";

export function chosenLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
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
  document.documentElement.lang = lang;
}

export const language = () => current;

// t("meld_counter", {value: 24, need: 30}) -> "24 / 30"; a missing key shows itself, to be noticed.
export function t(key, params = {}) {
  const text = catalogue[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
