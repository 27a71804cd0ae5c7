"""What is wrong at the table, as data with evidence.

A card seen played stays played: the game records it and reports what is wrong
with it as a verdict (STYLE practice 1). Every verdict names the event that
revealed it, the seat concerned, the cards that prove it and a sentence for
people. ``kind`` is the stable name used in JSON and MQTT payloads.

>>> from rules.cards import Card
>>> v = OverThirtyOne(event=7, seat=1, cards=(Card.parse("KS"),), detail="count 25 + KS = 35")
>>> v.to_json()
{'kind': 'over-thirty-one', 'event': 7, 'seat': 1, 'cards': ['KS'], 'detail': 'count 25 + KS = 35'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import Card

__all__ = [
    "CardNotInHand",
    "CribCardTakenUp",
    "DealtOutOfTurn",
    "DuplicateCard",
    "GoWhileAbleToPlay",
    "HandMismatch",
    "OutOfPhase",
    "OverThirtyOne",
    "PlayedOutOfTurn",
    "ShownOutOfOrder",
    "Verdict",
    "WrongCribCount",
    "WrongNumberOfCards",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Base of all verdicts."""

    kind: ClassVar[str] = "verdict"
    event: int
    seat: int | None
    cards: tuple[Card, ...]
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "event": self.event,
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class OverThirtyOne(Verdict):
    """A card played that takes the count past thirty-one (seed 003: "up to that limit")."""

    kind: ClassVar[str] = "over-thirty-one"


@dataclass(frozen=True, slots=True)
class DuplicateCard(Verdict):
    """The same card seen twice in one deal: a misread or a second pack."""

    kind: ClassVar[str] = "duplicate-card"


@dataclass(frozen=True, slots=True)
class CardNotInHand(Verdict):
    """A card from a player whose hand is known not to hold it."""

    kind: ClassVar[str] = "card-not-in-hand"


@dataclass(frozen=True, slots=True)
class PlayedOutOfTurn(Verdict):
    """A card (or a go) from a player whose turn it was not."""

    kind: ClassVar[str] = "played-out-of-turn"


@dataclass(frozen=True, slots=True)
class GoWhileAbleToPlay(Verdict):
    """ "Go" said while holding a card that fitted under thirty-one; the evidence is
    that card, seen later in the play or when the hand was laid down."""

    kind: ClassVar[str] = "go-while-able-to-play"


@dataclass(frozen=True, slots=True)
class WrongNumberOfCards(Verdict):
    """A hand dealt, played or shown with too many or too few cards."""

    kind: ClassVar[str] = "wrong-number-of-cards"


@dataclass(frozen=True, slots=True)
class HandMismatch(Verdict):
    """A hand or crib laid down at the show without a card its owner is known to
    have had in it (a card the seat played, a crib card seen laid out)."""

    kind: ClassVar[str] = "hand-mismatch"


@dataclass(frozen=True, slots=True)
class WrongCribCount(Verdict):
    """Too many or too few cards laid out for the crib, or a crib of the wrong size."""

    kind: ClassVar[str] = "wrong-crib-count"


@dataclass(frozen=True, slots=True)
class DealtOutOfTurn(Verdict):
    """The deal by the wrong player (seed 000 Irregularities)."""

    kind: ClassVar[str] = "dealt-out-of-turn"


@dataclass(frozen=True, slots=True)
class CribCardTakenUp(Verdict):
    """A card laid out for the crib played or shown from the hand (seed 000 THE CRIB)."""

    kind: ClassVar[str] = "crib-card-taken-up"


@dataclass(frozen=True, slots=True)
class ShownOutOfOrder(Verdict):
    """A hand shown before its turn: non-dealer first, then dealer, then crib (seed 003)."""

    kind: ClassVar[str] = "shown-out-of-order"


@dataclass(frozen=True, slots=True)
class OutOfPhase(Verdict):
    """An event that does not belong to this part of the deal (a play before the
    starter, a card after the game was won). Recorded; it changes nothing."""

    kind: ClassVar[str] = "out-of-phase"
