"""What each of the three Clash of Corgis games provides to the one ruleset (``rules.py``), and the small
helpers they share: seats, and refusing an action that is not one of the game's."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from companion.games.actions import Action
from companion.games.base import GameSetup, GameState, MalformedAction, Outcome, Scoreboard

S = TypeVar("S", bound=GameState)


class VariantRules(ABC, Generic[S]):
    """One game of the three. ``apply`` gets a decoded action and a state it may not change."""

    title: ClassVar[str]
    description: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_types: ClassVar[tuple[type[Action], ...]]

    @abstractmethod
    def setup(self, setup: GameSetup) -> S: ...

    @abstractmethod
    def apply(self, state: S, action: Action) -> S: ...

    @abstractmethod
    def chance(self, state: S, rng: random.Random) -> Action | None: ...

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]: ...

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def scoreboard(self, state: S) -> Scoreboard: ...

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def describe(self, state: S, action: Action) -> str: ...

    def check_action(self, action: Action) -> None:
        if type(action) not in self.action_types:
            raise MalformedAction("not-in-this-game", f"'{action.type}' is not a move of {self.title}.")


def check_seat(players: tuple[str, ...], seat: int, what: str = "player") -> None:
    if not 0 <= seat < len(players):
        raise MalformedAction("no-such-seat", f"There is no seat {seat} ({what}); seats are 0-{len(players) - 1}.")
