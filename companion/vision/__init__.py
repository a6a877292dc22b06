"""Eyes: the overhead camera, card recognition and table zones."""
