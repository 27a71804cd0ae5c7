"""Rule options read from JSON: known names, values of the declared type.

Every game's rules are a frozen dataclass whose ``__post_init__`` checks the
values it knows about (``players 9: Frog is for three to five``). What JSON can
bring besides (``"players": [1]``, ``"game_to": "x"``, ``true`` for a count,
``2.0`` for a whole number) is refused here first, naming the option, so no
mistyped value reaches arithmetic as a ``TypeError``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Rules:
...     players: int = 2
...     strict: bool = True
>>> build_rules(Rules, {"players": 3})
Rules(players=3, strict=True)
>>> build_rules(Rules, {"players": [1]})
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: players [1]: expected a whole number
>>> build_rules(Rules, {"strict": 1})
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: strict 1: expected true or false
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

from rules.errors import InvalidOptionError

__all__ = ["build_rules"]

R = TypeVar("R")

_WANT: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "int": ("a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "str": ("text", lambda v: isinstance(v, str)),
    "int | None": (
        "a whole number or null",
        lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    ),
}


def build_rules(cls: type[R], data: Any) -> R:
    """``cls(**data)`` when ``data`` is an object of ``cls``'s options, each of its
    declared type; else :class:`InvalidOptionError` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise InvalidOptionError("rules must be an object of option names and values")
    declared = {f.name: str(f.type) for f in fields(cls)}  # type: ignore[arg-type]
    unknown = [str(k)[:40] for k in data if k not in declared]
    if unknown:
        raise InvalidOptionError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
    for name, value in data.items():
        want = _WANT.get(declared[name])
        if want is not None and not want[1](value):
            shown = repr(value)
            shown = shown if len(shown) <= 40 else shown[:40] + "…"
            raise InvalidOptionError(f"{name} {shown}: expected {want[0]}")
    return cls(**data)
