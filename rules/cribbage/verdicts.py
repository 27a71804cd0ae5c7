"""What is wrong at the table, as data with evidence.

A card seen played stays played: the game records it and reports what is wrong
with it as a verdict (STYLE practice 1). Every verdict names the event that
revealed it, the seat concerned, the cards that prove it and a sentence for
people. ``kind`` is the stable name used in JSON and MQTT payloads. The base and
the kinds every game shares (a card seen twice, a card not in the hand, a play
out of turn, a deal out of turn, a wrong number of cards, an event out of
phase) are
:mod:`rules.verdicts`; these are cribbage's own. Cribbage has no tricks: its
verdicts carry ``trick=None``, and its records leave the field out.

>>> from rules.cards import Card
>>> v = OverThirtyOne(event=7, seat=1, trick=None, cards=(Card.parse("KS"),),
...                   detail="count 25 + KS = 35")
>>> v.to_json(trick=False)
{'kind': 'over-thirty-one', 'event': 7, 'seat': 1, 'cards': ['KS'], 'detail': 'count 25 + KS = 35'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.verdicts import (
    CardNotInHand,
    DealtOutOfTurn,
    DuplicateCard,
    OutOfPhase,
    PlayedOutOfTurn,
    Verdict,
    WrongNumberOfCards,
)

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
class OverThirtyOne(Verdict):
    """A card played that takes the count past thirty-one (seed 003: "up to that limit")."""

    kind: ClassVar[str] = "over-thirty-one"


@dataclass(frozen=True, slots=True)
class GoWhileAbleToPlay(Verdict):
    """ "Go" said while holding a card that fitted under thirty-one; the evidence is
    that card, seen later in the play or when the hand was laid down."""

    kind: ClassVar[str] = "go-while-able-to-play"


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
class CribCardTakenUp(Verdict):
    """A card laid out for the crib played or shown from the hand (seed 000 THE CRIB)."""

    kind: ClassVar[str] = "crib-card-taken-up"


@dataclass(frozen=True, slots=True)
class ShownOutOfOrder(Verdict):
    """A hand shown before its turn: non-dealer first, then dealer, then crib (seed 003)."""

    kind: ClassVar[str] = "shown-out-of-order"
