# PIO program reading one HX711: one state machine per pad, clocked at 1 MHz (1 cycle = 1 us).
# SCK is the side-set pin, DOUT the IN base. Every instruction that can stall (pull, wait, push) holds SCK low,
# so SCK is never high longer than one pulse: 5 us, far below the 60 us that powers the HX711 down.
# Before activating, put (pulses - 25) in the TX FIFO: 0, 1 or 2 extra pulses after the 24 data bits choose
# channel A gain 128, channel B gain 32 or channel A gain 64 for the *next* reading.
# tests/firmware/test_pio.py runs these opcodes in rp2040-pio-emulator against a model of the HX711.
import rp2

SM_FREQ = 1_000_000


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT)
def hx711():
    pull(block)             .side(0)       # extra pulses after the data (0, 1 or 2), kept in OSR
    wrap_target()
    mov(y, osr)             .side(0)
    set(x, 23)              .side(0)       # 24 data bits
    wait(0, pin, 0)         .side(0)       # DOUT low: a conversion is ready
    label("bit")
    nop()                   .side(1) [3]   # SCK high 5 us; DOUT shifts out on the rising edge
    in_(pins, 1)            .side(1)       # sample just before SCK falls
    jmp(x_dec, "bit")       .side(0) [3]
    label("gain")
    nop()                   .side(1) [3]   # 25th (26th, 27th) pulse: gain and channel of the next reading
    jmp(y_dec, "gain")      .side(0) [3]
    push(block)             .side(0)       # ISR holds the 24-bit word; waits here (SCK low) if nobody reads
    wrap()
