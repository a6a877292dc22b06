"""What the parts of Clash of Corgis' table share: the game's state while it is played, the seat at a zone, the
choices asked on the players' phones (and withdrawn once the game no longer waits for them), and the referee's
question about a card the camera cannot name (rulings CO-16, CO-17, TI-11, TI-14)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from companion.games.actions import Action
from companion.games.clash_of_corgis import cards
from companion.games.clash_of_corgis.rules import ClashOfCorgis
from companion.table.adapters.base import TableAdapter
from companion.table.prompts import Option

CENTRE = "centre"
DISCARD = "discard"

# A choice the game waits for: (about, seat whose choice it is, question, options).
Decision = tuple[str, int, str, list[Option]]


class ClashPart(TableAdapter):
    """One variant's part of the table. ``state_type`` is its game's state; ``decisions`` names the prompts it asks
    (so that the ones the game no longer waits for are withdrawn)."""

    state_type: ClassVar[type]
    decisions: ClassVar[tuple[str, ...]]

    def _state(self) -> Any:
        """The game's state while it is being played, else ``None``."""
        _game_id, status, state = self.table.session.current()
        return state if isinstance(state, self.state_type) and status == "playing" else None

    def _ruleset(self) -> ClashOfCorgis:
        return self.table.session.game.ruleset  # type: ignore[union-attr,return-value]

    def _seat(self, zone: str) -> int | None:
        """The seat of the player at a seat zone (``seat-3``); ``None`` for any other zone."""
        return None if "/" in zone or zone in (CENTRE, DISCARD) else self.table.seat_at(zone)

    def _ask(self, state: Any, found: Iterable[Decision], also_asked: Iterable[str] = ()) -> None:
        """Ask each choice in ``found`` that has a legal option; withdraw the other open prompts of this part."""
        ruleset = self._ruleset()
        asked = set(also_asked)
        for about, seat, question, options in found:
            legal = [o for o in options if ruleset.legal(state, o.action) is None]
            if legal:
                self.table.ask(about, question, legal, seat=seat)
                asked.add(about)
        prompts = self.table.session.prompts
        for prompt in prompts.open():
            if prompt.about in self.decisions and prompt.about not in asked:
                prompts.withdraw(prompt.about, "the game has moved on")

    def _ask_unreadable(self, state: Any, zone: str, where: str, reading: Callable[[str], Action | None]) -> None:
        """A question for the referee: which card it is, as the moves it could be (never the camera's guess):
        ``reading`` says what each card not yet face up would mean there."""
        ruleset = self._ruleset()
        public = state.public_cards()
        readings = [reading(c) for c in cards.all_cards() if c not in public]
        options = [Option(ruleset.describe(state, a), a) for a in readings
                   if a is not None and ruleset.legal(state, a) is None]
        if options:
            self.table.ask(f"unreadable:{zone}", f"The camera cannot read the card {where}: which card is it?",
                           options, seat=None)
