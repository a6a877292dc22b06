"""Clash of Corgis Capture the Illusionist: setup, the turn (Insight, Activate, Cooldown), every card effect as
printed, capturing and saving the Illusionist, and play at a real table."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup, MalformedAction
from companion.games.clash_of_corgis.actions import (
    Activate,
    Deal,
    Guess,
    Insight,
    Pick,
    Rearrange,
    Rest,
    RevealCard,
    Save,
    Select,
    Shuffle,
)
from companion.games.clash_of_corgis.capture_state import Cell, Phase, Position
from companion.games.clash_of_corgis.effects import CAPTURE, Role
from tests.games.clash_helpers import RULES, apply_all, refused, setup

A, B = 0, 1
FIRE = ["fire-1", "fire-2", "fire-3", "fire-4", "fire-5", "fire-6", "fire-7", "fire-8", "fire-9", "fire-ace",
        "fire-wild"]
WATER = ["water-wild", "water-2", "water-3", "water-4", "water-5", "water-6", "water-7", "water-8", "water-1",
         "water-9", "water-ace"]


def duel(a: list[str] = FIRE, b: list[str] = WATER, first: int = A):
    """A dealt duel: each list is front row 1-4, back row 1-4, then the hand (Fire for A, Water for B)."""
    return RULES.apply(setup("capture", 2), Deal(first=first, hands=(tuple(a), tuple(b))))


def at(state, seat: int, slot: str) -> tuple[str | None, str]:
    cell = state.tables[seat].get(slot)
    return (cell.card, cell.position.value) if cell else (None, "empty")


# ------------------------------------------------------------------------------------------------ setup
def test_setup_two_rows_of_four_face_down_and_three_in_hand():
    # "2 rows of 4 (evenly-spaced) face-down cards each. Then take the remaining 3 cards and add them to your hand."
    state = RULES.apply(setup("capture", 2), Deal(seed=8))
    for seat in (A, B):
        assert len(state.tables[seat]) == 8 and all(c.position is Position.HIDDEN for c in state.tables[seat].values())
        assert len(state.hands[seat]) == 3
    assert RULES.to_move(state) == (state.first,)
    with pytest.raises(MalformedAction, match="2 to 2 players"):  # "a 2-player card game"
        RULES.setup(GameSetup("clash-of-corgis", tuple("ABC"), "capture", full_information=True))
    assert refused(setup("capture", 2), Deal(first=0, hands=(tuple(FIRE), tuple(FIRE)))).code == "bad-deal"


def test_every_effect_is_printed():
    assert set(CAPTURE) == set(Role)


# ------------------------------------------------------------------------------------------------ the turn
def test_insight_activate_and_cooldown():
    # Insight: "You may privately look at a hidden card on the table belonging to you."
    state = RULES.apply(duel(), Insight(A, "back-2"))
    assert state.looks == [1, 0] and at(state, A, "back-2") == ("fire-6", "hidden")
    assert refused(state, Insight(A, "back-3")).code == "insight-used"
    # Activate from the hand: "place it face-up (revealed) into your Exposed Hand Row", then rested.
    state = RULES.apply(state, Activate(A, "hand", "fire-9", 2))  # an Assassin
    assert at(state, A, "exposed-2") == ("fire-9", "revealed") and state.phase is Phase.SELECT
    state = apply_all(state, [Select(B, "front-2"), Guess(A, "5")])  # water-2: a wrong guess
    assert at(state, B, "front-2") == ("water-2", "revealed") and at(state, A, "exposed-2") == ("fire-9", "rested")
    assert RULES.to_move(state) == (B,)
    # "Cards in this position can not be activated": B's Mage reveals A's back row, then B's cooldown, then A's.
    state = apply_all(state, [Activate(B, "back-2"), RevealCard(B, "back-1")])
    assert refused(state, Activate(A, "exposed-2")).code == "rested"
    state = apply_all(state, [Activate(A, "back-1"), RevealCard(A, "front-1")])  # A's Fighter, column 1: water-wild!
    assert state.phase is Phase.SAVE


def test_cooldown_turns_rested_cards_revealed_except_those_activated_this_turn():
    # Cooldown: "Change the position of all of your rested cards to revealed, except for the card(s) you activated
    # this turn."
    state = apply_all(duel(), [Activate(A, "front-4"), RevealCard(A, "front-4")])  # A's Monk reveals water-4
    assert at(state, A, "front-4") == ("fire-4", "rested")
    state = apply_all(state, [Activate(B, "back-2"), RevealCard(B, "back-2")])  # B's Mage reveals fire-6
    assert at(state, A, "front-4") == ("fire-4", "rested")
    state = apply_all(state, [Activate(A, "back-2"), RevealCard(A, "back-3")])  # A's Mage; A's cooldown
    assert at(state, A, "front-4") == ("fire-4", "revealed") and at(state, A, "back-2") == ("fire-6", "rested")


# ------------------------------------------------------------------------------------------------ effects
def test_oracle_looks_privately_then_activates_another_card():
    # 1 Oracle (Future Insight)
    state = apply_all(duel(), [Activate(A, "front-1"), Insight(A, "back-4")])
    assert state.looks == [1, 0] and state.phase is Phase.ACTIVATE and state.chain
    assert refused(state, Activate(A, "front-1")).code == "rested"
    assert refused(state, Insight(A, "back-3")).code == "insight-used"


def test_bard_rests_a_revealed_card_of_the_opponent_then_activates_another():
    # 2 Bard (Divine Music)
    state = apply_all(duel(), [Activate(A, "front-4"), RevealCard(A, "front-3")])  # water-3 revealed
    state = apply_all(state, [Activate(B, "front-3")])  # B activates its revealed Healer: nothing face up but itself
    assert at(state, B, "front-3") == ("water-3", "revealed")  # could not be resolved: stays revealed (CI-5)
    state = apply_all(state, [Activate(A, "front-2"), Rest(A, "front-3")])
    assert at(state, B, "front-3") == ("water-3", "rested") and state.chain and RULES.to_move(state) == (A,)


def test_an_effect_that_can_not_be_resolved_stays_revealed_and_does_not_chain():
    # "Note: When a card's effect can not be resolved, its position remains Revealed" (Ruling CI-5)
    state = RULES.apply(duel(), Activate(A, "front-2"))  # a Bard with no revealed card to rest
    assert at(state, A, "front-2") == ("fire-2", "revealed") and RULES.to_move(state) == (B,)


def test_healer_shuffles_a_face_up_card_with_hidden_ones_into_the_same_places():
    # 3 Healer (Graceful Heal). Ruling CI-8: a recorded chance event; an exposed-row place is back in the hand.
    state = apply_all(duel(), [Activate(A, "hand", "fire-9", 1), Select(B, "front-1"), Guess(A, "Wild")])
    assert state.phase is Phase.SAVE  # the Assassin guessed right and revealed the Illusionist
    state = apply_all(state, [Save(B, "hand", "water-ace")])
    assert at(state, B, "front-1") == ("water-wild", "hidden") and state.out[B] == ["water-ace"]
    assert state.phase is Phase.SELECT  # "activate this card's effect again" (Ruling CI-7)
    state = apply_all(state, [Select(B, "back-2"), Guess(A, "1")])
    assert RULES.to_move(state) == (B,)
    state = apply_all(state, [Activate(B, "front-3")])  # B's Healer: the face-up water-6 and two hidden
    state = RULES.apply(state, Rearrange(B, ("back-2", "back-3", "back-4")))
    assert state.phase is Phase.SHUFFLE and RULES.to_move(state) == ()
    state = RULES.apply(state, Shuffle(order=("water-8", "water-6", "water-7")))
    assert [at(state, B, s) for s in ("back-2", "back-3", "back-4")] == [
        ("water-8", "hidden"), ("water-6", "hidden"), ("water-7", "hidden")]
    assert state.chain and RULES.to_move(state) == (B,)


def test_monk_fighter_and_mage_reveal_in_their_rows():
    # 4 Monk: "in their front row"; 5 Fighter: "in their front row or back row in the same column as this card";
    # 6 Mage: "in their back row". Ruling CI-1: a column runs across the table.
    monk = RULES.apply(duel(), Activate(A, "front-4"))
    assert set(monk.pending.slots) == {"front-1", "front-2", "front-3", "front-4"}
    fighter = RULES.apply(duel(), Activate(A, "back-1"))
    assert set(fighter.pending.slots) == {"front-1", "back-1"}
    mage = RULES.apply(duel(), Activate(A, "back-2"))
    assert refused(mage, RevealCard(A, "front-1")).code == "not-allowed"
    assert at(RULES.apply(mage, RevealCard(A, "back-3")), B, "back-3") == ("water-7", "revealed")


def test_archer_reveals_a_random_card_from_the_opponents_hand_into_a_column_they_choose():
    # 7 Archer (Piercing Arrow); "the player that is doing the revealing gets to choose which column"
    state = apply_all(duel(), [Activate(A, "back-3"), RevealCard(A, "hand", column=3)])
    assert state.phase is Phase.PICK and RULES.to_move(state) == ()
    state = RULES.apply(state, Pick(card="water-9"))
    assert at(state, B, "exposed-3") == ("water-9", "revealed") and state.hand_counts[B] == 2


def test_berserker_makes_the_opponent_reveal_in_the_furthest_row_then_rests_their_revealed_cards():
    # 8 Berserker (Shattering Roar). Ruling CI-6: their back row (then their front row).
    state = apply_all(duel(), [Activate(A, "front-4"), RevealCard(A, "front-3")])  # water-3 revealed
    state = apply_all(state, [Activate(B, "front-4"), RevealCard(B, "front-1"), Activate(A, "back-4")])
    assert RULES.to_move(state) == (B,) and set(state.pending.slots) == {"back-1", "back-2", "back-3", "back-4"}
    state = RULES.apply(state, RevealCard(B, "back-1"))
    assert at(state, B, "back-1") == ("water-5", "rested") and at(state, B, "front-3") == ("water-3", "rested")


def test_assassin_repeats_while_the_declared_rank_is_right():
    # 9 Assassin (Targeted Strike). Ruling CI-7.
    state = apply_all(duel(), [Activate(A, "hand", "fire-9", 1), Select(B, "front-2"), Guess(A, "2")])
    assert state.phase is Phase.SELECT and at(state, B, "front-2") == ("water-2", "revealed")
    state = apply_all(state, [Select(B, "front-3"), Guess(A, "9")])
    assert RULES.to_move(state) == (B,) and at(state, A, "exposed-1") == ("fire-9", "rested")


def test_samurai_makes_the_opponent_reveal_a_hidden_card_of_their_choice():
    # Ace Samurai (Honorable Strike)
    state = RULES.apply(duel(), Activate(A, "hand", "fire-ace", 4))
    assert RULES.to_move(state) == (B,) and "hand" in state.pending.slots
    state = RULES.apply(state, RevealCard(B, "hand", "water-1", 1))
    assert at(state, B, "exposed-1") == ("water-1", "revealed")


def test_wild_reveals_then_shuffles_itself_back_face_down():
    # Wild Illusionist (Grand Illusion)
    state = apply_all(duel(), [Activate(A, "hand", "fire-wild", 2), RevealCard(A, "back-4")])
    assert state.phase is Phase.GATHER
    state = apply_all(state, [Rearrange(A, ("front-1",)), Shuffle(order=("fire-1", "fire-wild"))])
    assert at(state, A, "front-1") == ("fire-wild", "hidden") and "fire-1" in state.hands[A]
    assert "exposed-2" not in state.tables[A] and state.hand_counts[A] == 3


# ------------------------------------------------------------------------------------- capture and save
def test_capturing_the_illusionist_resets_the_opponent_and_two_captures_win():
    # "your opponent must immediately take all 11 of their original starting cards and follow the same steps in
    # the initial setup of the game." Ruling CI-12: the re-set-up is a recorded chance event.
    state = apply_all(duel(), [Activate(A, "front-4"), RevealCard(A, "front-1"), Save(B, None)])
    assert state.captures == [1, 0] and state.phase is Phase.SHUFFLE
    state = RULES.apply(state, Shuffle(order=tuple(WATER)))
    assert all(c.position is Position.HIDDEN for c in state.tables[B].values()) and state.hand_counts[B] == 3
    assert RULES.to_move(state) == (B,) and at(state, A, "front-4") == ("fire-4", "rested")
    state = apply_all(state, [Activate(B, "front-4"), RevealCard(B, "front-3")])
    state = apply_all(state, [Activate(A, "back-1"), RevealCard(A, "front-1"), Save(B, None)])  # a Fighter, column 1
    assert RULES.outcome(state).winners == (A,) and state.phase is Phase.OVER


def test_ci20_a_short_duel_is_won_by_the_first_capture_and_the_option_is_checked():
    short = RULES.apply(setup("capture", 2, captures=1), Deal(first=A, hands=(tuple(FIRE), tuple(WATER))))
    state = apply_all(short, [Activate(A, "front-4"), RevealCard(A, "front-1"), Save(B, None)])
    assert RULES.outcome(state).winners == (A,) and state.phase is Phase.OVER and state.captures == [1, 0]
    assert "1 time" in RULES.outcome(state).reason
    for wrong in (0, 3, "1"):
        with pytest.raises(MalformedAction, match="captures must be 1"):
            setup("capture", 2, captures=wrong)


def test_saving_with_a_known_ace_discards_it_and_hides_the_illusionist_again():
    # "you may discard your Ace from your hand or the table (regardless of its position)". Ruling CI-3.
    b = ["water-wild", "water-ace", "water-3", "water-4", "water-5", "water-6", "water-7", "water-8", "water-1",
         "water-9", "water-2"]
    state = apply_all(duel(b=b), [Activate(A, "front-4"), RevealCard(A, "front-2")])  # the Ace, revealed
    state = apply_all(state, [Activate(B, "front-4"), RevealCard(B, "front-1"), Activate(A, "hand", "fire-wild", 1),
                              RevealCard(A, "front-1")])
    assert state.phase is Phase.SAVE and RULES.to_move(state) == (B,)
    assert refused(state, Save(B, "front-4")).code == "not-an-ace"  # face up, and not the Ace
    state = RULES.apply(state, Save(B, "front-2"))
    assert at(state, B, "front-1") == ("water-wild", "hidden") and state.out[B] == ["water-ace"]
    assert "front-2" not in state.tables[B] and state.captures == [0, 0]


def test_a_blind_save_that_misses_the_ace_is_a_capture():
    # "If the card discarded was your Ace, return your Illusionist ... Otherwise, you must immediately take all 11
    # of your original starting cards". Ruling CI-2: it counts as a capture.
    state = apply_all(duel(), [Activate(A, "front-4"), RevealCard(A, "front-1")])
    missed = RULES.apply(state, Save(B, "back-1"))
    assert missed.captures == [1, 0] and missed.phase is Phase.SHUFFLE
    b = ["water-wild", "water-2", "water-3", "water-4", "water-ace", "water-6", "water-7", "water-8", "water-1",
         "water-9", "water-5"]
    found = RULES.apply(apply_all(duel(b=b), [Activate(A, "front-4"), RevealCard(A, "front-1")]),
                        Save(B, "back-1"))
    assert found.captures == [0, 0] and found.out[B] == ["water-ace"] and RULES.to_move(found) == (B,)


def test_revealing_your_own_illusionist_for_the_opponents_samurai_is_a_capture():
    # Ruling CI-9: it was revealed "from the ability of one of your [the opponent's] card effects".
    state = apply_all(duel(), [Activate(A, "hand", "fire-ace", 4), RevealCard(B, "front-1")])
    assert state.phase is Phase.SAVE and RULES.to_move(state) == (B,)


# -------------------------------------------------------------------------------------------- a real table
def test_a_duel_at_a_real_table_records_positions_looks_and_shuffles_not_faces():
    state = RULES.apply(setup("capture", 2, full_information=False), Deal(first=A))
    state = RULES.apply(state, Insight(A, "back-2"))
    assert state.looks == [1, 0]
    assert refused(state, Activate(A, "front-4")).code == "card-needed"
    assert refused(state, Activate(A, "front-4", "water-4")).code == "card-seen"  # not a Fire card
    state = apply_all(state, [Activate(A, "front-4", "fire-4"), RevealCard(A, "front-1", "water-wild"), Save(B, None)])
    assert state.captures == [1, 0] and RULES.chance(state, random.Random(1)) == Shuffle()
    state = RULES.apply(state, Shuffle())
    view = RULES.view(state)
    assert view["tables"][B]["front-1"] == {"card": None, "position": "hidden"}
    assert view["tables"][A]["front-4"] == {"card": "fire-4", "position": "rested"}


def test_activating_is_compulsory_and_a_turn_with_nothing_to_activate_passes():
    # Ruling CI-10: there is no pass; a player whose every card is rested (and whose hand is empty) can not
    # activate, so their turn passes (with its Cooldown).
    state = duel(first=B)
    state.tables[A] = {slot: Cell(cell.card, Position.RESTED) for slot, cell in state.tables[A].items()}
    state.hands[A], state.hand_counts[A] = [], 0
    state = RULES.apply(state, Activate(B, "front-2"))  # a Bard with nothing to rest: B's turn ends
    assert RULES.to_move(state) == (B,) and state.turns == 3
    assert all(cell.position is Position.REVEALED for cell in state.tables[A].values())
    assert "pass" not in {a.type for a in RULES.game_rules("capture").action_types}
