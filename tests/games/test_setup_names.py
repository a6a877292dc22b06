"""Player names are cleaned once, where a game is set up (issue 16): trimmed, spaces collapsed, at most 24
characters, and never control characters, direction overrides or half characters; a refusal says why."""

from __future__ import annotations

import pytest

from companion.games.base import MAX_NAME_LENGTH, GameSetup, MalformedAction, clean_name
from companion.games.registry import GAMES


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("  Amy  ", "Amy"), ("Mary  Ann", "Mary Ann"), ("Zoe\u0301", "Zoé"), ("Ольга", "Ольга"), ("李雷", "李雷"),
     ("Sam 👩‍👩‍👧", "Sam 👩‍👩‍👧"), ("x" * MAX_NAME_LENGTH, "x" * MAX_NAME_LENGTH)],
)
def test_names_are_trimmed_and_composed(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored
    assert GameSetup("corgi-pileup", (typed, "Bob")).players == (stored, "Bob")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Amy\x00", "control or direction characters"),
        ("Amy\x1b[2J", "control or direction characters"),
        ("Amy\nBob", "control or direction characters"),
        ("\u202eymA", "control or direction characters"),  # right-to-left override
        ("Amy\u2067", "control or direction characters"),  # right-to-left isolate
        ("Amy\ud800", "control or direction characters"),  # half of a character
        ("   ", "is empty"),
        ("x" * 60_000, f"too long: at most {MAX_NAME_LENGTH} characters, not 60000"),
    ],
)
def test_bad_names_refuse_the_setup(name: str, says: str) -> None:
    with pytest.raises(MalformedAction, match=says) as refused:
        GameSetup("corgi-pileup", (name, "Bob"))
    assert refused.value.code == "bad-player-name"
    assert len(refused.value.message) < 200  # the hostile text is quoted, bounded and printable


def test_names_from_json_are_cleaned_too() -> None:
    setup = GameSetup.from_json({"game": "pigzup", "players": [" Amy ", "Bob"]})
    assert setup.players == ("Amy", "Bob")
    with pytest.raises(MalformedAction, match="Players must be a list of names"):
        GameSetup.from_json({"game": "pigzup", "players": ["Amy", 7]})


def test_full_information_must_be_true_or_false() -> None:
    with pytest.raises(MalformedAction, match="true or false"):
        GameSetup.from_json({"game": "corgi-pileup", "players": ["Amy", "Bob"], "full_information": "no"})


def test_names_differing_only_in_case_are_the_same_player() -> None:
    with pytest.raises(MalformedAction, match="different name"):
        GAMES["corgi-pileup"].setup(GameSetup("corgi-pileup", ("Amy", "amy ")))
