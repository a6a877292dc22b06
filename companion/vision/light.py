"""How well the camera can see: the paper's brightness and colour, and the frame's sharpness.

The recogniser's accuracy is promised for frames it can see well. A frame too dark, too tinted for the white
balance to undo, or too blurred is said to be so (``cards recognize``, the status page's camera panel), rather
than giving fewer or worse answers in silence.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_LEVEL = 70.0  # grey level of the lightest paper below which the frame is too dark
MAX_CAST = 1.8  # the most the white balance raises a channel (``DetectSettings.max_white_gain``)
MIN_SHARPNESS = 12.0  # variance of the half-size frame's Laplacian below which it is too blurred


@dataclass(frozen=True)
class Light:
    """What the camera saw of the light: the paper's colour (B, G, R grey levels), the frame's sharpness."""

    white: tuple[float, float, float]
    sharpness: float

    @property
    def level(self) -> float:
        return max(self.white)

    @property
    def cast(self) -> float:
        """How far the lightest channel of white paper is above the darkest (1: neutral)."""
        return max(self.white) / max(min(self.white), 1.0)

    def problems(self) -> list[str]:
        """Why the camera cannot promise its accuracy on this frame (none: it can)."""
        out = []
        if self.level < MIN_LEVEL:
            out.append(f"too dark: white paper reads {self.level:.0f} of 255 (needs {MIN_LEVEL:.0f}); add light")
        if self.cast > MAX_CAST:
            out.append(f"colour cast too strong ({self.cast:.1f}x between channels, at most {MAX_CAST:g}x is undone):"
                       " use a whiter lamp or fix the camera's white balance")
        if self.sharpness < MIN_SHARPNESS:
            out.append(f"too blurred (sharpness {self.sharpness:.0f}, needs {MIN_SHARPNESS:.0f}): focus the camera"
                       " or keep it still")
        return out

    def as_json(self) -> dict:
        return {
            "white_bgr": [round(v) for v in self.white],
            "level": round(self.level),
            "cast": round(self.cast, 2),
            "sharpness": round(self.sharpness, 1),
            "problems": self.problems(),
        }


def sharpness(frame: np.ndarray) -> float:
    """Variance of the Laplacian of the frame's grey at half size: low when nothing in view has a sharp edge."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(small, cv2.CV_16S).var())


def measure_light(frame: np.ndarray, white: np.ndarray) -> Light:
    """The frame's ``Light`` from its ``paper_white``."""
    b, g, r = (float(v) for v in white)
    return Light((b, g, r), sharpness(frame))
