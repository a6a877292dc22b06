# Runs under the unix micropython (tests/firmware/test_micropython.py): the firmware's protocol, filters and
# main loop against the shared vectors and a scripted board. Prints "ok <check>" or "FAIL <check>: why".
import json
import sys

import app
import filters
import protocol as p
from fakeboard import FakeBoard

with open(sys.argv[1]) as f:
    VECTORS = json.load(f)
failures = []


def check(name):
    def run(fn):
        try:
            fn()
            print("ok", name)
        except Exception as exc:  # report every failing check, not just the first
            failures.append(name)
            print("FAIL", name + ":", repr(exc))
    return run


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def unhex(s):
    return bytes.fromhex(s)


def frames_of(board):
    out = []
    for wire in board.out:
        expect(wire[-1] == 0 and 0 not in wire[:-1], "one delimiter, at the end")
        out.append(p.parse(wire[:-1]))
    board.out = []
    return out


def of_kind(frames, kind):
    return [f for f in frames if f[0] == kind]


@check("crc16")
def _():
    for v in VECTORS["crc16"]:
        expect(p.crc16(unhex(v["data"])) == v["crc"], v)


@check("cobs")
def _():
    for v in VECTORS["cobs"]:
        expect(p.cobs_encode(unhex(v["decoded"])) == unhex(v["encoded"]), ("encode", v["decoded"]))
        expect(p.cobs_decode(unhex(v["encoded"])) == unhex(v["decoded"]), ("decode", v["encoded"]))


@check("frames")
def _():
    for v in VECTORS["frames"]:
        values = v["values"]
        if v["type"] == p.INFO:
            wire = p.info(v["seq"], values[1], values[2], values[3])
        else:
            wire = p.pack(v["type"], v["seq"], *values)
        expect(wire == unhex(v["wire"]), ("encode", v["name"]))
        kind, seq, parsed = p.parse(wire[:-1])
        expect((kind, seq, list(parsed)) == (v["type"], v["seq"], values), ("parse", v["name"], parsed))


@check("invalid frames")
def _():
    for v in VECTORS["invalid"]:
        try:
            p.parse(unhex(v["chunk"]))
        except ValueError as exc:
            expect(exc.args[0] == v["error"], (v["name"], exc.args))
        else:
            raise AssertionError(v["name"] + " was accepted")


@check("deframer resyncs after garbage")
def _():
    d = p.Deframer()
    wires = [unhex(v["wire"]) for v in VECTORS["frames"]]
    stream = b"\x03\xff\x12garbage\x00" + wires[0] + wires[1][:5] + wires[2] + wires[3]
    got = d.feed(stream[:7]) + d.feed(stream[7:])
    expect([f[1] for f in got] == [5, 1], got)  # wires[1] truncated glues onto wires[2]: both lost
    expect(d.errors == 2, d.errors)


@check("signed24")
def _():
    for word, value in VECTORS["signed24"]:
        expect(filters.signed24(word) == value, word)
        expect(filters.signed24(word | 0x3F000000) == value, "ignores bits above 24")


@check("glitch values are the host's")
def _():
    expect(sorted(filters.SPIKES) == sorted(VECTORS["glitch_values"]["values"]), filters.SPIKES)


@check("median3")
def _():
    v = VECTORS["median3"]
    m = filters.Median3()
    got = [m.push(x) for x in v["input"]]
    expect([g[0] for g in got] == v["output"], got)
    expect([int(g[1]) for g in got] == v["spike"], got)


@check("clock survives the ticks wrap")
def _():
    board = FakeBoard(start_ticks=(1 << 30) - 300)
    clock = filters.Clock(board.ticks(), board.ticks_diff)
    times = []
    for _ in range(5):
        board.advance(200)
        times.append(clock.advance(board.ticks()))
    expect(times == [200, 400, 600, 800, 1000], times)
    expect(filters.diff32(5, 0xFFFFFFF0) == 21, "diff32 across the 32-bit wrap")


def booted(**kw):
    board = FakeBoard(**kw)
    fw = app.Firmware(board)
    fw.send_info()
    fw.step()
    return board, fw


@check("boot sends INFO then a heartbeat")
def _():
    board, _ = booted()
    frames = frames_of(board)
    expect(frames[0] == (p.INFO, 0, (1, 6, 80, app.VERSION)), frames[0])
    expect(frames[1] == (p.HEARTBEAT, 1, (0, 0, 0, 0)), frames[1])
    expect(board.rate == 80 and board.fed == 1, "rate pin and watchdog")


@check("samples are median filtered, timestamped and sequenced")
def _():
    board, fw = booted()
    frames_of(board)
    words = [1000, 1002, 0x7FFFFF, 1001, 0xFFFFFF, 1003]
    for w in words:
        board.advance(12_500)
        board.conversion(2, w)
        fw.step()
    samples = of_kind(frames_of(board), p.SAMPLE)
    expect([s[2][2] for s in samples] == [1000, 1000, 1002, 1002, 1001, 1001], samples)
    expect([s[2][3] for s in samples] == [0, 0, p.FLAG_SPIKE, 0, p.FLAG_SPIKE, 0], "spike flags")
    expect([s[2][1] for s in samples] == [12_500 * (i + 1) for i in range(6)], "timestamps")
    expect([s[2][0] for s in samples] == [2] * 6, "pad")
    seqs = [s[1] for s in samples]
    expect(seqs == list(range(seqs[0], seqs[0] + 6)), seqs)


@check("readings that waited in the FIFO keep their spacing")
def _():
    board, fw = booted(pads=1)
    frames_of(board)
    board.advance(100_000)
    for w in (10, 11, 12):
        board.conversion(0, w)
    fw.step()
    times = [s[2][1] for s in of_kind(frames_of(board), p.SAMPLE)]
    expect(times == [75_000, 87_500, 100_000], times)


@check("a silent HX711 becomes a fault and recovers")
def _():
    board, fw = booted(pads=2)
    frames_of(board)
    t = 0
    for _ in range(45):  # pad 0 keeps sampling, pad 1 stopped
        board.advance(12_500)
        t += 12_500
        board.conversion(0, 5)
        fw.step()
    frames = frames_of(board)
    faults = of_kind(frames, p.FAULT)
    expect(len(faults) == 1 and faults[0][2][0] == 1 and faults[0][2][2] == 1, faults)
    expect(100_000 < faults[0][2][1] <= 125_000, faults[0][2][1])
    beats = of_kind(frames, p.HEARTBEAT)
    expect(beats and beats[-1][2][1] == 0b10, beats)
    expect(not [s for s in of_kind(frames, p.SAMPLE) if s[2][0] == 1], "no invented readings")
    board.advance(12_500)
    board.conversion(1, 7)
    fw.step()
    frames = frames_of(board)
    expect(of_kind(frames, p.FAULT)[0][2][2] == 0, "cleared")
    expect(fw.faults() == 0, "mask clear")


@check("tilt edges are debounced and keep the first edge time")
def _():
    board, fw = booted(pads=1)
    frames_of(board)
    board.advance(1000)
    for level in (1, 0, 1, 0, 1):  # a bouncing switch
        board.tilt_edge(0, level)
        board.advance(300)
        fw.step()
    for _ in range(10):
        board.advance(1000)
        fw.step()
    tilts = of_kind(frames_of(board), p.TILT)
    expect(len(tilts) == 1 and tilts[0][2] == (0, 1000, 1), tilts)
    board.tilt_edge(0, 0)
    board.advance(1000)
    fw.step()
    board.tilt_edge(0, 1)  # back before the hold time: no change reported
    for _ in range(10):
        board.advance(1000)
        fw.step()
    expect(not of_kind(frames_of(board), p.TILT), "a blip shorter than the hold is ignored")


def command(board, kind, seq, *values):
    board.inp += p.pack(kind, seq, *values)


@check("host commands")
def _():
    board, fw = booted(pads=2)
    frames_of(board)
    command(board, p.PING, 40, 0xCAFE)
    board.inp += b"\x03\x03noise\x00"  # Ctrl-C bytes and garbage: counted, harmless
    command(board, p.INFO_REQ, 41)
    command(board, p.RATE, 42, 10)
    command(board, p.RATE, 43, 33)
    command(board, p.SAMPLE, 44, 0, 0, 0, 0)
    fw.step()
    frames = frames_of(board)
    expect(of_kind(frames, p.PONG)[0][2] == (40, 0xCAFE), "pong")
    expect(of_kind(frames, p.INFO)[0][2][2] == 80, "info")
    acks = [f[2] for f in of_kind(frames, p.ACK)]
    expect(acks == [(42, p.RATE, 0), (43, p.RATE, 1), (44, p.SAMPLE, 2)], acks)
    expect(board.rate == 10 and fw.rate == 10, "rate applied")
    expect(fw.watch[0].timeout_us == 800_000, "the not-ready timeout follows the rate")
    expect(fw.deframer.errors == 1, fw.deframer.errors)


@check("tare-raw averages the next n readings")
def _():
    board, fw = booted(pads=2)
    command(board, p.TARE_RAW, 50, 0b11, 4)
    fw.step()
    for i in range(4):
        board.advance(12_500)
        board.conversion(0, 100 + i)
        board.conversion(1, 200)
        fw.step()
    frames = frames_of(board)
    tares = [f[2] for f in of_kind(frames, p.TARE)]
    expect(sorted(tares) == [(50, 0, 4, 101, 2), (50, 1, 4, 200, 0)], tares)
    expect(of_kind(frames, p.ACK)[-1][2] == (50, p.TARE_RAW, 0), "ack after the last pad")
    command(board, p.TARE_RAW, 51, 0b100, 4)  # pad 2 does not exist
    fw.step()
    expect(of_kind(frames_of(board), p.ACK)[0][2] == (51, p.TARE_RAW, 1), "bad pad refused")


@check("reset acknowledges first")
def _():
    board, fw = booted(pads=1)
    frames_of(board)
    command(board, p.RESET, 60)
    fw.step()
    expect(of_kind(frames_of(board), p.ACK)[0][2] == (60, p.RESET, 0) and board.resets == 1, "reset")


@check("the status LED blinks slowly when well and fast on a fault")
def _():
    board, fw = booted(pads=1)
    for _ in range(200):  # 1 s with readings: toggles every 500 ms
        board.advance(5_000)
        if board.now % 12_500 == 0:
            board.conversion(0, 1)
        fw.step()
    well = len(board.led_state)
    for _ in range(200):  # 1 s without readings: a fault, toggles every 100 ms
        board.advance(5_000)
        fw.step()
    expect(well == 3 and len(board.led_state) - well >= 5, (well, len(board.led_state)))
    expect(board.fed == 401, "the watchdog is fed every loop")


@check("frames the USB port refused are counted")
def _():
    board, fw = booted(pads=1)
    frames_of(board)
    board.accept = False
    for _ in range(3):
        board.advance(12_500)
        board.conversion(0, 1)
        fw.step()
    board.accept = True
    board.advance(500_000)
    fw.step()
    beat = of_kind(frames_of(board), p.HEARTBEAT)[0]
    expect(beat[2][2] == 3, beat)


print("done", len(failures))
sys.exit(1 if failures else 0)
