# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""The emulator on the unix port of MicroPython: the firmware on stdin/stdout.

    micropython firmware/pegboard_emu/run.py LAYOUT.json

stdin and stdout are the serial line (a pseudo-terminal's master end, as USB
CDC is on the Pico); what the LEDs and displays show goes to stderr, one line
per change: ``L <hex GGRRBB per LED>``, ``D <seat> <text>``.
"""

import json
import os
import sys

here = __file__.rsplit("/", 2)[0] if "/" in __file__ else "."
if here not in sys.path:
    sys.path.insert(0, here)

import micropython  # noqa: E402
from pegboard.compat import sleep_ms  # noqa: E402
from pegboard.layout import Layout  # noqa: E402
from pegboard.transport import StreamTransport  # noqa: E402
from pegboard_emu.board import make_board  # noqa: E402

micropython.kbd_intr(-1)


def main():
    with open(sys.argv[1]) as handle:
        layout = Layout(json.load(handle))
    boot = os.urandom(2)
    board, hardware = make_board(
        layout,
        StreamTransport(sys.stdin.buffer, sys.stdout.buffer),
        boot_id=(boot[0] << 8) | boot[1],
    )
    err = sys.stderr
    frames = -1
    texts = {}
    board.start()
    err.write("READY %d\n" % board.boot_id)
    while True:
        board.poll()
        if hardware.sm.frames != frames:
            frames = hardware.sm.frames
            err.write("L " + "".join("%06x" % w for w in hardware.led_words()) + "\n")
        shown = hardware.display_texts()
        for seat in shown:
            if texts.get(seat) != shown[seat]:
                err.write("D %d %s\n" % (seat, shown[seat]))
        texts = shown
        sleep_ms(1)


main()
