"""The NumPy bulk scorer against the single-hand show and the whole-space known answer."""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import analysis.cribbage
from analysis.cribbage import (
    SORTING_NETWORKS,
    WHOLE_SPACE,
    rank_table,
    score_hands,
    whole_space_counts,
    whole_space_distribution,
)
from rules.cards import FRENCH_DECK, Card, parse_cards
from rules.cribbage.scoring import rank_pattern, show_total
from rules.errors import InvalidPlayError

DISTRIBUTION_FILE = Path(__file__).parent / "data" / "cribbage_distribution.txt"
DECK = [Card.from_index(i) for i in range(52)]
SHAPES = [(3, False), (4, False), (6, False), (4, True)]
SHAPE_IDS = ["hand3", "hand4", "hand6", "crib"]


def known_distribution() -> dict[int, int]:
    known = {}
    for raw in DISTRIBUTION_FILE.read_text(encoding="utf-8").splitlines():
        body = raw.partition("#")[0].split()
        if body:
            score, count = map(int, body)
            known[score] = count
    return known


def single(rows: npt.NDArray[np.int64], size: int, crib: bool) -> npt.NDArray[np.int64]:
    """Each row (hand cards, then the starter) through the pure show_total."""
    return np.array(
        [
            show_total([DECK[i] for i in row[:size]], DECK[row[size]], crib=crib)
            for row in rows.tolist()
        ],
        dtype=np.int64,
    )


def random_rows(rng: np.random.Generator, n: int, size: int) -> npt.NDArray[np.int64]:
    """``n`` rows of ``size + 1`` distinct card indices in random order."""
    return rng.random((n, 52)).argsort(axis=1)[:, : size + 1]


def assert_same(bulk: npt.NDArray[np.uint8], expected: npt.NDArray[np.int64], rows: object) -> None:
    wrong = np.flatnonzero(bulk != expected)
    if len(wrong):
        row = np.asarray(rows)[wrong[0]]
        cards = " ".join(str(DECK[i]) for i in row)
        raise AssertionError(
            f"{len(wrong)} rows differ; first {cards}: bulk {bulk[wrong[0]]}, "
            f"show_total {expected[wrong[0]]}"
        )


# --- The pieces -----------------------------------------------------------------------


@pytest.mark.parametrize("n", sorted(SORTING_NETWORKS))
def test_sorting_networks_sort_every_zero_one_input(n: int) -> None:
    # The zero-one principle: a comparator network that sorts every 0/1 input sorts all.
    for bits in product((0, 1), repeat=n):
        values = list(bits)
        for a, b in SORTING_NETWORKS[n]:
            values[a], values[b] = min(values[a], values[b]), max(values[a], values[b])
        assert values == sorted(bits), bits


@pytest.mark.parametrize("n", [4, 5])
def test_rank_table_is_numbered_by_the_combinatorial_number_system(n: int) -> None:
    # Sorted ranks r_0 <= ... <= r_(n-1) (0-based); c_i = r_i + i strictly increase and
    # sum C(c_i, i + 1) numbers the multiset. Every slot holds rank_pattern's points.
    table = rank_table(n)
    assert len(table) == comb(13 + n - 1, n)
    seen = set()
    for ranks in combinations_with_replacement(range(1, 14), n):
        number = sum(comb(r - 1 + i, i + 1) for i, r in enumerate(ranks))
        seen.add(number)
        if max(Counter(ranks).values()) > 4:
            assert table[number] == 0
        else:
            assert table[number] == sum(p for _, _, p in rank_pattern(ranks)), ranks
    assert seen == set(range(len(table)))
    assert not table.flags.writeable


# --- Against the single-hand show -----------------------------------------------------


@pytest.mark.parametrize(("size", "crib"), SHAPES, ids=SHAPE_IDS)
def test_bulk_equals_show_total_on_a_random_sample(size: int, crib: bool) -> None:
    rng = np.random.default_rng(20_240_601 + 10 * size + crib)
    rows = random_rows(rng, 200_000, size)
    bulk = score_hands(rows[:, :size], rows[:, size], crib=crib)
    assert_same(bulk, single(rows, size, crib), rows)


@pytest.mark.parametrize(("size", "crib"), SHAPES, ids=SHAPE_IDS)
def test_bulk_equals_show_total_on_one_suit_hands(size: int, crib: bool) -> None:
    # Flushes and nobs are rare in a random sample: here every hand is of one suit,
    # holding its jack one time in three, and the starter is random.
    rng = np.random.default_rng(7 + size + crib)
    n = 20_000
    suits = rng.integers(0, 4, n)
    ranks = rng.random((n, 13)).argsort(axis=1)[:, :size]
    hands = ranks * 4 + suits[:, None]
    starters = np.array([rng.choice(sorted(set(range(52)) - set(row))) for row in hands.tolist()])
    rows = np.column_stack([hands, starters])
    assert np.any(hands == 40 + (starters % 4)[:, None])  # some nobs
    assert np.any(starters % 4 == suits)  # some flushes with the starter
    bulk = score_hands(hands, starters, crib=crib)
    assert_same(bulk, single(rows, size, crib), rows)


def test_bulk_knows_the_29_and_the_rule_texts_crib_flush() -> None:
    hands = np.array([[c.index for c in parse_cards(h)] for h in ("5H 5S 5C JD", "2H 4H 6H 8H")])
    starters = np.array([c.index for c in parse_cards("5D QS")])
    assert score_hands(hands, starters).tolist() == [29, 4]
    assert score_hands(hands, starters, crib=True).tolist() == [29, 0]


def test_chunk_boundaries_do_not_matter() -> None:
    rng = np.random.default_rng(3)
    rows = random_rows(rng, 1_000, 4)
    whole = score_hands(rows[:, :4], rows[:, 4])
    assert np.array_equal(score_hands(rows[:, :4], rows[:, 4], chunk_rows=7), whole)


def test_inputs_are_left_alone_and_any_integer_dtype_will_do() -> None:
    rng = np.random.default_rng(4)
    rows = random_rows(rng, 500, 6)
    before = rows.copy()
    wide = score_hands(rows[:, :6], rows[:, 6])
    assert np.array_equal(rows, before)
    narrow = score_hands(rows[:, :6].astype(np.uint8), rows[:, 6].astype(np.int16))
    assert np.array_equal(wide, narrow)
    assert score_hands(np.empty((0, 4), dtype=np.int64), np.empty(0, dtype=np.int64)).size == 0


def test_a_card_given_twice_is_reported_by_its_row_across_chunks() -> None:
    hands = np.array([[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14]])
    with pytest.raises(InvalidPlayError, match="row 2: card index 14 given twice"):
        score_hands(hands, np.array([16, 17, 14]), chunk_rows=1)


@pytest.mark.parametrize(
    ("hands", "starters", "crib", "message"),
    [
        ([[0, 4, 8, 12]], [4], False, "row 0: card index 4 given twice"),
        ([[1, 2, 3, 4], [0, 4, 8, 8]], [5, 12], False, "row 1: card index 8 given twice"),
        ([[0, 4, 8, 52]], [1], False, "outside 0..51"),
        ([[0, 4, 8, 12]], [-1], False, "outside 0..51"),
        ([[0, 4, 8, 12, 16]], [1], False, "a hand has 3, 4 or 6 cards, not 5"),
        ([[0, 4, 8]], [1], True, "a crib has 4 cards, not 3"),
        ([[0, 4, 8, 12]], [1, 2], False, "expected hands"),
        ([[0.0, 4.0, 8.0]], [1], False, "integer card indices"),
    ],
)
def test_bad_input_raises(hands: object, starters: object, crib: bool, message: str) -> None:
    with pytest.raises(InvalidPlayError, match=message):
        score_hands(np.array(hands), np.array(starters), crib=crib)


def test_the_module_doctests() -> None:
    # `analysis` is outside pytest's doctest paths (tests, rules): run them here.
    result = doctest.testmod(analysis.cribbage)
    assert result.attempted >= 5 and result.failed == 0


# --- The whole space ------------------------------------------------------------------


def test_known_distribution_covers_the_whole_space() -> None:
    known = known_distribution()
    assert sorted(known) == list(range(30))
    assert sum(known.values()) == comb(52, 4) * 48 == WHOLE_SPACE


def test_whole_space_with_the_bulk_scorer() -> None:
    assert whole_space_distribution() == known_distribution()
    assert int(whole_space_counts().sum()) == WHOLE_SPACE


@pytest.mark.slow
def test_whole_space_with_the_single_hand_show() -> None:
    # Every (four-card hand, starter) pair through the pure-Python show_total.
    tally: Counter[int] = Counter()
    for starter in FRENCH_DECK:
        rest = [c for c in FRENCH_DECK if c != starter]
        counts = [0] * 30
        for hand in combinations(rest, 4):
            counts[show_total(hand, starter)] += 1
        tally.update(dict(enumerate(counts)))
    assert {score: tally[score] for score in range(30)} == known_distribution()
    assert sum(tally.values()) == WHOLE_SPACE
