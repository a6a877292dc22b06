"""The LEDs and buzzer follow the judge's announcements (gpiozero MockFactory)."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices.announcer import LedAnnouncer
from companion.devices.buttons import Feedback
from companion.devices.settings import ButtonSettings
from tests.waiting import wait_until


@pytest.fixture
def factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def test_match_lights_the_racers_and_the_winner_blinks(factory):
    settings = ButtonSettings()
    feedback = Feedback(settings, factory=factory)
    announcer = LedAnnouncer(feedback)
    announcer.announce("match", (1, 3))
    lit = [factory.pin(pin).state for pin in settings.seat_leds]
    assert lit[:4] == [0, 1, 0, 1]
    announcer.announce("winner", (3,))
    assert wait_until(lambda: len(factory.pin(settings.seat_leds[3]).states) > 2)  # it is blinking
    assert factory.pin(settings.seat_leds[1]).state == 0
    announcer.announce("void", ())
    assert not any(factory.pin(pin).state for pin in settings.seat_leds)
    feedback.close()
