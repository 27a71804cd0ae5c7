"""The cribbage show, scored in bulk with NumPy.

The same count as :func:`rules.cribbage.scoring.show_total`, for arrays of hands
at once. A card is its :attr:`rules.cards.Card.index` (``(rank - 1) * 4 + suit``,
suits in the order S H D C), so the rank is ``index >> 2`` and the suit
``index & 3``.

How it is counted (docs/cribbage-scoring.md has the figures):

* Fifteens, pairs and runs depend only on the multiset of ranks. The hand and
  starter are sorted by a small sorting network (``np.minimum`` and
  ``np.maximum`` on whole columns); because the index is rank-major, sorting the
  indices sorts the ranks, and equal neighbours betray a card given twice. The
  sorted ranks ``r_0 <= ... <= r_{n-1}`` become ``c_i = r_i + i``, strictly
  increasing, and ``sum C(c_i, i + 1)`` numbers the multiset (the combinatorial
  number system). That number picks the points out of a table built once from
  the engine's own :func:`~rules.cribbage.scoring.rank_pattern`.
* The flush and his nobs are read off the suit columns.
* Rows go through in chunks, so the working columns stay in the cache.

>>> import numpy as np
>>> from rules.cards import parse_cards
>>> hands = np.array([[c.index for c in parse_cards(h)] for h in ("5H 5S 5C JD", "2H 4H 6H 8H")])
>>> starters = np.array([c.index for c in parse_cards("5D QH")])
>>> score_hands(hands, starters).tolist()
[29, 5]
>>> score_hands(hands, starters, crib=True).tolist()
[29, 5]
>>> score_hands(hands[1:], np.array([parse_cards("QS")[0].index]), crib=True).tolist()
[0]
"""

from __future__ import annotations

from functools import cache
from itertools import chain, combinations, combinations_with_replacement
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from rules.cribbage.scoring import CRIB_SIZE, HAND_SIZES, rank_pattern
from rules.errors import InvalidPlayError

__all__ = [
    "CHUNK_ROWS",
    "SORTING_NETWORKS",
    "WHOLE_SPACE",
    "rank_table",
    "score_hands",
    "whole_space_counts",
    "whole_space_distribution",
]

#: Rows per chunk: about a quarter of a megabyte per working column.
CHUNK_ROWS: Final = 1 << 18

#: Four-card hands with a starter: C(52, 4) * 48.
WHOLE_SPACE: Final = comb(52, 4) * 48

_JACK_INDEX: Final = (11 - 1) * 4  # the jack of spades; + suit for the others

#: Comparators (i, j), i < j, that sort n columns; n = hand size + 1.
#: Optimal networks (Knuth, TAOCP 5.3.4): 5 comparators for 4, 9 for 5, 16 for 7.
SORTING_NETWORKS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((0, 3), (1, 4), (0, 2), (1, 3), (0, 1), (2, 4), (1, 2), (3, 4), (2, 3)),
    7: (
        (0, 6), (2, 3), (4, 5),
        (0, 2), (1, 4), (3, 6),
        (0, 1), (2, 5), (3, 4),
        (1, 2), (4, 6),
        (2, 3), (4, 5),
        (1, 2), (3, 4), (5, 6),
    ),
}  # fmt: skip

U8 = npt.NDArray[np.uint8]


def _position_weights(n: int) -> npt.NDArray[np.uint16]:
    """``weights[i, r] = C(r + i, i + 1)``: what sorted position i with rank r adds."""
    return np.array([[comb(r + i, i + 1) for r in range(13)] for i in range(n)], dtype=np.uint16)


@cache
def rank_table(n: int) -> U8:
    """Fifteens, pairs and runs of every multiset of ``n`` ranks, by its number.

    Built from :func:`rules.cribbage.scoring.rank_pattern`, so the bulk scorer
    and the single-hand scorer share one definition of the count. Multisets with
    five or more cards of a rank cannot be dealt and are left at zero.

    >>> from math import comb
    >>> table = rank_table(5)
    >>> len(table) == comb(13 + 5 - 1, 5), int(table.max())
    (True, 28)
    """
    multisets = np.fromiter(
        chain.from_iterable(combinations_with_replacement(range(13), n)), dtype=np.uint8
    ).reshape(-1, n)
    # Five of a rank (r_i == r_{i+4} once sorted) is no deal: leave it at zero.
    dealable = ~np.any(multisets[:, 4:] == multisets[:, :-4], axis=1)
    multisets = multisets[dealable]
    weights = _position_weights(n)
    numbers = np.zeros(len(multisets), dtype=np.int64)
    for i in range(n):
        numbers += weights[i].take(multisets[:, i])
    points = [
        sum(p for _, _, p in rank_pattern(ranks))
        for ranks in map(tuple, (multisets.astype(np.int64) + 1).tolist())
    ]
    if max(points) > 255 - n - 2:  # flush and nobs are added in uint8
        raise AssertionError(f"rank points {max(points)} do not fit a byte")
    table = np.zeros(comb(13 + n - 1, n), dtype=np.uint8)
    table[numbers] = points
    table.setflags(write=False)
    return table


def _score_columns(hand: U8, starters: U8, crib: bool, check: bool, first_row: int = 0) -> U8:
    """Score ``k`` hand columns (``hand[i]`` is the i-th card of every row).

    ``first_row`` is the number of the first row, for error messages.
    """
    k, rows = hand.shape
    n = k + 1
    weights = _position_weights(n)
    table = rank_table(n)

    # Sort hand and starter together; the network runs on copies.
    cols = [hand[i].copy() for i in range(k)]
    cols.append(starters.copy())
    spare = np.empty(rows, dtype=np.uint8)
    for a, b in SORTING_NETWORKS[n]:
        np.minimum(cols[a], cols[b], out=spare)
        np.maximum(cols[a], cols[b], out=cols[b])
        cols[a], spare = spare, cols[a]
    if check:
        for i in range(k):
            same = cols[i] == cols[i + 1]
            if same.any():
                row = int(np.flatnonzero(same)[0])
                raise InvalidPlayError(
                    f"row {first_row + row}: card index {int(cols[i][row])} given twice"
                )

    # Number the rank multiset and look its points up.
    number = np.zeros(rows, dtype=np.uint16)
    rank = spare
    for i, col in enumerate(cols):
        np.right_shift(col, 2, out=rank)
        number += weights[i].take(rank)
    points = table.take(number)

    # Flush: the whole hand of one suit; with the starter too, one more card
    # (in the crib only then, seed 003).
    suit = np.bitwise_and(hand[0], 3)
    flush = np.ones(rows, dtype=bool)
    for i in range(1, k):
        flush &= np.bitwise_and(hand[i], 3) == suit
    starter_suit = np.bitwise_and(starters, 3)
    with_starter = flush & (starter_suit == suit)
    if crib:
        points += with_starter.view(np.uint8) * np.uint8(k + 1)
    else:
        points += flush.view(np.uint8) * np.uint8(k)
        points += with_starter.view(np.uint8)

    # His nobs: the jack of the starter's suit in hand (never the starter itself).
    jack = starter_suit + np.uint8(_JACK_INDEX)
    for i in range(k):
        points += (hand[i] == jack).view(np.uint8)
    return points


def _validate(hands: npt.ArrayLike, starters: npt.ArrayLike, crib: bool) -> tuple[U8, U8]:
    hand_arr = np.asarray(hands)
    starter_arr = np.asarray(starters)
    if hand_arr.ndim != 2 or starter_arr.ndim != 1 or len(hand_arr) != len(starter_arr):
        raise InvalidPlayError(
            f"expected hands (N, k) and starters (N,), got {hand_arr.shape} and {starter_arr.shape}"
        )
    k = hand_arr.shape[1]
    if crib and k != CRIB_SIZE:
        raise InvalidPlayError(f"a crib has {CRIB_SIZE} cards, not {k}")
    if not crib and k not in HAND_SIZES:
        raise InvalidPlayError(f"a hand has 3, 4 or 6 cards, not {k}")
    for name, arr in (("hands", hand_arr), ("starters", starter_arr)):
        if not np.issubdtype(arr.dtype, np.integer):
            raise InvalidPlayError(f"{name} must hold integer card indices, not {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise InvalidPlayError(f"{name} hold a card index outside 0..51")
    return hand_arr.astype(np.uint8, copy=False), starter_arr.astype(np.uint8, copy=False)


def score_hands(
    hands: npt.ArrayLike,
    starters: npt.ArrayLike,
    *,
    crib: bool = False,
    check: bool = True,
    chunk_rows: int = CHUNK_ROWS,
) -> U8:
    """The show of every row: ``hands`` (N, k) card indices, ``starters`` (N,).

    ``k`` is 3, 4 or 6 for a hand, 4 for a crib. Each result equals
    :func:`rules.cribbage.scoring.show_total` for that row. A card index outside
    0..51 or a card given twice in a row raises
    :class:`~rules.errors.InvalidPlayError`; ``check=False`` skips the
    duplicate test for input known to be sound (whole-space enumeration).

    >>> import numpy as np
    >>> score_hands(np.array([[0, 4, 8]]), np.array([12])).tolist()  # A 2 3 of spades, 4S
    [8]
    >>> score_hands(np.array([[0, 4, 8]]), np.array([8]))
    Traceback (most recent call last):
    ...
    rules.errors.InvalidPlayError: row 0: card index 8 given twice
    """
    hand_arr, starter_arr = _validate(hands, starters, crib)
    out = np.empty(len(starter_arr), dtype=np.uint8)
    for lo in range(0, len(starter_arr), chunk_rows):
        hi = lo + chunk_rows
        columns = np.ascontiguousarray(hand_arr[lo:hi].T)
        out[lo:hi] = _score_columns(columns, starter_arr[lo:hi], crib, check, lo)
    return out


@cache
def _hands_from_51() -> U8:
    """Every four of 51 cards, ascending, as columns (4, C(51, 4))."""
    flat = np.fromiter(chain.from_iterable(combinations(range(51), 4)), dtype=np.uint8)
    columns = np.ascontiguousarray(flat.reshape(-1, 4).T)
    columns.setflags(write=False)
    return columns


def whole_space_counts() -> npt.NDArray[np.int64]:
    """How many of the 12,994,800 (four-card hand, starter) pairs score 0, 1, ... 29.

    For each starter the hands are the fours of the other 51 cards: a four of
    0..50 with every index at or above the starter's moved up by one.
    """
    base = _hands_from_51()
    rows = base.shape[1]
    counts = np.zeros(30, dtype=np.int64)
    hand = np.empty_like(base)
    for starter in range(52):
        np.greater_equal(base, starter, out=hand, casting="unsafe")
        hand += base
        scores = _score_columns(hand, np.full(rows, starter, dtype=np.uint8), False, False)
        counts += np.bincount(scores, minlength=30)
    return counts


def whole_space_distribution() -> dict[int, int]:
    """:func:`whole_space_counts` as ``{score: number of pairs}``, every score 0..29.

    >>> dist = whole_space_distribution()
    >>> dist[29], dist[19], sum(dist.values())
    (4, 0, 12994800)
    """
    return {score: int(n) for score, n in enumerate(whole_space_counts())}
