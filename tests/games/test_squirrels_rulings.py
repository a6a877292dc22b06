"""The Squirrels rulings (``docs/rulings.md``, SQ-n): one test or more for each."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup, MalformedAction
from companion.games.squirrels.actions import Blind, Deal, Done, Pickup, Play, Push, Skip, Starter
from companion.games.squirrels.cards import FULL_DECK, article
from companion.games.squirrels.state import Phase
from tests.games.squirrels_helpers import RULES, apply_all, arrange, dealt, refused, setup

GREEN, YELLOW, BLUE, RED = range(4)
EMPTY = [[], [], [], []]


def test_sq1_a_play_cannot_put_more_than_four_of_a_value_on_the_pile():
    state = dealt([["8", "8", "8", "8", "8", "9"], [], [], []])
    state = arrange(state, pile=[("9", 9), ("8", 8), ("8", 8)])
    violation = refused(state, Play(GREEN, ("8", "8", "8")))
    assert violation.code == "more-than-four"
    assert violation.message == "Four 8s clear the pile: with two 8s on top, play at most 2 more."
    assert refused(arrange(state, pile=[]), Play(GREEN, ("8",) * 5)).code == "more-than-four"
    state = RULES.apply(arrange(state, pile=[]), Play(GREEN, ("8",) * 4))  # four at once clear an open table
    assert state.pile == [] and RULES.to_move(state) == (GREEN,)


def test_sq3_a_final_tie_on_zero_goes_to_the_first_player_out():
    state = dealt([["3"], ["2"], ["9"], ["9"]], rounds=1)
    hands = {GREEN: ["3"], YELLOW: ["2"], BLUE: ["9"], RED: ["9"]}
    state = arrange(state, hands=hands, stacks=dict.fromkeys(range(4), EMPTY))
    # Green goes out first; Yellow and Red discard their last cards on their final turns; Blue picks up.
    state = apply_all(state, [Play(GREEN, ("3",)), Play(YELLOW, ("2",)), Pickup(BLUE), Play(RED, ("9",))])
    assert state.round_scores == [[0, 0, 14, 0]]
    outcome = RULES.outcome(state)
    assert outcome.winners == (GREEN,)
    assert outcome.tie_break == "Tie on 0: Green went out first in the final round."


def _final_round(last_scores: list[int], safe: int, totals_before: list[int]):
    """An ended two-round game whose first round gave ``totals_before`` and final round ``last_scores``."""
    state = dealt([[], [], [], []], rounds=2)
    state = state.clone()
    state.round_scores = [totals_before, last_scores]
    state.round_safe = [None, safe]
    return RULES._decide(state)


def test_sq3_the_first_out_beats_another_zero_in_the_final_round():
    outcome = _final_round([0, 0, 9, 9], safe=YELLOW, totals_before=[10, 10, 30, 30])
    assert outcome.winners == (YELLOW,)
    assert outcome.tie_break == "Tie on 10: Yellow went out first in the final round."


def test_sq3_equal_totals_and_equal_final_rounds_are_a_shared_win():
    outcome = _final_round([5, 0, 5, 9], safe=YELLOW, totals_before=[10, 20, 10, 30])
    assert outcome.winners == (GREEN, BLUE)
    assert "a tie" in outcome.tie_break


def test_sq3_otherwise_the_lower_final_round_wins():
    outcome = _final_round([3, 0, 5, 9], safe=YELLOW, totals_before=[12, 20, 10, 30])
    assert outcome.winners == (GREEN,)


def test_sq4_the_starter_is_a_recorded_chance_event_among_the_tied_highest():
    state = RULES.setup(GameSetup("squirrels", ("Ann", "Ben", "Cat"), full_information=True))
    assert state.phase is Phase.STARTER and state.candidates == (0, 1, 2)
    draw = RULES.chance(state, random.Random(1))
    assert isinstance(draw, Starter) and draw.seed is not None
    first = RULES.apply(state, draw)
    assert first.starter == RULES.apply(state, draw).starter  # a seed always draws the same starter
    assert first.starter == (0, 1, 2)[random.Random(draw.seed).randrange(3)]
    assert RULES.apply(state, Starter(seat=2)).starter == 2  # or the table's own random method, entered
    # Later rounds: only the tied highest totals can start.
    later = state.clone()
    later.round, later.round_scores = 1, [[30, 12, 30]]
    RULES._begin_round(later)
    assert later.candidates == (0, 2)
    assert refused(later, Starter(seat=1)).code == "not-a-candidate"
    assert refused(later, Starter(seed=1, seat=0)).code == "bad-starter"
    # A round-1 starter decided at the table: no draw at all.
    chosen = RULES.setup(GameSetup("squirrels", ("Ann", "Ben", "Cat"), options={"first_player": 1}))
    assert chosen.phase is Phase.DEAL and chosen.starter == 1


def test_sq5_push_and_skip_go_to_another_player():
    state = dealt([["push", "skip", "5"], [], [], []])
    state = RULES.apply(state, Play(GREEN, ("5",)))
    state = arrange(state, hands={GREEN: ["push", "skip"], YELLOW: ["9"]})
    state = RULES.apply(state, Pickup(YELLOW))
    state = arrange(state, pile=[("3", 3)], to_move=GREEN)
    assert refused(state, Push(GREEN, GREEN)).message == "A Push goes to another player, not to yourself."
    assert refused(state, Skip(GREEN, GREEN)).message == "A Skip goes to another player, not to yourself."
    assert refused(state, Push(GREEN)).code == "push-target"


def test_sq5_a_blind_push_or_skip_with_nobody_to_aim_at_is_discarded_without_effect():
    state = dealt([["3"], ["9"]], players=("Green", "Yellow"))
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["9"]},
                    stacks={GREEN: EMPTY, YELLOW: [["push"], ["skip"], [], []]})
    state = RULES.apply(state, Play(GREEN, ("3",)))  # Green is out and safe
    assert refused(state, Blind(YELLOW, 0, "push", target=GREEN)).code == "target-safe"
    after = RULES.apply(state, Blind(YELLOW, 0, "push"))
    assert after.pile == [("3", 3)] and "push" in after.discard
    assert after.round_scores == [[0, 9 + 20]]
    after = RULES.apply(state, Blind(YELLOW, 1, "skip"))
    assert "skip" in after.discard and not any(after.skips)


def test_sq6_a_blind_wild_is_declared_when_flipped_and_may_be_declared_higher():
    state = dealt([["6"], [], [], []])
    state = arrange(state, hands={GREEN: ["6"]}, stacks={GREEN: [["wild"], [], [], []]}, pile=[("5", 5)])
    assert refused(state, Blind(GREEN, 0, "wild")).code == "declare-wild"
    follow = RULES.apply(state, Blind(GREEN, 0, "wild", value=5))
    assert follow.phase is Phase.BLIND_FOLLOW and follow.follow_value == 5
    higher = RULES.apply(state, Blind(GREEN, 0, "wild", value=9))
    assert higher.pile == [] and sorted(higher.hands[GREEN]) == ["5", "6", "wild"]


def test_sq6_a_wild_declared_as_the_blind_value_may_follow_it_and_nothing_else_may():
    state = dealt([["wild", "4", "3"], [], [], []])
    state = arrange(state, hands={GREEN: ["wild", "4", "3"]}, stacks={GREEN: [["4"], [], [], []]}, pile=[("5", 5)])
    state = RULES.apply(state, Blind(GREEN, 0, "4"))
    assert refused(state, Play(GREEN, ("3",))).code == "blind-follow"
    assert refused(state, Play(GREEN, ("wild",), value=3)).code == "blind-follow"
    assert refused(state, Pickup(GREEN)).message == "Green flipped a Blind 4: add matching 4s, or end the turn."
    state = RULES.apply(state, Play(GREEN, ("4", "wild"), value=4))
    assert RULES.view(state)["pile_top"] == "three 4s" and RULES.to_move(state) == (YELLOW,)


def test_sq6_a_blind_that_makes_four_clears_and_gives_another_action():
    state = dealt([["6"], [], [], []])
    state = arrange(state, stacks={GREEN: [["5"], [], [], []]}, pile=[("5", 5), ("5", 5), ("5", 5)])
    state = RULES.apply(state, Blind(GREEN, 0, "5"))
    assert state.pile == [] and state.phase is Phase.PLAY and RULES.to_move(state) == (GREEN,)


def test_sq7_a_skip_on_someone_whose_final_turn_has_passed_is_allowed_and_does_nothing():
    state = dealt([["3"], ["2", "9"], ["skip", "skip", "8"], ["1"]], rounds=2)
    hands = {GREEN: ["3"], YELLOW: ["2", "9"], BLUE: ["skip", "8"], RED: ["1", "1"]}
    state = arrange(state, hands=hands, stacks=dict.fromkeys(range(4), EMPTY))
    state = apply_all(state, [Play(GREEN, ("3",)), Play(YELLOW, ("2",))])
    state = RULES.apply(state, Skip(BLUE, YELLOW))  # Yellow's final turn has passed: no effect
    assert state.round == 1 and RULES.to_move(state) == (RED,) and state.skips[YELLOW]
    state = RULES.apply(state, Play(RED, ("1", "1")))
    assert state.round == 2 and state.round_scores == [[0, 9, 8, 0]]
    assert not any(state.skips)  # the Skip left the table with the round


@pytest.mark.parametrize("players", [2, 7, 8])
def test_sq8_two_to_eight_players_with_twenty_cards_each(players):
    names = tuple(f"P{i}" for i in range(players))
    state = RULES.apply(RULES.setup(setup(names)), Deal(seed=players))
    assert state.unused_count == 162 - 20 * players and all(state.cards_left(p) == 20 for p in range(players))


def test_sq8_the_player_count_and_the_rounds_option_are_checked():
    with pytest.raises(MalformedAction, match="2 to 8 players, not 9"):
        RULES.setup(setup(tuple(f"P{i}" for i in range(9))))
    with pytest.raises(MalformedAction, match="rounds must be a whole number"):
        RULES.setup(setup(rounds=0))
    with pytest.raises(MalformedAction, match="no option 'decks'"):
        RULES.setup(setup(decks=2))
    assert RULES.setup(setup()).rounds == 3
    assert RULES.setup(setup(rounds=7)).rounds == 7


@pytest.mark.parametrize("hand", [0, 2])
def test_sq19_a_short_round_deals_fewer_cards_to_the_hand_and_the_stacks_as_usual(hand):
    names = ("Ana", "Ben", "Cai")
    state = RULES.apply(RULES.setup(setup(names, hand=hand)), Deal(seed=5))
    assert [len(h) for h in state.hands] == state.hand_counts == [hand] * 3
    assert all(len(stacks) == 4 and all(len(st.down) == 2 for st in stacks) for stacks in state.stacks)
    assert state.unused_count == 162 - (12 + hand) * 3 and all(state.cards_left(p) == 12 + hand for p in range(3))
    assert state.all_cards() == sorted(FULL_DECK)  # the cards not dealt are the unused ones
    assert RULES.describe(state, Deal(seed=5)) == f"Round 1: {12 + hand} cards dealt to each player."
    live = RULES.setup(setup(names, full_information=False, hand=hand))
    assert RULES.apply(live, Deal()).hand_counts == [hand] * 3  # the live table counts the short hands too


def test_sq19_the_hand_option_is_checked():
    for bad in (9, -1, 2.5, "4"):
        with pytest.raises(MalformedAction, match="hand must be a whole number of cards from 0 to 8"):
            RULES.setup(setup(hand=bad))
    assert RULES.setup(setup()).hand_size == 8


def test_sq9_a_player_with_only_skips_and_nobody_to_skip_ends_the_turn():
    state = dealt([["3"], ["skip", "skip"]], players=("Green", "Yellow"))
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["skip", "skip"]},
                    stacks={GREEN: EMPTY, YELLOW: EMPTY}, pile=[])
    state = RULES.apply(state, Play(GREEN, ("3",)))
    state = arrange(state, pile=[])
    assert RULES.legal_actions(state) == [Done(YELLOW)]
    state = RULES.apply(state, Done(YELLOW))
    assert state.round_scores == [[0, 40]]


def test_sq9_done_is_refused_while_an_action_is_possible():
    state = dealt([["skip", "3"], [], [], []])
    assert refused(state, Done(GREEN)).message == "The table is open: take an Action by playing a card."
    state = arrange(state, pile=[("5", 5)])
    assert refused(state, Done(GREEN)).code == "play-or-pick-up"


@pytest.mark.parametrize(("card", "words"), [("8", "an 8"), ("5", "a 5"), ("push", "a Push"), ("wild", "a Wild"),
                                             ("skip", "a Skip")])
def test_a_card_is_named_with_its_article(card, words):
    assert article(card) == words
