"""Live updates: one subscription to the table session, fanned out to every open Server-Sent Events stream.

Streams share the latest snapshot (encoded once) and wait on one condition, so an update costs the same however
many phones are watching, and a slow phone just skips to the newest snapshot instead of queueing old ones.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any, Protocol

RETRY_MS = 2000  # how soon a browser reconnects after the stream drops (a phone waking up, a server restart)


class Snapshotting(Protocol):
    """The part of the table session the live view needs."""

    def snapshot(self) -> dict[str, Any]: ...

    def subscribe(self, callback: Any) -> Any: ...


def encode(snapshot: dict[str, Any]) -> str:
    return json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False, default=str)


class Broadcaster:
    """Holds the newest snapshot and wakes every stream when the session reports a change."""

    def __init__(self, session: Snapshotting, max_streams: int, keepalive_seconds: float) -> None:
        self.max_streams = max_streams
        self.keepalive_seconds = keepalive_seconds
        self._cond = threading.Condition()
        self._version = 0
        self._latest = self._event(session.snapshot())
        self._streams = 0
        self._closed = False
        self._unsubscribe = session.subscribe(self.publish)

    @staticmethod
    def _event(snapshot: dict[str, Any]) -> str:
        return f"id: {snapshot.get('seq', 0)}\nevent: snapshot\ndata: {encode(snapshot)}\n\n"

    def publish(self, snapshot: dict[str, Any]) -> None:
        """Called by the session from the submitting thread: encode once, wake the streams, return."""
        event = self._event(snapshot)
        with self._cond:
            self._version += 1
            self._latest = event
            self._cond.notify_all()

    @property
    def open_streams(self) -> int:
        with self._cond:
            return self._streams

    def open_stream(self) -> Stream | None:
        """A new stream, or ``None`` when every streaming thread is taken (the browser then polls)."""
        with self._cond:
            if self._closed or self._streams >= self.max_streams:
                return None
            self._streams += 1
        return Stream(self)

    def close(self) -> None:
        """End every stream (so the server's threads can stop) and stop listening to the session."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if callable(self._unsubscribe):
            self._unsubscribe()

    def _release(self) -> None:
        with self._cond:
            self._streams -= 1

    def _frames(self) -> Iterator[str]:
        with self._cond:
            version, event = self._version, self._latest
        yield f"retry: {RETRY_MS}\n{event}"
        while True:
            with self._cond:
                self._cond.wait_for(lambda seen=version: self._closed or self._version != seen, self.keepalive_seconds)
                if self._closed:
                    return
                changed = self._version != version
                version, event = self._version, self._latest
            yield event if changed else ": keep-alive\n\n"


class Stream:
    """One browser's event stream; ``close`` (called by the WSGI server on disconnect) frees its slot once."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self._broadcaster = broadcaster
        self._frames = broadcaster._frames()
        self._released = False
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[str]:
        return self._frames

    def close(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self._frames.close()
        self._broadcaster._release()
