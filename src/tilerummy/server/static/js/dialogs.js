// The dialogs over the game: how to play, and the round's result with the room's totals.

import { t } from "./i18n.js";
import { h } from "./ui.js";

// How to play and the keys, over the game (outside the screen, which is redrawn as the game goes on).
export function showHelp() {
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => event.key === "Escape" && close();
  const overlay = h(
    "div",
    { class: "overlay help-overlay", onclick: (event) => event.target === overlay && close() },
    h(
      "div",
      { class: "dialog help-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-title" },
      h("h2", { id: "help-title" }, t("how_title")),
      h("ul", {}, ["how_goal", "how_sets", "how_first", "how_turn", "how_jokers"].map((key) => h("li", {}, t(key)))),
      h("h3", {}, t("keys_title")),
      h("ul", {}, ["key_pick", "key_arrows", "key_new", "key_undo", "key_escape"].map((key) => h("li", {}, t(key)))),
      h("button", { class: "primary", id: "help-close", onclick: close }, t("close")),
    ),
  );
  document.addEventListener("keydown", onKey);
  document.body.append(overlay);
  overlay.querySelector("#help-close").focus();
}

function signed(number) {
  return number > 0 ? `+${number}` : String(number);
}

export function resultDialog(screen) {
  const game = screen.game;
  const result = game.result;
  const winner = screen.nameOf(result.winner);
  const order = game.players.map((name, seat) => seat).sort((a, b) => result.scores[b] - result.scores[a]);
  const totals = h("div", { id: "totals" });
  if (screen.resultShownFor !== game.game_id) {
    screen.resultShownFor = game.game_id;
    screen.totals = null;
    loadTotals(screen);
  }
  if (screen.totals) totals.append(totalsTable(screen));
  return h(
    "div",
    { class: "overlay" },
    h(
      "div",
      { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" },
      h("h2", { id: "result-title" }, result.went_out ? t("rummikub") : t("round_over")),
      h("p", { class: "winner" }, result.winner === game.seat ? t("you_won") : t("winner_is", { name: winner })),
      h(
        "table",
        { class: "scores", id: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("rack_value")), h("th", {}, t("score")))),
        h(
          "tbody",
          {},
          order.map((seat) =>
            h(
              "tr",
              { class: seat === game.seat ? "me" : "" },
              h("td", {}, seat === result.winner ? "★ " : "", screen.nameOf(seat)),
              h("td", {}, result.values ? result.values[seat] : ""),
              h("td", { class: result.scores[seat] >= 0 ? "plus" : "minus" }, signed(result.scores[seat])),
            ),
          ),
        ),
      ),
      totals,
      h(
        "div",
        { class: "buttons" },
        screen.state.host ? h("button", { id: "rematch", class: "primary", onclick: () => screen.api.rematch() }, t("rematch")) : h("p", { class: "muted" }, t("waiting_rematch")),
        h("a", { class: "button secondary", href: `/replay/${game.game_id}`, id: "replay-link" }, t("watch_replay")),
        h("button", { class: "secondary", id: "home", onclick: () => screen.api.goHome() }, t("home")),
      ),
    ),
  );
}

// The room's running totals: every finished game's scores, added up by player.
async function loadTotals(screen) {
  const code = screen.state.code;
  try {
    const data = await (await fetch(`/api/rooms/${code}/games`)).json();
    const totals = new Map();
    let played = 0;
    for (const game of data.games) {
      if (!game.result || !game.players) continue;
      played += 1;
      game.players.forEach((name, seat) => totals.set(name, (totals.get(name) || 0) + game.result.scores[seat]));
    }
    screen.totals = { played, totals };
    const box = document.getElementById("totals");
    if (box) box.replaceChildren(totalsTable(screen));
  } catch {
    // The totals are a nicety; the round's scores are already shown.
  }
}

function totalsTable(screen) {
  if (!screen.totals || screen.totals.played < 2) return h("span");
  const rows = [...screen.totals.totals].sort((a, b) => b[1] - a[1]);
  return h(
    "table",
    { class: "scores totals", id: "totals-table" },
    h("caption", {}, t("room_totals", { n: screen.totals.played })),
    h(
      "tbody",
      {},
      rows.map(([name, total]) => {
        const seat = screen.game.players.indexOf(name);
        return h("tr", {}, h("td", {}, seat >= 0 ? screen.nameOf(seat) : name), h("td", { class: total >= 0 ? "plus" : "minus" }, signed(total)));
      }),
    ),
  );
}
