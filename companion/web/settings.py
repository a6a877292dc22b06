"""Settings for the status page (the ``[web]`` section)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebSettings:
    """Where the status page listens and the referee PIN (stored as a hash, see ``companion hash-pin``)."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    pin_hash: str = ""
    threads: int = 32
