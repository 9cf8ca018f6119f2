// Table talk in a room, for players and spectators: the lines so far, a field to write one, the host's
// mutes, and how many lines came while the panel was closed. The panel lives outside the screens (which
// are drawn anew on every move), so a half-written line survives the game going on.

import { t } from "./i18n.js";
import { h, icon } from "./ui.js";

const OPEN_KEY = "tilerummy.chat-open";
const READ_KEY = "tilerummy.chat-read";
// The server's limits (docs/protocol.md), until its welcome says otherwise.
const DEFAULT_MAX_CHARS = 300;
// Past this share of the limit, the field counts the characters left.
const COUNT_FROM = 0.8;

function readMarks() {
  try {
    return JSON.parse(localStorage.getItem(READ_KEY) || "{}");
  } catch {
    return {};
  }
}

// The unread lines: those after the last one read (by time), not one's own. Pure, for the tests.
export function unreadCount(lines, lastRead, isOwn) {
  return lines.filter((line) => line.at > lastRead && !isOwn(line)).length;
}

export class Chat {
  // state: the page's (code, room, seat, role, host, name); api: {request, connection()}.
  constructor(state, api) {
    this.state = state;
    this.api = api;
    this.lines = [];
    this.code = null;
    this.open = sessionStorage.getItem(OPEN_KEY) === "1";
    this.notice = null;
    this.panel = null;
  }

  get maxChars() {
    const connection = this.api.connection();
    return (connection && connection.limits && connection.limits.chat_max_chars) || DEFAULT_MAX_CHARS;
  }

  // The room's recent lines, from a snapshot (after joining, a reload or a move to another server).
  setLines(code, lines) {
    if (code !== this.code) this.notice = null;
    this.code = code;
    this.lines = [...(lines || [])];
    this.refresh();
  }

  add(line) {
    // The answer to one's own line and the room's copy are one line: the server sends it once to each.
    this.lines.push(line);
    if (this.open) this.markRead();
    this.refresh();
  }

  leave() {
    this.code = null;
    this.lines = [];
    this.notice = null;
    if (this.panel) this.panel.remove();
    this.panel = null;
    document.body.classList.remove("chat-open");
  }

  isOwn(line) {
    const state = this.state;
    if (state.role === "player" && state.seat != null) return line.seat === state.seat;
    return line.seat == null && line.name === this.myName();
  }

  myName() {
    const connection = this.api.connection();
    return (connection && connection.name) || this.state.name;
  }

  get unread() {
    if (!this.code) return 0;
    return unreadCount(this.lines, readMarks()[this.code] ?? 0, (line) => this.isOwn(line));
  }

  markRead() {
    if (!this.code || !this.lines.length) return;
    const marks = readMarks();
    marks[this.code] = Math.max(marks[this.code] ?? 0, this.lines[this.lines.length - 1].at);
    localStorage.setItem(READ_KEY, JSON.stringify(marks));
  }

  toggle(open = !this.open) {
    this.open = open;
    sessionStorage.setItem(OPEN_KEY, open ? "1" : "0");
    if (open) this.markRead();
    this.refresh();
    if (open) this.panel.querySelector("#chat-text").focus({ preventScroll: true });
    else document.getElementById("chat-button")?.focus({ preventScroll: true });
  }

  // The top bar's button: the panel's switch, with the unread count.
  button() {
    const unread = this.unread;
    const label = unread ? t("chat_unread", { n: unread }) : t("chat_open");
    return h(
      "button",
      { class: "switch chat-button", id: "chat-button", "aria-pressed": String(this.open), "aria-expanded": String(this.open), "aria-controls": "chat", title: label, "aria-label": label, onclick: () => this.toggle() },
      icon("chat"),
      h("span", { class: "label", "aria-hidden": "true" }, t("chat")),
      unread ? h("span", { class: "unread", id: "chat-unread", "aria-hidden": "true" }, unread > 99 ? "99+" : String(unread)) : null,
    );
  }

  // Whether the host has muted this page's person.
  muted() {
    const room = this.state.room;
    return Boolean(room && room.muted && room.muted.includes(this.myName()));
  }

  async send(field) {
    const text = field.value.replace(/\s+/g, " ").trim();
    if (!text) return;
    const reply = await this.api.request({ type: "chat", text: text.slice(0, this.maxChars) });
    if (reply.type === "error") {
      // The line stays in the field, to be sent again once the server allows it.
      this.notice = reply.reason === "rate_limited" ? t("chat_slow_down") : reply.reason === "muted" ? t("chat_muted_you") : t(`error_${reply.reason}`);
      this.refresh();
      return;
    }
    this.notice = null;
    field.value = "";
    this.refresh();
  }

  async mute(name, muted) {
    const reply = await this.api.request({ type: "mute", name, muted });
    if (reply.type === "error") {
      this.notice = t(`error_${reply.reason}`);
      this.refresh();
    }
  }

  // Draws the panel (kept between draws: its field keeps what is being written) and the top bar's button.
  refresh() {
    const button = document.getElementById("chat-button");
    if (button && this.code) button.replaceWith(this.button());
    if (!this.code || !this.open) {
      if (this.panel) this.panel.hidden = true;
      document.body.classList.remove("chat-open");
      return;
    }
    if (!this.panel) this.panel = this.build();
    if (!this.panel.isConnected) document.body.append(this.panel);
    this.panel.hidden = false;
    document.body.classList.add("chat-open");
    this.fill();
  }

  build() {
    const field = h("input", {
      id: "chat-text",
      type: "text",
      autocomplete: "off",
      enterkeyhint: "send",
      "aria-label": t("chat_field"),
      oninput: () => this.count(),
      onkeydown: (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          this.send(field);
        } else if (event.key === "Escape") {
          this.toggle(false);
        }
      },
    });
    return h(
      "aside",
      { class: "chat-panel", id: "chat", "aria-labelledby": "chat-title" },
      h("div", { class: "chat-head" }, h("h2", { id: "chat-title" }, t("chat")), h("button", { class: "icon", id: "chat-close", title: t("close"), "aria-label": t("chat_close"), onclick: () => this.toggle(false) }, "×")),
      h("p", { class: "chat-muted-list", id: "chat-muted-list" }),
      h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" }),
      h("p", { class: "chat-notice", id: "chat-notice", role: "alert" }),
      h("form", { class: "chat-form", onsubmit: (event) => (event.preventDefault(), this.send(field)) }, field, h("button", { type: "submit", id: "chat-send", class: "primary" }, t("chat_send"))),
      h("p", { class: "chat-count", id: "chat-count", "aria-live": "polite" }),
    );
  }

  count() {
    const field = this.panel.querySelector("#chat-text");
    const counter = this.panel.querySelector("#chat-count");
    const left = this.maxChars - field.value.length;
    counter.textContent = field.value.length >= this.maxChars * COUNT_FROM ? t("chat_chars_left", { n: Math.max(left, 0) }) : "";
  }

  // The panel's content, in the language of the moment.
  fill() {
    const panel = this.panel;
    const room = this.state.room;
    const muted = new Set((room && room.muted) || []);
    const host = this.state.host;
    panel.querySelector("#chat-title").textContent = t("chat");
    panel.querySelector("#chat-close").setAttribute("aria-label", t("chat_close"));
    panel.querySelector("#chat-close").title = t("close");
    panel.querySelector("#chat-send").textContent = t("chat_send");
    const field = panel.querySelector("#chat-text");
    field.maxLength = this.maxChars;
    field.setAttribute("aria-label", t("chat_field"));
    const mutedMe = this.muted();
    field.disabled = mutedMe;
    panel.querySelector("#chat-send").disabled = mutedMe;
    field.placeholder = mutedMe ? "" : t("chat_placeholder");
    const list = panel.querySelector("#chat-lines");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.replaceChildren(
      ...(this.lines.length ? [] : [h("li", { class: "chat-empty muted" }, t("chat_empty"))]),
      ...this.lines.map((line) => {
        const own = this.isOwn(line);
        const name = this.nameOf(line);
        const time = new Date(line.at * 1000).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
        return h(
          "li",
          { class: `chat-line ${own ? "own" : ""} ${line.seat == null ? "watcher" : ""}` },
          h("span", { class: "chat-name" }, own ? t("you_name", { name }) : name, line.seat == null ? h("span", { class: "chat-role" }, ` · ${t("chat_watcher")}`) : null),
          h("time", { class: "chat-time" }, time),
          // The host may mute anyone else; a muted person's earlier lines stay, marked.
          host && !own && !muted.has(line.name) ? h("button", { class: "chat-mute", onclick: () => this.mute(line.name, true), title: t("chat_mute", { name }) }, t("chat_mute_short")) : null,
          h("span", { class: "chat-text" }, line.text),
        );
      }),
    );
    if (atBottom || this.lines.length) list.scrollTop = list.scrollHeight;
    const mutedList = panel.querySelector("#chat-muted-list");
    mutedList.replaceChildren(
      ...(muted.size
        ? [
            h("span", {}, t("chat_muted_list")),
            ...[...muted].map((name) => h("span", { class: "chat-muted-name" }, " ", name, host ? h("button", { class: "chat-unmute", onclick: () => this.mute(name, false), title: t("chat_unmute", { name }) }, t("chat_unmute_short")) : null)),
          ]
        : []),
    );
    mutedList.hidden = !muted.size;
    const notice = panel.querySelector("#chat-notice");
    const said = mutedMe ? t("chat_muted_you") : this.notice;
    notice.textContent = said || "";
    notice.hidden = !said;
    this.count();
  }

  // Bots are named in the reader's language, as on the game screen; people by their names.
  nameOf(line) {
    const seat = line.seat != null && this.state.room ? this.state.room.seats[line.seat] : null;
    return seat && seat.kind === "bot" ? t("bot_name", { n: seat.seat + 1 }) : line.name;
  }
}
