"""Generated play: random legal Skat deals raise no verdict; the same deals with
one revoke seeded are flagged at the right trick and seat and nothing else. Deals
come from :mod:`rules.skat.autoplay`, every event through ``SkatGame.apply``, with
the deal known to the referee (a shuffling machine) and without (the camera)."""

from __future__ import annotations

import json
import random

import pytest

from rules.skat.autoplay import random_deal
from rules.skat.game import SkatGame
from rules.skat.rulesets import SkatRules

RULES = (
    SkatRules(),
    SkatRules("foster1906"),
    SkatRules("foster1906", gucki_variation=True),
)


def check(seed: int) -> None:
    """One seed: a legal deal, then the same deal with one revoke seeded."""
    rules = RULES[seed % len(RULES)]
    reveal = seed % 2 == 0
    deal = random_deal(random.Random(seed), rules, reveal=reveal)
    game = SkatGame(rules)
    for event in deal.events:
        game.apply(event)
    assert game.verdicts == (), (seed, [v.to_json() for v in game.verdicts])
    result = game.results[-1]
    assert result.kind == "game" and result.value is not None
    assert result.declarer is not None and result.value == game.pad[result.declarer]
    if not deal.chances:
        return
    k = random.Random(~seed).randrange(deal.chances)
    seeded = random_deal(random.Random(seed), rules, reveal=reveal, revoke_at=k)
    assert seeded.revoke is not None
    game = SkatGame(rules)
    for event in seeded.events:
        game.apply(event)
    got = [(v.kind, v.seat, v.trick) for v in game.verdicts]
    assert got == [("revoke", *seeded.revoke)], (seed, k, got)
    result = game.results[-1]
    decided_at = game.deal.decided_at if game.deal is not None else 0
    if decided_at and seeded.revoke[1] > decided_at:
        # a nullo lost at the player's first trick (a schwarz announced, at the
        # defenders' first) was decided there: a later revoke decides nothing
        assert result.won is False and result.decided_by is None, (seed, k, result)
        return
    # Laws 52-53: the revoke decides the game against the side that revoked.
    assert result.won is (seeded.revoke[0] != result.declarer)
    assert result.decided_by is not None and result.decided_by.startswith("revoke")


@pytest.mark.parametrize("block", range(4))
def test_generated_deals(block):
    for seed in range(block * 150, (block + 1) * 150):
        check(seed)


@pytest.mark.slow
def test_ten_thousand_generated_deals():
    for seed in range(600, 10_600):
        check(seed)


def test_undo_and_replay_restore_every_state():
    rules = SkatRules()
    for seed in range(12):
        deal = random_deal(random.Random(seed), rules, reveal=seed % 2 == 0)
        game = SkatGame(rules)
        states = [json.dumps(game.summary())]
        for event in deal.events:
            game.apply(event)
            states.append(json.dumps(game.summary()))
        rebuilt = SkatGame.from_json(json.loads(json.dumps(game.to_json())))
        assert json.dumps(rebuilt.summary()) == states[-1]
        for expected in reversed(states[:-1]):
            game.undo()
            assert json.dumps(game.summary()) == expected
