"""Random legal Frog deals, as events, for the tests and the bench.

>>> import random
>>> deal = random_deal(random.Random(3))
>>> deal.events[0].type, deal.game in ("frog", "chico", "grand")
('deal', True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.cards import FROG_DECK
from rules.events import Event
from rules.frog.game import Deal, Discard, NameTrump, Offer, Pass, WidowShown, contract_for
from rules.tricks.game import play_out

__all__ = ["RandomDeal", "random_deal"]


@dataclass
class RandomDeal:
    events: list[Event]
    game: str
    chances: int = 0
    revoke: tuple[int, int] | None = None


def random_deal(
    rng: random.Random, *, reveal: bool = True, revoke_at: int | None = None
) -> RandomDeal:
    """One deal at a table of three (seat 2 deals; seat 0 is on his left)."""
    pack = list(FROG_DECK)
    rng.shuffle(pack)
    hands = {0: pack[0:11], 1: pack[11:22], 2: pack[22:33]}
    widow = pack[33:36]
    events: list[Event] = [
        Deal(dealer=2, hands=tuple(tuple(hands[s]) for s in range(3)), widow=tuple(widow))
        if reveal
        else Deal(dealer=2)
    ]
    game = rng.choice(("frog", "frog", "chico", "grand"))
    declarer = rng.randrange(3)
    # Offers go round from seat 0; the declarer offers his game, the others pass;
    # a Grand ends the bidding at once ("the highest bid possible").
    for seat in range(3):
        events.append(Offer(seat, game) if seat == declarer else Pass(seat))
        if seat == declarer and game == "grand":
            break
    trump = "H"
    if game == "chico":
        trump = rng.choice("SDC")
        events.append(NameTrump(declarer, trump))
    elif game == "frog":
        events.append(WidowShown(declarer, tuple(widow)))
        twelve = hands[declarer] + widow
        laid = rng.sample(twelve, 3)
        hands[declarer] = [c for c in twelve if c not in laid]
        events.append(Discard(declarer, tuple(laid) if reveal else (), None if reveal else 3))
    deal = RandomDeal(events, game)
    deal.chances, deal.revoke = play_out(
        rng, contract_for(trump), hands, (0, 1, 2), 11, events, revoke_at
    )
    return deal
