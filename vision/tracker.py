"""From per-frame card sightings to table observations: placed, moved, removed.

A camera sees a card in many frames, sometimes not at all (a hand over it, a
reflection), sometimes where it is not (a card in a hand passing over the
table). The tracker turns this into the few events the referee needs:

* ``placed``: a card has lain in a zone, seen stably, for ``stable_s`` (300 ms);
* ``moved``: a placed card has lain stably in another zone (one event, not a
  removal and a placing);
* ``removed``: a placed card has been absent for ``absent_s`` while its spot was
  visible (frames where something moves over the spot do not count as absence).

A card seen for less than ``stable_s`` never produces an event, so a hand
passing over the table, with cards in it or covering cards, produces none.
Times are frame times in seconds; the tracker has no clock of its own.

>>> t = Tracker(stable_s=0.3, absent_s=1.0)
>>> seen = [Sighting("QH", 0.98, 400.0, 250.0, "play.0")]
>>> [o.kind for f in range(10) for o in t.update(f / 30, seen)]
['placed']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Observation", "Sighting", "Tracker"]


@dataclass(frozen=True, slots=True)
class Sighting:
    """One card seen in one frame, at a table position, in a zone (or ``None``)."""

    card: str
    confidence: float
    x_mm: float
    y_mm: float
    zone: str | None


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
    confidence_sum: float = 0.0
    absent_since: float | None = None
    misses: int = 0
    looks: int = 0


Busy = Callable[[float, float], bool]
Looked = Callable[[float, float], bool]


class Tracker:
    """Debounces sightings into observations. One tracker per table."""

    def __init__(
        self,
        *,
        stable_s: float = 0.3,
        absent_s: float = 1.0,
        gap_s: float = 0.25,
        min_confidence: float = 0.7,
        min_frames: int = 3,
        min_looks: int = 2,
        min_misses: int = 3,
    ) -> None:
        if stable_s <= 0 or absent_s <= 0 or gap_s <= 0:
            raise ValueError("tracker times must be positive")
        self.stable_s = stable_s
        self.absent_s = absent_s
        self.gap_s = gap_s
        self.min_confidence = min_confidence
        self.min_frames = min_frames
        self.min_looks = min_looks
        self.min_misses = min_misses
        self._tracks: dict[str, _Track] = {}
        self._last_t = float("-inf")

    @property
    def placed(self) -> dict[str, str | None]:
        """Every card now placed, with its zone."""
        return {card: tr.placed_zone for card, tr in self._tracks.items() if tr.placed}

    def wanted(self, t: float) -> list[tuple[float, float]]:
        """Where a fresh look would settle something (positions as the sightings give
        them): a card seen lately but not yet placed where it lies (its placing or
        move needs looks), and a placed card missing from the last frame (its
        removal needs misses). The live loop reads these spots again each frame,
        even where the picture did not change, so that a card is placed or removed
        as soon as the times allow, not when the whole table is next read."""
        out = []
        for tr in self._tracks.values():
            missing = tr.placed and tr.last_seen < self._last_t
            pending = (
                not (tr.placed and tr.placed_zone == tr.zone) and t - tr.last_seen <= self.gap_s
            )
            if missing or pending:
                out.append((tr.x, tr.y))
        return out

    def update(
        self,
        t: float,
        sightings: Sequence[Sighting],
        busy: Busy | None = None,
        *,
        looked: bool | Looked = True,
    ) -> list[Observation]:
        """Feed one frame's sightings (taken at time ``t``); return the observations it settles.

        ``busy(x, y)`` says whether something is moving over or next to a spot (a hand):
        a card seen there is not lying still yet, so those sightings do not count
        towards placing it, and a placed card missing there is covered, not gone.
        ``looked=False`` marks a frame that was not read afresh (its sightings repeat
        the last reading because nothing changed): it confirms what was seen but is
        no evidence that anything is missing. ``looked(x, y)`` says it spot by spot,
        for a frame of which only some regions were read. A placed card is removed
        after it has been missing from ``min_misses`` frames that were read there,
        over ``absent_s``.
        """
        looked_at: Looked = looked if callable(looked) else (lambda _x, _y: bool(looked))
        self._last_t = t
        events: list[Observation] = []
        best: dict[str, Sighting] = {}
        for s in sightings:
            if s.confidence < self.min_confidence:
                continue
            if s.card not in best or s.confidence > best[s.card].confidence:
                best[s.card] = s
        for card, s in best.items():
            tr = self._tracks.setdefault(card, _Track())
            tr.absent_since, tr.misses = None, 0
            moving = busy is not None and busy(s.x_mm, s.y_mm)
            if moving:  # in a moving hand or under one: start the stable time again
                tr.zone, tr.since, tr.frames, tr.looks, tr.confidence_sum = s.zone, t, 0, 0, 0.0
            elif tr.zone == s.zone and t - tr.last_seen <= self.gap_s:
                tr.frames += 1
                tr.looks += looked_at(s.x_mm, s.y_mm)
                tr.confidence_sum += s.confidence
            else:
                tr.zone, tr.since, tr.frames = s.zone, t, 1
                tr.looks, tr.confidence_sum = int(looked_at(s.x_mm, s.y_mm)), s.confidence
            tr.last_seen = t
            tr.x, tr.y = s.x_mm, s.y_mm
            settled = (
                t - tr.since >= self.stable_s
                and tr.frames >= self.min_frames
                and tr.looks >= self.min_looks
            )
            if settled and not (tr.placed and tr.placed_zone == tr.zone):
                kind = "moved" if tr.placed else "placed"
                before = tr.placed_zone if tr.placed else None
                events.append(self._observe(kind, card, tr, t, before))
                tr.placed, tr.placed_zone = True, tr.zone
        for card, tr in list(self._tracks.items()):
            if card in best:
                continue
            if not tr.placed:
                if t - tr.last_seen > self.gap_s:
                    del self._tracks[card]  # a passing glimpse: forget it
                continue
            if t - tr.last_seen <= self.gap_s or not looked_at(tr.x, tr.y):
                continue  # a dropped frame or two, or no fresh look there
            if busy is not None and busy(tr.x, tr.y):
                tr.absent_since, tr.misses = None, 0
                continue
            if tr.absent_since is None:
                tr.absent_since = t
            tr.misses += 1
            if tr.misses >= self.min_misses and t - tr.absent_since >= self.absent_s:
                events.append(self._observe("removed", card, tr, t, tr.placed_zone))
                del self._tracks[card]
        return events

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
