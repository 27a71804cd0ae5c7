"""The power budget of a board, computed from its layout and the firmware's limits.

Worst cases use the firmware's own renderer (:mod:`pegboard.render`): the
brightness cap, the back peg's level and the current limiter all count, so the
table cannot promise less than the firmware draws.

>>> from controller.board.layouts import load_layout
>>> budget = power_budget(load_layout("two-player-61"))
>>> budget.led_count, budget.uncapped_ma, budget.capped_ma
(148, 8880, 2220)
>>> budget.fuse_a
1.6
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pegboard import protocol as p
from pegboard.layout import Layout
from pegboard.render import MODE_SELFTEST, MODE_STATE, Renderer

from controller.board import _firmware  # noqa: F401

__all__ = ["PowerBudget", "markdown", "power_budget"]

#: Per display at the brightness the layouts use (data sheets: TM1637 about 80 mA
#: with all segments lit at level 4/7; MAX7219 8 digits at intensity 6/15 about 150 mA).
DISPLAY_MA = {"tm1637": 80, "max7219": 150}
PICO_MA = 50  # RP2040 at 125 MHz with USB, plus the 74AHCT125
FUSES_A = (0.5, 0.75, 1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0)
SUPPLIES_A = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
#: LEDs per injection point: each track's chain is fed at its start and then at
#: least every this many LEDs, so no run of 0.3 mm^2 wire carries the limiter's
#: whole current past more than a short stretch of LEDs.
INJECT_EVERY = 70


@dataclass(frozen=True, slots=True)
class PowerBudget:
    layout: str
    led_count: int
    uncapped_ma: int  # every LED white at full: 60 mA each
    capped_ma: int  # every LED white at the brightness cap
    game_ma: (
        int  # the brightest real state: pegs, games won, indicators, revoke alert on all tracks
    )
    selftest_ma: int  # the self-test's last frame (every LED in its track's colour)
    limiter_ma: int  # the firmware never lets the LEDs draw more
    idle_ma: int  # the LEDs' own quiescent current, all dark
    displays_ma: int
    pico_ma: int
    total_ma: int  # what the 5 V supply must deliver at worst
    supply_a: float
    fuse_a: float
    injection_leds: tuple[int, ...]


def _frame_ma(layout: Layout, state: p.State | None, mode: int, elapsed: int = 0) -> int:
    renderer = Renderer(layout)
    renderer.frame(state, now=0, mode=mode, elapsed=elapsed)
    return renderer.estimated_ma


def power_budget(layout: Layout) -> PowerBudget:
    idle = math.ceil(layout.idle_ma_per_led * layout.led_count)
    full_channel = layout.ma_per_channel
    uncapped = 3 * full_channel * layout.led_count
    capped = math.ceil(uncapped * layout.cap_percent / 100)
    busy = p.State(
        tracks=[(layout.game - 1, 1, 9)] * layout.tracks,
        dealer=0,
        turn=1,
        alert=p.ALERT_REVOKE,
        alert_mask=(1 << layout.tracks) - 1,
    )
    game = _frame_ma(layout, busy, MODE_STATE)
    selftest = _frame_ma(layout, None, MODE_SELFTEST, elapsed=layout.selftest_ms)
    displays = sum(DISPLAY_MA[d.kind] * len(d.seats) for d in layout.displays)
    leds = min(max(game, selftest), layout.max_ma)
    total = leds + displays + PICO_MA
    supply = next(s for s in SUPPLIES_A if s * 1000 * 0.8 >= total)
    fuse = next(f for f in FUSES_A if f * 1000 >= 1.25 * total)
    injection = []
    per_track = layout.leds_per_track
    points = math.ceil(per_track / INJECT_EVERY)
    for track in range(layout.tracks):
        injection.extend(track * per_track + k * per_track // points for k in range(points))
    return PowerBudget(
        layout=layout.name,
        led_count=layout.led_count,
        uncapped_ma=uncapped,
        capped_ma=capped,
        game_ma=game,
        selftest_ma=selftest,
        limiter_ma=layout.max_ma,
        idle_ma=idle,
        displays_ma=displays,
        pico_ma=PICO_MA,
        total_ma=total,
        supply_a=supply,
        fuse_a=fuse,
        injection_leds=tuple(injection),
    )


def markdown(layouts: list[Layout]) -> str:
    """The table of ``hardware/power-budget.md`` (that file is checked against this)."""
    rows = [power_budget(layout) for layout in layouts]
    head = (
        "| layout | LEDs | all white, full (mA) | all white at the cap (mA) "
        "| brightest game state (mA) "
        "| self-test (mA) | limiter (mA) | LED idle (mA) | displays (mA) | Pico (mA) "
        "| worst total (mA) | 5 V supply | fuse (slow) | inject 5 V at LEDs |"
    )
    lines = [head, "|" + "---|" * 14]
    for b in rows:
        lines.append(
            f"| {b.layout} | {b.led_count} | {b.uncapped_ma} | {b.capped_ma} | {b.game_ma} "
            f"| {b.selftest_ma} | {b.limiter_ma} | {b.idle_ma} | {b.displays_ma} | {b.pico_ma} "
            f"| {b.total_ma} | {b.supply_a:g} A | {b.fuse_a:g} A "
            f"| {', '.join(str(i) for i in b.injection_leds)} |"
        )
    return "\n".join(lines) + "\n"
