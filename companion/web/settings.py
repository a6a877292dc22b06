"""Settings for the status page (the ``[web]`` section)."""

from __future__ import annotations

from dataclasses import dataclass

# Threads kept free for page loads and referee POSTs: every open live stream holds one waitress thread.
RESERVED_THREADS = 8


@dataclass(frozen=True)
class WebSettings:
    """Where the status page listens and the referee PIN (stored as a hash, see ``companion hash-pin``).

    ``host`` is ``0.0.0.0`` on a Pi so phones on the table's network can reach it. ``threads`` bounds the live
    streams: at most ``threads - 8`` browsers stream at once, the rest fall back to polling. An empty
    ``pin_hash`` turns the referee controls off. ``secret_key_file`` (relative to the config file) keeps referee
    sessions valid across restarts; it is created on first use.
    """

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    pin_hash: str = ""
    threads: int = 32
    secret_key_file: str = "var/web-secret.key"
    pin_max_attempts: int = 5
    pin_window_seconds: float = 300.0
    unlock_minutes: float = 240.0
    keepalive_seconds: float = 15.0
    device_poll_seconds: float = 2.0

    def __post_init__(self) -> None:
        if self.threads < RESERVED_THREADS + 1:
            raise ValueError(f"threads must be at least {RESERVED_THREADS + 1} (live streams each hold one)")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0-65535, not {self.port}")
        if self.pin_max_attempts < 1:
            raise ValueError("pin_max_attempts must be at least 1")
        timings = ("pin_window_seconds", "unlock_minutes", "keepalive_seconds", "device_poll_seconds")
        for name in timings:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.pin_hash and not self.pin_hash.startswith("scrypt$"):
            raise ValueError("pin_hash must come from `companion hash-pin` (it starts with 'scrypt$')")

    @property
    def max_streams(self) -> int:
        """How many browsers may hold a live stream at once."""
        return self.threads - RESERVED_THREADS
