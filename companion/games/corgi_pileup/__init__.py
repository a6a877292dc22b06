"""Corgi Pileup: the rules in ``rules.py``, its actions in ``actions.py``, the hidden-hand audit in ``audit.py``."""

from companion.games.corgi_pileup.rules import CorgiPileup

__all__ = ["CorgiPileup"]
