"""Clash of Corgis: one ruleset (``rules.py``) for three games on one deck (``cards.py``), with one card-effect
vocabulary (``effects.py``): Original (``original.py``), Treasure Island (``treasure_island.py``) and Capture the
Illusionist (``capture.py``), each with its state module. The deal, hidden hands and the Oracle's look that two
games share live in ``dealing.py``, ``hands.py`` and ``looks.py``."""

from companion.games.clash_of_corgis.rules import ClashOfCorgis

__all__ = ["ClashOfCorgis"]
