"""Revolution's exchange: the cards the adversaries pass each other before the first
card (docs/skat.md: the seeds give only the game's value, Law 1).

>>> from rules.skat.game import SkatGame
>>> from rules.skat.rulesets import SkatRules
>>> from rules.skat.events import Exchange
>>> from rules.cards import parse_cards
>>> g = SkatGame(SkatRules("foster1906", revolution=True))
>>> [x.kind for x in g.apply(Exchange(0, tuple(parse_cards("7S")))).verdicts]
['out-of-phase']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.cards import Card
from rules.skat import verdicts as v
from rules.skat.events import Event, Exchange
from rules.skat.state import DealState, SkatState, SkatStep

if TYPE_CHECKING:
    from rules.skat.game import SkatGame

__all__ = ["close_exchange", "exchange"]


def exchange(game: SkatGame, st: SkatState, e: Event, step: SkatStep) -> None:
    """Cards one adversary passes to the other. In a Revolution, after the player's
    hand is laid open and before the first card is led, the adversaries may
    exchange cards, each giving as many as he receives (docs/skat.md: the seeds
    give only the game's value, Law 1). Anything else is an illegal exchange."""
    assert isinstance(e, Exchange)
    playing = game._in_play(st, e, step, "an exchange of cards in a Revolution")
    if playing is None:
        return None
    d, play = playing
    decl = d.declaration
    tno = play.trick_number
    assert decl is not None

    def illegal(why: str, cards: Sequence[Card] = e.given) -> None:
        step.flag(v.IllegalExchange, e.seat, tno, cards, why)

    if decl.game != "revolution":
        return illegal(f"cards exchanged in a {decl.game}: only a Revolution allows it")
    if d.exchange is None:
        return illegal("cards exchanged after the first card was led")
    if e.seat == d.declarer:
        return illegal("the player's hand is laid open and stays his (Law 5)")
    if e.seat not in d.exchange:
        return illegal(f"seat {e.seat} holds no cards (Law 6)")
    to = next(s for s in d.exchange if s != e.seat)
    for card in e.given:
        at = play.locate(card)
        if at is None or at == ("hand", e.seat):
            play.transfer(card, e.seat, to)
        elif at[0] == "aside":
            illegal(f"{card} is in the skat", (card,))
        elif at[1] == d.declarer:
            illegal(f"{card} is in the player's hand", (card,))
        else:
            illegal(f"{card} is in seat {at[1]}'s hand, not seat {e.seat}'s", (card,))
        d.exchange[e.seat].append(card)
    return None


def close_exchange(d: DealState, step: SkatStep) -> None:
    """At the first card: each adversary must have received as many cards as he
    gave, or one of them holds more than ten and the other fewer, which Law 46
    decides: "If it is one of his adversaries, the player's game is won."
    """
    given = d.exchange
    assert given is not None
    d.exchange = None
    a, b = given
    if len(given[a]) == len(given[b]):
        return
    more, fewer = (a, b) if len(given[a]) > len(given[b]) else (b, a)
    diff = len(given[more]) - len(given[fewer])
    step.flag(
        v.IllegalExchange,
        more,
        1,
        (*given[more], *given[fewer]),
        f"seat {more} gave {len(given[more])} cards and received {len(given[fewer])}: "
        f"seat {more} holds {10 - diff}, seat {fewer} {10 + diff} (Law 46)",
    )
    d.forced.append((1, step.index, True, "illegal-exchange (Law 46)"))
