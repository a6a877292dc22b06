"""Every scoreboard cell that names cards gives their faces beside its words (the status page draws them as
cards): faces of the game's own deck, one entry per card or place, where the rules say the cards lie."""

from __future__ import annotations

import copy
import pickle
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import Cards, GameSetup, Marked, Spot
from companion.games.decks import load_deck
from companion.games.registry import GAMES
from tests.games.session_checks import random_steps

STEPS = 400  # well into any game: tricks, kennels, exposed hands, parties
SETUPS = [(game, variant) for game, ruleset in sorted(GAMES.items()) for variant in sorted(ruleset.variants)]
# The columns that name cards, in each game (Capture's cells are counts: it has none).
CARD_COLUMNS = {"pigzup": {"Top card"}, "corgi-pileup": {"In trick"}, "squirrels": {"Stacks"},
                "crazy-corgi": {"Kennel 1", "Kennel 2", "Kennel 3"}, "clash-of-corgis": {"Exposed", "Party"}}


def expected_faces(game: str, state: Any, seat: int, column: str) -> list[Any] | None:
    """Where each game's cards lie, read from its state: what the cell must draw."""
    if game == "pigzup" and column == "Top card":
        return state.faceup[seat][-1:] or None
    if game == "corgi-pileup" and column == "In trick":
        return [str(card) for who, card in state.trick if who == seat] or None
    if game == "crazy-corgi" and column.startswith("Kennel"):
        return list(state.kennels[seat][int(column[-1]) - 1]) or None
    if game == "squirrels" and column == "Stacks":
        return [st.top or ({"down": True} if st.count else {"empty": True}) for st in state.stacks[seat]] or None
    if game == "clash-of-corgis" and column == "Exposed":  # a card a Fighter pierced is drawn marked so
        return [{"face": c, "mark": "pierced"} if c in state.locked else c for c in state.exposed[seat]] or None
    if game == "clash-of-corgis" and column == "Party":
        return list(state.parties[seat]) or None
    return None


@pytest.mark.parametrize(("game", "variant"), SETUPS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_card_cells_give_the_faces_where_the_cards_lie(game: str, variant: str, seed: int) -> None:
    ruleset = GAMES[game]
    deck = load_deck(game)
    players = tuple(f"P{i}" for i in range(max(ruleset.min_players, 2)))
    setup = GameSetup(game, players, variant, full_information=True)
    for _, _, state in islice(random_steps(ruleset, setup, seed, 10_000), STEPS):
        board = ruleset.scoreboard(state)
        rows = board.to_json()["rows"]
        for row in rows:
            assert len(row["faces"]) == len(row["cells"])
            for column, cell, faces in zip(board.columns, row["cells"], row["faces"], strict=True):
                assert faces == expected_faces(game, state, row["seat"], column), (column, cell)
                drawn = [f if isinstance(f, str) else f.get("face") for f in faces or ()]
                assert all(face in deck for face in drawn if face)
                if faces is not None:
                    assert column in CARD_COLUMNS[game] and cell  # the words are still there


def test_a_cards_cell_reads_as_its_words_and_survives_a_copy() -> None:
    cell = Cards("7 ▢ · 8 (pierced)", ["7", Spot.DOWN, Spot.EMPTY, Marked("8", "pierced")])
    assert cell == "7 ▢ · 8 (pierced)" and f"{cell}" == "7 ▢ · 8 (pierced)"
    assert cell.faces_json() == ["7", {"down": True}, {"empty": True}, {"face": "8", "mark": "pierced"}]
    for kept in (copy.deepcopy(cell), pickle.loads(pickle.dumps(cell))):
        assert kept == cell and kept.faces == cell.faces
