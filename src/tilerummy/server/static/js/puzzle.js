// The daily puzzle, at /puzzle: a position whose best play places exactly one set of rack tiles.
// It is the game screen itself, with the same drag, tap and keys; ending the turn asks the server
// whether the table places the puzzle's answer (docs/protocol.md#puzzles). A profile's first try is rated.

import { GameScreen } from "./game.js";
import { t } from "./i18n.js";
import { savedProfile } from "./profile.js";
import { beep, h, toast } from "./ui.js";

function puzzleGame(puzzle, name) {
  return {
    game_id: puzzle.id,
    players: [name],
    seat: 0,
    rack: [...puzzle.rack],
    table: puzzle.table.map((set) => [...set]),
    rack_sizes: [puzzle.rack.length],
    pool_size: 0,
    turn: 0,
    deadline: null,
    melded: [puzzle.initial_meld_done],
    moves: 0,
    result: null,
  };
}

function headers() {
  const profile = savedProfile();
  const base = { "Content-Type": "application/json" };
  return profile ? { ...base, Authorization: `Bearer ${profile.key}` } : base;
}

export class PuzzleScreen extends GameScreen {
  // api: {header, goHome}; puzzle: the position as GET /api/puzzles/daily gives it.
  constructor(root, api, puzzle, name) {
    const state = {
      game: puzzleGame(puzzle, name),
      room: { rules: { initial_meld_points: 30 }, seats: [{ kind: "person" }], options: { hints: false } },
      clockOffset: 0,
    };
    super(root, state, { ...api, send: () => {}, request: async () => ({ type: "error" }), showError: () => {} });
    this.puzzle = puzzle;
    this.verdict = null;
    this.solution = null;
    this.render();
  }

  get myTurn() {
    return !this.solved && !this.solution && super.myTurn;
  }

  get solved() {
    return Boolean(this.verdict && this.verdict.solved);
  }

  // Once solved or shown, the table stays as it is: the line under it says what comes next.
  statusLine(check) {
    if (this.solved || this.solution) return h("div", { class: "status ok", role: "status" }, h("strong", {}, t("puzzle_done")));
    return super.statusLine(check);
  }

  // A puzzle has no pool: nothing to draw or pass, and the turn's prompt says only what to do.
  check() {
    const check = super.check();
    return check.reason === t("reason_nothing_placed") ? { ...check, reason: t("puzzle_nothing_placed") } : check;
  }

  actions(check) {
    const bar = super.actions(check);
    bar.querySelector("#draw")?.remove();
    return bar;
  }

  sendLive() {}

  moveLog() {
    return null;
  }

  async draw() {
    toast(t("puzzle_no_draw"));
  }

  async endTurn() {
    if (!this.myTurn) return;
    const check = this.check();
    if (check.reason) {
      toast(check.reason, "error");
      beep("error");
      return;
    }
    const table = this.draft.table().map((set) => set.join(" ")).join(" | ");
    const response = await fetch(`/api/puzzles/${this.puzzle.id}/answer`, { method: "POST", headers: headers(), body: JSON.stringify({ table }) });
    this.verdict = await response.json();
    beep(this.solved ? "win" : "error");
    this.render();
  }

  async showSolution() {
    const response = await fetch(`/api/puzzles/${this.puzzle.id}/solution`, { headers: headers() });
    this.solution = await response.json();
    this.reset(this.state.game, null);
    this.applyTable(this.solution.answer_table);
    this.render();
  }

  // A further puzzle near the player's puzzle rating (docs/protocol.md#puzzles).
  async another() {
    const response = await fetch("/api/puzzles/next", { headers: headers() });
    if (!response.ok) return;
    this.puzzle = await response.json();
    this.verdict = null;
    this.solution = null;
    this.state.game = puzzleGame(this.puzzle, this.state.game.players[0]);
    this.reset(this.state.game, null);
    this.render();
  }

  restart() {
    this.verdict = null;
    this.reset(this.state.game, null);
    this.render();
  }

  render() {
    super.render();
    const main = this.root.querySelector("main.game");
    if (main && !this.input.dragging) main.prepend(this.panel());
  }

  panel() {
    const verdict = this.verdict;
    const rated = verdict?.rated || this.solution?.rated;
    const rating = verdict?.puzzle_rating ?? this.solution?.puzzle_rating;
    return h(
      "section",
      { class: "lesson", id: "puzzle", "aria-live": "polite" },
      h(
        "p",
        { class: "lesson-step" },
        this.puzzle.date
          ? t("puzzle_of_the_day", { date: dayName(this.puzzle.date), level: this.puzzle.level, rating: this.puzzle.rating })
          : t("puzzle_practice", { level: this.puzzle.level, rating: this.puzzle.rating }),
      ),
      h("h2", {}, t("puzzle_title", { n: this.puzzle.best })),
      h("p", {}, this.puzzle.initial_meld_done ? t("puzzle_text") : t("puzzle_text_opening")),
      verdict
        ? h(
            "p",
            { id: "puzzle-verdict", class: this.solved ? "lesson-done" : "lesson-hint", role: "status" },
            this.solved ? t("puzzle_solved") : verdict.legal ? t("puzzle_fewer", { placed: verdict.placed, best: verdict.best }) : t("puzzle_illegal"),
          )
        : null,
      this.solution ? h("p", { id: "puzzle-answer" }, t("puzzle_answer", { tiles: this.solution.answer_placed, n: this.solution.changed_sets })) : null,
      rated ? h("p", { id: "puzzle-rating" }, t("puzzle_rating_now", { rating })) : null,
      !savedProfile() ? h("p", { class: "muted" }, t("puzzle_sign_in")) : null,
      h(
        "div",
        { class: "row" },
        verdict && !this.solved && !this.solution ? h("button", { class: "secondary", id: "puzzle-retry", onclick: () => this.restart() }, t("lesson_retry")) : null,
        !this.solved && !this.solution ? h("button", { class: "secondary", id: "puzzle-give-up", onclick: () => this.showSolution() }, t("puzzle_show_answer")) : null,
        this.solved || this.solution ? h("button", { class: "primary", id: "puzzle-another", onclick: () => this.another() }, t("puzzle_another")) : null,
      ),
    );
  }
}

export async function showPuzzle(app, api, name) {
  const response = await fetch("/api/puzzles/daily");
  const puzzle = await response.json();
  if (!response.ok) {
    app.replaceChildren(api.header(), h("main", { class: "home" }, h("section", { class: "panel" }, h("p", {}, puzzle.detail || puzzle.error))));
    return null;
  }
  return new PuzzleScreen(app, api, puzzle, name);
}

// The puzzle's day ("2026-12-04") as the page's language writes a date ("4 December 2026", "4 de diciembre de 2026").
function dayName(date) {
  const day = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return day.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
