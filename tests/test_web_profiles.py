"""Profiles in a real browser (the system's Chromium): a profile made on the home page shows its
recovery code once; a second browser signs in with it; a rated game against the computer, played
by a client of the protocol with the profile's key, moves the rating the home page, the
leaderboard and the player's page show; every profile screen fits and speaks every language."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect

from .serverkit import Client, ThreadedServer
from .test_web import LANGUAGES, _no_page_errors, _page, _speak, _texts_fit_and_speak, browser, server
from .webkit import DESKTOP, PHONE, screenshot

__all__ = ["browser", "server"]

#: With the other browser tests in one worker under ``--dist loadgroup`` (make test).
pytestmark = pytest.mark.xdist_group("browser")


def _rated_game_against_greedy(server: ThreadedServer, key: str) -> None:
    """The profile plays one rated game against the greedy bot, drawing every turn."""
    person = Client(server, "ignored", key=key)
    person.create(
        [{"kind": "person"}, {"kind": "bot", "level": "greedy"}],
        rules={"preset": "standard"},
        bot_delay=0.06,
        rated=True,
    )
    person.draw_to_the_end(person.request({"type": "start_game"})["game"])
    person.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_profile_is_made_signed_in_elsewhere_and_rated_against_the_computer(
    server: ThreadedServer, browser: Browser, size: str
) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    name = f"Bea {size}"
    first = _page(browser, viewport, touch=size == "phone")
    first.goto(server.url)
    first.evaluate("localStorage.setItem('tilerummy.tutorial', '1')")
    first.goto(server.url)
    first.fill("#profile-name", name)
    # A name is shown as it is typed (a room's code and a recovery code, in capitals).
    assert first.eval_on_selector("#profile-name", "field => getComputedStyle(field).textTransform") == "none"
    assert first.eval_on_selector("#recovery-code", "field => getComputedStyle(field).textTransform") == "uppercase"
    first.click("#create-profile")
    code = first.locator("#recovery-value").inner_text()
    screenshot(first, f"profile-code-{size}")
    first.click("#recovery-done")
    expect(first.locator("#profile-panel")).to_contain_text(name)
    expect(first.locator("#profile-standing")).to_contain_text("No rated game yet")
    key = first.evaluate("JSON.parse(localStorage.getItem('tilerummy.profile')).key")

    # The same name in capitals is taken.
    second = _page(browser, viewport, touch=size == "phone")
    second.goto(server.url)
    second.evaluate("localStorage.setItem('tilerummy.tutorial', '1')")
    second.goto(server.url)
    second.fill("#profile-name", name.upper())
    second.click("#create-profile")
    expect(second.locator("#profile-message")).to_contain_text("taken")
    # Signed in there with the recovery code, typed in small letters.
    second.click("#profile-panel summary")
    second.fill("#recovery-code", code.lower())
    second.click("#sign-in")
    expect(second.locator("#profile-panel")).to_contain_text(name)

    _rated_game_against_greedy(server, key)
    first.reload()
    expect(first.locator("#profile-standing")).to_contain_text("after 1 rated game")
    first.click("#leaderboard-link")
    expect(first.locator("#your-place")).to_contain_text("(provisional)")
    expect(first.locator("#bot-ratings")).to_contain_text("Hard")
    screenshot(first, f"leaderboard-{size}")
    second.click("#profile-page")
    # The game's analysis is worked out after it ends: the page shows its figures once it is there.
    second.wait_for_function(
        # A function the page calls again every half second (a synchronous request: the test waits on its answer).
        "(name) => { const ask = new XMLHttpRequest(); ask.open('GET', `/api/profiles/${encodeURIComponent(name)}`, false);"
        " ask.send(); return JSON.parse(ask.responseText).standing.analysed_games > 0; }",
        arg=name,
        polling=500,
        timeout=120_000,
    )
    second.reload()
    expect(second.locator("#player-figures")).to_contain_text("Placed ")
    expect(second.locator("#player-games tbody tr")).to_have_count(1)
    expect(second.locator("#player-games")).to_contain_text(" / 2")
    screenshot(second, f"player-{size}")
    for language in LANGUAGES:
        _speak(second, language)
        _texts_fit_and_speak(second, language, f"player page, {size}")
        screenshot(second, f"player-{language}-{size}")
        # The table of games fits its panel (which would scroll it sideways, cutting the replay's link).
        assert second.evaluate(PANEL_FITS_JS, "#player-page"), (language, size)
        _speak(first, language)
        _texts_fit_and_speak(first, language, f"leaderboard, {size}")
        screenshot(first, f"leaderboard-{language}-{size}")
        assert first.evaluate(PANEL_FITS_JS, "#leaderboard"), (language, size)
    # Neither page is a dead end: the player's page leads to the leaderboard, which leads home.
    _speak(second, "en")
    second.click("#page-leaderboard")
    expect(second.locator("#bot-ratings")).to_be_visible()
    second.click("#page-home")
    expect(second.locator("#profile-panel")).to_be_visible()
    second.go_back()
    second.go_back()
    expect(second.locator("#player-figures")).to_be_visible()

    # A new name, taken on the second browser, is the profile's on the first too.
    second.goto(server.url)
    _speak(second, "en")
    second.click("#profile-panel details summary")
    second.fill("#new-name", f"{name} B")
    second.click("#rename")
    expect(second.locator("#profile-panel")).to_contain_text(f"{name} B")
    expect(second.locator("#profile-panel")).to_contain_text("after 1 rated game")
    # Signed out on the first browser: its key stops working; the second still plays as the profile.
    first.goto(server.url)
    _speak(first, "en")
    first.click("#sign-out")
    expect(first.locator("#create-profile")).to_be_visible()
    request = urllib.request.Request(f"{server.url}/api/me", headers={"Authorization": f"Bearer {key}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert json.loads(refused.value.read())["error"] == "bad_key"
    second.goto(server.url)
    expect(second.locator("#profile-panel")).to_contain_text(f"{name} B")
    for language in LANGUAGES:
        _speak(second, language)
        _texts_fit_and_speak(second, language, f"home with a profile, {size}")
        screenshot(second, f"home-profile-{language}-{size}")
    _no_page_errors(first, second)


#: Whether a page's panel holds its content without scrolling it sideways.
PANEL_FITS_JS = """(page) => {
    const panel = document.querySelector(`${page} .page-panel`);
    return panel.scrollWidth <= panel.clientWidth + 1;
}"""


def _profile_page(browser: Browser, server: ThreadedServer, name: str) -> Page:
    page = _page(browser, DESKTOP)
    page.goto(server.url)
    page.evaluate("localStorage.setItem('tilerummy.tutorial', '1')")
    page.goto(server.url)
    page.fill("#profile-name", name)
    page.click("#create-profile")
    page.click("#recovery-done")
    expect(page.locator("#profile-standing")).to_contain_text("No rated game yet")
    return page


def test_two_profiles_play_a_rated_quick_match_in_two_browsers(server: ThreadedServer, browser: Browser) -> None:
    ana, bruno = (_profile_page(browser, server, name) for name in ("Quin A", "Quin B"))
    ana.click("#quick-match")
    expect(ana.locator("#quick-wait")).to_be_visible()
    bruno.click("#quick-match")
    # The game starts as soon as the second player arrives; each draws on their turn to the end.
    for page in (ana, bruno):
        expect(page.locator("main.game")).to_be_visible()
    for _ in range(400):
        if ana.locator(".result-dialog").count() and bruno.locator(".result-dialog").count():
            break
        for page in (ana, bruno):
            if page.locator("main.game.my-turn #draw:enabled").count():
                page.click("#draw")
                page.wait_for_function("() => !document.querySelector('main.game.my-turn')")
    expect(ana.locator(".result-dialog")).to_be_visible()
    for page, name in ((ana, "Quin A"), (bruno, "Quin B")):
        page.goto(server.url)
        expect(page.locator("#profile-standing")).to_contain_text("after 1 rated game")
        page.click("#leaderboard-link")
        expect(page.locator("#your-place")).to_contain_text("(provisional)")
        page.goto(f"{server.url}/players/{name.replace(' ', '%20')}")
        expect(page.locator("#player-games tbody tr")).to_have_count(1)
    _no_page_errors(ana, bruno)
