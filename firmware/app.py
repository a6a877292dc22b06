# The firmware's logic: sampling, faults, tilt debounce, heartbeat and host commands, over any board with the
# interface of hw.Board. tests/firmware runs it under the unix micropython with a scripted fake board.
import protocol as p
from filters import Clock, Debouncer, Median3, ReadyWatch, TareJob, diff32, signed24

VERSION = "0.1.0"
HEARTBEAT_US = 500_000
MISSED_READINGS = 8  # an HX711 this many sample periods late is not ready: 100 ms at 80 SPS, 800 ms at 10
TILT_HOLD_US = 5_000
BLINK_OK_US = 500_000
BLINK_FAULT_US = 100_000


class Firmware:
    def __init__(self, board, rate=80):
        self.board = board
        self.rate = rate
        self.clock = Clock(board.ticks(), board.ticks_diff)
        now = self.clock.us
        self.seq = 0
        self.dropped = 0
        self.deframer = p.Deframer()
        self.medians = [Median3() for _ in range(board.pads)]
        self.watch = [ReadyWatch(self.not_ready_us(), now) for _ in range(board.pads)]
        self.debounce = [Debouncer(TILT_HOLD_US, board.tilt(i)) for i in range(board.pads)]
        self.tares = []
        self.next_beat = now
        self.next_blink = now
        self.led_on = False
        board.set_rate(rate)

    def not_ready_us(self):
        return MISSED_READINGS * 1_000_000 // self.rate

    def send(self, kind, *values):
        if not self.board.write(p.pack(kind, self.seq, *values)):
            self.dropped += 1
        self.seq = (self.seq + 1) & 0xFFFF

    def send_info(self):
        if not self.board.write(p.info(self.seq, self.board.pads, self.rate, VERSION)):
            self.dropped += 1
        self.seq = (self.seq + 1) & 0xFFFF

    def faults(self):
        mask = 0
        for i, w in enumerate(self.watch):
            if w.fault:
                mask |= 1 << i
        return mask

    def step(self):
        board = self.board
        now = self.clock.advance(board.ticks())
        for kind, seq, values in self.deframer.feed(board.read_input()):
            self.command(kind, seq, values)
        for pad in range(board.pads):
            self.sample_pad(pad, now)
        for pad, level, ticks in board.tilt_edges():
            self.debounce[pad].edge(level, self.clock.at(ticks))
        for pad, deb in enumerate(self.debounce):
            change = deb.poll(now, board.tilt(pad))
            if change:
                self.send(p.TILT, pad, change[1], change[0])
        if diff32(now, self.next_beat) >= 0:
            self.next_beat = (now + HEARTBEAT_US) & 0xFFFFFFFF
            self.send(p.HEARTBEAT, now, self.faults(), self.dropped & 0xFFFF, self.deframer.errors & 0xFFFF)
        if diff32(now, self.next_blink) >= 0:
            self.led_on = not self.led_on
            board.led(self.led_on)
            period = BLINK_FAULT_US if self.faults() else BLINK_OK_US
            self.next_blink = (now + period) & 0xFFFFFFFF
        board.feed()

    def sample_pad(self, pad, now):
        watch = self.watch[pad]
        readings = self.board.readings(pad)
        late = len(readings) - 1
        for word, ticks in readings:
            # Words that waited in the FIFO (the loop was slow) were converted one sample period apart.
            t = (self.clock.at(ticks) - late * 1_000_000 // self.rate) & 0xFFFFFFFF
            late -= 1
            if watch.reading(t):
                self.send(p.FAULT, pad, t, 0)
            value, spike = self.medians[pad].push(signed24(word))
            flags = (p.FLAG_TILT if self.debounce[pad].level else 0) | (p.FLAG_SPIKE if spike else 0)
            self.send(p.SAMPLE, pad, t, value, flags)
            self.tare(pad, value)
        if watch.check(now):
            self.send(p.FAULT, pad, now, 1)

    def tare(self, pad, value):
        for job in self.tares:
            if job.pad == pad:
                result = job.add(value)
                if result:
                    self.send(p.TARE, job.ref, pad, job.n, result[0], result[1])
                    self.tares.remove(job)
                    if not self.tares:
                        self.send(p.ACK, job.ref, p.TARE_RAW, p.ST_OK)
                return

    def command(self, kind, seq, values):
        if kind == p.PING:
            self.send(p.PONG, seq, values[0])
        elif kind == p.INFO_REQ:
            self.send_info()
        elif kind == p.RATE:
            ok = values[0] in (10, 80)
            if ok:
                self.rate = values[0]
                self.board.set_rate(self.rate)
                for watch in self.watch:
                    watch.timeout_us = self.not_ready_us()
            self.send(p.ACK, seq, kind, p.ST_OK if ok else p.ST_BAD_ARGUMENT)
        elif kind == p.TARE_RAW:
            mask, n = values
            if n < 1 or mask == 0 or mask >> self.board.pads or self.tares:
                self.send(p.ACK, seq, kind, p.ST_BAD_ARGUMENT)
                return
            self.tares = [TareJob(seq, pad, n) for pad in range(self.board.pads) if mask >> pad & 1]
        elif kind == p.RESET:
            self.send(p.ACK, seq, kind, p.ST_OK)
            self.board.reset()
        else:
            self.send(p.ACK, seq, kind, p.ST_UNKNOWN_COMMAND)


def run(board):
    fw = Firmware(board)
    fw.send_info()
    while True:
        fw.step()
        board.idle()
