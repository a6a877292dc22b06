"""The status page in a real browser: Playwright driving Debian's Chromium against the waitress server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.actions import Expose, Parry, Play
from companion.games.pigzup.actions import Flip, MatchVerdict
from companion.games.registry import GAMES
from companion.table.live import LiveTable
from companion.table.observations import ButtonPress, CardSeen, PadReading, PileState
from companion.table.pigzup_judge import JudgeSettings
from companion.table.session import TableSession
from companion.vision.light import Light
from companion.vision.seats import seat_of_zone
from companion.web.server import WebServer, start_server
from companion.web.settings import WebSettings
from tests.web.clients import SSEClient
from tests.web.conftest import PIN, PLAYERS, legal_move, start

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
PHONE = {"width": 390, "height": 844}


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_scoreboard_updates_live(page: Page, server: WebServer, table: TableSession) -> None:
    serial = {"ok": True, "status": "connected", "port": "/dev/ttyACM0"}
    table.add_device("camera", lambda: {"connected": True, "last_error": None, "fps": 14.5})
    table.add_device("serial", lambda: dict(serial))
    start(table)
    page.goto(server.url)
    expect(page.locator("#game-title")).to_have_text("Corgi Pileup")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("#scores tbody tr")).to_have_count(3)
    serial_item, camera_item = (page.locator("#devices li", has_text=name) for name in ("serial", "camera"))
    expect(serial_item).to_contain_text("serial: connected")
    expect(camera_item).to_have_attribute("data-ok", "true")
    expect(camera_item).to_contain_text("fps 14.5")
    table.submit(legal_move(table), source="camera")
    latest = table.snapshot()["recent"][-1]["text"]
    expect(page.locator("#recent li").first).to_contain_text(latest)
    expect(page.locator("#prompt")).to_have_text(table.snapshot()["scoreboard"]["prompt"])
    serial.update(ok=False, status="disconnected", message="Pico not found on /dev/ttyACM0 — is the cable in?")
    expect(page.locator("#devices li .fault")).to_have_text("Pico not found on /dev/ttyACM0 — is the cable in?")
    expect(serial_item).to_have_attribute("data-ok", "false")
    shot(page, "scoreboard-live")


def test_a_camera_that_cannot_see_well_says_why_in_the_commands_words(page: Page, server: WebServer,
                                                                     table: TableSession) -> None:
    """The watcher's health carries the light (companion/vision/light.py): a problem turns the camera's entry red
    with the same sentence ``cards recognize`` and ``companion calibrate camera`` print."""
    light = Light((79.0, 80.0, 78.0), edge_px=3.2).as_json()
    dark = light["problems"][0]
    assert dark.startswith("Too dark: white card reads 80 of 255")
    camera = {"ok": True, "message": "camera 0: ok", "mat_registered": True, "light": light}
    table.add_device("camera", lambda: dict(camera))
    page.goto(server.url)
    item = page.locator("#devices > li", has_text="camera")
    expect(item).to_have_attribute("data-ok", "false")
    expect(item.locator(".fault")).to_have_text(f"The camera cannot see well enough to name cards. {dark}.")
    expect(item).to_contain_text("light 80 of 255, colour cast 1.03x, edges 3.2 px")
    camera["light"] = {**light, "level": 200, "problems": []}
    expect(item).to_have_attribute("data-ok", "true")
    expect(item.locator(".fault")).to_have_count(0)


def test_the_device_panel_lists_the_doctors_checks_with_their_fixes(page: Page, server: WebServer,
                                                                    table: TableSession) -> None:
    """The running table's checks (companion/devices/doctor_live.py) under their device entry."""
    table.add_device("checks", lambda: {
        "ok": False, "status": "1 to fix", "message": "pad 5: never calibrated", "checked_at": "20:15:02",
        "checks": [{"name": "disk", "ok": True, "level": "ok", "detail": "2,048 MB free on /var/lib", "fix": ""},
                   {"name": "pad 5", "ok": False, "level": "FAIL", "detail": "never calibrated",
                    "fix": "companion calibrate pads --pad 5"}],
    })
    page.goto(server.url)
    item = page.locator("#devices > li", has_text="checks")
    expect(item).to_have_attribute("data-ok", "false")
    rows = item.locator(".checks li")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-ok", "true")
    expect(rows.nth(0)).to_have_text("disk: 2,048 MB free on /var/lib")
    expect(rows.nth(1)).to_have_attribute("data-ok", "false")
    expect(rows.nth(1).locator(".fault")).to_have_text("fix: companion calibrate pads --pad 5")
    expect(item).not_to_contain_text("[object Object]")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_renders_from_its_snapshot(page: Page, server: WebServer, table: TableSession, game: str) -> None:
    ruleset = GAMES[game]
    players = PLAYERS[: max(ruleset.min_players, 2)]
    table.start_game(GameSetup(game, players, full_information=True), source="test")
    for _ in range(5):
        table.submit(ruleset.legal_actions(table.state)[0], source="test")
    page.goto(server.url)
    expect(page.locator("#game-title")).to_have_text(ruleset.title)
    expect(page.locator("#scores tbody tr")).to_have_count(len(table.snapshot()["scoreboard"]["rows"]))
    expect(page.locator("#prompt")).to_have_text(table.snapshot()["scoreboard"]["prompt"])
    shot(page, f"game-{game}")


def test_reconnects_after_the_server_restarts(page: Page, table: TableSession, settings: WebSettings) -> None:
    first = start_server(table, settings, host="127.0.0.1", port=0)
    start(table)
    page.goto(first.url)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    first.stop()
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "live")
    table.submit(legal_move(table), source="camera")  # happens while the page is cut off
    second = start_server(table, settings, host="127.0.0.1", port=first.port)
    try:
        expect(page.locator("#connection")).to_have_attribute("data-state", "live", timeout=10_000)
        expect(page.locator("#recent li").first).to_contain_text(table.snapshot()["recent"][-1]["text"])
    finally:
        second.stop()


def test_a_finished_game_shows_the_winner_and_tie_break(page: Page, server: WebServer, table: TableSession) -> None:
    start(table)
    while table.status() == "playing":
        table.submit(legal_move(table), source="bot")
    outcome = table.snapshot()["outcome"]
    page.goto(server.url)
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator("#outcome strong")).to_contain_text(" and ".join(outcome["winners"]))
    expect(page.locator("#outcome")).to_contain_text(outcome["reason"])
    if outcome["tie_break"]:
        expect(page.locator("#outcome")).to_contain_text(outcome["tie_break"])
    expect(page.locator("#recent li")).to_have_count(10)
    shot(page, "scoreboard-finished")
    page.get_by_role("link", name="The whole game, move by move").click()
    expect(page.locator("h1")).to_have_text(f"Game {table.game_id}: Corgi Pileup")
    expect(page.locator(".log li").last).to_contain_text(table.snapshot()["recent"][-1]["text"])


def test_falls_back_to_polling_when_streams_are_full(page: Page, table: TableSession, pin_hash: str) -> None:
    running = start_server(table, WebSettings(pin_hash=pin_hash, threads=9), host="127.0.0.1", port=0)
    holder = SSEClient.open(running)  # takes the only streaming slot
    try:
        start(table)
        page.goto(running.url)
        expect(page.locator("#connection")).to_have_attribute("data-state", "polling")
        table.submit(legal_move(table), source="camera")
        expect(page.locator("#recent li").first).to_contain_text(table.snapshot()["recent"][-1]["text"])
    finally:
        holder.close()
        running.stop()


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_referee_unlocks_starts_moves_and_undoes(page: Page, server: WebServer, table: TableSession) -> None:
    page.goto(server.url + "referee")
    page.get_by_label("Referee PIN").fill("0000")
    page.get_by_role("button", name="Unlock").click()
    expect(page.locator("#referee-message")).to_contain_text("That PIN is wrong")
    page.get_by_label("Referee PIN").fill(PIN)
    page.get_by_label("Referee PIN").press("Enter")
    expect(page.locator("#controls")).to_be_visible()

    page.get_by_label("Game", exact=True).select_option("corgi-pileup")
    page.get_by_label("Variant").select_option("standard")
    page.get_by_label("Seat 1", exact=True).fill("Emily")
    page.get_by_label("Seat 2", exact=True).fill("Peter")
    page.get_by_label("Who leads the first trick").select_option(label="Peter (seat 2)")
    page.get_by_role("button", name="Start the game").click()
    start_note = page.locator("#start-form > .note")
    expect(start_note).to_contain_text("started")
    expect(page.locator("#scores tbody th")).to_have_text(["Emily", "Peter"])
    assert table.snapshot()["players"] == ["Emily", "Peter"]
    assert table.game.setup.options == {"first_leader": 1}  # a field, not JSON

    note = page.locator("#action-form > .note")
    page.get_by_label("What happened").select_option("play")
    expect(page.get_by_label("Who", exact=True)).to_have_value("1")  # whoever is to play: Peter leads
    page.get_by_role("button", name="5", exact=True).click()  # tap the card
    page.get_by_role("button", name="Enter the move").click()
    expect(note).to_have_text("Move entered.")
    expect(page.locator("#recent li").first).to_contain_text("Peter led a 5")
    shot(page, "referee-move")

    expect(page.get_by_label("Who", exact=True)).to_have_value("0")  # the form moved on to Emily
    page.get_by_label("Who", exact=True).select_option(label="Peter (seat 2)")
    page.get_by_role("button", name="6", exact=True).click()
    page.get_by_role("button", name="Enter the move").click()  # Peter again, out of turn
    expect(note).to_contain_text("It is Emily's turn")  # the rule's own words, beside the button
    expect(page.locator("#warnings")).to_contain_text("It is Emily's turn")  # and everyone sees why
    page.get_by_role("button", name="Load the last move to correct it").click()
    expect(note).to_contain_text("Loaded “Peter led a 5.”")
    expect(page.locator("#field-card")).to_have_value("5")
    page.get_by_role("button", name="7", exact=True).click()
    page.get_by_role("button", name="Replace the last move with this").click()
    expect(note).to_have_text("The last move was replaced.")
    expect(page.locator("#recent li").first).to_contain_text("Peter led a 7")

    page.get_by_role("button", name="Undo the last move").click()
    expect(page.locator("#undo-box > .note")).to_have_text("The last move was undone.")
    expect(page.locator("#recent")).not_to_contain_text("Peter led")
    assert [m["text"] for m in table.snapshot()["recent"]] == ["Round 1: 5 cards dealt to each player."]


def test_ending_a_game_asks_first(page: Page, server: WebServer, table: TableSession) -> None:
    start(table)
    page.goto(server.url + "referee")
    page.get_by_label("Referee PIN").fill(PIN)
    page.get_by_role("button", name="Unlock").click()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="End the game").click()
    expect(page.locator("#end-form > .note")).to_have_text("The game goes on.")
    assert table.status() == "playing"
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End the game").click()
    expect(page.locator("#end-form > .note")).to_have_text("The game was ended.")
    assert table.status() == "abandoned"


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_usable_at_phone_width(page: Page, server: WebServer, table: TableSession) -> None:
    start(table, players=("Emily", "Peter", "Taylor", "Amy", "Jordan"))
    table.submit(legal_move(table), source="camera")
    def fits(name: str) -> None:
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at phone width"
        shot(page, name)

    pages = (("", "phone-scoreboard", "#scores"), ("referee", "phone-referee", "#unlock-form"),
             ("history", "phone-history", "main table"), ("players", "phone-players", "main table"))
    for path, name, ready in pages:
        page.goto(server.url + path)
        expect(page.locator(ready)).to_be_visible()
        fits(name)
    page.goto(server.url + "referee")
    page.get_by_label("Referee PIN").fill(PIN)
    page.get_by_role("button", name="Unlock").click()
    expect(page.locator("#action-form")).to_be_visible()
    fits("phone-referee-unlocked")
    page.goto(server.url)
    expect(page.locator("#scores tbody tr")).to_have_count(5)
    assert float(page.locator("#prompt").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 18
    page.keyboard.press("Tab")
    expect(page.locator(".skip")).to_be_focused()  # keyboard users can jump past the navigation


@contextmanager
def race_called(page: Page, server: WebServer, table: TableSession, traces: Path | None = None) -> Iterator[LiveTable]:
    """A PigzUp! table whose camera saw Ann and Ben flip matching cards, shown on ``page``: the race is on."""
    table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    live = LiveTable(table, seat_of_zone, settings={"pigzup": JudgeSettings(hold_seconds=1.5)}, traces=traces).start()
    try:
        page.goto(server.url)
        live.observe(CardSeen("seat-1", "3-pink-blue", 0.9))
        live.observe(CardSeen("seat-4", "3-blue-green", 0.9))
        expect(page.locator("#match-call")).to_have_text("Ben vs Ann: 3 piggies!")
        yield live
    finally:
        live.stop()


def test_a_pigzup_race_shows_live_with_the_hold_countdown_and_verdict(page: Page, server: WebServer,
                                                                      table: TableSession) -> None:
    with race_called(page, server, table) as pigzup:
        expect(page.locator("#table-piles img.card")).to_have_count(2)  # the cards just flipped, as cards
        expect(page.locator("#table-piles img.card").nth(1)).to_have_attribute("alt", "3-blue-green")
        tops = page.locator("#scores td.faces img.card")  # the scoreboard's "Top card" is drawn too
        expect(tops).to_have_count(2)
        expect(tops.nth(0)).to_have_attribute("alt", "3-pink-blue")
        now = time.monotonic()
        for count in (1, 2):
            pigzup.observe(PadReading(1, PileState.BUILDING, count, now - 0.3 + count / 10))
        pigzup.observe(PadReading(1, PileState.STABLE, 3, now))
        pigzup.observe(ButtonPress(1, now))
        expect(page.locator("#match-pads li").first.locator("svg.spark polyline")).to_have_count(1)
        expect(page.locator("#match-pads li").first).to_contain_text("Ben3 piggies, steady")
        expect(page.locator("#match-hold")).to_contain_text("Ben shouted PIGZUP! Hold…")
        expect(page.locator("#match-bar")).to_be_visible()  # the hold as a bar that runs out
        shot(page, "pigzup-hold")
        pigzup.observe(PadReading(1, PileState.TOPPLED, 3, now + 0.5))
        expect(page.locator("#match-verdict")).to_have_text("Ann wins: Ben's pile toppled 0.50 s after the shout.")
        expect(page.locator("#recent li").first).to_contain_text("Ann wins the match.")
        expect(page.locator("#stats tbody tr").first).to_contain_text("Ann")


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_the_live_verdict_links_to_its_race_drawn_once_the_trace_is_written(page: Page, table: TableSession,
                                                                             settings: WebSettings,
                                                                             tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    server = start_server(table, settings, host="127.0.0.1", port=0, traces=traces)
    try:
        with race_called(page, server, table, traces) as pigzup:
            expect(page.locator("#match-picture")).to_be_hidden()  # no verdict yet
            now = time.monotonic()
            for step, (pile, grams) in enumerate(((PileState.STABLE, 60.0), (PileState.TOPPLED, 12.0))):
                pigzup.observe(PadReading(1, pile, 3, now + step * 0.5, grams=grams))
                if not step:
                    pigzup.observe(ButtonPress(1, now))
            expect(page.locator("#match-verdict")).to_have_text("Ann wins: Ben's pile toppled 0.50 s after the shout.")
            link = page.locator("#match-picture a")
            expect(link).to_have_attribute("href", f"/history/{table.game_id}/race/0.png")
            assert (traces / f"game-{table.game_id}-match-0.jsonl").is_file()
            fits(page, "phone-verdict-picture-link")
            drawn = page.request.get(server.url + str(link.get_attribute("href")).lstrip("/"))
            assert drawn.ok and drawn.headers["content-type"] == "image/png"
    finally:
        server.stop()


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_the_table_asks_on_a_phone_and_the_player_answers_with_a_tap(page: Page, server: WebServer,
                                                                     table: TableSession) -> None:
    table.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    live = LiveTable(table, seat_of_zone).start()
    try:
        page.goto(server.url)
        for frame, face in enumerate(("2", "3", "6"), 1):
            live.observe(CardSeen("centre", face, 0.9, frame))
        expect(page.locator("#table-centre img.card")).to_have_count(3)
        expect(page.locator("#table-centre img.card").nth(2)).to_have_attribute("alt", "6")
        ask = page.locator(".ask")
        expect(ask.locator(".question")).to_contain_text("Cai won the trick with a 6")
        expect(ask.locator("button.answer")).to_have_count(3)
        box = ask.locator("button.answer").first.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
        shot(page, "phone-table-asks")
        ask.locator("button.answer", has_text="Ben").click()
        expect(page.locator(".ask")).to_have_count(0)
        expect(page.locator("#recent li").first).to_contain_text("Cai chose Ben to discard and draw.")
        assert table.state.six_target == 1
    finally:
        live.stop()


def test_crazy_corgi_kennels_show_on_the_status_page_as_the_cards_land(page: Page, server: WebServer,
                                                                       table: TableSession) -> None:
    table.start_game(GameSetup("crazy-corgi", ("Ana", "Ben")), source="test")
    live = LiveTable(table, seat_of_zone).start()
    try:
        page.goto(server.url)
        for frame, (zone, face) in enumerate((("centre", "red-2-fawn"), ("centre", "blue-3-fawn"),
                                              ("seat-1/kennel-2", "red-2-fawn")), 1):
            live.observe(CardSeen(zone, face, 0.9, frame))
        pile = page.locator('#table-piles [data-zone="seat-1/kennel-2"]')
        expect(pile).to_contain_text("Ana, Kennel 2:")
        expect(pile.locator("img.card")).to_have_attribute("alt", "red-2-fawn")
        kennel = page.locator("#scores tbody tr").first.locator("td.faces")  # Kennel 2, as a card and in words
        expect(kennel.locator("img.card")).to_have_attribute("alt", "red-2-fawn")
        expect(kennel.locator(".sr-only")).to_have_text("red 2 (fawn)")
        expect(kennel).to_have_attribute("title", "red 2 (fawn)")
        shot(page, "crazy-corgi-kennels")
    finally:
        live.stop()


def test_a_card_a_fighter_pierced_is_drawn_marked_with_its_word(page: Page, server: WebServer,
                                                                table: TableSession) -> None:
    table.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben"), "original", {"first_player": 0}), source="test")
    for move in (Play(0, ("earth-5",), None), Parry(1, None), Expose(1, "void-9")):  # Ana's Fighter pierces
        assert table.submit(move, source="test").kind == "action"
    page.goto(server.url)
    exposed = page.locator("#scores tbody tr").nth(1).locator("td.faces")
    expect(exposed.locator(".card.marked img.card")).to_have_attribute("alt", "void-9 (pierced)")
    expect(exposed.locator(".card.marked")).to_have_attribute("data-mark", "pierced")  # drawn across the card
    expect(exposed.locator(".sr-only")).to_have_text("Void 9 (Assassin) (pierced)")
    shot(page, "clash-pierced")


def test_capture_grids_draw_rested_cards_sideways_hidden_ones_face_down_and_empty_places(
        page: Page, server: WebServer, table: TableSession) -> None:
    table.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben"), "capture", {"first_player": 0},
                               seats=("seat-2", "seat-5")), source="test")
    live = LiveTable(table, seat_of_zone).start()
    try:
        page.goto(server.url)
        live.observe(CardSeen("seat-2/front-1", "fire-4", 0.9, 1))  # Ana's Monk: activated, then rested
        live.observe(CardSeen("seat-5/front-1", "water-9", 0.9, 2))  # Ben's card it reveals (his column 1)
        piles = page.locator("#table-piles .cards")
        ana_front = piles.filter(has_text="Ana: front row")
        rested = ana_front.locator("img.card").first
        expect(rested).to_have_attribute("alt", "fire-4")
        expect(rested).to_have_class("card sideways")
        hidden = ana_front.get_by_role("img", name="a card face down")
        expect(hidden).to_have_count(3)
        ben_front = piles.filter(has_text="Ben: front row")
        expect(ben_front.locator("img.card")).to_have_attribute("class", "card")  # revealed: upright
        expect(piles.filter(has_text="Ana: exposed row").get_by_role("img", name="an empty place")).to_have_count(4)
        shape = page.evaluate("""(els) => els.map((e) => { const r = e.getBoundingClientRect();
            return r.width > r.height ? "wide" : "tall"; })""",
                              [rested.element_handle(), hidden.first.element_handle(),
                               ben_front.locator("img.card").element_handle()])
        assert shape == ["wide", "tall", "tall"], "a rested card is drawn turned a quarter, the others upright"
        shot(page, "capture-grids")
    finally:
        live.stop()


DESKTOP = {"width": 1280, "height": 800}
NOT_CUT_OFF = """() => {
  const wide = document.documentElement.scrollWidth - window.innerWidth;
  const clipped = [...document.querySelectorAll("main *")].filter((e) => {
    if (e.closest(".scroll, .grid, svg") || !e.getClientRects().length) return false;
    const r = e.getBoundingClientRect();
    return r.right > window.innerWidth + 1 || r.left < -1;
  }).map((e) => e.id || e.className || e.tagName);
  return { wide, clipped: clipped.slice(0, 5) };
}"""


def fits(page: Page, name: str) -> None:
    """Nothing scrolls the page sideways or sticks out of it (wide tables scroll inside their own box)."""
    result = page.evaluate(NOT_CUT_OFF)
    shot(page, name)  # also when it does not fit: the picture shows what sticks out
    assert result["wide"] <= 0 and not result["clipped"], f"{name}: {result}"


@pytest.mark.parametrize("page", [PHONE, DESKTOP], indirect=True, ids=["phone", "desktop"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_of_every_game_fits(page: Page, server: WebServer, table: TableSession, game: str) -> None:
    ruleset = GAMES[game]
    table.start_game(GameSetup(game, PLAYERS[: max(ruleset.min_players, 2)], full_information=True), source="test")
    for _ in range(30):  # well into the game: cards on the table, scores, a race or two
        if table.status() != "playing" or not ruleset.legal_actions(table.state):
            break
        table.submit(ruleset.legal_actions(table.state)[-1], source="bot")
    size = "phone" if page.viewport_size["width"] < 500 else "desktop"
    for path, ready in (("", "#scores tbody tr"), (f"history/{table.game_id}", ".log li"), ("history", "main table"),
                        ("players", "main h1")):
        page.goto(server.url + path)
        expect(page.locator(ready).first).to_be_visible()
        fits(page, f"{size}-{game}-{path.split('/')[0] or 'scoreboard'}")
    page.goto(server.url + "referee")
    page.get_by_label("Referee PIN").fill(PIN)
    page.get_by_role("button", name="Unlock").click()
    expect(page.locator("#action-form")).to_be_visible()
    expect(page.locator("#action-fields .stack").first).to_be_visible()
    fits(page, f"{size}-{game}-referee")
    for _ in range(600):  # on to the end of the game (or as far as a few hundred moves go)
        if table.status() != "playing" or not ruleset.legal_actions(table.state):
            break
        table.submit(ruleset.legal_actions(table.state)[0], source="bot")
    page.goto(server.url)
    expect(page.locator("#scores tbody tr").first).to_be_visible()
    fits(page, f"{size}-{game}-scoreboard-later")


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_a_referee_overrules_an_old_verdict_from_a_phone(page: Page, server: WebServer, table: TableSession) -> None:
    table.start_game(GameSetup("pigzup", ("Ann", "Ben")), source="test")
    table.submit(Flip(0, "3-pink-blue"), source="camera")
    table.submit(Flip(1, "3-blue-green"), source="camera")
    verdict = table.submit(MatchVerdict(0, "Ann's pile stood"), source="judge")
    table.submit(Flip(0, "2-pink-pink"), source="camera")
    page.goto(server.url + "referee")
    page.get_by_label("Referee PIN").fill(PIN)
    page.get_by_role("button", name="Unlock").click()
    expect(page.locator("#action-form")).to_be_visible()
    page.goto(server.url + f"history/{table.game_id}")
    page.locator(f'.log li[value="{verdict.seq}"]').get_by_role("link", name="Overrule").click()
    expect(page.locator("#overrule-banner")).to_contain_text(f"Overruling #{verdict.seq}")
    expect(page.get_by_label("Winner")).to_have_value("0")
    page.get_by_label("Winner").select_option(label="Ben (seat 2)")
    page.get_by_label("Why (a few words)").fill("Ann's pile wobbled")
    fits(page, "phone-overrule")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Put this in its place").click()
    expect(page.locator("#action-form > .note")).to_contain_text(f"Move #{verdict.seq} was overruled")
    assert "undoes 1 later move" in asked[0] and "Ann flipped 2 pink/pink" in asked[0]
    assert table.state.results[-1].winner == 1
    expect(page.locator("#recent li").first).to_contain_text("Ben wins")


@pytest.mark.parametrize("page", [PHONE], indirect=True)
def test_a_pad_fault_waits_for_the_referee_and_the_device_is_not_green(page: Page, server: WebServer,
                                                                        table: TableSession) -> None:
    table.add_device("serial", lambda: {"ok": True, "status": "connected", "last_frame_age_s": 300.0})
    with race_called(page, server, table) as live:
        live.observe(PadReading(0, PileState.FAULT, 0, time.monotonic()))
        expect(page.locator("#match-title")).to_have_text("Waiting for the referee")
        expect(page.locator("#prompt")).to_have_text("The table waits for the referee to decide the match.")
        expect(page.locator("#match-verdict")).to_contain_text("The referee decides:")  # no winner named
        serial = page.locator("#devices li", has_text="serial")
        expect(serial).to_have_attribute("data-ok", "false")
        expect(serial).to_contain_text("Nothing heard for 5 minutes.")
        fits(page, "phone-pad-fault")
