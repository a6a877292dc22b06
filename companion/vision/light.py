"""How well the camera can see: the paper's brightness and colour, and how far its edges are smeared.

The recogniser's accuracy is promised for frames it can see well. A frame too dark, too tinted or too blurred is
said to be so (``cards recognize``, the status page's camera panel, ``companion calibrate camera``, the doctor),
each with what to do, rather than giving fewer or worse answers in silence. The limits are where the recogniser's
accuracy was measured to fall (``benchmarks/bench_camera_limits.py``, figures in docs/vision-figures.md).

Without the mat, the table itself can defeat the finding: a cloth's checks put edges everywhere a card's outline
could run. How much of the table around the cards lies on an edge (``table_pattern``) is judged too.

With the mat in view its markers' white paper and black ink also say what the lamp did, so the border mask is
shown the frame with that taken out (``as_on_white_paper``): colour constancy from a known white and black.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import paper_white

# Measured (docs/vision-figures.md, "Where accuracy falls"): past these the recogniser loses cards.
MIN_LEVEL = 115.0  # grey level of white card (published decks: 116 98% named, 111 95%; ours: 100 all, 93 96%)
MAX_CAST = 1.25  # white card's brightest channel over its darkest, warm or cool (1.24: all named, 1.29: 12-19%)
MAX_EDGE_PX = 4.5  # px edges are smeared over, cards ~144 px long (4.1: all named; 4.9: 96% of theirs, 5.4: 97% ours)
# Tuning scenes without the mat (docs/vision-figures.md, "A table too busy to see cards on"): gingham checks put
# an edge on 15-20% of the table around the cards, where 67-79% of cards were found; plain cloth, wood, laminate
# and a floral print 4% at most (86-100% found).
MAX_PATTERN = 0.10  # share of the table on an edge (half-size frame, Canny 30/80)
PATTERN_MARGIN = 9  # px at half size: a card's own outline and shadow are not the table's pattern
NOTICEABLE_CAST = 1.08  # a tint worth naming, though the recogniser copes with it
CHANNELS = ("blue", "green", "red")
MAX_GAIN = 2.0  # the most a channel is raised to make the mat's white colourless (casts of 1.5x were seen)
# A Gaussian of sigma s leaves 0.28 / s of pixel noise; the mask's colourless test copes with noise up to about
# 3% of white paper's level: so a frame is softened by s = 0.28 / 0.03 * noise / level, for the mask only.
SMOOTHING_PER_NOISE = 0.28 / 0.03
NOISE_STEP = 5  # px between the pixels sensor noise is sampled at (its level varies slowly)
MIN_SMOOTHING = 0.6  # px: less is not worth a pass over the frame
MAX_SMOOTHING = 2.0  # px: more would merge neighbouring cards' borders
CLIPPED = 254.5  # a channel of white paper this bright was clipped by the camera (its median: most of it was)
MID_TONES = (0.3, 0.8)  # of white over black: a marker's edge pixels that tell the paper's colour when it clipped
MIN_MID_TONES = 30


@dataclass(frozen=True)
class Issue:
    """One reason the camera cannot promise its accuracy: what was seen, and what to do about it."""

    seen: str
    fix: str
    kind: str = ""  # which limit: ``dark``, ``cast`` or ``blur`` for the light's own (``Light.issues``)

    def __str__(self) -> str:
        return f"{self.seen}: {self.fix}"


@dataclass(frozen=True)
class Light:
    """What the camera saw of the light: the lightest paper's colour (B, G, R grey levels), how many px an edge
    is smeared over, and whether that paper was a card or the mat (``paper``: False when neither was in view,
    and the lightest thing in view, perhaps the table, was measured)."""

    white: tuple[float, float, float]
    edge_px: float
    paper: bool = True
    pattern: float | None = None  # ``table_pattern`` of the table around the cards; None: not judged (on the mat)

    @property
    def level(self) -> float:
        return max(self.white)

    @property
    def cast(self) -> float:
        """How far the lightest channel of white paper is above the darkest (1: neutral)."""
        return max(self.white) / max(min(self.white), 1.0)

    @property
    def balance(self) -> dict[str, float]:
        """Each channel of white paper against their mean (1 each: neutral light)."""
        mean = max(sum(self.white) / 3, 1.0)
        return {name: round(v / mean, 2) for name, v in zip(CHANNELS, self.white, strict=True)}

    def tint(self) -> str:
        """The cast in words: ``warm (red 1.4x blue)``, ``cool (blue ...)``, ``green ...``, ``magenta ...``."""
        hi, lo = int(np.argmax(self.white)), int(np.argmin(self.white))
        ratio = f"{CHANNELS[hi]} {self.cast:.2f}x {CHANNELS[lo]}"
        names = {2: "warm" if lo == 0 else "magenta", 0: "cool" if lo == 2 else "magenta", 1: "green"}
        return f"{names[hi]} ({ratio})"

    def summary(self) -> str:
        """The measurements in a line, for the doctor."""
        paper = "white card" if self.paper else "the lightest thing in view"
        tint = self.tint() if self.cast >= NOTICEABLE_CAST else "neutral"
        table = "" if self.pattern is None else f", table {self.pattern:.0%} edges"
        return f"{paper} reads {self.level:.0f} of 255, {tint}, edges smeared over {self.edge_px:.1f} px{table}"

    def issues(self) -> list[Issue]:
        """Why the camera cannot promise its accuracy on this frame (none: it can). Without paper in view only
        the level and the table's pattern are judged (a table's own colour and grain say nothing of the lamp or
        the focus)."""
        out = []
        if self.level < MIN_LEVEL:
            what = "white card reads" if self.paper else "no card or mat in view, and the lightest thing reads"
            out.append(Issue(f"Too dark: {what} {self.level:.0f} of 255, the recogniser needs {MIN_LEVEL:.0f}",
                             "light the table or raise the camera's exposure", "dark"))
        if self.pattern is not None and self.pattern > MAX_PATTERN:
            out.append(Issue(f"Too busy a table: its pattern puts an edge on {self.pattern:.0%} of it, cards are "
                             f"found reliably up to {MAX_PATTERN:.0%}", "lay the printed mat (hardware/mat/) or a "
                             "plain cloth under the cards", "pattern"))
        if not self.paper:
            return out
        if self.cast > MAX_CAST:
            out.append(Issue(f"Too strong a colour cast: white card is {self.tint()}, the recogniser copes up to "
                             f"{MAX_CAST:g}x", "use a whiter lamp (4000-5000 K) or set the camera's white balance",
                             "cast"))
        if self.edge_px > MAX_EDGE_PX:
            out.append(Issue(f"Too blurred: edges are smeared over {self.edge_px:.0f} px, the recogniser needs "
                             f"{MAX_EDGE_PX:g} or fewer", "focus the camera, and keep it and the table still", "blur"))
        return out

    def problems(self) -> list[str]:
        """``issues`` as the sentences every report shows."""
        return [str(issue) for issue in self.issues()]

    def as_json(self) -> dict:
        return {
            "white_bgr": [round(v) for v in self.white],
            "level": round(self.level),
            "cast": round(self.cast, 2),
            "balance": self.balance,
            "edge_px": round(self.edge_px, 1),
            "measured_on": "white paper" if self.paper else "the lightest thing in view (no card or mat)",
            "table_pattern": None if self.pattern is None else round(self.pattern, 3),
            "problems": self.problems(),
        }


def half_grey(frame: np.ndarray) -> np.ndarray:
    """The frame in grey at half size, where the light's measures of edges look (a card's edge spans pixels)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)


def edge_width(small: np.ndarray) -> float:
    """How many px (of the full frame) the sharpest edges in view are smeared over, from its ``half_grey``: their
    contrast over their steepest slope. Unlike the Laplacian's variance it does not grow with sensor noise nor
    shrink in a dim room (a step of height C blurred by a Gaussian of sigma s rises at most C / (2.5 s) a px)."""
    small = small.astype(np.float32)
    slope = cv2.magnitude(cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3))
    steepest = float(np.percentile(slope, 99.9)) / 8  # Sobel's 3x3 weights sum to 8: grey levels a px
    dark, light = np.percentile(small, [2, 99.5])
    return 2 * float(light - dark) / max(steepest, 1e-3)


def measure_light(
    frame: np.ndarray, white: np.ndarray, paper: bool = True, table: Sequence[np.ndarray] | None = None
) -> Light:
    """The frame's ``Light`` from its ``paper_white`` (``paper``: whether a card or the mat was in view); ``table``:
    the outlines of the cards lying on the table, not on the mat, whose ``table_pattern`` is judged too."""
    b, g, r = (float(v) for v in white)
    small = half_grey(frame)
    return Light((b, g, r), edge_width(small), paper, None if table is None else table_pattern(small, table))


def table_pattern(small: np.ndarray, outlines: Sequence[np.ndarray]) -> float:
    """The share of the table (the frame's ``half_grey`` outside ``outlines``, the cards in frame px, grown by
    ``PATTERN_MARGIN``) that lies on an edge: gingham checks or a busy print make outlines everywhere, and the cards
    on them go unfound (``MAX_PATTERN``)."""
    edges = cv2.Canny(cv2.GaussianBlur(small, (3, 3), 0), 30, 80)
    covered = np.zeros(small.shape, np.uint8)
    for outline in outlines:
        cv2.fillConvexPoly(covered, np.round(np.asarray(outline) / 2).astype(np.int32), 1)
    covered = cv2.dilate(covered, np.ones((2 * PATTERN_MARGIN + 1,) * 2, np.uint8))
    table = covered == 0
    return float((edges[table] > 0).mean()) if table.any() else 0.0


def paper_and_ink(frame: np.ndarray, outlines: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """The colours (B, G, R) of white paper and black ink where both are known to lie: inside ``outlines``
    (frame px: the cards found, the mat's markers with their white border). The lightest sixth of those pixels
    is a card's border or a marker's white, the darkest sixth a marker's black (or a card's ink); unlike the
    frame's lightest 2% (``paper_white``) they are not the table when the cards are small in the picture. None
    without enough of them."""
    pixels = _pixels_in(frame, outlines)
    if len(pixels) < 50:
        return None
    return _paper_and_ink(pixels)


def _pixels_in(frame: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray:
    """The pixels (n x 3, float) of ``frame`` inside any of ``outlines``."""
    pixels = np.concatenate([_inside(frame, outline) for outline in outlines] or [np.empty((0, 3), np.uint8)])
    return pixels.astype(np.float32)


def _paper_and_ink(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``paper_and_ink`` of pixels (n x 3) known to be paper and ink."""
    lum = pixels.sum(axis=1)
    lightest, darkest = np.percentile(lum, [85, 15])
    return np.median(pixels[lum >= lightest], axis=0), np.median(pixels[lum <= darkest], axis=0)


def markers_paper_and_ink(frame: np.ndarray, markers: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """``paper_and_ink`` of the mat's markers, the paper's colour read below the camera's clip where it clipped
    (``unclipped_white``): what the lamp did to white paper, for the mask's colour constancy."""
    pixels = _pixels_in(frame, markers)
    if len(pixels) < 50:
        return None
    white, black = _paper_and_ink(pixels)
    return unclipped_white(pixels, white, black), black


def unclipped_white(pixels: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """White paper's colour where the camera clipped a channel of it (a warm lamp clips red on white card, even
    green: the white it leaves, (232, 255, 255), hides most of the cast), from the mid-tones of the same paper
    and ink (``pixels``: a marker's edges, mixtures of its black ink and its white paper, none clipped): above
    the ink's level their colour is the paper's, only dimmer. Scaled so that its brightest channel is
    ``white``'s. ``white`` itself when no channel is clipped or every one is (no sign of a cast: the edges'
    own colour fringes would make one up), or too few mid-tones are in view."""
    if white.max() < CLIPPED or white.min() >= CLIPPED:
        return white  # nothing clipped, or all of it: no cast to read (a neutral lamp over-exposed)
    above = pixels - black
    top = above.max(axis=1)
    span = float((white - black).max())
    mid = (pixels.max(axis=1) < CLIPPED) & (top > MID_TONES[0] * span) & (top < MID_TONES[1] * span)
    if mid.sum() < MIN_MID_TONES:
        return white
    ratios = np.median(above[mid] / top[mid, None], axis=0)
    return black + ratios / ratios.max() * span


def _inside(frame: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """The pixels (n x 3) of ``frame`` inside the convex ``outline``, looked for only around it."""
    corners = np.round(outline).astype(np.int32)
    x0, y0 = np.maximum(corners.min(axis=0), 0)
    x1, y1 = np.minimum(corners.max(axis=0) + 1, (frame.shape[1], frame.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return np.empty((0, 3), frame.dtype)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, corners - (x0, y0), 255)
    return frame[y0:y1, x0:x1][mask > 0]


def paper_colour(frame: np.ndarray, outlines: Sequence[np.ndarray]) -> np.ndarray | None:
    """The colour (B, G, R) of white paper inside ``outlines`` (``paper_and_ink``), or None."""
    found = paper_and_ink(frame, outlines)
    return None if found is None else found[0]


def sensor_noise(frame: np.ndarray, white: np.ndarray) -> float:
    """Grey levels of sensor noise (one channel's standard deviation) on light paper, where the mask looks.

    Immerkaer's estimate from the residual of a 3x3 Laplacian-like kernel (which a flat or evenly shaded patch
    does not excite), its median taken over pixels at least half as light as ``white`` (the median: the edges of
    pips and table grain are a minority there); sampled on a sparse grid, in the green channel.
    """
    g = frame[..., 1]
    ys, xs = np.mgrid[1 : g.shape[0] - 1 : NOISE_STEP, 1 : g.shape[1] - 1 : NOISE_STEP]
    centre = g[ys, xs].astype(np.float32)
    light = centre >= 0.5 * float(white[1])
    if light.sum() < 200:
        return 0.0
    ys, xs, centre = ys[light], xs[light], centre[light]

    def at(dy: int, dx: int) -> np.ndarray:
        return g[ys + dy, xs + dx].astype(np.float32)

    cross = at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1)
    diagonal = at(-1, -1) + at(-1, 1) + at(1, -1) + at(1, 1)
    residual = 4 * centre - 2 * cross + diagonal
    return float(np.median(np.abs(residual))) / (6 * 0.6745)


@dataclass(frozen=True)
class PaperCorrection:
    """What ``as_on_white_paper`` does to a frame, measured once on the mat's markers: kept, it corrects any part
    of a later frame under the same light (a window read, ``pipeline.Recognizer``) with no marker in that part."""

    transform: np.ndarray | None  # 3x4 for ``cv2.transform``: each channel's gain and black level; None: none
    smoothing: float  # px: the Gaussian's sigma that smooths the sensor's noise away; 0: none

    def apply(self, image: np.ndarray) -> np.ndarray:
        out = image if self.transform is None else cv2.transform(image, self.transform)
        return cv2.GaussianBlur(out, (0, 0), self.smoothing) if self.smoothing else out


def paper_correction(frame: np.ndarray, markers: Sequence[np.ndarray]) -> PaperCorrection | None:
    """The correction ``as_on_white_paper`` makes to ``frame``, or None when there is nothing to correct by (no
    marker in view) or nothing to correct."""
    found = markers_paper_and_ink(frame, markers)
    if found is None:
        return None
    white, black = found
    span = np.maximum(white - black, 8.0)
    gains = np.minimum(float(white.max()) / span, MAX_GAIN)
    transform = None
    if np.abs(gains - 1).max() > 0.03 or black.max() > 3:
        transform = np.hstack([np.diag(gains), (-black * gains)[:, None]]).astype(np.float32)
    smoothing = SMOOTHING_PER_NOISE * sensor_noise(frame, white) / max(float(white.max()), 1.0)
    smoothing = min(smoothing, MAX_SMOOTHING) if smoothing >= MIN_SMOOTHING else 0.0
    return None if transform is None and not smoothing else PaperCorrection(transform, smoothing)


def as_on_white_paper(frame: np.ndarray, markers: Sequence[np.ndarray]) -> np.ndarray:
    """The frame as the border mask should see it, corrected by the mat's own paper and ink (``markers``: their
    outlines in frame px, white border included): each channel stretched so that the markers' black is 0 and
    their white is colourless (a lamp's cast and a veil of flare taken out, as Build 2 of issue 15 asks), and a
    dim room's sensor noise, which the camera's gain amplifies, smoothed away where it would break the mask's
    test for colourless paper. The frame itself when no marker is in view or nothing needs correcting.

    Only the mask sees this frame: the catalogue judges each card against its own white, and the light is
    reported as the camera saw it.
    """
    correction = paper_correction(frame, markers)
    return frame if correction is None else correction.apply(frame)


def light_on_paper(frame: np.ndarray, outlines: list[np.ndarray], table: bool = False) -> Light:
    """The frame's ``Light`` measured on the paper in ``outlines``; without any, on the lightest thing in view
    (``paper`` False: only its level is judged). ``table``: the cards lie on the table, not on the mat, so its
    pattern is judged too (``table_pattern``)."""
    white = paper_colour(frame, outlines)
    on_table = outlines if table else None
    if white is None:
        return measure_light(frame, paper_white(frame), paper=False, table=on_table)
    return measure_light(frame, white, table=on_table)
