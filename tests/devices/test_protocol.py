"""The host's protocol code against the shared vectors (the firmware passes the same ones under MicroPython)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices import protocol as p

VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "protocol.json").read_text())


@pytest.mark.parametrize("vector", VECTORS["crc16"], ids=lambda v: v["data"][:12] or "empty")
def test_crc16(vector: dict) -> None:
    assert p.crc16(bytes.fromhex(vector["data"])) == vector["crc"]


@pytest.mark.parametrize("vector", VECTORS["cobs"], ids=lambda v: v["decoded"][:12] or "empty")
def test_cobs(vector: dict) -> None:
    assert p.cobs_encode(bytes.fromhex(vector["decoded"])).hex() == vector["encoded"]
    assert p.cobs_decode(bytes.fromhex(vector["encoded"])).hex() == vector["decoded"]


@pytest.mark.parametrize("vector", VECTORS["frames"], ids=lambda v: v["name"])
def test_frames_encode_and_decode(vector: dict) -> None:
    message = p.MESSAGES[vector["type"]](vector["seq"], *vector["values"])
    assert p.encode(message).hex() == vector["wire"]
    assert p.decode(bytes.fromhex(vector["wire"])[:-1]) == message


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["name"])
def test_invalid_frames_are_refused_with_the_reason(vector: dict) -> None:
    with pytest.raises(p.FrameError) as caught:
        p.decode(bytes.fromhex(vector["chunk"]))
    assert caught.value.kind == vector["error"]


def test_deframer_skips_garbage_and_truncated_frames_and_counts_them() -> None:
    wires = [bytes.fromhex(v["wire"]) for v in VECTORS["frames"]]
    stream = b"\x03\xffgarbage\x00" + wires[0] + wires[1][:5] + wires[2] + wires[3]
    deframer = p.Deframer()
    got = [m for i in range(0, len(stream), 7) for m in deframer.feed(stream[i : i + 7])]
    assert [m.seq for m in got] == [5, 1]
    assert deframer.errors == {"truncated": 1, "crc": 1}  # the cut frame glues onto the next: both lost


def test_an_endless_run_without_delimiter_is_dropped_once_then_the_next_frame_is_read() -> None:
    deframer = p.Deframer()
    for _ in range(10):
        assert deframer.feed(b"\x05" * 100) == []  # one run over many reads of the port
    wire = bytes.fromhex(VECTORS["frames"][0]["wire"])
    assert deframer.feed(b"\x05\x00" + wire) == [p.decode(wire[:-1])]
    assert deframer.errors == {"overlong": 1}


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


@given(st.binary(max_size=200))
def test_decoding_arbitrary_bytes_never_crashes(data: bytes) -> None:
    deframer = p.Deframer()
    for message in deframer.feed(data):
        assert isinstance(message, p.Message)
