"""The live loop: frames in, table observations out (`kiebitz vision watch SOURCE`).

:class:`TableWatcher` is the loop's body for one frame. It reads only what it
must, region by region (:meth:`~vision.recognize.Recognizer.detect_regions`):
the parts of the frame that changed since they were last read and lie still now
(:class:`~vision.motion.MotionGate`), and the spots where the tracker waits for a
fresh look (a card seen but not yet placed, a placed card gone missing); on a
frame with nothing else to read, one tile of a slow sweep. The first frame, and
a frame whose regions would cost more than half a whole reading, is read whole.
The readings of the regions replace the earlier ones there, the cards are made
from all of them, and the tracker is told which spots were looked at afresh and
where something moved a moment ago: a card there is neither placed (it may be in
a passing hand) nor removed (it may be under one).

:func:`watch` runs it over a source and prints one JSON line per observation.
With ``table`` the first frame that shows the markers calibrates the camera and
every card gets a position in millimetres and a zone; without, positions are in
pixels and zones are unknown. Live cameras are reopened with back-off when they
vanish, and their state changes are printed as ``{"status": …}`` lines. A frame
that cannot be read is reported and skipped.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.decks import Deck
from vision.errors import CalibrationError, SourceError
from vision.geometry import MARKER_BAR_MM, Calibration, calibrate, detect_markers
from vision.layout import TableLayout, load_layout
from vision.model import DEFAULT_MODEL
from vision.motion import MotionGate
from vision.proposals import BACKGROUND_INDICES, INDEX_D_MM, Box, Picture
from vision.recognize import (
    UNCALIBRATED_D,
    CardReading,
    IndexDetection,
    Recognizer,
    card_middle,
    suppress,
)
from vision.sources import (
    CameraSource,
    ImageFolderSource,
    PiCameraSource,
    Reconnecting,
    open_source,
)
from vision.tracker import TIME_SLACK, Observation, Sighting, Tracker

__all__ = ["TableWatcher", "watch"]


# A card's long side, and how far from its centre a box must reach to hold its
# corner indices, in units of an index's rank-to-suit distance d
CARD_D = 350 / 36
REACH = 0.62 * CARD_D
CARD_WIDTH_D = CARD_D * 63 / 88  # its short side
# A card is lying still once nothing has moved over it (within half its width of
# its centre) for this long: one frame at 10 fps or less, a few at 30
SETTLE_S = 0.15
# Where the markers are is looked at again on a frame read whole (most of it changed:
# the camera knocked), on one whose change lying still reaches a marker (the camera
# knocked over a plain cloth, where little else changes), and every RECHECK_S seconds
# (a mount sagging), and on one the gate took back onto the table, its camera shaken
# (MotionGate.shaken); two markers or more this many pixels off where they were, or
# none found there in a frame read whole, and the table is calibrated afresh
# (TableWatcher._recheck)
RECHECK_S = 10.0
MOVED_PX = 3.0
# ... every marker found must have moved as one picture moves, each corner within this
# of one motion fitted to them all (_one_motion)
ONE_MOTION_PX = 3.0
# ... and a move of less than STEADY_MM at the markers must hold STEADY_S, the markers
# found in one place (within MOVED_PX) all the while: a table bumped, a wobbly mount,
# shakes the picture by a few pixels for a moment and back. Calibrated afresh on each
# shaken frame (a seed 7 video shaken by up to 3 px for 0.8 s every 7 s: 21 times),
# the gate's base was taken afresh with a hand in it, and moves were told up to 6.9 s
# late. A place a few millimetres off for half a second is no card moved (the
# tracker's `still` is 15 mm); a knock further is calibrated afresh at once, as before.
STEADY_MM = 6.0
STEADY_S = 0.5
# An index read doubtfully (in no reading as sure as the recogniser's `confident`:
# read less surely, its face showing another number of pips or a court's, its other
# corner read otherwise) is read again every frame for DOUBT_S seconds
# after it was first read so, even where the picture did not change: a German 9D in
# a font the network never met, laid in a trick, was read 7D at 0.71 (its face nine
# pips) as the hand left, and kept so for 3.4 s, until a change near it had it read
# again; read again, it was a 9D at 1.00 in one frame of ten. Of the spots due, at most
# DOUBTS a frame, the latest, and never so many that the frame is read whole (junk
# read doubtfully on the cloth costs DOUBT_S once, and again only where it changed).
DOUBT_S = 3.0
DOUBTS = 4
# A recalibration is said at most once in NOTE_S seconds (a mount sagging is calibrated
# afresh every few pixels), unless the markers moved this far or more
NOTE_S = 60.0
LOUD_PX = 20.0
# The motion gate's cells this far past the table's edge lie off it (_off_table): an arm
# reaching in crosses them; a card laid at the edge, blurred a cell or two, does not
# reach them (it would be taken for an arm, and wait up to ARM_HOLD_S to be placed)
OFF_TABLE_MM = 20.0
# A card taken up from a zone whose cards are carried on to another in play (a
# layout's ``then``: a cribbage play row's to its player's show row) while an arm lies
# over that other zone, or did within CARRY_GRACE_S, may be in the hand laying it
# there, unread: it is not removed for up to the tracker's CARRY_S. The lamp probes'
# seed 112: a QH carried unread across a hard shadow's edge to the show row, where the
# hand rested 1 s over it, was removed from the play row 0.7 s after it went and placed
# in the show row 1.1 s later (two events for one move). The grace is the frames the
# card needs to be read once the hand has gone. A trick's cards, gathered face down to
# a pile, go to no such zone: their removal waits for nothing.
CARRY_GRACE_S = 0.5
# A pack printing a larger index than its table's layout gives (a "jumbo index" pack
# with no [deck] index_mm) is read, but each reading is refused as outsize: its cards
# are never placed. Where sure readings of PACK_CARDS cards or more were refused so,
# at PACK_RATIO times the index size the layout gives, the installer is told once,
# with the index_mm to give (seeds 143 and 145: readings 2.2 and 1.6 times as large).
PACK_CARDS = 4
PACK_RATIO = (1.3, 2.9)


def _moves(
    was: dict[int, NDArray[np.float64]], now: dict[int, NDArray[np.float64]]
) -> tuple[list[int], dict[int, float]]:
    """The markers found where they were (within ``MOVED_PX``), and the others with
    how far they moved (their furthest corner, pixels)."""
    placed, moved = [], {}
    for m in sorted(set(was) & set(now)):
        px = float(np.linalg.norm(now[m] - was[m], axis=1).max())
        if px <= MOVED_PX:
            placed.append(m)
        else:
            moved[m] = px
    return placed, moved


def _same_place(was: dict[int, NDArray[np.float64]], now: dict[int, NDArray[np.float64]]) -> bool:
    """Whether two markers or more were found in both, and every one found in both
    lies where it lay (each corner within ``MOVED_PX``)."""
    common = set(was) & set(now)
    return len(common) >= 2 and not _moves({m: was[m] for m in common}, now)[1]


def _one_motion(was: dict[int, NDArray[np.float64]], now: dict[int, NDArray[np.float64]]) -> bool:
    """Whether every marker found moved as one picture moves: their corners then and
    now within ``ONE_MOTION_PX`` of one homography (four markers or more) or one
    turn, shift and scale (two or three), fitted robustly so that a corner off on
    its own (a finger over it) stands out."""
    common = sorted(set(was) & set(now))
    if len(common) < 2:
        return False
    src = np.concatenate([was[m] for m in common]).astype(np.float32)
    dst = np.concatenate([now[m] for m in common]).astype(np.float32)
    if len(common) >= 4:
        h, _ = cv2.findHomography(src, dst, cv2.LMEDS)
        if h is None:
            return False
        fitted = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    else:
        a, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
        if a is None:
            return False
        fitted = src @ a[:, :2].T + a[:, 2]
    return bool(np.linalg.norm(fitted - dst, axis=1).max() <= ONE_MOTION_PX)


class TableWatcher:
    """One table: recogniser, motion gate, tracker, and the calibration once found.

    ``full_share``: a frame whose regions (with their margins) would cover more of
    it than this is read whole instead. Counters: ``full_reads`` (frames read
    whole), ``region_reads`` (frames read region by region), ``timings`` (the last
    frame's ``gate``, ``read`` and ``track`` seconds, and how many ``regions``).
    """

    def __init__(
        self,
        recognizer: Recognizer,
        *,
        layout: TableLayout | None = None,
        tracker: Tracker | None = None,
        gate: MotionGate | None = None,
        full_share: float = 0.5,
    ) -> None:
        self.recognizer = recognizer
        recognizer.one_camera = True  # one camera's frames: once in colour, in colour
        self.layout = layout
        if layout is not None and recognizer.deck is None:
            recognizer.deck = layout.deck  # only the table's pack is read
        elif layout is not None and layout.deck_index_mm is not None:
            # a pack named on the command line is printed as the table's layout says
            deck = recognizer.deck
            assert deck is not None
            recognizer.deck = replace(deck, index_mm=layout.deck_index_mm)
        self.tracker = tracker or Tracker()
        if layout is not None and any(z.then is not None for z in layout.zones):
            # where the layout says each zone's cards are carried on to (Tracker._moving_off);
            # where it says so of some zones, the others' go on nowhere
            self.tracker.onward_zones = {z.name: z.then or () for z in layout.zones}
        self.gate = gate or MotionGate(memory_s=SETTLE_S)
        self.full_share = full_share
        self.dets: list[IndexDetection] = []
        self.readings: list[CardReading] = []
        self.full_reads = 0
        self.region_reads = 0
        # the camera found moved and the table calibrated afresh: how often, and what to
        # tell the installer (taken by the caller: take_notes)
        self.recalibrations = 0
        self.notes: list[tuple[str, str]] = []  # (recalibrated, camera-lost, camera-back; words)
        # the cards whose readings were refused as outsize, larger than the pack's
        # index size (_pack_larger): how many times; and whether it was said
        self._outsize: dict[str, float] = {}
        self._pack_said = False
        self._checked_at = self._searched_at = self._said_at = -np.inf
        # a small move of the markers not yet held STEADY_S: since when, and where
        self._pending: tuple[float, dict[int, NDArray[np.float64]]] | None = None
        self._unsaid = 0  # recalibrations not said since the last said (NOTE_S)
        self._lost = False  # moved, and said that it cannot be calibrated afresh
        self.timings: dict[str, float] = {}
        # each placed card's spot as the gate last saw it there, read and lying still:
        # card -> (x, y as the sightings give them, the gate's patch)
        self._spots: dict[str, tuple[float, float, NDArray[np.uint8]]] = {}
        # where an index was read doubtfully, in the frame's pixels, and since when:
        # (x, y, d, first read so, how sure, where its card's middle lies) (DOUBT_S)
        self._doubts: list[tuple[float, float, float, float, float, tuple[float, float]]] = []
        # the last frame's readings' directions (_angle), by their corners' identity:
        # (corners, the calibration they were turned with, the angle)
        self._angles: dict[int, tuple[tuple[tuple[float, float], ...], Calibration | None, float]]
        self._angles = {}
        # the markers' bounds (x0, x1, y0, y1), for the calibration they are of (_recheck)
        self._marker_bounds: tuple[Calibration, list[tuple[float, float, float, float]]] | None
        self._marker_bounds = None
        # the calibration and frame size the gate's cells off the table are of
        self._outside_of: tuple[Calibration, int, int] | None = None
        # the gate's cells of each zone cards are carried on to (a layout's ``then``),
        # and when an arm was last over each (_onward)
        self._onward_cells: dict[str, NDArray[np.bool_]] = {}
        self._over: dict[str, float] = {}
        # a new game was called (new_game): the pack's evidence is forgotten before the
        # next frame is read (by the thread that reads them)
        self._new_game = False

    def new_game(self) -> None:
        """A new game begins (the panel's ``new_game``): the pack may have been swapped,
        so what the frames so far showed of it (:meth:`Recognizer.forget_pack`) is
        forgotten before the next frame is read. Safe to call from another thread."""
        self._new_game = True

    def try_calibrate(self, image: NDArray[np.uint8]) -> float | None:
        """Calibrate from this frame if not done yet; the error in mm, or ``None``."""
        if self.layout is None or self.recognizer.calibration is not None:
            return None
        cal = calibrate(image, self.layout)
        self.recognizer.layout = self.layout
        self.recognizer.calibration = cal
        self._spots.clear()  # remembered in pixels; positions are millimetres from now on
        return cal.error_mm

    def _off_table(self, h: int, w: int) -> None:
        """Tell the motion gate which of its cells lie off the table, more than
        ``OFF_TABLE_MM`` past its edge (:attr:`MotionGate.outside`: an arm reaches in
        over the table's edge, a card laid at it does not reach so far), and find the
        cells of each zone cards are carried on to (``_onward_cells``, the layout's
        ``then``), once for each calibration and frame size."""
        cal = self.recognizer.calibration
        if cal is None or self.layout is None:
            self.gate.outside, self._outside_of = None, None
            self._onward_cells = {}
            return
        s = self.gate.shrink
        was = self._outside_of
        if was is not None and was[0] is cal and was[1:] == (h, w):
            return
        sh, sw = max(1, h // s), max(1, w // s)
        ys, xs = np.mgrid[0:sh, 0:sw]
        centres = np.stack([(xs.ravel() + 0.5) * s, (ys.ravel() + 0.5) * s], axis=1)
        mm = cal.to_mm(centres.astype(np.float64))
        m = OFF_TABLE_MM  # a card laid at the very edge reaches no further
        off = (
            (mm[:, 0] < -m)
            | (mm[:, 0] > self.layout.width_mm + m)
            | (mm[:, 1] < -m)
            | (mm[:, 1] > self.layout.depth_mm + m)
        )
        self.gate.outside = off.reshape(sh, sw)
        self._outside_of = (cal, h, w)
        onward = {name for zone in self.layout.zones for name in zone.then or ()}
        self._onward_cells, self._over = {}, {}
        for zone in self.layout.zones:
            if zone.name in onward:
                cells = np.zeros((sh, sw), np.uint8)
                corners = cal.to_px(np.array(zone.polygon, np.float64)) / s - 0.5
                cv2.fillPoly(cells, [np.round(corners).astype(np.int32)], 1)
                self._onward_cells[zone.name] = cells > 0

    def _onward(self, t: float) -> Callable[[str], bool]:
        """Note which zones cards are carried on to have an arm over them now, and
        answer for a zone whether a hand is over one its cards are carried on to, or
        was within ``CARRY_GRACE_S`` (:meth:`Tracker.update`'s ``onward``)."""
        for name, cells in self._onward_cells.items():
            if self.gate.arm_over(cells):
                self._over[name] = t
        # (the layout's mapping, kept by the tracker; none where no zone names one)
        then = self.tracker.onward_zones or {}

        def onward(zone: str) -> bool:
            # (a time past the last frame's is none: a watcher given another source)
            return any(
                0 <= t - self._over.get(name, -np.inf) <= CARRY_GRACE_S + TIME_SLACK
                for name in then.get(zone, ())
            )

        return onward

    def take_notes(self) -> list[tuple[str, str]]:
        """What the installer should hear since last asked, once each: ``(kind,
        words)``, the kind ``recalibrated`` (the camera moved; the table calibrated
        afresh), ``camera-lost`` (moved past calibrating: nothing is told until it can
        be), ``camera-back`` (put back where the table was calibrated) or
        ``pack-index`` (the pack's indices read larger than the layout gives: a jumbo
        index pack whose size the layout should give, :data:`PACK_CARDS`)."""
        notes, self.notes = self.notes, []
        return notes

    def _pack_larger(self) -> None:
        """Note once that the pack's indices are read larger than the table's layout
        gives (``pack-index``): where sure readings of :data:`PACK_CARDS` cards were
        refused as outsize at :data:`PACK_RATIO` times the size expected (their
        readings are then a tenth as sure and never placed)."""
        if self._pack_said:
            return
        lo, hi = PACK_RATIO
        for card, ratio in self.recognizer.outsize_read:
            if lo <= ratio <= hi:
                self._outsize[card] = ratio
        if len(self._outsize) < PACK_CARDS:
            return
        self._pack_said = True
        ratio = float(np.median(list(self._outsize.values())))
        index_mm = INDEX_D_MM * self.recognizer.index_k * ratio
        self.notes.append(
            (
                "pack-index",
                f"the indices of {len(self._outsize)} cards read {ratio:.1f} times the size "
                "the table layout gives, so they are not placed: a jumbo index pack? Give "
                f"its size in the layout: [deck] index_mm = {index_mm:.1f} or so (measured "
                "on a card: rank to suit, centre to centre)",
            )
        )

    def _recheck(
        self, t: float, image: NDArray[np.uint8], full: bool, changed: tuple[Box, ...] = ()
    ) -> bool:
        """Whether the camera has moved since the table was calibrated, and the table
        is calibrated afresh now (see ``RECHECK_S``). A camera knocked, or sagging on
        its mount, put every card read since in the wrong place: each seen as moved,
        or in another zone.

        The camera has moved where two markers or more are found off their places
        (and fewer than two on them), every marker found moved as one picture moves
        (:func:`_one_motion`), and the fresh calibration is no worse than the one it
        replaces. A marker moved alone is the calibration's own trouble (named by
        :meth:`~vision.geometry.Calibration.trouble`), not the camera's; a marker whose
        corner a finger covers is found with that corner off (4 to 34 px) and does not
        move as the others; markers under hands keep the calibration there is."""
        cal = self.recognizer.calibration
        if cal is None or self.layout is None:
            return False

        def at_a_marker(box: Box) -> bool:
            return any(
                box[0] <= x1 and x0 < box[2] and box[1] <= y1 and y0 < box[3]
                for x0, x1, y0, y1 in self._bounds(cal)
            )

        # (lost: nothing else is read; a frame the gate took back onto the table as it
        # lay, its camera shaken, shows no change at the markers: looked at every
        # STEADY_S while it shakes, every frame once a move waits, so that a shift that
        # stays, MOVED_PX or more, is calibrated afresh once it holds STEADY_S; the gate
        # itself takes one that holds REGISTER_SETTLE_S for the camera settled there)
        shaken = self.gate.shaken is not None and t - self._checked_at >= STEADY_S
        # (a shift the gate adopted, the camera settled there: looked at now, whatever
        # hid the markers while it shook)
        due = (
            self._lost
            or shaken
            or self.gate.settled is not None
            or t - self._checked_at >= RECHECK_S
        )
        if not (full or due or any(at_a_marker(b) for b in changed)):
            return False
        self._checked_at = t
        near = cal.markers_near(image, self.layout.dictionary)
        placed, moved = _moves(cal.markers, near)
        if self._lost and len(placed) >= 2:  # put back where it was calibrated
            self._lost = False
            self.notes.append(("camera-back", "the camera is back where the table was calibrated"))
            return True
        if len(placed) >= 2:
            self._pending = None  # (a shake over)
            return False  # where it was
        if len(moved) < 2 or not _one_motion(cal.markers, near):
            # the markers hidden (hands), or gone from where they were: the whole frame
            # is searched for them on a frame read whole (not while lost: a frame that
            # is never read stays "read whole"), else once in RECHECK_S
            searched = (full and not self._lost) or t - self._searched_at >= RECHECK_S
            if not searched:
                return False
            self._searched_at = t
            near = detect_markers(image, self.layout.dictionary)
            placed, moved = _moves(cal.markers, near)
            if len(placed) >= 2 or len(moved) < 2 or not _one_motion(cal.markers, near):
                return False  # where it was, or hidden, or no one motion (a marker bumped)
        shift = max(moved.values())
        far = max(moved, key=lambda m: moved[m])
        if shift * cal.mm_per_px(cal.markers[far].mean(axis=0)) < STEADY_MM:
            # a small move: calibrated afresh once it has held STEADY_S (a shake is over
            # sooner); looked at again every frame meanwhile
            pending = self._pending
            self._checked_at = t - RECHECK_S
            if pending is None or not _same_place(pending[1], near):
                self._pending = (t, near)
                return False
            if t - pending[0] < STEADY_S:
                return False
        self._pending = None
        try:
            fresh = calibrate(image, self.layout, near if len(near) >= 4 else None)
        except CalibrationError as exc:
            # moved, and not four markers in sight: every card's place is wrong from
            # now on until they are (put back, or the markers seen again)
            if not self._lost:
                self._lost = True
                self.notes.append(
                    (
                        "camera-lost",
                        f"the camera moved (markers up to {shift:.0f} px from where they "
                        f"were) and cannot be calibrated afresh: {exc}; nothing is told "
                        "until it can (the markers in sight again)",
                    )
                )
            return False
        if set(fresh.left_out) - set(cal.left_out) or fresh.error_mm > max(
            MARKER_BAR_MM, cal.error_mm + 1.0
        ):
            return False  # worse than the calibration there is: a marker partly covered
        self._lost = False
        self.recognizer.calibration = fresh
        self._spots.clear()
        self._doubts.clear()  # in the frame's pixels, where the table lay before
        self.recalibrations += 1
        # a mount sagging is calibrated afresh every few pixels: said at most once in
        # NOTE_S unless it moved far
        if shift >= LOUD_PX or t - self._said_at >= NOTE_S:
            more = f" ({self._unsaid} smaller moves since the last said)" if self._unsaid else ""
            self.notes.append(
                (
                    "recalibrated",
                    f"the camera moved: the markers lie up to {shift:.0f} px from where "
                    f"they were; the table is calibrated afresh (error "
                    f"{fresh.error_mm:.1f} mm){more}",
                )
            )
            self._said_at, self._unsaid = t, 0
        else:
            self._unsaid += 1
        return True

    def _bounds(self, cal: Calibration) -> list[tuple[float, float, float, float]]:
        """Each marker's bounds in the frame's pixels, ``(x0, x1, y0, y1)``: worked out
        once for a calibration (its markers are not changed in place; a new one is a
        new object), not for every changed region of every frame."""
        if self._marker_bounds is None or self._marker_bounds[0] is not cal:
            bounds = [
                (
                    float(c[:, 0].min()),
                    float(c[:, 0].max()),
                    float(c[:, 1].min()),
                    float(c[:, 1].max()),
                )
                for c in cal.markers.values()
            ]
            self._marker_bounds = (cal, bounds)
        return self._marker_bounds[1]

    def _index_d(self) -> float | None:
        """The largest index d to expect, in the frame's pixels: from the calibration,
        else a quarter over the larger indices read so far, else unknown."""
        if self.recognizer.index_px is not None:
            return self.recognizer.index_px
        if self.dets:
            return 1.25 * float(np.percentile([d.d for d in self.dets], 90))
        return None

    def _regions(
        self,
        changed: tuple[Box, ...],
        spots: list[tuple[float, float]],
        shape: tuple[int, int],
        index_d: float | None,
    ) -> list[Box]:
        """Boxes to read: each changed region grown by the reach of an index that
        changed only in part, and a box around each spot (a card's centre, in
        pixels) that holds its corner indices; on the gate's grid, merged where one
        read of both costs no more than two."""
        h, w = shape
        g = self.gate.shrink
        d = index_d or UNCALIBRATED_D

        def snap(x0: float, y0: float, x1: float, y1: float) -> Box:
            return (
                max(0, int(x0) // g * g),
                max(0, int(y0) // g * g),
                min(w, -(-int(np.ceil(x1)) // g) * g),
                min(h, -(-int(np.ceil(y1)) // g) * g),
            )

        pad = 2 * d
        boxes = [snap(x0 - pad, y0 - pad, x1 + pad, y1 + pad) for x0, y0, x1, y1 in changed]
        r = REACH * d
        boxes += [snap(x - r, y - r, x + r, y + r) for x, y in spots]
        boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
        cost = self._cost(shape, index_d)
        i = 0
        while i < len(boxes):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                u = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if cost(u) <= cost(a) + cost(b):
                    boxes[i] = u
                    del boxes[j]
                    i = -1  # the grown box may now join an earlier one: start again
                    break
            i += 1
        return boxes

    def _cost(self, shape: tuple[int, int], index_d: float | None) -> Callable[[Box], float]:
        """The pixels read for a box: the box with the margin it is read with."""
        h, w = shape
        m = self.recognizer.region_margin(shape, index_d)

        def cost(b: Box) -> float:
            return float(
                (min(w, b[2] + m) - max(0.0, b[0] - m)) * (min(h, b[3] + m) - max(0.0, b[1] - m))
            )

        return cost

    def _angle(
        self,
        r: CardReading,
        was: dict[int, tuple[tuple[tuple[float, float], ...], Calibration | None, float]],
    ) -> float:
        """The direction of a reading's long side, in the sightings' frame (table
        millimetres when calibrated, else pixels). ``was``: the last frame's, by their
        corners' identity (each entry holds its corners, so no other object takes the
        id): a reading made again of the same detections has the very same corners
        (:func:`~vision.recognize._outline`), and with the same calibration, the same
        direction. Kept for the next frame in ``_angles``."""
        cal = self.recognizer.calibration
        hit = was.get(id(r.corners))
        if hit is not None and hit[1] is cal:
            angle = hit[2]
        else:
            a, b = r.corners[0], r.corners[3]  # the face's top left and bottom left
            if cal is not None:
                a, b = (tuple(p) for p in cal.to_mm([a, b]))
            angle = math.atan2(b[1] - a[1], b[0] - a[0])
        self._angles[id(r.corners)] = (r.corners, cal, angle)
        return angle

    def _unchanged(
        self,
        sightings: list[Sighting],
        settling: Callable[[float, float], bool],
        to_px: Callable[[float, float], tuple[float, float]],
        radius: float,
    ) -> list[Sighting]:
        """Doubtful sightings (confidence 0) of placed cards that were not read this
        frame but whose spot looks exactly as it did when they were last read there: a
        card the recogniser misses where nothing changed has not gone (a reading that
        flickers at the edge of confidence), so the tracker does not count it missing.
        A card taken away changes its spot; so does a hand or a card laid over it."""
        placed = self.tracker.placed
        read = {s.card for s in sightings if s.confidence >= self.tracker.min_confidence}
        for card in [c for c in self._spots if c not in placed]:
            del self._spots[card]
        out = []
        for s in sightings:
            if s.confidence < self.tracker.min_confidence:
                continue
            # read where it lies (not elsewhere: a move, or another card misread as it),
            # nothing moving over it (a reading repeated from an earlier frame is as
            # good: the gate reads every change that lies still at once)
            if self.tracker.lies_at(s.card, s.x_mm, s.y_mm) and not settling(s.x_mm, s.y_mm):
                patch = self.gate.patch(*to_px(s.x_mm, s.y_mm), radius)
                if patch is not None:
                    self._spots[s.card] = (s.x_mm, s.y_mm, patch)
        for card, (x, y, patch) in self._spots.items():
            if card not in read and self.gate.unchanged(patch, *to_px(x, y), radius):
                out.append(Sighting(card, 0.0, x, y, placed[card]))
        return out

    def _doubted(
        self, t: float, fresh: list[IndexDetection], changed: tuple[Box, ...] | None = ()
    ) -> None:
        """Where indices are read doubtfully now (:data:`DOUBT_S`: in no reading as
        sure as the recogniser's ``confident``), each spot with the time it was first
        read so: a spot read doubtfully before keeps its time, one no longer read so
        is forgotten, and one read afresh where the picture changed (``changed``, the
        gate's boxes; ``None``: a frame read whole, every spot) starts again: a hand that lay
        still on a card laid, then left, is a change there. Ordered by that time and,
        within one time, by how sure (the surest last: nearest to a sure reading)."""
        sure = self.recognizer.confident
        read = {id(d) for r in self.readings if r.confidence >= sure for d in r.indices + r.also}
        new = {id(d) for d in fresh}
        was = self._doubts
        index_d = self.recognizer.index_px  # the table's, where it is calibrated
        now = []
        for d in self.dets:
            if id(d) in read:
                continue
            anew = id(d) in new and (
                changed is None or any(b[0] <= d.x < b[2] and b[1] <= d.y < b[3] for b in changed)
            )
            since = t
            if not anew:
                since = next(
                    (
                        w[3]
                        for w in was
                        if math.hypot(w[0] - d.x, w[1] - d.y) < 0.5 * max(d.d, w[2])
                    ),
                    t,
                )
            now.append((d.x, d.y, d.d, since, d.confidence, card_middle(d, index_d)))
        self._doubts = sorted(now, key=lambda w: (w[3], w[4]))

    def process(
        self,
        t: float,
        image: NDArray[np.uint8],
        small: NDArray[np.uint8] | None = None,
        small_colour: NDArray[np.uint8] | None = None,
    ) -> tuple[list[Observation], list[CardReading]]:
        """Observations this frame settles, and the flagged readings it made afresh.
        ``small``: the camera's own small grey copy of the frame, for the motion gate;
        ``small_colour``: the same in colour (:meth:`MotionGate.look`)."""
        t0 = time.perf_counter()
        if self._new_game:
            self._new_game = False
            self.recognizer.forget_pack()
        # the grey copies the gate and the regions' reading share (the regions read it
        # only when the frame is read at its own scale)
        picture = Picture(image) if self.recognizer.shrinks else self.recognizer.picture(image)
        # the table's scale sets the gate's shade test's lengths (MotionGate.px_per_mm)
        index_px = self.recognizer.index_px
        self.gate.px_per_mm = None if index_px is None else index_px / INDEX_D_MM
        self._off_table(image.shape[0], image.shape[1])
        look = self.gate.look(t, picture, small, small_colour)
        # the camera moved: what was read before lies elsewhere in the frame now
        moved = self._recheck(t, image, look.full, look.regions)
        if moved:
            self.gate.reset_base()  # and the table as it lay still, with it
        if self._lost:
            # moved past calibrating afresh: a place read now would be a wrong one (every
            # card "moved", or laid in another zone); nothing is told until it can be
            self.timings = {"gate": time.perf_counter() - t0, "read": 0.0, "track": 0.0}
            self.timings["regions"] = 0.0
            return [], []
        cal = self.recognizer.calibration
        shape = (image.shape[0], image.shape[1])

        # a spot's pixels, and whether something moves near it, are asked for several
        # times a frame (the regions, the gate's look at a card, the tracker): each is
        # answered once, by position (equal floats are one number: ±0 at worst gives
        # ±0 pixels, alike to every test made of them); the gate moves only in look()
        pixels: dict[tuple[float, float], tuple[float, float]] = {}
        moving: dict[tuple[float, float], bool] = {}

        def to_px(x: float, y: float) -> tuple[float, float]:
            if cal is None:
                return x, y
            px = pixels.get((x, y))
            if px is None:
                p = cal.to_px([[x, y]])[0]
                px = pixels[x, y] = (float(p[0]), float(p[1]))
            return px

        index_d = self._index_d()
        half_card = 0.5 * CARD_WIDTH_D * (index_d or UNCALIBRATED_D)

        def settling(x: float, y: float) -> bool:
            # something moving near, or a hand resting there (MotionGate.arm_near)
            busy = moving.get((x, y))
            if busy is None:
                px = to_px(x, y)
                busy = moving[x, y] = self.gate.moving_near(
                    *px, t, radius_px=half_card
                ) or self.gate.arm_near(*px, radius_px=half_card, still=True)
            return busy

        def resting(x: float, y: float) -> bool:  # an arm over it, moving or not
            return self.gate.arm_near(*to_px(x, y), radius_px=half_card)

        def covering(x: float, y: float) -> bool:  # a change of light too (MotionGate.shade)
            px = to_px(x, y)
            return self.gate.moving_near(*px, t, radius_px=half_card, light=True) or resting(x, y)

        full = look.full or moved
        rois: list[Box] = []
        if not full:
            # (a card missing under an arm resting over it is read once the arm goes)
            spots = [
                to_px(x, y)
                for x, y in self.tracker.wanted(t)
                if not settling(x, y) and not resting(x, y)
            ]
            rois = self._regions(look.regions, spots, shape, index_d)
            cost = self._cost(shape, index_d)
            most = self.full_share * shape[0] * shape[1]
            # the doubtful spots due now (none under a moving hand), the latest: read
            # with the rest where that does not make the frame one to read whole
            # (each read with its whole card, that its other corner may be read too: a
            # box round the index alone left a German B's other corner out, and its
            # one corner, misread as an 8D, was read again and again for DOUBT_S)
            doubts = [
                middle
                for x, y, _, since, _, middle in self._doubts
                if t - since <= DOUBT_S and not self.gate.moving_near(x, y, t, radius_px=half_card)
            ][-DOUBTS:]
            if doubts:
                more = self._regions(look.regions, spots + doubts, shape, index_d)
                if sum(cost(b) for b in more) <= most:
                    rois = more
            if not rois:
                # nothing else to read: a card lost from sight where it lay is looked
                # for again there (Tracker.lost_due), else the gate's slow sweep
                lost = [
                    to_px(x, y)
                    for x, y in self.tracker.lost_due(
                        t, lambda x, y: settling(x, y) or resting(x, y)
                    )
                ]
                more = self._regions((), lost, shape, index_d) if lost else []
                if more and sum(cost(b) for b in more) <= most:
                    rois = more  # (never so many that the frame is read whole)
                elif look.sweep is not None:
                    rois = [look.sweep]
            full = sum(cost(b) for b in rois) > most
        t1 = time.perf_counter()
        fresh: list[IndexDetection] = []
        looked: bool | Callable[[float, float], bool] = False
        if full:
            fresh = self.dets = self.recognizer.detect_indices(image)
            self.gate.mark_read(t)
            self.full_reads += 1
            looked = True
        elif rois:
            working = image if self.recognizer.shrinks else picture
            fresh = self.recognizer.detect_regions(working, rois, index_px=index_d)
            kept = [
                d
                for d in self.dets
                if not any(b[0] <= d.x < b[2] and b[1] <= d.y < b[3] for b in rois)
            ]
            self.dets = suppress(fresh + kept)
            # what was read within the background window's reach of a moving hand is
            # read again once it has gone (MotionGate.mark_read)
            clear = BACKGROUND_INDICES * (index_d or UNCALIBRATED_D)
            self.gate.mark_read(t, rois, clear_px=clear)
            self.region_reads += 1

            def looked(x: float, y: float) -> bool:
                px, py = to_px(x, y)
                return any(b[0] <= px < b[2] and b[1] <= py < b[3] for b in rois)

        t2 = time.perf_counter()
        # (a card under a hand, moving or at rest, is no face to look at from one corner:
        # anything within half a card's length of its middle)
        half_long = 0.5 * CARD_D * (index_d or UNCALIBRATED_D)
        self.readings = self.recognizer.cards(
            self.dets,
            hands=lambda x, y: (
                self.gate.moving_near(x, y, t, radius_px=half_long)
                or self.gate.arm_near(x, y, radius_px=half_long)
            ),
        )
        self._doubted(t, fresh, None if full else look.regions)
        self._pack_larger()
        new = {id(d) for d in fresh}
        flagged = [
            r for r in self.readings if r.flags and any(id(d) in new for d in r.indices + r.also)
        ]
        sightings = []
        was, self._angles = self._angles, {}
        for r in self.readings:
            at = self.tracker.where(r.card) if r.other_side is not None else None
            x, y, zone = where_it_lies(r, at)
            sightings.append(
                Sighting(r.card, r.confidence, x, y, zone, self._angle(r, was), len(r.indices))
            )
        sightings += self._unchanged(sightings, settling, to_px, half_card)
        if cal is not None:
            self.tracker.unit = 1.0  # positions in millimetres
        elif index_d is not None:  # positions in pixels: the tracker's sizes too
            # pixels per millimetre; _index_d reaches a quarter over the larger indices
            self.tracker.unit = index_d / 1.25 / INDEX_D_MM
        observations = self.tracker.update(
            t, sightings, settling, looked=looked, covering=covering, onward=self._onward(t)
        )
        self.timings = {
            "gate": t1 - t0,
            "read": t2 - t1,
            "track": time.perf_counter() - t2,
            "regions": 0.0 if full else float(len(rois)),
        }
        return observations, flagged


def where_it_lies(
    r: CardReading, seen: tuple[float, float] | None
) -> tuple[float, float, str | None]:
    """Where the card read as ``r`` lies (millimetres, or the frame's pixels without a
    calibration) and its zone. A four-index card seen at one edge's two corners
    alone may lie on either side of them (:attr:`CardReading.other_side`): on the
    side nearer ``seen``, where the tracker has it lying; on the surer corner's side
    where it has not been seen lying."""
    x, y = r.position_mm if r.position_mm is not None else r.centre
    if r.other_side is None or seen is None:
        return x, y, r.zone
    corners, place, zone = r.other_side
    ox, oy = place if place is not None else replace(r, corners=corners).centre
    if math.hypot(ox - seen[0], oy - seen[1]) < math.hypot(x - seen[0], y - seen[1]):
        return ox, oy, zone
    return x, y, r.zone


def watch(
    spec: str,
    *,
    table: str | None = None,
    fps: float = 10.0,
    model: str | Path | None = None,
    deck: Deck | None = None,
    out: TextIO,
    max_frames: int | None = None,
    between_frames: Callable[[], None] | None = None,
) -> int:
    """``deck``: the pack read (default: the table layout's, else every rank);
    ``between_frames``: called after each frame is told (the command line's: a
    Ctrl-C a native import swallowed is raised there)."""
    layout = load_layout(table) if table else None
    watcher = TableWatcher(Recognizer(model or DEFAULT_MODEL, deck=deck), layout=layout)

    def emit(obj: dict[str, object]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    raw = open_source(spec, fps=fps)
    watcher.gate.stills = isinstance(raw, ImageFolderSource)
    live = isinstance(raw, (CameraSource, PiCameraSource))
    source = (
        Reconnecting(raw, on_state=lambda s, d: emit({"status": s, "source": spec, "detail": d}))
        if live
        else raw
    )
    source.open()
    frames = unread = 0
    said: str | None = None  # the last calibration warning, said once while it holds
    try:
        while max_frames is None or frames < max_frames:
            try:
                frame = source.read()
            except SourceError as exc:
                emit({"error": str(exc)})
                # a folder's picture that does not read is said and passed over; a
                # single picture that does not read is the whole input (status 2)
                if isinstance(raw, ImageFolderSource) and not raw.path.is_file():
                    unread += 1
                    continue
                raise
            if frame is None:
                if live:
                    continue
                if frames == 0 and unread:  # a folder none of whose pictures read
                    raise SourceError(f"none of the {unread} pictures in {spec} could be read")
                break
            frames += 1
            if layout is not None and watcher.recognizer.calibration is None:
                try:
                    error = watcher.try_calibrate(frame.image)
                    cal = watcher.recognizer.calibration
                    status: dict[str, object] = {"status": "calibrated"}
                    status["error_mm"] = round(error or 0.0, 2)
                    warnings = cal.trouble() if cal is not None else []
                    if warnings:
                        status["warnings"] = warnings
                    emit(status)
                except CalibrationError as exc:
                    # once per reason, as the table service says it: a camera that
                    # never sees the markers said the same line every frame
                    if str(exc) != said:
                        said = str(exc)
                        more = "; said again only when it changes"
                        emit({"warning": f"frame {frame.index}: {exc}{more}"})
            observations, flagged = watcher.process(
                frame.t, frame.image, frame.small, frame.small_colour
            )
            for kind, note in watcher.take_notes():  # the camera moved (docs/vision.md)
                cal = watcher.recognizer.calibration
                moved: dict[str, object] = {"status": kind, "warning": note}
                if kind == "recalibrated" and cal is not None:
                    moved["error_mm"] = round(cal.error_mm, 2)
                    if cal.trouble():
                        moved["warnings"] = cal.trouble()
                emit(moved)
            for r in flagged:
                emit({"t": round(frame.t, 3), "reading": r.to_json()})
            for obs in observations:
                emit(obs.to_json())
            if between_frames is not None:
                between_frames()
    finally:
        source.close()
    return 0
