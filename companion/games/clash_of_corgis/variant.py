"""What each of the three Clash of Corgis games provides to the one ruleset (``rules.py``), and the small
helpers they share: seats, and refusing an action that is not one of the game's."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from companion.games.actions import Action
from companion.games.base import DecisionRequired, GameSetup, IllegalMove, MalformedAction, Outcome, Scoreboard
from companion.games.clash_of_corgis.dealing import first_player_option

S = TypeVar("S")
Move = tuple[tuple[Any, ...], Callable[[Any, Any], None]]  # the phases an action is taken in, and its handler


class VariantRules(ABC, Generic[S]):
    """One game of the three. Its state has a ``phase`` (an enum with an ``"over"`` member), ``players`` and
    ``clone()``; ``moves()`` says which action is taken in which phases and by which handler."""

    title: ClassVar[str]
    description: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[frozenset[str]] = frozenset({"first_player"})

    def __init__(self) -> None:
        self.handlers: Mapping[type[Action], Move] = self.moves()
        self.action_types: tuple[type[Action], ...] = tuple(self.handlers)

    @abstractmethod
    def moves(self) -> Mapping[type[Action], Move]: ...

    @abstractmethod
    def setup(self, setup: GameSetup) -> S: ...

    def check_options(self, setup: GameSetup) -> None:
        """Refuse an option this game does not have, and a ``first_player`` that is not a seat."""
        unknown = set(setup.options) - self.options
        if unknown:
            raise MalformedAction("bad-option", f"{self.title} has no option {sorted(unknown)[0]!r}.")
        first_player_option(setup.options, len(setup.players))

    @abstractmethod
    def prompt(self, state: S) -> str:
        """What the game waits for, in words: the refusal of anything else."""

    def apply(self, state: S, action: Action) -> S:
        """The state after ``action`` (decoded); the handler works on a clone, so a refusal changes nothing."""
        if type(action) not in self.handlers:
            raise MalformedAction("not-in-this-game", f"'{action.type}' is not a move of {self.title}.")
        phase = state.phase  # type: ignore[attr-defined]
        if phase.value == "over":
            raise IllegalMove("game-over", "The game is over; start a new one.")
        phases, handler = self.handlers[type(action)]
        if phase not in phases:
            raise DecisionRequired(f"waiting-{phase.value}", self.prompt(state))
        player = getattr(action, "player", None)
        if player is not None:
            players = state.players  # type: ignore[attr-defined]
            check_seat(players, player)
            if player not in self.to_move(state):
                raise IllegalMove("not-your-turn", f"Not {players[player]}'s move: {self.prompt(state)}")
        s = state.clone()  # type: ignore[attr-defined]
        handler(s, action)
        self.settle(s)
        return s

    def settle(self, s: S) -> None:
        """Anything the rules do on their own after every action (Treasure Island's reshuffle)."""

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


def check_seat(players: tuple[str, ...], seat: int, what: str = "player") -> None:
    if not 0 <= seat < len(players):
        raise MalformedAction("no-such-seat", f"There is no seat {seat} ({what}); seats are 0-{len(players) - 1}.")
