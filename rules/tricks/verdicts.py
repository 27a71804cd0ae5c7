"""What is wrong at a trick-taking table, as data with evidence.

Every verdict names the event that revealed it, the seat concerned, the trick it
belongs to (1-based; ``None`` before the play), the cards that prove it and a
sentence for people. ``kind`` is the stable name used in JSON and MQTT payloads.
The base and the kinds every game shares are :mod:`rules.verdicts`; these are the
tricks' own. Games add their own kinds (a bid out of turn, a mistaken claim) on
the same base.

>>> from rules.cards import Card
>>> v = Revoke(event=31, seat=2, trick=3, cards=(Card.parse("7C"), Card.parse("KS")),
...            detail="seat 2 did not follow spades to trick 3 (7C), later played KS")
>>> v.to_json()["kind"], v.to_json()["trick"], v.to_json()["cards"]
('revoke', 3, ['7C', 'KS'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.verdicts import (
    CardNotInHand,
    DuplicateCard,
    OutOfPhase,
    PlayedOutOfTurn,
    Verdict,
    WrongNumberOfCards,
)

__all__ = [
    "CardNotInHand",
    "DuplicateCard",
    "LedOutOfTurn",
    "OutOfPhase",
    "PlayedOutOfTurn",
    "Revoke",
    "TrickVerdict",
    "Verdict",
    "WrongNumberOfCards",
]


#: The one verdict type (:class:`rules.verdicts.Verdict`), by its old name.
TrickVerdict = Verdict


@dataclass(frozen=True, slots=True)
class Revoke(Verdict):
    """A seat that did not follow suit (or did not trump where it must) though it
    held a card that did. ``trick`` is the trick of the revoke; ``cards`` are the
    card it played there and the card that proves it held the suit (played later,
    laid down on a claim, or seen in its known hand)."""

    kind: ClassVar[str] = "revoke"


@dataclass(frozen=True, slots=True)
class LedOutOfTurn(Verdict):
    """A lead from a seat that was not to lead (seed 000 Laws 47-48)."""

    kind: ClassVar[str] = "led-out-of-turn"
