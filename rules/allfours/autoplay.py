"""Random legal deals of All Fours, as events, for the tests and the bench.

>>> import random
>>> deal = random_deal(random.Random(5))
>>> deal.events[0].type
'deal'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.allfours.game import Beg, Deal, Discard, Give, Run, Stand, contract_for
from rules.cards import FRENCH_DECK, Card
from rules.events import Event
from rules.tricks.game import play_out

__all__ = ["RandomDeal", "random_deal"]


@dataclass
class RandomDeal:
    events: list[Event]
    chances: int = 0
    revoke: tuple[int, int] | None = None
    played: bool = True


def random_deal(
    rng: random.Random,
    *,
    players: int = 2,
    dealer: int | None = None,
    reveal: bool = True,
    revoke_at: int | None = None,
) -> RandomDeal:
    """One deal; the dealer is the last seat unless given."""
    dealer = players - 1 if dealer is None else dealer
    pack = list(FRENCH_DECK)
    rng.shuffle(pack)
    seats = [(dealer + 1 + k) % players for k in range(players)]
    hands: dict[int, list[Card]] = {s: pack[6 * k : 6 * k + 6] for k, s in enumerate(seats)}
    top = 6 * players
    turned = pack[top]
    top += 1
    events: list[Event] = [
        Deal(
            dealer=dealer,
            hands=tuple(tuple(hands[s]) for s in range(players)) if reveal else None,
            turned=turned,
        )
    ]
    eldest = seats[0]
    trump = turned.suit.value
    runs = 0
    if rng.random() < 0.5:
        events.append(Stand(eldest))
    else:
        events.append(Beg(eldest))
        if rng.random() < 0.5:
            events.append(Give(dealer))
        else:
            refused = trump
            while True:
                if top + 3 * players >= len(pack):
                    events.append(Run(dealer))
                    return RandomDeal(events, played=False)
                more = {s: pack[top + 3 * k : top + 3 * k + 3] for k, s in enumerate(seats)}
                top += 3 * players
                for s in seats:
                    hands[s] += more[s]
                turned = pack[top]
                top += 1
                runs += 1
                events.append(
                    Run(
                        dealer,
                        turned,
                        tuple(tuple(more[s]) for s in range(players)) if reveal else None,
                    )
                )
                if turned.suit.value != refused:
                    trump = turned.suit.value
                    break
            for s in seats:
                laid = rng.sample(hands[s], 3 * runs)
                hands[s] = [c for c in hands[s] if c not in laid]
                events.append(
                    Discard(s, tuple(laid) if reveal else (), None if reveal else len(laid))
                )
    deal = RandomDeal(events)
    deal.chances, deal.revoke = play_out(
        rng, contract_for(trump), hands, seats, 6, events, revoke_at
    )
    return deal
