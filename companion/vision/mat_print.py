"""The play mat as a drawing: one list of shapes rendered to SVG, to PDF and to pixels.

Printing and simulation share the drawing, so the mat the synthetic camera sees is the mat users print. The PDF
is written directly (vector rectangles, Helvetica text: a few hundred lines of PDF need no library), which
keeps the markers razor-sharp at any printer resolution.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.mat import ARUCO_DICTIONARY, SEATS_FOR_PLAYERS, MatLayout

RGB = tuple[int, int, int]
CLOTH: RGB = (31, 77, 58)  # dark green: white card borders stand out against it
LINE: RGB = (170, 200, 90)  # saturated, so the card detector (which looks for near-white) ignores it
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
PT_PER_MM = 72.0 / 25.4


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Text:
    x: float  # left end of the baseline, mm
    y: float
    size: float  # cap height, mm
    text: str
    fill: RGB = LINE


Shape = Rect | Text


def _marker_modules(marker_id: int) -> np.ndarray:
    """The marker as a 6x6 grid of modules (True = black), border included."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, 6) < 128


def mat_drawing(layout: MatLayout) -> list[Shape]:
    """Every shape of the mat, in mm from its top-left corner, back to front."""
    shapes: list[Shape] = [Rect(0, 0, layout.width, layout.height, fill=CLOTH)]
    quiet = layout.marker / 6
    for marker_id, corners in layout.marker_corners().items():
        x0, y0 = corners[0]
        shapes.append(Rect(x0 - quiet, y0 - quiet, layout.marker + 2 * quiet, layout.marker + 2 * quiet, fill=WHITE))
        module = layout.marker / 6
        for row, bits in enumerate(_marker_modules(marker_id)):
            col = 0
            while col < 6:  # one rectangle per run of black modules keeps the files small
                if not bits[col]:
                    col += 1
                    continue
                end = col
                while end < 6 and bits[end]:
                    end += 1
                shapes.append(Rect(x0 + col * module, y0 + row * module, (end - col) * module, module, fill=BLACK))
                col = end
    k = layout.width / 420.0
    for zone in layout.zones:
        shapes.append(Rect(zone.x0, zone.y0, zone.x1 - zone.x0, zone.y1 - zone.y0, stroke=LINE, width=0.8 * k))
        shapes.append(Text(zone.x0 + 3 * k, zone.y0 + 7 * k, 3.5 * k, zone.label))
    scale = f"Tableside mat {layout.name}: print at 100%"
    centre = next((z for z in layout.zones if z.name == "centre"), None)
    if centre is None:  # Capture's grids: two players at the ends, and a narrow strip along the top for the scale
        x0 = layout.margin * 2 + layout.marker + 3 * k
        shapes.append(Text(x0, 5 * k, 2.2 * k, f"{scale}; this bar is 100 mm:"))
        shapes.append(Rect(x0, 7 * k, 100, 1.2, fill=LINE))
        return shapes
    guide = [f"{n} players: seats {', '.join(map(str, seats))}" for n, seats in SEATS_FOR_PLAYERS.items()]
    shapes.append(Text(centre.x0 + 3 * k, centre.y1 - 7 * k, 2.2 * k, ";  ".join(guide[:3])))
    shapes.append(Text(centre.x0 + 3 * k, centre.y1 - 3 * k, 2.2 * k, ";  ".join(guide[3:])))
    shapes.append(Text(centre.x0 + 3 * k, centre.y0 + 14 * k, 2.2 * k, scale))
    shapes.append(Rect(centre.x0 + 3 * k, centre.y0 + 17 * k, 100, 1.2, fill=LINE))  # check the print scale
    shapes.append(Text(centre.x0 + 3 * k, centre.y0 + 23 * k, 2.2 * k, "this bar is 100 mm"))
    return shapes


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def mat_svg(layout: MatLayout) -> str:
    """The mat as an SVG document sized in millimetres."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width}mm" height="{layout.height}mm" '
        f'viewBox="0 0 {layout.width} {layout.height}">',
    ]
    for shape in mat_drawing(layout):
        if isinstance(shape, Rect):
            paint = f'fill="{_hex(shape.fill)}"' if shape.fill else 'fill="none"'
            if shape.stroke:
                paint += f' stroke="{_hex(shape.stroke)}" stroke-width="{shape.width:.2f}"'
            box = f'x="{shape.x:.2f}" y="{shape.y:.2f}" width="{shape.w:.2f}" height="{shape.h:.2f}"'
            out.append(f"<rect {box} {paint}/>")
        else:
            text = shape.text.replace("&", "&amp;").replace("<", "&lt;")
            out.append(
                f'<text x="{shape.x:.2f}" y="{shape.y:.2f}" font-family="Helvetica, Arial, sans-serif" '
                f'font-size="{shape.size / 0.72:.2f}" fill="{_hex(shape.fill)}">{text}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pdf_colour(rgb: RGB, op: str) -> str:
    return " ".join(f"{c / 255:.3f}" for c in rgb) + f" {op}"


def mat_pdf(layout: MatLayout) -> bytes:
    """The mat as a one-page vector PDF of the paper size."""
    w, h = layout.width * PT_PER_MM, layout.height * PT_PER_MM
    ops = []
    for shape in mat_drawing(layout):
        if isinstance(shape, Rect):
            x, y = shape.x * PT_PER_MM, h - (shape.y + shape.h) * PT_PER_MM
            box = f"{x:.2f} {y:.2f} {shape.w * PT_PER_MM:.2f} {shape.h * PT_PER_MM:.2f} re"
            if shape.fill:
                ops.append(f"{_pdf_colour(shape.fill, 'rg')} {box} f")
            if shape.stroke:
                ops.append(f"{_pdf_colour(shape.stroke, 'RG')} {shape.width * PT_PER_MM:.2f} w {box} S")
        else:
            text = shape.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            size = shape.size * PT_PER_MM / 0.72
            x, y = shape.x * PT_PER_MM, h - shape.y * PT_PER_MM
            ops.append(f"BT {_pdf_colour(shape.fill, 'rg')} /F1 {size:.2f} Tf {x:.2f} {y:.2f} Td ({text}) Tj ET")
    content = zlib.compress("\n".join(ops).encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2f} {h:.2f}] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R >> >> >>".encode(),
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    pdf = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    pdf += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(pdf)


def mat_image(layout: MatLayout, px_per_mm: float) -> np.ndarray:
    """The mat rasterised (BGR): for the synthetic camera, and for the recogniser to tell its print from cards."""
    img = np.zeros((round(layout.height * px_per_mm), round(layout.width * px_per_mm), 3), np.uint8)

    def px(v: float) -> int:
        return round(v * px_per_mm)

    for shape in mat_drawing(layout):
        if isinstance(shape, Rect):
            p0, p1 = (px(shape.x), px(shape.y)), (px(shape.x + shape.w) - 1, px(shape.y + shape.h) - 1)
            if shape.fill:
                cv2.rectangle(img, p0, p1, shape.fill[::-1], -1)
            if shape.stroke:
                cv2.rectangle(img, p0, p1, shape.stroke[::-1], max(1, px(shape.width)), cv2.LINE_AA)
        else:
            scale = shape.size * px_per_mm / 22.0
            thick = max(1, round(scale * 1.5))
            cv2.putText(img, shape.text, (px(shape.x), px(shape.y)), 0, scale, shape.fill[::-1], thick, cv2.LINE_AA)
    return img
