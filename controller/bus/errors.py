"""The exception tree of the messaging layer; every leaf also inherits the fitting builtin.

>>> issubclass(PayloadError, ValueError) and issubclass(BrokerError, RuntimeError)
True
"""

from __future__ import annotations

from controller.errors import ControllerError

__all__ = ["BrokerError", "BusError", "PayloadError", "TopicError"]


class BusError(ControllerError):
    """Base class of everything :mod:`controller.bus` raises on purpose."""


class TopicError(BusError, ValueError):
    """A topic or table id that is not Kiebitz's; the message names it."""


class PayloadError(BusError, ValueError):
    """A payload that is not a valid envelope; the message names what and where.

    >>> str(PayloadError("body.card: 'ZZ' does not match '^(A|[2-9]|10|J|Q|K)[SHDC]$'"))
    "body.card: 'ZZ' does not match '^(A|[2-9]|10|J|Q|K)[SHDC]$'"
    """


class BrokerError(BusError, RuntimeError):
    """A private Mosquitto that cannot be started (missing binary, died at start-up)."""
