"""Where the corner indices may be: ink on card paper, paired rank above suit.

A card's corner index is a rank glyph with a suit pip under it, in one colour,
on white paper. Overlapping and fanned cards hide most of a card but not its
index, so the recogniser looks for exactly that: connected blobs of dark or red
ink surrounded by paper (:func:`find_components`), paired with a nearby blob of
the same colour and a plausible size and distance (:func:`pair_proposals`).
Each pair is a hypothesis "rank here, suit there", which fixes the index's
position, its orientation on the table and its scale; :func:`extract_patches`
cuts each hypothesis out as an upright patch of fixed size for the classifier,
which also says "no index here" for the many wrong pairs (pips, court art).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, cast

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "PATCH_H",
    "PATCH_W",
    "Box",
    "Components",
    "Picture",
    "Proposals",
    "Pyramid",
    "background_window",
    "extract_patches",
    "find_components",
    "ink_reach",
    "pair_proposals",
]

PATCH_W, PATCH_H = 24, 36
# The patch covers this many rank-to-suit distances across and along the index.
SPAN_W, SPAN_H = 2.0, 2.9

F = NDArray[np.float32]
I64 = NDArray[np.int64]


@dataclass(frozen=True)
class Components:
    """Ink blobs: centres, sizes (pixels) and colour (1 red, 0 black)."""

    cx: F
    cy: F
    w: F
    h: F
    red: NDArray[np.bool_]
    # principal axis of the blob's pixels: unit vector, and lengths along and across it
    ax: F
    ay: F
    major: F
    minor: F
    # blobs a thin line joined to a suit that was split off them (:func:`_thin_joins`):
    # no whole index (:func:`_merged_indices`); None: none
    split: NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self.cx)

    @property
    def size(self) -> F:
        return np.maximum(self.w, self.h)


@dataclass(frozen=True)
class Proposals:
    """Rank/suit pair hypotheses: midpoint, unit "down" vector, rank-to-suit distance."""

    x: F
    y: F
    ux: F
    uy: F
    d: F
    rank_index: NDArray[np.int32]
    suit_index: NDArray[np.int32]

    def __len__(self) -> int:
        return len(self.x)

    def take(self, which: NDArray[np.integer]) -> Proposals:
        """The proposals at ``which`` (indices), in that order."""
        return Proposals(*(getattr(self, f)[which] for f in _PROPOSAL_FIELDS))


_PROPOSAL_FIELDS = tuple(f.name for f in fields(Proposals))


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels, the ends excluded
# Paper near its own brightest surroundings is at least this grey (see _paper_bars),
# and neutral: its balanced channels within this share of the brightest one.
NEAR_FLOOR = 30
NEAR_SHARE = 0.8
NEUTRAL = 0.25
# ... or a neutral pixel this much lighter than the table's darkest level near it:
# a quarter of that level more, and 30 grey levels (see _paper_bars)
TABLE_STEP = 30.0
TABLE_SHARE = 0.25
# ... and in an overexposed picture (BLOWN_SHARE per cent of it clipped white) light
# is LIGHT_SHARE of white, not 150 and over (see _paper_bars)
LIGHT_SHARE = 0.7
BLOWN_SHARE = 3.0
# Red ink is redder (red less the larger of green and blue) than this share of its
# grey, or darker than its surroundings by this much (see _piece_blobs).
RED_SHARE = 0.2
RED_DARKER = 24
# Dark ink is DARK_STEP under its surroundings (the background window's mean), red ink
# RED_STEP; on paper, also under that paper's own level next to it (the grey closing
# over INK_CLOSE pixels, which fills every stroke up to one pixel narrower; see
# _piece_blobs).
INK_CLOSE = 15
DARK_STEP = 35
RED_STEP = 12
# The white balance is taken from paper (Picture.gains) where a sample of the picture
# has this many pixels over the first paper bar and under CLIPPED in every channel.
PAPER_SAMPLE = 50
# ... of which the less saturated kind, where two kinds lie this far apart in their
# mean saturation (of 255: a third of the brightest channel)
PALE_APART = 85.0
# ... and on a calibrated camera's table, of those the kind less like the table's own
# colour (its chromaticity: each channel's share of the three, its distance summed
# over the channels), where the other kind's mean distance from it is TABLE_NEAR of
# this kind's or less, the two TABLE_APART apart or more, and this kind no more
# saturated (a cloth of little colour lies near paper: apart by less, there is no
# second kind)
TABLE_NEAR = 0.75
TABLE_APART = 0.05
# ... and that kind lies in two patches of the sample of this many pixels or more (on
# two cards, not one glare)
TABLE_PATCH = 3
# A calibrated camera's table lit by two lights (a lamp, and the room's bluer light in
# the lamp's shadow): paper's neutral test is taken against the light where it lies,
# measured by the table's own colour there. The table's colour is its median over a
# window CAST_CARDS card widths across, and its share of each channel against its
# share where the table is lit better is the light's cast there (Picture.cast): a
# cast of more than CAST_MAX in a channel (or less than its inverse) is no light but
# another cloth, or cards lying thick; under CAST_MIN in every channel, none at all
CAST_CARDS = 3.0
CAST_MAX = 1.35
CAST_MIN = 1.06
# ... and only where the table is in shade: its local grey under this share of its
# grey where it is lit better
CAST_SHADE = 0.9
# A sample (Picture.sample) of this many pixels sets the picture's bright end and the
# first paper bar the white balance is taken under; a smaller picture's eighth-size
# copy does (Picture._by_sample)
SAMPLE_MIN = 4096
CLIPPED = 250
# A picture is colourless (a monochrome camera, a grey scan or print) where at most
# this share of a sample of it has its channels more than COLOURLESS_SPREAD apart:
# over the real photographs (deals, single cards, pinochle) the least share is 21 %,
# and 0 for every one of them made grey, saved as a colour JPEG or not.
COLOURLESS_SPREAD = 12
COLOURLESS_SHARE = 0.005
# ... unless COLOUR_SEEN pixels of the sample or more are vivid (channels more than
# COLOUR_VIVID apart: red pips, a hand): a colour camera over a pale grey table with a
# few cards on it has under COLOURLESS_SHARE coloured (the live check on a laminate:
# 0.1 %, its spades read as diamonds half the time); a grey picture has none.
COLOUR_VIVID = 48
COLOUR_SEEN = 3
# Paper is only what lies within PAPER_CORE_REACH half-size pixels of the centre of
# a solid PAPER_CORE x PAPER_CORE square of it (3 pixels beyond the square; see _paper).
PAPER_CORE = 5
PAPER_CORE_REACH = 5
# The whole picture's paper is judged only in tiles of PAPER_TILE half-size pixels
# where a sheet of it may lie (Picture.paper): the brightest of the smoothed quarter-
# size grey near the tile (and of its neutral pixels) within PAPER_SLACK levels of
# the least bar there (and of the least second bar). Where more than PAPER_DENSE of
# the tiles may hold paper, the picture is judged whole.
PAPER_TILE = 32
PAPER_SLACK = 12
PAPER_DENSE = 0.5
# ... in a picture of this many pixels and more (under it the tiles' own work is
# more than they spare: at 1280 x 720, 1.4 ms to judge where paper may lie, the
# whole picture's paper 1.3 ms)
PAPER_TILED = 4_000_000
# Ink's steps (DARK_STEP, RED_STEP, RED_DARKER, the redness bar) are steps on paper lit
# at least INK_LIGHT grey: where the brightest level near a pixel is lower (a hard
# shadow, a dim room) its contrasts are lifted by INK_LIGHT over that level, at most
# LIFT_MAX times, before they are judged, and so are the patches the network reads
# there (Picture.lift). In 32nds (LIFT_ONE is no lift), so that the lift is uint8.
INK_LIGHT = 160
LIFT_MAX = 4
LIFT_ONE = 32
# A patch a hard shadow's edge may cross: the lift round its proposal varies
# STEP_LIFT times (extract_patches). It is evened out (_evened) where its paper
# shows two levels STEP_RATIO apart or more, each on STEP_SHARE of it at least,
# the same paper by its colour (shares of the channels within STEP_CHROMA).
STEP_LIFT = 1.5
STEP_RATIO = 1.4
STEP_SHARE = 0.1
STEP_CHROMA = 0.04
# A calibrated camera's background window is at most this many index sizes wide
# (see background_window).
BACKGROUND_INDICES = 3.0
# At most MAX_BLOBS ink blobs, or one per BLOB_AREA pixels of a larger picture; over
# that, the blobs with most of their pixels STRONG_INK under their surroundings.
MAX_BLOBS = 600
BLOB_AREA = 4000
STRONG_INK = 70


@dataclass(frozen=True)
class _Eighths:
    """A picture's eighth-size maps (:meth:`Picture.eighths`) over a window of it
    whose first pixel is (``y0``, ``x0``) of the eighth-size copy: its light level,
    lift and paper bars, exact for readings of ``box`` (the picture's pixels);
    ``of``, the whole eighth-size copy's shape; ``quarter``, the window's
    quarter-size colour copy where it was made from the window alone."""

    y0: int
    x0: int
    light: NDArray[np.uint8]
    lift: NDArray[np.uint8]
    bar: NDArray[np.uint8]
    second: NDArray[np.uint8]
    box: Box
    of: tuple[int, int]
    quarter: NDArray[np.uint8] | None = None

    def holds(self, box: Box) -> bool:
        """Whether a reading of ``box`` may use these maps."""
        a = self.box
        return a[0] <= box[0] and a[1] <= box[1] and box[2] <= a[2] and box[3] <= a[3]


def _lift_table() -> NDArray[np.uint8]:
    """:func:`_lift` of each light level 0 to 255."""
    level = np.maximum(np.arange(256), 1).astype(np.float32)
    lift = INK_LIGHT * LIFT_ONE / level
    return np.clip(lift, LIFT_ONE, LIFT_MAX * LIFT_ONE).round().astype(np.uint8)


_LIFTS = _lift_table()


def _lift(light: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """:attr:`Picture.lift` of its light level: looked up (a float division of every
    pixel was a sixth of a region's eighth-size maps' time)."""
    # NumPy, not OpenCV: a picture under 16 pixels a side has a 1 x 1 (or 4 x 1)
    # light level, which OpenCV's arithmetic takes for a scalar
    return _LIFTS[light]


def _window_margin(shape: tuple[int, int]) -> int:
    """How far (eighth-size pixels) a window's maps (:meth:`Picture.eighths`) reach
    past the box read, for a picture of ``shape``: the bars' windows (a grey
    dilation or erosion, then a blur, each :func:`_light_k` wide, and one pixel
    for bringing them up bilinear), or a patch's test for a shadow's edge across
    it (:meth:`Pyramid.steps`, as wide as four times :func:`_light_reach`) over a
    lift whose light level reaches as far again: whichever is further."""
    half = (shape[0] // 2, shape[1] // 2)
    k, kn = _light_k(half), _light_reach(half)
    return max(2 * (k // 2) + 1, 2 * kn + 2 * (kn // 2)) + 1


class Picture:
    """A picture as the proposal stage reads it: whole, or one region at a time.

    The ink and paper tests measure each pixel against its surroundings, with
    windows sized by the whole picture (:func:`_paper`, :func:`_components`), and
    paper's reference level is the local brightest level over the whole picture
    at an eighth of its size. A region read alone would judge differently, so a
    region's eighth-size maps (light level, lift, paper bars) are made from a
    window round it wide enough to make them exactly the whole's there
    (:meth:`eighths`), and what the whole picture shares (its white balance and
    bright end) comes from a sparse sample of it (:attr:`sample`); each is made
    once when first asked for (a region's half-size copies and bars are made from
    the region and the few pixels round it that make them exactly the whole's).
    The whole reading itself looks for ink only near paper (:func:`_ink_areas`),
    and a large one judges its paper only round the tiles where a sheet of it may
    lie (:meth:`paper`): most of a table frame with a few cards on it is looked at
    only at a quarter of its size. A region is read with a margin (:meth:`margin`)
    wide enough that every blob, pair and free card whose proposal lies inside it
    is exactly what the whole picture's reading finds there
    (``tests/test_vision_regions.py`` holds the two readings to that).

    >>> import numpy as np
    >>> pic = Picture(np.full((64, 96, 3), 200, np.uint8))
    >>> pic.shape, pic.background_k, pic.half.shape, pic.bars[0].shape, pic.eighth.shape
    ((64, 96), 15, (32, 48), (32, 48), (8, 12))
    """

    def __init__(
        self,
        image: NDArray[np.uint8],
        index_d: float | None = None,
        index_d_at: Callable[[float, float], float] | None = None,
        warm_ink: bool = False,
        index_k: float = 1.0,
    ) -> None:
        self.image = image
        # the pack's index this many times a typical one's (a jumbo index's, vision.decks
        # Deck.index_mm): ``index_d`` is the pack's, a card is CARD_INDICES / index_k of
        # its indices across (``index_d_at``, for the cards' outlines, is a typical one's)
        self.index_k = index_k
        # a pack printed in four colours (vision.decks, four_colour): ink warmer than
        # the paper round it is red ink too (_piece_blobs; the orange diamonds)
        self.warm_ink = warm_ink
        h, w = image.shape[:2]
        self.shape = (h, w)
        self.index_d = index_d
        # the calibrated index size where a point of this picture lies (a tilted camera
        # sees its near side larger than ``index_d``, the size at the markers' middle)
        self.index_d_at = index_d_at
        # the window ink is judged darker than its surroundings in (narrower where a
        # calibrated camera gives the index size, ``index_d`` in this picture's pixels)
        self.background_k = background_window((h, w), index_d)
        # how far its ink tests look round a pixel: with a calibrated camera the
        # narrower window's half (a region's crops grow by this, not the uncalibrated
        # window's: 34 pixels, not 56, at 2.74 px/mm in a 2688 x 2688 frame)
        self.reach = ink_reach((h, w), index_d)
        # The most ink blobs read: a photograph of a whole deal spread on cork has
        # 500 that pass the paper test, a 2688 x 2688 table frame 150; noise or a
        # page of print many thousands, and pairing them costs their number squared.
        self.max_blobs = max(MAX_BLOBS, h * w // BLOB_AREA)
        # the last box :meth:`half_in` halved, and its colour half (:meth:`pyramid`)
        self._half_box: tuple[Box, NDArray[np.uint8]] | None = None
        # the colour half made for the paper where it was judged in pieces (Picture.
        # paper), and which of its Pyramid tiles those pieces made: the gate's
        # pyramid's first level there
        self._half_parts: tuple[NDArray[np.uint8], NDArray[np.bool_]] | None = None
        # the eighth-size maps of windows round the regions read (eighths)
        self._windows: list[_Eighths] = []

    def gray_in(self, box: Box) -> NDArray[np.uint8]:
        """The grey picture in ``box``: only the pieces ink is read in are converted."""
        x0, y0, x1, y1 = box
        return cv2.cvtColor(self.image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)

    @cached_property
    def half_colour(self) -> NDArray[np.uint8]:
        """The colour picture at half size, each pixel the mean of a 2 x 2 block: what
        :attr:`half` is made from, and (where both sides are even) the first level
        of the picture's :class:`Pyramid` (:meth:`pyramid`)."""
        return _halved(self.image)

    @cached_property
    def half(self) -> NDArray[np.uint8]:
        """The grey picture at half size (of the colour picture's 2 x 2 means), what
        paper is judged on."""
        return cv2.cvtColor(self.half_colour, cv2.COLOR_BGR2GRAY)

    def pyramid(self, box: Box | None = None, *, gate: bool = False) -> Pyramid:
        """The :class:`Pyramid` of the whole picture or of ``box`` in it, lifted as its
        ink is. ``gate``: the gate's, of 2 x 2 means, its first level the half made
        for the paper already (:attr:`half_colour`, or :meth:`half_in` of the same
        box) where both sides are even."""
        h, w = self.shape
        x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
        image = self.image[y0:y1, x0:x1] if box is not None else self.image
        # the lift over the box: the whole picture's, or a window's round it
        win = None if self._whole_lift else self.eighths(box)
        if win is not None:
            lift, of, at = win.lift, win.of, (x0 - 8 * win.x0, y0 - 8 * win.y0)
        else:
            lift, of, at = self.lift, self.lift.shape, (x0, y0)
        if not gate:
            return Pyramid(image, lift, at, lift_of=of)
        half = None
        if "half_colour" in self.__dict__ and h % 2 == 0 and w % 2 == 0:
            half = self.half_colour[y0 // 2 : y1 // 2, x0 // 2 : x1 // 2]
        elif self._half_box is not None and self._half_box[0] == box:
            half = self._half_box[1]
        elif box is None and self._half_parts is not None:
            part, made = self._half_parts
            return Pyramid(image, lift, half=part, half_made=made, mean=True, lift_of=of)
        even = x0 % 2 == y0 % 2 == x1 % 2 == y1 % 2 == 0
        return Pyramid(image, lift, at, half=half if even else None, mean=True, lift_of=of)

    def half_in(self, box: Box) -> NDArray[np.uint8]:
        """:attr:`half` in ``box`` (even corners): cut from it if it is made, else
        halved from the box alone (the same 2 x 2 means, when the picture's sides
        are even)."""
        x0, y0, x1, y1 = (v // 2 for v in box)
        h, w = self.shape
        if "half" in self.__dict__ or h % 2 or w % 2:
            return self.half[y0:y1, x0:x1]
        colour = _halved(self.image[2 * y0 : 2 * y1, 2 * x0 : 2 * x1])
        self._half_box = (box, colour)  # the first level of the box's pyramid
        return cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)

    @cached_property
    def quarter_colour(self) -> NDArray[np.uint8]:
        """The colour picture at a quarter of its size, each pixel the mean of the
        middle 2 x 2 of its 4 x 4 (bilinear: a fifth of an area mean's time)."""
        return _quartered(self.image)

    @cached_property
    def sample(self) -> NDArray[np.uint8]:
        """Every fourth pixel each way of :attr:`quarter_colour` (each the mean of the
        2 x 2 at 16 i + 1, 16 j + 1): what the picture's white balance, its bright
        end and whether it has colour are judged on. Cut from the quarter where it
        is made; else (sides multiples of four) taken from those pixels alone, the
        same bytes in a quarter of the quarter's time, so that a region read with
        the camera's own small stream for the motion gate needs no whole-picture
        pass (:meth:`eighths`)."""
        h, w = self.shape
        colour = self.image.ndim == 3 and self.image.shape[2] == 3
        if "quarter_colour" in self.__dict__ or h % 4 or w % 4 or min(h, w) < 32 or not colour:
            return np.ascontiguousarray(self.quarter_colour[::4, ::4])
        return _sampled(self.image)

    @property
    def _by_sample(self) -> bool:
        """Whether the picture's bright end and the first paper bar its white balance
        is taken under are judged on :attr:`sample` (``SAMPLE_MIN`` pixels or more:
        a frame of about a megapixel and more), not on the eighth-size copy (a smaller
        picture's sample is too sparse for a 99th percentile: a pinochle photo
        shrunk to 35 % read one false rank more; its eighth-size copy costs little)."""
        h, w = self.shape
        sh, sw = -(-max(1, h // 4) // 4), -(-max(1, w // 4) // 4)
        return bool(sh * sw >= SAMPLE_MIN)

    @cached_property
    def white_levels(self) -> tuple[float, float]:
        """The picture's bright end and its clip level: the 99th and the
        ``100 - BLOWN_SHARE``-th percentile of the grey of :attr:`sample` (of the
        eighth-size copy in a picture under a megapixel: :attr:`_by_sample`), which
        every paper bar of the picture and of its regions shares
        (:func:`_paper_bars`)."""
        grey = cv2.cvtColor(self.sample, cv2.COLOR_BGR2GRAY) if self._by_sample else self.eighth
        if grey.size == 0:
            return 255.0, 255.0
        white, clip = grey_percentiles(grey, 99, 100 - BLOWN_SHARE)
        return white, clip

    @cached_property
    def colourless(self) -> bool:
        """Whether the picture has no colour to speak of (``COLOURLESS_SHARE``): its
        red ink is as grey as black ink, and the networks, which learnt red from
        colour, read a grey diamond as a spade (:class:`vision.model.IndexClassifier`
        reads such a picture's patches twice). From a sample of the quarter-size
        copy the paper stage makes anyway (:attr:`sample`); a few vivid pixels in it
        (``COLOUR_SEEN``: red pips, a hand) are colour however little of it there is."""
        sample = self.sample
        if sample.ndim != 3 or sample.shape[2] < 3 or sample.size == 0:
            return True
        b, g, r = channels(sample)
        spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
        coloured = np.count_nonzero(spread > COLOURLESS_SPREAD)
        if coloured > COLOURLESS_SHARE * spread.size:
            return False
        return np.count_nonzero(spread > COLOUR_VIVID) < COLOUR_SEEN

    @cached_property
    def quarter(self) -> NDArray[np.uint8]:
        """The grey picture at a quarter of its size (of :attr:`quarter_colour`)."""
        return cv2.cvtColor(self.quarter_colour, cv2.COLOR_BGR2GRAY)

    @property
    def eighth_colour(self) -> NDArray[np.uint8] | None:
        """The colour picture at an eighth of its size (2 x 2 means of
        :attr:`quarter_colour`'s) where the quarter is made already (the eighth-size
        grey copy was made from it), else ``None``: what the motion gate tells a
        hand's colour by, at a fifth of a millisecond for a 4608 x 2592 frame."""
        if "quarter_colour" not in self.__dict__:
            return None
        made = self.__dict__.get("_eighth_colour")
        if made is None:
            made = self.__dict__["_eighth_colour"] = _halved(self.quarter_colour)
        return cast(NDArray[np.uint8], made)

    @cached_property
    def eighth(self) -> NDArray[np.uint8]:
        """The grey picture at an eighth of its size (2 x 2 means of the quarter's):
        what paper's reference level is judged on, and what the motion gate watches."""
        return _halved(self.quarter)

    @cached_property
    def light(self) -> NDArray[np.uint8]:
        """The brightest level near each eighth-size pixel, about a quarter of a card
        wide (:func:`_near_light`): the level of the paper there, where a card lies."""
        h, w = self.shape
        return _near_light(self.eighth, (h // 2, w // 2))

    @cached_property
    def small_bars(self) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        """The paper bars (:func:`_paper_bars`) at an eighth of the picture's size."""
        h, w = self.shape
        return _paper_bars(self.eighth, (h // 2, w // 2), self.light, self.white_levels)

    @cached_property
    def lift(self) -> NDArray[np.uint8]:
        """How much each eighth-size pixel's ink contrasts are lifted before they are
        judged, in 32nds (:data:`LIFT_ONE`: not at all): :data:`INK_LIGHT` over the
        brightest level near it (:attr:`light`), at most :data:`LIFT_MAX` times.

        Ink's steps are grey levels on paper in good light. Under a hard shadow
        across a deal (paper at a quarter of its lit level) or in a dim room, print
        is as dark against its paper in proportion, but fewer levels under it: the
        real deals with their lower right under such a shadow read 88 of 138 cards,
        nearly all of the lost ones never proposed (131 lifted). The light level near
        a pixel is its paper's, where a card lies near; far from cards it is the
        table's, where the lift does nothing, since ink counts only where paper
        rings it. The patches the network reads are lifted as much (:class:`Pyramid`)."""
        return _lift(self.light)

    @property
    def _whole_lift(self) -> bool:
        """Whether the whole picture's lift is made, or its light level, from which
        the lift is a lookup (a whole reading makes the light level with its bars)."""
        return "lift" in self.__dict__ or "light" in self.__dict__

    @property
    def _windowed(self) -> bool:
        """Whether a region's eighth-size maps may be made from a window round it
        (:meth:`eighths`): sides multiples of eight, so that every eighth-size pixel
        stands for its own 8 x 8 block, cut or whole; and a picture whose white
        balance needs no whole-picture bars (:attr:`_by_sample`)."""
        h, w = self.shape
        return h % 8 == 0 and w % 8 == 0 and self._by_sample

    def eighths(self, box: Box | None = None) -> _Eighths | None:
        """The eighth-size maps a reading of ``box`` asks, where the whole picture's
        are not made (its light level, lift and paper bars: :attr:`light`,
        :attr:`lift`, :attr:`small_bars`): those of a window round the box
        (:func:`_window_margin` eighth-size pixels: how far the bars' windows, and
        the lift's round a patch (:meth:`Pyramid.steps`), reach), exactly the
        whole's over the box; ``None``: read the whole picture's (made, or to be
        made). The grey they come from is cut from the whole eighth-size copy where
        the motion gate made it, else made from the window alone: with the camera's
        small stream for the gate, a region's reading looks at no more of the frame
        than the region and its surroundings (its white balance and bright end come
        from :attr:`sample`)."""
        made = "small_bars" in self.__dict__ and self._whole_lift
        if box is None or made or not self._windowed:
            return None
        for win in self._windows:
            if win.holds(box):
                return win
        h, w = self.shape
        sh, sw = h // 8, w // 8
        m = _window_margin(self.shape)
        x0, y0, x1, y1 = box
        wx0, wy0 = max(0, x0 // 8 - m), max(0, y0 // 8 - m)
        wx1, wy1 = min(sw, -(-x1 // 8) + m), min(sh, -(-y1 // 8) + m)
        quarter = None
        if "eighth" in self.__dict__:
            eighth = self.eighth[wy0:wy1, wx0:wx1]
        else:  # the quarter-size copy of the window, as the whole's is made
            quarter = _quartered(self.image[8 * wy0 : 8 * wy1, 8 * wx0 : 8 * wx1])
            eighth = _halved(cv2.cvtColor(quarter, cv2.COLOR_BGR2GRAY))
        shape = (h // 2, w // 2)
        light = _near_light(eighth, shape)
        bar, second = _paper_bars(eighth, shape, light, self.white_levels)
        win = _Eighths(wy0, wx0, light, _lift(light), bar, second, box, (sh, sw), quarter)
        self._windows = [*self._windows[-3:], win]
        return win

    def quarter_colour_in(self, box: Box) -> NDArray[np.uint8]:
        """:attr:`quarter_colour` over ``box`` (corners on multiples of four): cut from
        it, or from the window :meth:`eighths` made round the box, or made from the
        box alone (bilinear at exactly a quarter: the same bytes)."""
        x0, y0, x1, y1 = box
        cut = (slice(y0 // 4, -(-y1 // 4)), slice(x0 // 4, -(-x1 // 4)))
        h, w = self.shape
        if "quarter_colour" in self.__dict__ or h % 4 or w % 4:
            return self.quarter_colour[cut]
        win = self.eighths(box)
        if win is not None and win.quarter is not None:
            oy, ox = 2 * win.y0, 2 * win.x0
            return win.quarter[
                cut[0].start - oy : cut[0].stop - oy, cut[1].start - ox : cut[1].stop - ox
            ]
        return _quartered(self.image[y0 // 4 * 4 : -(-y1 // 4) * 4, x0 // 4 * 4 : -(-x1 // 4) * 4])

    def lift_in(self, box: Box) -> NDArray[np.uint8] | None:
        """:attr:`lift` at full size over ``box``, or ``None`` where nothing in the box
        is lifted: each eighth-size pixel stands for the 8 x 8 block of full-size
        pixels at eight times its place, and the last row and column of them for the
        rest of the picture (where a side is no multiple of eight, the eighth-size
        pixels stand for a little more than eight pixels each; the whole picture and
        its regions take the same blocks, so a region's lift is the whole's)."""
        x0, y0, x1, y1 = box
        win = None if self._whole_lift else self.eighths(box)
        lift = win.lift if win is not None else self.lift
        sh, sw = win.of if win is not None else lift.shape
        if sh == 0 or sw == 0 or x1 <= x0 or y1 <= y0:
            return None
        ey0, ex0 = min(y0 // 8, sh - 1), min(x0 // 8, sw - 1)
        ey1, ex1 = min(-(-y1 // 8), sh), min(-(-x1 // 8), sw)
        oy, ox = (win.y0, win.x0) if win is not None else (0, 0)
        small = lift[ey0 - oy : max(ey1, ey0 + 1) - oy, ex0 - ox : max(ex1, ex0 + 1) - ox]
        if cv2.minMaxLoc(small)[1] <= LIFT_ONE:
            return None
        # the blocks (_blown_up by exactly eight: a tenth of NumPy's gathering time at
        # 4608 x 2592, a seventh of cv2.resize's), then the box's rows and columns
        # past the last block: copies of the last ones
        ya, xa = min(y1, 8 * sh), min(x1, 8 * sw)
        if y0 >= ya or x0 >= xa:  # the box lies wholly past the last row or column
            rows = np.minimum(np.arange(y0, y1) // 8, sh - 1) - ey0
            cols = np.minimum(np.arange(x0, x1) // 8, sw - 1) - ex0
            return np.ascontiguousarray(small[np.ix_(rows, cols)])
        big = _blown_up(small, 8)
        part = big[y0 - 8 * ey0 : ya - 8 * ey0, x0 - 8 * ex0 : xa - 8 * ex0]
        if ya < y1 or xa < x1:
            part = cv2.copyMakeBorder(part, 0, y1 - ya, 0, x1 - xa, cv2.BORDER_REPLICATE)
        return part

    @cached_property
    def bars(self) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        """The levels over which a half-size pixel is paper, and over which a neutral
        one is: :attr:`small_bars` brought up to half size (bilinear)."""
        h, w = self.shape
        return tuple(  # type: ignore[return-value]
            cv2.resize(b, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_LINEAR)
            for b in self.small_bars
        )

    def bars_in(self, box: Box) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
        """:attr:`bars` in ``box`` (even corners, in the picture's pixels): cut from
        them if they are made; else brought up from the eighth-size bars round the
        box alone. Bilinear up by exactly four, a half-size pixel depends on the two
        eighth-size pixels either side of it, so one more eighth-size pixel round
        the box makes it exactly the whole's."""
        if "bars" in self.__dict__:
            x0, y0, x1, y1 = (v // 2 for v in box)
            return tuple(b[y0:y1, x0:x1] for b in self.bars)  # type: ignore[return-value]
        win = None if "small_bars" in self.__dict__ else self.eighths(box)
        bars = (win.bar, win.second) if win is not None else self.small_bars
        x0, y0, x1, y1 = (v // 2 for v in box)
        h, w = self.shape[0] // 2, self.shape[1] // 2
        sh, sw = win.of if win is not None else bars[0].shape
        if h != 4 * sh or w != 4 * sw:
            return tuple(b[y0:y1, x0:x1] for b in self.bars)  # type: ignore[return-value]
        ex0, ey0 = max(0, x0 // 4 - 1), max(0, y0 // 4 - 1)
        ex1, ey1 = min(sw, -(-x1 // 4) + 1), min(sh, -(-y1 // 4) + 1)
        size = (4 * (ex1 - ex0), 4 * (ey1 - ey0))
        ox, oy = x0 - 4 * ex0, y0 - 4 * ey0
        cy, cx = (ey0 - win.y0, ex0 - win.x0) if win is not None else (ey0, ex0)
        return tuple(  # type: ignore[return-value]
            cv2.resize(
                b[cy : cy + ey1 - ey0, cx : cx + ex1 - ex0], size, interpolation=cv2.INTER_LINEAR
            )[oy : oy + y1 - y0, ox : ox + x1 - x0]
            for b in bars
        )

    @cached_property
    def gains(self) -> NDArray[np.float32]:
        """The white balance of the whole picture, from a sample (every fourth
        quarter-size pixel each way is plenty): the colour of card paper, taken as
        the median colour of the brighter half of what the first paper bar passes
        (:func:`_paper_bars` judged on the sample itself in a picture of a megapixel
        and more, :attr:`_by_sample`, so that a region's reading needs no
        whole-picture bars: :meth:`eighths`), leaving out pixels clipped in any
        channel; with too little of that, the colour of the brightest grey
        (:func:`_balance`).

        The brightest grey alone is the light's colour only where it is paper. With
        a lamp's glare in the picture it is the glare, white whatever the light, and
        under a strong cast the lit paper is clipped in one channel: the gains left
        the cast in, and paper under a hard shadow, tinted, failed the neutral test
        its second bar needs (the bench's scenes with a shadow, glare and a cast:
        94 of 105 cards read, 100 with the paper's median).

        Where more of what passes the bar is clipped white in every channel than
        is not clipped (and ``PAPER_SAMPLE`` pixels of it at least), the paper is
        blown out (an overexposed picture): its colour is white, and the lit
        pixels under the clip are the table's (a real deal on cork one stop over
        was balanced to the cork's orange, which then passed the second bar's
        neutral test: 80 % of the picture was paper, 40 % since). A glare larger
        than all the lit paper is taken for blown paper too."""
        sample = self.sample
        gray = cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY)
        h, w = self.shape
        if self._by_sample:
            # the first paper bar judged on the sample itself, a sixteenth of the
            # picture (a quarter of a picture of a quarter of its size)
            bar = _paper_bars(gray, (h // 4, w // 4), levels=self.white_levels, first=True)[0]
            part, grey = sample, gray
        else:  # the eighth-size pixel of each sampled one
            bar = self.small_bars[0][::2, ::2]
            sh, sw = min(gray.shape[0], bar.shape[0]), min(gray.shape[1], bar.shape[1])
            part, grey, bar = sample[:sh, :sw], gray[:sh, :sw], bar[:sh, :sw]
        b, g, r = channels(part)
        brightest = cv2.max(cv2.max(b, g), r)
        over = grey > bar
        lit = over & (brightest < CLIPPED)
        blown = over & (cv2.min(cv2.min(b, g), r) >= CLIPPED)
        n_blown = np.count_nonzero(blown)
        if n_blown >= PAPER_SAMPLE and n_blown > np.count_nonzero(lit):
            # most of the paper is white in every channel (an overexposed picture):
            # its colour is white, and what is lit but not clipped is mostly not paper
            return np.ones(3, np.float32)
        n_lit = int(np.count_nonzero(lit))
        if n_lit >= PAPER_SAMPLE:
            # medians from histograms of the pixels masked (hist_percentile): no sort,
            # no gathering of them
            mask = lit.view(np.uint8)
            median = hist_percentile(_hist(grey, mask), n_lit, 50)
            paper = cv2.bitwise_and(mask, cv2.compare(grey, median, cv2.CMP_GE))
            # ... and of those the less saturated kind (Otsu's split of their
            # saturation): what passes the bar beside the paper (a wooden table's
            # light grain where few cards lie in the light, wood under a lamp's
            # glare) is more saturated than card paper under any light, and as much
            # of it as of paper set the gains to the wood's orange (1.84, 1.0,
            # 0.69): a worn card in a bluish shadow was then no neutral paper
            spread = cv2.subtract(brightest, cv2.min(cv2.min(b, g), r))
            saturation = cv2.divide(spread, brightest, scale=255.0)
            # (two kinds only where they lie apart: paper's own spread of tints, in
            # a cast or glare, is no second kind)
            values = saturation[paper > 0]
            split = cv2.threshold(values, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0]
            low, high = values[values <= split], values[values > split]
            if (
                len(low) >= PAPER_SAMPLE
                and len(high)
                and float(high.mean()) - float(low.mean()) >= PALE_APART
            ):
                paper = cv2.bitwise_and(paper, cv2.compare(saturation, split, cv2.CMP_LE))
            if self.index_d is not None:
                paper = _unlike_table(paper, part, saturation)
            n = cv2.countNonZero(paper)
            colour = np.array(
                [hist_percentile(_hist(ch, paper), n, 50) for ch in (b, g, r)], np.float32
            )
            colour += 1.0
            return np.clip(colour.mean() / colour, 0.5, 2.0).astype(np.float32)
        return _balance(sample, gray)

    def paper(self, box: Box | None = None) -> NDArray[np.uint8]:
        """The half-size paper mask of the whole picture, or of ``box`` (corners on
        multiples of four). A large picture's is judged only round the tiles where a
        sheet of paper may lie (:meth:`_paper_tiles`), each piece with the pixels
        round it that its tests reach, so that there it is exactly the whole
        picture's judged everywhere (``tests/test_vision_regions.py``), and 0
        elsewhere: on a table frame paper is a few per cent of the picture, and
        judging all of it was a third of the proposal stage's whole-frame work at
        4608 x 2592."""
        if box is not None:
            gray = self.half_in(box)
            bar, near = self.bars_in(box)
            x0, y0, x1, y1 = box
            cut = (slice(y0 // 4, -(-y1 // 4)), slice(x0 // 4, -(-x1 // 4)))
            if "neutral" in self.__dict__:
                neutral = self.neutral[cut]
            else:  # a region's alone (the whole picture's is a few ms at 4608 x 2592)
                cast = self.cast
                neutral = _neutral(
                    self.quarter_colour_in(box), self.gains, None if cast is None else cast[cut]
                )
            return _paper(gray, bar, near, neutral)
        tiles = self._paper_tiles()
        if tiles is None:
            return _paper(self.half, *self.bars, self.neutral)
        h, w = self.shape
        hh, hw = h // 2, w // 2
        mask = np.zeros((hh, hw), np.uint8)
        # the colour half of each piece is kept as the gate's pyramid's first level
        # there (Picture.pyramid): its patches lie round the cards
        half = np.zeros((hh, hw, 3), np.uint8)
        t, pt = PAPER_TILE, Pyramid.TILE  # (the pyramid's first level's tiles)
        made = np.zeros((-(-hh // pt), -(-hw // pt)), bool)
        # a tile's sheet reaches PAPER_CORE_REACH past its core's middle; the tests of
        # a pixel there look as far again, its core's square and the smoothing
        out_m = PAPER_CORE // 2 + PAPER_CORE_REACH
        look = PAPER_CORE_REACH + PAPER_CORE // 2 + 1
        for a, b, c, d in _tile_boxes(tiles):
            ox0, oy0 = max(0, a * t - out_m), max(0, b * t - out_m)
            ox1, oy1 = min(hw, c * t + out_m), min(hh, d * t + out_m)
            # the piece judged: on the pyramid's tiles (in half-size pixels)
            tx0, ty0 = max(0, ox0 - look) // pt, max(0, oy0 - look) // pt
            tx1, ty1 = -(-min(hw, ox1 + look) // pt), -(-min(hh, oy1 + look) // pt)
            hx0, hy0 = tx0 * pt, ty0 * pt
            hx1, hy1 = min(hw, tx1 * pt), min(hh, ty1 * pt)
            colour = _halved(self.image[2 * hy0 : 2 * hy1, 2 * hx0 : 2 * hx1])
            half[hy0:hy1, hx0:hx1] = colour
            made[ty0:ty1, tx0:tx1] = True
            bar, near = self.bars_in((2 * hx0, 2 * hy0, 2 * hx1, 2 * hy1))
            neutral = self.neutral[hy0 // 2 : hy1 // 2, hx0 // 2 : hx1 // 2]
            part = _paper(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), bar, near, neutral)
            view = mask[oy0:oy1, ox0:ox1]
            cv2.max(view, part[oy0 - hy0 : oy1 - hy0, ox0 - hx0 : ox1 - hx0], dst=view)
        self._half_parts = (half, made)
        return mask

    @cached_property
    def neutral(self) -> NDArray[np.uint8]:
        """255 at each quarter-size pixel whose colour, balanced (:attr:`gains`) and
        taken against the light's cast there (:attr:`cast`), is near grey
        (:func:`_neutral`): what the second paper bar asks."""
        return _neutral(self.quarter_colour, self.gains, self.cast)

    @cached_property
    def cast(self) -> NDArray[np.float32] | None:
        """The colour of the light at each quarter-size pixel against the picture's
        whole (:data:`CAST_CARDS`): each channel's share of the table's local colour
        over its share where the table is lit better (the brighter half of the local
        colours over the whole :attr:`sample`: the light the balance's paper lies in),
        where the table is in shade (:data:`CAST_SHADE`) and that is a light's (within
        :data:`CAST_MAX`), else 1. ``None``: no calibrated camera
        (a single photograph's surroundings are no one table), no colour, or no cast
        over :data:`CAST_MIN` anywhere. A lamp's shadow lit by the room's bluer light
        made a worn card there (its paper a fifth off grey in the lamp's light) a third
        off grey after the lamp's balance, no neutral paper: the live check's lamp
        probe left a 6S and an 8D unread for 10.7 and 14.7 s."""
        if self.index_d is None:
            return None
        sample = self.sample
        if sample.ndim != 3 or sample.shape[2] != 3 or min(sample.shape[:2]) < 8:
            return None
        # judged at a quarter of the sample's size (the table's colour over windows of
        # cards is smooth; the frame's sixteenth took 2.2 ms a frame, this 0.2), a
        # card's width there (a 64th of the picture's each way)
        sh, sw = sample.shape[:2]
        small = cv2.resize(sample, (max(1, sw // 4), max(1, sh // 4)), interpolation=cv2.INTER_AREA)
        card = self.index_d * CARD_INDICES[0] / self.index_k / 64.0
        k = max(3, int(CAST_CARDS * card) | 1)
        local = cv2.medianBlur(small, min(k, 255)).astype(np.float32) + 1.0
        grey = local.mean(axis=2)
        share = local / grey[..., None]
        # against the table where it is lit better (the brighter half of it: the light
        # the paper the balance is taken from lies in, Picture.gains; not its brightest
        # tenth, which a lamp's glare washes white: against that, all the rest of a
        # green cloth had a cast, and a card laid by the glare was unread for 23 s)
        lit = grey >= _upper_median(grey.ravel())
        cast = share / _upper_median(share[lit])
        # a light's where the table is in shade, under CAST_SHADE of its lit grey (a
        # glare adds white, no light of another colour: taken for one, a card carried
        # past it was unread in the hand, and its move told as a removal and a placing)
        shade = grey < CAST_SHADE * float(_upper_median(grey[lit]))
        light = np.all((cast <= CAST_MAX) & (cast >= 1.0 / CAST_MAX), axis=2) & shade
        cast[~light] = 1.0
        if not np.any(np.abs(cast - 1.0) > CAST_MIN - 1.0):
            return None
        h, w = self.shape  # (the quarter-size copy's size is made from it: _quartered)
        return cv2.resize(cast, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_LINEAR)

    def _paper_tiles(self) -> NDArray[np.bool_] | None:
        """The tiles of ``PAPER_TILE`` half-size pixels where a solid square of paper
        (:func:`_paper`'s core) may lie; ``None``: judge the picture whole (under
        ``PAPER_TILED`` pixels, its sides no multiples of eight, so that a piece's
        bars are not exactly the whole's, or paper possible in most of it).

        A core is ``PAPER_CORE`` half-size pixels whose smoothed grey is over the
        bar, or over the second bar and neutral. Such a square holds at least two
        by two quarter-size pixels: so where the brightest smoothed quarter-size
        pixel near a tile (within two) is not within ``PAPER_SLACK`` of the least
        bar near it (the bars brought up bilinear from the eighth-size ones, each
        between its four neighbours: that side is a bound), nor its brightest
        neutral one of the least second bar, no core lies there.

        That side is a judgement, not a bound: a quarter-size pixel is the mean of
        the middle 2 x 2 of its 4 x 4 pixels, not of all 16, so where the picture
        varies at a period of about four pixels (a bright cloth's weave) it may
        show only the dark threads, and a sheet the whole picture's judging calls
        paper is left out (a review built such cloths: 765 to 56,644 half-size
        pixels lost). Card paper is smooth at that scale, and a card on such a
        cloth keeps its paper to its edges (``tests/test_vision_regions.py``).
        Over the bench's pictures (synthetic tables in every light, the real
        photographs, the videos) and 188 large tables the masks are the same,
        pixel for pixel."""
        h, w = self.shape
        if h % 8 or w % 8 or h * w < PAPER_TILED:
            return None
        t = PAPER_TILE
        gh, gw = -(-h // (2 * t)), -(-w // (2 * t))
        near5 = np.ones((5, 5), np.uint8)
        smooth = cv2.blur(self.quarter, (3, 3))
        bright = cv2.dilate(smooth, near5)
        bright_neutral = cv2.dilate(cv2.bitwise_and(smooth, self.neutral), near5)
        near3 = np.ones((3, 3), np.uint8)
        bar, second = (cv2.erode(b, near3) for b in self.small_bars)

        def most(a: NDArray[np.uint8], k: int, fill: int, how: Callable[..., Any]) -> I64:
            """``how`` (np.max, np.min) over each tile of ``a`` (``k`` pixels a side):
            down each tile's columns, then along its rows (a tenth of the time of
            reducing both axes of a four-dimensional view at once)."""
            grid = np.full((gh * k, gw * k), fill, np.uint8)
            grid[: a.shape[0], : a.shape[1]] = a[: gh * k, : gw * k]
            rows = how(grid.reshape(gh, k, gw * k), axis=1)
            return how(rows.reshape(gh, gw, k), axis=2).astype(np.int64)

        q, e = t // 2, t // 4  # a tile's side at a quarter and an eighth of the picture
        tiles = (most(bright, q, 0, np.max) + PAPER_SLACK > most(bar, e, 255, np.min)) | (
            most(bright_neutral, q, 0, np.max) + PAPER_SLACK > most(second, e, 255, np.min)
        )
        return None if tiles.mean() > PAPER_DENSE else tiles

    def margin(self, d: float) -> int:
        """How far around a region its crop must reach, for indices of rank-to-suit
        distance up to about ``d`` pixels: the ink read round it
        (:meth:`ink_margin`) and as far again as the ink tests look
        (:attr:`reach`: the background window's half, or the ink closing's); and
        the paper of a whole card lying free whose index lies in the region (its
        far corner 10.3 d from the index's midpoint, and another reading of that
        index up to 0.7 d away), a few pixels for the outline's closing, and how
        far the paper's sheet test looks (:data:`PAPER_CORE`, in half-size pixels:
        a box's mask differs from the whole's that far in from its edge). (Until
        the ninth session the card's paper was given the ink's reach as well.)"""
        return crop_margin(self.shape, d, self.index_d)

    def ink_margin(self, d: float) -> int:
        """How far round a region (``roi`` of :meth:`crop`) its ink is read, for
        indices of size up to about ``d``: every proposal whose midpoint lies
        within the pad the reader keeps round the region (``2 SAME_INDEX d``,
        1.4 d) pairs blobs up to 1.5 d in size whose centres lie within 1.3
        sizes of it, each with its nearest blobs up to 2.6 of its sizes away,
        whose boxes reach one size further: 8.75 d, and a few pixels. The rest of
        the crop (:meth:`margin`: a whole card lying free, its paper's sheet) is
        read for paper alone, at half size."""
        return ink_margin(d)

    def ink_box(self, roi: Box, d: float, box: Box) -> Box:
        """Where ink is read for proposals in ``roi`` (the picture's pixels) when the
        region's crop is ``box``: ``roi`` grown by :meth:`ink_margin`, in the box's
        own pixels, clipped to it."""
        m = self.ink_margin(d)
        x0, y0, x1, y1 = box
        return (
            max(0, roi[0] - m - x0),
            max(0, roi[1] - m - y0),
            min(x1 - x0, roi[2] + m - x0),
            min(y1 - y0, roi[3] + m - y0),
        )

    def crop(self, roi: Box, d: float) -> Box:
        """The box to read for proposals in ``roi``: grown by :meth:`margin`, its
        corners on multiples of 32 (so that the image pyramid's levels of the crop
        are the whole picture's, cut), clipped to the picture."""
        h, w = self.shape
        m = self.margin(d)
        x0, y0 = max(0, (roi[0] - m) // 32 * 32), max(0, (roi[1] - m) // 32 * 32)
        x1 = min(w, -(-(roi[2] + m) // 32) * 32)
        y1 = min(h, -(-(roi[3] + m) // 32) * 32)
        return (x0, y0, x1, y1)


def _unlike_table(
    paper: NDArray[Any], part: NDArray[Any], saturation: NDArray[Any]
) -> NDArray[Any]:
    """Of the pixels ``paper`` passes (:attr:`Picture.gains`' candidates in the sample
    ``part`` of a calibrated camera's frame, the table filling it), the kind less like
    the table's colour (the sample's median), where two kinds lie ``TABLE_APART`` apart
    in their chromaticity's distance from it (the nearer kind's ``TABLE_NEAR`` of the
    other's or less), that kind is no more saturated, and it lies in two patches or
    more (``TABLE_PATCH``): else all of them.

    A lamp's glare adds the light's own colour to the cloth under it, and the cloth
    there, brighter than the cards beside it, passes the first paper bar: it lies
    between the cloth's chromaticity and the light's, the paper at the light's. The
    glare probe's green felt was half the candidates (a third as saturated as the
    cloth, not the PALE_APART the saturation split needs), the gains came out 1.15,
    0.84, 1.07 (0.96, 0.99, 1.06 without the glare), and a pinkish worn 4D laid on a
    QD was no neutral paper: never read while it lay there, its move missed."""
    where = paper > 0
    n = int(np.count_nonzero(where))
    if n < 2 * PAPER_SAMPLE:
        return paper
    every = np.ascontiguousarray(part[::2, ::2])  # (plenty for the cloth's median)
    size = every.shape[0] * every.shape[1]
    table = np.array([hist_percentile(_hist(ch), size, 50) for ch in channels(every)], np.float32)
    table += 1.0
    colour = part[where].astype(np.float32) + 1.0
    chroma = colour / colour.sum(axis=1, keepdims=True)
    # (0 to 2, as 0 to 255 for Otsu's split)
    far = np.abs(chroma - table / table.sum()).sum(axis=1)
    levels = np.round(far * 127.5).astype(np.uint8)
    split = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0]
    unlike = levels > split
    if not PAPER_SAMPLE <= np.count_nonzero(unlike) < n:
        return paper
    sat = saturation[where]
    unlike_far, like_far = float(far[unlike].mean()), float(far[~unlike].mean())
    if (
        like_far > TABLE_NEAR * unlike_far
        or unlike_far - like_far < TABLE_APART
        or sat[unlike].mean() > sat[~unlike].mean()
    ):
        return paper
    out = np.zeros_like(paper)
    out[where] = np.where(unlike, 255, 0).astype(np.uint8)
    # ... and lies on more than one card: one patch is a glare's whitened middle (a
    # glare of another light than the one the cards lie in: a lamp's over a cast)
    stats = cv2.connectedComponentsWithStats(out, connectivity=8)[2]
    if np.count_nonzero(stats[1:, cv2.CC_STAT_AREA] >= TABLE_PATCH) < 2:
        return paper
    return out


def background_window(shape: tuple[int, int], index_d: float | None = None) -> int:
    """The side of the window ink is judged darker than its surroundings in, for a
    picture of ``shape``: a 24th of its shorter side (odd), at least 15; where the
    index size ``index_d`` is known (a calibrated camera), no wider than
    ``BACKGROUND_INDICES`` of it.

    A 24th of a 2320-pixel frame is 97 pixels, 41 mm of a table seen at 2.36 px/mm:
    round an index near a card's corner more than half of it is the table, and on
    dark felt its mean is so low that pale print (the thin red J of a photographed
    jack of hearts, its colour smeared by the video codec) was not darker than it.
    Three index sizes (61 pixels there) keep most of the window on the card.

    >>> background_window((2320, 2320)), background_window((2320, 2320), 20.0)
    (97, 61)
    """
    k = max(15, (min(shape) // 24) | 1)
    if index_d is not None and index_d > 0:
        k = min(k, max(15, int(BACKGROUND_INDICES * index_d) | 1))
    return k


def ink_reach(shape: tuple[int, int], index_d: float | None = None) -> int:
    """How far the ink tests of a pixel look round it in a picture of ``shape`` (with
    the calibrated index size ``index_d``, :func:`background_window`): the
    background window's half, or the ink closing's reach (its dilation's and its
    erosion's), whichever is further (the closing's below a 672-pixel shorter side).

    >>> ink_reach((480, 640)), ink_reach((2592, 4608)), ink_reach((2592, 4608), 20.0)
    (14, 54, 30)
    """
    return max(background_window(shape, index_d) // 2, INK_CLOSE - 1)


def ink_margin(d: float) -> int:
    """:meth:`Picture.ink_margin`."""
    return int(np.ceil(INK_MARGIN * d)) + 8


def crop_margin(shape: tuple[int, int], d: float, index_d: float | None = None) -> int:
    """:meth:`Picture.margin` of a picture of ``shape`` (calibrated index size
    ``index_d``: :func:`ink_reach`)."""
    sheet = 2 * (PAPER_CORE // 2 + PAPER_CORE_REACH)
    reach = ink_reach(shape, index_d)
    return max(int(np.ceil(11 * d)) + 8 + sheet, ink_margin(d) + reach + 2)


def _halved(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """``image`` at half size, each pixel the mean of a 2 x 2 block. With even sides
    bilinear sampling at exactly half is that mean, to the same rounding, and a
    fifth faster than the area mean (4.8 ms, not 5.8, for a 4608 x 2592 frame on
    one core here); with an odd side the area mean."""
    h, w = image.shape[:2]
    exact = h % 2 == 0 and w % 2 == 0
    how = cv2.INTER_LINEAR if exact else cv2.INTER_AREA
    return cv2.resize(image, (max(1, w // 2), max(1, h // 2)), interpolation=how)


def find_components(
    image: NDArray[np.uint8], *, min_size: float = 6.0, max_size: float = 90.0
) -> Components:
    """Blobs of dark or red ink, mostly surrounded by light paper."""
    return _components(Picture(image), None, min_size, max_size)[0]


def _components(
    pic: Picture,
    box: Box | None = None,
    min_size: float = 6.0,
    max_size: float = 90.0,
    ink: Box | None = None,
) -> tuple[Components, NDArray[np.uint8]]:
    """:func:`find_components` of the picture or of ``box`` in it (in the box's own
    pixels), and the half-size paper mask it judged the blobs by.

    The whole picture's ink is looked for only near paper (:func:`_ink_areas`):
    a blob is kept only when paper rings it, and on a table frame paper is a few
    per cent of the picture. The blobs found are exactly those of a reading of
    every pixel (``tests/test_vision_regions.py``); they come in one order
    whichever way they were found, by the top and then the left of their boxes.
    ``ink`` (a box in the reading's pixels): the blobs only of what lies in it
    (:meth:`Picture.ink_box`); the paper mask is the whole reading's still.
    """
    paper = pic.paper(box)  # card_quads finds the card outlines on the same mask
    off_paper = cv2.bitwise_not(paper)
    # the pieces, in the reading's pixels: the ink of each is read from the picture
    bx, by, bx1, by1 = box if box is not None else (0, 0, pic.shape[1], pic.shape[0])
    pieces = [
        (roi, (c[0] + bx, c[1] + by, c[2] + bx, c[3] + by), (c[0], c[1]))
        for roi, c in _ink_areas(pic, paper, max_size, (by1 - by, bx1 - bx), ink)
    ]
    found = [
        f
        for roi, crop, origin in pieces
        for f in _piece_blobs(pic, crop, roi, origin, paper, off_paper, min_size, max_size)
    ]
    if not found:
        return _no_components(), paper
    if len(found) > 1:  # a blob in two overlapping rois: found alike in both, kept once
        seen: set[tuple[float, ...]] = set()
        for i, f in enumerate(found):
            keys = [tuple(row) for row in f.stats.tolist()]
            keep = np.array([k not in seen for k in keys], bool)
            seen.update(keys)
            if not keep.all():
                found[i] = f.take(np.nonzero(keep)[0])
        found = [f for f in found if len(f.share)]
        if not found:
            return _no_components(), paper
    share = np.concatenate([f.share for f in found])
    xy = np.concatenate([f.stats[:, :2] for f in found])
    which = np.concatenate([np.full(len(f.share), i) for i, f in enumerate(found)])
    row = np.concatenate([np.arange(len(f.share)) for f in found])
    # top, then left, then the smaller (a part of a blob a thin line joins, which may
    # share its box's corner: _thin_joins), then label order
    area = np.concatenate([f.stats[:, 4] for f in found])
    order = np.lexsort((row, area, xy[:, 0], xy[:, 1]))
    cap = pic.max_blobs
    if order.size > cap:
        # not a card table (sensor noise, a page of print, a patterned cloth), or
        # one with such a patch beside the cards (a bright table's grain in an
        # overexposed photograph): so that the work stays bounded, the blobs with
        # the largest share of strong ink (printed indices and pips, not grain),
        # and of those the most surrounded by paper
        strong = np.concatenate([f.strong() for f in found])
        keep = order[np.lexsort((-share[order], -strong[order]))[:cap]]
        order = keep[np.lexsort((row[keep], area[keep], xy[keep, 0], xy[keep, 1]))]
    # second moments and red share of the kept blobs (a hundred or so of several hundred
    # specks), each from its own box of its piece's label image: cheaper than gathering
    # every ink pixel of the frame to its blob
    m = order.size
    mom = np.empty((m, 5), np.float64)
    stats = np.concatenate([f.stats for f in found])[order]
    cen = np.concatenate([f.centroids for f in found])[order]
    local = [(f.ids.tolist(), f.local.tolist()) for f in found]
    for j, (p, r) in enumerate(zip(which[order].tolist(), row[order].tolist(), strict=True)):
        f = found[p]
        i = local[p][0][r]
        bx, by, w_, h_ = local[p][1][r]
        mask = cv2.compare(f.labels[by : by + h_, bx : bx + w_], i, cv2.CMP_EQ)
        mo = cv2.moments(mask, True)
        reds = cv2.countNonZero(cv2.bitwise_and(f.red[by : by + h_, bx : bx + w_], mask))
        mom[j] = (mo["m00"], mo["mu20"], mo["mu02"], mo["mu11"], reds)
    m00 = mom[:, 0]
    cxx, cyy, cxy = mom[:, 1] / m00, mom[:, 2] / m00, mom[:, 3] / m00
    red_share = mom[:, 4] / m00
    half = np.sqrt(((cxx - cyy) / 2) ** 2 + cxy**2)
    l1 = (cxx + cyy) / 2 + half
    l2 = np.maximum((cxx + cyy) / 2 - half, 0.0)
    theta = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    f32 = np.float32
    comps = Components(
        cx=cen[:, 0].astype(f32),
        cy=cen[:, 1].astype(f32),
        w=stats[:, 2].astype(f32),
        h=stats[:, 3].astype(f32),
        red=red_share > 0.25,
        ax=np.cos(theta).astype(f32),
        ay=np.sin(theta).astype(f32),
        major=(4 * np.sqrt(l1)).astype(f32),
        minor=(4 * np.sqrt(l2)).astype(f32),
        split=np.concatenate(
            [f.split if f.split is not None else np.zeros(len(f.ids), bool) for f in found]
        )[order],
    )
    return comps, paper


# Ink is looked for within this many times the largest blob of paper (see _ink_areas),
# on a grid of cells this many pixels wide; and the whole picture is read at once when
# the areas near paper would cover more than this share of it.
INK_REACH = 1.25
INK_CELL = 16
INK_DENSE = 0.6
# A region's ink is read this many index sizes round it (Picture.ink_margin)
INK_MARGIN = 8.75


def _ink_areas(
    pic: Picture,
    paper: NDArray[np.uint8],
    max_size: float,
    shape: tuple[int, int],
    within: Box | None = None,
) -> list[tuple[Box, Box]]:
    """Where ink may make a blob in a reading of ``shape`` (the picture, or a box
    of it, whose half-size paper mask is ``paper``): (roi, crop) pairs, in the
    reading's pixels.

    A blob is kept only when a quarter of a band around it (a quarter of its size
    wide) is paper, so each kept blob lies within ``INK_REACH`` times the largest
    blob size (and a few pixels) of paper. The rois are the boxes of every cell of a
    coarse grid that near to paper, one for each patch of such cells; a crop is its
    roi grown by how far the ink tests look (:attr:`Picture.reach`) and two
    pixels, so that the ink in the roi and one pixel round it is exactly the whole
    picture's, and so is every blob whose box lies in the roi (a crop cut by the
    edge of a box read is judged there as the whole box is). Two rois may overlap:
    a blob found in both is found alike, and kept once. When the crops would cover
    most of the reading, it is one piece. ``within`` (a box in the reading's
    pixels): the rois are cut to it (:meth:`Picture.ink_box`), and the crops grown
    from what is left.
    """
    h, w = shape
    grow = pic.reach + 2
    if within is not None:
        cut = [_cut(roi, within) for roi, _ in _ink_areas(pic, paper, max_size, shape)]
        return [(roi, _grown(roi, grow, shape)) for roi in cut if roi is not None]
    whole = [((0, 0, w, h), (0, 0, w, h))]
    hh, hw = paper.shape
    cell = INK_CELL // 2  # a cell in the half-size mask
    # the grid covers the reading, not only its half-size mask: a side of 16k + 1
    # pixels has a last column the mask (its half, rounded down) leaves out
    gh, gw = -(-h // INK_CELL), -(-w // INK_CELL)
    if gh < 4 or gw < 4:
        return whole
    padded = paper
    if paper.shape != (gh * cell, gw * cell):  # (a 4608 x 2592 frame's is not)
        padded = np.zeros((gh * cell, gw * cell), np.uint8)
        padded[:hh, :hw] = paper
    cells = cv2.resize(padded, (gw, gh), interpolation=cv2.INTER_AREA)
    if not cells.any():
        return []
    reach = int(np.ceil((INK_REACH * max_size + 8) / INK_CELL)) + 1
    near = cv2.dilate(cv2.compare(cells, 0, cv2.CMP_GT), np.ones((2 * reach + 1,) * 2, np.uint8))
    _, _, stats, _ = labelled(near)
    pieces = []
    for x, y, bw, bh, _ in stats[1:].tolist():
        roi = (x * INK_CELL, y * INK_CELL, min(w, (x + bw) * INK_CELL), min(h, (y + bh) * INK_CELL))
        pieces.append((roi, _grown(roi, grow, shape)))
    area = sum((c[2] - c[0]) * (c[3] - c[1]) for _, c in pieces)
    return whole if area > INK_DENSE * h * w else pieces


def _grown(box: Box, by: int, shape: tuple[int, int]) -> Box:
    """``box`` grown by ``by`` pixels each way, clipped to a reading of ``shape``."""
    h, w = shape
    return (max(0, box[0] - by), max(0, box[1] - by), min(w, box[2] + by), min(h, box[3] + by))


def _cut(box: Box, to: Box) -> Box | None:
    """What of ``box`` lies in ``to``; ``None`` where nothing does."""
    x0, y0 = max(box[0], to[0]), max(box[1], to[1])
    x1, y1 = min(box[2], to[2]), min(box[3], to[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


@dataclass(frozen=True)
class _Blobs:
    """The blobs one piece of a picture kept, before the picture's cap: their stats
    (x, y, w, h, area) and centroids in the reading's pixels, their boxes in the
    piece's (``local``), paper shares, label numbers, the label image their moments
    are taken from (the piece's, or that of the parts :func:`_thin_joins` split
    off) and the piece's red mask, and its ink contrast (how far each pixel is
    under its surroundings, lifted) that :meth:`strong` counts."""

    stats: NDArray[np.float64]
    centroids: NDArray[np.float64]
    local: NDArray[np.int32]
    share: NDArray[np.float64]
    ids: NDArray[np.intp]
    labels: NDArray[np.int32]
    red: NDArray[np.uint8]
    contrast: NDArray[np.uint8]
    # those a suit was split off (_thin_joins); None: none
    split: NDArray[np.bool_] | None = None

    def strong(self) -> NDArray[np.float64]:
        """The share of each blob's pixels that are ``STRONG_INK`` under their
        surroundings: print is, the grain of a table or cloth mostly is not."""
        if self.ids.size == 0:
            return np.zeros(0, np.float64)
        ids = self.labels[self.contrast >= STRONG_INK]
        counts = np.bincount(ids, minlength=int(self.ids.max()) + 1)[self.ids]
        return counts / np.maximum(self.stats[:, 4], 1)

    def take(self, which: NDArray[np.intp]) -> _Blobs:
        """These blobs at ``which`` (indices), from the same piece."""
        return replace(
            self,
            stats=self.stats[which],
            centroids=self.centroids[which],
            local=self.local[which],
            share=self.share[which],
            ids=self.ids[which],
        )


def _piece_blobs(
    pic: Picture,
    crop: Box,
    roi: Box,
    origin: tuple[int, int],
    paper: NDArray[np.uint8],
    off_paper: NDArray[np.uint8],
    min_size: float,
    max_size: float,
) -> list[_Blobs]:
    """The blobs of dark or red ink in ``crop`` (picture pixels) whose boxes lie in
    ``roi`` and that paper rings, judged on the reading's half-size paper mask
    (``paper``; ``off_paper``, its negative). ``roi`` and what is
    returned are in the reading's pixels, where the crop's first pixel is
    ``origin``.

    Ink is darker than its surroundings (the background window's mean). On paper
    it must also be darker than the paper next to it: the paper of a worn or
    tinted card lying among bright ones is itself some 30 to 40 levels under a
    window that takes in its bright neighbours, so it passed for ink, and the
    index printed on it sank into one blob of paper and print too large to be
    an index. The level of the paper next to a pixel is the grey closing over
    ``INK_CLOSE`` pixels: it fills every stroke narrower than that with the
    paper round it (a thin stroke blurred by a coarse camera too, which the
    half-size paper mask may call paper) and leaves flat paper, and the edge
    between a darker card and a bright one, as they are. Dark ink on paper is
    ``DARK_STEP`` under it; red ink ``RED_STEP`` (a reddish tint's paper passed
    the red tests beside bright cards as its grey paper passed the dark one).
    Off paper (the table) ink is judged as before. Where the light is dim, every
    step is taken on contrasts lifted to good light (:attr:`Picture.lift`).

    The blobs come in one :class:`_Blobs`, and the compact parts of blobs a thin line
    joins to something else (:func:`_thin_joins`) in a second where there are any."""
    x0, y0, x1, y1 = crop
    image, gray = pic.image[y0:y1, x0:x1], pic.gray_in(crop)
    k = pic.background_k
    background = cv2.blur(gray, (k, k))
    b, g, r = channels(image)
    # saturating uint8 arithmetic: a few SIMD passes instead of int16 NumPy temporaries
    redness = cv2.subtract(r, cv2.max(g, b))
    warm = _warmer(pic, r, b, k) if pic.warm_ink else None
    off = _doubled_at(off_paper, origin, gray.shape)
    px, py, pw, ph = cv2.boundingRect(cv2.bitwise_not(off))  # the paper's box
    if pic.index_d is not None and pw and ph:
        # a calibrated camera's window, three index sizes, still reaches off a card
        # round its corner index, a third to a half of it on the cloth: on paper its
        # mean is the paper's alone (_paper_mean), over the paper's box and as far
        # round it as the window looks
        look = k // 2 + 1
        bx0, by0 = max(0, px - look), max(0, py - look)
        bx1, by1 = min(gray.shape[1], px + pw + look), min(gray.shape[0], py + ph + look)
        ringed = _ringed_at(paper, (origin[0] + bx0, origin[1] + by0), (by1 - by0, bx1 - bx0))
        background[by0:by1, bx0:bx1] = _paper_mean(
            gray[by0:by1, bx0:bx1],
            background[by0:by1, bx0:bx1],
            off[by0:by1, bx0:bx1],
            ringed,
            k,
        )
    darker = cv2.subtract(background, gray)  # how much darker than its surroundings
    # On paper, ink must also be darker than the paper next to it (see above); off
    # paper that test is void (255). The red and dark bars are put to the least of
    # the two, one pass for each bar instead of two and a mask.
    under = np.full(gray.shape, 255, np.uint8)
    # the closing only over the paper's box and as far round it as the closing looks:
    # every paper pixel's closing is the whole crop's
    if pw and ph:
        look = INK_CLOSE - 1
        cx0, cy0 = max(0, px - look), max(0, py - look)
        cx1, cy1 = min(gray.shape[1], px + pw + look), min(gray.shape[0], py + ph + look)
        part = gray[cy0:cy1, cx0:cx1]
        closed = cv2.morphologyEx(
            part, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (INK_CLOSE,) * 2)
        )
        under[cy0:cy1, cx0:cx1] = cv2.max(cv2.subtract(closed, part), off[cy0:cy1, cx0:cx1])
    both = cv2.min(darker, under)
    reddish = redness  # the red share's test is of a ratio, which no lift changes
    lift = pic.lift_in(crop)
    if lift is not None:  # paper in a shadow or a dim room (Picture.lift)
        scale = 1.0 / LIFT_ONE
        both = cv2.multiply(both, lift, scale=scale)
        darker = cv2.multiply(darker, lift, scale=scale)
        redness = cv2.multiply(redness, lift, scale=scale)
        if warm is not None:
            warm = cv2.multiply(warm, lift, scale=scale)
    # red ink: reddish and darker than the paper around it (a reddish table, such as
    # cork, is not darker than itself); thin red strokes blur towards the paper, so
    # the bars are low and the paper band test below throws out what is not on a card.
    # A four-colour pack's orange is as red by its warmth (_warmer)
    red = cv2.bitwise_and(
        cv2.threshold(
            redness if warm is None else cv2.max(redness, warm), 22, 255, cv2.THRESH_BINARY
        )[1],
        cv2.threshold(both, RED_STEP, 255, cv2.THRESH_BINARY)[1],
    )
    # pale red only a little darker than the window is the tint of paper, not ink: the
    # paper of a worn or tinted card beside bright ones (a redness of 20-odd at a grey
    # of 150, some 16 levels under the window) joined its index into one blob too large
    # to be one. Ink is red for its brightness, or clearly darker (a thin red stroke
    # blurred into white paper is pale, but 30 levels and more under the paper)
    inky = cv2.bitwise_or(
        cv2.compare(reddish, cv2.convertScaleAbs(gray, alpha=RED_SHARE), cv2.CMP_GT),
        cv2.threshold(darker, RED_DARKER, 255, cv2.THRESH_BINARY)[1],
    )
    red = cv2.bitwise_and(red, inky)
    dark = cv2.bitwise_and(
        cv2.threshold(both, DARK_STEP, 255, cv2.THRESH_BINARY)[1],
        cv2.threshold(redness, 22, 255, cv2.THRESH_BINARY_INV)[1],
    )
    ink = cv2.bitwise_or(red, dark)
    n, labels, stats, centroids = labelled(ink)
    if n <= 1:
        return []

    piece = _Piece.of(roi, origin, paper, max_size)
    found = [
        _kept_blobs(labels, stats, centroids, np.arange(1, n), red, both, piece, min_size, max_size)
    ]
    parts = _thin_joins(labels, stats, piece, max_size)
    if parts is not None:  # a suit joined to a thin line (a court figure's frame)
        p_labels, p_stats, p_cen, p_ids, split_from = parts
        whole = found[0]
        if whole is not None and split_from.size:
            found[0] = replace(whole, split=np.isin(whole.ids, split_from))
        found.append(
            _kept_blobs(p_labels, p_stats, p_cen, p_ids, red, both, piece, min_size, max_size)
        )
    return [f for f in found if f is not None]


def _paper_mean(
    gray: NDArray[np.uint8],
    background: NDArray[np.uint8],
    off: NDArray[np.uint8],
    ringed: NDArray[np.uint8],
    k: int,
) -> NDArray[np.uint8]:
    """The background window's mean (``background``, over ``k`` pixels) taken over
    paper alone (``off``: 255 off it) where a pixel lies on paper or in print the
    paper rings (``ringed``: :func:`_ringed_at`), where that is brighter: a card's
    corner index judged against its card, not the cloth round it. The print itself
    is no paper: in a shade beside dark felt (seed 112's worn 8D, paper at 64 grey,
    the felt at 20) its strokes, 34 levels under the paper, were 18 under a window a
    third felt, and broke. A thin stroke of an index (a Times-like 2, a German B:
    1.2 pixels at the recommended 2.36 px/mm, blurred to a grey some 60 levels under
    the paper) was not 35 levels under a window half on dark felt; broken, its pieces
    paired with the suit as an index half its size, which the calibrated scale calls
    no index.
    Only with a calibrated camera's window: over the real deals (a 24th of the
    picture, fanned cards on cork) the paper's own mean lost five of 138 cards."""
    on = cv2.bitwise_not(off)
    share = cv2.blur(on, (k, k))
    mean = cv2.divide(cv2.blur(cv2.bitwise_and(gray, on), (k, k)), share, scale=255)
    mean = cv2.bitwise_and(cv2.max(background, mean), ringed)
    return cv2.bitwise_or(mean, cv2.bitwise_and(background, cv2.bitwise_not(ringed)))


def _ringed_at(
    paper: NDArray[np.uint8], at: tuple[int, int], shape: tuple[int, int]
) -> NDArray[np.uint8]:
    """The paper and the print it rings, at full size over the box of ``shape`` whose
    first pixel is ``at`` (the reading's pixels): the reading's half-size paper mask
    ``paper`` closed over ``INK_CLOSE`` (half as many half-size pixels, a quarter of
    the work), on the mask's own grid and with as much of it round the box as the
    closing looks, so that a region's box is the whole's there. The square is odd: an
    even one dilates and erodes about the same off-centre anchor, and the closing
    moved the mask a pixel down and right (a review's find: two pixels of cloth along
    each card's right and lower edges judged against its paper, two of paper along
    its upper and left ones not)."""
    k = INK_CLOSE // 2 | 1
    ax, ay = at
    h, w = shape
    hh, hw = paper.shape
    x0, y0 = max(0, min(ax // 2, hw - 1) - k), max(0, min(ay // 2, hh - 1) - k)
    x1, y1 = min(hw, (ax + w + 1) // 2 + k), min(hh, (ay + h + 1) // 2 + k)
    closed = cv2.morphologyEx(paper[y0:y1, x0:x1], cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return _doubled_at(closed, (ax - 2 * x0, ay - 2 * y0), shape)


def _warmer(pic: Picture, r: NDArray[np.uint8], b: NDArray[np.uint8], k: int) -> NDArray[np.uint8]:
    """How much warmer each pixel is than its surroundings (the background window's
    mean): red less blue, white-balanced (:attr:`Picture.gains`), less the same
    measure's mean over ``k`` pixels. The orange diamonds of the German four-colour
    pack are thin pale strokes whose red stands only 14 to 24 over the larger of
    green and blue (the red ink bar is 22) and whose grey only 30 to 45 under the
    paper (the dark ink bar is 35): 12 of the 13 cards of that pack the synthetic
    bench missed were such diamonds, with no proposal at all. Their red stands
    twice as far over blue. Taken against the picture's balance, a warm lamp does
    not make every stroke's edge warm; against the surroundings, neither does a
    yellowish paper (newsprint's black letters): the warmth is the ink's own.
    Only for a pack printed so (:attr:`Picture.warm_ink`): over the real pinochle
    photographs (a two-colour pack) under the bench's changes of light and camera it
    lost ranks and made false ones (the orange speckles of a granite table, the
    letters of a yellowish newspaper)."""
    gb, _, gr = (float(v) for v in pic.gains)
    warm = cv2.addWeighted(r, gr, b, -gb, 0.0)
    return cv2.subtract(warm, cv2.blur(warm, (k, k)))


# A blob is print only where this share of a band round it is paper (_Piece.ringed);
# the thin-line split's thresholds (_thin_joins)
PAPER_RING = 0.25
SPLIT_KEEP = 0.25
SPLIT_LOST = 0.15
SPLIT_ASPECT = 1.5
SPLIT_FILL = 0.45
JOINED_ASPECT = 1.8
JOINED_FILL = 0.45
JOINED_LARGEST = 2.5
# ... and of a blob larger than the largest (a court's frame), the parts within this
# many pixels of its box's edge: its very edge, where a suit outside the frame's line
# sticks out (a figure's piece touching the line from inside lies a pixel or two in:
# a review's find, with 2)
FRAME_EDGE = 0
# ... or, further in, with at least this share of the paper round it (two pixels wide)
# outside the blob's lines, reached from its box's edge without crossing them: the
# photographed QH's heart, joined to its frame, had a line of the frame four pixels
# further out than itself (the frame's line enclosing the figure, not the index)
FRAME_OUT = 0.5


def _thin_joins(
    labels: NDArray[np.int32], stats: NDArray[np.int32], piece: _Piece, max_size: float
) -> (
    tuple[
        NDArray[np.int32],
        NDArray[np.int32],
        NDArray[np.float64],
        NDArray[np.intp],
        NDArray[np.intp],
    ]
    | None
):
    """Compact parts of blobs that a thin line joins to something else: a suit
    printed against the line of a court figure's frame (the photographed JH of
    ``bidly``: its heart and a 1-pixel line, one blob 16 x 43, no suit). Such a blob
    is long for its width and sparse (``JOINED_ASPECT``, ``JOINED_FILL``), lies in the
    roi (so it is the whole picture's blob, whichever way the picture is read) and
    is ringed by paper as print is; opened with a 3 x 3 square in its own box, the
    line goes and the suit stays. Where the opening took at least ``SPLIT_LOST`` of
    the blob, each part that is compact (``SPLIT_ASPECT``, ``SPLIT_FILL``) and keeps
    at least ``SPLIT_KEEP`` of it is a blob of its own as well; the joined blob stays
    as it was. A blob larger than the largest (``max_size``: a court's frame, the
    figure inside it touching its line, and an index's suit outside) is opened
    whatever its shape, and only its compact parts no larger than the largest
    within ``FRAME_EDGE`` of its box's edge, or with ``FRAME_OUT`` of the paper round
    them outside its lines (:func:`_outside`), are kept (the figure's own pieces lie
    inside). Returns a label image of the parts (in the piece's pixels), their
    stats and centroids and their numbers, and the labels of the joined blobs (not
    frames) a part was split off (:attr:`Components.split`); or ``None``."""
    gx, gy, w, h, area = piece.boxes(stats[1:])
    long_, short = np.maximum(w, h), np.minimum(w, h)
    # too large to be print itself: a court figure's frame with the figure inside it,
    # a suit of the index beside it touching its line (a photographed QH, 125 x 172)
    framed = long_ > max_size
    joined = (
        (long_ <= JOINED_LARGEST * max_size)
        & (short >= 8)
        & ((long_ >= JOINED_ASPECT * short) | framed)
        & (area < JOINED_FILL * w * h)
        & (area >= 30)
        & piece.inside(gx, gy, w, h)
    )
    which = np.nonzero(joined)[0]
    if which.size == 0:
        return None
    ringed = piece.ringed(gx[which], gy[which], w[which], h[which])
    which = which[ringed >= PAPER_RING] + 1
    square = np.ones((3, 3), np.uint8)
    rows: list[list[float]] = []
    split: list[int] = []  # the joined blobs (not frames) a part was split off
    part_labels: NDArray[np.int32] | None = None
    for i in which.tolist():
        bx, by, bw, bh, whole = stats[i].tolist()
        blob = cv2.compare(labels[by : by + bh, bx : bx + bw], i, cv2.CMP_EQ)
        opened = cv2.morphologyEx(
            blob, cv2.MORPH_OPEN, square, borderType=cv2.BORDER_CONSTANT, borderValue=0
        )
        frame = bool(framed[i - 1])  # (stats[0] is the background)
        if not frame and whole - cv2.countNonZero(opened) < SPLIT_LOST * whole:
            continue
        m, o_labels, o_stats, o_cen = labelled(opened)
        outside: NDArray[np.uint8] | None = None  # (a frame's, made when first asked)
        for j in range(1, m):
            px, py, pw, ph, part = o_stats[j].tolist()
            compact = max(pw, ph) <= SPLIT_ASPECT * min(pw, ph) and part >= SPLIT_FILL * pw * ph
            if frame:
                # of a frame, only what lies outside its line, at the edge of its box
                # or with the paper round it outside (the figure's own pieces inside
                # it are no index)
                if not compact or max(pw, ph) > max_size:
                    continue
                edge = min(px, py, bw - px - pw, bh - py - ph) <= FRAME_EDGE
                if not edge:
                    if outside is None:
                        outside = _outside(blob)
                    if _outside_share(o_labels, j, (px, py, pw, ph), blob, outside) < FRAME_OUT:
                        continue
            elif not compact or part < SPLIT_KEEP * whole:
                continue
            if part_labels is None:
                # np.zeros, not zeros_like: the operating system's zeroed pages, touched
                # only where a part is written (zeros_like fills the piece's whole label
                # image: 3 ms for a 4608 x 2592 one)
                part_labels = np.zeros(labels.shape, labels.dtype)
            view = part_labels[by : by + bh, bx : bx + bw]
            view[o_labels == j] = len(rows) + 1
            rows.append([bx + px, by + py, pw, ph, part, bx + o_cen[j][0], by + o_cen[j][1]])
            if not frame and (not split or split[-1] != i):
                split.append(i)
    if part_labels is None:
        return None
    table = np.array(rows, np.float64)
    p_stats = np.zeros((len(rows) + 1, 5), np.int32)
    p_stats[1:] = table[:, :5].astype(np.int32)
    p_cen = np.zeros((len(rows) + 1, 2), np.float64)
    p_cen[1:] = table[:, 5:]
    return part_labels, p_stats, p_cen, np.arange(1, len(rows) + 1), np.array(split, np.intp)


def _outside(blob: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """What of ``blob``'s box (255 on the blob) is reached from its edge without
    crossing the blob: 255 there. Filled 4-connected, so a line drawn 8-connected
    (a diagonal step) still closes what it rings."""
    free = cv2.copyMakeBorder(
        cv2.bitwise_not(blob), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(255, 255, 255, 255)
    )
    mask = np.zeros((free.shape[0] + 2, free.shape[1] + 2), np.uint8)
    cv2.floodFill(free, mask, (0, 0), 128, flags=4)
    return cv2.compare(free[1:-1, 1:-1], 128, cv2.CMP_EQ)


def _outside_share(
    labels: NDArray[np.int32],
    j: int,
    box: tuple[int, int, int, int],
    blob: NDArray[np.uint8],
    outside: NDArray[np.uint8],
) -> float:
    """The share of the paper round part ``j`` of ``labels`` (two pixels wide, in its
    ``box`` grown by as much) that lies outside the blob's lines (:func:`_outside`)."""
    px, py, pw, ph = box
    h, w = blob.shape
    x0, y0, x1, y1 = max(0, px - 2), max(0, py - 2), min(w, px + pw + 2), min(h, py + ph + 2)
    part = cv2.compare(labels[y0:y1, x0:x1], j, cv2.CMP_EQ)
    ring = cv2.bitwise_and(
        cv2.dilate(part, np.ones((5, 5), np.uint8)), cv2.bitwise_not(blob[y0:y1, x0:x1])
    )
    n = cv2.countNonZero(ring)
    return cv2.countNonZero(cv2.bitwise_and(ring, outside[y0:y1, x0:x1])) / n if n else 0.0


@dataclass(frozen=True)
class _Piece:
    """Where one piece's blobs are judged: its ``roi`` and the first pixel of its
    crop (``origin``), in the reading's pixels, and the integral image ``ii`` of the
    reading's half-size paper mask (of ``paper_shape``) over as much of it as the
    paper bands round the roi's blobs reach, from its half-size pixel ``at`` (a
    table frame's pieces are a tenth to a third of it: the whole mask's integral
    was 1.5 ms of a 4608 x 2592 reading)."""

    roi: Box
    origin: tuple[int, int]
    ii: NDArray[np.int32]
    paper_shape: tuple[int, int]
    at: tuple[int, int] = (0, 0)

    @classmethod
    def of(
        cls, roi: Box, origin: tuple[int, int], paper: NDArray[np.uint8], max_size: float
    ) -> _Piece:
        """The piece of ``roi``, its paper's integral over the widest band a blob in the
        roi is ringed by (:meth:`ringed`: a quarter of its size; a blob joined to a
        thin line, :func:`_thin_joins`, may be ``JOINED_LARGEST`` times the
        largest) and a pixel more."""
        hh, hw = paper.shape
        band = max(2, int(JOINED_LARGEST * max_size * 0.25)) + 2
        x0, y0 = max(0, (roi[0] - band) // 2), max(0, (roi[1] - band) // 2)
        x1, y1 = min(hw, (roi[2] + band + 1) // 2), min(hh, (roi[3] + band + 1) // 2)
        ii = cv2.integral(paper[y0:y1, x0:x1], sdepth=cv2.CV_32S)
        return cls(roi, origin, ii, (hh, hw), (x0, y0))

    def boxes(self, stats: NDArray[np.int32]) -> tuple[I64, ...]:
        """The blobs' boxes in the reading's pixels (x, y, w, h) and their areas, from
        their stats in the crop's."""
        x, y, w, h, area = (stats[:, i].astype(np.int64) for i in range(5))
        return x + self.origin[0], y + self.origin[1], w, h, area

    def inside(self, gx: I64, gy: I64, w: I64, h: I64) -> NDArray[np.bool_]:
        """Whether each box lies in the roi (so the blob is the whole picture's)."""
        x0, y0, x1, y1 = self.roi
        return (gx >= x0) & (gy >= y0) & (gx + w <= x1) & (gy + h <= y1)

    def ringed(self, gx: I64, gy: I64, bw: I64, bh: I64) -> NDArray[np.float64]:
        """The share of paper in a band round each box (a quarter of its size wide):
        cards are white, cork, wood and cloth are not, so a blob is print only where
        most of the band (``PAPER_RING``) is paper. Counted for all blobs at once on
        the integral image of the half-size paper mask."""
        ii = self.ii
        hh, hw = self.paper_shape
        m = np.maximum(2, (np.maximum(bw, bh) * 0.25).astype(np.int64))
        bx0, by0, bx1, by1 = gx, gy, gx + bw, gy + bh
        ix0, iy0 = np.minimum(bx0 // 2, hw), np.minimum(by0 // 2, hh)
        ix1, iy1 = np.minimum((bx1 + 1) // 2, hw), np.minimum((by1 + 1) // 2, hh)
        ox0, oy0 = np.maximum((bx0 - m) // 2, 0), np.maximum((by0 - m) // 2, 0)
        ox1, oy1 = np.minimum((bx1 + m + 1) // 2, hw), np.minimum((by1 + m + 1) // 2, hh)

        ax, ay = self.at
        ix0, ix1, ox0, ox1 = ix0 - ax, ix1 - ax, ox0 - ax, ox1 - ax
        iy0, iy1, oy0, oy1 = iy0 - ay, iy1 - ay, oy0 - ay, oy1 - ay
        if ox0.size and (
            min(ox0.min(), oy0.min()) < 0 or ox1.max() >= ii.shape[1] or oy1.max() >= ii.shape[0]
        ):  # a defect, not a picture's fault: never a silently wrapped index
            raise ValueError("a blob's paper band reaches past its piece's integral")

        def box_sum(x0: I64, y0: I64, x1: I64, y1: I64) -> I64:
            return ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]

        band = (box_sum(ox0, oy0, ox1, oy1) - box_sum(ix0, iy0, ix1, iy1)) // 255
        band_area = (ox1 - ox0) * (oy1 - oy0) - (ix1 - ix0) * (iy1 - iy0)
        return band / np.maximum(band_area, 1)


def _kept_blobs(
    labels: NDArray[np.int32],
    stats: NDArray[np.int32],
    centroids: NDArray[np.float64],
    ids: NDArray[np.intp],
    red: NDArray[np.uint8],
    both: NDArray[np.uint8],
    piece: _Piece,
    min_size: float,
    max_size: float,
) -> _Blobs | None:
    """Of the blobs numbered ``ids`` in ``labels`` (with their stats and centroids),
    those that may be print: of a size, filled so, in the roi, ringed by paper."""
    stats = stats[ids]
    gx, gy, bw, bh, area = piece.boxes(stats)
    size = np.maximum(bw, bh)
    fill = area / np.maximum(bw * bh, 1)
    ok = (
        (size >= min_size)
        & (size <= max_size)
        & (np.minimum(bw, bh) >= 2)
        & (area >= 10)
        & (fill > 0.12)
        & (fill < 0.97)
        & piece.inside(gx, gy, bw, bh)
    )
    idx = np.nonzero(ok)[0]
    # the paper ring, the dearest test, only for what passed the others
    share = piece.ringed(gx[idx], gy[idx], bw[idx], bh[idx])
    ringed = share >= PAPER_RING
    idx, share = idx[ringed], share[ringed]
    if idx.size == 0:
        return None
    reading = np.stack([gx, gy, bw, bh, area], axis=1)[idx].astype(np.float64)
    return _Blobs(
        stats=reading,
        centroids=centroids[ids[idx]] + np.array(piece.origin, np.float64),
        local=stats[idx, :4],
        share=share,
        ids=ids[idx],
        labels=labels,
        red=red,
        contrast=both,
    )


def _light_k(shape: tuple[int, int]) -> int:
    """The side of the window the brightest level round a pixel of a picture of
    ``shape`` is taken over, at a quarter of its size: about a card wide."""
    return max(3, (min(shape) // 30) | 1)


def _light_reach(shape: tuple[int, int]) -> int:
    """The side of :func:`_near_light`'s windows for a picture of ``shape``."""
    return max(3, (_light_k(shape) // 4) | 1)


def _near_light(small: NDArray[np.uint8], shape: tuple[int, int]) -> NDArray[np.uint8]:
    """The brightest level near each pixel of ``small`` (a grey picture of ``shape`` at
    a quarter of its size): a grey dilation a quarter of :func:`_light_k` wide,
    smoothed as wide."""
    kn = _light_reach(shape)
    return cv2.blur(cv2.dilate(small, np.ones((kn, kn), np.uint8)), (kn, kn))


def _paper_bars(
    small: NDArray[np.uint8],
    shape: tuple[int, int],
    near: NDArray[np.uint8] | None = None,
    levels: tuple[float, float] | None = None,
    *,
    first: bool = False,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """The grey levels over which a pixel of a grey picture of ``shape`` is card
    paper, from ``small``, that picture at a quarter of its size: the bar, and the
    second bar for pixels neutral in colour, both at ``small``'s size.

    Card paper is the brightest thing near it, but how bright depends on the
    light: a dim table or the dark end of a lighting gradient gives paper of 140
    grey or less. So paper is judged against the local brightest level (a grey
    dilation at a quarter of ``gray``'s resolution, about a card wide) and against
    the whole picture's bright end (so that a dark table far from any card is not
    paper): light is at least 80 % of the local level and 55 % of the 99th
    percentile, and anything over 150 is light. (``levels``: that percentile and
    the clip level below, where ``small`` is a window of the picture:
    :attr:`Picture.white_levels`; else of ``small``.)

    Paper under a hard shadow, or in a picture with glare in it, fails both: the
    lit paper a card's width away, or the glare, sets the bar. It is still the
    brightest thing *near* it, so the second bar is 80 % of the brightest level a
    quarter as far away (and ``NEAR_FLOOR``). So is a light fleck of a cork or wood
    table, so only pixels that are also neutral in colour, once the picture is
    balanced to its brightest grey (:func:`_neutral`), pass on the second bar.
    (``near``: that brightest level, :func:`_near_light`, where the caller has it.)

    A card whose paper photographs darker than its neighbours' (a worn card, one
    of another pack, a tint) fails both where bright cards lie within a card's
    width of it, as they do in a row laid each card over the one before. It is
    still much lighter than the table. So the second bar is no higher than the
    table's level (the darkest level near it, a grey erosion as wide as the first
    bar's dilation) and ``TABLE_SHARE`` of it more, and ``TABLE_STEP`` levels: a
    neutral pixel that much lighter than the table is paper. A light, neutral
    table has no pixel that much lighter than itself but card paper.

    In an overexposed picture (``BLOWN_SHARE`` per cent of it clipped white: card
    paper blown out) a bright table, cork or light wood, is over 150 too, its grain
    lit to 200: there the first bar's cap is ``LIGHT_SHARE`` of white, not 150.
    (Applied to every picture, that cap lost two cards of the bench's hard scenes:
    paper under a hard shadow in a coloured light fails it, and is not neutral for
    the second bar.)

    The same table bar (up to 150) is also the least the first bar asks. Far from
    any card the first bar is 80 % of the table's own brightest level, and the
    floor is low where no paper sets the picture's bright end (an arm across a
    dark table, a few cards showing): the light grain of wood, or of cork, passed
    as paper, and made the whole frame a place to look for ink. Near cards the
    first bar is higher than the table bar already (card paper is the local
    brightest level), and on a pale table the table bar is over 150.
    """
    h, w = shape
    if min(h, w) < 8:  # too small to have surroundings (OpenCV takes 1 x 1 arrays for scalars)
        return np.full(small.shape, 150, np.uint8), np.full(small.shape, 255, np.uint8)
    k = _light_k(shape)
    local = cv2.blur(cv2.dilate(small, np.ones((k, k), np.uint8)), (k, k))
    white, clip = levels if levels is not None else grey_percentiles(small, 99, 100 - BLOWN_SHARE)
    floor = min(150.0, 0.55 * white)
    # anything over 150 is light, but in an overexposed picture (its paper clipped
    # white) a bright table is too: there light is LIGHT_SHARE of white
    blown = clip >= CLIPPED
    light = LIGHT_SHARE * 255 if blown else 150.0
    bar = cv2.max(cv2.min(cv2.convertScaleAbs(local, alpha=0.8), light), floor)
    # a card darker than its neighbours (worn, of another pack): still light against
    # the table, whose darkest level about a card away is the table's own
    low = cv2.blur(cv2.erode(small, np.ones((k, k), np.uint8)), (k, k))
    table_bar = cv2.convertScaleAbs(low, alpha=1.0 + TABLE_SHARE, beta=TABLE_STEP)
    # nor is the light grain of a dark wood table far from any card paper on the first
    # bar, though it is 80 % of the brightest level near it and the floor is low
    bar = cv2.max(bar, cv2.min(table_bar, 150))
    if first:  # the first bar alone (Picture.gains)
        return bar, bar
    if near is None:
        near = _near_light(small, shape)
    near_bar = cv2.max(cv2.convertScaleAbs(near, alpha=NEAR_SHARE), NEAR_FLOOR)
    near_bar = cv2.max(cv2.min(near_bar, table_bar), NEAR_FLOOR)
    return bar, near_bar


def grey_percentile(gray: NDArray[np.uint8], q: float) -> float:
    """``np.percentile(gray, q)`` (its linear interpolation between the two nearest
    ranks) from the grey levels' histogram: a tenth of the time of sorting them."""
    return grey_percentiles(gray, q)[0]


def grey_percentiles(gray: NDArray[np.uint8], *qs: float) -> tuple[float, ...]:
    """:func:`grey_percentile` at each of ``qs``, from one histogram."""
    counts = _hist(gray)
    return tuple(hist_percentile(counts, gray.size, q) for q in qs)


def _hist(gray: NDArray[np.uint8], mask: NDArray[np.uint8] | None = None) -> NDArray[np.int64]:
    """How many pixels of ``gray`` (where ``mask`` is not 0) have each grey level."""
    return cv2.calcHist([gray], [0], mask, [256], [0, 256]).ravel().astype(np.int64)


def hist_percentile(counts: NDArray[np.int64], size: int, q: float) -> float:
    """``np.percentile`` of ``size`` grey levels, from their histogram ``counts``."""
    below = np.cumsum(counts)  # below[v]: how many are v or darker
    at = q / 100 * (size - 1)
    lo = int(np.floor(at))
    hi = min(lo + 1, size - 1)
    # the k-th darkest level (from 0): the first level with more than k at or below
    v_lo = int(np.searchsorted(below, lo, side="right"))
    v_hi = int(np.searchsorted(below, hi, side="right"))
    return v_lo + (at - lo) * (v_hi - v_lo)


def _quartered(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """``image`` at a quarter of its size, each pixel the mean of the middle 2 x 2 of
    its 4 x 4 (bilinear at exactly a quarter): :attr:`Picture.quarter_colour`, and
    the same bytes of any part of it whose corners lie on multiples of four."""
    h, w = image.shape[:2]
    return cv2.resize(image, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_LINEAR)


def _sampled(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The colour picture's pixels at 16 i + 1.5, 16 j + 1.5 (each the mean of the 2 x 2
    there, rounded as ``cv2.resize`` rounds): :attr:`Picture.sample` where the sides
    are multiples of four, the same bytes as every fourth pixel of the quarter-size
    copy, in a quarter of its time (0.4 ms, not 1.5, at 2688 x 2688 on one core
    here). Bilinear at exactly a sixteenth of a view shifted ten pixels, whose
    sample points fall there; the first row and column, and the last ones where
    the picture ends before a whole view's step, from their own pixels."""
    h, w = image.shape[:2]
    nh, nw = -(-(h // 4) // 4), -(-(w // 4) // 4)
    out = np.empty((nh, nw, 3), np.uint8)
    mh, mw = max(0, min(nh - 1, (h - 10) // 16)), max(0, min(nw - 1, (w - 10) // 16))
    if mh and mw:
        view = image[10 : 10 + 16 * mh, 10 : 10 + 16 * mw]
        out[1 : 1 + mh, 1 : 1 + mw] = cv2.resize(view, (mw, mh), interpolation=cv2.INTER_LINEAR)
    for i in [0, *range(1 + mh, nh)]:  # rows 16 i + 1 and 16 i + 2
        two = image[16 * i + 1 : 16 * i + 3].astype(np.uint16)
        row = two[0] + two[1]
        out[i] = ((row[1::16][:nw] + row[2::16][:nw] + 2) >> 2).astype(np.uint8)
    for j in [0, *range(1 + mw, nw)]:  # columns 16 j + 1 and 16 j + 2
        two = image[:, 16 * j + 1 : 16 * j + 3].astype(np.uint16)
        col = two[:, 0] + two[:, 1]
        out[:, j] = ((col[1::16][:nh] + col[2::16][:nh] + 2) >> 2).astype(np.uint8)
    return out


def _balance(colour: NDArray[np.uint8], gray: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Channel gains that make the picture's brightest grey (its top 1 %: card paper,
    or the lamp's glare, both the light's own colour) neutral."""
    if gray.size == 0:
        return np.ones(3, np.float32)
    counts = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()
    level = int(np.searchsorted(np.cumsum(counts), 0.99 * gray.size))
    mean = colour[gray >= level].astype(np.float32).mean(axis=0) + 1.0
    return np.clip(mean.mean() / mean, 0.5, 2.0).astype(np.float32)


def _upper_median(values: NDArray[np.float32]) -> NDArray[np.float32]:
    """The upper median of ``values`` along their first axis, by partition (a third of
    :func:`numpy.median`'s time on a few thousand values: :attr:`Picture.cast`)."""
    middle = len(values) // 2
    return np.partition(values, middle, axis=0)[middle]


def _neutral(
    colour: NDArray[np.uint8],
    gains: NDArray[np.float32],
    cast: NDArray[np.float32] | None = None,
) -> NDArray[np.uint8]:
    """255 where the balanced colour is near grey: the channels within ``NEUTRAL`` of
    the brightest one (and 8 levels); uint8 arithmetic throughout (a few SIMD passes).
    ``cast``: the light's colour at each pixel (:attr:`Picture.cast`), taken out (in
    float, then uint8 again: only where a picture has a cast)."""
    if cast is None:
        balanced = cv2.transform(colour, np.diag(gains.astype(np.float64)))
    else:
        balanced = cv2.divide(colour, cast, scale=1.0, dtype=cv2.CV_32F)
        scale = (float(gains[0]), float(gains[1]), float(gains[2]), 0.0)
        balanced = cv2.convertScaleAbs(cv2.multiply(balanced, scale))
    b, g, r = channels(balanced)
    hi = cv2.max(cv2.max(b, g), r)
    lo = cv2.min(cv2.min(b, g), r)
    allowed = cv2.convertScaleAbs(hi, alpha=NEUTRAL, beta=8.0)
    return cv2.compare(cv2.subtract(hi, lo), allowed, cv2.CMP_LT)


def _paper(
    gray: NDArray[np.uint8],
    bar: NDArray[np.uint8],
    near: NDArray[np.uint8] | None = None,
    neutral: NDArray[np.uint8] | None = None,
) -> NDArray[np.uint8]:
    """255 where ``gray`` (lightly smoothed) is over ``bar``, or over ``near`` and
    ``neutral`` (:func:`_paper_bars`, :func:`_neutral`: the colour balanced is near
    grey), and that lies in a sheet of such pixels (within ``PAPER_CORE_REACH`` of
    the centre of a solid ``PAPER_CORE`` square of them); else 0. ``neutral`` is at
    half ``gray``'s size: each of its pixels judges the 2 x 2 of ``gray`` it stands
    for (paper is large and its colour smooth; a quarter of the work). A picture
    under 8 pixels a side is judged on the bar alone."""
    if min(gray.shape) < 8:
        return np.where(gray > bar, 255, 0).astype(np.uint8)
    smooth = cv2.blur(gray, (3, 3))
    paper = cv2.compare(smooth, bar, cv2.CMP_GT)
    if near is not None and neutral is not None:
        second = cv2.bitwise_and(
            cv2.compare(smooth, near, cv2.CMP_GT), _doubled(neutral, gray.shape)
        )
        paper = cv2.bitwise_or(paper, second)
    # paper lies in sheets: only what lies near a solid square of it (speckle of
    # sensor noise or a busy cloth passes the bars here and there, never so)
    core = cv2.erode(paper, np.ones((PAPER_CORE, PAPER_CORE), np.uint8))
    reach = np.ones((2 * PAPER_CORE_REACH + 1,) * 2, np.uint8)
    return cv2.bitwise_and(paper, cv2.dilate(core, reach))


def _doubled(mask: NDArray[np.uint8], shape: tuple[int, int]) -> NDArray[np.uint8]:
    """``mask`` at twice its size, each pixel a 2 x 2 block, cut or padded (its last
    row and column repeated) to ``shape``."""
    h, w = shape
    mh, mw = mask.shape
    if mh == 0 or mw == 0:
        return np.zeros(shape, np.uint8)
    big = _blown_up(mask[: -(-h // 2)], 2)[:h, :w]
    if big.shape != (h, w):
        big = cv2.copyMakeBorder(
            big, 0, h - big.shape[0], 0, w - big.shape[1], cv2.BORDER_REPLICATE
        )
    return big


def _blown_up(small: NDArray[np.uint8], k: int) -> NDArray[np.uint8]:
    """``small`` at ``k`` times its size, each pixel a k x k block: ``cv2.resize``'s
    nearest, faster. Each byte ``k`` times along its row (``k`` channels of one,
    interleaved), then each row ``k`` times: 0.29 ms, not 0.76, for a 4608 x 2592
    frame's half-size mask doubled; a seventh of the time blown up by eight."""
    rows = cv2.merge([small] * k).reshape(small.shape[0], k * small.shape[1])
    return np.repeat(rows, k, axis=0)


def _doubled_at(
    half: NDArray[np.uint8], origin: tuple[int, int], shape: tuple[int, int]
) -> NDArray[np.uint8]:
    """The half-size mask ``half`` at full size (:func:`_doubled`) over the box of
    ``shape`` whose first pixel is ``origin`` (either corner may be odd)."""
    ox, oy = origin
    h, w = shape
    # a crop starting on an odd picture's last column (or row), which the half-size
    # mask leaves out, takes the mask's last one
    hx0 = min(ox // 2, max(half.shape[1] - 1, 0))
    hy0 = min(oy // 2, max(half.shape[0] - 1, 0))
    sub = half[hy0 : (oy + h + 1) // 2, hx0 : (ox + w + 1) // 2]
    big = _doubled(sub, (oy - 2 * hy0 + h, ox - 2 * hx0 + w))
    return big[oy - 2 * hy0 :, ox - 2 * hx0 :]


def labelled(
    mask: NDArray[Any],
) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]:
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)``: Grana's block-based
    labelling (BBDT), whose labels are the default's (Spaghetti) and whose boxes,
    areas and centroids come in a third of its time: 0.2 ms, not 0.6, for the
    gate's 336 x 336 masks of a 2688 x 2688 frame on one core here, and 1.1 ms, not
    3, for a region's ink. (Without the stats the two take alike.)"""
    n, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    return (
        int(n),
        cast(NDArray[np.int32], labels),
        cast(NDArray[np.int32], stats),
        cast(NDArray[np.float64], centroids),
    )


def channels(image: NDArray[np.uint8]) -> tuple[NDArray[np.uint8], ...]:
    """The three channels of a colour picture: ``cv2.split``'s answer in a third
    of its time (12 ms, not 37, for a 4608 x 2592 frame on one core here)."""
    return tuple(cv2.extractChannel(image, i) for i in range(3))


def _no_components() -> Components:
    e = np.zeros(0, np.float32)
    return Components(e, e, e, e, np.zeros(0, bool), e, e, e, e)


# A thin blob (its long axis THIN_AXES times its short one or more) counts as a rank's
# suit as if it lay 1 + THIN_SUIT times as far (see pair_proposals).
THIN_SUIT = 1.0
THIN_AXES = 2.5


def pair_proposals(
    comps: Components, *, neighbours: int = 3, same_colour: bool = False
) -> Proposals:
    """Every plausible (rank blob, suit blob) pair: the suit within reach, at a
    plausible size. Rank and suit are printed in one colour, but thin red strokes
    often read partly dark, so colour is left to the classifier unless asked.

    Each blob is paired with its ``neighbours`` nearest as its suit. A suit symbol
    is compact, so a thin blob (a card's edge broken into dashes, a printed border,
    a stroke of a glyph on the card above) counts as twice as far: beside such
    strokes a 7 had its heart fourth nearest and was never proposed (8 of the 10
    visible indices of the cards the bench's recommended-mounting scenes missed were
    never proposed)."""
    n = len(comps)
    if n < 2:
        z = np.zeros(0, np.float32)
        zi = np.zeros(0, np.int32)
        return _concat(Proposals(z, z, z, z, z, zi, zi), _merged_indices(comps))
    cx, cy, size = comps.cx, comps.cy, comps.size
    dx = cx[None, :] - cx[:, None]
    dy = cy[None, :] - cy[:, None]
    dist = np.hypot(dx, dy)
    ratio = size[None, :] / size[:, None]
    ok = (
        (dist >= 0.7 * size[:, None])
        & (dist <= 2.6 * size[:, None])
        & (ratio >= 0.3)
        & (ratio <= 1.8)
    )
    if same_colour:
        ok &= comps.red[None, :] == comps.red[:, None]
    np.fill_diagonal(ok, False)
    # a suit symbol is compact: a thin blob (a card's edge, a printed border, a
    # fragment of another glyph) is a suit only after the compact ones as near again
    thin = (comps.major > THIN_AXES * np.maximum(comps.minor, 1.0)).astype(np.float32)
    score = np.where(ok, dist * (1.0 + THIN_SUIT * thin[None, :]), np.inf)
    k = min(neighbours, n - 1)
    nearest = np.argsort(score, axis=1)[:, :k]
    found = np.isfinite(np.take_along_axis(score, nearest, axis=1)).ravel()
    rank_i = np.repeat(np.arange(n, dtype=np.int32), k)[found]
    suit_i = nearest.ravel()[found].astype(np.int32)
    d = dist[rank_i, suit_i].astype(np.float32)
    ux = (dx[rank_i, suit_i] / np.maximum(d, 1e-6)).astype(np.float32)
    uy = (dy[rank_i, suit_i] / np.maximum(d, 1e-6)).astype(np.float32)
    x = ((cx[rank_i] + cx[suit_i]) / 2).astype(np.float32)
    y = ((cy[rank_i] + cy[suit_i]) / 2).astype(np.float32)
    pairs = Proposals(x, y, ux, uy, d, rank_i, suit_i)
    return _concat(pairs, _merged_indices(comps))


def _merged_indices(comps: Components) -> Proposals:
    """Rank and suit printed so close that they are one blob: an elongated blob is
    proposed as a whole index, both ways along its long axis."""
    long = (comps.major > 1.8 * np.maximum(comps.minor, 1)) & (comps.major >= 10)
    if comps.split is not None:
        # a suit joined to a line and split off it is no index with the line: a lone
        # heart and the edge of the card over it, one blob under a colour cast, was
        # read whole as a JH (0.995), a card not there; the suit is proposed alone
        long &= ~comps.split
    idx = np.nonzero(long)[0].astype(np.int32)
    d = (comps.major[idx] * 0.5).astype(np.float32)
    x = np.concatenate([comps.cx[idx], comps.cx[idx]])
    y = np.concatenate([comps.cy[idx], comps.cy[idx]])
    ux = np.concatenate([comps.ax[idx], -comps.ax[idx]])
    uy = np.concatenate([comps.ay[idx], -comps.ay[idx]])
    both = np.concatenate([idx, idx])
    return Proposals(x, y, ux, uy, np.concatenate([d, d]), both, both)


def _concat(a: Proposals, b: Proposals) -> Proposals:
    return Proposals(*(np.concatenate([getattr(a, f), getattr(b, f)]) for f in _PROPOSAL_FIELDS))


def patch_transform(x: float, y: float, ux: float, uy: float, d: float) -> NDArray[np.float64]:
    """The affine map from patch pixels to image pixels for one index hypothesis."""
    vx, vy = uy, -ux  # "right" on the card when "down" is (ux, uy)
    sw = SPAN_W * d / PATCH_W
    sh = SPAN_H * d / PATCH_H
    tx = x - (PATCH_W / 2) * sw * vx - (PATCH_H / 2) * sh * ux
    ty = y - (PATCH_W / 2) * sw * vy - (PATCH_H / 2) * sh * uy
    return np.array([[sw * vx, sh * ux, tx], [sw * vy, sh * uy, ty]], dtype=np.float64)


_GRIDS: dict[tuple[int, int], NDArray[np.float32]] = {}


def _grid(h: int, w: int) -> NDArray[np.float32]:
    """Row and column numbers of an ``h`` x ``w`` patch, made once per size."""
    if (h, w) not in _GRIDS:
        _GRIDS[h, w] = np.mgrid[0:h, 0:w].astype(np.float32)
    return _GRIDS[h, w]


def _f32(a: NDArray[np.float64]) -> NDArray[np.float32]:
    """Per-patch coefficients as float32, shaped to broadcast over a patch's grid."""
    return a.astype(np.float32)[:, None, None]


# A level of a mean pyramid (the gate's) made from a whole level of at most this many
# pixels is made whole; a Gaussian one's (the classifier's) from at most WHOLE_GAUSS:
# the classifier cuts only what the gate passes, and since a level's tiles ask the
# level below in one call, its tiles cost less than a whole level even at 1280 x 720
# (the classifier's part 8.2 -> 7.8 ms a frame there, the same patches).
WHOLE_LEVEL = 1_500_000
WHOLE_GAUSS = 0


def _down(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A mean pyramid's next level (``Pyramid(mean=True)``): each pixel the mean of a
    2 x 2 block (an odd side's last row or column taken twice), as :func:`_halved`
    makes the paper stage's half-size picture, so a picture's own half
    (:attr:`Picture.half_colour`) is its first level. A third of ``cv2.pyrDown``'s
    time (7 ms against 21 for a 4608 x 2592 frame); its pixel i stands where
    :func:`extract_patches` samples it (at 2i + 0.5 of the level below)."""
    h, w = image.shape[:2]
    if h % 2 or w % 2:
        image = cv2.copyMakeBorder(image, 0, h % 2, 0, w % 2, cv2.BORDER_REPLICATE)
    return _halved(image)


class Pyramid:
    """A picture and its halvings (``cv2.pyrDown``), from which patches are cut.

    A level is made only where patches are cut from it (:meth:`cover`), in tiles
    (:meth:`_tile`): a 4608 x 2592 table frame has its cards on a few per cent of
    it, and halving all of it would cost more than reading them. Each tile is cut
    with the two pixels round it that ``cv2.pyrDown``'s 5 x 5 window reaches, so it
    is exactly the tile of the whole level; ``pyramid[level]`` is the whole level.

    ``mean``: halvings of 2 x 2 means instead (:func:`_down`), each tile from the
    pixels under it alone: the gate's pyramid (:meth:`Picture.pyramid`), whose
    first level is the picture's own half (``half``), made for its paper already.
    The gate reads its half-size patches from it as well as from Gaussian levels
    (the same readings of the synthetic sets); the classifier's patches of large
    indices changed enough with it (a card more or less on the real deals, under
    several lights) that they keep the levels the networks were trained on.
    """

    TILE = 32

    def __init__(
        self,
        image: NDArray[np.uint8],
        lift: NDArray[np.uint8] | None = None,
        origin: tuple[int, int] = (0, 0),
        half: NDArray[np.uint8] | None = None,
        mean: bool = False,
        half_made: NDArray[np.bool_] | None = None,
        lift_of: tuple[int, int] | None = None,
    ) -> None:
        self.levels = [image]
        self.mean = mean
        # the picture's lift (Picture.lift: eighth-size, in 32nds), or a window of it
        # (Picture.eighths) whose first pixel is the picture's ``origin`` less eight
        # times the window's, and where this image's first pixel lies in that
        # picture or window: a patch is lifted as its index's ink was
        # (extract_patches). ``lift_of``: the whole lift's shape, where ``lift`` is
        # a window of it.
        self.lift = lift
        self.origin = origin
        self.lift_of = lift_of if lift_of is not None or lift is None else lift.shape[:2]
        # per level above the first: which tiles are made
        self._made: list[NDArray[np.bool_]] = [np.ones((1, 1), bool)]
        self._steps: NDArray[np.uint8] | None = None
        if half is not None:
            if not mean:
                raise ValueError("a first level given is of 2 x 2 means: mean=True")
            h, w = image.shape[:2]
            if half.shape[:2] != ((h + 1) // 2, (w + 1) // 2):
                raise ValueError(f"a first level of {half.shape[:2]} for a picture of {(h, w)}")
            self.levels.append(half)
            t = self._tile(1)
            tiles = (-(-half.shape[0] // t), -(-half.shape[1] // t))
            if half_made is not None and half_made.shape != tiles:
                raise ValueError(f"{half_made.shape} tiles made of a first level of {tiles}")
            # where ``half_made`` is given, only those tiles of ``half`` are made
            self._made.append(np.ones(tiles, bool) if half_made is None else half_made.copy())

    def steps(self) -> NDArray[np.uint8] | None:
        """Where a hard shadow's edge may cross a patch: 255 at each eighth-size
        pixel of the picture's :attr:`lift` round which (within twice the reach of
        the light level it comes from, :func:`_near_light`) the lift varies
        ``STEP_LIFT`` times or more; ``None`` where it nowhere does. Made from the
        whole picture's lift, or from a window of it wide enough that over the region
        read it is the whole's (:meth:`Picture.eighths`; then in the window's pixels,
        its reach from ``lift_of``), so a region's patches are evened as the whole's."""
        lift = self.lift
        if lift is None or lift.size == 0 or cv2.minMaxLoc(lift)[1] < STEP_LIFT * LIFT_ONE:
            return None
        if self._steps is None:
            sh, sw = self.lift_of if self.lift_of is not None else lift.shape
            reach = 4 * _light_reach((4 * sh, 4 * sw)) + 1
            box = np.ones((reach, reach), np.uint8)
            low = cv2.convertScaleAbs(cv2.erode(lift, box), alpha=STEP_LIFT)
            self._steps = cv2.compare(cv2.dilate(lift, box), low, cv2.CMP_GE)
        return self._steps if cv2.countNonZero(self._steps) else None

    def __getitem__(self, level: int) -> NDArray[np.uint8]:
        h, w = self._level_shape(level)
        self.cover(level, np.array([0]), np.array([0]), np.array([w]), np.array([h]))
        return self.levels[level]

    def whole(self, level: int) -> bool:
        """Whether ``level`` is made everywhere."""
        return level == 0 or (level < len(self.levels) and bool(self._made[level].all()))

    def whole_if_small(self, level: int) -> bool:
        """Make ``level`` whole if the level below it is whole and small (tiles would
        cost more than they spare); whether it did."""
        if level == 0 or level > len(self.levels) or not self.whole(level - 1):
            return False
        below = self.levels[level - 1]
        if below.shape[0] * below.shape[1] > (WHOLE_LEVEL if self.mean else WHOLE_GAUSS):
            return False
        down = _down if self.mean else cv2.pyrDown
        if len(self.levels) == level:
            self.levels.append(down(below))
            h, w = self.levels[level].shape[:2]
            t = self._tile(level)
            self._made.append(np.ones((-(-h // t), -(-w // t)), bool))
        elif not self._made[level].all():
            self.levels[level] = down(below)
            self._made[level][:] = True
        return True

    def _level_shape(self, level: int) -> tuple[int, int]:
        h, w = self.levels[0].shape[:2]
        for _ in range(level):
            h, w = (h + 1) // 2, (w + 1) // 2
        return h, w

    def cover(
        self,
        level: int,
        x0: NDArray[np.integer],
        y0: NDArray[np.integer],
        x1: NDArray[np.integer],
        y1: NDArray[np.integer],
    ) -> None:
        """Make ``level`` where the boxes (x0, y0, x1, y1: arrays, the ends excluded,
        in the level's pixels, clipped to it) lie."""
        if level == 0 or len(x0) == 0:
            return
        while len(self.levels) <= level:
            src = self.levels[-1]
            h, w = (src.shape[0] + 1) // 2, (src.shape[1] + 1) // 2
            self.levels.append(np.zeros((h, w, *src.shape[2:]), src.dtype))
            t = self._tile(len(self.levels) - 1)
            self._made.append(np.zeros((-(-h // t), -(-w // t)), bool))
        made = self._made[level]
        if made.all() or self.whole_if_small(level):
            return
        h, w = self.levels[level].shape[:2]
        t = self._tile(level)
        tx0 = np.clip(x0, 0, w - 1) // t
        ty0 = np.clip(y0, 0, h - 1) // t
        tx1 = (np.clip(x1, 1, w) - 1) // t + 1
        ty1 = (np.clip(y1, 1, h) - 1) // t + 1
        need = np.zeros_like(made)
        wide, tall = int((tx1 - tx0).max()), int((ty1 - ty0).max())
        if wide * tall <= 16:  # patches' boxes, a tile or two each way: marked at once
            for dy in range(tall):
                for dx in range(wide):
                    on = (ty0 + dy < ty1) & (tx0 + dx < tx1)
                    need[ty0[on] + dy, tx0[on] + dx] = True
        else:
            for a, b, c, d in zip(
                tx0.tolist(), ty0.tolist(), tx1.tolist(), ty1.tolist(), strict=True
            ):
                need[b:d, a:c] = True
        need &= ~made
        if not need.any():
            return
        if self.whole(level - 1) and (need | made).mean() > 0.4:
            need[:] = ~made  # the level below is whole, and most of this one is wanted
        boxes = [(a * t, b * t, min(w, c * t), min(h, d * t)) for a, b, c, d in _tile_boxes(need)]
        if level > 1:  # the level below under all of them, in one call (not one a box)
            under = np.array([self._source(level, *box) for box in boxes], np.int64)
            self.cover(level - 1, under[:, 0], under[:, 1], under[:, 2], under[:, 3])
        for box in boxes:
            self._make(level, *box)
            x0, y0, x1, y1 = box
            made[y0 // t : -(-y1 // t), x0 // t : -(-x1 // t)] = True

    def _tile(self, level: int) -> int:
        """The tile size of ``level``: ``TILE``, halved with each level above the first
        (down to 16), so that a tile stands for about as much of the picture."""
        return max(16, self.TILE >> (level - 1))

    def _source(self, level: int, x0: int, y0: int, x1: int, y1: int) -> Box:
        """The box of the level below that ``level``'s box (x0, y0, x1, y1) is
        halved from: the 2 x 2 blocks under it (an odd side's last one single), or
        for ``cv2.pyrDown`` its window of 5, two pixels before the box's first
        source pixel and two after."""
        bh, bw = self.levels[level - 1].shape[:2]
        if self.mean:
            return 2 * x0, 2 * y0, min(bw, 2 * x1), min(bh, 2 * y1)
        return max(0, 2 * x0 - 2), max(0, 2 * y0 - 2), min(bw, 2 * x1 + 2), min(bh, 2 * y1 + 2)

    def _make(self, level: int, x0: int, y0: int, x1: int, y1: int) -> None:
        """Halve the level below into ``level``'s box (x0, y0, x1, y1); the level
        below is made under it (:meth:`cover`)."""
        below = self.levels[level - 1]
        h, w = self.levels[level].shape[:2]
        if (x0, y0, x1, y1) == (0, 0, w, h) and self.whole(level - 1):
            self.levels[level] = _down(below) if self.mean else cv2.pyrDown(below)
            return
        sx0, sy0, sx1, sy1 = self._source(level, x0, y0, x1, y1)
        if self.mean:
            self.levels[level][y0:y1, x0:x1] = _down(below[sy0:sy1, sx0:sx1])
            return
        part = cv2.pyrDown(below[sy0:sy1, sx0:sx1])
        ox, oy = x0 - sx0 // 2, y0 - sy0 // 2
        self.levels[level][y0:y1, x0:x1] = part[oy : oy + y1 - y0, ox : ox + x1 - x0]


def _tile_boxes(need: NDArray[np.bool_]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, in tiles, the ends excluded) that cover the ``True``
    tiles of ``need`` and no other: each row's runs of them, a run stacked on the
    same run of the row before made one box with it.

    A box round each patch of needed tiles made the tiles between the arms of an
    irregular patch too: the first halving of a 4608 x 2592 table frame with two
    groups of cards made 4.8 million pixels, more than the whole level's 3.

    >>> import numpy as np
    >>> _tile_boxes(np.array([[1, 1, 0, 1], [1, 1, 0, 0], [0, 1, 1, 1]], bool))
    [(3, 0, 4, 1), (0, 0, 2, 2), (1, 2, 4, 3)]
    """
    rows = np.flatnonzero(need.any(axis=1))
    if rows.size == 0:
        return []
    top, bottom = int(rows[0]), int(rows[-1]) + 1
    part = np.zeros((bottom - top, need.shape[1] + 2), np.int8)
    part[:, 1:-1] = need[top:bottom]
    ys, xs = np.nonzero(np.diff(part, axis=1))  # a run's first tile, then its end, row by row
    boxes: list[tuple[int, int, int, int]] = []
    open_: dict[tuple[int, int], int] = {}  # a run's (x0, x1): the row its box began on
    by_row: dict[int, list[tuple[int, int]]] = {}
    for y, a, c in zip(ys[::2].tolist(), xs[::2].tolist(), xs[1::2].tolist(), strict=True):
        by_row.setdefault(y + top, []).append((a, c))
    for y in range(top, bottom + 1):
        runs = by_row.get(y, [])
        for run in sorted(r for r in open_ if r not in runs):
            boxes.append((run[0], open_.pop(run), run[1], y))
        for run in runs:
            open_.setdefault(run, y)
    return boxes


def extract_patches(
    image: NDArray[np.uint8] | Pyramid,
    props: Proposals,
    *,
    size: tuple[int, int] = (PATCH_H, PATCH_W),
    even: bool = True,
    aspect: float = 1.0,
) -> NDArray[np.uint8]:
    """Upright BGR patches, one per proposal, ``size`` = (height, width).

    Every size covers the same stretch of card around the index (``SPAN_W`` x
    ``SPAN_H`` rank-to-suit distances): a smaller size samples it more coarsely,
    each pixel centred where the mean of the corresponding block of a
    ``PATCH_H`` x ``PATCH_W`` patch would be (the gate's half-size patches, see
    :mod:`vision.model`). Large indices are cut from a smaller level of an image
    pyramid so that every patch is sampled at about its own resolution (no more
    than two picture pixels between two samples). All patches of one level are
    cut by a single ``cv2.remap`` over a map built with NumPy. A pyramid told the
    picture's lift (:attr:`Picture.lift`) brightens each patch by the lift at its
    proposal's place, as that place's ink was judged, and ``even`` evens each
    patch near a step in the light (:meth:`Pyramid.steps`, :func:`_evened`): the
    classifier's patches, not the gate's (a dark table far from the cards has a
    higher lift than the cards, so most cards' surroundings are near a step, and
    the gate's hundreds of patches cost 3.7 ms a 4608 x 2592 frame to look at;
    the gate passed the shadowed indices it was tried on unevened). ``aspect``
    scales the stretch cut across the index (under 1: an index squeezed across,
    as a photograph taken at a slant draws it, is cut as if it were not).
    """
    h, w = size
    pyramid = image if isinstance(image, Pyramid) else Pyramid(image)
    n = len(props)
    out = np.empty((n, h, w, 3), np.uint8)
    if n == 0:
        return out
    d = props.d.astype(np.float64)
    level = np.zeros(n, np.int64)
    while True:
        grow = (d / 2.0**level > 2.0 * h / SPAN_H) & (level < 5)
        if not grow.any():
            break
        level += grow
    vv, uu = _grid(h, w)
    for lv in range(int(level.max()) + 1):
        sel = np.nonzero(level == lv)[0]
        if sel.size == 0:
            continue
        s = 2.0**lv
        x = (props.x[sel].astype(np.float64) + 0.5) / s - 0.5
        y = (props.y[sel].astype(np.float64) + 0.5) / s - 0.5
        ux, uy = props.ux[sel].astype(np.float64), props.uy[sel].astype(np.float64)
        dd = d[sel] / s
        vx, vy = uy, -ux  # "right" on the card when "down" is (ux, uy)
        sw, sh = SPAN_W * aspect * dd / w, SPAN_H * dd / h
        # the patch's first pixel: at full size, half the patch before the index's
        # midpoint; at a smaller size, the centre of the full-size block it stands for
        cw = (w - 1) / 2 + 0.5 * w / PATCH_W
        ch = (h - 1) / 2 + 0.5 * h / PATCH_H
        tx = x - cw * sw * vx - ch * sh * ux
        ty = y - cw * sw * vy - ch * sh * uy
        map_x = _f32(sw * vx) * uu + _f32(sh * ux) * vv + _f32(tx)
        map_y = _f32(sw * vy) * uu + _f32(sh * uy) * vv + _f32(ty)
        if not pyramid.whole(lv) and not pyramid.whole_if_small(lv):
            # the level's pixels the patches sample (bilinear: the next one too, and
            # one more for the map's fixed-point rounding)
            pyramid.cover(
                lv,
                np.floor(map_x.min(axis=(1, 2))).astype(np.int64),
                np.floor(map_y.min(axis=(1, 2))).astype(np.int64),
                np.floor(map_x.max(axis=(1, 2))).astype(np.int64) + 3,
                np.floor(map_y.max(axis=(1, 2))).astype(np.int64) + 3,
            )
        # remap's maps must stay under 32,767 rows
        step = max(1, 32_000 // h)
        for start in range(0, sel.size, step):
            part = slice(start, start + step)
            rows = map_x[part].shape[0]
            cut = cv2.remap(
                pyramid.levels[lv],
                map_x[part].reshape(-1, w),
                map_y[part].reshape(-1, w),
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            out[sel[part]] = cut.reshape(rows, h, w, 3)
    if pyramid.lift is not None and pyramid.lift.size:
        # a patch in dim light is brightened as its ink was judged (Picture.lift), so
        # that the network reads it in the light it learned in
        lift = pyramid.lift
        ex = (props.x.astype(np.float64) + pyramid.origin[0]) // 8
        ey = (props.y.astype(np.float64) + pyramid.origin[1]) // 8
        gain = lift[
            np.clip(ey, 0, lift.shape[0] - 1).astype(np.intp),
            np.clip(ex, 0, lift.shape[1] - 1).astype(np.intp),
        ]
        for i in np.nonzero(gain > LIFT_ONE)[0].tolist():
            out[i] = cv2.convertScaleAbs(out[i], alpha=float(gain[i]) / LIFT_ONE)
        steps = pyramid.steps() if even else None
        if steps is not None:  # a hard shadow's edge may cross some patches
            near = steps[
                np.clip(ey, 0, steps.shape[0] - 1).astype(np.intp),
                np.clip(ex, 0, steps.shape[1] - 1).astype(np.intp),
            ]
            for i in np.nonzero(near)[0].tolist():
                out[i] = _evened(out[i])
    return out


def _evened(patch: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """``patch`` with the shadowed side of a hard shadow's edge across it brought up
    to the lit side's light; as it was where it shows no such edge.

    A patch cut where a shadow's edge crosses an index (the real deals with their
    lower half at a quarter of the light: a 2 of clubs with its rank lit and its
    suit in the shadow) is lifted by one gain, the lift at its proposal, and the
    network, which learned indices under one light, reads it as no index. The
    paper's level at each pixel is the patch's brightest channel closed over
    about a suit's width (ink filled, a step in the light kept where it is). Two
    levels of it (Otsu's split) ``STEP_RATIO`` apart or more, each on
    ``STEP_SHARE`` of the patch, are lit and shadowed paper only when the bare
    paper of both has one colour (the shares of its channels within
    ``STEP_CHROMA``): the edge of a card on a coloured table is no shadow. Each
    pixel on the shadowed side (and the one-pixel seam) is brightened to the lit
    paper's level, by at most the ratio of the two levels (the ink on it as much
    as its paper; a shadowed table by the ratio itself)."""
    h, w = patch.shape[:2]
    k = max(3, (w * 3 // 8) | 1)
    b, g, r = channels(patch)
    top = cv2.max(cv2.max(b, g), r)
    paper = cv2.morphologyEx(
        top, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    lit = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
    n_lit = cv2.countNonZero(lit)
    if not STEP_SHARE * h * w <= n_lit <= (1 - STEP_SHARE) * h * w:
        return patch
    shade = cv2.bitwise_not(lit)
    lit_level = cv2.mean(paper, lit)[0]
    ratio = lit_level / max(cv2.mean(paper, shade)[0], 1.0)
    if ratio < STEP_RATIO:
        return patch
    bare = cv2.compare(top, cv2.convertScaleAbs(paper, alpha=0.9), cv2.CMP_GE)
    colours = []
    for side in (lit, shade):
        mask = cv2.bitwise_and(bare, side)
        if cv2.countNonZero(mask) == 0:
            return patch
        c = np.array(cv2.mean(patch, mask)[:3]) + 1.0
        colours.append(c / c.sum())
    if np.abs(colours[0] - colours[1]).max() > STEP_CHROMA:
        return patch
    gain = np.clip(lit_level / np.maximum(paper.astype(np.float32), 1.0), 1.0, ratio)
    gain[cv2.dilate(shade, np.ones((3, 3), np.uint8)) == 0] = 1.0
    return cv2.convertScaleAbs(patch.astype(np.float32) * gain[:, :, None])


# -- whole cards --------------------------------------------------------------------------

CARD_ASPECT = 63 / 88  # a poker card; bridge cards are 57 / 89
# The distance from rank centre to suit centre on a typical printed card: a
# calibrated camera's index size (vision.recognize)
INDEX_D_MM = 8.5
# A poker card's short and long sides in such index sizes; and how much smaller or larger a
# card's outline may be where a calibrated camera knows that size (the outline lies
# a millimetre or two inside the card's edge): a patience pack's 44 x 67 mm and a
# Skat pack's 59 x 91 mm are within it, three cards of a row each laid 23 mm over
# the one before (109 x 88 mm) not.
CARD_INDICES = (63.0 / INDEX_D_MM, 88.9 / INDEX_D_MM)
CARD_SIDES = (0.6, 1.2)
# The index midpoint on a card, as a share of its width and height, and d as a share
# of its height (measured on the rendered faces and the bidly deck).
_INDEX_AT = (24.0 / 250, 55.0 / 350)
_INDEX_D = 36.0 / 350


def card_quads(
    image: NDArray[np.uint8],
    *,
    min_area: float = 1500.0,
    paper: NDArray[np.uint8] | None = None,
    region: tuple[Box, tuple[int, int]] | None = None,
    card: tuple[float, float] | None = None,
    index_d_at: Callable[[float, float], float] | None = None,
) -> list[NDArray[np.float32]]:
    """Outlines of cards lying free: light, four-cornered, card-shaped regions.

    Each outline is 4x2, ordered so that its first edge is a short edge. Cards are
    large, so the outlines are found at half resolution (a quarter of the work) and
    scaled back, on the same adaptive paper mask the ink blobs are judged by
    (``paper``, when the caller has it already): a fixed "bright and grey" bar
    missed cards under a colour cast or a dim lamp. ``region`` (box, the
    picture's (height, width)) says that ``image`` and ``paper`` are that box cut
    from a larger picture: a light patch reaching an edge where the box was cut is
    not taken for a card (the cut would be one of its sides), and the "too large
    to be a card" limit is the picture's. ``card`` (a calibrated camera's typical
    card, short side and long, in pixels): an outline not ``CARD_SIDES`` times its
    size each way is no card (the paper of a row of cards each laid over the one
    before is one light patch, card-shaped at three or four cards: its outline's
    corners were read as indices, a row's corner as a 10D beside the ace in it).
    ``index_d_at`` (the calibrated index size at a point of the whole picture): an
    outline is judged by the card's size where it lies instead (a camera tilted over
    the table sees its near side's cards larger, its far side's smaller, than at the
    markers' middle, whose size ``card`` is: a row of three cards on the far side
    would pass for one card there).
    """
    if paper is None:
        paper = Picture(image).paper()
    closed = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # the outline of every light patch, also one lying in a hole of another (a card on a
    # table whose light weave rings it): two-level contours, the holes left out
    found, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer = hierarchy.reshape(-1, 4)[:, 3] < 0 if hierarchy is not None else []
    contours = [c for c, top in zip(found, outer, strict=True) if top]
    quads = []
    ph, pw = paper.shape
    limit = 0.9 * ph * pw
    cut = (False, False, False, False)  # left, top, right, bottom
    if region is not None:
        (x0, y0, x1, y1), (h, w) = region
        limit = 0.9 * (h // 2) * (w // 2)
        cut = (x0 > 0, y0 > 0, x1 < w, y1 < h)
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area / 4 or area > limit:
            continue
        if any(cut):
            x, y, cw, ch = cv2.boundingRect(contour)
            touches = (x <= 1, y <= 1, x + cw >= pw - 1, y + ch >= ph - 1)
            if any(c and t for c, t in zip(cut, touches, strict=True)):
                continue
        approx = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
        if len(approx) != 4 or not cv2.isContourConvex(approx):
            continue
        quad = approx.reshape(4, 2).astype(np.float32) * 2 + 0.5
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
        if short > long_:
            quad = np.roll(quad, -1, axis=0)
            short, long_ = long_, short
        if not 0.55 < short / long_ < 0.85 or 4 * area < 0.8 * short * long_:
            continue
        if index_d_at is not None:  # the card's size where the outline lies
            cx, cy = quad.mean(axis=0).tolist()
            if region is not None:
                cx, cy = cx + region[0][0], cy + region[0][1]
            local = index_d_at(cx, cy)
            if not _card_sized(short, long_, (local * CARD_INDICES[0], local * CARD_INDICES[1])):
                continue
        elif card is not None and not _card_sized(short, long_, card):
            continue
        quads.append(quad)
    return quads


def _card_sized(short: float, long_: float, card: tuple[float, float]) -> bool:
    """Whether an outline's sides are ``CARD_SIDES`` times a card's (short, long)."""
    return (
        CARD_SIDES[0] <= short / card[0] <= CARD_SIDES[1]
        and CARD_SIDES[0] <= long_ / card[1] <= CARD_SIDES[1]
    )


def quad_proposals(quads: list[NDArray[np.float32]]) -> Proposals:
    """Index hypotheses at the four corners of each free card (two per printed
    index position, since a card lies either way up; the classifier decides)."""
    rows = []
    for quad in quads:
        for start in (0, 2):  # the index at each end of the card
            q = np.roll(quad, -start, axis=0)
            for flip in (False, True):  # mirrored: the corner on the other side
                a, b, _, dpt = q[[1, 0, 3, 2]] if flip else q
                across = b - a  # along the short edge
                along = dpt - a  # along the long edge
                height = float(np.linalg.norm(along))
                if height < 1:
                    continue
                m = a + _INDEX_AT[0] * across + _INDEX_AT[1] * along
                u = along / height
                rows.append((m[0], m[1], u[0], u[1], _INDEX_D * height))
    if not rows:
        z = np.zeros(0, np.float32)
        zi = np.zeros(0, np.int32)
        return Proposals(z, z, z, z, z, zi, zi)
    arr = np.array(rows, np.float32)
    minus = -np.ones(len(arr), np.int32)
    return Proposals(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], arr[:, 4], minus, minus)


def all_proposals(
    image: NDArray[np.uint8] | Picture, box: Box | None = None, ink: Box | None = None
) -> Proposals:
    """Ink pairs, merged indices and the corners of free cards: of the whole picture,
    or of ``box`` in it (in the box's own pixels; read a region through
    :meth:`Picture.crop`, whose corners lie on multiples of 32 or the picture's
    edge, so that what lies inside the region is exact: a box's corners must lie
    on multiples of four for its paper to be the whole's). ``ink``: the pairs
    and merged indices only of the ink in that box of the reading
    (:meth:`Picture.ink_box`), the free cards of all of it."""
    pic = image if isinstance(image, Picture) else Picture(image)
    comps, paper = _components(pic, box, ink=ink)
    card = (
        None
        if pic.index_d is None
        else (
            pic.index_d * CARD_INDICES[0] / pic.index_k,
            pic.index_d * CARD_INDICES[1] / pic.index_k,
        )
    )
    if box is None:
        quads = card_quads(pic.image, paper=paper, card=card, index_d_at=pic.index_d_at)
    else:
        x0, y0, x1, y1 = box
        quads = card_quads(
            pic.image[y0:y1, x0:x1],
            paper=paper,
            region=(box, pic.shape),
            card=card,
            index_d_at=pic.index_d_at,
        )
    return _concat(pair_proposals(comps), quad_proposals(quads))
