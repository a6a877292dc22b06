# Sample filtering and timing logic, free of hardware so it runs under the unix micropython in tests.
# Times are the protocol's 32-bit microsecond counter (Clock); diff32 keeps comparisons right across its wrap.
# Raw values that carry no weight: saturation / glitch (0x7FFFFF, 0x800000) and all ones (-1). The host skips the
# same list (companion/devices/pile.py GLITCHES); both are checked against tests/vectors/protocol.json.
SPIKES = (0x7FFFFF, -0x800000, -1)
WRAP = 0x100000000


def diff32(a, b):
    """a - b for 32-bit wrapping times, as a signed number."""
    return ((a - b + 0x80000000) & 0xFFFFFFFF) - 0x80000000


class Clock:
    """A 32-bit microsecond time from ticks_us, which wraps at 2**30 on the Pico: advanced every loop."""

    def __init__(self, ticks, diff):
        self.ticks = ticks
        self.diff = diff  # time.ticks_diff on the board
        self.us = 0

    def advance(self, ticks):
        self.us = (self.us + self.diff(ticks, self.ticks)) % WRAP
        self.ticks = ticks
        return self.us

    def at(self, ticks):
        """The 32-bit time of a ticks value near the last advance (e.g. stamped in an IRQ)."""
        return (self.us + self.diff(ticks, self.ticks)) % WRAP


def signed24(word):
    """The HX711's 24-bit two's complement reading, sign-extended."""
    word &= 0xFFFFFF
    return word - 0x1000000 if word & 0x800000 else word


class Median3:
    """Median of the last three readings: removes the HX711's isolated SPIKES (glitch values)."""

    def __init__(self):
        self.a = self.b = None

    def push(self, x):
        """(filtered value, True if a known spike value was replaced)."""
        a = x if self.a is None else self.a
        b = x if self.b is None else self.b
        self.a, self.b = b, x
        m = max(min(a, b), min(max(a, b), x))
        return m, (x in SPIKES and m != x)


class Debouncer:
    """Settles a bouncing input: a burst of edges counts once it has been quiet for `hold_us`, and only if it
    left the input at a new level; the change is reported with the time of the burst's first edge."""

    def __init__(self, hold_us, level=0):
        self.hold_us = hold_us
        self.level = level
        self.first = None  # time of the burst's first edge
        self.last = None

    def edge(self, level, t):
        """Record a raw edge (drained from the IRQ handler's list)."""
        if self.first is None:
            if level == self.level:
                return
            self.first = t
        self.last = t

    def poll(self, now, current):
        """(level, first edge time) once a burst has settled on a new level, else None."""
        if self.first is None or diff32(now, self.last) < self.hold_us:
            return None
        first, self.first = self.first, None
        if current == self.level:
            return None
        self.level = current
        return current, first


class ReadyWatch:
    """Flags an HX711 that has produced no reading for `timeout_us`; clears on the next reading."""

    def __init__(self, timeout_us, now):
        self.timeout_us = timeout_us
        self.last = now
        self.fault = False

    def reading(self, t):
        """Returns True when this reading ends a fault."""
        self.last = t
        if self.fault:
            self.fault = False
            return True
        return False

    def check(self, now):
        """Returns True when the fault starts."""
        if not self.fault and diff32(now, self.last) > self.timeout_us:
            self.fault = True
            return True
        return False


class TareJob:
    """Collects `n` filtered readings of one pad for a TARE_RAW command."""

    def __init__(self, ref, pad, n):
        self.ref = ref
        self.pad = pad
        self.n = n
        self.total = 0
        self.count = 0
        self.lo = None
        self.hi = None

    def add(self, value):
        """Returns (mean, spread) once `n` readings are in, else None."""
        self.total += value
        self.count += 1
        self.lo = value if self.lo is None else min(self.lo, value)
        self.hi = value if self.hi is None else max(self.hi, value)
        if self.count < self.n:
            return None
        return (self.total + self.n // 2) // self.n, self.hi - self.lo
