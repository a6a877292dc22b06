"""Is the table still? A frame that differs from the last recognised one only by the camera's noise shows the same
cards: reusing that frame's reading costs a subtraction instead of a recognition. On a still table (most of a game)
the camera thread is then free the moment a card lands, and a Pi keeps up where it would fall behind."""

from __future__ import annotations

import cv2
import numpy as np

CELL_PX = 16  # the frame is compared in cells of this size: averaging over a cell removes the sensor noise
CHANGE_LEVEL = 8.0  # a cell whose mean grey moved by more than this (0-255) has changed: a card, a hand, a shadow
RECHECK_FRAMES = 15  # recognise at least this often anyway, so a slow drift of the light is never missed


class StillnessGate:
    """Says whether a frame may reuse the last recognised frame's reading (``still``), and remembers each frame
    that was recognised (``recognised``)."""

    def __init__(self, change_level: float = CHANGE_LEVEL, recheck_frames: int = RECHECK_FRAMES) -> None:
        self.change_level = change_level
        self.recheck_frames = recheck_frames
        self._last: np.ndarray | None = None
        self._skipped = 0

    def _cells(self, frame: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        h, w = grey.shape[:2]
        return cv2.resize(grey, (max(1, w // CELL_PX), max(1, h // CELL_PX)), interpolation=cv2.INTER_AREA
                          ).astype(np.int16)

    def still(self, frame: np.ndarray) -> bool:
        """True when ``frame`` shows what the last recognised frame showed (and a recheck is not due)."""
        if self._last is None or self._skipped >= self.recheck_frames:
            return False
        cells = self._cells(frame)
        if cells.shape != self._last.shape or int(np.abs(cells - self._last).max()) > self.change_level:
            return False
        self._skipped += 1
        return True

    def recognised(self, frame: np.ndarray) -> None:
        self._last, self._skipped = self._cells(frame), 0

    def forget(self) -> None:
        """The next frame is recognised whatever it shows (a new deck, a new tracker)."""
        self._last = None
