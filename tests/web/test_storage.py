"""A full disk under the game log (issue 16): the referee is told what happened, and nothing changes."""

from __future__ import annotations

from companion.table.session import TableSession
from tests.web.conftest import Browser, start


def fill_the_disk(table: TableSession) -> None:
    """SQLite's own page limit makes every further write fail as on a full disk: SQLITE_FULL, "database or disk
    is full", raised from deep inside the real log."""
    db = table.log._db
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_is_reported_as_such_and_the_game_is_unchanged(table, referee: Browser):
    start(table)
    fill_the_disk(table)
    requests = [("/api/referee/end", {"reason": "The disk filled up while we played."}), ("/api/referee/undo", {})]
    for number in range(1000):  # end and reopen the game until the log needs a page it may not have
        before, status = table.snapshot(), table.status()
        response = referee.post(*requests[number % 2])
        if response.status_code != 200:
            break
    assert response.status_code == 507
    assert response.json == {
        "error": "storage-full",
        "message": "Nothing was recorded: the table's disk is full. The game is as it was; free some space on it, "
                   "then try again.",
    }
    assert table.snapshot() == before and table.status() == status
    assert referee.client.get("/api/state").status_code == 200  # the page still answers
