"""Events shared by every game, and the one strict JSON codec for all of them.

Each game defines its own events (a cut, a bid, a beg, a widow) on :class:`Event` and
lists them in a registry; :func:`event_from_json` reads any of them by the types
of their fields, so every game's codec is equally strict: unknown types and
fields, missing fields and mistyped values raise
:class:`~rules.errors.InvalidEventError` naming the field.

>>> REGISTRY = registry(Play, Claim)
>>> event_from_json({"type": "play", "seat": 1, "card": "th"}, REGISTRY)
Play(seat=1, card=Card.parse('10H'))
>>> event_to_json(Claim(0, "rest", (Card.parse("JC"),)))
{'type': 'claim', 'seat': 0, 'what': 'rest', 'cards': ['JC']}
>>> event_from_json({"type": "play", "seat": "1", "card": "TH"}, REGISTRY)
Traceback (most recent call last):
...
rules.errors.InvalidEventError: play: field 'seat' must be an integer, got '1'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from rules.cards import Card, parse_card
from rules.errors import InvalidCardError, InvalidEventError

__all__ = [
    "Claim",
    "Concede",
    "Correct",
    "Event",
    "Penalty",
    "Play",
    "SetDealer",
    "corrected",
    "event_from_json",
    "event_to_json",
    "registry",
    "replace_card",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events of all games."""

    type: ClassVar[str] = ""
    #: JSON names of fields whose Python name differs (``shown`` is ``cards``).
    json_names: ClassVar[Mapping[str, str]] = {}

    def cards(self) -> tuple[Card, ...]:
        """Every card this event names (for corrections and duplicate checks)."""
        out: list[Card] = []
        for name, shape in _card_fields(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            if shape == "card":
                out.append(value)
            elif shape == "cards":
                out.extend(value)
            else:
                for hand in value:
                    out.extend(hand)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class SetDealer(Event):
    """The first dealer, chosen at the table (drawing for seats, seed 000 Law 9)."""

    type: ClassVar[str] = "set_dealer"
    seat: int


@dataclass(frozen=True, slots=True)
class Play(Event):
    """A card played to a trick."""

    type: ClassVar[str] = "play"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Claim(Event):
    """A seat lays its cards face up and claims (seed 000 Laws 49-50).

    ``what`` is the claim: ``won`` (the single player has 61), ``schneider`` (he
    has 91), ``defeated`` (an adversary: the single player cannot reach his game),
    ``rest`` (the claimant's side takes every trick still to play), ``open`` (the
    hand laid open and the rest offered; the play goes on until the other side
    concedes, as a server's "show cards"). ``shown`` is the hand laid down, where
    the camera saw it.
    """

    type: ClassVar[str] = "claim"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    seat: int
    what: str
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Concede(Event):
    """A seat gives up (seed 000 Law 51, Law 44's abandoned Tournée; a resignation
    in a recorded game): the other side takes the tricks still to play."""

    type: ClassVar[str] = "concede"
    seat: int


@dataclass(frozen=True, slots=True)
class Correct(Event):
    """A misread card put right: in event ``index``, ``old`` was really ``new``."""

    type: ClassVar[str] = "correct"
    index: int
    old: Card
    new: Card

    def cards(self) -> tuple[Card, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """Points entered by a ruling made by hand (seed 000 Laws 20, 23, 24, 27)."""

    type: ClassVar[str] = "penalty"
    seat: int
    points: int
    reason: str = ""


_SHAPES: dict[type[Event], tuple[tuple[str, str], ...]] = {}


def _card_fields(cls: type[Event]) -> tuple[tuple[str, str], ...]:
    """The fields of an event class that hold cards, once per class: (name, shape)."""
    shapes = _SHAPES.get(cls)
    if shapes is None:
        found = []
        for f in fields(cls):
            kind = str(f.type).removesuffix(" | None")
            if kind == "Card":
                found.append((f.name, "card"))
            elif kind == "tuple[Card, ...]":
                found.append((f.name, "cards"))
            elif kind == "tuple[tuple[Card, ...], ...]":
                found.append((f.name, "hands"))
        shapes = _SHAPES[cls] = tuple(found)
    return shapes


def registry(*classes: type[Event]) -> dict[str, type[Event]]:
    """Event classes by their JSON ``type``."""
    return {cls.type: cls for cls in classes}


def replace_card(event: Event, old: Card, new: Card) -> Event:
    """``event`` with card ``old`` replaced by ``new`` wherever it names it."""
    if old not in event.cards():
        raise InvalidEventError(f"correct: event {event.type!r} does not name {old}")
    changes: dict[str, Any] = {}
    for f in fields(event):
        value = getattr(event, f.name)
        if value == old and isinstance(value, Card):
            changes[f.name] = new
        elif isinstance(value, tuple) and value and isinstance(value[0], Card):
            changes[f.name] = tuple(new if c == old else c for c in value)
        elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
            changes[f.name] = tuple(tuple(new if c == old else c for c in h) for h in value)
    return dataclasses.replace(event, **changes)


def corrected(events: Sequence[Event]) -> list[Event]:
    """The log as refereed: each ``correct`` applied to the event it names."""
    effective = list(events)
    for e in events:
        if isinstance(e, Correct):
            effective[e.index] = replace_card(effective[e.index], e.old, e.new)
    return effective


# The codec ----------------------------------------------------------------------


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an event; fields left at their default are left out."""
    data: dict[str, Any] = {"type": event.type}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.default is not MISSING and value == f.default:
            continue
        data[event.json_names.get(f.name, f.name)] = _encode(value)
    return data


def _card(where: str, value: Any) -> Card:
    if not isinstance(value, str):
        raise InvalidEventError(f"{where} must be a card, got {value!r}")
    try:
        return parse_card(value)
    except InvalidCardError as exc:
        raise InvalidEventError(f"{where}: {exc}") from exc


def _cards(where: str, value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidEventError(f"{where} must be a list of cards")
    return tuple(_card(f"{where[:-1]}[{i}]'", v) for i, v in enumerate(value))


def _hands(where: str, value: Any) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise InvalidEventError(f"{where} must be a list of lists of cards")
    return tuple(_cards(f"{where[:-1]}[{i}]'", h) for i, h in enumerate(value))


def _int(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidEventError(f"{where} must be an integer, got {value!r}")
    return value


def _bool(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidEventError(f"{where} must be true or false, got {value!r}")
    return value


def _str(where: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidEventError(f"{where} must be text, got {value!r}")
    return value


# Field annotation (as written, `from __future__ import annotations`) -> decoder.
_DECODERS: dict[str, Callable[[str, Any], Any]] = {
    "int": _int,
    "int | None": _int,
    "bool": _bool,
    "str": _str,
    "str | None": _str,
    "Card": _card,
    "Card | None": _card,
    "tuple[Card, ...]": _cards,
    "tuple[Card, ...] | None": _cards,
    "tuple[tuple[Card, ...], ...] | None": _hands,
    "tuple[tuple[Card, ...], ...]": _hands,
}


def event_from_json(data: Any, types: Mapping[str, type[Event]]) -> Event:
    """Parse and check one event of a game whose event classes are ``types``."""
    if not isinstance(data, dict):
        raise InvalidEventError(f"an event must be an object, got {type(data).__name__}")
    raw_kind = data.get("type")
    cls = types.get(raw_kind) if isinstance(raw_kind, str) else None
    if cls is None:
        raise InvalidEventError(f"unknown event type {raw_kind!r}")
    kind = cls.type
    expected = {cls.json_names.get(f.name, f.name): f for f in fields(cls)}
    unknown = set(data) - set(expected) - {"type"}
    if unknown:
        raise InvalidEventError(f"{kind}: unknown field(s) {', '.join(sorted(unknown))}")
    kwargs: dict[str, Any] = {}
    for json_name, f in expected.items():
        if json_name not in data or data[json_name] is None:
            if f.default is MISSING and f.default_factory is MISSING:
                raise InvalidEventError(f"{kind}: missing field {json_name!r}")
            continue
        decode = _DECODERS[str(f.type)]
        kwargs[f.name] = decode(f"{kind}: field {json_name!r}", data[json_name])
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # a value the event itself refuses
        raise InvalidEventError(f"{kind}: {exc}") from exc
