"""Judging a recogniser's reports against a rendered scene's truth: which card a report is about, and which
report is about a card. Shared by the vision benchmarks so that every figure is counted the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np

from companion.sim.scene import CardTruth


class Report(Protocol):
    """What a benchmark needs of a found card (``pipeline.CardFound`` has it)."""

    face: str
    corners: np.ndarray

    @property
    def centre(self) -> tuple[float, float]: ...


def card_claimed(card: Report, truths: Sequence[CardTruth]) -> CardTruth | None:
    """The card a report is about: the one whose outline it traces most closely (every corner within a fifth of
    the card's short side: a card lower in a pile, its centre under the top one, counts), else the topmost card
    under the report's centre, else none."""
    traced = []
    for truth in truths:
        short = min(np.hypot(*(truth.corners[1] - truth.corners[0])), np.hypot(*(truth.corners[2] - truth.corners[1])))
        gap = min(np.hypot(*(np.roll(card.corners, k, axis=0) - truth.corners).T).max() for k in range(4)) / short
        if gap < 0.2:
            traced.append((gap, truth.index))
    if traced:
        return truths[min(traced)[1]]
    under = [
        t
        for t in truths
        if cv2.pointPolygonTest(t.corners.astype(np.float32).reshape(-1, 1, 2), card.centre, False) >= 0
    ]
    return under[-1] if under else None


def report_on(truth: CardTruth, found: Sequence[Report]) -> Report | None:
    """The report whose centre lies on the card's centre (within 15% of the card's size), if any."""
    centre = truth.corners.mean(axis=0)
    reach = 0.15 * np.sqrt(cv2.contourArea(truth.corners.astype(np.float32)))
    hits = [c for c in found if np.hypot(*(np.array(c.centre) - centre)) < reach]
    return hits[0] if hits else None
