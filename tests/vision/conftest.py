"""Catalogues calibrated from the project's own rendered reference faces, and from published decks fetched from the
npm registry (tests using those skip, saying why, where they cannot be fetched), built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.decks import deck_names, load_deck
from companion.sim.foreign_decks import FOREIGN_DECKS, DeckUnavailable, use_deck, write_references
from companion.sim.render import write_reference_folder
from companion.vision.calibrate import catalog_from_folder
from companion.vision.catalog import Catalog


@pytest.fixture(scope="session")
def reference_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("references")
    for name in deck_names():
        write_reference_folder(load_deck(name), str(root / name))
    return root


@pytest.fixture(scope="session")
def catalogs(reference_root: Path) -> dict[str, Catalog]:
    return {name: catalog_from_folder(load_deck(name), reference_root / name) for name in deck_names()}


@pytest.fixture(scope="session")
def foreign_pictures() -> dict[str, Path]:
    """Every published deck, fetched once into the user's cache (a CI without the npm registry skips)."""
    try:
        return {name: use_deck(deck) for name, deck in FOREIGN_DECKS.items()}
    except DeckUnavailable as exc:
        pytest.skip(f"published card decks unavailable: {exc}")


@pytest.fixture(scope="session")
def foreign_catalogs(foreign_pictures: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Catalog]:
    """Each published deck calibrated as a user would: from one cropped scan per face, its size measured."""
    root = tmp_path_factory.mktemp("foreign-scans")
    out = {}
    for name, deck in FOREIGN_DECKS.items():
        write_references(deck, foreign_pictures[name], root / name)
        out[name] = catalog_from_folder(deck.deck, root / name)
    return out
