"""Clash of Corgis: one ruleset (``rules.py``) for three games on one deck (``cards.py``) with one card-effect
vocabulary (``effects.py``): Original (``original.py``), ..."""

from companion.games.clash_of_corgis.rules import ClashOfCorgis

__all__ = ["ClashOfCorgis"]
