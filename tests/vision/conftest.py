"""Catalogues calibrated from the project's own rendered reference faces, built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.decks import deck_names, load_deck
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
