"""What differs between MicroPython and CPython, in one place.

MicroPython has ``micropython.const`` and the ``time.ticks_*`` family; CPython
has neither. The pure modules import them from here so they run unchanged on
both. Ticks wrap around: compare them only with ``ticks_diff``.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


try:
    from time import sleep_ms, sleep_us, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    _PERIOD = 1 << 30
    _HALF = 1 << 29

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

    def sleep_us(us):
        _time.sleep(us / 1_000_000)


__all__ = ["const", "sleep_ms", "sleep_us", "ticks_add", "ticks_diff", "ticks_ms"]
