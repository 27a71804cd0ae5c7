"""Events of a cribbage game: what happened at the table, in order.

A game is nothing but its events; the state is what replaying them gives. Each
event has a JSON form ``{"type": "play", "seat": 0, "card": "5H"}``; the codec
is strict and raises :class:`~rules.errors.InvalidEventError` naming the field
that is wrong, so a malformed message never reaches the game.

>>> event_from_json({"type": "play", "seat": 1, "card": "10h"})
Play(seat=1, card=Card.parse('10H'))
>>> event_to_json(Go(0))
{'type': 'go', 'seat': 0}
>>> event_from_json({"type": "play", "seat": 1})
Traceback (most recent call last):
...
rules.errors.InvalidEventError: play: missing field 'card'
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from rules.cards import Card, parse_card
from rules.errors import InvalidCardError, InvalidEventError

__all__ = [
    "Correct",
    "Cut",
    "Deal",
    "Discard",
    "Event",
    "Go",
    "NewGame",
    "Penalty",
    "Play",
    "SetDealer",
    "Show",
    "Starter",
    "event_from_json",
    "event_to_json",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events."""

    type: ClassVar[str] = ""

    def cards(self) -> tuple[Card, ...]:
        """Every card this event names (for corrections and duplicate checks)."""
        return ()


@dataclass(frozen=True, slots=True)
class Cut(Event):
    """Cutting for deal: one card per seat, in seat order (seed 000 CUTTING)."""

    type: ClassVar[str] = "cut"
    cut: tuple[Card, ...]

    def cards(self) -> tuple[Card, ...]:
        return self.cut


@dataclass(frozen=True, slots=True)
class SetDealer(Event):
    """The first dealer set by hand instead of a cut."""

    type: ClassVar[str] = "set_dealer"
    seat: int


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """A new deal. ``dealer`` is who dealt, if seen; ``hands`` the dealt cards, if
    known (a shuffling machine, a test); ``crib_card`` the pack's card to the
    crib in three-hand, if seen."""

    type: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    crib_card: Card | None = None

    def cards(self) -> tuple[Card, ...]:
        dealt = tuple(c for hand in self.hands or () for c in hand)
        return dealt + ((self.crib_card,) if self.crib_card else ())


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """Cards laid out for the crib: the cards if seen, else only how many."""

    type: ClassVar[str] = "discard"
    seat: int
    crib_cards: tuple[Card, ...] = ()
    count: int | None = None

    @property
    def number(self) -> int:
        return len(self.crib_cards) if self.count is None else self.count

    def cards(self) -> tuple[Card, ...]:
        return self.crib_cards


@dataclass(frozen=True, slots=True)
class Starter(Event):
    """The card turned up after the cut (seed 000 THE STARTER)."""

    type: ClassVar[str] = "starter"
    card: Card

    def cards(self) -> tuple[Card, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class Play(Event):
    """A card played to the count."""

    type: ClassVar[str] = "play"
    seat: int
    card: Card

    def cards(self) -> tuple[Card, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class Go(Event):
    """A player says "Go": he cannot play without passing thirty-one."""

    type: ClassVar[str] = "go"
    seat: int


@dataclass(frozen=True, slots=True)
class Show(Event):
    """A hand (or, with ``crib``, the crib) laid down at the show."""

    type: ClassVar[str] = "show"
    seat: int
    shown: tuple[Card, ...]
    crib: bool = False

    def cards(self) -> tuple[Card, ...]:
        return self.shown


@dataclass(frozen=True, slots=True)
class Correct(Event):
    """A misread card put right: in event ``index``, ``old`` was really ``new``."""

    type: ClassVar[str] = "correct"
    index: int
    old: Card
    new: Card


@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """Points awarded by a ruling entered by hand (a dispute settled, a claim)."""

    type: ClassVar[str] = "penalty"
    seat: int
    points: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class NewGame(Event):
    """Start the next game of the match; games won carry over."""

    type: ClassVar[str] = "new_game"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (Cut, SetDealer, Deal, Discard, Starter, Play, Go, Show, Correct, Penalty, NewGame)
}

# JSON field name -> dataclass field name, where they differ.
_JSON_NAMES = {
    ("cut", "cut"): "cards",
    ("discard", "crib_cards"): "cards",
    ("show", "shown"): "cards",
}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an event; ``None`` fields are left out."""
    data: dict[str, Any] = {"type": event.type}
    for f in fields(event):
        value = getattr(event, f.name)
        if value is None:
            continue
        data[_JSON_NAMES.get((event.type, f.name), f.name)] = _encode(value)
    return data


def _card(kind: str, name: str, value: Any) -> Card:
    if not isinstance(value, str):
        raise InvalidEventError(f"{kind}: field {name!r} must be a card, got {value!r}")
    try:
        return parse_card(value)
    except InvalidCardError as exc:
        raise InvalidEventError(f"{kind}: field {name!r}: {exc}") from exc


def _cards(kind: str, name: str, value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidEventError(f"{kind}: field {name!r} must be a list of cards")
    return tuple(_card(kind, f"{name}[{i}]", v) for i, v in enumerate(value))


def _int(kind: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidEventError(f"{kind}: field {name!r} must be an integer, got {value!r}")
    return value


def event_from_json(data: Any) -> Event:
    """Parse and check one event. Unknown types and fields are errors."""
    if not isinstance(data, dict):
        raise InvalidEventError(f"an event must be an object, got {type(data).__name__}")
    raw_kind = data.get("type")
    cls = EVENT_TYPES.get(raw_kind) if isinstance(raw_kind, str) else None
    if cls is None:
        raise InvalidEventError(f"unknown event type {raw_kind!r}")
    kind: str = cls.type
    kwargs: dict[str, Any] = {}
    expected = {_JSON_NAMES.get((kind, f.name), f.name): f for f in fields(cls)}
    unknown = set(data) - set(expected) - {"type"}
    if unknown:
        raise InvalidEventError(f"{kind}: unknown field(s) {', '.join(sorted(unknown))}")
    for json_name, f in expected.items():
        if json_name not in data or data[json_name] is None:
            if f.default is MISSING and f.default_factory is MISSING:
                raise InvalidEventError(f"{kind}: missing field {json_name!r}")
            continue
        value = data[json_name]
        if f.name in ("card", "old", "new", "crib_card"):
            kwargs[f.name] = _card(kind, json_name, value)
        elif f.name in ("cut", "crib_cards", "shown"):
            kwargs[f.name] = _cards(kind, json_name, value)
        elif f.name == "hands":
            if not isinstance(value, list):
                raise InvalidEventError(f"{kind}: field 'hands' must be a list of lists of cards")
            kwargs[f.name] = tuple(_cards(kind, f"hands[{i}]", h) for i, h in enumerate(value))
        elif f.name in ("seat", "dealer", "index", "points", "count"):
            kwargs[f.name] = _int(kind, json_name, value)
        elif f.name == "crib":
            if not isinstance(value, bool):
                raise InvalidEventError(f"{kind}: field 'crib' must be true or false")
            kwargs[f.name] = value
        elif f.name == "reason":
            if not isinstance(value, str):
                raise InvalidEventError(f"{kind}: field 'reason' must be text")
            kwargs[f.name] = value
    return cls(**kwargs)
