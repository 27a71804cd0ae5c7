# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""A fake ``rp2`` module: the PIO assembler decorator and a state machine that keeps its words."""

from array import array


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    IN_LOW = 0
    IN_HIGH = 1


def asm_pio(**options):
    """The real decorator assembles the body; the fake only keeps the options."""

    def wrap(program):
        return program

    return wrap


class RP2:
    """The module as an object, so each emulated board has its own state machines."""

    PIO = PIO

    def __init__(self):
        self.machines = []

    def asm_pio(self, **options):
        return asm_pio(**options)

    def StateMachine(self, id, program=None, **options):
        machine = StateMachine(id, program, **options)
        self.machines.append(machine)
        return machine


class StateMachine:
    """Takes the words the firmware puts, as the WS2812s would receive them."""

    def __init__(self, id, program=None, freq=125_000_000, sideset_base=None, **options):
        self.id = id
        self.program = program
        self.freq = freq
        self.pin = sideset_base
        self.running = False
        self.words = array("I")
        self.frames = 0
        self.listeners = []

    def active(self, value=None):
        if value is not None:
            self.running = bool(value)
        return self.running

    def put(self, value, shift=0):
        if not self.running:
            raise RuntimeError("state machine %d is not active" % self.id)
        words = array("I", [value]) if isinstance(value, int) else array("I", value)
        # What leaves the FIFO: 24 bits a LED, shifted left by `shift`; keep GGRRBB.
        # What the LEDs receive: the top 24 bits of each word shifted left by `shift`.
        self.words = array("I", [((w << shift) >> 8) & 0xFFFFFF for w in words])
        self.frames += 1
        for listener in self.listeners:
            listener(self.words)
