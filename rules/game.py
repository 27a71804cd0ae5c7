"""One interface over every game: the :class:`Game` protocol and the registry.

Every game is its event log: :meth:`Game.apply` takes the next event and returns
an :class:`~rules.outcome.Outcome` (its verdicts, notes, and the pegs, result or
points where the game has them); :meth:`Game.undo` pops the last event and every
derived number follows; :meth:`Game.to_json` and :meth:`Game.from_json` carry the
log. :meth:`Game.summary` describes the table with at least the same top-level
keys in every game (:data:`SUMMARY_KEYS`: ``scores`` is a list by seat, or by
side where sides score together, partnership cribbage and four-hand All Fours,
as ``score_by``, ``"seat"`` or ``"team"``, says; ``verdicts`` are their JSON).

The registry names the games as a table picks them: :data:`GAMES` maps a name to
its :class:`GameSpec`, :func:`find_game` looks one up, :func:`new_game` starts one
from plain options (as a config file or a web form gives them), checked with an
error that names the option.

>>> sorted(GAMES)
['allfours', 'cribbage', 'frog', 'skat']
>>> g = new_game("cribbage", variant="five-card")
>>> g.rules.game_to, g.phase, g.summary()["score_by"]
(61, 'cut', 'seat')
>>> new_game("skat", rules="foster1906", players=4).rules.rule_set
'foster1906'
>>> new_game("cribbage", players="two")
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: cribbage option 'players': expected an integer, got 'two'
>>> find_game("whist")
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: game 'whist': expected one of allfours, cribbage, frog, skat
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Protocol, Self, runtime_checkable

from rules.allfours.game import AllFoursGame, AllFoursRules
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules
from rules.errors import InvalidOptionError
from rules.eventlog import SUMMARY_KEYS
from rules.events import Event
from rules.frog.game import FrogGame, FrogRules
from rules.outcome import Outcome
from rules.skat.game import SkatGame
from rules.skat.rulesets import RULE_SETS, SkatRules
from rules.verdicts import Verdict

__all__ = ["GAMES", "SUMMARY_KEYS", "Game", "GameSpec", "find_game", "new_game"]


@runtime_checkable
class Game(Protocol):
    """What every game offers (:class:`CribbageGame`, :class:`SkatGame`,
    :class:`FrogGame`, :class:`AllFoursGame`).

    >>> all(isinstance(spec.game_type(), Game) for spec in GAMES.values())
    True
    """

    @property
    def name(self) -> str:
        """The game as its records name it."""
        ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def verdicts(self) -> tuple[Verdict, ...]: ...

    @property
    def phase(self) -> str: ...

    @property
    def turn(self) -> int | None: ...

    def apply(self, event: Event) -> Outcome[Any]: ...

    def undo(self) -> Event: ...

    def summary(self) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: Any) -> Self: ...


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of the registry: its name, its title for people, its class, how its
    rules are made from plain options, and the numbers of players it allows."""

    name: str
    title: str
    game_type: type[Game]
    rules_type: type[Any]
    players: tuple[int, ...]
    #: Option names that differ from the rules' field names (Skat's ``rules``).
    renames: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Options whose value must be one of these.
    choices: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def rules_from_options(self, options: Mapping[str, Any]) -> Any:
        """The game's rules object from plain options. An unknown option, a value of
        the wrong type or an impossible value raises
        :class:`~rules.errors.InvalidOptionError` naming the option.

        >>> GAMES["frog"].rules_from_options({"players": 4})
        FrogRules(players=4)
        >>> GAMES["skat"].rules_from_options({"rules": "isko", "kontra": "yes"})
        Traceback (most recent call last):
        ...
        rules.errors.InvalidOptionError: skat option 'kontra': expected true or false, got 'yes'
        """
        inverse = {field: option for option, field in self.renames.items()}
        fields = {inverse.get(f.name, f.name): f for f in dataclasses.fields(self.rules_type)}
        kwargs: dict[str, Any] = {}
        for option, value in options.items():
            field = fields.get(option)
            if field is None:
                raise InvalidOptionError(
                    f"{self.name} option {option!r}: unknown; expected one of "
                    f"{', '.join(sorted(fields))}"
                )
            check = _CHECKS.get(str(field.type))
            if check is not None:
                check(f"{self.name} option {option!r}", value)
            allowed = self.choices.get(option)
            if allowed is not None and value not in allowed:
                raise InvalidOptionError(
                    f"{self.name} option {option!r}: {value!r}, expected one of "
                    f"{', '.join(allowed)}"
                )
            kwargs[field.name] = value
        if "players" in kwargs and kwargs["players"] not in self.players:
            raise InvalidOptionError(
                f"{self.name} option 'players': {kwargs['players']!r}, expected one of "
                f"{', '.join(map(str, self.players))}"
            )
        try:
            return self.rules_type(**kwargs)
        except InvalidOptionError as exc:
            raise InvalidOptionError(f"{self.name}: {exc}") from exc

    def new(self, **options: Any) -> Game:
        """A new game with these options."""
        game: Callable[[Any], Game] = self.game_type
        return game(self.rules_from_options(options))


def _int(where: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(f"{where}: expected an integer, got {value!r}")


def _bool(where: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{where}: expected true or false, got {value!r}")


def _optional_bool(where: str, value: Any) -> None:
    if value is not None:
        _bool(where, value)


def _str(where: str, value: Any) -> None:
    if not isinstance(value, str):
        raise InvalidOptionError(f"{where}: expected text, got {value!r}")


# Field annotation (as written, `from __future__ import annotations`) -> check.
_CHECKS: Final[dict[str, Callable[[str, Any], None]]] = {
    "int": _int,
    "bool": _bool,
    "bool | None": _optional_bool,
    "str": _str,
}

#: The games, by the name a table picks them by.
GAMES: Final[Mapping[str, GameSpec]] = MappingProxyType(
    {
        "cribbage": GameSpec(
            "cribbage",
            "Cribbage",
            CribbageGame,
            CribbageRules,
            (2, 3, 4),
            choices={"variant": ("five-card", "six-card", "eight-card")},
        ),
        "skat": GameSpec(
            "skat",
            "Skat",
            SkatGame,
            SkatRules,
            (3, 4, 5, 6),
            renames={"rules": "rule_set"},
            choices={"rules": RULE_SETS},
        ),
        "frog": GameSpec("frog", "Frog", FrogGame, FrogRules, (3, 4, 5)),
        "allfours": GameSpec(
            "allfours",
            "All Fours",
            AllFoursGame,
            AllFoursRules,
            (2, 4),
            choices={"game_tie": ("none", "eldest")},
        ),
    }
)

#: Other spellings a table may use (the name All Fours' records use).
_ALIASES: Final = {"all-fours": "allfours"}


def find_game(name: str) -> GameSpec:
    """The registry's entry for ``name``; an unknown name raises
    :class:`~rules.errors.InvalidOptionError` listing the choices.

    >>> find_game("all-fours").title
    'All Fours'
    """
    spec = GAMES.get(_ALIASES.get(name, name)) if isinstance(name, str) else None
    if spec is None:
        raise InvalidOptionError(f"game {name!r}: expected one of {', '.join(sorted(GAMES))}")
    return spec


def new_game(name: str, **options: Any) -> Game:
    """A new game of ``name`` with these options (:meth:`GameSpec.rules_from_options`)."""
    return find_game(name).new(**options)
