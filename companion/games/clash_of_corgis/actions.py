"""Clash of Corgis' actions, shared by its three games where the rules share the act. Players are seats;
cards are face ids of the deck spec (``fire-7``, ``void-ace``, ``earth-wild``). See ``docs/events.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.actions import Action, Seat


@dataclass(frozen=True)
class Deal(Action):
    """Shuffle, deal and pick the first player. Full-information play gives either a ``seed`` or the explicit
    ``hands`` and ``deck`` (top card first); a real shuffle at the table gives neither. ``first`` is the random
    first player (the seed picks one when it is left out)."""

    type: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True
    seed: int | None = None
    first: Seat | None = None
    hands: tuple[tuple[str, ...], ...] | None = None
    deck: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Pick(Action):
    """A card taken at random from a player's hand (the Archer's "randomly select"): by ``seed`` in
    full-information play, else the ``card`` the table saw."""

    type: ClassVar[str] = "pick"
    chance: ClassVar[bool] = True
    seed: int | None = None
    card: str | None = None


@dataclass(frozen=True)
class Play(Action):
    """A combo from the hand to the middle of the table. ``effect`` names the card whose effect is activated
    when the combo's cards differ (their suits); by default the first card."""

    type: ClassVar[str] = "play"
    player: Seat
    cards: tuple[str, ...]
    effect: str | None = None


@dataclass(frozen=True)
class PassTurn(Action):
    """Announce 'Pass' and end your turn (after a Bard: decline the extra turn)."""

    type: ClassVar[str] = "pass"
    player: Seat


@dataclass(frozen=True)
class Declare(Action):
    """The Monk's player declares high or low for the next play."""

    type: ClassVar[str] = "declare"
    player: Seat
    low: bool


@dataclass(frozen=True)
class Target(Action):
    """The player of an effect that targets "any player" names the target."""

    type: ClassVar[str] = "target"
    player: Seat
    target: Seat


@dataclass(frozen=True)
class Parry(Action):
    """The target of an effect answers it: ``card`` is the Samurai (Ace) that cancels it, ``null`` lets it be.
    Treasure Island: the Ace goes to the party; ``replace`` names the party card it replaces when the party is
    full (``null`` with a full party: the Ace is discarded instead)."""

    type: ClassVar[str] = "parry"
    player: Seat
    card: str | None
    replace: str | None = None


@dataclass(frozen=True)
class Expose(Action):
    """A player turns a card of their choosing from their hand face up into their exposed hand."""

    type: ClassVar[str] = "expose"
    player: Seat
    card: str


@dataclass(frozen=True)
class OracleLook(Action):
    """The Oracle's private look at the top of the deck happened: ``card`` is the top card when it matched
    and was discarded face up, ``null`` when it went back unseen."""

    type: ClassVar[str] = "oracle"
    player: Seat
    card: str | None


@dataclass(frozen=True)
class Heal(Action):
    """The Healer drew a card; ``card`` goes back to the bottom of the deck (``null``: a hidden card)."""

    type: ClassVar[str] = "heal"
    player: Seat
    card: str | None


@dataclass(frozen=True)
class Discard(Action):
    """An effect's discard from the hand (the Mage's Burn), shown face up; ``null``: none matches."""

    type: ClassVar[str] = "discard"
    player: Seat
    card: str | None


@dataclass(frozen=True)
class Reveal(Action):
    """Cards the table turned face up that the referee could not know before: at a real table, the foes of a
    fight (or the Wind bonus's new foe), or a hand the Berserker made its player reveal."""

    type: ClassVar[str] = "reveal"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Build(Action):
    """Treasure Island, Build your Party: a card from the hand to the party (``null``: none), replacing
    ``replace`` (discarded) when the party is full."""

    type: ClassVar[str] = "build"
    player: Seat
    card: str | None
    replace: str | None = None


@dataclass(frozen=True)
class Fight(Action):
    """Treasure Island: declare and take 1, 2 or 3 foes from the top of the deck."""

    type: ClassVar[str] = "fight"
    player: Seat
    foes: int


@dataclass(frozen=True)
class Retire(Action):
    """Treasure Island, Retire your Party: the party cards ``keep`` stay on the table (a Healer's one card, or the
    whole party with the Earth bonus after a lost fight); the rest are discarded."""

    type: ClassVar[str] = "retire"
    player: Seat
    keep: tuple[str, ...] = ()
