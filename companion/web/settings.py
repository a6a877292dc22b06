"""Settings for the status page (the ``[web]`` section) and the limits of the server that serves it."""

from __future__ import annotations

from dataclasses import dataclass

# Threads kept free for page loads and referee POSTs: every open live stream holds one waitress thread.
RESERVED_THREADS = 8


@dataclass(frozen=True)
class ServerLimits:
    """What the server gives all clients together and each one (``WebSettings`` names them for the status page).

    ``idle_timeout_seconds`` closes a socket that sends nothing that long, or takes longer than that to send one
    request; ``max_body_bytes`` refuses a longer body (413) from its headers, before reading it. One address
    holds at most ``connections_per_client`` sockets (a browser uses six), so one phone cannot fill the limit.
    """

    threads: int = 4
    connection_limit: int = 100
    idle_timeout_seconds: int = 15
    max_body_bytes: int = 1024 * 1024
    connections_per_client: int = 32

    def waitress_options(self) -> dict[str, int]:
        return {
            "threads": self.threads,
            "connection_limit": self.connection_limit,
            "channel_timeout": self.idle_timeout_seconds,
            "cleanup_interval": 1,  # how often idle sockets are looked for: a cheap pass over the open ones
            "max_request_body_size": self.max_body_bytes,
        }


@dataclass(frozen=True)
class WebSettings:
    """Where the status page listens and the referee PIN (stored as a hash, see ``companion hash-pin``).

    ``host`` is ``0.0.0.0`` on a Pi so phones on the table's network can reach it. ``threads`` bounds the live
    streams: at most ``threads - 8`` browsers stream at once, the rest fall back to polling. An empty
    ``pin_hash`` turns the referee controls off. ``secret_key_file`` (relative to the config file) keeps referee
    sessions valid across restarts; it is created on first use.

    The limits that keep one phone from knocking the page over for everyone: ``connection_limit`` open sockets
    at most, ``connections_per_client`` and ``streams_per_client`` from any one address; a socket that sends
    nothing for ``idle_timeout_seconds``, or takes longer than that to send one request, is closed; a live
    stream ends after ``stream_minutes`` (the browser reconnects at once, so a phone that vanished without
    closing frees its thread); a request body over ``max_body_bytes`` is refused (413) before it is read.
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
    connection_limit: int = 200
    connections_per_client: int = 32
    streams_per_client: int = 4
    idle_timeout_seconds: int = 15
    stream_minutes: float = 10.0
    max_body_bytes: int = 16 * 1024

    def __post_init__(self) -> None:
        if self.threads < RESERVED_THREADS + 1:
            raise ValueError(f"threads must be at least {RESERVED_THREADS + 1} (live streams each hold one)")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0-65535, not {self.port}")
        if self.pin_max_attempts < 1:
            raise ValueError("pin_max_attempts must be at least 1")
        if self.connection_limit < self.threads:
            raise ValueError(f"connection_limit must be at least threads ({self.threads}): every stream holds one")
        if not 1 <= self.streams_per_client < self.connections_per_client:
            raise ValueError("streams_per_client must be at least 1 and below connections_per_client (a phone "
                             "loads pages beside its stream)")
        if self.max_body_bytes < 1024:
            raise ValueError("max_body_bytes must be at least 1024 (a game setup must fit)")
        timings = ("pin_window_seconds", "unlock_minutes", "keepalive_seconds", "device_poll_seconds",
                   "idle_timeout_seconds", "stream_minutes")
        for name in timings:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        if self.pin_hash and not self.pin_hash.startswith("scrypt$"):
            raise ValueError("pin_hash must come from `companion hash-pin` (it starts with 'scrypt$')")

    @property
    def server_limits(self) -> ServerLimits:
        return ServerLimits(self.threads, self.connection_limit, self.idle_timeout_seconds, self.max_body_bytes,
                            self.connections_per_client)

    @property
    def max_streams(self) -> int:
        """How many browsers may hold a live stream at once."""
        return self.threads - RESERVED_THREADS
