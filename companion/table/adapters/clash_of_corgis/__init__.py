"""Clash of Corgis' table: one adapter per game of the three, chosen by the variant in play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.table.adapters.base import TableAdapter
from companion.table.adapters.clash_of_corgis.capture import CaptureAdapter
from companion.table.adapters.clash_of_corgis.original import OriginalAdapter

if TYPE_CHECKING:
    from companion.table.live import LiveTable

VARIANTS: dict[str, type[TableAdapter]] = {"capture": CaptureAdapter}  # any other: Original's (the default game)


class ClashOfCorgisAdapter(TableAdapter):
    """Registered under the game's name; building it builds the adapter of the variant the session plays."""

    game = "clash-of-corgis"

    def __new__(cls, table: LiveTable) -> TableAdapter:  # type: ignore[misc]
        game = table.session.game
        variant = game.setup.variant if game is not None else None
        return VARIANTS.get(variant or "", OriginalAdapter)(table)


__all__ = ["CaptureAdapter", "ClashOfCorgisAdapter", "OriginalAdapter"]
