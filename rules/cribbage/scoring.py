"""The show: what a hand or the crib is worth with the starter.

Counted as the rule texts count it (seed 000/002 "OBJECTS OF THE GAME" and the
sections after it; seed 003 on the show; seed 004 §84–85): every fifteen for
two, pairs (a pair 2, a pair royal 6, a double pair royal 12), every run one a
card (double, triple and double-double runs by substituting duplicates), a
flush of the whole hand (one a card, one more if the starter matches; in the
crib only with the starter, seed 003), and his nobs, the jack of the starter's
suit in hand or crib, one.

Hand sizes: 3 cards (five-card cribbage), 4 (six-card, and three- and four-hand),
6 (eight-card). The crib has 4 cards in every variant.

>>> from rules.cards import parse_cards, Card
>>> show = score_show(parse_cards("5H 5S 5C JD"), Card.parse("5D"))
>>> show.total
29
>>> for said in show.speech().split(", "):
...     print(said)
fifteen two
fifteen four
fifteen six
fifteen eight
fifteen ten
fifteen twelve
fifteen fourteen
fifteen sixteen
a double pair royal is twenty-eight and his nobs is twenty-nine
>>> show_total(parse_cards("7H 7S 8C 8D"), Card.parse("9D"))
24
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any, Final, NamedTuple

from rules.cards import JACK, Card
from rules.errors import InvalidPlayError

__all__ = [
    "CRIB_SIZE",
    "HAND_SIZES",
    "ScoreItem",
    "Show",
    "pip_value",
    "rank_pattern",
    "score_show",
    "show_total",
]

#: Hand sizes the show knows: five-card (3), six-card and 3/4-hand (4), eight-card (6).
HAND_SIZES: Final = frozenset({3, 4, 6})
#: The crib always holds four cards (two from each of two players, or one from each
#: of three or four, with the pack's card in three-hand).
CRIB_SIZE: Final = 4

PAIR_KINDS: Final = {2: "pair", 3: "pair royal", 4: "double pair royal"}


def pip_value(card: Card) -> int:
    """Counting value: court cards and tens are ten, the ace one (seed 000 CARDS).

    >>> from rules.cards import Card
    >>> pip_value(Card.parse("KS")), pip_value(Card.parse("AS")), pip_value(Card.parse("7D"))
    (10, 1, 7)
    """
    return 10 if card.rank >= 10 else card.rank


class ScoreItem(NamedTuple):
    """One thing that scores, with the cards that make it.

    ``kind`` is the name the rule texts use: ``fifteen``, ``pair``, ``pair royal``,
    ``double pair royal``, ``run``, ``flush``, ``his nobs``; in the play also
    ``thirty-one``, ``go`` (one for last), ``his heels``, ``three for last``,
    ``penalty``. A named tuple rather than a frozen dataclass: the show makes
    many of them and a tuple is several times cheaper to build.
    """

    kind: str
    points: int
    cards: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": self.points, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Show:
    """A counted hand or crib: the items in the order a player says them."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def speech(self) -> str:
        """The count said aloud, in the rule texts' words."""
        from rules.cribbage.speech import say_show

        return say_show(self.items)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "total": self.total,
            "items": [item.to_json() for item in self.items],
        }


# A rank pattern is what the show is worth by ranks alone (fifteens, pairs, runs),
# for cards sorted by rank: (kind, positions into the sorted cards, points).
PatternItem = tuple[str, tuple[int, ...], int]


@cache
def rank_pattern(ranks: tuple[int, ...]) -> tuple[PatternItem, ...]:
    """Fifteens, pairs and runs of a sorted tuple of ranks, as positions.

    Everything in the show that does not depend on suits depends only on this
    multiset of ranks, so it is computed once per multiset and cached (there are
    6,188 multisets of five ranks).

    >>> rank_pattern((5, 5, 10))
    (('fifteen', (0, 2), 2), ('fifteen', (1, 2), 2), ('pair', (0, 1), 2))
    """
    if list(ranks) != sorted(ranks):
        raise ValueError("rank_pattern needs ranks in ascending order")
    values = [10 if r >= 10 else r for r in ranks]
    items: list[PatternItem] = []
    # Fifteens: every combination of two or more cards, "the cards being combined
    # in every possible way to make that number" (seed 003).
    items.extend(("fifteen", combo, 2) for combo in _fifteens(values))
    # Pairs, pairs royal, double pairs royal: 2, 6, 12, the number of pairs times two.
    positions: dict[int, list[int]] = {}
    for i, r in enumerate(ranks):
        positions.setdefault(r, []).append(i)
    for r in sorted(positions):
        same = positions[r]
        if len(same) >= 2:
            items.append((PAIR_KINDS[len(same)], tuple(same), len(same) * (len(same) - 1)))
    # Runs: maximal stretches of consecutive ranks, three or longer; each choice of
    # one card per rank is a run of its own (double, triple and double-double runs).
    distinct = sorted(positions)
    start = 0
    while start < len(distinct):
        end = start
        while end + 1 < len(distinct) and distinct[end + 1] == distinct[end] + 1:
            end += 1
        stretch = distinct[start : end + 1]
        if len(stretch) >= 3:
            for choice in product(*(positions[r] for r in stretch)):
                items.append(("run", tuple(choice), len(stretch)))
        start = end + 1
    return tuple(items)


@cache
def _subsets(n: int) -> tuple[tuple[int, ...], ...]:
    """The positions of each subset of ``n`` cards, indexed by its bit mask."""
    return tuple(tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n))


def _fifteens(values: Sequence[int]) -> list[tuple[int, ...]]:
    """Positions of every combination of ``values`` that sums to fifteen.

    In the order of ``itertools.combinations``, smaller combinations first. The
    sums of all subsets are built a card at a time (``sums[mask]``), which for a
    seven-card show is far cheaper than summing its 120 combinations one by one.

    >>> _fifteens([5, 5, 5, 10])
    [(0, 3), (1, 3), (2, 3), (0, 1, 2)]
    >>> _fifteens([5, 6, 9, 10])  # by mask, (1, 2) would come first
    [(0, 3), (1, 2)]
    """
    sums = [0]
    for value in values:
        sums += [total + value for total in sums]
    hits = sums.count(15)
    if not hits:
        return []
    subsets = _subsets(len(values))
    found: list[tuple[int, ...]] = []
    mask = -1
    for _ in range(hits):
        mask = sums.index(15, mask + 1)
        found.append(subsets[mask])
    found.sort()
    found.sort(key=len)  # stable: each size keeps its lexicographic order
    return found


# Points by sorted rank tuple, and whether a rank repeats (only then can a card
# have been given twice). A plain dict: the single-hand fast path's one lookup.
_RANK_POINTS: dict[tuple[int, ...], tuple[int, bool]] = {}


def _rank_points(ranks: tuple[int, ...]) -> tuple[int, bool]:
    known = _RANK_POINTS.get(ranks)
    if known is None:
        points = sum(points for _, _, points in rank_pattern(ranks))
        known = _RANK_POINTS[ranks] = (points, len(set(ranks)) < len(ranks))
    return known


def _check(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    if crib:
        if len(hand) != CRIB_SIZE:
            raise InvalidPlayError(f"a crib has {CRIB_SIZE} cards, not {len(hand)}")
    elif len(hand) not in HAND_SIZES:
        raise InvalidPlayError(f"a hand has 3, 4 or 6 cards, not {len(hand)}")
    # (rank, suit) pairs hash in C; the Card dataclass's own hash and eq do not.
    if len({(c.rank, c.suit) for c in hand} | {(starter.rank, starter.suit)}) <= len(hand):
        seen: set[Card] = set()
        for card in (*hand, starter):
            if card in seen:
                raise InvalidPlayError(f"duplicate card {card}")
            seen.add(card)


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    suit = hand[0].suit
    for card in hand:
        if card.suit is not suit:
            return 0
    if starter.suit is suit:
        return len(hand) + 1
    return 0 if crib else len(hand)


def show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The value of a hand (or crib) with its starter, without the breakdown.

    The fast path used for bulk work; always equal to ``score_show(...).total``.
    """
    size = len(hand)
    if (size != CRIB_SIZE) if crib else (size not in HAND_SIZES):
        _check(hand, starter, crib)
    suit = starter.suit
    first = hand[0].suit
    flush = True
    nobs = 0
    ranks = [starter.rank]
    for card in hand:
        rank = card.rank
        ranks.append(rank)
        if card.suit is not first:
            flush = False
        if rank == JACK and card.suit is suit:
            nobs = 1
    ranks.sort()
    key = tuple(ranks)
    known = _RANK_POINTS.get(key)
    points, repeats = _rank_points(key) if known is None else known
    if repeats and len({(c.rank, c.suit) for c in (*hand, starter)}) <= size:
        _check(hand, starter, crib)  # a card given twice: raises, naming it
    if flush:
        if first is suit:
            points += size + 1
        elif not crib:
            points += size
    return points + nobs


def _by_rank_then_suit(card: Card) -> tuple[int, str]:
    return card.rank, card.suit  # a StrEnum sorts as its letter


def score_show(hand: Iterable[Card], starter: Card, *, crib: bool = False) -> Show:
    """Count a hand or crib with the starter, item by item.

    Raises :class:`~rules.errors.InvalidPlayError` for an impossible hand (a
    duplicate card, a size no variant deals). A crib flush counts only with the
    starter's suit (seed 003: "in counting crib, a flush is not reckoned unless
    the 'start' is of the same suit as the rest").

    >>> from rules.cards import parse_cards, Card
    >>> score_show(parse_cards("2H 3C 4H 4S"), Card.parse("AD")).speech()
    'a pair is two and a double run of four is ten'
    >>> score_show(parse_cards("2H 6H 8H 10H"), Card.parse("KD"), crib=True).total
    0
    """
    cards = tuple(hand)
    _check(cards, starter, crib)
    everything = sorted((*cards, starter), key=_by_rank_then_suit)
    pattern = rank_pattern(tuple([c.rank for c in everything]))
    items = [
        ScoreItem(kind, points, tuple(map(everything.__getitem__, positions)))
        for kind, positions, points in pattern
    ]
    flush = _flush_points(cards, starter, crib)
    if flush:
        flush_cards = cards + ((starter,) if starter.suit is cards[0].suit else ())
        items.append(ScoreItem("flush", flush, flush_cards))
    for card in cards:
        if card.rank == JACK and card.suit is starter.suit:
            items.append(ScoreItem("his nobs", 1, (card,)))
    return Show(cards, starter, crib, tuple(items))
