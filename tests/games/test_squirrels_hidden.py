"""Squirrels at a live table: hands hidden, counts tracked exactly, the round's cards shown and checked at its end;
and the explicit deal of full-information play."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameSetup, RuleViolation
from companion.games.squirrels.actions import Blind, Deal, Layout, Pickup, Play, Push, Reveal, Skip
from companion.games.squirrels.state import Phase, SquirrelsState
from tests.games.squirrels_helpers import RULES, explicit_deal, refused, setup

ANN, BEN, CAT = range(3)
PLAYERS = ("Ann", "Ben", "Cat")


def live(rounds: int = 1) -> SquirrelsState:
    state = RULES.apply(RULES.setup(setup(PLAYERS, full_information=False, rounds=rounds)), Deal())
    for seat, tops in enumerate([("7", "9", "push", "2"), ("5", "5", "wild", "10"), ("1", "3", "8", "skip")]):
        state = RULES.apply(state, Layout(seat, tops))
    return state


def test_a_live_deal_is_a_real_shuffle_then_each_player_lays_out_their_stack_tops():
    state = RULES.apply(RULES.setup(setup(PLAYERS, full_information=False)), Deal())
    assert state.phase is Phase.LAYOUT and RULES.to_move(state) == (ANN, BEN, CAT)
    assert refused(state, Deal(seed=4)).kind.value == "needs-decision"
    state = RULES.apply(state, Layout(BEN, ("5", "5", "wild", "10")))
    assert refused(state, Layout(BEN, ("1", "1", "1", "1"))).code == "already-laid-out"
    assert refused(state, Layout(ANN, ("1", "2"))).code == "bad-layout"
    assert refused(state, Play(ANN, ("3",))).kind.value == "needs-decision"
    state = live()
    assert state.phase is Phase.PLAY and RULES.to_move(state) == (ANN,)
    view = RULES.view(state)
    assert "hands" not in view and view["players"][BEN]["stacks"][2] == {"top": "wild", "face_down": 2}
    assert view["players"][ANN]["hand"] == 8


def test_a_seed_or_cards_in_a_live_deal_is_refused():
    state = RULES.setup(setup(PLAYERS, full_information=False))
    assert refused(state, Deal(seed=3)).code == "bad-deal"


def test_hand_counts_follow_plays_stack_draws_pickups_and_pushes():
    state = live()
    state = RULES.apply(state, Play(ANN, ("9", "9"), stacks=(1,)))  # one 9 from the hand, one from a stack
    assert state.hand_counts[ANN] == 8 - 1 + 1 and state.stacks[ANN][1].blind
    state = RULES.apply(state, Play(BEN, ("5", "5", "wild"), stacks=(0, 1, 2), value=5))
    assert state.hand_counts[BEN] == 8 + 3
    state = RULES.apply(state, Pickup(CAT))
    assert state.hand_counts[CAT] == 8 + 5
    state = RULES.apply(state, Play(ANN, ("4", "4")))
    state = RULES.apply(state, Push(BEN, ANN))
    assert state.hand_counts == [6 + 2, 11 - 1, 13] and state.discard == ["push"]
    assert sum(state.cards_left(p) for p in range(3)) + state.unused_count + len(state.discard) == 162


def test_plays_from_the_hand_are_believed_up_to_the_count_and_the_supply():
    state = live()
    assert refused(state, Play(ANN, ("3",) * 4 + ("3",))).code == "more-than-four"
    state = RULES.apply(state, Play(ANN, ("6", "6", "6")))
    crowded = state.clone()
    crowded.hand_counts[BEN] = 1
    assert refused(crowded, Play(BEN, ("2", "2"))).message == "Ben has only 1 cards in hand."
    assert RULES.legal(crowded, Play(BEN, ("6",))) is None
    # All twelve 10s: Ben shows one on a stack; eleven more land in this round, then one is too many.
    tens = state.clone()
    tens.discard = ["10"] * 11
    tens.pile = []
    violation = refused(tens, Play(BEN, ("10",)))
    assert violation.code == "no-such-copy" and "10" in violation.message


def test_a_blind_card_is_what_the_camera_saw_and_counts_are_kept():
    state = live()
    state = RULES.apply(state, Play(ANN, ("7",), stacks=(0,)))
    state = RULES.apply(state, Play(BEN, ("6",)))
    state = RULES.apply(state, Play(CAT, ("6",)))
    before = state.hand_counts[ANN]
    state = RULES.apply(state, Blind(ANN, 0, "8"))  # higher than the 6: Ann picks up the 7, 6, 6 and the 8
    assert state.hand_counts[ANN] == before + 4 and state.stacks[ANN][0].count == 0


def _to_round_end(state: SquirrelsState) -> SquirrelsState:
    """Ann goes out (her counts set so), then Ben and Cat take their final turns by picking up."""
    s = state.clone()
    s.hand_counts[ANN] = 1
    s.stacks[ANN] = [s.stacks[ANN][0].__class__(None, ())] * 4
    s.pile = [("9", 9)]
    s = RULES.apply(s, Play(ANN, ("4",)))
    s = RULES.apply(s, Pickup(BEN))
    return RULES.apply(s, Skip(CAT, BEN, stack=3))


def test_the_round_ends_with_the_cards_shown_and_scored_as_shown():
    state = _to_round_end(live())
    assert state.phase is Phase.REVEAL and RULES.to_move(state) == (BEN, CAT)
    assert state.cards_left(BEN) == 8 + 2 + 4 * 3 and state.cards_left(CAT) == 9 + 3 * 3 + 1
    assert refused(state, Reveal(ANN, ())).code == "nothing-to-show"
    ben = ("9", "4") + ("1",) * 8 + ("5", "5", "wild", "10") + ("2",) * 8
    missing_top = refused(state, Reveal(BEN, ("9", "4") + ("1",) * 8 + ("2",) * 12))
    assert missing_top.message == "Ben's stacks still show 10, 5, 5, Wild: include them."
    state = RULES.apply(state, Reveal(BEN, ben))
    assert RULES.findings(state) == ()
    cat = ("7", "1", "skip", "squirrel-fox", "squirrel-abert")  # the rulebook's 68: and the stacks' 1, 3, 8
    state = RULES.apply(state, Reveal(CAT, (*cat, "1", "3", "8")))
    assert state.round_scores == [[0, sum([9, 4, 8, 5, 5, 20, 10, 16]), 68 + 12]]
    (finding,) = RULES.findings(state)
    assert finding.player == CAT and finding.code == "card-count-mismatch"
    assert finding.message == "Round 1: Cat showed 8 cards, but the table counted 19 (9 in hand, 10 in stacks)."
    assert RULES.outcome(state).winners == (ANN,)


def test_a_card_seen_going_into_a_hand_and_never_played_must_be_shown():
    state = _to_round_end(live())  # Ben picked up the 9 and the 4 and played nothing since
    ben = ("3", "4") + ("1",) * 8 + ("5", "5", "wild", "10") + ("2",) * 8
    state = RULES.apply(state, Reveal(BEN, ben))
    (finding,) = RULES.findings(state)
    assert finding.code == "taken-cards-missing" and finding.player == BEN
    assert finding.message == (
        "Round 1: Ben took 9 into their hand (picked up or pushed to them) and never played them, "
        "but did not show them."
    )


def test_a_taken_card_played_again_need_not_be_shown():
    state = live()
    state = RULES.apply(state, Play(ANN, ("6",)))
    state = RULES.apply(state, Pickup(BEN))
    assert state.known[BEN] == {"6": 1}
    state = RULES.apply(state, Play(CAT, ("3",)))
    state = RULES.apply(state, Pickup(ANN))
    state = RULES.apply(state, Play(BEN, ("6",)))
    assert state.known[BEN] == {"6": 0}


def test_a_reveal_with_more_copies_than_the_deck_holds_is_refused():
    state = _to_round_end(live())
    violation = refused(state, Reveal(BEN, ("wild",) * 8 + ("5", "5", "wild", "10")))
    assert violation.code == "no-such-copy"


# ----------------------------------------------------------------------------- full information: the explicit deal
def test_an_explicit_deal_gives_every_hand_and_stack():
    deal = explicit_deal([["10", "9"], ["wild"], ["skip"]])
    state = RULES.apply(RULES.setup(setup(PLAYERS)), deal)
    assert {"10", "9"} <= set(state.hands[ANN]) and "wild" in state.hands[BEN] and "skip" in state.hands[CAT]
    assert [st.top for st in state.stacks[BEN]] == [three[2] for three in deal.stacks[BEN]]
    assert [st.down for st in state.stacks[BEN]] == [tuple(three[:2]) for three in deal.stacks[BEN]]
    assert state.unused_count == 162 - 60 and len(state.unused) == 102
    assert RULES.decode(deal.to_json()) == deal  # the JSON round trip is exact


@pytest.mark.parametrize(
    ("hands", "stacks", "words"),
    [
        ((("1",) * 8,) * 3, None, "lists 3 hands of 8 cards"),
        ((("1",) * 8,) * 2 + (("1",) * 7,), (((("2",) * 3),) * 4,) * 3, "lists 3 hands of 8 cards"),
        ((("1",) * 8,) * 3, (((("2",) * 3),) * 4,) * 3, "more 1 cards than the deck holds"),
        ((("owl",) * 8,) * 3, (((("2",) * 3),) * 4,) * 3, "no card 'owl'"),
    ],
)
def test_a_bad_explicit_deal_is_refused_in_plain_words(hands, stacks, words):
    state = RULES.setup(setup(PLAYERS))
    with pytest.raises(RuleViolation, match=words):
        RULES.apply(state, Deal(hands=hands, stacks=stacks or ()))
    assert refused(state, Deal(seed=1, hands=hands)).code == "bad-deal"


@pytest.mark.parametrize("seed", range(4))
def test_a_live_referee_fed_what_the_camera_sees_keeps_the_same_counts_and_scores(seed):
    """A full-information game and a live one that records only what lands face up (the same actions, and the
    stack tops as layouts) agree on every count; shown honestly at the end, the hands score the same."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(rng.randint(2, 6)))
    full = RULES.setup(GameSetup("squirrels", names, options={"rounds": 1}, full_information=True))
    watched = RULES.setup(GameSetup("squirrels", names, options={"rounds": 1}))
    while RULES.outcome(full) is None:
        chance = RULES.chance(full, rng)
        action = chance or rng.choice(RULES.legal_actions(full))
        full = RULES.apply(full, action)
        if isinstance(action, Deal):
            watched = RULES.apply(watched, Deal())
            for seat, stacks in enumerate(full.stacks):
                watched = RULES.apply(watched, Layout(seat, tuple(st.top for st in stacks)))
        else:
            watched = RULES.apply(watched, action)
        if full.phase is not Phase.OVER:
            assert watched.hand_counts == full.hand_counts
            assert [[st.count for st in p] for p in watched.stacks] == [[st.count for st in p] for p in full.stacks]
            assert watched.pile == full.pile and RULES.to_move(watched) == RULES.to_move(full)
        else:
            for seat in RULES.to_move(watched):
                watched = RULES.apply(watched, Reveal(seat, spread_out(full, seat)))
    assert watched.round_scores == full.round_scores
    assert RULES.findings(watched) == ()
    assert RULES.outcome(watched) == RULES.outcome(full)


def spread_out(state: SquirrelsState, seat: int) -> tuple[str, ...]:
    """Everything ``seat`` holds at the round's end (hand and stacks), as they would spread it out."""
    assert state.hands is not None
    stacked = [c for st in state.stacks[seat] for c in (st.top, *st.down) if c is not None]
    return tuple(state.hands[seat] + stacked)


def test_the_status_page_shows_the_pile_whose_turn_who_is_skipped_and_each_players_cards():
    state = RULES.apply(live(), Play(ANN, ("9",), (1,)))  # Ann's 9 from her stack: she draws the card below
    state = RULES.apply(state, Skip(BEN, CAT))  # Ben skips Cat from his hand: Ann again
    state = RULES.apply(state, Play(ANN, ("7", "7"), (0,)))
    view = RULES.view(state)
    assert (view["pile_top"], view["pile_count"], view["turn"], view["skipped"]) == ("two 7s", 3, BEN, [])
    board = RULES.scoreboard(state)
    assert board.phase == "Round 1 of 1 · pile: two 7s (3 cards)"
    cells = {row.name: dict(zip(board.columns, row.cells, strict=True)) for row in board.rows}
    assert cells["Ann"]["Cards"] == 8 + 12 - 3 and cells["Ann"]["Hand"] == 8 + 2 - 1
    assert cells["Ben"]["Cards"] == 19 and cells["Cat"]["Status"] == ""
    assert [row.active for row in board.rows] == [False, True, False]
    state = RULES.apply(state, Skip(BEN, ANN))  # from his hand
    assert RULES.view(state)["skipped"] == [ANN] and RULES.view(state)["turn"] == CAT
    assert {row.name: row.cells[-1] for row in RULES.scoreboard(state).rows}["Ann"] == "skipped"
