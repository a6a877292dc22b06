"""The HX711 PIO program's opcodes, run in rp2040-pio-emulator against a model of the HX711.

The firmware writes the program in MicroPython's ``rp2.asm_pio`` DSL; a stand-in ``rp2`` module turns that DSL
into pioasm text, which ``adafruit_pioasm`` assembles. So the opcodes tested are the ones the Pico runs.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import adafruit_pioasm
import pytest
from pioemu import State, emulate

from tests.firmware.support import FIRMWARE

DOUT, SCK = 0, 1  # GPIO numbers in the emulator: IN pins count from GPIO0
CONVERSION_CYCLES = 300  # shortened 80 SPS conversion (12,500 us) to keep the emulation fast


class _Emitter:
    """Records the DSL calls of one ``@asm_pio`` function as pioasm lines."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, text: str) -> _Emitter:
        self.lines.append(text)
        return self

    def side(self, value: int) -> _Emitter:
        self.lines[-1] += f" side {value}"
        return self

    def __getitem__(self, delay: int) -> _Emitter:
        self.lines[-1] += f" [{delay}]"
        return self

    def dsl(self) -> dict[str, Any]:
        def op(name: str) -> Callable[..., _Emitter]:
            return lambda *args: self.line(f"{name} {', '.join(str(a) for a in args)}".strip())

        names = {"block": "block", "x": "x", "y": "y", "osr": "osr", "pins": "pins", "x_dec": "x--", "y_dec": "y--"}
        return {
            **names,
            "pin": "pin",
            "nop": op("nop"),
            "pull": op("pull"),
            "push": op("push"),
            "mov": op("mov"),
            "set": op("set"),
            "in_": op("in"),
            "jmp": op("jmp"),
            "wait": lambda *args: self.line("wait " + " ".join(str(a) for a in args)),
            "label": lambda name: self.line(f"{name}:"),
            "wrap_target": lambda: self.line(".wrap_target"),
            "wrap": lambda: self.line(".wrap"),
        }


@dataclass
class AssembledProgram:
    text: str
    options: dict[str, Any]


def _fake_rp2() -> types.ModuleType:
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, OUT_HIGH=1, SHIFT_LEFT=0, SHIFT_RIGHT=1)

    def asm_pio(**options: Any) -> Callable[[Callable[[], None]], AssembledProgram]:
        def decorate(fn: Callable[[], None]) -> AssembledProgram:
            emitter = _Emitter()
            types.FunctionType(fn.__code__, emitter.dsl())()
            sideset = options.get("sideset_init")
            count = len(sideset) if isinstance(sideset, tuple) else int(sideset is not None)
            header = [f".program {fn.__name__}", f".side_set {count}"] if count else [f".program {fn.__name__}"]
            return AssembledProgram("\n".join(header + emitter.lines), options)

        return decorate

    rp2.asm_pio = asm_pio
    return rp2


@pytest.fixture(scope="module")
def program() -> tuple[AssembledProgram, adafruit_pioasm.Program]:
    saved = sys.modules.get("rp2")
    sys.modules["rp2"] = _fake_rp2()
    try:
        spec = importlib.util.spec_from_file_location("hx711_pio", FIRMWARE / "hx711_pio.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = saved
    assert module.SM_FREQ == 1_000_000  # so one emulated cycle is one microsecond
    return module.hx711, adafruit_pioasm.Program(module.hx711.text)


def _signed24(word: int) -> int:
    spec = importlib.util.spec_from_file_location("fw_filters", FIRMWARE / "filters.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.signed24(word)


@dataclass
class HX711:
    """Datasheet behaviour: DOUT low = ready; each SCK rising edge shifts out the next bit, MSB first; pulses
    25-27 pick the next gain and force DOUT high; SCK held high over 60 us powers the chip down."""

    words: list[int]
    dout: int = 1
    ready_at: int = CONVERSION_CYCLES
    sck: int = 0
    rise_at: int = 0
    pulses: int = 0
    reading: bool = False
    pulses_per_read: list[int] = field(default_factory=list)
    high_times: list[int] = field(default_factory=list)
    powered_down: bool = False

    def pins(self, state: State) -> int:
        sck = (state.pin_values >> SCK) & 1
        now = state.clock
        if sck and not self.sck:
            self.rise_at = now
            self.pulses += 1
            if self.reading and self.pulses <= 24:
                self.dout = (self.words[0] >> (24 - self.pulses)) & 1
            else:
                self.dout = 1
        elif not sck and self.sck:
            self.high_times.append(now - self.rise_at)
        elif sck and now - self.rise_at > 60:
            self.powered_down = True
        self.sck = sck
        if self.reading and self.pulses >= 25 and not sck and now - self.rise_at > 40:
            self.pulses_per_read.append(self.pulses)
            self.words.pop(0)
            self.reading, self.pulses = False, 0
            self.ready_at = now + CONVERSION_CYCLES
        if not self.reading and self.words and now >= self.ready_at and not sck:
            self.reading, self.pulses, self.dout = True, 0, 0
        return self.dout << DOUT


HX711.pins.__annotations__["state"] = State  # pioemu picks the callback's argument by its (unstringified) type


def run(program: tuple[AssembledProgram, adafruit_pioasm.Program], chip: HX711, extra: int, reads: int,
        max_cycles: int = 20_000) -> list[int]:
    """Emulate until `reads` words are in the RX FIFO (or `max_cycles` pass); returns the FIFO."""
    _, assembled = program
    kwargs = assembled.pio_kwargs
    start = State(pin_directions=1 << SCK, transmit_fifo=deque([extra]))
    final = start
    for _before, after in emulate(
        list(assembled.assembled),
        stop_when=lambda _op, s: len(s.receive_fifo) >= reads or s.clock > max_cycles,
        initial_state=start,
        input_source=chip.pins,
        shift_isr_right=False,
        side_set_base=SCK,
        side_set_count=kwargs["sideset_pin_count"],
        wrap_target=kwargs["wrap_target"],
        wrap_top=kwargs["wrap"],
    ):
        final = after
    return list(final.receive_fifo)


WORDS = [0x7FFFFF, 0x800000, 0xFFFFFF, 0x123456]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("extra", [0, 1, 2], ids=["25 pulses", "26 pulses", "27 pulses"])
def test_reads_24_bit_twos_complement_with_the_chosen_gain_pulses(program, extra: int) -> None:
    chip = HX711(words=list(WORDS))
    fifo = run(program, chip, extra, reads=len(WORDS))
    assert [_signed24(w) for w in fifo] == [8_388_607, -8_388_608, -1, 0x123456]
    assert all(w <= 0xFFFFFF for w in fifo)
    assert chip.pulses_per_read[:3] == [25 + extra] * 3


@pytest.mark.timeout(60)
def test_sck_is_never_high_for_60_us(program) -> None:
    chip = HX711(words=list(WORDS))
    run(program, chip, extra=2, reads=len(WORDS))
    assert len(chip.high_times) >= 3 * 27
    assert max(chip.high_times) < 60 and min(chip.high_times) >= 1
    assert not chip.powered_down


@pytest.mark.timeout(60)
def test_waits_with_sck_low_while_no_conversion_is_ready(program) -> None:
    chip = HX711(words=[])
    assert run(program, chip, extra=0, reads=1, max_cycles=5_000) == []
    assert chip.high_times == [] and chip.sck == 0 and not chip.powered_down


def test_the_program_source_is_the_one_the_pico_loads(program) -> None:
    source, assembled = program
    assert source.options["in_shiftdir"] == 0  # shift left: the MSB-first word lands in the low 24 bits
    assert source.text.splitlines()[1] == ".side_set 1"
    assert len(assembled.assembled) <= 32  # fits one PIO's instruction memory


@pytest.mark.timeout(60)
def test_a_full_fifo_stalls_with_sck_low(program) -> None:
    chip = HX711(words=[0x000100 + i for i in range(8)])
    fifo = run(program, chip, extra=0, reads=99, max_cycles=6_000)  # nobody drains the FIFO
    assert len(fifo) == 4  # the RX FIFO's depth: the state machine then waits at `push block`
    assert not chip.powered_down and max(chip.high_times) < 60 and chip.sck == 0
