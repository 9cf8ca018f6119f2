// The catalogues, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";

import { LANGUAGES, LOCALES, formatMessage, parseMessage } from "../../src/tilerummy/server/static/js/i18n.js";

const DIR = new URL("../../src/tilerummy/server/static/i18n/", import.meta.url);
const files = (await readdir(DIR)).filter((name) => name.endsWith(".json"));
const catalogues = Object.fromEntries(
  await Promise.all(files.map(async (name) => [name.slice(0, -5), JSON.parse(await readFile(new URL(name, DIR), "utf8"))])),
);
const english = catalogues.en;

// Every value a message names, with the kind of each ("plural", "select", or "value"), and its plural and select choices.
function argumentsOf(nodes, found = new Map()) {
  for (const node of nodes) {
    if (typeof node === "string" || node.hash) continue;
    const seen = found.get(node.name) || { kinds: new Set(), choices: [] };
    seen.kinds.add(node.type || "value");
    if (node.options) {
      seen.choices.push({ type: node.type, keys: Object.keys(node.options) });
      for (const branch of Object.values(node.options)) argumentsOf(branch, found);
    }
    found.set(node.name, seen);
  }
  return found;
}

test("there is one catalogue for each language the switch offers, and no other", () => {
  assert.deepEqual(Object.keys(catalogues).sort(), Object.keys(LANGUAGES).sort());
  assert.deepEqual(Object.keys(LANGUAGES), ["en", "es", "it", "pt", "pt-PT"]);
});

test("every catalogue has the same keys as the English one, in the same order", () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    assert.deepEqual(Object.keys(catalogue), Object.keys(english), language);
  }
});

test("every message is well formed and names the values its English names", () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const [key, text] of Object.entries(catalogue)) {
      assert.ok(text.trim(), `${language} ${key} is empty`);
      const own = argumentsOf(parseMessage(text));
      const theirs = argumentsOf(parseMessage(english[key]));
      assert.deepEqual([...own.keys()].sort(), [...theirs.keys()].sort(), `${language} ${key}`);
      // A count the English words by its number is worded by its number in every language.
      for (const [name, { kinds }] of theirs) {
        if (kinds.has("plural")) assert.ok(own.get(name).kinds.has("plural"), `${language} ${key}: ${name} has no plural`);
      }
    }
  }
});

test("no catalogue leaves a plural to the reader: no (s), (es), (i) or (e)", () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const [key, text] of Object.entries(catalogue)) {
      assert.doesNotMatch(text, /\w\((s|es|i|e|a|as|os)\)/, `${language} ${key}`);
    }
  }
});

test("every plural has a form for each of its language's plural categories, and choices are closed", () => {
  for (const [language, catalogue] of Object.entries(catalogues)) {
    const categories = new Intl.PluralRules(LOCALES[language]).resolvedOptions().pluralCategories;
    let plurals = 0;
    for (const [key, text] of Object.entries(catalogue)) {
      for (const [name, { choices }] of argumentsOf(parseMessage(text))) {
        for (const choice of choices) {
          assert.ok(choice.keys.includes("other"), `${language} ${key}: ${name} has no "other"`);
          if (choice.type !== "plural") continue;
          plurals += 1;
          for (const category of categories) assert.ok(choice.keys.includes(category), `${language} ${key}: ${name} has no "${category}" form`);
          for (const choiceKey of choice.keys) {
            assert.ok(categories.includes(choiceKey) || /^=\d+$/.test(choiceKey), `${language} ${key}: "${choiceKey}" is no category of ${language}`);
          }
        }
      }
    }
    assert.ok(plurals >= 10, `${language}: only ${plurals} plurals`);
  }
});

test("counts are worded by each language's own rules", () => {
  const say = (language, key, params) => formatMessage(catalogues[language][key], params, LOCALES[language]);
  assert.equal(say("en", "waiting_players", { n: 1 }), "Waiting for 1 more player");
  assert.equal(say("en", "waiting_players", { n: 2 }), "Waiting for 2 more players");
  assert.equal(say("es", "waiting_players", { n: 1 }), "Falta 1 jugador");
  assert.equal(say("es", "waiting_players", { n: 3 }), "Faltan 3 jugadores");
  assert.equal(say("it", "waiting_players", { n: 1 }), "Manca 1 giocatore");
  assert.equal(say("it", "timeout_you", { n: 1 }), "Tempo scaduto: hai pescato 1 tessera");
  assert.equal(say("it", "timeout_you", { n: 3 }), "Tempo scaduto: hai pescato 3 tessere");
  assert.equal(say("pt", "room_totals", { n: 1 }), "Total depois de 1 partida");
  assert.equal(say("pt-PT", "room_totals", { n: 2 }), "Total ao fim de 2 partidas");
  assert.equal(say("en", "your_rack", { n: 0 }), "Your rack, no tiles");
  assert.equal(say("en", "analysis_of_turns", { n: 1, turns: 1 }), "1 of 1 turn");
  // Brazilian Portuguese counts 0 and 1 alike, European Portuguese does not; a message says 0 its own way.
  assert.equal(new Intl.PluralRules(LOCALES.pt).select(0), "one");
  assert.equal(new Intl.PluralRules(LOCALES["pt-PT"]).select(0), "other");
  assert.equal(say("pt", "log_timeout", { name: "Ana", n: 0 }), "Ana ficou sem tempo e comprou nenhuma peça");
});

test("European Portuguese is its own: the player is tu, the joker a joker, a round a ronda", () => {
  const european = catalogues["pt-PT"];
  const brazilian = catalogues.pt;
  assert.equal(european.your_turn, "É a tua vez");
  assert.equal(brazilian.your_turn, "Sua vez");
  assert.equal(european.joker, "joker");
  assert.equal(european.match_round, "Ronda {n}");
  for (const [key, text] of Object.entries(european)) {
    assert.doesNotMatch(text, /\bvocê\b|\bcuringa|\brodada|\bregistro\b|\bcompartilh|\b(jogando|carregando|procurando|tentando|movendo|reconectando|assistindo|esperando|calculando|conferindo)\b/, `pt-PT ${key}: ${text}`);
  }
  for (const [language, catalogue] of Object.entries(catalogues)) {
    if (language !== "en") assert.notEqual(catalogue.watch_replay, english.watch_replay, `${language} watch_replay`);
  }
  assert.doesNotMatch(catalogues.es.key_pick + catalogues.es.key_new + catalogues.es.key_escape, /\bcog/);
});
