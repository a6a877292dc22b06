"""Cards found by their art (``art.ArtIndex``): a court card placed by its keypoints to within a few px on a
patterned cloth, whichever way it lies; nothing placed on a bare table or where a card is already named; the
search kept to where something may lie (``search_boxes``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.sim.scene import Card, Look, Scene, View, mat_outline, render_scene
from companion.vision.art import ArtIndex, search_boxes
from companion.vision.catalog import Catalog
from companion.vision.edges import edge_map
from companion.vision.mat import mat_layout
from companion.vision.pipeline import Recognizer


def _corner_error(outline: np.ndarray, truth: np.ndarray) -> float:
    """The farthest corner's distance, the outline taken either way round (a card read upside down)."""
    return min(float(np.linalg.norm(np.roll(outline, k, axis=0) - truth, axis=1).max()) for k in (0, 2))


def _everywhere(frame: np.ndarray) -> list[np.ndarray]:
    return [np.array([0, 0, frame.shape[1], frame.shape[0]], np.float64)]


@pytest.fixture(scope="module")
def index(foreign_catalogs: dict[str, Catalog]) -> ArtIndex:
    return ArtIndex(foreign_catalogs["kennard"])


@pytest.mark.parametrize("angle", [12.0, 100.0, 200.0])
def test_a_king_on_gingham_is_placed_by_his_art(index: ArtIndex, angle: float) -> None:
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", "kh", cx, cy, angle),), cloth="blue-gingham", mat=None,
                  view=View(tilt=15.0, azimuth=30.0), look=Look(noise=2.0))
    rendered = render_scene(scene)
    outlines = index.outlines(rendered.image, _everywhere(rendered.image))
    assert len(outlines) == 1
    truth = rendered.truths[0].corners
    assert _corner_error(outlines[0], truth) < 0.03 * np.linalg.norm(truth[3] - truth[0])


def test_a_window_of_the_frame_is_searched_as_the_whole_frame_is(index: ArtIndex) -> None:
    """A window read searches a part of the frame around what changed: at the frame's scale (``frame_width``),
    the king is placed where the whole frame's search places him. At the window's own width, a pile's new top
    card on a gingham that the whole frame's search found was missed."""
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    scene = Scene(cards=(Card("kennard", "kh", cx, cy, 40.0),), cloth="red-gingham", mat=None,
                  view=View(tilt=15.0, azimuth=30.0), look=Look(noise=2.0))
    image = render_scene(scene).image
    whole = index.outlines(image, _everywhere(image))
    x0, y0 = (int(v) - 150 for v in whole[0].mean(axis=0))
    window = image[y0 : y0 + 300, x0 : x0 + 300]
    seen = index.outlines(window, _everywhere(window), frame_width=image.shape[1])
    assert len(whole) == len(seen) == 1
    assert _corner_error(seen[0] + np.float32([x0, y0]), whole[0]) < 0.03 * np.linalg.norm(whole[0][3] - whole[0][0])


def test_nothing_is_placed_on_a_bare_table_nor_where_a_card_is_named(index: ArtIndex) -> None:
    cx, cy = mat_outline(Scene(mat=None)).mean(axis=0)
    bare = render_scene(Scene(cloth="floral-cloth", mat=None, look=Look(noise=2.0))).image
    assert index.outlines(bare, _everywhere(bare)) == []
    rendered = render_scene(Scene(cards=(Card("kennard", "qs", cx, cy, 30.0),), cloth="grey-laminate", mat=None))
    named = [rendered.truths[0].corners.astype(np.float32)]
    assert len(index.outlines(rendered.image, _everywhere(rendered.image))) == 1
    assert index.outlines(rendered.image, _everywhere(rendered.image), named) == []


def test_only_where_edges_lie_outside_named_cards_is_searched() -> None:
    frame_shape = (720, 1280, 3)
    edges = np.zeros((360, 640), np.uint8)
    assert search_boxes(edges, frame_shape, [], 1800.0) == []  # a bare table: nothing to search
    edges[100:160, 200:250] = 255  # something card-sized with edges all over it
    boxes = search_boxes(edges, frame_shape, [], 1800.0)
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert x0 <= 400 and y0 <= 200 and x1 >= 500 and y1 >= 320  # around it, in frame px
    named = [np.array([(390, 190), (510, 190), (510, 330), (390, 330)], np.float32)]
    assert search_boxes(edges, frame_shape, named, 1800.0) == []  # a card already named there
    edges[100:160, 200:250] = 0
    edges[::15, ::15] = 255  # specks all over (a plain cloth's weave, the sensor's noise) are too few to search
    assert search_boxes(edges, frame_shape, [], 1800.0) == []


def test_the_mats_own_print_is_not_searched(foreign_catalogs: dict[str, Catalog]) -> None:
    """The mat's zone lines, markers and lettering are edges all over it; taken out as the registered mat's print
    (``Recognizer._print_edges``), a bare mat on a plain table leaves nothing to search."""
    frame = render_scene(Scene(cloth="grey-laminate", mat="A3", look=Look(noise=2.0))).image
    recognizer = Recognizer(foreign_catalogs["kennard"], mat_layout("A3"))
    hom = recognizer._register(frame)
    assert hom is not None
    edges = edge_map(frame)
    assert search_boxes(edges, frame.shape, [], 1800.0)  # the print alone would be searched
    assert search_boxes(cv2.subtract(edges, recognizer._print_edges(hom, frame.shape)), frame.shape, [], 1800.0) == []


def test_a_faces_stray_matches_are_not_worth_a_homography(
    index: ArtIndex, foreign_catalogs: dict[str, Catalog]
) -> None:
    """A face's matches that agree on where its picture lies are worth a RANSAC homography; the same keypoints
    scattered over the frame at any turn (as a gingham's stray matches are) are not
    (``ArtIndex._may_agree``). The agreeing ones are SIFT's own: the K♥'s picture turned 100° and enlarged 1.5x,
    its keypoints found afresh and paired with the picture's by where the turn takes them."""
    picture = cv2.cvtColor(foreign_catalogs["kennard"].reference("kh"), cv2.COLOR_BGR2GRAY)
    picture = cv2.resize(picture, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)  # as the index sees it
    turn = cv2.getRotationMatrix2D((72.0, 100.0), 100.0, 1.5)
    turn[:, 2] += (200.0, 200.0)
    turned = cv2.warpAffine(picture, turn, (600, 600))
    keypoints = cv2.SIFT_create().detect(turned, None)
    found = np.array([k.pt for k in keypoints])
    refs = np.nonzero(index._owners == "kh")[0]
    matches, seen, poses = [], [], []
    for t in refs:
        where = turn @ (*index._points[t] * 2, 1.0)
        k = int(np.argmin(np.linalg.norm(found - where, axis=1)))
        if np.linalg.norm(found[k] - where) < 1.0 and abs(keypoints[k].size / (index._poses[t, 1] * 2) - 1.5) < 0.2:
            matches.append((len(seen), int(t)))
            seen.append(found[k] / 2)  # the index's pictures are enlarged 2x: here so is the frame
            poses.append((keypoints[k].angle, keypoints[k].size / 2))
    assert len(matches) >= 12
    keep = np.linspace(0, len(matches) - 1, 12).round().astype(int)  # a dozen, from all over the picture
    matches = [(k, matches[i][1]) for k, i in enumerate(keep)]
    seen_at, posed = np.array(seen)[keep], np.array(poses)[keep]
    assert index._may_agree(matches, seen_at, posed)
    rng = np.random.default_rng(5)
    scattered = rng.uniform((0, 0), (640, 360), seen_at.shape)
    turned = np.stack([rng.uniform(0, 360, len(keep)), posed[:, 1]], axis=1)
    assert not index._may_agree(matches, scattered, turned)
