"""Scripts of real play for the synthetic table videos, with their truth.

A :class:`Scenario` is a shipped table layout, a script of table actions
(:class:`vision.tablevideo.Action`) and the truth of the deal the script plays:
who dealt, every card in the order played, what the engine scored and flagged,
and the observations a camera should report. The deals come from the rules
engines (which ``vision`` may not use), so every script is a legal deal, or an
irregular one the engine flags as such.

``python -m controller.scenarios render config/videos`` renders the bundled
videos (``cribbage-deal.mp4``, ``skat-revoke.mp4``) and their truth
(``<name>.json``), the same bytes every time.

>>> s = cribbage_deal()
>>> s.layout, s.truth["dealer"], len(s.truth["plays"])
('cribbage-2.toml', 0, 8)
>>> sorted({a.kind for a in s.actions})
['move', 'place', 'remove']
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.cribbage.autoplay import play_game
from rules.cribbage.events import Deal, Discard, SetDealer, Show, Starter
from rules.cribbage.events import Play as CribbagePlay
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules
from rules.skat.autoplay import random_deal
from rules.skat.declaration import contract_for
from rules.skat.events import Bid, Declare
from rules.skat.events import Play as SkatPlay
from rules.skat.game import SkatGame
from vision.layout import LAYOUT_DIR, TableLayout, load_layout
from vision.tablevideo import Action, VideoInfo, pace, render_video

__all__ = ["VIDEOS", "Scenario", "cribbage_deal", "judge", "main", "render_all", "skat_deal"]

#: The recommended mounting (hardware/camera-mounting.md: the Camera Module 3 in its full
#: mode, at the lowest height that sees the table): 2.74 px/mm over a card table (86 cm),
#: 2.36 over a club table (100 cm).
PX_PER_MM = {"cribbage-2.toml": 2.74, "skat-3.toml": 2.36}
FPS = 4.0
#: Table around the club table's markers: less for the Skat video keeps its file under
#: 8 MiB (mp4v writes a key frame every 12 frames whatever it is told).
MARGIN_MM = {"cribbage-2.toml": 40.0, "skat-3.toml": 15.0}
STILL_S = 1.3  # still table after each hand has gone: enough for the tracker to settle
GATHER_PAUSE_S = 2.4  # the trick lies complete before it is gathered


@dataclass(frozen=True, slots=True)
class Scenario:
    """A layout (a file in ``config/tables``), a script and its truth (JSON-able)."""

    layout: str
    actions: tuple[Action, ...]
    truth: dict[str, Any] = field(hash=False)

    def load_layout(self) -> TableLayout:
        return load_layout(LAYOUT_DIR / self.layout)

    def to_json(self) -> dict[str, Any]:
        return {
            "layout": self.layout,
            "truth": self.truth,
            "actions": [
                {
                    "t": a.t,
                    "kind": a.kind,
                    "card": a.card,
                    "position_mm": [round(a.x_mm, 1), round(a.y_mm, 1)],
                    "angle_deg": round(a.angle_deg, 1),
                    "seat": a.seat,
                    "face_up": a.face_up,
                }
                for a in self.actions
            ],
        }


def _jitter(
    rng: random.Random, mm: float = 3.0, deg: float = 4.0, askew: float = 1.0
) -> tuple[float, float, float]:
    """A card's offset from its slot (mm, mm) and its turn (degrees); ``askew`` scales
    all three (the same draws, so a deal at 1 is the deal it always was)."""
    return (
        askew * rng.uniform(-mm, mm),
        askew * rng.uniform(-mm, mm),
        askew * rng.uniform(-deg, deg),
    )


def _check_askew(askew: float) -> None:
    if askew < 0 or not math.isfinite(askew):
        raise ValueError(f"askew {askew!r}: expected a finite scale >= 0")


# -- cribbage ----------------------------------------------------------------------------

PACK = "pack"  # the face-down pack's name in a script (no card's code)


def _face_down(
    events: Sequence[Any],
    dealer: int,
    pack_at: tuple[float, float],
    crib_at: tuple[float, float],
    off: tuple[float, float],
    seed: int,
    askew: float,
) -> tuple[list[list[Action]], list[Action]]:
    """What a cribbage table shows face down (``backs``): the pack the dealer lays at
    the starter's spot, then each player's discards laid face down on the crib's
    spot (seed 000 THE DEAL; three-hand, the dealer's card from the pack too); the
    steps, and the crib's cards as the dealer picks them up again to show them
    (carried towards ``off``, past the table's edge at his side)."""
    rng = random.Random(seed * 1000 + 3)  # draws of their own: the rest of the deal stays
    steps = [[Action(0, "place", PACK, *pack_at, askew * rng.uniform(-3, 3), dealer, False)]]
    crib: list[str] = []
    for e in events:
        cards: list[tuple[str, int]] = []
        if isinstance(e, Deal) and e.crib_card is not None:
            cards = [(str(e.crib_card), dealer)]
        elif isinstance(e, Discard):
            cards = [(str(c), e.seat) for c in e.crib_cards]
        if not cards:
            continue
        step = []
        for card, seat in cards:
            dx, dy, da = _jitter(rng, 6.0, 10.0, askew)
            step.append(Action(0, "place", card, crib_at[0] + dx, crib_at[1] + dy, da, seat, False))
        steps.append(step)
        crib += [card for card, _ in cards]
    up = [Action(0, "remove", c, *off, 0.0, dealer, False) for c in crib]
    return steps, up


def _deal_to_the_crib(game: CribbageGame, seed: int, dealer: int) -> tuple[CribbageGame, list[Any]]:
    """``game`` dealt by ``dealer`` and played by the engine's own players (seeded) to
    the crib's show, and its events."""
    rng = random.Random(seed)
    game.apply(SetDealer(dealer))
    events = []
    for event, _ in play_game(game, rng):
        events.append(event)
        if isinstance(event, Show) and event.crib:
            break
    return game, events


def _cribbage_truth(
    game: CribbageGame,
    seed: int,
    dealer: int,
    plays: list[dict[str, Any]],
    shows: list[Show],
    expected: list[dict[str, Any]],
) -> dict[str, Any]:
    """A cribbage deal's truth (JSON-able): who dealt, the play, the shows, the
    engine's scores and verdicts, and the observations a camera should report."""
    return {
        "game": "cribbage",
        "players": game.rules.players,
        "seed": seed,
        "dealer": dealer,
        "starter": str(next(e.card for e in game.events if isinstance(e, Starter))),
        "plays": plays,
        "shows": [
            {"seat": s.seat, "crib": s.crib, "cards": [str(c) for c in s.shown]} for s in shows
        ],
        "scores": list(game.scores),
        "verdicts": [v.to_json() for v in game.verdicts],
        "expected": expected,
    }


def cribbage_deal(
    seed: int = 7,
    dealer: int = 0,
    *,
    overlap: float = 0.0,
    players: int = 2,
    askew: float = 1.0,
    backs: bool = False,
) -> Scenario:
    """One whole two-player six-card deal at ``cribbage-2.toml`` (with ``players`` 3
    or 4, a five-card deal at ``cribbage-3.toml`` or ``cribbage-4.toml``:
    :func:`_round_the_table`).

    The dealer turns the starter into the ``starter`` zone; every card of the play
    is laid in its player's ``play.N`` row, left to right, in the engine's order
    (goes cannot be seen); at the show the non-dealer's four cards are moved one by
    one to the ``show.N`` row, then the dealer's, and the dealer lays the crib face
    up in the ``crib`` zone; at the end every card leaves the table.

    With ``overlap`` (mm) the rows are laid as players lay them: each card over the
    one before, that far to its right (give or take 3 mm at ``askew`` 1), so that
    only a strip of each card shows: 23 leaves one corner index whole, 14 cuts into
    it (at ``askew`` 3 and 12 mm a card may land left of the one before).

    ``askew`` scales how far each card lies from its slot and how far it is turned
    (3 mm and 4 degrees at most at 1; the crib's 2 mm and 3 degrees): 3 lays the
    cards as a hurried player does, up to 12 degrees askew.

    With ``backs`` the table shows what a real one does face down: the dealer lays
    the pack at the starter's spot and turns the starter onto it, each player lays
    his discards face down in the crib zone, the dealer picks them up to lay the
    crib out face up, and takes the pack with the crib at the end. None of it is an
    observation (a card back is no card)."""
    _check_askew(askew)
    if players != 2:
        return _round_the_table(seed, dealer, overlap, players, askew, backs)
    name = "cribbage-2.toml"
    game, events = _deal_to_the_crib(CribbageGame(), seed, dealer)
    other = 1 - dealer
    row_y = {0: 260.0, 1: 640.0}
    show_y = {0: 135.0, 1: 765.0}
    upright = {0: 0.0, 1: 180.0}  # each player lays his cards the right way up for him
    slots = (
        tuple(330.0 + k * overlap for k in range(4)) if overlap else (260.0, 360.0, 460.0, 560.0)
    )
    jit = random.Random(seed * 1000 + 1)
    steps: list[list[Action]] = []
    where: dict[str, tuple[int, int]] = {}  # card -> (seat, slot)
    plays: list[dict[str, Any]] = []
    starter = next(e.card for e in events if isinstance(e, Starter))
    off = {0: -150.0, 1: 1050.0}
    if backs:  # the pack at the starter's spot, the discards face down in the crib zone
        down, crib_up = _face_down(
            events, dealer, (450.0, 450.0), (615.0, 450.0), (450.0, off[dealer]), seed, askew
        )
        steps += down
    steps.append(
        [Action(0, "place", str(starter), 450.0, 450.0, askew * jit.uniform(-5, 5), dealer)]
    )
    expected: list[dict[str, Any]] = [{"kind": "placed", "card": str(starter), "zone": "starter"}]
    laid = {0: 0, 1: 0}
    for e in events:
        if isinstance(e, CribbagePlay):
            card, seat = str(e.card), e.seat
            dx, dy, da = _jitter(jit, askew=askew)
            x, y = slots[laid[seat]] + dx, row_y[seat] + dy
            where[card] = (seat, laid[seat])
            laid[seat] += 1
            steps.append([Action(0, "place", card, x, y, upright[seat] + da, seat)])
            plays.append({"seat": seat, "card": card})
            expected.append({"kind": "placed", "card": card, "zone": f"play.{seat}"})
    shows = [e for e in events if isinstance(e, Show)]
    for show in shows:
        if show.crib:
            continue
        seat = show.seat
        for card in (str(c) for c in show.shown):
            _, slot = where[card]
            dx, dy, da = _jitter(jit, askew=askew)
            x, y = slots[slot] + dx, show_y[seat] + dy
            steps.append([Action(0, "move", card, x, y, upright[seat] + da, seat)])
            expected.append(
                {"kind": "moved", "card": card, "zone": f"show.{seat}", "from_zone": f"play.{seat}"}
            )
    crib = next(e for e in shows if e.crib)
    if backs:  # the dealer picks the face-down crib up to lay it out face up
        steps.append(crib_up)
    # two rows of two in the crib zone, the north row first: every top index stays open
    spots = ((575.0, 486.0), (655.0, 486.0), (575.0, 412.0), (655.0, 412.0))
    for card, (x, y) in zip((str(c) for c in crib.shown), spots, strict=True):
        dx, dy, da = _jitter(jit, 2.0, 3.0, askew)
        steps.append([Action(0, "place", card, x + dx, y + dy, da, dealer)])
        expected.append({"kind": "placed", "card": card, "zone": "crib"})
    # clearing the table: each player takes his hand, the dealer the crib and the starter
    # (and the pack under it)
    for seat in (other, dealer):
        cards = [str(c) for s in shows if s.seat == seat and not s.crib for c in s.shown]
        steps.append([Action(0, "remove", c, 450.0, off[seat], 0.0, seat) for c in cards])
    crib_cards = [str(c) for c in crib.shown] + [str(starter)]
    steps.append([Action(0, "remove", c, 450.0, off[dealer], 0.0, dealer) for c in crib_cards])
    if backs:
        steps[-1].append(Action(0, "remove", PACK, 450.0, off[dealer], 0.0, dealer, False))
    for step in steps[-3:]:
        expected += [{"kind": "removed", "card": a.card} for a in step if a.face_up]
    truth = _cribbage_truth(game, seed, dealer, plays, shows, expected)
    return Scenario(name, tuple(pace(steps, start_s=1.5, still_s=STILL_S)), truth)


# Each seat of a table for three or four (seat 0 south, round clockwise): the way its
# player faces (x, y), the angle a card lies at the right way up for him (Action's,
# counter-clockwise from upright for seat 0), and his right hand's way along his rows.
_SEATS = {
    0: ((0.0, 1.0), 0.0, (1.0, 0.0)),  # south, facing north
    1: ((1.0, 0.0), -90.0, (0.0, -1.0)),  # west, facing east
    2: ((0.0, -1.0), 180.0, (-1.0, 0.0)),  # north, facing south
    3: ((-1.0, 0.0), 90.0, (0.0, 1.0)),  # east, facing west
}


def _round_the_table(
    seed: int, dealer: int, overlap: float, players: int, askew: float = 1.0, backs: bool = False
) -> Scenario:
    """One whole five-card deal for three or four players (four play as two
    partnerships) at ``cribbage-3.toml`` or ``cribbage-4.toml``: the table's side
    seats lay their rows along the table's sides, each card the right way up for its
    player, left to right as he sees it; otherwise as the two-player deal
    (:func:`cribbage_deal`): the starter, the play, the shows, the crib laid face up
    by the dealer (two rows of two where the zone is two cards wide, else a column,
    each card 45 mm south of the last: the north one first, every top index open),
    the table cleared by each player to his side."""
    if players not in (3, 4):
        raise ValueError(f"players {players}: a cribbage table is for 2, 3 or 4")
    name = f"cribbage-{players}.toml"
    layout = load_layout(LAYOUT_DIR / name)
    # each zone's bounds (x0, y0, x1, y1)
    zones = {
        z.name: (
            min(p[0] for p in z.polygon),
            min(p[1] for p in z.polygon),
            max(p[0] for p in z.polygon),
            max(p[1] for p in z.polygon),
        )
        for z in layout.zones
    }
    rules = CribbageRules(variant="five-card", players=players)
    game, events = _deal_to_the_crib(CribbageGame(rules), seed, dealer)
    jit = random.Random(seed * 1000 + 1)

    def along(zone: str, seat: int, k: int) -> tuple[float, float]:
        """The k-th slot of a seat's row in ``zone``: from the end at its left hand,
        ``overlap`` apart (or 75 mm: apart), the row's middle across."""
        x0, y0, x1, y1 = zones[zone]
        right = _SEATS[seat][2]
        step = overlap or 75.0
        if right[0]:
            start = x0 + 50.0 if right[0] > 0 else x1 - 50.0
            return start + right[0] * step * k, (y0 + y1) / 2
        start = y0 + 50.0 if right[1] > 0 else y1 - 50.0
        return (x0 + x1) / 2, start + right[1] * step * k

    steps: list[list[Action]] = []
    slot_of: dict[str, int] = {}
    plays: list[dict[str, Any]] = []
    starter = next(e.card for e in events if isinstance(e, Starter))
    sx, sy = layout.zone("starter").centre

    def off_at(seat: int) -> tuple[float, float]:  # past the table's edge at his side
        (fx, fy), _, _ = _SEATS[seat]
        return (500.0 - fx * 650.0, 500.0 - fy * 650.0)

    if backs:  # the pack at the starter's spot, the discards face down in the crib zone
        down, crib_up = _face_down(
            events, dealer, (sx, sy), layout.zone("crib").centre, off_at(dealer), seed, askew
        )
        steps += down
    steps.append([Action(0, "place", str(starter), sx, sy, askew * jit.uniform(-5, 5), dealer)])
    expected: list[dict[str, Any]] = [{"kind": "placed", "card": str(starter), "zone": "starter"}]
    laid = dict.fromkeys(range(players), 0)
    for e in events:
        if isinstance(e, CribbagePlay):
            card, seat = str(e.card), e.seat
            dx, dy, da = _jitter(jit, askew=askew)
            x, y = along(f"play.{seat}", seat, laid[seat])
            slot_of[card] = laid[seat]
            laid[seat] += 1
            steps.append([Action(0, "place", card, x + dx, y + dy, _SEATS[seat][1] + da, seat)])
            plays.append({"seat": seat, "card": card})
            expected.append({"kind": "placed", "card": card, "zone": f"play.{seat}"})
    shows = [e for e in events if isinstance(e, Show)]
    for show in shows:
        if show.crib:
            continue
        seat = show.seat
        for card in (str(c) for c in show.shown):
            dx, dy, da = _jitter(jit, askew=askew)
            x, y = along(f"show.{seat}", seat, slot_of[card])
            # (the show row's slot across from the play row's, where the play row is)
            px, py = along(f"play.{seat}", seat, slot_of[card])
            x, y = (px, y) if _SEATS[seat][2][0] else (x, py)
            steps.append([Action(0, "move", card, x + dx, y + dy, _SEATS[seat][1] + da, seat)])
            expected.append(
                {"kind": "moved", "card": card, "zone": f"show.{seat}", "from_zone": f"play.{seat}"}
            )
    crib = next(e for e in shows if e.crib)
    if backs:  # the dealer picks the face-down crib up to lay it out face up
        steps.append(crib_up)
    x0, _, x1, y1 = zones["crib"]
    if x1 - x0 >= 140.0:  # two rows of two, as at the two-player table
        spots = [(x0 + 35.0 + 80.0 * (k % 2), y1 - 44.0 - 74.0 * (k // 2)) for k in range(4)]
    else:  # a column (the north card's top at the zone's edge)
        spots = [((x0 + x1) / 2, y1 - 44.0 - 45.0 * k) for k in range(4)]
    for card, (x, y) in zip((str(c) for c in crib.shown), spots, strict=True):
        dx, dy, da = _jitter(jit, 2.0, 3.0, askew)
        steps.append([Action(0, "place", card, x + dx, y + dy, da, dealer)])
        expected.append({"kind": "placed", "card": card, "zone": "crib"})
    order = [(dealer + k) % players for k in range(1, players + 1)]  # the dealer last
    for seat in order:
        cards = [str(c) for s in shows if s.seat == seat and not s.crib for c in s.shown]
        if seat == dealer:
            cards += [str(c) for c in crib.shown] + [str(starter)]
        steps.append([Action(0, "remove", c, *off_at(seat), 0.0, seat) for c in cards])
        if seat == dealer and backs:  # and the pack under the starter
            steps[-1].append(Action(0, "remove", PACK, *off_at(seat), 0.0, seat, False))
    for step in steps[-players:]:
        expected += [{"kind": "removed", "card": a.card} for a in step if a.face_up]
    truth = _cribbage_truth(game, seed, dealer, plays, shows, expected)
    return Scenario(name, tuple(pace(steps, start_s=1.5, still_s=STILL_S)), truth)


# -- skat --------------------------------------------------------------------------------


def _revoking_deal(seed: int, revoke: bool) -> tuple[Any, int | None]:
    """The deal of ``seed``; with ``revoke`` the first chance to revoke whose revoke
    falls in a middle trick (4 to 7) is taken."""
    if not revoke:
        return random_deal(random.Random(seed), reveal=False), None
    for k in range(60):
        deal = random_deal(random.Random(seed), reveal=False, revoke_at=k)
        if deal.revoke is not None and 4 <= deal.revoke[1] <= 7:
            return deal, k
    raise ValueError(f"seed {seed} gives no revoke in a middle trick")


def skat_deal(seed: int = 11, revoke: bool = True, *, askew: float = 1.0) -> Scenario:
    """A deal of Skat at ``skat-3.toml`` (seat 2 deals, seat 0 is Vorhand), every card
    laid in its seat's ``trick.N`` zone in play order; after the third card a short
    pause and the winner gathers the trick face down to his ``tricks.N`` pile.
    With ``revoke`` one player revokes in a middle trick (the engine flags it).
    ``askew`` scales each card's offset from its spot and its turn (4 mm and 6
    degrees at most at 1)."""
    _check_askew(askew)
    name = "skat-3.toml"
    deal, k = _revoking_deal(seed, revoke)
    game = SkatGame()
    for e in deal.events:
        game.apply(e)
    decl = deal.declaration
    assert decl is not None
    declare = next(e for e in deal.events if isinstance(e, Declare))
    bids = [e.value for e in deal.events if isinstance(e, Bid)]
    plays = [e for e in deal.events if isinstance(e, SkatPlay)]
    contract = contract_for(decl.game)
    spot = {0: (500.0, 340.0, 0.0), 1: (340.0, 500.0, -90.0), 2: (660.0, 500.0, 90.0)}
    pile = {0: (750.0, 150.0), 1: (150.0, 250.0), 2: (850.0, 750.0)}
    jit = random.Random(seed * 1000 + 2)
    steps: list[list[Action]] = []
    expected: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    leader = 0
    for n in range(0, len(plays), 3):
        trick = plays[n : n + 3]
        for p in trick:
            x, y, a = spot[p.seat]
            dx, dy, da = _jitter(jit, 4.0, 6.0, askew)
            steps.append([Action(0, "place", str(p.card), x + dx, y + dy, a + da, p.seat)])
            expected.append({"kind": "placed", "card": str(p.card), "zone": f"trick.{p.seat}"})
        winner = trick[contract.winner([p.card for p in trick])].seat
        assert trick[0].seat == leader
        leader = winner
        tricks.append({"leader": trick[0].seat, "winner": winner})
        px, py = pile[winner]
        steps.append([Action(0, "remove", str(p.card), px, py, 0.0, winner) for p in trick])
        expected += [{"kind": "removed", "card": str(p.card)} for p in trick]
    actions = _paced_tricks(steps)
    verdicts = [v.to_json() for v in game.verdicts]
    truth: dict[str, Any] = {
        "game": "skat",
        "players": 3,
        "seed": seed,
        "revoke_at": k,
        "dealer": 2,
        "declarer": declare.seat,
        "contract": {"game": decl.game, "hand": decl.hand, "ouvert": decl.ouvert},
        "bid": max(bids) if bids else None,
        "plays": [{"seat": p.seat, "card": str(p.card)} for p in plays],
        "tricks": tricks,
        "revoke": (
            None
            if deal.revoke is None
            else {"kind": "revoke", "seat": deal.revoke[0], "trick": deal.revoke[1]}
        ),
        "verdicts": verdicts,
        "result": game.results[-1].to_json() if game.results else None,
        "expected": expected,
    }
    return Scenario(name, tuple(actions), truth)


def _paced_tricks(steps: Sequence[list[Action]]) -> list[Action]:
    """Like :func:`~vision.tablevideo.pace`, with a longer pause before each gathering."""
    out: list[Action] = []
    start = 1.5
    for step in steps:
        gather = step[0].kind == "remove"
        paced = pace([step], start_s=start + (GATHER_PAUSE_S - STILL_S if gather else 0.0))
        out += paced
        start = paced[0].t + 0.6 + STILL_S
    return out


# -- judging -----------------------------------------------------------------------------


def judge(
    expected: Sequence[dict[str, Any]],
    observed: Sequence[dict[str, Any]],
    cleared: Sequence[float],
    *,
    late_s: float = 0.5,
) -> dict[str, Any]:
    """A watch of a rendered video against its truth.

    ``expected``: the truth's events in the script's order; ``observed``: the
    watch's observations (JSON); ``cleared``: for each expected event, when its card
    lay still in plain sight (``render_video(..., cleared=...)``). Each expected
    event is matched to the first unused observation of the same kind, card and
    zone; what is left over on either side is ``missed`` or ``false``. ``latency_s``:
    observation time less cleared time, over the matched events; ``late``: those
    over ``late_s`` (or whose card never lay clear); ``early``: those settled while a
    hand or its shadow still touched the card."""
    if len(cleared) != len(expected):
        raise ValueError(f"{len(cleared)} cleared times for {len(expected)} expected events")
    used: set[int] = set()
    early: list[dict[str, Any]] = []
    missed: list[dict[str, Any]] = []
    lags: list[float] = []
    by_kind: dict[str, list[float]] = {}
    late: list[dict[str, Any]] = []
    for i, e in enumerate(expected):
        for j, o in enumerate(observed):
            if j in used or o["kind"] != e["kind"] or o["card"] != e["card"]:
                continue
            if e["kind"] != "removed" and o.get("zone") != e.get("zone"):
                continue
            used.add(j)
            lag = float(o["t"]) - float(cleared[i])
            if math.isnan(lag):  # the card never lay in plain sight before the end
                late.append({**e, "lag_s": None})
                break
            lags.append(lag)
            by_kind.setdefault(e["kind"], []).append(lag)
            if lag > late_s:
                late.append({**e, "lag_s": round(lag, 2)})
            elif lag < 0:  # settled while a hand or its shadow still touched the card
                early.append({**e, "lag_s": round(lag, 2)})
            break
        else:
            missed.append(dict(e))
    false = [dict(o) for j, o in enumerate(observed) if j not in used]

    def spread(xs: list[float]) -> dict[str, float | None]:
        xs = sorted(xs)

        def q(p: float) -> float | None:
            return round(xs[min(len(xs) - 1, int(p * len(xs)))], 2) if xs else None

        return {
            "min": round(xs[0], 2) if xs else None,
            "p50": q(0.5),
            "p90": q(0.9),
            "max": round(xs[-1], 2) if xs else None,
        }

    return {
        "expected": len(expected),
        "matched": len(lags),
        "missed": missed,
        "false": false,
        "latency_s": {kind: spread(v) for kind, v in sorted(by_kind.items())},
        "late": late,
        "early": early,
    }


# -- rendering ---------------------------------------------------------------------------

#: The bundled videos: file name -> scenario maker.
VIDEOS = {"cribbage-deal.mp4": cribbage_deal, "skat-revoke.mp4": skat_deal}


def render_scenario(scenario: Scenario, path: Path, *, seed: int = 0) -> VideoInfo:
    """Write the video and, beside it, ``<name>.json``: the scenario and the video's facts."""
    info = render_video(
        scenario.load_layout(),
        scenario.actions,
        path,
        px_per_mm=PX_PER_MM[scenario.layout],
        fps=FPS,
        seed=seed,
        margin_mm=MARGIN_MM[scenario.layout],
    )
    data = scenario.to_json()
    data["video"] = {
        "file": path.name,
        "frames": info.frames,
        "fps": info.fps,
        "size": list(info.size),
        "px_per_mm": info.px_per_mm,
    }
    path.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return info


def render_all(folder: Path) -> list[VideoInfo]:
    folder.mkdir(parents=True, exist_ok=True)
    return [render_scenario(make(), folder / name) for name, make in VIDEOS.items()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m controller.scenarios")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render", help="render the bundled videos and their truth")
    r.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    for info in render_all(args.folder):
        size = info.path.stat().st_size
        print(f"{info.path}: {info.frames} frames, {info.size[0]}x{info.size[1]}, {size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
