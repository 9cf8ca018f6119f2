// The game screen: the table, the rack, moving tiles (drag, tap or keys), and the turn's buttons.

import { dealSeal, matchProgress, resultDialog, showHelp } from "./dialogs.js";
import { Draft, fromRack, markNew, markNewRack, newTiles, sameTiles } from "./draft.js";
import { t } from "./i18n.js";
import { TileInput } from "./input.js";
import { logLine, logText } from "./logline.js";
import { drawEntry, playEntry } from "./movelog.js";
import { readSet } from "./rules.js";
import { beep, h, icon, settings, tileFace, tileLabel, toast } from "./ui.js";

const CLOCK_WARNING_SECONDS = 15;
const LIVE_TABLE_DELAY_MS = 150;
// How long the tiles of another player's play stay outlined; the move log keeps saying what they were.
const LAST_MOVE_MS = 5000;
const LOG_KEY = "tilerummy.log";

export class GameScreen {
  constructor(root, state, api) {
    this.root = root;
    this.state = state;
    this.api = api;
    this.moves = -1;
    this.draft = new Draft([], []);
    this.baseRack = null;
    this.selected = new Set();
    this.fresh = new Set();
    this.lastMove = new Set();
    this.live = null;
    this.sortMode = localStorage.getItem("tilerummy.sort") || "colour";
    this.resultShownFor = null;
    this.ticked = null;
    this.busy = false;
    this.log = loadLog(state.game);
    this.logOpen = false;
    this.input = new TileInput(this);
    this.clockTimer = setInterval(() => this.tickClock(), 250);
    document.body.classList.add("in-game");
    this.reset(state.game, null);
  }

  destroy() {
    this.input.destroy();
    clearInterval(this.clockTimer);
    clearTimeout(this.lastMoveTimer);
    document.body.classList.remove("in-game");
    document.title = "tilerummy";
  }

  get game() {
    return this.state.game;
  }

  get myTurn() {
    const game = this.game;
    return game && game.rack !== null && game.seat === game.turn && !game.result;
  }

  get rules() {
    return (this.state.room && this.state.room.rules) || {};
  }

  // --- Following the server ----------------------------------------------------

  update(previous, game, event) {
    const sameGame = previous && previous.game_id === game.game_id;
    if (event && sameGame && event.kind === "play") {
      this.showLastMove(newTiles(previous.table, game.table));
    } else if (event && event.kind === "start") {
      this.lastMove = new Set();
    }
    if (event) this.record(sameGame ? previous : null, game, event);
    const drawn = previous && previous.rack && game.rack && game.rack.length > previous.rack.length;
    if (game.moves !== this.moves || !sameTiles(game.rack, this.baseRack)) {
      this.reset(game, drawn ? previous.rack : null);
    }
    if (!event) return;
    const me = game.seat;
    if (game.result) {
      // The result speaks for itself: an older message would only cover it.
      const message = document.getElementById("toast");
      if (message) message.className = "";
      beep(game.result.winner === me ? "win" : "place");
      if (game.result.went_out) this.banner(t("rummikub"));
    } else if (event.kind === "timeout" && event.seat === me) {
      toast(t("timeout_you", { n: event.drawn }), "error");
    } else if (event.kind === "play" && event.seat !== me) {
      beep("place");
    } else if (event.kind === "draw" && event.seat === me) {
      beep("draw");
    }
    if (!game.result && game.turn === me && game.rack && (event.kind === "start" || event.seat !== me)) beep("turn");
  }

  // Another player's tiles stay outlined a few seconds (and only until the player changes the table).
  showLastMove(added) {
    this.lastMove = added;
    clearTimeout(this.lastMoveTimer);
    this.lastMoveTimer = setTimeout(() => this.forgetLastMove(), LAST_MOVE_MS);
  }

  forgetLastMove() {
    clearTimeout(this.lastMoveTimer);
    this.lastMove = new Set();
    this.lastMoveIds = new Set();
    for (const element of this.root.querySelectorAll(".tile.last")) element.classList.remove("last");
  }

  // --- The move log --------------------------------------------------------------

  record(previous, game, event) {
    if (event.kind === "start") {
      this.log = { game_id: game.game_id, entries: [] };
    } else if (this.log.game_id !== game.game_id || this.log.entries.some((entry) => entry.moves === game.moves)) {
      return;
    } else if (event.kind === "play" && previous) {
      this.log.entries.push({ ...playEntry(event.seat, previous.table, game.table, { wrap: Boolean(this.rules.wrap) }), moves: game.moves, standIn: event.stand_in });
    } else if (event.kind === "play") {
      return;
    } else {
      // The player's own draw names the tile, as their rack shows it.
      const own = event.kind === "draw" && event.seat === game.seat && previous && previous.rack && game.rack;
      const tiles = own ? [...markNewRack(game.rack.map((text) => ({ id: text, t: text })), previous.rack)] : null;
      this.log.entries.push({ ...drawEntry(event.kind, event.seat, event.drawn, tiles), moves: game.moves, standIn: event.stand_in });
    }
    this.bumped = event.kind === "play" ? null : event.seat;
    try {
      sessionStorage.setItem(LOG_KEY, JSON.stringify(this.log));
    } catch {
      // The log is kept only for a reload; without storage it starts again.
    }
  }

  // A line of the log, as shown (tiles drawn as tiles) or as words (spoken).
  logLine(entry, { spoken = false } = {}) {
    const name = entry.seat === this.game.seat ? t("you_name", { name: this.game.players[entry.seat] }) : this.nameOf(entry.seat);
    return spoken ? logText(entry, name) : logLine(entry, name);
  }

  moveLog() {
    const entries = this.log.game_id === this.game.game_id ? this.log.entries : [];
    const latest = entries.length ? this.logLine(entries[entries.length - 1]) : t("log_empty");
    const spoken = entries.length ? this.logLine(entries[entries.length - 1], { spoken: true }) : latest;
    const details = h(
      "details",
      { class: "log", id: "move-log", open: this.logOpen, ontoggle: () => (this.logOpen = details.open) },
      h("summary", { "aria-label": `${t("log_title")}: ${spoken}` }, h("span", { class: "log-title" }, t("log_title")), h("span", { class: "latest", id: "log-latest", role: "status" }, latest)),
      h("ol", { id: "log-lines" }, entries.map((entry) => h("li", {}, this.logLine(entry)))),
    );
    return details;
  }

  liveTable(message) {
    if (!this.game || message.moves !== this.game.moves || message.seat === this.game.seat) return;
    this.live = message.sets;
    if (!this.input.dragging) this.render();
  }

  // A new turn (or a new rack): the table as the server has it, the rack in the player's order.
  reset(game, rackBefore) {
    this.moves = game ? game.moves : -1;
    this.live = null;
    this.selected.clear();
    if (!game) return;
    const order = this.draft.rack.map((tile) => tile.t);
    this.draft = new Draft(game.table, game.rack || [], { order, sortMode: this.sortMode });
    this.lastMoveIds = markNew(this.draft.sets, this.lastMove);
    this.fresh = rackBefore ? markNewRack(this.draft.rack, rackBefore) : new Set();
    this.baseRack = game.rack ? [...game.rack] : null;
  }

  // --- Changing the arrangement ------------------------------------------------

  change(apply) {
    if (this.lastMoveIds && this.lastMoveIds.size) this.forgetLastMove();
    apply();
    this.render();
    this.sendLive();
  }

  undo() {
    if (!this.draft.undo()) return;
    this.selected.clear();
    this.render();
    this.sendLive();
  }

  redo() {
    if (!this.draft.redo()) return;
    this.selected.clear();
    this.render();
    this.sendLive();
  }

  resetTurn() {
    this.selected.clear();
    this.change(() => this.draft.resetTurn());
  }

  sortRack(mode) {
    this.sortMode = mode;
    localStorage.setItem("tilerummy.sort", mode);
    this.change(() => this.draft.sortRack(mode));
  }

  // Move tiles to a target ("set:N", "new" or "rack") before the index-th tile left there.
  moveTiles(ids, target, index = null) {
    const toRack = target === "rack";
    if (!toRack && !this.myTurn) {
      toast(t(this.game && this.game.result ? "game_over" : "wait_turn"));
      return false;
    }
    const movable = this.draft.movable(ids, target, { myTurn: this.myTurn });
    if (movable.length < ids.length && toRack) toast(t("table_stays"));
    if (!movable.length) return false;
    this.selected.clear();
    this.change(() => this.draft.moveTiles(movable, target, index));
    if (target === "new") {
      const made = this.root.querySelector(`[data-drop="set:${this.draft.sets.length - 1}"]`);
      if (made) made.scrollIntoView({ block: "nearest" });
    }
    beep("place");
    return true;
  }

  tap(id) {
    if (this.selected.has(id)) this.selected.delete(id);
    else this.selected.add(id);
    this.render();
  }

  placeSelected(target) {
    if (!this.selected.size) return;
    this.moveTiles([...this.selected], target);
  }

  // --- What the turn would be ------------------------------------------------

  check() {
    const game = this.game;
    const melded = game.seat !== null && game.melded[game.seat];
    const check = this.draft.check(this.rules, melded);
    return { ...check, reason: check.reason && t(check.reason.key, check.reason.params) };
  }

  // One request at a time: a second click while the first is on its way would only be refused.
  async ask(message) {
    if (!this.myTurn || this.busy) return null;
    this.busy = true;
    // A table shown after the turn's end would be refused: nothing of it may follow the action.
    if (message.type !== "hint") clearTimeout(this.liveTimer);
    this.render();
    try {
      // An action names the state it was made against: a stale one is refused, one sent again is not applied twice.
      const reply = await this.api.request(message.type === "hint" ? message : { ...message, seq: this.state.seq });
      if (reply.type === "error") this.api.showError(reply);
      return reply;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async endTurn() {
    if (!this.myTurn || this.busy) return;
    const check = this.check();
    if (check.reason) {
      toast(check.reason, "error");
      beep("error");
      return;
    }
    await this.ask({ type: "play", sets: this.draft.table() });
  }

  async draw() {
    await this.ask({ type: this.game.pool_size > 0 ? "draw" : "pass" });
  }

  async hint() {
    const reply = await this.ask({ type: "hint" });
    if (!reply || reply.type !== "hint" || !this.myTurn) return;
    if (reply.sets === null) {
      toast(t("hint_none"));
      return;
    }
    this.applyTable(reply.sets);
    toast(t("hint_shown", { n: reply.placed.length }));
  }

  // Arrange the turn's tiles as a whole table (a hint's), its rack tiles picked, to be seen and moved on.
  applyTable(tableSets) {
    this.change(() => {
      this.selected = new Set(this.draft.applyTable(tableSets));
    });
  }

  sendLive() {
    if (!this.myTurn) return;
    clearTimeout(this.liveTimer);
    this.liveTimer = setTimeout(() => {
      if (this.myTurn && !this.busy) this.api.send({ type: "live_table", sets: this.draft.liveTable() });
    }, LIVE_TABLE_DELAY_MS);
  }

  // --- Drawing the screen ------------------------------------------------------

  render() {
    const game = this.game;
    if (!game) return;
    if (this.input.dragging) return;
    if (!settings.cardsChosen) settings.cards = this.rules.display === "cards";
    document.title = this.myTurn ? `● ${t("your_turn")} · tilerummy` : "tilerummy";
    const focused = document.activeElement;
    const focusKey = focused && focused.dataset ? focused.dataset.id || focused.dataset.drop : null;
    // The screen is drawn anew: keep where the table and rack were scrolled to.
    const scrolled = [".table", ".rack"].map((selector) => {
      const element = this.root.querySelector(selector);
      return element ? element.scrollTop : 0;
    });
    const mine = this.myTurn;
    const check = mine ? this.check() : null;
    const sets = this.live && !mine ? this.live.map((tiles, index) => ({ orig: null, tiles: tiles.map((text, place) => ({ id: `l${index}-${place}`, t: text })) })) : this.draft.sets;
    const wrap = Boolean(this.rules.wrap);

    const table = h(
      "section",
      { class: `table ${this.live && !mine ? "live" : ""}`, "aria-label": t("table") },
      sets.length === 0 ? h("p", { class: "empty" }, mine ? t("table_empty_mine") : t("table_empty")) : null,
      sets.map((set, index) => {
        const reading = mine ? check.readings[index] : readSet(set.tiles.map((tile) => tile.t), { wrap });
        const label = reading.ok ? `✓ ${reading.value}` : `✗ ${t(`set_${reading.key}`, labelled(reading.params))}`;
        return h(
          "div",
          {
            class: `set ${reading.ok ? "valid" : "invalid"}`,
            // One set is a Tab stop (the last one visited, or the one nearest the rack); arrows reach the others.
            tabindex: mine && index === Math.min(this.lastSet ?? sets.length, sets.length - 1) ? 0 : -1,
            onfocusin: () => (this.lastSet = index),
            role: "group",
            "aria-label": `${t("set_n", { n: index + 1 })}: ${label}`,
            dataset: { drop: `set:${index}` },
            onclick: (event) => !event.target.closest(".tile") && this.placeSelected(`set:${index}`),
          },
          h("div", { class: "tiles" }, set.tiles.map((tile) => this.tile(tile, "table"))),
          h("div", { class: "verdict", "aria-hidden": "true" }, label),
        );
      }),
      mine
        ? h(
            "button",
            { class: "newset", id: "new-set", dataset: { drop: "new" }, onclick: () => this.placeSelected("new") },
            h("span", { class: "plus" }, "+"),
            " ",
            t(this.selected.size ? "new_set_place" : "new_set"),
          )
        : null,
    );

    const rack = h(
      "section",
      {
        class: `rack ${mine ? "mine" : ""}`,
        id: "rack",
        tabindex: 0,
        "aria-label": t("your_rack", { n: this.draft.rack.length }),
        dataset: { drop: "rack" },
        onclick: (event) => !event.target.closest(".tile") && this.placeSelected("rack"),
      },
      game.rack === null ? h("p", { class: "empty" }, t("spectating")) : this.draft.rack.map((tile) => this.tile(tile, "rack")),
    );

    this.root.replaceChildren(
      this.api.header(this.clockChip(), h("button", { class: "icon help", id: "help", title: t("help"), "aria-label": t("help"), onclick: () => showHelp() }, "?")),
      h(
        "main",
        { class: `game ${mine ? "my-turn" : ""}` },
        this.players(),
        this.moveLog(),
        table,
        // The rack follows the table for the Tab key; the page shows the status and buttons between them.
        rack,
        this.statusLine(check),
        game.rack === null ? null : this.actions(check),
      ),
      ...(game.result ? [resultDialog(this)] : []),
    );
    [".table", ".rack"].forEach((selector, index) => {
      const element = this.root.querySelector(selector);
      if (element) element.scrollTop = scrolled[index];
    });
    if (focusKey) {
      const again = this.root.querySelector(`[data-id="${focusKey}"], [data-drop="${focusKey}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    this.bumped = null;
    const lines = this.root.querySelector("#log-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
    this.tickClock();
  }

  tile(tile, where) {
    const mine = this.myTurn;
    const movable = where === "rack" ? this.game.rack !== null : mine && !tile.id.startsWith("l");
    const classes = [
      this.selected.has(tile.id) ? "selected" : "",
      this.lastMoveIds && this.lastMoveIds.has(tile.id) ? "last" : "",
      this.fresh.has(tile.id) ? "fresh" : "",
      where === "table" && fromRack(tile) ? "placed" : "",
      movable ? "movable" : "",
    ].join(" ");
    return tileFace(tile.t, {
      class: classes,
      // Tab goes from set to set and to the rack; arrows go from tile to tile inside them.
      tabindex: -1,
      role: movable ? "button" : "img",
      "aria-pressed": movable ? String(this.selected.has(tile.id)) : null,
      dataset: { id: tile.id, t: tile.t },
    });
  }

  players() {
    const game = this.game;
    // In a match, each player's total over the finished rounds sits beside their name.
    const match = this.state.room && this.state.room.match;
    const seats = (this.state.room && this.state.room.seats) || [];
    return h(
      "section",
      { class: "players", "aria-label": t("players") },
      game.players.map((name, seat) => {
        const info = seats[seat] || {};
        const classes = ["player", seat === game.turn && !game.result ? "turn" : "", seat === game.seat ? "me" : "", info.connected === false ? "away" : ""].join(" ");
        return h(
          "div",
          { class: classes, "aria-current": seat === game.turn ? "true" : null },
          h("span", { class: "name" }, info.kind === "bot" ? icon("bot") : null, seat === game.seat ? t("you_name", { name }) : this.nameOf(seat)),
          h("span", { class: `count ${seat === this.bumped ? "bumped" : ""}`, title: t("rack_size_title") }, h("span", { class: "mini-tile", "aria-hidden": "true" }), t("tiles_n", { n: game.rack_sizes[seat] })),
          game.melded[seat] ? h("span", { class: "melded", title: t("melded") }, "✓") : null,
          match ? h("span", { class: `match-total ${match.totals[seat] >= 0 ? "plus" : "minus"}`, title: t("match_total_title") }, match.totals[seat] > 0 ? `+${match.totals[seat]}` : String(match.totals[seat])) : null,
          info.stand_in ? h("span", { class: "badge" }, t("stand_in")) : info.connected === false ? h("span", { class: "badge" }, t("away")) : null,
        );
      }),
      h("div", { class: "chip pool", title: t("pool_title") }, t("pool", { n: game.pool_size })),
      match ? h("div", { class: "chip match-round", id: "match-round" }, matchProgress(match)) : null,
      dealSeal(this, game.fairness),
    );
  }

  // Bots are named in the player's language; people by the names they chose.
  nameOf(seat) {
    return playerName(this.game.players[seat], this.state.room && this.state.room.seats[seat]);
  }

  clockChip() {
    return h("span", { class: "chip clock", id: "clock", role: "timer", "aria-live": "off" }, "");
  }

  // Called four times a second: the chip is changed only when what it shows changes (once a second),
  // as every change costs the page a style and layout pass.
  tickClock() {
    const clock = document.getElementById("clock");
    const game = this.game;
    if (!clock || !game) return;
    const hidden = Boolean(game.result);
    if (clock.hidden !== hidden) clock.hidden = hidden;
    if (game.result || game.deadline == null) {
      showClock(clock, "∞", "chip clock");
      return;
    }
    const left = Math.max(0, game.deadline - (Date.now() / 1000 + this.state.clockOffset));
    const whole = Math.ceil(left);
    const warning = left <= CLOCK_WARNING_SECONDS;
    showClock(clock, ` ${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`, `chip clock ${warning ? "warning" : ""} ${this.myTurn ? "mine" : ""}`, true);
    if (this.myTurn && warning && whole <= 10 && whole > 0 && this.ticked !== whole) {
      this.ticked = whole;
      beep("tick");
    }
  }

  statusLine(check) {
    const game = this.game;
    const parts = [];
    if (game.result) {
      parts.push(h("strong", {}, t("round_over")));
    } else if (check) {
      parts.push(h("strong", {}, t("your_turn")));
      if (!check.melded) {
        parts.push(h("span", { class: `meld ${check.enough ? "enough" : ""}`, id: "meld-counter", title: t("meld_title", { need: check.need }) }, t("meld_counter", { value: check.meldValue, need: check.need })));
      }
      parts.push(h("span", { class: "reason", id: "turn-reason" }, check.reason || t("ready_to_end")));
    } else if (game.seat === null) {
      parts.push(t("watching", { name: this.nameOf(game.turn) }));
    } else {
      parts.push(h("span", {}, t("their_turn", { name: this.nameOf(game.turn) })), this.live ? h("span", { class: "muted" }, t("they_are_moving")) : null);
    }
    return h("div", { class: `status ${check && check.reason ? "" : "ok"}`, role: "status" }, parts);
  }

  actions(check) {
    const mine = this.myTurn;
    const idle = mine && !this.busy;
    const hints = this.state.room && this.state.room.options && this.state.room.options.hints;
    // Each tool says what it does under its symbol: phones show no tooltips.
    const tool = (id, glyph, label, title, onclick, disabled = false) =>
      h("button", { id, class: "tool", onclick, disabled, title, "aria-label": title }, h("span", { class: "glyph", "aria-hidden": "true" }, glyph), h("span", { class: "label", "aria-hidden": "true" }, label));
    const pool = this.game.pool_size > 0;
    return h(
      "div",
      { class: "actions" },
      h(
        "div",
        { class: "group" },
        // The symbols show what each order lines up: a run of one colour, or a group of one number.
        tool("sort-colour", ["1", "2", "3"].map((digit) => h("span", { class: "c-R" }, digit)), t("tool_runs"), t("sort_runs"), () => this.sortRack("colour")),
        tool("sort-number", ["R", "B", "Y"].map((colour) => h("span", { class: `c-${colour}` }, "7")), t("tool_groups"), t("sort_groups"), () => this.sortRack("number")),
        tool("undo", "↶", t("undo"), t("undo"), () => this.undo(), !mine || !this.draft.canUndo),
        tool("redo", "↷", t("redo"), t("redo"), () => this.redo(), !mine || !this.draft.canRedo),
        tool("reset", "⟲", t("tool_reset"), t("reset_turn"), () => this.resetTurn(), !mine || !this.draft.canUndo),
        hints ? tool("hint", icon("bulb"), t("hint"), t("hint_title"), () => this.hint(), !idle) : null,
      ),
      h(
        "div",
        { class: "group main" },
        h("button", { id: "draw", class: "secondary", onclick: () => this.draw(), disabled: !idle, title: t(pool ? "draw_title" : "pass_title") }, t(pool ? "draw" : "pass")),
        h("button", { id: "end-turn", class: "primary", onclick: () => this.endTurn(), disabled: !idle || Boolean(check && check.reason), title: check && check.reason ? check.reason : t("end_turn") }, t("end_turn")),
      ),
    );
  }

  banner(text) {
    const banner = h("div", { class: "banner", role: "alert" }, text);
    document.body.append(banner);
    setTimeout(() => banner.remove(), 2600);
  }
}

// --- Helpers -------------------------------------------------------------------

// The clock chip showing `text` (after the clock's icon when `withIcon`), styled by `className`;
// an unchanged chip is left alone.
function showClock(clock, text, className, withIcon = false) {
  if (clock.dataset.shown !== text) {
    if (withIcon) clock.replaceChildren(icon("clock"), text);
    else clock.textContent = text;
    clock.dataset.shown = text;
  }
  if (clock.className !== className) clock.className = className;
}

// The move log survives a reload of the page, for the same game.
function loadLog(game) {
  const empty = { game_id: game ? game.game_id : null, entries: [] };
  try {
    const saved = JSON.parse(sessionStorage.getItem(LOG_KEY) || "null");
    return saved && game && saved.game_id === game.game_id ? saved : empty;
  } catch {
    return empty;
  }
}

export function playerName(name, seat) {
  return seat && seat.kind === "bot" ? t("bot_name", { n: seat.seat + 1 }) : name;
}

// Reasons name tiles as the player sees them ("5♥", or "Q♦" as cards).
function labelled(params) {
  const shown = { ...params };
  if (shown.tile) shown.tile = tileLabel(shown.tile);
  if (shown.hint) shown.hint = tileLabel(shown.hint);
  if (shown.missing) shown.missing = shown.missing.split(" ").map(tileLabel).join(" ");
  return shown;
}
