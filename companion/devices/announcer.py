"""The table's announcements on the seat LEDs and the buzzer (the table layer's ``Announcer``)."""

from __future__ import annotations

from companion.devices.buttons import Feedback


class LedAnnouncer:
    """A match lights the racers' LEDs with a beep; the winner's LED blinks; a void or a call for the referee
    beeps twice; a false or ignored shout gets a short beep; a move the rules refuse blinks that seat's LED
    with two short beeps."""

    def __init__(self, feedback: Feedback) -> None:
        self.feedback = feedback

    def announce(self, kind: str, seats: tuple[int, ...]) -> None:
        if kind == "match":
            self.feedback.all_off()
            for seat in seats:
                self.feedback.light(seat)
            self.feedback.beep(0.15)
        elif kind == "winner":
            self.feedback.all_off()
            for seat in seats:
                self.feedback.blink(seat, times=6)
        elif kind in ("void", "referee"):
            self.feedback.all_off()
            self.feedback.beep(0.12, times=2)
        elif kind == "refused":  # the camera saw a move the rules refuse: that seat's light, two short beeps
            for seat in seats:
                self.feedback.blink(seat, times=3)
            self.feedback.beep(0.05, times=2)
        elif kind in ("false-shout", "ignored-shout", "no-match"):
            self.feedback.beep(0.05)
