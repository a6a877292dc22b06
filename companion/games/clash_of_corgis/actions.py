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


@dataclass(frozen=True)
class Shuffle(Action):
    """Capture: cards shuffled face down back into the same places (a re-set-up after a capture, the Healer's or
    the Wild's re-arrangement). Full information: a ``seed`` or the explicit ``order`` (the cards in the order of
    the places); a real table: neither — nobody saw the new layout."""

    type: ClassVar[str] = "shuffle"
    chance: ClassVar[bool] = True
    seed: int | None = None
    order: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Insight(Action):
    """Capture: a private look at one of your own hidden cards on the table (``slot``, e.g. ``front-2``); the
    referee records that it happened, not what was seen. Also the Oracle's look."""

    type: ClassVar[str] = "insight"
    player: Seat
    slot: str


@dataclass(frozen=True)
class Activate(Action):
    """Capture: activate your card at ``slot`` (``front-1``..``back-4``, ``exposed-1``..``exposed-4``) or from your
    ``hand``. ``card`` is its face (needed for a hand card, and at a real table for a hidden one); a hand card goes
    face up to your exposed hand row at ``column`` (1-4)."""

    type: ClassVar[str] = "activate"
    player: Seat
    slot: str
    card: str | None = None
    column: int | None = None


@dataclass(frozen=True)
class RevealCard(Action):
    """Capture: ``player`` reveals the hidden card at ``slot`` (on the table of the card's owner) or from the
    ``hand`` into the exposed hand row at ``column``; ``card`` is the face shown (a real table), or the hand card
    its owner chooses to reveal."""

    type: ClassVar[str] = "reveal-card"
    player: Seat
    slot: str
    card: str | None = None
    column: int | None = None


@dataclass(frozen=True)
class Rest(Action):
    """Capture, the Bard: one of the opponent's revealed cards (``slot``) turned sideways: rested."""

    type: ClassVar[str] = "rest"
    player: Seat
    slot: str


@dataclass(frozen=True)
class Rearrange(Action):
    """Capture, the Healer or the Wild: the player's cards at ``slots`` (the Healer's face-up card, or the Wild
    itself, then up to two hidden table cards) to be shuffled face down into the same places."""

    type: ClassVar[str] = "rearrange"
    player: Seat
    slots: tuple[str, ...]


@dataclass(frozen=True)
class Select(Action):
    """Capture, the Assassin: its target selects one of their hidden table cards (``slot``)."""

    type: ClassVar[str] = "select"
    player: Seat
    slot: str


@dataclass(frozen=True)
class Guess(Action):
    """Capture, the Assassin: the declared rank (``1``-``9``, ``A``, ``Wild``); ``card`` is the selected card as
    it is revealed (a real table)."""

    type: ClassVar[str] = "guess"
    player: Seat
    rank: str
    card: str | None = None


@dataclass(frozen=True)
class Save(Action):
    """Capture: saving a revealed Illusionist. ``slot`` is the Ace discarded (``hand`` with ``card`` for one in the
    hand), or the hidden card discarded blind in the one attempt (``card``: its face, at a real table); ``null``:
    no save, the Illusionist is captured."""

    type: ClassVar[str] = "save"
    player: Seat
    slot: str | None
    card: str | None = None
