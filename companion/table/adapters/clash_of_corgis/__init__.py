"""Clash of Corgis' table: three games on one deck, so one adapter for the game that hands every input to the part
for the variant in play — ``original.py``, ``treasure_island.py`` and ``capture.py``, registered in ``PARTS``. A
variant without a part is entered by the referee. What the parts share lives in ``common.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.table.adapters.base import TableAdapter
from companion.table.adapters.clash_of_corgis.capture import CaptureAdapter
from companion.table.adapters.clash_of_corgis.original import OriginalTable
from companion.table.adapters.clash_of_corgis.treasure_island import TreasureIslandTable

if TYPE_CHECKING:
    from companion.table.live import LiveTable

PARTS: dict[str, type[TableAdapter]] = {
    "original": OriginalTable, "treasure-island": TreasureIslandTable, "capture": CaptureAdapter}


class ClashOfCorgisAdapter(TableAdapter):
    """Follows the variant of the game in play (a new game may change it) and passes everything to its part."""

    game = "clash-of-corgis"

    def __init__(self, table: LiveTable) -> None:
        super().__init__(table)
        self.variant: str | None = None
        self.part = TableAdapter(table)

    def _part(self) -> TableAdapter:
        state = self.table.session.state
        variant = state.setup.variant if state is not None else None  # the rules' own: "standard" is Original
        if variant != self.variant:
            self.part.close()
            self.variant, self.part = variant, PARTS.get(variant or "", TableAdapter)(self.table)
        return self.part

    def observe(self, observation: Any, t: float) -> None:
        self._part().observe(observation, t)

    def observe_frame(self, observations: Sequence[Any], t: float) -> None:
        self._part().observe_frame(observations, t)

    def changed(self, t: float) -> None:
        self._part().changed(t)

    def tick(self, t: float) -> None:
        self._part().tick(t)

    def live_key(self, t: float) -> tuple[Any, ...]:
        return (self.variant, *self._part().live_key(t))

    def view(self) -> dict[str, Any]:
        return self._part().view()

    def close(self) -> None:
        self.part.close()
