// The post-game analysis on the page: every turn against the most tiles that could have been placed,
// each player's summary, and the best play on demand, drawn with tiles. The result dialog and the replay
// both show it; the server works it out once per game, which can take several seconds.

import { ranking, reviewGame, verdict } from "./analysis.js";
import { parseKeepingSeeds } from "./fairdeal.js";
import { t } from "./i18n.js";
import { logLine } from "./logline.js";
import { frames, notOn, wrapOf } from "./record.js";
import { h, modal, tileFace } from "./ui.js";

// Each game's record and analysis, asked for once per page: a second look shows them at once.
const loads = new Map();

async function fetchJson(url) {
  const response = await fetch(url);
  return { status: response.status, data: response.ok ? parseKeepingSeeds(await response.text()) : null };
}

// {status: "ready", record, positions, reviews, analysis} or {status: "not_over" | "failed"}.
export function loadReview(gameId) {
  if (!loads.has(gameId)) {
    const id = encodeURIComponent(gameId);
    const load = (async () => {
      try {
        const [record, analysis] = await Promise.all([fetchJson(`/api/games/${id}/record`), fetchJson(`/api/games/${id}/analysis`)]);
        if (analysis.status === 409) return { status: "not_over" };
        if (!record.data || !analysis.data) return { status: "failed" };
        const positions = frames(record.data);
        const reviews = reviewGame(analysis.data, positions, { wrap: wrapOf(record.data) });
        return { status: "ready", record: record.data, positions, reviews, analysis: analysis.data };
      } catch {
        return { status: "failed" };
      }
    })();
    // A failed analysis may be asked for again (the server may be less busy then).
    load.then((review) => review.status !== "ready" && loads.delete(gameId));
    loads.set(gameId, load);
  }
  return loads.get(gameId);
}

// While the server works: what it is doing and for how long, so the wait never looks frozen.
function progress(box) {
  const started = Date.now();
  const line = h("p", { class: "analysis-progress", role: "status" });
  const tick = () => {
    if (!line.isConnected && Date.now() - started > 1000) return clearInterval(timer);
    line.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), " ", t("analysis_working", { n: Math.floor((Date.now() - started) / 1000) }));
  };
  const timer = setInterval(tick, 500);
  tick();
  box.replaceChildren(line);
  return () => clearInterval(timer);
}

function failure(box, review, retry) {
  box.replaceChildren(
    h("p", { class: "analysis-error", role: "alert" }, t(review.status === "not_over" ? "analysis_not_over" : "analysis_failed")),
    review.status === "failed" ? h("button", { class: "secondary", id: "analysis-retry", onclick: retry }, t("analysis_retry")) : null,
  );
}

// Loads the analysis into box, showing the wait and any failure there; then(review) once it is ready.
export async function fillWhenReady(box, gameId, then) {
  const stop = progress(box);
  const review = await loadReview(gameId);
  stop();
  if (review.status !== "ready") return failure(box, review, () => fillWhenReady(box, gameId, then));
  then(review);
}

// The whole analysis, for the result dialog: the summary, then every turn. name(seat) names a seat.
export function analysisPanel(gameId, name) {
  const box = h("div", { class: "analysis", id: "analysis" });
  fillWhenReady(box, gameId, (review) =>
    box.replaceChildren(
      summaryTable(review.analysis, name),
      h("h3", {}, t("analysis_turns")),
      h("ol", { class: "analysis-turns", id: "analysis-turns" }, [...review.reviews.values()].map((turn) => turnItem(turn, review, name))),
    ),
  );
  return box;
}

export function summaryTable(analysis, name) {
  return h(
    "table",
    { class: "scores analysis-summary", id: "analysis-summary" },
    h("caption", {}, t("analysis_summary")),
    h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("analysis_missed_tiles")), h("th", {}, t("analysis_better_turns")))),
    h(
      "tbody",
      {},
      ranking(analysis).map((player) =>
        h("tr", {}, h("td", {}, name(player.seat)), h("td", {}, player.missed_tiles), h("td", {}, t("analysis_of_turns", { n: player.turns_with_better_play, turns: player.turns }))),
      ),
    ),
  );
}

function turnItem(turn, review, name) {
  const played = logLine(turn.played, name(turn.seat));
  return h("li", { class: `analysis-turn ${verdict(turn)}`, dataset: { index: turn.index } }, h("span", { class: "played" }, played), " ", turnVerdict(turn, review, name));
}

// A turn's verdict ("The most possible" or "Could have placed 5 tiles"), the best play a tap away.
export function turnVerdict(turn, review, name) {
  const text = turn.best === 0 ? t("analysis_nothing") : turn.missed > 0 ? t("analysis_missed", { best: turn.best, placed: turn.placed }) : t("analysis_best");
  const line = h("span", { class: `verdict-text ${verdict(turn)}` }, turn.missed > 0 ? "✗ " : "✓ ", text);
  if (!turn.missed || !turn.bestEntry) return line;
  return h("span", { class: "analysis-verdict" }, line, bestPlay(turn, review, name));
}

function bestPlay(turn, review, name) {
  // The tiles the best play lays from the rack stand out on its table.
  const fromRack = notOn(review.positions[turn.index].table);
  return h(
    "details",
    { class: "best-play" },
    h("summary", {}, t("analysis_show_best")),
    h("p", {}, logLine(turn.bestEntry, name(turn.seat))),
    h("div", { class: "table best-table" }, turn.bestTable.map((set) => h("div", { class: "set valid" }, h("div", { class: "tiles" }, set.map((text) => tileFace(text, { class: fromRack(text) ? "last" : "" })))))),
  );
}

// The analysis over the result: a dialog of its own.
export function showAnalysis(gameId, name) {
  modal("analysis", t("analysis_title"), () => [h("p", { class: "muted" }, t("analysis_about")), analysisPanel(gameId, name)]);
}
