"""Reaction stats per player, from the verdicts in a PigzUp! game: matches, wins, and how fast."""

from __future__ import annotations

import statistics
from typing import Any

from companion.games.pigzup.state import PigzState


def reaction_stats(state: PigzState) -> list[dict[str, Any]]:
    """Per seat: races, wins, losses, and the median ms from the call to a valid shout and of stacking."""
    rows = []
    for seat, name in enumerate(state.players):
        raced = [r for r in state.results if seat in r.race.racers]
        won = [r for r in raced if r.winner == seat]
        reactions = [r.reaction_ms for r in won if r.reaction_ms is not None]
        stacking = [r.stacking_ms for r in won if r.stacking_ms is not None]
        rows.append({
            "seat": seat,
            "name": name,
            "races": len(raced),
            "wins": len(won),
            "losses": sum(1 for r in raced if r.winner is not None and r.winner != seat),
            "median_reaction_ms": round(statistics.median(reactions)) if reactions else None,
            "median_stacking_ms": round(statistics.median(stacking)) if stacking else None,
        })
    return rows
