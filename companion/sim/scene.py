"""Whole table scenes as an overhead camera sees them, with ground truth, deterministic from a seed.

A scene is laid out on the table plane in millimetres (cloth, optional mat, cards, piles), projected through a
pinhole camera tilted up to ~35°, then spoiled the way real frames are: hands, uneven light, glare, blur,
noise. Each card's truth records its face, its corners in the frame, its zone and how much of it is visible.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.sim.render import card_art, card_size
from companion.sim.tables import table_texture
from companion.vision.mat import MatLayout, mat_layout
from companion.vision.mat_print import mat_image

FRAME = (1280, 720)
PX_PER_MM = 2.4  # table-plane canvas resolution
CLOTHS: dict[str, tuple[int, int, int]] = {  # BGR; real tables: felt, wood, slate
    "green-felt": (50, 100, 30),
    "blue-felt": (110, 60, 20),
    "red-felt": (40, 30, 120),
    "wood": (40, 75, 120),
    "slate": (70, 65, 60),
    "black": (25, 25, 25),
}


@dataclass(frozen=True)
class Card:
    """A card on the table: ``face`` is None for a face-down card. Position of its centre in table mm."""

    deck: str
    face: str | None
    x: float
    y: float
    angle: float = 0.0  # degrees; 180 is upside down


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from a frame edge towards a table point (mm); ``reach`` scales the fingers' extent."""

    x: float
    y: float
    from_angle: float
    size: float = 1.0
    skin: tuple[float, float, float] | None = None  # BGR; None: a tone drawn for each frame (``steady_hands``)


@dataclass(frozen=True)
class Look:
    """How the frame is spoiled: light, glare, blur and noise; all zero is a perfect photo."""

    light_gain: float = 0.0  # strength of the smooth light gradient (0-0.4)
    light_dir: float = 0.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: tuple[tuple[float, float, float, float], ...] = ()  # (x px, y px, radius px, strength 0-1)
    blur: float = 0.0  # focus blur sigma (px)
    motion: int = 0  # motion blur length (px)
    motion_angle: float = 0.0
    noise: float = 0.0  # Gaussian noise sigma (grey levels)
    vignette: float = 0.0  # how much darker the frame's corners are than its centre (0-0.5)
    exposure: float = 1.0  # below 1: a dim room (the camera's gain then raises ``noise`` and ``shot_noise``)
    shot_noise: float = 0.0  # a small sensor's noise growing with brightness: sigma = sqrt(shot_noise * level)
    jpeg: int = 0  # JPEG quality the frame went through (0: none)


@dataclass(frozen=True)
class View:
    """The camera: tilt from vertical, azimuth of the tilt, roll about the optical axis and zoom."""

    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    zoom: float = 1.0  # 1.0: the mat (or the A3 area cards lie in) just fits the frame
    shift: tuple[float, float] = (0.0, 0.0)  # look-at point offset from the table centre (mm)


@dataclass(frozen=True)
class Scene:
    """Everything needed to render one frame; ``seed`` only drives the per-frame noise."""

    cards: tuple[Card, ...] = ()
    hands: tuple[Hand, ...] = ()
    cloth: str = "green-felt"
    mat: str | None = "A3"
    view: View = field(default_factory=View)
    look: Look = field(default_factory=Look)
    seed: int = 0
    frame: tuple[int, int] = FRAME


@dataclass(frozen=True)
class CardTruth:
    """What the camera should report for one card."""

    index: int
    deck: str
    face: str | None
    corners: np.ndarray  # 4x2 frame px: the card's top-left, top-right, bottom-right, bottom-left
    zone: str | None
    visible: float  # fraction of the card not hidden by hands, other cards or the frame edge


@dataclass(frozen=True)
class Rendered:
    image: np.ndarray
    truths: tuple[CardTruth, ...]
    table_to_image: np.ndarray  # 3x3 homography, table mm -> frame px


def table_extent(scene: Scene) -> tuple[float, float]:
    """The size (mm) of the drawn table area: the mat with a border of cloth, or a card table."""
    layout = mat_layout(scene.mat) if scene.mat else mat_layout("A3")
    return layout.width + 400.0, layout.height + 300.0


def camera_homography(view: View, extent: tuple[float, float], frame: tuple[int, int], fit: np.ndarray) -> np.ndarray:
    """Table mm -> frame px for a pinhole camera looking down at the table centre (plus ``shift``).

    The focal length is chosen so the ``fit`` points (mm) just fit the frame at ``zoom`` 1.
    """
    w, h = extent
    target = np.array([w / 2 + view.shift[0], h / 2 + view.shift[1], 0.0])
    dist = 1000.0
    t, a = math.radians(view.tilt), math.radians(view.azimuth)
    centre = target + dist * np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t)])
    z = target - centre
    z /= np.linalg.norm(z)
    up = np.array([0.0, -1.0, 0.0]) if abs(z[1]) < 0.99 else np.array([1.0, 0.0, 0.0])
    x = np.cross(z, up)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    r = math.radians(view.roll)
    x, y = math.cos(r) * x + math.sin(r) * y, -math.sin(r) * x + math.cos(r) * y
    rot = np.stack([x, y, z])
    tvec = -rot @ centre
    plane = np.column_stack([rot[:, 0], rot[:, 1], tvec])
    unit = _project(plane / plane[2, 2], fit)
    f = 0.96 * view.zoom / max(np.abs(unit[:, 0]).max() / (frame[0] / 2), np.abs(unit[:, 1]).max() / (frame[1] / 2))
    k = np.array([[f, 0, frame[0] / 2], [0, f, frame[1] / 2], [0, 0, 1.0]])
    hom = k @ plane
    return hom / hom[2, 2]


def card_corners_mm(card: Card) -> np.ndarray:
    """The card's corners on the table (mm), in the card's own top-left, clockwise order."""
    w, h = card_size(card.deck)
    local = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    a = math.radians(card.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return local @ rot.T + (card.x, card.y)


def _project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), hom).reshape(-1, 2)


def _mat_offset(scene: Scene, layout: MatLayout) -> tuple[float, float]:
    w, h = table_extent(scene)
    return (w - layout.width) / 2, (h - layout.height) / 2


def mat_to_table(scene: Scene) -> tuple[float, float]:
    """Where the mat's top-left corner lies on the table (mm): scenes place cards in mat coordinates + this."""
    return _mat_offset(scene, mat_layout(scene.mat or "A3"))


def mat_outline(scene: Scene) -> np.ndarray:
    """The mat's corners on the table (mm); without a mat, the A3 area where cards are dealt."""
    layout = mat_layout(scene.mat or "A3")
    ox, oy = _mat_offset(scene, layout)
    return np.array(
        [(ox, oy), (ox + layout.width, oy), (ox + layout.width, oy + layout.height), (ox, oy + layout.height)]
    )


def _table_canvas(scene: Scene) -> np.ndarray:
    """A writable copy of the table (cloth and mat) at ``PX_PER_MM``: drawn once per (cloth, mat), then copied."""
    return _cloth_and_mat(scene.cloth, scene.mat).copy()


@lru_cache(maxsize=8)
def _cloth_and_mat(cloth: str, mat: str | None) -> np.ndarray:
    """The cloth texture with the mat pasted on, read-only: its noise is seeded by (cloth, mat) alone, with a
    stable hash, so every process draws the same table."""
    rng = np.random.default_rng(zlib.crc32(f"{cloth}|{mat}".encode()))
    w, h = table_extent(Scene(cloth=cloth, mat=mat))
    size = (round(w * PX_PER_MM), round(h * PX_PER_MM))
    if cloth in CLOTHS:
        base = np.array(CLOTHS[cloth], np.float32)
        texture = rng.normal(0, 6, (size[1] // 4 + 1, size[0] // 4 + 1, 1)).astype(np.float32)
        texture = cv2.resize(texture, size, interpolation=cv2.INTER_LINEAR)[..., None]
        canvas = np.clip(base + texture, 0, 255).astype(np.uint8)
    else:  # wood, laminate, patterned cloth
        canvas = table_texture(cloth, size, PX_PER_MM)
    if mat:
        layout = mat_layout(mat)
        ox, oy = _mat_offset(Scene(cloth=cloth, mat=mat), layout)
        image = mat_image(layout, PX_PER_MM)
        x0, y0 = round(ox * PX_PER_MM), round(oy * PX_PER_MM)
        canvas[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
    canvas.setflags(write=False)
    return canvas


def _card_affine(card: Card, art_px: tuple[int, int]) -> np.ndarray:
    """Card art px (width, height) -> table canvas px."""
    w, h = art_px
    src = np.array([(0, 0), (w, 0), (w, h)], np.float32)
    dst = (card_corners_mm(card)[:3] * PX_PER_MM).astype(np.float32)
    return cv2.getAffineTransform(src, dst)


def _draw_cards(scene: Scene, canvas: np.ndarray) -> np.ndarray:
    """Composite the cards in order, each with a soft shadow; returns the label map (card index + 1)."""
    labels = np.zeros(canvas.shape[:2], np.uint8)
    size = (canvas.shape[1], canvas.shape[0])
    for i, card in enumerate(scene.cards):
        drawn = card_art(card.deck, card.face)
        art, mask_src = drawn.image, drawn.shape
        affine = _card_affine(card, (art.shape[1], art.shape[0]))
        x0, y0, bw, bh = cv2.boundingRect((card_corners_mm(card) * PX_PER_MM).astype(np.float32))
        pad = 12
        x0, y0 = max(0, x0 - pad), max(0, y0 - pad)
        x1, y1 = min(size[0], x0 + bw + 2 * pad), min(size[1], y0 + bh + 2 * pad)
        if x1 <= x0 or y1 <= y0:
            continue
        local = affine.copy()
        local[:, 2] -= (x0, y0)
        roi = (x1 - x0, y1 - y0)
        warped = cv2.warpAffine(art, local, roi, flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(mask_src, local, roi, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
        shadow = cv2.GaussianBlur(np.roll(alpha, (2, 2), (0, 1)), (0, 0), 2.5) * 0.5  # soft light from above
        patch = canvas[y0:y1, x0:x1].astype(np.float32)
        patch *= (1.0 - shadow)[..., None]
        a = alpha[..., None]
        patch = patch * (1 - a) + warped.astype(np.float32) * a
        canvas[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)
        labels[y0:y1, x0:x1][alpha > 0.5] = i + 1
    return labels


def _hand_polygon(hand: Hand, hom: np.ndarray, frame: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """An arm from outside the frame to a palm over the target point, with fingers; frame px."""
    tip = _project(hom, np.array([(hand.x, hand.y)]))[0]
    a = math.radians(hand.from_angle)
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    s = 60.0 * hand.size * frame[1] / 720
    far = tip + d * 2.5 * max(frame)
    arm = np.array(
        [tip + n * s * 0.55 + d * s * 0.4, far + n * s * 0.6, far - n * s * 0.6, tip - n * s * 0.55 + d * s * 0.4]
    )
    fingers = np.array([tip + n * s * (k - 1.5) * 0.28 - d * s * (0.55 + 0.1 * (k % 2)) for k in range(4)])
    return arm, fingers


def _draw_hands(scene: Scene, image: np.ndarray, labels: np.ndarray, hom: np.ndarray, rng: np.random.Generator) -> None:
    for hand in scene.hands:
        skin = np.array(hand.skin if hand.skin is not None else _skin_tone(rng))
        layer = np.zeros(image.shape[:2], np.uint8)
        arm, fingers = _hand_polygon(hand, hom, scene.frame)
        s = 60.0 * hand.size * scene.frame[1] / 720
        cv2.fillConvexPoly(layer, arm.astype(np.int32), 255, cv2.LINE_AA)
        cv2.circle(layer, tuple(int(v) for v in (arm[0] + arm[3]) / 2), int(s * 0.6), 255, -1, cv2.LINE_AA)
        for f in fingers:
            cv2.line(
                layer,
                tuple(int(v) for v in (arm[0] + arm[3]) / 2),
                tuple(int(v) for v in f),
                255,
                int(s * 0.22),
                cv2.LINE_AA,
            )
        alpha = cv2.GaussianBlur(layer, (0, 0), 1.2).astype(np.float32)[..., None] / 255.0
        shade = 0.85 + 0.15 * cv2.GaussianBlur(layer, (0, 0), s / 4).astype(np.float32)[..., None] / 255.0
        image[:] = np.clip(image * (1 - alpha) + skin * shade * alpha, 0, 255).astype(np.uint8)
        labels[layer > 127] = 0


def _skin_tone(rng: np.random.Generator) -> tuple[float, float, float]:
    """A hand's skin (BGR), from pale to dark."""
    return float(rng.uniform(80, 125)), float(rng.uniform(115, 160)), float(rng.uniform(175, 230))


def steady_hands(scene: Scene) -> Scene:
    """``scene`` with each hand's skin tone fixed (drawn from its seed): the same hands resting in every frame a
    camera takes of it, where only the sensor's noise changes."""
    rng = np.random.default_rng(scene.seed)
    return replace(scene, hands=tuple(replace(hand, skin=_skin_tone(rng)) for hand in scene.hands))


def _spoil(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    if look.light_gain:
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        d = math.radians(look.light_dir)
        ramp = ((xx - w / 2) * math.cos(d) + (yy - h / 2) * math.sin(d)) / (w / 2)
        field = 1.0 + look.light_gain * np.clip(ramp, -1.2, 1.2)
        field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
        img *= field[..., None]
    img *= np.array(look.cast, np.float32)
    for x, y, r, strength in look.glare:
        spot = np.zeros((h, w), np.float32)
        cv2.circle(spot, (int(x), int(y)), int(r), 1.0, -1, cv2.LINE_AA)
        spot = cv2.GaussianBlur(spot, (0, 0), r / 2.5)
        img += 255.0 * strength * spot[..., None]
    if look.vignette:
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        img *= cv2.resize(1.0 - look.vignette * r2, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    if look.exposure != 1.0:
        img *= look.exposure
    if look.blur:
        img = cv2.GaussianBlur(img, (0, 0), look.blur)
    if look.motion > 1:
        k = np.zeros((look.motion, look.motion), np.float32)
        c = (look.motion - 1) / 2
        dx, dy = math.cos(math.radians(look.motion_angle)) * c, math.sin(math.radians(look.motion_angle)) * c
        cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    gain = 1.0 / look.exposure  # a dim frame is amplified back, and its noise with it
    if look.noise:
        img += rng.normal(0, look.noise * gain, img.shape).astype(np.float32)
    if look.shot_noise:
        img += rng.normal(0, 1, img.shape).astype(np.float32) * np.sqrt(look.shot_noise * gain * np.maximum(img, 0))
    out = np.clip(img, 0, 255).astype(np.uint8)
    if look.jpeg:
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])[1], cv2.IMREAD_COLOR)
    return out


def render_scene(scene: Scene) -> Rendered:
    """Draw the frame and its ground truth."""
    rng = np.random.default_rng(scene.seed)
    canvas = _table_canvas(scene)
    labels = _draw_cards(scene, canvas)
    hom = camera_homography(scene.view, table_extent(scene), scene.frame, mat_outline(scene))
    to_frame = hom @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
    image = cv2.warpPerspective(canvas, to_frame, scene.frame, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    frame_labels = cv2.warpPerspective(labels, to_frame, scene.frame, flags=cv2.INTER_NEAREST)
    _draw_hands(scene, image, frame_labels, hom, rng)
    image = _spoil(image, scene.look, rng)
    counts = np.bincount(frame_labels.ravel(), minlength=len(scene.cards) + 1)
    layout = mat_layout(scene.mat) if scene.mat else None
    offset = _mat_offset(scene, layout) if layout else (0.0, 0.0)
    truths = []
    for i, card in enumerate(scene.cards):
        corners = _project(hom, card_corners_mm(card))
        area = cv2.contourArea(corners.astype(np.float32))
        zone = layout.zone_at(card.x - offset[0], card.y - offset[1]) if layout else None
        visible = float(min(1.0, counts[i + 1] / area)) if area > 0 else 0.0
        truths.append(CardTruth(i, card.deck, card.face, corners, zone, visible))
    return Rendered(image, tuple(truths), hom)


def hands_over(rng: np.random.Generator, cards: list[Card], count: int) -> tuple[Hand, ...]:
    """``count`` hands, each reaching in towards a random card (none without cards)."""
    hands = []
    for _ in range(count if cards else 0):
        target = cards[int(rng.integers(len(cards)))]
        ang = math.radians(rng.uniform(0, 360))
        reach = rng.uniform(30, 60)
        hands.append(
            Hand(
                target.x + reach * math.cos(ang),
                target.y + reach * math.sin(ang),
                float(rng.uniform(0, 360)),
                float(rng.uniform(0.7, 1.0)),
            )
        )
    return tuple(hands)


def random_look(rng: np.random.Generator, frame: tuple[int, int] = FRAME, harsh: bool = True) -> Look:
    """Lighting and optics drawn from the range the product must survive."""
    k = 1.0 if harsh else 0.4
    glare = tuple(
        (rng.uniform(0, frame[0]), rng.uniform(0, frame[1]), rng.uniform(20, 70), rng.uniform(0.1, 0.45) * k)
        for _ in range(rng.integers(0, 3))
    )
    return Look(
        light_gain=float(rng.uniform(0, 0.35) * k),
        light_dir=float(rng.uniform(0, 360)),
        cast=tuple(float(v) for v in rng.uniform(1 - 0.1 * k, 1 + 0.1 * k, 3)),
        glare=glare,
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.6 * k)])),
        motion=int(rng.choice([0, 0, rng.integers(2, 3 + int(3 * k))])),
        motion_angle=float(rng.uniform(0, 180)),
        noise=float(rng.uniform(0, 7 * k)),
    )


def random_view(rng: np.random.Generator, max_tilt: float = 35.0) -> View:
    return View(
        tilt=float(rng.uniform(0, max_tilt)),
        azimuth=float(rng.uniform(0, 360)),
        roll=float(rng.uniform(-20, 20) + rng.choice([0, 180])),
        zoom=float(rng.uniform(0.8, 1.0)),
        shift=(float(rng.uniform(-20, 20)), float(rng.uniform(-15, 15))),
    )


def random_scene(
    rng: np.random.Generator,
    faces: list[tuple[str, str]],
    *,
    pile: int = 0,
    hands: int = 0,
    harsh: bool = True,
    mat: str | None = "A3",
) -> Scene:
    """Cards scattered over the mat, a hand's breadth apart (a card with no room left is left out), and
    optionally a messy centre pile of the last ``pile`` faces, the top one fully visible.

    ``faces`` are (deck, face id) pairs.
    """
    outline = mat_outline(Scene(mat=mat))
    (x0, y0), (x1, y1) = outline[0], outline[2]
    loose, stacked = faces[: len(faces) - pile], faces[len(faces) - pile :]
    cards: list[Card] = []
    centres: list[tuple[float, float]] = []
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for deck, face in loose:
        for _ in range(300):
            x, y = rng.uniform(x0 + 40, x1 - 40), rng.uniform(y0 + 45, y1 - 45)
            clear_of_markers = all(math.hypot(x - a, y - b) > 115 for a, b in outline)
            if clear_of_markers and all(math.hypot(x - a, y - b) > 100 for a, b in [*centres, (cx, cy)]):
                centres.append((x, y))
                cards.append(Card(deck, face, float(x), float(y), float(rng.uniform(0, 360))))
                break
    for deck, face in stacked:
        cards.append(
            Card(deck, face, float(cx + rng.normal(0, 12)), float(cy + rng.normal(0, 10)), float(rng.uniform(0, 360)))
        )
    return Scene(
        cards=tuple(cards),
        hands=hands_over(rng, cards, hands),
        cloth=str(rng.choice(list(CLOTHS))),
        mat=mat,
        view=random_view(rng),
        look=random_look(rng, harsh=harsh),
        seed=int(rng.integers(2**31)),
    )
