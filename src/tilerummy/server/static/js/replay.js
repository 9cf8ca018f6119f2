// The replay of a finished game, from its record: the table after each action, step by step.

import { dealCheck, dealSeal } from "./dialogs.js";
import { parseKeepingSeeds, recordDeal } from "./fairdeal.js";
import { t } from "./i18n.js";
import { logLine } from "./logline.js";
import { frames, notOn } from "./record.js";
import { fillWhenReady, summaryTable, turnVerdict } from "./review.js";
import { h, icon, tileFace } from "./ui.js";

const STEP_MS = 900;

// The server names its bots by level ("Easy bot 2"); the page names them in the reader's language.
const BOT_NAME = /^(Random|Easy|Greedy|Hard|Expert) bot (\d+)$/;
export function shownName(name) {
  const bot = BOT_NAME.exec(name);
  return bot ? t("bot_name", { n: bot[2] }) : name;
}

function line(frame, names) {
  return frame.entry ? logLine(frame.entry, names[frame.entry.seat]) : t("replay_start");
}

export async function showReplay(root, header, gameId) {
  root.replaceChildren(header, h("main", { class: "home" }, h("p", { class: "muted" }, t("loading"))));
  let record;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`);
    record = parseKeepingSeeds(await response.text());
    if (!response.ok) throw new Error(record.error);
  } catch (error) {
    root.replaceChildren(header, h("main", { class: "home" }, h("section", { class: "panel" }, h("h2", {}, t("replay_title", { id: gameId })), h("p", {}, t("replay_missing")))));
    return;
  }
  const list = frames(record);
  const deal = recordDeal(record);
  const sealHolder = {};
  const nameOf = (seat) => names[seat];
  // The analysis, once asked for: the box shows the wait, then each step has its turn's verdict.
  let review = null;
  const analysisBox = h("div", { class: "analysis replay-analysis-box", id: "analysis" });
  const analyse = () => {
    analyseButton.disabled = true;
    view.querySelector("#replay-action").after(analysisBox);
    fillWhenReady(analysisBox, gameId, (ready) => {
      review = ready;
      analyseButton.remove();
      draw();
    });
  };
  const analyseButton = h("button", { class: "secondary", id: "replay-analyse", onclick: analyse }, t("analyse"));
  // The elements beside the step's line: the wait, or the turn's verdict (none before the first turn).
  function analysisLine() {
    if (!review) return analyseButton.disabled ? [analysisBox] : [];
    const turn = review.reviews.get(step - 1);
    return turn ? [h("div", { class: "analysis-line", id: "replay-analysis" }, turnVerdict(turn, review, nameOf))] : [];
  }
  const names = record.players.map(shownName);
  let step = 0;
  let timer = null;
  const view = h("div", { class: "replay-view" });
  const slider = h("input", { type: "range", min: 0, max: list.length - 1, value: 0, "aria-label": t("replay_step"), oninput: (event) => go(Number(event.target.value)) });
  const playButton = h("button", { class: "primary", id: "replay-play", onclick: () => toggle() });
  const showPlaying = (playing) => playButton.replaceChildren(icon(playing ? "pause" : "play"), t(playing ? "replay_pause" : "replay_play_button"));
  showPlaying(false);

  function draw() {
    const frame = list[step];
    const added = notOn(step > 0 ? list[step - 1].table : []);
    const isNew = (text) => added(text) && Boolean(frame.entry && frame.entry.kind === "play");
    slider.value = step;
    view.replaceChildren(
      h(
        "section",
        { class: "players" },
        names.map((name, seat) =>
          h("div", { class: `player ${frame.entry && frame.entry.seat === seat ? "turn" : ""}` }, h("span", { class: "name" }, name), h("span", { class: "count" }, h("span", { class: "mini-tile" }), t("tiles_n", { n: frame.racks[seat] }))),
        ),
        h("div", { class: "player" }, t("pool", { n: frame.pool })),
      ),
      h("p", { class: "status ok", id: "replay-action" }, h("strong", {}, `${step} / ${list.length - 1}`), " ", line(frame, names)),
      ...analysisLine(),
      moveLog(),
      h(
        "section",
        { class: "table" },
        frame.table.length ? null : h("p", { class: "empty" }, t("table_empty")),
        frame.table.map((set) => h("div", { class: "set valid" }, h("div", { class: "tiles" }, set.map((text) => tileFace(text, { class: isNew(text) ? "last" : "" }))))),
      ),
      ...(step === list.length - 1 && record.result ? [resultTable(record, names)] : []),
      ...(step === list.length - 1 && review ? [summaryTable(review.analysis, nameOf)] : []),
    );
    const lines = view.querySelector("#log-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }

  // Every move so far, the one shown last; a line takes the replay back to its move.
  let logOpen = false;
  function moveLog() {
    const details = h(
      "details",
      { class: "log replay-log", id: "move-log", open: logOpen, ontoggle: () => (logOpen = details.open) },
      h("summary", {}, h("span", { class: "log-title" }, t("log_title")), h("span", { class: "latest" }, t("replay_moves", { n: step }))),
      h(
        "ol",
        { id: "log-lines" },
        list.slice(1, step + 1).map((frame, index) => h("li", {}, h("a", { href: "#", onclick: (event) => (event.preventDefault(), go(index + 1)) }, line(frame, names)))),
      ),
    );
    return details;
  }

  function go(to) {
    step = Math.max(0, Math.min(list.length - 1, to));
    draw();
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      showPlaying(false);
      return;
    }
    if (step === list.length - 1) go(0);
    showPlaying(true);
    timer = setInterval(() => {
      if (!document.body.contains(view) || step >= list.length - 1) {
        clearInterval(timer);
        timer = null;
        showPlaying(false);
        return;
      }
      go(step + 1);
    }, STEP_MS);
  }

  root.replaceChildren(
    header,
    h(
      "main",
      { class: "game replay" },
      h("h1", { class: "replay-title" }, t("replay_title", { id: gameId })),
      h("div", { class: "replay-tools" }, deal ? [dealSeal(sealHolder, deal), dealCheck(gameId, deal, "replay-deal-check")] : null, analyseButton),
      view,
      h(
        "div",
        { class: "actions replay-controls" },
        h("button", { class: "icon", id: "replay-first", "aria-label": t("replay_first"), title: t("replay_first"), onclick: () => go(0) }, icon("first")),
        h("button", { class: "icon", id: "replay-back", "aria-label": t("replay_back"), title: t("replay_back"), onclick: () => go(step - 1) }, "◀"),
        playButton,
        h("button", { class: "icon", id: "replay-next", "aria-label": t("replay_next"), title: t("replay_next"), onclick: () => go(step + 1) }, "▶"),
        h("button", { class: "icon", id: "replay-last", "aria-label": t("replay_last"), title: t("replay_last"), onclick: () => go(list.length - 1) }, icon("last")),
        slider,
        h("a", { class: "button secondary", href: `/api/games/${encodeURIComponent(gameId)}/record`, download: `tilerummy-${gameId}.json` }, t("replay_download")),
      ),
    ),
  );
  draw();
}

function resultTable(record, names) {
  const result = record.result;
  return h(
    "table",
    { class: "scores", id: "replay-scores" },
    h("caption", {}, result.went_out ? t("rummikub") : t("round_over")),
    h("tbody", {}, names.map((name, seat) => h("tr", {}, h("td", {}, seat === result.winner ? "★ " : "", name), h("td", {}, result.scores[seat] > 0 ? `+${result.scores[seat]}` : result.scores[seat])))),
  );
}
