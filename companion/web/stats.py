"""Per-player statistics from the game summaries in the event log."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol


class Summary(Protocol):
    """The fields of the event log's ``GameSummary`` that statistics need."""

    game: str
    players: tuple[str, ...]
    status: str
    winners: tuple[str, ...]


@dataclass
class PlayerStats:
    """One player's record; names match ignoring case and spaces round them, as people type them differently."""

    name: str
    played: int = 0
    finished: int = 0
    wins: int = 0
    by_game: dict[str, list[int]] = field(default_factory=dict)  # game -> [finished, wins]

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game (abandoned games count for neither side)."""
        return self.wins / self.finished if self.finished else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "finished": self.finished,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "by_game": {g: {"finished": f, "wins": w} for g, (f, w) in sorted(self.by_game.items())},
        }


def player_stats(games: Iterable[Summary]) -> list[PlayerStats]:
    """Every player who sat at a game, most wins first, then most games, then by name."""
    table: dict[str, PlayerStats] = {}
    for game in games:
        winners = {w.strip().casefold() for w in game.winners}
        for name in game.players:
            key = name.strip().casefold()
            stats = table.setdefault(key, PlayerStats(name=name.strip()))
            stats.played += 1
            if game.status != "finished":
                continue
            stats.finished += 1
            per_game = stats.by_game.setdefault(game.game, [0, 0])
            per_game[0] += 1
            if key in winners:
                stats.wins += 1
                per_game[1] += 1
    return sorted(table.values(), key=lambda s: (-s.wins, -s.played, s.name.casefold()))
