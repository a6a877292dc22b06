"""Squirrels: The Card Game. Rules in ``rules.py``, the card facts in ``cards.py``, actions in ``actions.py``, the
legal-move menu in ``moves.py`` and the end-of-round check of hidden hands in ``audit.py``."""

from companion.games.squirrels.rules import Squirrels

__all__ = ["Squirrels"]
