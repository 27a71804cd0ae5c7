"""Random legal Skat deals, as events, for the tests and the bench.

Every deal is dealt from a shuffled pack, bid, declared and played out with a
random legal card at every turn. ``reveal`` gives the referee the deal (a
shuffling machine); without it the referee sees only what the camera sees. With
``revoke_at=k`` the k-th chance to revoke (a seat that holds the suit led and
another card) is taken: that seat plays a card that does not follow. Randomness
comes in as ``rng``, so every deal is reproducible from its seed.

>>> import random
>>> from rules.skat.game import SkatGame
>>> deal = random_deal(random.Random(4))
>>> game = SkatGame()
>>> for event in deal.events:
...     _ = game.apply(event)
>>> game.verdicts, game.results[-1].kind
((), 'game')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.cards import SKAT_DECK, Card
from rules.skat.declaration import SUIT_GAMES, Declaration, contract_for
from rules.skat.events import Bid, Deal, Declare, Discard, Event, Hold, Pass, PickUp
from rules.skat.rulesets import SkatRules
from rules.skat.values import bid_values
from rules.tricks.game import play_out

__all__ = ["RandomDeal", "random_deal"]


@dataclass
class RandomDeal:
    """A generated deal: its events, the chances to revoke it offered, and the
    revoke taken (seat, trick), if any."""

    events: list[Event]
    chances: int = 0
    revoke: tuple[int, int] | None = None
    declaration: Declaration | None = None
    hands: dict[int, list[Card]] = field(default_factory=dict)


def _declaration(rng: random.Random, rules: SkatRules) -> Declaration:
    game = rng.choice((*SUIT_GAMES, "grand", "grand", "null"))
    hand = rng.random() < 0.3
    if rules.isko:
        ouvert = (hand and rng.random() < 0.15) or (game == "null" and rng.random() < 0.2)
        schneider = hand and game != "null" and rng.random() < 0.2
        return Declaration(game, hand=hand, ouvert=ouvert, schneider=schneider)
    if rules.gucki_variation:
        return Declaration(game, schneider=game != "null" and rng.random() < 0.2)
    if hand:
        return Declaration(game, hand=True, ouvert=game != "null" and rng.random() < 0.1)
    return Declaration(game)  # a suit game turns a card: see _turn


def random_deal(
    rng: random.Random,
    rules: SkatRules | None = None,
    *,
    reveal: bool = True,
    revoke_at: int | None = None,
) -> RandomDeal:
    """One random legal deal at a table of three (Hinterhand, seat 2, deals)."""
    rules = rules or SkatRules()
    pack = list(SKAT_DECK)
    rng.shuffle(pack)
    hands = {0: pack[0:10], 1: pack[10:20], 2: pack[20:30]}
    skat = pack[30:32]
    events: list[Event] = []
    if reveal:
        events.append(
            Deal(dealer=2, hands=tuple(tuple(hands[s]) for s in range(3)), skat=tuple(skat))
        )
    else:
        events.append(Deal(dealer=2))
    declarer = rng.randrange(3)
    bid = rng.choice(bid_values(rules)[:6])
    if declarer == 0:
        events += [Bid(1, bid), Hold(0), Pass(1), Pass(2)]
    elif declarer == 1:
        events += [Bid(1, bid), Pass(0), Pass(2)]
    else:
        events += [Pass(1), Bid(2, bid), Pass(0)]
    decl = _declaration(rng, rules)
    foster = not rules.isko and not rules.gucki_variation
    if foster and not decl.hand and decl.game in SUIT_GAMES:
        decl = _turn(skat)  # a Tournée: the card turned up decides the trumps (Law 29)
    # Law 40: "a Gucki Nullo must be announced before the skat cards are touched".
    declare_first = foster and decl.game == "null" and not decl.hand
    own = hands[declarer]
    skat_events: list[Event] = []
    if not decl.hand:
        skat_events.append(PickUp(declarer, tuple(skat) if reveal else ()))
        twelve = own + skat
        laid = rng.sample(twelve, 2)
        own = [c for c in twelve if c not in laid]
        skat_events.append(
            Discard(declarer, tuple(laid) if reveal else (), count=None if reveal else 2)
        )
    shown = tuple(own) if decl.ouvert else ()
    declare = Declare.of(declarer, decl, shown)
    events += [declare, *skat_events] if declare_first else [*skat_events, declare]
    hands[declarer] = list(own)
    deal = RandomDeal(events, declaration=decl, hands={s: list(h) for s, h in hands.items()})
    deal.chances, deal.revoke = play_out(
        rng, contract_for(decl.game), hands, (0, 1, 2), 10, events, revoke_at
    )
    return deal


def _turn(skat: list[Card]) -> Declaration:
    """A Tournée on the first skat card: its suit is trumps (a jack: a turned grand)."""
    card = skat[0]
    if card.rank == 11:
        return Declaration("grand", turned=card)
    suit_game = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}[card.suit.value]
    return Declaration(suit_game, turned=card)
