"""Clash of Corgis (Original) refereed from the camera: a player's cards landing together in the centre are one
combo, face-up cards at a seat are exposures, and the choices the cards cannot show are prompts."""

from __future__ import annotations

import itertools

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.original_state import Phase
from companion.table.adapters.clash_of_corgis import PARTS
from companion.table.adapters.clash_of_corgis.original import LATE_FRAMES, TOGETHER_FRAMES
from companion.table.live import LiveTable
from companion.table.observations import CardUnreadable, ZoneCleared
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone
from companion.vision.stillness import RECHECK_FRAMES
from tests.table.test_corgi_table import Camera, Lights

ANA, BEN, CAI = 0, 1, 2  # seat-1, seat-3, seat-5 on the mat at a table of three
PLACE = {ANA: "seat-1", BEN: "seat-3", CAI: "seat-5"}


@pytest.fixture
def lights() -> Lights:
    return Lights()


def start(session: TableSession, lights: Lights, variant: str = "original") -> LiveTable:
    setup = GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant=variant, options={"first_player": ANA})
    session.start_game(setup, source="test")
    clock = itertools.count(0.0, 1.0)  # a second passes at each look: the cards of a frame have all been reported
    live = LiveTable(session, seat_of_zone, announcer=lights, clock=lambda: next(clock))
    live.drain()
    return live


@pytest.fixture
def table(session: TableSession, lights: Lights) -> LiveTable:
    return start(session, lights)


def moves(session: TableSession) -> list[tuple[str, dict]]:
    return [(e.source, e.payload) for e in session.log.events(session.game_id)
            if e.payload.get("type") not in (None, "deal")]


def prompt(session: TableSession, about: str):
    (found,) = [p for p in session.prompts.open() if p.about == about]
    return found


def answer(session: TableSession, table: LiveTable, about: str, label: str, *, referee: bool = False) -> None:
    asked = prompt(session, about)
    result = session.prompts.answer(asked.id, [o.label for o in asked.options].index(label), by="phone",
                                    referee=referee)
    assert not hasattr(result, "code"), result
    table.drain()


def test_cards_landing_together_are_one_combo_of_the_player_to_move(session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-9", "fire-9")  # Ana leads a double of Assassins
    assert moves(session) == [("camera (whose turn it was)",
                               {"type": "play", "player": ANA, "cards": ["earth-9", "fire-9"], "effect": None})]
    assert table.view()["centre"] == ["earth-9", "fire-9"]
    # The Assassin targets Ben, who may hold a Samurai: not parrying is his choice, asked on his phone.
    parry = prompt(session, "parry")
    assert parry.seat == BEN and [o.label for o in parry.options] == ["Let it be"]
    answer(session, table, "parry", "Let it be")
    state = session.state
    assert state.phase is Phase.PLAY and state.turn == CAI and state.passed == [BEN]  # Ben's turn is skipped
    assert prompt(session, "pass").seat == CAI and "parry" not in {p.about for p in session.prompts.open()}


def test_a_pass_is_a_prompt_and_a_card_turned_up_at_a_seat_is_the_berserkers_exposure(session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-8")  # Ana's Berserker leads
    answer(session, table, "pass", "Pass")  # Ben passes...
    assert session.state.phase is Phase.EXPOSE and session.prompts.open() == []
    camera.lands("water-2", zone=PLACE[BEN])  # ...and exposes a card of his choosing at his place
    assert moves(session)[-1] == ("camera", {"type": "expose", "player": BEN, "card": "water-2"})
    answer(session, table, "pass", "Pass")
    camera.lands("fire-5", zone=PLACE[CAI])
    state = session.state
    assert state.round == 2 and state.turn == ANA and state.rounds_won == [1, 0, 0]  # Ana won the round
    assert state.exposed == [[], ["water-2"], ["fire-5"]]
    table.observe(ZoneCleared("centre", camera.frame))  # Ana gathers the pile
    table.drain()
    assert table.view()["centre"] == [] and table.view()["piles"] == [
        {"label": "Ben's exposed hand", "zone": None, "cards": ["water-2"]},
        {"label": "Cai's exposed hand", "zone": None, "cards": ["fire-5"]}]
    camera.lands("void-1")  # Ana leads a single; her Oracle looks at the top of the deck
    answer(session, table, "oracle", "It did not match: back on top")
    camera.gone("water-2", zone=PLACE[BEN])  # Ben plays his exposed card
    camera.lands("water-2")
    assert moves(session)[-1] == ("camera (from Ben's exposed hand)",
                                  {"type": "play", "player": BEN, "cards": ["water-2"], "effect": None})
    assert prompt(session, "pass").options[0].label == "Decline the Bard's extra turn"  # Ben's Bard


def test_the_monks_high_or_low_is_asked_and_a_samurai_turned_up_parries(session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-4")
    monk = prompt(session, "monk")
    assert monk.seat == ANA and [o.label for o in monk.options] == ["High", "Low"]
    answer(session, table, "monk", "Low")
    assert prompt(session, "parry").seat == BEN
    camera.lands("void-ace", zone=PLACE[BEN])  # Ben parries with a Samurai from his hand
    assert moves(session)[-1] == ("camera", {"type": "parry", "player": BEN, "card": "void-ace", "replace": None})
    state = session.state
    assert state.exposed[BEN] == ["void-ace"] and not state.low and state.turn == BEN  # the Monk is cancelled


def test_a_combo_of_mixed_suits_asks_its_player_which_cards_effect_and_the_mage_burns_in_the_centre(
        session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-6", "fire-6")  # two Mages: Earth's Burn or Fire's?
    assert moves(session) == []
    effect = prompt(session, "effect-card")
    assert effect.seat == ANA and [o.label for o in effect.options] == ["Earth 6 (Mage)", "Fire 6 (Mage)"]
    camera.gone("fire-6")  # Ana takes the combo back: nothing to choose any more
    camera.gone("earth-6")
    assert session.prompts.open() == [] and moves(session) == []
    camera.lands("earth-6", "fire-6")
    answer(session, table, "effect-card", "Fire 6 (Mage)")
    assert moves(session)[-1][1] == {"type": "play", "player": ANA, "cards": ["earth-6", "fire-6"], "effect": "fire-6"}
    burn = prompt(session, "burn")
    assert burn.seat == ANA and [o.label for o in burn.options] == ["Nothing to burn"]
    camera.lands("water-3")  # not Fire: refused, nothing recorded
    assert "Fire" in table.view()["objection"]["message"] and len(moves(session)) == 1
    camera.gone("water-3")
    assert table.view()["objection"] is None
    camera.lands("fire-2")
    assert moves(session)[-1] == ("camera (whose turn it was)", {"type": "discard", "player": ANA, "card": "fire-2"})
    assert session.state.turn == BEN and "burn" not in {p.about for p in session.prompts.open()}


def test_a_card_the_camera_cannot_read_is_a_question_for_the_referee_never_a_guess(session, table) -> None:
    table.observe(CardUnreadable("centre", "fire-7", 5))
    table.drain()
    asked = prompt(session, "unreadable:centre")
    assert asked.seat is None and "cannot read" in asked.question
    assert len(asked.options) == 55  # any card may lead a round
    refused = session.prompts.answer(asked.id, 0, by="a phone", referee=False)
    assert refused.code == "referee-only" and moves(session) == []
    answer(session, table, "unreadable:centre", "Ana led a single: Fire 7 (Archer).", referee=True)
    assert moves(session)[-1][1]["cards"] == ["fire-7"]
    count = len(moves(session))
    Camera(table).lands("fire-7")  # the card becomes readable: already recorded, nothing new
    assert len(moves(session)) == count


def test_a_card_shown_at_a_seat_then_pushed_in_out_of_turn_is_refused_until_taken_back(
        session, table, lights) -> None:
    camera = Camera(table)
    camera.lands("earth-5")  # Ana's Fighter: Ben may parry
    answer(session, table, "parry", "Let it be")
    camera.lands("wind-2", zone=PLACE[BEN])  # Ben exposes the card the Fighter forces
    assert session.state.turn == BEN and session.state.locked == ["wind-2"]
    camera.lands("void-7", zone=PLACE[CAI])  # Cai shows a 7 at his place and pushes it in: Ben's turn
    camera.lands("void-7")
    objection = table.view()["objection"]
    assert objection["seat"] == CAI and "Ben" in objection["message"]
    assert ("refused", (CAI,)) in lights.calls
    camera.gone("void-7")
    assert table.view()["objection"] is None
    camera.lands("wind-7")
    assert moves(session)[-1][1] == {"type": "play", "player": BEN, "cards": ["wind-7"], "effect": None}


def test_the_referee_typing_while_the_camera_is_out_is_not_replayed_when_it_sees_the_cards(session, table) -> None:
    session.submit({"type": "play", "player": ANA, "cards": ["earth-8"]}, source="web")
    session.submit({"type": "play", "player": BEN, "cards": ["fire-9"]}, source="web")
    session.submit({"type": "parry", "player": CAI, "card": None}, source="web")
    camera = Camera(table)
    camera.lands("earth-8", "fire-9")  # the camera comes back and sees the round so far
    assert len(moves(session)) == 3 and table.view()["objection"] is None
    assert session.state.turn == ANA  # Cai is skipped by the Assassin
    camera.lands("wind-ace")
    assert moves(session)[-1][1] == {"type": "play", "player": ANA, "cards": ["wind-ace"], "effect": None}


def test_a_variant_without_a_table_part_is_entered_by_the_referee(session, lights, monkeypatch) -> None:
    monkeypatch.delitem(PARTS, "treasure-island")
    session.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben"), variant="treasure-island"), source="test")
    table = LiveTable(session, seat_of_zone, announcer=lights)
    table.drain()
    before = len(session.log.events(session.game_id))
    Camera(table).lands("earth-3", zone="seat-1")
    assert len(session.log.events(session.game_id)) == before and session.prompts.open() == []
    assert table.view()["objection"] is None


def test_the_archers_target_is_asked_and_the_random_pick_is_the_card_turned_up_at_the_targets_place(
        session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-7")
    archer = prompt(session, "archer")
    assert archer.seat == ANA and [o.label for o in archer.options] == ["Ben", "Cai"]  # not herself (CO-12)
    answer(session, table, "archer", "Cai")
    answer(session, table, "parry", "Let it be")
    assert session.state.phase is Phase.PICK and session.prompts.open() == []
    camera.lands("wind-4", zone=PLACE[CAI])  # Ana's random pick from Cai's hand, exposed in front of him
    assert moves(session)[-1] == ("camera", {"type": "pick", "seed": None, "card": "wind-4"})
    assert session.state.exposed[CAI] == ["wind-4"] and session.state.turn == BEN


def test_the_healers_returned_card_is_asked_of_its_player(session, table) -> None:
    Camera(table).lands("water-3")
    heal = prompt(session, "heal")
    assert heal.seat == ANA and [o.label for o in heal.options] == ["A card from my hidden hand"]
    answer(session, table, "heal", "A card from my hidden hand")
    assert moves(session)[-1][1] == {"type": "heal", "player": ANA, "card": None}
    assert session.state.turn == BEN and session.state.hand_size(ANA) == 11


def slow_table(session: TableSession, lights: Lights) -> LiveTable:
    """A table on a loaded machine: each look at the host's clock finds five more seconds gone."""
    session.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant="original",
                                 options={"first_player": ANA}), source="test")
    clock = itertools.count(0.0, 5.0)
    table = LiveTable(session, seat_of_zone, announcer=lights, clock=lambda: next(clock))
    table.drain()
    return table


def test_a_combos_cards_coming_to_rest_frames_apart_are_read_together_however_slow_the_camera(
        session, lights) -> None:
    camera = Camera(slow_table(session, lights))
    camera.lands("earth-9", then=0)  # Ana leads; one card of her double is named at once...
    for _ in range(RECHECK_FRAMES):  # ...the other only at the camera's next full look at the still table
        camera.films(1)
        assert moves(session) == [] and session.prompts.open() == []  # neither a single nor a question
    camera.lands("fire-9", then=LATE_FRAMES - 1)  # a double leading a round may still be a triple's start
    assert moves(session) == []
    camera.films(1)
    assert moves(session) == [("camera (whose turn it was)",
                               {"type": "play", "player": ANA, "cards": ["earth-9", "fire-9"], "effect": None})]


def test_a_lone_card_is_read_at_once_when_it_cannot_be_part_of_a_bigger_combo(session, lights) -> None:
    camera = Camera(slow_table(session, lights))
    camera.lands("earth-9", then=LATE_FRAMES - 1)  # a lone card leading a round may be a double's first
    assert moves(session) == []
    camera.films(1)
    assert moves(session)[-1][1] == {"type": "play", "player": ANA, "cards": ["earth-9"], "effect": None}
    answer(session, camera.table, "parry", "Let it be")  # Ana's Assassin skips Ben
    camera.lands("fire-ace", then=TOGETHER_FRAMES)  # a single can only be beaten by a single: read at once
    assert moves(session)[-1][1] == {"type": "play", "player": CAI, "cards": ["fire-ace"], "effect": None}


def test_a_card_short_of_the_leading_combos_size_waits_for_the_rest_before_any_objection(session, lights) -> None:
    camera = Camera(slow_table(session, lights))
    camera.lands("earth-3", "fire-3")  # Ana leads a double of Healers
    answer(session, camera.table, "heal", "A card from my hidden hand")
    camera.lands("void-8", then=LATE_FRAMES - 1)  # Ben's double comes to rest a card at a time
    assert table_objection(camera.table) is None and len(moves(session)) == 2
    camera.lands("wind-8", then=TOGETHER_FRAMES)
    assert moves(session)[-1][1] == {"type": "play", "player": BEN, "cards": ["void-8", "wind-8"], "effect": None}
    camera.lands("water-9", then=LATE_FRAMES - 1)  # Cai's 9 could be a double's first, but none follows...
    assert table_objection(camera.table) is None
    camera.films(1)
    assert "beat it with a double" in table_objection(camera.table)  # ...and it is refused in the end
    camera.gone("water-9")
    camera.lands("water-4", then=TOGETHER_FRAMES)  # no double of 4s beats the 8s: refused at once
    assert "beat it with a double" in table_objection(camera.table) and len(moves(session)) == 3


def test_a_combos_card_named_after_the_objection_to_the_first_joins_it_and_the_objection_gives_way(
        session, lights) -> None:
    camera = Camera(slow_table(session, lights))
    camera.lands("void-1", "fire-1")  # Ana leads a double of Oracles; the top of the deck did not match
    answer(session, camera.table, "oracle", "It did not match: back on top")
    camera.lands("wind-4", then=LATE_FRAMES)  # Ben puts a lone 4 on the double: refused...
    assert "beat it with a double" in table_objection(camera.table)
    camera.gone("wind-4")  # ...and taken back: it is not read with what comes next
    camera.lands("earth-5", then=LATE_FRAMES)  # Ben's double of 5s: the camera names one card...
    assert "beat it with a double" in table_objection(camera.table) and len(moves(session)) == 2
    camera.lands("void-5", then=TOGETHER_FRAMES)  # ...and the other only now, on the crowded pile
    assert moves(session)[-1] == ("camera (whose turn it was)",
                                  {"type": "play", "player": BEN, "cards": ["earth-5", "void-5"], "effect": None})
    assert table_objection(camera.table) is None

def table_objection(table: LiveTable) -> str | None:
    objection = table.view()["objection"]
    return None if objection is None else objection["message"]
