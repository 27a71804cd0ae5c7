"""The gpiozero pin factory a config names, and which one suits this Pi.

=========== =============================================== ==========================
name        backend                                         for
=========== =============================================== ==========================
``mock``    ``gpiozero.pins.mock.MockFactory`` (PWM pins)   tests, the demo, no Pi
``lgpio``   ``gpiozero.pins.lgpio.LGPIOFactory``            Pi 5 (any Pi on Bookworm)
``rpigpio`` ``gpiozero.pins.rpigpio.RPiGPIOFactory``        Pi 4 and earlier
``native``  ``gpiozero.pins.native.NativeFactory``          no extra package, no PWM
``auto``    what :func:`detect_pin_factory_name` says       a Pi of unknown model
``None``    gpiozero's own choice (``GPIOZERO_PIN_FACTORY``
            or the first backend that loads)
=========== =============================================== ==========================

RPi.GPIO pokes the Broadcom GPIO registers directly and does not work on a Pi 5
(its GPIO sits behind the RP1 chip); lgpio goes through ``/dev/gpiochip*``.

>>> make_pin_factory("mock").__class__.__name__
'MockFactory'
>>> make_pin_factory("wiringpi")
Traceback (most recent call last):
...
controller.gpio.errors.ConfigError: gpio.pin_factory: unknown pin factory 'wiringpi' \
(expected one of mock, lgpio, rpigpio, native, auto)
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

from controller.gpio.errors import ConfigError, GpioUnavailableError

__all__ = ["FACTORIES", "detect_pin_factory_name", "make_pin_factory"]

#: name -> (module, class, the package it needs, how to install it)
_BACKENDS: dict[str, tuple[str, str, str, str]] = {
    "lgpio": (
        "gpiozero.pins.lgpio",
        "LGPIOFactory",
        "lgpio",
        "pip install 'kiebitz[pi]' (or apt install python3-lgpio)",
    ),
    "rpigpio": (
        "gpiozero.pins.rpigpio",
        "RPiGPIOFactory",
        "RPi.GPIO",
        "pip install 'kiebitz[pi]' (or apt install python3-rpi.gpio)",
    ),
    "native": ("gpiozero.pins.native", "NativeFactory", "gpiozero", "pip install 'kiebitz[pi]'"),
}
FACTORIES = ("mock", *_BACKENDS, "auto")

_MODEL = Path("/proc/device-tree/model")
_CPUINFO = Path("/proc/cpuinfo")
# New-style revision codes (bit 23 set) carry the board type in bits 4-11:
# 0x17 Pi 5, 0x18 CM5, 0x19 Pi 500, 0x1a CM5 Lite; everything below is RPi.GPIO's.
_FIRST_RP1_TYPE = 0x17
_RP1_MODEL = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")


def make_pin_factory(name: str | None, *, where: str = "gpio.pin_factory") -> Any:
    """A new pin factory for ``name`` (see the table above); the caller closes it.

    A backend whose package is missing raises :class:`ConfigError` saying what to
    install; one that loads but cannot reach the pins (not a Pi) raises
    :class:`GpioUnavailableError`.
    """
    try:
        import gpiozero  # noqa: F401 - the one package every backend needs
    except ImportError:
        raise ConfigError(
            f"{where}: gpiozero is not installed: pip install 'kiebitz[pi]'"
        ) from None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if name is None:
        from gpiozero import Device
        from gpiozero.exc import BadPinFactory

        try:
            return Device._default_pin_factory()
        except BadPinFactory as e:
            raise GpioUnavailableError(f"{where}: no pin factory works here: {e}") from e
    if name == "auto":
        detected = detect_pin_factory_name()
        if detected is None:
            raise GpioUnavailableError(
                f"{where}: 'auto' found no Raspberry Pi here; name one of {', '.join(FACTORIES)}"
            )
        name = detected
    if name not in _BACKENDS:
        raise ConfigError(
            f"{where}: unknown pin factory {name!r} (expected one of {', '.join(FACTORIES)})"
        )
    module_name, class_name, package, install = _BACKENDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise ConfigError(f"{where}: {name} needs the {package} package: {install}") from None
    try:
        return getattr(module, class_name)()
    except Exception as e:  # RuntimeError, lgpio.error, OSError: each backend its own
        raise GpioUnavailableError(f"{where}: {name} cannot reach the GPIO pins: {e}") from e


def detect_pin_factory_name(model: Path = _MODEL, cpuinfo: Path = _CPUINFO) -> str | None:
    """``"lgpio"`` on a Pi 5 (its GPIO is on RP1), ``"rpigpio"`` on earlier Pis, ``None``
    elsewhere; read from the device tree's model, else from ``/proc/cpuinfo``.

    >>> import tempfile
    >>> tmp = Path(tempfile.mkdtemp())
    >>> _ = (tmp / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\\x00")
    >>> detect_pin_factory_name(tmp / "model", tmp / "none")
    'lgpio'
    >>> _ = (tmp / "cpuinfo").write_text("Hardware\\t: BCM2835\\nRevision\\t: c03114\\n")
    >>> detect_pin_factory_name(tmp / "none", tmp / "cpuinfo")   # a Pi 4 B
    'rpigpio'
    >>> detect_pin_factory_name(tmp / "none", tmp / "none") is None
    True
    """
    text = _read(model)
    if text is not None and "Raspberry Pi" in text:
        return "lgpio" if _RP1_MODEL.search(text) else "rpigpio"
    text = _read(cpuinfo)
    if text is None:
        return None
    found = re.search(r"^Model\s*:\s*(.+)$", text, re.MULTILINE)
    if found and "Raspberry Pi" in found.group(1):
        return "lgpio" if _RP1_MODEL.search(found.group(1)) else "rpigpio"
    found = re.search(r"^Revision\s*:\s*([0-9a-fA-F]+)\s*$", text, re.MULTILINE)
    if found is None or not re.search(r"^Hardware\s*:\s*BCM", text, re.MULTILINE):
        return None  # other ARM boards have a Revision line too
    code = int(found.group(1), 16)
    if code & (1 << 23) and (code >> 4) & 0xFF >= _FIRST_RP1_TYPE:
        return "lgpio"
    return "rpigpio"


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", "replace").replace("\x00", "")
    except OSError:
        return None
