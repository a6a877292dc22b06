"""What a recogniser watching one camera keeps from frame to frame instead of working it out again, and when it
must not: the mat's registration is kept while its markers look the same, and found afresh the frame the mat or
the camera moves, a hand covers a marker, or it has been kept ``REGISTER_EVERY`` frames; the light is measured
every few frames; the edge search is skipped while all that changed lies on cards the border mask named."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from companion.sim.scene import Card, Hand, Look, Scene, View, mat_outline, mat_to_table, render_scene, steady_hands
from companion.sim.scene_camera import SimCamera
from companion.sim.squirrels_world import SquirrelsWorld
from companion.table.observations import CardGone, CardSeen
from companion.vision import detect, pipeline
from companion.vision.light import MIN_LEVEL
from companion.vision.live import recognizer_for, tracker_for
from companion.vision.mat import mat_layout
from companion.vision.observations import UNKNOWN
from companion.vision.pipeline import SEARCH_EDGES_EVERY, FrameResult, Recognizer
from companion.vision.registration import REGISTER_EVERY
from companion.vision.settings import CameraSettings
from companion.vision.sources import FrameSource
from companion.vision.stillness import RECHECK_FRAMES, StillnessGate
from companion.vision.watcher import LIGHT_EVERY, CardWatcher

OX, OY = mat_to_table(Scene())
CX, CY = OX + 210, OY + 148  # the A3 mat's centre zone
CARDS = (Card("corgi-pileup", "7", CX - 40, CY, 12.0), Card("corgi-pileup", "10", OX + 120, OY + 250, -8.0))
TABLE = Scene(cards=CARDS, view=View(tilt=10.0, azimuth=20.0), look=Look(light_gain=0.12, noise=2.0), seed=2600,
              frame=(960, 540))


@pytest.fixture
def recognizer(catalogs) -> Recognizer:
    return recognizer_for(catalogs["corgi-pileup"], CameraSettings())


def spy(recognizer: Recognizer) -> list[int]:
    """How many markers each ArUco search of ``recognizer`` finds from now on, in order."""
    found: list[int] = []
    markers = recognizer.locator.markers
    recognizer.locator.markers = lambda f: found.append(len(m := markers(f))) or m  # type: ignore[method-assign]
    return found


@pytest.fixture
def searches(recognizer: Recognizer) -> list[int]:
    return spy(recognizer)


def frame(scene: Scene, k: int) -> np.ndarray:
    """The ``k``-th frame of a camera filming ``scene``: fresh sensor noise each time."""
    return render_scene(replace(scene, seed=scene.seed + k)).image


def same_reading(result: FrameResult, fresh: FrameResult, px: float = 1.5) -> None:
    """``result`` names the cards a recogniser seeing the frame first names, in the same zones, where it puts them
    (to within ``px``)."""
    assert sorted((c.face, c.zone) for c in result.cards) == sorted((c.face, c.zone) for c in fresh.cards)
    for card in result.cards:
        assert min(np.abs(card.corners - other.corners).max() for other in fresh.cards) < px


def test_a_still_mat_is_registered_once_and_reads_as_from_scratch(recognizer, searches, catalogs) -> None:
    recognizer.process(frame(TABLE, 0))
    later = frame(TABLE, 1)
    result = recognizer.process(later)
    assert searches == [4]  # the second frame kept the first one's registration
    assert result.registered
    same_reading(result, recognizer_for(catalogs["corgi-pileup"], CameraSettings()).process(later))


@pytest.mark.parametrize("moved", [
    replace(TABLE, view=replace(TABLE.view, shift=(1.5, 0.0))),  # the camera bumped: a pixel or two
    replace(TABLE, view=replace(TABLE.view, roll=1.0)),  # the camera turned a degree
], ids=["shifted", "turned"])
def test_a_moved_camera_is_registered_afresh_on_the_frame_it_moved(recognizer, searches, catalogs, moved) -> None:
    recognizer.process(frame(TABLE, 0))
    recognizer.process(frame(TABLE, 1))
    after = frame(moved, 2)
    result = recognizer.process(after)
    assert searches == [4, 4]
    same_reading(result, recognizer_for(catalogs["corgi-pileup"], CameraSettings()).process(after))


def test_a_hand_over_a_marker_has_the_markers_found_again(recognizer, searches) -> None:
    recognizer.process(frame(TABLE, 0))
    covered = replace(TABLE, hands=(Hand(OX + 12, OY + 12, 225.0, 1.2),))  # reaching over the top-left marker
    result = recognizer.process(frame(covered, 1))
    assert len(searches) == 2 and searches[1] < 4  # looked for again: the hand hides a marker
    assert result.registered  # the other markers are enough (or the last registration stands)
    recognizer.process(frame(TABLE, 2))
    assert searches[2:] == [4]  # the hand gone: all four found again, not the three kept


def test_a_registration_is_kept_for_at_most_register_every_frames(recognizer, searches) -> None:
    still = frame(TABLE, 0)
    for _ in range(2 * REGISTER_EVERY + 3):
        recognizer.process(still)
    assert len(searches) == 3  # the first frame, and every REGISTER_EVERY + 1 after it


def test_a_recogniser_told_not_to_follow_registers_every_frame(catalogs) -> None:
    recognizer = Recognizer(catalogs["corgi-pileup"], mat_layout("A3"), follow=False)
    found = spy(recognizer)
    for k in range(3):
        recognizer.process(frame(TABLE, k))
    assert found == [4, 4, 4]


def test_the_watcher_measures_the_light_every_few_frames_and_a_dimmed_lamp_shows_within_them(catalogs) -> None:
    """The light changes slowly: measured on one recognised frame in ``LIGHT_EVERY``, the first one included."""
    dim = replace(TABLE, look=replace(TABLE.look, exposure=0.3))
    scenes = [TABLE] * 3 + [dim] * (LIGHT_EVERY + 1)
    settings = CameraSettings()
    watcher = CardWatcher(FrameSource("scenes", lambda: SimCamera(scenes), live=False),
                          recognizer_for(catalogs["corgi-pileup"], settings), tracker_for(settings), lambda *_: None)
    watcher.stillness = StillnessGate(recheck_frames=0)  # every frame recognised
    levels = []
    for _ in scenes:
        watcher.step()
        levels.append(watcher.health()["light"]["level"])
    bright, dimmed = levels[0], levels[LIGHT_EVERY]
    assert levels == [bright] * LIGHT_EVERY + [dimmed] * (len(scenes) - LIGHT_EVERY)
    assert bright > 200 and dimmed < MIN_LEVEL and watcher.health()["light"]["problems"]


@pytest.fixture
def edge_searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per frame the edge search (``Recognizer._edge_candidates``) ran on: the candidates it gave."""
    ran: list[int] = []
    search = pipeline.Recognizer._edge_candidates

    def spy(self: Recognizer, *args: Any) -> Iterator[np.ndarray]:
        ran.append(0)
        for quad in search(self, *args):
            ran[-1] += 1
            yield quad

    monkeypatch.setattr(pipeline.Recognizer, "_edge_candidates", spy)
    return ran


def test_a_card_the_border_mask_sees_landing_on_a_trick_costs_no_edge_search(recognizer, edge_searches,
                                                                               catalogs) -> None:
    trick = replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX, CY + 10, -15.0)))
    recognizer.process(frame(TABLE, 0))
    recognizer.process(frame(TABLE, 1))
    landed = frame(trick, 2)
    result = recognizer.process(landed)
    # the first frame's named cards explain every edge (``Recognizer._edges_explained``), and then nothing
    # changed but where the mask named cards
    assert len(edge_searches) == 0
    same_reading(result, recognizer_for(catalogs["corgi-pileup"], CameraSettings()).process(landed))
    assert len(edge_searches) == 0  # nor did a recogniser seeing the frame first: its cards explain every edge
    recognizer.process(frame(TABLE, 3))  # the 3 taken back: the table is as the first frame's search saw it
    assert len(edge_searches) == 0


def test_a_card_only_edges_outline_is_found_the_frame_it_lands(catalogs, edge_searches) -> None:
    """On white laminate without the mat the border mask sees no card: the card's landing changes the frame where
    the mask named nothing, so the edge search runs and names it."""
    empty = Scene(cloth="white-laminate", mat=None, look=Look(noise=2.0), seed=40)
    cx, cy = mat_outline(empty).mean(axis=0)
    one = replace(empty, cards=(Card("corgi-pileup", "7", cx + 10, cy - 20, 17.0),))
    recognizer = Recognizer(catalogs["corgi-pileup"])
    assert [recognizer.process(frame(empty, k)).cards for k in range(3)] == [[], [], []]
    assert len(edge_searches) == 0  # an empty plain table has no edges to explain, and did not change
    assert [c.face for c in recognizer.process(frame(one, 3)).cards] == ["7"]
    assert len(edge_searches) == 1


def test_the_edge_search_stops_once_the_card_played_is_named(catalogs, monkeypatch) -> None:
    """On white laminate without the mat the border mask sees no card, so a card played is found by the edge
    search. Once the cards named lie over all that changed and over every card read again, the search stops: the
    straight segments and the corners are not looked for (they took most of a played frame's time). What it names
    is what a recogniser seeing the frame first names, where it puts it: to within 2 px, as the window outlines the
    card played from its edges before it searches its art, and the whole frame searches the art first (both 2.4
    px from the true outline's worst corner)."""
    empty = Scene(cloth="white-laminate", mat=None, look=Look(noise=2.0), seed=40)
    cx, cy = mat_outline(empty).mean(axis=0)
    one = replace(empty, cards=(Card("corgi-pileup", "7", cx + 10, cy - 20, 17.0),))
    two = replace(one, cards=(*one.cards, Card("corgi-pileup", "3", cx - 140, cy + 30, -10.0)))
    segment_searches: list[int] = []
    segments = pipeline.line_quads
    monkeypatch.setattr(pipeline, "line_quads", lambda *args: segment_searches.append(1) or segments(*args))
    recognizer = Recognizer(catalogs["corgi-pileup"])
    first = recognizer.process(frame(one, 0))
    # nothing to compare with: searched until the 7, named from its edges, explains every edge
    assert [c.face for c in first.cards] == ["7"] and segment_searches == []
    played = frame(two, 1)
    result = recognizer.process(played, [c.corners for c in first.cards])
    assert sorted(c.face for c in result.cards) == ["3", "7"]
    assert segment_searches == []
    same_reading(result, Recognizer(catalogs["corgi-pileup"]).process(played), px=2.0)


def test_on_the_mat_corners_are_looked_for_in_a_frame_read_whole_not_in_a_window(recognizer, monkeypatch) -> None:
    """On the mat the border mask lines a card's paper, and a card it outlines only with a neighbour is looked for
    at its corners (``edges.corner_quads``) when the frame is read whole; a window around a card played is not
    searched so (its straight lines, many where hands rest, doubled the time such a frame took), and the card it
    may have missed is looked for again when the frame is next read whole. (The edge search is made to run
    through, as where a card the mask missed leaves edges its named cards do not explain.)"""
    monkeypatch.setattr(Recognizer, "_edges_explained", lambda self, view, edges: lambda cards: False)
    corner_searches: list[tuple[int, ...]] = []
    corners = pipeline.corner_quads
    monkeypatch.setattr(pipeline, "corner_quads",
                        lambda frame, *args: corner_searches.append(frame.shape[:2]) or corners(frame, *args))
    whole = frame(TABLE, 0)
    before = recognizer.process(whole, light=False)
    assert corner_searches == [whole.shape[:2]]
    corner_searches.clear()
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 40, CY + 10, -15.0))), 1)
    result = recognizer.process(landed, [c.corners for c in before.cards], light=False)
    assert sorted(c.face for c in result.cards) == ["10", "3", "7"]
    assert corner_searches == []


def test_the_edge_search_is_skipped_at_most_search_edges_every_frames_in_a_row(recognizer, edge_searches) -> None:
    still = frame(TABLE, 0)
    for _ in range(2 * SEARCH_EDGES_EVERY + 3):
        recognizer.process(still)
    # the first frame's named cards explain every edge; then it is searched through once every
    # SEARCH_EDGES_EVERY + 1 frames, a card it missed may be found
    assert len(edge_searches) == 2


def test_a_card_put_across_two_of_its_face_is_found_as_soon_as_it_lies_still(catalogs) -> None:
    """Squirrels' pile (seed 2 of the camera benchmark): a fourth 3 put across two of three 3s. Their borders still
    line their outlines and their faces still read as 3s, so the border mask finds nothing new there; its art
    does, searched in the window around the change at the whole frame's scale (``ArtIndex.outlines``), and it is
    seen once it has lain still for ``steady_frames``. (Searched at the window's own scale, it was found only by
    the still table's recheck, which searches the whole frame afresh.) Nothing under it is reported gone."""
    base = SquirrelsWorld(2, seed=2).base
    three = tuple(Card("squirrels", "3", *pose) for pose in ((432.3, 361.4, -1.8), (495.7, 361.1, 0.9),
                                                             (563.5, 359.5, 0.4)))
    scenes = [replace(base, cards=three)] * 5
    scenes += [replace(base, cards=(*three, Card("squirrels", "3", 533.3, 360.3, -1.4)))] * (RECHECK_FRAMES + 5)
    settings = replace(CameraSettings(), mat="A2")
    seen: list[Any] = []
    watcher = CardWatcher(FrameSource("scenes", lambda: SimCamera(scenes), live=False),
                          recognizer_for(catalogs["squirrels"], settings), tracker_for(settings),
                          lambda observations, _t: seen.extend(observations))
    for _ in scenes:
        watcher.step()
    reports = [(type(o), o.frame) for o in seen if isinstance(o, CardSeen | CardGone) and o.zone == "centre"]
    assert [kind for kind, _ in reports] == [CardSeen] * 4
    assert reports[3][1] == 5 + settings.steady_frames


@pytest.fixture
def views(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size (width, height) of each picture the border mask's search (``find_cards``) ran on."""
    shapes: list[tuple[int, int]] = []
    find = pipeline.find_cards

    def spy(picture: np.ndarray, *args: Any) -> list:
        shapes.append((picture.shape[1], picture.shape[0]))
        return find(picture, *args)

    monkeypatch.setattr(pipeline, "find_cards", spy)
    return shapes


def read_after(recognizer: Recognizer, before: np.ndarray, after: np.ndarray) -> FrameResult:
    """``after`` as a watcher has it read: the frame before it read first, its cards ``known``."""
    return recognizer.process(after, [c.corners for c in recognizer.process(before).cards])


def test_a_card_played_is_read_in_a_window_around_it_as_the_whole_frame_reads_it(recognizer, views, catalogs):
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60, CY + 10, -15.0))), 1)
    result = read_after(recognizer, frame(TABLE, 0), landed)
    whole, window = views
    assert window[0] * window[1] < pipeline.MAX_WINDOW * whole[0] * whole[1]
    same_reading(result, recognizer_for(catalogs["corgi-pileup"], CameraSettings()).process(landed))
    assert sorted(c.face for c in result.cards) == ["10", "3", "7"]


def test_a_card_played_while_hands_rest_on_the_table_is_read_in_a_window(recognizer, views, catalogs):
    """Two hands rest on the table (``steady_hands``: the same skin in every frame, only the sensor's noise
    changes) while the 3 is played: only where it landed changed, and that is read again, not the whole frame."""
    rested = steady_hands(replace(TABLE, hands=(Hand(OX + 330, OY + 60, 20.0), Hand(OX + 60, OY + 80, 200.0))))
    before, landed = frame(rested, 0), frame(replace(rested, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60,
                                                                                 CY + 10, -15.0))), 1)
    changed = np.abs(before.astype(int) - frame(rested, 1).astype(int)).max(axis=2) > 20
    assert changed.mean() < 0.001  # the sensor's noise only (a skin tone drawn for each frame: 6% of the frame)
    result = read_after(recognizer, before, landed)
    whole, window = views
    assert window[0] * window[1] < pipeline.MAX_WINDOW * whole[0] * whole[1]
    assert sorted(c.face for c in result.cards) == ["10", "3", "7"]


def test_a_card_the_change_does_not_reach_is_kept_as_it_was_read(recognizer):
    """The 3 lands clear of the 7 and the 10: their readings are the last frame's, not read again."""
    before = recognizer.process(frame(TABLE, 0))
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60, CY + 10, -15.0))), 1)
    after = recognizer.process(landed, [c.corners for c in before.cards])
    assert len(before.cards) == 2 and all(any(c is card for c in after.cards) for card in before.cards)
    assert [c.face for c in after.cards if not any(c is card for card in before.cards)] == ["3"]


def test_a_kept_card_a_window_takes_in_part_of_is_not_searched_for_there(recognizer, monkeypatch) -> None:
    """The 3 lands beside the 7, which the change reaches (read again); the 10, which it does not, is kept, and the
    window around the change takes in a corner of it. That corner is the 10's, not a card a hand broke nor an
    outline to try: it is left out of the window's border mask, and no broken outline (``detect._unexplained``)
    nor edge candidate is searched there. Searching them was most of the time a played frame took (without the
    mat: ``test_foreign_tables``)."""
    windows: list[pipeline.Window] = []
    window = Recognizer._window
    monkeypatch.setattr(Recognizer, "_window", lambda self, *args: windows.append(w := window(self, *args)) or w)
    regions: list[int] = []
    unexplained = detect._unexplained
    monkeypatch.setattr(detect, "_unexplained", lambda *args: regions.append(len(r := list(unexplained(*args)))) or r)
    tried: list[np.ndarray] = []  # edge candidates, frame px
    candidates = Recognizer._edge_candidates

    def spied(self: Recognizer, view: pipeline.View, *args: Any) -> Iterator[np.ndarray]:
        for quad in candidates(self, view, *args):
            tried.append(quad + view.origin)
            yield quad

    monkeypatch.setattr(Recognizer, "_edge_candidates", spied)
    before = recognizer.process(frame(TABLE, 0))
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 40, CY + 10, -15.0))), 1)
    windows.clear(), regions.clear(), tried.clear()
    result = recognizer.process(landed, [c.corners for c in before.cards])
    ten = next(c for c in windows[0].kept if c.face == "10")
    assert pipeline._cuts(windows[0].box, ten.corners)
    assert not any(regions)
    assert not any(cv2.pointPolygonTest(ten.corners, tuple(map(float, q.mean(axis=0))), False) >= 0 for q in tried)
    assert any(c is ten for c in result.cards)
    assert sorted(c.face for c in result.cards) == ["10", "3", "7"]


def test_a_card_landing_on_another_has_both_read_again(recognizer, views, catalogs):
    """A 3 laid half over the 7: how much shows of the 7 changed with it, so the 7 is read in the window too."""
    before = recognizer.process(frame(TABLE, 0))
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX - 10, CY + 5, 30.0))), 1)
    result = recognizer.process(landed, [c.corners for c in before.cards])
    assert len(views) == 2 and views[1] != views[0]
    same_reading(result, recognizer_for(catalogs["corgi-pileup"], CameraSettings()).process(landed))
    kept = [c.face for c in result.cards if any(c is card for card in before.cards)]
    assert kept == ["10"]  # the 7 was read again, the 10 kept


def test_a_change_over_a_marker_has_the_frame_read_whole(recognizer, views):
    covered = replace(TABLE, hands=(Hand(OX + 12, OY + 12, 225.0, 1.2),))  # reaching over the top-left marker
    read_after(recognizer, frame(TABLE, 0), frame(covered, 1))
    assert views[1] == views[0]


def test_a_recheck_has_the_frame_read_whole_and_so_does_every_whole_every_th_change(recognizer, views):
    """Nothing ``known`` (a still table's recheck) reads the frame whole; window reads in a row are capped."""
    tables = [replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60, CY + 10 + 2 * (k % 2), -15.0)))
              for k in range(pipeline.WHOLE_EVERY + 2)]
    cards = recognizer.process(frame(TABLE, 0)).cards
    for k, table in enumerate(tables):
        cards = recognizer.process(frame(table, k + 1), [c.corners for c in cards]).cards
    recognizer.process(frame(tables[-1], len(tables) + 1))
    full = views[0]
    assert [size == full for size in views] == [True, *[False] * pipeline.WHOLE_EVERY, True, False, True]


@pytest.mark.parametrize("share", [0.6, 0.8])
def test_a_card_a_window_would_cut_has_the_frame_read_whole(recognizer, share):
    """A card found running to a window's edge may run on beyond it: only the whole frame can say. (``_window``
    never cuts a card it knows; this is for one the last frame did not show.)"""
    picture = frame(TABLE, 0)
    seven = next(c for c in recognizer.process(picture).cards if c.face == "7")
    (x0, y0), (x1, y1) = seven.corners.min(axis=0) - 40, seven.corners.max(axis=0) + 40
    cut = pipeline.Window(np.array([x0, y0, x0 + 40 + share * (x1 - x0 - 80), y1], int), [])  # through the 7
    assert recognizer._in_window(picture, pipeline.colour_cells(picture), cut, [], {}, [], {}) is None
    whole = pipeline.Window(np.array([x0, y0, x1, y1], int), [])
    read = recognizer._in_window(picture, pipeline.colour_cells(picture), whole, [], {}, [], {})
    assert [c.face for c in read] == ["7"]


def test_a_card_played_without_the_mat_is_read_in_its_window_in_the_zone_drawn_for_it(catalogs, views):
    """Drawn zones (frame px) are the window's own too: the card lands in the zone a whole read puts it in, where
    that read puts it."""
    bare = replace(TABLE, mat=None, cloth="green-felt")
    w, h = bare.frame
    zones = {"centre": np.array([(0, 0), (w, 0), (w, h / 2), (0, h / 2)], np.float32),
             "seat-1": np.array([(0, h / 2), (w, h / 2), (w, h), (0, h)], np.float32)}
    reader = Recognizer(catalogs["corgi-pileup"], zones=zones, zones_drawn_on=(w, h))
    landed = frame(replace(bare, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60, CY + 10, -15.0))), 1)
    result = read_after(reader, frame(bare, 0), landed)
    assert views[1] != views[0]
    fresh = Recognizer(catalogs["corgi-pileup"], zones=zones, zones_drawn_on=(w, h)).process(landed)
    assert sorted((c.face, c.zone) for c in result.cards) == sorted((c.face, c.zone) for c in fresh.cards)
    assert {c.zone for c in result.cards} == {"centre", "seat-1"}
    three, fresh_three = (next(c for c in r.cards if c.face == "3") for r in (result, fresh))
    assert np.abs(three.corners - fresh_three.corners).max() < 1.5


def test_a_card_the_catalogue_could_not_name_is_read_again_wherever_the_change_is(recognizer, views):
    """An unknown reading is none to keep (what a hand or a card being lifted left): the window takes it in, here
    the 10 read unknown while the 3 lands by the 7."""
    before = recognizer.process(frame(TABLE, 0))
    ten = next(c for c in before.cards if c.face == "10")
    recognizer._last.cards = [replace(c, face=UNKNOWN, confidence=0.0) if c is ten else c for c in before.cards]
    landed = frame(replace(TABLE, cards=(*CARDS, Card("corgi-pileup", "3", CX + 60, CY + 10, -15.0))), 1)
    after = recognizer.process(landed, [c.corners for c in before.cards])
    assert views[1] != views[0]  # a window, taking in the 10 again: named as it is
    assert sorted(c.face for c in after.cards) == ["10", "3", "7"]
