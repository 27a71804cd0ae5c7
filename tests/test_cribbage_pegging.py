"""The play: the rule texts' examples and the traps, from ``tests/data/cribbage_pegging.txt``.

Each known answer is the score of the last card of one count, as
:func:`rules.cribbage.pegging.peg` gives it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import FRENCH_DECK, Card, parse_cards
from rules.cribbage.pegging import count_of, peg
from rules.errors import InvalidPlayError

PEGGING_FILE = Path(__file__).parent / "data" / "cribbage_pegging.txt"
_ITEM = re.compile(r"^(?P<kind>[a-z][a-z -]*?) (?P<points>\d+)$")


@dataclass(frozen=True)
class KnownPeg:
    line: int
    cards: tuple[Card, ...]
    total: int | None  # None: peg() must raise InvalidPlayError
    items: tuple[tuple[str, int], ...] | None  # None: only the total is given
    source: str


def read_known_pegs(path: Path = PEGGING_FILE) -> list[KnownPeg]:
    known = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body, _, source = raw.partition("#")
        if not body.strip():
            continue
        cards_text, equals, answer = body.partition("=")
        answer = answer.strip()
        if not equals or not answer:
            raise ValueError(f"{path.name}:{number}: not 'CARDS = ANSWER': {raw}")
        total: int | None = None
        items: tuple[tuple[str, int], ...] | None = None
        if answer != "InvalidPlayError":
            total_text, colon, items_text = answer.partition(":")
            total = int(total_text)
            if colon:
                parsed = []
                for part in items_text.split(","):
                    match = _ITEM.match(part.strip())
                    if match is None:
                        raise ValueError(f"{path.name}:{number}: bad item {part!r}")
                    parsed.append((match["kind"], int(match["points"])))
                items = tuple(parsed)
            elif total == 0:
                items = ()
        known.append(KnownPeg(number, tuple(parse_cards(cards_text)), total, items, source.strip()))
    return known


KNOWN = read_known_pegs()


@pytest.mark.parametrize("known", KNOWN, ids=[f"line{k.line}" for k in KNOWN])
def test_known_peg(known: KnownPeg) -> None:
    if known.total is None:
        with pytest.raises(InvalidPlayError, match="past thirty-one"):
            peg(known.cards)
        return
    scored = peg(known.cards)
    assert sum(item.points for item in scored) == known.total, known.source
    if known.items is not None:
        assert tuple((item.kind, item.points) for item in scored) == known.items


def test_every_known_peg_cites_its_seed() -> None:
    assert len(KNOWN) >= 35
    assert [k.line for k in KNOWN if not re.search(r"\bseed 00[0-4]\b", k.source)] == []


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# --- Traps, each its own test -------------------------------------------------------------


def test_a_pair_is_only_with_the_card_just_played() -> None:
    assert peg(cards("5H 6S 5D")) == []


def test_a_duplicate_inside_the_tail_breaks_the_run() -> None:
    assert peg(cards("3H 4S 4D 5C")) == []


def test_the_run_is_the_longest_unbroken_tail() -> None:
    # 4 5 4 6 3: the whole five hold two fours; the last four, 5 4 6 3, run.
    scored = peg(cards("4H 5S 4D 6C 3H"))
    assert [(i.kind, i.points) for i in scored] == [("run", 4)]
    assert scored[0].cards == tuple(cards("5S 4D 6C 3H"))


def test_thirty_one_and_a_run_on_one_card_count_once_each() -> None:
    scored = peg(cards("KH 6S 7D 8C"))
    assert count_of(cards("KH 6S 7D 8C")) == 31
    assert sorted((i.kind, i.points) for i in scored) == [("run", 3), ("thirty-one", 2)]


def test_fifteen_and_a_run_on_one_card_count_once_each() -> None:
    # seed 003: A plays a five, B a four, A a six: a run of three, and fifteen.
    assert sorted((i.kind, i.points) for i in peg(cards("5H 4S 6D"))) == [
        ("fifteen", 2),
        ("run", 3),
    ]


def test_play_past_thirty_one_raises() -> None:
    with pytest.raises(InvalidPlayError, match="count past thirty-one: 35 with 5S"):
        peg(cards("KS QS JS 5S"))


def test_thirty_one_exactly_is_allowed() -> None:
    assert [(i.kind, i.points) for i in peg(cards("KS QS JS AS"))] == [("thirty-one", 2)]


def test_a_card_played_twice_raises() -> None:
    with pytest.raises(InvalidPlayError, match="duplicate card 5H"):
        peg(cards("5H 6S 5H"))


def test_no_card_raises() -> None:
    with pytest.raises(InvalidPlayError):
        peg([])


def test_ace_king_queen_is_no_run_in_any_order() -> None:
    for text in ("AH KS QD", "KS AH QD", "QD KS AH"):
        assert peg(cards(text)) == [], text


# --- Properties -------------------------------------------------------------------------


@st.composite
def counts(draw: st.DrawFn) -> list[Card]:
    """A legal count: distinct cards, never past thirty-one."""
    played: list[Card] = []
    for card in draw(st.permutations(FRENCH_DECK))[:8]:
        if count_of([*played, card]) > 31:
            break
        played.append(card)
    return played


@settings(max_examples=300, deadline=None)
@given(counts())
def test_the_run_scored_is_the_longest_tail_of_distinct_consecutive_ranks(
    played: list[Card],
) -> None:
    # Brute force over every tail, independent of how peg looks for it.
    longest = 0
    for length in range(3, len(played) + 1):
        ranks = sorted(c.rank for c in played[-length:])
        if ranks == list(range(ranks[0], ranks[0] + length)):
            longest = length
    runs = [i.points for i in peg(played) if i.kind == "run"]
    assert runs == ([longest] if longest else [])


@settings(max_examples=300, deadline=None)
@given(counts())
def test_pairs_count_the_cards_of_one_rank_at_the_end(played: list[Card]) -> None:
    same = 1
    while same < len(played) and played[-1 - same].rank == played[-1].rank:
        same += 1
    pairs = [i.points for i in peg(played) if "pair" in i.kind]
    assert pairs == ([same * (same - 1)] if same > 1 else [])
