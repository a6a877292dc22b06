"""Fixtures for the rules-core tests."""

from __future__ import annotations

import pytest

from companion.games.corgi_pileup import CorgiPileup


@pytest.fixture
def corgi() -> CorgiPileup:
    return CorgiPileup()
