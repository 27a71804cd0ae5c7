# ruff: noqa: F821, SIM110 - the PIO assembler's words (out, jmp, x, ...) exist only inside rp2.asm_pio
"""WS2812B LEDs through an RP2040 PIO state machine.

MicroPython's plain ``neopixel`` module bit-bangs with interrupts off, for about
30 us per LED: 8-11 ms at 250-370 LEDs, long enough to lose USB bytes. A PIO
state machine clocks the bits out by itself; ``put`` only feeds its FIFO, with
interrupts on. ``rp2`` is passed in (the real module on the Pico, a fake in the
emulator), like the pin.
"""

from array import array


def _program(rp2):
    @rp2.asm_pio(
        sideset_init=rp2.PIO.OUT_LOW,
        out_shiftdir=rp2.PIO.SHIFT_LEFT,
        autopull=True,
        pull_thresh=24,
    )
    def ws2812():
        # 10 PIO cycles a bit at 8 MHz: 800 kbit/s. T1 high, T2 data, T3 low.
        wrap_target()
        label("bitloop")
        out(x, 1).side(0)[2]
        jmp(not_x, "do_zero").side(1)[1]
        jmp("bitloop").side(1)[4]
        label("do_zero")
        nop().side(0)[4]
        wrap()

    return ws2812


class WS2812:
    """A chain of ``count`` LEDs on ``pin``; :meth:`write` takes ``0x00GGRRBB`` words."""

    def __init__(self, pin, count, rp2, state_machine=0):
        self.count = count
        self.sm = rp2.StateMachine(state_machine, _program(rp2), freq=8_000_000, sideset_base=pin)
        self.sm.active(1)
        self._last = array("I", [0xFFFFFFFF] * count)

    def write(self, words):
        """Send a frame; the state machine shifts each word left by 8 (24 bits a LED)."""
        self.sm.put(words, 8)
        for i in range(self.count):
            self._last[i] = words[i]

    def same(self, words):
        """Whether ``words`` is what the LEDs already show (nothing to send)."""
        last = self._last
        for i in range(self.count):
            if last[i] != words[i]:
                return False
        return True

    def off(self):
        self.write(array("I", [0] * self.count))
