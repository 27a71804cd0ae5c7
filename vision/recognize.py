"""From one picture to the cards in it: proposals, the index classifier, one card per card.

The steps (see :mod:`vision.proposals` for the first two):

1. ink blobs on card paper, paired rank-above-suit into index hypotheses, and
   the corners of cards lying free (the whole card's outline);
2. each hypothesis cut out upright at half size for the gate, and what it passes
   at full size for the classifier (rank, suit, or no index); a doubtful reading
   is read again from patches cut a tenth smaller and larger, and averaged;
3. overlapping detections of one index reduced to the best;
4. detections of the same card joined when they are the two corners of one
   card (opposite turn, at the distance a card's corners are apart): one
   physical card seen by two corners is one card;
5. what is left reported with its confidence, its outline in pixels, and its
   position in table millimetres when the camera is calibrated. A reading below
   ``confident`` is flagged ``low-confidence``; the same card read in two places
   that cannot be one card is flagged ``duplicate``. Nothing is dropped silently.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.faces import H as FACE_H
from vision.faces import W as FACE_W
from vision.geometry import Calibration
from vision.layout import TableLayout
from vision.model import DEFAULT_MODEL, RANK_CLASSES, SUIT_CLASSES, IndexClassifier
from vision.proposals import Proposals, Pyramid, all_proposals, extract_patches

__all__ = ["CardReading", "Recognizer"]

# The distance from rank centre to suit centre on a printed card, and the size in
# pixels the classifier works at: a calibrated camera's frames are shrunk to it.
INDEX_D_MM = 8.5
WORK_D = 20.0
# A reading of an index less sure than RECHECK is read again from patches cut at
# these scales, and the three readings are averaged: a true index reads the same
# from a patch a tenth larger or smaller (training jitters the scale by a fifth),
# while a misreading made of a neighbour's ink (a rank above score-pad writing taken
# for its suit) seldom survives the change.
RECHECK = 0.95
RECHECK_SCALES = (0.9, 1.1)
# Where a typical index sits on a 250 x 350 face: its midpoint and rank-to-suit distance.
_FACE_ANCHOR = (24.0, 55.0)
_FACE_D = 36.0
# From one index to the opposite one, in units of the index's d, along (v, u).
_OTHER_CORNER = ((FACE_W - 2 * _FACE_ANCHOR[0]) / _FACE_D, (FACE_H - 2 * _FACE_ANCHOR[1]) / _FACE_D)


@dataclass(frozen=True)
class IndexDetection:
    rank: str
    suit: str
    confidence: float
    rank_confidence: float
    x: float
    y: float
    ux: float
    uy: float
    d: float

    @property
    def card(self) -> str:
        return self.rank + self.suit


@dataclass(frozen=True)
class CardReading:
    """One card found in a picture."""

    card: str
    confidence: float
    rank_confidence: float
    corners: tuple[tuple[float, float], ...]
    indices: tuple[IndexDetection, ...]
    position_mm: tuple[float, float] | None = None
    zone: str | None = None
    flags: tuple[str, ...] = field(default=())

    @property
    def rank(self) -> str:
        return self.card[:-1]

    @property
    def centre(self) -> tuple[float, float]:
        xs = [c[0] for c in self.corners]
        ys = [c[1] for c in self.corners]
        return (sum(xs) / 4, sum(ys) / 4)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "indices": len(self.indices),
        }
        if self.position_mm is not None:
            out["position_mm"] = [round(self.position_mm[0], 1), round(self.position_mm[1], 1)]
            out["zone"] = self.zone
        if self.flags:
            out["flags"] = list(self.flags)
        return out


def _card_outline(det: IndexDetection) -> tuple[tuple[float, float], ...]:
    """The card's corners from one index (a typical card's proportions)."""
    s = det.d / _FACE_D
    vx, vy = det.uy, -det.ux
    ax, ay = _FACE_ANCHOR
    pts = []
    for fx, fy in ((0, 0), (FACE_W, 0), (FACE_W, FACE_H), (0, FACE_H)):
        dx, dy = (fx - ax) * s, (fy - ay) * s
        pts.append((det.x + dx * vx + dy * det.ux, det.y + dx * vy + dy * det.uy))
    return tuple(pts)


def _same_card(a: IndexDetection, b: IndexDetection) -> bool:
    """Are two readings of one card its two opposite corner indices?"""
    if a.ux * b.ux + a.uy * b.uy > -0.6:
        return False
    for p, q in ((a, b), (b, a)):
        vx, vy = p.uy, -p.ux
        ex = p.x + p.d * (_OTHER_CORNER[0] * vx + _OTHER_CORNER[1] * p.ux)
        ey = p.y + p.d * (_OTHER_CORNER[0] * vy + _OTHER_CORNER[1] * p.uy)
        if np.hypot(q.x - ex, q.y - ey) < 2.5 * p.d:
            return True
    return False


class Recognizer:
    """Reads cards from pictures with one loaded model."""

    def __init__(
        self,
        model: str | Path = DEFAULT_MODEL,
        *,
        threshold: float = 0.5,
        confident: float = 0.8,
        calibration: Calibration | None = None,
        layout: TableLayout | None = None,
        scale: float = 1.0,
    ) -> None:
        self.classifier = IndexClassifier(model)
        self.threshold = threshold
        self.confident = confident
        self.layout = layout
        self.scale = scale
        self.calibration = calibration
        self.timings: dict[str, float] = {}

    @property
    def calibration(self) -> Calibration | None:
        return self._calibration

    @calibration.setter
    def calibration(self, value: Calibration | None) -> None:
        """A calibrated camera also fixes the working scale: pictures are shrunk until
        an index measures about ``WORK_D`` pixels, which is all the classifier needs."""
        self._calibration = value
        if value is not None:
            quads = list(value.markers.values())
            centre = np.mean(np.concatenate(quads), axis=0) if quads else np.zeros(2)
            px_per_mm = 1.0 / value.mm_per_px((float(centre[0]), float(centre[1])))
            self.scale = min(1.0, WORK_D / (INDEX_D_MM * px_per_mm))

    def detect_indices(self, image: NDArray[np.uint8]) -> list[IndexDetection]:
        t0 = time.perf_counter()
        s = self.scale
        if s < 0.75:  # resizing costs more than a mild shrink saves
            image = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        props = all_proposals(image)
        t1 = time.perf_counter()
        pyramid = Pyramid(image)
        rank_p, suit_p = self.classifier.read(pyramid, props)
        t2 = time.perf_counter()
        rechecked = self._recheck(pyramid, props, rank_p, suit_p)
        self.timings = {
            "proposals": t1 - t0,
            **self.classifier.timings,  # gate (with its patches), classify (with its patches)
            "recheck": time.perf_counter() - t2,
            "proposals_n": float(len(props)),
            "rechecked_n": float(rechecked),
        }
        dets = self._decode(props, rank_p, suit_p)
        if s < 0.75:  # back to the caller's pixels
            k = 1.0 / s
            dets = [
                IndexDetection(
                    d.rank,
                    d.suit,
                    d.confidence,
                    d.rank_confidence,
                    (d.x + 0.5) * k - 0.5,
                    (d.y + 0.5) * k - 0.5,
                    d.ux,
                    d.uy,
                    d.d * k,
                )
                for d in dets
            ]
        return dets

    def _index_read(self, rank_p: NDArray[np.float32]) -> NDArray[np.bool_]:
        """Which proposals read as an index: a rank, not "no index", at a rank
        confidence that may still make a reading."""
        return (rank_p.argmax(axis=1) > 0) & (rank_p.max(axis=1) >= self.threshold * 0.6)

    def _recheck(
        self,
        pyramid: Pyramid,
        props: Proposals,
        rank_p: NDArray[np.float32],
        suit_p: NDArray[np.float32],
    ) -> int:
        """Average the doubtful readings (see ``RECHECK``) with readings of the same
        proposal cut at ``RECHECK_SCALES``, in place; returns how many there were."""
        conf = rank_p.max(axis=1) * suit_p.max(axis=1)
        doubt = np.nonzero(self._index_read(rank_p) & (conf < RECHECK))[0]
        if doubt.size == 0:
            return 0
        sub = props.take(doubt)
        cuts = [extract_patches(pyramid, replace(sub, d=sub.d * s)) for s in RECHECK_SCALES]
        more_r, more_s = self.classifier.classify(np.concatenate(cuts))
        k, n = doubt.size, len(RECHECK_SCALES) + 1
        rank_p[doubt] = (rank_p[doubt] + more_r.reshape(n - 1, k, -1).sum(axis=0)) / n
        suit_p[doubt] = (suit_p[doubt] + more_s.reshape(n - 1, k, -1).sum(axis=0)) / n
        return int(doubt.size)

    def _decode(
        self, props: Proposals, rank_p: NDArray[np.float32], suit_p: NDArray[np.float32]
    ) -> list[IndexDetection]:
        rank_i = rank_p.argmax(axis=1)
        suit_i = suit_p.argmax(axis=1)
        rank_c = rank_p[np.arange(len(rank_i)), rank_i]
        suit_c = suit_p[np.arange(len(suit_i)), suit_i]
        conf = rank_c * suit_c
        # only readings of an index are candidates (most proposals read "no index")
        cand = np.nonzero(self._index_read(rank_p))[0]
        order = cand[np.argsort(-conf[cand], kind="stable")]
        kept: list[IndexDetection] = []
        for i in order.tolist():
            det = IndexDetection(
                RANK_CLASSES[int(rank_i[i])],
                SUIT_CLASSES[int(suit_i[i])],
                float(conf[i]),
                float(rank_c[i]),
                float(props.x[i]),
                float(props.y[i]),
                float(props.ux[i]),
                float(props.uy[i]),
                float(props.d[i]),
            )
            if any(np.hypot(k.x - det.x, k.y - det.y) < 0.7 * min(k.d, det.d) for k in kept):
                continue
            kept.append(det)
        return kept

    def read(self, image: NDArray[np.uint8]) -> list[CardReading]:
        """Every card in the picture, best first."""
        dets = self.detect_indices(image)  # already at least threshold * 0.6 sure of the rank
        by_card: dict[str, list[IndexDetection]] = {}
        for det in dets:
            by_card.setdefault(det.card, []).append(det)
        readings: list[CardReading] = []
        for card, group in by_card.items():
            group.sort(key=lambda d: -d.confidence)
            cards: list[list[IndexDetection]] = []
            for det in group:
                for c in cards:
                    if len(c) == 1 and _same_card(c[0], det):
                        c.append(det)
                        break
                else:
                    cards.append([det])
            for members in cards:
                best = members[0]
                conf = 1 - float(np.prod([1 - m.confidence for m in members]))
                rank_conf = 1 - float(np.prod([1 - m.rank_confidence for m in members]))
                if len(members) == 2:
                    a, b = _card_outline(members[0]), _card_outline(members[1])
                    # the two outlines describe one card: average them corner to corner
                    corners = tuple(
                        ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
                        for p, q in zip(a, b[2:] + b[:2], strict=True)
                    )
                else:
                    corners = _card_outline(best)
                flags = []
                if conf < self.confident:
                    flags.append("low-confidence")
                if len(cards) > 1:
                    flags.append("duplicate")
                reading = CardReading(
                    card, conf, rank_conf, corners, tuple(members), flags=tuple(flags)
                )
                readings.append(self._place(reading))
        readings.sort(key=lambda r: -r.confidence)
        return [
            r
            for r in readings
            if r.confidence >= self.threshold or r.rank_confidence >= self.threshold
        ]

    def _place(self, reading: CardReading) -> CardReading:
        if self.calibration is None:
            return reading
        x, y = self.calibration.to_mm([reading.centre])[0]
        zone = self.layout.zone_at(float(x), float(y)) if self.layout is not None else None
        return CardReading(
            reading.card,
            reading.confidence,
            reading.rank_confidence,
            reading.corners,
            reading.indices,
            (float(x), float(y)),
            zone.name if zone else None,
            reading.flags,
        )
