"""The end-of-round audit of hidden-hand claims (Ruling CP-13).

The referee cannot see hands, so a card played below the trick's highest is accepted as a claim: "this was my
lowest card" (or "my highest", once a 3 is in). When the round ends every card a player held has been seen,
played or discarded, so the claim can be checked. Cards drawn after a 6 are the one blind spot: we cannot tell
which later card was the drawn one, so a claim is reported only if it is broken whatever the drawn cards were.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import Finding
from companion.games.corgi_pileup.state import Claim, HandEvent


def audit_round(history: Sequence[Sequence[HandEvent]], players: Sequence[str], round_no: int) -> list[Finding]:
    findings = []
    for seat, events in enumerate(history):
        for i, event in enumerate(events):
            if event.claim is None or event.card is None:
                continue
            later = events[i + 1 :]
            # The hand at the claim, less the card played: every card played or discarded later, except the
            # cards drawn later (unknown which), of which there are `draws`.
            seen_later = [e.card for e in later if e.kind in ("play", "discard") and e.card is not None]
            draws = sum(1 for e in later if e.kind == "draw")
            if event.claim is Claim.LOWEST:
                offending = sorted(c for c in seen_later if c < event.card)
            else:
                offending = sorted((c for c in seen_later if c > event.card), reverse=True)
            if len(offending) > draws:
                shown = ", ".join(str(c) for c in sorted(offending))
                held = shown if not draws else (
                    f"{len(offending) - draws} of {shown} (only {draws} could have been drawn after the claim)"
                )
                findings.append(
                    Finding(
                        code=f"broken-{event.claim.value}-claim",
                        message=(
                            f"Round {round_no}, trick {event.trick}: {players[seat]} played a {event.card} as their "
                            f"{event.claim.value} card, but still held {held}."
                        ),
                        player=seat,
                        round=round_no,
                        trick=event.trick,
                    )
                )
    return findings
