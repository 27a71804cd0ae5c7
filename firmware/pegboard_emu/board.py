"""A whole emulated board: fake pins, PIO and display chips under the real firmware."""

from pegboard.app import Board
from pegboard.compat import ticks_ms
from pegboard.hardware import build
from pegboard_emu.chips import MAX7219Chain, TM1637Chip
from pegboard_emu.machine import Machine
from pegboard_emu.rp2 import RP2


class FakeHardware:
    """The Pico's parts for one layout; :meth:`snapshot` is what a person would see."""

    def __init__(self, layout, clock=ticks_ms):
        self.layout = layout
        self.machine = Machine(clock)
        self.rp2 = RP2()
        self.chips = []
        for display in layout.displays:
            pins = display.pins
            if display.kind == "tm1637":
                chip = TM1637Chip(self.machine.Pin(pins["clk"]), self.machine.Pin(pins["dio"]))
            else:
                chip = MAX7219Chain(
                    self.machine.SPI(pins["spi"]), self.machine.Pin(pins["cs"]), len(display.seats)
                )
            self.chips.append((display, chip))
        self.leds, self.displays, self.wdt, self.uid = build(layout, self.machine, self.rp2, 0)
        self.sm = self.rp2.machines[0]

    def led_words(self):
        words = list(self.sm.words)
        return words + [0] * (self.layout.led_count - len(words))

    def display_texts(self):
        """What each seat's display shows, by seat."""
        texts = {}
        for display, chip in self.chips:
            if display.kind == "tm1637":
                texts[display.seats[0]] = chip.text()
            else:
                for module, seat in enumerate(display.seats):
                    texts[seat] = chip.text(module)
        return texts


def make_board(layout, transport, clock=ticks_ms, boot_id=0):
    hardware = FakeHardware(layout, clock)
    board = Board(
        layout,
        hardware.leds,
        hardware.displays,
        transport,
        clock=clock,
        wdt=hardware.wdt,
        boot_id=boot_id,
        uid=hardware.uid,
    )
    return board, hardware
