"""The browser client in a real browser (the system's Chromium) against a real server.

A newcomer's whole game against a bot, two people in a private room joined by
its invite link, a reload and a network drop mid-game, the language switch,
and the client's set rules against the engine's.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect, sync_playwright

from tilerummy import Meld, solve
from tilerummy.errors import InvalidMeld
from tilerummy.game import Game
from tilerummy.records import GameRecord
from tilerummy.rules import Rules
from tilerummy.server.turns import history
from tilerummy.tiles import NUMBERED_TILES

from .clusterkit import new_prefix, postgres_schema, redis_url
from .serverkit import Client, ServerProcess, ThreadedServer
from .webkit import DESKTOP, PHONE, WAIT_MS, chromium_path, drag, rack_tiles, screenshot

STATIC = Path(__file__).resolve().parent.parent / "src" / "tilerummy" / "server" / "static"

#: Under ``--dist loadgroup`` (make test) every browser test runs in the same worker: one Chromium
#: and one server for them all, and the other cores left to the rest of the tests.
pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    threaded = ThreadedServer(str(tmp_path_factory.mktemp("web") / "db.sqlite3"))
    threaded.start()
    yield threaded
    threaded.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path())
        yield launched
        launched.close()


def _page(browser: Browser, size: ViewportSize, *, locale: str = "en-GB", touch: bool = False) -> Page:
    context = browser.new_context(viewport=size, locale=locale, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(ERROR_TOASTS_JS)
    page.errors = errors  # type: ignore[attr-defined]
    return page


#: Records every error message the page shows (window.errorToasts), however briefly.
ERROR_TOASTS_JS = """
window.errorToasts = [];
new MutationObserver(() => {
    const toast = document.getElementById("toast");
    if (toast && toast.classList.contains("error") && toast.classList.contains("show")) {
        if (window.errorToasts.at(-1) !== toast.textContent) window.errorToasts.push(toast.textContent);
    }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def _no_page_errors(*pages: Page) -> None:
    for page in pages:
        assert page.errors == [], page.errors  # type: ignore[attr-defined]


def _my_turn(page: Page) -> None:
    _soon(page, "main.game.my-turn, .overlay .dialog", timeout=60_000)


#: Whether an element the selector finds holds the text (any element, for no text).
HOLDS_TEXT_JS = """([selector, text]) => [...document.querySelectorAll(selector)].some((element) => element.textContent.includes(text))"""


def _soon(page: Page, selector: str, text: str = "", timeout: float = WAIT_MS) -> None:
    """Wait until an element the selector finds holds the text, looking at every frame: an expect
    looks again after growing pauses (up to a second), which a wait on the server's bots or clock
    would add to the test's time."""
    page.wait_for_function(HOLDS_TEXT_JS, arg=[selector, text], timeout=timeout)


def _moves(page: Page) -> int:
    moves: int = page.evaluate("window.tilerummy.state.game.moves")
    return moves


def _after(page: Page, moves: int) -> None:
    """Wait until the game has moved on from ``moves`` actions (a bot may answer at once)."""
    page.wait_for_function("moves => window.tilerummy.state.game.moves > moves", arg=moves)


def _over(page: Page) -> bool:
    return page.locator(".overlay .dialog").count() > 0


def _make_opening(page: Page) -> bool:
    """Lay the solver's opening for the rack on screen by dragging, showing an invalid set on the way."""
    solution = solve(" ".join(rack_tiles(page)), initial_meld_done=False)
    if solution is None:
        return False
    for number, meld in enumerate(solution.table):
        index = page.locator(".table .set").count()
        for place, tile in enumerate(str(meld).split()):
            # A joker may be written with its meaning (J(B10)); on the rack it is a plain J.
            source = f'.rack .tile[data-t="{"J" if tile.startswith("J") else tile}"]'
            drag(page, source, "#new-set" if place == 0 else f'[data-drop="set:{index}"]')
            if number == 0 and place == 0:
                # One tile alone is a set in the making: flagged, with the reason, and the turn cannot end.
                expect(page.locator(".set.invalid .verdict").first).to_contain_text("at least 3 tiles")
                expect(page.locator("#end-turn")).to_be_disabled()
                expect(page.locator("#turn-reason")).to_contain_text("A set marked ✗ is not valid yet")
                screenshot(page, "newcomer-invalid-set-phone")
    expect(page.locator(".set.invalid")).to_have_count(0)
    # The counter adds up the new sets (two jokers beside one tile may read as a run worth more).
    expect(page.locator("#meld-counter")).to_have_text(re.compile(r"^\d+ / 30$"))
    assert int(page.inner_text("#meld-counter").split()[0]) >= (solution.meld_value or 0) >= 30
    expect(page.locator("#end-turn")).to_be_enabled()
    screenshot(page, "newcomer-opening-phone")
    moves = _moves(page)
    page.click("#end-turn")
    _after(page, moves)
    return True


#: A deal on which the newcomer's game is short and still has it all: the bot plays first and
#: places tiles twice, the newcomer opens on their first turn, draws four times, takes four
#: hints' plays and goes out, within 18 actions (most deals take 70 to 110).
NEWCOMER_SEED = 1908


def test_a_newcomer_plays_a_whole_game_against_a_bot(server: ThreadedServer, browser: Browser) -> None:
    page = _page(browser, PHONE)
    page.goto(f"{server.url}/?bot_delay=0.05")
    expect(page.locator("#play-bots")).to_have_text("Play against the computer")
    screenshot(page, "home-phone")
    page.fill("#name", "Ana")
    server.deals.append(NEWCOMER_SEED)
    page.click("#play-bots")
    page.wait_for_selector(".rack .tile")
    expect(page.locator(".player.me")).to_contain_text("Ana (you)")

    opened = False
    drew = False
    for turn in range(200):
        if turn == 12:
            screenshot(page, "newcomer-midgame-phone")
        _my_turn(page)
        if _over(page):
            break
        if turn > 0:
            # The move log says what the computer did, in a sentence.
            expect(page.locator("#log-latest")).to_have_text(
                re.compile(r"^Computer 2 (drew a tile|placed \S+( \S+)*|passed)")
            )
        if not opened:
            opened = _make_opening(page)
            if opened:
                expect(page.locator(".table .set").first).to_be_visible()
                screenshot(page, "newcomer-after-opening-phone")
                continue
        else:
            # After the opening: the hint's play when there is one.
            # The hint's answer is a message: clear any earlier one, so the wait is for this answer.
            page.evaluate("document.getElementById('toast')?.classList.remove('show')")
            outlined = page.locator(".tile.last").count()
            page.click("#hint")
            page.wait_for_function("() => document.querySelector('#toast.show')")
            if outlined and page.locator(".table .tile.selected").count():
                # The computer's tiles stay outlined while the player changes the table, until the turn ends.
                expect(page.locator(".tile.last")).to_have_count(outlined)
            if page.locator("#end-turn").is_enabled():
                moves = _moves(page)
                page.click("#end-turn")
                _after(page, moves)
                continue
        before = len(rack_tiles(page))
        moves = _moves(page)
        page.click("#draw")
        _after(page, moves)
        if not drew and not _over(page):
            drew = True
            assert len(rack_tiles(page)) == before + 1
            # The player's own draw is logged with the tile drawn.
            drawn = page.locator("#log-lines li", has_text=re.compile(r"^Ana \(you\) drew \S+$"))
            expect(drawn).to_have_count(1)
    assert opened, "the rack never held an opening"
    assert page.evaluate("window.errorToasts") == []
    expect(page.locator(".overlay .dialog")).to_be_visible()
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    screenshot(page, "newcomer-scores-phone")

    # The finished game replays from its record.
    page.click("#replay-link")
    page.wait_for_selector("#replay-action")
    page.click("#replay-last")
    expect(page.locator("#replay-scores")).to_be_visible()
    # The computer has the game's name for it, and each move its sentence.
    expect(page.locator(".replay-view .players")).to_contain_text("Computer 2")
    # The result's caption is light on the green felt.
    caption = page.eval_on_selector("#replay-scores caption", "caption => getComputedStyle(caption).color")
    assert caption == "rgb(255, 255, 255)", caption
    page.click("#move-log summary")
    expect(page.locator("#log-lines li").first).to_have_text(re.compile(r"^(Ana|Computer 2) (placed|drew)"))
    screenshot(page, "replay-phone")
    _no_page_errors(page)

    # Back in the room (a new page load: the seat's token brings the host back), and a new game.
    page.go_back()
    expect(page.locator("#scores")).to_be_visible()
    page.click("#rematch")
    expect(page.locator(".overlay")).to_have_count(0)
    expect(page.locator(".player.me")).to_contain_text("Ana (you)")
    # A new game's rack is dealt, not drawn: no tile is marked new.
    expect(page.locator(".rack .tile")).to_have_count(14)
    expect(page.locator(".rack .tile.fresh")).to_have_count(0)
    _no_page_errors(page)
    page.context.close()


def test_two_people_play_in_a_private_room_joined_by_its_link(server: ThreadedServer, browser: Browser) -> None:
    host = _page(browser, DESKTOP)
    host.goto(server.url)
    screenshot(host, "home-desktop")
    expect(host.get_by_label("Room code")).to_be_visible()
    host.fill("#name", "Bea")
    host.check("#room-hints")
    host.select_option("#room-preset", "classic")
    host.click("#create-room")
    host.wait_for_selector("#invite")
    invite = host.input_value("#invite")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/r/[A-Z0-9]{6}", invite), invite
    expect(host.locator("#start")).to_be_disabled()
    expect(host.locator(".rules")).to_contain_text("First play worth more than 30 points")
    screenshot(host, "room-desktop")

    guest = _page(browser, PHONE, touch=True)
    guest.goto(invite)
    guest.fill("#name", "Caio")
    guest.click("#join-invite")
    expect(host.locator(".seats")).to_contain_text("Caio")
    host.click("#start")
    host.wait_for_selector(".rack .tile")
    guest.wait_for_selector(".rack .tile")

    pool = int(host.locator(".chip.pool").inner_text().split()[-1])
    player, watcher = (host, guest) if host.locator("main.game.my-turn").count() else (guest, host)
    player.wait_for_selector("main.game.my-turn")
    # The turn's clock counts down the room's two minutes, second by second.
    clock = player.locator("#clock")
    expect(clock).to_have_text(re.compile(r"^\s*[12]:[0-5]\d$"))
    shown = clock.text_content()
    player.wait_for_function("shown => document.getElementById('clock').textContent !== shown", arg=shown)
    expect(clock).not_to_have_text(shown or "")
    expect(clock).to_have_class(re.compile(r"\bmine\b"))
    # Tap a tile, then tap "New set": the other player watches the table being built.
    tile = player.locator(".rack .tile").first
    if player is guest:
        tile.tap()
        player.locator("#new-set").tap()
    else:
        tile.click()
        player.click("#new-set")
    expect(player.locator(".table .set")).to_have_count(1)
    expect(watcher.locator(".table.live .set")).to_have_count(1)
    screenshot(watcher, f"watching-live-table-{'desktop' if watcher is host else 'phone'}")
    screenshot(player, f"building-a-set-{'desktop' if player is host else 'phone'}")
    player.click("#undo")
    expect(player.locator(".table .set")).to_have_count(0)
    player.click("#redo")
    expect(player.locator(".table .set")).to_have_count(1)
    player.click("#reset")
    expect(player.locator(".table .set")).to_have_count(0)
    # From the keyboard: Tab to the rack, arrows to a tile, pick with Enter, a new set with N, undo with Ctrl+Z.
    player.locator("#new-set").focus()
    player.keyboard.press("Tab")
    expect(player.locator("#rack")).to_be_focused()
    player.keyboard.press("ArrowRight")
    player.keyboard.press("ArrowRight")
    expect(player.locator(".rack .tile").nth(1)).to_be_focused()
    player.keyboard.press("Enter")
    expect(player.locator(".rack .tile.selected")).to_have_count(1)
    player.keyboard.press("ArrowRight")
    player.keyboard.press("Space")
    expect(player.locator(".rack .tile.selected")).to_have_count(2)
    player.keyboard.press("n")
    expect(player.locator(".table .set .tile")).to_have_count(2)
    # The table is next to the rack for Shift+Tab: the place for a new set, then the set nearest the rack.
    player.locator("#rack").focus()
    player.keyboard.press("Shift+Tab")
    expect(player.locator("#new-set")).to_be_focused()
    player.keyboard.press("Shift+Tab")
    expect(player.locator('[data-drop="set:0"]')).to_be_focused()
    player.keyboard.press("Control+z")
    expect(player.locator(".table .set")).to_have_count(0)
    # A double click draws once, and says nothing false about whose turn it is.
    player.dblclick("#draw")
    watcher.wait_for_selector("main.game.my-turn")
    player.evaluate("window.tilerummy.request({type: 'ping'})")  # any second request would be answered first
    assert player.evaluate("window.errorToasts") == []
    expect(watcher.locator(".chip.pool")).to_have_text(f"Pool: {pool - 1}")
    expect(watcher.locator("#log-latest")).to_have_text(re.compile(r"^(Bea|Caio) drew a tile$"))
    expect(watcher.locator(".table.live")).to_have_count(0)

    # The guest reloads mid-game and is back in their seat with the same rack.
    guest_rack = sorted(rack_tiles(guest))
    guest.reload()
    guest.wait_for_selector(".rack .tile")
    expect(guest.locator(".player.me")).to_contain_text("Caio (you)")
    assert sorted(rack_tiles(guest)) == guest_rack

    # A network drop: the page says so, reconnects by itself and goes on.
    host.evaluate("window.tilerummy.drop()")
    expect(host.locator("#connection")).to_have_class(re.compile(r"\bshow\b"))
    host.wait_for_function("() => !document.getElementById('connection').classList.contains('show')")
    expect(host.locator("#connection")).not_to_have_class(re.compile(r"\bshow\b"))
    expect(host.locator(".player.me")).to_contain_text("Bea (you)")
    whose = host if host.locator("main.game.my-turn").count() else guest
    whose.click("#draw")
    expect(host.locator(".chip.pool")).to_have_text(f"Pool: {pool - 2}")
    expect(guest.locator(".chip.pool")).to_have_text(f"Pool: {pool - 2}")
    screenshot(guest, "two-players-phone")
    # How to play, over the game.
    guest.click("#help")
    expect(guest.locator(".help-dialog")).to_contain_text("From the keyboard")
    # A message shown meanwhile stays under the help, which it would otherwise cover.
    guest.evaluate("async () => (await import('/static/js/ui.js')).toast('A message')")
    covered = """() => {
        const toast = document.getElementById("toast");
        toast.style.pointerEvents = "auto";  // else it is never the element found at a point
        const box = toast.getBoundingClientRect();
        return Boolean(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2).closest(".help-overlay"));
    }"""
    assert guest.evaluate(covered)
    screenshot(guest, "help-phone")
    guest.keyboard.press("Escape")
    expect(guest.locator(".help-dialog")).to_have_count(0)
    # Tiles as playing cards.
    host.click("header button[aria-label='Show tiles as playing cards']")
    expect(host.locator(".rack .tile.card").first).to_be_visible()
    # As a card, the joker is a star alone: a "J" would read as a jack.
    assert host.evaluate("async () => (await import('/static/js/ui.js')).tileFace('J').textContent") == "★"
    expect(host.locator("#cards-switch")).to_have_text("Cards")
    screenshot(host, "two-players-cards-desktop")
    _no_page_errors(host, guest)
    host.context.close()
    guest.context.close()


def _host_of_a_bots_room(
    server: ThreadedServer, browser: Browser, size: ViewportSize, options: dict[str, object], *, public: bool
) -> tuple[Page, Client]:
    """A bots-only room, its host taking the seat back in the browser with the token, as after a reload."""
    opener = Client(server, "Hal")
    opener.create([{"kind": "bot", "level": "greedy"}] * 2, rules={"options": options}, public=public)
    page = _page(browser, size)
    page.goto(server.url)
    page.evaluate(
        "([code, token]) => localStorage.setItem('tilerummy.seats', JSON.stringify({[code]: token}))",
        [opener.code, opener.token],
    )
    page.goto(f"{server.url}/r/{opener.code}")
    return page, opener


#: Two deals on which the greedy level plays short games against itself (33 and 41 actions, where
#: most deals take 55 to 85), for the tests that watch two bots play a game and then another.
SHORT_BOT_GAMES = [137, 71]


def test_a_host_watches_bots_play_and_sees_the_rooms_totals(server: ThreadedServer, browser: Browser) -> None:
    page, opener = _host_of_a_bots_room(server, browser, DESKTOP, {"turn_seconds": None}, public=False)
    server.deals.extend(SHORT_BOT_GAMES)
    page.click("#start")
    opener.close()
    expect(page.locator(".rack")).to_contain_text("You are watching this game.")
    _soon(page, "#scores tbody tr:nth-child(2)", timeout=60_000)
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    expect(page.locator("#scores")).to_contain_text("Computer 1")
    page.click("#rematch")
    _soon(page, "#totals-table", "Totals after 2 games", timeout=60_000)
    expect(page.locator("#totals-table")).to_contain_text("Totals after 2 games")
    screenshot(page, "room-totals-desktop")
    _no_page_errors(page)
    page.context.close()


def test_a_host_plays_a_match_of_two_rounds_and_sees_its_totals(server: ThreadedServer, browser: Browser) -> None:
    page, opener = _host_of_a_bots_room(server, browser, PHONE, {"turn_seconds": None, "rounds": 2}, public=True)
    expect(page.locator(".rules")).to_contain_text("A match of 2 rounds")
    server.deals.extend(SHORT_BOT_GAMES)
    page.click("#start")
    opener.close()
    expect(page.locator("#match-round")).to_have_text("Round 1 of 2")
    _soon(page, "#match-totals caption", "Match totals after round 1", timeout=60_000)
    expect(page.locator("#match-totals caption")).to_contain_text("Match totals after round 1")
    first = page.locator("#scores tbody td.plus, #scores tbody td.minus").all_inner_texts()
    totals = page.locator("#match-totals td.plus, #match-totals td.minus").all_inner_texts()
    assert sorted(first) == sorted(totals), (first, totals)
    expect(page.locator("#rematch")).to_have_text("Next round")
    # Beside each player's name, their match total so far.
    beside = page.locator(".players .match-total").all_inner_texts()
    assert sorted(beside) == sorted(totals), (beside, totals)
    screenshot(page, "match-round-1-phone")
    page.click("#rematch")
    _soon(page, "#match-winner", "wins the match!", timeout=60_000)
    expect(page.locator("#match-winner")).to_contain_text("wins the match!")
    expect(page.locator("#match-totals caption")).to_have_text("Match over after round 2")
    expect(page.locator("#rematch")).to_have_text("New match")
    screenshot(page, "match-over-phone")
    _no_page_errors(page)
    page.context.close()


#: Counts the page's calls to Element.animate (window.arrivals): a computer's placed tiles moving into place.
ARRIVALS_JS = """
window.arrivals = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
    if (this.closest && this.closest(".table")) window.arrivals += 1;
    return animate.apply(this, args);
};
"""

#: Whether the element the first selector finds lies wholly below every element the second finds.
BELOW_ALL_JS = """([selector, others]) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return [...document.querySelectorAll(others)].every((other) => other.getBoundingClientRect().bottom <= box.top + 1);
}"""


def _end_or_draw(page: Page) -> None:
    moves = _moves(page)
    page.click("#end-turn" if page.locator("#end-turn").is_enabled() else "#draw")
    _after(page, moves)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_player_finds_every_move_on_the_game_screen(server: ThreadedServer, browser: Browser, size: str) -> None:
    page = _page(browser, DESKTOP if size == "desktop" else PHONE)
    page.add_init_script(ARRIVALS_JS)
    page.goto(f"{server.url}/?bot_delay=0.1")
    # The newcomer's deal: the computer places tiles within a few turns.
    server.deals.append(NEWCOMER_SEED)
    page.click("#play-bots")
    for _ in range(30):
        _my_turn(page)
        if page.locator(".table .tile.last").count() or _over(page):
            break
        moves = _moves(page)
        page.click("#draw")
        _after(page, moves)
    # The computer's tiles moved into place from its name, and stay outlined.
    expect(page.locator(".table .tile.last").first).to_be_visible()
    assert page.evaluate("window.arrivals") > 0
    outlined = page.locator(".table .tile.last").count()

    # A tile dropped anywhere on the open table, away from the sets, starts a new set.
    sets = page.locator(".table .set").count()
    drag(page, ".rack .tile", ".table")
    expect(page.locator(".table .set")).to_have_count(sets + 1)
    expect(page.locator(".table .tile.last")).to_have_count(outlined)
    page.click("#undo")
    # A tap on a tile and then on the open table does the same.
    page.locator(".rack .tile").first.click()
    table = page.locator(".table").bounding_box()
    assert table is not None
    page.mouse.click(table["x"] + table["width"] - 12, table["y"] + table["height"] - 12)
    expect(page.locator(".table .set")).to_have_count(sets + 1)
    # Undo takes back the tile moved, not the rack's sort, which stays.
    page.click("#sort-number")
    sorted_rack = rack_tiles(page)
    page.click("#undo")
    expect(page.locator(".table .set")).to_have_count(sets)
    assert [tile for tile in rack_tiles(page) if tile in sorted_rack] == sorted_rack
    page.click("#sort-colour")

    # The keyboard: the first Tab stop leads to the rack, and so does R; its place is ringed in white, not yellow.
    page.locator("body").press("Tab")
    expect(page.locator("#skip-to-rack")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#rack")).to_be_focused()
    page.locator("#help").focus()
    page.keyboard.press("r")
    expect(page.locator(".rack .tile").first).to_be_focused()
    page.keyboard.press("Enter")
    ring = page.eval_on_selector(".rack .tile:focus", "tile => getComputedStyle(tile).outlineColor")
    assert ring == "rgb(255, 255, 255)", ring
    page.keyboard.press("Escape")

    # The hint's message has a line of its own under the table, over none of its tiles; it goes with the turn.
    page.click("#hint")
    _soon(page, "#toast.show")
    assert page.evaluate(BELOW_ALL_JS, ["#toast", ".table"])
    screenshot(page, f"hint-message-{size}")
    _end_or_draw(page)
    expect(page.locator("#toast.show")).to_have_count(0)
    _my_turn(page)

    # The tile drawn stays marked "new" after the computer's turn, and the log shows the line before the latest.
    while page.locator(".rack .tile.fresh").count() == 0 and not _over(page):
        moves = _moves(page)
        page.click("#draw")
        _after(page, moves)
        _my_turn(page)
    if not _over(page):
        expect(page.locator(".rack .tile.fresh")).to_have_count(1)
        # And over a reload, with the others' tiles outlined as they were.
        outlined = page.locator(".table .tile.last").count()
        page.reload()
        _my_turn(page)
        expect(page.locator(".rack .tile.fresh")).to_have_count(1)
        expect(page.locator(".table .tile.last")).to_have_count(outlined)
        if size == "desktop":
            expect(page.locator("#log-before")).to_be_visible()
        else:
            expect(page.locator("#log-before")).to_be_hidden()
        if size == "phone":
            # The closed log's line is two lines at most on a phone.
            height, line = page.eval_on_selector(
                "#log-latest", "e => [e.clientHeight, parseFloat(getComputedStyle(e).lineHeight) || 20]"
            )
            assert height <= 2 * line + 2, (height, line)
        # Opened, every line shows in the page's flow: the table moves down, its first row uncovered.
        page.click("#move-log summary")
        expect(page.locator("#log-lines li").first).to_be_visible()
        assert page.evaluate(BELOW_ALL_JS, [".table", "#log-lines"])
        screenshot(page, f"log-open-{size}")
        page.click("#move-log summary")

    # Under reduced motion, the computer's tiles are simply there.
    page.emulate_media(reduced_motion="reduce")
    arrivals = page.evaluate("window.arrivals")
    for _ in range(6):
        if _over(page):
            break
        _end_or_draw(page)
        _my_turn(page)
    assert page.evaluate("window.arrivals") == arrivals

    # The logo asks before leaving the game; the home page then leads back to the seat.
    if not _over(page):
        code = page.evaluate("window.tilerummy.state.code")
        page.click("header .brand")
        expect(page.locator("#leave-dialog")).to_contain_text("Your seat is kept")
        screenshot(page, f"leave-dialog-{size}")
        page.click("#leave-stay")
        expect(page.locator("#leave-dialog")).to_have_count(0)
        expect(page.locator("main.game")).to_be_visible()
        page.click("header .brand")
        page.click("#leave-go")
        expect(page.locator("#kept-seats")).to_contain_text(code)
        screenshot(page, f"kept-seats-{size}")
        page.click(f'#kept-seats button[data-code="{code}"]')
        expect(page.locator(".player.me")).to_be_visible()
    _no_page_errors(page)
    page.context.close()


@pytest.fixture(scope="module")
def lost_game(server: ThreadedServer) -> Client:
    """A game a person lost to a greedy bot without a first play, drawing every turn: its seat is the
    person's, to be taken in the browser with the token."""
    server.deals.append(SHORT_BOT_GAMES[0])
    person = Client(server, "Ugo")
    # The bot's moment before each play keeps the person's draws under the server's 20 messages a second.
    person.create(
        [{"kind": "person"}, {"kind": "bot", "level": "greedy"}],
        rules={"options": {"turn_seconds": None}},
        bot_delay=0.06,
    )
    person.draw_to_the_end(person.request({"type": "start_game"})["game"])
    person.close()
    return person


def _take_seat(page: Page, server: ThreadedServer, client: Client) -> None:
    page.goto(server.url)
    page.evaluate(
        "([code, token]) => localStorage.setItem('tilerummy.seats', JSON.stringify({[code]: token}))",
        [client.code, client.token],
    )
    page.goto(f"{server.url}/r/{client.code}")


def test_the_result_shows_the_leftover_tiles_and_can_be_closed_to_see_the_table(
    server: ThreadedServer, browser: Browser, lost_game: Client
) -> None:
    page = _page(browser, PHONE)
    _take_seat(page, server, lost_game)
    expect(page.locator("#scores")).to_be_visible()
    game = page.evaluate("window.tilerummy.state.game")
    seat = game["seat"]
    # The person's own tiles are shown; the computer went out, with none left.
    expect(page.locator("#leftover-own .tile")).to_have_count(len(game["rack"]))
    # Every seat's tiles left, the computer's worked out from the revealed deal, as the engine has them.
    with urllib.request.urlopen(f"{server.url}/api/games/{game['game_id']}/record", timeout=5) as response:
        engine = GameRecord.from_json(response.read().decode()).replay().game
    for other in range(2):
        where = "#leftover-own" if other == seat else f"#leftover-{other}"
        expected = sorted(str(tile) for tile in engine.rack_tiles(other))
        page.wait_for_function(
            "([where, n]) => document.querySelectorAll(`${where} .tile`).length === n", arg=[where, len(expected)]
        )
        assert sorted(page.eval_on_selector_all(f"{where} .tile", "tiles => tiles.map(t => t.dataset.t)")) == expected
    # Without a first play the score is a fixed penalty, and the row says so.
    expect(page.locator(f"#score-note-{seat}")).to_contain_text("Never made the first play")
    assert game["result"]["scores"][seat] in (-100, -200)
    expect(page.locator(".banner")).to_have_count(0)
    expect(page.locator("#deal-check")).to_have_attribute("data-status", "verified")
    screenshot(page, "result-leftover-phone")
    # Closed, the final table shows; the status line brings the result back, and Escape closes it again.
    page.click("#result-close")
    expect(page.locator(".result-overlay")).to_have_count(0)
    expect(page.locator(".table .set")).to_have_count(len(game["table"]))
    screenshot(page, "result-closed-phone")
    page.click("#show-result")
    expect(page.locator("#scores")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#show-result")).to_be_visible()
    _no_page_errors(page)
    page.context.close()


#: The boxes of the open chat panel, the rack, its last tile and the turn's buttons, and the window's height.
CHAT_CLEARANCE_JS = """() => {
    const box = (selector) => { const found = document.querySelector(selector); return found ? found.getBoundingClientRect().toJSON() : null; };
    return { chat: box("#chat"), rack: box(".rack"), last: box(".rack .tile:last-child"), draw: box("#draw"), end: box("#end-turn"), table: box(".table"), height: innerHeight, width: innerWidth };
}"""


def _clear_of_the_chat(page: Page) -> None:
    """The open chat covers none of the rack, its tiles, the table or the turn's buttons."""
    boxes = page.evaluate(CHAT_CLEARANCE_JS)
    chat = boxes["chat"]
    assert chat is not None and boxes["rack"] is not None, boxes
    for name in ("rack", "last", "draw", "end", "table"):
        part = boxes[name]
        if part is None:
            continue
        assert part["bottom"] <= boxes["height"] + 0.5 and part["height"] > 0, (name, boxes)
        beside = part["right"] <= chat["left"] + 0.5 or part["left"] >= chat["right"] - 0.5
        above = part["bottom"] <= chat["top"] + 0.5
        assert beside or above, (name, boxes)


def test_people_and_watchers_chat_in_a_room(server: ThreadedServer, browser: Browser) -> None:
    host = _page(browser, DESKTOP)
    host.goto(server.url)
    host.fill("#name", "Nina")
    host.click("#create-room")
    host.wait_for_selector("#invite")
    invite = host.input_value("#invite")
    guest = _page(browser, PHONE, touch=True)
    guest.goto(invite)
    guest.fill("#name", "Oto")
    guest.click("#join-invite")
    expect(host.locator(".seats")).to_contain_text("Oto")

    # A line from the host: the guest's closed panel counts it as unread.
    host.click("#chat-button")
    host.fill("#chat-text", "hello, good luck")
    host.keyboard.press("Enter")
    expect(host.locator("#chat-lines")).to_contain_text("hello, good luck")
    expect(host.locator("#chat-text")).to_have_value("")
    expect(guest.locator("#chat-unread")).to_have_text("1")
    guest.locator("#chat-button").tap()
    expect(guest.locator("#chat-lines .chat-line")).to_have_count(1)
    expect(guest.locator("#chat-unread")).to_have_count(0)
    assert guest.get_attribute("#chat-text", "maxlength") == "300"
    guest.fill("#chat-text", "thanks!")
    guest.locator("#chat-send").tap()
    expect(host.locator("#chat-lines")).to_contain_text("thanks!")
    screenshot(guest, "chat-room-phone")

    # A watcher writes too, and is named as one.
    watcher = Client(server, "Pia")
    watcher.join(host.input_value("#invite").rsplit("/", 1)[-1], role="spectator")
    watcher.request({"type": "chat", "text": "go Nina"})
    expect(guest.locator("#chat-lines .chat-line.watcher")).to_contain_text("Pia · watching")

    # The game starts; the panel and what is being written stay.
    guest.fill("#chat-text", "half a line")
    host.click("#start")
    guest.wait_for_selector(".rack .tile")
    expect(guest.locator("#chat-text")).to_have_value("half a line")
    expect(guest.locator("#chat-lines .chat-line")).to_have_count(3)
    screenshot(guest, "chat-game-phone")
    screenshot(host, "chat-game-desktop")
    # On the phone the sheet leaves the rack and the turn's buttons in view, above it.
    _clear_of_the_chat(guest)
    _clear_of_the_chat(host)

    # Past the server's burst (three lines at once, then one every five seconds), a line waits in the
    # field with the reason (within a few lines, however slowly they go).
    for number in range(8):
        guest.fill("#chat-text", f"line {number}")
        guest.press("#chat-text", "Enter")
        guest.wait_for_function(
            "text => document.getElementById('chat-lines').textContent.includes(text) || !document.getElementById('chat-notice').hidden",
            arg=f"line {number}",
        )
        if guest.locator("#chat-notice").is_visible():
            break
    expect(guest.locator("#chat-notice")).to_contain_text("Too many messages")
    expect(guest.locator("#chat-text")).to_have_value(f"line {number}")
    sent = guest.locator("#chat-lines .chat-line").count()

    # The host mutes the guest: the field is closed and says why; the room lists who is muted.
    host.locator(".chat-line:not(.own):not(.watcher) .chat-mute").first.click()
    expect(guest.locator("#chat-text")).to_be_disabled()
    expect(guest.locator("#chat-notice")).to_contain_text("The host has muted you")
    expect(host.locator("#chat-muted-list")).to_contain_text("Oto")

    # After a reload the lines are there again, none unread, and the panel as it was.
    guest.reload()
    guest.wait_for_selector(".rack .tile")
    expect(guest.locator("#chat-lines .chat-line")).to_have_count(sent)
    expect(guest.locator("#chat-unread")).to_have_count(0)
    expect(guest.locator("#chat-text")).to_be_disabled()
    host.click(".chat-unmute")
    expect(guest.locator("#chat-text")).to_be_enabled()
    # A line written while the panel is closed is counted.
    guest.locator("#chat-close").tap()
    host.fill("#chat-text", "welcome back")
    host.keyboard.press("Enter")
    expect(guest.locator("#chat-unread")).to_have_text("1")
    watcher.close()
    _no_page_errors(host, guest)
    host.context.close()
    guest.context.close()


def test_the_snapshots_history_counts_each_draw_as_the_pool_allowed() -> None:
    """A timeout draws the penalty, or what the pool has left; a play carries the table after it."""
    rules = dataclasses.replace(Rules.preset("standard"), turn_seconds=60, timeout_penalty=3)
    game = Game.new(2, rules=rules, seed=3, started_at=0.0)
    game.timeout(game.turn, at=61.0)
    game.draw(game.turn, at=62.0)
    moves = history(game)
    assert [(move.kind, move.drawn, move.table) for move in moves] == [("timeout", 3, None), ("draw", 1, None)]
    # The pool down to two tiles: a timeout draws both, the next turn may only pass.
    while game.pool_size > 2:
        game.draw(game.turn)
    game.timeout(game.turn, at=None)
    game.pass_turn(game.turn)
    assert [(move.kind, move.drawn) for move in history(game)[-2:]] == [("timeout", 2), ("pass", 0)]
    played = Game.new(2, seed=5)
    rack = " ".join(str(piece.tile) for piece in played.rack(played.turn))
    solution = solve(rack, initial_meld_done=False)
    assert solution is not None
    played.play(played.turn, solution.table)
    assert history(played)[0].table == [str(meld).split() for meld in played.table]
    assert history(None) == []


def test_a_watcher_and_a_reloaded_player_see_the_whole_move_log_and_chat(
    server: ThreadedServer, browser: Browser
) -> None:
    player = _page(browser, DESKTOP)
    player.goto(f"{server.url}/?bot_delay=0.05")
    player.fill("#name", "Ana")
    player.select_option("#level", "greedy")
    server.deals.append(NEWCOMER_SEED)
    player.click("#play-bots")
    player.wait_for_selector(".rack .tile")
    player.click("#chat-button")
    player.fill("#chat-text", "anyone watching?")
    player.keyboard.press("Enter")
    expect(player.locator("#chat-lines .chat-line")).to_have_count(1)
    player.click("#chat-close")
    # A few turns: the player draws, the computer plays or draws.
    for _ in range(4):
        _my_turn(player)
        moves = _moves(player)
        player.click("#draw")
        _after(player, moves)
    _my_turn(player)
    moves = _moves(player)
    lines = player.locator("#log-lines li").all_text_contents()
    assert len(lines) == moves >= 8, lines
    # The computer's tiles since the player's last draw are outlined (its latest play: the player only drew).
    outlined = player.locator(".table .tile.last").count()
    assert outlined  # the computer played last (this deal)

    # Someone who comes to watch now reads every move so far (the player's draws as anyone saw them)
    # and the line written before they came.
    watcher = _page(browser, PHONE, touch=True)
    watcher.goto(f"{server.url}/r/{player.evaluate('window.tilerummy.state.code')}")
    watcher.fill("#name", "Pia")
    watcher.click("#join-invite")
    expect(watcher.locator(".rack")).to_contain_text("You are watching this game.")
    expect(watcher.locator("#log-lines li")).to_have_count(moves)
    # And sees the latest play's tiles outlined, as the player does.
    expect(watcher.locator(".table .tile.last")).to_have_count(outlined)
    seen = watcher.locator("#log-lines li").all_text_contents()
    assert seen == [re.sub(r"^Ana \(you\) drew \S+$", "Ana drew a tile", line) for line in lines], (seen, lines)
    expect(watcher.locator("#chat-unread")).to_have_text("1")
    watcher.locator("#chat-button").tap()
    expect(watcher.locator("#chat-lines")).to_contain_text("anyone watching?")
    screenshot(watcher, "watcher-log-chat-phone")

    # The player's page, its kept log gone (another tab, a browser that lost it), has it all again from
    # the server; the lines it kept itself still name the tiles drawn.
    player.reload()
    player.wait_for_selector(".rack .tile")
    expect(player.locator("#log-lines li")).to_have_count(moves)
    assert player.locator("#log-lines li").all_text_contents() == lines
    player.evaluate("sessionStorage.clear()")
    player.reload()
    player.wait_for_selector(".rack .tile")
    expect(player.locator("#log-lines li")).to_have_count(moves)
    expect(player.locator(".table .tile.last")).to_have_count(outlined)
    assert player.locator("#log-lines li").all_text_contents() == [
        re.sub(r"^Ana drew", "Ana (you) drew", line) for line in seen
    ]
    _no_page_errors(player, watcher)
    player.context.close()
    watcher.context.close()


@pytest.mark.parametrize(
    "size", [{"width": 360, "height": 640}, {"width": 844, "height": 390}], ids=["small", "sideways"]
)
def test_the_chat_on_a_small_phone_or_one_held_sideways_leaves_the_game_in_view(
    server: ThreadedServer, browser: Browser, size: ViewportSize
) -> None:
    page = _page(browser, size, touch=True)
    page.goto(f"{server.url}/?bot_delay=0.05")
    page.fill("#name", "Ana")
    page.select_option("#bots", "3")
    page.click("#play-bots")
    page.wait_for_selector(".rack .tile")
    page.locator("#chat-button").tap()
    page.fill("#chat-text", "hi all")
    page.locator("#chat-send").tap()
    expect(page.locator("#chat-lines .chat-line")).to_have_count(1)
    boxes = page.evaluate(CHAT_CLEARANCE_JS)
    if size["height"] < 560:
        # Sideways there is no height for a sheet: the chat is a column at the right, the game beside it.
        assert boxes["chat"]["left"] > size["width"] / 2 and boxes["chat"]["top"] == 0, boxes
        for name in ("rack", "draw", "end", "table"):
            assert boxes[name]["right"] <= boxes["chat"]["left"] + 0.5, (name, boxes)
    else:
        _clear_of_the_chat(page)
    screenshot(page, f"chat-{size['width']}x{size['height']}")
    _no_page_errors(page)
    page.context.close()


def test_an_invite_opened_after_a_look_at_the_home_page_shows_whose_room_it_is(
    server: ThreadedServer, browser: Browser
) -> None:
    host = Client(server, "Hal")
    host.create([{"kind": "person"}, {"kind": "person"}], public=False)
    page = _page(browser, PHONE, touch=True)
    # The home page makes up a name ("Player 123") for its name field; that is no choice of the person's.
    page.goto(server.url)
    made_up = page.input_value("#name")
    assert re.fullmatch(r"Player \d{3}", made_up), made_up
    page.goto(f"{server.url}/r/{host.code}")
    expect(page.locator("#invite-host")).to_contain_text("Hal")
    expect(page.locator("#join-invite")).to_be_visible()
    page.fill("#name", "Ivo")
    page.click("#join-invite")
    expect(page.locator(".seats")).to_contain_text("Ivo")
    # A name the person chose joins the next invite at once.
    other = Client(server, "Hana")
    other.create([{"kind": "person"}, {"kind": "person"}], public=False)
    page.goto(f"{server.url}/r/{other.code}")
    expect(page.locator(".seats")).to_contain_text("Ivo")
    _no_page_errors(page)
    host.close()
    other.close()
    page.context.close()


def test_chat_reaches_the_players_of_one_room_on_two_processes_of_a_cluster(browser: Browser, tmp_path: Path) -> None:
    redis = redis_url()
    cluster = ["--redis", redis, "--cluster-name", new_prefix()]
    with postgres_schema() as database:
        one = ServerProcess(database, tmp_path / "one.log", bot_workers=0, more=cluster)
        two = ServerProcess(database, tmp_path / "two.log", bot_workers=0, more=cluster)
        one.start()
        two.start()
        try:
            # The room is made on the first process; the guest comes in through the second, which relays.
            host = _page(browser, DESKTOP)
            host.goto(one.url)
            host.fill("#name", "Rui")
            host.click("#create-room")
            host.wait_for_selector("#invite")
            code = host.evaluate("window.tilerummy.state.code")
            guest = _page(browser, PHONE)
            guest.goto(f"{two.url}/r/{code}")
            guest.fill("#name", "Sol")
            guest.click("#join-invite")
            expect(host.locator(".seats")).to_contain_text("Sol")
            guest.click("#chat-button")
            guest.fill("#chat-text", "from the other process")
            guest.press("#chat-text", "Enter")
            expect(host.locator("#chat-unread")).to_have_text("1")
            host.click("#chat-button")
            expect(host.locator("#chat-lines")).to_contain_text("from the other process")
            host.fill("#chat-text", "and back")
            host.press("#chat-text", "Enter")
            expect(guest.locator("#chat-lines")).to_contain_text("and back")
            # A reload through the second process finds the lines again.
            guest.reload()
            expect(guest.locator("#chat-lines .chat-line")).to_have_count(2)
            _no_page_errors(host, guest)
            host.context.close()
            guest.context.close()
        finally:
            one.stop()
            two.stop()


def test_quick_match_on_a_quiet_server_says_what_happens_and_offers_the_computer(
    server: ThreadedServer, browser: Browser
) -> None:
    page = _page(browser, PHONE)
    page.goto(f"{server.url}/?bot_delay=0")
    expect(page.locator("#quick-match-about")).to_be_visible()
    page.click("#quick-match")
    expect(page.locator("#quick-wait")).to_contain_text("starts by itself as soon as another player joins")
    page.wait_for_function("() => document.getElementById('wait-clock').textContent !== '0:00'")
    screenshot(page, "quick-match-wait-phone")
    code = page.evaluate("window.tilerummy.state.code")
    # Someone opening the link first sees whose room it is, its seats and its rules.
    other = _page(browser, PHONE, locale="it-IT")
    other.goto(f"{server.url}/r/{code}")
    expect(other.locator("#invite-host")).to_contain_text("ti invita a giocare")
    expect(other.locator("#invite-seats li")).to_have_count(2)
    expect(other.locator(".rules li").first).to_be_visible()
    screenshot(other, "invite-italian-phone")
    other.context.close()
    page.click("#quick-bots")
    page.wait_for_selector(".rack .tile")
    expect(page.locator(".player")).to_have_count(2)
    _no_page_errors(page)
    page.context.close()


def test_the_lobby_shows_the_round_and_totals_of_a_match_being_played(server: ThreadedServer, browser: Browser) -> None:
    player = Client(server, "Lia")
    player.create(
        [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        rules={"options": {"turn_seconds": None, "rounds": 3}},
        public=True,
    )
    player.request({"type": "start_game"})
    page = _page(browser, DESKTOP)
    page.goto(server.url)
    entry = page.locator("#lobby li", has_text=player.code)
    expect(entry.locator(".lobby-match")).to_have_text("Round 1 of 3 · totals 0 / 0")
    screenshot(page, "lobby-match-desktop")
    player.close()
    _no_page_errors(page)
    page.context.close()


def test_the_language_follows_the_browser_and_the_switch(server: ThreadedServer, browser: Browser) -> None:
    page = _page(browser, PHONE, locale="it-IT")
    page.goto(server.url)
    expect(page.locator("#play-bots")).to_have_text("Gioca contro il computer")
    made_up = page.input_value("#name")
    assert re.fullmatch(r"Giocatore \d{3}", made_up), made_up
    page.select_option("header select.lang", "es")
    expect(page.locator("#play-bots")).to_have_text("Jugar contra el ordenador")
    # The name the page made up follows the language.
    expect(page.locator("#name")).to_have_value(made_up.replace("Giocatore", "Jugador"))
    page.reload()
    expect(page.locator("#play-bots")).to_have_text("Jugar contra el ordenador")
    page.select_option("header select.lang", "pt")
    expect(page.locator("#play-bots")).to_have_text("Jogar contra o computador")
    screenshot(page, "home-portuguese-phone")
    # In the game too: a set's reason, in Spanish.
    page.select_option("header select.lang", "es")
    expect(page.locator("#play-bots")).to_have_text("Jugar contra el ordenador")
    page.goto(f"{server.url}/?bot_delay=0")
    page.click("#play-bots")
    _my_turn(page)
    page.locator(".rack .tile").first.click()
    page.click("#new-set")
    expect(page.locator(".set.invalid .verdict")).to_contain_text("Una combinación necesita al menos 3 fichas")
    expect(page.locator("#end-turn")).to_have_text("Terminar turno")
    screenshot(page, "game-spanish-phone")
    _no_page_errors(page)
    page.context.close()


def test_the_pages_set_rules_agree_with_the_engine(server: ThreadedServer, browser: Browser) -> None:
    rng = random.Random(5)
    faces = [str(tile) for tile in NUMBERED_TILES] + ["J"]
    sets: list[list[str]] = []
    for _ in range(400):
        if rng.random() < 0.5:
            # Near-runs and near-groups, where the rules are subtle.
            colour, start = rng.choice("RBYK"), rng.randint(1, 13)
            sets.append(
                [
                    f"{colour}{(start + i - 1) % 13 + 1}" if rng.random() > 0.25 else "J"
                    for i in range(rng.randint(2, 6))
                ]
            )
        else:
            sets.append(rng.sample(faces, rng.randint(2, 5)))
    sets += [
        ["R12", "R13", "R1"],
        ["J", "R1", "R2"],
        ["R13", "J", "J"],
        ["R10", "J(B10)", "J(Y10)"],
        ["K10", "B10", "J"],
    ]
    page = _page(browser, DESKTOP)
    page.goto(server.url)
    for wrap in (False, True):
        readings = page.evaluate(
            """async ([sets, wrap]) => {
                const rules = await import('/static/js/rules.js');
                return sets.map(set => rules.readSet(set, {wrap}));
            }""",
            [sets, wrap],
        )
        for tiles, reading in zip(sets, readings, strict=True):
            try:
                meld = Meld.parse(" ".join(tiles), wrap=wrap)
            except InvalidMeld:
                assert not reading["ok"], (tiles, wrap, reading)
            else:
                assert reading["ok"], (tiles, wrap, reading)
                assert (reading["kind"], reading["value"]) == (meld.kind.value, meld.value), (tiles, wrap)
    page.context.close()


def test_a_deal_that_does_not_match_its_commitment_is_a_warning(
    server: ThreadedServer, browser: Browser, finished_game: str
) -> None:
    page = _page(browser, DESKTOP)

    def altered(route: Route) -> None:
        record = route.fetch().json()
        record["fairness"]["salt"] = "0" * 32
        route.fulfill(json=record)

    page.route(f"**/api/games/{finished_game}/record", altered)
    page.goto(f"{server.url}/replay/{finished_game}")
    expect(page.locator("#replay-deal-check")).to_have_attribute("data-status", "mismatch")
    expect(page.locator("#replay-deal-check")).to_contain_text("do not match")
    _no_page_errors(page)
    page.context.close()


def test_where_the_browser_has_no_sha256_the_page_points_to_tilerummy_verify(
    server: ThreadedServer, browser: Browser, finished_game: str
) -> None:
    page = _page(browser, DESKTOP)
    # As on a page that is not a secure context: crypto.subtle is missing.
    page.add_init_script("Object.defineProperty(window.crypto, 'subtle', { value: undefined })")
    page.goto(f"{server.url}/r/{finished_game.split('-')[0]}")
    page.click("#join-invite")
    expect(page.locator("#deal-check")).to_have_attribute("data-status", "unavailable")
    expect(page.locator("#deal-check")).to_contain_text("tilerummy verify")
    _no_page_errors(page)
    page.context.close()


def test_the_clients_files_are_checked_again_on_each_load(server: ThreadedServer) -> None:
    with urllib.request.urlopen(f"{server.url}/static/js/main.js", timeout=5) as response:
        assert response.headers["Cache-Control"] == "no-cache"
        etag = response.headers["ETag"]
    again = urllib.request.Request(f"{server.url}/static/js/main.js", headers={"If-None-Match": etag})
    with pytest.raises(urllib.error.HTTPError) as unchanged:
        urllib.request.urlopen(again, timeout=5)
    unchanged.value.close()
    assert unchanged.value.code == 304


def test_every_text_is_in_every_language() -> None:
    catalogues = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in (STATIC / "i18n").glob("*.json")}
    assert set(catalogues) == {"en", "es", "it", "pt", "pt-PT"}
    english = catalogues["en"]
    for language, catalogue in catalogues.items():
        assert set(catalogue) == set(english), (language, set(english) ^ set(catalogue))
        for key, text in catalogue.items():
            assert text.strip(), (language, key)
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), (language, key)
    scripts = "\n".join(path.read_text(encoding="utf-8") for path in (STATIC / "js").glob("*.js"))
    used = set(re.findall(r'\bt\(\s*"([a-z0-9_]+)"', scripts))
    for pair in re.findall(r'\bt\([^()"]*\? "([a-z0-9_]+)" : "([a-z0-9_]+)"', scripts):
        used |= set(pair)
    assert used - set(english) == set(), "texts the page asks for that no catalogue has"


# --- Every page in every language, at both sizes --------------------------------

LANGUAGES = ("en", "es", "it", "pt", "pt-PT")
NUMBER_PLACEHOLDERS = {"n", "value", "need", "points", "free", "seats", "place", "turns", "best", "placed"}

#: Visible elements whose text is wider than their box, and drop-downs too narrow for one of their choices.
CUT_TEXTS_JS = """() => {
    const problems = [];
    const shown = (element) => element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    for (const element of document.querySelectorAll("body *")) {
        if (!element.textContent.trim() || !shown(element)) continue;
        const style = getComputedStyle(element);
        if (style.display === "inline" || ["auto", "scroll"].includes(style.overflowX)) continue;
        if (element.scrollWidth > element.clientWidth + 1) {
            problems.push(`${element.tagName}.${element.className}: "${element.innerText.slice(0, 60)}" needs ${element.scrollWidth}px, has ${element.clientWidth}px`);
        }
    }
    for (const select of document.querySelectorAll("select")) {
        if (!shown(select)) continue;
        const style = getComputedStyle(select);
        // The room for a choice's text: the box less its padding and the drop-down arrow.
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        for (const option of select.options) {
            const probe = document.createElement("span");
            probe.style.cssText = `font: ${style.font}; position: absolute; white-space: pre; visibility: hidden`;
            probe.textContent = option.text;
            document.body.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            if (width > room) problems.push(`select#${select.id}: "${option.text}" needs ${Math.ceil(width)}px, has ${room}px`);
        }
    }
    return problems;
}"""

#: Every visible text: text nodes, and the chosen text of each drop-down.
VISIBLE_TEXTS_JS = """() => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const text = walker.currentNode.textContent.trim();
        const parent = walker.currentNode.parentElement;
        if (text && parent && parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) texts.push(text);
    }
    for (const select of document.querySelectorAll("select")) {
        if (select.checkVisibility()) texts.push(...[...select.options].map((option) => option.text));
    }
    return texts;
}"""


#: Each drop-down named set to its longest choice, as a player would choose it.
LONGEST_CHOICES_JS = """(selectors) => {
    for (const selector of selectors) {
        const select = document.querySelector(selector);
        select.value = [...select.options].reduce((a, b) => (b.text.length > a.text.length ? b : a)).value;
        select.dispatchEvent(new Event("input", { bubbles: true }));
        select.dispatchEvent(new Event("change", { bubbles: true }));
    }
}"""


def _catalogue(language: str) -> dict[str, str]:
    catalogue: dict[str, str] = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return catalogue


@functools.cache
def _english_patterns(language: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """English texts that the language says otherwise, as patterns (a {placeholder} matches anything);
    made once per language, as every page of every test matches each of its texts against them all."""
    english, own = _catalogue("en"), _catalogue(language)
    patterns = []
    for key, message in english.items():
        if own[key] == message:
            continue
        for text in _variants(message):
            literal = re.sub(r"\{\w+\}", "", text)
            if sum(character.isalpha() for character in literal) < 3:
                continue
            parts = re.split(r"\{(\w+)\}", text)
            # re.split puts the placeholders' names at the odd places; counts stand for numbers.
            regex = "".join(
                (r"\d+" if part in NUMBER_PLACEHOLDERS else ".+?") if odd else re.escape(part)
                for odd, part in ((index % 2 == 1, part) for index, part in enumerate(parts))
            )
            patterns.append((key, re.compile(regex)))
    return tuple(patterns)


def _closing(text: str, at: int) -> int:
    """The place of the brace that closes the one at ``at``."""
    depth = 0
    for place in range(at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[place], 0)
        if depth == 0:
            return place
    raise ValueError(f"no closing brace in {text!r}")


def _variants(text: str) -> list[str]:
    """A message's texts with each plural or select branch chosen in turn (a plural's # as its count):
    "{n, plural, one {# tile} other {# tiles}}" is "{n} tile" and "{n} tiles"."""
    choice = re.search(r"\{(\w+), (plural|select),", text)
    if choice is None:
        return [text]
    end = _closing(text, choice.start())
    body, branches, at = text[choice.end() : end], [], 0
    while (opening := body.find("{", at)) >= 0:
        closing = _closing(body, opening)
        branch = body[opening + 1 : closing]
        branches.append(branch.replace("#", "{" + choice[1] + "}") if choice[2] == "plural" else branch)
        at = closing + 1
    return [variant for branch in branches for variant in _variants(text[: choice.start()] + branch + text[end + 1 :])]


def _texts_fit_and_speak(page: Page, language: str, where: str) -> None:
    cut: list[str] = page.evaluate(CUT_TEXTS_JS)
    assert cut == [], (language, where, cut)
    if language == "en":
        return
    texts: list[str] = page.evaluate(VISIBLE_TEXTS_JS)
    patterns = _english_patterns(language)
    english = [(key, text) for text in texts for key, pattern in patterns if pattern.fullmatch(text)]
    assert english == [], (language, where, english)
    assert not [text for text in texts if re.search(r"\bbot \d", text)], (language, where, "a bot named in English")


#: A deal on which the easy level's round against itself is one of its shortest (94 actions, where
#: most take 100 or more), for a result, a replay and an analysis worked out sooner.
FINISHED_GAME_DEAL = 48


@pytest.fixture(scope="module")
def finished_game(server: ThreadedServer) -> str:
    """The first round of a two-round match two bots played, for its result (with the match's totals) and replay."""
    server.deals.append(FINISHED_GAME_DEAL)
    host = Client(server, "Hal")
    host.create(
        [{"kind": "bot", "level": "easy"}] * 2, rules={"options": {"turn_seconds": None, "rounds": 2}}, public=False
    )
    host.request({"type": "start_game"})
    over = host.wait_for(lambda message: message["type"] == "game" and message["game"]["result"] is not None, 120)
    host.close()
    game_id: str = over["game"]["game_id"]
    return game_id


def _three_computers_and_an_invalid_set(page: Page, server: ThreadedServer) -> None:
    """A game against three computers, on the player's turn, a rack tile laid alone as a new set."""
    page.goto(f"{server.url}/?bot_delay=0")
    page.select_option("#bots", "3")
    page.click("#play-bots")
    _my_turn(page)
    page.locator(".rack .tile").first.click()
    page.click("#new-set")
    expect(page.locator(".set.invalid")).to_have_count(1)


def _speak(page: Page, language: str) -> None:
    """Switch the page to a language with the menu in its top bar, as a player would: the screen is
    drawn again in it, where it was. A page set up once (a room, a game, a result) is so checked
    in every language, without a page load and a game of its own for each."""
    page.select_option("header select.lang", language)
    # Drawn again in the same task that names the page's language (an expect would poll).
    # The page's lang attribute is the language's locale (Brazilian Portuguese, the "pt" catalogue, is pt-BR).
    page.wait_for_function(
        "locale => document.documentElement.lang === locale", arg={"pt": "pt-BR"}.get(language, language)
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_page_fits_and_speaks_every_language(
    server: ThreadedServer, browser: Browser, finished_game: str, lost_game: Client, size: str
) -> None:
    page = _page(browser, DESKTOP if size == "desktop" else PHONE, touch=size == "phone")
    page.goto(f"{server.url}/?bot_delay=0")
    page.wait_for_selector("#play-bots")
    for language in LANGUAGES:
        _speak(page, language)
        # Every drop-down at its longest choice, as a player may leave it (chosen as Playwright's
        # select_option chooses, with the input and change events, all six in one call to the page).
        page.evaluate(
            LONGEST_CHOICES_JS, ["#level", "#room-preset", "#room-display", "#bot-turn", "#room-rounds", "#room-target"]
        )
        expect(page.locator("#tutorial-offer")).to_contain_text(_catalogue(language)["tutorial_offer_title"])
        _texts_fit_and_speak(page, language, "home")
        screenshot(page, f"home-{language}-{size}")

    # A match of three rounds, from the form.
    page.select_option("#room-rounds", "3")
    page.click("#create-room")
    page.wait_for_selector("#invite")
    for language in LANGUAGES:
        _speak(page, language)
        # The catalogue's words for 3 rounds, as its message format says them (tests/js/catalogues.test.mjs).
        rounds = page.evaluate("window.tilerummy.t('rule_rounds', { n: 3 })")
        assert re.search(r"\b3\b", rounds) and "{" not in rounds, rounds
        expect(page.locator(".rules")).to_contain_text(rounds)
        _texts_fit_and_speak(page, language, "room")

    _three_computers_and_an_invalid_set(page, server)
    page.click("#move-log summary")
    expect(page.locator("#move-log")).to_have_attribute("open", "")
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator(".set.invalid")).to_have_count(1)
        _texts_fit_and_speak(page, language, "game")
        screenshot(page, f"game-{language}-{size}")
    # The sealed deal: its first digits at a glance, the whole commitment and what it means on demand.
    expect(page.locator("#fair-deal summary")).to_contain_text(re.compile(r"\b[0-9a-f]{8}$"))
    page.click("#fair-deal summary")
    expect(page.locator("#fair-commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator("#fair-commitment")).to_be_visible()
        _texts_fit_and_speak(page, language, "sealed deal")
        screenshot(page, f"game-sealed-deal-{language}-{size}")
    for language in LANGUAGES:
        _speak(page, language)
        page.click("#help")
        expect(page.locator("#help-tutorial")).to_have_text(_catalogue(language)["tutorial_link"])
        _texts_fit_and_speak(page, language, "help")
        page.keyboard.press("Escape")
        expect(page.locator("#help-tutorial")).to_have_count(0)

    # The chat, open with a line in it.
    page.click("#chat-button")
    page.fill("#chat-text", "ciao!")
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-lines .chat-line")).to_have_count(1)
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator("#chat-title")).to_have_text(_catalogue(language)["chat"])
        _texts_fit_and_speak(page, language, "chat")
        # With the move log and the sealed deal open, four players and a set in the making, the rack and
        # the turn's buttons are still clear of the chat.
        _clear_of_the_chat(page)
        screenshot(page, f"chat-{language}-{size}")
    page.click("#chat-close")
    # The logo's question before leaving the game, then the way back to the seat from the home page.
    for language in LANGUAGES:
        _speak(page, language)
        page.click("header .brand")
        expect(page.locator("#leave-title")).to_have_text(_catalogue(language)["leave_title"])
        _texts_fit_and_speak(page, language, "leave")
        screenshot(page, f"leave-{language}-{size}")
        page.keyboard.press("Escape")
        expect(page.locator("#leave-dialog")).to_have_count(0)
    page.click("header .brand")
    page.click("#leave-go")
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator("#kept-seats h2")).to_have_text(_catalogue(language)["kept_title"])
        _texts_fit_and_speak(page, language, "kept seats")
        screenshot(page, f"kept-seats-{language}-{size}")
    # Quick match on a quiet server: the room says what happens next; the invite link, opened by someone
    # new, says whose room it is.
    page.click("#quick-match")
    page.wait_for_selector("#quick-wait")
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator("#quick-wait")).to_contain_text(_catalogue(language)["quick_wait_text"])
        _texts_fit_and_speak(page, language, "quick match")
        screenshot(page, f"quick-match-{language}-{size}")
    invitee = _page(browser, DESKTOP if size == "desktop" else PHONE, touch=size == "phone")
    invitee.goto(f"{server.url}/r/{page.evaluate('window.tilerummy.state.code')}")
    for language in LANGUAGES:
        _speak(invitee, language)
        host = _catalogue(language)["invite_from"].split("{name}")[-1]
        expect(invitee.locator("#invite-host")).to_contain_text(host)
        expect(invitee.locator("#invite-seats li")).to_have_count(2)
        expect(invitee.locator("#invite-status")).to_be_visible()
        _texts_fit_and_speak(invitee, language, "invite")
        screenshot(invitee, f"invite-{language}-{size}")
    _no_page_errors(invitee)
    invitee.context.close()

    # A game the player lost without a first play: their tiles left, why they pay, and the table behind.
    _take_seat(page, server, lost_game)
    expect(page.locator("#leftover-own .tile").first).to_be_visible()
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator(".score-note")).to_be_visible()
        _texts_fit_and_speak(page, language, "result with tiles left")
        screenshot(page, f"result-leftover-{language}-{size}")
    page.click("#result-close")
    for language in LANGUAGES:
        _speak(page, language)
        expect(page.locator("#show-result")).to_have_text(_catalogue(language)["result_show"])
        _texts_fit_and_speak(page, language, "final table")
        screenshot(page, f"final-table-{language}-{size}")

    # The finished game's room, watched: the result and its scores (the page's name is one it made up,
    # so the invite's page comes first, offering to watch).
    page.goto(f"{server.url}/r/{finished_game.split('-')[0]}")
    page.click("#join-invite")
    expect(page.locator("#scores")).to_be_visible()
    # The match's totals after its first round, and the wait for the next one.
    expect(page.locator("#match-totals tbody tr")).to_have_count(2)
    for language in LANGUAGES:
        _speak(page, language)
        caption = _catalogue(language)["match_totals"].replace("{n}", "1")
        expect(page.locator("#match-totals caption")).to_have_text(caption)
        # The browser hashed the revealed seed and salt: they match the commitment.
        expect(page.locator("#deal-check")).to_have_attribute("data-status", "verified")
        _texts_fit_and_speak(page, language, "result")
        screenshot(page, f"result-{language}-{size}")
    for language in LANGUAGES:
        _speak(page, language)
        # The analysis over the result: every player's missed chances, every turn, a best play drawn with tiles.
        page.click("#analyse")
        _soon(page, "#analysis-summary tbody tr:nth-child(2)", timeout=90_000)
        expect(page.locator("#analysis-summary tbody tr")).to_have_count(2)
        expect(page.locator("#analysis-turns li").first).to_be_visible()
        missed = page.locator(".analysis-turn.missed .best-play summary")
        if missed.count():
            missed.first.click()
            expect(page.locator(".analysis-turn.missed .best-table .tile").first).to_be_visible()
        _texts_fit_and_speak(page, language, "analysis")
        screenshot(page, f"analysis-{language}-{size}")
        page.keyboard.press("Escape")
        expect(page.locator("#analysis")).to_have_count(0)

    page.goto(f"{server.url}/replay/{finished_game}")
    for language in LANGUAGES:
        # The replay is drawn again from its first step in the new language.
        _speak(page, language)
        page.click("#replay-last")
        page.click("#move-log summary")
        expect(page.locator("#replay-scores")).to_be_visible()
        expect(page.locator("#replay-deal-check")).to_have_attribute("data-status", "verified")
        _texts_fit_and_speak(page, language, "replay")
        screenshot(page, f"replay-{language}-{size}")
        # The analysis in the replay: the turn shown has its verdict beside its line, the last step the summary.
        page.click("#replay-analyse")
        expect(page.locator("#replay-analysis")).to_be_visible(timeout=90_000)
        expect(page.locator(".replay-view #analysis-summary tbody tr")).to_have_count(2)
        page.click("#replay-first")
        expect(page.locator("#replay-analysis")).to_have_count(0)
        page.click("#replay-next")
        expect(page.locator("#replay-analysis")).to_contain_text(re.compile(r"[✓✗]"))
        _texts_fit_and_speak(page, language, "replay analysis")
        screenshot(page, f"replay-analysis-{language}-{size}")
    _no_page_errors(page)
    page.context.close()


def test_a_second_window_takes_the_seat_and_the_first_does_not_take_it_back(
    server: ThreadedServer, browser: Browser
) -> None:
    first = _page(browser, DESKTOP)
    first.goto(server.url)
    first.fill("#name", "Dora")
    first.click("#create-room")
    first.wait_for_selector("#invite")
    invite = first.input_value("#invite")
    # The same browser (the seat's token in its storage) opens the room in a second window.
    second = first.context.new_page()
    second.set_default_timeout(WAIT_MS)
    second.goto(invite)
    second.wait_for_selector("#invite")
    expect(first.locator("#play-here")).to_be_visible()
    expect(first.locator("#connection")).to_contain_text("another window")
    expect(second.locator("#play-here")).to_have_count(0)
    # Asked to, the first window plays here again, and the second is the one that steps aside.
    first.click("#play-here")
    expect(second.locator("#play-here")).to_be_visible()
    expect(first.locator("#play-here")).to_have_count(0)
    expect(first.locator("#invite")).to_have_value(invite)
    _no_page_errors(first)
