"""Fakes of the Pico's hardware for the emulator: ``machine``, ``rp2`` and the display chips.

Only the hardware is fake: the firmware (``pegboard``) runs unchanged on top.
These modules run on CPython and on the unix port of MicroPython. They are not
copied to the Pico.
"""
