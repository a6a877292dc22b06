"""The camera at work: frames through the recogniser and the tracker, each card that comes to rest reported."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import numpy as np

from companion.table.observations import CameraObservation, QuietFrame
from companion.vision.light import Light
from companion.vision.pipeline import CardFound, Recognizer
from companion.vision.sources import FrameSource
from companion.vision.stillness import Change, StillnessGate
from companion.vision.tracker import Tracker
from companion.vision.zones import ZonesError

log = logging.getLogger(__name__)
LIGHT_EVERY = 5  # the light is measured on every this many recognised frames (~5 s on a still table: it changes slowly)


class CardWatcher:
    """Reads a frame source on its own thread and calls ``on_frame`` with each frame's camera observations — for
    every frame the tracker reads, a ``QuietFrame`` when it completes none (an adapter counts time in the camera's
    frames: under load a frame takes longer, and a card of a combo steady a frame after the others is still a
    frame after, not a second; a stack top is reported gone after ``forget_frames`` frames, however long they take).

    An unplugged camera is retried by the source; its status is the watcher's health for the status page.
    """

    def __init__(
        self,
        source: FrameSource,
        recognizer: Recognizer | None,
        tracker: Tracker,
        on_frame: Callable[[list[CameraObservation], float], None],
        *,
        max_fps: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock``: the host's time (a benchmark may give the camera thread's own time)."""
        self.source = source
        self.recognizer: Recognizer | None = recognizer
        self.tracker = tracker
        self.on_frame = on_frame
        self.min_period = 1.0 / max_fps
        self.clock = clock
        self.frames = 0
        self.still_frames = 0  # frames that showed what the last recognised one did: its reading was reused
        self.moving_frames = 0  # frames passed over while the table was changing (a hand bringing a card)
        self.frame_ms = 0.0  # how long recognising the last frame that changed took (still frames cost ~nothing)
        self.light: Light | None = None  # the light as last measured (the camera panel; see ``LIGHT_EVERY``)
        self._unlit = 0  # frames recognised since the light was measured
        self.mat_registered = False  # whether the mat was found in it (or kept from an earlier frame)
        self.last_frame_at: float | None = None  # when the last frame was read (monotonic): the page shows its age
        self.frame_size: tuple[int, int] | None = None  # width, height of the last frame the camera gave
        self.stillness = StillnessGate()
        self._reading: list[CardFound] = []
        self.problem: str | None = None  # why the last frame could not be recognised (shown as the camera's health)
        self.idle_reason = ""  # why no frame is being recognised at all
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def use(self, recognizer: Recognizer | None, why: str = "") -> None:
        """Recognise another deck from the next frame on (a new game), with a fresh tracker; ``None`` stops
        recognising and shows ``why`` as the camera's problem (no catalogue for the game's deck)."""
        self.recognizer = recognizer
        self.tracker = Tracker(self.tracker.steady, self.tracker.forget, self.tracker.min_confidence,
                               self.tracker.unreadable)
        self.stillness.forget()
        self.idle_reason = why

    def start(self) -> CardWatcher:
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.source.close()

    def health(self) -> dict[str, Any]:
        status = asdict(self.source.status)
        if self.problem and status["ok"]:
            status.update(ok=False, message=self.problem)
        age = None if self.last_frame_at is None else round(self.clock() - self.last_frame_at, 1)
        return {
            **status,
            "frames": self.frames,
            "still_frames": self.still_frames,
            "moving_frames": self.moving_frames,
            "frame_ms": round(self.frame_ms, 1),
            "last_frame_age_s": age,
            "mat_registered": self.mat_registered,
            "light": self.light.as_json() if self.light else None,  # level, colour cast, sharpness, problems
        }

    def _run(self) -> None:
        while not self._stop.is_set():
            self._stop.wait(self.step())

    def step(self) -> float:
        """Read and handle one frame; returns how long to wait before the next (the fps cap, or a retry)."""
        started = self.clock()
        frame = self.source.read()
        if frame is None:
            return self.source.retry_seconds if self.source.live else 0.5
        self.frame_size = (frame.shape[1], frame.shape[0])
        recognizer, tracker = self.recognizer, self.tracker
        if recognizer is None:
            self.problem = self.idle_reason
            return self.source.retry_seconds
        try:
            change, cards = self._read(recognizer, frame)
            seen = [] if change is Change.MOVING else tracker.update(cards)
        except ZonesError as exc:  # a setup problem, the same every frame: shown, not logged each time
            self.problem = str(exc)
            return self.source.retry_seconds
        except Exception as exc:
            log.exception("recognising a frame failed; the camera carries on")
            self.problem = f"recognising a frame failed: {exc}"
            return 0.0
        self.problem = None
        now = self.clock()
        self.frames += 1
        self.last_frame_at = now
        if change is not Change.MOVING:  # a frame the tracker counted: reported even when nothing changed in it
            self.on_frame(seen or [QuietFrame(tracker.frame)], now)
        return max(0.0, self.min_period - (now - started))

    def _read(self, recognizer: Recognizer, frame: np.ndarray) -> tuple[Change, list[CardFound]]:
        """How ``frame`` changed, and the cards in it: the last reading again when the table is still, else a
        recognition. A frame in which the table is still changing is passed over (no cards): its reading would be
        stale before it was done, and the next frame shows more (the card down, the hand gone). A recognition
        confirms the last reading's cards where they lay, which is cheaper than searching for them; a recheck of a
        still table searches afresh: a card put across older cards of its face leaves their borders lining their
        outlines and their faces reading as theirs, and only a fresh search finds it."""
        change = self.stillness.look(frame)
        if change is Change.STILL:
            self.still_frames += 1
            return change, self._reading
        if change is Change.MOVING:
            self.moving_frames += 1
            return change, []
        started = self.clock()
        due = self.light is None or self._unlit + 1 >= LIGHT_EVERY
        known = [] if change is Change.RECHECK else [card.corners for card in self._reading]  # the cards seen last
        result = recognizer.process(frame, known, light=due)
        self._reading, self.mat_registered = result.cards, result.registered
        self.light, self._unlit = (result.light, 0) if result.light is not None else (self.light, self._unlit + 1)
        self.stillness.recognised(frame)
        self.frame_ms = (self.clock() - started) * 1000
        return change, self._reading
