"""Write the printable play mats: ``python hardware/mat/generate.py [OUT_DIR]`` (default: this folder).

Each size gets an SVG and a vector PDF, and so does each size's Crazy Corgi variant (its seats in three Kennels,
the centre a draw zone and a discard pile: the same markers, so one camera set-up serves both), its Clash of
Corgis variant (each seat a party and a loot pile, the centre and a discard pile), and the A2 mat of Capture the
Illusionist (two players' grids of places, ``-clash-of-corgis-capture``); the geometry is
``companion.vision.mat``, the drawing
``companion.vision.mat_print``, so the printed mat is exactly the one the camera software expects.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.vision.mat import GRID_GAMES, KENNEL_GAMES, LOOT_GAMES, mat_layout
from companion.vision.mat_print import mat_pdf, mat_svg


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).parent
    out.mkdir(parents=True, exist_ok=True)
    mats = [(size, game, None) for size in ("A3", "A2") for game in (None, *sorted(KENNEL_GAMES | LOOT_GAMES))]
    mats += [("A2", game, variant) for game, variant in sorted(GRID_GAMES)]  # too small on A3 (hardware/README.md)
    for size, game, variant in mats:
        layout = mat_layout(size, game, variant)
        stem = out / "-".join(["tableside-mat", size, *(part for part in (game, variant) if part)])
        stem.with_suffix(".svg").write_text(mat_svg(layout), encoding="utf-8")
        stem.with_suffix(".pdf").write_bytes(mat_pdf(layout))
        print(f"{stem}.svg and .pdf ({layout.width:.0f} x {layout.height:.0f} mm)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
