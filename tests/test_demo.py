"""`make demo`'s main job: a whole 121 game told in the rule texts' words."""

from __future__ import annotations

import io
import re

from controller.demo import run


def test_the_demo_plays_a_whole_game_and_replays_it():
    out = io.StringIO()
    assert run(seed=2026, out=out) == 0
    text = out.getvalue()
    assert text.startswith("Kiebitz demo: six-card cribbage, two players, game to 121")
    assert "Deal 1:" in text and "The play:" in text and "The show:" in text
    assert re.search(r"fifteen two, fifteen four[ ,a-z-]* is [a-z-]+", text)
    assert "one for last" in text and "Pegs: Anna" in text
    last = text.strip().splitlines()
    assert re.match(r"(Anna|Ben) wins, 121 to \d+: ", last[-2])
    assert last[-1].endswith("0 verdicts; rebuilt from its JSON log: identical.")


def test_other_seeds_and_variants_end_the_same_way():
    for seed, variant, game_to in ((1, "five-card", 61), (2, "eight-card", 121)):
        out = io.StringIO()
        assert run(seed=seed, variant=variant, game_to=game_to, out=out) == 0
        assert f"wins, {game_to} to" in out.getvalue()
