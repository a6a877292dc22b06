"""Live updates: one subscription to the table session, fanned out to every open Server-Sent Events stream.

Streams share the latest snapshot (encoded once) and wait on one condition, so an update costs the same however
many phones are watching, and a slow phone just skips to the newest snapshot instead of queueing old ones.

Each stream holds a server thread, so the number of streams is capped and each one ends after a while: the
browser's EventSource reconnects by itself, and a phone that vanished without closing its socket (Wi-Fi gone)
gives its thread back.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from typing import Any, Protocol

log = logging.getLogger(__name__)

RETRY_MS = 2000  # how soon a browser reconnects after the stream drops (a phone waking up, a server restart)


class Snapshotting(Protocol):
    """The part of the table session the live view needs."""

    def snapshot(self) -> dict[str, Any]: ...

    def subscribe(self, callback: Any) -> Any: ...


def sse_event(snapshot: dict[str, Any]) -> str:
    data = json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False, default=str)
    return f"id: {snapshot.get('seq', 0)}\nevent: snapshot\ndata: {data}\n\n"


class Broadcaster:
    """Holds the newest snapshot and wakes every stream when the session reports a change."""

    def __init__(
        self, session: Snapshotting, max_streams: int, keepalive_seconds: float, device_poll_seconds: float,
        stream_seconds: float, streams_per_client: int,
    ) -> None:
        self.max_streams = max_streams
        self.streams_per_client = streams_per_client
        self._by_client: Counter[str] = Counter()
        self.keepalive_seconds = keepalive_seconds
        self.stream_seconds = stream_seconds
        self._session = session
        self._cond = threading.Condition()
        self._version = 0
        self._streams = 0
        self._closed = threading.Event()
        with self._cond:
            self._set_latest(session.snapshot())
        self._unsubscribe = session.subscribe(self.publish)
        self._device_poll_seconds = device_poll_seconds
        threading.Thread(target=self._watch_devices, name="tableside-web-devices", daemon=True).start()

    def _set_latest(self, snapshot: dict[str, Any]) -> None:
        """Make ``snapshot`` the newest and wake the streams (the caller holds the condition)."""
        self._version += 1
        self._key = (snapshot.get("game_id"), snapshot.get("seq"))
        self._devices = snapshot.get("devices")
        self._latest = sse_event(snapshot)
        self._cond.notify_all()

    def publish(self, snapshot: dict[str, Any]) -> None:
        """Called by the session from the submitting thread after every change: wake the streams, return."""
        with self._cond:
            self._set_latest(snapshot)

    def _watch_devices(self) -> None:
        """Devices change health without a table event (a cable pulled): look for that, and tell the streams."""
        while not self._closed.wait(self._device_poll_seconds):
            try:
                snapshot = self._session.snapshot()
            except Exception:
                log.exception("could not read the table's snapshot for device health; trying again")
                continue
            with self._cond:
                # Only a pure device change: if a move slipped in, its own publish carries the newer snapshot.
                same_moment = (snapshot.get("game_id"), snapshot.get("seq")) == self._key
                if same_moment and snapshot.get("devices") != self._devices:
                    self._set_latest(snapshot)

    @property
    def open_streams(self) -> int:
        with self._cond:
            return self._streams

    def open_stream(self, client: str) -> Stream | None:
        """A new stream for ``client`` (an address), or ``None`` when every streaming thread is taken or the
        client holds its share already (the browser then polls)."""
        with self._cond:
            if self._closed.is_set() or self._streams >= self.max_streams:
                return None
            if self._by_client[client] >= self.streams_per_client:
                return None
            self._streams += 1
            self._by_client[client] += 1
        return Stream(self._frames(), lambda: self._release(client))

    def close(self) -> None:
        """End every stream (so the server's threads can stop) and stop listening to the session."""
        with self._cond:
            self._closed.set()
            self._cond.notify_all()
        if callable(self._unsubscribe):
            self._unsubscribe()

    def _release(self, client: str) -> None:
        with self._cond:
            self._streams -= 1
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]

    def _frames(self) -> Generator[str]:
        with self._cond:
            version = self._version
        ends_at = time.monotonic() + self.stream_seconds
        # A fresh snapshot on connect (device health may be newer); a change after ``version`` is sent next.
        yield f"retry: {RETRY_MS}\n{sse_event(self._session.snapshot())}"
        while (left := ends_at - time.monotonic()) > 0:
            with self._cond:
                self._cond.wait_for(lambda seen=version: self._closed.is_set() or self._version != seen,
                                    min(self.keepalive_seconds, left))
                if self._closed.is_set():
                    return
                changed = self._version != version
                version, event = self._version, self._latest
            yield event if changed else ": keep-alive\n\n"


class Stream:
    """One browser's event stream; ``close`` (called by the WSGI server on disconnect) frees its slot once."""

    def __init__(self, frames: Generator[str], release: Callable[[], None]) -> None:
        self._frames = frames
        self._release: Callable[[], None] | None = release
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[str]:
        return self._frames

    def close(self) -> None:
        with self._lock:
            release, self._release = self._release, None
        if release is not None:
            self._frames.close()
            release()
