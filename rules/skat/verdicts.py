"""Skat's own verdicts, on the trick games' base (:mod:`rules.tricks.verdicts`).

The play's verdicts (revoke, lead out of turn, a card seen twice, a wrong number
of cards) come from the trick core; these are the auction's, the skat's and the
claims'. Each names the law it comes from.

>>> BidOutOfTurn(4, 2, None, (), "position 1 is to bid (Law 34)").to_json()["kind"]
'bid-out-of-turn'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.tricks.verdicts import (
    CardNotInHand,
    DuplicateCard,
    LedOutOfTurn,
    OutOfPhase,
    PlayedOutOfTurn,
    Revoke,
    TrickVerdict,
    Verdict,
    WrongNumberOfCards,
)
from rules.verdicts import DealtOutOfTurn

__all__ = [
    "BidAfterPass",
    "BidOutOfTurn",
    "BidTooLow",
    "CardNotInHand",
    "ClaimMistaken",
    "DealtOutOfTurn",
    "DuplicateCard",
    "IllegalDeclaration",
    "IllegalExchange",
    "InvalidBid",
    "LedOutOfTurn",
    "LookedBack",
    "OutOfPhase",
    "PlayedOutOfTurn",
    "Revoke",
    "SkatSeen",
    "TrickVerdict",
    "Verdict",
    "WrongNumberOfCards",
    "WrongSkatCount",
]


@dataclass(frozen=True, slots=True)
class BidOutOfTurn(Verdict):
    """A call from a player whose turn it was not (Law 34)."""

    kind: ClassVar[str] = "bid-out-of-turn"


@dataclass(frozen=True, slots=True)
class BidAfterPass(Verdict):
    """A call from a player who has passed or was debarred (Laws 24, 27, 35)."""

    kind: ClassVar[str] = "bid-after-pass"


@dataclass(frozen=True, slots=True)
class BidTooLow(Verdict):
    """A figure not above the one already named (Law 35: "Any figure once named
    cannot be recalled")."""

    kind: ClassVar[str] = "bid-too-low"


@dataclass(frozen=True, slots=True)
class InvalidBid(Verdict):
    """A figure that is not the value of any game, or below the lowest bid (Law 33).
    The figure stands: it was said."""

    kind: ClassVar[str] = "invalid-bid"


@dataclass(frozen=True, slots=True)
class IllegalDeclaration(Verdict):
    """A game the player may not announce: announcements after using the skat
    (Law 41), a hand game after taking it up, a trump other than the turned card's
    suit (Laws 28-31), a declaration by a player who did not win the bidding."""

    kind: ClassVar[str] = "illegal-declaration"


@dataclass(frozen=True, slots=True)
class IllegalExchange(Verdict):
    """Cards passed between the adversaries where the game does not allow it: in a
    game that is not a Revolution, after the first card is led, from or to the
    single player, a card the giver does not hold, or an exchange that leaves an
    adversary with more or fewer than ten cards (which Law 46 decides)."""

    kind: ClassVar[str] = "illegal-exchange"


@dataclass(frozen=True, slots=True)
class WrongSkatCount(Verdict):
    """More or fewer than two cards laid out for the skat, found after the first
    trick was turned and quitted: the player "shall lose his game" (Law 32)."""

    kind: ClassVar[str] = "wrong-skat-count"


@dataclass(frozen=True, slots=True)
class SkatSeen(Verdict):
    """The skat seen or taken up by a player not entitled to it (Laws 24, 26, 27),
    or taken up a second time by the player (Law 32)."""

    kind: ClassVar[str] = "skat-seen"


@dataclass(frozen=True, slots=True)
class LookedBack(Verdict):
    """A look at a trick other than the last one turned and quitted, or at the last
    after a card was led to the next, or a player counting his cards (Law 54)."""

    kind: ClassVar[str] = "looked-back"


@dataclass(frozen=True, slots=True)
class ClaimMistaken(Verdict):
    """A claim laid down that the count of the tricks disproves (Laws 49, 50)."""

    kind: ClassVar[str] = "claim-mistaken"
