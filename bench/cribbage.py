"""How fast the cribbage show is counted: one hand at a time, and the whole space in bulk.

    .venv/bin/python bench/cribbage.py [--hands N] [--seed S]

Runs on one core: the thread pools of the numeric libraries are set to one thread
before NumPy loads, and the process is pinned to a single CPU where the system
allows it. Prints the rates, the best of three timings, and whether the whole-space
distribution equals the known answer in tests/data; exits 1 if it does not.
"""

# ruff: noqa: E402 - the thread counts must be set before NumPy is imported.
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analysis.cribbage import WHOLE_SPACE, rank_table, score_hands, whole_space_counts
from rules.cards import FRENCH_DECK, Card
from rules.cribbage.scoring import rank_pattern, score_show, show_total

DISTRIBUTION_FILE = Path(__file__).resolve().parent.parent / "tests/data/cribbage_distribution.txt"
SINGLE_TARGET = 100_000  # hands per second, show_total
WHOLE_TARGET = 3.0  # seconds for the whole space


def pin_to_one_cpu() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), times


def known_distribution() -> list[int]:
    counts = [0] * 30
    for raw in DISTRIBUTION_FILE.read_text(encoding="utf-8").splitlines():
        body = raw.partition("#")[0].split()
        if body:
            counts[int(body[0])] = int(body[1])
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="single-hand sample size")
    parser.add_argument("--seed", type=int, default=20_240_601)
    args = parser.parse_args(argv)

    pinned = pin_to_one_cpu()
    print(
        f"Kiebitz cribbage scoring bench: Python {platform.python_version()}, "
        f"NumPy {np.__version__}, {pinned}, 1 thread"
    )

    rng = random.Random(args.seed)
    deals: list[tuple[tuple[Card, ...], Card]] = []
    for _ in range(args.hands):
        cards = rng.sample(FRENCH_DECK, 5)
        deals.append((tuple(cards[:4]), cards[4]))

    def run(scorer: Callable[[tuple[Card, ...], Card], object]) -> Callable[[], None]:
        def work() -> None:
            for hand, starter in deals:
                scorer(hand, starter)

        return work

    def row(label: str, figure: str, note: str = "") -> None:
        print(f"  {label:<44} {figure:>16}   {note}".rstrip())

    print(f"\nsingle hand: {args.hands:,} six-card hands with a starter, seed {args.seed}")
    print("  (one pass first to fill the rank caches, then the best of 3 passes)")
    run(show_total)()
    total_best, _ = best_of(3, run(show_total))
    show_best, _ = best_of(3, run(score_show))
    total_rate, show_rate = args.hands / total_best, args.hands / show_best
    verdict = "ok" if total_rate >= SINGLE_TARGET else "MISSED"
    row("show_total", f"{total_rate:,.0f} hands/s", f"target >= {SINGLE_TARGET:,}: {verdict}")
    row("score_show (with the breakdown)", f"{show_rate:,.0f} hands/s")

    print("\nbulk: analysis.cribbage with NumPy, one core")
    rank_pattern.cache_clear()  # build the table cold, as a fresh process would
    start = time.perf_counter()
    rank_table(5)
    row("rank table, 6,188 five-rank multisets (once)", f"{time.perf_counter() - start:.3f} s")
    sample = np.random.default_rng(args.seed).random((1_000_000, 52)).argsort(axis=1)[:, :5]
    hands, starters = np.ascontiguousarray(sample[:, :4]), sample[:, 4].copy()
    bulk_best, _ = best_of(3, lambda: score_hands(hands, starters))
    row("score_hands, 1,000,000 random rows", f"{bulk_best:.3f} s", f"{1 / bulk_best:.1f} M rows/s")
    counts = whole_space_counts()
    whole_best, whole_times = best_of(3, whole_space_counts)
    verdict = "ok" if whole_best <= WHOLE_TARGET else "MISSED"
    row(
        f"whole space, {WHOLE_SPACE:,} (hand, starter) pairs",
        f"{whole_best:.3f} s",
        f"best of {', '.join(f'{t:.3f}' for t in whole_times)}; target <= {WHOLE_TARGET:g} s: "
        + verdict,
    )

    expected = known_distribution()
    got = counts.tolist()
    if got == expected:
        print(
            f"  distribution equals {DISTRIBUTION_FILE.name}: all 30 scores"
            f" (29: {got[29]}, 24: {got[24]:,}, 0: {got[0]:,})"
        )
        return 0
    wrong = [
        f"{s}: {g:,} not {e:,}"
        for s, (g, e) in enumerate(zip(got, expected, strict=True))
        if g != e
    ]
    print(f"  distribution DIFFERS from {DISTRIBUTION_FILE.name}: " + "; ".join(wrong))
    return 1


if __name__ == "__main__":
    sys.exit(main())
