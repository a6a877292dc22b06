"""Squirrels actions: each is one thing that happens on the table, so a camera can propose it.

Players are seats, stacks are 0-3 (left to right in front of their owner), cards are deck face ids. Decisions the
cards do not show (a Push or Skip target, a Wild's declared value) are fields of the action that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.actions import Action, Seat

Cards = tuple[str, ...]


@dataclass(frozen=True)
class Starter(Action):
    """Who starts the round, drawn at random among the candidates (``seed``) or as decided at the table (``seat``):
    everyone in round 1, the tied highest totals later."""

    type: ClassVar[str] = "starter"
    chance: ClassVar[bool] = True
    seed: int | None = None
    seat: Seat | None = None


@dataclass(frozen=True)
class Deal(Action):
    """Shuffle and deal 20 cards each. Full information: a ``seed``, or the explicit deal (``hands``: 8 cards per
    player; ``stacks``: per player four stacks of three cards, bottom first, so the last is the face-up top).
    At a live table: nothing (a real shuffle), and each player's stack tops follow as ``layout`` actions."""

    type: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True
    seed: int | None = None
    hands: tuple[Cards, ...] | None = None
    stacks: tuple[tuple[Cards, ...], ...] | None = None


@dataclass(frozen=True)
class Layout(Action):
    """A player's four stacks are laid out: their face-up top cards, as the camera sees them."""

    type: ClassVar[str] = "layout"
    player: Seat
    tops: Cards


@dataclass(frozen=True)
class Play(Action):
    """Cards landing on the centre pile in one go: Number cards and Wilds of one value, or one Squirrel.
    ``stacks`` names the stacks whose face-up tops are among ``cards`` (the rest came from the hand);
    ``value`` is the declared value when a Wild is among them."""

    type: ClassVar[str] = "play"
    player: Seat
    cards: Cards
    stacks: tuple[int, ...] = ()
    value: int | None = None


@dataclass(frozen=True)
class Push(Action):
    """A Push card: the centre pile goes to ``target`` (no target on an open table). ``stack``: played from the
    top of that stack, else from the hand."""

    type: ClassVar[str] = "push"
    player: Seat
    target: Seat | None = None
    stack: int | None = None


@dataclass(frozen=True)
class Skip(Action):
    """A Skip card placed in front of ``target``."""

    type: ClassVar[str] = "skip"
    player: Seat
    target: Seat
    stack: int | None = None


@dataclass(frozen=True)
class Blind(Action):
    """A Blind card flipped into the centre from ``stack``: ``card`` is what it turned out to be, with the
    declared ``value`` of a Wild or the ``target`` of a Push or Skip."""

    type: ClassVar[str] = "blind"
    player: Seat
    stack: int
    card: str
    value: int | None = None
    target: Seat | None = None


@dataclass(frozen=True)
class Pickup(Action):
    """The player picks up the centre pile instead of taking an Action."""

    type: ClassVar[str] = "pickup"
    player: Seat


@dataclass(frozen=True)
class Done(Action):
    """The player ends their turn: adding nothing to their Blind card, or unable to play anything at all."""

    type: ClassVar[str] = "done"
    player: Seat


@dataclass(frozen=True)
class Reveal(Action):
    """At a live table's round end: every card a player still has, hand and stacks, spread face up."""

    type: ClassVar[str] = "reveal"
    player: Seat
    cards: Cards
