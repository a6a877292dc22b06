"""Crazy Corgi bot players: a pure policy over the full-information state, choosing among the legal moves.

A bot pushes its luck as far as its nerve allows (the chance that the next card repeats a number, counted over
the cards it has not seen — it does not peek at the deck, except through a Bowl), places cards where they build
the longest set and keep the fur bonus alive, completes sets for the most points, gives a bust to the player it
helps least and steals from the leader.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.games.actions import Action
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.crazy_corgi.actions import DeclareWild, DiscardKennel, Give, Place, Reveal, Steal, Stop, TakeBones
from companion.games.crazy_corgi.sets import best_score, face, fits, is_corgi, is_wild, possible_kinds
from companion.games.crazy_corgi.state import CrazyState, Phase

COMPLETE = 100  # a placement that completes a set beats any other, more so the more it scores


def place_value(kennel: Sequence[str], card: str) -> float:
    """How good it is to put ``card`` into ``kennel`` (which it fits): complete a set, else grow the fullest
    Kennel, keep many combinations and one fur open; an empty Kennel is a last resort, a Wild waits for a set."""
    after = [*kennel, card]
    if len(after) == 5:
        score = best_score(after)
        return COMPLETE + (score.points if score else 0)
    furs = {face(c)["fur"] for c in after if is_corgi(c)}
    value = 3.0 * len(kennel) + len(possible_kinds(after)) + (1.0 if len(furs) <= 1 else 0.0)
    if not kennel:
        value = 0.5
    if is_wild(card):
        value -= 2.0  # a Wild fits anywhere later: spend it where it finishes a set
    return value


def best_spot(kennels: Sequence[Sequence[str]], card: str) -> float | None:
    """The value of the best Kennel for ``card``, or ``None`` if it fits none."""
    values = [place_value(k, card) for k in kennels if fits(k, card)]
    return max(values) if values else None


def completions(kennels: Sequence[Sequence[str]], cards: Sequence[str]) -> int:
    """How many of ``cards`` would complete one of these Kennels: what a bust would hand that player."""
    return sum(1 for c in cards for k in kennels if len(k) == 4 and fits(k, c))


@dataclass
class CrazyCorgiBot:
    """Plays one seat. ``nerve`` is the bust chance it accepts for another card (drawn per bot from ``rng``)."""

    seat: int
    rng: random.Random
    nerve: float = field(default=-1.0)

    def __post_init__(self) -> None:
        if self.nerve < 0:
            self.nerve = self.rng.uniform(0.2, 0.45)

    def choose(self, ruleset: CrazyCorgi, state: CrazyState) -> Action | None:
        if self.seat not in ruleset.to_move(state):
            return None
        options = ruleset.legal_actions(state)
        if len(options) == 1:
            return options[0]
        policy = {
            Phase.DRAW: self._draw,
            Phase.GIVE: self._give,
            Phase.PLACE: self._place,
            Phase.DECLARE: self._declare,
            Phase.BONES: self._bones,
            Phase.FLEAS: self._fleas,
        }[state.current]
        return policy(state, options)

    # ------------------------------------------------------------------------------------ drawing
    def _draw(self, state: CrazyState, options: list[Action]) -> Action:
        reveal = next(a for a in options if isinstance(a, Reveal))
        stop = next((a for a in options if isinstance(a, Stop)), None)
        if stop is None:
            return reveal
        if state.bowl_offer:  # the Bowl's peek: the one card a player may look at
            return stop if self._busts(state, state.deck[0]) else reveal
        unseen = state.deck  # the bot counts what it has not seen; it does not read the order
        risk = sum(self._busts(state, c) for c in unseen) / len(unseen)
        return reveal if risk <= self.nerve else stop

    @staticmethod
    def _busts(state: CrazyState, card: str) -> bool:
        if is_wild(card):
            return any(is_wild(c) for c in state.drawn)
        numbers = {face(c)["number"] for c in state.drawn if is_corgi(c)}
        return is_corgi(card) and face(card)["number"] in numbers

    def _give(self, state: CrazyState, options: list[Action]) -> Action:
        def helps(action: Action) -> tuple[int, int, float]:
            assert isinstance(action, Give)
            return (completions(state.kennels[action.to], state.drawn), state.points[action.to], self.rng.random())

        return min(options, key=helps)

    # ------------------------------------------------------------------------------------ placing
    def _place(self, state: CrazyState, options: list[Action]) -> Action:
        kennels = state.kennels[self.seat]
        places = [a for a in options if isinstance(a, Place)]
        if places:
            return max(places, key=lambda a: (place_value(kennels[a.kennel], a.card), self.rng.random()))
        # A card fits nowhere: give up the Kennel with the least in it.
        discards = [a for a in options if isinstance(a, DiscardKennel)]
        return min(discards, key=lambda a: (len(kennels[a.kennel]), self.rng.random()))

    def _declare(self, state: CrazyState, options: list[Action]) -> Action:
        assert state.placer is not None and state.declaring is not None
        kennel = state.kennels[state.placer][state.declaring]
        corgis = [c for c in kennel if is_corgi(c)] + state.declared
        still_wild = sum(is_wild(c) for c in kennel) - len(state.declared) - 1

        def points(action: Action) -> int:
            assert isinstance(action, DeclareWild)
            score = best_score([*corgis, action.card, *["wild"] * still_wild])
            return score.points if score else 0

        return max(options, key=points)

    # ------------------------------------------------------------------------------------ events
    def _bones(self, state: CrazyState, options: list[Action]) -> Action:
        kennels = state.kennels[self.seat]

        def value(action: Action) -> float:
            assert isinstance(action, TakeBones)
            spot = best_spot(kennels, action.card) if action.card else None
            return -1.0 if spot is None else spot

        return max(options, key=value)

    def _fleas(self, state: CrazyState, options: list[Action]) -> Action:
        kennels = state.kennels[self.seat]

        def value(action: Action) -> float:
            assert isinstance(action, Steal)
            card = state.kennels[action.target][action.kennel][-1]
            spot = best_spot(kennels, card)
            return (spot if spot is not None else -5.0) + state.points[action.target]

        return max(options, key=value)
