"""Cards drawn as cards: an SVG for every face of every registered deck, drawn from the deck spec the rules and
the recogniser share, served by the Pi itself (no asset from elsewhere).

``GET /cards/<deck>/<face>.svg`` — big enough to read from arm's length on a phone: the face's number or name
large in the middle, its colours as bands, its index in the corner. Unknown decks and faces are a 404.
"""

from __future__ import annotations

from functools import cache
from html import escape

from flask import Blueprint, Response, abort

from companion.games.decks import Deck, DeckError, Face, deck_names, load_deck

bp = Blueprint("cards", __name__, url_prefix="/cards")

# The colours printed on the decks, and the Clash of Corgis suits' colours.
INKS = {
    "pink": "#e0559a", "blue": "#2f6fd6", "green": "#2e9e4f", "yellow": "#e3b505", "red": "#d1362f",
    "purple": "#7e4bc2", "earth": "#8a5a2b", "water": "#2f6fd6", "fire": "#d1362f", "wind": "#2aa198",
    "void": "#5b3f8c",
}
COLOUR_KEYS = ("color", "color1", "color2", "suit")
BORDER = "#333"


def label(face: Face) -> str:
    """What the middle of the card says: its number or rank, else its kind, event or species in words."""
    for key in ("number", "rank"):
        if key in face.attributes:
            return str(face[key])
    for key in ("event", "species", "kind"):
        if key in face.attributes:
            return str(face[key]).replace("-", " ")
    return face.kind.replace("-", " ")


def card_svg(face: Face) -> str:
    """One face as a 63 by 88 SVG card (the size of a poker card in mm)."""
    inks = [INKS.get(str(face[k]), "#777") for k in COLOUR_KEYS if k in face.attributes]
    bands = "".join(
        f'<rect x="3" y="{3 + i * (82 / len(inks)):.1f}" width="57" height="{82 / len(inks):.1f}" fill="{ink}" '
        'opacity="0.25"/>' for i, ink in enumerate(inks)
    )
    words = label(face)
    text, index = escape(words), escape(words if len(words) <= 2 else words[0].upper())
    size = 30 if len(words) <= 2 else max(8, 60 // len(words) + 2)
    extra = escape(str(face.get("fur", "")))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 63 88" width="63" height="88" role="img" '
        f'aria-label="{escape(face.id)}">'
        f'<rect x="0.5" y="0.5" width="62" height="87" rx="5" fill="#fffdf7" stroke="{BORDER}"/>{bands}'
        f'<text x="6" y="14" font-family="sans-serif" font-size="11" font-weight="bold" fill="{(inks or [BORDER])[0]}">'
        f"{index}</text>"
        f'<text x="31.5" y="{44 + size / 3:.1f}" text-anchor="middle" font-family="sans-serif" font-size="{size}" '
        f'font-weight="bold" fill="{BORDER}">{text}</text>'
        f'<text x="31.5" y="80" text-anchor="middle" font-family="sans-serif" font-size="8" fill="{BORDER}">'
        f"{extra}</text></svg>"
    )


@cache
def _deck(name: str) -> Deck:
    return load_deck(name)


@bp.get("/<deck>/<face>.svg")
def card(deck: str, face: str) -> Response:
    if deck not in deck_names():
        abort(404, f"There is no deck {deck!r}.")
    try:
        drawn = card_svg(_deck(deck).face(face))
    except (KeyError, DeckError):
        abort(404, f"The {deck} deck has no card {face!r}.")
    response = Response(drawn, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
