"""Temporal smoothing on hand-made per-frame verdicts: one report per card at rest, hands change nothing."""

from __future__ import annotations

import math

import numpy as np

from companion.table.observations import CardGone, CardSeen, CardUnreadable, ZoneCleared
from companion.vision.observations import UNKNOWN
from companion.vision.pipeline import CardFound
from companion.vision.tracker import Tracker


def card(face: str, x: float = 100, y: float = 100, angle: float = 0, zone: str = "centre", conf: float = 0.9):
    a = math.radians(angle)
    local = np.array([(-30, -42), (30, -42), (30, 42), (-30, 42)], float)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return CardFound(face, conf, zone, (local @ rot.T + (x, y)).astype(np.float32), face, 0.001)


def observe(frames: list[list[CardFound]], **kw) -> list:
    tracker = Tracker(**kw)
    return [obs for frame in frames for obs in tracker.update(frame)]


def run(frames: list[list[CardFound]], **kw) -> list[CardSeen]:
    return [obs for obs in observe(frames, **kw) if isinstance(obs, CardSeen)]


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


def test_a_card_taken_away_is_gone_and_its_zone_cleared() -> None:
    frames = [[card("9"), card("4", x=300)]] * 4 + [[card("4", x=300)]] * 4 + [[]] * 4
    obs = [(type(o).__name__, o.zone, getattr(o, "face", None), o.frame) for o in observe(frames, forget=2)
           if not isinstance(o, CardSeen)]
    assert obs == [("CardGone", "centre", "9", 7), ("CardGone", "centre", "4", 11), ("ZoneCleared", "centre", None, 11)]


def test_a_card_covered_by_another_is_not_gone_until_the_pile_is_collected() -> None:
    lower, upper = card("8"), card("5", x=106, angle=30)
    frames = [[lower]] * 4 + [[upper]] * 10 + [[]] * 4
    obs = observe(frames, forget=2)
    assert [(type(o).__name__, getattr(o, "face", None)) for o in obs] == [
        ("CardSeen", "8"), ("CardSeen", "5"), ("CardGone", "8"), ("CardGone", "5"), ("ZoneCleared", None)]
    assert len({o.frame for o in obs if isinstance(o, CardGone)}) == 1  # the whole pile went in one movement


def test_a_hand_over_a_card_for_less_than_forget_frames_is_not_a_card_gone() -> None:
    frames = [[card("2")]] * 4 + [[]] * 5 + [[card("2")]] * 3
    assert [type(o) for o in observe(frames, forget=6)] == [CardSeen]


def test_a_card_the_recogniser_cannot_name_is_unreadable_once_and_never_named() -> None:
    blurred = CardFound(UNKNOWN, 0.1, "centre", card("x").corners, "7", 0.02)
    obs = observe([[blurred]] * 20, steady=3)
    assert obs == [CardUnreadable("centre", "7", 12)]


def test_an_unreadable_card_that_becomes_readable_is_then_seen() -> None:
    blurred = CardFound(UNKNOWN, 0.1, "centre", card("x").corners, "7", 0.02)
    obs = observe([[blurred]] * 12 + [[card("7")]] * 3, steady=3)
    assert [type(o) for o in obs] == [CardUnreadable, CardSeen]


def test_an_unreadable_card_taken_away_clears_its_zone() -> None:
    blurred = CardFound(UNKNOWN, 0.1, "seat-1", card("x").corners, "7", 0.02)
    obs = observe([[blurred]] * 12 + [[]] * 3, steady=3, forget=2)
    assert obs == [CardUnreadable("seat-1", "7", 12), ZoneCleared("seat-1", 15)]


def test_a_card_lying_face_down_is_no_question() -> None:
    back = CardFound(UNKNOWN, 0.0, "seat-1", card("x").corners, "7", 0.03)
    assert observe([[back]] * 30, steady=3) == []


def test_a_card_turned_face_down_where_it_lies_is_gone_face_down_and_seen_again_when_turned_up() -> None:
    back = card(UNKNOWN, x=101, conf=0.0)  # a back lies where the face was: the same track, no face evidence
    frames = [[card("fire-4")]] * 4 + [[back]] * 31 + [[back]] + [[card("fire-4", x=102)]] * 3
    reports = observe(frames, forget=30)
    assert reports == [CardSeen("centre", "fire-4", 0.9, 3), CardGone("centre", "fire-4", 35, face_down=True),
                       CardSeen("centre", "fire-4", 0.9, 39)]


def test_a_back_seen_for_less_than_forget_frames_is_a_hand_over_the_card_and_changes_nothing() -> None:
    frames = [[card("fire-4")]] * 4 + ([[card(UNKNOWN, conf=0.0)]] * 20 + [[card("fire-4")]]) * 3
    assert observe(frames, forget=30) == [CardSeen("centre", "fire-4", 0.9, 3)]


def test_a_card_not_found_at_all_is_gone_as_before_not_face_down() -> None:
    reports = observe([[card("fire-4")]] * 4 + [[]] * 31, forget=30)
    assert reports[1:] == [CardGone("centre", "fire-4", 35), ZoneCleared("centre", 35)]


def test_a_card_covered_on_a_pile_is_not_turned_face_down_when_the_top_card_is_hard_to_read() -> None:
    under, top = card("8"), card("5", x=125, angle=30)
    unsure = card(UNKNOWN, x=101, conf=0.0)  # a hand over the pile: nearest to the covered card's track
    frames = [[under]] * 4 + [[top]] * 40 + [[top, unsure]] * 10 + [[top]] * 3
    assert [type(o) for o in observe(frames, forget=30)] == [CardSeen, CardSeen]


def test_a_third_card_put_across_a_pair_of_its_face_is_seen_and_the_pair_is_not_turned_face_down() -> None:
    """Squirrels' crowded pile (seeds 2 and 4 of the camera benchmark): a third 7 put across a pair of 7s leaves too
    little of each to name (read faceless, as a back is). The pair lies under it, not face down: nothing is gone."""
    pair = [card("7", x=100), card("7", x=166)]
    covered = [card(UNKNOWN, x=100, conf=0.0), card(UNKNOWN, x=166, conf=0.0)]
    frames = [pair] * 5 + [[*covered, card("7", x=133)]] * 40
    reports = observe(frames, forget=30)
    assert reports == [CardSeen("centre", "7", 0.9, 3)] * 2 + [CardSeen("centre", "7", 0.9, 8)]


def test_cards_under_a_card_that_is_itself_covered_are_not_turned_face_down() -> None:
    """Two 10s, two 9s put partly on them, then a Wild on both 9s: only the Wild can be named, and nothing lying
    under it is reported gone, face down or otherwise, until the pile is taken."""
    tens, nines = [card("10", x=100), card("10", x=232)], [card("9", x=140), card("9", x=192)]
    hidden = [card(UNKNOWN, x=x, conf=0.0) for x in (100, 232, 140, 192)]
    frames = [tens] * 4 + [[*hidden[:2], *nines]] * 4 + [[*hidden, card("wild", x=166)]] * 40 + [[]] * 31
    reports = observe(frames, forget=30)
    assert [type(o) for o in reports] == [CardSeen] * 5 + [CardGone] * 5 + [ZoneCleared]
    assert not any(o.face_down for o in reports if isinstance(o, CardGone))
