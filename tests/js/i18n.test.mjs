// Which language the page starts in, without a browser: node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, chosenLanguage } from "../../src/tilerummy/server/static/js/i18n.js";

// A browser whose languages are these, with this choice made on the page before (or none).
function browser(languages, saved = null) {
  const storage = { getItem: (key) => (key === "tilerummy.lang" ? saved : null) };
  Object.defineProperty(globalThis, "navigator", { value: { languages, language: languages[0] }, configurable: true, writable: true });
  Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true, writable: true });
}

test("the page speaks the browser's language, as the browser names it with or without a region", () => {
  assert.deepEqual(Object.keys(LANGUAGES), ["en", "es", "it", "pt"]);
  for (const code of Object.keys(LANGUAGES)) {
    for (const named of [code, `${code}-${code === "en" ? "GB" : "BR"}`, code.toUpperCase()]) {
      browser([named]);
      assert.equal(chosenLanguage(), code, named);
    }
  }
});

test("the first of the browser's languages that the page has, else English", () => {
  browser(["de-DE", "pt-PT", "es"]);
  assert.equal(chosenLanguage(), "pt");
  browser(["de-DE", "fr"]);
  assert.equal(chosenLanguage(), "en");
});

test("the language chosen on the page wins over the browser's, unless it is none the page has", () => {
  browser(["it-IT"], "es");
  assert.equal(chosenLanguage(), "es");
  browser(["it-IT"], "xx");
  assert.equal(chosenLanguage(), "it");
});
