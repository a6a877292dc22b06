"""PigzUp!'s ``deck`` option (issue 16): decks are chosen by name from the registered ones, a path reads no
file, and a stored game never depends on a file outside the package."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.base import GameSetup, MalformedAction
from companion.games.decks import DeckError, deck_names, load_deck, registered_deck
from companion.games.registry import GAMES
from companion.table.log import EventLog
from companion.table.replay import fold

PIGZUP = GAMES["pigzup"]
SHIPPED = Path(str(resources.files("companion.games").joinpath("decks", "pigzup.toml")))


def setup_with(deck: object) -> GameSetup:
    return GameSetup("pigzup", ("Amy", "Bob"), options={"deck": deck})


def escaping_path(target: Path) -> str:
    """The option that reached ``target`` before: a path relative to the shipped decks folder, without .toml."""
    return "../" * len(SHIPPED.parent.parts) + str(target.with_suffix("")).lstrip("/")


def test_a_deck_is_chosen_by_name() -> None:
    assert PIGZUP.setup(setup_with("pigzup")).deck_size == load_deck("pigzup").size


def test_a_path_out_of_the_package_reads_nothing(tmp_path: Path) -> None:
    copy = tmp_path / "mydeck.toml"
    shutil.copy(SHIPPED, copy)  # a perfectly good deck spec, but not a registered one
    with pytest.raises(MalformedAction, match=r"decks are chosen by name: .*pigzup") as refused:
        PIGZUP.setup(setup_with(escaping_path(copy)))
    assert refused.value.code == "bad-option"


@pytest.mark.parametrize("deck", ["../../../../../etc/passwd", "/etc/hostname", "", "x" * 5000, 7, ["pigzup"]])
def test_anything_but_a_registered_name_is_refused_with_a_message(deck: object) -> None:
    with pytest.raises(MalformedAction, match="deck") as refused:
        PIGZUP.setup(setup_with(deck))
    assert len(refused.value.message) < 200


def test_load_deck_never_joins_a_name_into_a_path(tmp_path: Path) -> None:
    (tmp_path / "evil.toml").write_text('name = "evil"\n[[faces]]\nid = "x"\n', encoding="utf-8")
    with pytest.raises(DeckError, match="no deck named"):
        load_deck(escaping_path(tmp_path / "evil.toml"))


@pytest.mark.parametrize("stored", ["../decks/pigzup", "companion/games/decks/pigzup.toml", str(SHIPPED)])
def test_a_game_stored_with_the_path_of_a_shipped_deck_still_replays(tmp_path: Path, stored: str) -> None:
    """Decided: its file name names the shipped deck, which is used without reading the path."""
    assert registered_deck(stored) == "pigzup"
    log = EventLog(tmp_path / "t.sqlite3")
    start = log.create_game(setup_with(stored), 1.0, "test")
    assert fold(log.events(start.game_id)).state.deck_size == load_deck("pigzup").size
    log.close()


def test_log_show_of_a_game_whose_deck_is_gone_is_a_message(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A game stored with a deck outside the package cannot be replayed now; ``log show`` still shows it."""
    log = EventLog(tmp_path / "t.sqlite3")
    log.create_game(setup_with(escaping_path(tmp_path / "gone.toml")), 1.0, "test")
    log.close()
    config = tmp_path / "companion.toml"
    config.write_text('[table]\ndatabase = "t.sqlite3"\n[web]\nenabled = false\n', encoding="utf-8")
    assert main(["-c", str(config), "log", "show", "1"]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("companion log: game 1 cannot be replayed (no deck named")
    assert '"kind": "start"' in out and "Traceback" not in err


def test_every_registered_deck_loads() -> None:
    assert "pigzup" in deck_names() and all(load_deck(name).size for name in deck_names())
