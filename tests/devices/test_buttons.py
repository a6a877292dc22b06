"""Seat buttons and feedback with gpiozero's MockFactory: presses, bounce storms, near-simultaneous seats."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import Edge, Feedback, GpioUnavailable, Press, SeatButtons, make_pin_factory
from companion.devices.settings import ButtonSettings

SETTINGS = ButtonSettings(seat_buttons=(5, 6), seat_leds=(12, 16), buzzer=18, debounce_ms=20.0)
MS = 1_000_000


class FakeClock:
    """A monotonic_ns stand-in the test moves by hand, so edges get exact, known times."""

    def __init__(self) -> None:
        self.now = 10_000 * MS

    def __call__(self) -> int:
        return self.now

    def advance(self, ns: int) -> None:
        self.now += ns


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def buttons(mock_factory: MockFactory, clock: FakeClock) -> Iterator[tuple[SeatButtons, list[Press]]]:
    got: list[Press] = []
    seat_buttons = SeatButtons(SETTINGS, got.append, factory=mock_factory, clock=clock)
    yield seat_buttons, got
    release_all(mock_factory)
    seat_buttons.close()


def release_all(factory: MockFactory) -> None:
    """A button left down keeps gpiozero's hold thread waiting a second on close."""
    for pin in SETTINGS.seat_buttons:
        release(factory, pin)


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # pull-up buttons: pressed pulls the line low


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def test_a_press_is_reported_once_with_its_time(buttons, mock_factory: MockFactory, clock: FakeClock) -> None:
    seat_buttons, got = buttons
    t = clock.now
    press(mock_factory, 6)
    clock.advance(150 * MS)
    release(mock_factory, 6)
    assert got == [Press(seat=1, t_ns=t)]
    assert list(seat_buttons.presses) == got


def test_a_bounce_storm_is_one_press_stamped_at_its_first_edge(
    buttons, mock_factory: MockFactory, clock: FakeClock
) -> None:
    _, got = buttons
    first = clock.now
    for _ in range(15):  # 15 bounces, 0.3 ms apart, on the way down
        press(mock_factory, 5)
        clock.advance(150_000)
        release(mock_factory, 5)
        clock.advance(150_000)
    press(mock_factory, 5)
    clock.advance(200 * MS)
    for _ in range(10):  # and chatter on the way up
        release(mock_factory, 5)
        clock.advance(200_000)
        press(mock_factory, 5)
        clock.advance(200_000)
    release(mock_factory, 5)
    clock.advance(100 * MS)
    press(mock_factory, 5)  # a real second press
    assert [(p.seat, p.t_ns - first) for p in got] == [(0, 0), (0, got[1].t_ns - first)]
    assert got[1].t_ns - first > 300 * MS


def test_every_edge_is_reported_as_received_with_whether_the_debounce_took_it(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    """A race's trace keeps the raw edges: a referee can see the chatter behind a press."""
    edges: list[Edge] = []
    seat_buttons = SeatButtons(SETTINGS, None, on_edge=edges.append, factory=mock_factory, clock=clock)
    t0 = clock.now
    press(mock_factory, 5)
    clock.advance(300_000)
    release(mock_factory, 5)  # chatter 0.3 ms after the press
    clock.advance(300_000)
    press(mock_factory, 5)
    clock.advance(100 * MS)
    release(mock_factory, 5)  # the real release
    seat_buttons.close()
    assert [(e.seat, e.down, e.t_ns - t0, e.taken) for e in edges] == [
        (0, True, 0, True), (0, False, 300_000, False), (0, True, 600_000, False), (0, False, 100_600_000, True),
    ]


def test_two_seats_within_a_millisecond_keep_their_order_and_times(
    buttons, mock_factory: MockFactory, clock: FakeClock
) -> None:
    _, got = buttons
    t0 = clock.now
    press(mock_factory, 6)
    clock.advance(400_000)  # 0.4 ms later
    press(mock_factory, 5)
    assert got == [Press(1, t0), Press(0, t0 + 400_000)]


def test_real_clock_orders_presses_microseconds_apart(mock_factory: MockFactory) -> None:
    got: list[Press] = []
    seat_buttons = SeatButtons(SETTINGS, got.append, factory=mock_factory)
    try:
        press(mock_factory, 5)
        press(mock_factory, 6)
    finally:
        release_all(mock_factory)
        seat_buttons.close()
    assert [p.seat for p in got] == [0, 1]
    assert 0 < got[1].t_ns - got[0].t_ns < 50 * MS  # same thread, back to back: ordered, distinct


def test_feedback_drives_leds_and_buzzer(mock_factory: MockFactory) -> None:
    feedback = Feedback(SETTINGS, factory=mock_factory)
    try:
        feedback.light(1)
        assert mock_factory.pin(16).state and not mock_factory.pin(12).state
        feedback.light(1, on=False)
        assert not mock_factory.pin(16).state
        feedback.beep(0.01)
        feedback.all_off()
        assert not mock_factory.pin(18).state
        feedback.light(7)  # no such seat: nothing to light, nothing raised
    finally:
        feedback.close()


def test_pin_factory_errors_say_what_to_do() -> None:
    with pytest.raises(GpioUnavailable, match="unknown GPIO pin factory"):
        make_pin_factory("bogus")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat_buttons": (5, 6), "seat_leds": (12,)}, "one LED per seat"),
        ({"seat_buttons": (5, 6), "seat_leds": (6, 12)}, "GPIO 6 used twice"),
        ({"pin_factory": "wiringpi"}, "pin_factory"),
        ({"seat_buttons": (40,), "seat_leds": (), "buzzer": None}, "BCM GPIO numbers"),
    ],
)
def test_bad_button_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ButtonSettings(**kwargs)
