"""The end-of-round check of hidden hands at a live table.

Hands are never seen during play, but every card that goes into or out of one is: plays from the hand, pickups,
pushes received, and the card drawn from under a played stack top. So the referee knows exactly how many cards
each player holds. At the round's end the remaining cards are spread face up (camera or referee) and scored as
shown; a count that differs from the tracked one is reported as a finding. It does not change the score.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Finding
from companion.games.squirrels.state import SquirrelsState


def check_reveal(s: SquirrelsState, seat: int, cards: Sequence[str]) -> Finding | None:
    """A finding if ``seat`` showed a different number of cards than the table counted, else ``None``."""
    hand, stacked = s.hand_counts[seat], s.cards_left(seat) - s.hand_counts[seat]
    if len(cards) == hand + stacked:
        return None
    return Finding(
        code="card-count-mismatch",
        message=(
            f"Round {s.round}: {s.players[seat]} showed {len(cards)} cards, but the table counted "
            f"{hand + stacked} ({hand} in hand, {stacked} in stacks)."
        ),
        player=seat,
    )
