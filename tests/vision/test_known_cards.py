"""The cards of the last frame are confirmed where they still lie, never kept where they have gone: a card landing
on a trick costs no search for the cards under it, and reads the same as a frame recognised from scratch."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.sim.scene import Card, Look, Scene, View, mat_to_table, render_scene
from companion.vision import detect
from companion.vision.live import recognizer_for
from companion.vision.pipeline import FrameResult, Recognizer
from companion.vision.settings import CameraSettings

OX, OY = mat_to_table(Scene())
CX, CY = OX + 210, OY + 148  # the A3 mat's centre zone
TABLE = Scene(view=View(tilt=10.0, azimuth=20.0), look=Look(light_gain=0.12, noise=2.0), seed=1500, frame=(960, 540))
TRICK = (  # as Corgi Pileup's players lay them: each a little right of the last, overlapping it
    Card("corgi-pileup", "7", CX - 63, CY - 12, 12.0),
    Card("corgi-pileup", "10", CX - 21, CY + 12, -18.0),
    Card("corgi-pileup", "3", CX + 21, CY - 10, 6.0),
)


@pytest.fixture(scope="module")
def recognizer(catalogs) -> Recognizer:
    return recognizer_for(catalogs["corgi-pileup"], CameraSettings())


def read(recognizer: Recognizer, cards: tuple[Card, ...], known: FrameResult | None = None) -> FrameResult:
    frame = render_scene(replace(TABLE, cards=cards, seed=TABLE.seed + len(cards))).image
    return recognizer.process(frame, [c.corners for c in known.cards] if known else ())


def faces(result: FrameResult) -> list[str]:
    return sorted(c.face for c in result.cards)


def test_a_card_landing_on_a_trick_reads_as_from_scratch_without_searching_under_it(recognizer, monkeypatch) -> None:
    before = read(recognizer, TRICK[:2])
    assert faces(before) == ["10", "7"]
    fresh = read(recognizer, TRICK)
    searched: list[int] = []
    fit = detect.fit_poses
    monkeypatch.setattr(detect, "fit_poses", lambda mask, inv, rects, *a: searched.append(len(rects)) or fit(
        mask, inv, rects, *a))
    again = read(recognizer, TRICK, before)
    assert faces(again) == faces(fresh) == ["10", "3", "7"]
    assert searched == [2]  # one fit of the two cards it knew: no search of the trick's outline
    for card in again.cards:  # where the search from scratch put them, to a few pixels
        assert min(np.abs(card.corners - other.corners).max() for other in fresh.cards) < 6


def test_a_card_taken_away_is_not_kept_where_it_lay(recognizer) -> None:
    before = read(recognizer, TRICK)
    after = read(recognizer, TRICK[:2], before)
    assert faces(after) == ["10", "7"]


def test_a_card_moved_is_found_where_it_lies_now(recognizer) -> None:
    before = read(recognizer, TRICK[:1])
    moved = replace(TRICK[0], x=TRICK[0].x + 120, y=TRICK[0].y + 40, angle=40.0)
    after = read(recognizer, (moved,), before)
    assert faces(after) == ["7"]
    assert np.abs(after.cards[0].corners.mean(axis=0) - before.cards[0].corners.mean(axis=0)).max() > 50


def test_a_card_covered_by_the_next_is_not_confirmed_under_it(recognizer) -> None:
    """The card that lands right on the last one hides it: the top card is read, not the one it covers."""
    before = read(recognizer, TRICK[:1])
    on_top = replace(TRICK[1], x=TRICK[0].x + 3, y=TRICK[0].y + 2, angle=TRICK[0].angle + 2)
    after = read(recognizer, (TRICK[0], on_top), before)
    assert [c.face for c in after.cards if c.face != "unknown"] == ["10"]
