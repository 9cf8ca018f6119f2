// The room before a game: its invite link, its seats and its rules, and the host's start button.

import { playerName } from "./game.js";
import { t } from "./i18n.js";
import { h, icon, toast } from "./ui.js";

export function rulesSummary(rules, options) {
  const items = [
    t("rule_turn", { seconds: rules.turn_seconds == null ? t("no_limit") : t("seconds", { n: rules.turn_seconds }) }),
    t(rules.initial_meld_strict ? "rule_meld_strict" : "rule_meld", { points: rules.initial_meld_points }),
    t("rule_joker_penalty", { points: rules.joker_penalty }),
  ];
  if (rules.wrap) items.push(t("rule_wrap"));
  if (rules.tile_set === "six-player") items.push(t("rule_six"));
  if (rules.display === "cards") items.push(t("rule_cards"));
  if (rules.rounds) items.push(t("rule_rounds", { n: rules.rounds }));
  if (rules.target_score) items.push(t("rule_target", { points: rules.target_score }));
  if (options.hints) items.push(t("rule_hints"));
  return h("ul", { class: "rules" }, items.map((item) => h("li", {}, item)));
}

// When this page began waiting in a room that starts by itself, by room code.
const waitingSince = new Map();
let waitTimer = null;

// A public room that starts by itself (quick match's) waits for anyone: it says what will happen, counts
// the wait, and offers a game against the computer meanwhile.
function quickMatchWait(room, freePeople, playBots, clockOffset = 0) {
  if (!room.options.auto_start || !room.options.public || room.status !== "open" || freePeople === 0) {
    clearInterval(waitTimer);
    return null;
  }
  if (!waitingSince.has(room.code)) waitingSince.set(room.code, Date.now());
  const clock = h("span", { class: "chip wait-clock", id: "wait-clock" }, "0:00");
  const tick = () => {
    const shown = document.getElementById("wait-clock");
    if (!shown) return clearInterval(waitTimer);
    const seconds = Math.floor((Date.now() - waitingSince.get(room.code)) / 1000);
    shown.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    const bots = document.getElementById("bots-in");
    if (bots && room.bots_at) bots.textContent = t("quick_wait_bots_in", { n: Math.max(0, Math.ceil(room.bots_at - (Date.now() / 1000 + clockOffset))) });
  };
  clearInterval(waitTimer);
  waitTimer = setInterval(tick, 1000);
  setTimeout(tick);
  return h(
    "div",
    { class: "quick-wait", id: "quick-wait" },
    h("p", {}, t("quick_wait_text")),
    h("p", { class: "wait-line" }, h("span", {}, t("quick_wait_for")), clock),
    // The server seats computers once the room has waited long enough (its bots_at, on the server's clock).
    room.bots_at ? h("p", { id: "bots-in" }, t("quick_wait_bots_in", { n: Math.max(0, Math.ceil(room.bots_at - (Date.now() / 1000 + clockOffset))) })) : null,
    h("button", { class: "secondary", id: "quick-bots", onclick: playBots }, icon("bot"), t("quick_wait_bots")),
  );
}

export function showRoom(app, state, { header, request, showError, goHome, playBots }) {
  const room = state.room;
  // The server gives a full link when it knows its public address, else a path on this page's site.
  const link = state.invite || room.invite;
  const invite = link.startsWith("/") ? `${location.origin}${link}` : link;
  const freePeople = room.seats.filter((seat) => seat.kind === "person" && seat.name === null).length;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite);
      toast(t("copied"));
    } catch {
      document.getElementById("invite").select();
    }
  };
  const start = async () => {
    const reply = await request({ type: "start_game" });
    if (reply.type === "error") showError(reply);
  };
  app.replaceChildren(
    header(h("span", { class: "room-code" }, t("room_code_is", { code: room.code }))),
    h(
      "main",
      { class: "home room" },
      h(
        "section",
        { class: "panel primary" },
        h("h2", {}, t("room_title", { code: room.code })),
        h("p", {}, t("invite_help")),
        h("div", { class: "join" }, h("input", { id: "invite", readonly: true, value: invite, onfocus: (event) => event.target.select() }), h("button", { id: "copy-invite", onclick: copy }, t("copy_link"))),
        h(
          "ol",
          { class: "seats" },
          room.seats.map((seat) =>
            h(
              "li",
              { class: seat.seat === state.seat ? "me" : "" },
              h("span", { class: `dot ${seat.connected ? "on" : ""}`, "aria-hidden": "true" }),
              seat.kind === "bot" ? [icon("bot"), playerName(seat.name, seat)] : seat.name ? seat.name : h("em", { class: "muted" }, t("free_seat")),
              seat.name && seat.name === room.host ? h("span", { class: "badge" }, t("host")) : null,
              seat.seat === state.seat ? h("span", { class: "badge" }, t("you")) : null,
            ),
          ),
        ),
        quickMatchWait(room, freePeople, playBots, state.clockOffset),
        rulesSummary(room.rules, room.options),
        state.host
          ? h("button", { id: "start", class: "big", disabled: freePeople > 0, onclick: start }, freePeople > 0 ? t("waiting_players", { n: freePeople }) : t("start_game"))
          : h("p", { class: "muted" }, freePeople > 0 ? t("waiting_players", { n: freePeople }) : t("waiting_host")),
        h("button", { class: "secondary", onclick: goHome }, t("leave_room")),
      ),
    ),
  );
}
