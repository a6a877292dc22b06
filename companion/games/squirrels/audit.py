"""The end-of-round check of hidden hands at a live table.

Hands are never seen during play, but every card that goes into or out of one is: plays from the hand, pickups,
pushes received, and the card drawn from under a played stack top. So the referee knows exactly how many cards
each player holds. At the round's end the remaining cards are spread face up (camera or referee) and scored as
shown. A count that differs from the tracked one is a finding; so is a card seen going into a hand (a pickup, a
push) that was neither played since nor shown. Findings do not change the score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.base import Finding
from companion.games.squirrels.cards import name
from companion.games.squirrels.state import SquirrelsState


def check_reveal(s: SquirrelsState, seat: int, cards: Sequence[str]) -> list[Finding]:
    """What the cards ``seat`` showed contradict: the tracked count, and the cards seen going into their hand
    (picked up or pushed to them) and not played since. Neither changes the score."""
    findings = []
    hand, stacked = s.hand_counts[seat], s.cards_left(seat) - s.hand_counts[seat]
    if len(cards) != hand + stacked:
        findings.append(Finding(
            code="card-count-mismatch",
            message=(
                f"Round {s.round}: {s.players[seat]} showed {len(cards)} cards, but the table counted "
                f"{hand + stacked} ({hand} in hand, {stacked} in stacks)."
            ),
            player=seat,
            round=s.round,
        ))
    missing = Counter(s.known[seat]) - Counter(cards)
    if missing:
        shown = ", ".join(name(c) for c in sorted(missing.elements()))
        findings.append(Finding(
            code="taken-cards-missing",
            message=(
                f"Round {s.round}: {s.players[seat]} took {shown} into their hand (picked up or pushed to them) "
                "and never played them, but did not show them."
            ),
            player=seat,
            round=s.round,
        ))
    return findings
