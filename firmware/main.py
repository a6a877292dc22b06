# Boot entry on the Pico. For 1.5 s after boot Ctrl-C still works, so `mpremote` can stop the firmware to
# update it (hardware/README.md); after that binary bytes on the USB port must never raise KeyboardInterrupt.
import time

import micropython

import app
import hw

MAINTENANCE_WINDOW_MS = 1500

time.sleep_ms(MAINTENANCE_WINDOW_MS)
micropython.kbd_intr(-1)
app.run(hw.Board())
