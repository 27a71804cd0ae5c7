"""Cards, suits, ranks and decks, and the one parser for everything that names a card.

The notation is the same everywhere in Kiebitz: rank ``A 2 3 4 5 6 7 8 9 10 J Q K``
followed by suit ``S H D C``.

>>> Card.parse("10H")
Card.parse('10H')
>>> str(Card.parse("th")), str(Card.parse("QS")), str(Card.parse("🃛"))
('10H', 'QS', 'JC')
>>> [str(c) for c in parse_cards("5H 5s, 🂹🃙")]
['5H', '5S', '9H', '9C']
>>> Card.parse("11H")
Traceback (most recent call last):
...
rules.errors.InvalidCardError: invalid card '11H': unknown rank '11'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.errors import InvalidCardError, quoted

__all__ = [
    "ACE",
    "FRENCH_DECK",
    "FROG_DECK",
    "JACK",
    "KING",
    "QUEEN",
    "RANKS",
    "SKAT_DECK",
    "Card",
    "Suit",
    "parse_card",
    "parse_cards",
]

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13

#: Rank numbers in cribbage order, ace low. Rank names are what the notation uses.
RANKS: Final[tuple[int, ...]] = tuple(range(1, 14))
_RANK_NAMES: Final = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
_RANK_WORDS: Final = {
    1: "ace",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
}


class Suit(StrEnum):
    """The four French suits, in the order of the Unicode playing-card block."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def word(self) -> str:
        return self.name.lower()


SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
_SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}

# Suit letters and symbols (black and white forms) the parser accepts.
_SUIT_TOKENS: Final = {
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_RANK_TOKENS: Final = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
}

# Unicode "Playing Cards" block: U+1F0A1..U+1F0DE. Low nibble 1..14 is
# A, 2..10, J, Knight (not in our packs), Q, K; high nibble A/B/C/D is S/H/D/C.
_UNICODE_BASE: Final = {0xA: Suit.SPADES, 0xB: Suit.HEARTS, 0xC: Suit.DIAMONDS, 0xD: Suit.CLUBS}
_UNICODE_RANK: Final = {**{n: n for n in range(1, 12)}, 13: QUEEN, 14: KING}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card: ``rank`` 1 (ace) to 13 (king) and a ``suit``.

    Immutable and hashable; ``str()`` and :meth:`parse` round-trip.

    >>> Card(12, Suit.HEARTS)
    Card.parse('QH')
    >>> Card.parse("QH") == Card(12, Suit.HEARTS), len({Card.parse("qh"), Card.parse("QH")})
    (True, 1)
    >>> Card.parse("JC").symbol
    '🃛'
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise InvalidCardError(repr(self.rank), "rank must be 1 (ace) to 13 (king)")
        if not isinstance(self.suit, Suit):
            raise InvalidCardError(repr(self.suit), "suit must be a Suit")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10H``, ``TH``, ``th``, ``QS``, ``Q♠`` or a Unicode card such as ``🃛``."""
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with :attr:`index` ``index`` (0..51).

        >>> Card.from_index(0), Card.from_index(51)
        (Card.parse('AS'), Card.parse('KC'))
        """
        if not 0 <= index < 52:
            raise InvalidCardError(str(index), "card index must be 0..51")
        return _BY_INDEX[index]

    @property
    def index(self) -> int:
        """0..51, rank-major: ``(rank - 1) * 4 + suit``; the bulk scorers' encoding."""
        return (self.rank - 1) * 4 + _SUIT_INDEX[self.suit]

    @property
    def rank_name(self) -> str:
        return _RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def rank_word(self) -> str:
        """``'five'``, ``'jack'``: how the rule texts name the rank."""
        return _RANK_WORDS[self.rank]

    @property
    def symbol(self) -> str:
        """The Unicode playing-card character for this card."""
        nibble = next(k for k, v in _UNICODE_BASE.items() if v is self.suit)
        low = {QUEEN: 13, KING: 14}.get(self.rank, self.rank)
        return chr(0x1F000 + nibble * 16 + low)

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, for people: ``5♥``."""
        return f"{self.rank_name}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_BY_INDEX: Final[tuple[Card, ...]] = tuple(Card(r, s) for r in RANKS for s in SUITS)


def _parse_unicode(ch: str) -> Card:
    code = ord(ch)
    high, low = (code - 0x1F000) >> 4, code & 0xF
    if not 0x1F0A1 <= code <= 0x1F0DE or high not in _UNICODE_BASE:
        raise InvalidCardError(ch, "not a playing-card character")
    if low == 12:
        raise InvalidCardError(ch, "the knight is not in the French, Skat or Frog pack")
    if low not in _UNICODE_RANK:
        raise InvalidCardError(ch, "not a rank of the French pack")
    return Card(_UNICODE_RANK[low], _UNICODE_BASE[high])


# variation selectors: a symbol asked for as a picture (emoji) or as text
_EMOJI, _TEXT = "\ufe0f", "\ufe0e"


def parse_card(text: str) -> Card:
    """Parse one card. Malformed text raises :class:`InvalidCardError` naming it.

    >>> parse_card(" 10♥ ")
    Card.parse('10H')
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    rules.errors.InvalidCardError: invalid card '1H': unknown rank '1'

    A suit as a phone's keyboard types it (the symbol and a variation selector,
    U+FE0F, asking for its emoji picture) is that suit:

    >>> parse_card("5\u2665\ufe0f")
    Card.parse('5H')
    """
    if not isinstance(text, str):
        raise InvalidCardError(repr(text), "expected text")
    token = text.strip().replace(_EMOJI, "").replace(_TEXT, "")
    if len(token) == 1 and 0x1F0A0 <= ord(token) <= 0x1F0FF:
        return _parse_unicode(token)
    if len(token) < 2:
        raise InvalidCardError(text, "too short: a card is a rank and a suit, e.g. 10H")
    rank_text, suit_text = token[:-1].upper(), token[-1].upper()
    suit = _SUIT_TOKENS.get(suit_text)
    if suit is None:
        if token.upper() in _RANK_TOKENS:  # "10", "Q": a rank alone ("unknown suit '0'")
            raise InvalidCardError(text, "a rank without its suit (add S H D C, e.g. 10H)")
        raise InvalidCardError(text, f"unknown suit {token[-1]!r} (use S H D C)")
    rank = _RANK_TOKENS.get(rank_text)
    if rank is None:
        raise InvalidCardError(text, f"unknown rank {quoted(token[:-1])}")
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: separated by spaces or commas, or a run of Unicode cards.

    >>> parse_cards(["JD", "🂥"])
    [Card.parse('JD'), Card.parse('5S')]
    >>> parse_cards("5H XX")
    Traceback (most recent call last):
    ...
    rules.errors.InvalidCardError: invalid card 'XX': unknown suit 'X' (use S H D C)
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[Card] = []
    for token in tokens:
        stripped = token.strip()
        if stripped and all(0x1F0A0 <= ord(ch) <= 0x1F0FF for ch in stripped):
            cards.extend(_parse_unicode(ch) for ch in stripped)
        else:
            cards.append(parse_card(token))
    return cards


def _deck(ranks: Iterable[int]) -> tuple[Card, ...]:
    rank_list = list(ranks)
    return tuple(Card(r, s) for s in SUITS for r in rank_list)


#: The full 52-card pack (cribbage, All Fours).
FRENCH_DECK: Final = _deck(RANKS)
#: The 32-card Skat pack: A K Q J 10 9 8 7 of each suit.
SKAT_DECK: Final = _deck((ACE, KING, QUEEN, JACK, 10, 9, 8, 7))
#: The 36-card Frog pack: A 10 K Q J 9 8 7 6 of each suit.
FROG_DECK: Final = _deck((ACE, 10, KING, QUEEN, JACK, 9, 8, 7, 6))
