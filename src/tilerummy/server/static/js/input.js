// Moving tiles on the game screen: drag and drop, tap, and keys.

import { h, tileFace } from "./ui.js";

const DRAG_THRESHOLD = 6;
const AUTOSCROLL_EDGE = 36;
const AUTOSCROLL_STEP = 12;

export class TileInput {
  constructor(screen) {
    this.screen = screen;
    this.drag = null;
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
  }

  destroy() {
    document.removeEventListener("pointerdown", this.handlers.down);
    document.removeEventListener("pointermove", this.handlers.move);
    document.removeEventListener("pointerup", this.handlers.up);
    document.removeEventListener("pointercancel", this.handlers.up);
    document.removeEventListener("keydown", this.handlers.key);
    this.endDrag();
  }

  get dragging() {
    return Boolean(this.drag && this.drag.started);
  }

  // --- Pointer: drag and drop, or tap --------------------------------------------


  pointerDown(event) {
    const element = event.target.closest && event.target.closest(".tile.movable[data-id]");
    if (!element || !this.screen.root.contains(element) || event.button > 0) return;
    this.drag = { id: element.dataset.id, x: event.clientX, y: event.clientY, pointer: event.pointerId, started: false, element };
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD) return;
      drag.started = true;
      drag.ids = this.screen.selected.has(drag.id) ? [...this.screen.selected] : [drag.id];
      drag.ghost = h("div", { class: "ghost" }, drag.ids.map((id) => {
        const place = this.screen.draft.find(id);
        return tileFace(place.list[place.index].t);
      }));
      document.body.append(drag.ghost);
      for (const id of drag.ids) {
        const element = this.screen.root.querySelector(`[data-id="${id}"]`);
        if (element) element.classList.add("dragging");
      }
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - 20}px, ${event.clientY - 30}px)`;
    // Near the table's top or bottom edge, the table scrolls, to reach sets out of view.
    const table = this.screen.root.querySelector(".table");
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
      if (event.type === "pointerup") this.screen.tap(drag.id);
      return;
    }
    const target = event.type === "pointerup" ? this.dropTargetAt(event.clientX, event.clientY) : null;
    this.endDrag(drag);
    if (target) {
      const index = this.dropIndex(target, event.clientX, event.clientY, drag.ids);
      if (!this.screen.moveTiles(drag.ids, target.dataset.drop, index)) this.screen.render();
    } else {
      this.screen.render();
    }
  }

  endDrag(drag = this.drag) {
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.over) drag.over.classList.remove("over");
  }

  // The set, rack or "New set" under the pointer; anywhere else on the open table, "New set": a tile
  // dropped beside the sets starts a set of its own.
  dropTargetAt(x, y) {
    const element = document.elementFromPoint(x, y);
    let target = element && element.closest("[data-drop]");
    if (!target && element && element.closest(".table") && this.screen.myTurn) target = this.screen.root.querySelector("#new-set");
    return target && this.screen.root.contains(target) ? target : null;
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
    if (!this.screen.game) return;
    const overlays = document.querySelectorAll(".overlay");
    // Escape closes the result, to look at the final table (a dialog over it closes first, by itself).
    if (event.key === "Escape" && overlays.length === 1 && overlays[0].classList.contains("result-overlay")) {
      this.screen.hideResult();
      return;
    }
    if (overlays.length) return;
    const control = event.ctrlKey || event.metaKey;
    const element = document.activeElement;
    // Keys typed in a field (the chat's) are the field's own.
    const typing = element && element.matches("input, select, textarea, [contenteditable]");
    if (typing && element.closest("#chat")) return;
    if (control && event.key.toLowerCase() === "z") {
      event.preventDefault();
      if (event.shiftKey) this.screen.redo();
      else this.screen.undo();
      return;
    }
    if (control && event.key.toLowerCase() === "y") {
      event.preventDefault();
      this.screen.redo();
      return;
    }
    if (!typing && !control && !event.altKey && event.key.toLowerCase() === "r") {
      const rack = this.screen.root.querySelector("#rack");
      if (rack && this.screen.game.rack !== null) {
        event.preventDefault();
        (rack.querySelector(".tile.movable") || rack).focus();
      }
      return;
    }
    if (!element || !this.screen.root.contains(element) || typing) return;
    const tileId = element.dataset.id;
    const drop = element.dataset.drop;
    if (event.key === "Escape") {
      this.screen.selected.clear();
      this.screen.render();
    } else if ((event.key === "Enter" || event.key === " ") && tileId && element.classList.contains("movable")) {
      event.preventDefault();
      this.screen.tap(tileId);
    } else if ((event.key === "Enter" || event.key === " ") && drop && element.tagName !== "BUTTON") {
      event.preventDefault();
      this.screen.placeSelected(drop);
    } else if (event.key === "n" && this.screen.selected.size) {
      this.screen.placeSelected("new");
    } else if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      this.arrow(event.key, element, event.shiftKey);
    }
  }

  arrow(key, element, shift) {
    const containers = [...this.screen.root.querySelectorAll("[data-drop]")];
    const container = element.dataset.drop ? element : element.closest("[data-drop]");
    if (!container) return;
    const tiles = [...container.querySelectorAll(".tile.movable[data-id]")];
    const here = tiles.indexOf(element);
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const step = key === "ArrowLeft" ? -1 : 1;
      if (shift && here >= 0) {
        // Shift+arrow carries the tile one place along its set or the rack.
        const id = element.dataset.id;
        const place = this.screen.draft.find(id);
        if (!place || (place.set && !this.screen.myTurn)) return;
        this.screen.change(() => this.screen.draft.shift(id, step));
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
