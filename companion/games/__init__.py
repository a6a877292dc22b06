"""Rules core: one pure ruleset per game. No I/O, no clock; randomness only from seeds in chance actions."""
