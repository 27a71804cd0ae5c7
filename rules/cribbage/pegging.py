"""The play: what the card just played scores on the running count.

Seed 003 (PAIRS … FIFTEEN or THIRTY-ONE) and seed 000/002: a card that makes
fifteen or thirty-one scores two; a card matching the one before it makes a
pair (2), a third a pair royal (6), a fourth a double pair royal (12), counted
only over cards played one after another; three or more cards at the end of
the count that form "an unbroken series", in any order, score one a card
("suppose that A plays a five, and B a four. If A now plays either a six or a
three, he is entitled to score a run of three").

>>> from rules.cards import parse_cards
>>> [(i.kind, i.points) for i in peg(parse_cards("5H 3C 2S 4D AH"))]
[('fifteen', 2), ('run', 5)]
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import Card
from rules.cribbage.scoring import PAIR_KINDS, ScoreItem, pip_value
from rules.errors import InvalidPlayError

__all__ = ["count_of", "peg"]


def count_of(cards: Sequence[Card]) -> int:
    """The running count of the cards on the table."""
    return sum(pip_value(c) for c in cards)


def peg(cards: Sequence[Card]) -> list[ScoreItem]:
    """Score the last card of one count (the cards since the count last began).

    Pure scoring for callers outside a game: a count past thirty-one or a card
    seen twice raises :class:`~rules.errors.InvalidPlayError`. A game never
    raises for these; it records the card and flags it.

    >>> from rules.cards import parse_cards
    >>> peg(parse_cards("10S 5C"))
    [ScoreItem(kind='fifteen', points=2, cards=(Card.parse('10S'), Card.parse('5C')))]
    >>> peg(parse_cards("KS QS JS 5S"))
    Traceback (most recent call last):
    ...
    rules.errors.InvalidPlayError: count past thirty-one: 35 with 5S
    """
    if not cards:
        raise InvalidPlayError("no card played")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidPlayError(f"duplicate card {card}")
        seen.add(card)
    total = count_of(cards)
    if total > 31:
        raise InvalidPlayError(f"count past thirty-one: {total} with {cards[-1]}")
    return score_last(cards)


def score_last(cards: Sequence[Card]) -> list[ScoreItem]:
    """What the last of ``cards`` scores, without validating the sequence."""
    items: list[ScoreItem] = []
    total = count_of(cards)
    if total == 15:
        items.append(ScoreItem("fifteen", 2, tuple(cards)))
    elif total == 31:
        items.append(ScoreItem("thirty-one", 2, tuple(cards)))
    last = cards[-1]
    same = 1
    while same < len(cards) and cards[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(PAIR_KINDS[same], same * (same - 1), tuple(cards[-same:])))
    for length in range(len(cards), 2, -1):
        tail = cards[-length:]
        ranks = {c.rank for c in tail}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            items.append(ScoreItem("run", length, tuple(tail)))
            break
    return items
