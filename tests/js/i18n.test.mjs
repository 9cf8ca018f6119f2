// Which language the page starts in, and how its messages are worded, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, SHORT_NAMES, catalogueFor, chosenLanguage, formatMessage, parseMessage } from "../../src/tilerummy/server/static/js/i18n.js";

// A browser whose languages are these, with this choice made on the page before (or none).
function browser(languages, saved = null) {
  const storage = { getItem: (key) => (key === "tilerummy.lang" ? saved : null) };
  Object.defineProperty(globalThis, "navigator", { value: { languages, language: languages[0] }, configurable: true, writable: true });
  Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true, writable: true });
}

test("the page speaks the browser's language, as the browser names it with or without a region", () => {
  assert.deepEqual(Object.keys(LANGUAGES), ["en", "es", "it", "pt", "pt-PT"]);
  for (const code of ["en", "es", "it"]) {
    for (const named of [code, `${code}-${code === "en" ? "GB" : "US"}`, code.toUpperCase(), `${code}_MX`]) {
      browser([named]);
      assert.equal(chosenLanguage(), code, named);
    }
  }
});

test("Portuguese as in Brazil for Brazil and a bare pt, as in Portugal for Portugal and the other countries", () => {
  for (const named of ["pt", "pt-BR", "pt-br", "PT_BR"]) assert.equal(catalogueFor(named), "pt", named);
  for (const named of ["pt-PT", "pt-pt", "pt_PT", "pt-AO", "pt-MZ", "pt-CV"]) assert.equal(catalogueFor(named), "pt-PT", named);
  browser(["pt-PT", "pt", "en"]);
  assert.equal(chosenLanguage(), "pt-PT");
  browser(["pt-BR"]);
  assert.equal(chosenLanguage(), "pt");
});

test("the switch names both Portugueses apart", () => {
  assert.deepEqual(Object.keys(SHORT_NAMES), Object.keys(LANGUAGES));
  assert.equal(new Set(Object.values(SHORT_NAMES)).size, Object.keys(LANGUAGES).length);
  assert.equal(SHORT_NAMES.pt, "PT-BR");
  assert.equal(SHORT_NAMES["pt-PT"], "PT-PT");
});

test("the first of the browser's languages that the page has, else English", () => {
  browser(["de-DE", "pt-PT", "es"]);
  assert.equal(chosenLanguage(), "pt-PT");
  browser(["de-DE", "fr"]);
  assert.equal(chosenLanguage(), "en");
});

test("the language chosen on the page wins over the browser's, unless it is none the page has", () => {
  browser(["it-IT"], "es");
  assert.equal(chosenLanguage(), "es");
  browser(["it-IT"], "pt-PT");
  assert.equal(chosenLanguage(), "pt-PT");
  browser(["it-IT"], "xx");
  assert.equal(chosenLanguage(), "it");
});

test("a message puts in its values, chooses its plural form by the language's rules and an exact number first", () => {
  const tiles = "{n, plural, =0 {no tiles} one {# tile} other {# tiles}} for {name}";
  assert.equal(formatMessage(tiles, { n: 0, name: "Ana" }), "no tiles for Ana");
  assert.equal(formatMessage(tiles, { n: 1, name: "Ana" }), "1 tile for Ana");
  assert.equal(formatMessage(tiles, { n: 12, name: "Ana" }), "12 tiles for Ana");
  // A value not given shows itself, to be noticed.
  assert.equal(formatMessage("{n} and {m}", { n: 1 }), "1 and {m}");
  assert.equal(formatMessage("{n, plural, one {# peça} other {# peças}}", { n: 0 }, "pt-BR"), "0 peça");
  assert.equal(formatMessage("{n, plural, one {# peça} other {# peças}}", { n: 0 }, "pt-PT"), "0 peças");
  const kind = "{kind, select, run {a run of {tiles}} group {a group} other {a set}}";
  assert.equal(formatMessage(kind, { kind: "run", tiles: "R1 R2 R3" }), "a run of R1 R2 R3");
  assert.equal(formatMessage(kind, { kind: "mess", tiles: "" }), "a set");
  // The apostrophe is plain text (l'apertura), as the catalogues write it.
  assert.equal(formatMessage("l'apertura di {name}", { name: "Ugo" }), "l'apertura di Ugo");
});

test("a message that is not well formed is refused with its place", () => {
  assert.throws(() => parseMessage("{n, plural, one {x}"), /closing brace/);
  assert.throws(() => parseMessage("{n, plural, one {x}}"), /no "other"/);
  assert.throws(() => parseMessage("{n, number}"), /unknown kind/);
  assert.throws(() => parseMessage("a } b"), /unmatched/);
});
