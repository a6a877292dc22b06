"""Which player's pile each mat zone holds: the mat's seat plan for a table of 2-6 players."""

from __future__ import annotations

from companion.vision.mat import (
    CENTRE,
    DISCARD,
    GRID_GAMES,
    GRID_ROWS,
    GRID_SEATS,
    KENNEL_GAMES,
    KENNELS,
    LOOT_GAMES,
    SEATS_FOR_PLAYERS,
    grid_zone,
    kennel_zone,
    loot_zone,
)


def seat_zones(players: int) -> list[str]:
    """The zone names of seats 0, 1, ... at a table of ``players``."""
    return [f"seat-{n}" for n in SEATS_FOR_PLAYERS.get(players, ())]


def seat_of_zone(zone: str, players: int) -> int | None:
    """The seat whose pile lies in ``zone``, or ``None`` (the centre, an unused seat zone, the table)."""
    zones = seat_zones(players)
    return zones.index(zone) if zone in zones else None


def table_zone_names(players: int, game: str | None = None, variant: str | None = None) -> list[str]:
    """The zones a table without the mat draws for ``game`` (and its ``variant``): as on its printed mat (seats and
    the centre; for a Kennel game each seat's three Kennels, the centre and the discard pile; for a loot game each
    seat and its loot pile, the centre and the discard pile; for a grid game, Capture the Illusionist, the twelve
    places of each of its two players, ``seat-2/exposed-1`` .. ``seat-5/front-4``, whatever ``players`` says)."""
    if (game, variant) in GRID_GAMES:
        return [grid_zone(seat, row, column) for seat in GRID_SEATS for row in GRID_ROWS for column in range(1, 5)]
    seats = seat_zones(players)
    if game in KENNEL_GAMES:
        return [*(kennel_zone(z, k) for z in seats for k in range(KENNELS)), CENTRE, DISCARD]
    if game in LOOT_GAMES:
        return [*(part for z in seats for part in (z, loot_zone(z))), CENTRE, DISCARD]
    return [*seats, CENTRE]
