"""The daily puzzle in a real browser (the system's Chromium): the game's own table and controls,
the answer shown on demand, and a profile's puzzle rating after its first try; every text fits and
speaks every language at both sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from .serverkit import ThreadedServer
from .test_web import LANGUAGES, _no_page_errors, _page, _speak, _texts_fit_and_speak, browser, server
from .webkit import DESKTOP, PHONE, screenshot

__all__ = ["browser", "server"]

#: With the other browser tests in one worker under ``--dist loadgroup`` (make test).
pytestmark = pytest.mark.xdist_group("browser")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_todays_puzzle_is_played_on_the_game_screen_and_its_answer_shown(
    server: ThreadedServer, browser: Browser, size: str
) -> None:
    page = _page(browser, PHONE if size == "phone" else DESKTOP, touch=size == "phone")
    page.goto(server.url)
    page.evaluate("localStorage.setItem('tilerummy.tutorial', '1')")
    page.goto(server.url)
    page.fill("#profile-name", f"Pia {size[0]}")
    page.click("#create-profile")
    page.click("#recovery-done")
    page.click("#puzzle-link")
    expect(page.locator("#puzzle h2")).to_contain_text("from your rack")
    rack = page.locator(".rack .tile").count()
    assert rack > 0
    for language in LANGUAGES:
        _speak(page, language)
        _texts_fit_and_speak(page, language, f"puzzle, {size}")
        # The day is written as the language writes a date, not as the server's 2026-12-04.
        day = page.inner_text("#puzzle .lesson-step")
        assert re.search(r"\b20\d\d\b", day) and not re.search(r"\d{4}-\d\d-\d\d", day), (language, day)
        screenshot(page, f"puzzle-{language}-{size}")
    _speak(page, "en")
    # Nothing to draw in a puzzle: no such button, and the prompt says what to do.
    expect(page.locator("#draw")).to_have_count(0)
    expect(page.locator("#turn-reason")).to_have_text("Place tiles from your rack, then press End turn")
    page.click("#puzzle-give-up")
    expect(page.locator("#puzzle-answer")).to_contain_text("The answer:")
    expect(page.locator("#puzzle-rating")).to_contain_text("Your puzzle rating is now")
    expect(page.locator(".rack .tile")).not_to_have_count(rack)
    screenshot(page, f"puzzle-answer-{size}")
    for language in LANGUAGES:
        _speak(page, language)
        _texts_fit_and_speak(page, language, f"puzzle answered, {size}")
        screenshot(page, f"puzzle-answer-{language}-{size}")
    _speak(page, "en")
    page.click("#puzzle-another")
    expect(page.locator("#puzzle .lesson-step")).to_contain_text("Practice puzzle")
    expect(page.locator("#puzzle-give-up")).to_be_visible()
    _no_page_errors(page)
