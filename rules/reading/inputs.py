"""What the referee's reading takes in: table observations and operators' commands,
and what it gives out besides game events: alerts.

An observation is what the table service saw: a card ``placed``, ``moved`` or
``removed``, in a zone of the table layout (its name, its kind and its seat). A
command is what an operator or a button asked for. Both have one strict JSON form
(the bodies of the MQTT payloads, ``docs/mqtt.md``); a malformed one raises
:class:`~rules.errors.InvalidInputError` naming the field, and changes nothing.

>>> obs = TableObservation.from_json({"kind": "placed", "card": "th", "zone": "play.1",
...                                   "t": 12.5})
>>> obs.card, obs.zone_kind, obs.seat
(Card.parse('10H'), 'play', 1)
>>> Command.from_json({"command": "supply", "seat": 1, "card": "QS"}).card
Card.parse('QS')
>>> Command.from_json({"command": "undo", "seat": "x"})
Traceback (most recent call last):
...
rules.errors.InvalidInputError: command undo: field 'seat' must be an integer, got 'x'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Final

from rules.cards import Card, parse_card
from rules.errors import InvalidCardError, InvalidInputError

__all__ = [
    "COMMANDS",
    "OBSERVATION_KINDS",
    "ZONE_KINDS",
    "Alert",
    "Command",
    "TableObservation",
    "parse_input",
]

OBSERVATION_KINDS: Final = frozenset({"placed", "moved", "removed"})
ZONE_KINDS: Final = frozenset(
    {"play", "show", "crib", "starter", "trick", "skat", "tricks", "hand", "widow", "pack"}
)
#: Every command an operator (a button, the web view, the command line) can give.
COMMANDS: Final = frozenset(
    {
        "undo",
        "replace",
        "confirm",
        "dismiss",
        "next_deal",
        "new_game",
        "set_dealer",
        "contract",
        "supply",
        "go",
        "penalty",
    }
)
_MAX_SEAT: Final = 7


def _seat(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{where} must be an integer, got {value!r}"[:200])
    if not 0 <= value <= _MAX_SEAT:  # an integer, but no seat (it said "must be an integer")
        raise InvalidInputError(f"{where} must be a seat from 0 to {_MAX_SEAT}, got {value}"[:200])
    return value


def _card(where: str, value: Any) -> Card:
    if not isinstance(value, str):
        raise InvalidInputError(f"{where} must be a card, got {value!r}"[:200])
    try:
        return parse_card(value)
    except InvalidCardError as exc:
        raise InvalidInputError(f"{where}: {exc}"[:200]) from exc


def _text(where: str, value: Any, limit: int = 64) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise InvalidInputError(f"{where} must be text of at most {limit} characters"[:200])
    return value


def _number(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInputError(f"{where} must be a number, got {value!r}"[:200])
    if isinstance(value, int) and abs(value) > 10**15:
        raise InvalidInputError(f"{where} is out of range")
    if not math.isfinite(value):
        raise InvalidInputError(f"{where} must be a finite number")
    if abs(value) > 1e15:  # as an integer's bound: a t of 1e308 is no time of a table
        raise InvalidInputError(f"{where} is out of range")
    return float(value)


def _zone_parts(name: str) -> tuple[str | None, int | None]:
    """A zone's kind and seat from its name, as the shipped layouts name them
    (``play.0``, ``starter``): for observation lines that carry only the name."""
    kind, _, seat = name.partition(".")
    if kind not in ZONE_KINDS:
        return None, None
    digits = seat.isascii() and seat.isdigit() and len(seat) <= 2
    return kind, int(seat) if digits and int(seat) <= _MAX_SEAT else None


@dataclass(frozen=True, slots=True)
class TableObservation:
    """A card placed, moved or removed, in a zone of the layout (``None``: elsewhere)."""

    kind: str
    card: Card
    zone: str | None = None
    zone_kind: str | None = None
    seat: int | None = None
    t: float = 0.0
    confidence: float = 1.0
    from_zone: str | None = None

    def unread(self) -> str | None:
        """Why this observation's zone is none the referee reads (a name it does not
        know, ``nowhere``, or a seat past any table's, ``play.9``), or ``None``: such
        an observation is read and changes nothing, and the referee says so (a wrong
        table layout would lose every card without a word).

        >>> TableObservation("placed", parse_card("5H"), "play.9", "play", None).unread()
        "zone 'play.9' names no seat of a table"
        >>> TableObservation("placed", parse_card("5H"), "play.1", "play", 1).unread() is None
        True
        """
        if self.kind == "removed" or self.zone is None:
            return None
        if self.zone_kind is None:
            kinds = ", ".join(sorted(ZONE_KINDS))
            return f"zone {self.zone!r} is none the referee reads (its kinds: {kinds})"
        if self.seat is None and "." in self.zone:
            return f"zone {self.zone!r} names no seat of a table"
        return None

    @classmethod
    def from_json(cls, data: Any) -> TableObservation:
        """Read one observation (an MQTT body or a line of ``kiebitz vision watch``).

        A line without ``zone_kind``/``seat`` takes them from the zone's name
        (``play.1``: a play zone of seat 1). Unknown fields are refused, except the
        tracker's evidence (``since``, ``frames``, ``position_mm``).
        """
        if not isinstance(data, dict):
            raise InvalidInputError(f"an observation must be an object, got {type(data).__name__}")
        known = {"kind", "card", "zone", "zone_kind", "seat", "t", "confidence", "from_zone"}
        unknown = set(data) - known - {"since", "frames", "position_mm"}
        if unknown:
            raise InvalidInputError(
                f"observation: unknown field(s) {', '.join(sorted(map(str, unknown)))}"[:200]
            )
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in OBSERVATION_KINDS:
            raise InvalidInputError(
                f"observation: field 'kind' must be placed, moved or removed, got {kind!r}"[:200]
            )
        if "card" not in data:
            raise InvalidInputError("observation: missing field 'card'")
        card = _card("observation: field 'card'", data["card"])
        zone = data.get("zone")
        if zone is not None:
            zone = _text("observation: field 'zone'", zone)
        zone_kind = data.get("zone_kind")
        seat = data.get("seat")
        if zone_kind is not None and (
            not isinstance(zone_kind, str) or zone_kind not in ZONE_KINDS
        ):
            raise InvalidInputError(f"observation: unknown zone kind {zone_kind!r}"[:200])
        if seat is not None:
            seat = _seat("observation: field 'seat'", seat)
        if zone is not None and zone_kind is None:  # a line of `vision watch`: by its name
            zone_kind, named_seat = _zone_parts(zone)
            seat = named_seat if seat is None else seat
        t = _number("observation: field 't'", data.get("t", 0.0))
        confidence = _number("observation: field 'confidence'", data.get("confidence", 1.0))
        if not 0.0 <= confidence <= 1.0:
            raise InvalidInputError(f"observation: confidence {confidence} is not from 0 to 1")
        from_zone = data.get("from_zone")
        if from_zone is not None:
            from_zone = _text("observation: field 'from_zone'", from_zone)
        if kind == "removed":
            zone, zone_kind, seat = None, None, None
        return cls(kind, card, zone, zone_kind, seat, t, confidence, from_zone)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "card": str(self.card),
            "zone": self.zone,
            "zone_kind": self.zone_kind,
            "seat": self.seat,
            "from_zone": self.from_zone,
            "t": self.t,
            "confidence": self.confidence,
        }


# Fields a command may carry, by name: (decoder, JSON type word for messages).
_FIELDS: Final[dict[str, Any]] = {
    "seat": _seat,
    "dealer": _seat,
    "declarer": _seat,
    "card": _card,
    "old": _card,
    "new": _card,
    "turned": _card,
}


@dataclass(frozen=True, slots=True)
class Command:
    """An operator's command; only the fields the command needs are set.

    ``undo`` the last thing read; ``replace`` card ``old`` by ``new`` in event
    ``event`` (everything after is recounted); ``confirm`` an alert (accept what was
    seen) and ``dismiss`` one (or the newest, without ``alert``); ``supply`` the card
    a seat played that the camera missed; ``go`` for a seat; ``contract`` for a
    trick game's deal; ``set_dealer``; ``next_deal``; ``new_game`` (with ``game``
    and ``options``: a new match); ``penalty``.
    """

    command: str
    seat: int | None = None
    card: Card | None = None
    event: int | None = None
    old: Card | None = None
    new: Card | None = None
    alert: str | None = None
    trick: int | None = None
    declarer: int | None = None
    contract: str | None = None
    hand: bool = False
    ouvert: bool = False
    schneider: bool = False
    schwarz: bool = False
    bid: int | None = None
    turned: Card | None = None
    points: int | None = None
    reason: str = ""
    game: str | None = None
    dealer: int | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def unread(self) -> str | None:
        """A command is always read (the observation's :meth:`TableObservation.unread`)."""
        return None

    @classmethod
    def from_json(cls, data: Any) -> Command:
        if not isinstance(data, dict):
            raise InvalidInputError(f"a command must be an object, got {type(data).__name__}")
        name = data.get("command")
        if not isinstance(name, str) or name not in COMMANDS:
            raise InvalidInputError(
                f"unknown command {name!r}; expected one of {', '.join(sorted(COMMANDS))}"[:200]
            )
        where = f"command {name}"
        kwargs: dict[str, Any] = {"command": name}
        types = {f.name: str(f.type) for f in fields(cls)}
        for key, value in data.items():
            if key == "command" or value is None:
                continue
            if key not in types:
                raise InvalidInputError(f"{where}: unknown field {str(key)[:40]!r}")
            here = f"{where}: field {key!r}"
            if key in _FIELDS:
                kwargs[key] = _FIELDS[key](here, value)
            elif types[key] == "bool":
                if not isinstance(value, bool):
                    raise InvalidInputError(f"{here} must be true or false, got {value!r}"[:200])
                kwargs[key] = value
            elif types[key] == "int | None":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidInputError(f"{here} must be an integer, got {value!r}"[:200])
                if abs(value) > 10**6:  # an integer, but none a table reaches
                    raise InvalidInputError(f"{here} is out of range (at most 1,000,000)")
                kwargs[key] = value
            elif key == "options":
                if not isinstance(value, dict) or len(value) > 32:
                    raise InvalidInputError(f"{here} must be an object of at most 32 options")
                kwargs[key] = dict(value)
            else:
                kwargs[key] = _text(here, value, 200 if key == "reason" else 64)
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.command}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "command" or value is None or value is False or value in ("", {}):
                continue
            out[f.name] = str(value) if isinstance(value, Card) else value
        return out


def parse_input(data: Any) -> TableObservation | Command:
    """An observation or a command, told apart by ``command``."""
    if isinstance(data, dict) and "command" in data:
        return Command.from_json(data)
    return TableObservation.from_json(data)


@dataclass(frozen=True, slots=True)
class Alert:
    """Something that cannot be true, or a card the camera missed: for an operator.

    ``id`` is stable: reading the same observations again gives the same alerts
    with the same ids, so a command can name one. ``kind`` is the stable name
    (``missing-card``, ``duplicate-card``, ``not-in-pack``, ``out-of-turn``,
    ``led-out-of-turn``,
    ``no-contract``, ``no-starter``, ``no-dealer``, or an engine verdict's kind that
    is evidence of a misread rather than proof, such as ``hand-mismatch``).
    """

    id: str
    kind: str
    detail: str
    seat: int | None = None
    trick: int | None = None
    cards: tuple[Card, ...] = ()
    event: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "detail": self.detail,
            "seat": self.seat,
            "trick": self.trick,
            "cards": [str(c) for c in self.cards],
            "event": self.event,
        }
