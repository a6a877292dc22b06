"""Crazy Corgi: the rules in ``rules.py``, its actions in ``actions.py``, Kennel sets and scores in ``sets.py``."""

from companion.games.crazy_corgi.rules import CrazyCorgi

__all__ = ["CrazyCorgi"]
