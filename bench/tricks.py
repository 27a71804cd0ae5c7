"""How fast the trick-game referee validates whole deals.

    .venv/bin/python bench/tricks.py [--deals N] [--seed S] [--repeats R]

Generates N random legal Skat deals (half with the deal known to the referee, half
seen only card by card, as the camera sees them), then replays each, every event
through ``SkatGame.apply`` in a fresh game: deal, bidding, declaration, thirty
cards, the result. The figure is full Skat deals validated per second on one core
(target: 5,000). Frog and All Fours deals are timed the same way, for the record.

Runs on one core: the process is pinned to a single CPU where the system allows
it. Each deal is replayed R times and its best time kept (a deal takes a fraction
of a millisecond, so the best run is the one another process did not interrupt);
the rate is deals over the sum of those times, and the rate over every run is
printed beside it. Exits 1 if any legal deal raised a verdict.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rules.allfours.autoplay import random_deal as allfours_deal
from rules.allfours.game import AllFoursGame
from rules.frog.autoplay import random_deal as frog_deal
from rules.frog.game import FrogGame
from rules.skat.autoplay import random_deal as skat_deal
from rules.skat.game import SkatGame
from rules.skat.rulesets import SkatRules

TARGET = 5_000  # full Skat deals validated per second, one core


def pin_to_one_cpu() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def measure(
    deals: Sequence[Sequence[Any]], new_game: Callable[[], Any], repeats: int
) -> tuple[float, float, int]:
    """(rate from each deal's best time, rate over every run, verdicts seen).

    Each deal is replayed ``repeats`` times in a fresh game; a deal takes a fifth of
    a millisecond, so the best of its runs is rarely touched by another process.
    """
    clock = time.perf_counter
    best_total = 0.0
    all_total = 0.0
    verdicts = 0
    for events in deals:
        best = float("inf")
        for _ in range(repeats):
            game = new_game()
            apply = game.apply
            t0 = clock()
            for event in events:
                apply(event)
            elapsed = clock() - t0
            best = min(best, elapsed)
            all_total += elapsed
        best_total += best
        verdicts += len(game.verdicts)
    runs = len(deals) * repeats
    return len(deals) / best_total, runs / all_total, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6000, help="deals per game (default 6000)")
    parser.add_argument("--seed", type=int, default=2026, help="the first seed (default 2026)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each deal (default 5)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {pin_to_one_cpu()}")
    rules = SkatRules()
    rng = random.Random(args.seed)
    skat = [skat_deal(rng, rules, reveal=k % 2 == 0).events for k in range(args.deals)]
    frog = [frog_deal(rng, reveal=k % 2 == 0).events for k in range(args.deals // 2)]
    fours = [allfours_deal(rng, reveal=k % 2 == 0).events for k in range(args.deals // 2)]
    status = 0
    for name, deals, new_game, target in (
        ("Skat (ISkO)", skat, lambda: SkatGame(rules), TARGET),
        ("Frog", frog, FrogGame, None),
        ("All Fours", fours, AllFoursGame, None),
    ):
        best, mean, verdicts = measure(deals, new_game, args.repeats)
        events = sum(len(d) for d in deals) / len(deals)
        verdict = (
            "" if target is None else ("  (target met)" if best >= target else "  (BELOW TARGET)")
        )
        print(
            f"{name:12} {best:8,.0f} deals/s (every run: {mean:,.0f}), {len(deals):,} deals, "
            f"{events:.0f} events a deal{verdict}"
        )
        if target is not None:
            print(f"{'':12} target {target:,} full deals validated per second on one core")
        if verdicts:
            print(f"{name}: {verdicts} verdicts on legal deals: the referee is wrong")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
