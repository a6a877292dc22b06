"""Building the live camera from the ``[camera]`` settings: the recogniser for a catalogue, the tracker, and
the watcher that reports each card that comes to rest."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from companion.table.observations import CameraObservation
from companion.vision.catalog import Catalog
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.tracker import Tracker
from companion.vision.watcher import CardWatcher
from companion.vision.zones import read_zones


def table_zones(
    settings: CameraSettings, resolve: Callable[[str], Path] = Path
) -> tuple[dict[str, np.ndarray], tuple[int, int] | None]:
    """The hand-drawn zones: ``zones_file``'s (``resolve`` makes its path relative to the config: pass
    ``Config.resolve``) and then the inline ``zones``, which win on a name clash; and the picture size the file's
    zones were drawn on (``None`` without a file). Raises ``ZonesError``."""
    drawn, size = read_zones(resolve(settings.zones_file)) if settings.zones_file else ({}, None)
    inline = {k: np.array(v, np.float32).reshape(-1, 2) for k, v in settings.zones.items()}
    return {**drawn, **inline}, size


def recognizer_for(catalog: Catalog, settings: CameraSettings, resolve: Callable[[str], Path] = Path,
                   variant: str | None = None) -> Recognizer:
    """The recogniser for ``catalog`` with the configured mat (the layout of the game whose deck it is, and of its
    ``variant``: Crazy Corgi's names its Kennels, Capture's its grids), else the hand-drawn zones
    (``table_zones``); the cards' size is ``card_mm`` where the config gives it, else the catalogue's."""
    layout = None if settings.mat == "none" else mat_layout(settings.mat, catalog.deck.name, variant)
    zones, drawn_on = table_zones(settings, resolve)
    return Recognizer(catalog, layout, zones, settings.card_size, zones_drawn_on=drawn_on)


def tracker_for(settings: CameraSettings) -> Tracker:
    return Tracker(settings.steady_frames, settings.forget_frames, settings.min_confidence)


def card_watcher(
    source: FrameSource,
    catalog: Catalog,
    settings: CameraSettings,
    on_frame: Callable[[list[CameraObservation], float], None],
    resolve: Callable[[str], Path] = Path,
) -> CardWatcher:
    """A watcher (not yet started) reporting, frame by frame, every card that comes to rest, leaves or cannot be
    read in ``source``'s frames."""
    return CardWatcher(source, recognizer_for(catalog, settings, resolve), tracker_for(settings), on_frame)
