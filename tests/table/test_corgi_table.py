"""Corgi Pileup refereed from the camera: cards landing in the centre become plays, the rules decide, and the
table asks the players (or the referee) what the cards cannot show."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup, MalformedAction
from companion.games.corgi_pileup.state import Phase
from companion.table.live import LiveTable
from companion.table.log import EventLog
from companion.table.observations import CardUnreadable, ZoneCleared
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone
from tests.table.conftest import Camera, Lights

ANA, BEN, CAI = 0, 1, 2  # seat-1, seat-3, seat-5 on the mat at a table of three


@pytest.fixture
def table(session: TableSession, lights: Lights) -> LiveTable:
    session.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    live = LiveTable(session, seat_of_zone, announcer=lights)
    live.drain()
    return live


def plays(session: TableSession) -> list[tuple[str, dict]]:
    return [(e.source, e.payload) for e in session.log.events(session.game_id) if e.payload.get("type") == "play"]


def test_a_card_landing_in_the_centre_is_the_play_of_whoever_is_to_play(session, table) -> None:
    Camera(table).lands("4")
    assert plays(session) == [("camera (whose turn it was)", {"type": "play", "player": ANA, "card": 4})]
    assert table.view()["centre"] == ["4"]
    assert session.snapshot()["live"]["table"]["centre"] == ["4"]


def test_a_card_shown_at_a_seat_first_is_that_players_and_out_of_turn_is_refused_until_taken_back(
        session, table, lights) -> None:
    camera = Camera(table)
    camera.lands("4")  # Ana leads
    camera.lands("9", zone="seat-5")  # Cai shows a 9 at his place...
    camera.lands("9")  # ...and pushes it in, but it is Ben's turn
    assert len(plays(session)) == 1, "an out-of-turn card is not recorded"
    objection = table.view()["objection"]
    assert objection["seat"] == CAI and objection["message"] == "Cai played a 9. It is Ben's turn, not Cai's."
    assert ("refused", (CAI,)) in lights.calls
    assert "Cai played a 9. It is Ben's turn, not Cai's." in table.view()["said"]
    camera.gone("9")  # Cai takes it back
    assert table.view()["objection"] is None
    camera.lands("7")
    assert plays(session)[-1] == ("camera (whose turn it was)", {"type": "play", "player": BEN, "card": 7})


def test_a_card_that_would_break_the_rules_outright_is_flagged_not_recorded(session, table) -> None:
    camera = Camera(table)
    for face in ("5", "5", "5"):  # a whole trick of 5s
        camera.lands(face)
    camera.lands("5")
    camera.lands("5")  # the fifth 5 of the deck
    assert [p["card"] for _s, p in plays(session)] == [5, 5, 5, 5, 5]
    camera.lands("5")  # a sixth 5 does not exist
    assert len(plays(session)) == 5
    assert "5" in table.view()["objection"]["message"]


def test_the_six_target_is_asked_of_the_trick_winner_and_answered_from_a_phone(session, table) -> None:
    camera = Camera(table)
    for face in ("2", "3", "6"):
        camera.lands(face)
    state = session.state
    assert state.phase is Phase.SIX_TARGET and state.decider == CAI
    (prompt,) = session.prompts.open()
    assert prompt.seat == CAI and "Cai won the trick with a 6" in prompt.question
    assert [o.label for o in prompt.options] == ["Ana", "Ben", "Myself"]
    assert session.snapshot()["prompts"][0]["id"] == prompt.id
    result = session.prompts.answer(prompt.id, 1, by="Cai's phone", referee=False)
    assert not hasattr(result, "code"), result
    table.drain()
    assert session.state.phase is Phase.SIX_DISCARD and session.state.six_target == BEN
    assert session.prompts.open() == []
    lines = session.log.prompts(session.game_id)
    assert [(line["kind"], line["id"]) for line in lines] == [("asked", prompt.id), ("answered", prompt.id)]
    assert lines[1]["label"] == "Ben" and lines[1]["by"] == "Cai's phone"
    assert session.log.events(session.game_id)[-1].source == f"prompt {prompt.id}: Cai's phone"
    table.observe(ZoneCleared("centre", camera.frame))  # Cai collects the trick
    table.drain()
    assert table.view()["centre"] == []
    camera.lands("8")  # Ben's discard, shown face up
    assert session.log.events(session.game_id)[-1].payload == {"type": "six-discard", "player": BEN, "card": 8}


def test_a_card_the_camera_cannot_read_is_a_question_for_the_referee_never_a_guess(session, table) -> None:
    table.observe(CardUnreadable("centre", "7", 5))
    table.drain()
    (prompt,) = session.prompts.open()
    assert prompt.seat is None and "cannot read" in prompt.question
    assert len(prompt.options) == 10
    refused = session.prompts.answer(prompt.id, 6, by="a phone", referee=False)
    assert refused.code == "referee-only" and plays(session) == []
    session.prompts.answer(prompt.id, 6, by="referee", referee=True)
    assert plays(session) == [(f"prompt {prompt.id}: referee", {"type": "play", "player": ANA, "card": 7})]
    Camera(table).lands("7")  # the card becomes readable: it was already recorded, nothing new
    assert len(plays(session)) == 1


def test_two_cards_landing_in_one_frame_are_put_in_order_by_the_referee(session, table) -> None:
    camera = Camera(table)
    camera.lands("4", "8")
    assert plays(session) == []
    (prompt,) = session.prompts.open()
    assert prompt.about == "order" and [o.label for o in prompt.options] == ["Ana played a 4", "Ana played an 8"]
    session.prompts.answer(prompt.id, 1, by="referee", referee=True)
    table.drain()
    assert [(p["player"], p["card"]) for _s, p in plays(session)] == [(ANA, 8), (BEN, 4)]
    assert session.prompts.open() == []


def test_the_ten_leader_and_the_ones_value_are_asked_of_the_player_who_chooses(session, table) -> None:
    camera = Camera(table)
    camera.lands("10")
    camera.lands("2")
    camera.lands("3")  # Ana's 10 wins: she names another leader
    (prompt,) = session.prompts.open()
    assert prompt.about == "choose-leader" and prompt.seat == ANA
    assert [o.label for o in prompt.options] == ["Ben", "Cai"]
    assert "Ana wins the trick." in table.view()["said"]
    session.prompts.answer(prompt.id, 1, by="Ana", referee=False)
    table.drain()
    assert session.state.leader == CAI and session.prompts.open() == []


def test_the_referee_typing_while_the_camera_is_out_is_not_replayed_when_it_sees_the_cards(session, table) -> None:
    session.submit({"type": "play", "player": ANA, "card": 4}, source="web")
    session.submit({"type": "play", "player": BEN, "card": 6}, source="web")
    camera = Camera(table)
    camera.lands("4", "6")  # the camera comes back and sees the trick so far
    camera.lands("9")
    assert [(p["player"], p["card"]) for _s, p in plays(session)] == [(ANA, 4), (BEN, 6), (CAI, 9)]
    assert session.prompts.open() == [] and session.state.phase is Phase.PLAY


def test_a_game_resumed_after_a_crash_mid_trick_with_the_cards_still_on_the_table(db_path, lights) -> None:
    log = EventLog(db_path)
    session = TableSession(log, seed=3)
    session.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    table = LiveTable(session, seat_of_zone)
    camera = Camera(table)
    camera.lands("4")
    camera.lands("7")
    table.stop()
    log.close()  # the power goes

    log = EventLog(db_path)
    resumed = TableSession(log, seed=4)
    table = LiveTable(resumed, seat_of_zone, announcer=lights)
    camera = Camera(table)
    camera.lands("4", "7")  # a fresh camera sees the trick lying there
    assert [(p["player"], p["card"]) for _s, p in plays(resumed)] == [(ANA, 4), (BEN, 7)]
    assert resumed.prompts.open() == []
    camera.lands("8")
    assert [(p["player"], p["card"]) for _s, p in plays(resumed)][-1] == (CAI, 8)
    log.close()


def test_players_sit_where_the_referee_placed_them(session, lights) -> None:
    session.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai"), seats=("seat-6", "seat-2", "seat-4")),
                       source="test")
    table = LiveTable(session, seat_of_zone, announcer=lights)
    table.drain()
    assert [table.seat_at(z) for z in ("seat-6", "seat-2", "seat-4", "seat-1", "centre")] == [0, 1, 2, None, None]
    camera = Camera(table)
    camera.lands("4")  # Ana leads
    camera.lands("9", zone="seat-4")  # Cai, at seat 4 of the mat, shows a 9 and pushes it in out of turn
    camera.lands("9")
    assert table.view()["objection"]["seat"] == CAI


def test_seat_zones_are_checked_and_kept_in_the_start_event() -> None:
    setup = GameSetup.from_json({"game": "corgi-pileup", "players": ["Ana", "Ben"], "seats": ["seat-3", "seat-1"]})
    assert setup.seats == ("seat-3", "seat-1") and setup.to_json()["seats"] == ["seat-3", "seat-1"]
    assert "seats" not in GameSetup("corgi-pileup", ("Ana", "Ben")).to_json()  # older logs read the same
    for bad in (["seat-1"], ["seat-1", "seat-1"], "seat-1", [1, 2], ["", "seat-2"]):
        with pytest.raises(MalformedAction, match="seat"):
            GameSetup.from_json({"game": "corgi-pileup", "players": ["Ana", "Ben"], "seats": bad})
