"""Simulated hardware and bot players, driving the real code paths as a user would."""
