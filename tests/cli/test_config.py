"""The config file: defaults run the simulator, and every mistake names its key and says what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load_config

ROOT = Path(__file__).parents[2]


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_the_simulated_table():
    config = load_config(None)
    assert config == Config()
    assert (config.serial.port, config.buttons.pin_factory, config.camera.source) == ("sim", "mock", "sim")


@pytest.mark.parametrize("name", ["companion.toml", "companion.pi.toml"])
def test_the_shipped_examples_load(name):
    config = load_config(ROOT / name)
    assert config.path == (ROOT / name).resolve()


def test_paths_are_relative_to_the_config_file(tmp_path):
    config = load_config(write(tmp_path, '[table]\ndatabase = "games/t.sqlite3"\n'))
    assert config.resolve(config.table.database) == tmp_path / "games" / "t.sqlite3"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[serial]\nprot = 'sim'\n", "serial.prot: unknown key; did you mean 'port'?"),
        ("[web]\nport = 'eighty'\n", "web.port: expected a whole number, got 'eighty'"),
        ("[web]\nenabled = 1\n", "web.enabled: expected true or false, got 1"),
        ("[buttons]\nseat_buttons = [17, 'x']\n", "buttons.seat_buttons[1]: expected a whole number, got 'x'"),
        ("[tabel]\n", "tabel: unknown key; did you mean 'table'?"),
        ("table = 3\n", "[table] must be a table (a [table] section), not a single value"),
        ("[web\n", "not valid TOML"),
    ],
)
def test_mistakes_name_the_key(tmp_path, text, message):
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    assert message in str(info.value)


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


def test_judge_settings_are_validated(tmp_path):
    config = load_config(write(tmp_path, "[judge]\nhold_seconds = 2\nfalse_shout = 'ignored'\n"))
    assert (config.judge.hold_seconds, config.judge.false_shout) == (2.0, "ignored")
    with pytest.raises(ConfigError, match=r"\[judge\] false_shout must be one of loses, ignored"):
        load_config(write(tmp_path, "[judge]\nfalse_shout = 'sometimes'\n"))
