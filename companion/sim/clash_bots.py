"""Bot players for Clash of Corgis, one policy per game: they see the whole table (full-information play) and
choose among the legal moves for their seat the way a careful player would, not uniformly at random."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.actions import Action
from companion.games.base import Ruleset
from companion.games.clash_of_corgis.actions import Declare, Discard, Expose, Heal, Parry, PassTurn, Play, Target
from companion.games.clash_of_corgis.effects import Role
from companion.games.clash_of_corgis.original import rank_value
from companion.games.clash_of_corgis.original_state import OriginalState

Policy = Callable[[Any, int, list[Action], random.Random], Action]


def _strength(card: str) -> int:
    """How precious a card is to keep in Original: its rank, the Wild above the Ace."""
    value = rank_value(card)
    return 11 if value is None else value


def original_policy(s: OriginalState, seat: int, moves: list[Action], rng: random.Random) -> Action:
    """Shed cards cheaply: lead the biggest combo of low cards, beat with the weakest combo that does, keep Wilds
    and Aces for when an opponent is close to going out, and aim effects at the player nearest to winning."""
    assert s.hands is not None
    others = [p for p in range(len(s.players)) if p != seat]
    danger = min(s.hand_size(p) for p in others) <= 3
    hand = s.hands[seat] + s.exposed[seat]
    group = Counter(rank_value(c) for c in hand)

    def play_cost(move: Play) -> float:
        strength = max(_strength(c) for c in move.cards)
        precious = strength >= 10 and not danger
        return (20 if precious else 0) + strength - 3 * len(move.cards)

    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        best = min(plays, key=lambda m: (play_cost(m), rng.random()))
        passing = [m for m in moves if isinstance(m, PassTurn)]
        if passing and play_cost(best) >= 20 and s.hand_size(seat) > 2:
            return passing[0]
        return best
    first = moves[0]
    if isinstance(first, PassTurn):
        return first
    if isinstance(first, Declare):
        assert s.lead is not None
        return Declare(seat, s.lead.rank <= 5)  # a low rank is hard to go under
    if isinstance(first, Target):
        return min(moves, key=lambda m: (s.hand_size(getattr(m, "target", seat)), rng.random()))
    if isinstance(first, Parry):
        aces = [m for m in moves if isinstance(m, Parry) and m.card is not None]
        worth = s.pending is not None and s.pending.role in (Role.ASSASSIN, Role.MONK, Role.FIGHTER)
        free = [m for m in aces if m.card in s.exposed[seat]]
        return (free or (aces if worth else []) or [Parry(seat, None)])[0]
    if isinstance(first, Expose | Heal | Discard):
        # Give up a lone low card: a card in a group or a strong card is worth more in the hand.
        def keep_value(move: Action) -> tuple[int, int, float]:
            card = getattr(move, "card", None)
            return (group[rank_value(card)], _strength(card), rng.random()) if card else (0, 0, rng.random())

        return min(moves, key=keep_value)
    return first


POLICIES: dict[str, Policy] = {"original": original_policy}


@dataclass
class ClashBot:
    """A Clash of Corgis player for one seat, with a seeded generator for its tie-breaks."""

    seat: int
    rng: random.Random

    def choose(self, ruleset: Ruleset, state: Any) -> Action | None:
        mine = [a for a in ruleset.legal_actions(state) if getattr(a, "player", None) == self.seat]
        if not mine:
            return None
        return POLICIES[state.setup.variant](state, self.seat, mine, self.rng)
