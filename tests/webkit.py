"""Helpers for the browser tests: a Chromium from the system, pages on a real server, screenshots."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, ViewportSize

from . import waiting

#: Screenshots land here (git-ignored), to be looked at after a run.
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
#: Whether the browser tests take their screenshots: only when ``TILERUMMY_SCREENSHOTS=1``,
#: as they check nothing and a hundred of them cost the browser as much as several tests.
SCREENSHOTS = os.environ.get("TILERUMMY_SCREENSHOTS", "") not in ("", "0")
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
#: The longest a browser test waits for one thing to appear.
WAIT_MS = 20_000


#: Debian's headless build of Chromium (the chromium-headless-shell package): the same engine
#: without the browser's window machinery, lighter on the CPU for the same pages.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def chromium_path() -> str:
    """The system's Chromium (Debian's packages), its headless build where installed: the tests
    never download a browser. ``TILERUMMY_CHROMIUM`` names another."""
    candidates = (os.environ.get("TILERUMMY_CHROMIUM"), HEADLESS_SHELL, "/usr/bin/chromium", shutil.which("chromium"))
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no Chromium found: install Debian's chromium package (make test does)")


def screenshot(page: Page, name: str) -> None:
    """The page as it is now, in ``test-artifacts/NAME.png`` when screenshots are asked for."""
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def rack_tiles(page: Page) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all(".rack .tile[data-t]", "tiles => tiles.map(tile => tile.dataset.t)")
    return tiles


#: The box of the first element each CSS selector finds (None for none), in one call to the page.
BOXES_JS = """(selectors) => selectors.map((selector) => {
    const element = document.querySelector(selector);
    if (!element) return null;
    const box = element.getBoundingClientRect();
    return { x: box.x, y: box.y, width: box.width, height: box.height };
})"""


def drag(page: Page, source: str, target: str) -> None:
    """Drag with the mouse (pointer events), from the centre of one element to the right end of another:
    a move past the page's drag threshold starts the drag, the next one is over the target. Steps in
    between would each cost the page a layout and a frame, and check nothing the drop does not."""
    start, end = page.evaluate(BOXES_JS, [source, target])
    assert start is not None and end is not None, (source, target)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 10, start["y"] + start["height"] / 2 + 10)
    page.mouse.move(end["x"] + end["width"] - 4, end["y"] + end["height"] / 2)
    page.mouse.up()


def wait_until(check: Callable[[], bool], timeout: float = WAIT_MS / 1000, what: str = "a condition") -> None:
    """Wait for the page (see :func:`tests.waiting.wait_until`), by default as long as Playwright would."""
    waiting.wait_until(check, timeout, what)
