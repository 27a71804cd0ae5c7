"""From per-frame card sightings to table observations: placed, moved, removed.

A camera sees a card in many frames, sometimes not at all (a hand over it, a
reflection), sometimes where it is not (a card in a hand passing over the
table). The tracker turns this into the few events the referee needs:

* ``placed``: a card has lain still in a zone, seen in the same spot with nothing
  moving over it, for ``stable_s`` (200 ms, and three frames, or two that far apart);
* ``moved``: a placed card has lain still in another zone (one event, not a
  removal and a placing);
* ``removed``: a placed card has been absent for ``absent_s`` (200 ms, and three
  frames, or two that far apart) while its spot was visible (frames where
  something moves over the spot, or an arm rests over it, do not count as absence,
  nor do frames in which a card laid after it lies over its spot: a show row or a
  play row, each card half covering the one before).

A card read from one corner only, where a placed card lies that is not read in
that frame, is taken for that card misread (its other corner covered by the card
laid over it): it places nothing, and the placed card is not missing.

A card seen for less than ``stable_s`` never produces an event, so a hand
passing over the table, with cards in it or covering cards, produces none; nor
does a card that drifts by more than ``still`` (a card in a slowly moving hand).
Times are frame times in seconds; the tracker has no clock of its own.

>>> t = Tracker(stable_s=0.3, absent_s=1.0)
>>> seen = [Sighting("QH", 0.98, 400.0, 250.0, "play.0")]
>>> [o.kind for f in range(10) for o in t.update(f / 30, seen)]
['placed']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Observation", "Sighting", "Tracker"]


@dataclass(frozen=True, slots=True)
class Sighting:
    """One card seen in one frame, at a table position, in a zone (or ``None``);
    ``angle``: the direction of its long side (radians, in the positions' frame), if
    known; ``corners``: how many of its corner indices were read (``None``: not
    known)."""

    card: str
    confidence: float
    x_mm: float
    y_mm: float
    zone: str | None
    angle: float | None = None
    corners: int | None = None


@dataclass(frozen=True, slots=True)
class Observation:
    """A table event with its evidence."""

    kind: str  # placed, moved, removed
    card: str
    zone: str | None
    from_zone: str | None
    t: float
    since: float
    frames: int
    confidence: float
    x_mm: float
    y_mm: float

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "card": self.card,
            "zone": self.zone,
            "from_zone": self.from_zone,
            "t": round(self.t, 3),
            "since": round(self.since, 3),
            "frames": self.frames,
            "confidence": round(self.confidence, 3),
            "position_mm": [round(self.x_mm, 1), round(self.y_mm, 1)],
        }


@dataclass
class _Track:
    placed_zone: str | None = None
    placed: bool = False
    x: float = 0.0
    y: float = 0.0
    # the zone the card is being seen in now, and the evidence for it
    zone: str | None = None
    since: float = 0.0
    last_seen: float = float("-inf")
    frames: int = 0
    first: float = 0.0  # the first of those frames
    confidence_sum: float = 0.0
    absent_since: float | None = None
    misses: int = 0
    looks: int = 0
    # where the stable run began (a card that drifts from it is not lying still)
    x0: float = 0.0
    y0: float = 0.0
    order: int = 0  # when it was placed (or moved), counted: later cards lie on top
    # where it lies, once placed (``x``, ``y``: where it is seen now, which differs
    # while it is being moved, or while another card is misread as it)
    px: float = 0.0
    py: float = 0.0
    angle: float | None = None  # its long side's direction where it lies
    held: bool = False  # not read in the last frame, but covered or read doubtfully there
    # where it has been seen lying, moving over it or not, and since when (a card
    # read under a resting hand lies there, though it is not lying still yet)
    hx: float = 0.0
    hy: float = 0.0
    here_since: float = 0.0
    # placed, and last read away from where it lies in a moving hand: being carried
    carried: bool = False


# Times that differ by less than this are one time: frame times read from a video's
# frame numbers are a hair off (0.6000000000000001 - 0.4 is under 0.2), and a card
# waited a frame more to be placed or removed
TIME_SLACK = 1e-6

# A card seen lying in one spot for ``stable_s`` or more that then cannot be read there
# is not a passing glimpse (Tracker.lost_due): its spot is offered for a fresh look
# every LOST_EVERY_S for LOST_S. A video's compression left a photographed QH, seen
# under the hand that laid it, too soft to read for the 3.5 s after the hand had gone,
# and the gate saw nothing change when it sharpened again: placed 22 s late
LOST_S = 30.0
LOST_EVERY_S = 1.0
# A placed card missing where it lies but last seen lying elsewhere (laid in another
# zone, under the hand that moved it) is not removed for this long after it was last
# seen there, while that spot is read every frame: the compressed video's QH, carried
# to the show row, was removed from the play row and then placed in the show row
# (two events where there was one move) when it could be read there 0.5 s later.
# Nor is one last read in the moving hand carrying it away (a move under a lamp's
# glare, or across a hard shadow's edge, the card unread in the hand for 1.5 s until
# it lay in the show row: removed 0.2 s after its old spot was clear, then placed)
LOST_HOLD_S = 2.0

# A placed card missing from a zone whose cards are carried on to another in play,
# while ``Tracker.update``'s ``onward`` says a hand is over that other zone, is not
# removed for up to this long after it went missing: it may be in the hand laying it
# there, unread (vision.watch CARRY_GRACE_S)
CARRY_S = 3.0

# A card read from one corner where a placed card lies that is read from its other
# corner in the same frame is that card's covered index misread when both put the
# card's middle within this many times ``same_spot`` of it (Tracker._other_corner)
OTHER_CORNER_SPOT = 1.5
# ... and turned alike within this (a half-covered index's turn is a poor guess: 27
# degrees off there)
OTHER_CORNER_TURN = math.radians(45)


def _lasted(span: float, need: float) -> bool:
    """Whether ``span`` seconds are at least ``need`` (``TIME_SLACK``)."""
    return span >= need - TIME_SLACK


def _within(span: float, limit: float) -> bool:
    """Whether ``span`` seconds are at most ``limit`` (``TIME_SLACK``)."""
    return span <= limit + TIME_SLACK


Busy = Callable[[float, float], bool]
Looked = Callable[[float, float], bool]


class Tracker:
    """Debounces sightings into observations. One tracker per table."""

    def __init__(
        self,
        *,
        stable_s: float = 0.2,
        absent_s: float = 0.2,
        gap_s: float = 0.25,
        min_confidence: float = 0.7,
        min_frames: int = 3,
        min_looks: int = 2,
        min_misses: int = 3,
        still: float = 15.0,
        card_width: float = 63.0,
        same_spot: float = 8.0,
    ) -> None:
        """``still``: how far a card may drift and still be lying still,
        ``card_width``: a card's short side, and ``same_spot``: how near a card read
        from one corner must lie to a placed card to be taken for that card misread,
        all in the sightings' units (mm on a calibrated table; the watcher gives
        pixel figures otherwise)."""
        if stable_s <= 0 or absent_s <= 0 or gap_s <= 0:
            raise ValueError("tracker times must be positive")
        if still <= 0 or card_width <= 0 or same_spot <= 0:
            raise ValueError("tracker distances must be positive")
        self._still = still
        self._card_width = card_width
        self._same_spot = same_spot
        # the sightings' units per unit of ``still`` and ``card_width`` (a watcher
        # whose positions are pixels until the table is calibrated sets it)
        self.unit = 1.0
        self._order = 0
        self.stable_s = stable_s
        self.absent_s = absent_s
        self.gap_s = gap_s
        self.min_confidence = min_confidence
        self.min_frames = min_frames
        self.min_looks = min_looks
        self.min_misses = min_misses
        self._tracks: dict[str, _Track] = {}
        self._last_t = float("-inf")
        # cards lost from sight where they lay: card -> [x, y, lost at, next offer]
        self._lost: dict[str, list[float]] = {}
        # where each zone's cards are carried on to in play, face up (a layout's
        # ``then``), where the layout says so of any zone; None: not known, every
        # zone's cards may be carried anywhere (_moving_off)
        self.onward_zones: dict[str, tuple[str, ...]] | None = None

    @property
    def still(self) -> float:
        """How far a card may drift and still lie still, in the sightings' units."""
        return self._still * self.unit

    @property
    def card_width(self) -> float:
        """A card's short side, in the sightings' units."""
        return self._card_width * self.unit

    @property
    def placed(self) -> dict[str, str | None]:
        """Every card now placed, with its zone."""
        return {card: tr.placed_zone for card, tr in self._tracks.items() if tr.placed}

    def where(self, card: str) -> tuple[float, float] | None:
        """Where a placed card lies (``None`` if it is not placed)."""
        tr = self._tracks.get(card)
        return (tr.px, tr.py) if tr is not None and tr.placed else None

    def lies_at(self, card: str, x: float, y: float) -> bool:
        """Is ``card`` placed, and does it lie at this spot (within half a card)?"""
        tr = self._tracks.get(card)
        return tr is not None and tr.placed and self._near(tr, x, y)

    def wanted(self, t: float) -> list[tuple[float, float]]:
        """Where a fresh look would settle something (positions as the sightings give
        them): a card seen lately but not yet placed where it lies (its placing or
        move needs looks), and a placed card missing from the last frame (its
        removal needs misses). The live loop reads these spots again each frame,
        even where the picture did not change, so that a card is placed or removed
        as soon as the times allow, not when the whole table is next read."""
        out = []
        for tr in self._tracks.values():
            # missing, and not known to lie under another card or where nothing changed
            missing = tr.placed and tr.last_seen < self._last_t and not tr.held
            pending = not (tr.placed and tr.placed_zone == tr.zone) and _within(
                t - tr.last_seen, self.gap_s
            )
            if missing:
                out.append((tr.px, tr.py))
                if self._moving_off(tr, t):  # and where it went, as for a pending one
                    out.append((tr.x, tr.y))
            elif pending:
                out.append((tr.x, tr.y))
        return out

    def _moving_off(self, tr: _Track, t: float) -> bool:
        """Whether a placed card was last seen away from where it lies, lying there
        (for ``stable_s`` or more: put down elsewhere, under the hand that moved it)
        or in the moving hand carrying it, no more than ``LOST_HOLD_S`` before ``t``:
        it is not removed yet. A card carried off a zone whose cards the layout
        carries on nowhere (``onward_zones``: a cribbage show row, gathered off the
        table) is not held for being seen in the hand: seed 128's show rows were
        removed 1.5 s late, their first card read once in the hand gathering them."""
        somewhere = (
            self.onward_zones is None
            or tr.placed_zone is None
            or bool(self.onward_zones.get(tr.placed_zone))
        )
        return (
            tr.placed
            and not self._near(tr, tr.x, tr.y)
            and ((tr.carried and somewhere) or _lasted(tr.last_seen - tr.here_since, self.stable_s))
            and _within(t - tr.last_seen, LOST_HOLD_S)
        )

    def lost_due(self, t: float, busy: Busy | None = None) -> list[tuple[float, float]]:
        """Spots of cards lost from sight where they lay, due a fresh look now: a card
        seen lying in one spot for ``stable_s`` or more (under a hand resting on it,
        say) that is then read nowhere, and so not placed there, or not moved there
        (its old place removed), is not a passing glimpse. It may lie there unread (a
        video's compression leaves a spot the hand uncovered soft for seconds, and
        the motion gate sees nothing change as it sharpens). Each spot is offered
        every ``LOST_EVERY_S`` for ``LOST_S`` after it was lost, and no more once the
        card is read anywhere. The watcher reads them on frames with nothing else to
        read, as it reads the gate's slow sweep. A spot ``busy`` says a hand is over
        (moving or resting) is not offered, and stays due: it is offered on the first
        frame it is clear, not an offer later."""
        out = []
        for card, lost in list(self._lost.items()):
            x, y, since, due = lost
            if not _within(t - since, LOST_S):
                del self._lost[card]
            elif _lasted(t, due) and (busy is None or not busy(x, y)):
                lost[3] = t + LOST_EVERY_S
                out.append((x, y))
        return out

    def _lose(self, card: str, tr: _Track) -> None:
        """Remember where ``card`` was last seen lying, if it lay there long enough to
        be no passing glimpse (:meth:`lost_due`)."""
        if _lasted(tr.last_seen - tr.here_since, self.stable_s):
            self._lost[card] = [tr.x, tr.y, tr.last_seen, tr.last_seen + LOST_EVERY_S]

    def update(
        self,
        t: float,
        sightings: Sequence[Sighting],
        busy: Busy | None = None,
        *,
        looked: bool | Looked = True,
        covering: Busy | None = None,
        onward: Callable[[str], bool] | None = None,
    ) -> list[Observation]:
        """Feed one frame's sightings (taken at time ``t``); return the observations it settles.

        ``busy(x, y)`` says whether something is moving over or next to a spot now
        (a hand, its shadow): a card seen there is not lying still yet, so those
        sightings do not count towards placing it (its stable time starts when that
        stops); and a placed card missing there may be covered, not gone, so the
        frame is no evidence of its absence. ``covering(x, y)``, where given, says
        the second thing in its place: whether anything changes over a spot, a
        change of light too (a card read under a broad shadow moving off it lies
        still, but a card missing under a smoothly shaded sleeve that moves may be
        under it; ``MotionGate.moving_near(light=…)``), or whether an arm lies over it,
        still or not (``MotionGate.arm_near``). ``looked=False`` marks a frame that was
        not read afresh (its sightings repeat the last reading because nothing
        changed): it confirms what was seen but is no evidence that anything is
        missing. ``looked(x, y)`` says it spot by spot,
        for a frame of which only some regions were read. A placed card is removed
        after it has been missing from ``min_misses`` frames that were read there,
        over ``absent_s`` (or from two in a row that far apart). ``onward(zone)``,
        where given, says whether a hand is over a zone the cards of ``zone`` are
        carried on to in play (a layout's ``then``): a card missing from ``zone`` is
        then not removed for up to ``CARRY_S`` after it went missing (it may be in
        that hand, unread, and be moved, not removed and placed).
        """
        looked_at: Looked = looked if callable(looked) else (lambda _x, _y: bool(looked))
        before, self._last_t = self._last_t, t  # the update before this one
        events: list[Observation] = []
        settled_any = False
        best: dict[str, Sighting] = {}
        doubtful: dict[str, Sighting] = {}
        for s in sightings:
            if s.confidence < self.min_confidence:
                # not enough to place a card, but a placed card read doubtfully where
                # it lies is not missing (and still covers what lies under it)
                tr0 = self._tracks.get(s.card)
                if tr0 is not None and tr0.placed and self._near(tr0, s.x_mm, s.y_mm):
                    doubtful[s.card] = s
                continue
            if s.card not in best or s.confidence > best[s.card].confidence:
                best[s.card] = s
        for card, s in list(best.items()):
            # a placed card still read where it lies stays there, however surely the
            # same card is read elsewhere (another card misread as it): one card
            # cannot lie in two places, and a move needs it gone from the first
            tr0 = self._tracks.get(card)
            if tr0 is not None and tr0.placed and not self._near(tr0, s.x_mm, s.y_mm):
                here = [
                    o
                    for o in sightings
                    if o.card == card
                    and o.confidence >= self.min_confidence
                    and self._near(tr0, o.x_mm, o.y_mm)
                ]
                if here:
                    best[card] = max(here, key=lambda o: o.confidence)
        self._misread_corners(best, doubtful)
        for card, s in best.items():
            tr = self._tracks.setdefault(card, _Track())
            tr.absent_since, tr.misses = None, 0
            self._lost.pop(card, None)
            if not _within(t - tr.last_seen, self.gap_s) or (
                math.hypot(s.x_mm - tr.hx, s.y_mm - tr.hy) > self.still
            ):
                tr.hx, tr.hy, tr.here_since = s.x_mm, s.y_mm, t
            moving = busy is not None and busy(s.x_mm, s.y_mm)
            tr.carried = moving and tr.placed and not self._near(tr, s.x_mm, s.y_mm)
            drifted = math.hypot(s.x_mm - tr.x0, s.y_mm - tr.y0) > self.still
            if moving:  # in a moving hand or under one: start the stable time again
                tr.zone, tr.since, tr.frames, tr.looks, tr.confidence_sum = s.zone, t, 0, 0, 0.0
                tr.x0, tr.y0 = s.x_mm, s.y_mm
            elif tr.zone == s.zone and _within(t - tr.last_seen, self.gap_s) and not drifted:
                if tr.frames == 0:
                    tr.first = t
                tr.frames += 1
                tr.looks += looked_at(s.x_mm, s.y_mm)
                tr.confidence_sum += s.confidence
            else:
                tr.zone, tr.since, tr.frames, tr.first = s.zone, t, 1, t
                tr.looks, tr.confidence_sum = int(looked_at(s.x_mm, s.y_mm)), s.confidence
                tr.x0, tr.y0 = s.x_mm, s.y_mm
            tr.last_seen = t
            tr.x, tr.y = s.x_mm, s.y_mm
            if tr.placed and self._near(tr, s.x_mm, s.y_mm):  # seen where it lies
                tr.px, tr.py = s.x_mm, s.y_mm
                tr.angle = s.angle if s.angle is not None else tr.angle
            # the stable time is time: ``min_frames`` frames over it, or two frames as
            # far apart as it is (a camera at 5 fps placed every card 0.6 s after it
            # lay still, waiting for a third frame: two reads 0.2 s apart are as long
            # a look as three at 10 fps)
            settled = (
                _lasted(t - tr.since, self.stable_s)
                and (
                    tr.frames >= self.min_frames
                    # two reads in a row, not two with frames that missed it between
                    or (
                        tr.frames == 2
                        and _lasted(t - tr.first, self.stable_s)
                        and tr.first == before
                    )
                )
                and tr.looks >= self.min_looks
            )
            same_zone = tr.placed and tr.placed_zone == tr.zone
            if settled and not (same_zone and self._near(tr, tr.x, tr.y)):
                # placed, moved, or put down again elsewhere in its zone (no event):
                # it lies here now
                if not same_zone:
                    kind = "moved" if tr.placed else "placed"
                    # (its own name: ``before``, the last update's time, is asked
                    # again for the cards after it)
                    was_in = tr.placed_zone if tr.placed else None
                    events.append(self._observe(kind, card, tr, t, was_in))
                    tr.placed, tr.placed_zone = True, tr.zone
                tr.px, tr.py, tr.angle = tr.x, tr.y, s.angle
                # cards settled in one frame share a turn: which lies on top is
                # unknown (the first frame's cards), so neither covers the other
                tr.order = self._order + 1
                settled_any = True
        self._order += settled_any
        seen = {**doubtful, **best}  # what lies on the table now, surely or not
        hidden = covering or busy  # where a missing card may be covered
        for card, tr in list(self._tracks.items()):
            tr.held = False
            if card in best:
                continue
            if card in doubtful:
                tr.absent_since, tr.misses, tr.held = None, 0, True
                continue
            if not tr.placed:
                if not _within(t - tr.last_seen, self.gap_s):
                    self._lose(card, tr)
                    del self._tracks[card]  # a passing glimpse: forget it
                continue
            if _within(t - tr.last_seen, self.gap_s) or not looked_at(tr.px, tr.py):
                continue  # a dropped frame or two, or no fresh look there
            if hidden is not None and hidden(tr.px, tr.py):
                tr.absent_since, tr.misses = None, 0
                continue
            if self._under(tr, seen):
                tr.absent_since, tr.misses, tr.held = None, 0, True
                continue
            if tr.absent_since is None:
                tr.absent_since = t
            tr.misses += 1
            # the absence is time, as the stable time is: ``min_misses`` misses over it,
            # or two in a row as far apart (a camera at 5 fps removed each card taken
            # up 0.6 s after its hand had gone, waiting for a third frame)
            if (
                _lasted(t - tr.absent_since, self.absent_s)
                and (tr.misses >= self.min_misses or (tr.misses == 2 and tr.absent_since == before))
                and not self._moving_off(tr, t)
                and not (
                    onward is not None
                    and tr.placed_zone is not None
                    and onward(tr.placed_zone)
                    and _within(t - tr.absent_since, CARRY_S)
                )
            ):
                events.append(self._observe("removed", card, tr, t, tr.placed_zone))
                if not self._near(tr, tr.x, tr.y):  # last seen lying elsewhere: moved there?
                    self._lose(card, tr)
                del self._tracks[card]
        return events

    def _misread_corners(self, best: dict[str, Sighting], doubtful: dict[str, Sighting]) -> None:
        """A card read from one corner alone, lying where a placed card lies (within
        ``same_spot``, turned alike) that is not read surely now, is that card's index
        misread, not a second card: with the card laid over it covering its other
        corner, a 3 in a font the network never met read as an 8 (the live check with
        the URW pack). It counts as the placed card read doubtfully (not missing) and
        places nothing; of several placed cards there, the top one (the last placed,
        then the nearest). A card laid squarely on a placed one (a pile) shows both
        its corners and is placed; one that shows a single corner waits until it
        shows both (a card tucked under the one over the card it replaced waits until
        that one is taken away). A card already placed is left to the rules for
        moves: a placed card moved onto a pile is a move."""
        spot = self._same_spot * self.unit
        for card, s in list(best.items()):
            if s.corners != 1:
                continue
            own = self._tracks.get(card)
            if own is not None and own.placed:
                continue
            # (its turn in the pile, nearness, the card) of the placed cards there
            there = [
                (tr.order, -gap, other)
                for other, tr in self._tracks.items()
                if other != card
                and tr.placed
                and other not in best
                and (gap := math.hypot(s.x_mm - tr.px, s.y_mm - tr.py)) <= spot
                and _turned_alike(s.angle, tr.angle)
            ]
            if not there:
                if self._other_corner(card, s, best):
                    del best[card]
                continue
            other = max(there)[2]  # the top one, then the nearest
            tr = self._tracks[other]
            doubtful[other] = Sighting(other, 0.0, tr.px, tr.py, tr.placed_zone, tr.angle)
            del best[card]

    def _other_corner(self, card: str, s: Sighting, best: dict[str, Sighting]) -> bool:
        """Is ``s`` (a card read from one corner, not placed) the other corner of a
        placed card read from one corner alone in the same frame, misread? A card
        laid over a placed one covers that card's near index: the far one is read
        (surely) and the covered one, half of it showing, as another rank (the live
        check: a 10S whose lower index the 7D laid on it half covered read 8S at
        0.71, and an 8S was placed). Both readings put the card's middle within
        ``OTHER_CORNER_SPOT`` times ``same_spot`` of where the placed card lies (a
        half-covered index is read off its centre: 10 mm off there), turned alike
        within ``OTHER_CORNER_TURN``, however sure the half index is read. Two cards
        so near, turned alike, would hide the under one's index; rows laid each over
        the one before lie 14 mm apart and more, and a card that shows one corner at
        a placed card's spot waits until it shows both, as on a pile."""
        reach = OTHER_CORNER_SPOT * self._same_spot * self.unit
        for other, seen in best.items():
            tr = self._tracks.get(other)
            if (
                other != card
                and tr is not None
                and tr.placed
                and seen.corners == 1
                and math.hypot(s.x_mm - tr.px, s.y_mm - tr.py) <= reach
                and math.hypot(seen.x_mm - tr.px, seen.y_mm - tr.py) <= reach
                and _turned_alike(s.angle, tr.angle, OTHER_CORNER_TURN)
            ):
                return True
        return False

    def _near(self, tr: _Track, x: float, y: float) -> bool:
        return math.hypot(x - tr.px, y - tr.py) <= self.card_width / 2

    def _under(self, tr: _Track, best: dict[str, Sighting]) -> bool:
        """Does a card placed after this one, seen now, lie over it? Two cards turned
        alike overlap when their centres are less than a card's width apart across its
        long side and less than its length along it; with its turn unknown, less than
        a card's width apart."""
        length = self.card_width * 88 / 63
        for other, s in best.items():
            o = self._tracks.get(other)
            if o is None or not o.placed or o.order <= tr.order:
                continue
            dx, dy = s.x_mm - tr.px, s.y_mm - tr.py
            if tr.angle is None:
                if math.hypot(dx, dy) < self.card_width:
                    return True
                continue
            along = abs(dx * math.cos(tr.angle) + dy * math.sin(tr.angle))
            across = abs(-dx * math.sin(tr.angle) + dy * math.cos(tr.angle))
            if along < length and across < self.card_width:
                return True
        return False

    def _observe(
        self, kind: str, card: str, tr: _Track, t: float, from_zone: str | None
    ) -> Observation:
        zone = None if kind == "removed" else tr.zone
        frames = max(tr.frames, 1)
        return Observation(
            kind=kind,
            card=card,
            zone=zone,
            from_zone=from_zone if kind != "placed" else None,
            t=t,
            since=tr.since,
            frames=tr.frames,
            confidence=tr.confidence_sum / frames,
            x_mm=tr.x,
            y_mm=tr.y,
        )


def _turned_alike(a: float | None, b: float | None, within: float = math.radians(20)) -> bool:
    """Do two long sides lie within ``within`` of one direction (either way round)?
    An unknown turn is alike any."""
    if a is None or b is None:
        return True
    diff = abs(a - b) % math.pi
    return min(diff, math.pi - diff) <= within
