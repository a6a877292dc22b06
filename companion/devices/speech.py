"""The table's voice: short sentences ("Ben wins the trick") spoken through Debian's ``espeak-ng``.

Speech is queued and spoken on its own thread, so it never delays the judge or the camera. A voice that is
off, not installed or failing is silent, never an error: the status page shows the same sentences.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import subprocess
import threading
from typing import Any

log = logging.getLogger(__name__)

QUEUE = 4  # sentences waiting at most; older ones are dropped, the table has moved on
SPEAK_TIMEOUT_S = 15.0


class Voice:
    """Says sentences with ``command TEXT`` (e.g. ``espeak-ng``), one at a time, in the background."""

    def __init__(self, command: str) -> None:
        self.command = shutil.which(command) if command else None
        self.problem = "" if self.command else f"{command or 'no voice'} is not installed: the table is silent"
        self.spoken = 0
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=QUEUE)
        self._thread: threading.Thread | None = None
        if self.command:
            self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
            self._thread.start()

    def say(self, text: str) -> None:
        if self._thread is not None:
            self._put(text)

    def close(self) -> None:
        """Say what is still queued (at most a few short sentences), then stop."""
        if self._thread is not None:
            self._put(None)
            self._thread.join(timeout=SPEAK_TIMEOUT_S)
            self._thread = None

    def _put(self, item: str | None) -> None:
        """Queue ``item``, dropping the oldest waiting sentence when full: say what is happening now."""
        while True:
            try:
                self._queue.put_nowait(item)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()

    def health(self) -> dict[str, Any]:
        return {"ok": not self.problem, "message": self.problem or None, "spoken": self.spoken}

    def _run(self) -> None:
        assert self.command is not None
        while (text := self._queue.get()) is not None:
            try:
                subprocess.run([self.command, text], check=True, timeout=SPEAK_TIMEOUT_S,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                self.spoken += 1
                self.problem = ""
            except (OSError, subprocess.SubprocessError) as exc:
                self.problem = f"the voice failed ({exc}): the table is silent until it works again"
                log.warning("%s", self.problem)
