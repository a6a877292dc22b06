"""Hardware adapters: the Pico serial link, load-cell pads, GPIO buttons and feedback."""
