"""Pictures a Pi cannot afford or cannot write (issue 16): one clear line, refused before decoding, nothing else."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.pictures import MAX_PIXELS


@pytest.fixture(scope="module")
def catalog(reference_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("catalog") / "squirrels"
    folder = reference_root / "squirrels"
    assert main(["calibrate", "cards", "--deck", "squirrels", "--from", str(folder), "--out", str(out)]) == 0
    return out


def png_header(width: int, height: int) -> bytes:
    """A PNG's signature and header chunk claiming ``width`` x ``height``, and no pixels at all."""
    body = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + body + struct.pack(">I", zlib.crc32(body))


def recognize(capsys, catalog: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["cards", "recognize", "--catalog", str(catalog), *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.parametrize(("width", "height"), [(100_000, 100_000), (10_000, 10_000), (4609, 2592)])
def test_a_picture_over_the_pixel_budget_is_refused_from_its_header(capsys, tmp_path, catalog, width, height):
    image = tmp_path / "huge.png"
    image.write_bytes(png_header(width, height))  # no pixel data: decoding it would fail, not refuse
    code, out, err = recognize(capsys, catalog, str(image))
    assert code == 1 and out == ""
    assert err.strip() == (f"companion: {image}: {width}x{height} is {width * height / 1e6:.0f} megapixels, more "
                           f"than the {MAX_PIXELS / 1e6:.0f} a Pi can afford: scale it down (a camera frame is "
                           "1-12 megapixels)")


def test_a_real_picture_over_the_budget_is_refused_and_the_next_one_read(capsys, tmp_path, catalog):
    big, small = tmp_path / "big.png", tmp_path / "small.png"
    cv2.imwrite(str(big), np.zeros((2592, 4609, 3), np.uint8))
    cv2.imwrite(str(small), np.full((720, 1280, 3), 40, np.uint8))
    code, out, err = recognize(capsys, catalog, str(big), str(small))
    assert code == 1 and "4609x2592 is 12 megapixels" in err
    report = json.loads(out)
    assert (report["image"], report["cards"]) == (str(small), [])


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("blocker/a.png", "{tmp}/blocker is a file, not a folder"),
        ("a.notapicture", "no picture format is called .notapicture; use .png or .jpg"),
    ],
    ids=["a-file-where-the-folder-goes", "unknown-format"],
)
def test_an_unwritable_annotate_path_is_one_line(capsys, tmp_path, catalog, target, reason):
    (tmp_path / "blocker").write_text("in the way", encoding="utf-8")
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((720, 1280, 3), 40, np.uint8))
    code, _, err = recognize(capsys, catalog, str(image), "--annotate", str(tmp_path / target))
    assert code == 1
    reason = reason.format(tmp=tmp_path)
    errors = [line for line in err.strip().splitlines() if "--annotate" in line]  # the light is reported too
    assert errors == [f"companion: --annotate: cannot write {tmp_path / target}: {reason}"]


def test_calibrate_zones_refuses_a_huge_picture(capsys, tmp_path):
    image = tmp_path / "huge.png"
    image.write_bytes(png_header(100_000, 100_000))
    assert main(["calibrate", "zones", "--image", str(image), "--out", str(tmp_path / "z.toml")]) == 1
    assert "100000x100000 is 10000 megapixels" in capsys.readouterr().err
    assert not (tmp_path / "z.toml").exists()
