"""What the peg board's host side raises; all under :class:`controller.errors.ControllerError`.

>>> issubclass(LayoutFileError, ValueError), issubclass(BoardLostError, ConnectionError)
(True, True)
"""

from __future__ import annotations

from controller.errors import ControllerError

__all__ = [
    "BoardError",
    "BoardLostError",
    "BoardRefusedError",
    "BoardTimeoutError",
    "LayoutFileError",
    "StateError",
]


class BoardError(ControllerError):
    """Base class of the peg board's errors."""


class LayoutFileError(BoardError, ValueError):
    """A board layout file that cannot be used: names the file and the key path."""


class StateError(BoardError, ValueError):
    """A board state that the layout cannot show (a peg past the game hole, a bad seat)."""


class BoardRefusedError(BoardError, ConnectionError):
    """The board answered but cannot be used: another protocol version, another layout."""


class BoardLostError(BoardError, ConnectionError):
    """The port went away or the board stopped answering."""


class BoardTimeoutError(BoardError, TimeoutError):
    """The board did not show a state within the time asked for."""
