"""``companion replay --steps``: what each line of a replay file did and the state after it, for a referee
following a game carried over from paper or checking a disputed one line by line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.games.base import GameSetup, RuleViolation
from companion.table.session import TableSession


@dataclass(frozen=True)
class ReplayStep:
    """One line of a replay file: what it did in words (or its refusal), and the game after it."""

    line: int
    did: str
    refusal: RuleViolation | None
    session: TableSession

    def state(self) -> Any:
        """The game's state as its ruleset shows it (``None`` before a setup was accepted)."""
        game = self.session.game
        return game.ruleset.view(game.state) if game is not None else None

    def to_text(self) -> str:
        """``line 3: Emily led a 4.`` then the scoreboard's phase, prompt and each player's cells."""
        lines = [f"line {self.line}: {self.did}"]
        game = self.session.game
        if game is not None:
            board = game.ruleset.scoreboard(game.state)
            lines.append(f"  {board.phase}: {board.prompt}")
            rows = (f"{row.name}: " + ", ".join(f"{column} {cell}" for column, cell in
                                                 zip(board.columns, row.cells, strict=False) if cell != "")
                    for row in board.rows)
            lines.append("  " + " | ".join(rows))
        return "\n".join(lines)

    def to_json(self) -> str:
        """One compact JSON line: the line number, what it did, its refusal and the state after it."""
        refusal = self.refusal.to_json() if self.refusal is not None else None
        return json.dumps({"line": self.line, "did": self.did, "refused": refusal, "state": self.state()},
                          separators=(",", ":"))


def what_it_did(session: TableSession, before: Any, entry: Any, result: Any) -> str:
    """The line's effect in words: the move described by the rules as they stood before it, a setup, an undo."""
    if isinstance(result, RuleViolation):
        return f"refused: {result.message}"
    kind = entry.get("type") if isinstance(entry, dict) else None
    if kind == "setup":
        setup = GameSetup.from_json(entry)
        return f"game set up for {', '.join(setup.players)} ({setup.variant})."
    if kind == "undo":
        caused = len(result.payload["revokes"]) - 1
        return "undo: the last move is taken back" + (f", with the {caused} deal(s) it caused." if caused else ".")
    if kind == "end":
        return f"game ended: {result.payload.get('reason', 'Ended.')}"
    game = session.game
    assert game is not None and before is not None
    return game.ruleset.describe(before, game.ruleset.decode(entry))
