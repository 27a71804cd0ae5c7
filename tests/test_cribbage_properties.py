"""Properties of whole games: legal games raise no verdict, replay equals the live
game, undo restores the exact prior state. Games come from the automatic players
in :mod:`rules.cribbage.autoplay`, every event through ``CribbageGame.apply``."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cribbage.autoplay import play_game
from rules.cribbage.events import Go, Play, event_from_json, event_to_json
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules

TABLES = [
    ("five-card", 2),
    ("six-card", 2),
    ("eight-card", 2),
    ("five-card", 3),
    ("six-card", 3),
    ("six-card", 4),
]

tables = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def full_game(table: tuple[str, int], seed: int, reveal: bool, game_to: int = 61) -> CribbageGame:
    variant, players = table
    game = CribbageGame(CribbageRules(variant, players, game_to=game_to))
    for _ in play_game(game, random.Random(seed), reveal_hands=reveal):
        pass
    return game


@settings(max_examples=60, deadline=None)
@given(tables, seeds, st.booleans())
def test_random_legal_games_never_produce_a_verdict(table, seed, reveal):
    game = full_game(table, seed, reveal)
    assert game.verdicts == ()
    assert game.phase == "over"
    assert max(game.scores) == game.rules.game_to
    assert sum(game.state.games_won) >= 1


@settings(max_examples=40, deadline=None)
@given(tables, seeds, st.booleans())
def test_replay_from_json_equals_the_live_state(table, seed, reveal):
    game = full_game(table, seed, reveal)
    text = json.dumps(game.to_json())
    rebuilt = CribbageGame.from_json(json.loads(text))
    assert rebuilt.state == game.state
    assert json.dumps(rebuilt.to_json()) == text
    assert [event_from_json(event_to_json(e)) for e in game.events] == list(game.events)


@settings(max_examples=40, deadline=None)
@given(tables, seeds, st.data())
def test_undo_restores_the_exact_prior_state(table, seed, data):
    game = full_game(table, seed, reveal=False)
    events = game.events
    k = data.draw(st.integers(min_value=0, max_value=len(events)), label="events kept")
    for _ in range(len(events) - k):
        game.undo()
    fresh = CribbageGame(game.rules)
    for e in events[:k]:
        fresh.apply(e)
    assert game.state == fresh.state
    assert game.to_json() == fresh.to_json()
    # and the game goes on from there exactly as before
    for e in events[k:]:
        game.apply(e)
    assert game.state == full_game(table, seed, reveal=False).state


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_a_card_played_past_thirty_one_is_flagged_and_undo_clears_it(seed, data):
    game = CribbageGame(CribbageRules(game_to=121))
    rng = random.Random(seed)
    # Play until a count of 22 or more is on the table, then play a ten-card past 31.
    for event, _ in play_game(game, rng):
        if isinstance(event, (Play, Go)) and game.phase == "play" and game.count >= 22:
            break
    else:
        return  # the game ended before such a count: nothing to test
    seat = game.turn
    assert seat is not None
    deal = game.state.deal
    assert deal is not None
    unseen = [
        c
        for c in data.draw(st.permutations(sorted(_tens())), label="ten-cards")
        if c not in deal.location
    ]
    if not unseen:
        return
    before = game.state
    out = game.apply(Play(seat, unseen[0]))
    assert "over-thirty-one" in [x.kind for x in out.verdicts]
    assert game.count == before.deal.count and game.scores == tuple(before.scores)
    game.undo()
    assert game.state == before


def _tens():
    from rules.cards import FRENCH_DECK

    return [c for c in FRENCH_DECK if c.rank >= 10]
