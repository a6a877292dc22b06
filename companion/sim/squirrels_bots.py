"""A sensible Squirrels player for the simulated table, following the rulebook's "Strategies to Consider".

It is a pure policy: given the ruleset, a full-information state and its seat it scores each legal move and plays
the best (ties broken by its seeded generator). It never looks at face-down cards: whether to flip a Blind card
is decided on the pile alone, and only once the card is face up does it choose its declared value or target.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.games.actions import Action
from companion.games.squirrels import Squirrels
from companion.games.squirrels.actions import Blind, Done, Pickup, Play, Push, Skip
from companion.games.squirrels.cards import kind, points
from companion.games.squirrels.state import FOUR, SquirrelsState

STACK_BONUS = 3.0  # "Try to clear these stacks early so you don't get surprised at the end."
CLEAR_BONUS = 25.0  # clearing the pile gives another Action
LOW_TOP_BONUS = 0.6  # per point below 10: "place a low value card which increases the chances ... pick up"
HUNCH = 0.1  # how often it plays any legal move instead: two fixed policies can pass one pile back and forth forever


@dataclass
class SquirrelsBot:
    """Sheds high and special cards first, clears when it can, flips Blind cards when the pile is high, and aims
    Push and Skip cards at the player closest to going out. Picks up only when it must. Now and then it plays a
    hunch (any legal move), which breaks the loops two fixed policies can fall into."""

    seat: int
    rng: random.Random

    def choose(self, ruleset: Squirrels, state: SquirrelsState,
               allowed: Callable[[Action], bool] = lambda _action: True) -> Action | None:
        """The move to play, among the legal ones ``allowed`` keeps."""
        if self.seat not in ruleset.to_move(state):
            return None
        mine = [a for a in ruleset.legal_actions(state) if getattr(a, "player", None) == self.seat and allowed(a)]
        if not mine:
            return None
        if self.rng.random() < HUNCH:
            return self.rng.choice(mine)
        scored = [(self._score(ruleset, state, a), self.rng.random(), i) for i, a in enumerate(mine)]
        return mine[max(scored)[2]]

    def _score(self, rules: Squirrels, s: SquirrelsState, action: Action) -> float:
        top = s.top_run()
        pile_points = sum(points(c) for c, _ in s.pile)
        match action:
            case Play(cards=cards, stacks=stacks, value=value):
                if kind(cards[0]) == "squirrel":
                    return 20 + CLEAR_BONUS + 0.2 * pile_points
                played = value if value is not None else int(cards[0])
                run = top[1] if top is not None and top[0] == played else 0
                clears = run + len(cards) == FOUR
                return (
                    sum(points(c) for c in cards)
                    + STACK_BONUS * len(stacks)
                    + (CLEAR_BONUS if clears else LOW_TOP_BONUS * (10 - played))
                )
            case Push(target=target):
                return 20 + (pile_points + self._threat(rules, s, target) if target is not None else -5)
            case Skip(target=target):
                return 18 + self._threat(rules, s, target)
            case Blind():
                return self._blind(rules, s, action, top)
            case Pickup():
                return -10 - pile_points
            case Done():
                return -1
        return 0

    def _blind(self, rules: Squirrels, s: SquirrelsState, action: Blind, top: tuple[int, int] | None) -> float:
        """Flipping is judged on the pile alone (the chance the unseen card is not higher than the top); the
        declared value and the target are chosen like the same card played from the hand."""
        risk = 0.0 if top is None else (10 - top[0]) / 10
        chosen = 0.0
        if action.value is not None:
            run = top[1] if top is not None and top[0] == action.value else 0
            too_high = top is not None and action.value > top[0]
            chosen = -100 if too_high else (CLEAR_BONUS if run + 1 == FOUR else -action.value / 10)
        elif action.target is not None:
            chosen = self._threat(rules, s, action.target)
        return STACK_BONUS + 8 * (1 - risk) - risk * 0.3 * sum(points(c) for c, _ in s.pile) + chosen

    @staticmethod
    def _threat(rules: Squirrels, s: SquirrelsState, target: int | None) -> float:
        """How close ``target`` is to going out: the fewer cards left, the better a Push or Skip aimed at them."""
        return 0.0 if target is None else 20.0 / (1 + s.cards_left(target))


def bots_for(players: int, seed: int) -> list[SquirrelsBot]:
    rng = random.Random(seed)
    return [SquirrelsBot(seat, random.Random(rng.getrandbits(32))) for seat in range(players)]
