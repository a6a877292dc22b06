"""The Pico wire protocol (``docs/protocol.md``): COBS frames with a CRC-16, encoded and decoded on the host.

The firmware has its own MicroPython implementation; both are checked against ``tests/vectors/protocol.json``.
The host side is also the emulator's encoder, so the simulated Pico speaks exactly what the host parses.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

PROTOCOL_VERSION = 1
MAX_BODY = 64
DELIMITER = b"\x00"


class FrameError(ValueError):
    """A frame that must be dropped; ``kind`` names why, for the health counters."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class Status(IntEnum):
    OK = 0
    BAD_ARGUMENT = 1
    UNKNOWN_COMMAND = 2


class FaultCode(IntEnum):
    CLEARED = 0
    NOT_READY = 1


FLAG_TILT = 0x01
FLAG_SPIKE = 0x02


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every frame; ``seq`` is the sender's frame counter."""

    TYPE: ClassVar[int] = 0
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("")
    seq: int

    def values(self) -> tuple[int, ...]:
        """The payload fields in wire order."""
        return tuple(getattr(self, name) for name in self.__slots__ if name != "seq")


@dataclass(frozen=True, slots=True)
class Sample(Message):
    TYPE: ClassVar[int] = 0x01
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BIiB")
    pad: int
    t_us: int
    raw: int
    flags: int = 0


@dataclass(frozen=True, slots=True)
class Tilt(Message):
    TYPE: ClassVar[int] = 0x02
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BIB")
    pad: int
    t_us: int
    level: int


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[int] = 0x03
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<IBHH")
    t_us: int
    faults: int
    dropped: int
    rx_errors: int


@dataclass(frozen=True, slots=True)
class Fault(Message):
    TYPE: ClassVar[int] = 0x04
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BIB")
    pad: int
    t_us: int
    code: int


@dataclass(frozen=True, slots=True)
class Info(Message):
    """Boot announcement and reply to INFO; the version string fills the rest of the payload."""

    TYPE: ClassVar[int] = 0x05
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BBB")
    proto: int
    pads: int
    rate: int
    version: str


@dataclass(frozen=True, slots=True)
class Pong(Message):
    TYPE: ClassVar[int] = 0x06
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<HI")
    ref: int
    token: int


@dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[int] = 0x07
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<HBB")
    ref: int
    cmd: int
    status: int


@dataclass(frozen=True, slots=True)
class Tare(Message):
    TYPE: ClassVar[int] = 0x08
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<HBBiI")
    ref: int
    pad: int
    n: int
    mean: int
    spread: int


@dataclass(frozen=True, slots=True)
class Ping(Message):
    TYPE: ClassVar[int] = 0x81
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<I")
    token: int


@dataclass(frozen=True, slots=True)
class InfoRequest(Message):
    TYPE: ClassVar[int] = 0x82


@dataclass(frozen=True, slots=True)
class SetRate(Message):
    TYPE: ClassVar[int] = 0x83
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<B")
    sps: int


@dataclass(frozen=True, slots=True)
class TareRaw(Message):
    TYPE: ClassVar[int] = 0x84
    LAYOUT: ClassVar[struct.Struct] = struct.Struct("<BB")
    pads: int
    n: int


@dataclass(frozen=True, slots=True)
class Reset(Message):
    TYPE: ClassVar[int] = 0x85


MESSAGES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Sample, Tilt, Heartbeat, Fault, Info, Pong, Ack, Tare, Ping, InfoRequest, SetRate, TareRaw, Reset)
}
_HEADER = struct.Struct("<BH")
_CRC = struct.Struct("<H")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE; ``binascii.crc_hqx`` is that polynomial in C, with the init value passed in."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no zero byte, so ``0x00`` can end a frame."""
    out = bytearray()
    for block in data.split(b"\x00"):
        start = 0
        while len(block) - start >= 0xFE:
            out.append(0xFF)
            out += block[start : start + 0xFE]
            start += 0xFE
        out.append(len(block) - start + 1)
        out += block[start:]
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; a code pointing past the end means the frame was cut short."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("cobs", "zero byte inside a frame")
        end = i + code
        if end > n:
            raise FrameError("truncated", f"block of {code - 1} bytes with {n - i - 1} left")
        out += data[i + 1 : end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode(message: Message) -> bytes:
    """The wire bytes of ``message``, delimiter included."""
    if isinstance(message, Info):
        payload = message.LAYOUT.pack(message.proto, message.pads, message.rate) + message.version.encode("ascii")
    else:
        payload = message.LAYOUT.pack(*message.values())
    body = _HEADER.pack(message.TYPE, message.seq & 0xFFFF) + payload
    body += _CRC.pack(crc16(body))
    if len(body) > MAX_BODY:
        raise ValueError(f"frame body of {len(body)} bytes exceeds {MAX_BODY}")
    return cobs_encode(body) + DELIMITER


def decode(chunk: bytes) -> Message:
    """Parse one frame (the bytes between two delimiters), or raise :class:`FrameError` saying why not."""
    if not chunk:
        raise FrameError("empty", "two delimiters in a row")
    body = cobs_decode(chunk)
    if len(body) < _HEADER.size + _CRC.size:
        raise FrameError("short", f"{len(body)} bytes")
    if crc16(body[:-2]) != _CRC.unpack_from(body, len(body) - 2)[0]:
        raise FrameError("crc", "checksum mismatch")
    kind, seq = _HEADER.unpack_from(body)
    cls = MESSAGES.get(kind)
    if cls is None:
        raise FrameError("unknown", f"frame type 0x{kind:02x}")
    payload = body[_HEADER.size : -2]
    layout = cls.LAYOUT
    if cls is Info:
        if len(payload) < layout.size:
            raise FrameError("length", f"INFO payload of {len(payload)} bytes")
        version = payload[layout.size :].decode("ascii", errors="replace")
        return Info(seq, *layout.unpack_from(payload), version)
    if len(payload) != layout.size:
        raise FrameError("length", f"{cls.__name__} payload of {len(payload)} bytes, expected {layout.size}")
    return cls(seq, *layout.unpack(payload))


class Deframer:
    """Split a byte stream into frames; keeps the partial tail between reads and counts what it drops."""

    def __init__(self) -> None:
        self._tail = b""
        self._skipping = False  # dropping an overlong run up to its delimiter
        self.errors: dict[str, int] = {}

    def feed(self, data: bytes) -> list[Message]:
        """Every whole, valid frame completed by ``data``; bad ones are counted in :attr:`errors` (an overlong
        run once, however many reads it spans)."""
        if self._skipping:
            end = data.find(DELIMITER)
            if end < 0:
                return []
            data, self._skipping = data[end + 1 :], False
        parts = (self._tail + data).split(DELIMITER)
        self._tail = parts.pop()
        if len(self._tail) > 2 * MAX_BODY:
            self._count("overlong")
            self._tail = b""
            self._skipping = True
        messages = []
        for chunk in parts:
            if not chunk:
                continue
            try:
                messages.append(decode(chunk))
            except FrameError as exc:
                self._count(exc.kind)
        return messages

    def reset(self) -> None:
        """Forget a partial frame, e.g. after the port was reopened."""
        self._tail = b""
        self._skipping = False

    def _count(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
