"""Events of a Skat table, in order; the JSON codec is :mod:`rules.events`.

Seats are the table's seats, 0 to n-1 clockwise. Hands in a ``deal`` are listed
by position: Vorhand, Mittelhand, Hinterhand.

>>> event_from_json({"type": "bid", "seat": 1, "value": 18})
Bid(seat=1, value=18)
>>> event_to_json(Declare(2, "spades", hand=True))
{'type': 'declare', 'seat': 2, 'game': 'spades', 'hand': True}
>>> event_from_json({"type": "declare", "seat": 2, "game": "spades", "trumps": "S"})
Traceback (most recent call last):
...
rules.errors.InvalidEventError: declare: unknown field(s) trumps
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from rules import events as base
from rules.cards import Card
from rules.events import (
    Claim,
    Concede,
    Correct,
    Event,
    Penalty,
    Play,
    SetDealer,
    event_to_json,
)
from rules.skat.declaration import Declaration

__all__ = [
    "EVENT_TYPES",
    "Bid",
    "Claim",
    "Concede",
    "Correct",
    "Deal",
    "Declare",
    "Discard",
    "Event",
    "Exchange",
    "Hold",
    "Kontra",
    "LookBack",
    "Pass",
    "Penalty",
    "PickUp",
    "Play",
    "Re",
    "SetDealer",
    "SkatSeen",
    "SkatShown",
    "event_from_json",
    "event_to_json",
]


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """A new deal (Law 18: 3 each, the skat, 4 each, 3 each). ``dealer`` if seen
    (checked, Law 16); ``hands`` (Vorhand, Mittelhand, Hinterhand) and ``skat`` if
    known (a shuffling machine, a record)."""

    type: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    skat: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Bid(Event):
    """A figure named in the auction (Laws 33-35)."""

    type: ClassVar[str] = "bid"
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Hold(Event):
    """ "Yes": the answering player holds the figure offered (Law 34); from Vorhand
    after two passes without a bid, he undertakes to play (Law 37)."""

    type: ClassVar[str] = "hold"
    seat: int


@dataclass(frozen=True, slots=True)
class Pass(Event):
    """A pass; it is final (Law 35)."""

    type: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class PickUp(Event):
    """The single player takes up the skat; ``shown`` the two cards if seen."""

    type: ClassVar[str] = "pick_up"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    seat: int
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """Cards laid out for the skat (Law 32: two, before a card is led): the cards
    if seen, else only how many."""

    type: ClassVar[str] = "discard"
    json_names: ClassVar[Mapping[str, str]] = {"laid": "cards"}
    seat: int
    laid: tuple[Card, ...] = ()
    count: int | None = None

    @property
    def number(self) -> int:
        return len(self.laid) if self.count is None else self.count


@dataclass(frozen=True, slots=True)
class Declare(Event):
    """The game named (Laws 36-41); see :class:`~rules.skat.declaration.Declaration`.
    ``shown`` is the hand laid face up in an open game (Law 5)."""

    type: ClassVar[str] = "declare"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    seat: int
    game: str
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    turned: Card | None = None
    passt: bool = False
    shown: tuple[Card, ...] = ()

    @property
    def declaration(self) -> Declaration:
        """The game announced; raises :class:`InvalidEventError` for one that cannot
        be said at a table."""
        return _declaration(
            self.game, self.hand, self.schneider, self.schwarz, self.ouvert, self.turned, self.passt
        )

    @classmethod
    def of(cls, seat: int, decl: Declaration, shown: tuple[Card, ...] = ()) -> Declare:
        return cls(
            seat,
            decl.game,
            hand=decl.hand,
            schneider=decl.schneider,
            schwarz=decl.schwarz,
            ouvert=decl.ouvert,
            turned=decl.turned,
            passt=decl.passt,
            shown=shown,
        )


@dataclass(frozen=True, slots=True)
class Exchange(Event):
    """In a Revolution, cards an adversary passes to the other adversary after the
    player's hand is laid open and before the first card is led; each gives as many
    as he receives. Law 1 gives only Revolution's value ("revolution, if played,
    60"); the exchange is the game's usual rule (see docs/skat.md)."""

    type: ClassVar[str] = "exchange"
    json_names: ClassVar[Mapping[str, str]] = {"given": "cards"}
    seat: int
    given: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class SkatShown(Event):
    """The skat's cards seen (turned at the end of the play, or a hand game's
    untouched skat)."""

    type: ClassVar[str] = "skat_shown"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    shown: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class SkatSeen(Event):
    """A player looked at the skat, or took it up, when not entitled to (Laws 24,
    26, 27). ``taken``: he took it into his hand (Law 27)."""

    type: ClassVar[str] = "skat_seen"
    seat: int
    taken: bool = False


@dataclass(frozen=True, slots=True)
class LookBack(Event):
    """A player looks at a trick turned and quitted (``trick``, from 1), or counts
    his cards (``trick`` 0) (Law 54)."""

    type: ClassVar[str] = "look_back"
    seat: int
    trick: int


@dataclass(frozen=True, slots=True)
class Kontra(Event):
    """Kontra from an adversary (house rule): the game counts double."""

    type: ClassVar[str] = "kontra"
    seat: int


@dataclass(frozen=True, slots=True)
class Re(Event):
    """Re from the single player after Kontra (house rule): double again."""

    type: ClassVar[str] = "re"
    seat: int


@cache
def _declaration(
    game: str,
    hand: bool,
    schneider: bool,
    schwarz: bool,
    ouvert: bool,
    turned: Card | None,
    passt: bool,
) -> Declaration:
    # A table announces the same few games over and over: build each once.
    return Declaration(
        game,
        hand=hand,
        schneider=schneider,
        schwarz=schwarz,
        ouvert=ouvert,
        turned=turned,
        passt=passt,
    )


EVENT_TYPES = base.registry(
    SetDealer,
    Deal,
    Bid,
    Hold,
    Pass,
    PickUp,
    Discard,
    Declare,
    Exchange,
    Play,
    Claim,
    Concede,
    SkatShown,
    SkatSeen,
    LookBack,
    Kontra,
    Re,
    Correct,
    Penalty,
)


def event_from_json(data: Any) -> Event:
    """Parse and check one Skat event."""
    return base.event_from_json(data, EVENT_TYPES)
