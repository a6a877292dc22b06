"""Temporal smoothing: per-frame card verdicts become observations of cards arriving, leaving and zones clearing.

Cards are tracked by where they lie (centre and orientation). A track reports its face once the same face has
been seen for ``steady`` consecutive frames in which the card was visible; frames where it was hidden or
unsure (a hand over it) neither count nor reset the evidence, and a track survives ``forget`` frames unseen, so
a hand passing changes nothing. A different face at the same place (a card played on a pile, or turned over)
is a new report; the same face put down again at a new angle or place is a new track and a new report.

A card covered by another card seen on top of it is not gone: its track waits under the cover. A reported
card missed for ``forget`` frames with nothing on top of it is ``CardGone``; when the last known card of a zone
is gone, the zone is ``ZoneCleared``. A card that lies still for ``unreadable`` frames of unsure verdicts that
still show some evidence of a face, never named, is ``CardUnreadable``: the table asks rather than guesses. A card
lying face down gives no such evidence and is no question.

Each report says how the card lies against its zone's player (``Orientation``: upright or sideways, from the
card's ``turn``). A reported card turned in place is ``CardTurned`` once it has lain the new way for ``steady``
frames: turned slowly (its track follows it), or at a stroke (a new track of the same face at the same place
takes the old one's report; nothing is reported gone). Past the 45° mark it must go ``TURN_MARGIN`` further
before a turn counts, so a card lying near the diagonal does not flicker.

A reported card turned face down where it lies (Capture's hidden) keeps its track, for the back lies in its
place: once its face has not shown for ``forget`` frames while a back is seen there, it is ``CardGone`` with
``face_down``, and its track waits, unreported, for a face to show again (a new ``CardSeen``). A hand over the
card for that long reads the same, as it reads as a card gone when the card is not found at all. A card another
card found in the same frame overlaps is never turned down: on a crowded pile, a card put across older ones leaves
too little of each to name (the recogniser reads them faceless, as it reads a back), and they wait under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from companion.table.observations import (
    CameraObservation,
    CardGone,
    CardSeen,
    CardTurned,
    CardUnreadable,
    Orientation,
    ZoneCleared,
)
from companion.vision.edges import share_within
from companion.vision.observations import UNKNOWN
from companion.vision.orientation import SIDEWAYS_FROM, orientation_of
from companion.vision.pipeline import CardFound

FACE_EVIDENCE = 0.05  # the least confidence that says "some face is there, I cannot tell which"
COVER_SHARE = 0.6  # a track whose centre lies within this share of a card's diagonal of a seen card is under it
TURN_MARGIN = 10.0  # degrees past the 45° mark a reported card must lie before it counts as turned
OVERLAP_SHARE = 0.1  # a card overlapped by another over this share of its area is partly covered, never a back


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
    unsure: int = 0  # frames seen but not named, while nothing was ever named
    best: str = UNKNOWN
    flagged: bool = False  # reported as unreadable
    unseen: int = 0
    orientation: Orientation = Orientation.UPRIGHT  # as reported
    turning: int = 0  # visible frames in a row lying the other way than reported
    faceless: int = 0  # frames since a reported card's face last showed


def _overlapped(card: CardFound, cards: list[CardFound]) -> bool:
    """Whether another of the frame's ``cards`` overlaps ``card`` by more than ``OVERLAP_SHARE`` of its area."""
    return any(other is not card and share_within(card.corners, other.corners) > OVERLAP_SHARE for other in cards)


def _pose(card: CardFound) -> tuple[float, float, float, float]:
    c = card.corners
    x, y = card.centre
    dx, dy = (c[3] + c[2] - c[0] - c[1]) / 2  # top-to-bottom axis
    size = math.hypot(*(c[2] - c[0]))
    return x, y, math.degrees(math.atan2(dy, dx)) % 180.0, size


class Tracker:
    def __init__(
        self, steady: int = 3, forget: int = 30, min_confidence: float = 0.5, unreadable: int | None = None
    ) -> None:
        self.steady = steady
        self.forget = forget
        self.min_confidence = min_confidence
        self.unreadable = unreadable if unreadable is not None else 4 * steady
        self.tracks: list[_Track] = []
        self.frame = 0

    def update(self, cards: list[CardFound]) -> list[CameraObservation]:
        """Feed one frame's cards; returns the observations that frame completes."""
        self.frame += 1
        out: list[CameraObservation] = []
        matched: set[int] = set()
        for card in cards:
            x, y, angle, size = _pose(card)
            track = self._nearest(x, y, angle, size, matched)
            if track is None:
                track = _Track(x, y, angle, size, card.zone)
                self.tracks.append(track)
            matched.add(id(track))
            track.x, track.y, track.angle, track.size, track.zone, track.unseen = x, y, angle, size, card.zone, 0
            out.extend(self._evidence(track, card))
            out.extend(self._turned(track, card))
            out.extend(self._turned_down(track, card, cards))
        seen = [t for t in self.tracks if id(t) in matched]
        for track in self.tracks:
            if id(track) not in matched and not self._covered(track, seen):
                track.unseen += 1
                track.faceless += 1  # a card under another waits with its face unseen, not turned down
        gone = [t for t in self.tracks if t.unseen > self.forget]
        self.tracks = [t for t in self.tracks if t.unseen <= self.forget]
        for track in gone:
            if track.reported is not None:
                out.append(CardGone(track.zone, track.reported, self.frame))
        for zone in dict.fromkeys(t.zone for t in gone if t.reported is not None or t.flagged):
            if not any(t.zone == zone and (t.reported is not None or t.flagged) for t in self.tracks):
                out.append(ZoneCleared(zone, self.frame))
        return out

    def _evidence(self, track: _Track, card: CardFound) -> list[CameraObservation]:
        if card.face == UNKNOWN or card.confidence < self.min_confidence:
            # Only a reading with some evidence of a face counts towards "unreadable": a card lying face down
            # (a back, in Squirrels' stacks or a Capture grid) gives none and is no question for anyone.
            if track.reported is None and track.run_face is None and card.confidence >= FACE_EVIDENCE:
                track.unsure += 1
                track.best = card.best
                if track.unsure >= self.unreadable and not track.flagged:
                    track.flagged = True
                    return [CardUnreadable(track.zone, card.best, self.frame)]
            return []
        if card.face != track.run_face:
            track.run_face, track.run = card.face, []
        track.run.append(card.confidence)
        if len(track.run) >= self.steady and track.reported != card.face:
            track.reported, track.orientation, track.turning = card.face, orientation_of(card.turn), 0
            if self._turned_at_a_stroke(track):
                return [CardTurned(track.zone, card.face, track.orientation, self.frame)]
            confidence = sum(track.run[-self.steady :]) / self.steady
            return [CardSeen(track.zone, card.face, round(confidence, 3), self.frame, track.orientation)]
        return []

    def _turned(self, track: _Track, card: CardFound) -> list[CameraObservation]:
        """A reported card seen lying the other way, past the margin, for ``steady`` frames: ``CardTurned``."""
        if track.reported is None or card.face != track.reported:
            return []
        past = SIDEWAYS_FROM + TURN_MARGIN if track.orientation is Orientation.UPRIGHT else SIDEWAYS_FROM - TURN_MARGIN
        other = card.turn >= past if track.orientation is Orientation.UPRIGHT else card.turn <= past
        track.turning = track.turning + 1 if other else 0
        if track.turning < self.steady:
            return []
        track.turning = 0
        track.orientation = orientation_of(card.turn)
        return [CardTurned(track.zone, track.reported, track.orientation, self.frame)]

    def _turned_down(self, track: _Track, card: CardFound, cards: list[CardFound]) -> list[CameraObservation]:
        """A reported card whose face has not shown for ``forget`` frames, a back lying in its place: turned face
        down. The track stays, as if never reported, so that the face showing again is a new ``CardSeen``. A card
        another of the frame's ``cards`` overlaps is no back: what shows of it is too little to name (a card put
        across it on a pile), and it waits with its face unseen, as a card wholly covered does."""
        if track.reported is None:
            return []
        if card.confidence >= FACE_EVIDENCE or _overlapped(card, cards):  # a face shows, or a card lies on it
            track.faceless = 0
            return []
        track.faceless += 1
        if track.faceless <= self.forget:
            return []
        face = track.reported
        track.reported, track.run_face, track.run, track.faceless = None, None, [], 0
        track.orientation, track.turning, track.unsure, track.flagged = Orientation.UPRIGHT, 0, 0, False
        return [CardGone(track.zone, face, self.frame, face_down=True)]

    def _turned_at_a_stroke(self, track: _Track) -> bool:
        """Whether ``track``'s card was reported at the same place lying the other way: the card turned at a
        stroke. Its old track is dropped, with no ``CardGone``. (The same face the same way is a card put down
        again, or another copy on a pile: a new report, as before.)"""
        for other in self.tracks:
            if (other is not track and other.reported == track.reported and other.zone == track.zone
                    and other.orientation is not track.orientation
                    and math.hypot(other.x - track.x, other.y - track.y) < COVER_SHARE * track.size):
                self.tracks.remove(other)
                return True
        return False

    @staticmethod
    def _covered(track: _Track, seen: list[_Track]) -> bool:
        """Whether a card seen this frame lies over ``track``'s place (a card played on top of it)."""
        return any(
            other is not track and math.hypot(other.x - track.x, other.y - track.y) < COVER_SHARE * other.size
            for other in seen
        )

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
