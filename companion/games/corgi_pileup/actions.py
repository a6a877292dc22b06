"""Corgi Pileup's actions. Players are seats (0 = first player named at setup); cards are their numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.actions import Action, Seat


@dataclass(frozen=True)
class Deal(Action):
    """Shuffle and deal a round. A real shuffle at the table records nothing more; in full-information play a
    ``seed``, or the explicit deal: ``hands`` (one list per seat) and ``deck`` (the rest, top card first), for a
    game carried on from paper, a referee who knows the cards, and tests. ``leader``: who leads the round's first
    trick, where the table chooses (option ``round_leader = "table"``); otherwise it may only repeat the rules'."""

    type: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True
    seed: int | None = None
    hands: tuple[tuple[int, ...], ...] | None = None
    deck: tuple[int, ...] | None = None
    leader: Seat | None = None


@dataclass(frozen=True)
class Reshuffle(Action):
    """The 6 found the deck empty: this round's set-aside cards become the new deck. Full information: a
    ``seed``, or the new ``deck`` in order (top card first)."""

    type: ClassVar[str] = "reshuffle"
    chance: ClassVar[bool] = True
    seed: int | None = None
    deck: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Play(Action):
    """A player puts a card into the trick (seen by the camera or entered by the referee)."""

    type: ClassVar[str] = "play"
    player: Seat
    card: int


@dataclass(frozen=True)
class ChooseSixTarget(Action):
    """The winner of a trick won by a 6 names who must discard a card and draw a new one."""

    type: ClassVar[str] = "six-target"
    player: Seat
    target: Seat


@dataclass(frozen=True)
class SixDiscard(Action):
    """The named player discards a card of their choice (shown face up), then draws from the deck."""

    type: ClassVar[str] = "six-discard"
    player: Seat
    card: int


@dataclass(frozen=True)
class ChooseLeader(Action):
    """After a trick with a 10 in it, the winner names another player to lead the next trick."""

    type: ClassVar[str] = "choose-leader"
    player: Seat
    leader: Seat


@dataclass(frozen=True)
class ScoreOne(Action):
    """A player who played a 1 on the final trick scores 0 or the value of a card played in that trick."""

    type: ClassVar[str] = "score-one"
    player: Seat
    value: int
