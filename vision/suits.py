"""An index's suit told by its shape: evidence about a black suit, or a heart, that
owes nothing to the network's training.

The networks read a suit from the index's patch, and a pack drawn by other hands
can fool them surely: Nicu's KDE packs draw a club as a thin four-leafed cross,
and a 9C, a JC, a 2C were read as spades at 1.0 in plain sight (``bench/vision.py
--only decks``); the starter of a live video with KDE's standard faces, a 5C, was
read 5S at one corner (seed 144). The index's suit glyph is printed under the rank
in every pack, and its outline tells a club from a spade whatever it is drawn
like: a club's three lobes leave three or four deep notches under the hull round
it (two between the lobes, two where the stalk starts), a spade's point and stalk
two, by the stalk.

:func:`index_suit` looks at the ink beyond a reading's rank glyph, cut off it at
the narrowest row between them (a rank and suit printed touching make one blob,
proposed as a whole index), and answers only where the nearest blob there is of a
plain size, off the patch's edges, of no colour and sharp for its size, and its
notches say one suit plainly: a club, a spade, or ``None``.

A red glyph (red, or a four-colour pack's orange) with a heart's one deep notch
between its lobes is a heart: Nicu's packs print a heart as large as the rank, and
the networks read a 2H, 5H, 7H, JH and KH of theirs as diamonds at 0.997 to 1.0.
No red glyph says diamond: a diamond has no notch, but neither has a soft heart
whose notch has closed. A glyph of another colour (a four-colour pack's green
spade, whose stalk's notch is a heart's) says nothing. :mod:`vision.pips` tells a
number card's suit by its pips' notches alike.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.proposals import channels, grey_percentile, labelled

__all__ = ["BLACK", "edge_width", "index_suit", "inked_red", "notches"]

BLACK = "SC"
# The patch looked at round a reading (midpoint (x, y), down (ux, uy), rank to suit
# d): along the index from -0.3 d (back towards the rank) to 2.8 d, and 1.1 d each
# side. A rank paired with its suit has the suit's middle 0.5 d beyond the midpoint,
# but not every reading is so made: a club split at its stalk by the proposals'
# threshold is paired by its top lobe (its glyph's middle 0.8 d beyond; Nicu's 9C),
# and a tall rank glyph alone is proposed as a whole index, d half its height (Nicu's
# 2C at 1.0 as a 2S: its club 1.4 d high, 1.6 d wide, from 0.9 d on).
_ALONG = (-0.3, 2.8)
_ACROSS = 1.1
# The rank and suit are parted at the last row with least ink (in the index's own
# column) between the patch's start and 0.6 d beyond the midpoint; the suit is the
# nearest blob beyond, off the patch's edges, its middle between 0.2 d and 1.7 d
# beyond the midpoint, of those at least _SPECK of the largest there.
_PART = 0.6
_COLUMN = 0.5  # (the ink counted 0.5 d each side of the index's middle)
_SUIT_AT = (0.2, 1.7)
_SPECK = 0.3
# The patch is sampled at the image's own pixels, or so that d spans _LOOK samples
# where it is larger (a glyph some 25 to 60 samples across).
_LOOK = 40.0
# A suit glyph smaller than this many pixels of the picture as taken (its box's
# longer side; a picture enlarged to be read counts as taken) is not looked at:
# KDE and own-pack glyphs photographed under 14 pixels told the other suit in 7 of
# 83 readings; from 16 to 20 pixels 285 told their own, none the other.
_SMALL = 16.0
# ... nor one under _FEW d (a speck of the face, 4 x 6 samples, read as a spade)
_FEW = 0.3
# A glyph of a colour (_coloured) is no black suit's: red ink (inked_red) may be a
# heart's, a four-colour pack's green or blue ink tells nothing
_COLOURED = 0.25
# Ink is red where red's share of the paper's level outdoes green's and blue's by
# _RED_INK, black (or green) where by no more than _BLACK_INK (inked_red)
_RED_INK = 0.25
_BLACK_INK = 0.12
# ... nor one whose edge is soft for its size (_soft, the pips' measure and bar): a
# picture smeared by a moving camera runs a club's lobes together, a spade's shape
# (the real deals smeared 11 px read 125 of 138, not 129, before it)
_SOFT_EDGE = 0.12
_MARGIN = 2
# Ink is under Otsu's level in the patch (its darkest channel), whose darkest and
# lightest must lie this far apart.
_CONTRAST = 40.0
# A club: its two deepest notches at least _LOBE of its box's longer side deep and
# its third at least _THIRD (Nicu's clubs' third 0.25 to 0.34; a DejaVu club's,
# rendered and softened, 0.08 to 0.13). A spade: its deepest at least _LOBE (DejaVu
# draws one, by its stalk; Nicu two) and its third under _FLAT (its shoulders 0.01
# to 0.04; Nicu's at most 0.06). A heart (red): its deepest at least _LOBE (between
# its lobes) and its second under _FLAT (its point makes none).
_LOBE = 0.1
_THIRD = 0.075
# ... and a heart's glyph mirrored across the index is itself (_mirrored at least
# _MIRROR): a diamond's top cut off with a card's border line beside it, one blob with
# a notch in its corner (a Nicu JD at arm's length, 0.224 deep), is not
_MIRROR = 0.7
_FLAT = 0.05


def _coloured(shades: list[NDArray[np.uint8]], glyph: NDArray[np.uint8], light: float) -> bool:
    """Whether ``glyph``'s ink (``shades``: blue, green and red over its box) is of a
    colour: its channels' spread (the largest less the least), at the mean over it,
    at least ``_COLOURED`` of the patch's lightest (black ink under any light about
    0.05 to 0.1, red ink 0.5 and over)."""
    b, g, r = shades
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    return bool(cv2.mean(spread, glyph)[0] >= _COLOURED * max(light, 1.0))


def inked_red(mask: NDArray[np.uint8], shades: tuple[NDArray[np.uint8], ...]) -> bool | None:
    """Whether the ink under ``mask`` is red (or orange: the four-colour pack's
    diamonds), ``False`` black (or green: its spades), ``None`` where it is neither
    plainly: each channel of the ink's mean over the paper's (``shades``' 75th
    percentile, whatever the light's colour), red's share over the larger of green's
    and blue's (red ink about 0.6, black about 0). A pip's ink (:mod:`vision.pips`)
    and an index glyph's are judged by it alike."""
    share = [cv2.mean(c, mask)[0] / max(1.0, grey_percentile(c, 75)) for c in shades]
    redness = share[2] - max(share[0], share[1])  # (blue, green, red)
    if redness >= _RED_INK:
        return True
    return False if redness <= _BLACK_INK else None


def edge_width(area: NDArray[np.uint8], blob: NDArray[np.uint8], ink: float, paper: float) -> float:
    """How soft ``blob``'s edge is for its size: the samples of ``area`` (round the
    blob) between ``ink`` and ``paper`` (a fifth to four fifths of the way) over the
    blob's outline's length (the edge's width), over its box's longer side. A pip's
    (:mod:`vision.pips`) and an index glyph's are judged by it alike."""
    step = paper - ink
    between = cv2.bitwise_and(
        cv2.compare(area, ink + 0.2 * step, cv2.CMP_GT),
        cv2.compare(area, ink + 0.8 * step, cv2.CMP_LT),
    )
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    length = max(cv2.arcLength(c, True) for c in contours)
    return float(cv2.countNonZero(between) / max(length, 1.0) / max(blob.shape))


def _soft(patch: NDArray[np.uint8], glyph: NDArray[np.uint8], x0: int, y0: int) -> float:
    """:func:`edge_width` of ``glyph`` (its box's corner at (``x0``, ``y0``) in
    ``patch``), from the darkest to the lightest round it (the box grown by
    ``_MARGIN`` samples)."""
    gh, gw = glyph.shape
    m = _MARGIN
    box = patch[max(0, y0 - m) : y0 + gh + m, max(0, x0 - m) : x0 + gw + m]
    lo, hi = cv2.minMaxLoc(box)[:2]
    return edge_width(box, glyph, lo, hi)


def _mirrored(glyph: NDArray[np.uint8]) -> float:
    """How alike ``glyph`` is to itself mirrored across the index (its box's middle
    column): the shared ink over the ink of either."""
    flipped = cv2.flip(glyph, 1)
    both = cv2.countNonZero(cv2.bitwise_and(glyph, flipped))
    return both / max(1, cv2.countNonZero(cv2.bitwise_or(glyph, flipped)))


def notches(blob: NDArray[np.uint8]) -> list[float] | None:
    """How deep each notch of ``blob``'s outline lies under its hull, as a share of
    the blob box's longer side, deepest first; ``None`` where OpenCV cannot say (an
    outline the hull does not follow monotonously)."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    if len(outline) < 4:
        return []
    try:
        defects = cv2.convexityDefects(outline, cv2.convexHull(outline, returnPoints=False))
    except cv2.error:
        return None
    if defects is None:
        return []
    side = 256.0 * max(blob.shape)  # depths come in 256ths of a pixel
    return sorted((defects.reshape(-1, 4)[:, 3] / side).tolist(), reverse=True)


def index_suit(
    image: NDArray[np.uint8],
    x: float,
    y: float,
    ux: float,
    uy: float,
    d: float,
    enlarged: float = 1.0,
) -> str | None:
    """The suit (``"S"`` or ``"C"``, of no colour; ``"H"``, red) the suit glyph of
    the index read at (``x``, ``y``), rank to suit along (``ux``, ``uy``) ``d``
    pixels apart, shows by its outline in ``image`` (BGR or grey; ``enlarged`` times
    the picture as taken, where it was enlarged to be read); ``None`` where it shows
    none plainly (see the module's docstring)."""
    if not d >= 2.0:  # (nothing to look at; and no NaN)
        return None
    n = min(d, _LOOK)  # samples a d: the image's own pixels, or _LOOK for a large index
    k = d / n  # image pixels a sample
    t0 = _ALONG[0] * n
    w, h = round(2 * _ACROSS * n), round((_ALONG[1] - _ALONG[0]) * n)
    vx, vy = uy, -ux  # across, so that (across, along) keeps the picture's hand
    ox = x - _ACROSS * d * vx + _ALONG[0] * d * ux
    oy = y - _ACROSS * d * vy + _ALONG[0] * d * uy
    m = np.array([[k * vx, k * ux, ox], [k * vy, k * uy, oy]], np.float64)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    patch = cv2.warpAffine(image, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    shades: tuple[NDArray[np.uint8], ...] = ()
    if patch.ndim == 3:
        b, g, r = shades = channels(patch)
        patch = cv2.min(cv2.min(b, g), r)
    dark, light = cv2.minMaxLoc(patch)[:2]
    if light - dark < _CONTRAST:
        return None
    _, ink = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    # part the suit from the rank at the row with least ink before _PART d, counted
    # in the index's own column (beside it may lie the table, or a pip of the face)
    part = round((_PART - _ALONG[0]) * n)
    half = round(_COLUMN * n)
    column = ink[:part, w // 2 - half : w // 2 + half]
    rows = np.count_nonzero(column, axis=1)
    cut = part - 1 - int(rows[::-1].argmin())  # (the last such: a 2's stroke leaves it)
    ink[: cut + 1] = 0
    _, labels, stats, cents = labelled(ink)
    bx, by, bw, bh, area = (stats[1:, i] for i in range(5))
    at = (cents[1:, 1] + t0) / n
    inside = (
        (at >= _SUIT_AT[0])
        & (at <= _SUIT_AT[1])
        & (bx > 0)
        & (by > 0)
        & (bx + bw < w)
        & (by + bh < h)
    )
    if not inside.any():
        return None
    # the nearest beyond the rank of those not specks beside the largest (further on
    # may lie a pip of the face, or a court's figure)
    big = inside & (area >= _SPECK * area[inside].max())
    j = 1 + int(np.argmin(np.where(big, at, np.inf)))
    x0, y0, gw, gh = (int(v) for v in stats[j, :4])
    if max(gw, gh) * k / max(1.0, enlarged) < _SMALL or max(gw, gh) < _FEW * n:
        return None
    glyph = cv2.compare(labels[y0 : y0 + gh, x0 : x0 + gw], j, cv2.CMP_EQ)
    box = (slice(y0, y0 + gh), slice(x0, x0 + gw))
    coloured = bool(shades) and _coloured([c[box] for c in shades], glyph, light)
    if coloured and inked_red(cv2.compare(labels, j, cv2.CMP_EQ), shades) is not True:
        return None  # a four-colour pack's green or blue: no red suit, nor black
    if _soft(patch, glyph, x0, y0) > _SOFT_EDGE:
        return None
    said = notches(glyph)
    if said is None:
        return None
    first, second, third = [*said[:3], 0.0, 0.0, 0.0][:3]
    if coloured:
        # a heart's one notch (a spade's outline, but red ink is no black suit's);
        # a diamond has none, and a soft heart's closes: no red glyph says diamond
        heart = first >= _LOBE and second < _FLAT and _mirrored(glyph) >= _MIRROR
        return "H" if heart else None
    if second >= _LOBE and third >= _THIRD:
        return "C"
    if first >= _LOBE and third < _FLAT:
        return "S"
    return None
