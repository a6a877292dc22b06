"""Temporal smoothing on hand-made per-frame verdicts: one report per card at rest, hands change nothing."""

from __future__ import annotations

import math

import numpy as np

from companion.vision.observations import UNKNOWN, CardSeen
from companion.vision.pipeline import CardFound
from companion.vision.tracker import Tracker


def card(face: str, x: float = 100, y: float = 100, angle: float = 0, zone: str = "centre", conf: float = 0.9):
    a = math.radians(angle)
    local = np.array([(-30, -42), (30, -42), (30, 42), (-30, 42)], float)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return CardFound(face, conf, zone, (local @ rot.T + (x, y)).astype(np.float32), face, 0.001)


def run(frames: list[list[CardFound]], **kw) -> list[CardSeen]:
    tracker = Tracker(**kw)
    return [seen for frame in frames for seen in tracker.update(frame)]


def test_a_card_is_reported_once_after_it_has_been_steady() -> None:
    seen = run([[card("7")]] * 10)
    assert [(s.zone, s.face, s.frame) for s in seen] == [("centre", "7", 3)]


def test_a_hand_passing_over_changes_nothing() -> None:
    frames = [[card("7")]] * 4 + [[]] * 5 + [[card(UNKNOWN, conf=0.0)]] * 3 + [[card("7", x=101)]] * 5
    assert [s.face for s in run(frames)] == ["7"]


def test_a_card_flipped_in_place_is_reported_when_its_face_shows() -> None:
    frames = [[card(UNKNOWN, conf=0.0)]] * 5 + [[card("fire-ace")]] * 5
    assert [(s.face, s.frame) for s in run(frames)] == [("fire-ace", 8)]


def test_a_card_played_onto_a_pile_is_a_new_report_even_with_the_same_face() -> None:
    frames = [[card("8")]] * 4 + [[card("8", x=104, angle=30)]] * 4 + [[card("5", x=104, angle=31)]] * 4
    assert [s.face for s in run(frames)] == ["8", "8", "5"]


def test_flickering_verdicts_are_never_reported() -> None:
    frames = [[card(face)] for face in ["3", "5", "3", "5", "3", "5"]] + [[card("3", conf=0.2)]] * 5
    assert run(frames) == []


def test_two_cards_in_different_zones_are_tracked_apart() -> None:
    frames = [[card("1", zone="seat-1"), card("2", x=400, zone="seat-4")]] * 4
    assert sorted((s.zone, s.face) for s in run(frames)) == [("seat-1", "1"), ("seat-4", "2")]


def test_a_card_gone_for_long_is_forgotten_and_reported_again() -> None:
    frames = [[card("9")]] * 4 + [[]] * 4 + [[card("9")]] * 4
    assert [s.face for s in run(frames, forget=3)] == ["9", "9"]
