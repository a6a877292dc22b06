"""What the referee may enter now, for the card picker and the player picker.

The deck's faces are offered as cards to tap; where the rules know the legal moves (full-information play,
``legal_actions``) each action's card fields offer only the faces some legal move uses. Elsewhere every face is
offered and the rules refuse a wrong one when it is entered, in their own words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.base import Ruleset
from companion.games.decks import DeckError, deck_names, load_deck, registered_deck

# The action fields that name cards (face ids, or Corgi Pileup's numbers).
CARD_FIELDS = ("card", "cards", "tops", "effect", "replace", "keep")


def deck_of(ruleset: Ruleset, options: dict[str, Any]) -> str | None:
    """The registered deck a game is played with (PigzUp!'s ``deck`` option, else the deck named like the game)."""
    try:
        return registered_deck(options.get("deck", ruleset.name))
    except DeckError:
        return ruleset.name if ruleset.name in deck_names() else None


def _faces(value: Any) -> Iterable[str]:
    """The face ids a card field's value names (a card number is the face id of Corgi Pileup's deck)."""
    for item in value if isinstance(value, list | tuple) else (value,):
        if item is not None:
            yield str(item)


def choices(ruleset: Ruleset, state: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``deck`` and its ``faces``; ``to_move`` (seats); ``known``: whether the rules listed the legal moves, and
    then ``types`` (the action types legal now) and ``allowed`` (per type, per card field, the faces allowed)."""
    deck = deck_of(ruleset, options)
    faces = [{"id": face.id, "kind": face.kind} for face in load_deck(deck)] if deck else []
    common = {"deck": deck, "faces": faces, "card_fields": CARD_FIELDS, "to_move": list(ruleset.to_move(state))}
    try:
        legal = ruleset.legal_actions(state)
    except ValueError:  # hidden cards: the rules cannot list the moves, only refuse a wrong one
        return {**common, "known": False}
    allowed: dict[str, dict[str, set[str]]] = {}
    for action in legal:
        fields = allowed.setdefault(action.type, {})
        for name in CARD_FIELDS:
            if hasattr(action, name):
                fields.setdefault(name, set()).update(_faces(getattr(action, name)))
    return {
        **common, "known": True, "types": list(allowed),
        "allowed": {kind: {name: sorted(ids) for name, ids in fields.items()} for kind, fields in allowed.items()},
    }
