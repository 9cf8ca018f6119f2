// The game screen: the table, the rack, moving tiles (drag, tap or keys), and the turn's buttons.

import { Draft, fromRack, markNew, markNewRack, newTiles, sameTiles } from "./draft.js";
import { t } from "./i18n.js";
import { readSet } from "./rules.js";
import { beep, h, icon, settings, tileFace, tileLabel, toast } from "./ui.js";

const DRAG_THRESHOLD = 6;
const CLOCK_WARNING_SECONDS = 15;
const LIVE_TABLE_DELAY_MS = 150;
const AUTOSCROLL_EDGE = 36;
const AUTOSCROLL_STEP = 12;

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
    this.drag = null;
    this.resultShownFor = null;
    this.ticked = null;
    this.handlers = {
      down: (event) => this.pointerDown(event),
      move: (event) => this.pointerMove(event),
      up: (event) => this.pointerUp(event),
      key: (event) => this.keyDown(event),
    };
    document.addEventListener("pointerdown", this.handlers.down);
    document.addEventListener("pointermove", this.handlers.move);
    document.addEventListener("pointerup", this.handlers.up);
    document.addEventListener("pointercancel", this.handlers.up);
    document.addEventListener("keydown", this.handlers.key);
    this.clockTimer = setInterval(() => this.tickClock(), 250);
    document.body.classList.add("in-game");
    this.reset(state.game, null);
  }

  destroy() {
    document.removeEventListener("pointerdown", this.handlers.down);
    document.removeEventListener("pointermove", this.handlers.move);
    document.removeEventListener("pointerup", this.handlers.up);
    document.removeEventListener("pointercancel", this.handlers.up);
    document.removeEventListener("keydown", this.handlers.key);
    clearInterval(this.clockTimer);
    document.body.classList.remove("in-game");
    document.title = "tilerummy";
    this.endDrag();
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
    if (event && previous && event.kind === "play") {
      this.lastMove = newTiles(previous.table, game.table);
    } else if (event && event.kind === "start") {
      this.lastMove = new Set();
    }
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

  liveTable(message) {
    if (!this.game || message.moves !== this.game.moves || message.seat === this.game.seat) return;
    this.live = message.sets;
    if (!this.drag) this.render();
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

  async endTurn() {
    if (!this.myTurn) return;
    const check = this.check();
    if (check.reason) {
      toast(check.reason, "error");
      beep("error");
      return;
    }
    const reply = await this.api.request({ type: "play", sets: this.draft.table() });
    if (reply.type === "error") this.api.showError(reply);
  }

  async draw() {
    if (!this.myTurn) return;
    const reply = await this.api.request({ type: this.game.pool_size > 0 ? "draw" : "pass" });
    if (reply.type === "error") this.api.showError(reply);
  }

  async hint() {
    if (!this.myTurn) return;
    const button = document.getElementById("hint");
    if (button) button.disabled = true;
    const reply = await this.api.request({ type: "hint" });
    if (button) button.disabled = false;
    if (reply.type === "error") {
      this.api.showError(reply);
      return;
    }
    if (reply.type !== "hint" || !this.myTurn) return;
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
      if (this.myTurn) this.api.send({ type: "live_table", sets: this.draft.liveTable() });
    }, LIVE_TABLE_DELAY_MS);
  }

  // --- Drawing the screen ------------------------------------------------------

  render() {
    const game = this.game;
    if (!game) return;
    if (this.drag && this.drag.started) return;
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
            tabindex: mine ? 0 : -1,
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
        table,
        this.statusLine(check),
        game.rack === null ? null : this.actions(check),
        rack,
      ),
      ...(game.result ? [this.resultDialog()] : []),
    );
    [".table", ".rack"].forEach((selector, index) => {
      const element = this.root.querySelector(selector);
      if (element) element.scrollTop = scrolled[index];
    });
    if (focusKey) {
      const again = this.root.querySelector(`[data-id="${focusKey}"], [data-drop="${focusKey}"]`);
      if (again) again.focus({ preventScroll: true });
    }
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
          h("span", { class: "count", title: t("rack_size_title") }, h("span", { class: "mini-tile", "aria-hidden": "true" }), t("tiles_n", { n: game.rack_sizes[seat] })),
          game.melded[seat] ? h("span", { class: "melded", title: t("melded") }, "✓") : null,
          info.stand_in ? h("span", { class: "badge" }, t("stand_in")) : info.connected === false ? h("span", { class: "badge" }, t("away")) : null,
        );
      }),
      h("div", { class: "chip pool", title: t("pool_title") }, t("pool", { n: game.pool_size })),
    );
  }

  // Bots are named in the player's language; people by the names they chose.
  nameOf(seat) {
    return playerName(this.game.players[seat], this.state.room && this.state.room.seats[seat]);
  }

  clockChip() {
    return h("span", { class: "chip clock", id: "clock", role: "timer", "aria-live": "off" }, "");
  }

  tickClock() {
    const clock = document.getElementById("clock");
    const game = this.game;
    if (!clock || !game) return;
    clock.hidden = Boolean(game.result);
    if (game.result || game.deadline == null) {
      clock.textContent = "∞";
      clock.className = "chip clock";
      return;
    }
    const left = Math.max(0, game.deadline - (Date.now() / 1000 + this.state.clockOffset));
    const whole = Math.ceil(left);
    clock.replaceChildren(icon("clock"), ` ${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`);
    const warning = left <= CLOCK_WARNING_SECONDS;
    clock.className = `chip clock ${warning ? "warning" : ""} ${this.myTurn ? "mine" : ""}`;
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
    const hints = this.state.room && this.state.room.options && this.state.room.options.hints;
    const button = (id, label, onclick, { disabled = false, title = null, className = "" } = {}) =>
      h("button", { id, class: className, onclick, disabled, title: title || label, "aria-label": title || label }, label);
    return h(
      "div",
      { class: "actions" },
      h(
        "div",
        { class: "group" },
        // The labels show what each order lines up: a run of one colour, or a group of one number.
        button("sort-colour", ["1", "2", "3"].map((digit) => h("span", { class: "c-R" }, digit)), () => this.sortRack("colour"), { title: t("sort_runs"), className: "icon-text" }),
        button("sort-number", ["R", "B", "Y"].map((colour) => h("span", { class: `c-${colour}` }, "7")), () => this.sortRack("number"), { title: t("sort_groups"), className: "icon-text" }),
      ),
      h(
        "div",
        { class: "group" },
        button("undo", "↶", () => this.undo(), { disabled: !mine || !this.draft.canUndo, title: t("undo"), className: "icon" }),
        button("redo", "↷", () => this.redo(), { disabled: !mine || !this.draft.canRedo, title: t("redo"), className: "icon" }),
        button("reset", "⟲", () => this.resetTurn(), { disabled: !mine || !this.draft.canUndo, title: t("reset_turn"), className: "icon" }),
        hints ? button("hint", icon("bulb"), () => this.hint(), { disabled: !mine, title: t("hint"), className: "icon" }) : null,
      ),
      h(
        "div",
        { class: "group main" },
        button("draw", this.game.pool_size > 0 ? t("draw") : t("pass"), () => this.draw(), { disabled: !mine, className: "secondary", title: this.game.pool_size > 0 ? t("draw_title") : t("pass_title") }),
        button("end-turn", t("end_turn"), () => this.endTurn(), { disabled: !mine || Boolean(check && check.reason), className: "primary", title: check && check.reason ? check.reason : t("end_turn") }),
      ),
    );
  }

  resultDialog() {
    const game = this.game;
    const result = game.result;
    const winner = this.nameOf(result.winner);
    const order = game.players.map((name, seat) => seat).sort((a, b) => result.scores[b] - result.scores[a]);
    const totals = h("div", { id: "totals" });
    if (this.resultShownFor !== game.game_id) {
      this.resultShownFor = game.game_id;
      this.totals = null;
      this.loadTotals();
    }
    if (this.totals) totals.append(this.totalsTable());
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
                h("td", {}, seat === result.winner ? "★ " : "", this.nameOf(seat)),
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
          this.state.host ? h("button", { id: "rematch", class: "primary", onclick: () => this.api.rematch() }, t("rematch")) : h("p", { class: "muted" }, t("waiting_rematch")),
          h("a", { class: "button secondary", href: `/replay/${game.game_id}`, id: "replay-link" }, t("watch_replay")),
          h("button", { class: "secondary", id: "home", onclick: () => this.api.goHome() }, t("home")),
        ),
      ),
    );
  }

  // The room's running totals: every finished game's scores, added up by player.
  async loadTotals() {
    const code = this.state.code;
    try {
      const data = await (await fetch(`/api/rooms/${code}/games`)).json();
      const totals = new Map();
      let played = 0;
      for (const game of data.games) {
        if (!game.result || !game.players) continue;
        played += 1;
        game.players.forEach((name, seat) => totals.set(name, (totals.get(name) || 0) + game.result.scores[seat]));
      }
      this.totals = { played, totals };
      const box = document.getElementById("totals");
      if (box) box.replaceChildren(this.totalsTable());
    } catch {
      // The totals are a nicety; the round's scores are already shown.
    }
  }

  totalsTable() {
    if (!this.totals || this.totals.played < 2) return h("span");
    const rows = [...this.totals.totals].sort((a, b) => b[1] - a[1]);
    return h(
      "table",
      { class: "scores totals", id: "totals-table" },
      h("caption", {}, t("room_totals", { n: this.totals.played })),
      h(
        "tbody",
        {},
        rows.map(([name, total]) => {
          const seat = this.game.players.indexOf(name);
          return h("tr", {}, h("td", {}, seat >= 0 ? this.nameOf(seat) : name), h("td", { class: total >= 0 ? "plus" : "minus" }, signed(total)));
        }),
      ),
    );
  }

  banner(text) {
    const banner = h("div", { class: "banner", role: "alert" }, text);
    document.body.append(banner);
    setTimeout(() => banner.remove(), 2600);
  }

  // --- Pointer: drag and drop, or tap --------------------------------------------

  pointerDown(event) {
    const element = event.target.closest && event.target.closest(".tile.movable[data-id]");
    if (!element || !this.root.contains(element) || event.button > 0) return;
    this.drag = { id: element.dataset.id, x: event.clientX, y: event.clientY, pointer: event.pointerId, started: false, element };
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD) return;
      drag.started = true;
      drag.ids = this.selected.has(drag.id) ? [...this.selected] : [drag.id];
      drag.ghost = h("div", { class: "ghost" }, drag.ids.map((id) => {
        const place = this.draft.find(id);
        return tileFace(place.list[place.index].t);
      }));
      document.body.append(drag.ghost);
      for (const id of drag.ids) {
        const element = this.root.querySelector(`[data-id="${id}"]`);
        if (element) element.classList.add("dragging");
      }
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - 20}px, ${event.clientY - 30}px)`;
    // Near the table's top or bottom edge, the table scrolls, to reach sets out of view.
    const table = this.root.querySelector(".table");
    if (table) {
      const box = table.getBoundingClientRect();
      if (event.clientX >= box.left && event.clientX <= box.right) {
        if (event.clientY < box.top + AUTOSCROLL_EDGE && event.clientY > box.top - AUTOSCROLL_EDGE) table.scrollTop -= AUTOSCROLL_STEP;
        else if (event.clientY > box.bottom - AUTOSCROLL_EDGE && event.clientY < box.bottom + AUTOSCROLL_EDGE) table.scrollTop += AUTOSCROLL_STEP;
      }
    }
    const target = this.dropTargetAt(event.clientX, event.clientY);
    if (drag.over !== target) {
      if (drag.over) drag.over.classList.remove("over");
      if (target) target.classList.add("over");
      drag.over = target;
    }
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.started) {
      if (event.type === "pointerup") this.tap(drag.id);
      return;
    }
    const target = event.type === "pointerup" ? this.dropTargetAt(event.clientX, event.clientY) : null;
    this.endDrag(drag);
    if (target) {
      const index = this.dropIndex(target, event.clientX, event.clientY, drag.ids);
      if (!this.moveTiles(drag.ids, target.dataset.drop, index)) this.render();
    } else {
      this.render();
    }
  }

  endDrag(drag = this.drag) {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.over) drag.over.classList.remove("over");
  }

  dropTargetAt(x, y) {
    const element = document.elementFromPoint(x, y);
    const target = element && element.closest("[data-drop]");
    return target && this.root.contains(target) ? target : null;
  }

  // Where among the tiles left in the target a drop at (x, y) goes.
  dropIndex(target, x, y, moving) {
    const tiles = [...target.querySelectorAll(".tile[data-id]")].filter((element) => !moving.includes(element.dataset.id));
    for (let index = 0; index < tiles.length; index++) {
      const box = tiles[index].getBoundingClientRect();
      if (y < box.top) return index;
      if (y <= box.bottom && x < box.left + box.width / 2) return index;
    }
    return tiles.length;
  }

  // --- Keys --------------------------------------------------------------------

  keyDown(event) {
    if (!this.game || document.querySelector(".overlay")) return;
    const control = event.ctrlKey || event.metaKey;
    if (control && event.key.toLowerCase() === "z") {
      event.preventDefault();
      if (event.shiftKey) this.redo();
      else this.undo();
      return;
    }
    if (control && event.key.toLowerCase() === "y") {
      event.preventDefault();
      this.redo();
      return;
    }
    const element = document.activeElement;
    if (!element || !this.root.contains(element) || element.matches("input, select")) return;
    const tileId = element.dataset.id;
    const drop = element.dataset.drop;
    if (event.key === "Escape") {
      this.selected.clear();
      this.render();
    } else if ((event.key === "Enter" || event.key === " ") && tileId && element.classList.contains("movable")) {
      event.preventDefault();
      this.tap(tileId);
    } else if ((event.key === "Enter" || event.key === " ") && drop && element.tagName !== "BUTTON") {
      event.preventDefault();
      this.placeSelected(drop);
    } else if (event.key === "n" && this.selected.size) {
      this.placeSelected("new");
    } else if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      this.arrow(event.key, element, event.shiftKey);
    }
  }

  arrow(key, element, shift) {
    const containers = [...this.root.querySelectorAll("[data-drop]")];
    const container = element.dataset.drop ? element : element.closest("[data-drop]");
    if (!container) return;
    const tiles = [...container.querySelectorAll(".tile.movable[data-id]")];
    const here = tiles.indexOf(element);
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const step = key === "ArrowLeft" ? -1 : 1;
      if (shift && here >= 0) {
        // Shift+arrow carries the tile one place along its set or the rack.
        const id = element.dataset.id;
        const place = this.draft.find(id);
        if (!place || (place.set && !this.myTurn)) return;
        this.change(() => this.draft.shift(id, step));
        return;
      }
      const next = tiles[here < 0 ? 0 : here + step];
      if (next) next.focus();
      return;
    }
    const at = containers.indexOf(container);
    const next = containers[at + (key === "ArrowUp" ? -1 : 1)];
    if (next) (next.querySelector(".tile.movable") || next).focus();
  }
}

// --- Helpers -------------------------------------------------------------------

export function playerName(name, seat) {
  return seat && seat.kind === "bot" ? t("bot_name", { n: seat.seat + 1 }) : name;
}

// How to play and the keys, over the game (outside the screen, which is redrawn as the game goes on).
function showHelp() {
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

// Reasons name tiles as the player sees them ("5♥", or "Q♦" as cards).
function labelled(params) {
  const shown = { ...params };
  if (shown.tile) shown.tile = tileLabel(shown.tile);
  if (shown.hint) shown.hint = tileLabel(shown.hint);
  if (shown.missing) shown.missing = shown.missing.split(" ").map(tileLabel).join(" ");
  return shown;
}
