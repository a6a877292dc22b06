"""Running the table as a systemd service on the Pi: the unit files and udev rule (``units``), the commands that
install them (``commands``), and the readiness and watchdog messages the running table sends (``notify``)."""
