"""PigzUp!: the rules in ``rules.py``, its actions in ``actions.py``. The match judge is in ``companion/table``."""

from companion.games.pigzup.rules import PigzUp

__all__ = ["PigzUp"]
