"""The display chips as the emulator sees them: they decode what the drivers send.

:class:`TM1637Chip` listens to the CLK and DIO pins (start, bits on rising CLK,
acknowledge clock, stop) and keeps the segment bytes; :class:`MAX7219Chain`
listens to SPI writes framed by chip select. Both turn segments back into text.
"""

from pegboard.digits import _CODE_B, _SEGMENTS, DP

_FROM_SEGMENTS = {v: k for k, v in _SEGMENTS.items()}
_FROM_CODE_B = {v: k for k, v in _CODE_B.items()}


class TM1637Chip:
    def __init__(self, clk, dio):
        self.clk = clk
        self.dio = dio
        self.memory = bytearray(6)
        self.brightness = None
        self.on = False
        self.updates = 0
        self._bytes = None
        self._bits = 0
        self._byte = 0
        clk.listeners.append(self._clk)
        dio.listeners.append(self._dio)

    def _dio(self, pin, level):
        if self.clk.level != 1:
            return
        if level == 0:  # start
            self._bytes = []
            self._bits = 0
            self._byte = 0
        elif self._bytes is not None:  # stop
            self._execute(self._bytes)
            self._bytes = None

    def _clk(self, pin, level):
        if level != 1 or self._bytes is None:
            return
        if self._bits < 8:
            self._byte |= self.dio.level << self._bits
            self._bits += 1
        else:  # the acknowledge clock
            self._bytes.append(self._byte)
            self._bits = 0
            self._byte = 0

    def _execute(self, data):
        if not data:
            return
        command = data[0]
        if command & 0xC0 == 0xC0:
            address = command & 0x07
            for byte in data[1:]:
                if address < len(self.memory):
                    self.memory[address] = byte
                address += 1
            self.updates += 1
        elif command & 0xC0 == 0x80:
            self.on = bool(command & 0x08)
            self.brightness = command & 0x07

    def text(self, width=4):
        chars = []
        for byte in self.memory[:width]:
            chars.append(_FROM_SEGMENTS.get(byte & ~DP & 0xFF, "?"))
        return "".join(chars)


class MAX7219Chain:
    def __init__(self, spi, cs, modules):
        self.modules = modules
        self.digits = [bytearray(8) for _ in range(modules)]
        self.registers = [{} for _ in range(modules)]
        self.updates = 0
        self._data = None
        spi.listeners.append(self._spi)
        cs.listeners.append(self._cs)

    def _cs(self, pin, level):
        if level == 0:
            self._data = bytearray()
        elif self._data is not None:
            data = self._data
            self._data = None
            # The last pair sent stays in module 0 (nearest the Pico).
            pairs = [data[i : i + 2] for i in range(0, len(data) - 1, 2)]
            for module, pair in enumerate(reversed(pairs[-self.modules :])):
                register, value = pair[0], pair[1]
                if 1 <= register <= 8:
                    self.digits[module][register - 1] = value
                    self.updates += 1
                else:
                    self.registers[module][register] = value

    def _spi(self, data):
        if self._data is not None:
            self._data.extend(data)

    def text(self, module):
        # Digit register 1 is the rightmost digit.
        return "".join(_FROM_CODE_B.get(self.digits[module][7 - i] & 0x7F, "?") for i in range(8))
