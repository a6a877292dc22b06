"""Table adapters: how each game's table turns what the camera and the devices see into proposed moves.

One adapter per game, registered here beside the game's ruleset name. A game without one is played by the
referee entering moves on the status page; the devices still run. Adding a game to the live table means adding
its adapter module and a line in ``ADAPTERS``.
"""

from __future__ import annotations

from companion.table.adapters.base import TableAdapter
from companion.table.adapters.clash_of_corgis import ClashOfCorgisAdapter
from companion.table.adapters.corgi_pileup import CorgiPileupAdapter
from companion.table.adapters.crazy_corgi import CrazyCorgiAdapter
from companion.table.adapters.pigzup import PigzUpAdapter
from companion.table.adapters.squirrels import SquirrelsAdapter

ADAPTERS: dict[str, type[TableAdapter]] = {
    adapter.game: adapter
    for adapter in (PigzUpAdapter, CorgiPileupAdapter, CrazyCorgiAdapter, SquirrelsAdapter, ClashOfCorgisAdapter)
}


def adapter_for(game: str | None) -> type[TableAdapter]:
    """The adapter class for ``game`` (the name in its setup); the referee-only one when it has none."""
    return ADAPTERS.get(game or "", TableAdapter)


__all__ = ["ADAPTERS", "TableAdapter", "adapter_for"]
