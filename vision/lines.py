"""Print set in a line: a rank read among letters is no card's index.

A cluttered photograph has print in it: a newspaper under the cards, a book, a
puzzle's lettering. Two letters of a word can look to the network like an index
(the "di" of a headline's "Addiction", upside down, read 10S at 1.00 in a
pinochle photo enlarged 2.5 times). A card's index stands alone: the card's
margin and edge on one side, its face on the other (a court's frame, pips a
good way off), the suit under the rank. A letter has letters beside it on the
line, each of its height, sat on one baseline, set close as type is.

:func:`in_line_of_print` cuts the strip through a reading's rank across the card
(its "right", turned by the reading), finds the ink there, and walks outwards
from the rank along the line over glyphs of its height that share its baseline
or its top, up to a stroke no letter is (a court's frame, the table beyond a
card's edge). The rank is print in a line where the glyph next to it on each side
is as close as type sets the letters of a word (``LINE_TIGHT``), and the walk meets
``LINE_GLYPHS`` glyphs or more. The indices of a fan of cards stand in a row too (a
deal's ``8 9 K 10 2``), but a card's margin apart. Glyphs that are the ranks of
readings the caller takes for cards (``others``) are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.images import as_grey
from vision.proposals import grey_percentiles, labelled

__all__ = ["LINE_GLYPHS", "LINE_TIGHT", "in_line_of_print"]

# The strip is cut with the index's rank-to-suit distance at this many pixels, this many
# such distances across (either way from the rank) and along.
_D = 20.0
_ACROSS = 4.0
_ALONG = 0.9
# the least contrast in the strip for ink to be told from paper (grey levels)
_CONTRAST = 30.0
# the rank's own ink: blobs within this share of d of its middle
_RANK_NEAR = 0.3
# a glyph: its height this share of the rank's, its width of the rank's height; its
# foot (or its top) within this share of the rank's height of the rank's
_HEIGHT = (0.4, 1.4)
_WIDTH = (0.12, 1.6)
_ALIGNED = 0.18
# the walk along the line goes on over gaps up to this share of the rank's height
_GAP = 0.6
# a gap as type sets letters in a word (a share of the rank's height): the first glyph
# on each side of a letter is this close
LINE_TIGHT = 0.15
# print: this many glyphs on the line in all, the rank with them
LINE_GLYPHS = 4


def _strip(
    image: NDArray[np.uint8], x: float, y: float, ux: float, uy: float, d: float
) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """The grey strip through the rank of the index at (x, y) (its midpoint; ``u`` down
    the card from rank to suit, ``d`` the rank-to-suit distance), upright, the rank's
    middle at its centre; and the affine map from the picture to the strip."""
    s = _D / d
    vx, vy = uy, -ux  # "right" on the card when "down" is (ux, uy)
    rx, ry = x - 0.5 * d * ux, y - 0.5 * d * uy
    w, h = int(2 * _ACROSS * _D), int(2 * _ALONG * _D)
    # picture -> strip: across along v, along u, the rank's middle at (w/2, h/2)
    to_strip = np.array(
        [
            [vx * s, vy * s, w / 2 - s * (vx * rx + vy * ry)],
            [ux * s, uy * s, h / 2 - s * (ux * rx + uy * ry)],
        ]
    )
    # cut in colour, then made grey: warpAffine samples only what the strip needs (a
    # whole frame made grey first was 6 ms at 2688 x 2688)
    strip = cv2.warpAffine(
        image, to_strip, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    strip = as_grey(strip)
    return strip, to_strip


def in_line_of_print(
    image: NDArray[np.uint8],
    x: float,
    y: float,
    ux: float,
    uy: float,
    d: float,
    others: Iterable[tuple[float, float, float, float, float]] = (),
) -> bool:
    """Whether the rank of the index read at (x, y) (``ux``, ``uy``, ``d`` as the
    reading gives them) is a letter in a line of print (the module's docstring).
    ``others``: readings known to be cards (x, y, ux, uy, d): a glyph that is one of
    their ranks is a card's index, not a letter."""
    if not (np.isfinite([x, y, ux, uy, d]).all() and d > 0):
        return False
    strip, to_strip = _strip(image, x, y, ux, uy, d)
    h, w = strip.shape
    lo, hi = grey_percentiles(strip, 5, 95)
    if hi - lo < _CONTRAST:
        return False
    ink = (strip < (lo + hi) / 2).astype(np.uint8)
    n, _, stats, _ = labelled(ink)
    bx, by, bw, bh, area = (stats[:, i].astype(np.float64) for i in range(5))
    near = _RANK_NEAR * _D
    cx, cy = w / 2, h / 2
    blob = np.arange(n) > 0
    blob &= area >= 5
    rank = blob & (bx <= cx + near) & (bx + bw >= cx - near)
    rank &= (by <= cy + near) & (by + bh >= cy - near)
    if not rank.any():
        return False
    x0, x1 = bx[rank].min(), (bx + bw)[rank].max()
    y0, y1 = by[rank].min(), (by + bh)[rank].max()
    hr = y1 - y0
    if hr < 4:
        return False
    glyph = blob & ~rank
    glyph &= (bh >= _HEIGHT[0] * hr) & (bh <= _HEIGHT[1] * hr)
    glyph &= (bw >= _WIDTH[0] * hr) & (bw <= _WIDTH[1] * hr)
    glyph &= (np.abs(by + bh - y1) <= _ALIGNED * hr) | (np.abs(by - y0) <= _ALIGNED * hr)
    # another reading's rank in the strip is a card's index, not a letter: its blobs,
    # chosen as the rank's own are (the 1 and the 0 of a 10 lie either side of its
    # middle)
    for ox, oy, oux, ouy, od in others:
        rx, ry = ox - 0.5 * od * oux, oy - 0.5 * od * ouy
        px, py = to_strip @ np.array([rx, ry, 1.0])
        r = _RANK_NEAR * _D * od / d
        glyph &= ~((bx <= px + r) & (bx + bw >= px - r) & (by <= py + r) & (by + bh >= py - r))
    # a stroke longer or wider than a letter across the rank's band (a court's frame,
    # the table beyond a card's edge) ends the line: print holds letters alone
    wall = blob & ~rank & ((bh > _HEIGHT[1] * hr) | (bw > _WIDTH[1] * hr))
    wall &= (by < y1) & (by + bh > y0)
    walls = [(bx[i], bx[i] + bw[i]) for i in np.flatnonzero(wall)]
    found = [(bx[i], bx[i] + bw[i]) for i in np.flatnonzero(glyph)]
    gaps = {
        "left": _walk(found, walls, x0, hr, outwards=-1),
        "right": _walk(found, walls, x1, hr, outwards=1),
    }
    # a letter inside a word has letters set close on both sides; an index has its
    # card's margin on one side, and in a row of cards the next card's index lies a
    # margin or more away (the close 1 and 0 of a 10 further on are not the rank's)
    if any(not g or g[0] > LINE_TIGHT * hr for g in gaps.values()):
        return False
    return 1 + len(gaps["left"]) + len(gaps["right"]) >= LINE_GLYPHS


def _walk(
    glyphs: list[tuple[float, float]],
    walls: list[tuple[float, float]],
    edge: float,
    hr: float,
    *,
    outwards: int,
) -> list[float]:
    """The gaps met walking from ``edge`` (the rank's side) outwards along the line over
    ``glyphs`` ((start, end) across), each gap at most ``_GAP`` of the rank's height
    ``hr``, up to the first of ``walls`` (strokes no letter is) that reaches beyond the
    rank; a glyph that overlaps the one before by more than two pixels, or lies within
    it (a broken letter), is passed over."""

    def near(span: tuple[float, float]) -> float:
        """How far out the span's near side lies (negative: towards the rank)."""
        return (span[0] if outwards > 0 else -span[1]) - (edge0 if outwards > 0 else -edge0)

    def far(span: tuple[float, float]) -> float:
        """How far out the span's far side lies."""
        return (span[1] if outwards > 0 else -span[0]) - (edge0 if outwards > 0 else -edge0)

    edge0 = edge
    stop = min((max(0.0, near(w)) for w in walls if far(w) > 0), default=np.inf)
    gaps: list[float] = []
    for a, b in sorted(glyphs, key=near):
        start, end = (a, b) if outwards > 0 else (b, a)
        if near((a, b)) >= stop:
            break
        gap = (start - edge) * outwards
        if gap < -2 or (end - edge) * outwards <= 0:
            continue  # overlapping the glyph before, or within it (a broken letter)
        if gap > _GAP * hr:
            break
        gaps.append(max(0.0, gap))
        edge = end
    return gaps
