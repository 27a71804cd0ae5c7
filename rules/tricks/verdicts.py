"""What is wrong at a trick-taking table, as data with evidence.

Every verdict names the event that revealed it, the seat concerned, the trick it
belongs to (1-based; ``None`` before the play), the cards that prove it and a
sentence for people. ``kind`` is the stable name used in JSON and MQTT payloads.
Games add their own kinds (a bid out of turn, a mistaken claim) on the same base.

>>> from rules.cards import Card
>>> v = Revoke(event=31, seat=2, trick=3, cards=(Card.parse("7C"), Card.parse("KS")),
...            detail="seat 2 did not follow spades to trick 3 (7C), later played KS")
>>> v.to_json()["kind"], v.to_json()["trick"], v.to_json()["cards"]
('revoke', 3, ['7C', 'KS'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import Card

__all__ = [
    "CardNotInHand",
    "DuplicateCard",
    "LedOutOfTurn",
    "OutOfPhase",
    "PlayedOutOfTurn",
    "Revoke",
    "TrickVerdict",
    "WrongNumberOfCards",
]


@dataclass(frozen=True, slots=True)
class TrickVerdict:
    """Base of all verdicts of the trick games."""

    kind: ClassVar[str] = "verdict"
    event: int
    seat: int | None
    trick: int | None
    cards: tuple[Card, ...]
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "event": self.event,
            "seat": self.seat,
            "trick": self.trick,
            "cards": [str(c) for c in self.cards],
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Revoke(TrickVerdict):
    """A seat that did not follow suit (or did not trump where it must) though it
    held a card that did. ``trick`` is the trick of the revoke; ``cards`` are the
    card it played there and the card that proves it held the suit (played later,
    laid down on a claim, or seen in its known hand)."""

    kind: ClassVar[str] = "revoke"


@dataclass(frozen=True, slots=True)
class LedOutOfTurn(TrickVerdict):
    """A lead from a seat that was not to lead (seed 000 Laws 47-48)."""

    kind: ClassVar[str] = "led-out-of-turn"


@dataclass(frozen=True, slots=True)
class PlayedOutOfTurn(TrickVerdict):
    """A card played to a trick by a seat whose turn it was not, or a second card
    from a seat to the same trick."""

    kind: ClassVar[str] = "played-out-of-turn"


@dataclass(frozen=True, slots=True)
class DuplicateCard(TrickVerdict):
    """The same card seen twice in one deal: a misread, or a second pack."""

    kind: ClassVar[str] = "duplicate-card"


@dataclass(frozen=True, slots=True)
class CardNotInHand(TrickVerdict):
    """A card from a seat whose hand is known not to hold it (in another hand, in
    the skat or widow)."""

    kind: ClassVar[str] = "card-not-in-hand"


@dataclass(frozen=True, slots=True)
class WrongNumberOfCards(TrickVerdict):
    """A seat with too many or too few cards (seed 000 Law 46)."""

    kind: ClassVar[str] = "wrong-number-of-cards"


@dataclass(frozen=True, slots=True)
class OutOfPhase(TrickVerdict):
    """An event that does not belong to this part of the deal (a card before the
    game is declared, a bid during the play). Recorded; it changes nothing."""

    kind: ClassVar[str] = "out-of-phase"
