"""The contract between the live table and one game: observations in, proposed moves and prompts out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from companion.table.live import LiveTable


class TableAdapter:
    """A game's table. This base sees nothing: every move of a game without an adapter is entered by hand.

    An adapter runs only on the live table's thread, so it needs no locks. It reads the session through
    ``self.table.session``, submits through ``self.table.propose`` (the rules decide, the table asks or
    objects) and talks to the players through ``ask``, ``announce`` and ``say``.
    """

    game: ClassVar[str] = ""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.frame = 0  # the camera's own count of the last frame heard: the clock camera waits are counted in

    def observe(self, observation: Any, t: float) -> None:
        """A camera observation, a pad reading or a button press at host time ``t``."""

    def observe_frame(self, observations: Sequence[Any], t: float) -> None:
        """The observations one camera frame completed, together: the table ticks only after the whole frame, so
        cards that landed together are read together (several of one value are one play, not a play taken back
        and read again with each late card). Called for every frame the camera reads (a ``QuietFrame`` when it
        completed nothing), so an adapter counts time in the camera's frames (``self.frame``: a busy machine films
        fewer a second; a new tracker, for another deck, counts from 0 again). Each observation goes to ``observe``
        in turn, and one the adapter fails on is reported without losing the rest of the frame."""
        self.frame = max((seen.frame for seen in observations), default=self.frame)
        for observation in observations:
            self.table.contained(repr(observation), lambda seen=observation: self.observe(seen, t))

    def changed(self, t: float) -> None:
        """The session changed (a move by anyone, an undo, the referee): follow it, ask what it now needs."""

    def tick(self, t: float) -> None:
        """Time passes (a few times a second), for adapters that time something."""

    def live_key(self, t: float) -> tuple[Any, ...]:
        """What the status page shows of ``view()`` changes when this does (checked after every input)."""
        return ()

    def view(self) -> dict[str, Any]:
        """Live data for the status page beyond the ruleset's own view, under ``live.table``."""
        return {}

    def close(self) -> None:
        """Another game starts: let go of anything in progress."""
