"""Crazy Corgi's actions, one per thing that happens on the table. Players are seats; cards are face ids of the
deck spec (``red-2-fawn``, ``wild``, ``event-bowl``); Kennels are numbered 0-2 in front of each player.

The shared ``deal`` and ``reshuffle`` (seeded, or ``null`` for a real shuffle) shuffle the deck; ``deck-order``
states an exact order instead (tests, a stacked deck)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.actions import Action, Seat


@dataclass(frozen=True)
class DeckOrder(Action):
    """Full-information play: the deck as it now lies, top card first, instead of a seeded shuffle (at the start,
    or when the discard pile becomes the new deck)."""

    type: ClassVar[str] = "deck-order"
    chance: ClassVar[bool] = True
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Reveal(Action):
    """A player turns the top card of the deck face up in the draw zone: their own draw, a Collar's forced draw,
    or their card of a Baseball. The card is what the camera reads (it must be the top card when the deck order
    is known)."""

    type: ClassVar[str] = "reveal"
    player: Seat
    card: str


@dataclass(frozen=True)
class Stop(Action):
    """The drawer stops drawing and keeps the revealed cards (also: stopping after a Bowl's peek)."""

    type: ClassVar[str] = "stop"
    player: Seat


@dataclass(frozen=True)
class Give(Action):
    """After a bust, the drawer gives every revealed card to another player, who places them."""

    type: ClassVar[str] = "give"
    player: Seat
    to: Seat


@dataclass(frozen=True)
class Place(Action):
    """A player puts one of the cards they are placing into one of their three Kennels (0, 1 or 2)."""

    type: ClassVar[str] = "place"
    player: Seat
    card: str
    kennel: int


@dataclass(frozen=True)
class DiscardKennel(Action):
    """A card fits none of the player's Kennels: they clear one Kennel onto the discard pile, and that card
    starts a new set there."""

    type: ClassVar[str] = "discard-kennel"
    player: Seat
    kennel: int


@dataclass(frozen=True)
class DeclareWild(Action):
    """Option ``wilds = "declare"``: the Corgi a Wild stands for in the set it just completed (a face id)."""

    type: ClassVar[str] = "declare-wild"
    player: Seat
    card: str


@dataclass(frozen=True)
class TakeBones(Action):
    """Bones: the drawer takes a Corgi card from the discard pile into their Kennels, or ``null`` for none."""

    type: ClassVar[str] = "bones"
    player: Seat
    card: str | None


@dataclass(frozen=True)
class Steal(Action):
    """Fleas: the drawer steals the uncovered (last placed) card of an opponent's Kennel."""

    type: ClassVar[str] = "fleas"
    player: Seat
    target: Seat
    kennel: int
