"""The ``[service]`` section of the config: how ``companion service install`` runs the table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServiceSettings:
    """The ``[service]`` section: who runs the table (default: the config file's owner; never root) and how
    long systemd waits for a watchdog ping before it restarts a table that hangs."""

    user: str = ""
    watchdog_seconds: int = 30

    def __post_init__(self) -> None:
        if self.user == "root":
            raise ValueError("user: the table runs as a normal user (one in the dialout, video and gpio groups)")
        if not 5 <= self.watchdog_seconds <= 600:
            raise ValueError(f"watchdog_seconds: 5 to 600, not {self.watchdog_seconds}")
