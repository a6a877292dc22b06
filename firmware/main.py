# Boot entry on the Pico: binary bytes on the USB port must never raise KeyboardInterrupt.
import micropython

import app
import hw

micropython.kbd_intr(-1)
app.run(hw.Board())
