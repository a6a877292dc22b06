# The thin hardware layer: everything that touches machine, rp2 or the USB port lives here, so app.py runs
# unchanged under the unix micropython with a fake board (tests/firmware).
import select
import sys
import time

import machine
import rp2
from machine import WDT, Pin

import pins
from hx711_pio import SM_FREQ, hx711

WATCHDOG_MS = 2000
MAX_TILT_EDGES = 32


class Board:
    pads = len(pins.PADS)

    def __init__(self, gain_pulses=25):
        self.sms = []
        self.tilts = []
        self.edges = []  # (pad, level, ticks) appended by the tilt IRQ, drained by the main loop
        for i, (dout, sck, tilt) in enumerate(pins.PADS):
            # Pull-up: an unplugged DOUT reads high, i.e. "not ready", never as data.
            sm = rp2.StateMachine(i, hx711, freq=SM_FREQ, in_base=Pin(dout, Pin.IN, Pin.PULL_UP),
                                  sideset_base=Pin(sck, Pin.OUT, value=0))
            sm.put(gain_pulses - 25)
            sm.active(1)
            self.sms.append(sm)
            pin = Pin(tilt, Pin.IN, Pin.PULL_DOWN)
            pin.irq(self._edge_handler(i), Pin.IRQ_RISING | Pin.IRQ_FALLING)
            self.tilts.append(pin)
        self.rate_pin = Pin(pins.HX711_RATE, Pin.OUT, value=1)
        self.led_pin = Pin(pins.STATUS_LED, Pin.OUT, value=0)
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.out = sys.stdout.buffer
        self.inp = sys.stdin.buffer
        self.wdt = WDT(timeout=WATCHDOG_MS)

    def _edge_handler(self, pad):
        def handler(pin):
            if len(self.edges) < MAX_TILT_EDGES:
                self.edges.append((pad, 1 if pin.value() == pins.TILT_ACTIVE else 0, time.ticks_us()))
        return handler

    def ticks(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def readings(self, pad):
        """Raw 24-bit words waiting in the pad's RX FIFO, each with the ticks at which it was taken."""
        sm = self.sms[pad]
        out = []
        while sm.rx_fifo():
            out.append((sm.get(), time.ticks_us()))
        return out

    def tilt(self, pad):
        return 1 if self.tilts[pad].value() == pins.TILT_ACTIVE else 0

    def tilt_edges(self):
        state = machine.disable_irq()
        edges, self.edges = self.edges, []
        machine.enable_irq(state)
        return edges

    def read_input(self):
        data = b""
        while self.poll.poll(0):
            data += self.inp.read(1)
        return data

    def write(self, data):
        """False when the USB buffer did not take the whole frame (counted as dropped)."""
        try:
            return self.out.write(data) == len(data)
        except OSError:
            return False

    def set_rate(self, sps):
        self.rate_pin.value(1 if sps == 80 else 0)

    def led(self, on):
        self.led_pin.value(1 if on else 0)

    def feed(self):
        self.wdt.feed()

    def idle(self):
        time.sleep_ms(1)

    def reset(self):
        time.sleep_ms(20)  # let the ACK leave
        machine.reset()
