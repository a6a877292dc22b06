"""Run by the crash-safety test: bots play on a table log, printing each acknowledged event until killed."""

from __future__ import annotations

import random
import sys

from companion.games.base import GameSetup, RuleViolation
from companion.table.log import EventLog
from companion.table.session import TableSession


def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    session = TableSession(EventLog(path), seed=seed)
    print(f"resumed {session.game_id} {session.status()}", flush=True)
    while True:
        if session.status() != "playing":
            session.start_game(GameSetup("corgi-pileup", ("A", "B", "C"), full_information=True), "crash-test")
        ruleset = session.game.ruleset
        result = session.submit(rng.choice(ruleset.legal_actions(session.state)), "crash-test")
        if isinstance(result, RuleViolation):
            raise SystemExit(f"refused: {result.message}")
        print(f"ack {result.game_id} {result.seq}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
