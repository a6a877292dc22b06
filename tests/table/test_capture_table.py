"""Capture the Illusionist refereed from the camera: cards turning face up in the grids' places and turned
sideways become moves, private looks and hidden choices are the players' answers on their phones."""

from __future__ import annotations

import pytest

from companion.games.base import GameSetup
from companion.games.clash_of_corgis.capture_state import Position
from companion.table.live import LiveTable
from companion.table.observations import CardGone, CardSeen, CardTurned, CardUnreadable, Orientation
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone

ANA, BEN = 0, 1  # Ana at seat-2 goes first, Ben faces her at seat-5
SETUP = GameSetup("clash-of-corgis", ("Ana", "Ben"), "capture", {"first_player": ANA}, seats=("seat-2", "seat-5"))


@pytest.fixture
def table(session: TableSession) -> LiveTable:
    session.start_game(SETUP, source="test")
    live = LiveTable(session, seat_of_zone)
    live.drain()
    return live


class Grid:
    """What the camera reports in the grids: a zone is ``seat-N/row-C``, C counted from that player's left."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.frame = 0

    def up(self, zone: str, face: str, orientation: Orientation = Orientation.UPRIGHT) -> None:
        self.frame += 1
        self.table.observe(CardSeen(zone, face, 0.9, self.frame, orientation))
        self.table.drain()

    def turned(self, zone: str, face: str, orientation: Orientation = Orientation.SIDEWAYS) -> None:
        self.frame += 1
        self.table.observe(CardTurned(zone, face, orientation, self.frame))
        self.table.drain()

    def down(self, zone: str, face: str) -> None:
        """The card turned face down where it lies: its back seen there (``CardGone`` with ``face_down``)."""
        self.frame += 1
        self.table.observe(CardGone(zone, face, self.frame, face_down=True))
        self.table.drain()


def moves(session: TableSession) -> list[tuple[str, dict]]:
    return [(e.source, e.payload) for e in session.log.events(session.game_id)
            if e.kind == "action" and e.payload.get("type") not in ("deal", "shuffle")]


def answer(session: TableSession, table: LiveTable, about: str, label: str, seat: int | None) -> None:
    (prompt,) = [p for p in session.prompts.open() if p.about == about]
    assert prompt.seat == seat
    result = session.prompts.answer(prompt.id, [o.label for o in prompt.options].index(label), by="phone",
                                    referee=seat is None)
    assert not hasattr(result, "code"), result
    table.drain()


def test_a_hidden_card_turned_up_is_its_activation_and_the_opponents_card_the_reveal(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")  # Ana's Monk: "Reveal one of your opponent's hidden cards in their front row."
    grid.up("seat-5/front-1", "water-9")  # Ben's own column 1 faces Ana's column 4 (Ruling CI-13)
    assert moves(session) == [
        ("camera", {"type": "activate", "player": ANA, "slot": "front-1", "card": "fire-4", "column": None}),
        ("camera", {"type": "reveal-card", "player": ANA, "slot": "front-4", "card": "water-9", "column": None}),
    ]
    state = session.state
    assert state.tables[ANA]["front-1"].position is Position.RESTED  # the rules rest it; the card follows
    assert state.tables[BEN]["front-4"].position is Position.REVEALED and state.turn == BEN
    grid.up("seat-5/front-1", "water-9")  # seen again (a hand passed over it): already recorded
    assert len(moves(session)) == 2


def test_insight_is_the_place_looked_at_never_the_card(session, table) -> None:
    (prompt,) = session.prompts.open()
    assert prompt.about == "insight" and prompt.seat == ANA
    answer(session, table, "insight", "I looked at my back-2", ANA)
    assert moves(session)[-1][1] == {"type": "insight", "player": ANA, "slot": "back-2"}
    assert session.state.looks == [1, 0]
    assert not [p for p in session.prompts.open() if p.about == "insight"], "Insight comes once a turn"
    Grid(table).up("seat-2/back-2", "fire-9")  # then she activates the card she looked at
    assert moves(session)[-1][1]["card"] == "fire-9"


def test_a_card_from_the_hand_put_in_the_exposed_row_is_activated_there_and_the_bard_rests_by_a_turn(
        session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")  # Ana's Monk reveals Ben's water-9
    grid.up("seat-5/front-1", "water-9")
    grid.up("seat-5/front-2", "water-4")  # Ben's Monk reveals Ana's front-2: fire-5
    grid.up("seat-2/front-2", "fire-5")
    grid.up("seat-2/back-1", "fire-6")  # Ana's Mage reveals Ben's back row: water-1 at his own column 4
    grid.up("seat-5/back-4", "water-1")
    assert session.state.tables[ANA]["front-1"].position is Position.REVEALED  # Cooldown
    grid.up("seat-5/exposed-1", "water-2")  # Ben's Bard from his hand, in his own column 1
    assert moves(session)[-1][1] == {"type": "activate", "player": BEN, "slot": "hand", "card": "water-2",
                                     "column": 4}
    grid.turned("seat-2/front-2", "fire-5")  # Ben turns Ana's revealed fire-5 sideways
    assert moves(session)[-1] == ("camera", {"type": "rest", "player": BEN, "slot": "front-2"})
    assert session.state.tables[ANA]["front-2"].position is Position.RESTED


def test_a_revealed_card_of_your_own_turned_sideways_on_your_turn_is_its_activation(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")
    grid.up("seat-5/front-1", "water-9")  # Ben's Assassin, revealed
    grid.turned("seat-5/front-1", "water-9")  # Ben activates it where it lies
    assert moves(session)[-1][1] == {"type": "activate", "player": BEN, "slot": "front-4", "card": None,
                                     "column": None}
    # "Your opponent must select one of their hidden cards": Ana's choice, on her phone
    answer(session, table, "select", "My back-3", ANA)
    grid.up("seat-2/back-3", "fire-wild")
    # the rank Ben declared is asked once the card shows (Ruling CI-18)
    answer(session, table, "guess", "I declared Wild", BEN)
    assert moves(session)[-1][1] == {"type": "guess", "player": BEN, "rank": "Wild", "card": "fire-wild"}
    # Ana's Illusionist is revealed: she may save it; she tries a blind discard by turning a hidden card up
    (save,) = [p for p in session.prompts.open() if p.about == "save"]
    assert save.seat == ANA and [o.label for o in save.options] == [
        "Let it be captured", "Discard Fire A (Samurai) from my hand"]
    grid.up("seat-2/back-4", "fire-ace")
    assert moves(session)[-1][1] == {"type": "save", "player": ANA, "slot": "back-4", "card": "fire-ace"}
    assert session.state.captures == [0, 0]


def test_a_card_turned_up_out_of_turn_is_refused_and_nothing_is_recorded(session, table) -> None:
    Grid(table).up("seat-5/front-2", "water-3")  # Ben flips a card on Ana's turn
    assert moves(session) == []
    assert "Not Ben's move" in table.view()["objection"]["message"]


def test_an_unreadable_card_is_the_referees_question_naming_the_cards_it_could_be(session, table) -> None:
    table.observe(CardUnreadable("seat-2/front-3", "fire-8", 1))
    table.drain()
    (prompt,) = [p for p in session.prompts.open() if p.about == "unreadable:seat-2/front-3"]
    assert prompt.seat is None and len(prompt.options) == 11  # any of Ana's eleven cards
    assert moves(session) == []


def test_the_status_page_shows_both_grids_hidden_revealed_and_rested(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")
    grid.up("seat-5/front-1", "water-9")
    piles = session.snapshot()["live"]["table"]["piles"]
    ana_front = next(p for p in piles if p["label"] == "Ana: front row")
    assert ana_front["cards"][0] == {"face": "fire-4", "down": False, "sideways": True}
    assert ana_front["cards"][1] == {"face": None, "down": True, "sideways": False}
    ben_front = next(p for p in piles if p["label"] == "Ben: front row")
    assert ben_front["cards"][3] == {"face": "water-9", "down": False, "sideways": False}
    assert next(p for p in piles if p["label"].startswith("Ben: 3 in hand"))["label"].endswith("0 captures")


def test_the_illusionist_saved_is_turned_face_down_where_it_lies_and_read_again_when_revealed(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")
    grid.up("seat-5/front-1", "water-9")
    grid.turned("seat-5/front-1", "water-9")  # Ben's Assassin: Ana selects back-3, her Illusionist
    answer(session, table, "select", "My back-3", ANA)
    grid.up("seat-2/back-3", "fire-wild")
    answer(session, table, "guess", "I declared 2", BEN)
    grid.up("seat-2/back-4", "fire-ace")  # the blind save finds her Ace: the Wild goes back face down (CI-3)
    assert session.state.tables[ANA]["back-3"].position is Position.HIDDEN
    recorded = len(moves(session))
    grid.down("seat-2/back-3", "fire-wild")  # as the rules say: nothing to record, nothing to object to
    assert table.view()["objection"] is None and len(moves(session)) == recorded
    assert "seat-2/back-3" not in session.snapshot()["live"]["table"]["seen"]
    grid.up("seat-2/back-3", "fire-wild")  # on her turn Ana turns it up again: her Illusionist activated
    assert moves(session)[-1][1] == {"type": "activate", "player": ANA, "slot": "back-3", "card": "fire-wild",
                                     "column": None}


def test_a_revealed_card_turned_face_down_is_refused_until_it_shows_again(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")
    grid.up("seat-5/front-1", "water-9")  # revealed by Ana's Monk: it stays face up
    grid.down("seat-5/front-1", "water-9")
    objection = table.view()["objection"]
    assert objection["zone"] == "seat-5/front-1" and "revealed: turn it face up again" in objection["message"]
    assert len(moves(session)) == 2
    assert session.state.tables[BEN]["front-4"].position is Position.REVEALED
    grid.up("seat-5/front-1", "water-9")  # turned back up: already recorded, the objection is withdrawn
    assert table.view()["objection"] is None and len(moves(session)) == 2


def test_a_card_turned_face_down_before_the_healers_shuffle_is_answered_is_settled_by_it(session, table) -> None:
    grid = Grid(table)
    grid.up("seat-2/front-1", "fire-4")  # Ana's Monk reveals Ben's water-9
    grid.up("seat-5/front-1", "water-9")
    grid.up("seat-5/front-2", "water-4")  # Ben's Monk reveals Ana's front-2: fire-5
    grid.up("seat-2/front-2", "fire-5")
    grid.up("seat-2/back-2", "fire-3")  # Ana's Healer: she will shuffle her fire-5 back face down
    grid.down("seat-2/front-2", "fire-5")  # turned down a moment before she answers on her phone
    assert table.view()["objection"]["zone"] == "seat-2/front-2"
    answer(session, table, "gather", "Shuffle front-2", ANA)
    assert session.state.tables[ANA]["front-2"].position is Position.HIDDEN
    assert table.view()["objection"] is None
