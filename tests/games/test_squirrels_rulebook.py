"""Every example in the Squirrels rulebook (``../shared/rulebooks/squirrels.txt``), played through the rules."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.squirrels.actions import Blind, Deal, Done, Pickup, Play, Push, Reveal, Skip
from companion.games.squirrels.cards import FULL_DECK, points
from companion.games.squirrels.state import Phase
from tests.games.squirrels_helpers import RULES, apply_all, arrange, dealt, refused, setup

GREEN, YELLOW, BLUE, RED = range(4)


def test_set_up_deals_twenty_each_four_stacks_of_three_and_eight_in_hand():
    state = RULES.apply(RULES.setup(setup()), Deal(seed=12))
    view = RULES.view(state)
    for player in view["players"]:
        assert player["hand"] == 8
        assert [(st["top"] is not None, st["face_down"]) for st in player["stacks"]] == [(True, 2)] * 4
        assert player["cards_left"] == 20
    assert view["unused"] == 162 - 4 * 20  # "The remaining cards are not used and discarded."
    assert state.all_cards() == sorted(FULL_DECK)
    assert Counter(FULL_DECK)["7"] == 12 and Counter(FULL_DECK)["wild"] == 8
    assert sum(c.startswith("squirrel-") for c in FULL_DECK) == 18


def test_the_gameplay_example_move_by_move():
    state = dealt(
        [["10", "10", "7", "5", "5"], ["8", "8", "8", "1", "push"], ["8", "squirrel-fox", "skip"], ["9", "9"]],
        [[["5", "1", "7"], ["2", "2", "2"], ["3", "3", "3"], ["4", "4", "4"]], None, None, None],
    )
    # "Green player starts the game and places two 10s in the center. Yellow player places three 8s on top".
    state = apply_all(state, [Play(GREEN, ("10", "10")), Play(YELLOW, ("8", "8", "8"))])
    assert RULES.view(state)["pile_top"] == "three 8s"
    # "Blue player places an 8. Since there are four 8s, the pile is discarded. Blue gets another Action".
    state = RULES.apply(state, Play(BLUE, ("8",)))
    assert state.pile == [] and RULES.to_move(state) == (BLUE,)
    # "... and places a Squirrel down. Blue says "Squirrel" and it is discarded. Blue gets another Action"
    state = RULES.apply(state, Play(BLUE, ("squirrel-fox",)))
    assert state.pile == [] and RULES.to_move(state) == (BLUE,)
    # "... and places a Skip Card in front of Red player. Blue's turn is over."
    state = RULES.apply(state, Skip(BLUE, RED))
    # "Red has been skipped, their turn passes, they discard the Skip Card."
    assert RULES.to_move(state) == (GREEN,) and state.skips == [False] * 4
    assert Counter(state.discard) == Counter({"10": 2, "8": 4, "squirrel-fox": 1, "skip": 1})
    # "Green player takes a 7 from their hand and a 7 off the top of one of their stacks ... Green also takes the
    # card in the stack that was below the 7 and puts it in their hand. Their turn is over."
    state = RULES.apply(state, Play(GREEN, ("7", "7"), stacks=(0,)))
    assert state.hands[GREEN].count("1") == 1 and state.hand_counts[GREEN] == 6 - 1 + 1
    assert state.stacks[GREEN][0].blind
    # "Yellow puts a 1 down and says "One one.""
    state = RULES.apply(state, Play(YELLOW, ("1",)))
    assert RULES.view(state)["pile_top"] == "one 1"
    # "Blue ... picks up the pile containing the 7s and the 1. These cards go in their hand."
    blue_before = state.hand_counts[BLUE]
    state = RULES.apply(state, Pickup(BLUE))
    assert state.hand_counts[BLUE] == blue_before + 3 and Counter(state.hands[BLUE])["7"] >= 2
    # "Red has an open table and places two 9s down."
    state = RULES.apply(state, Play(RED, ("9", "9")))
    # "Green plays their Blind Card since only a 10 would force them to pick up the 9s. It's a 5. Green has two
    # more 5s among their Active Cards. They place these on top of the 5 that they flipped over."
    state = RULES.apply(state, Blind(GREEN, 0, "5"))
    assert state.phase is Phase.BLIND_FOLLOW and state.stacks[GREEN][0].count == 0
    state = RULES.apply(state, Play(GREEN, ("5", "5")))
    assert RULES.view(state)["pile_top"] == "three 5s" and RULES.to_move(state) == (YELLOW,)
    # "Yellow uses a Push Card. Pile is pushed to Blue. Their turn is over."
    blue_before = state.hand_counts[BLUE]
    state = RULES.apply(state, Push(YELLOW, BLUE))
    assert state.hand_counts[BLUE] == blue_before + 5 and state.pile == []
    assert RULES.to_move(state) == (BLUE,)
    assert state.all_cards() == sorted(FULL_DECK)


def test_numbers_go_on_equal_or_lower_and_the_refusal_names_the_rule():
    state = dealt([["7", "8", "5", "4"], ["7"], [], []])
    state = RULES.apply(state, Play(GREEN, ("7",)))
    # "The top card in the center pile is a 7. You can place 7s or any number below 7 ... can't place 8 or higher"
    state = arrange(state, hands={YELLOW: ["8", "5", "4", "7"]})
    assert refused(state, Play(YELLOW, ("8",))).message == (
        "The top of the pile is a 7: play a 7 or lower, or pick up the pile."
    )
    for ok in ("7", "5", "4"):
        assert RULES.legal(state, Play(YELLOW, (ok,))) is None
    # "You can place three 5s, but not two 5s and a 4."
    state = arrange(state, hands={YELLOW: ["5", "5", "4"]})
    assert refused(state, Play(YELLOW, ("5", "5", "4"))).code == "one-value"


def test_four_of_a_value_clears_the_pile_and_the_player_must_take_another_action():
    # "There are two 8s at the top of the pile. Among your Active Cards, you have three 8s. You can place two of
    # the 8s down. Since there are now four 8s, the entire center pile is discarded. You get to continue, and since
    # there are no cards in the center, you must take an Action".
    state = dealt([["9"], ["8", "8", "8", "3"], [], []])
    state = arrange(state, pile=[("9", 9), ("8", 8), ("8", 8)], to_move=YELLOW)
    state = RULES.apply(state, Play(YELLOW, ("8", "8")))
    assert state.pile == [] and RULES.to_move(state) == (YELLOW,)
    assert refused(state, Pickup(YELLOW)).code == "open-table"
    assert refused(state, Done(YELLOW)).code == "must-play"
    # "You can now place the other 8 in the center or use any other Active Card."
    state = RULES.apply(state, Play(YELLOW, ("8",)))
    assert RULES.to_move(state) == (BLUE,) and RULES.view(state)["pile_top"] == "one 8"


def test_a_wild_plays_as_its_declared_number():
    state = dealt([["wild", "6"], ["wild", "3"], [], []])
    assert refused(state, Play(GREEN, ("wild",))).code == "declare-wild"
    state = RULES.apply(state, Play(GREEN, ("6", "wild"), value=6))
    assert RULES.view(state)["pile_top"] == "two 6s"
    assert refused(state, Play(YELLOW, ("wild",), value=7)).code == "too-high"
    state = RULES.apply(state, Play(YELLOW, ("wild",), value=6))
    assert RULES.view(state)["pile_top"] == "three 6s"


def test_push_sends_the_pile_to_a_chosen_player_or_is_simply_discarded_on_an_open_table():
    state = dealt([["push", "push", "5"], ["3"], [], []])
    # "A Push Card can still be used even if there are no cards in the center. The Push Card is simply discarded"
    state = RULES.apply(state, Push(GREEN))
    assert state.discard == ["push"] and RULES.to_move(state) == (YELLOW,)
    state = RULES.apply(state, Play(YELLOW, ("3",)))
    state = arrange(state, hands={BLUE: ["4"], RED: ["4"]})
    state = apply_all(state, [Pickup(BLUE), Play(RED, ("4",))])
    before = state.hand_counts[YELLOW]
    state = RULES.apply(state, Push(GREEN, YELLOW))
    assert state.hand_counts[YELLOW] == before + 1 and "4" in state.hands[YELLOW]
    open_table = arrange(state, hands={YELLOW: ["push"]})
    assert refused(open_table, Push(YELLOW, BLUE)).code == "nothing-to-push"  # nothing to push: no target


def test_skip_example_two_skips_in_a_row_and_a_push_meanwhile():
    # "One of your friends played a Skip Card on you. When your turn comes, you can't do anything but discard the
    # Skip Card as your turn passes. Prior to your next turn, another player puts another Skip Card on you. You will
    # now miss two turns in a row. In the meantime, a different player "pushed" cards to you".
    state = dealt([["skip", "3"], ["2", "2"], ["skip", "5"], ["push", "4"]])
    state = RULES.apply(state, Skip(GREEN, BLUE))
    assert refused(state, Skip(YELLOW, BLUE)).code == "not-in-hand"  # (Yellow has no Skip; shows the turn is his)
    state = RULES.apply(state, Play(YELLOW, ("2",)))
    assert RULES.to_move(state) == (RED,) and not state.skips[BLUE]  # Blue's turn passed; the Skip is discarded
    state = RULES.apply(state, Push(RED, BLUE))  # the skipped player can still be pushed to
    state = arrange(state, hands={GREEN: ["skip", "3"]})
    state = RULES.apply(state, Skip(GREEN, BLUE))
    state = RULES.apply(state, Play(YELLOW, ("2",)))
    assert RULES.to_move(state) == (RED,)  # Blue missed a second turn
    assert state.hand_counts[BLUE] == 8 + 1


def test_only_one_skip_in_front_of_a_player_at_a_time():
    state = dealt([["skip"], ["skip"], [], []])
    state = RULES.apply(state, Skip(GREEN, RED))
    violation = refused(state, Skip(YELLOW, RED))
    assert violation.code == "already-skipped"
    assert violation.message == "Red already has a Skip card in front of them."


def test_blind_example_a_four_on_a_five_with_two_more_fours_and_the_stack_draw():
    # "The top card in the pile is a 5. When the player flips over the Blind Card, it is a 4. ... The player also has
    # a 4 in their hand and a 4 on top of one of their stacks. They place both 4s on top ... They say "Three fours"
    # and their turn is over. However, they also pick up the face down card in the stack that was below the 4."
    state = dealt([["4", "6"], [], [], []])
    state = arrange(state, stacks={GREEN: [["4"], ["2", "10", "4"], [], []]}, pile=[("5", 5)])
    hand_before = state.hand_counts[GREEN]
    state = RULES.apply(state, Blind(GREEN, 0, "4"))
    state = RULES.apply(state, Play(GREEN, ("4", "4"), stacks=(1,)))
    assert RULES.view(state)["pile_top"] == "three 4s" and RULES.to_move(state) == (YELLOW,)
    assert state.hand_counts[GREEN] == hand_before - 1 + 1 and "10" in state.hands[GREEN]
    assert state.stacks[GREEN][1].blind


def test_blind_example_a_squirrel_clears_and_gives_another_action_even_another_blind():
    # "When the player flips over the Blind Card, it is a Squirrel ... the entire center pile, including the
    # Squirrel, is discarded. They take another Action ... If they have another Blind Card, they can play it".
    state = dealt([["6"], [], [], []])
    state = arrange(state, stacks={GREEN: [["squirrel-red"], ["3"], [], []]}, pile=[("5", 5)])
    state = RULES.apply(state, Blind(GREEN, 0, "squirrel-red"))
    assert state.pile == [] and "squirrel-red" in state.discard and RULES.to_move(state) == (GREEN,)
    state = RULES.apply(state, Blind(GREEN, 1, "3"))
    assert state.phase is Phase.BLIND_FOLLOW
    state = RULES.apply(state, Done(GREEN))
    assert RULES.to_move(state) == (YELLOW,)


def test_blind_example_a_skip_goes_in_front_of_another_player():
    # "They flip over a Skip Card. They place it in front of another player and their turn is over."
    state = dealt([["6"], [], [], []])
    state = arrange(state, stacks={GREEN: [["skip"], [], [], []]})
    assert refused(state, Blind(GREEN, 0, "skip")).code == "skip-target"
    state = RULES.apply(state, Blind(GREEN, 0, "skip", target=YELLOW))
    assert RULES.to_move(state) == (BLUE,)  # Yellow's turn passed


def test_a_blind_card_higher_than_the_top_forces_the_pickup_and_one_blind_at_a_time():
    state = dealt([["6"], [], [], []])
    state = arrange(state, hands={GREEN: ["6"]}, stacks={GREEN: [["9"], ["3"], [], []]}, pile=[("7", 7), ("5", 5)])
    # "Only one Blind Card can be played at a time": the second flip is refused as not the player's turn.
    state = RULES.apply(state, Blind(GREEN, 0, "9"))
    assert state.hand_counts[GREEN] == 1 + 3 and sorted(state.hands[GREEN]) == ["5", "6", "7", "9"]
    assert RULES.to_move(state) == (YELLOW,)
    assert refused(state, Blind(GREEN, 1, "3")).code == "not-your-turn"


def test_a_blind_card_must_be_the_last_card_of_its_stack_and_what_it_is():
    state = dealt([["6"], [], [], []])
    state = arrange(state, stacks={GREEN: [["9", "2", "5"], ["3"], [], []]})
    assert refused(state, Blind(GREEN, 0, "9")).code == "top-first"
    assert refused(state, Blind(GREEN, 2, "9")).code == "empty-stack"
    assert refused(state, Blind(GREEN, 1, "4")).message == "That Blind card is a 3, not a 4."


def test_scoring_example_seven_one_skip_squirrel_squirrel_is_68():
    # "A player has these remaining cards: 7, 1, Skip, Squirrel, and Squirrel. They have 68 points."
    cards = ("7", "1", "skip", "squirrel-fox", "squirrel-abert")
    assert sum(points(c) for c in cards) == 68
    # ... and at a live table, that hand shown at the round's end scores 68 (see test_squirrels_hidden.py too).
    state = dealt([["3"], ["4"], [], []], players=("Green", "Yellow", "Blue", "Red"), rounds=1)
    state = arrange(
        state,
        hands={GREEN: ["3"], YELLOW: list(cards), BLUE: [], RED: []},
        stacks={p: [[], [], [], []] for p in range(4)},
    )
    state = RULES.apply(state, Play(GREEN, ("3",)))  # Green is out: safe; Yellow, Blue and Red get a final turn
    state = RULES.apply(state, Pickup(YELLOW))
    assert state.round_scores == [[0, 68 + 3, 0, 0]]


def test_the_first_player_out_is_safe_and_everyone_else_gets_one_final_turn():
    state = dealt([["3"], ["2", "2", "9"], ["skip", "8"], ["push", "1"]], rounds=2)
    empty = {p: [[], [], [], []] for p in range(4)}
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["2", "9"], BLUE: ["skip", "8"], RED: ["push", "1"]},
                    stacks=empty)
    state = RULES.apply(state, Play(GREEN, ("3",)))
    assert state.safe == GREEN and state.owed == [False, True, True, True]
    # "No cards can be pushed to them, or Skip Cards placed in front of them."
    state = RULES.apply(state, Play(YELLOW, ("2",)))
    assert refused(state, Skip(BLUE, GREEN)).code == "target-safe"
    # "A Skip Card placed in front of a player before their final turn WILL prevent them from taking it."
    state = RULES.apply(state, Skip(BLUE, RED))
    assert state.round == 2 and state.round_scores == [[0, 9, 8, 21]]


def test_several_players_can_score_zero_in_a_round():
    # "Multiple players can have 0 points for a round if they are able to discard their remaining cards on their
    # final turn."
    state = dealt([["3"], ["2"], ["1"], ["9"]], rounds=1)
    empty = {p: [[], [], [], []] for p in range(4)}
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["2"], BLUE: ["1"], RED: ["9"]}, stacks=empty)
    state = apply_all(state, [Play(GREEN, ("3",)), Play(YELLOW, ("2",)), Play(BLUE, ("1",)), Pickup(RED)])
    assert state.round_scores == [[0, 0, 0, 9 + 3 + 2 + 1]]
    assert RULES.outcome(state).winners == (GREEN,)  # the first out "is always considered to have the lowest"


def test_two_player_final_turn_push_only_on_an_empty_table_and_the_rest_is_kept():
    # "In a two-player game after the first player discards their last card, the second player could use a Push
    # Card if there was an empty table ... However, they could not "push" cards or use a Skip Card since the first
    # player is "safe." The second player must retain these cards and they will be counted against them".
    players = ("Green", "Yellow")
    state = dealt([["3"], ["push", "skip", "push"]], players=players, rounds=1)
    empty = {p: [[], [], [], []] for p in range(2)}
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["push", "skip", "push"]}, stacks=empty)
    state = RULES.apply(state, Play(GREEN, ("3",)))
    assert refused(state, Push(YELLOW, GREEN)).code == "target-safe"
    assert refused(state, Push(YELLOW)).code == "nobody-to-push-to"
    assert refused(state, Skip(YELLOW, GREEN)).code == "target-safe"
    state = RULES.apply(state, Pickup(YELLOW))
    assert state.round_scores == [[0, 20 * 3 + 3]]

    state = dealt([["3"], ["push", "skip"]], players=players, rounds=1)
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["push", "skip"]}, stacks=empty, pile=[("4", 4)])
    state = apply_all(state, [Play(GREEN, ("3",))])
    state = arrange(state, pile=[])
    state = RULES.apply(state, Push(YELLOW))  # an empty table: the Push is simply discarded
    assert state.round_scores == [[0, 20]]


@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_a_game_lasts_the_agreed_number_of_rounds_and_the_lowest_total_wins(rounds):
    import random

    state = RULES.setup(setup(rounds=rounds))
    rng = random.Random(rounds)
    while RULES.outcome(state) is None:
        state = RULES.apply(state, RULES.chance(state, rng) or rng.choice(RULES.legal_actions(state)))
    assert len(state.round_scores) == rounds
    outcome = RULES.outcome(state)
    assert all(state.totals[w] == min(state.totals) for w in outcome.winners)


def test_later_rounds_start_with_the_highest_total():
    state = dealt([["3"], ["9"], ["8"], ["7"]], rounds=2)
    empty = {p: [[], [], [], []] for p in range(4)}
    state = arrange(state, hands={GREEN: ["3"], YELLOW: ["9"], BLUE: ["8"], RED: ["7"]}, stacks=empty)
    # Green goes out; Yellow picks up the 3; Blue goes out too; Red picks up the 8.
    state = apply_all(state, [Play(GREEN, ("3",)), Pickup(YELLOW), Play(BLUE, ("8",)), Pickup(RED)])
    assert state.totals == [0, 12, 0, 15]
    assert state.round == 2 and state.phase is Phase.DEAL and state.starter == RED  # no tie: no draw
    state = RULES.apply(state, Deal(seed=1))
    assert RULES.to_move(state) == (RED,)


def test_a_reveal_is_only_for_live_tables():
    state = dealt([["3"], [], [], []])
    assert refused(state, Reveal(GREEN, ("3",))).kind.value == "needs-decision"
