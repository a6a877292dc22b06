"""Pictures a user gives the commands (``cards recognize``, ``calibrate zones``, ``calibrate camera --from``): read
in BGR, refused with a clear message when unreadable or larger than a Pi can afford to decode."""

from __future__ import annotations

import cv2
import imagesize
import numpy as np

# The largest still a Pi camera takes (Camera Module 3, 4608x2592): decoding costs ~17 bytes a pixel, so this is
# ~200 MB; a 10000x10000 picture took 1.7 GB and 6 s, enough to push a Pi into swap in the middle of a game.
MAX_PIXELS = 4608 * 2592


class ImageRefused(ValueError):
    """A picture that is not read: unreadable, or larger than a Pi can afford to decode."""


def read_image(path: str) -> np.ndarray:
    """The picture at ``path`` in BGR; its size is checked from the header before decoding (formats ``imagesize``
    knows), else right after."""
    try:
        width, height = imagesize.get(path)
    except OSError as exc:
        raise ImageRefused(f"{path}: cannot read it ({exc.strerror})") from None
    except ValueError:  # a header imagesize cannot parse: OpenCV decides below
        width, height = -1, -1
    if width * height > MAX_PIXELS:
        raise ImageRefused(_too_big(path, width, height))
    frame = cv2.imread(path, cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageRefused(f"{path}: not a readable image")
    if frame.shape[0] * frame.shape[1] > MAX_PIXELS:
        raise ImageRefused(_too_big(path, frame.shape[1], frame.shape[0]))
    return frame


def _too_big(path: str, width: int, height: int) -> str:
    return (f"{path}: {width}x{height} is {width * height / 1e6:.0f} megapixels, more than the "
            f"{MAX_PIXELS / 1e6:.0f} a Pi can afford: scale it down (a camera frame is 1-12 megapixels)")
