"""What a card is worth in one game: its effective suit, its rank, its points, and
what a player must play to a trick.

A :class:`Contract` is built once per declared game (a spade game, a grand, a
nullo, Frog with hearts trumps, All Fours with the turned-up suit) and answers in
constant time. Trumps have the effective suit :data:`TRUMP`: in a Skat suit game
the jack of hearts is a trump, not a heart ("The four jacks, or Wenzels, which are
always the four best trumps", seed 000 Law 12).

>>> from rules.cards import Card, Suit
>>> spades = Contract.build(
...     "spades", trump=Suit.SPADES, top_trumps=("JC", "JS", "JH", "JD"),
...     order=(1, 10, 13, 12, 9, 8, 7), points={1: 11, 10: 10, 13: 4, 12: 3, 11: 2},
...     obligation=Obligation.FOLLOW)
>>> spades.suit_of(Card.parse("JH")), spades.suit_of(Card.parse("AH"))
('T', 'H')
>>> spades.winner([Card.parse(c) for c in ("AH", "7S", "10H")])
1
>>> spades.points(Card.parse("10H")), spades.trick_points([Card.parse("AH"), Card.parse("JD")])
(10, 13)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from rules.cards import FRENCH_DECK, SUITS, Card, Suit, parse_card

__all__ = ["INDEX", "IX_BY_SUIT", "SUIT_NO", "TRUMP", "Contract", "Obligation", "index_of"]

#: The effective suit of every trump card.
TRUMP: Final = "T"
#: Every card's :attr:`~rules.cards.Card.index` (0..51): one look-up turns a card
#: into a small integer, and the referee's tables are lists indexed by it.
INDEX: Final[dict[Card, int]] = {c: c.index for c in FRENCH_DECK}
#: The suit's place in :attr:`Card.index`, by suit: a Suit hashes as its letter (a
#: str, its hash kept), far cheaper than hashing the card, which the referee would
#: otherwise do for every card played.
SUIT_NO: Final[dict[Suit, int]] = {s: i for i, s in enumerate(SUITS)}
#: Card indexes by suit, then rank (``IX_BY_SUIT[card.suit][card.rank]``): two
#: look-ups, the cheapest way from a card to its index.
IX_BY_SUIT: Final[dict[Suit, tuple[int, ...]]] = {
    s: (-1, *((rank - 1) * 4 + i for rank in range(1, 14))) for i, s in enumerate(SUITS)
}


def index_of(card: Card) -> int:
    """:attr:`Card.index`, fast: ``(rank - 1) * 4 + suit``.

    >>> all(index_of(c) == c.index for c in FRENCH_DECK)
    True
    """
    return IX_BY_SUIT[card.suit][card.rank]


class Obligation(StrEnum):
    """What a player must play to a trick that someone else led."""

    #: Follow suit if able, else anything (Skat, seed 000 Law 45).
    FOLLOW = "follow"
    #: Follow suit if able; if not, trump if able (Frog, seed 002: "If a player
    #: cannot follow suit, he must trump").
    FOLLOW_ELSE_TRUMP = "follow-else-trump"
    #: Follow suit or trump, as he likes; if void in the suit, anything (All Fours).
    FOLLOW_OR_TRUMP = "follow-or-trump"


@dataclass(frozen=True, slots=True, eq=False)
class Contract:
    """The ranking, counting and obligations of one game.

    Build it with :meth:`build`. ``suit_of``, ``power`` and ``points`` are
    dictionary look-ups: a referee validates thousands of deals a second.
    """

    name: str
    trump: str | None
    obligation: Obligation
    _suit: dict[Card, str] = field(repr=False)
    _power: dict[Card, int] = field(repr=False)
    _points: dict[Card, int] = field(repr=False)
    #: The same tables as lists indexed by :data:`INDEX`, for the referee's hot path.
    suit_ix: list[str] = field(repr=False)
    power_ix: list[int] = field(repr=False)
    points_ix: list[int] = field(repr=False)

    @classmethod
    def build(
        cls,
        name: str,
        *,
        trump: str | None,
        order: Sequence[int],
        points: Mapping[int, int],
        obligation: Obligation,
        top_trumps: Iterable[Card | str] = (),
    ) -> Contract:
        """A contract from its trump suit, the cards above it, and the rank order.

        ``order`` lists ranks best first, the same in every suit; ``top_trumps``
        (best first) are trumps above the trump suit whatever their printed suit,
        and they are trumps even with no trump suit (Skat's grand). ``points`` maps
        a rank to its card points.
        """
        tops = [parse_card(c) if isinstance(c, str) else c for c in top_trumps]
        suit: dict[Card, str] = {}
        power: dict[Card, int] = {}
        counts: dict[Card, int] = {}
        rank_power = {rank: len(order) - i for i, rank in enumerate(order)}
        for card in FRENCH_DECK:
            counts[card] = points.get(card.rank, 0)
            if card in tops:
                suit[card] = TRUMP
                power[card] = 200 - tops.index(card)
            elif trump is not None and card.suit.value == trump:
                suit[card] = TRUMP
                power[card] = 100 + rank_power.get(card.rank, 0)
            else:
                suit[card] = card.suit.value
                power[card] = rank_power.get(card.rank, 0)
        suit_ix = [""] * 52
        power_ix = [0] * 52
        points_ix = [0] * 52
        for card, i in INDEX.items():
            suit_ix[i], power_ix[i], points_ix[i] = suit[card], power[card], counts[card]
        return cls(name, trump, obligation, suit, power, counts, suit_ix, power_ix, points_ix)

    def suit_of(self, card: Card) -> str:
        """The suit the card belongs to in play: a suit letter, or :data:`TRUMP`."""
        return self._suit[card]

    def is_trump(self, card: Card) -> bool:
        return self._suit[card] == TRUMP

    def power(self, card: Card) -> int:
        """Higher beats lower within one effective suit; trumps are all above 100."""
        return self._power[card]

    def points(self, card: Card) -> int:
        return self._points[card]

    def trick_points(self, cards: Iterable[Card]) -> int:
        pts = self._points
        return sum(pts[c] for c in cards)

    def winner(self, cards: Sequence[Card]) -> int:
        """Index of the card that wins a trick; ``cards[0]`` was led.

        The highest trump wins; without a trump, the highest card of the suit led.
        """
        suit, power = self._suit, self._power
        best = 0
        best_suit = suit[cards[0]]
        best_power = power[cards[0]]
        for i in range(1, len(cards)):
            card = cards[i]
            s = suit[card]
            if s == best_suit:
                if power[card] > best_power:
                    best, best_power = i, power[card]
            elif s == TRUMP:
                best, best_suit, best_power = i, TRUMP, power[card]
        return best

    def winner_ix(self, cards: Sequence[int]) -> int:
        """:meth:`winner` for card indexes."""
        suit, power = self.suit_ix, self.power_ix
        best = 0
        best_suit = suit[cards[0]]
        best_power = power[cards[0]]
        for i in range(1, len(cards)):
            card = cards[i]
            s = suit[card]
            if s == best_suit:
                if power[card] > best_power:
                    best, best_power = i, power[card]
            elif s == TRUMP:
                best, best_suit, best_power = i, TRUMP, power[card]
        return best

    def legal(self, hand: Iterable[Card], led: Card | None) -> list[Card]:
        """The cards of ``hand`` that may be played to a trick led with ``led``.

        >>> from rules.cards import parse_cards
        >>> frog = Contract.build("frog", trump="H", order=(1, 10, 13, 12, 11, 9, 8, 7, 6),
        ...                       points={}, obligation=Obligation.FOLLOW_ELSE_TRUMP)
        >>> [str(c) for c in frog.legal(parse_cards("7H 9H AC"), Card.parse("KS"))]
        ['7H', '9H']
        """
        cards = list(hand)
        if led is None:
            return cards
        suit = self._suit
        want = suit[led]
        following = [c for c in cards if suit[c] == want]
        if self.obligation is Obligation.FOLLOW:
            return following or cards
        trumps = [c for c in cards if suit[c] == TRUMP] if want != TRUMP else []
        if self.obligation is Obligation.FOLLOW_ELSE_TRUMP:
            return following or trumps or cards
        return following + trumps if following else cards

    def follows(self, led: Card, card: Card) -> bool:
        return self._suit[led] == self._suit[card]

    def shown_void(self, led: Card, card: Card) -> tuple[str, ...]:
        """The effective suits a player shows himself void in by playing ``card``
        to a trick led with ``led``, if he played legally.

        >>> fours = Contract.build("all fours", trump="D", order=(1, 13, 12, 11, 10),
        ...                        points={}, obligation=Obligation.FOLLOW_OR_TRUMP)
        >>> fours.shown_void(Card.parse("KS"), Card.parse("2D")), fours.shown_void(
        ...     Card.parse("KS"), Card.parse("2C"))
        ((), ('S',))
        """
        return self.shown_void_suits(self._suit[led], self._suit[card])

    def shown_void_suits(self, want: str, got: str) -> tuple[str, ...]:
        """:meth:`shown_void` by effective suits: ``got`` played to ``want`` led."""
        if got == want:
            return ()
        if self.obligation is Obligation.FOLLOW:
            return (want,)
        if self.obligation is Obligation.FOLLOW_ELSE_TRUMP:
            return (want,) if got == TRUMP or want == TRUMP else (want, TRUMP)
        return () if got == TRUMP else (want,)
