"""Which player's pile each mat zone holds: the mat's seat plan for a table of 2-6 players."""

from __future__ import annotations

from companion.vision.mat import SEATS_FOR_PLAYERS


def seat_zones(players: int) -> list[str]:
    """The zone names of seats 0, 1, ... at a table of ``players``."""
    return [f"seat-{n}" for n in SEATS_FOR_PLAYERS.get(players, ())]


def seat_of_zone(zone: str, players: int) -> int | None:
    """The seat whose pile lies in ``zone``, or ``None`` (the centre, an unused seat zone, the table)."""
    zones = seat_zones(players)
    return zones.index(zone) if zone in zones else None
