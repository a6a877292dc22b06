"""Is the table still? A frame that differs from the last recognised one only by the camera's noise shows the same
cards: reusing that frame's reading costs a subtraction instead of a recognition. On a still table (most of a game)
the camera thread is then free the moment a card lands, and a Pi keeps up where it would fall behind.

A frame that differs from the camera's frame just before it too shows something moving (a hand bringing a card):
its reading would be stale by the time it is done, so the watcher may wait a frame for the table to settle."""

from __future__ import annotations

from enum import Enum

import cv2
import numpy as np

CELL_PX = 16  # the frame is compared in cells of this size: averaging over a cell removes the sensor noise
CHANGE_LEVEL = 8.0  # a cell whose mean moved by more than this (0-255) in a colour channel has changed: a card, a
# hand, a shadow. In colour, not grey: a Crazy Corgi red 1 laid on a blue 1 moves no cell's mean grey by 8 (at most
# 6), its red and blue by up to 178
RECHECK_FRAMES = 15  # recognise at least this often anyway, afresh: a slow drift of the light is never missed, nor
# a card the last reading hides (``CardWatcher._read``)


def colour_cells(frame: np.ndarray, cell: int = CELL_PX) -> np.ndarray:
    """The mean colour of each ``cell`` x ``cell`` px square of ``frame`` (rows x columns x channels; int16:
    differences need no care)."""
    h, w = frame.shape[:2]
    cells = cv2.resize(frame, (max(1, w // cell), max(1, h // cell)), interpolation=cv2.INTER_AREA).astype(np.int16)
    return cells if cells.ndim == 3 else cells[..., None]


def changed_cells(cells: np.ndarray, other: np.ndarray, level: float = CHANGE_LEVEL) -> np.ndarray:
    """Where two frames' ``colour_cells`` differ by more than the camera's noise in any channel (bool, one per
    cell)."""
    return (np.abs(cells - other) > level).any(axis=-1)


class Change(Enum):
    """What a frame shows against the last recognised one and the frame before it."""

    STILL = "still"  # what the last recognised frame showed: its reading stands
    CHANGED = "changed"  # something else: recognise it
    RECHECK = "recheck"  # the same, but a recheck is due: recognise it afresh
    MOVING = "moving"  # something else, and it differs from the frame before it too: it is still changing


class StillnessGate:
    """Says how a frame differs from the last recognised one (``look``), and remembers each frame that was
    recognised (``recognised``)."""

    def __init__(self, change_level: float = CHANGE_LEVEL, recheck_frames: int = RECHECK_FRAMES) -> None:
        self.change_level = change_level
        self.recheck_frames = recheck_frames
        self._last: np.ndarray | None = None
        self._previous: np.ndarray | None = None  # the cells of the frame looked at last
        self._looked_at: np.ndarray | None = None  # that frame: recognising it next needs its cells again
        self._waited = False  # the frame looked at last was moving: the next change is recognised whatever
        self._skipped = 0

    def _differ(self, cells: np.ndarray, other: np.ndarray | None) -> bool:
        return other is None or cells.shape != other.shape or bool(changed_cells(cells, other, self.change_level).any())

    def look(self, frame: np.ndarray) -> Change:
        """How ``frame`` differs from the last recognised frame (``RECHECK``: not at all, but a recheck is due).
        ``MOVING`` only when the frame before it was still too: a change is waited on for one frame at most (a
        flickering light or a hand that never rests must not stop the camera), and never right after a
        recognition, which takes longer than a frame: the frame before is then too old to say whether anything
        is moving."""
        cells = colour_cells(frame)
        previous, self._previous, self._looked_at = self._previous, cells, frame
        waited, self._waited = self._waited, False
        if self._last is not None and not self._differ(cells, self._last):
            if self._skipped < self.recheck_frames:
                self._skipped += 1
                return Change.STILL
            return Change.RECHECK
        if not waited and previous is not self._last and self._differ(cells, previous):
            self._waited = True
            return Change.MOVING
        return Change.CHANGED

    def recognised(self, frame: np.ndarray) -> None:
        """``frame`` was recognised: the next frames are compared with it (the cells ``look`` took of it, when it
        was the frame looked at last)."""
        cells = self._previous if frame is self._looked_at and self._previous is not None else colour_cells(frame)
        self._last = self._previous = cells
        self._skipped = 0

    def forget(self) -> None:
        """The next frame is recognised whatever it shows (a new deck, a new tracker)."""
        self._last = None
