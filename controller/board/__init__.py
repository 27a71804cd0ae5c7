"""The LED peg board, host side: layouts, the serial link, the emulator, pictures, hardware.

Importing this package makes the firmware importable (see :mod:`._firmware`),
so ``pegboard`` (the firmware's pure modules) imports after it, in any order.
See docs/board.md.
"""

from controller.board import _firmware  # noqa: F401 - first: makes `pegboard` importable
