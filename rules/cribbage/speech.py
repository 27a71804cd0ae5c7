"""Counting aloud, in the words of the rule texts.

"fifteen two, fifteen four and a pair is six": fifteens are counted as a running
total, then each further combination names itself and says the new total
(seed 003: "after claiming 'fifteen eight,' would go on to say 'and six for a
pair-royal, fourteen'").

>>> number_words(29), number_words(121), number_words(0)
('twenty-nine', 'one hundred and twenty-one', 'nothing')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.cribbage.scoring import ScoreItem

__all__ = ["number_words", "say_item", "say_show"]

_ONES = [
    "nothing",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_LENGTHS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
_MANY_RUNS = {1: "a run", 2: "a double run", 3: "a triple run", 4: "four runs", 6: "six runs"}


def number_words(n: int) -> str:
    """A number as words, British style, ``nothing`` for zero.

    >>> number_words(15), number_words(31), number_words(-2)
    ('fifteen', 'thirty-one', 'minus two')
    """
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = _ONES[hundreds] + " hundred"
        return head + (" and " + number_words(rest) if rest else "")
    return str(n)


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def say_show(items: Sequence[ScoreItem]) -> str:
    """Say a counted hand the way a player counts it.

    >>> from rules.cribbage.scoring import ScoreItem
    >>> say_show([ScoreItem("fifteen", 2), ScoreItem("fifteen", 2), ScoreItem("pair", 2)])
    'fifteen two, fifteen four and a pair is six'
    >>> from rules.cribbage.scoring import score_show
    >>> from rules.cards import Card, parse_cards
    >>> say_show(score_show(parse_cards("AS 2D 3C 7H 8S 9D"), Card.parse("KC")).items)
    'fifteen two, fifteen four, fifteen six, a run of three is nine and a run of three is twelve'
    >>> say_show([])
    'nothing'
    """
    parts: list[str] = []
    total = 0
    for item in items:
        if item.kind == "fifteen":
            total += item.points
            parts.append("fifteen " + number_words(total))
    pairs = [i for i in items if i.kind in ("pair", "pair royal", "double pair royal")]
    if len(pairs) == 2 and all(p.kind == "pair" for p in pairs):
        total += 4
        parts.append("two pairs is " + number_words(total))
    else:
        for pair in pairs:
            total += pair.points
            parts.append(f"a {pair.kind} is {number_words(total)}")
    # Runs over the same ranks are one double, triple or double-double run; runs
    # over other ranks (two stretches in an eight-card hand) are said apart.
    runs: dict[tuple[int, ...], int] = {}
    for item in items:
        if item.kind == "run":
            ranks = tuple(sorted({c.rank for c in item.cards})) or (item.points,)
            runs[ranks] = runs.get(ranks, 0) + 1
    for ranks, count in runs.items():
        length = len(ranks) if len(ranks) > 1 else ranks[0]
        total += count * length
        name = _MANY_RUNS.get(count, f"{number_words(count)} runs")
        parts.append(f"{name} of {_LENGTHS.get(length, str(length))} is {number_words(total)}")
    for item in items:
        if item.kind == "flush":
            total += item.points
            parts.append(f"a flush of {number_words(item.points)} is {number_words(total)}")
        elif item.kind == "his nobs":
            total += item.points
            parts.append(f"his nobs is {number_words(total)}")
    return _join(parts) if parts else "nothing"


def say_item(item: ScoreItem) -> str:
    """One score of the play, said as it is pegged: ``fifteen two``, ``a pair royal for six``.

    >>> from rules.cribbage.scoring import ScoreItem
    >>> [say_item(ScoreItem(kind, points)) for kind, points in [("run", 4), ("go", 1)]]
    ['a run of four for four', 'one for last']
    """
    points = number_words(item.points)
    if item.kind == "fifteen":
        return "fifteen two"
    if item.kind == "thirty-one":
        return "thirty-one for two"
    if item.kind == "run":
        return f"a run of {_LENGTHS.get(item.points, str(item.points))} for {points}"
    if item.kind == "go":
        return "one for last"
    if item.kind == "his heels":
        return "two for his heels"
    if item.kind == "three for last":
        return "three for last"
    if item.kind in ("pair", "pair royal", "double pair royal"):
        return f"a {item.kind} for {points}"
    return f"{item.kind} {points}"
