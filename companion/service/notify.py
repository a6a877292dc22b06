"""What the running table tells systemd: ready, still alive, stopping (``Type=notify`` with ``WatchdogSec=``).

Messages go through the ``sdnotify`` library to the socket systemd names in ``NOTIFY_SOCKET``; outside systemd
(the simulator, a terminal, the tests without a socket) every call does nothing. Entry points for the runtime:

- :func:`ready` once the devices, camera and status page are up (systemd starts dependants and stops waiting);
- :class:`Watchdog` around the running table: pings at half ``WATCHDOG_USEC`` while ``healthy()`` holds, so a
  table that hangs is restarted by systemd;
- :func:`stopping` as a clean stop begins (the log is being closed and the LEDs turned off).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import cache

from sdnotify import SystemdNotifier


@cache
def _notifier(socket_path: str | None) -> SystemdNotifier:
    return SystemdNotifier()


def send(state: str) -> bool:
    """Send one sd_notify message; False when not running under systemd (nothing was sent)."""
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return False
    notifier = _notifier(path)
    notifier.notify(state)
    return notifier.socket is not None


def ready(status: str = "the table is running") -> bool:
    return send(f"READY=1\nSTATUS={status}")


def status(text: str) -> bool:
    """A line ``systemctl status tableside`` shows (say what the table waits for, e.g. the Pico)."""
    return send(f"STATUS={text}")


def watchdog() -> bool:
    return send("WATCHDOG=1")


def stopping() -> bool:
    return send("STOPPING=1\nSTATUS=stopping: closing the log, lights off")


def watchdog_interval_s() -> float | None:
    """Seconds within which systemd wants a ping (``WatchdogSec=``), or ``None`` when it wants none."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1e6 or None
    except ValueError:
        return None


class Watchdog:
    """Pings systemd's watchdog from a thread while ``healthy()`` is true; use as a context manager.

    A ping proves more than a live process only if ``healthy`` checks the table itself (for example that the
    session answers); the default checks nothing beyond this thread running."""

    def __init__(self, healthy: Callable[[], bool] = lambda: True) -> None:
        self.healthy = healthy
        self.interval_s = watchdog_interval_s()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self) -> bool:
        """One ping if the table is healthy; returns whether it was sent."""
        try:
            well = self.healthy()
        except Exception:
            well = False
        return well and watchdog()

    def __enter__(self) -> Watchdog:
        if self.interval_s is not None:
            self._thread = threading.Thread(target=self._run, name="systemd-watchdog", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        assert self.interval_s is not None
        while True:
            self.beat()
            if self._stop.wait(self.interval_s / 2):
                return
