"""The trick games' event log (:mod:`rules.eventlog`, where it now lives with the
generic helpers, kept importable here) and the play-out loop they share.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules.cards import Card
from rules.eventlog import EventLog, Step, apply_all, check_seats, events_of
from rules.events import Event, Play
from rules.tricks.contract import Contract

__all__ = [
    "EventLog",
    "Step",
    "apply_all",
    "check_seats",
    "events_of",
    "play_out",
]


def play_out(
    rng: random.Random,
    contract: Contract,
    hands: Mapping[int, list[Card]],
    seats: Sequence[int],
    tricks: int,
    events: list[Event],
    revoke_at: int | None,
) -> tuple[int, tuple[int, int] | None]:
    """Play ``tricks`` tricks with a random legal card at every turn, the first
    seat leading, appending ``Play`` events; the ``revoke_at``-th chance to revoke
    is taken. Returns the chances offered and the revoke taken (seat, trick)."""
    n = len(seats)
    leader, chances = 0, 0
    revoke: tuple[int, int] | None = None
    for trick in range(1, tricks + 1):
        cards: list[Card] = []
        for k in range(n):
            seat = seats[(leader + k) % n]
            hand = hands[seat]
            legal = contract.legal(hand, cards[0] if cards else None)
            if cards and len(legal) < len(hand):
                if revoke_at == chances:
                    card = rng.choice([c for c in hand if c not in legal])
                    revoke = (seat, trick)
                else:
                    card = rng.choice(legal)
                chances += 1
            else:
                card = rng.choice(legal)
            hand.remove(card)
            cards.append(card)
            events.append(Play(seat, card))
        leader = (leader + contract.winner(cards)) % n
    return chances, revoke
