"""Simple automatic players, and a dealer that drives whole games through the engine.

Used by the demo (``kiebitz demo``) and by the tests, which need many legal
games: every event goes through :meth:`CribbageGame.apply`, exactly as events
from the camera would. Randomness comes in as ``rng`` so every game is
reproducible from its seed.

>>> import random
>>> from rules.cribbage.variants import CribbageRules
>>> game = CribbageGame(CribbageRules(game_to=61))
>>> for event, outcome in play_game(game, random.Random(7)):
...     pass
>>> game.phase, max(game.scores) >= 61, game.verdicts
('over', True, ())
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Never

from rules.cards import FRENCH_DECK, Card
from rules.cribbage.events import Cut, Deal, Discard, Event, Go, Play, Show, Starter
from rules.cribbage.game import CribbageGame, Outcome
from rules.cribbage.pegging import score_last
from rules.cribbage.scoring import pip_value, rank_pattern

__all__ = ["SimplePlayer", "play_game"]


def _kept_value(cards: Sequence[Card]) -> int:
    """What cards are worth by themselves (no starter): the pattern, plus a flush."""
    points = sum(p for _, _, p in rank_pattern(tuple(sorted(c.rank for c in cards))))
    if len(cards) >= 3 and len({c.suit for c in cards}) == 1:
        points += len(cards)
    return points


class SimplePlayer:
    """A plain club player: keeps the best cards, pegs what it can, avoids giving
    fifteen or thirty-one away. Deterministic for a given hand."""

    def lay_out(self, hand: Sequence[Card], n: int, own_crib: bool) -> tuple[Card, ...]:
        """Choose ``n`` cards for the crib (seed 004 §86: baulk the adversary's crib,
        lay out close cards and fives for your own)."""
        best: tuple[float, tuple[Card, ...]] | None = None
        for out in combinations(sorted(hand), n):
            kept = [c for c in hand if c not in out]
            value: float = _kept_value(kept)
            crib_value = _kept_value(out) if n > 1 else 0
            fives = sum(1 for c in out if c.rank == 5)
            value += (crib_value + 1.5 * fives) if own_crib else -(crib_value + 1.5 * fives)
            if best is None or value > best[0]:
                best = (value, out)
        assert best is not None
        return best[1]

    def choose(self, hand: Sequence[Card], run: Sequence[Card], count: int) -> Card | None:
        """The card to play on the count, or ``None`` to say go."""
        best: tuple[float, Card] | None = None
        for card in sorted(hand):
            value = pip_value(card)
            if count + value > 31:
                continue
            points = sum(i.points for i in score_last([*run, card]))
            after = count + value
            score = points * 10.0 - (3.0 if after in (5, 21) else 0.0) - value / 10.0
            if not run and card.rank == 5:
                score -= 2.0  # leading a five invites a fifteen
            if best is None or score > best[0]:
                best = (score, card)
        return None if best is None else best[1]


def play_game(
    game: CribbageGame,
    rng: random.Random,
    players: Sequence[SimplePlayer] | None = None,
    *,
    reveal_hands: bool = True,
) -> Iterator[tuple[Event, Outcome[Never]]]:
    """Deal and play ``game`` to its end, yielding every event with its outcome.

    With ``reveal_hands`` the deal event carries the hands (as a shuffling
    machine would know them); without, the engine sees only what a camera sees:
    laid-out counts, the starter, the play and the show.
    """
    rules = game.rules
    n = rules.players
    seats = list(players) if players is not None else [SimplePlayer() for _ in range(n)]

    def apply(event: Event) -> Iterator[tuple[Event, Outcome[Never]]]:
        yield event, game.apply(event)

    while game.phase == "cut":
        yield from apply(Cut(tuple(rng.sample(FRENCH_DECK, n))))
    while game.phase != "over":
        deck = list(FRENCH_DECK)
        rng.shuffle(deck)
        dealer = game.dealer if game.state.deal is None else (game.dealer or 0) + 1
        assert dealer is not None
        dealer %= n
        order = [(dealer + k) % n for k in range(1, n + 1)]
        hands: dict[int, list[Card]] = {s: [] for s in range(n)}
        for _ in range(rules.deal_size):  # one at a time, beginning left of the dealer
            for s in order:
                hands[s].append(deck.pop())
        crib_card = deck.pop() if rules.crib_from_pack else None
        known = tuple(tuple(hands[s]) for s in range(n)) if reveal_hands else None
        yield from apply(Deal(dealer=dealer, hands=known, crib_card=crib_card))
        crib: list[Card] = [crib_card] if crib_card else []
        for s in order:
            out = seats[s].lay_out(hands[s], rules.discards_each, own_crib=s == dealer)
            for card in out:
                hands[s].remove(card)
            crib.extend(out)
            yield from apply(Discard(s, out if reveal_hands else (), count=len(out)))
        yield from apply(Starter(deck.pop()))
        remaining = {s: list(hands[s]) for s in range(n)}
        while game.phase == "play":
            seat = game.turn
            assert seat is not None and game.state.deal is not None
            chosen = seats[seat].choose(remaining[seat], game.state.deal.run, game.count)
            if chosen is None:
                yield from apply(Go(seat))
            else:
                remaining[seat].remove(chosen)
                yield from apply(Play(seat, chosen))
        for s in order:
            if game.phase != "show":
                break
            yield from apply(Show(s, tuple(hands[s])))
        if game.phase == "show":
            yield from apply(Show(dealer, tuple(crib), crib=True))
