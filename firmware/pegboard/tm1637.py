"""TM1637 4-digit display: two wires, bit-banged (after mcauser's micropython-tm1637).

Pins are passed in. The chip reads data on the clock's rising edge, least
significant bit first, and pulls DIO low to acknowledge each byte.
"""

from pegboard import digits
from pegboard.compat import const, sleep_us

_CMD_DATA = const(0x40)  # write data, auto-increment address
_CMD_ADDRESS = const(0xC0)  # address of the first digit
_CMD_DISPLAY = const(0x88)  # display on, brightness in the low 3 bits


class TM1637:
    """One display showing one seat's score."""

    width = 4

    def __init__(self, clk, dio, seats=(0,), brightness=4, delay_us=10):
        self.clk = clk
        self.dio = dio
        self.seats = list(seats)
        self.delay_us = delay_us
        self._brightness = brightness & 7
        self._shown = None
        # Both lines idle high: a start is DIO falling while CLK is high.
        clk.init(clk.OUT, value=1)
        dio.init(dio.OUT, value=1)

    def _delay(self):
        if self.delay_us:
            sleep_us(self.delay_us)

    def _start(self):
        self.dio(0)
        self._delay()
        self.clk(0)
        self._delay()

    def _stop(self):
        self.dio(0)
        self._delay()
        self.clk(1)
        self._delay()
        self.dio(1)

    def _byte(self, byte):
        for i in range(8):
            self.dio((byte >> i) & 1)
            self._delay()
            self.clk(1)
            self._delay()
            self.clk(0)
            self._delay()
        # The acknowledge clock: the chip pulls DIO low; we do not wait for it.
        self.clk(0)
        self._delay()
        self.clk(1)
        self._delay()
        self.clk(0)
        self._delay()

    def _command(self, byte):
        self._start()
        self._byte(byte)
        self._stop()

    def write(self, segments, position=0):
        self._command(_CMD_DATA)
        self._start()
        self._byte(_CMD_ADDRESS | position)
        for byte in segments:
            self._byte(byte)
        self._stop()
        self._command(_CMD_DISPLAY | self._brightness)

    def show(self, scores):
        """Show this display's seat from ``scores`` (a list by seat; None is blank)."""
        seat = self.seats[0]
        value = scores[seat] if seat < len(scores) else None
        if value == self._shown:
            return
        self.write(digits.segments(value, self.width))
        self._shown = value
