"""Cheap motion analysis on a small grey copy of each frame.

Four uses in the live loop:

* **what to read**: the gate keeps a *reference*, the small copy as it was when
  each part of the frame was last read, and says which parts now differ from it
  (:meth:`MotionGate.look`): only those are read again, region by region
  (:meth:`~vision.recognize.Recognizer.detect_regions`), and only once they have
  stopped moving: a region where something is moving in this very frame (a hand)
  is left for a later frame, since nothing read under a moving hand may be placed
  or removed anyway. A frame that looks like the last one read costs about a
  millisecond a megapixel; a card laid down costs the read of its region, not of
  the frame;
* **occlusion**: where something moved recently (a hand reaching over the
  table), a card that cannot be seen is taken to be covered, not removed; a card
  that is taken away leaves a still table behind, and its absence counts. A broad
  soft shadow moving over a spot (a player leaning back) is a change of light, not
  motion there (``shade``): the card under it lies still;
* **an arm at rest**: a broad change from the table as it lies still that reaches in
  over the picture's border or the table's edge is an arm, moving or not
  (:meth:`MotionGate.arm_near`): a card under it is covered, not gone, and a card
  under a resting hand is not laid yet;
* **a slow sweep**: on a frame where nothing is read, one tile of a grid over the
  frame that has not been read for ``refresh_s`` is offered for reading, so that
  every part of the table is read afresh now and then even if the gate never saw
  it change.

A frame more than ``new_scene`` of which differs from the reference (the next
photograph of a folder, the light switched on, the camera knocked) is read
whole at once, moving or not. With ``stills`` (a folder of photographs, each
shown for one frame) every change is read at once.

The caller tells the gate what it read (:meth:`MotionGate.mark_read`): only
there is the reference brought up to date, so a change that creeps in below the
gate's level, frame by frame, still adds up until it is read.

>>> import numpy as np
>>> gate = MotionGate()
>>> still = np.full((72, 128, 3), 90, np.uint8)
>>> gate.look(0.0, still).full                   # the first frame is read whole
True
>>> gate.mark_read(0.0)
>>> gate.look(0.1, still)                        # nothing changed
Look(full=False, regions=(), sweep=None)
>>> moved = still.copy(); moved[10:40, 10:60] = 250
>>> gate.look(0.2, moved).regions                # moving in this frame: not yet
()
>>> gate.look(0.3, moved).regions                # lying still now: read that region
((0, 0, 72, 48),)
>>> gate.moving_near(30, 25, 0.3), gate.moving_near(120, 70, 0.3)
(True, False)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.proposals import Box, Picture, _hist, hist_percentile, labelled

__all__ = ["Look", "MotionGate"]

# A change of light alone is no motion over a spot (MotionGate.moving_near): the
# change, in log light (a shadow darkens paper and felt by one ratio), differs from
# itself blurred over SHADE_SIGMA_MM by at most SHADE_DETAIL everywhere within
# SHADE_REACH_MM (and the gate's cell round that). A player's head and shoulders
# leaning back (a third darker, the edge blurred over 45 mm) differ by 0.014 at most;
# a hand's own shadow 8 cm over the table (45 % darker, blurred over 7 mm) by 0.06, a
# hard shadow 0.15, a hand or a card far more. The lengths are the table's: a camera
# of SHADE_PX_PER_MM (the recommended mounting) blurs over two of the gate's cells; a
# finer one over more (MotionGate.px_per_mm), so that a shadow of one softness is
# judged alike at any scale (a hand's shadow at 3.5 px/mm measured 0.040 over two
# cells, 0.06 over its own 6.8 mm).
SHADE_DETAIL: float | None = 0.05
# ... at a cell whose grey moved by this many levels or more: print near black (a
# court's robe, 6 grey under a leaning player's shadow and 8 without) moves a third as
# far in log light as the paper and felt round it (the 8 added dwarfs it), and stood
# out of the blurred change as an edge would (a three-player video's QS, seed 137,
# moved 0.8 s after the hand left as the shadow lifted off it). A hand, an arm or a
# card moves a cell by far more.
SHADE_FLOOR = 6
SHADE_PX_PER_MM = 2.36
SHADE_SIGMA_MM = 6.8
SHADE_REACH_MM = 6.8
# Anything changing over a spot (MotionGate.moving_near(light=True): a card missing
# there may be under it) is judged over LIGHT_SPAN_S as well as frame to frame: a
# camera at 30 fps sees the fringe of a hand's soft shadow creep off a card by less
# than the gate's level a frame (three removals were told a frame, 33 ms, before the
# shadow had left the card: the live check's seeds 60 and 91); one frame at 10 fps.
LIGHT_SPAN_S = 0.1
# (a live camera's frame times jitter by a few milliseconds: at 10 fps the last frame
# is still the span's; at most HISTORY small copies are kept, whatever the times)
SPAN_SLACK_S = 0.01
HISTORY = 64
# A region read beside a moving hand is offered again once the hand has gone
# (MotionGate.mark_read), for at most CLEAR_HOLD_S of a hand that stays beside it
CLEAR_HOLD_S = 1.0
# An arm at rest (MotionGate.arm_near): a change from the table as it lies still
# (MotionGate's base) that reaches the picture's border, or past the table's edge
# (MotionGate.outside), is something that reached in over the table, an arm; a card
# laid or taken away changes a patch inside the table, clear of its edge. Whatever an
# arm lies over is covered, not gone, however still the arm rests; after ARM_HOLD_S
# resting it is taken for the table as it is now (an elbow left on the table's edge),
# until the table it lay over is seen there again (the elbow lifted: no arm is left
# behind, shaped like it, for as long again).
ARM_HOLD_S = 15.0
# ... and a card near an arm at rest is not laid yet (arm_near(still=True)) for at
# most ARM_REST_S of the rest: a change of the base's own making (an arm in the
# picture when the base was taken, the light switched on over one) is taken for an
# arm at rest too, and would hold a card laid there for ARM_HOLD_S; a hand resting
# longer on a card has let it go
ARM_REST_S = 3.0
# ... and only once nothing of it has moved for ARM_STILL_S: an arm going out that
# stood still at the table's edge for a frame or two at 30 fps, joined to the card
# just laid by the light a player leaning back left, restarted that card's stable
# time (the live check's seeds 116 and 122, a 9S and a 2H placed 0.6 s after they lay
# clear). A hand resting on a card rests longer; one stopping for less is moving.
ARM_STILL_S = 0.1
# ... an arm is broad: a change is one only where a core of it ARM_CORE_MM across (a
# forearm is some 85 mm, a palm more) reaches the border or off the table, joined to
# it through parts that broad. The thin residue a video codec leaves along the edges
# of a hand that has gone (stripes a cell or two wide, 18 levels off the table for
# seconds) joined to the border a card laid after it, and a row of cards taken
# away: taken for an arm, the live check missed a move and four removals.
ARM_CORE_MM = 30.0
# ... and a change within ARM_JOIN_MM of such a core is the arm's: its hand where
# only the part over a card differs from the table by the gate's level (skin as grey as
# a wooden table, in a leaning player's shadow), narrower than a core; taken into the
# base, the card under the resting hand was gone (a 10C removed, placed again when the
# hand went: the live check's seed 95). A codec's trail joined to it is no nearer
# than its own length.
ARM_JOIN_MM = 10.0
# ... and a cell that was an arm within ARM_BREAK_S is not taken into the base: a
# resting arm whose part at the border came within the gate's level of the table for
# a frame or two (a sleeve near the table's grey, and noise) was no arm then, was
# taken into the base, and was gone for good, what lay under it with it
ARM_BREAK_S = 0.25
# ... and a change of the base's own making is no arm (MotionGate._no_arm,
# _left_behind). An arm in the picture when the base was taken (the first frame, the
# camera moved) that has gone leaves a change of its shape, outlined in the base,
# not in the picture now: GHOST_SIDE times as many of its outline's cells
# (GHOST_MIN_CELLS at least) are steps GHOST_SIDE times steeper in the base than now,
# where the light changed within two cells by a ratio GHOST_SIDE times (in log) the
# gate's level's to the grey there. A change of light alone (a player leaning still
# over the table) is outlined in neither, and has nothing in it over the edge. Either
# held every card it had lain over for ARM_HOLD_S, and a card laid there ARM_REST_S.
# The base has steps of its own making round every change held out of it: the fringe
# of a soft change under the level is taken in at once, its core is not; the change
# beside such a step is about the level (a leaning player's shadow over a resting
# hand had its step taken for a ghost's outline, and the hand for no arm).
GHOST_SIDE = 2.0
# A placed card's spot looks as it did when the card was last read there (a card the
# recogniser misses there has not gone: MotionGate.unchanged) where fewer than a tenth
# of its cells differ by the gate's level, or by this share of the light (the greater
# grey, and 8) and this many levels: the gate's level is a seventh of a mid grey's
# light, and two fifths of a lamp's shadow's
UNCHANGED_SHARE = 0.15
UNCHANGED_FLOOR = 6
GHOST_MIN_CELLS = 4
# A change counts in the shade (the light under SHADE_SHARE of the table's grey where it
# is lit better: the gate's small copy's upper quartile) by SHADE_CHANGE of the light
# there, and UNCHANGED_FLOOR levels, as well as by the gate's level: the level is that
# share of paper's light in good light (_differs). So for motion, for the changes the
# gate offers to be read, and for a placed card's spot looking as it did
# (MotionGate.unchanged). A card on a pale laminate in a lamp's shadow was 16 levels
# over the cloth (102 against 86), a seventh of its light: taken up, its spot neither
# changed by the level nor by UNCHANGED_SHARE, it was never read again, and it lay on
# the table to the end (Skat seed 125 under the shadow probe: 14 of its 30 removals
# missed)
SHADE_SHARE = 0.75
SHADE_CHANGE = 0.075
# Where the light is clipped (the gate's grey CLIPPED or over, then or now: a lamp's
# glare off a pale laminate and the cards' paper alike) a change of more than
# CLIPPED_CHANGE levels counts, beside the clipped cells' common change (an exposure or
# the lamp dimming the whole glare alike; _clipped_change), for the changes the gate
# offers to be read and for a placed card's spot looking as it did; not for motion, nor
# for a new scene. A cell of mostly clipped pixels has little noise left, and a card's
# only trace there is its ink, washed to a few levels at the gate's scale (Skat seed
# 125 under the glare probe: a 9D's orange pips 4 to 9 levels off the white; taken up,
# its spot was never read again)
CLIPPED = 248
CLIPPED_CHANGE = 3
# An arm as grey as the table is no arm to the grey alone: a bare forearm over a honey
# wooden table is 148 grey levels over the wood's 142, and only its shadow, narrower
# than an arm's core, showed; the arm was taken into the base as it came in, and every
# card laid from that seat was placed under the hand still resting on it (the live
# check's Skat seed 108, 1.3 s early). Its colour is not the table's: each channel's
# share of the three (the chromaticity) changes by a hundredth at most under a shadow
# or a leaning player's shade (light dims every channel by one ratio), by 0.05 to
# 0.12 (blue's and red's changes summed) from wood to skin, a felt's to a hand's more.
# CHROMA_GAIN makes that sum the gate's grey levels (0.05 is 18, the level) ...
CHROMA_GAIN = 360.0
# ... less the whole picture's own shift (the median cell's where no arm lay: a
# camera's white balance following what it sees), and judged only where both pictures
# are bright enough for the shares to mean something (the three channels' sum
# CHROMA_DARK at least: a hand's own shadow on a dark felt is noise in them), and only
# where the grey did not change (what the grey sees is the grey's: a camera's tone
# curve is no pure power, and a half shadow over a saturated dark felt shifts its
# shares by 0.04, near the level). Such a change counts as the grey's do (an arm, and
# motion), and one reaching in over the edge (GHOST_MIN_CELLS of it within an arm's
# core of where it comes in) is no change of light alone (_left_behind). What the
# table's memory keeps (the cells that took a change into the base, what lay under an
# arm taken in) is the grey's alone: a camera's colour noise is no change to it.
CHROMA_DARK = 90.0
# The camera's white balance is judged against a frame BALANCE_REF_S old at most, not
# summed from frame to frame: a video codec leaves most of the picture's colour as it
# was from one frame to the next and moves it in steps, so the median cell's change
# frame to frame was mostly none, and the sum came to half the balance's real change
# (blue's gain 0.90 where the sum said 0.95: a hand resting over a wooden table, its
# colour judged against the wood under it as it looked half a second before, came
# within the level of it, and the card under the hand was placed 0.8 s early). Each
# reference is the last one's balance and the change since, measured whole.
BALANCE_REF_S = 2.0
# A camera shaken on its mount (the table knocked, a player leaning on the rail) moves
# the whole picture by a pixel or three, frame after frame: every edge on the table
# then changed by the level or more and moved, and nothing was read until the shake
# was over (a card laid in it told 0.7 to 1.6 s late). Each frame is brought back onto
# the table as it lies still (the base) first: its shift is measured at the base's
# REGISTER_POINTS steepest cells (Lucas-Kanade steps, cells whose change no shift of
# REGISTER_MAX cells could make left out: a hand, a card laid; _shift_at), and taken
# back where it is at least REGISTER_MIN cells and explains at least
# REGISTER_EXPLAINS of the change at those cells. A frame of a still camera is taken
# as it is. The cells are taken afresh from the base every REGISTER_RENEW_S.
REGISTER_POINTS = 1500
REGISTER_MIN = 0.08
REGISTER_MAX = 1.0
REGISTER_EXPLAINS = 0.3
REGISTER_RENEW_S = 1.0
# A shift that holds, within REGISTER_SETTLED cells, for REGISTER_SETTLE_S is the
# camera settled a little off (a mount that sagged, a knock that left it so), not a
# shake: the gate's pictures of the table are moved onto it once (_adopt), and the
# frames are taken as they are from then on. Taken back on every frame for good, the
# motion was judged at SHAKEN_LEVEL for good (a hand 23 levels over the felt not seen
# moving) and the markers looked at every STEADY_S. (The watcher calibrates a move of
# MOVED_PX or more afresh after its own STEADY_S, and takes the base afresh then.)
REGISTER_SETTLED = 0.05
REGISTER_SETTLE_S = 1.0
# A frame taken back is not the frame a still camera takes: its resampling, and a
# video codec's coarser coding of a picture that moved whole, leave up to 30 levels at
# sharp edges (a 4K camera's photographed faces: 20 to 60 cells a frame over the level,
# nine times as many once grown to the cells round them), and a card laid there waited
# for the shake's end as before. While a frame taken back is among those a change is
# judged against (the last frame, and LIGHT_SPAN_S), motion is a change of
# SHAKEN_LEVEL times the gate's level, in grey and in colour.
SHAKEN_LEVEL = 1.5
# + 8: black is no infinite ratio; a row, as cv2.LUT takes it
_LOG = np.log(np.arange(256, dtype=np.float32) + 8.0).reshape(1, 256)


def _steep_points(
    base: NDArray[np.uint8], count: int
) -> tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.float32]] | None:
    """The ``count`` cells of ``base`` whose grey is steepest (among every other cell
    each way, two cells off its border: a third of a millisecond for a 4608 x 2592
    frame's), as flat indices with their grey and their gradient (levels a cell, x
    and y, as rows of one array); ``None`` where the steep cells do not pin a shift
    both ways (a table of stripes) or there are too few."""
    b = base.astype(np.float32)
    gx = cv2.Sobel(b, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(b, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    h, w = b.shape
    k = 2 if h * w >= 16 * count else 1  # (a small picture's every cell)
    among = cv2.magnitude(gx, gy)[2 : h - 2 : k, 2 : w - 2 : k]
    flat = among.ravel()
    if count >= flat.size:
        return None
    pick = np.argpartition(flat, -count)[-count:]
    pick = pick[flat[pick] > 2.0]  # (2 levels a cell at least: noise is no edge)
    if pick.size < count // 4:
        return None
    iy, ix = np.divmod(pick, among.shape[1])
    idx = ((2 + k * iy) * w + 2 + k * ix).astype(np.intp)
    g = np.stack((gx.ravel()[idx], gy.ravel()[idx]))
    if not _pins_both_ways(g):
        return None
    return idx, b.ravel()[idx], g


def _shift_at(
    small: NDArray[np.uint8],
    points: tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.float32]],
    skip: NDArray[np.bool_] | None,
    level: int,
    shaking: bool = False,
) -> tuple[float, float] | None:
    """How far the picture ``small`` lies shifted from the base its ``points`` were
    taken from (cells, x and y), where a shift explains the change at them and is
    REGISTER_MIN to REGISTER_MAX cells (a quarter of REGISTER_MIN while ``shaking``: a
    shake dying away); else ``None``. ``skip``: cells left out (an
    arm over them in the last frame).

    Three Lucas-Kanade steps, each reading the picture (bicubic) where the shift so
    far puts the points (one step alone said a fifth too much: a third of a cell is
    no small shift to a blurred edge), the points the last step left more than the
    level off, or off by more than no shift of REGISTER_MAX could make before the
    first, left out (a hand moving out over the table). The shift explains the change
    where its points' change, each counted up to the gate's ``level`` (a hand's as
    much after as before), falls by REGISTER_EXPLAINS."""
    idx, then, g = points
    if skip is not None:
        keep = ~skip.ravel()[idx]
        # (an arm over most of them: too few left to pin a shift, the noise of a
        # handful of cells would be one)
        if np.count_nonzero(keep) < max(100, idx.size // 2):
            return None
        idx, then, g = idx[keep], then[keep], g[:, keep]
        if not _pins_both_ways(g):
            return None
    d = _change(small, idx, then)
    if _quiet(d, level):
        return None
    cap = float(level * level)
    use = np.abs(d) <= np.abs(g).sum(axis=0) * REGISTER_MAX + 6.0
    w = small.shape[1]
    ys, xs = np.divmod(idx, w)
    xs, ys = xs.astype(np.float32).reshape(1, -1), ys.astype(np.float32).reshape(1, -1)
    sx = sy = 0.0
    rest = d
    for _ in range(3):
        if np.count_nonzero(use) < idx.size // 4:
            return None
        gu = g[:, use]
        try:
            step = -np.linalg.solve(gu @ gu.T, gu @ rest[use])
        except np.linalg.LinAlgError:
            return None
        sx, sy = sx + float(step[0]), sy + float(step[1])
        if not np.hypot(sx, sy) <= 2 * REGISTER_MAX:
            return None
        at = cv2.remap(small, xs + sx, ys + sy, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
        rest = at.ravel().astype(np.float32) - then
        use = np.abs(rest) <= level
    least = REGISTER_MIN / 4 if shaking else REGISTER_MIN
    if not least <= np.hypot(sx, sy) <= REGISTER_MAX:
        return None
    # judged where the shift leaves the cells within the level: a leaning player's
    # shade, or a card laid, changes other cells, whatever the camera did ...
    after = float(np.minimum(rest[use] * rest[use], cap).sum())
    if after > (1.0 - REGISTER_EXPLAINS) * float(np.minimum(d[use] * d[use], cap).sum()):
        return None
    # ... and it must take off the level a quarter as many cells as it brings within
    # it at most: a camera that moves moves every cell alike, and a card slid over a
    # table of two cards had half the cells follow it and the other half left (a
    # review's find: a shift of 0.6 of a cell "explained" it). (Not that it must bring
    # cells within the level: one that leaves every steep cell within the level of the
    # base still moves the cards' edges by more than the level from the last frame,
    # shifted the other way; a second review's find.)
    was = np.abs(d) <= level
    gained = np.count_nonzero(use & ~was)
    lost = np.count_nonzero(was & ~use)
    if 4 * lost > gained:
        return None
    return sx, sy


def _change(
    small: NDArray[np.uint8], idx: NDArray[np.intp], then: NDArray[np.float32]
) -> NDArray[np.float32]:
    """How the cells ``idx`` of ``small`` differ from how they lay (``then``)."""
    return small.ravel()[idx].astype(np.float32) - then


def _differs(
    now: NDArray[np.uint8], then: NDArray[np.uint8], level: int, table: float, share: float = 0.0
) -> NDArray[np.bool_]:
    """The cells of ``now`` that differ from ``then``: by the gate's ``level``, by
    ``share`` of the light (the greater grey, and 8) and ``UNCHANGED_FLOOR`` levels,
    and in the shade (the light under ``SHADE_SHARE`` of the ``table``'s grey) by
    ``SHADE_CHANGE`` of it and as many levels."""
    # (the greys in the shade: those whose light, the grey and 8, is under the share)
    shaded = min(256, max(0, math.ceil(SHADE_SHARE * table - 8.0)))
    over = cv2.LUT(cv2.max(now, then), _least(level, shaded, share))
    return cv2.compare(cv2.absdiff(now, then), over, cv2.CMP_GT) > 0


@functools.lru_cache(maxsize=64)
def _least(level: int, shaded: int, share: float) -> NDArray[np.uint8]:
    """The change each of the 256 greys must exceed to count (:func:`_differs`): a
    threshold that is the light's own; the first ``shaded`` greys in the shade. Made
    once for each (the gate's level, the table's light and the shares are few), not
    for every comparison of every frame."""
    light = np.arange(256, dtype=np.float32) + 8.0
    ratio = np.full(256, share or np.inf, np.float32)
    ratio[:shaded] = SHADE_CHANGE
    least = np.minimum(level, np.maximum(UNCHANGED_FLOOR, np.floor(ratio * light)))
    out = least.astype(np.uint8)
    out.flags.writeable = False
    return out


def _clipped_change(
    now: NDArray[np.uint8], then: NDArray[np.uint8], differs: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """The cells where the light is clipped (the grey ``CLIPPED`` or over, then or
    now) that changed by more than ``CLIPPED_CHANGE`` levels beside the clipped cells'
    own common change (their median's, of those ``differs`` leaves out: an exposure
    or a lamp dimming the whole glare alike is no change; a hand over half of it is
    not the glare's own change)."""
    lit = cv2.max(now, then) >= CLIPPED
    if not lit.any():
        return lit
    d = cv2.subtract(now, then, dtype=cv2.CV_16S)
    calm = lit & ~differs
    common = int(np.median(d[calm])) if calm.any() else 0
    if common:  # clipped as the glare was or is, its own change undone (a pip's cell
        # dimmed with the glare, below the clip then and now, is still in it)
        lit = cv2.max(cv2.subtract(now, min(common, 0)), cv2.add(then, max(common, 0)))
        lit = lit >= CLIPPED
    return lit & (cv2.absdiff(d, common) > CLIPPED_CHANGE)


def _table_grey(small: NDArray[np.uint8]) -> float:
    """The grey of the table where it is lit better: the median of the brighter half
    of the gate's small copy (its upper quartile; cards lie thin on a table)."""
    return hist_percentile(_hist(small), small.size, 75)


def _quiet(d: NDArray[np.float32], level: int) -> bool:
    """Whether cells that changed by ``d`` (:func:`_change`) lie as they lay: 2 levels
    a cell or less on the whole, each counted up to ``level`` (nothing to explain)."""
    return float(np.minimum(d * d, float(level * level)).sum()) < 4.0 * d.size


def _pins_both_ways(g: NDArray[np.float32]) -> bool:
    """Whether gradients ``g`` (x and y rows) pin a shift both ways: the smaller
    eigenvalue of their moment a tenth of the mean of the two at least (not a table
    of stripes, nor a few cells along one edge)."""
    a = g @ g.T
    low = 0.5 * (a[0, 0] + a[1, 1] - np.hypot(a[0, 0] - a[1, 1], 2 * a[0, 1]))
    return bool(low >= 0.1 * np.trace(a) / 2)


def _shifted_back(image: NDArray[Any], sx: float, sy: float) -> NDArray[Any]:
    """``image`` (grey or colour) moved by (-``sx``, -``sy``) cells: back onto its base."""
    h, w = image.shape[:2]
    m = np.float32([[1, 0, -sx], [0, 1, -sy]])
    return cast(
        NDArray[Any],
        cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE),
    )


def _sharp(
    now: NDArray[np.uint8],
    before: NDArray[np.uint8],
    detail: float,
    sigma: float,
    reach: int,
) -> NDArray[np.uint8]:
    """1 at each cell within ``reach`` cells of a change with an edge (the change in
    log light less its blur over ``sigma`` cells is more than ``detail``, at a cell
    whose grey moved by ``SHADE_FLOOR`` levels or more): a hand, a card, a sharp
    shadow; 0 where only the light changed smoothly."""
    d = cv2.subtract(cv2.LUT(now, _LOG), cv2.LUT(before, _LOG))
    rough = cv2.absdiff(d, cv2.GaussianBlur(d, (0, 0), sigma))
    edge = cv2.threshold(rough, detail, 1.0, cv2.THRESH_BINARY)[1].astype(np.uint8)
    edge &= cv2.compare(cv2.absdiff(now, before), SHADE_FLOOR, cv2.CMP_GE) // 255
    k = 2 * reach + 1
    return cv2.dilate(edge, np.ones((k, k), np.uint8))


def _patches(
    cells: NDArray[np.uint8],
    n: int,
    labels: NDArray[np.int32],
    stats: NDArray[np.int32],
    least: int,
) -> list[tuple[int, int, int, int]]:
    """The box (x0, y0, x1, y1) of the ``cells`` of each of the ``n`` - 1 patches that
    ``labels`` marks (with ``stats``: their grown boxes), for each with ``least`` of
    them. A few patches (a card laid, a hand's trail) one at a time, within each
    one's box; many (sensor noise's specks) all at once."""
    if n <= 32:
        out = []
        for i, (gx, gy, gw, gh, _) in enumerate(stats[1:].tolist(), start=1):
            own = cv2.bitwise_and(
                cells[gy : gy + gh, gx : gx + gw],
                (labels[gy : gy + gh, gx : gx + gw] == i).view(np.uint8),
            )
            if cv2.countNonZero(own) >= least:
                x, y, w, h = cv2.boundingRect(own)
                out.append((gx + x, gy + y, gx + x + w, gy + y + h))
        return out
    ys, xs = np.nonzero(cells)
    lab = labels[ys, xs]
    count = np.bincount(lab, minlength=n)
    x0 = np.full(n, cells.shape[1])
    y0 = np.full(n, cells.shape[0])
    x1 = np.zeros(n, np.int64)
    y1 = np.zeros(n, np.int64)
    np.minimum.at(x0, lab, xs)
    np.minimum.at(y0, lab, ys)
    np.maximum.at(x1, lab, xs + 1)
    np.maximum.at(y1, lab, ys + 1)
    return [
        (int(x0[i]), int(y0[i]), int(x1[i]), int(y1[i]))
        for i in (np.nonzero(count[1:] >= least)[0] + 1).tolist()
    ]


def _chosen(labels: NDArray[np.int32], chosen: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """1 at each cell whose label is ``chosen``, else 0: a table lookup where the
    labels fit a byte (a tenth of the time of indexing by them)."""
    if len(chosen) <= 256:
        table = np.zeros(256, np.uint8)
        table[: len(chosen)] = chosen
        return cast(NDArray[np.uint8], cv2.LUT(labels.astype(np.uint8), table))
    return chosen[labels].view(np.uint8)


def _shares(
    colour: NDArray[np.uint8], balance: tuple[float, float] = (0.0, 0.0)
) -> NDArray[np.float32]:
    """Each cell's chromaticity as the gate compares it: blue's and red's shares of the
    three channels, and the three's sum (how bright the cell is), as three planes
    (``[0]``, ``[1]``, ``[2]``); blue and red divided first by the camera's white
    balance's gains against green (``balance``, in log: :func:`_balance_step`)."""
    b, g, r = (c.astype(np.float32) for c in cv2.split(colour))
    if balance[0]:
        b *= np.float32(np.exp(-balance[0]))
    if balance[1]:
        r *= np.float32(np.exp(-balance[1]))
    out = np.empty((3, *colour.shape[:2]), np.float32)
    total = cv2.add(cv2.add(b, g), r, dst=out[2])
    safe = cv2.max(total, 1.0)
    cv2.divide(b, safe, dst=out[0])
    cv2.divide(r, safe, dst=out[1])
    return out


_ONES = np.ones((3, 1), np.float32)


def _balance_step(
    now: NDArray[np.uint8], before: NDArray[np.uint8], among: NDArray[np.bool_] | None = None
) -> tuple[float, float] | None:
    """How the camera's white balance changed from ``before`` to ``now`` (two frames'
    small BGR copies): blue's and red's gains against green's, in log, the median
    cell's, sampled from every fourth cell each way, of those bright enough
    (:data:`CHROMA_DARK`), none of whose channels is clipped (at 250 or over: it does
    not follow a gain) and that ``among`` marks (on the sampled cells: the table as it
    lay then and lies now, no arm over it, the grey the same); ``None`` where those are
    under an eighth of the cells (an arm over most of the table). A balance is a gain
    on each channel (before the tone curve and after it, near enough: a power of a
    gain is a gain), so dividing it out holds every colour's shares as they were, a
    skin's as a wood's; a shift of the shares, taken off alike, moved a skin's from a
    wood's by the gain's share of their difference."""
    sampled, sampled_then = (
        np.ascontiguousarray(now[::4, ::4]),
        np.ascontiguousarray(before[::4, ::4]),
    )
    a = sampled.astype(np.float32) + 1.0
    was = sampled_then.astype(np.float32) + 1.0
    # (the channels' sums and largest as matrix products and OpenCV passes: NumPy's
    # reductions along an axis of three took three times the whole step)
    h, w = a.shape[:2]
    sums = cv2.min(a.reshape(-1, 3) @ _ONES, was.reshape(-1, 3) @ _ONES).reshape(h, w)
    bright = sums >= CHROMA_DARK
    top = cv2.max(sampled, sampled_then).reshape(-1, 3)
    bright &= cv2.max(cv2.max(top[:, 0], top[:, 1]), top[:, 2]).reshape(h, w) < 250
    if among is not None:
        bright &= among
    if 8 * np.count_nonzero(bright) < bright.size:
        return None  # a dark picture (its channels' ratios are noise), or an arm over it
    ratio = np.log(a[bright]) - np.log(was[bright])  # each channel's gain, in log
    step = np.median(ratio[:, 0] - ratio[:, 1]), np.median(ratio[:, 2] - ratio[:, 1])
    return float(step[0]), float(step[1])


def _as_then(now: NDArray[np.uint8], then: NDArray[np.uint8], level: int) -> NDArray[np.bool_]:
    """The cells whose grey changed from ``then`` to ``now`` by no more than ``level``
    (at grey 128) beside the picture's own change, as a ratio (an exposure wandering
    changes every cell by one ratio: the table lies as it lay)."""
    d = cv2.subtract(cv2.LUT(now, _LOG), cv2.LUT(then, _LOG))
    own = float(np.median(d))
    return cast(NDArray[np.bool_], cv2.absdiff(d, own) <= np.log(1.0 + level / 136.0))


def _colour_shift(
    now: NDArray[np.float32], was: NDArray[np.float32], among: NDArray[np.bool_] | None = None
) -> tuple[float, float]:
    """The whole picture's own shift of colour (:func:`_shares`) from ``was`` to ``now``:
    the median cell's, sampled from every fourth cell each way, of those ``among``
    marks where they are an eighth of them or more (the table, not an arm over half
    the picture)."""
    b = cv2.subtract(now[0, ::4, ::4], was[0, ::4, ::4])
    r = cv2.subtract(now[1, ::4, ::4], was[1, ::4, ::4])
    if among is not None:
        pick = among[::4, ::4]
        if 8 * np.count_nonzero(pick) >= pick.size:
            b, r = b[pick], r[pick]
    return float(np.median(b)), float(np.median(r))


def _tinted(
    now: NDArray[np.float32],
    was: NDArray[np.float32],
    level: float,
    shift: tuple[float, float] | None = None,
) -> tuple[NDArray[np.uint8], tuple[float, float]]:
    """1 at each cell whose colour (:func:`_shares`) changed from ``was`` to ``now`` by
    more than ``level`` (:data:`CHROMA_GAIN`), less the whole picture's own shift
    (``shift``, else :func:`_colour_shift`), where both are bright enough
    (:data:`CHROMA_DARK`); and the shift taken off."""
    if shift is None:
        shift = _colour_shift(now, was)
    db = cv2.subtract(now[0], was[0])
    dr = cv2.subtract(now[1], was[1])
    change = cv2.add(cv2.absdiff(db, shift[0]), cv2.absdiff(dr, shift[1]))
    tint = cv2.threshold(change, level / CHROMA_GAIN, 1, cv2.THRESH_BINARY)[1].astype(np.uint8)
    dark = cv2.min(now[2], was[2]) < CHROMA_DARK
    tint[dark] = 0
    return tint, shift


def _slope(grey: NDArray[np.uint8]) -> NDArray[np.float32]:
    """How steeply the grey level climbs at each cell, in levels a cell."""
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    return cast(NDArray[np.float32], (np.abs(gx) + np.abs(gy)) / 8.0)


def _left_behind(
    now: NDArray[np.uint8],
    base: NDArray[np.uint8],
    part: NDArray[np.bool_],
    edge: NDArray[np.bool_],
    took: NDArray[np.bool_],
    level: int,
    detail: float | None,
    sigma: float,
    reach: int,
    tinted: NDArray[np.bool_] | None = None,
) -> bool:
    """Is the change ``part`` (a patch where ``now`` differs from ``base``) no arm: one
    outlined in the base alone (something that lay there and has gone), or one of
    light with nothing in it over the ``edge``?

    Along the patch's outer outline (a cell either side of it, its holes filled,
    the picture's own border left out, and so the cells beside any the base ``took``
    a change into), a cell whose slope (levels a cell) is ``GHOST_SIDE`` times
    steeper in one picture than in the other counts for that picture: now where it
    climbs a quarter of ``level`` a cell; the base where it climbs half ``level``
    and the light changed within two cells by a ratio ``GHOST_SIDE`` times (in log)
    the level's to the grey there: an object's contrast, not one of the base's own
    steps round a change held out of it, which are the level at most
    (:data:`GHOST_SIDE`). A ghost is outlined ``GHOST_SIDE`` times as often in the
    base as now (and at ``GHOST_MIN_CELLS`` at least). A patch outlined now at fewer
    than ``GHOST_MIN_CELLS`` cells and a 20th of its outline, or at fewer than
    ``GHOST_MIN_CELLS`` within ``reach`` cells of where it comes in over the ``edge``
    while it is darker there now (an arm's sides run to where it comes in; a card laid
    at a still shadow's edge outlines the shadow now only round the card), is light
    where what is
    there now (the change's edges within it: the change in log light less its own
    blur over ``sigma`` cells, taken over the cells the base holds alone, so that
    their border is no edge, by more than ``detail``, where the picture now has an
    edge by as much, not the base alone; and the outline's cells steeper now) lies
    nowhere within a cell of the ``edge``: anything in it (a card
    laid in a player's still shadow) lies clear of the edge, no arm. ``detail``
    ``None``: no light test. A patch whose colour changed where its grey did not
    (``tinted``: :func:`_tinted`, less the cells the grey saw change: a card laid in
    a shadow, the shadow itself) at :data:`GHOST_MIN_CELLS` cells within ``reach`` of
    where it comes in over the edge is no change of light: an arm as grey as the
    table."""
    ring = np.ones((3, 3), np.uint8)
    # the patch's outer outline: round its holes (a card's blurred edge as grey as
    # the arm over it) the base has the card's edges, not a ghost's
    n, pieces = cv2.connectedComponents((~part).view(np.uint8), connectivity=4)
    outer = np.zeros(n, bool)
    outer[pieces[0, :]] = outer[pieces[-1, :]] = outer[pieces[:, 0]] = outer[pieces[:, -1]] = True
    filled = part | ~outer[pieces]
    filled_u8 = filled.view(np.uint8)
    outline = (cv2.dilate(filled_u8, ring) > 0) & (cv2.erode(filled_u8, ring, borderValue=1) == 0)
    outline[0, :] = outline[-1, :] = outline[:, 0] = outline[:, -1] = False
    slope_now, slope_base = _slope(now), _slope(base)
    # ... less where a change was taken into the base beside it (a finger narrower
    # than an arm's core, taken in, steps the base by the arm's whole contrast)
    beside = outline
    outline = outline & (cv2.dilate(took.view(np.uint8), ring) == 0)
    if not outline.any():
        # every cell of it beside a change taken in (a leaning player's soft shadow,
        # its fringe taken into the base all round as it deepened, the base holding
        # the table as it lay within): no ghost to judge. Outlined now along it (an
        # arm's sides, steeper now than the base beside them), an arm; else judged
        # by its light below (the live check's seed 122: a show row gathered under
        # such a shadow was covered by it, as a resting arm, for 2 s)
        if detail is None:
            return False
        a, b = slope_now[beside], slope_base[beside]
        sides = int(np.count_nonzero((a >= level / 4.0) & (a > b)))
        if sides >= max(GHOST_MIN_CELLS, len(a) / 20):
            return False
    a, b = slope_now[outline], slope_base[outline]
    log_now = cv2.LUT(now, _LOG)
    d = cv2.subtract(log_now, cv2.LUT(base, _LOG))  # the change in log light
    # the most the light changed within two cells, as a ratio: an object's contrast
    # where one lay; where the base stepped on its own, the level's ratio to the
    # grey beside the step at most (a change of light, and a card's edge in it, is
    # one ratio over a card and the cloth alike)
    near = cv2.dilate(cv2.absdiff(d, 0.0), np.ones((5, 5), np.uint8))[outline]
    grey = now[outline].astype(np.float32) + 8.0
    step = np.log(grey / np.maximum(grey - level, 1.0))
    by_now = (a >= level / 4.0) & (a > GHOST_SIDE * b)
    in_now = int(np.count_nonzero(by_now))
    by_base = (b >= level / 2.0) & (b > GHOST_SIDE * a) & (near >= GHOST_SIDE * step)
    in_base = int(np.count_nonzero(by_base))
    if in_base >= GHOST_MIN_CELLS and in_base > GHOST_SIDE * in_now:
        return True  # something that lay there has gone
    if detail is None:
        return False
    k = 2 * reach + 1
    entry = cv2.dilate((edge & part).view(np.uint8), np.ones((k, k), np.uint8)) > 0
    if tinted is not None and np.count_nonzero(tinted & part & entry) >= GHOST_MIN_CELLS:
        return False  # a colour not the table's comes in over the edge: an arm
    if in_now >= max(GHOST_MIN_CELLS, len(a) / 20):
        # outlined now: something there, an arm; but where what comes in over the edge
        # is a shadow (darker now) outlined nowhere near where it comes in, the outline
        # is of what lies in it (a card laid at its edge), judged below with the light.
        # A sleeve lighter than the table, its sides soft, is an arm as it was
        if np.count_nonzero(by_now & entry[outline]) >= GHOST_MIN_CELLS:
            return False
        coming = part & entry
        if not coming.any() or float(d[coming].mean()) >= 0.0:
            return False
    # the cells the base has held (the rest of the patch, its fringe under the level,
    # was taken into it: no change there, and a step of the base's own making)
    held = part & (cv2.absdiff(now, base) > level // 2)
    weight = held.astype(np.float32)
    blur_w = cv2.GaussianBlur(weight, (0, 0), sigma)
    smooth = cv2.GaussianBlur(d * weight, (0, 0), sigma) / np.maximum(blur_w, 1e-6)
    # something there now: an edge within the change, or outlining it now
    # (less the base's own steps, steeper in it than now: the fringe of an arm's
    # shadow taken into it while the arm lay there, left along where it lay)
    thing = held & (cv2.absdiff(d, smooth) > detail) & ~(slope_base > GHOST_SIDE * slope_now)
    # ... that shows now: an edge of the picture now, not of the base alone (an arm
    # that rested over a show row in a lamp's shadow was taken into the base, and
    # left with the row: its checked sleeve's pattern, in the base alone, was
    # "something" at the table's edge, an arm, over the emptied row until the end)
    thing &= cv2.absdiff(log_now, cv2.GaussianBlur(log_now, (0, 0), sigma)) > detail
    thing[outline] |= by_now
    if not thing.any():
        return True  # a change of light alone
    # ... an arm where it lies over the edge (a cell round it); a card laid in the
    # light alone (a player leaning still over the card they laid) is no arm
    return not bool((edge & part & (cv2.dilate(thing.view(np.uint8), ring) > 0)).any())


@dataclass(frozen=True)
class Look:
    """What the gate says of one frame: read it whole (``full``), or these
    ``regions`` (boxes in the frame's pixels, on the gate's grid) that changed since
    they were last read and lie still now; ``sweep``, on a frame with nothing else
    to read, a tile of the frame due for reading afresh."""

    full: bool
    regions: tuple[Box, ...] = ()
    sweep: Box | None = None


class MotionGate:
    def __init__(
        self,
        *,
        shrink: int = 8,
        level: int = 18,
        min_cells: int = 2,
        refresh_s: float = 10.0,
        tiles: tuple[int, int] = (6, 6),
        memory_s: float = 0.15,
        new_scene: float = 0.5,
        stills: bool = False,
        shade: float | None = SHADE_DETAIL,
    ) -> None:
        self.shrink = shrink
        self.level = level
        self.min_cells = min_cells
        self.refresh_s = refresh_s
        self.tiles = tiles
        self.memory_s = memory_s
        self.new_scene = new_scene
        # frames that are photographs, not a video (a folder): each shows for one frame,
        # so a change is read at once, without waiting for it to lie still
        self.stills = stills
        self.shade = shade
        # the camera's pixels per millimetre of table (the caller sets it once the
        # table is calibrated): the shade test's lengths in cells; None: the
        # recommended mounting's
        self.px_per_mm: float | None = None
        self.frame_shape: tuple[int, int] | None = None
        #: this frame's shift from the table as it lies still, in the gate's cells (x,
        #: y), where the camera was shaken and the frame was taken back by it; None
        self.shaken: tuple[float, float] | None = None
        self._shaken_at = -np.inf  # when a frame was last taken back (SHAKEN_LEVEL)
        # the newest frame whose copy _adopt moved (SHAKEN_LEVEL while judged against)
        self._adopted_at = -np.inf
        #: the shift this frame adopted as the camera settled there (cells), else None
        self.settled: tuple[float, float] | None = None
        # since when the shift has held (within REGISTER_SETTLED), and it
        self._settling: tuple[float, float, float] | None = None
        self._previous_t: float | None = None
        # when the base's steepest cells were taken (REGISTER_RENEW_S), and they
        self._register: (
            tuple[
                float,
                tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.float32]] | None,
            ]
            | None
        ) = None
        self._reference: NDArray[np.uint8] | None = None
        self._previous: NDArray[np.uint8] | None = None
        self._small_now: NDArray[np.uint8] | None = None
        # the frame's colour on the same grid (_colour, BGR: None for a grey one); the
        # camera's white balance since the first frame (blue's and red's gains against
        # green's, in log: _balance_step, against a reference frame, BALANCE_REF_S),
        # and the frame's colour's shares with that balance divided out (what the base
        # holds: a cell held out of the base for seconds, under an arm, is judged
        # against the table as it would look now, not as the camera saw it then); the
        # base's, and what lay under an arm taken into the base
        self._colour_raw: NDArray[np.uint8] | None = None
        self._balance = (0.0, 0.0)
        # the frame the balance is judged against (its colour; its grey and the cells
        # no arm lay over then, None all, at every fourth cell each way), the balance
        # then, and when (BALANCE_REF_S; None: the next frame)
        self._balance_ref: (
            tuple[
                NDArray[np.uint8],
                NDArray[np.uint8],
                NDArray[np.bool_] | None,
                tuple[float, float],
                float,
            ]
            | None
        ) = None
        self._colour_held: NDArray[np.float32] | None = None
        self._colour_base: NDArray[np.float32] | None = None
        self._colour_under: NDArray[np.float32] | None = None
        # when each cell last changed by the gate's level, and when with an edge (not
        # a change of light alone: shade)
        self._last_moved: NDArray[np.float64] | None = None
        self._last_stirred: NDArray[np.float64] | None = None
        # the small copies of the last LIGHT_SPAN_S and the one before (_span_back)
        self._history: list[tuple[float, NDArray[np.uint8]]] = []
        # since when each cell read beside a moving hand has been held back from the
        # reference (mark_read's clear_px); NaN: not held
        self._held_since: NDArray[np.float64] | None = None
        # the table's grey where it is lit better, in the last frame looked at (_differs)
        self._table_lit = 0.0
        self._read_at: NDArray[np.float64] | None = None
        # the table as it lies still, an arm resting over it left out (_arms), the
        # cells an arm lies over now, and since when each has
        self._base: NDArray[np.uint8] | None = None
        self._arm: NDArray[np.bool_] | None = None
        self._arm_still: NDArray[np.bool_] | None = None  # of arms nothing of which moves now
        # since when each cell has been of an arm nothing of which moves (NaN: not)
        self._still_since: NDArray[np.float64] | None = None
        self._arm_since: NDArray[np.float64] | None = None
        self._arm_seen: NDArray[np.float64] | None = None  # when each cell last was one
        # the cells that took a change by the gate's level into the base since it was
        # taken (a card laid, a finger narrower than an arm's core beside a resting palm)
        self._took = np.zeros((0, 0), bool)
        # the table an arm taken into the base after ARM_HOLD_S lay over, where it did:
        # seen again, the arm has gone
        self._under: NDArray[np.uint8] | None = None
        self._under_set: NDArray[np.bool_] | None = None
        # the cells of the small copy that lie off the table (the caller sets them once
        # the table is calibrated); None: the picture's border alone
        self.outside: NDArray[np.bool_] | None = None
        # the last edge made (_edge), with the shape and outside it was made for, and
        # its cells' flat indices
        self._edges: (
            tuple[tuple[int, int], NDArray[np.bool_] | None, NDArray[np.bool_], NDArray[np.intp]]
            | None
        ) = None

    def _small(
        self, image: NDArray[np.uint8] | Picture, given: NDArray[np.uint8] | None = None
    ) -> NDArray[np.uint8]:
        h, w = image.shape[:2]
        size = (max(1, w // self.shrink), max(1, h // self.shrink))
        if given is not None:  # the camera's own small stream, grey (or in colour)
            gray = cv2.cvtColor(given, cv2.COLOR_BGR2GRAY) if given.ndim == 3 else given
        elif isinstance(image, Picture):  # its eighth-size grey copy, which the reading shares
            gray = image.eighth
        else:
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        if gray.shape[::-1] != size:
            gray = cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(gray, (3, 3), 0)

    def _colour(
        self,
        image: NDArray[np.uint8] | Picture,
        given: NDArray[np.uint8] | None,
        size: tuple[int, int],
    ) -> NDArray[np.uint8] | None:
        """The frame's colour at the small copy's ``size`` (BGR, for :func:`_shares`):
        the camera's small stream where it is in colour; the picture's quarter-size
        colour halved where the grey small copy was made from it (a fifth of a
        millisecond for a 4608 x 2592 frame), blurred as the grey is; else four pixels
        of one row a cell (about a millisecond for a 2688 x 2688 frame fresh from the
        camera, not in the processor's cache: every eighth row is read), evened over
        5 x 5 cells. ``None`` for a grey frame. A camera's small stream of another size
        than the gate's (the Pi's is made even: 506 cells for a 4056-pixel side, not
        507) is brought to it as its grey is, not sampled as a frame is."""
        if given is not None and given.ndim == 3:
            colour = given
            if colour.shape[1::-1] != size:
                colour = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
        elif isinstance(image, Picture) and image.eighth_colour is not None:
            colour = image.eighth_colour
        else:
            colour = image.image if isinstance(image, Picture) else image
        if colour.ndim != 3 or colour.shape[2] != 3:
            return None
        if colour.shape[1::-1] != size:
            # every other pixel of one row a cell, four a cell averaged (the row's
            # memory is read anyway: a fraction of the grey's means' time; colour
            # changes broadly), evened over 5 x 5 cells: a dim table's sensor noise (5
            # levels a pixel, the three channels' sum 200) then changes a cell's
            # shares by about half the level at most, frame to frame (one pixel a
            # cell, 3 x 3: within a tenth of it)
            w, h = size
            row = cv2.resize(colour, (4 * w, h), interpolation=cv2.INTER_NEAREST)
            colour = cv2.resize(row, size, interpolation=cv2.INTER_AREA)
            return cast(NDArray[np.uint8], cv2.blur(colour, (5, 5)))
        return cast(NDArray[np.uint8], cv2.GaussianBlur(colour, (3, 3), 0))

    def look(
        self,
        t: float,
        image: NDArray[np.uint8] | Picture,
        small: NDArray[np.uint8] | None = None,
        small_colour: NDArray[np.uint8] | None = None,
    ) -> Look:
        """Take the next frame taken at ``t`` (BGR, its grey copy, or a
        :class:`~vision.proposals.Picture` of it); say what to read. ``small`` is a
        grey copy of the frame the camera made itself (any size; it is brought to an
        ``shrink``-th of the frame; or in colour): then the frame itself is sampled
        only for its colour (:meth:`_colour`), unless the camera gave that too
        (``small_colour``, BGR, of the small copy's size: the Pi camera's small stream
        in colour): then the gate reads nothing of the frame."""
        given = small
        small = self._small(image, given)
        raw = self._colour(
            image, small_colour if small_colour is not None else given, small.shape[::-1]
        )
        if t < max(self._shaken_at, self._adopted_at):  # (a replay started again)
            self._shaken_at, self._adopted_at, self._settling = -np.inf, -np.inf, None
        self.settled = None
        self.shaken = self._shaken(t, small)
        if self.shaken is None:
            self._settling = None
        else:
            settling = self._settling
            if (
                settling is None
                or np.hypot(self.shaken[0] - settling[1], self.shaken[1] - settling[2])
                > REGISTER_SETTLED
            ):
                self._settling = (t, *self.shaken)
            elif t - settling[0] >= REGISTER_SETTLE_S:  # settled there: no shake
                self._adopt(*self.shaken)
                self.settled, self.shaken = self.shaken, None
        if self.shaken is not None:
            self._shaken_at = t
        back = self._span_back(t)
        level = self._moving_level(t, back is not None)
        if self.shaken is not None:  # back onto the table as it lies still
            small = _shifted_back(small, *self.shaken)
            if raw is not None:
                raw = _shifted_back(raw, *self.shaken)
        before, self._colour_raw = self._colour_raw, raw
        was, self._colour_held = self._colour_held, None
        hue: tuple[NDArray[np.uint8], tuple[float, float]] | None = None
        if raw is not None:
            ref = self._balance_ref
            if before is None or before.shape != raw.shape:
                self._balance, ref = (0.0, 0.0), None
            # (every fourth cell each way: what _balance_step samples)
            free = self._table_then(small.shape)  # (no arm over the table: None)
            grey = small[::4, ::4]
            free = None if free is None else free[::4, ::4]
            if ref is None or ref[0].shape != raw.shape:
                self._balance_ref = (raw, grey.copy(), free, self._balance, t)
            else:  # the white balance now: the reference's, and its change since,
                # judged where the table lies as it lay then, no arm over it then or now
                among = _as_then(grey, ref[1], self.level)
                for clear in (free, ref[2]):
                    if clear is not None:
                        among &= clear
                step = _balance_step(raw, ref[0], among)
                if step is not None:
                    self._balance = (ref[3][0] + step[0], ref[3][1] + step[1])
                    # (renewed only from a balance measured: one kept while none could
                    # be, the table too dark or under arms, was a reference's for good)
                    if t - ref[4] >= BALANCE_REF_S:
                        self._balance_ref = (raw, grey.copy(), free, self._balance, t)
            held = _shares(raw, self._balance)
            if was is not None and was.shape == held.shape:
                # the colour's change since the last frame, less what is left of the
                # picture's own shift
                hue = _tinted(held, was, level)
            self._colour_held = held
        self.frame_shape = (int(image.shape[0]), int(image.shape[1]))
        moving_now = np.zeros(small.shape, np.uint8)
        # the table's grey where it is lit better, that the shade is judged against
        table = self._table_lit = _table_grey(small)
        if self._previous is not None and self._previous.shape == small.shape:
            # (in the shade by a share of the light there, as a change lying still is:
            # a hand carrying a card in over a lamp's shadow on wood, 12 levels off the
            # table, was no motion, and the card in it was read lying at the table's
            # edge once its region was offered: _differs)
            moving = _differs(small, self._previous, level, table).astype(np.uint8)
            hued = None
            if hue is not None:
                # an arm as grey as the table moves where its colour does (CHROMA_GAIN):
                # no change of light
                hued = hue[0]
                moving |= hued
            moving_now = cv2.dilate(moving, np.ones((3, 3), np.uint8))
            if self._last_moved is None or self._last_moved.shape != small.shape:
                self._last_moved = np.full(small.shape, -np.inf, np.float64)
                self._last_stirred = self._last_moved.copy()
            assert self._last_stirred is not None
            self._last_moved[moving_now > 0] = t
            if back is not None and back.shape == small.shape:
                # a change too slow for one frame of a fast camera, over LIGHT_SPAN_S
                slow = _differs(small, back, level, table).astype(np.uint8)
                self._last_moved[cv2.dilate(slow, np.ones((3, 3), np.uint8)) > 0] = t
            stirred = moving_now
            if self.shade is not None and moving.any():
                sharp = _sharp(
                    small,
                    self._previous,
                    self.shade,
                    self._cells(SHADE_SIGMA_MM),
                    max(1, round(self._cells(SHADE_REACH_MM))),
                )
                edged = moving & sharp if hued is None else (moving & sharp) | hued
                stirred = cv2.dilate(edged, np.ones((3, 3), np.uint8))
            self._last_stirred[stirred > 0] = t
        self._previous, self._previous_t = small, t
        self._small_now = small
        self._history.append((t, small))
        if self._reference is None or self._reference.shape != small.shape:
            self._reference = None
            self._base = None
            self._arms(t, small, moving_now)
            return Look(full=True)
        changed = _differs(small, self._reference, self.level, table)
        if np.count_nonzero(changed) > self.new_scene * changed.size:
            # most of the picture is new (another photo of a folder, the light switched
            # on, the camera knocked): read it whole, moving or not (the balance's
            # reference kept: a light switched on changes every cell by one ratio,
            # _as_then, and the balance with it)
            self._base = None
            self._arms(t, small, moving_now)
            return Look(full=True)
        self._arms(t, small, moving_now)
        # (where the light is clipped by a few levels: not for the new scene above, an
        # exposure's dip over a table clipped white whole is no new picture)
        changed |= _clipped_change(small, self._reference, changed)
        still = (changed if self.stills else changed & (moving_now == 0)).astype(np.uint8)
        regions: list[Box] = []
        if still.any():
            # one region per patch of change; bits within a cell or two of each other are one
            grown = cv2.dilate(still, np.ones((3, 3), np.uint8))
            n, labels, stats, _ = labelled(grown)
            regions = [self._box(*b) for b in _patches(still, n, labels, stats, self.min_cells)]
        sweep = None if regions else self._due_tile(t)
        return Look(full=False, regions=tuple(regions), sweep=sweep)

    def _arms(self, t: float, small: NDArray[np.uint8], moving_now: NDArray[np.uint8]) -> None:
        """Bring the table as it lies still (``_base``) and the arms over it
        (``_arm``) up to this frame: every change from the base whose broad core
        (``ARM_CORE_MM``) reaches the picture's border or the cells off the table
        (:attr:`outside`), joined to it through parts that broad, is an arm, moving
        or resting, and stays out of the base for ``ARM_HOLD_S`` at most (what lay
        under it kept, to take back when it is seen again); every other cell that
        does not move now is the table as it lies (a card laid, a card taken away,
        the light drifting). A fresh base (the first frame, a new scene, the camera
        moved: :meth:`reset_base`) is the frame as it is."""
        if self.stills:
            return  # a folder's photographs: no hand rests over one
        base = self._base
        colour = self._colour_held
        cbase = self._colour_base
        if colour is None:  # a grey frame: the colour base is of no frame now
            self._colour_base = self._colour_under = cbase = None
        elif cbase is None or cbase.shape != colour.shape:
            cbase = None  # (the base taken from a grey frame: taken afresh below)
        if base is None or base.shape != small.shape or (colour is not None and cbase is None):
            self._colour_base = None if colour is None else colour.copy()
            self._colour_under = None if colour is None else colour.copy()
            self._base = small.copy()
            self._arm = np.zeros(small.shape, bool)
            self._arm_still = self._arm
            self._arm_since = np.full(small.shape, np.nan, np.float64)
            self._still_since = np.full(small.shape, np.nan, np.float64)
            self._arm_seen = None
            self._took = np.zeros(small.shape, bool)
            self._under = small.copy()
            self._under_set = np.zeros(small.shape, bool)
            return
        assert self._arm_since is not None and self._under is not None
        # a cell that was an arm within ARM_BREAK_S is not taken into the base yet
        seen = self._arm_seen
        if seen is None or seen.shape != small.shape:
            seen = self._arm_seen = np.full(small.shape, -np.inf, np.float64)
        was = seen > t - ARM_BREAK_S
        assert self._under_set is not None
        under, under_set = self._under, self._under_set
        cunder = self._colour_under if cbase is not None else None
        shift = None
        if colour is not None and cbase is not None:
            shift = _colour_shift(colour, cbase, self._table_then(small.shape))
        if under_set.any():  # an arm taken into the base has gone: the table as it was
            back = under_set & (cv2.absdiff(small, under) <= self.level)
            if cunder is not None and colour is not None and cbase is not None:
                back &= _tinted(colour, cunder, self.level, shift)[0] == 0
                cbase[:, back] = colour[:, back]
            base[back] = small[back]
            under_set[back] = False
        # (grey: what the table's own memory, _took and under, is kept by)
        grey = cv2.threshold(cv2.absdiff(small, base), self.level, 1, cv2.THRESH_BINARY)[1]
        diff, tint = grey, None
        if colour is not None and cbase is not None:
            # where the colour changed and the grey did not, a cell from where it did
            # (an arm as grey as the table, CHROMA_GAIN): a card laid, a shadow, and
            # their soft edges, are the grey's
            tint = _tinted(colour, cbase, self.level, shift)[0]
            tint &= 1 - cv2.dilate(grey, np.ones((3, 3), np.uint8))
            diff = grey | tint
        if not cv2.countNonZero(diff):  # the table as it lies, moving or not: no arm
            if self._arm is None or self._arm.shape != small.shape or self._arm.any():
                self._arm = self._arm_still = np.zeros(small.shape, bool)
            self._arm_since.fill(np.nan)  # (an arm taken in last frame too)
            if self._still_since is not None:
                self._still_since.fill(np.nan)
            np.copyto(base, small, where=moving_now == 0)
            if cbase is not None and colour is not None:
                np.copyto(cbase, colour, where=(moving_now == 0)[None])
            return
        arm = still = np.zeros(small.shape, bool)
        # bits a cell apart are one change (a sleeve's fold, a shadow's edge)
        grown = cv2.dilate(diff, np.ones((3, 3), np.uint8))
        k = self._core_cells()
        core = cv2.morphologyEx(grown, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        edge, at_edge = self._edge(small.shape)
        if core.ravel()[at_edge].any():
            # the broad changes that reach the edge, joined by broad parts alone (a
            # codec's thin trail joined a row of cards taken away to the border, and
            # their spots were an arm until the trail faded), and what changed within
            # ARM_JOIN_MM of them
            n, labels, stats, _ = labelled(core)
            reached = np.zeros(n, bool)
            reached[labels.ravel()[at_edge]] = True
            reached[0] = False  # (the change's outside)
            ring = self._join_ring()
            # (0 or 1 each: as bool, without a copy)
            arm = cv2.bitwise_and(cv2.dilate(_chosen(labels, reached), ring), grown).view(bool)
            # ... and those of them nothing of which moves in this frame
            reached[labels[moving_now > 0]] = False
            still = cv2.bitwise_and(cv2.dilate(_chosen(labels, reached), ring), grown).view(bool)
            if still.any():
                # ... less those that are no arm: one that was in the base and has gone
                # (in the picture when the base was taken), a change of light alone
                left = self._no_arm(small, base, labels, stats, reached, grown, edge, tint)
                if left is not None:
                    arm &= ~left
                    still &= ~left
        since = self._arm_since
        np.copyto(since, np.nan, where=~arm & ~was)  # (an arm in a break keeps its time)
        table = ~arm & ~was & (moving_now == 0)
        stale = None
        if arm.any():
            np.copyto(since, t, where=arm & np.isnan(since))
            age = t - since  # (NaN off the arms: every test of it false)
            # an arm resting longer than ARM_HOLD_S: the table as it is now
            stale = arm & (age >= ARM_HOLD_S)
            if stale.any():
                arm &= ~stale
                since[stale] = np.nan  # an arm there again (the elbow moving) starts afresh
                table |= stale
            else:
                stale = None
            still = still & arm & (age < ARM_REST_S)
            seen[arm] = t
        # what lay under an arm taken into the base; a change taken in otherwise is the
        # table now, whatever lay there before
        if stale is not None:
            under_set[table & ~stale & (grey > 0)] = False
            new = stale & ~under_set  # (taken in a second time: what lay under it stays)
            under[new] = base[new]
            if cunder is not None and cbase is not None:
                cunder[:, new] = cbase[:, new]
            under_set[new] = True
        elif under_set.any():
            under_set[table & (grey > 0)] = False
        self._took |= table & (grey > 0)
        np.copyto(base, small, where=table)
        if cbase is not None and colour is not None:
            np.copyto(cbase, colour, where=table[None])
        # resting: still for ARM_STILL_S (a frame's time short of it: frame times are
        # not exact)
        rest = self._still_since
        if rest is None or rest.shape != small.shape:
            rest = self._still_since = np.full(small.shape, np.nan, np.float64)
        self._arm = arm
        if still.any():
            np.copyto(rest, np.nan, where=~still)
            np.copyto(rest, t, where=still & np.isnan(rest))
            self._arm_still = still & (t - rest >= ARM_STILL_S - 1e-6)
        else:  # (most frames: no arm at rest, and no work over the grid for it)
            rest.fill(np.nan)
            self._arm_still = still

    def _moving_level(self, t: float, span: bool) -> int:
        """The change that is motion from the frames this one is judged against (the
        last one, and with ``span`` the one LIGHT_SPAN_S back, the first of the history
        :meth:`_span_back` left: ``SHAKEN_LEVEL``)."""
        if self._previous_t is None:
            return self.level
        since = min(self._history[0][0], self._previous_t) if span else self._previous_t
        moved = max(self._shaken_at, self._adopted_at)
        return round(self.level * SHAKEN_LEVEL) if moved >= since else self.level

    def _adopt(self, sx: float, sy: float) -> None:
        """The camera settled (``sx``, ``sy``) cells off: the gate's pictures of the
        table (its base, what lay under arms, the reference, the last frames, their
        colour) moved onto where it lies now (REGISTER_SETTLE_S)."""
        for name in ("_base", "_under", "_reference", "_previous", "_small_now", "_colour_raw"):
            now = getattr(self, name)
            if now is not None:
                setattr(self, name, _shifted_back(now, -sx, -sy))
        for name in ("_colour_held", "_colour_base", "_colour_under"):
            now = getattr(self, name)  # (the shares, channel first)
            if now is not None:
                setattr(self, name, np.stack([_shifted_back(c, -sx, -sy) for c in now]))
        self._history = [(u, _shifted_back(h, -sx, -sy)) for u, h in self._history]
        self._balance_ref = None  # (taken afresh from this frame, the balance kept)
        self._register = None
        self._shaken_at, self._settling = -np.inf, None
        # (the copies moved are resampled: judged at SHAKEN_LEVEL while among those this
        # frame and the next are judged against, as a frame taken back is)
        self._adopted_at = -np.inf if self._previous_t is None else self._previous_t

    def _shaken(self, t: float, small: NDArray[np.uint8]) -> tuple[float, float] | None:
        """How far this frame lies shifted from the base (cells), where the camera
        was shaken (REGISTER_MIN); ``None`` where it lies on it (or there is no base
        to judge by)."""
        base = self._base
        if self.stills or base is None or base.shape != small.shape:
            self._register = None
            return None
        points = self._register
        # while it shakes, and REGISTER_RENEW_S after: the cells kept as they were
        # taken before the shake, and a shift down to a quarter of REGISTER_MIN taken
        # back. Frames of a shake dying away, under REGISTER_MIN, were taken into the
        # base as they lay, and the cells taken afresh from it: the still camera's
        # frames after the shake were then "shifted" from it, a tenth of a cell, and
        # taken back on every frame for good (the knocked seed 112: 2,251 of 2,412)
        lately = 0 <= t - self._shaken_at < REGISTER_RENEW_S
        if points is None or (not lately and not 0 <= t - points[0] < REGISTER_RENEW_S):
            if points is not None and points[1] is not None:
                idx, then, _ = points[1]
                if _quiet(_change(small, idx, then), self.level):
                    return None  # (a table lying as it lay: the old cells serve)
            self._register = points = (t, _steep_points(base, REGISTER_POINTS))
        if points[1] is None:
            return None
        arm = self._arm
        skip = arm if arm is not None and arm.shape == small.shape else None
        return _shift_at(small, points[1], skip, self.level, lately)

    def _table_then(self, shape: tuple[int, ...]) -> NDArray[np.bool_] | None:
        """The cells no arm lay over in the last frame (``None``: none did, or it was
        of another size): where the picture's own shift of colour is judged
        (:func:`_tinted`)."""
        arm = self._arm
        return None if arm is None or arm.shape != shape or not arm.any() else ~arm

    def _no_arm(
        self,
        small: NDArray[np.uint8],
        base: NDArray[np.uint8],
        labels: NDArray[np.int32],
        stats: NDArray[np.int32],
        still: NDArray[np.bool_],
        grown: NDArray[np.uint8],
        edge: NDArray[np.bool_],
        tint: NDArray[np.uint8] | None = None,
    ) -> NDArray[np.bool_] | None:
        """The cells of the resting arms (the cores ``still`` marks among ``labels``)
        that are no arm (:func:`_left_behind`, each with a window round its core's
        box, ``stats``); ``None``
        where all are. An arm lying over the table now has its outline in this
        frame; an arm that was in the picture when the base was taken, and has gone,
        leaves a change of the same shape whose outline lies in the base alone: the
        table is as it is now, and the base takes it, not after ``ARM_HOLD_S``. A
        change of light alone (a player's head and shoulders leaning still over the
        table, a lamp) with nothing in it over the edge is no arm either."""
        sigma = self._cells(SHADE_SIGMA_MM)
        reach = self._core_cells()
        ring = self._join_ring()  # (the arm's cells round its core, as _arms takes them)
        pad = int(3 * sigma) + 2 + ring.shape[0] // 2
        h, w = small.shape
        left = None
        for i in np.nonzero(still)[0].tolist():
            bx, by, bw, bh = (int(v) for v in stats[i, :4])
            y0, y1 = max(0, by - pad), min(h, by + bh + pad)
            x0, x1 = max(0, bx - pad), min(w, bx + bw + pad)
            core = (labels[y0:y1, x0:x1] == i).view(np.uint8)
            part = (cv2.dilate(core, ring) > 0) & (grown[y0:y1, x0:x1] > 0)
            now, was = small[y0:y1, x0:x1], base[y0:y1, x0:x1]
            near_edge, took = edge[y0:y1, x0:x1], self._took[y0:y1, x0:x1]
            tinted = None if tint is None else tint[y0:y1, x0:x1].view(bool)
            if _left_behind(
                now, was, part, near_edge, took, self.level, self.shade, sigma, reach, tinted
            ):
                if left is None:
                    left = np.zeros((h, w), bool)
                left[y0:y1, x0:x1] |= part
        return left

    def _cells(self, mm: float) -> float:
        """``mm`` of table in the gate's cells (at :attr:`px_per_mm`, or the
        recommended mounting's before the table is calibrated)."""
        return mm * (self.px_per_mm or SHADE_PX_PER_MM) / self.shrink

    def _join_ring(self) -> NDArray[np.uint8]:
        """The square that grows an arm's core by ``ARM_JOIN_MM`` (one cell at least)."""
        j = max(1, round(self._cells(ARM_JOIN_MM)))
        return np.ones((2 * j + 1, 2 * j + 1), np.uint8)

    def _core_cells(self) -> int:
        """An arm's core's breadth (``ARM_CORE_MM``) in the gate's cells."""
        return max(3, round(self._cells(ARM_CORE_MM)))

    def reset_base(self) -> None:
        """Take the next frame for the table as it lies (the camera moved: what lay
        still lies elsewhere in the picture now), and the white balance's reference
        (the balance kept)."""
        self._base = None
        self._balance_ref = None
        self._register = None
        self._shaken_at, self._adopted_at, self._settling = -np.inf, -np.inf, None

    def _edge(self, shape: tuple[int, int]) -> tuple[NDArray[np.bool_], NDArray[np.intp]]:
        """The cells an arm comes in over: the picture's border, and what lies off
        the table (:attr:`outside`); and their flat indices."""
        outside = self.outside if self.outside is not None and self.outside.shape == shape else None
        if self._edges is not None:
            was_shape, was_outside, edge, flat = self._edges
            if was_shape == shape and was_outside is outside:
                return edge, flat
        edge = np.zeros(shape, bool)
        edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
        if outside is not None:
            edge |= outside
        self._edges = (shape, outside, edge, np.flatnonzero(edge))
        return edge, self._edges[3]

    def arm_in(self, box: Box) -> bool:
        """Does an arm (moving or resting) lie over any of the gate's cells in ``box``
        (the frame's pixels) now? (``bench/vision.py --only live`` sorts the frames
        that read a change by it: a card laid clear of any hand, or a change read with
        the resting arm beside it.)"""
        arm = self._arm
        if arm is None:
            return False
        s = self.shrink
        x0, y0, x1, y1 = box
        cells = arm[max(0, y0 // s) : max(0, -(-y1 // s)), max(0, x0 // s) : max(0, -(-x1 // s))]
        return bool(cells.any())

    def arm_over(self, cells: NDArray[np.bool_]) -> bool:
        """Does an arm (moving or resting: ``ARM_HOLD_S``) lie over any of ``cells``
        (a mask of the gate's grid: a zone of the table) now?"""
        arm = self._arm
        return arm is not None and arm.shape == cells.shape and bool((arm & cells).any())

    def arm_near(
        self, x_px: float, y_px: float, *, radius_px: float | None = None, still: bool = False
    ) -> bool:
        """Does an arm (moving or resting: ``ARM_HOLD_S``) lie within ``radius_px``
        (default: three cells) of this pixel now? With ``still``, an arm nothing of
        which moves in this frame: a hand resting on a card (a card in it, held still
        over the table, is not laid yet), not one going out, its player's broad
        shadow still over the card it left."""
        cells = self._near(self._arm_still if still else self._arm, x_px, y_px, radius_px)
        return cells is not None and bool(cells.any())

    def _near(
        self, grid: NDArray[Any] | None, x_px: float, y_px: float, radius_px: float | None
    ) -> NDArray[Any] | None:
        """The cells of one of the gate's grids within ``radius_px`` (default: three
        cells) of a pixel; ``None`` where there is no grid or no cell there."""
        if grid is None:
            return None
        h, w = grid.shape
        r = 3 if radius_px is None else max(1, round(radius_px / self.shrink))
        cx, cy = int(x_px / self.shrink), int(y_px / self.shrink)
        x0, x1 = max(0, cx - r), min(w, cx + r + 1)
        y0, y1 = max(0, cy - r), min(h, cy + r + 1)
        return grid[y0:y1, x0:x1] if x0 < x1 and y0 < y1 else None

    def _span_back(self, t: float) -> NDArray[np.uint8] | None:
        """The newest small copy taken ``LIGHT_SPAN_S`` or more before ``t``, where it is
        not the last frame's (a camera faster than one frame in that span); older
        ones are dropped."""
        del self._history[: max(0, len(self._history) - HISTORY)]
        past = [i for i, (u, _) in enumerate(self._history) if t - u >= LIGHT_SPAN_S - SPAN_SLACK_S]
        if not past:
            return None
        del self._history[: past[-1]]
        # the last frame's alone: the frame-to-frame change has judged it already
        return self._history[0][1] if len(self._history) > 1 else None

    def _box(self, cx0: int, cy0: int, cx1: int, cy1: int) -> Box:
        """Cells of the small copy as a box of the frame's pixels."""
        assert self.frame_shape is not None
        h, w = self.frame_shape
        s = self.shrink
        return (cx0 * s, cy0 * s, min(w, cx1 * s), min(h, cy1 * s))

    def _due_tile(self, t: float) -> Box | None:
        """The tile read longest ago, if that was ``refresh_s`` or more ago."""
        if self._read_at is None:
            return None
        sh, sw = self._read_at.shape
        ty, tx = self.tiles
        ys = [i * sh // ty for i in range(ty + 1)]
        xs = [j * sw // tx for j in range(tx + 1)]
        # the tiles that hold cells (all but on a tiny frame), and each one's oldest
        # read, a band of rows at a time rather than a tile at a time (a sixth of the
        # cost): the tiles lie edge to edge, so each one's cells run to the next one's
        # start, the last's to the end
        rows = [i for i in range(ty) if ys[i + 1] > ys[i]]
        cols = [j for j in range(tx) if xs[j + 1] > xs[j]]
        if not rows or not cols:
            return None
        if sh % ty == 0:  # bands of one height (no empty one): one reduction
            bands = self._read_at.reshape(ty, sh // ty, sw).min(axis=1)
        else:
            bands = np.minimum.reduceat(self._read_at, [ys[i] for i in rows], axis=0)
        oldest = np.minimum.reduceat(bands, [xs[j] for j in cols], axis=1).tolist()
        best: tuple[float, Box] | None = None
        for a, i in enumerate(rows):
            for b, j in enumerate(cols):
                age = t - oldest[a][b]
                if age >= self.refresh_s and (best is None or age > best[0]):
                    best = (age, self._box(xs[j], ys[i], xs[j + 1], ys[i + 1]))
        return best[1] if best else None

    def mark_read(
        self,
        t: float,
        boxes: list[Box] | tuple[Box, ...] | None = None,
        *,
        clear_px: float = 0.0,
    ) -> None:
        """The caller read these boxes of the frame last looked at (all of it with
        ``None``): the reference takes the frame's cells that lie wholly inside them,
        but those within ``clear_px`` of something that moved in the last
        ``memory_s``: what was read there was judged beside a hand (its paper and ink
        against surroundings the hand was in, the card perhaps not yet let go), so it
        is offered again once the hand has gone, though it changed no more; for
        ``CLEAR_HOLD_S`` at most, then it is taken as read."""
        small = self._small_now
        if small is None:
            return
        if self._reference is None or self._reference.shape != small.shape:
            self._reference = small.copy()
            self._read_at = np.full(small.shape, t, np.float64)
            if boxes is None:
                return
            self._read_at[:] = -np.inf  # nothing of it read yet but the boxes below
        assert self._read_at is not None
        if boxes is None:
            self._reference[:] = small
            self._read_at[:] = t
            self._held_since = None
            return
        s = self.shrink
        sh, sw = small.shape
        h, w = self.frame_shape or (sh * s, sw * s)
        # (a folder's photographs change whole from one to the next: no hand moves)
        taken = None
        if clear_px > 0 and not self.stills and self._last_moved is not None:
            # moved in this frame or the gate's memory of it (a hand that paused a frame)
            recent = (t - self._last_moved <= self.memory_s).astype(np.uint8)
            if recent.shape == small.shape and recent.any():
                taken = self._reference.copy()
        read = np.zeros(small.shape, bool)  # the cells these boxes took
        for x0, y0, x1, y1 in boxes:
            # cells wholly inside; a box reaching the frame's edge takes the edge's cells
            cx0, cy0 = -(-max(0, x0) // s), -(-max(0, y0) // s)
            cx1 = sw if x1 >= w else min(sw, x1 // s)
            cy1 = sh if y1 >= h else min(sh, y1 // s)
            if cx1 > cx0 and cy1 > cy0:
                self._reference[cy0:cy1, cx0:cx1] = small[cy0:cy1, cx0:cx1]
                self._read_at[cy0:cy1, cx0:cx1] = t
                read[cy0:cy1, cx0:cx1] = True
        held = self._held_since
        if held is not None and held.shape != small.shape:
            held = self._held_since = None
        if taken is None:  # nothing moved near: what was held is taken as read
            if held is not None:
                held[read] = np.nan
            return
        if held is None:
            held = self._held_since = np.full(small.shape, np.nan, np.float64)
        # beside a hand: as it was before this read, for CLEAR_HOLD_S at most (a hand
        # fidgeting beside a card for minutes would have it read every frame)
        k = 2 * max(1, round(clear_px / s)) + 1
        near = read & (cv2.dilate(recent, np.ones((k, k), np.uint8)) > 0)
        held[near & np.isnan(held)] = t
        keep = near & (t - held < CLEAR_HOLD_S)
        self._reference[keep] = taken[keep]
        held[read & ~keep] = np.nan

    def patch(self, x_px: float, y_px: float, radius_px: float) -> NDArray[np.uint8] | None:
        """The small grey copy's cells within ``radius_px`` of a pixel, as now."""
        if self._small_now is None:
            return None
        h, w = self._small_now.shape
        r = max(1, round(radius_px / self.shrink))
        cx, cy = int(x_px / self.shrink), int(y_px / self.shrink)
        if not (0 <= cx < w and 0 <= cy < h):
            return None
        return self._small_now[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1].copy()

    def unchanged(
        self, before: NDArray[np.uint8], x_px: float, y_px: float, radius_px: float
    ) -> bool:
        """Does the spot look now as ``before`` (its :meth:`patch` then)? Fewer than one
        cell in ten differs by the gate's level, or in the shade by as large a share of
        the light (:data:`UNCHANGED_SHARE`, and :data:`UNCHANGED_FLOOR` levels): in a
        lamp's shadow, at 45 % of the light, a hand gathering a show row there was 12
        levels off the cloth, and the row's spot recorded with it over the cards
        looked as the bare cloth did after: a card held on the table, doubtful, to
        the video's end, and the row under it never removed."""
        now = self.patch(x_px, y_px, radius_px)
        if now is None or now.shape != before.shape:
            return False
        differ = _differs(now, before, self.level, self._table_lit, UNCHANGED_SHARE)
        differ |= _clipped_change(now, before, differ)
        return bool(np.count_nonzero(differ) < 0.1 * now.size)

    def moving_near(
        self,
        x_px: float,
        y_px: float,
        t: float,
        *,
        radius_px: float | None = None,
        light: bool = False,
    ) -> bool:
        """Did something move within ``radius_px`` (default: three cells) of this pixel
        in the last ``memory_s`` seconds (0: in this very frame)? A change of light
        alone, a broad soft shadow, is no motion (``shade``; ``None``: every change
        by the gate's level is), unless ``light``: did anything change there, light
        or not (a card missing under a smoothly shaded sleeve that moves may be
        covered)."""
        cells = self._near(self._last_moved if light else self._last_stirred, x_px, y_px, radius_px)
        # some cell moved within memory_s: the latest did (t - v falls as v rises, and
        # so does its rounding), with no array of differences made
        return cells is not None and bool(t - float(cells.max()) <= self.memory_s)
