"""PigzUp!: every rule of the rulebook and every ruling (PZ-n in docs/rulings.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.actions import Deal
from companion.games.base import DecisionRequired, GameSetup, IllegalMove, MalformedAction, RuleViolation
from companion.games.pigzup import PigzUp
from companion.games.pigzup.actions import Flip, MatchVerdict, RollDie, WrongStyle
from companion.games.pigzup.state import Phase, PigzState, Style

A, B, C, D = range(4)
PIGZ = PigzUp()


def start(players=("Ann", "Ben", "Cat", "Dan"), variant="standard", seed=None, **options) -> PigzState:
    setup = GameSetup("pigzup", players, variant, options, full_information=seed is not None)
    state = PIGZ.apply(PIGZ.setup(setup), Deal(seed))
    if variant == "die":
        state = PIGZ.apply(state, RollDie(1))
    return state


def flips(state, *cards):
    for card in cards:
        (seat,) = PIGZ.to_move(state)
        state = PIGZ.apply(state, Flip(seat, card))
    return state


def refused(state, action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        PIGZ.apply(state, action)
    return info.value


def with_stacks(state: PigzState, stacks: list[list[str]]) -> PigzState:
    """A full-information state whose players hold exactly ``stacks`` (top first); the rest is out of play."""
    s = state.clone()
    rest = sorted(PIGZ.deck(s).cards())
    for stack in stacks:
        for card in stack:
            rest.remove(card)
    s.stacks = [list(st) for st in stacks]
    s.stack_counts = [len(st) for st in stacks]
    s.out_of_play, s.out_of_play_count = rest, len(rest)
    return s


# ------------------------------------------------------------------------------------------ setup and dealing
def test_deal_splits_the_deck_evenly_and_sets_the_remainder_aside():
    # "distribute them evenly amongst the players"; Ruling PZ-14: 48 = 5 x 9 + 3, the 3 stay out of play.
    state = start(players=("A", "B", "C", "D", "E"), seed=4)
    assert state.stack_counts == [9] * 5
    assert len(state.out_of_play) == 3 == state.out_of_play_count
    assert start(players=("A", "B", "C", "D")).stack_counts == [12] * 4
    assert (PIGZ.min_players, PIGZ.max_players) == (2, 6)


def test_the_youngest_player_flips_first():
    # "Starting with the youngest player and moving clockwise" (Ruling PZ-16: the referee names the seat).
    state = start(first_player=2)
    assert PIGZ.to_move(state) == (C,)
    state = flips(state, "2-pink-pink", "3-blue-blue")
    assert PIGZ.to_move(state) == (A,)


# ------------------------------------------------------------------------------------------ matching
def test_same_number_and_a_shared_colour_in_any_slot_is_a_match():
    # "Two cards match when both the number and one of the colors on the cards are identical." (PZ-1)
    state = flips(start(), "3-pink-blue", "3-green-pink")
    assert state.phase is Phase.RACE
    assert state.race.racers == (B, A) and state.race.piggies == 3
    assert PIGZ.scoreboard(state).prompt == "PIGZUP race: Ben vs Ann, 3 piggies!"


def test_both_colours_shared_is_still_a_match():
    state = flips(start(), "2-pink-blue", "2-blue-pink")
    assert state.phase is Phase.RACE and state.race.piggies == 2


@pytest.mark.parametrize("second", ["3-green-yellow", "4-pink-blue", "2-blue-blue"])
def test_no_match_without_both_number_and_colour(second):
    state = flips(start(), "3-pink-blue", second)
    assert state.phase is Phase.FLIP and PIGZ.to_move(state) == (C,)


def test_only_visible_top_cards_match():
    # Ruling PZ-2: Ann's 3 pink/blue is covered by her next flip, so Ben's 3 blue/green no longer matches it.
    state = flips(start(), "3-pink-blue", "2-green-green", "4-yellow-yellow", "2-yellow-blue", "4-pink-green",
                  "3-blue-green")
    assert state.phase is Phase.FLIP and PIGZ.to_move(state) == (C,)


def test_a_flip_matching_two_players_races_the_first_clockwise():
    # Ruling PZ-3: with only 8 piggies a three-way race cannot be stacked; the first match clockwise races.
    state = flips(start(), "2-pink-green", "2-blue-yellow", "3-pink-pink", "2-green-blue")
    assert state.race.racers == (D, A)


# ------------------------------------------------------------------------------------------ winning a match
def test_winner_discards_loser_takes_cards_back_and_winner_flips_next():
    state = with_stacks(start(seed=1), [["4-blue-blue", "2-pink-pink", "2-green-green"],
                                         ["3-pink-blue", "2-pink-yellow", "4-green-green"],
                                         ["4-yellow-yellow", "3-yellow-yellow"],
                                         ["3-green-yellow", "4-pink-pink"]])
    state = flips(state, "4-blue-blue", "3-pink-blue", "4-yellow-yellow", "3-green-yellow",
                  "2-pink-pink", "2-pink-yellow")
    assert state.race.racers == (B, A) and state.race.piggies == 2
    state = PIGZ.apply(state, MatchVerdict(B, "Ben's pile stood", reaction_ms=900, stacking_ms=2100))
    # "Whenever you win a match, put your flipped cards in a common discard pile."
    assert sorted(state.discard) == ["2-pink-yellow", "3-pink-blue"]
    # "Whenever you lose a match, return your flipped cards face down to the bottom of your stack." (PZ-13: in
    # the order they were flipped.)
    assert state.stacks[A] == ["2-green-green", "4-blue-blue", "2-pink-pink"]
    assert state.faceup[A] == [] and state.faceup[B] == []
    assert state.faceup[C] == ["4-yellow-yellow"]  # bystanders keep their cards (PZ-7)
    # "the winner of the match resumes play by flipping a card"
    assert PIGZ.to_move(state) == (B,)
    assert PIGZ.view(state)["matches"][0]["reaction_ms"] == 900


def test_first_player_out_of_cards_wins():
    state = with_stacks(start(seed=1), [["2-pink-pink"], ["2-pink-blue", "4-blue-blue"], ["3-green-green"],
                                        ["4-yellow-yellow"]])
    state = flips(state, "2-pink-pink", "2-pink-blue")
    state = PIGZ.apply(state, MatchVerdict(A))  # Ann wins with her last card: no cards left at all
    outcome = PIGZ.outcome(state)
    assert outcome.winners == (A,) and outcome.reason == "First to run out of cards"
    assert state.phase is Phase.OVER
    assert isinstance(refused(state, Flip(B, "4-blue-blue")), IllegalMove)


def test_empty_stack_with_face_up_cards_is_skipped_but_still_in_play():
    # Ruling PZ-10/11: Ann has flipped everything but her face-up card can still be matched.
    state = with_stacks(start(seed=1), [["2-pink-pink"], ["3-blue-blue", "4-green-green"], ["4-yellow-yellow"],
                                        ["3-green-green", "2-pink-green"]])
    state = flips(state, "2-pink-pink", "3-blue-blue", "4-yellow-yellow", "3-green-green")
    assert PIGZ.to_move(state) == (B,)  # Ann is skipped: nothing to flip
    state = flips(state, "4-green-green")
    state = flips(state, "2-pink-green")  # Dan matches Ann's face-up 2 pink/pink
    assert state.race.racers == (D, A)


def test_everyone_flipped_everything_with_no_match_fewest_cards_wins_and_ties_share():
    state = with_stacks(start(seed=1), [["2-pink-pink"], ["3-blue-blue"], ["4-yellow-yellow"],
                                        ["3-green-green", "2-blue-blue"]])
    state = flips(state, "2-pink-pink", "3-blue-blue", "4-yellow-yellow", "3-green-green", "2-blue-blue")
    outcome = PIGZ.outcome(state)
    assert outcome.winners == (A, B, C)  # one card each; Dan has two (Ruling PZ-12: a tie shares the win)
    assert outcome.reason == "Everyone has flipped every card: fewest cards wins (1)"


def test_void_match_returns_both_and_play_moves_on_from_the_flipper():
    state = flips(start(), "3-pink-blue", "3-green-pink")
    state = PIGZ.apply(state, MatchVerdict(None, "Both piles toppled."))
    assert state.faceup[A] == [] and state.faceup[B] == []
    assert state.stack_counts[:2] == [12, 12]
    assert PIGZ.to_move(state) == (C,)


# ------------------------------------------------------------------------------------------ refusals
def test_refusals_in_plain_words():
    state = start()
    assert refused(state, Flip(B, "2-pink-pink")).message == "It is Ann's turn to flip, not Ben's."
    assert isinstance(refused(state, Flip(A, "5-pink-pink")), MalformedAction)
    assert refused(state, MatchVerdict(A)).code == "no-race"
    state = flips(state, "3-pink-blue")
    assert refused(state, Flip(B, "3-pink-blue")).message == (
        "3 pink/blue is already face up in front of Ann: check that card."
    )
    state = flips(state, "3-green-pink")
    during = refused(state, Flip(C, "2-pink-pink"))
    assert isinstance(during, DecisionRequired)
    assert during.message == "Ben and Ann are racing for 3 piggies: the race needs a verdict first."
    assert refused(state, MatchVerdict(C)).message == "Cat is not in this race (Ben vs Ann)."
    assert refused(state, WrongStyle(A)).code == "no-die"


def test_full_information_flip_must_be_the_top_card():
    state = with_stacks(start(seed=1), [["2-pink-pink"], ["3-blue-blue"], ["4-yellow-yellow"], ["4-green-green"]])
    assert refused(state, Flip(A, "3-pink-pink")).message == "3 pink/pink is not Ann's top card."


# ------------------------------------------------------------------------------------------ the die
def test_die_sets_the_style_and_the_winner_rolls_again():
    state = start(variant="die")
    assert state.style in set(Style)
    state = flips(state, "3-pink-blue", "3-green-pink")
    state = PIGZ.apply(state, MatchVerdict(A))
    assert state.phase is Phase.ROLL and PIGZ.to_move(state) == ()
    assert PIGZ.scoreboard(state).prompt == "Ann rolls the die."
    rolled = PIGZ.apply(state, PIGZ.chance(state, random.Random(3)))
    assert rolled.phase is Phase.FLIP and PIGZ.to_move(rolled) == (A,)


@pytest.mark.parametrize(("face", "style"), [(1, Style.ONE_HAND), (4, Style.FINGERS), (6, Style.EARS)])
def test_die_faces_map_two_to_each_style(face, style):
    seed = next(s for s in range(1000) if random.Random(s).randint(1, 6) == face)
    state = PIGZ.apply(PIGZ.setup(GameSetup("pigzup", ("A", "B"), "die")), Deal(None))
    state = PIGZ.apply(state, RollDie(seed))
    assert (state.die_face, state.style) == (face, style)


def test_wrong_style_gives_the_match_to_the_other_racer():
    # "if one player uses the wrong stacking style, the other player automatically wins the match."
    state = flips(start(variant="die"), "3-pink-blue", "3-green-pink")
    state = PIGZ.apply(state, WrongStyle(B))
    assert state.results[-1].winner == A
    assert state.results[-1].reason.startswith("Ben did not stack")
    assert state.discard == ["3-pink-blue"]


# ------------------------------------------------------------------------------------------ random games
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.sampled_from(["standard", "die"]), st.integers(0, 2**32 - 1))
def test_random_games_reach_a_winner_without_losing_a_card(players, variant, seed):
    rng = random.Random(seed)
    state = PIGZ.setup(GameSetup("pigzup", tuple(f"P{i}" for i in range(players)), variant, full_information=True))
    deck = sorted(PIGZ.deck(state).cards())
    for _ in range(50_000):
        if PIGZ.outcome(state) is not None:
            break
        state = PIGZ.apply(state, PIGZ.chance(state, rng) or rng.choice(PIGZ.legal_actions(state)))
        assert state.all_cards() == deck
        assert sum(state.stack_counts) == sum(len(s) for s in state.stacks)
    outcome = PIGZ.outcome(state)
    assert outcome is not None
    if outcome.reason == "First to run out of cards":
        assert state.cards_held(outcome.winners[0]) == 0
    else:
        assert not any(state.stack_counts)
