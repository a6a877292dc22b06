# Wire protocol, Pico side (docs/protocol.md). Pure logic: runs on the Pico and under the unix micropython,
# where tests/firmware checks it against tests/vectors/protocol.json, the same vectors the host uses.
import struct

PROTOCOL_VERSION = 1
MAX_BODY = 64

SAMPLE = 0x01
TILT = 0x02
HEARTBEAT = 0x03
FAULT = 0x04
INFO = 0x05
PONG = 0x06
ACK = 0x07
TARE = 0x08
PING = 0x81
INFO_REQ = 0x82
RATE = 0x83
TARE_RAW = 0x84
RESET = 0x85

# Payload layouts of the frames the Pico sends, and of the commands it accepts.
LAYOUTS = {
    SAMPLE: "<BIiB",
    TILT: "<BIB",
    HEARTBEAT: "<IBHH",
    FAULT: "<BIB",
    INFO: "<BBB",
    PONG: "<HI",
    ACK: "<HBB",
    TARE: "<HBBiI",
    PING: "<I",
    INFO_REQ: "<",
    RATE: "<B",
    TARE_RAW: "<BB",
    RESET: "<",
}

ST_OK = 0
ST_BAD_ARGUMENT = 1
ST_UNKNOWN_COMMAND = 2

FLAG_TILT = 0x01
FLAG_SPIKE = 0x02


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF."""
    crc = 0xFFFF
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


def cobs_encode(data):
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b:
            out.append(b)
            code += 1
        if not b or code == 0xFF:
            out[code_at] = code
            code = 1
            code_at = len(out)
            out.append(0)
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("cobs")
        end = i + code
        if end > n:
            raise ValueError("truncated")
        out.extend(data[i + 1:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(kind, seq, payload):
    """Wire bytes: COBS(type seq payload crc) 0x00."""
    body = bytearray(struct.pack("<BH", kind, seq & 0xFFFF))
    body.extend(payload)
    body.extend(struct.pack("<H", crc16(body)))
    return cobs_encode(body) + b"\x00"


def pack(kind, seq, *values):
    return frame(kind, seq, struct.pack(LAYOUTS[kind], *values))


def info(seq, pads, rate, version):
    return frame(INFO, seq, struct.pack("<BBB", PROTOCOL_VERSION, pads, rate) + version.encode())


def parse(chunk):
    """(type, seq, values) of one frame between delimiters; ValueError(kind) if it must be dropped."""
    body = cobs_decode(chunk)
    if len(body) < 5:
        raise ValueError("short")
    if crc16(body[:-2]) != struct.unpack("<H", body[-2:])[0]:
        raise ValueError("crc")
    kind, seq = struct.unpack("<BH", body[:3])
    layout = LAYOUTS.get(kind)
    if layout is None:
        raise ValueError("unknown")
    payload = body[3:-2]
    if kind == INFO:
        size = struct.calcsize(layout)
        if len(payload) < size:
            raise ValueError("length")
        return kind, seq, struct.unpack(layout, payload[:size]) + (payload[size:].decode(),)
    if len(payload) != struct.calcsize(layout):
        raise ValueError("length")
    return kind, seq, struct.unpack(layout, payload)


class Deframer:
    """Collects bytes until a 0x00 and yields parsed frames; counts the ones it drops."""

    def __init__(self):
        self.buf = bytearray()
        self.errors = 0

    def feed(self, data):
        frames = []
        for b in data:
            if b:
                if len(self.buf) > 2 * MAX_BODY:
                    self.buf = bytearray()
                    self.errors += 1
                self.buf.append(b)
                continue
            if self.buf:
                try:
                    frames.append(parse(bytes(self.buf)))
                except ValueError:
                    self.errors += 1
                self.buf = bytearray()
        return frames
