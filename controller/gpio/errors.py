"""What the GPIO room raises; all under :class:`controller.errors.ControllerError`.

>>> issubclass(ConfigError, ValueError), issubclass(GpioUnavailableError, OSError)
(True, True)
"""

from __future__ import annotations

from controller.errors import ControllerError

__all__ = ["ConfigError", "GpioError", "GpioUnavailableError"]


class GpioError(ControllerError):
    """Base class of the GPIO room's errors."""


class ConfigError(GpioError, ValueError):
    """A ``gpio`` config section that cannot be used; the message starts with the key path.

    >>> str(ConfigError("gpio.undo: expected a BCM pin 2-27, got 40"))
    'gpio.undo: expected a BCM pin 2-27, got 40'
    """


class GpioUnavailableError(GpioError, OSError):
    """The backend is installed but cannot reach the pins (not a Pi, no ``/dev/gpiochip*``)."""
