"""What is wrong at the table, as data with evidence: the one verdict type of every game.

A card seen played stays played: a game records it and reports what is wrong
with it as a verdict (STYLE practice 1). Every verdict names the event that
revealed it, the seat concerned, the trick it belongs to (1-based; ``None``
before the play, and always in cribbage, which has no tricks), the cards that
prove it and a sentence for people. ``kind`` is the stable name used in JSON and
MQTT payloads. The kinds every game can raise live here, one class each; a game
adds its own (a revoke, a card past thirty-one, a bid out of turn) on the same base.

>>> from rules.cards import Card
>>> v = DuplicateCard(event=4, seat=None, trick=None, cards=(Card.parse("JS"),),
...                   detail="JS dealt twice")
>>> v.to_json()
{'kind': 'duplicate-card', 'event': 4, 'seat': None, 'trick': None, 'cards': ['JS'], \
'detail': 'JS dealt twice'}
>>> v.to_json(trick=False)["kind"], "trick" in v.to_json(trick=False)
('duplicate-card', False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import Card

__all__ = [
    "CardNotInHand",
    "DealtOutOfTurn",
    "DuplicateCard",
    "OutOfPhase",
    "PlayedOutOfTurn",
    "Verdict",
    "WrongNumberOfCards",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Base of all verdicts of all games."""

    kind: ClassVar[str] = "verdict"
    event: int
    seat: int | None
    trick: int | None
    cards: tuple[Card, ...]
    detail: str

    def to_json(self, *, trick: bool = True) -> dict[str, Any]:
        """The JSON form; ``trick=False`` leaves ``trick`` out, for the records of a
        game without tricks (cribbage's records have never carried it)."""
        data: dict[str, Any] = {"kind": self.kind, "event": self.event, "seat": self.seat}
        if trick:
            data["trick"] = self.trick
        data["cards"] = [str(c) for c in self.cards]
        data["detail"] = self.detail
        return data


@dataclass(frozen=True, slots=True)
class DuplicateCard(Verdict):
    """The same card seen twice in one deal: a misread, or a second pack."""

    kind: ClassVar[str] = "duplicate-card"


@dataclass(frozen=True, slots=True)
class CardNotInHand(Verdict):
    """A card from a seat whose hand is known not to hold it (in another hand, in
    the crib, the skat or the widow)."""

    kind: ClassVar[str] = "card-not-in-hand"


@dataclass(frozen=True, slots=True)
class PlayedOutOfTurn(Verdict):
    """A card (or a go) from a seat whose turn it was not, or a second card from a
    seat to the same trick."""

    kind: ClassVar[str] = "played-out-of-turn"


@dataclass(frozen=True, slots=True)
class WrongNumberOfCards(Verdict):
    """A hand dealt, played or shown with too many or too few cards (seed 000 Law 46)."""

    kind: ClassVar[str] = "wrong-number-of-cards"


@dataclass(frozen=True, slots=True)
class OutOfPhase(Verdict):
    """An event that does not belong to this part of the deal (a card before the
    game is declared or the starter turned, a bid during the play, a card after the
    game was won). Recorded; it changes nothing."""

    kind: ClassVar[str] = "out-of-phase"


@dataclass(frozen=True, slots=True)
class DealtOutOfTurn(Verdict):
    """The deal by the wrong player (cribbage: seed 000 Irregularities; Skat: Law 20,
    "the deal must stand if it is complete ... may be penalized 10 points")."""

    kind: ClassVar[str] = "dealt-out-of-turn"
