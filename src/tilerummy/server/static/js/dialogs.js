// The dialogs over the game: how to play, and the round's result with the room's totals.

import { rackValue, tilesLeft } from "./deal.js";
import { checkDeal, parseKeepingSeeds, shortCommitment } from "./fairdeal.js";
import { byColour } from "./rules.js";
import { t } from "./i18n.js";
import { showAnalysis } from "./review.js";
import { h, icon, modal, tileFace } from "./ui.js";

// How to play and the keys, over the game.
export function showHelp() {
  modal("help", t("how_title"), (close) => [
    h("ul", {}, ["how_goal", "how_sets", "how_first", "how_turn", "how_jokers"].map((key) => h("li", {}, t(key)))),
    h("h3", {}, t("keys_title")),
    h("ul", {}, ["key_pick", "key_arrows", "key_new", "key_undo", "key_escape", "key_rack"].map((key) => h("li", {}, t(key)))),
    // In a tab of its own: the game stays where it is, its seat kept.
    h("a", { class: "button secondary", id: "help-tutorial", href: "/#tutorial", target: "_blank", rel: "noopener", onclick: close }, t("tutorial_link")),
  ]);
}

function signed(number) {
  return number > 0 ? `+${number}` : String(number);
}

// What a seat's score says beyond its tiles: a player who never made the first play pays a fixed
// amount (RULES.md, unmelded_penalty) instead of the value of the tiles left.
function scoreNote(screen, seat) {
  const game = screen.game;
  const result = game.result;
  const rules = screen.rules;
  if (rules.unmelded_penalty === false || seat === result.winner || game.melded[seat] || !result.adjusted) return null;
  const paid = result.adjusted[seat];
  if (paid !== 100 && paid !== 200) return null;
  return h("span", { class: "score-note", id: `score-note-${seat}` }, t(paid === 200 ? "score_unmelded_could" : "score_unmelded_never", { points: paid }));
}

// The tiles a seat was left with: one's own from the rack; the others' from the deal worked out again
// from the revealed seed (deal.js), or their count until then.
function leftover(screen, seat) {
  const game = screen.game;
  const own = seat === game.seat && game.rack;
  const tiles = own ? game.rack : screen.leftovers && screen.leftovers.game_id === game.game_id ? screen.leftovers.racks[seat] : null;
  if (tiles) {
    const label = own ? t("leftover_own") : t("leftover_of", { name: screen.nameOf(seat) });
    return tiles.length ? h("span", { class: "leftover", id: own ? "leftover-own" : `leftover-${seat}`, "aria-label": label }, [...tiles].sort(byColour).map((tile) => tileFace(tile, { dataset: { t: tile } }))) : null;
  }
  const count = game.rack_sizes[seat];
  return count ? h("span", { class: "leftover-count" }, t("leftover_count", { n: count })) : null;
}

// Everyone's tiles left, from the record once the game is over: shown only when they add up to the
// values the server scored (and one's own rack), so a deal the page cannot work out shows counts instead.
async function loadLeftovers(screen) {
  const game = screen.game;
  if (!game.fairness || game.fairness.seed == null) return;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(game.game_id)}/record`);
    if (!response.ok) return;
    const record = parseKeepingSeeds(await response.text());
    const rules = screen.rules;
    const racks = tilesLeft(record, rules);
    const values = game.result.values;
    const sorted = (rack) => [...rack].sort().join(" ");
    if (!racks || racks.length !== game.players.length) return;
    if (values && racks.some((rack, seat) => rackValue(rack, rules.joker_penalty ?? 30) !== values[seat])) return;
    if (game.rack && sorted(racks[game.seat]) !== sorted(game.rack)) return;
    screen.leftovers = { game_id: game.game_id, racks };
    if (screen.game && screen.game.game_id === game.game_id) screen.render();
  } catch {
    // The counts stay: the tiles are a nicety beside the scores.
  }
}

export function resultDialog(screen) {
  const game = screen.game;
  const result = game.result;
  // Closed to look at the final table, it waits behind the status line's button.
  if (screen.resultHidden === game.game_id) return null;
  const winner = screen.nameOf(result.winner);
  const order = game.players.map((name, seat) => seat).sort((a, b) => result.scores[b] - result.scores[a]);
  const totals = h("div", { id: "totals" });
  if (screen.resultShownFor !== game.game_id) {
    screen.resultShownFor = game.game_id;
    screen.totals = null;
    loadTotals(screen);
    loadLeftovers(screen);
  }
  const match = screen.state.room && screen.state.room.match;
  if (match) totals.append(matchTable(screen, match));
  else if (screen.totals) totals.append(totalsTable(screen));
  return h(
    "div",
    { class: "overlay result-overlay" },
    h(
      "div",
      { class: "dialog result-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" },
      h("button", { class: "icon result-close", id: "result-close", title: t("result_see_table"), "aria-label": t("result_see_table"), onclick: () => screen.hideResult() }, "×"),
      h("h2", { id: "result-title", class: result.went_out ? "cheer" : "" }, result.went_out ? t("rummikub") : t("round_over")),
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
              h("td", {}, h("span", { class: "who" }, seat === result.winner ? "★ " : "", screen.nameOf(seat)), leftover(screen, seat), scoreNote(screen, seat)),
              h("td", {}, result.values ? result.values[seat] : ""),
              h("td", { class: result.scores[seat] >= 0 ? "plus" : "minus" }, signed(result.scores[seat])),
            ),
          ),
        ),
      ),
      totals,
      dealCheck(game.game_id, game.fairness),
      h(
        "div",
        { class: "buttons" },
        screen.state.host
          ? h("button", { id: "rematch", class: "primary", onclick: () => screen.api.rematch() }, t(match ? (match.over ? "new_match" : "next_round") : "rematch"))
          : h("p", { class: "muted" }, t(match && !match.over ? "waiting_next_round" : "waiting_rematch")),
        h("button", { class: "secondary", id: "analyse", onclick: () => showAnalysis(game.game_id, (seat) => screen.nameOf(seat)) }, t("analyse")),
        h("a", { class: "button secondary", href: `/replay/${game.game_id}`, id: "replay-link" }, t("watch_replay")),
        h("button", { class: "secondary", id: "see-table", onclick: () => screen.hideResult() }, t("result_see_table")),
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
    if (box && !(screen.state.room && screen.state.room.match)) box.replaceChildren(totalsTable(screen));
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

// A match's running totals by seat (room.match), the leader first; the winner named once it is over.
function matchTable(screen, match) {
  const order = match.totals.map((total, seat) => seat).sort((a, b) => match.totals[b] - match.totals[a] || a - b);
  const top = Math.max(...match.totals);
  const winners = order.filter((seat) => match.totals[seat] === top);
  return h(
    "div",
    { class: "match", id: "match" },
    match.over ? h("p", { class: "winner", id: "match-winner" }, t("match_winner", { name: winners.map((seat) => screen.nameOf(seat)).join(", ") })) : null,
    h(
      "table",
      { class: "scores totals", id: "match-totals" },
      h("caption", {}, t(match.over ? "match_over_totals" : "match_totals", { n: match.round }), match.target_score ? ` · ${t("match_to", { points: match.target_score })}` : null),
      h("tbody", {}, order.map((seat) => h("tr", { class: seat === screen.game.seat ? "me" : "" }, h("td", {}, screen.nameOf(seat)), h("td", { class: match.totals[seat] >= 0 ? "plus" : "minus" }, signed(match.totals[seat]))))),
    ),
  );
}

// "Round 2 of 3", or "Round 2 · to 100 points".
export function matchProgress(match) {
  const round = match.rounds ? t("match_round_of", { n: match.round, total: match.rounds }) : t("match_round", { n: match.round });
  return match.target_score ? `${round} · ${t("match_to", { points: match.target_score })}` : round;
}

// --- The fair deal ----------------------------------------------------------------

// The sealed deal during the game: its commitment's first digits, the whole of it and what it means on demand.
// The holder keeps whether it is open (`fairOpen`), as the screen is redrawn on every move.
export function dealSeal(holder, fairness) {
  if (!fairness || !fairness.commitment) return null;
  const details = h(
    "details",
    { class: "fair", id: "fair-deal", open: Boolean(holder.fairOpen), ontoggle: () => (holder.fairOpen = details.open) },
    h("summary", { class: "chip", title: t("deal_sealed_about") }, icon("lock"), " ", t("deal_sealed_short", { short: shortCommitment(fairness.commitment) })),
    h("div", { class: "fair-about" }, h("p", {}, t("deal_sealed_about")), h("code", { id: "fair-commitment" }, fairness.commitment)),
  );
  return details;
}

const DEAL_TEXTS = { checking: "deal_checking", verified: "deal_verified", mismatch: "deal_mismatch", unavailable: "deal_unavailable", sealed: "deal_checking" };
// The checks already made, by game: the result is redrawn on every message.
const dealChecks = new Map();

function paintDealCheck(line, status) {
  line.className = `deal-check ${status}`;
  line.dataset.status = status;
  line.replaceChildren(icon("lock"), " ", t(DEAL_TEXTS[status]));
}

// "Deal verified" (or a warning) once the seed and the salt are revealed: the browser hashes them itself.
export function dealCheck(gameId, fairness, id = "deal-check") {
  if (!fairness || !fairness.commitment) return null;
  const line = h("p", { class: "deal-check", id });
  const key = `${gameId}:${fairness.seed}:${fairness.salt}`;
  const known = dealChecks.get(key);
  if (typeof known === "string") {
    paintDealCheck(line, known);
    return line;
  }
  paintDealCheck(line, "checking");
  if (!known) dealChecks.set(key, checkDeal(fairness).then((status) => (dealChecks.set(key, status), status)));
  dealChecks.get(key).then((status) => {
    const shown = document.getElementById(id);
    if (shown) paintDealCheck(shown, status);
  });
  return line;
}
