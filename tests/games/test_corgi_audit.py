"""The hidden-hand audit: claims made face-down are checked once the round shows every card (Ruling CP-13)."""

from __future__ import annotations

from companion.games.corgi_pileup.actions import ChooseSixTarget, SixDiscard
from tests.games.corgi_helpers import start, trick


def finish_round(corgi, state, *tricks):
    for cards in tricks:
        state = trick(corgi, state, *cards)
    return state


def test_a_broken_lowest_claim_is_reported_with_its_trick(corgi):
    state = start(corgi, players=("Emily", "Peter"))
    # Trick 1: Peter plays a 5 below Emily's 8, claiming it is his lowest; in trick 4 he shows a 2.
    state = finish_round(corgi, state, (8, 5), (7, 7), (9, 9), (4, 2), (4, 7))
    findings = corgi.findings(state)
    assert [f.to_json() for f in findings] == [
        {
            "code": "broken-lowest-claim",
            "message": "Round 1, trick 1: Peter played a 5 as their lowest card, but still held 2.",
            "player": 1,
            "round": 1,  # the round and trick as data too, for a report or a page that points at the trick
            "trick": 1,
        }
    ]


def test_a_broken_highest_claim_after_a_three(corgi):
    state = start(corgi, players=("Emily", "Peter", "Taylor"))
    state = finish_round(corgi, state, (8, 3, 5), (9, 9, 9), (7, 7, 7), (2, 2, 2), (4, 4, 8))
    finding = corgi.findings(state)[-1]
    assert finding.message == "Round 1, trick 1: Taylor played a 5 as their highest card, but still held 7, 8, 9."


def test_honest_claims_raise_nothing(corgi):
    state = start(corgi, players=("Emily", "Peter"))
    state = finish_round(corgi, state, (8, 2), (7, 7), (9, 9), (4, 4), (5, 5))
    assert corgi.findings(state) == ()


def test_a_six_draw_hides_which_later_card_was_drawn(corgi):
    # Peter claims his 5 is his lowest in trick 1; Emily's 6 wins it and makes Peter discard and draw. He later
    # shows a 2 — which may be the card he drew, so the claim cannot be called broken.
    def after_the_draw():
        state = start(corgi, players=("Emily", "Peter"))
        state = trick(corgi, state, 6, 5)
        return corgi.apply(corgi.apply(state, ChooseSixTarget(0, 1)), SixDiscard(1, 9))

    honest_enough = finish_round(corgi, after_the_draw(), (7, 7), (9, 9), (8, 8), (4, 2))
    assert corgi.findings(honest_enough) == ()
    # Two lower cards are one too many: at most one of them was drawn.
    broken = finish_round(corgi, after_the_draw(), (7, 7), (9, 9), (8, 3), (4, 2))
    assert corgi.findings(broken)[0].message == (
        "Round 1, trick 1: Peter played a 5 as their lowest card, but still held 1 of 2, 3 "
        "(only 1 could have been drawn after the claim)."
    )
