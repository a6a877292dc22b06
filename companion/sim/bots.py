"""Bot players for the simulated table: they see their own hands (full-information play) and pick legal moves."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.actions import Action
from companion.games.base import Ruleset


@dataclass
class RandomBot:
    """Plays a uniformly random legal move for its seat: weak, but it reaches every corner of the rules."""

    seat: int
    rng: random.Random

    def choose(self, ruleset: Ruleset, state: object) -> Action | None:
        mine = [a for a in ruleset.legal_actions(state) if getattr(a, "player", None) == self.seat]
        return self.rng.choice(mine) if mine else None


def next_bot_move(ruleset: Ruleset, state: object, bots: list[RandomBot]) -> Action | None:
    """The move of the first bot the game is waiting for, or ``None`` when no bot can act."""
    for seat in ruleset.to_move(state):
        action = bots[seat].choose(ruleset, state)
        if action is not None:
            return action
    return None
