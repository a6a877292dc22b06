"""Temporal smoothing: per-frame card verdicts become one ``CardSeen`` per card that comes to rest face up.

Cards are tracked by where they lie (centre and orientation). A track reports its face once the same face has
been seen for ``steady`` consecutive frames in which the card was visible; frames where it was hidden or
unsure (a hand over it) neither count nor reset the evidence, and a track survives ``forget`` frames unseen, so
a hand passing changes nothing. A different face at the same place (a card played on a pile, or turned over)
is a new report; the same face put down again at a new angle or place is a new track and a new report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from companion.vision.observations import UNKNOWN, CardSeen
from companion.vision.pipeline import CardFound


@dataclass
class _Track:
    x: float
    y: float
    angle: float
    size: float
    zone: str
    reported: str | None = None
    run_face: str | None = None
    run: list[float] = field(default_factory=list)
    unseen: int = 0


def _pose(card: CardFound) -> tuple[float, float, float, float]:
    c = card.corners
    x, y = card.centre
    dx, dy = (c[3] + c[2] - c[0] - c[1]) / 2  # top-to-bottom axis
    size = math.hypot(*(c[2] - c[0]))
    return x, y, math.degrees(math.atan2(dy, dx)) % 180.0, size


class Tracker:
    def __init__(self, steady: int = 3, forget: int = 30, min_confidence: float = 0.5) -> None:
        self.steady = steady
        self.forget = forget
        self.min_confidence = min_confidence
        self.tracks: list[_Track] = []
        self.frame = 0

    def update(self, cards: list[CardFound]) -> list[CardSeen]:
        """Feed one frame's cards; returns the observations that frame completes."""
        self.frame += 1
        seen: list[CardSeen] = []
        matched: set[int] = set()
        for card in cards:
            x, y, angle, size = _pose(card)
            track = self._nearest(x, y, angle, size, matched)
            if track is None:
                track = _Track(x, y, angle, size, card.zone)
                self.tracks.append(track)
            matched.add(id(track))
            track.x, track.y, track.angle, track.size, track.zone, track.unseen = x, y, angle, size, card.zone, 0
            if card.face == UNKNOWN or card.confidence < self.min_confidence:
                continue
            if card.face != track.run_face:
                track.run_face, track.run = card.face, []
            track.run.append(card.confidence)
            if len(track.run) >= self.steady and track.reported != card.face:
                track.reported = card.face
                confidence = sum(track.run[-self.steady :]) / self.steady
                seen.append(CardSeen(track.zone, card.face, round(confidence, 3), self.frame))
        for track in self.tracks:
            if id(track) not in matched:
                track.unseen += 1
        self.tracks = [t for t in self.tracks if t.unseen <= self.forget]
        return seen

    def _nearest(self, x: float, y: float, angle: float, size: float, taken: set[int]) -> _Track | None:
        best, best_d = None, 0.2 * size
        for track in self.tracks:
            turn = abs(track.angle - angle) % 180.0
            if id(track) in taken or min(turn, 180.0 - turn) > 12.0:
                continue
            d = math.hypot(track.x - x, track.y - y)
            if d < best_d:
                best, best_d = track, d
        return best
