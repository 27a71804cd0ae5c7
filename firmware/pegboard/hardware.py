"""Wire the board's parts to the Pico: pins from the layout, drivers from this package.

``machine`` and ``rp2`` are passed in: the real modules in ``main.py``, the
fakes of :mod:`pegboard_emu` in the emulator.
"""

from pegboard.max7219 import MAX7219
from pegboard.tm1637 import TM1637
from pegboard.ws2812 import WS2812


def build_displays(layout, machine, delay_us=10):
    displays = []
    for display in layout.displays:
        pins = display.pins
        if display.kind == "tm1637":
            displays.append(
                TM1637(
                    machine.Pin(pins["clk"]),
                    machine.Pin(pins["dio"]),
                    seats=display.seats,
                    brightness=display.brightness,
                    delay_us=delay_us,
                )
            )
        else:
            spi = machine.SPI(
                pins["spi"],
                baudrate=10_000_000,
                polarity=0,
                phase=0,
                sck=machine.Pin(pins["sck"]),
                mosi=machine.Pin(pins["mosi"]),
            )
            displays.append(
                MAX7219(
                    spi, machine.Pin(pins["cs"]), seats=display.seats, brightness=display.brightness
                )
            )
    return displays


def build(layout, machine, rp2, delay_us=10):
    """``(leds, displays, watchdog, unique id)`` for ``layout``."""
    leds = WS2812(machine.Pin(layout.led_pin), layout.led_count, rp2, layout.state_machine)
    displays = build_displays(layout, machine, delay_us)
    wdt = machine.WDT(timeout=layout.watchdog_ms)
    return leds, displays, wdt, machine.unique_id()
