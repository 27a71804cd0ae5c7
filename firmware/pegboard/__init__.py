"""The peg board's firmware package: runs on the Pico and, unchanged, on the host.

Pure modules (no hardware): ``compat``, ``crc``, ``cobs``, ``frame``, ``protocol``,
``layout``, ``render``, ``digits``. Drivers with their pins passed in: ``ws2812``,
``tm1637``, ``max7219``. The main loop: ``app``; wiring it to the Pico: ``hardware``.
"""

FIRMWARE_VERSION = (1, 0, 1)
