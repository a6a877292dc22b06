# Pico pins, copied from hardware/pinmap.toml (tests/devices/test_pinmap.py keeps the two equal).
STATUS_LED = 25
HX711_RATE = 22
# (DOUT, SCK, tilt) per pad, in pad order.
PADS = (
    (2, 3, 14),
    (4, 5, 15),
    (6, 7, 16),
    (8, 9, 17),
    (10, 11, 18),
    (12, 13, 19),
)
TILT_ACTIVE = 1  # SW-420 module: DO goes high on vibration
