"""Clash of Corgis (Treasure Island) refereed from the camera: a card put in a party is the build, the foes flipped
in the centre are the fight's reveal, cards arriving on the discard pile or a loot pile are what an effect does,
and the choices no card shows are prompts to the player who decides (rulings TI-11..TI-15)."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.treasure_state import Phase
from companion.table.live import LiveTable
from companion.table.observations import CardUnreadable
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone
from tests.table.conftest import Camera, Lights
from tests.table.test_clash_table import answer, moves, prompt

ANA, BEN, CAI = 0, 1, 2  # seat-1, seat-3, seat-5 on the mat at a table of three
PARTY = {ANA: "seat-1", BEN: "seat-3", CAI: "seat-5"}
LOOT = {seat: f"{zone}/loot" for seat, zone in PARTY.items()}


@pytest.fixture
def table(session: TableSession, lights: Lights) -> LiveTable:
    setup = GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant="treasure-island",
                      options={"first_player": ANA})
    session.start_game(setup, source="test")
    live = LiveTable(session, seat_of_zone, announcer=lights)
    live.drain()
    return live


def labels(session: TableSession, about: str) -> list[str]:
    return [o.label for o in prompt(session, about).options]


def test_a_card_put_in_a_party_is_the_build_and_the_foes_flipped_in_the_centre_are_the_fight(session, table) -> None:
    camera = Camera(table)
    assert labels(session, "build") == ["Build nothing"] and prompt(session, "build").seat == ANA
    camera.lands("fire-7", zone=PARTY[ANA])  # Ana's Archer joins her party: its target is asked
    assert moves(session) == [("camera", {"type": "build", "player": ANA, "card": "fire-7", "replace": None})]
    assert labels(session, "target") == ["Ben", "Cai"]  # not herself (TI-2)
    answer(session, table, "target", "Ben")
    answer(session, table, "parry", "Let it be")
    assert session.state.phase is Phase.PICK and prompt(session, "pick").seat == ANA
    camera.lands("water-3", zone="discard")  # the card Ana looked at is not higher than 7: discarded
    assert moves(session)[-1] == ("camera", {"type": "pick", "seed": None, "card": "water-3"})
    assert session.state.hand_counts[BEN] == 2 and session.state.discard == ["water-3"]
    assert labels(session, "fight") == ["Fight 1 foe", "Fight 2 foes", "Fight 3 foes", "End the turn without a fight"]
    answer(session, table, "fight", "Fight 2 foes")
    camera.lands("earth-1")  # the first foe flipped: the reveal waits for the second
    assert session.state.phase is Phase.REVEAL and moves(session)[-1][1]["type"] == "fight"
    camera.lands("wind-ace")
    assert moves(session)[-1] == ("camera", {"type": "reveal", "cards": ["earth-1", "wind-ace"]})
    state = session.state  # 7 against 1 + 10: the foes escape, the party retires, Ben's turn
    assert state.last_fight.won is False and state.turn == BEN and state.parties[ANA] == []
    assert table.view()["centre"] == ["earth-1", "wind-ace"]
    count = len(moves(session))
    for card in ("earth-1", "wind-ace", "fire-7"):  # the foes and the party carried to the discard pile
        camera.lands(card, zone="discard")
    assert len(moves(session)) == count and table.view()["objection"] is None  # already there (TI-15)
    assert table.view()["piles"] == [{"label": "Discard pile", "zone": "discard",
                                      "cards": ["water-3", "earth-1", "wind-ace", "fire-7"]}]


def party_of_bard_and_healer(session: TableSession, table: LiveTable, camera: Camera) -> None:
    """Ana builds a Bard (she draws and builds again) and a Healer, fights one foe and wins it."""
    camera.lands("earth-2", zone=PARTY[ANA])
    assert session.state.phase is Phase.BUILD and session.state.hand_counts[ANA] == 3  # the Bard's draw
    camera.lands("water-3", zone=PARTY[ANA])
    answer(session, table, "fight", "Fight 1 foe")
    camera.lands("fire-1")
    assert session.state.loot[ANA] == ["fire-1"]


def test_the_healers_keep_is_asked_and_a_card_in_a_full_party_replaces_the_one_that_left(session, table) -> None:
    camera = Camera(table)
    party_of_bard_and_healer(session, table, camera)
    assert labels(session, "retire") == ["Discard the whole party", "Keep Earth 2 (Bard)", "Keep Water 3 (Healer)"]
    answer(session, table, "retire", "Keep Water 3 (Healer)")
    camera.lands("fire-1", zone=LOOT[ANA])  # the rules put the foe there already: nothing new
    camera.lands("earth-2", zone="discard")
    answer(session, table, "build", "Build nothing")  # Ben, then Cai, have no party: their turns end
    answer(session, table, "build", "Build nothing")
    camera.lands("void-6", zone=PARTY[ANA])  # a Mage beside the Healer: its target is asked
    answer(session, table, "target", "Cai")
    answer(session, table, "parry", "Let it be")
    answer(session, table, "pick", "It passed: the card stays in the hand")  # Cai has no loot to steal
    answer(session, table, "fight", "End the turn without a fight")
    answer(session, table, "build", "Build nothing")
    answer(session, table, "build", "Build nothing")
    assert session.state.parties[ANA] == ["water-3", "void-6"]
    camera.lands("earth-9", zone=PARTY[ANA])  # a full party: the new card waits for the one it replaces...
    assert session.state.phase is Phase.BUILD and moves(session)[-1][1]["type"] == "build"
    camera.gone("water-3", zone=PARTY[ANA])  # ...which leaves for the discard pile
    assert moves(session)[-1] == ("camera", {"type": "build", "player": ANA, "card": "earth-9",
                                             "replace": "water-3"})


def test_the_oracles_loot_and_a_steal_are_cards_arriving_on_loot_piles(session, table) -> None:
    camera = Camera(table)
    camera.lands("fire-1", zone=PARTY[ANA])  # the Oracle looks at the top card of the deck...
    assert labels(session, "oracle") == ["It did not match: back on top"]
    camera.lands("fire-6", zone=LOOT[ANA])  # ...a Fire card: taken as loot
    assert moves(session)[-1] == ("camera", {"type": "oracle", "player": ANA, "card": "fire-6"})
    answer(session, table, "fight", "End the turn without a fight")
    camera.lands("water-5", zone=PARTY[BEN])  # Ben's Fighter looks at a card of Ana's: lower than 5
    answer(session, table, "target", "Ana")
    answer(session, table, "parry", "Let it be")
    camera.lands("fire-6", zone=LOOT[BEN])  # the steal: Ana's loot moves to Ben's loot pile
    assert moves(session)[-1] == ("camera", {"type": "pick", "seed": None, "card": None})
    assert session.state.loot == [[], ["fire-6"], []]
    assert {p["label"]: p["cards"] for p in table.view()["piles"]} == {
        "Ana's party": ["fire-1"], "Ben's party": ["water-5"], "Ben's loot": ["fire-6"]}


def test_a_berserkers_victim_reveals_the_hand_at_their_place(session, table) -> None:
    camera = Camera(table)
    camera.lands("fire-8", zone=PARTY[ANA])
    answer(session, table, "target", "Ben")
    answer(session, table, "parry", "Let it be")
    camera.lands("earth-2", "wind-4", zone=PARTY[BEN])  # Ben lays his hand face up: all three make the reveal
    assert session.state.phase is Phase.REVEAL
    camera.lands("water-9", zone=PARTY[BEN])
    assert moves(session)[-1] == ("camera", {"type": "reveal", "cards": ["earth-2", "wind-4", "water-9"]})
    state = session.state  # the highest, the 9, is discarded; the Berserker's player goes on to fight
    assert state.discard == ["water-9"] and state.hand_counts[BEN] == 2 and state.phase is Phase.FIGHT


def test_a_berserkers_victim_may_reveal_the_hand_in_the_centre(session, table) -> None:
    camera = Camera(table)
    camera.lands("fire-8", zone=PARTY[ANA])
    answer(session, table, "target", "Cai")
    answer(session, table, "parry", "Let it be")
    camera.lands("earth-2", "wind-9", "water-9")  # a tie for the highest: Ana chooses the 9 discarded
    assert moves(session)[-1] == ("camera", {"type": "reveal", "cards": ["earth-2", "wind-9", "water-9"]})
    assert session.state.phase is Phase.CHOOSE
    camera.lands("wind-9", zone="discard")
    assert moves(session)[-1] == ("camera", {"type": "discard", "player": ANA, "card": "wind-9"})
    assert session.state.discard == ["wind-9"] and session.state.phase is Phase.FIGHT


def test_a_build_out_of_turn_is_refused_and_an_unreadable_card_is_the_referees_question(
        session, table, lights) -> None:
    camera = Camera(table)
    camera.lands("earth-5", zone=PARTY[BEN])  # Ben puts a card in his party on Ana's turn
    objection = table.view()["objection"]
    assert objection["seat"] == BEN and "Ana" in objection["message"] and moves(session) == []
    assert ("refused", (BEN,)) in lights.calls
    camera.gone("earth-5", zone=PARTY[BEN])
    assert table.view()["objection"] is None
    table.observe(CardUnreadable(PARTY[ANA], "fire-7", 9))
    table.drain()
    asked = prompt(session, "unreadable:seat-1")
    assert asked.seat is None and len(asked.options) == 55  # any card may join Ana's party
    answer(session, table, "unreadable:seat-1", "Ana added Earth Wild (Illusionist) to the party.", referee=True)
    assert moves(session)[-1][1] == {"type": "build", "player": ANA, "card": "earth-wild", "replace": None}
    count = len(moves(session))
    camera.lands("earth-wild", zone=PARTY[ANA])  # readable now: already recorded
    assert len(moves(session)) == count


def test_foes_flipped_before_the_fight_is_declared_wait_for_the_declaration(session, table) -> None:
    camera = Camera(table)
    camera.lands("earth-4", zone=PARTY[ANA])  # a Monk with nobody else holding a party: nothing to do
    camera.lands("void-2", "wind-3")
    assert session.state.phase is Phase.FIGHT
    answer(session, table, "fight", "Fight 2 foes")
    assert moves(session)[-1] == ("camera", {"type": "reveal", "cards": ["void-2", "wind-3"]})
    assert session.state.loot[ANA] == []  # 4 against 5: lost


def test_a_card_put_in_a_full_party_with_both_cards_still_there_asks_which_it_replaces(session, lights) -> None:
    now = [100.0]
    setup = GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant="treasure-island",
                      options={"first_player": ANA})
    session.start_game(setup, source="test")
    table = LiveTable(session, seat_of_zone, announcer=lights, clock=lambda: now[0])
    table.drain()
    camera = Camera(table)
    camera.lands("earth-2", zone=PARTY[ANA])
    camera.lands("water-3", zone=PARTY[ANA])
    answer(session, table, "fight", "End the turn without a fight")  # the party stays (TI-1)
    answer(session, table, "build", "Build nothing")
    answer(session, table, "build", "Build nothing")
    camera.lands("earth-9", zone=PARTY[ANA])
    assert [p.about for p in session.prompts.open()] == ["build"]  # a moment for the replaced card to leave
    now[0] += 5
    table.drain()
    asked = prompt(session, "seat-1:earth-9")
    assert asked.seat == ANA and [o.label for o in asked.options] == [
        "Ana replaced Earth 2 (Bard) with Earth 9 (Assassin).",
        "Ana replaced Water 3 (Healer) with Earth 9 (Assassin)."]
    answer(session, table, "seat-1:earth-9", "Ana replaced Water 3 (Healer) with Earth 9 (Assassin).")
    assert session.state.parties[ANA] == ["earth-2", "earth-9"]


def test_a_new_game_of_another_variant_changes_what_the_table_reads(session, lights) -> None:
    session.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant="original",
                                 options={"first_player": ANA}), source="test")
    table = LiveTable(session, seat_of_zone, announcer=lights)
    table.drain()
    Camera(table).lands("earth-2", zone=PARTY[ANA])  # Original: a card shown at Ana's place is no move yet
    assert moves(session) == []
    session.start_game(GameSetup("clash-of-corgis", ("Ana", "Ben", "Cai"), variant="treasure-island",
                                 options={"first_player": ANA}), source="test")
    table.drain()
    Camera(table).lands("earth-3", zone=PARTY[ANA])
    assert moves(session) == [("camera", {"type": "build", "player": ANA, "card": "earth-3", "replace": None})]
