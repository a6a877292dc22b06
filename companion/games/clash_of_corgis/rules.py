"""Clash of Corgis: three games on one 55-card deck, one ruleset. Each game is its own module (``original.py``,
...) behind the ``VariantRules`` contract; this class picks the game from the setup's variant and keeps the
``Ruleset`` contract for the table. Rulings are cited as "Ruling CO-n" (``docs/rulings.md``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from companion.games.actions import Action
from companion.games.base import (
    Finding,
    GameOption,
    GameSetup,
    GameState,
    MalformedAction,
    OptionKind,
    Outcome,
    Ruleset,
    Scoreboard,
)
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.capture import CaptureRules
from companion.games.clash_of_corgis.original import OriginalRules
from companion.games.clash_of_corgis.treasure_island import TreasureIslandRules
from companion.games.clash_of_corgis.variant import VariantRules

GAMES: dict[str, VariantRules[Any]] = {
    "original": OriginalRules(), "treasure-island": TreasureIslandRules(), "capture": CaptureRules()}


def original_by_default(setup: GameSetup) -> GameSetup:
    """A setup that names no variant (``standard``, the default) is the Original game."""
    return dataclasses.replace(setup, variant="original") if setup.variant == "standard" else setup


def _action_types() -> tuple[type[Action], ...]:
    seen: dict[type[Action], None] = {}
    for game in GAMES.values():
        seen.update(dict.fromkeys(game.action_types))
    return tuple(seen)


class ClashOfCorgis(Ruleset[GameState]):
    name: ClassVar[str] = "clash-of-corgis"
    title: ClassVar[str] = "Clash of Corgis"
    variants: ClassVar[dict[str, str]] = {name: game.description for name, game in GAMES.items()}
    min_players: ClassVar[int] = min(g.min_players for g in GAMES.values())
    max_players: ClassVar[int] = max(g.max_players for g in GAMES.values())
    action_types: ClassVar[tuple[type[Action], ...]] = _action_types()
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption("first_player", "Who goes first (the winner of the last game)", OptionKind.SEAT,
                   "drawn by the companion"),
        GameOption("suits", "The two players' suits", OptionKind.CHOICES, "Fire and Water", choices=cards.SUITS,
                   count=2, variants=("capture",)),
        # House rule (ruling CI-20): a short duel for a quick game.
        GameOption("captures", "Captures that win (house rule: 1 for a short duel)", OptionKind.NUMBER,
                   "2, as the rulebook says", low=1, high=2, variants=("capture",)),
    )

    def game(self, state: GameState) -> VariantRules[Any]:
        return GAMES[state.setup.variant]

    @staticmethod
    def game_rules(variant: str) -> VariantRules[Any]:
        """One game's rules by variant name (its player count, its actions)."""
        return GAMES[variant]

    def check_setup(self, setup: GameSetup) -> None:
        setup = original_by_default(setup)
        super().check_setup(setup)
        game = GAMES[setup.variant]
        if not game.min_players <= len(setup.players) <= game.max_players:
            raise MalformedAction("player-count", f"{game.title} is for {game.min_players} to {game.max_players} "
                                  f"players, not {len(setup.players)}.")

    def setup(self, setup: GameSetup) -> GameState:
        self.check_setup(setup)
        setup = original_by_default(setup)
        return GAMES[setup.variant].setup(setup)

    def apply(self, state: GameState, action: Action) -> GameState:
        return self.game(state).apply(state, self.decode(action))

    def chance(self, state: GameState, rng: random.Random) -> Action | None:
        return self.game(state).chance(state, rng)

    def legal_actions(self, state: GameState) -> list[Action]:
        return self.game(state).legal_actions(state)

    def to_move(self, state: GameState) -> tuple[int, ...]:
        return self.game(state).to_move(state)

    def scoreboard(self, state: GameState) -> Scoreboard:
        return self.game(state).scoreboard(state)

    def view(self, state: GameState) -> dict[str, Any]:
        return {"variant": state.setup.variant, **self.game(state).view(state)}

    def outcome(self, state: GameState) -> Outcome | None:
        return self.game(state).outcome(state)

    def findings(self, state: GameState) -> tuple[Finding, ...]:
        return ()

    def describe(self, state: GameState, action: Action) -> str:
        return self.game(state).describe(state, action)
