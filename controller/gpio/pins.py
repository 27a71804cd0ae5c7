"""Which BCM pin is what on the table's panel, and the ``gpio`` config section.

The defaults suit the 40-pin header of a Pi 4 or Pi 5 and keep clear of what
else the table uses: the peg board hangs on USB, the camera on CSI, so UART
(GPIO14/15), I2C (GPIO2/3) and SPI0 (GPIO7-11) stay free for later. Buttons
switch to GND against the internal pull-up; the RGB LED is common cathode
(``active_high``); the buzzer is an active one behind a transistor.

>>> PanelPins()
PanelPins(undo=5, confirm=6, new_game=13, buzzer=19, led_red=17, led_green=27, led_blue=22, \
active_high=True, pull_up=True)
>>> PanelPins.from_config({"undo": 23, "pull_up": True}).undo
23
>>> PanelPins.from_config({"undo": 40})
Traceback (most recent call last):
...
controller.gpio.errors.ConfigError: gpio.undo: expected a BCM pin 2-27, got 40
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from controller.gpio.errors import ConfigError

__all__ = ["FIRST_PIN", "LAST_PIN", "PIN_NAMES", "GpioConfig", "PanelPins"]

#: The GPIOs brought out on the 40-pin header (GPIO0/1 are the HAT ID EEPROM's).
FIRST_PIN, LAST_PIN = 2, 27

#: The pin fields, in the order of the header table in docs/gpio.md.
PIN_NAMES = ("undo", "confirm", "new_game", "buzzer", "led_red", "led_green", "led_blue")
_FLAGS = ("active_high", "pull_up")


@dataclass(frozen=True, slots=True)
class PanelPins:
    """BCM numbers of the panel's parts and how they are wired.

    ``active_high``: the RGB LED is common cathode (a high pin lights it); set
    ``False`` for a common-anode LED. ``pull_up``: the buttons switch to GND
    against the internal pull-up; ``False`` for buttons to 3V3 with a pull-down.
    """

    undo: int = 5
    confirm: int = 6
    new_game: int = 13
    buzzer: int = 19
    led_red: int = 17
    led_green: int = 27
    led_blue: int = 22
    active_high: bool = True
    pull_up: bool = True

    def __post_init__(self) -> None:
        _check({f.name: getattr(self, f.name) for f in fields(self)}, "gpio")

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any], where: str = "gpio") -> PanelPins:
        """The pins of a config section; keys left out keep their defaults.

        Every error names the key path (``where.key``): an unknown key, a pin
        outside 2-27 or not an integer, a pin used twice, a flag not a boolean.

        >>> PanelPins.from_config({"confirm": 5})
        Traceback (most recent call last):
        ...
        controller.gpio.errors.ConfigError: gpio.confirm: pin 5 is already gpio.undo
        >>> PanelPins.from_config({"led": 4}, where="table.gpio")
        Traceback (most recent call last):
        ...
        controller.gpio.errors.ConfigError: table.gpio.led: unknown key (expected one of \
undo, confirm, new_game, buzzer, led_red, led_green, led_blue, active_high, pull_up)
        """
        if not isinstance(mapping, Mapping):
            raise ConfigError(f"{where}: expected a table, got {type(mapping).__name__}")
        known = PIN_NAMES + _FLAGS
        for key in mapping:
            if key not in known:
                raise ConfigError(
                    f"{where}.{key}: unknown key (expected one of {', '.join(known)})"
                )
        values = {f.name: mapping.get(f.name, f.default) for f in fields(cls)}
        _check(values, where)
        return cls(**values)


def _check(values: Mapping[str, Any], where: str) -> None:
    seen: dict[int, str] = {}
    for name in PIN_NAMES:
        value = values[name]
        if type(value) is not int or not FIRST_PIN <= value <= LAST_PIN:
            raise ConfigError(
                f"{where}.{name}: expected a BCM pin {FIRST_PIN}-{LAST_PIN}, got {value!r}"
            )
        if value in seen:
            raise ConfigError(f"{where}.{name}: pin {value} is already {where}.{seen[value]}")
        seen[value] = name
    for name in _FLAGS:
        value = values[name]
        if type(value) is not bool:
            raise ConfigError(f"{where}.{name}: expected true or false, got {value!r}")


_SETTINGS = ("pin_factory", "long_press_s", "bounce_s")


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """The whole ``gpio`` section: the pins, the backend and the button timings.

    ``pin_factory`` is a name for :func:`controller.gpio.factory.make_pin_factory`
    (``None``: gpiozero's own choice).

    >>> c = GpioConfig.from_config({"pin_factory": "mock", "long_press_s": 1.5, "undo": 23})
    >>> c.pin_factory, c.long_press_s, c.bounce_s, c.pins.undo
    ('mock', 1.5, 0.05, 23)
    >>> GpioConfig.from_config({"bounce_s": "fast"})
    Traceback (most recent call last):
    ...
    controller.gpio.errors.ConfigError: gpio.bounce_s: expected seconds 0-0.5, got 'fast'
    """

    pins: PanelPins = PanelPins()
    pin_factory: str | None = None
    long_press_s: float = 1.0
    bounce_s: float = 0.05

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any], where: str = "gpio") -> GpioConfig:
        if not isinstance(mapping, Mapping):
            raise ConfigError(f"{where}: expected a table, got {type(mapping).__name__}")
        rest = {k: v for k, v in mapping.items() if k not in _SETTINGS}
        pins = PanelPins.from_config(rest, where)
        factory = mapping.get("pin_factory")
        if factory is not None and not isinstance(factory, str):
            raise ConfigError(f"{where}.pin_factory: expected a name, got {factory!r}")
        bounce = _seconds(mapping.get("bounce_s", 0.05), f"{where}.bounce_s", 0.0, 0.5)
        hold = _seconds(mapping.get("long_press_s", 1.0), f"{where}.long_press_s", 0.1, 10.0)
        if hold <= bounce:
            raise ConfigError(
                f"{where}.long_press_s: must be longer than bounce_s ({bounce}), got {hold}"
            )
        return cls(pins, factory, hold, bounce)


def _seconds(value: object, key: str, low: float, high: float) -> float:
    if type(value) not in (int, float) or not low <= value <= high:  # type: ignore[operator]
        raise ConfigError(f"{key}: expected seconds {low:g}-{high:g}, got {value!r}")
    return float(value)  # type: ignore[arg-type]
