"""The one exception tree of the rules engine.

Only malformed *input* raises: a card that cannot be parsed, an event that is
missing a field, an option that does not exist. Everything that is merely wrong
at the table (a revoke, a card past thirty-one) is reported as a verdict, never
raised. Every leaf also inherits the fitting builtin, so callers may catch
``ValueError`` without knowing this module.
"""

from __future__ import annotations


def quoted(text: str, limit: int = 24) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters: what a
    hostile line holds is named, never echoed whole.

    >>> quoted("5H"), quoted("x" * 30)
    ("'5H'", "'xxxxxxxxxxxxxxxxxxxxxxxx…'")
    """
    return repr(text if len(text) <= limit else text[:limit] + "…")


class RulesError(Exception):
    """Base class of everything the rules engine raises."""


class InvalidCardError(RulesError, ValueError):
    """Text that does not name a card (of the deck in question).

    ``token`` is the offending text, so a caller can point at it.
    """

    def __init__(self, token: str, why: str = "not a card") -> None:
        self.token = token
        self.why = why
        super().__init__(f"invalid card {quoted(token)}: {why}")


class InvalidEventError(RulesError, ValueError):
    """An event that is malformed (missing or mistyped fields, unknown type)."""


class InvalidPlayError(RulesError, ValueError):
    """A sequence given to a pure scoring function that no table can produce.

    Games never raise this for what happens at the table: they record the card
    and flag it. It is for direct callers of the scoring functions.
    """


class InvalidOptionError(RulesError, ValueError):
    """A rule-set option that does not exist or has an impossible value."""


class InvalidInputError(RulesError, ValueError):
    """A table observation or an operator's command that is malformed (the
    referee's reading, :mod:`rules.reading`): the message names the field."""
