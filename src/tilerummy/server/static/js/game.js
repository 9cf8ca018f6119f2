// The game screen: the table, the rack, moving tiles (drag, tap or keys), and the turn's buttons.

import { dealSeal, matchProgress, resultDialog, showHelp } from "./dialogs.js";
import { Draft, fromRack, markNew, markNewRack, newTiles, pickTiles, sameTiles, tilesAdded } from "./draft.js";
import { t } from "./i18n.js";
import { TileInput } from "./input.js";
import { logLine, logText } from "./logline.js";
import { drawEntry, historyEntries, othersPlaced, playEntry } from "./movelog.js";
import { isJoker, parseToken, readSet } from "./rules.js";
import { beep, clearToast, h, icon, placeToast, reducedMotion, settings, tileFace, tileLabel, tileSpoken, toast } from "./ui.js";

const CLOCK_WARNING_SECONDS = 15;
const LIVE_TABLE_DELAY_MS = 150;
const LOG_KEY = "tilerummy.log";
// The marks kept over a reload: the tiles the player drew last ("new" on the rack) and those the others
// placed since (outlined on the table), each until the player's next turn ends.
const MARKS_KEY = "tilerummy.marks";
// How long a tile of another player's play takes to move into place (none under reduced motion).
const ARRIVE_MS = 420;
const ARRIVE_STAGGER_MS = 60;

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
    // The tiles the others placed since the player's turn last ended (bare tokens with counts).
    const marks = loadMarks(state.game);
    this.lastMove = new Map(marks.last);
    this.drawn = { game_id: marks.game_id, tiles: marks.tiles };
    this.arriving = null;
    this.live = null;
    this.sortMode = localStorage.getItem("tilerummy.sort") || "colour";
    this.resultShownFor = null;
    this.ticked = null;
    this.busy = false;
    this.log = loadLog(state.game);
    this.adoptHistory(state.game, state.history);
    this.logOpen = false;
    this.input = new TileInput(this);
    this.clockTimer = setInterval(() => this.tickClock(), 250);
    document.body.classList.add("in-game");
    this.reset(state.game, null);
  }

  destroy() {
    this.input.destroy();
    clearInterval(this.clockTimer);
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
    const me = game.seat;
    let arrived = null;
    if (!sameGame || (event && event.kind === "start")) {
      this.lastMove = new Map();
      this.keepDrawn(game, []);
    } else if (event && event.seat === me && me !== null) {
      // The player's turn ended: what the others did before it is no news now; a draw is marked until the next one ends.
      this.lastMove = new Map();
      const own = (event.kind === "draw" || event.kind === "timeout") && previous.rack && game.rack;
      this.keepDrawn(game, own ? tilesAdded(game.rack, previous.rack) : []);
    } else if (event && event.kind === "play") {
      // Another player's tiles stay marked until the player's own turn ends (a watcher sees the latest play's).
      arrived = newTiles(previous.table, game.table);
      if (me === null) this.lastMove = new Map();
      for (const [key, count] of arrived) this.lastMove.set(key, (this.lastMove.get(key) || 0) + count);
    }
    this.saveMarks(game);
    if (event) this.record(sameGame ? previous : null, game, event);
    if (game.moves !== this.moves || !sameTiles(game.rack, this.baseRack)) {
      this.reset(game, null);
    }
    if (arrived && arrived.size && this.draft) this.arriving = { ids: markNew(this.draft.sets, arrived), seat: event.seat };
    if (!event) return;
    if (game.result) {
      // The result speaks for itself: an older message would only cover it (and its title cheers, no banner over it).
      const message = document.getElementById("toast");
      if (message) message.className = "";
      beep(game.result.winner === me ? "win" : "place");
    } else if (event.kind === "timeout" && event.seat === me) {
      // The message names the tiles drawn, as the rack marks them.
      toast(this.drawn.tiles.length ? t("timeout_you_tiles", { tiles: this.drawn.tiles.map(tileWords).join(", ") }) : t("timeout_you", { n: event.drawn }), "error");
    } else if (event.kind === "play" && event.seat !== me) {
      beep("place");
    } else if (event.kind === "draw" && event.seat === me) {
      beep("draw");
    }
    if (!game.result && game.turn === me && game.rack && (event.kind === "start" || event.seat !== me)) beep("turn");
  }

  // The tiles the player drew (texts), for the game.
  keepDrawn(game, tiles) {
    this.drawn = { game_id: game.game_id, tiles };
  }

  saveMarks(game) {
    try {
      const tiles = this.drawn.game_id === game.game_id ? this.drawn.tiles : [];
      sessionStorage.setItem(MARKS_KEY, JSON.stringify({ game_id: game.game_id, tiles, last: [...this.lastMove] }));
    } catch {
      // Without storage the marks are lost on a reload only.
    }
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
      const own = (event.kind === "draw" || event.kind === "timeout") && event.seat === game.seat && previous && previous.rack && game.rack;
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

  // The game so far from a snapshot's history (someone who arrives while it is played, a reload, a
  // reconnection): the lines this page kept stay (its own draws name their tiles), the others are filled in.
  adoptHistory(game, history) {
    if (!game || !history || history.game_id !== game.game_id || !history.moves.length) return;
    const moves = history.moves.slice(0, game.moves);
    const kept = this.log.game_id === game.game_id ? new Map(this.log.entries.map((entry) => [entry.moves, entry])) : new Map();
    const entries = historyEntries(moves, { wrap: Boolean(this.rules.wrap) });
    this.log = { game_id: game.game_id, entries: entries.map((entry) => kept.get(entry.moves) || entry) };
    // The others' tiles marked as a page that saw every move marks them (a new tab, a watcher who just came).
    this.lastMove = othersPlaced(moves, game.seat);
    if (this.draft) this.lastMoveIds = markNew(this.draft.sets, this.lastMove);
    this.saveMarks(game);
    try {
      sessionStorage.setItem(LOG_KEY, JSON.stringify(this.log));
    } catch {
      // The log is kept only for a reload.
    }
  }

  // A line of the log, as shown (tiles drawn as tiles) or as words (spoken).
  logLine(entry, { spoken = false } = {}) {
    const name = entry.seat === this.game.seat ? t("you_name", { name: this.game.players[entry.seat] }) : this.nameOf(entry.seat);
    // The player's own timeout names the tiles it drew, as their own draw does.
    if (entry.kind === "timeout" && entry.tiles && entry.tiles.length) return timeoutLine(entry, name, spoken);
    return spoken ? logText(entry, name) : logLine(entry, name);
  }

  // Closed, the log shows its latest line (and, on a wide screen, the one before); open, every line,
  // in the page's flow above the table, which it pushes down rather than covers.
  moveLog() {
    const entries = this.log.game_id === this.game.game_id ? this.log.entries : [];
    const latest = entries.length ? this.logLine(entries[entries.length - 1]) : t("log_empty");
    const spoken = entries.length ? this.logLine(entries[entries.length - 1], { spoken: true }) : latest;
    const before = entries.length > 1 ? this.logLine(entries[entries.length - 2]) : null;
    const details = h(
      "details",
      { class: "log", id: "move-log", open: this.logOpen, ontoggle: () => (this.logOpen = details.open) },
      h(
        "summary",
        { "aria-label": `${t("log_title")}: ${spoken}` },
        h("span", { class: "log-title" }, t("log_title")),
        h("span", { class: "recent" }, before ? h("span", { class: "before", id: "log-before" }, before) : null, h("span", { class: "latest", id: "log-latest", role: "status" }, latest)),
      ),
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
    const drawn = this.drawn && this.drawn.game_id === game.game_id ? this.drawn.tiles : [];
    this.fresh = rackBefore ? markNewRack(this.draft.rack, rackBefore) : pickTiles(this.draft.rack, drawn);
    this.baseRack = game.rack ? [...game.rack] : null;
  }

  // --- Changing the arrangement ------------------------------------------------

  change(apply) {
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
    // A table shown after the turn's end would be refused: nothing of it may follow the action,
    // nor may the turn's messages ("Suggested play…") outlast it.
    if (message.type !== "hint") {
      clearTimeout(this.liveTimer);
      clearToast();
    }
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
    // The message sits between the table and the rack: the tiles it talks of are scrolled into view above it.
    const first = this.root.querySelector(".table .tile.selected");
    if (first) first.scrollIntoView({ block: "nearest" });
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
    // What is open stays open: read from the page itself, as a toggle event may not have come yet.
    const log = this.root.querySelector("#move-log");
    if (log) this.logOpen = log.open;
    const fair = this.root.querySelector("#fair-deal");
    if (fair) this.fairOpen = fair.open;
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
      {
        class: `table ${this.live && !mine ? "live" : ""}`,
        "aria-label": t("table"),
        // A tap on the open table, beside the sets, lays the picked tiles as a new set (as a drop there does).
        onclick: (event) => mine && this.selected.size && !event.target.closest(".set, .tile, button") && this.placeSelected("new"),
      },
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

    const parts = [
      // The first Tab stop of the page: straight to the rack (shown only when it has the focus); R does the same.
      game.rack === null ? null : h("a", { class: "skip", id: "skip-to-rack", href: "#rack", onclick: (event) => (event.preventDefault(), rack.focus()) }, t("skip_to_rack")),
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
      game.result ? resultDialog(this) : null,
    ];
    // A part left out is left out (replaceChildren would write "null" for it).
    this.root.replaceChildren(...parts.filter(Boolean));
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
    placeToast();
    this.tickClock();
    if (this.arriving) this.arrive(this.arriving);
    this.arriving = null;
  }

  // Another player's placed tiles move into place from their name, one after another, briefly.
  arrive({ ids, seat }) {
    if (reducedMotion()) return;
    const from = this.root.querySelectorAll(".players .player")[seat];
    if (!from || !ids.size) return;
    const start = from.getBoundingClientRect();
    let order = 0;
    for (const id of ids) {
      const element = this.root.querySelector(`.table [data-id="${id}"]`);
      if (!element || !element.animate) continue;
      const end = element.getBoundingClientRect();
      const dx = start.left + start.width / 2 - (end.left + end.width / 2);
      const dy = start.top + start.height / 2 - (end.top + end.height / 2);
      element.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.2 }, { transform: "none", opacity: 1 }], {
        duration: ARRIVE_MS,
        delay: order * ARRIVE_STAGGER_MS,
        easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
        fill: "backwards",
      });
      order += 1;
    }
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
      if (this.resultHidden === game.game_id) parts.push(h("button", { class: "primary", id: "show-result", onclick: () => this.showResult() }, t("result_show")));
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

  // The result closed, to look at the final table; the status line's button brings it back.
  hideResult() {
    this.resultHidden = this.game.game_id;
    this.render();
    document.getElementById("show-result")?.focus();
  }

  showResult() {
    this.resultHidden = null;
    this.render();
    document.getElementById("result-close")?.focus();
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

// The marks kept for the same game.
function loadMarks(game) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(MARKS_KEY) || "null");
    if (saved && game && saved.game_id === game.game_id && Array.isArray(saved.tiles) && Array.isArray(saved.last)) return saved;
  } catch {
    // Nothing kept.
  }
  return { game_id: game ? game.game_id : null, tiles: [], last: [] };
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

// The player's own timeout, naming the tiles it drew: small tiles of their colours as the log draws them
// (logline.js), cards as their labels, words for a screen reader.
function timeoutLine(entry, name, spoken) {
  if (spoken || settings.cards) return t("log_timeout_tiles", { name, tiles: entry.tiles.map(spoken && !settings.cards ? tileSpoken : tileLabel).join(" ") });
  const [head, tail] = t("log_timeout_tiles", { name, tiles: "\u0001" }).split("\u0001");
  const tiles = entry.tiles.map((token) => {
    const joker = isJoker(token);
    return h("span", { class: `log-tile c-${joker ? "J" : parseToken(token).colour}`, role: "img", "aria-label": tileSpoken(token), title: tileSpoken(token) }, joker ? "☺" : String(parseToken(token).number));
  });
  return h("span", { class: "log-line" }, head, tiles.flatMap((tile, index) => (index ? [" ", tile] : [tile])), tail ?? "");
}

// A tile named in words as the player sees it: "red 5" among tiles, "Q♦" as cards.
function tileWords(token) {
  return settings.cards ? tileLabel(token) : tileSpoken(token);
}

// Reasons name tiles as the player sees them ("red 5 appears twice", or "Q♦" as cards).
function labelled(params) {
  const shown = { ...params };
  if (shown.tile) shown.tile = tileWords(shown.tile);
  if (shown.hint) shown.hint = tileWords(shown.hint);
  if (shown.missing) shown.missing = shown.missing.split(" ").map(tileWords).join(", ");
  return shown;
}
