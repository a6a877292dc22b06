"""Clash of Corgis Original: the rulebook's example round, every card effect as printed, and the refusals."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup, MalformedAction
from companion.games.clash_of_corgis.actions import (
    Deal,
    Declare,
    Discard,
    Expose,
    Heal,
    OracleLook,
    Parry,
    PassTurn,
    Pick,
    Play,
    Target,
)
from companion.games.clash_of_corgis.effects import ORIGINAL, Role
from companion.games.clash_of_corgis.original_state import Phase
from tests.games.clash_helpers import RULES, apply_all, explicit_deal, refused, setup, with_hands

P1, P2, P3, P4 = range(4)


def game(hands: list[list[str]], deck_top: tuple[str, ...] = (), first: int = P1, hidden: bool = False):
    """A dealt Original game in which player i holds ``hands[i]`` (and filler) and the deck starts ``deck_top``."""
    if hidden:
        return RULES.apply(setup("original", len(hands), full_information=False), Deal(first=first))
    return RULES.apply(setup("original", len(hands)), explicit_deal(hands, 12, deck_top, first))


def play(seat: int, *cards: str, effect: str | None = None) -> Play:
    return Play(seat, cards, effect)


# ------------------------------------------------------------------------------------------------ setup
def test_setup_deals_twelve_each_and_sets_the_rest_aside_as_the_deck():
    # "Shuffle the deck and deal 12 cards to each player's hand. Place aside the remaining cards in the deck"
    for players, deck in ((2, 31), (3, 19), (4, 7)):
        state = RULES.apply(setup("original", players), Deal(seed=players))
        assert [len(h) for h in state.hands] == [12] * players
        assert state.deck_count == len(state.deck) == deck
        assert RULES.to_move(state) == (state.first,)


def test_the_first_player_is_random_and_the_previous_winner_goes_first_in_the_next_game():
    # "Randomly pick a player to go first. For consecutive games, the winner of the previous game goes first."
    firsts = {RULES.apply(setup("original", 4), Deal(seed=seed)).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.apply(setup("original", 4, first_player=2), Deal(seed=5)).first == 2
    assert refused(setup("original", 4, first_player=2), Deal(seed=5, first=1)).code == "bad-deal"


def test_two_to_four_players():
    # Ruling CO-1: 12 cards each from 55 leaves a deck (7 cards with four players); five would need 60.
    with pytest.raises(MalformedAction, match="2 to 4 players"):
        RULES.setup(GameSetup("clash-of-corgis", tuple("ABCDE"), "original", full_information=True))


def test_an_explicit_deal_must_use_every_card_once():
    deal = explicit_deal([["earth-1"], ["fire-7"]], 12)
    bad = Deal(first=0, hands=(deal.hands[0], deal.hands[0]), deck=deal.deck)
    assert "dealt twice" in refused(setup("original", 2), bad).message
    assert refused(setup("original", 2, full_information=False), Deal(seed=1, first=0)).code == "bad-deal"


# ------------------------------------------------------------------------------------- the example round
def test_four_player_example_round():
    # "1. P1 begins the round and plays a 1. 2. P2 beats the 1 with a 7. 3. P3 passes. 4. P4 beats the 7 with a
    # 9. 5. P1 beats the 9 with an A. 6. P2, P3 & P4 pass. P1 wins the round." Played with every effect: the
    # Oracle's top card does not match, the Archer exposes one of P3's cards, and P1 parries the Assassin's
    # skip with one Samurai and then plays it (an exposed card is played as a Single).
    state = game([["earth-1", "earth-ace"], ["fire-7"], [], ["water-9"]], deck_top=("fire-2",))
    picked = state.hands[P3][0]
    state = apply_all(state, [play(P1, "earth-1"), OracleLook(P1, None), play(P2, "fire-7"), Target(P2, P3),
                              Pick(card=picked), PassTurn(P3), play(P4, "water-9")])
    assert state.phase is Phase.PARRY and RULES.to_move(state) == (P1,)
    state = apply_all(state, [Parry(P1, "earth-ace"), play(P1, "earth-ace")])
    assert state.passed == []
    state = apply_all(state, [PassTurn(P2), PassTurn(P3), PassTurn(P4)])
    assert state.rounds_won == [1, 0, 0, 0]
    assert (state.round, state.lead, RULES.to_move(state)) == (2, None, (P1,))
    assert state.discard == ["earth-1", "fire-7", "water-9", "earth-ace"]  # the pile set aside
    assert state.exposed[P3] == [picked]
    assert state.deck[0] == "fire-2"  # the Oracle put it back


def test_the_example_round_at_a_real_table_with_hidden_hands():
    state = game([[], [], [], []], hidden=True)
    state = apply_all(state, [play(P1, "earth-1"), OracleLook(P1, None), play(P2, "fire-7"), Target(P2, P3),
                              Parry(P3, None)])
    assert RULES.to_move(state) == (P3,)  # the table shows the card the Archer picked
    assert RULES.chance(state, random.Random(1)) is None
    state = apply_all(state, [Pick(card="void-3"), PassTurn(P3), play(P4, "water-9")])
    assert state.phase is Phase.PARRY  # anyone with hidden cards may hold a Samurai
    state = apply_all(state, [Parry(P1, "earth-ace"), play(P1, "earth-ace"), PassTurn(P2), PassTurn(P3),
                              PassTurn(P4)])
    assert state.rounds_won == [1, 0, 0, 0]
    assert state.hand_counts == [10, 11, 11, 11] and state.exposed[P3] == ["void-3"]
    view = RULES.view(state)
    assert "hands" not in view and view["oracle_looks"] == 1


def test_hidden_play_of_a_card_already_face_up_is_refused():
    state = apply_all(game([[], []], hidden=True), [play(P1, "earth-ace"), PassTurn(P2)])
    assert state.discard == ["earth-ace"]
    violation = refused(state, play(P1, "earth-ace"))
    assert violation.code == "card-seen" and "already face up" in violation.message


# ------------------------------------------------------------------------------------------- refusals
def test_a_combo_must_match_the_type_and_beat_the_rank():
    state = game([["earth-8", "water-8", "fire-8"], ["earth-9", "water-9", "fire-9", "earth-6", "water-6",
                                                     "fire-6", "wind-9", "void-9"]])
    state = RULES.apply(state, play(P1, "earth-8", "water-8", "fire-8"))
    lower = refused(state, play(P2, "earth-6", "water-6", "fire-6"))
    assert lower.message == "A triple can only be beaten by a higher triple (above 8)."
    assert refused(state, play(P2, "wind-9", "void-9")).message == (
        "The leading combo is a triple: beat it with a triple, or pass.")
    assert refused(state, play(P2, "earth-9", "water-9", "fire-6")).code == "mixed-ranks"
    assert RULES.apply(state, play(P2, "earth-9", "water-9", "fire-9")).rounds_won == [0, 1]


def test_refusals_change_nothing_and_name_whose_turn_it_is():
    state = game([["earth-7"], ["earth-8"]])
    before = RULES.view(state)
    violation = refused(state, play(P2, "earth-8"))
    assert violation.code == "not-your-turn" and "P1" in violation.message
    assert refused(state, PassTurn(P1)).code == "must-lead"
    assert refused(state, play(P1, "earth-8")).code == "not-in-hand"
    assert refused(state, Play(P1, ("earth-99",))).kind.value == "malformed"
    assert RULES.view(state) == before


# ------------------------------------------------------------------------------------------- effects
def test_every_original_effect_is_printed_and_implemented():
    assert {r.title: e.name for r, e in ORIGINAL.items()} == {
        "Oracle": "Chance", "Bard": "Sing", "Healer": "Heal", "Monk": "Mix-Up", "Fighter": "Pierce", "Mage": "Burn",
        "Archer": "Deadeye", "Berserker": "Panic", "Assassin": "K.O.", "Samurai": "Parry", "Illusionist": "Illusion"}
    # The status page shows the text of the effect being resolved.
    state = RULES.apply(game([["earth-7"], ["fire-3"]]), play(P1, "earth-7"))
    assert RULES.view(state)["pending"]["text"] == ORIGINAL[Role.ARCHER].text


def test_oracle_matching_suit_discards_the_top_card_and_wins_the_round():
    # 1 Oracle (Chance): "If the suit of that card matches a suit from a card in this combo, discard it to win
    # the round."
    state = game([["earth-1", "fire-1"], ["earth-5"]], deck_top=("fire-9", "void-2"))
    state = RULES.apply(state, play(P1, "earth-1", "fire-1"))
    assert state.phase is Phase.ORACLE
    assert refused(state, OracleLook(P1, None)).code == "oracle-match"
    state = RULES.apply(state, OracleLook(P1, "fire-9"))
    assert state.rounds_won == [1, 0] and RULES.to_move(state) == (P1,) and state.lead is None
    assert state.deck[0] == "void-2" and "fire-9" in state.discard


def test_oracle_without_a_match_returns_the_card_to_the_top():
    # "Otherwise, return it to the top of the deck."
    state = game([["earth-1"], ["earth-5"]], deck_top=("fire-9",))
    state = RULES.apply(state, play(P1, "earth-1"))
    assert refused(state, OracleLook(P1, "fire-9")).code == "oracle-no-match"
    state = RULES.apply(state, OracleLook(P1, None))
    assert state.deck[0] == "fire-9" and RULES.to_move(state) == (P2,) and state.looks == 1


def test_bard_plays_again_with_its_suit():
    # 2 Bard (Sing): "Play your turn again, but if you do, at least 1 card from your next play must match this
    # card's suit."
    state = game([["earth-2", "water-2", "fire-5", "earth-6"], ["earth-9"]])
    state = RULES.apply(state, play(P1, "earth-2", "water-2", effect="water-2"))
    assert RULES.to_move(state) == (P1,) and state.bard_suit == "water"
    # Ruling CO-3: the extra play is a turn of the round like any other: it must beat the Bard.
    assert refused(state, play(P1, "fire-5")).code == "wrong-combo"
    single = game([["earth-2", "fire-5", "earth-8"], ["earth-9"]])
    single = RULES.apply(single, play(P1, "earth-2"))
    assert refused(single, play(P1, "fire-5")).code == "bard-suit"
    after = RULES.apply(single, play(P1, "earth-8"))
    assert after.lead.cards == ("earth-8",) and RULES.to_move(after) == (P2,)


def test_declining_the_bards_extra_turn_passes_play_on():
    # Ruling CO-3: declining is not one of the other players' passes; the Bard still leads.
    state = game([["earth-2"], ["earth-9"], ["fire-3"]])
    state = apply_all(state, [play(P1, "earth-2"), PassTurn(P1)])
    assert RULES.to_move(state) == (P2,) and state.lead.cards == ("earth-2",) and state.passed == []
    state = apply_all(state, [PassTurn(P2), PassTurn(P3)])
    assert state.rounds_won == [1, 0, 0]


def test_healer_draws_one_and_returns_one_to_the_bottom():
    # 3 Healer (Heal): "Draw 1 card. Then, return 1 card from your hand to the bottom of the deck."
    state = game([["earth-3", "fire-8"], ["earth-9"]], deck_top=("void-4",))
    state = RULES.apply(state, play(P1, "earth-3"))
    assert "void-4" in state.hands[P1] and state.phase is Phase.HEAL
    state = RULES.apply(state, Heal(P1, "fire-8"))
    assert state.deck[-1] == "fire-8" and "fire-8" not in state.hands[P1] and len(state.hands[P1]) == 11


def test_healer_and_oracle_do_nothing_on_an_empty_deck():
    # Ruling CO-10.
    for card in ("earth-3", "earth-1"):
        state = game([[card, "fire-8"], ["earth-9"]])
        state.discard, state.deck, state.deck_count = list(state.deck), [], 0
        after = RULES.apply(state, play(P1, card))
        assert after.phase is Phase.PLAY and RULES.to_move(after) == (P2,) and len(after.hands[P1]) == 11


def test_monk_low_makes_the_next_play_lower_even_after_a_pass():
    # 4 Monk (Mix-Up): "If you said low, the next play must be lower ranked to beat this play." Ruling CO-6.
    state = game([["earth-4", "water-9"], ["earth-9"], ["fire-2", "fire-9"]])
    state = apply_all(state, [play(P1, "earth-4"), Declare(P1, True), PassTurn(P2)])
    assert state.low
    violation = refused(state, play(P3, "fire-9"))
    assert violation.message == "The Monk said low: a single can only be beaten by a lower single (below 4)."
    state = apply_all(state, [play(P3, "fire-2"), PassTurn(P3)])  # a Bard, whose extra turn P3 declines
    assert not state.low and RULES.apply(state, play(P1, "water-9")).lead.rank == 9


def test_monk_high_is_as_usual_and_a_wild_beats_under_low():
    state = game([["earth-4"], ["earth-wild"]], first=P1)
    state = apply_all(state, [play(P1, "earth-4"), Declare(P1, True)])
    state = RULES.apply(state, play(P2, "earth-wild"))  # "This card can beat any rank."
    assert state.lead.rank == 4 and state.lead.role is Role.MONK and state.phase is Phase.DECLARE


def test_fighter_forces_the_next_player_to_expose_a_card_that_cannot_be_played_this_round():
    # 5 Fighter (Pierce): "Target the next player. Force them to expose a card from their hand. That card can
    # not be played this round." Ruling CO-5: the target chooses.
    state = game([["earth-5", "fire-1"], ["void-9", "void-8"]], deck_top=("water-2",))
    state = RULES.apply(state, play(P1, "earth-5"))
    assert state.phase is Phase.EXPOSE and RULES.to_move(state) == (P2,)
    state = RULES.apply(state, Expose(P2, "void-9"))
    assert state.exposed[P2] == ["void-9"] and state.locked == ["void-9"]
    exposed = RULES.scoreboard(state).rows[P2].cells[1]  # the page draws it marked, the words say so too
    assert exposed == "Void 9 (Assassin) (pierced)" and exposed.faces_json() == [{"face": "void-9", "mark": "pierced"}]
    assert refused(state, play(P2, "void-9")).message == (
        "Void 9 (Assassin) was exposed by a Fighter: it can not be played this round.")
    state = apply_all(state, [PassTurn(P2)])
    assert state.round == 2 and state.locked == []
    state = apply_all(state, [play(P1, "fire-1"), OracleLook(P1, None), play(P2, "void-9")])
    assert state.rounds_won == [1, 1]  # the Assassin's skip of P1 wins P2 the round (Ruling CO-7)


def test_mage_discards_a_card_of_its_suit_exposed_or_not():
    # 6 Mage (Burn): "Discard 1 card from your hand that matches this card's suit." Ruling CO-10.
    state = game([["fire-6", "fire-2", "earth-2"], ["earth-9"]])
    state = RULES.apply(state, play(P1, "fire-6"))
    assert refused(state, Discard(P1, "earth-2")).code == "wrong-suit"
    assert refused(state, Discard(P1, None)).code == "must-burn"
    state = RULES.apply(state, Discard(P1, "fire-2"))
    assert "fire-2" in state.discard and len(state.hands[P1]) == 10


def test_archer_exposes_a_random_card_from_any_other_players_hand():
    # 7 Archer (Deadeye): "Target any player. Randomly select a card from that player's hand and expose it."
    state = game([["earth-7"], ["earth-9"], ["fire-3"]])
    state = RULES.apply(state, play(P1, "earth-7"))
    assert refused(state, Target(P1, P1)).code == "bad-target"  # Ruling CO-12
    state = RULES.apply(state, Target(P1, P3))
    assert RULES.to_move(state) == ()  # a chance event: the companion picks by seed
    picked = RULES.apply(state, Pick(seed=99))
    again = RULES.apply(state, Pick(seed=99))
    assert picked.exposed[P3] == again.exposed[P3] and len(picked.exposed[P3]) == 1
    assert picked.exposed[P3][0] in state.hands[P3]


def test_berserker_makes_whoever_passes_expose_a_card():
    # 8 Berserker (Panic): "If a player chooses to pass on their turn while this card is part of a leading combo,
    # that player must expose a card of their choosing."
    state = game([["earth-8"], ["fire-3"], ["water-3"]])
    state = apply_all(state, [play(P1, "earth-8"), PassTurn(P2)])
    assert state.phase is Phase.EXPOSE and RULES.to_move(state) == (P2,)
    state = apply_all(state, [Expose(P2, "fire-3"), PassTurn(P3), Expose(P3, "water-3")])
    assert state.exposed[P2:] == [["fire-3"], ["water-3"]] and state.locked == []
    assert state.rounds_won == [1, 0, 0]


def test_assassin_skips_the_next_player():
    # 9 Assassin (K.O.): "Target the next player. Skip their turn."
    state = game([["earth-9"], ["fire-3"], ["water-3"]])
    state = RULES.apply(state, play(P1, "earth-9"))
    assert RULES.to_move(state) == (P3,) and state.passed == [P2]


def test_assassin_in_a_two_player_game_wins_the_round():
    # Ruling CO-7: a skipped turn counts as a pass, so the turn coming back ends the round.
    state = RULES.apply(game([["earth-9", "fire-2"], ["fire-3"]]), play(P1, "earth-9"))
    assert state.rounds_won == [1, 0] and RULES.to_move(state) == (P1,) and state.lead is None


def test_samurai_parries_an_effect_that_targets_its_player_and_is_exposed():
    # Ace Samurai (Parry): "During another player's turn, you may activate this card while in your hand to
    # cancel a card's effect that targets you as a player. If played this way, you must expose this card."
    state = game([["earth-9"], ["fire-ace", "fire-3"], ["water-3"]])
    state = RULES.apply(state, play(P1, "earth-9"))
    assert state.phase is Phase.PARRY and RULES.to_move(state) == (P2,)
    assert refused(state, Parry(P2, "fire-3")).code == "not-a-samurai"
    state = RULES.apply(state, Parry(P2, "fire-ace"))
    assert state.exposed[P2] == ["fire-ace"] and RULES.to_move(state) == (P2,)  # not skipped


def test_an_exposed_samurai_still_parries_and_letting_it_be_resolves_the_effect():
    # Ruling CO-8: "The exposed hand is part of a player's hand."
    state = game([["earth-5", "earth-9"], ["fire-ace", "fire-3"], ["water-3"]])
    state = apply_all(state, [play(P1, "earth-5"), Parry(P2, None), Expose(P2, "fire-ace")])
    assert state.locked == ["fire-ace"]
    state = apply_all(state, [PassTurn(P2), PassTurn(P3), play(P1, "earth-9")])
    assert state.phase is Phase.PARRY and RULES.to_move(state) == (P2,)
    state = RULES.apply(state, Parry(P2, "fire-ace"))
    assert state.exposed[P2] == ["fire-ace"] and RULES.to_move(state) == (P2,) and state.skip is None


def test_samurai_played_as_a_combo_ranks_above_nine_and_has_no_effect():
    # "Cards rank from low-to-high: 1 2 3 4 5 6 7 8 9 A"
    state = RULES.apply(game([["earth-ace"], ["fire-9"]]), play(P1, "earth-ace"))
    assert state.phase is Phase.PLAY and RULES.to_move(state) == (P2,)
    assert refused(state, play(P2, "fire-9")).message == "A single can only be beaten by a higher single (above A)."


def test_wild_copies_the_rank_and_effect_of_the_previous_leading_combo():
    # Wild Illusionist (Illusion): "This card can beat any rank. Once played, this card copies the rank and the
    # effect of the previous leading combo."
    state = game([["earth-ace"], ["fire-wild"], ["water-3"]])
    state = apply_all(state, [play(P1, "earth-ace"), play(P2, "fire-wild")])
    assert (state.lead.rank, state.lead.role) == (10, None)


def test_wild_copying_an_assassin_skips_the_next_player():
    state = game([["earth-9", "earth-2"], ["water-1"], ["fire-wild"], ["void-3"]])
    state = apply_all(state, [play(P1, "earth-9")])  # P2 skipped
    state = RULES.apply(state, play(P3, "fire-wild"))
    assert (state.lead.rank, state.lead.role) == (9, Role.ASSASSIN)
    assert RULES.to_move(state) == (P1,) and state.passed == [P4]


def test_wild_leading_a_round_is_rank_zero_with_no_effect_and_cannot_join_other_cards():
    # "If played first in a round, the rank becomes 0 and has no effect. The Wild can not be used in combination
    # with other non-Wild cards."
    state = game([["earth-wild", "fire-wild", "earth-1"], ["water-1"]])
    assert refused(state, play(P1, "earth-wild", "earth-1")).message == (
        "The Wild can not be used in combination with other non-Wild cards.")
    state = RULES.apply(state, play(P1, "earth-wild", "fire-wild"))
    assert (state.lead.rank, state.lead.role, RULES.to_move(state)) == (0, None, (P2,))


def test_a_wild_must_still_match_the_combo_type():
    # Ruling CO-9: "can beat any rank" is about rank; the type must match.
    state = game([["earth-3", "fire-3"], ["water-wild"]])
    state = RULES.apply(state, play(P1, "earth-3", "fire-3"))
    state = RULES.apply(state, Heal(P1, state.hands[P1][0])) if state.phase is Phase.HEAL else state
    assert refused(state, play(P2, "water-wild")).code == "wrong-combo"


def test_a_wild_copying_an_oracle_checks_its_own_suit():
    # Ruling CO-9: the Oracle looks for "a suit from a card in this combo", and the combo is now the Wild.
    state = game([["earth-1"], ["fire-wild"]], deck_top=("fire-4",))
    state = apply_all(state, [play(P1, "earth-1"), OracleLook(P1, None), play(P2, "fire-wild")])
    assert state.phase is Phase.ORACLE
    state = RULES.apply(state, OracleLook(P2, "fire-4"))
    assert state.rounds_won == [0, 1]


def test_exposed_cards_are_played_only_as_singles():
    # "exposed cards can only be played as a Single combination."
    state = game([["earth-5", "earth-2", "void-2"], ["fire-3", "water-3"]])
    state = apply_all(state, [play(P1, "earth-5"), Expose(P2, "fire-3"), PassTurn(P2)])
    state = apply_all(state, [play(P1, "earth-2", "void-2"), PassTurn(P1)])
    assert refused(state, play(P2, "fire-3", "water-3")).message == (
        "Exposed cards can only be played as a Single combination.")


def test_the_last_card_wins_at_once_without_its_effect():
    # "Be the first player to get rid of all cards in their hand." Ruling CO-11.
    state = with_hands(game([[], []]), [["earth-9"], ["fire-3", "fire-4"]])
    state = RULES.apply(state, play(P1, "earth-9"))
    assert RULES.outcome(state).winners == (P1,) and state.skip is None and state.phase is Phase.OVER
    assert refused(state, PassTurn(P2)).code == "game-over"


def test_a_mage_burning_the_last_card_wins():
    state = with_hands(game([[], []]), [["earth-6", "earth-1"], ["fire-3"]])
    state = apply_all(state, [play(P1, "earth-6"), Discard(P1, "earth-1")])
    assert RULES.outcome(state).winners == (P1,)


def test_a_pass_does_not_lock_a_player_out_of_the_round():
    # Ruling CO-2: the round ends only when "all other players, on their turn, 'Pass' in succession".
    state = game([["earth-3"], ["fire-8"], ["water-9", "water-4"]], deck_top=("void-1",))
    state = apply_all(state, [play(P1, "earth-3"), Heal(P1, "void-1"), PassTurn(P2), play(P3, "water-4"),
                              Declare(P3, False)])
    assert state.passed == [] and RULES.to_move(state) == (P1,)
    state = apply_all(state, [PassTurn(P1), play(P2, "fire-8")])  # P2 passed before and beats now
    assert state.lead.owner == P2


def test_a_mage_may_burn_an_exposed_card_even_one_pierced_by_a_fighter():
    # Ruling CO-10: "The exposed hand is part of a player's hand"; a pierced card can not be *played*.
    state = game([["earth-5"], ["fire-2", "fire-6"]])
    state = apply_all(state, [play(P1, "earth-5"), Expose(P2, "fire-2"), play(P2, "fire-6"), Discard(P2, "fire-2")])
    assert state.exposed[P2] == [] and state.discard == ["fire-2"]


def test_a_setup_that_names_no_variant_is_the_original_game():
    state = RULES.setup(GameSetup("clash-of-corgis", ("A", "B"), full_information=True))
    assert state.setup.variant == "original" and RULES.view(state)["variant"] == "original"
