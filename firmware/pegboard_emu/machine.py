"""A fake ``machine`` module: pins that remember and report their levels, SPI, WDT."""

from pegboard.compat import ticks_diff, ticks_ms


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.level = 0
        self.listeners = []
        if value is not None:
            self.level = 1 if value else 0

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return self.level
        level = 1 if level else 0
        if level != self.level:
            self.level = level
            for listener in self.listeners:
                listener(self, level)
        return None

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    def __init__(self, id, baudrate=1_000_000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.listeners = []

    def write(self, data):
        for listener in self.listeners:
            listener(bytes(data))


class WDT:
    """Remembers when it was fed; :meth:`starved` says whether a real one would have reset."""

    def __init__(self, id=0, timeout=5000, clock=ticks_ms):
        self.timeout = timeout
        self.clock = clock
        self.fed = clock()
        self.feeds = 0
        self.longest_gap = 0

    def feed(self):
        now = self.clock()
        self.longest_gap = max(self.longest_gap, ticks_diff(now, self.fed))
        self.fed = now
        self.feeds += 1

    def starved(self):
        return ticks_diff(self.clock(), self.fed) > self.timeout or self.longest_gap > self.timeout


class Machine:
    """The module as an object, so each emulated board has its own pins.

    ``Pin(n)`` returns the same object for the same pin number, as the hardware
    does; a chip model attached to a pin before the firmware opens it sees
    everything the driver sends.
    """

    def __init__(self, clock=None):
        self.clock = clock or ticks_ms
        self.pins = {}
        self.buses = {}
        self.watchdogs = []

    def Pin(self, id, mode=-1, pull=-1, value=None):
        pin = self.pins.get(id)
        if pin is None:
            pin = self.pins[id] = Pin(id, mode, pull, value)
        elif mode != -1 or value is not None:
            pin.init(mode, pull, value)
        return pin

    def SPI(self, id, **options):
        bus = self.buses.get(id)
        if bus is None:
            bus = self.buses[id] = SPI(id, **options)
        return bus

    def WDT(self, id=0, timeout=5000):
        wdt = WDT(id, timeout, self.clock)
        self.watchdogs.append(wdt)
        return wdt

    def unique_id(self):
        return _UID

    def freq(self, hz=None):
        return 125_000_000


_UID = b"\xe6\x61\x38\x52\x83\x4b\x2c\x2a"


def unique_id():
    return _UID


def freq(hz=None):
    return 125_000_000
