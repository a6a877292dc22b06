"""Every game Tableside can referee, by the name used in setups, the log and the API."""

from __future__ import annotations

from companion.games.base import MalformedAction, Ruleset
from companion.games.clash_of_corgis import ClashOfCorgis
from companion.games.corgi_pileup import CorgiPileup
from companion.games.crazy_corgi import CrazyCorgi
from companion.games.pigzup import PigzUp
from companion.games.squirrels import Squirrels

GAMES: dict[str, Ruleset] = {
    ruleset.name: ruleset for ruleset in (CorgiPileup(), PigzUp(), CrazyCorgi(), Squirrels(), ClashOfCorgis())
}


def get_game(name: str) -> Ruleset:
    """The ruleset called ``name``; an unknown name is refused with the list of known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise MalformedAction("unknown-game", f"Unknown game {name!r}; known games: {', '.join(GAMES)}.") from None
