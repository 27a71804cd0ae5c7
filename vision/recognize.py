"""From one picture to the cards in it: proposals, the index classifier, one card per card.

The steps (see :mod:`vision.proposals` for the first two):

1. ink blobs on card paper, paired rank-above-suit into index hypotheses, and
   the corners of cards lying free (the whole card's outline);
2. each hypothesis cut out upright at half size for the gate, and what it passes
   at full size for the classifier (rank, suit, or no index), only the ranks
   the table's pack holds (:mod:`vision.decks`); a doubtful reading
   is read again from patches cut a tenth smaller and larger, and averaged;
3. overlapping detections of one index reduced to the best;
4. detections of the same card joined when they are the two corners of one
   card (opposite turn, at the distance a card's corners are apart): one
   physical card seen by two corners is one card;
5. what is left reported with its confidence, its outline in pixels, and its
   position in table millimetres when the camera is calibrated. A reading below
   ``confident`` is flagged ``low-confidence``; the same card read in two places
   that cannot be one card is flagged ``duplicate``; the two opposite corners of
   one card read as two different cards are both flagged ``corners-disagree``,
   and the less sure is only as sure as the other leaves room for (its
   confidence times one less the other's; on a tie, both); a reading from one
   corner that no card can make (its index on another card's face, its card
   covering indices read on others) is flagged ``impossible`` at a tenth of its
   confidence; a reading of a number rank whose face plainly shows another number
   of pips (:mod:`vision.pips`) is flagged ``pips-disagree`` at a fifth of its
   confidence, and one whose face shows its number has its rank's doubt
   quartered; one whose pips' shapes plainly show the other suit of its colour
   is read as that suit and flagged ``suit-by-pips``, and a black one whose
   index's suit glyph plainly shows the other black suit by its outline
   (:mod:`vision.suits`) as that suit, ``suit-by-shape``; in a single picture, a
   reading whose index is more than ``OUTSIZE`` times larger or smaller than the
   indices read surely round it (one pack at one scale) is flagged ``outsize``
   at a tenth of its confidence. Readings under ``threshold`` are left out
   (these mostly fall under it); nothing else is dropped.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.deblur import MIN_LENGTH, smear, unsmeared
from vision.decks import Deck
from vision.faces import H as FACE_H
from vision.faces import W as FACE_W
from vision.geometry import Calibration
from vision.images import as_bgr, as_grey
from vision.layout import TableLayout
from vision.lines import in_line_of_print
from vision.memory import keep_freed_memory, release_memory
from vision.model import DEFAULT_MODEL, RANK_CLASSES, SUIT_CLASSES, IndexClassifier
from vision.pips import (
    INDEX_ANCHOR,
    INDEX_D,
    PIP_RANKS,
    court_between,
    layouts_nested,
    read_pips,
)
from vision.proposals import (
    INDEX_D_MM,
    Box,
    Picture,
    Proposals,
    Pyramid,
    all_proposals,
    crop_margin,
    extract_patches,
    grey_percentile,
)
from vision.suits import BLACK, index_suit

__all__ = ["CardReading", "IndexDetection", "Recognizer", "card_middle", "suppress"]

# The size in pixels the classifier works at: a calibrated camera's frames are shrunk
# to it (an index's INDEX_D_MM, the distance from rank centre to suit centre on a
# typical printed card, at that many pixels).
WORK_D = 20.0
# Readings of these suits have their index's suit glyph looked at (vision.suits): a
# black suit's outline tells a club from a spade, and a diamond read where the glyph
# shows a heart's notch is a heart (Nicu's packs print a heart as large as the rank,
# read as a diamond at 0.997 to 1.0 as a 2H, 5H, 7H, JH, KH). A heart read where the
# glyph shows no notch stays one: a soft heart's notch closes.
GLYPH_SUITS = BLACK + "D"
# A reading of an index less sure than RECHECK is read again from patches cut at
# these scales, and the three readings are averaged: a true index reads the same
# from a patch a tenth larger or smaller (training jitters the scale by a fifth),
# while a misreading made of a neighbour's ink (a rank above score-pad writing taken
# for its suit) seldom survives the change.
RECHECK = 0.95
RECHECK_SCALES = (0.9, 1.1)
# A single picture may be taken at a slant, which squeezes the indices on its far
# side across (and, turned, along): there an index the gate is sure of (a logit
# over SQUEEZE_GATE) but the network reads as no index, or doubtfully, is cut again
# SQUEEZES times as wide, and a cut read SQUEEZE_SURE as the rank and suit the
# network leant to stands (Recognizer._squeezed).
SQUEEZE_GATE = 3.0
SQUEEZES = (0.8, 1.25)
SQUEEZE_SURE = 0.98
# An index lies on another card's face (see Recognizer._impossible) only when it lies
# this many index sizes inside that card's outline: an outline drawn from where a
# card's index lies is good to a few pixels, and less where the picture is keystoned
# (a phone held a little off overhead). The 3C of a bidly deal keystoned 70 %, under
# the 2H by its right half, had its index 4.6 pixels inside the 2H's outline (d 27.7,
# 0.17 of it) and was thrown out as impossible; print on a face lies deep inside it.
# Not half an index (until 2026-12-06): a corner's suit lies about that far inside
# its own card, and its reading with the print beside it (a card's rounded corner
# laid below it read as a 7: a 7C 0.39 inside a 3C's outline) was kept.
ON_FACE = 0.3
# From one index to the opposite one, in units of the index's d, along (v, u) (where a
# typical index sits on a 250 x 350 face: vision.pips.INDEX_ANCHOR, INDEX_D).
_OTHER_CORNER = ((FACE_W - 2 * INDEX_ANCHOR[0]) / INDEX_D, (FACE_H - 2 * INDEX_ANCHOR[1]) / INDEX_D)
# Decks print their index smaller or larger than a typical one: a card is this many
# times a typical deck's length in index sizes (the bench's rendered faces 0.8 to 1.4;
# a small index read as two cards, its corners too far apart to join).
INDEX_SPREAD = (0.7, 1.5)
# ... and two readings of one card code are its two corners for a card up to this many
# times: a pack printing a small index high on its card (rendered, its corners 9.9
# and 14.1 index sizes apart across and along the card, a typical card's 5.6 and
# 6.7) stood as two readings of the card flagged ``duplicate``. (Two readings of
# other codes, a card's two corners that disagree, keep INDEX_SPREAD.)
SAME_CARD_SPREAD = (0.7, 1.8)
# Two readings of different cards are the two corners of one card that disagree
# only when each lies within this many index sizes of where the other puts the
# opposite corner (a half-covered index is read off its centre: the crib's 9H
# and the "JH" of its half-covered corner in bench/live.py, 1.8 and 0.9)
DISAGREE_REACH = 2.0
# ... and in a single picture, which may be taken at a slant, their index sizes within
# this ratio (_one_card_two_readings)
SLANT_SIZES = 1.6
# A reading of a number rank whose card's face plainly shows another number of pips
# (vision.pips) is this share as sure as the network says.
PIP_DOUBT = 0.2
# ... and one whose face shows its rank's number has its rank's doubt cut by this
# share: the URW 3C's lower index read at 0.59 beside an upper one read 8C, its face
# showing three pips, is then sure enough to be moved to the show row.
PIP_AGREE = 0.75
# Pips are counted for readings of a number rank less sure than this: 94 % of them
# on a table frame are surer (0.5 ms a count, about 5 ms a 1280 x 720 frame if every
# one were counted); the live check's misreadings were at 0.95 to 0.98.
PIP_COUNTED = 0.999
# A number card read at both its corners as one rank, where each corner's face shows
# plainly one other number of pips (the same at both), is that number: each corner
# counts this much as sure of it (both together 0.94), the suit as the network read it.
PIP_READ = 0.75
# A number reading's suit less sure than this is looked at in its pips' shapes
# (vision.pips.read_pips: a club's lobes, a heart's notch) where they are counted;
# where they plainly show the other suit of its colour, the reading is that suit,
# PIP_READ sure of it at that corner (both corners together 0.94). A pack in a font
# training never met printed its index's club as small as a spade's and read 10S
# at 0.99 at one corner and 0.85 at the other, its ten clubs in plain sight.
SUIT_COUNTED = 0.999
# A card whose corners are read as a number (at both, or at one where the other reads
# another rank) and whose face plainly shows a court's panel is the court its corners,
# asked which court they are, agree on (the network's court ranks at each corner
# weighed together, as one court of three): where that court is the likeliest at
# each corner and at least COURT_SURE of them, and where the network gave the courts
# COURT_SEEN at one corner at least, where both read one number (the face doubts that
# number already; a URW QS read 9S at 1.00 and 0.50, the queen 5e-9 and 0.34), at
# each where they read two ranks (a sure number at one of them stands otherwise: a
# smeared pinochle 9C read at 1.00 beside a false QC lost to it). Under it the court
# ranks are the network's tails, not a reading: a pinochle 9C smeared 11 px, its pips
# one panel, read 9C at both corners with the queen at 1e-4 and 7e-4, became a QC.
# Each corner then counts PIP_READ as sure of it.
COURT_SURE = 0.95
COURT_SEEN = 0.01
COURT_RANKS = ("J", "Q", "K")
COURT_COLUMNS = [RANK_CLASSES.index(r) for r in COURT_RANKS]
# A reading of one corner on a court's face is print on it only where the print round
# it and the print turned half about the card's middle correlate at least this much
# (Recognizer._mirrored): a double-headed court's are alike, a card laid on it not
MIRRORED = 0.75
# Recognizer.cards remembers this many pairs of corners looked between for a court
COURTS_KEPT = 4096
# How far round a reading of one corner another reading's rank may lie in the strip
# vision.lines cuts through it (in rank-to-suit distances: its half-width, with room)
_LINE_REACH = 5.0
# A number read at one corner of a single picture is looked at for a court's face
# between that corner and where a card this many times a typical one's length in
# index sizes puts the other (a deck prints its index smaller or larger: the bench's
# rendered faces 0.9 to 1.8 times a typical one's): with the panel turned about its
# own middle, rendered courts of four packs at four turns from either corner 384 of
# 384 (each size alone 32 to 53 of 96 a pack), number cards 0 of 1,152
ONE_CORNER_SIZES = (0.85, 1.05, 1.3, 1.6, 1.9)
# A single picture (read_any_scale) holds one pack at one scale: a reading whose index
# is more than OUTSIZE times larger or smaller than the median of the indices read
# surely (at OUTSIZE_SURE) on other cards, where OUTSIZE_WITNESSES cards or more
# are, is print that is no index (a large pip and the ink beside it, read as an
# index 2.5 times the size of the pack's; a letter of a cluttered photo's print)
# and counts a tenth as sure. A deck's index sizes (INDEX_SPREAD) and a slant's (the
# far side 70 % as wide) stay well within it. Not in `read`: the synthetic bench
# draws each card of a scene at its own scale (a coarse camera's scenes 4.6 times
# apart), and a calibrated camera knows the pack's scale without witnesses.
OUTSIZE = 2.2
OUTSIZE_SURE = 0.9
OUTSIZE_WITNESSES = 2
# ... and a calibrated camera's reading whose index is not this many times the
# calibrated size (INDEX_D_MM at the table's scale) is outsize: a deck prints its
# index 0.67 to 1.43 times a typical one's for its card (INDEX_SPREAD), and a
# reading's size, the distance between its blobs' middles, is good to a tenth (two
# pips of a 10S in a show row read as a 2S at 0.56 times, a false `placed`)
CALIBRATED_SIZES = (0.6, 1.6)
# ... judged by the scale at the markers' middle where that is this far inside either
# bound, and by the scale where the reading lies otherwise
TILT = 1.25
# Two readings closer than this share of the smaller one's d are one index: the surer stays.
SAME_INDEX = 0.7
# Two readings of one index, one rank with two suits, both at least this sure: the
# nearer suit is the index's own (:func:`_own_suit`)
SATURATED = 0.995
# The rank-to-suit distance assumed, in the working picture's pixels, where no
# calibration gives it (it sets how wide a margin a region is read with).
UNCALIBRATED_D = 40.0
# A picture of unknown scale is read shrunk by halves down to this shorter side.
MIN_SIDE = 160
# A reading of an index larger than this (rank to suit, in the picture's pixels) does
# not settle a picture's scale: twice the largest index training shows. Not far
# above it (between 70 and 85 pixels) the blob stage stops pairing rank and suit
# (it takes blobs up to 90 pixels), and only a card's outline proposes the index, at
# a typical deck's place and size; a deck printed otherwise reads as another card
# there (a 6H filling a phone photo read as a 6D at 1.0, and as a 6H at every
# smaller scale).
SCALE_D = 64.0
# A picture of unknown scale whose sure indices are under this (rank to suit, at the
# median; or with none read surely) is read again at twice its size (bicubic) if
# that stays within MAX_UP_PIXELS, and the surer reading stands. The blob stage loses
# indices under about 15 pixels, rank and suit ink merging or breaking: the real
# deals shrunk to half their size (indices of 11 to 14 pixels) read 120 of 138 and
# the pinochle photos 68 of 111 ranks; enlarged again, 127 and 107 (docs/vision.md
# "Any scale"). Twice again (four times) read more ranks of pinochle photos shrunk
# to 35 %, but with 9 false readings in 99.
UP_D = 14.0
# A card read at one corner at a scale at which its index (as printed) is under
# WORK_D (smaller than the networks read best) is checked against each finer scale
# already read at which that index is of a readable size (WORK_D to SCALE_D): where
# one of them read that spot (within FINER_SPOT of its size) as another card surely,
# and none as this card, the coarse sight is no card. A misread corner at the coarse
# scale adds a card to the scale's score and so wins the search with it (KDE's standard
# pack's flat-topped 3H and a Dondorf's 3S read 5H and 5S at 14 and 16 pixels, both
# read 3 at twice the size; an Egyptian pack's 5S read 5C at 12 pixels and 5H,
# a reading no card keeps, at 38). Where a finer scale read nothing there, the coarse
# sight stands: an Egyptian 5S read at 16 pixels and at no finer scale surely.
FINER_SPOT = 0.5
MAX_UP_PIXELS = 8_400_000  # a 1920 x 1080 picture enlarged (a blank one: 0.17 s in all)
# A picture of unknown scale whose edges are soft at the scale chosen (:func:`sharpness`
# under SOFT: its strongest edges spread over about a pixel and a half or more; a
# defocused camera, a picture enlarged) is read again sharpened (an unsharp mask:
# each of SHARPEN_AMOUNTS times the difference from a Gaussian blur of SHARPEN_SIGMA
# pixels), and the surest reading stands. The thin strokes of a rank fade under blur
# while the solid suits stay: the real deals blurred (sigma 1 and 1.5 px) read 119 and
# 85 of 138, sharpened once 133 and 125, none false (docs/vision.md "Any scale"). The
# photographs as taken are 0.37 to 0.50 sharp and read as before; sharpening them all
# added false readings. Uniform noise measures 0.35 too, and is read sharpened too.
SOFT = 0.35
# The stronger masks since 2026-12-03 (fourth session): blurred 1.5 px, a rank's
# strokes sharpened 1.5 times stay within the ink step of the window's mean where the
# window takes in a dark table (a 10H's at 107 grey on paper at 205, the window at
# 130); sharpened 3 times the blurred deals read 127 -> 135 of 138, and blurred 2 px
# 114 -> 135 with 5 times too.
SHARPEN_AMOUNTS = (1.5, 3.0, 5.0)
SHARPEN_SIGMA = 2.0
# A picture smeared by motion (vision/deblur.py) is undone at the scale chosen, or
# shrunk to this many pixels: the filter takes about 0.1 s for 1200 x 1200 and 1.7 s
# and 460 MB for 4608 x 2592 (its Fourier transforms are of the whole picture).
MAX_UNSMEAR_PIXELS = 4_000_000
# A picture of unknown scale larger than this is read first shrunk to this many pixels
# (a 144-megapixel photograph took 4.0 GB and 12 s read at its own size first): its
# indices are far larger than the network reads, so the scale search shrinks it anyway;
# a 4608 x 2592 frame of the Camera Module 3 (12 megapixels) is read as it is.
MAX_READ_PIXELS = 24_000_000
# An underexposed picture (its bright end, the 99.5th percentile of its grey, under
# DARK_END) is read brightened until that end is EXPOSED_END, at most MAX_GAIN times.
DARK_END = 64.0
EXPOSED_END = 200.0
MAX_GAIN = 6.0


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
    # the pips the card's face shows (vision.pips), counted for a number rank read;
    # None: not counted, or the face does not show them plainly
    pips: int | None = None
    # the suit of its colour the counted pips' shapes show (vision.pips.read_pips),
    # looked at for a reading less sure of its suit than SUIT_COUNTED; None: not
    # looked at, or the pips do not show one plainly
    pip_suit: str | None = None
    # the suit the index's own suit glyph shows by its outline (vision.suits): a black
    # suit, or a heart; looked at for every reading of a suit in GLYPH_SUITS in a
    # picture with colour; None: not looked at, or the glyph does not show one plainly
    shape_suit: str | None = None
    # how sure the network was of each court rank, J, Q and K (the pack's, as read):
    # which court an index is, should its card's face show a court (Recognizer.cards)
    courts: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def card(self) -> str:
        return self.rank + self.suit

    @property
    def pips_disagree(self) -> bool:
        """Whether the face shows plainly another number of pips than the rank read."""
        return self.pips is not None and PIP_RANKS.get(self.rank, self.pips) != self.pips


def _index_px_at(calibration: Calibration, point: tuple[float, float]) -> float:
    """A typical index's size (``INDEX_D_MM``) in frame pixels where ``point`` (frame
    pixels) lies: a tilted camera sees its near side larger than the markers' middle."""
    return INDEX_D_MM / calibration.mm_per_px(point)


def _room(
    a: IndexDetection, b: IndexDetection
) -> tuple[float, float, float, float, float, float] | None:
    """The room between one card's two corner indices, as :func:`vision.pips.court_between`
    takes it: its middle, the unit vector along the card, and half its length and width;
    ``None`` where the two are not turned apart."""
    cx, cy = (a.x + b.x) / 2, (a.y + b.y) / 2
    lx, ly = a.ux - b.ux, a.uy - b.uy
    n = math.hypot(lx, ly)
    if n < 1e-6:
        return None
    lx, ly = lx / n, ly / n
    half_h = abs((a.x - cx) * lx + (a.y - cy) * ly)
    half_w = abs((a.x - cx) * ly - (a.y - cy) * lx)
    return cx, cy, lx, ly, half_h, half_w


def _middle(pair: tuple[IndexDetection, IndexDetection]) -> tuple[float, float]:
    return (pair[0].x + pair[1].x) / 2, (pair[0].y + pair[1].y) / 2


def _in_room(room: tuple[float, float, float, float, float, float], x: float, y: float) -> bool:
    cx, cy, lx, ly, half_h, half_w = room
    along = (x - cx) * lx + (y - cy) * ly
    across = (x - cx) * ly - (y - cy) * lx
    return abs(along) < half_h and abs(across) < half_w


def _reread(members: list[IndexDetection], rank: str) -> list[IndexDetection]:
    """A card's corners read again as ``rank`` (by its pips, by its face): ``PIP_READ``
    sure of it at each, the suit's share as read (a weighed copy's doubt is the rank's)."""
    out = []
    for m in members:
        suit = min(1.0, m.confidence / m.rank_confidence) if m.rank_confidence > 0 else 0.0
        out.append(replace(m, rank=rank, rank_confidence=PIP_READ, confidence=PIP_READ * suit))
    return out


def _weighed(det: IndexDetection) -> IndexDetection:
    """``det`` as sure as its face's pips leave it (:mod:`vision.pips`): a
    ``PIP_DOUBT`` share where they disagree with its rank; where they agree, its
    rank's doubt cut by the share ``PIP_AGREE`` (the suit's doubt is the network's
    alone). Where its pips' shapes plainly show the other suit of its colour
    (``pip_suit``), or where they say nothing and its index's suit glyph's outline
    shows another suit of its colour (``shape_suit``: the other black suit; a
    heart for a diamond), it is read as that suit,
    ``PIP_READ`` sure of it (by its glyph, no surer than it was read)."""
    if det.rank_confidence <= 0:
        return det
    shape = det.shape_suit
    same_colour = shape is not None and (shape in BLACK) == (det.suit in BLACK)
    if det.pip_suit is not None and det.pip_suit != det.suit:
        det = replace(det, suit=det.pip_suit, confidence=det.rank_confidence * PIP_READ)
    elif det.pip_suit is None and det.shape_suit not in (None, det.suit) and same_colour:
        # (no surer than the reading was: one glyph's outline is less than a face's pips)
        sure = min(det.confidence, det.rank_confidence * PIP_READ)
        det = replace(det, suit=det.shape_suit, confidence=sure)
    if det.pips is None or det.rank not in PIP_RANKS:
        return det
    if det.pips_disagree:
        k = PIP_DOUBT
        return replace(det, confidence=det.confidence * k, rank_confidence=det.rank_confidence * k)
    rank = 1 - (1 - det.rank_confidence) * (1 - PIP_AGREE)
    suit = min(1.0, det.confidence / det.rank_confidence)
    return replace(det, confidence=rank * suit, rank_confidence=rank)


# Another card's index read within a typical card's face this many times the size its
# reading's index makes it (the largest outline vision.pips draws), outside the
# reading's own index corner, lies over this card's face (_face_covered)
FACE_REACH = 1.65


def _face_covered(det: IndexDetection, dets: Iterable[IndexDetection]) -> bool:
    """Whether a reading of another card lies on the face ``det``'s card would have:
    the card laid over this one's face, whose pips the count would take for this
    card's (a card read at its index strip, the next card of a row over the rest).
    Readings of the same card (its other corners) and those at its own index corner
    are not looked at."""
    s = FACE_REACH * det.d / INDEX_D  # image pixels a face pixel
    if s <= 0:
        return False
    vx, vy = det.uy, -det.ux
    ax, ay = INDEX_ANCHOR
    for o in dets:
        if o is det or o.card == det.card:
            continue
        dx, dy = o.x - det.x, o.y - det.y
        fx, fy = ax + (dx * vx + dy * vy) / s, ay + (dx * det.ux + dy * det.uy) / s
        own_corner = fx < 2 * ax and fy < 2 * ay
        if 0 <= fx <= FACE_W and 0 <= fy <= FACE_H and not own_corner:
            return True
    return False


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
    # the card's other corners read as it and joined to it (a pack printing its index
    # in four corners), as read: with ``indices``, every detection that is this card
    also: tuple[IndexDetection, ...] = field(default=())
    # where the card lies if its one corner read is on its other side (a four-index
    # card seen only at one edge's corners: which side of them it lies on is not
    # known): its corners, its place on the table and its zone
    other_side: (
        tuple[tuple[tuple[float, float], ...], tuple[float, float] | None, str | None] | None
    ) = None

    @property
    def rank(self) -> str:
        return self.card[:-1]

    @property
    def centre(self) -> tuple[float, float]:
        return _centre(self.corners)

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
    s = det.d / INDEX_D
    vx, vy = det.uy, -det.ux
    ax, ay = INDEX_ANCHOR
    pts = []
    for fx, fy in ((0, 0), (FACE_W, 0), (FACE_W, FACE_H), (0, FACE_H)):
        dx, dy = (fx - ax) * s, (fy - ay) * s
        pts.append((det.x + dx * vx + dy * det.ux, det.y + dx * vy + dy * det.uy))
    return tuple(pts)


def card_middle(det: IndexDetection, d: float | None = None) -> tuple[float, float]:
    """Where the middle of the card whose corner index ``det`` is lies (a typical
    card's proportions), for an index ``d`` across (default: ``det.d``, as read; a
    misread index is often read smaller than it is printed)."""
    return _centre(_card_outline(det if d is None else replace(det, d=d)))


def _joined_outline(members: list[IndexDetection]) -> tuple[tuple[float, float], ...]:
    """One card's corners from its two opposite indices: the two outlines averaged
    corner to corner."""
    a, b = _card_outline(members[0]), _card_outline(members[1])
    return tuple(
        ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in zip(a, b[2:] + b[:2], strict=True)
    )


def _pt(x: float, y: float, kx: float, ky: float) -> tuple[float, float]:
    """A point of a resized picture in the original picture's pixels."""
    return ((x + 0.5) * kx - 0.5, (y + 0.5) * ky - 0.5)


def _scaled_dets(dets: Iterable[IndexDetection], kx: float, ky: float) -> list[IndexDetection]:
    """Readings of indices of a resized picture in the original picture's pixels."""
    out = []
    for d in dets:
        x, y = _pt(d.x, d.y, kx, ky)
        out.append(replace(d, x=x, y=y, d=d.d * (kx + ky) / 2))
    return out


def _scaled(r: CardReading, kx: float, ky: float) -> CardReading:
    """A reading of a resized picture in the original picture's pixels."""
    corners = tuple(_pt(x, y, kx, ky) for x, y in r.corners)
    return replace(r, corners=corners, indices=tuple(_scaled_dets(r.indices, kx, ky)))


def _resized(image: NDArray[np.uint8], k: float) -> NDArray[np.uint8]:
    """``image`` at ``k`` times its size: area means to shrink, bicubic to enlarge."""
    if k == 1.0:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * k)), max(1, round(h * k)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)


def exposed(image: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], float]:
    """``image`` brightened if it is underexposed, and the gain (1.0: as it was).

    A photograph taken in a dim room, or by a camera whose exposure is set for a
    brighter table, has its card paper at 40 to 60 grey. The ink stage lifts ink
    contrasts where the light is dim (:attr:`vision.proposals.Picture.lift`), but
    paper that dark fails the paper bars' floor (``NEAR_FLOOR``): the real deals at
    a fifth of their exposure read 74 of 138 cards with the floor at 40 (at 30, as
    now, one deal of them reads 48 of 49 as it is; at a seventh, paper about 30
    grey, nothing). At 35 % the lift alone read them as taken, 134, and brightening
    synthetic scenes at 30 % as well doubled their false readings: so only the
    darker are brightened. The picture's bright
    end (its 99.5th percentile of grey: paper, where cards are in it) is brought
    to ``EXPOSED_END``, but no more than 0.05 % of the picture past white in any
    channel (a few cards on a dark table are its brightest 0.05 %, and keep their
    grey print; a warm cast keeps its reds);
    the 8-bit steps stay as coarse as they were.

    >>> import numpy as np
    >>> dim = np.full((20, 20, 3), 40, np.uint8)
    >>> bright, gain = exposed(dim)
    >>> int(bright[0, 0, 0]), gain
    (200, 5.0)
    >>> exposed(np.full((20, 20, 3), 180, np.uint8))[1]
    1.0
    """
    image = as_bgr(image)  # a grey picture made BGR (another depth: ImageError)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    end = grey_percentile(gray, 99.5)
    if end >= DARK_END:
        return image, 1.0
    # no more than 0.05 % of it driven past white in any channel: a few bright cards
    # on a dark table keep their grey print, a warm picture its reds
    b, g, r = cv2.split(image)
    top = grey_percentile(cv2.max(cv2.max(b, g), r), 99.95)
    if top == 0:  # black: nothing to brighten
        return image, 1.0
    gain = min(MAX_GAIN, EXPOSED_END / max(end, 1.0), 255.0 / top)
    if gain <= 1.0:
        return image, 1.0
    return cv2.convertScaleAbs(image, alpha=gain), gain


def sharpness(image: NDArray[np.uint8]) -> float:
    """How sharp a picture's edges are: over its strongest edges (the top 0.5 % of the
    grey gradient's magnitude), the median of the gradient over the grey range in
    the 7 x 7 round it. A perfect step between two pixels measures 0.5, an edge
    spread over w pixels about 0.5 / w; exposure does not change it. The real
    photographs as taken: 0.37 to 0.50; blurred by a Gaussian of 1 px, 0.26 to
    0.34; of 1.5 px, 0.21 to 0.26; uniform noise 0.35. A picture without an edge
    to speak of (blank, or under 8 pixels a side) measures 1.0: nothing to sharpen."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if min(gray.shape) < 8:
        return 1.0
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    del gx, gy
    magnitude *= 1.0 / 8  # the Sobel kernel's weight: grey levels a pixel
    flat = magnitude.ravel()
    at = int(0.995 * (flat.size - 1))
    bar = float(np.partition(flat, at)[at])  # the 99.5th percentile, no full sort
    if bar < 4.0:
        return 1.0
    top = magnitude >= bar
    square = np.ones((7, 7), np.uint8)
    spread = cv2.subtract(cv2.dilate(gray, square), cv2.erode(gray, square))
    return float(np.median(magnitude[top] / np.maximum(spread[top], 1).astype(np.float32)))


def _index_d(r: CardReading) -> float:
    """The size of a reading's smallest index (rank to suit)."""
    return min((d.d for d in r.indices), default=0.0)


def _coarse_sight(
    r: CardReading,
    k: float,
    finer: Sequence[tuple[float, list[IndexDetection]]],
    sure: float,
    index_k: float = 1.0,
) -> bool:
    """Whether ``r`` (a reading of the picture at ``k`` times its size, in the
    picture's own pixels) is a coarse sight that a finer scale denies: read at one
    corner, its index (as printed: ``index_k`` times a detection's typical ``d``)
    under ``WORK_D`` at ``k``; read at its spot (``FINER_SPOT``), at some scale of
    ``finer`` (each its ``k`` and its indices read, in the picture's own pixels) at
    which that index is of a readable size, as another card at least ``sure``; and
    at none of them as this card (as detected, or as its corner was weighed)."""
    if len(r.indices) != 1 or r.also:
        return False
    det = r.indices[0]
    printed = det.d * index_k
    if printed * k >= WORK_D:
        return False
    near = FINER_SPOT * det.d
    denied = False
    for k2, dets in finer:
        if not WORK_D <= printed * k2 <= SCALE_D:
            continue
        there = [m for m in dets if math.hypot(m.x - det.x, m.y - det.y) < near]
        if any(m.card in (det.card, r.card) for m in there):
            return False
        denied = denied or any(m.confidence >= sure for m in there)
    return denied


def _outsize(groups: list[tuple[str, list[IndexDetection], int]]) -> set[int]:
    """The groups (card, corners, copies) whose index is more than ``OUTSIZE`` times
    larger or smaller than the median index of the other cards read at least
    ``OUTSIZE_SURE`` (by a corner), where there are ``OUTSIZE_WITNESSES`` of them."""
    if len(groups) <= OUTSIZE_WITNESSES:
        return set()
    size = [float(np.median([m.d for m in members])) for _, members, _ in groups]
    sure = [max(m.confidence for m in members) >= OUTSIZE_SURE for _, members, _ in groups]
    out: set[int] = set()
    for i, d in enumerate(size):
        others = [size[j] for j in range(len(groups)) if j != i and sure[j]]
        if len(others) < OUTSIZE_WITNESSES:
            continue
        scale = float(np.median(others))
        if not scale / OUTSIZE <= d <= scale * OUTSIZE:
            out.add(i)
    return out


def _own_suit(det: IndexDetection, kept: IndexDetection) -> bool:
    """Of two readings of one index, one rank read with two suits, both all but
    certain: is ``det``'s the index's own suit? It lies right under the rank; a pip
    the rank was also paired with lies further off (a URW 6H read with its index's
    heart, 26 px off, and with a pip, 45 px off, as a 6D: both at 1.0)."""
    return (
        det.rank == kept.rank
        and det.suit != kept.suit
        and det.confidence >= SATURATED
        and det.d < kept.d
    )


def _one_index(a: IndexDetection, b: IndexDetection) -> bool:
    """Are two readings so close that they are one index read twice? (Two that lie
    that far apart along x or along y are not, without numpy's hypot: a faithfully
    rounded hypotenuse is never shorter than either side. The live loop joins some
    twenty readings every frame, nearly every pair far apart.)"""
    r = SAME_INDEX * min(a.d, b.d)
    dx, dy = a.x - b.x, a.y - b.y
    return abs(dx) < r and abs(dy) < r and bool(np.hypot(dx, dy) < r)


def _one_ink(a: IndexDetection, b: IndexDetection) -> bool:
    """Do two readings at different scales take in one index's ink? The nearer lies
    within ``SAME_INDEX`` of the larger one's d (:func:`_one_index` takes the
    smaller's: two readings at one scale)."""
    return bool(np.hypot(a.x - b.x, a.y - b.y) < SAME_INDEX * max(a.d, b.d))


def suppress(dets: list[IndexDetection]) -> list[IndexDetection]:
    """Of readings that are one index read twice, the surer (as :meth:`Recognizer.read`
    keeps them): for joining readings of neighbouring regions of one frame."""
    kept: list[IndexDetection] = []
    gone: list[IndexDetection] = []
    for det in sorted(dets, key=lambda d: -d.confidence):
        _keep(kept, gone, det)
    return kept


def _keep(
    kept: list[IndexDetection], gone: list[IndexDetection], det: IndexDetection
) -> IndexDetection:
    """Add ``det`` (no surer than any in ``kept``) to the readings kept, unless it is
    one index with one of them; then it takes that one's place only where it is
    the same rank with the index's own suit (:func:`_own_suit`), and the one it
    replaced goes to ``gone``, where it still stands for its index: a later
    reading that is one index with it is dropped, as it was before. Returns the
    reading that stands for ``det``'s index now (``det`` itself where it was kept)."""
    for g in gone:
        if _one_index(g, det):
            return g
    same = [j for j, k in enumerate(kept) if _one_index(k, det)]
    if not same:
        kept.append(det)
        return det
    if len(same) == 1 and _own_suit(det, kept[same[0]]):
        gone.append(kept[same[0]])
        kept[same[0]] = det
        return det
    return kept[same[0]]


def _opposite_corner_miss(
    p: IndexDetection, q: IndexDetection, spread: tuple[float, float] = (1.0, 1.0)
) -> float:
    """How far ``q`` lies from where ``p`` puts its card's opposite corner index, in
    ``p``'s index sizes; with ``spread``, for a card that many times a typical deck's
    length in index sizes (the nearest of them: a deck prints its index smaller or
    larger than a typical one)."""
    vx, vy = p.uy, -p.ux
    dx, dy = (q.x - p.x) / p.d, (q.y - p.y) / p.d
    a, b = dx * vx + dy * vy, dx * p.ux + dy * p.uy  # q from p along (v, u)
    ea, eb = _OTHER_CORNER
    f = min(max((a * ea + b * eb) / (ea * ea + eb * eb), spread[0]), spread[1])
    return float(np.hypot(a - f * ea, b - f * eb))


def _opposite_index(det: IndexDetection) -> IndexDetection:
    """Where a typical card whose index is read ``det`` has its opposite index (the
    same reading there, turned round)."""
    ea, eb = _OTHER_CORNER
    vx, vy = det.uy, -det.ux
    x = det.x + det.d * (ea * vx + eb * det.ux)
    y = det.y + det.d * (ea * vy + eb * det.uy)
    return replace(det, x=x, y=y, ux=-det.ux, uy=-det.uy)


def _same_card(a: IndexDetection, b: IndexDetection) -> bool:
    """Are two readings of one card its two opposite corner indices? The card may be
    ``SAME_CARD_SPREAD`` times a typical deck's length in index sizes."""
    if a.ux * b.ux + a.uy * b.uy > -0.6:
        return False
    # the nearer miss under 2.5: either one is (the second left unmeasured where the
    # first is, as it mostly is for a card's two corners)
    return (
        _opposite_corner_miss(a, b, SAME_CARD_SPREAD) < 2.5
        or _opposite_corner_miss(b, a, SAME_CARD_SPREAD) < 2.5
    )


# A pack printed with its index in all four corners (many European packs, Skat's
# among them): the top right index lies as the top left one does, a card's width
# further along; the bottom ones turned. Two readings of one card code are corners
# of one card where one lies beside or below the other, for a card SAME_CARD_SPREAD
# times a typical one and an index size more or less, within this angle (its
# tangent) of the index's own axes: an index's direction is read from its rank and
# suit ink, 20 degrees off for a "10" whose suit pairs with the 0.
BESIDE_SLANT = 0.58  # 30 degrees


def _other_corner(p: IndexDetection, q: IndexDetection) -> tuple[str, float] | None:
    """Which other corner of ``p``'s card ``q`` is, on a card printed with four
    indices, and the card's size (times a typical one's, in ``p``'s index sizes):
    ``"beside"`` (the index along the card's top or bottom edge, upright as ``p``),
    ``"below"`` (along its side, turned), ``"mirrored"`` (the opposite corner of a
    card whose index ``p`` is in its top *right* corner: the top right and the
    bottom left indices, turned); ``None``: none, or two sizes of index. (The
    opposite corner of ``p`` read as the top left is :func:`_same_card`'s.)"""
    if not 0.8 <= q.d / p.d <= 1.25:
        return None
    vx, vy = p.uy, -p.ux
    dx, dy = (q.x - p.x) / p.d, (q.y - p.y) / p.d
    a, b = dx * vx + dy * vy, dx * p.ux + dy * p.uy  # q from p along (v, u)
    ea, eb = _OTHER_CORNER
    lo, hi = SAME_CARD_SPREAD
    turned = p.ux * q.ux + p.uy * q.uy
    if turned > 0.6:  # upright alike: beside it, on either side
        if abs(b) <= BESIDE_SLANT * abs(a) and lo * ea - 1 <= abs(a) <= hi * ea + 1:
            return "beside", abs(a) / ea
        return None
    if turned > -0.6:
        return None
    if b > 0 and abs(a) <= BESIDE_SLANT * b and lo * eb - 1 <= b <= hi * eb + 1:
        return "below", b / eb
    f = min(max((-a * ea + b * eb) / (ea * ea + eb * eb), lo), hi)
    if np.hypot(a + f * ea, b - f * eb) < 2.5:
        return "mirrored", f
    return None


# A pack is taken to print four indices where this many cards show it, and this share
# of the cards read at two opposite corners (Recognizer.cards)
FOUR_WITNESSES = 2
FOUR_SHARE = 0.25
# A reading within this many index sizes of where a card read at two opposite corners
# has one of its other two (_at_other_corner): the spot from the pair's own
# positions, for a deck whose corners lie as a typical one's (a deck's proportions
# turn the spot by about 3 degrees: half an index size at a card's length)
CORNER_REACH = 0.8


def _at_other_corner(pair: list[IndexDetection], det: IndexDetection) -> bool:
    """Whether ``det`` lies at the top right or the bottom left corner of the card read
    at ``pair`` (its top left and bottom right), printed there as a pack with four
    indices prints it: upright as the top left, or turned as the bottom right. The
    card's edges are taken from the pair's positions alone (the line between them
    meets the top edge at the typical card's angle), not from the indices' own
    directions, which a "10" read from its 0 turns by 20 degrees."""
    p, q = pair
    vx, vy = p.uy, -p.ux
    dx, dy = q.x - p.x, q.y - p.y
    a, b = dx * vx + dy * vy, dx * p.ux + dy * p.uy  # q from p along (v, u), in pixels
    length = float(np.hypot(a, b))
    if length == 0 or not 0.8 <= det.d / p.d <= 1.25:
        return False
    ea, eb = _OTHER_CORNER
    c, s = ea / np.hypot(ea, eb), eb / np.hypot(ea, eb)
    ta, tb = (a * c + b * s) / length, (-a * s + b * c) / length  # the top edge, along (v, u)
    for (fa, fb), like in (
        ((length * c * ta, length * c * tb), p),  # the top right: upright as the top left
        ((-length * s * tb, length * s * ta), q),  # the bottom left: turned as the bottom right
    ):
        x = p.x + fa * vx + fb * p.ux
        y = p.y + fa * vy + fb * p.uy
        if like.ux * det.ux + like.uy * det.uy > 0.8 and np.hypot(det.x - x, det.y - y) < (
            CORNER_REACH * p.d
        ):
            return True
    return False


def _either(confidences: Iterable[float]) -> float:
    """How sure a card read at one corner or two is: that not every corner is wrong
    (math.prod multiplies them in the order np.prod does)."""
    return 1 - float(math.prod([1 - c for c in confidences]))


def _other_corner_hits(cards: list[list[IndexDetection]]) -> list[tuple[int, int]]:
    """The (read pair, one corner) of one card code's readings (``cards``, as
    :func:`_four_corners` takes them) where the corner lies where the pair has one
    of its others (:func:`_at_other_corner`), the pairs and the corners in order."""
    return [
        (i, j)
        for i, pair in enumerate(cards)
        if len(pair) == 2
        for j, one in enumerate(cards)
        if len(one) == 1 and _at_other_corner(pair, one[0])
    ]


def _four_corners(
    cards: list[list[IndexDetection]],
    read_as: dict[int, IndexDetection],
    loose: bool,
    sides: dict[int, IndexDetection] | None = None,
    hits: Sequence[tuple[int, int]] | None = None,
) -> list[tuple[list[IndexDetection], tuple[IndexDetection, ...]]]:
    """Readings of one card code (``cards``: each its top left and bottom right
    corners as :func:`_same_card` joined them, or one corner) joined where they are
    the corners of one card printed with four indices (:func:`_other_corner`).

    ``loose``: the pack holds one of each card and is seen to print four indices
    (:meth:`Recognizer.cards`): any corner beside, below or across from another is
    of one card. Else only corners a read pair (its top left and bottom right)
    places: a third corner where the pair has its others
    (:func:`_at_other_corner`), and a top right and bottom left about the pair's
    middle. (A two-index pack's neighbour misread as the card, beside it in a row,
    stays a reading of its own, flagged ``duplicate``; a pinochle pack holds each
    card twice, fanned one copy beside the other.)

    Each card is then read at two opposite corners as a two-index card is, its top
    left and bottom right where both were read; else at its top right and bottom
    left, each taken to where the top left and the bottom right lie (new readings of
    the same ink, in ``read_as``); else at one corner: the surest, at the top left's
    place where a corner beside it lies there. The card's other detections come
    with it (``also``): one card, not two or three readings of it flagged
    ``duplicate``. ``sides``: the top left a card read at one corner has were it
    on the other side of the corners read (:func:`_two_corners`), by that corner."""
    n = len(cards)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if loose:
        for i in range(n):
            for j in range(i + 1, n):
                if root(i) != root(j) and any(
                    _other_corner(p, q) is not None for p in cards[i] for q in cards[j]
                ):
                    parent[root(j)] = root(i)
    else:
        ones = [i for i in range(n) if len(cards[i]) == 1]
        for i, j in _other_corner_hits(cards) if hits is None else hits:
            parent[root(j)] = root(i)  # a corner where a read pair has its others
        for j in ones:
            for k in ones:
                p, q = cards[j][0], cards[k][0]
                across = None if j >= k else _other_corner(p, q)
                if across is None or across[0] != "mirrored":
                    continue
                for i in range(n):  # a top left and a bottom right about the same middle
                    if len(cards[i]) != 2 or not 0.8 <= cards[i][0].d / p.d <= 1.25:
                        continue
                    a, b = cards[i]
                    off = np.hypot(a.x + b.x - p.x - q.x, a.y + b.y - p.y - q.y) / 2
                    if off < p.d:
                        parent[root(j)] = parent[root(k)] = root(i)
                        break
    if all(root(i) == i for i in range(n)):
        return [(c, ()) for c in cards]
    joined: dict[int, list[list[IndexDetection]]] = {}
    for i in range(n):
        joined.setdefault(root(i), []).append(cards[i])
    out: list[tuple[list[IndexDetection], tuple[IndexDetection, ...]]] = []
    for parts in joined.values():
        if len(parts) == 1:
            out.append((parts[0], ()))
            continue
        every = [d for c in parts for d in c]
        pairs = [c for c in parts if len(c) == 2]
        best: list[IndexDetection]
        if pairs:  # a top left and a bottom right read
            best = max(pairs, key=lambda c: c[0].confidence + c[1].confidence)
        else:
            best, other = _two_corners(sorted(every, key=lambda d: -d.confidence), read_as)
            if other is not None and sides is not None:
                sides[id(best[0])] = other
        kept = {id(b) for b in best}
        out.append((best, tuple(d for d in every if id(d) not in kept)))
    return out


def _two_corners(
    alone: list[IndexDetection], read_as: dict[int, IndexDetection]
) -> tuple[list[IndexDetection], IndexDetection | None]:
    """A four-index card read at corners none of which is opposite another as a
    two-index card's are (``alone``, surest first), read as such a card is: at its
    top right and bottom left taken to where its top left and bottom right lie,
    else at its surest corner, at the top left's place where a corner beside it lies
    there (new readings of the same ink, in ``read_as``). And where the corners say
    not which side of them the card lies on (one edge's two, one below the other),
    the top left it has if it lies on the other side (else ``None``)."""
    for p in alone:
        for q in alone:
            kind = None if p is q else _other_corner(p, q)
            if kind is not None and kind[0] == "mirrored":
                # a card's width along the top and bottom edges, in p's index sizes
                shift = -kind[1] * _OTHER_CORNER[0] * p.d
                moved = []
                for m in (p, q):
                    at = replace(m, x=m.x + shift * m.uy, y=m.y - shift * m.ux)
                    read_as[id(at)] = at
                    moved.append(at)
                return moved, None
    p = alone[0]
    below = None
    for q in alone[1:]:
        kind = _other_corner(p, q)
        if kind is not None and kind[0] == "beside":
            if (q.x - p.x) * p.uy - (q.y - p.y) * p.ux < 0:  # q to p's left: the top left
                at = replace(p, x=q.x, y=q.y)
                read_as[id(at)] = at
                return [at], None
            return [p], None
        if kind is not None and kind[0] == "below" and below is None:
            below = kind[1]
    if below is None:
        return [p], None
    # the top left a card's width along the top edge, were p its top right
    shift = -below * _OTHER_CORNER[0] * p.d
    return [p], replace(p, x=p.x + shift * p.uy, y=p.y - shift * p.ux)


def _one_card_two_readings(a: IndexDetection, b: IndexDetection, slant: bool = False) -> bool:
    """Are two readings of different cards the two corners of one card, one of them
    misread? Of one pack (index sizes within a quarter), turned opposite (within 18
    degrees), each where the other puts the opposite corner (within
    ``DISAGREE_REACH`` index sizes). Two cards of one pack cannot lie so: the one on
    top would hide the other's index.

    ``slant``: a single picture, which may be taken at a slant. Its near corner's
    index is then larger than the far one's (a phone leaning over one card: 1.3
    times, 1.5 at another scale), and a pack of other proportions puts its far
    corner elsewhere. Two readings of one rank in two suits (a suit misread at one
    corner) are then one card with the sizes within ``SLANT_SIZES``, and either
    corner where the other puts its own for a card of ``INDEX_SPREAD`` times a
    typical length, as :func:`_same_card` joins two corners of one card. (A
    URW-printed 5C in a dim webcam picture and a 7C shot leaning were read at both
    corners, once as the spade, each reading sure, and both stood.) Two ranks keep
    the strict rule: the fanned pinochle photographs lost an ace or a king in four
    of their changed rows to it, a neighbour's index taken for the other corner."""
    if a.ux * b.ux + a.uy * b.uy > -0.95:
        return False
    if not slant or a.rank != b.rank:
        if not 0.8 <= b.d / a.d <= 1.25:
            return False
        return max(_opposite_corner_miss(a, b), _opposite_corner_miss(b, a)) < DISAGREE_REACH
    if not 1 / SLANT_SIZES <= b.d / a.d <= SLANT_SIZES:
        return False
    miss = min(_opposite_corner_miss(a, b, INDEX_SPREAD), _opposite_corner_miss(b, a, INDEX_SPREAD))
    return miss < DISAGREE_REACH


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
        deck: Deck | None = None,
    ) -> None:
        keep_freed_memory()  # the next frame's arrays in pages already taken (vision.memory)
        self.classifier = IndexClassifier(model)
        self.deck = deck
        self.threshold = threshold
        self.confident = confident
        self.layout = layout
        self.scale = scale
        self.calibration = calibration
        self.timings: dict[str, float] = {}
        self.last_scale = 1.0
        self.last_sharpened = False
        self.last_unsmeared: tuple[float, float] | None = None
        # the picture as taken, where the one being read had its edges made afresh
        # (_read_remade): index glyphs' outlines are looked at in it; and how many
        # times the picture being read was enlarged from the one taken
        self._glyphs_in: NDArray[np.uint8] | None = None
        self._enlarged = 1.0
        self.last_gain = 1.0
        # the widths an index is cut again at where it may be squeezed (single
        # pictures only: _any_scale sets them while it reads; see SQUEEZES)
        self.squeezes: tuple[float, ...] = ()
        # whether a reading at another scale than the pack's is outsize (single
        # pictures of unknown scale only: _any_scale sets it; see OUTSIZE)
        self.one_scale = False
        # the cards the last cards() read surely but refused as outsize against a
        # calibrated camera's index size, and how many times that size their index
        # was (the live loop tells the installer of a pack printed larger: a jumbo
        # index whose size the table's layout does not give)
        self.outsize_read: list[tuple[str, float]] = []
        # the cards seen read again at one of their other corners, and those read at
        # two opposite corners, in the live loop (cards: a pack with four indices)
        self._four_witnesses: set[str] = set()
        self._paired: set[str] = set()
        # the frame last read (in the frame's pixels), where cards() looks between a
        # number card's two corners for a court's face; and what it found, by corners
        self.faces: NDArray[np.uint8] | None = None
        self._courts: dict[tuple[float, ...], bool] = {}
        # the readings of one corner found to be letters in a line of print, by where
        # they and the readings near them lie (_in_print)
        self._lines: dict[tuple[float, ...], bool] = {}
        # every picture read is a frame of one camera (the live loop sets it), and
        # whether one of them had colour: the camera's are in colour (_colourless)
        self.one_camera = False
        self.colour_seen = False

    def forget_pack(self) -> None:
        """Forget what the live loop learnt of the pack (whether it prints its index in
        four corners: the cards read again at another corner, and those read at two):
        a new game, whose pack may be another (``TableWatcher.new_game``). A two-index
        pack read with a four-index pack's evidence joins what lies beside a card's
        corner to it."""
        self._four_witnesses = set()
        self._paired = set()

    @property
    def calibration(self) -> Calibration | None:
        return self._calibration

    @calibration.setter
    def calibration(self, value: Calibration | None) -> None:
        """A calibrated camera also fixes the working scale: pictures are shrunk until
        an index measures about ``WORK_D`` pixels, which is all the classifier needs."""
        self._calibration = value
        self.index_px: float | None = None
        if value is not None:
            quads = list(value.markers.values())
            centre = np.mean(np.concatenate(quads), axis=0) if quads else np.zeros(2)
            # an index's d in the frame's pixels, at the markers' middle
            self.index_px = _index_px_at(value, (float(centre[0]), float(centre[1])))
            self.scale = min(1.0, WORK_D / (self.index_px * self.index_k))

    @property
    def index_k(self) -> float:
        """How many times a typical index's size (``INDEX_D_MM``) the pack prints its
        own (:attr:`Deck.index_mm`: a jumbo index's 1.4 to 2.2). The proposals and the
        working scale look for indices of the pack's size; every reading's ``d`` is
        then given as a typical index's (divided by this), so that a card's outline,
        its pips and its size against the calibration are reckoned as for any pack."""
        deck = self._deck
        return 1.0 if deck is None else deck.index_mm / INDEX_D_MM

    @property
    def working_index_d(self) -> float | None:
        """The calibrated index size in the working picture's pixels (:meth:`picture`);
        ``None`` without a calibration."""
        if self.index_px is None:
            return None
        return self.index_px * self.index_k * (self.scale if self.shrinks else 1.0)

    def _region_d(self, index_px: float | None) -> float:
        """The index size regions are cut for, in the working picture's pixels."""
        calibrated = self.working_index_d
        if calibrated is not None:
            return calibrated
        s = self.scale if self.shrinks else 1.0
        # (a caller's size is a typical index's, as readings give theirs: the pack's
        # is index_k times it)
        return index_px * self.index_k * s if index_px is not None else UNCALIBRATED_D

    def region_margin(self, frame_shape: tuple[int, int], index_px: float | None = None) -> float:
        """How far, in the frame's pixels, a region's crop reaches past it
        (:meth:`Picture.margin` for this camera), give or take the grid it is cut on."""
        s = self.scale if self.shrinks else 1.0
        h, w = frame_shape
        shape = (int(h * s), int(w * s))
        return crop_margin(shape, self._region_d(index_px), self.working_index_d) / s

    @property
    def shrinks(self) -> bool:
        """Whether frames are shrunk to the working scale before they are read."""
        return self.scale < 0.75  # resizing costs more than a mild shrink saves

    def working(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """The frame at the scale it is read at."""
        if not self.shrinks:
            return image
        s = self.scale
        return cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)

    def _to_frame(
        self, dets: list[IndexDetection], dx: float = 0.0, dy: float = 0.0
    ) -> list[IndexDetection]:
        """Detections made in a working picture (or its region at ``dx``, ``dy``), in the
        frame's pixels."""
        k = 1.0 / self.scale if self.shrinks else 1.0
        if k == 1.0 and dx == dy == 0.0:
            return dets
        return [
            replace(d, x=(d.x + dx + 0.5) * k - 0.5, y=(d.y + dy + 0.5) * k - 0.5, d=d.d * k)
            for d in dets
        ]

    def picture(self, image: NDArray[np.uint8]) -> Picture:
        """The frame at its working scale as the proposal stage reads it, with the
        calibrated index size where there is one (:func:`~vision.proposals.
        background_window`). A caller that makes the working frame's
        :class:`Picture` itself for :meth:`detect_regions` makes it so."""
        warm = self.deck is not None and self.deck.four_colour
        return Picture(
            self.working(as_bgr(image)),
            self.working_index_d,
            self._index_d_at(),
            warm_ink=warm,
            index_k=self.index_k,
        )

    def _index_d_at(self) -> Callable[[float, float], float] | None:
        """The calibrated index size at a point of the working picture, in its pixels
        (``None`` without a calibration): where a tilted camera's near side is larger."""
        calibration = self.calibration
        if calibration is None:
            return None
        s = self.scale if self.shrinks else 1.0

        def at(x: float, y: float) -> float:
            return _index_px_at(calibration, ((x + 0.5) / s - 0.5, (y + 0.5) / s - 0.5)) * s

        return at

    def detect_indices(self, image: NDArray[np.uint8]) -> list[IndexDetection]:
        """Every index in the frame, in the frame's pixels."""
        t0 = time.perf_counter()
        self.faces = image  # where the cards read lie (cards: a court's face)
        self._courts.clear()  # a frame read whole: every pair looked at afresh
        self._lines.clear()
        pic = self.picture(image)
        props = all_proposals(pic)
        self.classifier.colourless = self._colourless(pic)
        t1 = time.perf_counter()
        pyramid = pic.pyramid()
        rank_p, suit_p = self.classifier.read(
            pyramid, props, pic.pyramid(gate=True), spare=self._spares
        )
        t2 = time.perf_counter()
        rechecked = self._recheck(pyramid, props, rank_p, suit_p)
        squeezed = self._squeezed(pyramid, props, rank_p, suit_p)
        self.timings = {
            "proposals": t1 - t0,
            **self.classifier.timings,  # gate (with its patches), classify (with its patches)
            "recheck": time.perf_counter() - t2,
            "proposals_n": float(len(props)),
            "rechecked_n": float(rechecked),
            "squeezed_n": float(squeezed),
        }
        dets = self._typical(self._decode(props, rank_p, suit_p))
        return self._to_frame(self._counted(dets, pic.image))

    def detect_regions(
        self,
        image: NDArray[np.uint8] | Picture,
        rois: list[Box],
        *,
        index_px: float | None = None,
    ) -> list[IndexDetection]:
        """The indices whose midpoints lie in ``rois`` (boxes in the frame's pixels),
        read region by region: what :meth:`detect_indices` finds there, at a
        fraction of the work when the regions are small.

        Each region is cut with the margin :meth:`Picture.crop` gives for this
        camera's index size (``index_px``, from the calibration), so the paper, ink,
        pairs and patches of every proposal near the region are the whole frame's.
        ``image`` may be a :class:`Picture` of the working frame (:meth:`picture`)
        that the caller made already. Without a calibration, ``index_px`` (the
        largest index d the caller expects, in the frame's pixels) sets the margin;
        a larger index near a region's edge may then read a little differently
        from the whole frame's reading.
        """
        t0 = time.perf_counter()
        # where the cards read lie, in the frame's pixels: a Picture of a shrunk working
        # frame is not (its court check is then not made)
        if isinstance(image, Picture):
            self.faces = None if self.shrinks else image.image
        else:
            self.faces = image
        pic = image if isinstance(image, Picture) else self.picture(image)
        self.classifier.colourless = self._colourless(pic)
        self._forget_lines(rois)
        s = self.scale if self.shrinks else 1.0
        d = self._region_d(index_px)
        found: list[IndexDetection] = []
        parts = {"proposals": 0.0, "gate": 0.0, "classify": 0.0, "recheck": 0.0}
        counts = {"proposals_n": 0.0, "rechecked_n": 0.0, "pixels_n": 0.0}
        for roi in rois:
            # the region in the working picture, and a pad for the indices near it
            # that decide between two readings of one index on its edge
            w_roi = (
                int(np.floor(roi[0] * s)),
                int(np.floor(roi[1] * s)),
                int(np.ceil(roi[2] * s)),
                int(np.ceil(roi[3] * s)),
            )
            box = pic.crop(w_roi, d)
            x0, y0, x1, y1 = box
            if x1 <= x0 or y1 <= y0:
                continue
            ta = time.perf_counter()
            props = all_proposals(pic, box, pic.ink_box(w_roi, d, box))
            pad = 2 * SAME_INDEX * d
            near = (
                (props.x + x0 >= w_roi[0] - pad)
                & (props.x + x0 < w_roi[2] + pad)
                & (props.y + y0 >= w_roi[1] - pad)
                & (props.y + y0 < w_roi[3] + pad)
            )
            props = props.take(np.nonzero(near)[0])
            tb = time.perf_counter()
            pyramid = pic.pyramid(box)
            rank_p, suit_p = self.classifier.read(
                pyramid, props, pic.pyramid(box, gate=True), spare=self._spares
            )
            tc = time.perf_counter()
            counts["rechecked_n"] += self._recheck(pyramid, props, rank_p, suit_p)
            parts["proposals"] += tb - ta
            parts["gate"] += self.classifier.timings["gate"]
            parts["classify"] += self.classifier.timings["classify"]
            parts["recheck"] += time.perf_counter() - tc
            counts["proposals_n"] += len(props)
            counts["pixels_n"] += (x1 - x0) * (y1 - y0)
            # the pips counted only for the readings kept: those in the region
            dets = self._typical(self._decode(props, rank_p, suit_p))
            framed = self._to_frame(dets, x0, y0)
            inside = [
                d
                for d, f in zip(dets, framed, strict=True)
                if roi[0] <= f.x < roi[2] and roi[1] <= f.y < roi[3]
            ]
            found += self._to_frame(self._counted(inside, pic.image, (x0, y0)), x0, y0)
        self.timings = {"regions": time.perf_counter() - t0, **parts, **counts}
        return found

    @property
    def deck(self) -> Deck | None:
        """The pack read (:mod:`vision.decks`); ``None``: every rank."""
        return self._deck

    @deck.setter
    def deck(self, value: Deck | None) -> None:
        self._deck = value
        if getattr(self, "_calibration", None) is not None:  # the working scale: the pack's
            self.calibration = self._calibration
        self._others: NDArray[np.intp] | None = None
        if value is not None and len(value.ranks) < len(RANK_CLASSES) - 1:
            self._others = np.array(
                [i for i, r in enumerate(RANK_CLASSES) if i > 0 and r not in value.ranks], np.intp
            )

    def _in_deck(self, rank_p: NDArray[np.float32]) -> None:
        """Drop the ranks the pack does not hold, in place: the probabilities given
        that the reading is "no index" or one of the pack's ranks. A patch the network
        took surely for a rank the pack lacks reads as nothing sure."""
        if self._others is None or not len(rank_p):
            return
        rank_p[:, self._others] = 0.0
        total = rank_p.sum(axis=1)
        rank_p /= np.maximum(total, 1e-12)[:, None]
        rank_p[total <= 0, 0] = 1.0

    def _colourless(self, pic: Picture) -> bool:
        """Whether ``pic`` is read as a picture without colour (:attr:`Picture.colourless`).
        With ``one_camera`` (the live loop: every frame from one camera), a camera
        that has given one frame in colour is a colour camera: a frame of a pale table
        with no red card and no hand in sight has no colour to speak of, and its
        spades would be read as diamonds half the time."""
        if self.colour_seen:
            return False
        colourless = pic.colourless
        if not colourless and self.one_camera:
            self.colour_seen = True
        return colourless

    @property
    def _spares(self) -> bool:
        """Whether the first reading of a picture's proposals spares the other
        networks where the model is sure of no index (``IndexClassifier.classify``):
        not in a single picture, whose squeezed cuts follow what the networks leant
        to where they read no index (:meth:`_squeezed`)."""
        return not self.squeezes

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
        self._in_deck(rank_p)  # every reading of the network passes here first
        conf = rank_p.max(axis=1) * suit_p.max(axis=1)
        doubt = np.nonzero(self._index_read(rank_p) & (conf < RECHECK))[0]
        if doubt.size == 0:
            return 0
        sub = props.take(doubt)
        more_r, more_s = self._read_again(
            pyramid, [(replace(sub, d=sub.d * s), 1.0) for s in RECHECK_SCALES]
        )
        n = len(RECHECK_SCALES) + 1  # a mean of rows within the pack stays within it
        rank_p[doubt] = (rank_p[doubt] + more_r.sum(axis=0)) / n
        suit_p[doubt] = (suit_p[doubt] + more_s.sum(axis=0)) / n
        return int(doubt.size)

    def _read_again(
        self, pyramid: Pyramid, cuts: list[tuple[Proposals, float]]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The network's reading of proposals cut again each way of ``cuts`` (the
        proposals, and the aspect they are cut at), all in one pass, within the pack:
        rank and suit probabilities, one block of rows a cut."""
        patches = np.concatenate([extract_patches(pyramid, p, aspect=a) for p, a in cuts])
        more_r, more_s = self.classifier.classify(patches)
        self._in_deck(more_r)
        m = len(cuts)
        return more_r.reshape(m, -1, more_r.shape[1]), more_s.reshape(m, -1, more_s.shape[1])

    def _squeezed(
        self,
        pyramid: Pyramid,
        props: Proposals,
        rank_p: NDArray[np.float32],
        suit_p: NDArray[np.float32],
    ) -> int:
        """Where :attr:`squeezes` are set (a single picture): each proposal the gate
        is sure of (``SQUEEZE_GATE``) that reads as no index or less sure than
        ``RECHECK`` is cut again at each of those widths; a cut read at least
        ``SQUEEZE_SURE`` sure as the rank the network leant to (its likeliest rank
        but "no index") and the suit it read takes the reading's place, in place.
        Returns how many did.

        The real deals photographed at a slant (far side 70 % as wide) read 131 of
        138: indices on the far side, squeezed across, read as no index (an 8H at
        0.987, the 8 at 0.012) or as another rank. A sure cut of any rank added twice
        as many false readings as right ones on the synthetic scenes; one that bears
        out the network's own leaning, and in single pictures only, did not (the
        live loop's frames are taken from overhead, and keep their speed)."""
        gate = self.classifier.last_gate
        if not self.squeezes or gate is None or len(gate) != len(props):
            return 0
        conf = rank_p.max(axis=1) * suit_p.max(axis=1)
        unread = (rank_p.argmax(axis=1) == 0) | (conf < RECHECK)
        doubt = np.nonzero((gate > SQUEEZE_GATE) & unread)[0]
        if doubt.size == 0:
            return 0
        sub = props.take(doubt)
        leant = rank_p[doubt, 1:].argmax(axis=1) + 1
        suit = suit_p[doubt].argmax(axis=1)
        best = np.zeros(doubt.size, np.float32)
        cut_r, cut_s = self._read_again(pyramid, [(sub, aspect) for aspect in self.squeezes])
        for more_r, more_s in zip(cut_r, cut_s, strict=True):
            sure = more_r.max(axis=1) * more_s.max(axis=1)
            take = (
                (more_r.argmax(axis=1) == leant)
                & (more_s.argmax(axis=1) == suit)
                & (sure >= SQUEEZE_SURE)
                & (sure > best)
            )
            for j in np.nonzero(take)[0].tolist():
                rank_p[doubt[j]], suit_p[doubt[j]] = more_r[j], more_s[j]
                best[j] = sure[j]
        return int(np.count_nonzero(best))

    def _typical(self, dets: list[IndexDetection]) -> list[IndexDetection]:
        """``dets`` with each ``d`` given as a typical index's (:attr:`index_k`): a
        jumbo index's card is no larger than any other."""
        k = self.index_k
        return dets if k == 1.0 else [replace(d, d=d.d / k) for d in dets]

    def _counted(
        self,
        dets: list[IndexDetection],
        image: NDArray[np.uint8],
        origin: tuple[int, int] = (0, 0),
    ) -> list[IndexDetection]:
        """``dets`` (in ``image``'s pixels from ``origin``), each reading of a number rank
        less sure than ``PIP_COUNTED`` of its rank with the pips its face shows
        (:func:`vision.pips.read_pips`), in a single picture (:meth:`read_any_scale`,
        where a reading's time matters less than a frame's) every one, so that a
        number read surely at one corner whose face shows its pips is not looked at
        for a court's (:meth:`_court_read_as_number`), and one whose face shows
        another number is doubted however sure; and each less sure than
        ``SUIT_COUNTED`` of its suit, in a picture with colour and with no other
        card's reading on its face (:func:`_face_covered`), with the suit its pips'
        shapes show (a count made for that alone kept for no rank); and each reading
        of a black suit or a diamond (``GLYPH_SUITS``), in a picture with colour, with
        the suit its index's glyph shows by its outline as taken (:mod:`vision.suits`)."""
        ox, oy = origin
        out = []
        taken = self._glyphs_in  # (the picture as taken, where this one was remade)
        if taken is None or taken.shape[:2] != image.shape[:2]:
            taken = image
        for det in dets:
            if det.suit in GLYPH_SUITS and not self.classifier.colourless:
                # (the index as printed: a jumbo one's d is handed on as a typical one's)
                d = det.d * self.index_k
                at = (det.x + ox, det.y + oy, det.ux, det.uy, d)
                told = index_suit(taken, *at, enlarged=self._enlarged)
                det = replace(det, shape_suit=told)
            if det.rank not in PIP_RANKS:
                out.append(det)
                continue
            suit_sure = det.confidence / det.rank_confidence if det.rank_confidence > 0 else 0.0
            by_rank = det.rank_confidence < PIP_COUNTED or bool(self.squeezes)
            # (no colour, no suit: a grey picture's red pips look black; and not where
            # another card's index lies on this one's face: its pips may be that card's)
            shaped = (
                suit_sure < SUIT_COUNTED
                and not self.classifier.colourless
                and not _face_covered(det, dets)
            )
            if by_rank or shaped:
                pips, suit = read_pips(
                    image,
                    det.x + ox,
                    det.y + oy,
                    det.ux,
                    det.uy,
                    det.d,
                    det.suit if shaped else None,
                )
                # a count looked at only for the suit says nothing of a sure rank
                det = replace(det, pips=pips if by_rank else None, pip_suit=suit)
            out.append(det)
        return out

    def _decode(
        self, props: Proposals, rank_p: NDArray[np.float32], suit_p: NDArray[np.float32]
    ) -> list[IndexDetection]:
        """The readings of an index kept, one per index."""
        rank_i = rank_p.argmax(axis=1)
        suit_i = suit_p.argmax(axis=1)
        rank_c = rank_p[np.arange(len(rank_i)), rank_i]
        suit_c = suit_p[np.arange(len(suit_i)), suit_i]
        conf = rank_c * suit_c
        # only readings of an index are candidates (most proposals read "no index")
        cand = np.nonzero(self._index_read(rank_p))[0]
        order = cand[np.argsort(-conf[cand], kind="stable")]
        courts = rank_p[order][:, COURT_COLUMNS].tolist()
        kept: list[IndexDetection] = []
        gone: list[IndexDetection] = []  # readings a nearer suit replaced (_keep)
        # the rank each blob is read as, by the surest reading that took it in and was
        # kept, or was one index with a reading of that rank that stands for its index
        ranks_of: dict[int, str] = {}
        pairs = np.stack([props.rank_index[order], props.suit_index[order]], axis=1).tolist()
        inks: dict[int, list[int]] = {}  # the blobs of each reading made, by its id
        # each candidate's blobs, rank and suit, in order
        reads = [
            (
                [b for b in pairs[k] if b >= 0],
                RANK_CLASSES[int(rank_i[i])],
                SUIT_CLASSES[int(suit_i[i])],
            )
            for k, i in enumerate(order.tolist())
        ]
        # the kept reading that took each blob as its rank glyph
        glyph_of: dict[int, IndexDetection] = {}
        for k, i in enumerate(order.tolist()):
            blobs, rank, suit = reads[k]
            if any(ranks_of.get(b, rank) != rank for b in blobs):
                # its ink is read, surer, as another rank's index: paired with another
                # blob (a pip beside the index), the same ink is no other index (an
                # unseen font's 10D, its 0 paired with its pip, read QD: a card not
                # there, its middle a few millimetres off the 10D's)
                continue
            glyph = pairs[k][0]
            det = IndexDetection(
                rank,
                suit,
                float(conf[i]),
                float(rank_c[i]),
                float(props.x[i]),
                float(props.y[i]),
                float(props.ux[i]),
                float(props.uy[i]),
                float(props.d[i]),
                courts=(courts[k][0], courts[k][1], courts[k][2]),
            )
            holder = glyph_of.get(glyph) if glyph >= 0 else None
            if holder is not None and holder.suit != suit and not _one_index(holder, det):
                # the rank glyph of a surer index with another suit, paired with
                # something else, read the other way round: a 10S's 10 paired with
                # the card's edge beyond it, read 10C at 0.97 (a card not there, in
                # a 4-index pack placed on the far side of that corner). One glyph
                # is one index's (at one index, _keep chooses between suits)
                continue
            inks[id(det)] = blobs
            stands = _keep(kept, gone, det)
            if stands.rank == rank:
                for b in blobs:
                    ranks_of.setdefault(b, rank)
                if glyph >= 0:
                    glyph_of.setdefault(glyph, stands)
        if len(kept) < 2:
            return kept
        # ... and ink that, paired with a kept index's own blob, is read as that index
        # (its rank and suit, however weakly) is that index's too: a glyph broken in
        # two (a photographed 7's stem apart from its bar, paired with the 7H's heart,
        # read 7H at 0.37; paired with a pip beside it, KH at 0.96: a card not there)
        owner: dict[int, IndexDetection] = {}
        for det in kept:
            for b in inks.get(id(det), ()):
                owner.setdefault(b, det)
        for blobs, rank, suit in reads:
            of = [owner[b] for b in blobs if b in owner]
            index = next((d for d in of if d.rank == rank and d.suit == suit), None)
            if index is not None:
                for b in blobs:  # (the surer reading's, where two claim it)
                    if b not in owner or owner[b].confidence < index.confidence:
                        owner[b] = index
        return [
            det
            for det in kept
            if not any(
                (o := owner.get(b)) is not None
                and o is not det
                and o.rank != det.rank
                and o.confidence > det.confidence
                for b in inks.get(id(det), ())
            )
        ]

    def read(self, image: NDArray[np.uint8]) -> list[CardReading]:
        """Every card in the picture, best first."""
        return self.cards(self.detect_indices(image))

    def read_any_scale(self, image: NDArray[np.uint8]) -> list[CardReading]:
        """Every card in a picture of unknown scale, best first (:meth:`_any_scale`);
        the memory its several readings freed is handed back (vision.memory)."""
        self.squeezes = SQUEEZES  # a single picture may be taken at a slant
        # ... and holds one pack at one scale (a calibrated camera's is known: `read`)
        self.one_scale = self.calibration is None
        try:
            return self._any_scale(image)
        finally:
            self.squeezes = ()
            self.one_scale = False
            release_memory()

    def _any_scale(self, image: NDArray[np.uint8]) -> list[CardReading]:
        """Every card in a picture of unknown scale, best first: a phone photo of one
        card filling the frame, or of a whole table.

        The classifier reads indices of about ``WORK_D`` pixels, and the blob stage
        takes ink blobs up to 90 pixels: an index much larger is proposed only by its
        card's outline, where a typical deck prints it. So a picture in which nothing
        is read surely (at ``confident``) at its own size, with an index no larger
        than ``SCALE_D``, or in which a larger index is read surely, is read again
        shrunk by halves, down to a shorter side of ``MIN_SIDE`` pixels, and the
        scale whose sure readings of such indices are surest in sum (each card
        once) wins (the larger on a tie); a card read at one corner at a scale at
        which its index is smaller than the networks read best is no card where a
        finer scale read that spot surely as another (:func:`_coarse_sight`). A
        picture that reads at its own size (and no larger index surely) keeps that
        reading: a smaller scale that also finds cards in it would mostly add
        misreadings of small print. A picture whose indices are too small
        (:meth:`_small_indices`: a photo from far off, a thumbnail) is read again at
        twice its size, and the surer reading stands;
        so is a picture whose edges are soft (:func:`sharpness` under ``SOFT``),
        sharpened, at the scale chosen; and one smeared by motion (:func:`vision.deblur.
        smear`), with the smear undone at the length measured and one less.
        ``last_scale`` says which scale was used, ``last_sharpened`` whether the
        picture was sharpened, ``last_unsmeared`` the smear undone (degrees, and its
        length in the picture's own pixels) or None. A calibrated camera knows its
        scale: the picture is read as :meth:`read` reads it.
        """
        self.last_scale = 1.0
        self.last_sharpened = False  # whether the reading is of the picture sharpened
        self.last_unsmeared = None  # the motion blur undone: (degrees, the picture's pixels)
        self.last_gain = 1.0  # how much an underexposed picture was brightened
        image = as_bgr(image)  # grey or BGRA made BGR; another depth is an ImageError
        if self.calibration is not None:
            return self.read(image)
        image, self.last_gain = exposed(image)  # an underexposed picture brightened
        h, w = image.shape[:2]
        first = min(1.0, float(np.sqrt(MAX_READ_PIXELS / (h * w))))  # a huge photograph
        score, readings, sights = self._read_resized(image, _resized(image, first))
        # an index read surely whose size does not settle the scale (in the pixels read)
        outsize = any(
            r.confidence >= self.confident and _index_d(r) * first > SCALE_D for r in readings
        )
        best: tuple[float, float, list[CardReading]] = (score, first, readings)
        tried = [(first, sights)]  # each scale read and its indices, finest first
        k = first / 2
        search = not (score > 0 and not outsize)
        while search and min(h, w) * k >= MIN_SIDE:
            score, found, sights = self._read_resized(image, _resized(image, k), tried)
            if score > best[0]:
                best = (score, k, found)
            tried.append((k, sights))
            k /= 2
        if best[1] == 1.0 and self._small_indices(best[2]) and 4 * h * w <= MAX_UP_PIXELS:
            score, found, _ = self._read_resized(image, _resized(image, 2.0))
            if score > best[0]:
                best = (score, 2.0, found)
        # soft edges (defocus, or the enlarging above): the scale chosen, sharpened
        chosen = _resized(image, best[1])
        finer = [t for t in tried if t[0] > best[1]]
        if sharpness(chosen) < SOFT:
            blurred = cv2.GaussianBlur(chosen, (0, 0), SHARPEN_SIGMA)
            for amount in SHARPEN_AMOUNTS:
                sharp = cv2.addWeighted(chosen, 1 + amount, blurred, -amount, 0)
                score, found, _ = self._read_remade(image, sharp, chosen, finer)
                if score > best[0]:
                    best = (score, best[1], found)
                    self.last_sharpened = True
        # smeared by motion (a shaking hand): the smear undone, at the length found
        # and one less (one too long rings), the surer reading standing
        moved = smear(chosen)
        at = best[1]  # the scale of the picture the smear is undone in
        if moved is not None and chosen.shape[0] * chosen.shape[1] > MAX_UNSMEAR_PIXELS:
            # undone on the picture shrunk (the filter's cost and memory grow with it)
            k = float(np.sqrt(MAX_UNSMEAR_PIXELS / (chosen.shape[0] * chosen.shape[1])))
            chosen = _resized(chosen, k)
            at *= k
            moved = smear(chosen)
        if moved is not None:
            angle, length = moved
            for along in sorted({length, max(MIN_LENGTH - 1, length - 1)}, reverse=True):
                remade = unsmeared(chosen, angle, along)
                score, found, _ = self._read_remade(image, remade, chosen, finer)
                if score > best[0]:
                    best = (score, best[1], found)
                    self.last_sharpened = False
                    # the smear in the picture's own pixels
                    self.last_unsmeared = (angle, round(along / at, 1))
        self.last_scale = best[1]
        return best[2]

    def _read_resized(
        self,
        image: NDArray[np.uint8],
        resized: NDArray[np.uint8],
        finer: Sequence[tuple[float, list[IndexDetection]]] = (),
    ) -> tuple[float, list[CardReading], list[IndexDetection]]:
        """The score (:meth:`_scale_score`) of a reading of ``resized`` (``image`` at
        another size, or changed), its readings in ``image``'s pixels, but for coarse
        sights that ``finer`` scales deny (:func:`_coarse_sight`), and its indices read
        (there too: how this scale sees each spot, for a coarser one's)."""
        (h, w), (rh, rw) = image.shape[:2], resized.shape[:2]
        # (an index glyph enlarged to be read is as small as taken: vision.suits)
        self._enlarged = max(1.0, rw / w)
        try:
            dets = self.detect_indices(resized)
            found = self.cards(dets)
        finally:
            self._enlarged = 1.0
        k = (rw / w + rh / h) / 2
        pairs = [(r, _scaled(r, w / rw, h / rh)) for r in found]
        sure, jumbo = self.confident, self.index_k
        pairs = [(r, s) for r, s in pairs if not _coarse_sight(s, k, finer, sure, jumbo)]
        sights = _scaled_dets(dets, w / rw, h / rh)
        return self._scale_score([r for r, _ in pairs]), [s for _, s in pairs], sights

    def _read_remade(
        self,
        image: NDArray[np.uint8],
        remade: NDArray[np.uint8],
        taken: NDArray[np.uint8],
        finer: Sequence[tuple[float, list[IndexDetection]]] = (),
    ) -> tuple[float, list[CardReading], list[IndexDetection]]:
        """:meth:`_read_resized` of a picture whose edges were made afresh (sharpened, a
        smear undone) from ``taken`` (the picture as taken, at its size): its glyphs'
        outlines ring, and are looked at for a suit in ``taken`` instead
        (:func:`vision.suits.index_suit`; a Nicu 4S's spade, a smear undone, had
        three deep notches)."""
        self._glyphs_in = self.working(as_bgr(taken))  # (as the remade one is read)
        try:
            return self._read_resized(image, remade, finer)
        finally:
            self._glyphs_in = None

    def _small_indices(self, readings: list[CardReading]) -> bool:
        """Whether a picture read so has indices too small to read well: nothing read
        surely, or the sure readings' indices under ``UP_D`` at the median."""
        sure = [_index_d(r) for r in readings if r.confidence >= self.confident]
        return not sure or float(np.median(sure)) < UP_D

    def _scale_score(self, readings: list[CardReading]) -> float:
        """How well a scale reads a picture: the sum over the cards it reads surely,
        with an index no larger than ``SCALE_D``, of each card's surest confidence
        (a card read twice, its corners apart, counts once: else a scale that splits
        a card and adds a misreading beat one that reads it whole)."""
        best: dict[str, float] = {}
        for r in readings:
            if r.confidence >= self.confident and _index_d(r) <= SCALE_D:
                best[r.card] = max(best.get(r.card, 0.0), r.confidence)
        return sum(best.values())

    def cards(
        self, dets: list[IndexDetection], hands: Callable[[float, float], bool] | None = None
    ) -> list[CardReading]:
        """The cards that index detections (each at least ``threshold * 0.6`` sure of
        its rank) make: two opposite corners of one card joined, placed on the
        table when calibrated, flagged, best first. ``hands(x, y)``: whether a hand
        is over a card whose middle lies at that point of the frame now (the live
        loop's motion gate): a number card read at one corner is looked at for a
        court's face where none is (:meth:`_court_read_as_number`)."""
        # a number rank read where the face plainly shows another number of pips is a
        # misreading of the index (a serif 3 read as an 8), however sure: it counts
        # only a PIP_DOUBT share as sure, so that its card's other corner, read
        # right, is not outweighed by it; where the face agrees, the rank is surer
        # (docs/vision.md "Pips"). The detections themselves stay as read: the live
        # loop keeps them from frame to frame and weighs them afresh each time, and a
        # reading's indices are the detections as read.
        weighed = [_weighed(d) for d in dets]
        read_as = {id(w): d for w, d in zip(weighed, dets, strict=True)}
        dets = weighed
        by_card: dict[str, list[IndexDetection]] = {}
        for det in dets:
            by_card.setdefault(det.card, []).append(det)
        groups: list[tuple[str, list[IndexDetection], int]] = []  # card, corners, copies
        clusters: dict[str, list[list[IndexDetection]]] = {}
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
            clusters[card] = cards
        # a pack printing its index in four corners: a card's own code read again where
        # a card read at two opposite corners has one of its others, on FOUR_WITNESSES
        # cards and FOUR_SHARE of those read at two opposite corners (a two-index
        # pack's misread neighbour is one, now and then); in the live loop (a
        # calibrated camera: one table, one pack) the cards of earlier frames count too
        one_copy = self.deck is None or self.deck.copies == 1
        paired = {card for card, cards in clusters.items() if any(len(c) == 2 for c in cards)}
        hits = {
            card: _other_corner_hits(cards)
            for card, cards in clusters.items()
            if one_copy and len(cards) > 1
        }
        witnesses = {card for card, found in hits.items() if found}
        if self.calibration is not None:
            self._four_witnesses |= witnesses
            self._paired |= paired
            witnesses, paired = self._four_witnesses, self._paired
        four = len(witnesses) >= max(FOUR_WITNESSES, FOUR_SHARE * len(paired))
        also: dict[int, tuple[IndexDetection, ...]] = {}  # by the card's first corner
        sides: dict[int, IndexDetection] = {}  # ... and its other side's top left
        loose = four and self.deck is not None
        for card, cards in clusters.items():
            if len(cards) > 1 and one_copy:
                read_so = _four_corners(cards, read_as, loose, sides, hits[card])
                also.update((id(members[0]), more) for members, more in read_so if more)
                cards = [members for members, _ in read_so]
            groups += [(card, members, len(cards)) for members in cards]
        # a court whose corners are read as a number (a URW Q as a 9 at both, or a 9 at
        # one and the Q at the other, each unsure), whose face plainly shows a court's
        # panel: the court its corners agree on (the reading's indices stay the
        # detections as read)
        by_face: set[int] = set()
        both = [(g[1][0], g[1][1]) for g in groups if len(g[1]) == 2]  # cards read so
        for i, (_, members, copies) in enumerate(groups):
            if len(members) == 2:
                others = [p for p in both if p[0] is not members[0]]
                court = self._court_by_face(members, others)
                if court is not None:
                    for m, cm in zip(members, court, strict=True):
                        read_as[id(cm)] = read_as[id(m)]
                    also[id(court[0])] = also.get(id(members[0]), ())  # (its other corners)
                    groups[i] = (court[0].card, court, copies)
                    by_face.add(i)
        slant = bool(self.squeezes)  # a single picture (read_any_scale)
        singles = [i for i, g in enumerate(groups) if len(g[1]) == 1]
        joined: set[int] = set()  # a second corner, joined to its card's first
        for i in singles:
            for j in singles:
                if i >= j or i in joined or j in joined:
                    continue
                a, b = groups[i][1][0], groups[j][1][0]
                if a.card == b.card or not _one_card_two_readings(a, b, slant):
                    continue
                court = self._court_by_face([a, b], both)
                if court is not None:
                    for m, cm in zip((a, b), court, strict=True):
                        read_as[id(cm)] = read_as[id(m)]
                    also[id(court[0])] = also.get(id(a), ()) + also.get(id(b), ())
                    groups[i] = (court[0].card, court, groups[i][2])
                    by_face.add(i)
                    joined.add(j)
                    break  # the card has its two corners
        if joined:
            groups = [g for k, g in enumerate(groups) if k not in joined]
            by_face = {i - sum(j < i for j in joined) for i in by_face}
        # a number the network reads at both corners as another (a URW serif 3 as an 8
        # at 0.997 and 0.984), whose face shows plainly one number of pips at both: that
        # number (the reading's indices stay the detections as read)
        by_pips: set[int] = set()
        for i, (_, members, copies) in enumerate(groups):
            counted = self._read_by_pips(members)
            if counted is not None:
                for m, c in zip(members, counted, strict=True):
                    read_as[id(c)] = read_as[id(m)]
                also[id(counted[0])] = also.get(id(members[0]), ())
                groups[i] = (counted[0].card, counted, copies)
                by_pips.add(i)
        if by_pips or by_face:  # how many cards each card is read as, afresh
            n_read = Counter(card for card, _, _ in groups)
            groups = [(card, members, n_read[card]) for card, members, _ in groups]
        # two corners of one card read as two different cards (one half covered by the
        # card laid over it, a hand, a shadow: an 8 read as a 3): the less sure gives way
        against: dict[int, float] = {}
        singles = [i for i, g in enumerate(groups) if len(g[1]) == 1]
        corners = [(g[1][0], g[1][1]) for g in groups if len(g[1]) == 2]  # of one card
        for i in singles:
            for j in singles:
                a, b = groups[i][1][0], groups[j][1][0]
                if i < j and a.card != b.card and _one_card_two_readings(a, b, slant):
                    against[i] = max(against.get(i, 0.0), b.confidence)
                    against[j] = max(against.get(j, 0.0), a.confidence)
                    corners.append((a, b))
        # where the pack prints four indices (``four``: seen in this picture), a reading
        # from one corner where a card read at two opposite corners has one of its
        # others (_at_other_corner) is that card's own corner misread (a German B read
        # as an 8). Not in a pack of two: another card's index peeking past a card's
        # corner lies within an index size of that spot (a 7C's beside a 3C's bottom
        # left corner in the synthetic bench; six cards of 100 scenes lost to it)
        for i in singles if four else ():
            q = groups[i][1][0]
            for card, members, _ in groups:
                if len(members) == 2 and card != q.card and _at_other_corner(members, q):
                    sure = _either(m.confidence for m in members)
                    against[i] = max(against.get(i, 0.0), sure)
        # one index's ink read at two scales as two cards (a URW 4H's rank and heart
        # read again with 1.4 times the index size as a 4D, both at 1.00): the reading
        # of one corner gives way to a card read at both its corners, or to one as
        # sure read at another place as well (its two corners not joined)
        shared: dict[int, float] = {}
        for i in singles:
            a = groups[i][1][0]
            for card, members, copies in groups:
                if card == a.card or (len(members) < 2 and copies <= groups[i][2]):
                    continue
                for b in members:
                    if _one_ink(a, b) and (len(members) == 2 or b.confidence >= a.confidence):
                        shared[i] = max(shared.get(i, 0.0), b.confidence)
        # the readings' indices as they were read (the live loop knows its fresh
        # detections by identity, and reports flagged readings made of them)
        read = [tuple(read_as[id(m)] for m in members) for _, members, _ in groups]
        outlines = [_outline(indices) for indices in read]
        impossible = self._impossible(groups, outlines)
        printed = self._court_print(groups, corners)
        in_print = self._in_print(groups)
        self.outsize_read = []
        if self.one_scale:
            outsize = _outsize(groups)
        elif self.index_px is not None:
            outsize = self._off_scale(groups, self.index_px, self.calibration)
        else:
            outsize = set()
        readings: list[CardReading] = []
        for i, (card, members, copies) in enumerate(groups):
            conf = _either(m.confidence for m in members)
            rank_conf = _either(m.rank_confidence for m in members)
            flags = []
            if i in against:
                if against[i] >= conf:  # the other corner is as sure: this one gives way
                    conf *= 1 - against[i]
                    rank_conf *= 1 - against[i]
                flags.append("corners-disagree")
            if i in shared:
                conf *= 1 - shared[i]
                rank_conf *= 1 - shared[i]
                flags.append("one-ink")
            if any(m.pips_disagree for m in members):
                flags.append("pips-disagree")
            if any(m.pip_suit == m.suit != read_as[id(m)].suit for m in members):
                flags.append("suit-by-pips")
            if any(
                m.pip_suit is None and m.shape_suit == m.suit != read_as[id(m)].suit
                for m in members
            ):
                flags.append("suit-by-shape")
            if i in by_pips:
                flags.append("read-by-pips")
            if i in by_face:
                flags.append("read-by-face")
            if i in impossible:  # print on another card's face, read as a card
                conf *= 0.1
                rank_conf *= 0.1
                flags.append("impossible")
            if i in printed:  # print on a court's face, read as a card
                conf *= 0.1
                rank_conf *= 0.1
                flags.append("court-print")
            if i in in_print:  # letters in a line of print, read as a card
                conf *= 0.1
                rank_conf *= 0.1
                flags.append("in-print")
            if i in outsize:  # print at another scale than the pack's, read as a card
                if conf >= OUTSIZE_SURE and self.index_px is not None:
                    d = sum(m.d for m in members) / len(members)
                    self.outsize_read.append((card, d / self.index_px))
                conf *= 0.1
                rank_conf *= 0.1
                flags.append("outsize")
            kept = conf >= self.threshold or rank_conf >= self.threshold
            if kept and self._court_read_as_number(card, members, dets, hands):
                conf *= PIP_DOUBT
                rank_conf *= PIP_DOUBT
                flags.append("court-face")
            if conf < self.confident:
                flags.append("low-confidence")
            if copies > 1:
                flags.append("duplicate")
            if not (conf >= self.threshold or rank_conf >= self.threshold):
                continue  # left out: not placed either
            position, zone = self._place(outlines[i])
            more = tuple(read_as[id(m)] for m in also.get(id(members[0]), ()))
            side = sides.get(id(members[0]))
            elsewhere = None
            if side is not None and len(members) == 1:
                corners_there = _card_outline(side)
                elsewhere = (corners_there, *self._place(corners_there))
            readings.append(
                CardReading(
                    card,
                    conf,
                    rank_conf,
                    outlines[i],
                    read[i],
                    position,
                    zone,
                    tuple(flags),
                    more,
                    elsewhere,
                )
            )
        readings.sort(key=lambda r: -r.confidence)
        return readings

    def _read_by_pips(self, members: list[IndexDetection]) -> list[IndexDetection] | None:
        """A card's two corners read as one number rank, each corner's face showing
        plainly one other number of pips, the same at both (counted from each corner's
        own outline: no size or turn of it counts another number,
        :func:`vision.pips.count_pips`), read as that number (``PIP_READ`` sure at each
        corner, the suit as read); ``None`` where they are not, or the pack lacks that
        rank. One corner alone is not enough: a face half under the next card counts
        fewer pips. Nor is a count that the rank read shows with some of its pips
        covered (``HIDDEN_COUNTS``: a 5 with a chip on its middle pip shows a 4 at both
        corners' outlines alike), nor one whose layout holds the rank read's (a dark
        mark on a 4's middle shows a 5, on a 2's a 3); that reading stays doubted."""
        if len(members) != 2 or not all(m.pips_disagree for m in members):
            return None
        count = members[0].pips
        if count is None or members[1].pips != count:
            return None
        if layouts_nested(PIP_RANKS[members[0].rank], count):  # pips covered, ink added
            return None
        rank = str(count)
        if self.deck is not None and rank not in self.deck.ranks:
            return None
        return _reread(members, rank)

    @staticmethod
    def _off_scale(
        groups: list[tuple[str, list[IndexDetection], int]],
        index_px: float,
        calibration: Calibration | None = None,
    ) -> set[int]:
        """The groups (card, corners, copies) whose index, the mean of their one or
        two corners', is not ``CALIBRATED_SIZES`` times a calibrated camera's index size
        where it lies (the calibration's scale there; ``index_px``, the size at the
        markers' middle, where it is well inside either way or there is no
        calibration: a tilted camera sees its near side larger)."""
        lo, hi = CALIBRATED_SIZES
        out: set[int] = set()
        for i, (_, members, _) in enumerate(groups):
            # one corner or two: the median is the mean (no NumPy call a group, every frame)
            n = len(members)
            d = sum(m.d for m in members) / n
            ref = index_px
            if calibration is not None and not lo * TILT <= d / index_px <= hi / TILT:
                x, y = sum(m.x for m in members) / n, sum(m.y for m in members) / n
                ref = _index_px_at(calibration, (x, y))
            if not lo <= d / ref <= hi:
                out.add(i)
        return out

    def _court_read_as_number(
        self,
        card: str,
        members: list[IndexDetection],
        dets: Sequence[IndexDetection] = (),
        hands: Callable[[float, float], bool] | None = None,
    ) -> bool:
        """Whether a number card read at both its corners shows a court card's face
        between them (:func:`vision.pips.court_between`): a court whose index is
        printed in a font the network never met, read surely as a number (a swash Q
        as a 9C at 1.00 in a single photograph; a German pack's B as an 8D laid in a
        trick, a false ``placed``). A number read at one corner, whose face does not
        plainly show its pips, is looked at as well, between that corner and where a
        typical card puts the other: in a single picture (:meth:`read_any_scale`:
        one card, or a deal laid out; a URW QS shot by a phone, one corner read 9S at
        0.96, the other not at all), and in the live loop where no hand is over it
        (``hands``; a German B laid under a lamp's shadow read 8D at 0.97 at one
        corner, the other unread, and placed; a hand's fingers over a 9D it was
        picking up made a panel). Looked at once per pair of corners, or corner (the
        live loop weighs its readings afresh every frame)."""
        if card[:-1] not in PIP_RANKS or self.faces is None:
            return False
        if len(members) == 1:
            a = members[0]
            # a table frame: where no hand is over the card (or one that does not say)
            if not self.squeezes and (hands is None or hands(*card_middle(a, self.index_px))):
                return False
            return self._court_at_one_corner(a, dets)
        if len(members) != 2:
            return False
        return self._court_face(*members)

    def _court_face(self, a: IndexDetection, b: IndexDetection) -> bool:
        """:func:`vision.pips.court_between` the corners ``a`` and ``b`` of one card in
        ``faces``, looked at once per pair of corners (the live loop weighs its readings
        afresh every frame)."""
        if self.faces is None:
            return False
        key = (  # written out: it is made for every number card read at both corners, every frame
            round(a.x, 1),
            round(a.y, 1),
            round(a.ux, 1),
            round(a.uy, 1),
            round(b.x, 1),
            round(b.y, 1),
            round(b.ux, 1),
            round(b.uy, 1),
        )
        court = self._courts.get(key)
        if court is None:
            if len(self._courts) >= COURTS_KEPT:
                self._courts.clear()
            court = court_between(self.faces, (a.x, a.y, a.ux, a.uy), (b.x, b.y, b.ux, b.uy))
            self._courts[key] = court
        return court

    def _court_by_face(
        self,
        members: list[IndexDetection],
        others: Sequence[tuple[IndexDetection, IndexDetection]] = (),
    ) -> list[IndexDetection] | None:
        """Two corners of one card, one of them at least read as a number (both as one
        number, or each as another rank), whose face plainly shows a court's panel
        (:meth:`_court_face`), read as the court they agree on: each corner's likeliest
        court the same, and each corner's court ranks as the network weighed them,
        taken as one court of the three and multiplied together, give that court at
        least ``COURT_SURE`` (a URW Q read 9S at 0.82 at one corner, and 9S at 0.52 or
        QS at 0.48 at the other; the queen 0.18 and 0.48, the knave and king under
        0.001). ``PIP_READ`` sure at each corner, the suit as read, where both read one
        suit. ``None`` where they do not agree; where the network gave the courts under
        ``COURT_SEEN`` at both corners (at either, where the corners read two ranks: a
        sure number at one stands); where the pack lacks that court or the face shows
        no court; where a corner's face shows plainly the pips of the number read; or
        where the middle of another card read at both corners (``others``) lies
        between these two (a court laid across a number card shows its panel there)."""
        if len(members) != 2 or self.faces is None:
            return None
        a, b = members
        if a.suit != b.suit or not (a.rank in PIP_RANKS or b.rank in PIP_RANKS):
            return None
        if any(m.pips is not None and not m.pips_disagree for m in members):
            return None  # the face shows plainly the pips of the number read
        room = _room(a, b)
        if room is None or any(_in_room(room, *_middle(o)) for o in others):
            return None  # another card read at both corners lies on it (laid across)
        seen_a, seen_b = sum(a.courts), sum(b.courts)
        seen = max(seen_a, seen_b) if a.card == b.card else min(seen_a, seen_b)
        if seen < COURT_SEEN:
            return None  # no court worth the name: the network's tails are no reading
        best = max(range(len(COURT_RANKS)), key=a.courts.__getitem__)
        if best != max(range(len(COURT_RANKS)), key=b.courts.__getitem__):
            return None  # each corner takes it for another court
        joint = [pa / seen_a * pb / seen_b for pa, pb in zip(a.courts, b.courts, strict=True)]
        rank = COURT_RANKS[best]
        if joint[best] < COURT_SURE * sum(joint):
            return None
        if self.deck is not None and rank not in self.deck.ranks:
            return None
        if not self._court_face(a, b):
            return None
        return _reread(members, rank)

    def _court_at_one_corner(self, a: IndexDetection, dets: Sequence[IndexDetection]) -> bool:
        """:meth:`_court_read_as_number` of a number read at one corner of a single
        picture, whose face does not plainly show its pips: the other corner guessed
        for cards ``ONE_CORNER_SIZES`` times a typical one's length in index sizes,
        leaving out each guess whose card has another index read on its face (``dets``:
        the face may then be that card's, a court laid over a number)."""
        if self.faces is None or a.d <= 0 or (a.pips is not None and not a.pips_disagree):
            return False  # no face to look at, or it shows its pips
        # the other indices read, in face pixels of a card of a typical size whose
        # index is ``a`` (as _card_outline draws it): across and along the card
        others = [o for o in dets if not _one_index(a, o)]
        dx = np.array([o.x - a.x for o in others], np.float64)
        dy = np.array([o.y - a.y for o in others], np.float64)
        across = (dx * a.uy - dy * a.ux) * INDEX_D / a.d
        along = (dx * a.ux + dy * a.uy) * INDEX_D / a.d
        for k in ONE_CORNER_SIZES:
            fx, fy = INDEX_ANCHOR[0] + across / k, INDEX_ANCHOR[1] + along / k
            if np.any((fx >= 0) & (fx <= FACE_W) & (fy >= 0) & (fy <= FACE_H)):
                continue
            # looked at once per corner and size, as a pair is (_court_face)
            key = (round(a.x, 1), round(a.y, 1), round(a.ux, 1), round(a.uy, 1), round(a.d, 1), k)
            court = self._courts.get(key)
            if court is None:
                if len(self._courts) >= COURTS_KEPT:
                    self._courts.clear()
                o = _opposite_index(replace(a, d=a.d * k))
                court = court_between(
                    self.faces, (a.x, a.y, a.ux, a.uy), (o.x, o.y, o.ux, o.uy), own_middle=True
                )
                self._courts[key] = court
            if court:
                return True
        return False

    @staticmethod
    def _impossible(
        groups: list[tuple[str, list[IndexDetection], int]],
        outlines: list[tuple[tuple[float, float], ...]],
    ) -> set[int]:
        """Readings from one corner that no card can make: the index lies on another
        card's face, ``ON_FACE`` index sizes inside its outline (so its card would
        lie on top of that one), and the card it would make covers, by more than an
        index, an index read surely on another card (so that index would be
        hidden). A card of a row laid under the next one keeps its index in the
        open; court art or a pattern on a face read as an index does not.
        ``outlines``: each group's card outline."""

        out: set[int] = set()
        singles = sorted(
            (i for i, g in enumerate(groups) if len(g[1]) == 1),
            key=lambda i: -groups[i][1][0].confidence,
        )
        if not singles:
            return out  # every card read at both corners (as often in the live loop)
        polys = [np.array(o, np.float32).reshape(-1, 1, 2) for o in outlines]

        def inside(k: int, x: float, y: float) -> float:
            return float(cv2.pointPolygonTest(polys[k], (float(x), float(y)), True))

        for i in singles:  # surest first: a reading found impossible testifies to nothing
            card, det = groups[i][0], groups[i][1][0]
            for j, (other, others, _) in enumerate(groups):
                if j == i or j in out or other == card:
                    continue
                sure = max(o.confidence for o in others)
                # a witness: read surely, by both corners or at least as surely as this
                if sure < 0.9 or (len(others) == 1 and sure < det.confidence):
                    continue
                on_face = inside(j, det.x, det.y) > ON_FACE * det.d
                if on_face and any(inside(i, o.x, o.y) > o.d for o in others):
                    out.add(i)
                    break
        return out

    def _court_print(
        self,
        groups: list[tuple[str, list[IndexDetection], int]],
        corners: list[tuple[IndexDetection, IndexDetection]],
    ) -> set[int]:
        """Readings from one corner whose index lies between the two corner indices
        of one card whose face shows a court's panel (:meth:`_court_face`), where the
        print round the reading is the court's own turned half about the card's
        middle (:meth:`_mirrored`, ``MIRRORED``): print on the court's face (its crown
        read as a 3S, at 1.00, in the live check's URW pack), not a card. The panel
        test alone passes a court with a fan of cards laid over a corner of its panel;
        the print of such a card's index is not the court's turned half.
        ``corners``: each card's two corners, a card read at both whatever it is read
        as (that URW QS read 9S at both while a hand passed), or two readings that are
        one card's corners read differently (:func:`_one_card_two_readings`)."""
        out: set[int] = set()
        singles = [i for i, g in enumerate(groups) if len(g[1]) == 1]
        if not singles or self.faces is None:
            return out
        for a, b in corners:
            room = _room(a, b)
            if room is None:
                continue
            for i in singles:
                d = groups[i][1][0]
                if d is a or d is b or not _in_room(room, d.x, d.y):
                    continue
                if self._court_face(a, b) and self._mirrored(d, room[0], room[1]) >= MIRRORED:
                    out.add(i)
        return out

    def _in_print(self, groups: list[tuple[str, list[IndexDetection], int]]) -> set[int]:
        """Readings of one corner whose rank is a letter in a line of print
        (:func:`vision.lines.in_line_of_print`: a newspaper's headline under the cards,
        its "di" read 10S at 1.00). A card read at both corners is a card. Each reading
        is looked at alone first; one that looks like print is looked at again, told
        of the readings near it that do not (cards read at both corners, and readings
        of one corner that are no print alone: the indices of a row of cards laid each
        over the one before, a margin apart), whose ranks are then not letters. Two
        letters of one word both read as indices do not clear each other; a word's
        first letters read as one, not print alone, do (the rule errs towards the
        cards). Each look is made once per reading and the readings it is told of
        (the live loop weighs its readings afresh every frame; :meth:`_forget_lines`)."""
        out: set[int] = set()
        if self.faces is None:
            return out
        singles = [i for i, (_, members, _) in enumerate(groups) if len(members) == 1]
        alike = {i for i in singles if self._line_verdict(groups[i][1][0], [])}
        if not alike:
            return out
        letters = {id(groups[i][1][0]) for i in alike}
        cards = [m for _, members, _ in groups for m in members if id(m) not in letters]
        for i in sorted(alike):
            d = groups[i][1][0]
            reach = (_LINE_REACH * d.d) ** 2
            near = [o for o in cards if (o.x - d.x) ** 2 + (o.y - d.y) ** 2 < reach]
            if not near or self._line_verdict(d, near):
                out.add(i)
        return out

    def _forget_lines(self, rois: list[Box]) -> None:
        """Forget the line-of-print verdicts of readings whose strip may reach into
        ``rois`` (the frame's boxes read afresh): what lies there may have changed (a
        card laid beside a kept reading, or taken up)."""
        for key in [
            k
            for k in self._lines
            if any(
                r[0] - _LINE_REACH * k[4] < k[0] < r[2] + _LINE_REACH * k[4]
                and r[1] - _LINE_REACH * k[4] < k[1] < r[3] + _LINE_REACH * k[4]
                for r in rois
            )
        ]:
            del self._lines[key]

    def _line_verdict(self, d: IndexDetection, others: list[IndexDetection]) -> bool:
        """:func:`vision.lines.in_line_of_print` of ``d`` in ``faces``, told of
        ``others``; remembered by where they lie."""
        if self.faces is None:
            return False
        told = [(o.x, o.y, o.ux, o.uy, o.d) for o in others]
        key = tuple(round(v, 1) for v in (d.x, d.y, d.ux, d.uy, d.d, *sum(sorted(told), ())))
        verdict = self._lines.get(key)
        if verdict is None:
            if len(self._lines) >= COURTS_KEPT:
                self._lines.clear()
            verdict = in_line_of_print(self.faces, d.x, d.y, d.ux, d.uy, d.d, told)
            self._lines[key] = verdict
        return verdict

    def _mirrored(self, det: IndexDetection, cx: float, cy: float) -> float:
        """How alike the print round ``det`` and the print turned half about ``(cx,
        cy)`` (a card's middle, as its two corners' readings put it) are in ``faces``:
        the best normalised correlation of the grey square ``2 d`` wide round ``det``,
        turned half, within half an index of its mirror image (a double-headed court's
        print is the same turned half; a card laid on it is not)."""
        if self.faces is None:
            return 0.0
        side = max(4, round(2 * det.d))
        slack = max(1, round(det.d / 2))
        # cut from the frame as it is, then made grey (not the whole frame made grey)
        here = as_grey(cv2.getRectSubPix(self.faces, (side, side), (det.x, det.y)))
        there = as_grey(
            cv2.getRectSubPix(
                self.faces, (side + 2 * slack, side + 2 * slack), (2 * cx - det.x, 2 * cy - det.y)
            )
        )
        if float(here.std()) < 1.0 or float(there.std()) < 1.0:
            return 0.0  # plain paper or cloth: nothing to compare
        turned = cv2.rotate(here, cv2.ROTATE_180)
        return float(cv2.matchTemplate(there, turned, cv2.TM_CCOEFF_NORMED).max())

    def _place(
        self, corners: tuple[tuple[float, float], ...]
    ) -> tuple[tuple[float, float] | None, str | None]:
        """Where a card of these corners lies on the table (millimetres), and in which
        zone; ``None`` for both without a calibration. Looked up where these very
        corners were placed before with this calibration and layout (see ``_PLACES``)."""
        cal = self.calibration
        if cal is None:
            return None, None
        hit = _PLACES.get(id(corners))
        if hit is not None and hit[1] is cal and hit[2] is self.layout:
            return hit[3], hit[4]
        x, y = cal.to_mm([_centre(corners)])[0]
        zone = self.layout.zone_at(float(x), float(y)) if self.layout is not None else None
        position, name = (float(x), float(y)), zone.name if zone else None
        if len(_PLACES) >= OUTLINES_KEPT:
            _PLACES.clear()
        _PLACES[id(corners)] = (corners, cal, self.layout, position, name)
        return position, name


# The outlines drawn (_outline) and the places found (Recognizer._place) lately, by the
# identity of what they were made from: the live loop keeps most of a frame's
# detections from the frame before, and makes the same cards of them every frame.
# Each entry holds the objects its key names, so no other object takes their ids while
# it stands; detections, outlines and layouts are frozen, and a calibration's
# homography is replaced, never changed in place: a hit is what making it afresh gives.
OUTLINES_KEPT = 4096
_OUTLINES: dict[
    tuple[int, ...], tuple[tuple[IndexDetection, ...], tuple[tuple[float, float], ...]]
] = {}
_PLACES: dict[
    int,
    tuple[
        tuple[tuple[float, float], ...],
        Calibration,
        TableLayout | None,
        tuple[float, float],
        str | None,
    ],
] = {}


def _centre(corners: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """The middle of a card's four corners (:attr:`CardReading.centre`)."""
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    return (sum(xs) / 4, sum(ys) / 4)


def _outline(indices: tuple[IndexDetection, ...]) -> tuple[tuple[float, float], ...]:
    """The outline of the card read at these indices (one corner or its two), as
    drawn before for these very detections (``_OUTLINES``)."""
    key = tuple(map(id, indices))
    hit = _OUTLINES.get(key)
    if hit is not None:
        return hit[1]
    outline = _joined_outline(list(indices)) if len(indices) == 2 else _card_outline(indices[0])
    if len(_OUTLINES) >= OUTLINES_KEPT:
        _OUTLINES.clear()
    _OUTLINES[key] = (indices, outline)
    return outline
