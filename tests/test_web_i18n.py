"""The browser client's languages and tutorial in a real browser (the system's Chromium).

The tutorial played to its end at both sizes in every language, European
Portuguese too (every step done by dragging, a wrong move answered with the
step's hint and a way to start it again, a reload and a direct link that go
on from the step reached), the in-game help's link to it that leaves the game
where it is, the language switch offering both Portugueses, and the move
log's tiles written as the table shows them.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .serverkit import ThreadedServer
from .test_web import (
    LANGUAGES,
    _catalogue,
    _my_turn,
    _no_page_errors,
    _page,
    _speak,
    _texts_fit_and_speak,
    _three_computers_and_an_invalid_set,
    browser,
    server,
)
from .webkit import DESKTOP, PHONE, drag, screenshot

__all__ = ["browser", "server"]

#: With the other browser tests in one worker under ``--dist loadgroup`` (make test).
pytestmark = pytest.mark.xdist_group("browser")

#: The tutorial's steps done right, in order: each a list of moves. ("new", tiles) lays a new set tile by
#: tile ("table:" takes one from the table), ("onto", n, tiles) adds tiles to the n-th set, ("draw",) draws.
TUTORIAL_PLAYS: list[list[tuple[object, ...]]] = [
    [("new", ["R3", "R4", "R5"])],
    [("new", ["R8", "B8", "K8"])],
    [("onto", 0, ["R7"])],
    [("new", ["R10", "R11", "R12"])],
    [("draw",)],
    [("new", ["table:R7", "B7", "K7"])],
    [("new", ["B10", "B11", "J"])],
    [("onto", 0, ["R6"]), ("new", ["table:J", "B9", "K9"])],
    [("new", ["Y10", "Y11", "Y12"])],
]
STEP_TITLES = ["run", "group", "add", "meld", "draw", "rearrange", "joker", "takejoker", "score"]


def _source(tile: str) -> str:
    return f'.table .tile[data-t^="{tile[6:]}"]' if tile.startswith("table:") else f'.rack .tile[data-t="{tile}"]'


def _play(page: Page, moves: list[tuple[object, ...]]) -> None:
    """Make a step's moves by dragging, then end the turn (or draw)."""
    for move in moves:
        if move[0] == "draw":
            page.click("#draw")
            return
        if move[0] == "onto":
            _, index, tiles = move
            assert isinstance(tiles, list)
            for tile in tiles:
                drag(page, _source(tile), f'[data-drop="set:{index}"]')
            continue
        tiles = move[1]
        assert isinstance(tiles, list)
        index = page.locator(".table .set").count()
        for place, tile in enumerate(tiles):
            drag(page, _source(tile), "#new-set" if place == 0 else f'[data-drop="set:{index}"]')
        expect(page.locator(".table .set").nth(index).locator(".tile")).to_have_count(len(tiles))
    expect(page.locator("#end-turn")).to_be_enabled()
    page.click("#end-turn")


def _every_language(page: Page, where: str, size: ViewportSize, check: Callable[[dict[str, str]], None]) -> None:
    """The screen as it is, in each language: ``check`` is given its texts, and every text fits and speaks it."""
    for language in LANGUAGES:
        _speak(page, language)
        check(_catalogue(language))
        _texts_fit_and_speak(page, language, where)
        screenshot(page, f"{where}-{language}-{'phone' if size == PHONE else 'desktop'}")


def _step_is(page: Page, step: int, texts: dict[str, str]) -> None:
    expect(page.locator("#lesson .lesson-step")).to_have_text(
        texts["lesson_step"].replace("{n}", str(step + 1)).replace("{total}", str(len(TUTORIAL_PLAYS)))
    )
    expect(page.locator("#lesson h2")).to_have_text(texts[f"lesson_{STEP_TITLES[step]}_title"])


def _learn(server: ThreadedServer, browser: Browser, size: ViewportSize) -> None:
    page = _page(browser, size, touch=size == PHONE)
    # The tutorial's own address, opened directly: its first step, not a blank page.
    page.goto(f"{server.url}/#tutorial")
    expect(page.locator("#lesson h2")).to_have_text(_catalogue("en")["lesson_run_title"])
    # A wrong move (a group where the step asks for a run): the step says what is wrong and how to begin again.
    _play(page, [("new", ["B7", "Y7", "K7"])])

    def wrong(texts: dict[str, str]) -> None:
        expect(page.locator("#lesson-hint-text")).to_have_text(texts["lesson_run_wrong"])
        expect(page.locator("#lesson-retry")).to_have_text(texts["lesson_retry"])

    _every_language(page, "tutorial-hint", size, wrong)
    page.click("#lesson-retry")
    expect(page.locator(".table .set")).to_have_count(0)
    expect(page.locator("#lesson-hint")).to_have_count(0)
    expect(page.locator(".rack .tile")).to_have_count(7)
    for step, moves in enumerate(TUTORIAL_PLAYS):

        def shown(texts: dict[str, str], step: int = step) -> None:
            _step_is(page, step, texts)
            # The name the page made up for the player follows the language, in the tutorial too.
            expect(page.locator(".player.me .name")).to_contain_text(texts["default_name"] + " ")

        _every_language(page, f"tutorial-{step + 1}-{STEP_TITLES[step]}", size, shown)
        if step == 3:
            # A reload, and the tutorial's address opened in another tab: the same step, not the first.
            page.reload()
            _step_is(page, step, _catalogue(LANGUAGES[-1]))
            other = page.context.new_page()
            other.goto(f"{server.url}/#tutorial")
            _step_is(other, step, _catalogue(LANGUAGES[-1]))
            other.close()
        _play(page, moves)

        def done(texts: dict[str, str], step: int = step) -> None:
            _step_is(page, step, texts)
            expect(page.locator("#lesson-done")).to_have_text(texts["lesson_well_done"])

        _every_language(page, f"tutorial-{step + 1}-done", size, done)
        if STEP_TITLES[step] == "draw":
            # The tile drawn is on the rack, marked as new.
            expect(page.locator('.rack .tile.fresh[data-t="K6"]')).to_have_count(1)
        if STEP_TITLES[step] == "score":
            expect(page.locator("#lesson-done-text")).to_have_text(_catalogue(LANGUAGES[-1])["lesson_score_done"])
        page.click("#lesson-next")
    _every_language(
        page,
        "tutorial-done",
        size,
        lambda texts: expect(page.locator("#tutorial-done h2")).to_have_text(texts["tutorial_done_title"]),
    )
    assert page.evaluate("window.errorToasts") == []
    _no_page_errors(page)
    page.context.close()


def test_a_newcomer_learns_the_game_from_the_tutorial_on_a_phone(server: ThreadedServer, browser: Browser) -> None:
    _learn(server, browser, PHONE)


def test_a_newcomer_learns_the_game_from_the_tutorial_on_a_desktop(server: ThreadedServer, browser: Browser) -> None:
    _learn(server, browser, DESKTOP)


#: Phones held sideways: little height, the screen the game must fit without scrolling.
SIDEWAYS: list[ViewportSize] = [{"width": 844, "height": 390}, {"width": 740, "height": 360}]

#: What must be in view without scrolling: the page's height within the window, and each element whole in it.
IN_VIEW_JS = """
selectors => {
    const boxes = selectors.map(selector => {
        const element = document.querySelector(selector);
        if (!element) return [selector, "missing"];
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight + 1 && box.left >= 0 && box.right <= innerWidth + 1 ? null : [selector, [box.top, box.bottom, innerHeight]];
    }).filter(Boolean);
    return [document.documentElement.scrollHeight - innerHeight, boxes];
}
"""


def _all_in_view(page: Page, where: str, selectors: list[str]) -> None:
    over, outside = page.evaluate(IN_VIEW_JS, selectors)
    assert over <= 1 and outside == [], (where, over, outside)


@pytest.mark.parametrize("size", SIDEWAYS, ids=lambda size: f"{size['width']}x{size['height']}")
def test_a_phone_held_sideways_shows_the_table_the_rack_and_the_buttons_without_scrolling(
    server: ThreadedServer, browser: Browser, size: ViewportSize
) -> None:
    page = _page(browser, size, touch=True)
    _three_computers_and_an_invalid_set(page, server)
    name = f"{size['width']}x{size['height']}"
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator(".set.invalid")).to_have_count(1)
        _all_in_view(page, f"game {language}", ["#rack", "#draw", "#end-turn", "#undo", ".table", ".status"])
        assert page.locator(".table").bounding_box()["height"] >= 50  # type: ignore[index]
        _texts_fit_and_speak(page, language, "game sideways")
        screenshot(page, f"game-sideways-{language}-{name}")
    page.goto(f"{server.url}/#tutorial")
    expect(page.locator("#lesson h2")).to_be_visible()
    for language in LANGUAGES:
        _speak(page, language)
        _all_in_view(page, f"tutorial {language}", ["#rack", "#draw", "#end-turn", "#lesson", "#new-set"])
        _texts_fit_and_speak(page, language, "tutorial sideways")
        screenshot(page, f"tutorial-sideways-{language}-{name}")
    _no_page_errors(page)
    page.context.close()


def test_the_tutorial_from_the_games_help_leaves_the_game_where_it_is(server: ThreadedServer, browser: Browser) -> None:
    page = _page(browser, PHONE)
    page.goto(f"{server.url}/?bot_delay=0")
    page.click("#play-bots")
    _my_turn(page)
    game = page.url
    page.click("#help")
    with page.context.expect_page() as opened:
        page.click("#help-tutorial")
    tutorial = opened.value
    errors: list[str] = []
    tutorial.on("pageerror", lambda error: errors.append(str(error)))
    tutorial.wait_for_load_state()
    expect(tutorial.locator("#lesson h2")).to_be_visible()
    # The game's own tab is still on the game.
    assert page.url == game
    expect(page.locator(".rack .tile").first).to_be_visible()
    _no_page_errors(page)
    assert errors == []
    page.context.close()


def test_the_switch_offers_both_portugueses_and_a_browser_in_portugal_gets_its_own(
    server: ThreadedServer, browser: Browser
) -> None:
    european = _catalogue("pt-PT")
    page = _page(browser, PHONE, locale="pt-PT")
    page.goto(server.url)
    expect(page.locator("#play-bots")).to_have_text(european["play_bots"])
    expect(page.locator(".tutorial-offer h2, #tutorial-offer h2")).to_have_text(european["tutorial_offer_title"])
    assert page.evaluate("document.documentElement.lang") == "pt-PT"
    options = page.eval_on_selector_all("header select.lang option", "options => options.map((o) => [o.value, o.text])")
    assert options == [["en", "EN"], ["es", "ES"], ["it", "IT"], ["pt", "PT-BR"], ["pt-PT", "PT-PT"]]
    page.select_option("header select.lang", "pt")
    expect(page.locator("#tutorial-offer p")).to_have_text(_catalogue("pt")["tutorial_offer"])
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    page.context.close()
    brazil = _page(browser, PHONE, locale="pt-BR")
    brazil.goto(server.url)
    expect(brazil.locator("#tutorial-offer p")).to_have_text(_catalogue("pt")["tutorial_offer"])
    brazil.context.close()


def test_the_move_log_writes_tiles_as_the_table_shows_them(server: ThreadedServer, browser: Browser) -> None:
    page = _page(browser, PHONE)
    page.goto(f"{server.url}/?bot_delay=0")
    page.click("#play-bots")
    _my_turn(page)
    moves: int = page.evaluate("window.tilerummy.state.game.moves")
    page.click("#draw")
    page.wait_for_function("moves => window.tilerummy.state.game.moves > moves + 1", arg=moves)
    _my_turn(page)
    # The player's own draw: the tile as a small tile of its colour, read out by colour and number, no suit.
    drawn = page.locator("#log-lines li", has_text=re.compile(r"\(you\) drew")).first
    tile = drawn.locator(".log-tile")
    expect(tile).to_have_count(1)
    assert re.fullmatch(r"c-[RBYKJ]", (tile.get_attribute("class") or "").split()[-1])
    assert re.fullmatch(r"(red|blue|yellow|black) \d+|joker", tile.get_attribute("aria-label") or "")
    assert not re.search("[♥♣♦♠]", drawn.inner_text())
    # With playing cards, the log writes cards.
    page.click("header .switch >> nth=0")
    expect(page.locator("#log-lines li .log-tile")).to_have_count(0)
    expect(
        page.locator("#log-lines li", has_text=re.compile(r"\(you\) drew ([A2-9JQK]|10)[♥♣♦♠]$")).first
    ).to_be_attached()
    _no_page_errors(page)
    page.context.close()


def test_every_catalogue_is_served_as_it_is_stored(server: ThreadedServer) -> None:
    for language in LANGUAGES:
        with urllib.request.urlopen(f"{server.url}/static/i18n/{language}.json") as response:
            assert json.loads(response.read()) == _catalogue(language), language
