"""The readers by game, and the engine each reads into.

>>> sorted(READERS)
['allfours', 'cribbage', 'frog', 'skat']
>>> engine_for("cribbage", {"variant": "five-card"}).rules.game_to
61
>>> engine_for("skat", {"rules": "foster1906"}).rules.rule_set
'foster1906'
>>> engine_for("frog", {"players": 9})
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: players 9: Frog is for three to five
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.errors import InvalidOptionError
from rules.options import build_rules
from rules.reading.cribbage import CribbageReader
from rules.reading.table import DealReader
from rules.reading.tricks import AllFoursReader, FrogReader, SkatReader

__all__ = ["READERS", "engine_for"]

READERS: Final[Mapping[str, type[DealReader]]] = {
    "cribbage": CribbageReader,
    "skat": SkatReader,
    "frog": FrogReader,
    "allfours": AllFoursReader,
}


def engine_for(game: str, options: Mapping[str, Any]) -> Any:
    """A fresh engine for ``game`` with rule ``options`` (strictly checked)."""
    if not isinstance(options, Mapping):
        raise InvalidOptionError(f"{game}: rule options are an object of names and values")
    opts = dict(options)
    renamed = "rules" in opts and game == "skat"
    if renamed:
        opts["rule_set"] = opts.pop("rules")
    try:
        return _engine(game, opts)
    except InvalidOptionError as exc:
        if renamed and str(exc).startswith("rule_set "):  # named as the user gave it
            raise InvalidOptionError("rules " + str(exc)[len("rule_set ") :]) from None
        raise


def _engine(game: str, opts: dict[str, Any]) -> Any:
    try:
        if game == "cribbage":
            from rules.cribbage.game import CribbageGame
            from rules.cribbage.variants import CribbageRules

            return CribbageGame(CribbageRules.from_json(opts))
        if game == "skat":
            from rules.skat.game import SkatGame
            from rules.skat.rulesets import SkatRules

            return SkatGame(SkatRules.from_json(opts))
        if game == "frog":
            from rules.frog.game import FrogGame, FrogRules

            return FrogGame(_build(FrogRules, opts))
        if game == "allfours":
            from rules.allfours.game import AllFoursGame, AllFoursRules

            return AllFoursGame(_build(AllFoursRules, opts))
    except TypeError as exc:  # a mistyped option the rules' own checks did not catch
        raise InvalidOptionError(f"{game}: {exc}") from exc
    raise InvalidOptionError(f"unknown game {game!r}")


def _build(rules_type: Any, opts: dict[str, Any]) -> Any:
    return build_rules(rules_type, opts)
