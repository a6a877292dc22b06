# A scripted stand-in for firmware/hw.Board, in MicroPython-compatible Python (runs under the unix micropython).
TICKS_PERIOD = 1 << 30  # the Pico's ticks_us wraps here


def ticks_diff(a, b):
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


class FakeBoard:
    def __init__(self, pads=6, start_ticks=0):
        self.pads = pads
        self.now = start_ticks
        self.queued = [[] for _ in range(pads)]  # (word, ticks) waiting in each PIO FIFO
        self.levels = [0] * pads
        self.edges = []
        self.inp = b""
        self.out = []  # every frame written
        self.accept = True
        self.rate = None
        self.led_state = []
        self.fed = 0
        self.resets = 0

    # --- scripting
    def advance(self, us):
        self.now = (self.now + us) % TICKS_PERIOD

    def conversion(self, pad, word):
        self.queued[pad].append((word, self.now))

    def tilt_edge(self, pad, level):
        self.levels[pad] = level
        self.edges.append((pad, level, self.now))

    # --- the hw.Board interface
    def ticks(self):
        return self.now

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def readings(self, pad):
        out, self.queued[pad] = self.queued[pad], []
        return out

    def tilt(self, pad):
        return self.levels[pad]

    def tilt_edges(self):
        out, self.edges = self.edges, []
        return out

    def read_input(self):
        data, self.inp = self.inp, b""
        return data

    def write(self, data):
        if self.accept:
            self.out.append(data)
        return self.accept

    def set_rate(self, sps):
        self.rate = sps

    def led(self, on):
        self.led_state.append(on)

    def feed(self):
        self.fed += 1

    def idle(self):
        pass

    def reset(self):
        self.resets += 1
