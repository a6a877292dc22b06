"""Clash of Corgis Treasure Island: the rulebook's example fight, every card effect and bonus as printed, the
deck running out, and play at a real table."""

from __future__ import annotations

import pytest

from companion.games.actions import Reshuffle
from companion.games.base import GameSetup, MalformedAction
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.actions import (
    Build,
    Deal,
    Discard,
    Fight,
    OracleLook,
    Parry,
    PassTurn,
    Pick,
    Retire,
    Reveal,
    Target,
)
from companion.games.clash_of_corgis.effects import BONUSES, TREASURE_ISLAND, Role
from companion.games.clash_of_corgis.treasure_island import bonus_of, party_total
from companion.games.clash_of_corgis.treasure_state import Phase
from tests.games.clash_helpers import RULES, apply_all, refused, setup

P1, P2, P3 = range(3)


def table(players: int = 2, hands: dict[int, list[str]] | None = None, parties: dict[int, list[str]] | None = None,
          loot: dict[int, list[str]] | None = None, deck_top: tuple[str, ...] = (), first: int = P1,
          deck_size: int | None = None):
    """A Treasure Island game at the first player's Build phase, with the named cards where asked: the rest of the
    hands are filler, the rest of the cards the deck (``deck_size`` cards of it; the others discarded)."""
    state = RULES.apply(setup("treasure-island", players), Deal(seed=1, first=first))
    hands, parties, loot = hands or {}, parties or {}, loot or {}
    named = {c for group in (hands, parties, loot) for cs in group.values() for c in cs} | set(deck_top)
    pool = [c for c in cards.all_cards() if c not in named and not cards.is_ace(c) and not cards.is_wild(c)]
    pool += [c for c in cards.all_cards() if c not in named and c not in pool]  # Aces and Wilds only if needed
    s = state.clone()
    for seat in range(players):
        held = list(hands.get(seat, []))
        while len(held) < 3:
            held.append(pool.pop(0))
        s.hands[seat], s.hand_counts[seat] = held, len(held)
        s.parties[seat] = list(parties.get(seat, []))
        s.loot[seat] = list(loot.get(seat, []))
    s.deck = list(deck_top) + pool
    if deck_size is not None:
        s.deck, s.discard = s.deck[:deck_size], s.deck[deck_size:]
    s.deck_count = len(s.deck)
    assert s.all_cards() == sorted(cards.all_cards())
    return s


# ------------------------------------------------------------------------------------------------ setup
def test_setup_deals_three_each_and_the_first_player_draws_and_builds():
    # "Shuffle the deck and deal 3 cards to each player's hand. Place aside the remaining cards in the deck"
    state = RULES.apply(setup("treasure-island", 5), Deal(seed=3))
    assert state.hand_counts == [3] * 5 and state.deck_count == 55 - 15
    assert state.phase is Phase.BUILD and RULES.to_move(state) == (state.first,)
    # Ruling TI-9: two to five players.
    with pytest.raises(MalformedAction, match="2 to 5 players"):
        RULES.setup(GameSetup("clash-of-corgis", tuple("ABCDEF"), "treasure-island", full_information=True))


def test_every_effect_and_bonus_is_printed():
    assert set(TREASURE_ISLAND) == set(Role)
    assert set(BONUSES) == {"earth", "water", "fire", "wind", "void", "double"}


# ----------------------------------------------------------------------------------------- the example fight
def test_example_of_a_fight():
    # "You have a 7 and 9 in your party. ... you declare and take 2 cards ... Total Rank of Foes: 10 + 1 = 11.
    # Total Rank of Your Party: 7 + 9 = 16. You win because your rank is higher! Take the foes as loot and retire
    # your party by discarding your party to the discard pile."
    state = table(parties={P1: ["earth-7", "fire-9"]}, deck_top=("wind-ace", "void-1"))
    state = apply_all(state, [Build(P1, None), Fight(P1, 2)])
    fight = state.last_fight
    assert (fight.party_total, fight.foes_total, fight.won) == (16, 11, True)
    assert state.loot[P1] == ["wind-ace", "void-1"] and state.parties[P1] == []
    assert state.discard[-2:] == ["earth-7", "fire-9"]
    assert RULES.to_move(state) == (P2,) and state.phase is Phase.BUILD


def test_a_tie_loses_and_the_foes_are_discarded():
    # "Lose: If the total sum of the rank of your party is equal to or lower than ... discard the foes"
    state = table(parties={P1: ["earth-5"]}, deck_top=("fire-2", "void-3"))
    state = apply_all(state, [Build(P1, None), Fight(P1, 2)])
    assert state.last_fight.won is False and state.loot[P1] == []
    assert {"fire-2", "void-3", "earth-5"} <= set(state.discard)


# ------------------------------------------------------------------------------------------- turn structure
def test_draw_build_and_replace():
    # Phase 1: "Draw from the deck until you have 3 cards in your hand." Phase 2: "(You can have a maximum of 2
    # cards in your party.) If you already have 2 cards in your party, you may replace a card"
    state = table(hands={P1: ["earth-9", "fire-8", "void-9"]}, parties={P1: ["earth-1", "water-2"]})
    assert refused(state, Build(P1, "earth-9")).message == (
        "You can have a maximum of 2 cards in your party: name the party card this one replaces.")
    state = RULES.apply(state, Build(P1, "earth-9", "water-2"))
    assert state.parties[P1] == ["earth-1", "earth-9"] and state.discard[-1] == "water-2"
    state = apply_all(state, [PassTurn(P1), Build(P2, None)])  # P2 has no party: no fight, the turn ends
    assert state.hand_counts[P1] == 3 and "earth-9" not in state.hands[P1]  # drew back up to 3


def test_fighting_is_optional_and_the_party_stays_without_a_fight():
    # Ruling TI-1.
    state = table(hands={P1: ["earth-8"]})
    state = apply_all(state, [Build(P1, "earth-8"), Target(P1, P2), PassTurn(P1)])
    assert state.parties[P1] == ["earth-8"] and RULES.to_move(state) == (P2,)
    assert refused(table(), Fight(P1, 1)).code == "waiting-build"
    state = RULES.apply(table(), Build(P1, None))
    assert RULES.to_move(state) == (P2,)  # no party: no fight, the turn ends


def test_up_to_three_foes():
    state = RULES.apply(table(parties={P1: ["earth-9"]}), Build(P1, None))
    assert refused(state, Fight(P1, 4)).message == "You may declare and take 1, 2, or 3 foes."


# ------------------------------------------------------------------------------------------------ effects
def test_oracle_takes_the_top_card_as_loot_when_it_matches():
    # 1 Oracle (Future Sight)
    state = table(hands={P1: ["fire-1"]}, deck_top=("fire-6",))
    state = apply_all(state, [Build(P1, "fire-1"), OracleLook(P1, "fire-6")])
    assert state.loot[P1] == ["fire-6"] and state.phase is Phase.FIGHT
    other = apply_all(table(hands={P1: ["fire-1"]}, deck_top=("water-6",)), [Build(P1, "fire-1")])
    assert refused(other, OracleLook(P1, "water-6")).code == "oracle-no-match"
    assert RULES.apply(other, OracleLook(P1, None)).deck[0] == "water-6"


def test_bard_draws_and_may_build_again():
    # 2 Bard (Inspiration)
    state = table(hands={P1: ["fire-2", "earth-9"]}, deck_top=("void-4",))
    state = RULES.apply(state, Build(P1, "fire-2"))
    assert state.phase is Phase.BUILD and "void-4" in state.hands[P1] and state.hand_counts[P1] == 3
    state = RULES.apply(state, Build(P1, "earth-9"))
    assert state.parties[P1] == ["fire-2", "earth-9"]


def test_healer_keeps_one_card_and_may_keep_itself():
    # 3 Healer (Heal): "you may keep one card on the table (except for another Healer)". Ruling TI-4.
    state = table(parties={P1: ["fire-3", "earth-9"]}, deck_top=("void-1",))
    state = apply_all(state, [Build(P1, None), Fight(P1, 1)])
    assert state.phase is Phase.RETIRE
    assert refused(state, Retire(P1, ("fire-3", "earth-9"))).code == "cannot-keep"
    kept = RULES.apply(state, Retire(P1, ("fire-3",)))
    assert kept.parties[P1] == ["fire-3"] and "earth-9" in kept.discard


def test_monk_makes_another_player_fight_three_foes_now():
    # 4 Monk (Negotiation): "Target any player. They must fight 3 foes right now, if possible." Ruling TI-2.
    state = table(hands={P1: ["fire-4"]}, parties={P2: ["earth-1"]}, deck_top=("void-9", "wind-8", "water-7"))
    state = RULES.apply(state, Build(P1, "fire-4"))
    assert refused(state, Target(P1, P1)).code == "bad-target"
    state = RULES.apply(state, Target(P1, P2))
    assert state.last_fight.seat == P2 and state.last_fight.won is False and len(state.last_fight.foes) == 3
    assert state.parties[P2] == [] and RULES.to_move(state) == (P1,) and state.phase is Phase.FIGHT


@pytest.mark.parametrize(("effect", "found", "missed"), [
    ("fire-5", "water-3", "water-5"),  # Fighter: "If that card is lower than 5"
    ("fire-6", "fire-9", "water-9"),  # Mage: "If that card is the same suit as this card"
    ("fire-7", "water-8", "water-7"),  # Archer: "If that card is higher than 7"
])
def test_fighter_mage_and_archer_steal_loot_or_discard_the_card(effect, found, missed):
    for card, steals in ((found, True), (missed, False)):
        state = table(hands={P1: [effect], P2: [card, "earth-2", "earth-3"]}, loot={P2: ["void-1"]})
        state = apply_all(state, [Build(P1, effect), Target(P1, P2), Pick(card=card)])
        assert (state.loot[P1] == ["void-1"]) is steals and (card in state.discard) is not steals
        assert state.phase is Phase.FIGHT and state.looks == 1


def test_a_look_that_finds_its_card_with_no_loot_to_steal_does_nothing():
    # Ruling TI-3: "if possible. Otherwise" — "Otherwise" is about the card, not the loot.
    state = table(hands={P1: ["fire-5"], P2: ["water-3"]})
    state = apply_all(state, [Build(P1, "fire-5"), Target(P1, P2), Pick(card="water-3")])
    assert "water-3" in state.hands[P2] and state.loot == [[], []]


def test_berserker_discards_the_highest_card_and_its_player_breaks_a_tie():
    # 8 Berserker (Intimidation)
    state = table(hands={P1: ["fire-8"], P2: ["water-9", "earth-2", "void-4"]})
    state = apply_all(state, [Build(P1, "fire-8"), Target(P1, P2)])
    assert "water-9" in state.discard and state.hand_counts[P2] == 2
    tie = table(hands={P1: ["fire-8"], P2: ["water-9", "earth-9", "void-4"]})
    tie = apply_all(tie, [Build(P1, "fire-8"), Target(P1, P2)])
    assert tie.phase is Phase.CHOOSE and RULES.to_move(tie) == (P1,)
    assert refused(tie, Discard(P1, "void-4")).code == "not-highest"
    assert "earth-9" in RULES.apply(tie, Discard(P1, "earth-9")).discard


def test_assassin_discards_a_card_of_the_targets_party():
    # 9 Assassin (Elimination)
    state = table(hands={P1: ["fire-9"]}, parties={P2: ["water-1", "earth-2"]})
    state = apply_all(state, [Build(P1, "fire-9"), Target(P1, P2), Discard(P1, "earth-2")])
    assert state.parties[P2] == ["water-1"] and state.discard[-1] == "earth-2"


def test_samurai_parries_into_the_party_or_replaces_or_is_discarded():
    # Ace Samurai (Parry)
    state = table(hands={P1: ["fire-9"], P2: ["water-ace"]}, parties={P2: ["water-1", "earth-2"]})
    state = apply_all(state, [Build(P1, "fire-9"), Target(P1, P2)])
    assert state.phase is Phase.PARRY and RULES.to_move(state) == (P2,)
    replaced = RULES.apply(state, Parry(P2, "water-ace", "earth-2"))
    assert replaced.parties[P2] == ["water-1", "water-ace"] and replaced.phase is Phase.FIGHT
    dropped = RULES.apply(state, Parry(P2, "water-ace"))
    assert dropped.parties[P2] == ["water-1", "earth-2"] and dropped.discard[-1] == "water-ace"
    room = table(hands={P1: ["fire-9"], P2: ["water-ace"]}, parties={P2: ["water-1"]})
    room = apply_all(room, [Build(P1, "fire-9"), Target(P1, P2), Parry(P2, "water-ace")])
    assert room.parties[P2] == ["water-1", "water-ace"]


def test_wild_copies_a_party_effect_for_this_turn_only():
    # Wild Illusionist (Copycat). Ruling TI-5: the effect only, resolved now; a copied Healer keeps at retire.
    state = table(hands={P1: ["fire-wild"]}, parties={P1: ["water-3"]}, deck_top=("void-1", "void-2"))
    state = apply_all(state, [Build(P1, "fire-wild"), Fight(P1, 1)])
    assert state.phase is Phase.RETIRE and state.wild_copy is Role.HEALER
    assert RULES.apply(state, Retire(P1, ("fire-wild",))).parties[P1] == ["fire-wild"]
    monk = table(hands={P1: ["fire-wild"]}, parties={P1: ["water-4"], P2: ["earth-1"]})
    monk = apply_all(monk, [Build(P1, "fire-wild"), Target(P1, P2)])
    assert monk.last_fight.seat == P2 and len(monk.last_fight.foes) == 3


# ------------------------------------------------------------------------------------------------ bonuses
@pytest.mark.parametrize(("party", "foes", "bonus", "ours", "theirs"), [
    (["water-3", "water-5"], ["void-9"], "water", 15, 9),  # Water: a card to 10 (the lower one)
    (["fire-3", "fire-5"], ["void-9", "earth-2"], "fire", 8, 2),  # Fire: a foe to 0 (the highest)
    (["void-3", "void-5"], ["fire-9", "earth-8"], "void", 18, 17),  # Void: +10
    (["earth-4", "water-4"], ["fire-6"], "double", 16, 6),  # Double: x2
    (["earth-ace", "water-ace"], ["fire-6"], "double", 40, 6),  # "a party with 2 Aces ... will"
])
def test_bonus_effects(party, foes, bonus, ours, theirs):
    state = table(parties={P1: party}, deck_top=tuple(foes))
    state = apply_all(state, [Build(P1, None), Fight(P1, len(foes))])
    fight = state.last_fight
    assert (fight.bonus, fight.party_total, fight.foes_total) == (bonus, ours, theirs)


def test_an_ace_and_a_wild_are_not_a_double():
    assert bonus_of(["earth-ace", "water-wild"]) is None and party_total(["earth-ace", "water-wild"], None) == 20


def test_earth_bonus_keeps_the_party_after_a_lost_fight():
    # Earth Bonus: "If you lose a fight, you may keep your party on the table". Ruling TI-6: a choice.
    state = table(parties={P1: ["earth-1", "earth-2"]}, deck_top=("void-9",))
    state = apply_all(state, [Build(P1, None), Fight(P1, 1)])
    assert state.phase is Phase.RETIRE
    assert RULES.apply(state, Retire(P1, ("earth-1", "earth-2"))).parties[P1] == ["earth-1", "earth-2"]


def test_wind_bonus_may_replace_a_foe():
    # Wind Bonus: "You may choose 1 foe to discard and replace with a new foe from the top of the deck."
    state = table(parties={P1: ["wind-3", "wind-5"]}, deck_top=("void-9", "earth-1"))
    state = apply_all(state, [Build(P1, None), Fight(P1, 1)])
    assert state.phase is Phase.WIND and state.foes == ["void-9"]
    state = RULES.apply(state, Discard(P1, "void-9"))
    assert state.last_fight.foes == ("earth-1",) and state.last_fight.won and state.loot[P1] == ["earth-1"]


# --------------------------------------------------------------------------------------- end and the deck
def test_ten_loot_wins_at_once():
    # "Be the first player to win 10 points". Ruling TI-7: the moment it happens, before the party retires.
    loot = [c for c in cards.suit_cards("earth")[:9]]
    state = table(parties={P1: ["fire-9"]}, loot={P1: loot}, deck_top=("void-1",))
    state = apply_all(state, [Build(P1, None), Fight(P1, 1)])
    assert RULES.outcome(state).winners == (P1,) and state.parties[P1] == ["fire-9"]


def test_the_current_player_reshuffles_the_discard_pile_when_the_deck_runs_out_even_while_taking_foes():
    # "If the deck runs out of cards (at aytime during the game), the current turn's player must immediately
    # shuffle all of the cards in the discard pile and form a new deck." Ruling TI-8.
    state = table(parties={P1: ["fire-9"]}, deck_size=1)
    state = apply_all(state, [Build(P1, None), Fight(P1, 2)])
    assert state.phase is Phase.RESHUFFLE and RULES.to_move(state) == () and len(state.foes) == 1
    state = RULES.apply(state, Reshuffle(seed=4))
    assert state.last_fight is not None and len(state.last_fight.foes) == 2


# -------------------------------------------------------------------------------------------- a real table
def test_a_turn_at_a_real_table_records_the_look_and_the_foes_when_they_show():
    state = RULES.apply(setup("treasure-island", 2, full_information=False), Deal(first=P1))
    state = apply_all(state, [Build(P1, "earth-7"), Target(P1, P2), Parry(P2, None)])
    assert state.phase is Phase.PICK and RULES.to_move(state) == (P1,)
    state = RULES.apply(state, Pick(card=None))  # the Archer saw a card higher than 7: a steal, if possible
    state = apply_all(state, [Fight(P1, 2), Reveal(("void-1", "fire-2"))])
    assert state.last_fight.won and state.loot[P1] == ["void-1", "fire-2"] and state.looks == 1
    assert refused(state, Build(P2, "void-1")).code == "card-seen"


def test_a_berserker_at_a_real_table_has_the_hand_revealed():
    state = RULES.apply(setup("treasure-island", 2, full_information=False), Deal(first=P1))
    state = apply_all(state, [Build(P1, "earth-8"), Target(P1, P2), Parry(P2, None)])
    assert state.phase is Phase.REVEAL and RULES.to_move(state) == (P2,)
    assert refused(state, Reveal(("fire-9",))).code == "hand-count"
    state = RULES.apply(state, Reveal(("fire-9", "void-2", "wind-ace")))
    assert state.discard == ["wind-ace"] and state.hand_counts[P2] == 2
