"""The scripted board the MicroPython checks use offers exactly what firmware/hw.Board offers to app.py."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.firmware.support import FIRMWARE

HERE = Path(__file__).parent


def public_methods(path: Path, cls: str) -> set[str]:
    tree = ast.parse(path.read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    return {f.name for f in node.body if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}


def board_calls_in_app() -> set[str]:
    tree = ast.parse((FIRMWARE / "app.py").read_text())
    return {
        n.attr for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute | ast.Name)
        and (getattr(n.value, "attr", None) == "board" or getattr(n.value, "id", None) == "board")
    }


def test_the_fake_board_matches_the_real_one() -> None:
    real = public_methods(FIRMWARE / "hw.py", "Board")
    fake = public_methods(HERE / "fakeboard.py", "FakeBoard") - {"advance", "conversion", "tilt_edge"}
    assert real == fake


def test_the_app_only_uses_what_the_board_offers() -> None:
    offered = public_methods(FIRMWARE / "hw.py", "Board") | {"pads"}
    assert board_calls_in_app() <= offered
    assert {"readings", "write", "feed", "tilt_edges"} <= board_calls_in_app()
