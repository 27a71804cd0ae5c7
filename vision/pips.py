"""Counting a number card's pips: evidence about its rank that owes nothing to the
index's font.

The network reads a rank from the corner index. An index printed in a font it never
met can read surely as another rank (a serif 3 as an 8, a 5 as a 6: the live check
with a pack in the URW fonts, ``bench/live.py --fonts unseen``), and no rule about
corners or positions can tell, since both corners of such a card may read alike.
The face itself says how many pips it has, in the same layout on every standard
pack (:data:`vision.faces.PIP_PLACES`): 2 to 10 pips between the two index columns,
laid out symmetric under a half turn (the 7's one extra pip on the middle line).

:func:`count_pips` looks at the face one index reading puts its card at, and
answers only where the face is plain to see: three to ten compact blobs of one ink
and one size between the index columns, laid out as pips are, and nothing else
there (two pips in a column are any two of a column of more: never a count).
A card half under another (its face a strip, or another card's ink on it), a court
figure, a face the outline misses (a pack whose index is printed larger or smaller
than a typical one's) answer ``None``: no evidence either way.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.faces import PIP_PLACES
from vision.faces import H as _H
from vision.faces import W as _W
from vision.proposals import channels, grey_percentile, labelled
from vision.suits import edge_width, inked_red
from vision.suits import notches as notches_of

__all__ = [
    "HIDDEN_COUNTS",
    "INDEX_ANCHOR",
    "INDEX_D",
    "PIP_RANKS",
    "SHAPED",
    "count_pips",
    "court_between",
    "layouts_nested",
    "read_pips",
]

# The ranks with pips to count, and how many each has.
PIP_RANKS = {str(n): n for n in range(2, 11)}
# The smaller counts a number card's face shows with some of its pips covered (a chip,
# a peg, glare, a fingertip): every subset of its layout that passes the layout tests
# here (_laid_out, _symmetric, _seven; tests/test_vision_pips.py derives it). A count
# among these says nothing against the rank read.
HIDDEN_COUNTS: dict[int, frozenset[int]] = {
    5: frozenset({4}),
    6: frozenset({4}),
    7: frozenset({4, 6}),
    8: frozenset({4, 6, 7}),
    9: frozenset({4, 5}),
    10: frozenset({4}),
}


def layouts_nested(a: int, b: int) -> bool:
    """Whether the pip layout of one of two number ranks (``a``, ``b`` pips) lies within
    the other's: the larger's face shows the smaller's count with pips covered
    (``HIDDEN_COUNTS``), the smaller's the larger's with ink added (a dark mark on a
    4's middle shows a 5; on a 2's, whose two pips are never a count, a 3)."""
    lo, hi = sorted((a, b))
    return lo in HIDDEN_COUNTS.get(hi, frozenset()) or (lo, hi) == (2, 3)


# Where a typical index sits on the 250 x 350 face :mod:`vision.faces` draws: its
# midpoint and rank-to-suit distance (the card outline one index reading puts its
# card at, vision.recognize).
INDEX_ANCHOR = (24.0, 55.0)
INDEX_D = 36.0
# The face is looked at this many pixels a face pixel (100 x 140 for the whole face).
_LOOK = 0.4
# Pips' midpoints lie between the index columns (x 72 to 178 on the rendered faces,
# about 0.27 and 0.73 of the width on printed packs; the index's at 24 and 226). The
# blobs counted are those with their midpoints here: room for an outline a sixth too
# large or too small (a deck's index printed smaller or larger, or read with its rank
# paired a little off), since what is counted must then lie as pips lie
# (:func:`_laid_out`), in the middle of the face (``_MIDDLE``); an opposite index
# that comes in breaks the symmetry.
_PIP_X = (30.0, 220.0)
_PIP_Y = (15.0, 335.0)
# ... but not in the two corners the indices take (a pip's midpoint never lies
# there: the rendered faces' nearest are at 72, 66).
_CORNER = (55.0, 100.0)
# The layout's middle lies within this share of the face's width and length of the
# face's middle, and it spans _LONG of the face's length and (four pips or more)
# _WIDE of its width: the rendered faces' pips 0.62 and 0.42, a printed pack's about
# 0.64 and 0.46, give or take the outline's scale.
_MIDDLE = 0.1
_LONG = (0.45, 0.85)
_WIDE = (0.28, 0.65)
# The outline is also drawn for an index this many times as large: a misreading
# often pairs its rank with ink a little off the index's own suit (a URW 5S's lower
# corner read as a 6S 15 % small), and a deck prints its index smaller or larger
# (a URW pack's index two thirds of a typical one's for its card: a 3H whose lower
# corner read 8H at 1.00 counted three pips only at 1.4 and 1.65 times).
# The counts the outlines find must agree.
_SCALES = (1.0, 1.18, 0.85, 1.4, 1.65)
# ... and turned this many degrees either way (at the index's own size): a printed
# pack's index need not stand square on its card (a pinochle 9H's rank and suit lie
# some 8 degrees off the card's length), and the face looked at so is askew, its pips
# off their places. Over every number rank read in the real deal and pinochle
# photographs, faces counted (of 234): square only 44; turned 4 degrees as well 58,
# 5 degrees 63, 6 degrees 61, 8 degrees 56, 12 degrees 49; none of them another
# number than the rank read but at 12 degrees (a synthetic 10H counted as a 7).
_TURNS = (5.0, -5.0)
# A pip is a compact blob of ink this wide (of the face's 250: the rendered faces'
# 30 to 45, a printed pack's about 40; an index's suit about 20, an ace's pip 70+).
_PIP_SIZE = (14.0, 62.0)
# ... of one size with the others (largest area over smallest) ...
_PIP_AREAS = 2.2
# ... printed in one ink (each channel's tint within this of the others': _one_ink) ...
_ONE_INK = 45.0
# ... and where one pip lies, another lies half a turn about the card's middle
# (the pips' own middle), within this much of the face's width.
_MIRROR = 0.08
# A pip lies within this share of the layout's span of its place in it (_laid_out).
_PLACE = 0.13
# The suits whose pips' shapes are told apart (read_pips), two of each colour.
SHAPED = ("S", "C", "H", "D")
# The pips counted are looked at again for their shapes this many samples an image
# pixel (at most one a face pixel: a pip some 40 samples across): at the counting's
# _LOOK a pip of a card 2.36 px/mm shows some 16 samples, where a rendered diamond
# and heart alike fill 0.6 to 0.7 of their boxes.
_SHAPE_LOOK = 2.0
# A pip's notches (_notches), as a share of its box's longer side: deep, and shallow
# (a spade has two deep ones by its stalk at most, none shallower but deep; a
# club's lobes and stalk make three or four deep ones); a heart's one, at its top,
# deep; a diamond's none (a photographed diamond's sides are curved in: wide,
# shallow notches). The table in docs/vision.md ("A suit told by its pips' shapes").
_NOTCH = 0.06
_SHALLOW = 0.04
_HEART_NOTCH = 0.07
_DIAMOND_NOTCH = 0.05
# At most this many of a card's pips are looked at (the four cost 13 % of a count),
# and at least this share of them must each say its suit, and none another.
_SHAPE_PIPS = 4
_SHAPE_SHARE = 0.6
# ... and only where their edges are sharp for their size (_soft): the edge no wider
# than this share of a pip. Rendered faces of six suit designs at 0.3 to 0.6 image
# pixels a face pixel, blurred 0.6 to 1.8 pixels (1,795 counted): at 0.12 and under
# 440 right, none wrong; the first wrong at 0.124 (a Symbola heart, its notch
# shallow, blurred 1 pixel at 0.36: a diamond); 115 wrong in all.
_SOFT_EDGE = 0.12
# ... and their ink of the reading's colour (vision.suits.inked_red)
# A court card's panel (its frame, or a figure drawn in one line) spans at least this
# share of the room between the two indices across and along the card, and this share
# of its ink lies within a pixel of it turned half about the card's middle (a
# double-headed court); the room is looked at with at most _ROOM samples (court_between)
_PANEL = (0.4, 0.4)
_PANEL_SAME = 0.6
_ROOM = (128, 192)
# ... its narrowest breadth (of the rectangle round it) at least this share of the
# room's width; and ink is what lies under this share of the paper near it
_PANEL_BROAD = 0.35
_INK_SHARE = 0.65
# ... judged against paper no brighter than the room closed over a square this share
# of its width (a hard shadow's step across the card is kept: shade is paper there)
_SHADE_CLOSE = 0.7
# ... and where the other corner is only guessed (court_between's own_middle), the
# panel's own middle lies within this share of the room's width and length of the
# room's middle
_OWN_MIDDLE = 0.15
# ... and the panel lies on its card: a band round its box (this share of the room's
# width) is mostly paper (_ringed), where a rug's weave beside a half-covered
# number card is not; the room is looked at with a band this share of it round it
_OWN_RING = 0.08
_OWN_BAND = 0.25
_RING_PAPER = 0.5


def count_pips(
    image: NDArray[np.uint8], x: float, y: float, ux: float, uy: float, d: float
) -> int | None:
    """How many pips the face of the card whose index reads at (``x``, ``y``), rank
    to suit along (``ux``, ``uy``) ``d`` pixels apart, shows in ``image`` (BGR or
    grey); ``None`` where the face does not show them plainly (see the module's
    docstring)."""
    return read_pips(image, x, y, ux, uy, d)[0]


def read_pips(
    image: NDArray[np.uint8],
    x: float,
    y: float,
    ux: float,
    uy: float,
    d: float,
    suit: str | None = None,
) -> tuple[int | None, str | None]:
    """:func:`count_pips`, and where ``suit`` is given (the suit an index reads, one
    of ``SHAPED``), the suit of its colour the counted pips' shapes show
    (:func:`_shaped`): a club's three lobes, a spade's point and stalk, a heart's
    notch, a diamond's four corners; ``None`` where they do not show one plainly,
    or where only a larger outline than the index's own size counted them (it may
    reach onto a card laid over this one's face)."""
    if d <= 0:
        return None, None
    outlines = [(ux, uy, d * k) for k in _SCALES]
    for turn in _TURNS:
        c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
        outlines.append((c * ux - s * uy, s * ux + c * uy, d))
    counted = [(o, _pips_at(image, x, y, *o)) for o in outlines]
    counts = {len(p.ids) for _, p in counted if p is not None}
    if len(counts) != 1:
        return None, None
    count = counts.pop()
    if suit not in SHAPED:
        return count, None
    # the first outline at the index's own size that counted them (one drawn larger
    # reaches past a card laid at the index strip's edge, onto the card over it)
    o, pips = next(((o, p) for o, p in counted if p is not None and o[2] == d), (None, None))
    if o is None or pips is None:
        return count, None
    # the pips' ink must be of the reading's colour (a black club's pips are no
    # heart's, however a reading of a 10D takes them): no colour, no suit
    black = suit in "SC"
    inside = np.isin(pips.labels, pips.ids).astype(np.uint8)
    if not pips.shades or inked_red(inside, pips.shades) != (not black):
        return count, None
    looked = _patches(image, x, y, *o, pips)
    # a blurred pip's notches fill in (a club's lobes run together, a heart's top
    # closes): a spade, a diamond, whatever it is
    if not looked or _soft(looked, pips):
        return count, None
    return count, _shaped([blob for _, blob in looked], black)


def _count_at(
    image: NDArray[np.uint8], x: float, y: float, ux: float, uy: float, d: float
) -> int | None:
    """:func:`count_pips` for the card outline an index of size ``d`` puts there."""
    looked = _pips_at(image, x, y, ux, uy, d)
    return None if looked is None else len(looked.ids)


def _patches(
    image: NDArray[np.uint8], x: float, y: float, ux: float, uy: float, d: float, pips: _Pips
) -> list[tuple[NDArray[np.uint8], NDArray[np.uint8]]]:
    """The first ``_SHAPE_PIPS`` of ``pips`` (counted on the card outline an index of
    size ``d`` at (``x``, ``y``) puts there) looked at again ``_SHAPE_LOOK`` samples an image
    pixel, at most one a face pixel: its box and a sample round it at the counting's
    look, the darkest channel there and the pip's ink (the largest blob under the
    face's mid level between paper and ink; a pip in two pieces, the larger); none
    where a pip's patch holds no ink."""
    s = d / INDEX_D  # image pixels a face pixel
    look = min(_SHAPE_LOOK * s, 1.0)
    k = s / look
    vx, vy = uy, -ux
    ax, ay = INDEX_ANCHOR
    level = (pips.paper + pips.ink) / 2
    out = []
    for i in pips.ids[:_SHAPE_PIPS].tolist():
        bx, by, bw, bh = (int(v) for v in pips.stats[i, :4])
        fx, fy = (bx - 1) / _LOOK - ax, (by - 1) / _LOOK - ay  # from the anchor
        size = (int(np.ceil((bw + 2) / _LOOK * look)), int(np.ceil((bh + 2) / _LOOK * look)))
        m = np.array(
            [
                [k * vx, k * ux, x + (fx * vx + fy * ux) * s],
                [k * vy, k * uy, y + (fx * vy + fy * uy) * s],
            ],
            np.float64,
        )
        flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        patch = cv2.warpAffine(image, m, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
        if patch.ndim == 3:
            b, g, r = channels(patch)
            patch = cv2.min(cv2.min(b, g), r)
        n, labels, stats, _ = labelled(cv2.compare(patch, level, cv2.CMP_LT))
        if n < 2:
            return []
        j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        x0, y0, w, h = (int(v) for v in stats[j, :4])
        out.append((patch, cv2.compare(labels[y0 : y0 + h, x0 : x0 + w], j, cv2.CMP_EQ)))
    return out


def _soft(looked: list[tuple[NDArray[np.uint8], NDArray[np.uint8]]], pips: _Pips) -> bool:
    """Whether the pips' edges (``looked``: each pip's patch and ink, :func:`_patches`)
    are soft for their size: the samples between ink and paper (a fifth to four
    fifths of the way) in a pip's patch, over its outline's length (the edge's
    width), over its box's longer side, at the median over the pips over
    ``_SOFT_EDGE``."""
    shares = [edge_width(patch, blob, pips.ink, pips.paper) for patch, blob in looked]
    return float(np.median(shares)) > _SOFT_EDGE


class _Pips(NamedTuple):
    """A face's plain pips, as :func:`_pips_at` found them."""

    labels: NDArray[np.int32]  # the face's blobs of ink, labelled
    ids: NDArray[np.intp]  # the pips' labels among them
    stats: NDArray[np.int32]  # every blob's box and area (cv2.CC_STAT_*)
    shades: tuple[NDArray[np.uint8], ...]  # the face's blue, green, red (none: grey)
    paper: float  # the face's level for paper, and for the darkest ink
    ink: float


def _pips_at(
    image: NDArray[np.uint8],
    x: float,
    y: float,
    ux: float,
    uy: float,
    d: float,
    look: float = _LOOK,
) -> _Pips | None:
    """The pips the card outline an index of size ``d`` puts there shows plainly, the
    face looked at ``look`` samples a face pixel: the face's blobs labelled, the
    pips' labels among them, and the blobs' boxes (``cv2.CC_STAT_*``); ``None``
    where it shows no plain pips."""
    s = d / INDEX_D  # image pixels a face pixel
    vx, vy = uy, -ux  # across the card, from the index's column inward
    ax, ay = INDEX_ANCHOR
    # face pixel (fx, fy) -> image: index + (fx - ax) s v + (fy - ay) s u; the face is
    # sampled ``look`` times a face pixel, so a sample's step in the image is s / look
    k = s / look
    m = np.array(
        [
            [k * vx, k * ux, x - (ax * vx + ay * ux) * s],
            [k * vy, k * uy, y - (ax * vy + ay * uy) * s],
        ],
        np.float64,
    )
    size = (round(_W * look), round(_H * look))
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    face = cv2.warpAffine(image, m, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    shades: tuple[NDArray[np.uint8], ...] = ()
    if face.ndim == 3 and face.shape[2] >= 3:
        # the darkest channel: black and red ink alike are dark in it, paper is not
        # (OpenCV: NumPy's least over three channels takes 25 times as long)
        b, g, r = shades = channels(face)
        face = cv2.min(cv2.min(b, g), r)
    elif face.ndim == 3:
        face = np.ascontiguousarray(face[..., 0])
    hi = grey_percentile(face, 75)  # paper: most of a number card's face
    lo = cv2.minMaxLoc(face)[0]
    if hi - lo < 40:  # no ink on paper: not a face, or one washed out
        return None
    ink = cv2.compare(face, (hi + lo) / 2, cv2.CMP_LT)
    _, labels, stats, cents = labelled(ink)
    # the blobs judged at once (a textured table in the window makes hundreds of specks)
    bx, by, bw, bh, area = (stats[1:, i] for i in range(5))
    cx, cy = cents[1:, 0], cents[1:, 1]
    fw, fh = size
    big = np.maximum(bw, bh)
    looked = (
        (cx >= _PIP_X[0] * look)
        & (cx <= _PIP_X[1] * look)
        & (cy >= _PIP_Y[0] * look)
        & (cy <= _PIP_Y[1] * look)
        # not past the card's edge (the table, where the outline is too large), and no
        # smaller print (a spade's stalk come apart from it in a soft picture)
        & (bx > 0)
        & (by > 0)
        & (bx + bw < fw)
        & (by + bh < fh)
        & (big >= _PIP_SIZE[0] * look)
        # not in a corner's index (a deck whose pips come close to it)
        & ~((cx < _CORNER[0] * look) & (cy < _CORNER[1] * look))
        & ~((cx > (_W - _CORNER[0]) * look) & (cy > (_H - _CORNER[1]) * look))
    )
    odd = (big > _PIP_SIZE[1] * look) | (bw > 2.2 * bh) | (bh > 2.2 * bw) | (area < 0.35 * bw * bh)
    if (looked & odd).any():
        return None  # a line, a court figure, another card's print: not plain pips
    if not 3 <= np.count_nonzero(looked) <= 10:
        # two pips in a column are any two of a column of more, a card's last two in
        # sight (rendered scenes: 8 of 8 such counts of cards with more were wrong)
        return None
    areas = area[looked]
    if areas.max() > _PIP_AREAS * areas.min():
        return None
    ids = np.nonzero(looked)[0] + 1
    if shades and not _one_ink(labels, ids, shades):
        return None  # two cards' pips (a red card's strip beside a black card over it)
    pts = np.stack([cx[looked], cy[looked]], axis=1) / look  # face pixels
    if not _laid_out(pts):
        return None
    if _symmetric(pts) or (len(pts) == 7 and _seven(pts)):
        return _Pips(labels, ids, stats, shades, hi, lo)
    return None


def _shaped(blobs: list[NDArray[np.uint8]], black: bool) -> str | None:
    """The suit pips (``blobs``: each one's ink in its box) show by their shape, among
    the two of a colour (``black``: spades and clubs, else hearts and diamonds);
    ``None`` where they do not all say one. Each pip's notches (where its outline
    leaves the hull round it, as deep as this share of its box's longer side) say
    it (:func:`vision.suits.notches`), whatever way up the pack prints it: a club's three lobes
    make four deep notches, two between them and two where the stalk starts (three
    once the stalk is lost in a soft picture), a spade's two, by its stalk, or none
    where the stalk is lost; a heart's one, at its top, a diamond's none. At least
    ``_SHAPE_SHARE`` of the pips (and two) must say one suit, and none the other."""
    said: list[str] = []
    for blob in blobs:
        notches = notches_of(blob)
        if notches is None:
            continue
        deep = sum(n >= _NOTCH for n in notches)
        if black:
            if deep >= 3:
                said.append("C")
            elif deep >= 1 and sum(n >= _SHALLOW for n in notches) <= 2:
                said.append("S")
        elif notches and notches[0] >= _HEART_NOTCH:
            said.append("H")
        elif not notches or notches[0] < _DIAMOND_NOTCH:
            said.append("D")
    kinds = set(said)
    if len(kinds) != 1 or len(said) < max(2, _SHAPE_SHARE * len(blobs)):
        return None
    return kinds.pop()


def court_between(
    image: NDArray[np.uint8],
    a: tuple[float, float, float, float],
    b: tuple[float, float, float, float],
    own_middle: bool = False,
) -> bool:
    """Whether a card read at both its corner indices, ``a`` and ``b`` (each ``(x, y,
    ux, uy)``: its midpoint, and rank to suit along the card), plainly shows a court
    card's face between them: one blob of ink as large as a court's frame or figure
    (``_PANEL`` of the room between the indices each way: a printed pack's frame may
    reach past the indices' midpoints), and the same turned half about the card's
    middle (``_PANEL_SAME``), as a double-headed court is: another card's print
    reaching in is not. The card's middle is the indices' midpoint whatever the
    deck (every card is the same turned half), so the face is found where the deck
    prints its index, not where a typical deck does. A number card's pips are apart;
    its largest blob is one pip. A number card read in a font the network never met
    can read surely as another rank (a swash Q as a 9, a German B as an 8); its face
    then says it is no number card.

    ``own_middle``: ``b`` is only where a typical card would put the other corner
    (a number read at one corner only, :meth:`vision.recognize.Recognizer.cards`):
    the panel is turned half about its own middle, which must lie within
    ``_OWN_MIDDLE`` of the room's each way, not about the room's."""
    ax, ay, ux, uy = a
    bx, by = b[0], b[1]
    cx, cy = (ax + bx) / 2, (ay + by) / 2
    # the card's long axis (rank to suit, the two indices' mean) and its short one
    lx, ly = ux - b[2], uy - b[3]
    n = float(np.hypot(lx, ly))
    if n < 1e-6:
        return False
    lx, ly = lx / n, ly / n
    vx, vy = ly, -lx
    # half the room between the indices, across and along the card
    half_w = abs((ax - cx) * vx + (ay - cy) * vy)
    half_h = abs((ax - cx) * lx + (ay - cy) * ly)
    if half_w < 4 or half_h < 4:
        return False
    # looked at a pixel an image pixel, at most _ROOM samples along the card
    k = max(1.0, 2 * half_h / _ROOM[1])
    w0, h0 = int(2 * half_w / k), int(2 * half_h / k)  # the room's, in samples
    if w0 < 16 or h0 < 16:
        return False
    if own_middle:  # the room and a band round it (_OWN_BAND)
        grow = 1 + 2 * _OWN_BAND
        half_w, half_h = half_w * grow, half_h * grow
    w, h = int(2 * half_w / k), int(2 * half_h / k)
    m = np.array(
        [
            [k * vx, k * lx, cx - half_w * vx - half_h * lx],
            [k * vy, k * ly, cy - half_w * vy - half_h * ly],
        ],
        np.float64,
    )
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    room = cv2.warpAffine(image, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    if room.ndim == 3:
        b_, g_, r_ = channels(room)
        room = cv2.min(cv2.min(b_, g_), r_)
    hi = grey_percentile(room, 90)  # paper: what the room shows most of, court or not
    lo = cv2.minMaxLoc(room)[0]
    if hi - lo < 40:
        return False
    # ink: well under the paper near it (the brightest within a disc a sixth of the
    # room's width across), not under one level for the room: a hard shadow over half
    # the card was all "ink"
    near = max(3, w0 // 6 | 1)
    paper = cv2.dilate(room, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (near, near)))
    # ... and no brighter than the room closed over a square _SHADE_CLOSE of its width:
    # a hard shadow's edge across the card keeps its step there (the shade is wider),
    # so paper in the shade is judged against paper in the shade, not the lit paper
    # beyond the edge (that made the shaded paper at the edge a line of "ink", joining
    # pips turned half about the middle into a court's panel: a photographed 10H laid
    # across a lamp's shadow was doubted and never placed), while ink and a court's
    # print narrower than the square are closed over and judged as before
    side = max(3, int(_SHADE_CLOSE * w0) | 1)
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    paper = cv2.min(paper, cv2.morphologyEx(room, cv2.MORPH_CLOSE, square))
    ink = cv2.compare(room, cv2.multiply(paper, 1.0, scale=_INK_SHARE), cv2.CMP_LT)
    _, labels, stats, _ = labelled(ink)
    sw, sh = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    panel = (sw >= _PANEL[0] * w0) & (sh >= _PANEL[1] * h0)
    on_paper: NDArray[np.uint8] | None = None  # made for the first panel that needs it
    for i in np.nonzero(panel)[0].tolist():
        blob = cv2.compare(labels, i + 1, cv2.CMP_EQ)
        # a panel is broad every way, not a line (a shadow's edge through the card's
        # middle is the same turned half)
        (_, _), (rw, rh), _ = cv2.minAreaRect(cv2.findNonZero(blob))
        if min(rw, rh) < _PANEL_BROAD * w0:
            continue
        if own_middle:
            mo = cv2.moments(blob, True)
            mx, my = mo["m10"] / mo["m00"], mo["m01"] / mo["m00"]
            off_x, off_y = abs(mx - (w - 1) / 2), abs(my - (h - 1) / 2)
            if off_x > _OWN_MIDDLE * w0 or off_y > _OWN_MIDDLE * h0:
                continue
            if on_paper is None:  # paper: no ink, and at least _INK_SHARE of its level
                light = cv2.compare(room, _INK_SHARE * hi, cv2.CMP_GE)
                on_paper = cv2.bitwise_and(light, cv2.bitwise_not(ink))
            if not _ringed(on_paper, stats[i + 1], max(2, int(_OWN_RING * w0))):
                continue
            half_turn = np.array([[-1.0, 0.0, 2 * mx], [0.0, -1.0, 2 * my]])
            turned = cv2.warpAffine(blob, half_turn, (w, h), flags=cv2.INTER_NEAREST)
            turned = cv2.dilate(turned, np.ones((3, 3), np.uint8))
        else:
            turned = cv2.dilate(np.ascontiguousarray(blob[::-1, ::-1]), np.ones((3, 3), np.uint8))
        if cv2.countNonZero(cv2.bitwise_and(blob, turned)) >= _PANEL_SAME * cv2.countNonZero(blob):
            return True
    return False


def _ringed(paper: NDArray[np.uint8], stat: NDArray[np.int32], r: int) -> bool:
    """Whether the band ``r`` samples wide round a blob's box (``stat``: its
    connected-component stats) is at least ``_RING_PAPER`` ``paper`` (a mask)."""
    x, y, bw, bh = (int(v) for v in stat[:4])
    h, w = paper.shape[:2]
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + bw + r), min(h, y + bh + r)
    outer = (x1 - x0) * (y1 - y0) - bw * bh
    if outer <= 0:
        return False
    inside = cv2.countNonZero(paper[y : y + bh, x : x + bw])
    return cv2.countNonZero(paper[y0:y1, x0:x1]) - inside >= _RING_PAPER * outer


def _one_ink(
    labels: NDArray[np.int32], ids: NDArray[np.intp], shades: tuple[NDArray[np.uint8], ...]
) -> bool:
    """Whether the blobs numbered ``ids`` are printed in one ink: each blob's mean
    colour less its mean grey (its tint, whatever the light on it) within
    ``_ONE_INK`` of every other's in every channel. Red and black pips differ by
    some 150 in the red channel."""
    flat = labels.ravel()
    n = int(ids.max()) + 1
    count = np.bincount(flat, minlength=n)[ids].astype(np.float64)
    means = np.stack(
        [np.bincount(flat, weights=c.ravel(), minlength=n)[ids] / count for c in shades], axis=1
    )
    tint = means - means.mean(axis=1, keepdims=True)
    return bool((np.ptp(tint, axis=0) <= _ONE_INK).all())


def _laid_out(pts: NDArray[np.float64]) -> bool:
    """Whether ``pts`` (face pixels) lie as a number card's pips lie: each near its
    own place of the standard layout for so many (:data:`vision.faces.PIP_PLACES`, the
    places as fractions of the pips' span across and along the card), the span
    about half as wide as it is long (one column for 2 and 3). A part of a larger
    layout that a window cut off (the top rows of a 10 read as an 8) does not."""
    n = len(pts)
    x, y = pts[:, 0], pts[:, 1]
    wide, long = float(np.ptp(x)), float(np.ptp(y))
    # the whole layout, in the middle of the face: a column of a 6 is no 3, the top
    # two pips of a 3 (its third under another card, or past the outline) no 2
    mid_x, mid_y = (x.min() + x.max()) / 2, (y.min() + y.max()) / 2
    if abs(mid_x - _W / 2) > _MIDDLE * _W or abs(mid_y - _H / 2) > _MIDDLE * _H:
        return False
    if not _LONG[0] * _H <= long <= _LONG[1] * _H:
        return False
    if n > 3 and not _WIDE[0] * _W <= wide <= _WIDE[1] * _W:
        return False
    if n <= 3:
        if wide > 0.08 * _W:
            return False
        fx = np.full(n, 0.5)
    else:
        if not 0.3 <= wide / long <= 0.75:
            return False
        fx = (x - x.min()) / wide
    fy = (y - y.min()) / long
    places = np.array(PIP_PLACES[n], np.float64)
    used = np.zeros(len(places), bool)
    for px, py in zip(fx.tolist(), fy.tolist(), strict=True):
        dist = np.hypot(places[:, 0] - px, places[:, 1] - py)
        dist[used] = np.inf
        j = int(np.argmin(dist))
        if dist[j] > _PLACE:
            return False
        used[j] = True
    return True


def _symmetric(pts: NDArray[np.float64]) -> bool:
    """Whether every point has another (or itself) half a turn about their middle."""
    mid = pts.mean(axis=0)
    turned = 2 * mid - pts
    dist = np.hypot(*(pts[None, :, :] - turned[:, None, :]).transpose(2, 0, 1))
    return bool((dist.min(axis=1) <= _MIRROR * _W).all())


def _seven(pts: NDArray[np.float64]) -> bool:
    """A 7: six pips symmetric and one more on their middle line."""
    for i in range(len(pts)):
        rest = np.delete(pts, i, axis=0)
        if _symmetric(rest):
            mid = rest.mean(axis=0)
            # on the middle line: the extra pip lies near the line through the middle
            # along the card's length (the face's y axis)
            if abs(pts[i, 0] - mid[0]) <= _MIRROR * _W:
                return True
    return False
