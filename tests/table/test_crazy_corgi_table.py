"""Crazy Corgi refereed from the camera: reveals in the draw zone, cards arriving in Kennels, Kennels cleared; the
rules decide, and the table asks the players (or the referee) what the cards cannot show (rulings CC-18 to CC-22)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import GameSetup
from companion.games.crazy_corgi.state import Phase
from companion.table.live import LiveTable
from companion.table.log import EventLog
from companion.table.observations import CardGone, CardUnreadable
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone
from tests.table.conftest import Camera, Lights

ANA, BEN, CAI = 0, 1, 2  # seat-1, seat-3, seat-5 on the mat at a table of three
PLACE = {ANA: "seat-1", BEN: "seat-3", CAI: "seat-5"}


def kennel(seat: int, k: int) -> str:
    """The zone of Kennel ``k`` (1-3) of ``seat``, as the Crazy Corgi mat names it."""
    return f"{PLACE[seat]}/kennel-{k}"


def start(session: TableSession, lights: Lights | None = None, **options: Any) -> tuple[LiveTable, Camera]:
    session.start_game(GameSetup("crazy-corgi", ("Ana", "Ben", "Cai"), options=options), source="test")
    table = LiveTable(session, seat_of_zone, announcer=lights)
    table.drain()
    return table, Camera(table)


@pytest.fixture
def table(session: TableSession, lights: Lights) -> LiveTable:
    return start(session, lights)[0]


def moves(session: TableSession, since: int = 0) -> list[tuple[str, dict]]:
    """(source, action) of every move but the shuffle, from the ``since``-th on."""
    events = [e for e in session.log.events(session.game_id) if e.kind == "action" and e.source != "chance"]
    return [(e.source, e.payload) for e in events[since:]]


def actions(session: TableSession, since: int = 0) -> list[dict]:
    return [payload for _source, payload in moves(session, since)]


def typed(session: TableSession, seat: int, placed: list[tuple[str, int]]) -> None:
    """A whole turn entered by hand: ``seat`` reveals the cards, stops and places each in its Kennel (1-3)."""
    for card, _k in placed:
        assert not hasattr(session.submit({"type": "reveal", "player": seat, "card": card}, "web"), "code")
    assert not hasattr(session.submit({"type": "stop", "player": seat}, "web"), "code")
    for card, k in placed:
        assert not hasattr(session.submit({"type": "place", "player": seat, "card": card, "kennel": k - 1}, "web"),
                           "code")


ROUNDS = ((("purple", 1, 1), ("purple", 2, 1)), (("purple", 3, 1), ("purple", 4, 1)),
          (("yellow", 5, 2), ("yellow", 4, 2)))  # (colour, number, Kennel 1-3) of the two cards of each round


def others_play_a_round(session: TableSession, n: int) -> None:
    """Ben and Cai each take a turn with their cards of ``ROUNDS[n]`` (fawn for Ben, black for Cai)."""
    for seat, fur in ((BEN, "fawn"), (CAI, "black")):
        typed(session, seat, [(f"{colour}-{number}-{fur}", k) for colour, number, k in ROUNDS[n]])


def open_prompt(session: TableSession, about: str):
    (prompt,) = [p for p in session.prompts.open() if p.about == about]
    return prompt


# ------------------------------------------------------------------------------------------- the draw (CC-18)
def test_a_card_in_the_draw_zone_is_the_drawers_reveal(session, table) -> None:
    Camera(table).lands("red-2-fawn")
    assert moves(session) == [("camera (centre)", {"type": "reveal", "player": ANA, "card": "red-2-fawn"})]
    assert table.view()["centre"] == ["red-2-fawn"]
    assert session.snapshot()["live"]["table"]["centre"] == ["red-2-fawn"]


def test_the_drawer_moving_a_drawn_card_into_a_kennel_has_stopped_and_places_it(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("yellow-4-fawn")
    camera.lands("red-2-fawn", zone=kennel(ANA, 1))  # Ana starts placing: she stopped
    assert actions(session)[2:] == [{"type": "stop", "player": ANA},
                                    {"type": "place", "player": ANA, "card": "red-2-fawn", "kennel": 0}]
    camera.gone("red-2-fawn")  # it leaves the draw zone after the camera saw it arrive in the Kennel
    camera.lands("yellow-4-fawn", zone=kennel(ANA, 2))
    assert session.state.kennels[ANA] == [["red-2-fawn"], ["yellow-4-fawn"], []]
    assert session.state.turn == BEN and session.state.phase is Phase.DRAW
    assert [(pile["label"], pile["cards"]) for pile in table.view()["piles"]] == [
        ("Ana, Kennel 1", ["red-2-fawn"]), ("Ana, Kennel 2", ["yellow-4-fawn"])]
    board = session.snapshot()["scoreboard"]
    assert board["rows"][ANA]["cells"][1:3] == ["red 2 (fawn)", "yellow 4 (fawn)"]


def test_stopping_is_the_drawers_own_choice_asked_on_their_phone(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    assert [p.about for p in session.prompts.open()] == []  # one card: stopping is not allowed yet
    camera.lands("yellow-4-fawn")
    prompt = open_prompt(session, "stop")
    assert prompt.seat == ANA and "stop drawing and keep the red 2 (fawn) and yellow 4 (fawn)" in prompt.question
    session.prompts.answer(prompt.id, 0, by="Ana's phone", referee=False)
    table.drain()
    assert session.state.phase is Phase.PLACE and session.state.placer == ANA
    assert session.prompts.open() == []


def test_the_bowls_stop_is_asked_even_with_no_card_drawn(session, table) -> None:
    Camera(table).lands("event-bowl")
    prompt = open_prompt(session, "stop")
    assert prompt.seat == ANA and prompt.question.startswith("Bowl: Ana peeked at the top card")
    session.prompts.answer(prompt.id, 0, by="Ana", referee=False)
    table.drain()
    assert session.state.turn == BEN  # she took no card: the turn passes


def test_a_stop_before_two_cards_is_refused_until_the_card_goes_back(session, table, lights) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("red-2-fawn", zone=kennel(ANA, 1))  # too early to stop
    assert len(moves(session)) == 1
    objection = table.view()["objection"]
    assert objection["seat"] == ANA and "at least 2 cards" in objection["message"]
    assert ("refused", (ANA,)) in lights.calls
    camera.gone("red-2-fawn", zone=kennel(ANA, 1))  # back into the draw zone
    assert table.view()["objection"] is None
    camera.lands("red-2-fawn")  # seen again where it belongs: nothing new
    camera.lands("blue-3-black")
    assert [a["card"] for a in actions(session)] == ["red-2-fawn", "blue-3-black"]


def test_a_card_that_breaks_a_kennels_set_is_flagged_with_the_rule_and_put_right(session, table) -> None:
    typed(session, ANA, [("red-2-fawn", 1), ("red-3-fawn", 1)])
    others_play_a_round(session, 0)
    camera = Camera(table)
    camera.lands("green-3-black")
    camera.lands("green-5-fawn")
    camera.lands("green-3-black", zone=kennel(ANA, 1))
    assert table.view()["objection"]["message"] == (
        "Ana places the green 3 (black) in Kennel 1. A Kennel holds one set: the red 2 (fawn) and the red 3 (fawn) "
        "can only make a set of different numbers or a same-colour set, so a green 3 (black) cannot go in.")
    assert session.state.kennels[ANA][0] == ["red-2-fawn", "red-3-fawn"]
    camera.gone("green-3-black", zone=kennel(ANA, 1))
    camera.lands("green-3-black", zone=kennel(ANA, 2))
    assert session.state.kennels[ANA][1] == ["green-3-black"] and table.view()["objection"] is None


# ------------------------------------------------------------------------------------------- busts (CC-19, CC-21)
def test_the_busts_recipient_is_asked_of_the_drawer_or_shown_by_where_the_cards_go(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("blue-2-fawn")  # bust
    prompt = open_prompt(session, "give")
    assert prompt.seat == ANA and [o.label for o in prompt.options] == ["Ben", "Cai"]
    camera.lands("red-2-fawn", zone=kennel(CAI, 1))  # the cards go to Cai, who places them
    assert actions(session)[2:] == [{"type": "give", "player": ANA, "to": CAI},
                                    {"type": "place", "player": CAI, "card": "red-2-fawn", "kennel": 0}]
    assert session.prompts.open() == []
    camera.lands("blue-2-fawn", zone=kennel(CAI, 1))
    assert session.state.kennels[CAI][0] == ["red-2-fawn", "blue-2-fawn"] and session.state.turn == BEN


def test_the_busts_recipient_answered_from_the_drawers_phone(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("blue-2-fawn")
    session.prompts.answer(open_prompt(session, "give").id, 0, by="Ana", referee=False)
    table.drain()
    assert session.state.placer == BEN and session.state.to_place == ["red-2-fawn", "blue-2-fawn"]


# ------------------------------------------------------------------------------------------- Kennels (CC-20)
def test_a_completed_set_scores_and_clearing_it_records_nothing(session, table) -> None:
    typed(session, ANA, [("red-1-fawn", 1), ("red-2-fawn", 1)])
    others_play_a_round(session, 0)
    typed(session, ANA, [("red-3-fawn", 1), ("red-4-fawn", 1)])
    others_play_a_round(session, 1)
    done = len(moves(session))
    camera = Camera(table)
    camera.lands("red-5-fawn")
    camera.lands("yellow-1-black")
    camera.lands("red-5-fawn", zone=kennel(ANA, 1))  # the fifth red, all fawn
    assert session.state.points[ANA] == 3 and session.state.kennels[ANA][0] == []
    assert "Ana scores all the same colour, all fawn: 3 points." in table.view()["said"]
    assert session.snapshot()["scoreboard"]["rows"][ANA]["cells"][-1] == "1 large"
    camera.cleared(kennel(ANA, 1))  # the set goes onto the discard pile
    assert len(moves(session)) == done + 4  # 2 reveals, the stop, the place: nothing for the clearing
    camera.lands("yellow-1-black", zone=kennel(ANA, 1))  # the emptied Kennel starts a new set
    assert session.state.kennels[ANA][0] == ["yellow-1-black"] and session.state.turn == BEN


def misfit_setup(session: TableSession, camera: Camera) -> None:
    """Ana's Kennels hold red, blue and green 1-2s; she draws a yellow 1 (fits none) and a yellow 3."""
    for n, colour in enumerate(("red", "blue", "green")):
        typed(session, ANA, [(f"{colour}-1-fawn", n + 1), (f"{colour}-2-fawn", n + 1)])
        others_play_a_round(session, n)
    camera.lands("yellow-1-fawn")
    camera.lands("yellow-3-fawn")
    session.submit({"type": "stop", "player": ANA}, "web")
    camera.table.drain()


def test_a_kennel_cleared_for_a_card_that_fits_nowhere_is_the_forced_discard(session, table) -> None:
    camera = Camera(table)
    misfit_setup(session, camera)
    camera.lands("yellow-1-fawn", zone=kennel(ANA, 2))  # on top of the blues: it fits no Kennel
    assert "cannot go in" in table.view()["objection"]["message"]
    camera.gone("yellow-1-fawn", zone=kennel(ANA, 2))
    camera.cleared(kennel(ANA, 2))  # Ana discards her blue Kennel
    assert actions(session)[-1] == {"type": "discard-kennel", "player": ANA, "kennel": 1}
    camera.lands("yellow-1-fawn", zone=kennel(ANA, 2))
    camera.lands("yellow-3-fawn", zone=kennel(ANA, 2))
    assert session.state.kennels[ANA] == [["red-1-fawn", "red-2-fawn"], ["yellow-1-fawn", "yellow-3-fawn"],
                                          ["green-1-fawn", "green-2-fawn"]]
    assert session.state.discard[-2:] == ["blue-1-fawn", "blue-2-fawn"]


def test_a_kennels_cards_gone_before_the_misfit_lands_are_the_discard_even_before_the_zone_clears(
        session, table) -> None:
    camera = Camera(table)
    misfit_setup(session, camera)
    camera.gone("green-2-fawn", zone=kennel(ANA, 3))
    camera.gone("green-1-fawn", zone=kennel(ANA, 3))
    camera.lands("yellow-1-fawn", zone=kennel(ANA, 3))  # the tracker never saw the zone empty
    assert actions(session)[-2:] == [{"type": "discard-kennel", "player": ANA, "kennel": 2},
                                     {"type": "place", "player": ANA, "card": "yellow-1-fawn", "kennel": 2}]


def test_a_kennel_cleared_when_no_discard_is_due_is_flagged_until_its_cards_are_back(session, table) -> None:
    typed(session, ANA, [("red-1-fawn", 1), ("red-2-fawn", 1)])
    camera = Camera(table)
    camera.cleared(kennel(ANA, 1))
    objection = table.view()["objection"]
    assert objection["seat"] == ANA and "put them back" in objection["message"]
    camera.lands("red-1-fawn", zone=kennel(ANA, 1))
    assert table.view()["objection"] is None and session.state.kennels[ANA][0] == ["red-1-fawn", "red-2-fawn"]


# ------------------------------------------------------------------------------------------- Events (CC-19, CC-21)
def test_fleas_the_stolen_card_arriving_in_the_drawers_kennel_is_the_steal(session, table) -> None:
    typed(session, ANA, [("red-1-fawn", 1), ("red-2-fawn", 1)])
    typed(session, BEN, [("green-5-black", 2), ("green-4-black", 2)])
    typed(session, CAI, [("blue-3-black", 1), ("blue-4-black", 1)])
    camera = Camera(table)
    camera.lands("event-fleas")
    prompt = open_prompt(session, "fleas")
    assert prompt.seat == ANA
    assert [o.label for o in prompt.options] == ["The green 4 (black) from Ben's Kennel 2",
                                                 "The blue 4 (black) from Cai's Kennel 1"]
    camera.lands("green-4-black", zone=kennel(ANA, 2))
    assert actions(session)[-2:] == [{"type": "fleas", "player": ANA, "target": BEN, "kennel": 1},
                                     {"type": "place", "player": ANA, "card": "green-4-black", "kennel": 1}]
    camera.gone("green-4-black", zone=kennel(BEN, 2))  # seen leaving Ben's Kennel: already recorded
    assert session.state.phase is Phase.DRAW and session.state.turn == ANA and session.prompts.open() == []


def test_fleas_the_card_seen_leaving_an_opponents_kennel_is_the_steal(session, table) -> None:
    typed(session, ANA, [("red-1-fawn", 1), ("red-2-fawn", 1)])
    typed(session, BEN, [("green-5-black", 2), ("green-4-black", 2)])
    camera = Camera(table)
    camera.lands("event-fleas")  # Cai's Fleas
    camera.gone("green-4-black", zone=kennel(BEN, 2))
    assert actions(session)[-1] == {"type": "fleas", "player": CAI, "target": BEN, "kennel": 1}
    camera.lands("green-4-black", zone=kennel(CAI, 3))
    assert session.state.kennels[CAI][2] == ["green-4-black"] and session.state.phase is Phase.DRAW


def test_bones_the_pick_is_asked_or_shown_by_the_discarded_corgi_arriving_in_a_kennel(session, table) -> None:
    camera = Camera(table)
    for card in ("red-1-fawn", "wild", "wild"):  # both Wilds: Ana's cards are discarded
        camera.lands(card)
    assert session.state.turn == BEN and session.state.discard == ["red-1-fawn", "wild", "wild"]
    camera.lands("event-bones")
    prompt = open_prompt(session, "bones")
    assert prompt.seat == BEN and [o.label for o in prompt.options] == ["Nothing", "The red 1 (fawn)"]
    camera.lands("red-1-fawn", zone=kennel(BEN, 3))
    assert actions(session)[-2:] == [{"type": "bones", "player": BEN, "card": "red-1-fawn"},
                                     {"type": "place", "player": BEN, "card": "red-1-fawn", "kennel": 2}]
    assert session.prompts.open() == [] and session.state.phase is Phase.DRAW


def test_baseball_each_players_card_in_the_draw_zone_is_theirs_in_turn(session, table) -> None:
    camera = Camera(table)
    camera.lands("event-baseball")
    for seat, card in ((ANA, "red-1-fawn"), (BEN, "blue-2-fawn"), (CAI, "green-3-fawn")):
        camera.lands(card)
        camera.lands(card, zone=kennel(seat, 1))
    assert [(a["type"], a["player"]) for a in actions(session)[1:]] == [
        ("reveal", ANA), ("place", ANA), ("reveal", BEN), ("place", BEN), ("reveal", CAI), ("place", CAI)]
    assert session.state.phase is Phase.DRAW and session.state.turn == ANA and session.state.drawn == []


def test_a_declared_wild_is_asked_of_the_player_whose_set_it_completes(session, lights) -> None:
    table, camera = start(session, lights, wilds="declare")
    typed(session, ANA, [("red-1-fawn", 1), ("red-2-fawn", 1)])
    others_play_a_round(session, 0)
    typed(session, ANA, [("red-3-fawn", 1), ("red-4-fawn", 1)])
    others_play_a_round(session, 1)
    camera.lands("wild")
    camera.lands("yellow-1-black")
    camera.lands("wild", zone=kennel(ANA, 1))
    prompt = open_prompt(session, "declare")
    assert prompt.seat == ANA and "what does the Wild stand for" in prompt.question
    labels = [o.label for o in prompt.options]
    assert "red 5 (fawn)" in labels and "yellow 4 (fawn)" not in labels  # only a declaration that makes a set
    session.prompts.answer(prompt.id, labels.index("red 5 (fawn)"), by="Ana", referee=False)
    table.drain()
    assert session.state.points[ANA] == 3 and session.prompts.open() == []


# ------------------------------------------------------------------------------------------- the camera (CC-22)
def test_a_card_the_camera_cannot_read_is_a_question_for_the_referee_never_a_guess(session, table) -> None:
    table.observe(CardUnreadable("centre", "red-2-fawn", 5))
    table.drain()
    (prompt,) = session.prompts.open()
    assert prompt.seat is None and "cannot read the card Ana revealed" in prompt.question
    assert len(prompt.options) == 56  # any face of the deck could be the top card's
    labels = [o.label for o in prompt.options]
    session.prompts.answer(prompt.id, labels.index("red 2 (fawn)"), by="referee", referee=True)
    table.drain()
    assert moves(session) == [(f"prompt {prompt.id}: referee", {"type": "reveal", "player": ANA, "card": "red-2-fawn"})]
    Camera(table).lands("red-2-fawn")  # now readable: already recorded
    assert len(moves(session)) == 1


def test_a_card_in_a_kennel_the_camera_cannot_read_is_asked_from_the_cards_being_placed(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("yellow-4-fawn")
    session.submit({"type": "stop", "player": ANA}, "web")
    table.observe(CardUnreadable(kennel(ANA, 3), "red-2-fawn", 9))
    table.drain()
    prompt = open_prompt(session, f"unreadable:{kennel(ANA, 3)}")
    assert [o.label for o in prompt.options] == ["red 2 (fawn)", "yellow 4 (fawn)"]


def test_new_cards_landing_in_the_draw_zone_in_one_frame_are_put_in_order_by_the_referee(session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn", "blue-3-fawn")
    assert moves(session) == []
    prompt = open_prompt(session, "order")
    assert prompt.seat is None and [o.label for o in prompt.options] == ["The red 2 (fawn)", "The blue 3 (fawn)"]
    session.prompts.answer(prompt.id, 1, by="referee", referee=True)
    table.drain()
    assert [a["card"] for a in actions(session)] == ["blue-3-fawn", "red-2-fawn"]
    assert [p.about for p in session.prompts.open()] == ["stop"]


def test_the_referee_typing_while_the_camera_is_out_is_not_recorded_again(session, table) -> None:
    session.submit({"type": "reveal", "player": ANA, "card": "red-2-fawn"}, "web")
    session.submit({"type": "reveal", "player": ANA, "card": "wild"}, "web")
    camera = Camera(table)
    camera.lands("red-2-fawn", "wild")  # the camera comes back and sees the draw zone
    camera.lands("wild")  # the other Wild: a new card, and the Wilds' bust
    assert [a["card"] for a in actions(session)] == ["red-2-fawn", "wild", "wild"]
    assert session.state.turn == BEN


def test_a_game_resumed_mid_turn_with_the_cards_still_on_the_table(db_path, lights) -> None:
    log = EventLog(db_path)
    session = TableSession(log, seed=3)
    table, camera = start(session)
    camera.lands("red-1-fawn")
    camera.lands("blue-2-black")
    camera.lands("red-1-fawn", zone=kennel(ANA, 1))
    table.stop()
    log.close()  # the power goes

    log = EventLog(db_path)
    resumed = TableSession(log, seed=4)
    table = LiveTable(resumed, seat_of_zone, announcer=lights)
    camera = Camera(table)
    camera.frame = 1
    camera.lands("blue-2-black")  # a fresh camera sees the draw zone...
    camera.lands("red-1-fawn", zone=kennel(ANA, 1))  # ...and Ana's Kennel: nothing new
    assert len(moves(resumed)) == 4 and resumed.prompts.open() == [] and table.view()["objection"] is None
    camera.lands("blue-2-black", zone=kennel(ANA, 2))
    assert actions(resumed)[-1] == {"type": "place", "player": ANA, "card": "blue-2-black", "kennel": 1}
    assert resumed.state.turn == BEN
    log.close()


def test_players_kennels_follow_where_the_referee_seated_them(session) -> None:
    session.start_game(GameSetup("crazy-corgi", ("Ana", "Ben"), seats=("seat-6", "seat-2")), source="test")
    table = LiveTable(session, seat_of_zone)
    table.drain()
    camera = Camera(table)
    camera.lands("red-1-fawn")
    camera.lands("red-1-black")  # a bust with two players: the cards go to Ben
    camera.lands("red-1-fawn", zone="seat-2/kennel-3")
    assert actions(session)[-1] == {"type": "place", "player": 1, "card": "red-1-fawn", "kennel": 2}
    table.observe(CardGone("seat-2/kennel-3", "red-1-fawn", camera.frame + 1))
    table.drain()
    assert session.state.kennels[1][2] == ["red-1-fawn"]  # a card gone is not a discard by itself


def test_a_card_moved_on_leaves_the_draw_zone_on_the_page_even_before_the_camera_reports_it_gone(
        session, table) -> None:
    camera = Camera(table)
    camera.lands("red-2-fawn")
    camera.lands("yellow-4-fawn")
    camera.lands("red-2-fawn", zone=kennel(ANA, 1))
    assert table.view()["centre"] == ["yellow-4-fawn"]
