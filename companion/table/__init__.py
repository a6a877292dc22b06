"""The table: one session per table, the append-only event log, replay and undo."""
