"""Events of a cribbage game: what happened at the table, in order.

A game is nothing but its events; the state is what replaying them gives. Each
event has a JSON form ``{"type": "play", "seat": 0, "card": "5H"}``, read and
written by the codec all games share (:mod:`rules.events`), which is strict and
raises :class:`~rules.errors.InvalidEventError` naming the field that is wrong,
so a malformed message never reaches the game.

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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules import events as shared
from rules.cards import Card
from rules.events import Correct, Event, Penalty, Play, SetDealer, event_to_json

__all__ = [
    "EVENT_TYPES",
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
class Cut(Event):
    """Cutting for deal: one card per seat, in seat order (seed 000 CUTTING)."""

    type: ClassVar[str] = "cut"
    json_names: ClassVar[Mapping[str, str]] = {"cut": "cards"}
    cut: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """A new deal. ``dealer`` is who dealt, if seen; ``hands`` the dealt cards, if
    known (a shuffling machine, a test); ``crib_card`` the pack's card to the
    crib in three-hand, if seen."""

    type: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    crib_card: Card | None = None


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """Cards laid out for the crib: the cards if seen, else only how many."""

    type: ClassVar[str] = "discard"
    json_names: ClassVar[Mapping[str, str]] = {"crib_cards": "cards"}
    seat: int
    crib_cards: tuple[Card, ...] = ()
    count: int | None = None

    @property
    def number(self) -> int:
        return len(self.crib_cards) if self.count is None else self.count


@dataclass(frozen=True, slots=True)
class Starter(Event):
    """The card turned up after the cut (seed 000 THE STARTER)."""

    type: ClassVar[str] = "starter"
    card: Card


@dataclass(frozen=True, slots=True)
class Go(Event):
    """A player says "Go": he cannot play without passing thirty-one."""

    type: ClassVar[str] = "go"
    seat: int


@dataclass(frozen=True, slots=True)
class Show(Event):
    """A hand (or, with ``crib``, the crib) laid down at the show."""

    type: ClassVar[str] = "show"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    seat: int
    shown: tuple[Card, ...]
    crib: bool = False


@dataclass(frozen=True, slots=True)
class NewGame(Event):
    """Start the next game of the match; games won carry over."""

    type: ClassVar[str] = "new_game"


EVENT_TYPES = shared.registry(
    Cut, SetDealer, Deal, Discard, Starter, Play, Go, Show, Correct, Penalty, NewGame
)


def event_from_json(data: Any) -> Event:
    """Parse and check one cribbage event. Unknown types and fields are errors."""
    return shared.event_from_json(data, EVENT_TYPES)
