"""``kiebitz cribbage …``: count a show, score a card of the play.

>>> from rules.cards import parse_cards, Card
>>> from rules.cribbage.scoring import score_show
>>> print(format_show(score_show(parse_cards("2H 3C 4H 4S"), Card.parse("AD"))))
10: a pair is two and a double run of four is ten
  pair               2  4H 4S
  run                4  AD 2H 3C 4H
  run                4  AD 2H 3C 4S
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from controller.cli_io import name_commands, open_input, run_batch, user_input
from controller.errors import MalformedLineError, UsageError
from rules.cards import Card, parse_card, parse_cards
from rules.cribbage.pegging import count_of, peg
from rules.cribbage.scoring import ScoreItem, Show, score_show
from rules.cribbage.speech import number_words, say_item

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = [
    "format_peg",
    "format_show",
    "parse_show_line",
    "peg_line",
    "register",
    "say_peg",
    "score_line",
]

# "double pair royal", the longest kind, sets the column so every listing lines up.
_KIND_WIDTH = 17


def register(commands: Commands) -> None:
    """Add ``cribbage`` and its commands to the top-level command list."""
    cribbage = commands.add_parser(
        "cribbage",
        help="count a hand or crib, score a card of the play",
        description="Cribbage scoring as the rule texts count it.",
    )
    games = cribbage.add_commands("cribbage_command")
    _add_score(games)
    _add_peg(games)
    name_commands(games)


def _add_score(games: Commands) -> None:
    score = games.add_parser(
        "score",
        help="count a hand or crib with the starter (the show)",
        description=(
            "Count a hand (3, 4 or 6 cards) or a crib (4 cards) with the starter. "
            "Prints the total and the count said aloud, then one line per item."
        ),
    )
    score.add_argument("cards", nargs="*", metavar="CARD", help="the hand, e.g. 5H 5S 5C JD")
    score.add_argument("--starter", metavar="CARD", help="the starter (cut card), e.g. 5D")
    score.add_argument(
        "--crib", action="store_true", help="count as the crib (a flush needs the starter)"
    )
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.add_argument(
        "--batch",
        metavar="FILE",
        help="one hand a line, '5H 5S 5C JD | 5D [crib]'; '-' reads stdin; prints the totals",
    )
    score.set_defaults(handler=_score)


def _add_peg(games: Commands) -> None:
    peg_parser = games.add_parser(
        "peg",
        help="what the last card played scores on the count",
        description=(
            "Score the last card of one count (the cards since the count began, "
            "in the order played)."
        ),
    )
    peg_parser.add_argument("cards", nargs="*", metavar="CARD", help="e.g. 5H 10S 5C")
    peg_parser.add_argument("--json", action="store_true", help="print one JSON object")
    peg_parser.add_argument(
        "--batch",
        metavar="FILE",
        help="one count a line, '5H 10S 5C'; '-' reads stdin; prints the points",
    )
    peg_parser.set_defaults(handler=_peg)


# --- score -------------------------------------------------------------------


def _score(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.cards or args.starter is not None:
            raise UsageError("--batch reads the hands from FILE: give no cards or --starter")
        if args.json:
            raise UsageError("--json cannot be used with --batch")
        with open_input(args.batch) as lines:
            return run_batch(lines, partial(score_line, crib=args.crib), sys.stdout)
    if not args.cards:
        raise UsageError("no cards to count: give the hand, e.g. 5H 5S 5C JD --starter 5D")
    if args.starter is None:
        raise UsageError("missing --starter: the cut card, e.g. --starter 5D")
    with user_input():
        hand = parse_cards(_joined(args.cards))
        starter = parse_card(args.starter)
        show = score_show(hand, starter, crib=args.crib)
    if args.json:
        print(json.dumps({**show.to_json(), "speech": show.speech()}))
    else:
        print(format_show(show))
    return 0


def _joined(cards: list[str]) -> str:
    """The cards given as arguments, as one text; an empty argument (``""``, a shell
    variable unset) is refused: it was dropped, and three cards counted as a hand."""
    for n, text in enumerate(cards, 1):
        if not text.strip():
            raise UsageError(f"card {n} of {len(cards)} is empty: give a rank and a suit, e.g. 5H")
    return " ".join(cards)


def _format_item(item: ScoreItem) -> str:
    cards = " ".join(str(c) for c in item.cards)
    return f"  {item.kind:<{_KIND_WIDTH}} {item.points:>2}  {cards}"


def format_show(show: Show) -> str:
    """``TOTAL: the count said aloud``, then ``kind points cards`` for each item."""
    return "\n".join([f"{show.total}: {show.speech()}", *map(_format_item, show.items)])


def parse_show_line(text: str, *, crib: bool = False) -> tuple[list[Card], Card, bool]:
    """Read ``HAND | STARTER [crib]``: the hand, the starter, and whether it is a crib.

    >>> hand, starter, crib = parse_show_line("5H 5S 5C JD | 5D")
    >>> " ".join(map(str, hand)), starter, crib
    ('5H 5S 5C JD', Card.parse('5D'), False)
    >>> parse_show_line("2H 6H 8H 10H | KD crib")[2]
    True
    >>> parse_show_line("5H 5S 5C JD 5D")
    Traceback (most recent call last):
    ...
    controller.errors.MalformedLineError: expected 'HAND | STARTER', e.g. '5H 5S 5C JD | 5D'
    """
    hand_text, bar, rest = text.partition("|")
    if not bar:
        raise MalformedLineError("expected 'HAND | STARTER', e.g. '5H 5S 5C JD | 5D'")
    if "|" in rest:
        raise MalformedLineError("more than one '|': expected 'HAND | STARTER'")
    words = rest.split()
    if words and words[-1].lower() == "crib":
        crib = True
        words.pop()
    starters = parse_cards(" ".join(words))
    if len(starters) != 1:
        raise MalformedLineError(f"expected one starter after '|', found {len(starters)}")
    return parse_cards(hand_text), starters[0], crib


def score_line(text: str, *, crib: bool = False) -> str:
    """The total of one batch line.

    >>> score_line("5H 5S 5C JD | 5D"), score_line("2H 6H 8H 10H | KD crib")
    ('29', '0')
    """
    hand, starter, is_crib = parse_show_line(text, crib=crib)
    return str(score_show(hand, starter, crib=is_crib).total)


# --- peg ---------------------------------------------------------------------


def _peg(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.cards:
            raise UsageError("--batch reads the counts from FILE: give no cards")
        if args.json:
            raise UsageError("--json cannot be used with --batch")
        with open_input(args.batch) as lines:
            return run_batch(lines, peg_line, sys.stdout)
    if not args.cards:
        raise UsageError("no cards to score: give the count in the order played, e.g. 5H 10S")
    with user_input():
        cards = parse_cards(_joined(args.cards))
        items = peg(cards)
    if args.json:
        print(json.dumps(_peg_json(cards, items)))
    else:
        print(format_peg(cards, items))
    return 0


def say_peg(items: Sequence[ScoreItem]) -> str:
    """What the player says as the card is pegged.

    >>> say_peg([ScoreItem("fifteen", 2), ScoreItem("run", 5)])
    'fifteen two and a run of five for five'
    >>> say_peg([])
    'nothing'
    """
    said = [say_item(item) for item in items]
    if not said:
        return number_words(0)
    if len(said) == 1:
        return said[0]
    return ", ".join(said[:-1]) + " and " + said[-1]


def format_peg(cards: Sequence[Card], items: Sequence[ScoreItem]) -> str:
    """``POINTS: what is said``, one line per item, then ``count N``.

    >>> print(format_peg(parse_cards("10S 5C"), peg(parse_cards("10S 5C"))))
    2: fifteen two
      fifteen            2  10S 5C
    count 15
    """
    points = sum(item.points for item in items)
    head = f"{points}: {say_peg(items)}"
    return "\n".join([head, *map(_format_item, items), f"count {count_of(cards)}"])


def _peg_json(cards: Sequence[Card], items: Sequence[ScoreItem]) -> dict[str, Any]:
    return {
        "cards": [str(c) for c in cards],
        "count": count_of(cards),
        "points": sum(item.points for item in items),
        "items": [item.to_json() for item in items],
        "speech": say_peg(items),
    }


def peg_line(text: str) -> str:
    """The points the last card of one batch line scores.

    >>> peg_line("5H 3C 2S 4D AH"), peg_line("5H 10S 5C")
    ('7', '0')
    """
    return str(sum(item.points for item in peg(parse_cards(text))))
