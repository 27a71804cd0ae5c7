"""The one exception tree of the controller (services and command line).

As in :mod:`rules.errors`, every leaf also inherits the fitting builtin, so a
caller may catch ``ValueError`` or ``OSError`` without knowing this module.
Errors of the rules engine itself (:class:`rules.errors.RulesError`) are not
re-wrapped here; the command line turns them into :class:`UsageError` only where
they come from what the user typed.
"""

from __future__ import annotations

__all__ = ["ControllerError", "MalformedLineError", "UsageError"]


class ControllerError(Exception):
    """Base class of everything the controller raises on purpose."""


class UsageError(ControllerError, ValueError):
    """Bad command-line input: an unknown card, a missing option, an unreadable file.

    The command line prints it as one line, ``kiebitz: error: <message>``, and
    exits with status 2.
    """


class MalformedLineError(ControllerError, ValueError):
    """A line of a batch file that does not have the expected shape.

    >>> str(MalformedLineError("expected 'HAND | STARTER'"))
    "expected 'HAND | STARTER'"
    """
