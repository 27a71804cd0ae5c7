"""MAX7219 8-digit displays, daisy-chained on one SPI bus: one module a seat.

The SPI bus and chip-select pin are passed in. Each write sends a register and
a value to every module in one chip-select window; the first pair sent ends up
in the module farthest along the chain.
"""

from pegboard import digits
from pegboard.compat import const

_DECODE_MODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_DISPLAY_TEST = const(0x0F)


class MAX7219:
    width = 8

    def __init__(self, spi, cs, seats=(0,), brightness=6):
        self.spi = spi
        self.cs = cs
        self.seats = list(seats)
        self.modules = len(self.seats)
        self._shown = None
        cs.init(cs.OUT, value=1)
        for register, value in (
            (_SHUTDOWN, 0),
            (_DISPLAY_TEST, 0),
            (_SCAN_LIMIT, 7),
            (_DECODE_MODE, 0xFF),
            (_INTENSITY, brightness & 0x0F),
            (_SHUTDOWN, 1),
        ):
            self._write(register, [value] * self.modules)

    def _write(self, register, values):
        """``values[i]`` goes to module ``i`` (0: nearest the Pico)."""
        data = bytearray()
        for module in range(self.modules - 1, -1, -1):
            data.append(register)
            data.append(values[module])
        self.cs(0)
        self.spi.write(data)
        self.cs(1)

    def show(self, scores):
        values = [scores[s] if s < len(scores) else None for s in self.seats]
        if values == self._shown:
            return
        codes = [digits.code_b(v, self.width) for v in values]
        # Digit register 1 is the rightmost digit.
        for digit in range(8):
            self._write(digit + 1, [c[7 - digit] for c in codes])
        self._shown = values
