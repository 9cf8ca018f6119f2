// The tutorial: a guided first game, all in the browser, step by step on fixed deals (lessons.js).
// It is the game screen itself, with the same drag, tap and keys; ending the turn asks the step, not a server.
// The step reached is kept in localStorage: a reload, or /#tutorial opened in another tab, goes on from it.

import { GameScreen } from "./game.js";
import { t } from "./i18n.js";
import { LESSONS, judgeLesson } from "./lessons.js";
import { beep, h, toast } from "./ui.js";

const STEP_KEY = "tilerummy.lesson";
// Pool size shown during the tutorial: a real game's pool after the deal for two players.
const POOL = 78;

function lessonGame(lesson, name) {
  return {
    game_id: "tutorial",
    players: [name],
    seat: 0,
    rack: [...lesson.rack],
    table: lesson.table.map((set) => [...set]),
    rack_sizes: [lesson.rack.length],
    pool_size: POOL,
    turn: 0,
    deadline: null,
    melded: [lesson.melded],
    moves: 0,
    result: null,
  };
}

export class TutorialScreen extends GameScreen {
  // api: {header, goHome, playBots}; name: the player's name.
  constructor(root, api, name) {
    const saved = Number(localStorage.getItem(STEP_KEY) || 0);
    const step = Number.isInteger(saved) && saved >= 0 && saved <= LESSONS.length ? saved : 0;
    const state = {
      game: step < LESSONS.length ? lessonGame(LESSONS[step], name) : null,
      room: { rules: { initial_meld_points: 30 }, seats: [{ kind: "person" }], options: { hints: false } },
      clockOffset: 0,
    };
    super(root, state, { ...api, send: () => {}, request: async () => ({ type: "error" }), showError: () => {} });
    this.name = name;
    this.step = step;
    this.hintKey = null;
    this.passed = false;
    this.render();
  }

  // Once the step is done, the table stays as played and nothing more can be moved.
  get myTurn() {
    return !this.passed && super.myTurn;
  }

  statusLine(check) {
    return this.passed ? h("div", { class: "status ok", role: "status" }, h("strong", {}, t("lesson_well_done"))) : super.statusLine(check);
  }

  get lesson() {
    return LESSONS[this.step];
  }

  // Nothing leaves the page: the tutorial has no one watching.
  sendLive() {}

  moveLog() {
    return null;
  }

  goTo(step) {
    this.step = step;
    localStorage.setItem(STEP_KEY, String(step));
    this.hintKey = null;
    this.passed = false;
    this.state.game = step < LESSONS.length ? lessonGame(LESSONS[step], this.name) : null;
    if (this.state.game) this.reset(this.state.game, null);
    this.render();
  }

  async endTurn() {
    if (!this.myTurn) return;
    const check = this.check();
    if (check.reason) {
      this.hintKey = null;
      toast(check.reason, "error");
      beep("error");
      return;
    }
    this.hintKey = judgeLesson(this.lesson, this.draft.table(), this.draft.rack.map((tile) => tile.t));
    if (this.hintKey) {
      beep("error");
      this.render();
      return;
    }
    beep("win");
    // The step is done: the table stays as played, and the player goes on when ready.
    this.state.game.rack_sizes = [this.draft.rack.length];
    this.passed = true;
    this.render();
    document.getElementById("lesson-next").focus();
  }

  // Drawing is a step of its own; in the others it is not what the step asks.
  async draw() {
    if (!this.myTurn) return;
    if (!this.lesson.drawn) {
      toast(t("lesson_draw"));
      return;
    }
    const before = [...this.state.game.rack];
    this.state.game.rack = [...before, this.lesson.drawn];
    this.state.game.rack_sizes = [this.state.game.rack.length];
    this.state.game.pool_size -= 1;
    this.reset(this.state.game, before);
    beep("draw");
    this.passed = true;
    this.render();
    document.getElementById("lesson-next").focus();
  }

  // The step as it began: its rack and table again, its hint gone.
  restartStep() {
    this.goTo(this.step);
    const rack = document.getElementById("rack");
    if (rack) rack.focus();
  }

  render() {
    if (!this.state.game) {
      this.root.replaceChildren(this.api.header(), this.finished());
      return;
    }
    // The player's name as the page has it now: a name it made up follows a change of language.
    this.name = localStorage.getItem("tilerummy.name") || this.name;
    this.state.game.players = [this.name];
    super.render();
    const main = this.root.querySelector("main.game");
    if (main && !this.input.dragging) main.prepend(this.panel());
  }

  panel() {
    const key = `lesson_${this.lesson.key}`;
    return h(
      "section",
      { class: "lesson", id: "lesson", "aria-live": "polite" },
      h("p", { class: "lesson-step" }, t("lesson_step", { n: this.step + 1, total: LESSONS.length })),
      h("h2", {}, t(`${key}_title`)),
      this.passed
        ? [
            h("p", { class: "lesson-done", id: "lesson-done" }, t("lesson_well_done")),
            this.lesson.doneText ? h("p", { id: "lesson-done-text" }, t(`${key}_done`)) : null,
            h("button", { class: "primary", id: "lesson-next", onclick: () => this.goTo(this.step + 1) }, t("lesson_next")),
          ]
        : [
            h("p", {}, t(`${key}_text`)),
            // After a wrong move: what is wrong, and how to start the step again.
            this.hintKey
              ? h(
                  "div",
                  { class: "lesson-hint", id: "lesson-hint", role: "alert" },
                  h("p", { id: "lesson-hint-text" }, t(this.hintKey)),
                  h("p", {}, t("lesson_retry_text"), " ", h("button", { class: "secondary", id: "lesson-retry", onclick: () => this.restartStep() }, t("lesson_retry"))),
                )
              : null,
          ],
    );
  }

  finished() {
    return h(
      "main",
      { class: "home tutorial-done" },
      h(
        "section",
        { class: "panel primary", id: "tutorial-done" },
        h("h2", {}, t("tutorial_done_title")),
        h("p", {}, t("tutorial_done_text")),
        h("button", { class: "big", id: "tutorial-play", onclick: () => (localStorage.removeItem(STEP_KEY), this.api.playBots()) }, t("tutorial_play")),
        h("button", { class: "secondary", id: "tutorial-again", onclick: () => this.goTo(0) }, t("tutorial_restart")),
      ),
    );
  }
}
