"""Nothing an adapter does wrong knocks the table over: one observation it fails on is reported in words, and the
rest of the frame and the game go on."""

from __future__ import annotations

from typing import Any

from companion.games.base import GameSetup
from companion.table.adapters.corgi_pileup import CorgiPileupAdapter
from companion.table.live import LiveTable
from companion.table.observations import CardSeen
from companion.table.session import TableSession
from companion.vision.seats import seat_of_zone


class Stumbles(CorgiPileupAdapter):
    """Corgi Pileup's adapter with a fault on every card seen at a seat (a bug, a bad observation)."""

    def observe(self, observation: Any, t: float) -> None:
        if isinstance(observation, CardSeen) and observation.zone.startswith("seat-"):
            raise ValueError("no such zone in this layout")
        super().observe(observation, t)


def test_an_observation_the_adapter_fails_on_loses_nothing_else_of_its_frame(session: TableSession) -> None:
    session.start_game(GameSetup("corgi-pileup", ("Ana", "Ben", "Cai")), source="test")
    table = LiveTable(session, seat_of_zone)
    table.drain()
    table.adapter = Stumbles(table)

    table.observe_frame([CardSeen("seat-3", "9", 0.9, 1), CardSeen("centre", "4", 0.9, 1)])
    table.drain()

    plays = [e.payload for e in session.log.events(session.game_id) if e.payload.get("type") == "play"]
    assert plays == [{"type": "play", "player": 0, "card": 4}], "the frame's other card is still read"
    said = table.view()["said"]
    assert any(line.startswith("The table could not handle CardSeen(zone='seat-3'") and
               "no such zone in this layout" in line and "The referee may enter it by hand." in line
               for line in said)
    assert session.status() == "playing"
