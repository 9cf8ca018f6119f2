// The page: its state, the connection, and the screens other than the game itself.

import { LANGUAGES, SHORT_NAMES, chosenLanguage, language, setLanguage, t } from "./i18n.js";
import { Connection } from "./net.js";
import { GameScreen, playerName } from "./game.js";
import { beep, h, icon, saveSettings, settings, tileFace, toast } from "./ui.js";
import { matchProgress } from "./dialogs.js";
import { showReplay } from "./replay.js";
import { rulesSummary, showRoom } from "./room.js";
import { TutorialScreen } from "./tutorial.js";
import { profilePanel, saveProfile, savedProfile, showLeaderboard, showPlayer } from "./profile.js";
import { PuzzleScreen, showPuzzle } from "./puzzle.js";
import { Chat } from "./chat.js";

const app = document.getElementById("app");
const SEATS_KEY = "tilerummy.seats";

const state = {
  name: localStorage.getItem("tilerummy.name") || "",
  connection: null,
  status: "connecting",
  code: null,
  seat: null,
  host: false,
  role: null,
  invite: null,
  room: null,
  game: null,
  history: null,
  seq: 0,
  clockOffset: 0,
  joining: null,
  screen: null,
};

// Tokens of the seats this browser holds, by room code, to take them back after a reload.
function savedSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
  } catch {
    return {};
  }
}
function saveSeat(code, token) {
  const seats = savedSeats();
  if (token) seats[code] = token;
  else delete seats[code];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

// The room's chat, for players and spectators alike: its panel stays over every screen of the room.
const chat = new Chat(state, { request: (message) => request(message), connection: () => state.connection });

function defaultName() {
  return `${t("default_name")} ${Math.floor(100 + Math.random() * 900)}`;
}

// A name the page made up ("Player 123"), not one the person chose.
function madeUpName(name) {
  return name.startsWith(`${t("default_name")} `) && /^\d{3}$/.test(name.slice(t("default_name").length + 1));
}

// --- The connection ----------------------------------------------------------

function connect() {
  if (state.connection) return state.connection;
  state.connection = new Connection({
    name: savedProfile()?.name || state.name || defaultName(),
    key: savedProfile()?.key || null,
    onKeyRefused: () => (saveProfile(null), toast(t("error_bad_key"), "error")),
    onMessage: receive,
    onStatus: (status) => {
      state.status = status;
      showStatus();
      if (status === "online" && state.code) toast(t("reconnected"));
    },
    onReady: async () => {
      if (state.code) await joinRoom(state.code, { quiet: true });
    },
  });
  state.connection.start();
  return state.connection;
}

function whenOnline() {
  const connection = connect();
  if (connection.status === "online") return Promise.resolve(connection);
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (connection.status === "online") {
        clearInterval(check);
        resolve(connection);
      }
    }, 50);
  });
}

function send(message) {
  return state.connection && state.connection.send(message);
}

function request(message) {
  return whenOnline().then((connection) => connection.request(message));
}

function receive(message) {
  switch (message.type) {
    case "joined":
      state.code = message.code;
      state.seat = message.seat;
      state.host = message.host;
      state.role = message.role;
      state.invite = message.invite;
      if (message.token) saveSeat(message.code, message.token);
      break;
    case "snapshot":
      state.seq = message.seq;
      state.room = message.room;
      chat.setLines(state.code, message.chat);
      followHost();
      state.clockOffset = message.now - Date.now() / 1000;
      // The game's actions so far, for the move log of a page that did not see them.
      state.history = { game_id: message.game ? message.game.game_id : null, moves: message.history || [] };
      setGame(message.game, null);
      if (state.screen instanceof GameScreen) state.screen.adoptHistory(message.game, state.history);
      show();
      break;
    case "room":
      if (!sequenceFits(message.seq)) return;
      state.room = message.room;
      followHost();
      show();
      chat.refresh();
      break;
    case "game":
      if (!sequenceFits(message.seq)) return;
      state.clockOffset = message.now - Date.now() / 1000;
      setGame(message.game, message.event);
      show();
      break;
    case "room_server":
      if (message.code === state.code && state.connection) state.connection.moveTo(message.url);
      break;
    case "chat":
      if (state.code) chat.add(message);
      break;
    case "left":
      // Left before its game began, a room keeps no seat: nothing to come back to.
      if (state.room && state.room.code === message.code && state.room.status === "open") saveSeat(message.code, null);
      break;
    case "live_table":
      if (state.screen instanceof GameScreen) state.screen.liveTable(message);
      break;
    case "error":
      if (message.reason !== "offline" && message.reply_to == null) showError(message);
      break;
    default:
      break;
  }
}

// The host's rights may pass to another seat (the host left): the room says whose they are.
function followHost() {
  const room = state.room;
  if (room && room.host_seat != null && state.role === "player" && state.seat != null) state.host = room.host_seat === state.seat;
}

// A skipped number means a missed change: ask for the whole room again.
function sequenceFits(seq) {
  if (seq === state.seq + 1) {
    state.seq = seq;
    return true;
  }
  if (seq > state.seq) send({ type: "resync" });
  return false;
}

function setGame(game, event) {
  const previous = state.game;
  state.game = game;
  if (game && state.screen instanceof GameScreen) state.screen.update(previous, game, event);
}

function showError(message) {
  beep("error");
  const key = `error_${message.reason}`;
  const text = t(key);
  toast(text === key ? message.detail || message.reason : text, "error");
}

// --- Pages -------------------------------------------------------------------

function navigate(path, { replace = false } = {}) {
  if (location.pathname !== path || location.hash) history[replace ? "replaceState" : "pushState"](null, "", path);
  route();
}

window.addEventListener("popstate", () => route());
window.addEventListener("hashchange", () => route());

function route() {
  const path = location.pathname;
  const room = /^\/r\/([A-Za-z0-9]+)\/?$/.exec(path);
  const replay = /^\/replay\/([A-Za-z0-9-]+)\/?$/.exec(path);
  const player = /^\/players\/([^/]+)\/?$/.exec(path);
  if (room) {
    const code = room[1].toUpperCase();
    if (state.code === code) show();
    // The invite's page stays up over a change of language (its name field gives the page a name).
    // A name the page made up on an earlier visit is no choice: the invite's page shows whose room it is first.
    else if (savedSeats()[code] || (state.name && !madeUpName(state.name) && state.prompted !== code)) joinRoom(code);
    else showNamePrompt(code);
  } else if (replay) {
    leaveScreen();
    showReplay(app, header(), replay[1]);
  } else if (path === "/puzzle") {
    if (state.code) leaveRoom();
    if (!(state.screen instanceof PuzzleScreen)) {
      leaveScreen();
      showPuzzle(app, { header, goHome }, state.name || defaultName()).then((screen) => (state.screen = screen));
    } else state.screen.render();
  } else if (path === "/leaderboard") {
    leaveScreen();
    showLeaderboard(app, header, navigate);
  } else if (player) {
    leaveScreen();
    showPlayer(app, header, navigate, decodeURIComponent(player[1]));
  } else if (location.hash === TUTORIAL_HASH) {
    showTutorial();
  } else {
    if (state.code) leaveRoom();
    showHome();
  }
}

// The tutorial, at /#tutorial: the same screen again after a change of language, at the same step.
const TUTORIAL_HASH = "#tutorial";

function showTutorial() {
  if (state.code) leaveRoom();
  localStorage.setItem(TUTORIAL_SEEN_KEY, "1");
  if (state.screen instanceof TutorialScreen) {
    state.screen.render();
    return;
  }
  leaveScreen();
  if (!state.name) rename(defaultName());
  state.screen = new TutorialScreen(app, { header, goHome, playBots: () => (navigate("/"), startBotGame(1, "easy", 120)) }, state.name);
}

function leaveScreen() {
  if (state.screen) state.screen.destroy();
  state.screen = null;
}

async function leaveRoom() {
  const code = state.code;
  // Before its game began, leaving frees the seat: its token leads nowhere.
  if (state.room && state.room.status === "open") saveSeat(code, null);
  state.code = null;
  state.room = null;
  state.game = null;
  chat.leave();
  leaveScreen();
  if (code && state.connection && state.connection.status === "online") await state.connection.request({ type: "leave_room" });
}

async function joinRoom(code, { quiet = false } = {}) {
  if (state.joining === code && !quiet) return;
  state.joining = code;
  const token = savedSeats()[code];
  let reply = await request(token ? { type: "join_room", code, token } : { type: "join_room", code, role: "player" });
  if (reply.type === "error" && reply.reason === "bad_token") {
    saveSeat(code, null);
    reply = await request({ type: "join_room", code, role: "player" });
  }
  if (reply.type === "error" && ["game_started", "room_full"].includes(reply.reason)) {
    reply = await request({ type: "join_room", code, role: "spectator" });
  }
  state.joining = null;
  if (reply.type === "error" && reply.reason === "already_in_room") {
    show();
    return;
  }
  if (reply.type === "error") {
    if (reply.reason === "offline") return;
    showError(reply);
    state.code = null;
    navigate("/", { replace: true });
  }
}

function show() {
  if (!state.code || !state.room) return;
  if (location.pathname !== `/r/${state.code}`) history.pushState(null, "", `/r/${state.code}`);
  if (state.game) {
    if (!(state.screen instanceof GameScreen)) {
      leaveScreen();
      state.screen = new GameScreen(app, state, { header, send, request, showError, rematch, goHome });
    }
    state.screen.render();
  } else {
    leaveScreen();
    showRoom(app, state, { header, request, showError, goHome, playBots: () => startBotGame(1, "easy", 120) });
  }
  showStatus();
}

function goHome() {
  navigate("/");
}

async function rematch() {
  const reply = await request({ type: "rematch" });
  if (reply.type === "error") showError(reply);
}

function showStatus() {
  let bar = document.getElementById("connection");
  if (!bar) {
    bar = h("div", { id: "connection", role: "status", "aria-live": "assertive" });
    document.body.append(bar);
  }
  if (state.status === "replaced") {
    // Another window took this seat: offer to play here again, never take it back on our own.
    bar.replaceChildren(
      h("span", {}, t("replaced")),
      h("button", { id: "play-here", onclick: () => state.connection && state.connection.resume() }, t("play_here")),
    );
    bar.className = "show";
    return;
  }
  const away = state.status !== "online" && (state.code || state.status === "offline");
  bar.textContent = away ? t(state.status === "offline" ? "offline" : "reconnecting") : "";
  bar.className = away ? "show" : "";
}

// The top bar every screen shares: the name, the language, cards and sound.
function header(...middle) {
  const languages = h(
    "select",
    {
      "aria-label": t("language"),
      class: "lang",
      onchange: async (event) => {
        const oldDefault = t("default_name");
        await setLanguage(event.target.value, { remember: true });
        translateDefaultName(oldDefault);
        refresh();
        chat.refresh();
      },
    },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language(), title: name }, SHORT_NAMES[code])),
  );
  // Switches say what they switch under their symbol (phones show no tooltips); pressed means on.
  const toggle = (id, symbol, label, title, on, flip) =>
    h("button", { class: "switch", id, "aria-pressed": String(on), title, "aria-label": title, onclick: () => (flip(), saveSettings(), refresh()) }, symbol, h("span", { class: "label", "aria-hidden": "true" }, label));
  const cards = toggle("cards-switch", icon("cards"), t("switch_cards"), t(settings.cards ? "show_tiles" : "show_cards"), settings.cards, () => (settings.cards = !settings.cards));
  const sound = toggle("sound-switch", icon(settings.muted ? "muted" : "sound"), t("switch_sound"), t(settings.muted ? "sound_on" : "sound_off"), !settings.muted, () => (settings.muted = !settings.muted));
  return h(
    "header",
    { class: "top" },
    h("a", { class: "brand", href: "/", "aria-label": t("home"), onclick: (event) => (event.preventDefault(), leaveAsked()) }, h("span", { class: "logo" }, "R"), "tilerummy"),
    h("div", { class: "middle" }, middle),
    h("div", { class: "tools" }, cards, sound, state.code && state.room ? chat.button() : null, languages),
  );
}

// The logo leads home; from a game being played it asks first, saying the seat is kept.
function leaveAsked() {
  const game = state.game;
  const playing = state.code && game && !game.result && state.role === "player" && game.rack !== null;
  if (!playing) {
    navigate("/");
    return;
  }
  if (document.getElementById("leave-dialog")) return;
  const grace = (state.room && state.room.options && state.room.options.grace_seconds) ?? 30;
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => event.key === "Escape" && (event.stopPropagation(), close());
  const overlay = h(
    "div",
    { class: "overlay help-overlay leave-overlay", onclick: (event) => event.target === overlay && close() },
    h(
      "div",
      { class: "dialog leave-dialog", id: "leave-dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "leave-title", "aria-describedby": "leave-text" },
      h("h2", { id: "leave-title" }, t("leave_title")),
      h("p", { id: "leave-text" }, t("leave_text", { seconds: grace })),
      h(
        "div",
        { class: "buttons" },
        h("button", { class: "primary", id: "leave-stay", onclick: close }, t("leave_stay")),
        h("button", { class: "secondary", id: "leave-go", onclick: () => (close(), navigate("/")) }, t("leave_go")),
      ),
    ),
  );
  document.addEventListener("keydown", onKey, true);
  document.body.append(overlay);
  overlay.querySelector("#leave-stay").focus();
}

// A name the page made up ("Player 123") follows the language; a name the player chose stays.
function translateDefaultName(oldDefault) {
  const made = state.name.startsWith(`${oldDefault} `) && /^\d{3}$/.test(state.name.slice(oldDefault.length + 1));
  if (made) rename(`${t("default_name")} ${state.name.slice(oldDefault.length + 1)}`);
}

function refresh() {
  route();
}

// --- Home ----------------------------------------------------------------------

// Signed in, in a profile, or out of one: the next hello says so.
// Hello says the name and the profile's key: out of a room, a new connection says the new ones.
function sayHelloAgain() {
  if (!state.connection || state.code) return;
  const old = state.connection;
  state.connection = null;
  old.socket.onclose = null;
  old.stopPings();
  old.socket.close();
}

function profileChanged() {
  const profile = savedProfile();
  if (profile) {
    state.name = profile.name;
    localStorage.setItem("tilerummy.name", profile.name);
  }
  sayHelloAgain();
  route();
}

function nameField() {
  const profile = savedProfile();
  if (profile) return h("p", { class: "field", id: "profile-name-shown" }, t("profile_signed_in", { name: profile.name }));
  if (!state.name) {
    state.name = defaultName();
    localStorage.setItem("tilerummy.name", state.name);
  }
  return h(
    "label",
    { class: "field" },
    h("span", {}, t("your_name")),
    h("input", {
      id: "name",
      maxlength: 24,
      value: state.name,
      autocomplete: "nickname",
      onchange: (event) => rename(event.target.value),
    }),
  );
}

function rename(value) {
  const name = value.trim().replace(/\s+/g, " ").slice(0, 24);
  if (!name || name === state.name) return;
  state.name = name;
  localStorage.setItem("tilerummy.name", name);
  sayHelloAgain();
}

function select(id, label, options, value) {
  return h(
    "label",
    { class: "field" },
    h("span", {}, label),
    h("select", { id }, options.map(([optionValue, text]) => h("option", { value: optionValue, selected: String(optionValue) === String(value) }, text))),
  );
}

// The rules' names in the drop-down, what the chosen one means under it.
function presetChoice() {
  const presets = { standard: "preset_standard", classic: "preset_classic", house: "preset_house", "six-player": "preset_six" };
  const field = select("room-preset", t("rules_preset"), Object.entries(presets).map(([preset, key]) => [preset, t(key)]), "standard");
  const about = h("span", { class: "about", id: "preset-about" }, t("preset_standard_about"));
  field.querySelector("select").addEventListener("change", (event) => (about.textContent = t(`${presets[event.target.value]}_about`)));
  field.append(about);
  return field;
}

function readName() {
  const input = document.getElementById("name");
  if (input) rename(input.value);
}

async function createRoom(seats, options, ruleOptions, preset = "standard") {
  readName();
  const rules = { preset, options: ruleOptions };
  // A profile's games count for its rating where the server can rate them (standard rules).
  const reply = await request({ type: "create_room", seats, rules, options: { ...options, rated: Boolean(savedProfile()) } });
  if (reply.type === "error") showError(reply);
}

async function playBots() {
  const bots = Number(document.getElementById("bots").value);
  const level = document.getElementById("level").value;
  const turn = document.getElementById("bot-turn").value;
  await startBotGame(bots, level, turn);
}

async function startBotGame(bots, level, turn) {
  const seats = [{ kind: "person" }, ...Array.from({ length: bots }, () => ({ kind: "bot", level }))];
  // A bot waits a moment before it plays, so its move can be followed (?bot_delay= changes it).
  const botDelay = Number(new URLSearchParams(location.search).get("bot_delay") ?? 1.0);
  await createRoom(seats, { public: false, hints: true, auto_start: true, bot_delay: botDelay }, { turn_seconds: turn === "none" ? null : Number(turn) });
}

async function createPrivate() {
  const people = Number(document.getElementById("people").value);
  const bots = Number(document.getElementById("room-bots").value);
  const turn = document.getElementById("room-turn").value;
  const seats = [...Array.from({ length: people }, () => ({ kind: "person" })), ...Array.from({ length: bots }, () => ({ kind: "bot", level: "greedy" }))];
  if (seats.length < 2) seats.push({ kind: "bot", level: "greedy" });
  const options = { public: document.getElementById("room-public").checked, hints: document.getElementById("room-hints").checked };
  const preset = document.getElementById("room-preset").value;
  const ruleOptions = { turn_seconds: turn === "none" ? null : Number(turn), display: document.getElementById("room-display").value };
  // One round with no target is a single game; anything else makes the room play a match.
  const rounds = Number(document.getElementById("room-rounds").value);
  const target = document.getElementById("room-target").value;
  if (rounds > 1) ruleOptions.rounds = rounds;
  if (target !== "none") ruleOptions.target_score = Number(target);
  await createRoom(seats.slice(0, preset === "six-player" ? 6 : 4), options, ruleOptions, preset);
}

let lobbyTimer = null;

// Set once the tutorial has been opened: from then on the home page offers it only as a link.
const TUTORIAL_SEEN_KEY = "tilerummy.tutorial";

function showHome() {
  leaveScreen();
  // A newcomer: no name of their own yet, and the tutorial never opened.
  const newcomer = !localStorage.getItem(TUTORIAL_SEEN_KEY) && (!state.name || state.name.startsWith(`${t("default_name")} `));
  connect();
  const lobby = h("div", { id: "lobby", class: "lobby" }, h("p", { class: "muted" }, t("lobby_loading")));
  const code = h("input", { id: "code", maxlength: 10, placeholder: "K7QF3M", autocapitalize: "characters" });
  const join = () => {
    readName();
    const value = code.value.trim().toUpperCase();
    if (value) navigate(`/r/${value}`);
  };
  code.addEventListener("keydown", (event) => event.key === "Enter" && join());
  app.replaceChildren(
    header(),
    h(
      "main",
      { class: "home" },
      h(
        "section",
        { class: "hero" },
        h("div", { class: "hero-tiles", "aria-hidden": "true" }, ["R7", "B7", "Y7", "K7"].map((tile) => tileFace(tile))),
        h("h1", {}, t("home_title")),
        h("p", {}, t("home_intro")),
        newcomer ? null : h("a", { class: "button secondary learn", id: "tutorial-link", href: TUTORIAL_HASH }, t("tutorial_link")),
        h("a", { class: "button secondary learn", id: "puzzle-link", href: "/puzzle", onclick: (event) => (event.preventDefault(), navigate("/puzzle")) }, t("puzzle_link")),
      ),
      // Someone who has never been here is offered the tutorial first.
      newcomer
        ? h(
            "section",
            { class: "panel primary tutorial-offer", id: "tutorial-offer" },
            h("h2", {}, t("tutorial_offer_title")),
            h("p", {}, t("tutorial_offer")),
            h("a", { class: "button big", id: "tutorial-start", href: TUTORIAL_HASH }, t("tutorial_start")),
          )
        : null,
      h(
        "section",
        { class: "panel primary" },
        h("h2", {}, t("play_bots_title")),
        nameField(),
        h(
          "div",
          { class: "row" },
          select("bots", t("opponents"), [[1, "1"], [2, "2"], [3, "3"]], 1),
          select("level", t("bot_level"), ["easy", "greedy", "hard", "network", "expert"].map((level) => [level, t(`level_${level}`)]), "easy"),
          select("bot-turn", t("turn_time"), [[60, t("seconds", { n: 60 })], [120, t("seconds", { n: 120 })], ["none", t("no_limit")]], 120),
        ),
        h("button", { id: "play-bots", class: "big", onclick: playBots }, t("play_bots")),
      ),
      profilePanel({ onChange: profileChanged, navigate, currentName: state.name }),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, t("friends_title")),
        h(
          "div",
          { class: "row" },
          select("people", t("people"), [[2, "2"], [3, "3"], [4, "4"], [5, "5"], [6, "6"]], 2),
          select("room-bots", t("bots"), [[0, "0"], [1, "1"], [2, "2"]], 0),
        ),
        h(
          "div",
          { class: "row" },
          select("room-turn", t("turn_time"), [[60, t("seconds", { n: 60 })], [120, t("seconds", { n: 120 })], ["none", t("no_limit")]], 120),
          select("room-display", t("shown_as"), [["tiles", t("shown_tiles")], ["cards", t("shown_cards")]], "tiles"),
        ),
        presetChoice(),
        h(
          "div",
          { class: "row" },
          select("room-rounds", t("match_rounds"), [[1, t("match_one_round")], [2, "2"], [3, "3"], [5, "5"], [10, "10"]], 1),
          select("room-target", t("match_target"), [["none", t("match_no_target")], [50, "50"], [100, "100"], [200, "200"], [500, "500"]], "none"),
        ),
        h(
          "div",
          { class: "row checks" },
          h("label", {}, h("input", { type: "checkbox", id: "room-public" }), " ", t("room_public")),
          h("label", {}, h("input", { type: "checkbox", id: "room-hints" }), " ", t("room_hints")),
        ),
        h("button", { id: "create-room", onclick: createPrivate }, t("create_room")),
        h("div", { class: "join" }, h("label", { class: "field" }, h("span", {}, t("room_code")), code), h("button", { id: "join", onclick: join }, t("join"))),
      ),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, t("lobby_title")),
        h("button", { class: "secondary", id: "quick-match", onclick: quickMatch }, t("quick_match")),
        h("p", { class: "about muted", id: "quick-match-about" }, t("quick_match_about")),
        lobby,
      ),
      h(
        "section",
        { class: "panel how" },
        h("h2", {}, t("how_title")),
        h("ul", {}, ["how_goal", "how_sets", "how_first", "how_turn", "how_jokers"].map((key) => h("li", {}, t(key)))),
      ),
    ),
  );
  loadLobby();
  loadKeptSeats();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => (document.getElementById("lobby") ? loadLobby() : clearInterval(lobbyTimer)), 5000);
}

async function quickMatch() {
  readName();
  const reply = await request({ type: "quick_match" });
  if (reply.type === "error") showError(reply);
}

async function loadLobby() {
  const box = document.getElementById("lobby");
  if (!box) return;
  let rooms = [];
  try {
    rooms = (await (await fetch("/api/lobby")).json()).rooms;
  } catch {
    box.replaceChildren(h("p", { class: "muted" }, t("offline")));
    return;
  }
  if (!rooms.length) {
    box.replaceChildren(h("p", { class: "muted" }, t("lobby_empty")));
    return;
  }
  box.replaceChildren(
    h(
      "ul",
      {},
      rooms.map((room) =>
        h(
          "li",
          {},
          h("span", { class: "code" }, room.code),
          h("span", {}, t("lobby_host", { name: room.host || "?" })),
          h("span", { class: "muted" }, room.status === "open" ? t("lobby_free", { free: room.free_seats, seats: room.seats }) : t("lobby_playing")),
          room.match ? h("span", { class: "muted lobby-match" }, matchProgress(room.match), " · ", t("lobby_match_totals", { totals: room.match.totals.map((total) => (total > 0 ? `+${total}` : String(total))).join(" / ") })) : null,
          h(
            "button",
            { class: "secondary", onclick: () => (readName(), navigate(`/r/${room.code}`)) },
            room.status === "open" && room.free_seats > 0 ? t("join") : t("watch"),
          ),
        ),
      ),
    ),
  );
}

// The seats this browser keeps (a game left by the logo, a closed tab): each one still running, a way back.
async function loadKeptSeats() {
  const codes = Object.keys(savedSeats());
  if (!codes.length) return;
  const rooms = [];
  await Promise.all(
    codes.map(async (code) => {
      try {
        const response = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
        if (response.status === 404) saveSeat(code, null);
        if (!response.ok) return;
        const room = await response.json();
        if (room.status !== "finished") rooms.push(room);
      } catch {
        // Unknown for now: offered again on the next visit.
      }
    }),
  );
  const home = document.querySelector("main.home");
  if (!home || !rooms.length || document.getElementById("kept-seats") || state.code) return;
  rooms.sort((a, b) => (a.status === b.status ? a.code.localeCompare(b.code) : a.status === "playing" ? -1 : 1));
  home.querySelector(".hero").after(
    h(
      "section",
      { class: "panel primary kept", id: "kept-seats" },
      h("h2", {}, t("kept_title")),
      h(
        "ul",
        { class: "kept-list" },
        rooms.map((room) =>
          h(
            "li",
            {},
            h("span", { class: "code" }, room.code),
            h("span", {}, room.status === "playing" ? t("kept_playing", { name: room.host || "?" }) : t("kept_open", { name: room.host || "?" })),
            h("button", { class: "primary", dataset: { code: room.code }, onclick: () => navigate(`/r/${room.code}`) }, t("kept_back")),
          ),
        ),
      ),
    ),
  );
}

// An invite link opened for the first time: whose room it is, its players and rules, then the name to join with.
function showNamePrompt(code) {
  leaveScreen();
  connect();
  state.prompted = code;
  const about = h("div", { class: "invite-about", id: "invite-about" });
  app.replaceChildren(
    header(),
    h(
      "main",
      { class: "home" },
      h(
        "section",
        { class: "panel primary" },
        h("h2", {}, t("join_room_title", { code })),
        about,
        nameField(),
        h("button", { id: "join-invite", class: "big", onclick: () => ((state.prompted = null), readName(), joinRoom(code)) }, t("join")),
      ),
    ),
  );
  describeInvite(code, about);
}

async function describeInvite(code, box) {
  let room;
  try {
    const response = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (!response.ok) {
      box.replaceChildren(h("p", { class: "muted" }, t(response.status === 404 ? "error_no_such_room" : "invite_unknown")));
      return;
    }
    room = await response.json();
  } catch {
    return;
  }
  const free = room.seats.filter((seat) => seat.kind === "person" && seat.name === null).length;
  box.replaceChildren(
    h("p", { class: "invite-host", id: "invite-host" }, t("invite_from", { name: room.host || "?" })),
    h(
      "ul",
      { class: "seats", id: "invite-seats" },
      room.seats.map((seat) =>
        h(
          "li",
          {},
          h("span", { class: `dot ${seat.connected ? "on" : ""}`, "aria-hidden": "true" }),
          seat.kind === "bot" ? [icon("bot"), playerName(seat.name, seat)] : seat.name ? seat.name : h("em", { class: "muted" }, t("free_seat")),
          seat.name && seat.name === room.host ? h("span", { class: "badge" }, t("host")) : null,
        ),
      ),
    ),
    rulesSummary(room.rules, room.options),
    h("p", { class: "muted", id: "invite-status" }, room.status === "open" && free > 0 ? t("waiting_players", { n: free }) : t("invite_watch")),
  );
}

// --- Start ---------------------------------------------------------------------

async function main() {
  await setLanguage(chosenLanguage());
  route();
  // The tests and curious players can see the state from the console.
  window.tilerummy = { state, t, request, drop: () => state.connection && state.connection.drop() };
}

main();
