"""Deck specs: the counts the rulebooks state, stable face ids, and the PigzUp! match rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.decks import DeckError, deck_names, load_deck, load_deck_file, matches

EXPECTED = {  # name: (distinct faces, physical cards)
    "corgi-pileup": (10, 50),
    "crazy-corgi": (56, 57),
    "squirrels": (19, 162),
    "clash-of-corgis": (55, 55),
    "pigzup": (48, 48),
}


def test_every_packaged_deck_is_listed() -> None:
    assert deck_names() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_deck_sizes_follow_the_rulebooks(name: str) -> None:
    deck = load_deck(name)
    assert (len(deck), deck.size) == EXPECTED[name]
    assert len(deck.cards()) == deck.size


def test_face_ids_and_attributes() -> None:
    clash = load_deck("clash-of-corgis")
    assert clash.face("fire-ace").kind == "ace" and clash.face("fire-ace")["suit"] == "fire"
    assert clash.face("void-7")["rank"] == 7
    crazy = load_deck("crazy-corgi")
    assert crazy.face("purple-5-black").attributes == {"color": "purple", "number": 5, "fur": "black"}
    assert crazy.face("wild").copies == 2
    events = ("baseball", "bones", "fleas", "collar", "bowl")
    assert {f.id for f in crazy if f.kind == "event"} == {f"event-{e}" for e in events}
    squirrels = load_deck("squirrels")
    assert squirrels.cards().count("7") == 12 and squirrels.cards().count("skip") == 8
    assert sum(f.copies for f in squirrels if f.kind == "squirrel") == 18


def test_pigzup_match_needs_number_and_a_shared_colour_in_any_slot() -> None:
    deck = load_deck("pigzup")
    assert matches(deck.face("3-pink-blue"), deck.face("3-green-pink"))
    assert not matches(deck.face("3-pink-blue"), deck.face("3-green-yellow"))
    assert not matches(deck.face("3-pink-blue"), deck.face("4-pink-blue"))


def test_user_spec_file(tmp_path: Path) -> None:
    spec = tmp_path / "mini.toml"
    spec.write_text('name = "mini"\n[[faces]]\nid = "{n}-star"\ncopies = 2\neach = { n = [1, 2] }\n')
    deck = load_deck_file(spec)
    assert deck.cards() == ["1-star", "1-star", "2-star", "2-star"]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('name = "x"\n', "at least one"),
        ('name = "x"\n[[faces]]\nid = "{colour}"\n', "not an attribute"),
        ('name = "x"\n[[faces]]\nid = "a"\ncopies = 0\n', "copies"),
        ('name = "x"\n[[faces]]\nid = "A b"\n', "lower-case"),
        ('name = "x"\n[[faces]]\nid = "a"\n[[faces]]\nid = "a"\n', "twice"),
    ],
)
def test_bad_specs_say_what_is_wrong(tmp_path: Path, text: str, complaint: str) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(DeckError, match=complaint):
        load_deck_file(spec)


def test_unknown_deck_lists_the_known_ones() -> None:
    with pytest.raises(DeckError, match="corgi-pileup"):
        load_deck("uno")
