"""The Pico's entry point: MicroPython runs this file at boot.

``board_config.py`` (written by ``kiebitz board flash``) holds the layout.
"""

import os
import sys

import machine
import micropython
import rp2
from board_config import LAYOUT
from pegboard.app import Board
from pegboard.hardware import build
from pegboard.layout import Layout
from pegboard.transport import StreamTransport

# A 0x03 byte inside a frame must not raise KeyboardInterrupt.
micropython.kbd_intr(-1)

layout = Layout(LAYOUT)
leds, displays, wdt, uid = build(layout, machine, rp2)
boot = os.urandom(2)
board = Board(
    layout,
    leds,
    displays,
    StreamTransport(sys.stdin.buffer, sys.stdout.buffer),
    wdt=wdt,
    boot_id=(boot[0] << 8) | boot[1],
    uid=uid,
)
board.run()
