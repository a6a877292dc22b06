"""Building the live camera from the ``[camera]`` settings: the recogniser for a catalogue, the tracker, and
the watcher that reports each card that comes to rest."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.vision.catalog import Catalog
from companion.vision.mat import mat_layout
from companion.vision.observations import CardSeen
from companion.vision.pipeline import Recognizer
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.tracker import Tracker
from companion.vision.watcher import CardWatcher


def recognizer_for(catalog: Catalog, settings: CameraSettings) -> Recognizer:
    """The recogniser for ``catalog`` with the configured mat (or hand-drawn zones)."""
    layout = None if settings.mat == "none" else mat_layout(settings.mat)
    zones = {k: np.array(v, np.float32).reshape(-1, 2) for k, v in settings.zones.items()}
    return Recognizer(catalog, layout, zones, (settings.card_mm[0], settings.card_mm[1]))


def tracker_for(settings: CameraSettings) -> Tracker:
    return Tracker(settings.steady_frames, settings.forget_frames, settings.min_confidence)


def card_watcher(
    source: FrameSource, catalog: Catalog, settings: CameraSettings, on_seen: Callable[[CardSeen, float], None]
) -> CardWatcher:
    """A watcher (not yet started) reporting every card that comes to rest in ``source``'s frames."""
    return CardWatcher(source, recognizer_for(catalog, settings), tracker_for(settings), on_seen)
