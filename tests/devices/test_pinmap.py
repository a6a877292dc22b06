"""hardware/pinmap.toml is the one source of pin numbers: firmware, defaults, example config and docs agree."""

from __future__ import annotations

import re
import runpy
import tomllib
from pathlib import Path

from companion.devices.settings import ButtonSettings

ROOT = Path(__file__).parents[2]
PINMAP = tomllib.loads((ROOT / "hardware" / "pinmap.toml").read_text())
README = (ROOT / "hardware" / "README.md").read_text()


def test_firmware_pins_match() -> None:
    pins = runpy.run_path(str(ROOT / "firmware" / "pins.py"))
    assert pins["STATUS_LED"] == PINMAP["pico"]["status_led"]
    assert pins["HX711_RATE"] == PINMAP["pico"]["hx711_rate"]
    assert list(pins["PADS"]) == [(p["dout"], p["sck"], p["tilt"]) for p in PINMAP["pico"]["pads"]]


def test_button_defaults_match() -> None:
    seats = PINMAP["pi"]["seats"]
    defaults = ButtonSettings()
    assert defaults.seat_buttons == tuple(s["button"] for s in seats)
    assert defaults.seat_leds == tuple(s["led"] for s in seats)
    assert defaults.buzzer == PINMAP["pi"]["buzzer"]


def test_the_pi_example_config_uses_the_pin_map() -> None:
    buttons = tomllib.loads((ROOT / "companion.pi.toml").read_text())["buttons"]
    seats = PINMAP["pi"]["seats"][: len(buttons["seat_buttons"])]
    assert buttons["seat_buttons"] == [s["button"] for s in seats]
    assert buttons["seat_leds"] == [s["led"] for s in seats]
    assert buttons["buzzer"] == PINMAP["pi"]["buzzer"]


def test_the_wiring_tables_match() -> None:
    pads = [tuple(map(int, row)) for row in re.findall(r"\| \d \| GP(\d+) \(pin \d+\) \| GP(\d+) \(pin \d+\) \| "
                                                        r"GP(\d+) \(pin \d+\) \|", README)]
    assert pads == [(p["dout"], p["sck"], p["tilt"]) for p in PINMAP["pico"]["pads"]]
    seats = [tuple(map(int, row)) for row in re.findall(r"\| \d \| GPIO(\d+) \(pin \d+\) \| GPIO(\d+) \(pin \d+\) \|",
                                                        README)]
    assert seats == [(s["button"], s["led"]) for s in PINMAP["pi"]["seats"]]
    assert f"GP{PINMAP['pico']['hx711_rate']} (pin" in README
    assert f"| buzzer | GPIO{PINMAP['pi']['buzzer']} (pin" in README


def test_every_pin_is_used_once() -> None:
    pico = [PINMAP["pico"]["status_led"], PINMAP["pico"]["hx711_rate"]]
    pico += [pin for pad in PINMAP["pico"]["pads"] for pin in pad.values()]
    assert len(pico) == len(set(pico))
    assert len(PINMAP["pico"]["pads"]) <= 8  # one PIO state machine per HX711
