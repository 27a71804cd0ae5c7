"""The show: every worked example of the rule texts, the traps, and properties.

The known answers live in ``tests/data/cribbage_show.txt``, one line per example,
each citing the seed text and section it comes from.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import FRENCH_DECK, Card, Suit, parse_cards
from rules.cribbage.scoring import ScoreItem, pip_value, score_show, show_total
from rules.errors import InvalidPlayError

SHOW_FILE = Path(__file__).parent / "data" / "cribbage_show.txt"
_LINE = re.compile(r"^(?P<hand>[^|]+)\|\s*(?P<starter>\S+)\s*(?P<crib>crib)?\s*=\s*(?P<total>\d+)$")


@dataclass(frozen=True)
class KnownShow:
    line: int
    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    source: str


def read_known_shows(path: Path = SHOW_FILE) -> list[KnownShow]:
    """The known-answer file; a line that does not parse fails loudly with its number."""
    shows = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        body, _, source = raw.partition("#")
        if not body.strip():
            continue
        match = _LINE.match(body.strip())
        if match is None:
            raise ValueError(f"{path.name}:{number}: not 'HAND | STARTER [crib] = TOTAL': {raw}")
        shows.append(
            KnownShow(
                line=number,
                hand=tuple(parse_cards(match["hand"])),
                starter=Card.parse(match["starter"]),
                crib=match["crib"] is not None,
                total=int(match["total"]),
                source=source.strip(),
            )
        )
    return shows


KNOWN = read_known_shows()


def show(text: str, *, crib: bool = False) -> tuple[tuple[Card, ...], Card, bool]:
    hand, starter = text.split("|")
    return tuple(parse_cards(hand)), Card.parse(starter.strip()), crib


def kinds(items: tuple[ScoreItem, ...]) -> Counter[str]:
    return Counter(item.kind for item in items)


# --- The rule texts' worked examples ---------------------------------------------------


@pytest.mark.parametrize("known", KNOWN, ids=[f"line{k.line}" for k in KNOWN])
def test_known_show(known: KnownShow) -> None:
    counted = score_show(known.hand, known.starter, crib=known.crib)
    assert counted.total == known.total, f"{known.source}: {counted.speech()}"
    assert show_total(known.hand, known.starter, crib=known.crib) == known.total


def test_every_known_show_cites_its_seed() -> None:
    assert len(KNOWN) >= 70
    uncited = [k.line for k in KNOWN if not re.search(r"\bseed 00[0-4]\b", k.source)]
    assert uncited == []


def test_the_whole_seed_004_table_is_there() -> None:
    # §85 lists 44 example hands and then the 29; one line each.
    assert sum(k.source.startswith("seed 004 §85") for k in KNOWN) == 45


def test_unicode_illustrations_are_the_cards_they_show() -> None:
    # Seed 002/000 print the run classes as cards; the known answers use them as printed.
    assert parse_cards("🂲 🃓 🂴 🂤") == parse_cards("2H 3C 4H 4S")
    assert parse_cards("🃑 🃁 🃒 🂳 🃓") == parse_cards("AC AD 2C 3H 3C")
    assert parse_cards("🂾 🃞 🃔 🂡") == parse_cards("KH KC 4C AS")


@pytest.mark.parametrize(
    ("text", "runs", "length", "pairs"),
    [
        # seed 002/000: "6 for the double run ... and 2 for the pair"
        ("🂲 🃓 🂴 | 🂤", 2, 3, {"pair": 1}),
        # "9 for the triple run of three, and 6 for the pair royal"
        ("🂢 🂲 🃒 🃃 | 🃔", 3, 3, {"pair royal": 1}),
        # "four runs of three, worth 12, and 4 points for the two separate pairs"
        ("🃑 🃁 🃒 🂳 | 🃓", 4, 3, {"pair": 2}),
        # "8 for the double run of four, and 2 for the pair"
        ("🂡 🂢 🂳 🃔 | 🃄", 2, 4, {"pair": 1}),
    ],
)
def test_run_classes_break_down_as_the_text_says(
    text: str, runs: int, length: int, pairs: dict[str, int]
) -> None:
    items = score_show(*show(text)[:2]).items
    run_items = [i for i in items if i.kind == "run"]
    assert len(run_items) == runs
    assert {i.points for i in run_items} == {length}
    assert {k: n for k, n in kinds(items).items() if k != "run"} == pairs


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # seed 002 Three-card Fifteens: "Fifteen-two, fifteen-four, and a pair."
        ("KH KC 4C | AS", "fifteen two, fifteen four and a pair is six"),
        # seed 003: "'fifteen eight,' would go on to say 'and six for a pair-royal, fourteen.'"
        (
            "5H 5S 5C | KD",
            "fifteen two, fifteen four, fifteen six, fifteen eight and a pair royal is fourteen",
        ),
        # seed 004 §85 the ragged 13: 15-2, 15-4, 15-6, 15-8, the pair and the sequence
        (
            "6H 7S 8C AD | AH",
            "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten"
            " and a run of three is thirteen",
        ),
        # seed 002/000 triple run: "9 for the triple run of three, and 6 for the pair royal"
        ("2S 2H 2C 3D | 4C", "a pair royal is six and a triple run of three is fifteen"),
        # seed 002/000 double-double: "four runs of three ... two separate pairs"
        ("AC AD 2C 3H | 3C", "two pairs is four and four runs of three is sixteen"),
        # seed 002/000 K J 5: "The fifteen is duplicated, but there is no pair."
        ("KS JH 5S | 2D", "fifteen two and fifteen four"),
    ],
)
def test_speech(text: str, said: str) -> None:
    assert score_show(*show(text)[:2]).speech() == said


def test_the_ways_of_making_fifteen_with_two_and_with_three_cards() -> None:
    # Seed 002/000 Two-card Fifteens: "There are only three combinations of two cards
    # which will form fifteen; a Five with any court card or Ten; a Nine and a Six; an
    # Eight and a Seven." Seed 002 Three-card Fifteens: "may be formed in fifteen
    # different ways, ranging from 10 4 A, to 5 5 5". Counted by pip value (a tenth
    # card is one way), each way checked in the show as one fifteen of those cards.
    suits = list(Suit)
    found: dict[int, set[tuple[int, ...]]] = {2: set(), 3: set()}
    for size in (2, 3):
        for ranks in combinations_with_replacement(range(1, 14), size):
            hand = tuple(Card(rank, suits[k]) for k, rank in enumerate(ranks))
            starter = Card(2, Suit.CLUBS) if 2 not in ranks else Card(3, Suit.CLUBS)
            padded = hand if size == 3 else (*hand, Card(13, Suit.CLUBS))
            fifteens = {
                frozenset(i.cards) for i in score_show(padded, starter).items if i.kind == "fifteen"
            }
            if frozenset(hand) in fifteens:
                found[size].add(tuple(sorted(pip_value(c) for c in hand)))
    assert found[2] == {(5, 10), (6, 9), (7, 8)}
    assert len(found[3]) == 15
    assert {(1, 4, 10), (5, 5, 5)} <= found[3]


# --- Traps ------------------------------------------------------------------------------


def test_no_nobs_when_the_jack_is_the_starter() -> None:
    # Seed 000: the turned-up jack is the dealer's heels, pegged at once; his nobs is
    # the jack of the starter's suit *in hand or crib*. The show counts neither here.
    hand, starter, _ = show("2H 4S 6C 8D | JH")
    counted = score_show(hand, starter)
    assert counted.total == 0
    assert kinds(counted.items) == Counter()
    assert show_total(hand, starter) == 0
    assert show_total(hand, starter, crib=True) == 0


def test_nobs_is_the_jack_of_the_starters_suit_only() -> None:
    assert show_total(*show("2H 4S 6C JH | 8H")[:2]) == 1
    assert show_total(*show("2H 4S 6C JH | 8H")[:2], crib=True) == 1
    assert show_total(*show("2H 4S 6C JD | 8H")[:2]) == 0


def test_four_card_flush_counts_in_hand_but_not_in_crib() -> None:
    hand, starter, _ = show("2H 4H 6H 8H | QS")
    assert show_total(hand, starter) == 4
    assert show_total(hand, starter, crib=True) == 0
    assert kinds(score_show(hand, starter, crib=True).items) == Counter()


def test_crib_flush_with_the_starter_is_five() -> None:
    hand, starter, _ = show("2H 4H 6H 8H | QH")
    assert show_total(hand, starter, crib=True) == 5
    flush = [i for i in score_show(hand, starter, crib=True).items if i.kind == "flush"]
    assert [(f.points, len(f.cards)) for f in flush] == [(5, 5)]


@pytest.mark.parametrize("crib", [False, True])
def test_a_flush_cannot_borrow_the_starter(crib: bool) -> None:
    # Three hearts in hand and the starter a heart: four hearts, but the hand is no flush.
    hand, starter, _ = show("2H 4H 6H 8S | 10H")
    assert show_total(hand, starter, crib=crib) == 0
    assert score_show(hand, starter, crib=crib).total == 0


def test_a_three_card_flush_cannot_borrow_the_starter_either() -> None:
    assert show_total(*show("2H 4H 8S | QH")[:2]) == 0
    assert show_total(*show("2H 4H 8H | QS")[:2]) == 3


def test_tenth_cards_of_different_ranks_are_no_pair() -> None:
    # seed 002/000: "the duplicates may not form pairs, as for instance with K J 5"
    assert kinds(score_show(*show("KS JH 5S | 2D")[:2]).items) == Counter({"fifteen": 2})
    assert kinds(score_show(*show("KS KH 5S | 2D")[:2]).items) == Counter({"fifteen": 2, "pair": 1})


@pytest.mark.parametrize("scorer", [show_total, score_show])
@pytest.mark.parametrize(
    ("text", "crib", "message"),
    [
        ("5H 5H 6C 7D | 8S", False, "duplicate card 5H"),
        ("5H 6C 7D 8S | 5H", False, "duplicate card 5H"),
        ("5H 6C 7D JS | JS", True, "duplicate card JS"),
        ("5H 6C 7D 8S 9S | 10S", False, "a hand has 3, 4 or 6 cards, not 5"),
        ("5H 6C 7D | 8S", True, "a crib has 4 cards, not 3"),
    ],
)
def test_impossible_shows_raise(
    scorer: Callable[..., object], text: str, crib: bool, message: str
) -> None:
    hand, starter, _ = show(text)
    with pytest.raises(InvalidPlayError, match=message):
        scorer(hand, starter, crib=crib)


# --- Properties -------------------------------------------------------------------------

SIZES = [(3, False), (4, False), (6, False), (4, True)]


@st.composite
def deals(draw: st.DrawFn) -> tuple[tuple[Card, ...], Card, bool]:
    size, crib = draw(st.sampled_from(SIZES))
    cards = draw(
        st.lists(st.sampled_from(FRENCH_DECK), min_size=size + 1, max_size=size + 1, unique=True)
    )
    return tuple(cards[:size]), cards[size], crib


def signature(items: tuple[ScoreItem, ...]) -> Counter[tuple[str, int, frozenset[Card]]]:
    return Counter((i.kind, i.points, frozenset(i.cards)) for i in items)


@settings(max_examples=300, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_the_order_of_the_hand_does_not_matter(
    deal: tuple[tuple[Card, ...], Card, bool], rng: random.Random
) -> None:
    hand, starter, crib = deal
    shuffled = list(hand)
    rng.shuffle(shuffled)
    first, second = score_show(hand, starter, crib=crib), score_show(shuffled, starter, crib=crib)
    assert second.total == first.total
    assert signature(second.items) == signature(first.items)
    assert show_total(shuffled, starter, crib=crib) == show_total(hand, starter, crib=crib)


@settings(max_examples=300, deadline=None)
@given(deals(), st.permutations(list(Suit)))
def test_relabelling_the_suits_does_not_matter(
    deal: tuple[tuple[Card, ...], Card, bool], suits: list[Suit]
) -> None:
    hand, starter, crib = deal
    relabel = dict(zip(Suit, suits, strict=True))
    hand2 = tuple(Card(c.rank, relabel[c.suit]) for c in hand)
    starter2 = Card(starter.rank, relabel[starter.suit])
    assert show_total(hand2, starter2, crib=crib) == show_total(hand, starter, crib=crib)
    first, second = score_show(hand, starter, crib=crib), score_show(hand2, starter2, crib=crib)
    assert Counter((i.kind, i.points) for i in second.items) == Counter(
        (i.kind, i.points) for i in first.items
    )


@settings(max_examples=500, deadline=None)
@given(deals())
def test_show_total_is_the_total_of_score_show(deal: tuple[tuple[Card, ...], Card, bool]) -> None:
    hand, starter, crib = deal
    assert show_total(hand, starter, crib=crib) == score_show(hand, starter, crib=crib).total


@settings(max_examples=300, deadline=None)
@given(deals())
def test_every_item_is_what_it_says(deal: tuple[tuple[Card, ...], Card, bool]) -> None:
    hand, starter, crib = deal
    shown = {*hand, starter}
    for item in score_show(hand, starter, crib=crib).items:
        assert set(item.cards) <= shown
        ranks = sorted(c.rank for c in item.cards)
        if item.kind == "fifteen":
            assert sum(pip_value(c) for c in item.cards) == 15 and item.points == 2
        elif item.kind in ("pair", "pair royal", "double pair royal"):
            n = len(item.cards)
            assert len(set(ranks)) == 1 and item.points == n * (n - 1)
        elif item.kind == "run":
            assert ranks == list(range(ranks[0], ranks[0] + len(ranks))) and len(ranks) >= 3
            assert item.points == len(ranks)
        elif item.kind == "flush":
            assert len({c.suit for c in item.cards}) == 1 and item.points == len(item.cards)
            assert set(hand) <= set(item.cards)
        else:
            assert item.kind == "his nobs" and item.points == 1
            assert item.cards[0] in hand and item.cards[0] == Card(11, starter.suit)
