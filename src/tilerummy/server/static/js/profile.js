// Profiles: a name kept by a key in this browser, the leaderboard, and a player's page.
//
// The key is sent in hello (net.js) and on the profile routes (docs/protocol.md#profiles); the
// recovery code is shown once, when the profile is made or a new one is asked for.

import { t } from "./i18n.js";
import { h, toast } from "./ui.js";

const PROFILE_KEY = "tilerummy.profile";

export function savedProfile() {
  try {
    const profile = JSON.parse(localStorage.getItem(PROFILE_KEY) || "null");
    return profile && profile.key && profile.name ? profile : null;
  } catch {
    return null;
  }
}

export function saveProfile(profile) {
  if (profile) localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
  else localStorage.removeItem(PROFILE_KEY);
}

async function api(path, { method = "GET", body = null, key = null } = {}) {
  const headers = {};
  if (body) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : null });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: "http_error", detail: String(response.status) };
  }
  return { ok: response.ok, status: response.status, data };
}

function errorText(data) {
  const key = `error_${data.error}`;
  const text = t(key);
  return text === key ? data.detail || data.error : text;
}

// "1532" or "1532?" while provisional.
export function ratingText(rating, provisional) {
  return provisional ? t("rating_provisional", { rating }) : String(rating);
}

// The home page's panel: make a profile or sign in; once signed in, the player's standing.
export function profilePanel({ onChange, navigate, currentName }) {
  const panel = h("section", { class: "panel", id: "profile-panel" });
  const profile = savedProfile();
  if (profile) {
    const standing = h("p", { class: "muted", id: "profile-standing" }, t("profile_loading"));
    const newName = h("input", { id: "new-name", maxlength: 20, value: profile.name, autocomplete: "nickname" });
    const renameMessage = h("p", { class: "message", id: "rename-message", role: "status" });
    const rename = async () => {
      const { ok, data } = await api("/api/me/name", { method: "POST", body: { name: newName.value }, key: profile.key });
      if (!ok) {
        renameMessage.textContent = errorText(data);
        return;
      }
      saveProfile({ ...profile, name: data.profile.name });
      onChange();
    };
    newName.addEventListener("keydown", (event) => event.key === "Enter" && rename());
    panel.append(
      h("h2", {}, t("profile_title")),
      h("p", {}, t("profile_signed_in", { name: profile.name })),
      standing,
      h(
        "div",
        { class: "row" },
        h("a", { class: "button secondary", id: "profile-page", href: `/players/${encodeURIComponent(profile.name)}`, onclick: (event) => (event.preventDefault(), navigate(`/players/${encodeURIComponent(profile.name)}`)) }, t("profile_page")),
        h("a", { class: "button secondary", id: "leaderboard-link", href: "/leaderboard", onclick: (event) => (event.preventDefault(), navigate("/leaderboard")) }, t("leaderboard_title")),
        h("button", { class: "secondary", id: "new-code", onclick: () => newCode(profile) }, t("profile_new_code")),
        h("button", { class: "secondary", id: "sign-out", onclick: () => signOut(profile, onChange) }, t("profile_sign_out")),
      ),
      h("details", { class: "sign-in" }, h("summary", {}, t("profile_rename")), h("div", { class: "join" }, h("label", { class: "field" }, h("span", {}, t("profile_name")), newName), h("button", { id: "rename", onclick: rename }, t("profile_rename_do"))), renameMessage),
    );
    api("/api/leaderboard", { key: profile.key }).then(({ ok, status, data }) => {
      if (ok) {
        const you = data.you;
        standing.textContent = you.games
          ? t("profile_standing", { rating: ratingText(you.rating, you.provisional), games: you.games, wins: you.wins })
          : t("profile_no_games");
      } else if (status === 401) {
        // The key was signed out on another device, or the server forgot it.
        saveProfile(null);
        onChange();
      } else standing.textContent = errorText(data);
    });
    return panel;
  }
  const name = h("input", { id: "profile-name", maxlength: 20, value: currentName && !currentName.startsWith(`${t("default_name")} `) ? currentName : "", autocomplete: "nickname" });
  const code = h("input", { id: "recovery-code", maxlength: 30, placeholder: "XXXXX-XXXXX-XXXXX-XXXXX", autocapitalize: "characters", autocomplete: "off" });
  const message = h("p", { class: "message", id: "profile-message", role: "status" });
  const create = async () => {
    const { ok, data } = await api("/api/profiles", { method: "POST", body: { name: name.value } });
    if (!ok) {
      message.textContent = errorText(data);
      return;
    }
    saveProfile({ id: data.profile.id, name: data.profile.name, key: data.key });
    showCode(data.recovery_code, onChange);
  };
  const signIn = async () => {
    const { ok, data } = await api("/api/sign-in", { method: "POST", body: { recovery_code: code.value } });
    if (!ok) {
      message.textContent = errorText(data);
      return;
    }
    saveProfile({ id: data.profile.id, name: data.profile.name, key: data.key });
    toast(t("profile_welcome_back", { name: data.profile.name }));
    onChange();
  };
  name.addEventListener("keydown", (event) => event.key === "Enter" && create());
  code.addEventListener("keydown", (event) => event.key === "Enter" && signIn());
  panel.append(
    h("h2", {}, t("profile_title")),
    h("p", {}, t("profile_intro")),
    h("div", { class: "join" }, h("label", { class: "field" }, h("span", {}, t("profile_name")), name), h("button", { id: "create-profile", onclick: create }, t("profile_create"))),
    h("details", { class: "sign-in" }, h("summary", {}, t("profile_have_code")), h("div", { class: "join" }, h("label", { class: "field" }, h("span", {}, t("profile_code")), code), h("button", { id: "sign-in", onclick: signIn }, t("profile_sign_in")))),
    message,
    h("p", { class: "muted" }, h("a", { href: "/leaderboard", onclick: (event) => (event.preventDefault(), navigate("/leaderboard")) }, t("leaderboard_title"))),
  );
  return panel;
}

// The recovery code, shown once: the only way onto another device.
function showCode(code, onDone) {
  const overlay = h(
    "div",
    { class: "overlay recovery-overlay" },
    h(
      "div",
      { class: "dialog recovery-dialog", id: "recovery-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "recovery-title" },
      h("h2", { id: "recovery-title" }, t("profile_code_title")),
      h("p", {}, t("profile_code_explain")),
      h("p", { class: "recovery-code", id: "recovery-value" }, code),
      h(
        "div",
        { class: "row" },
        h("button", { class: "secondary", onclick: () => navigator.clipboard?.writeText(code).then(() => toast(t("code_copied"))) }, t("copy")),
        h("button", { class: "primary", id: "recovery-done", onclick: () => (overlay.remove(), onDone()) }, t("profile_code_kept")),
      ),
    ),
  );
  document.body.append(overlay);
  overlay.querySelector("#recovery-done").focus();
}

async function newCode(profile) {
  const { ok, data } = await api("/api/me/recovery-code", { method: "POST", key: profile.key });
  if (ok) showCode(data.recovery_code, () => {});
  else toast(errorText(data), "error");
}

async function signOut(profile, onChange) {
  await api("/api/me/sign-out", { method: "POST", key: profile.key });
  saveProfile(null);
  onChange();
}

// --- Pages ---------------------------------------------------------------------

function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" });
}

// replaceChildren, leaving out the parts there are none of (it would write "null").
function fill(element, ...children) {
  element.replaceChildren(...children.filter((child) => child != null));
}

// The way on from the leaderboard and a player's page: home, and the other of the two.
function pageLinks(navigate, { leaderboard = false } = {}) {
  const go = (path) => (event) => (event.preventDefault(), navigate(path));
  return h(
    "p",
    { class: "page-links" },
    h("a", { class: "button secondary", id: "page-home", href: "/", onclick: go("/") }, t("home")),
    leaderboard ? h("a", { class: "button secondary", id: "page-leaderboard", href: "/leaderboard", onclick: go("/leaderboard") }, t("leaderboard_title")) : null,
  );
}

// The leaderboard: players past their provisional games, the bots' published ratings, your place.
export async function showLeaderboard(app, header, navigate) {
  const main = h("section", { class: "panel page-panel" }, h("h1", {}, t("leaderboard_title")), h("p", { class: "muted" }, t("profile_loading")));
  app.replaceChildren(header(), h("main", { class: "home", id: "leaderboard" }, main));
  const profile = savedProfile();
  const { ok, data } = await api("/api/leaderboard", { key: profile?.key });
  if (!ok) {
    main.replaceChildren(h("h1", {}, t("leaderboard_title")), h("p", {}, errorText(data)), pageLinks(navigate));
    return;
  }
  const link = (name) => h("a", { href: `/players/${encodeURIComponent(name)}`, onclick: (event) => (event.preventDefault(), navigate(`/players/${encodeURIComponent(name)}`)) }, name);
  const rows = data.players.map((entry) =>
    h("tr", { class: profile && entry.profile.id === profile.id ? "you" : null }, h("td", {}, entry.place), h("td", {}, link(entry.profile.name)), h("td", {}, entry.rating), h("td", {}, entry.games), h("td", {}, `${Math.round(entry.win_share * 100)}%`)),
  );
  fill(
    main,
    h("h1", {}, t("leaderboard_title")),
    data.you
      ? h("p", { id: "your-place" }, data.you.place ? t("leaderboard_your_place", { place: data.you.place, rating: data.you.rating }) : t("leaderboard_provisional", { n: data.provisional_games - data.you.games, rating: ratingText(data.you.rating, true) }))
      : null,
    rows.length
      ? h("table", { class: "board" }, h("thead", {}, h("tr", {}, [t("board_place"), t("board_player"), t("board_rating"), t("board_games"), t("board_wins")].map((text) => h("th", {}, text)))), h("tbody", {}, rows))
      : h("p", { class: "muted" }, t("leaderboard_empty", { n: data.provisional_games })),
    h("h2", {}, t("leaderboard_bots")),
    h("table", { class: "board", id: "bot-ratings" }, h("tbody", {}, data.bots.map((bot) => h("tr", {}, h("td", {}, t(`level_${bot.level}`)), h("td", {}, bot.rating))))),
    pageLinks(navigate),
  );
}

// A player's page: rating over time, record, every rated game with its replay.
export async function showPlayer(app, header, navigate, name) {
  const main = h("section", { class: "panel page-panel" }, h("h1", {}, name), h("p", { class: "muted" }, t("profile_loading")));
  app.replaceChildren(header(), h("main", { class: "home", id: "player-page" }, main));
  const { ok, data } = await api(`/api/profiles/${encodeURIComponent(name)}`);
  if (!ok) {
    main.replaceChildren(h("h1", {}, name), h("p", {}, errorText(data)), pageLinks(navigate, { leaderboard: true }));
    return;
  }
  const standing = data.standing;
  fill(
    main,
    h("h1", {}, data.profile.name),
    h(
      "p",
      { id: "player-standing" },
      standing.games
        ? t("player_standing", { rating: ratingText(standing.rating, standing.provisional), games: standing.games, wins: standing.wins, score: standing.mean_score ?? 0 })
        : t("profile_no_games"),
      standing.place ? ` · ${t("player_place", { place: standing.place })}` : "",
    ),
    // What only an exact solver can tell: how close the player came to the best play, turn by turn.
    standing.placed_share !== null
      ? h("p", { id: "player-figures" }, t("player_figures", { share: Math.round(standing.placed_share * 100), n: standing.missed_go_outs, games: standing.analysed_games }))
      : null,
    data.games.length > 1 ? ratingChart(data.games) : null,
    data.games.length
      ? h(
          "table",
          { class: "board", id: "player-games" },
          h("thead", {}, h("tr", {}, [t("board_date"), t("board_place"), t("board_score"), t("board_rating")].map((text) => h("th", {}, text)))),
          h(
            "tbody",
            {},
            [...data.games].reverse().map((game) =>
              // The replay's link under the date: a column of its own would not fit a phone in every language.
              h(
                "tr",
                {},
                h("td", {}, when(game.at), h("br"), h("a", { class: "replay-link", href: game.replay, onclick: (event) => (event.preventDefault(), navigate(game.replay)) }, t("watch_replay"))),
                h("td", {}, `${game.place + 1} / ${game.players}`),
                h("td", {}, game.score),
                h("td", {}, game.rating),
              ),
            ),
          ),
        )
      : null,
    pageLinks(navigate, { leaderboard: true }),
  );
}

// The rating after each game, as a line: drawn inline, with its lowest and highest figures.
function ratingChart(games) {
  const width = 600;
  const height = 160;
  const values = games.map((game) => game.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const points = values.map((value, index) => `${((index / (values.length - 1)) * (width - 40) + 30).toFixed(1)},${(height - 15 - ((value - low) / span) * (height - 30)).toFixed(1)}`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("id", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("player_chart", { low, high, n: values.length }));
  svg.innerHTML = `<polyline fill="none" stroke="currentColor" stroke-width="2" points="${points.join(" ")}"/><text x="2" y="14" font-size="12" fill="currentColor">${high}</text><text x="2" y="${height - 4}" font-size="12" fill="currentColor">${low}</text>`;
  return svg;
}
