"""Synthetic videos of play at a card table, rendered from a script of table actions.

A script is a list of :class:`Action` in table millimetres: a card placed, moved
or removed at a time. :func:`render_video` draws the table from straight above
(the layout's ArUco markers where the layout puts them, a green felt or another of
:data:`CLOTHS`, the card
faces of :func:`~vision.faces.render_face`) and, before every action, a hand and
arm reaching in from the acting seat's side of the table: in with the card
(``REACH_S``), the card laid, out again (``LEAVE_S``). A card that is moved or
removed is first reached for, then carried (``CARRY_S``). Actions with the same
time are one gesture: a trick gathered by one hand. A removed card whose
position lies on the table joins a face-down pile there (drawn as card backs);
one whose position lies off the table leaves with the hand.

The camera is mild on purpose (this is the demo and the end-to-end test, not the
robustness set): a soft lighting gradient, a slight blur and sensor noise.
The noise is fixed (a camera's denoised stream): while nothing moves the same
frame is written again.

Everything comes from ``seed``: the same script and seed give the same video.

>>> a = Action(1.0, "place", "QH", 450.0, 260.0, 0.0, seat=0)
>>> [s.t for s in pace([[a], [a]], start_s=1.0, still_s=2.0)]
[1.7, 5.0]
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.faces import BACKS, Face, photo_faces, render_back, render_face
from vision.faces import H as FACE_H
from vision.faces import W as FACE_W
from vision.geometry import render_marker_sheet
from vision.layout import TableLayout
from vision.synth import CODES

__all__ = [
    "BACKS",
    "CARRY_S",
    "CLOTHS",
    "LEAVE_S",
    "REACH_S",
    "SLEEVES",
    "Action",
    "VideoInfo",
    "pace",
    "render_video",
    "rested",
    "script_frames",
]

REACH_S = 0.7  # the hand coming in, to the spot where the card is laid or picked up
CARRY_S = 0.5  # a picked-up card carried to its new spot
LEAVE_S = 0.6  # the hand going out again
CARD_W_MM, CARD_H_MM = 63.0, 88.0
KINDS = ("place", "move", "remove")
# The rank-to-suit distance of a printed index the recogniser reads every card from
# (docs/vision.md, "Scale"); the recommended mounting gives it for an 8.5 mm index.
INDEX_PX = 20.0
# A one-pack card whose pip runs into an index is drawn again, up to this many times
PIP_TRIES = 8
PIP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
# What the cards lie on (``cloth``): felts of the colours card tables are covered in, a
# honey wooden table with its grain (a patterned table), and a pale laminate (low
# contrast between card and table).
CLOTHS = ("green", "blue", "red", "wood", "pale")
# What the players wear (``sleeve``): bare arms, a white shirt's sleeve (as bright as
# the cards), a checked shirt's (lines of ink on paper, moving).
SLEEVES = ("bare", "white", "check")

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Action:
    """One thing done at the table: at time ``t`` (s) the card lands at ``(x_mm, y_mm)``
    turned ``angle_deg`` counter-clockwise (0: upright, read from seat 0's side).

    ``place`` lays the card there (face down with ``face_up=False``); ``move`` takes
    a card on the table there; ``remove`` takes it off the table, to a face-down pile
    at ``(x_mm, y_mm)`` when that lies on the table. ``seat`` is whose hand does it
    (``None``: a hand from the south). ``rest_s``: how long the hand then rests
    still where it laid or took the card, its fingertips there and its arm over
    whatever lies between there and its seat's edge, before it goes out."""

    t: float
    kind: str
    card: str
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    seat: int | None = None
    face_up: bool = True
    rest_s: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"action kind: expected one of {', '.join(KINDS)}, got {self.kind!r}")
        if not math.isfinite(self.t) or self.t < 0:
            raise ValueError(f"action time: expected a time >= 0, got {self.t!r}")
        if not math.isfinite(self.rest_s) or self.rest_s < 0:
            raise ValueError(f"action rest: expected a time >= 0, got {self.rest_s!r}")


@dataclass(frozen=True, slots=True)
class VideoInfo:
    """What was written."""

    path: Path
    frames: int
    fps: float
    size: tuple[int, int]  # width, height in pixels
    px_per_mm: float


def gesture_times(kind: str, rest_s: float = 0.0) -> tuple[float, float]:
    """Seconds a gesture takes before its card lands, and after (its hand resting
    ``rest_s``, then going out)."""
    before = REACH_S + (CARRY_S if kind != "place" else 0.0)
    return before, rest_s + LEAVE_S


def pace(
    steps: Iterable[Sequence[Action]], *, start_s: float = 1.5, still_s: float = 1.8
) -> list[Action]:
    """Times for a script given as gestures (each a group of actions done at once):
    the first hand comes in at ``start_s``, and each next one ``still_s`` after the
    last has left. The actions' own times are replaced."""
    out: list[Action] = []
    clock = start_s
    for step in steps:
        if not step:
            continue
        before = max(gesture_times(a.kind)[0] for a in step)
        after = max(gesture_times(a.kind, a.rest_s)[1] for a in step)
        t = round(clock + before, 3)
        out.extend(replace(a, t=t) for a in step)
        clock = t + after + still_s
    return out


def rested(actions: Sequence[Action], rest_s: float, every: int = 1) -> list[Action]:
    """The script with every ``every``-th gesture's hand resting ``rest_s`` where it
    laid or took its cards before it goes out (:attr:`Action.rest_s`), and what
    follows it that much later: a player who keeps a hand on the cards a moment.

    >>> a, b = Action(1.0, "place", "QH", 450, 260), Action(3.0, "place", "KH", 480, 260)
    >>> [(x.t, x.rest_s) for x in rested([a, b], 1.5)]
    [(1.0, 1.5), (4.5, 1.5)]
    """
    if not math.isfinite(rest_s) or rest_s < 0 or every < 1:
        raise ValueError("rest_s must be a time >= 0 and every a count >= 1")
    out: list[Action] = []
    shift, times = 0.0, sorted({a.t for a in actions})
    for k, t in enumerate(times):
        rest = rest_s if k % every == 0 else 0.0
        out.extend(replace(a, t=round(t + shift, 3), rest_s=rest) for a in actions if a.t == t)
        shift += rest
    return out


# -- drawing -----------------------------------------------------------------------------


class _Table:
    """Pixels of one table: millimetres to pixels, the empty table, card faces."""

    def __init__(
        self,
        layout: TableLayout,
        px_per_mm: float,
        margin_mm: float,
        seed: int,
        deck: str = "french",
        worn: float = 0.0,
        one_pack: bool = False,
        fonts: str = "dejavu",
        photos: Path | None = None,
        frame: tuple[int, int] | None = None,
        cloth: str = "green",
        indices: int = 2,
        back: str = "lattice",
    ):
        if cloth not in CLOTHS:
            raise ValueError(f"cloth: expected one of {', '.join(CLOTHS)}, got {cloth!r}")
        self.cloth = cloth
        self.layout = layout
        self.deck = deck
        self.fonts = fonts
        self.indices = indices  # corners the pack prints its index in (render_face)
        # faces photographed, by card (vision.faces.photo_faces), in place of rendered ones
        if photos and not Path(photos).is_dir():
            raise ValueError(f"{photos}: no such folder of card photographs")
        self.photos = {f.code: f for f in photo_faces(photos)} if photos else {}
        missing = [c for c in CODES if c not in self.photos] if photos else []
        if missing:
            raise ValueError(
                f"{photos}: no photograph of {', '.join(missing[:6])}"
                + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
                + " (<rank><suit>.jpg, such as 10h.jpg or Qs.jpg)"
            )
        self.worn = worn
        self.one_pack = one_pack
        self.ppm = px_per_mm
        self.seed = seed
        if frame is None:
            w = (layout.width_mm + 2 * margin_mm) * px_per_mm
            h = (layout.depth_mm + 2 * margin_mm) * px_per_mm
            self.w, self.h = int(math.ceil(w / 16) * 16), int(math.ceil(h / 16) * 16)
            self.margin = (margin_mm, margin_mm)
        else:  # a camera's frame (3840 x 2160, say): the layout in its middle, felt round it
            self.w, self.h = frame
            mx = (self.w / px_per_mm - layout.width_mm) / 2
            my = (self.h / px_per_mm - layout.depth_mm) / 2
            if min(mx, my) < 0:
                raise ValueError(
                    f"a {self.w}x{self.h} frame at {px_per_mm:g} px/mm is "
                    f"{self.w / px_per_mm:.0f} x {self.h / px_per_mm:.0f} mm: the table "
                    f"({layout.width_mm:g} x {layout.depth_mm:g} mm) does not fit"
                )
            self.margin = (mx, my)
        self._faces: dict[str, Face] = {}
        self.empty = self._empty()
        self.back = self._back(back)
        rng = np.random.default_rng([seed, 7])
        yy, xx = np.mgrid[0 : self.h, 0 : self.w].astype(np.float32)
        gx, gy = 0.10, -0.07  # a lamp a little to the north-west
        self.light = (1.0 + gx * (0.5 - xx / self.w) + gy * (0.5 - yy / self.h)).astype(np.float32)
        # the sensor's noise, fixed: a still table gives the same picture frame after frame
        # (as a camera's denoised stream does), which a video codec stores almost free
        self.noise = rng.normal(0, 1.2, (self.h, self.w)).astype(np.float32)

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (
            (x_mm + self.margin[0]) * self.ppm,
            (self.layout.depth_mm + self.margin[1] - y_mm) * self.ppm,
        )

    def _empty(self) -> Image:
        img = self._cloth(np.random.default_rng([self.seed, 1]))
        sheet = render_marker_sheet(self.layout, self.ppm)
        side = round(self.layout.marker_size_mm * self.ppm)
        pad = round(8 * self.ppm)  # a white border round each printed marker
        for x_mm, y_mm in self.layout.markers.values():
            cx, cy = self.px(x_mm, y_mm)
            sx = round(x_mm * self.ppm - side / 2)
            sy = round((self.layout.depth_mm - y_mm) * self.ppm - side / 2)
            col, row = round(cx - side / 2), round(cy - side / 2)
            img[row - pad : row + side + pad, col - pad : col + side + pad] = 235
            patch = sheet[sy : sy + side, sx : sx + side].astype(np.float32)
            img[row : row + side, col : col + side] = (patch * 0.86 + 20)[:, :, None]
        return np.clip(img, 0, 255).astype(np.uint8)

    def _cloth(self, rng: np.random.Generator) -> NDArray[np.float32]:
        """The bare table, ``self.cloth``, as float BGR."""
        h, w = self.h, self.w
        coarse = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
        coarse = cv2.resize(cv2.GaussianBlur(coarse, (0, 0), 2.0), (w, h))
        # felt seen from 1.3 m: a soft mottle, its fibres finer than a pixel (and a fine
        # texture would make every key frame of the video dear)
        fine = cv2.GaussianBlur(rng.normal(0, 8, (h, w)).astype(np.float32), (0, 0), 2.5)
        if self.cloth == "wood":  # honey boards 150 mm wide along the table, their grain
            # streaks running along each board, dark lines here and there
            base = np.array([70, 125, 180], np.float32)
            streak = rng.normal(0, 1, (h // 2 + 1, w // 64 + 1)).astype(np.float32)
            streak = cv2.GaussianBlur(streak, (0, 0), sigmaX=4.0, sigmaY=1.0)
            streak = cv2.resize(streak, (w, h), interpolation=cv2.INTER_CUBIC)
            boards = np.floor(np.arange(h, dtype=np.float32) / (150 * self.ppm))
            tone = rng.normal(0, 10, int(boards.max()) + 1).astype(np.float32)[boards.astype(int)]
            seams = (np.arange(h) % round(150 * self.ppm)) < max(1, round(0.8 * self.ppm))
            shade = streak * 14 + tone[:, None] - 45 * seams[:, None] + fine * 0.5
            img = base[None, None, :] * (1 + shade[:, :, None] / 255.0)
            return img.astype(np.float32)
        base = {
            "green": (52, 112, 38),
            "blue": (125, 70, 30),
            "red": (45, 35, 120),
            "pale": (196, 200, 204),  # a pale grey laminate, a shade off the cards' white
        }[self.cloth]
        mottle = coarse * 6 + fine if self.cloth != "pale" else coarse * 3 + fine * 0.4
        return np.array(base, np.float32)[None, None, :] + mottle[:, :, None]

    def _back(self, design: str) -> Face:
        """The pack's back (:func:`vision.faces.render_back`): by default a dark red
        lattice with a white rim, no ink on paper; ``ornate`` and ``advert`` print ink
        on white paper, the latter letters of an index's size and the four suits."""
        face = render_face("AS", np.random.default_rng(0))  # for its rounded mask
        return Face("back", render_back(design).image, face.alpha, ())

    def face(self, card: str) -> Face:
        """The card's face: the first of its renderings (by seed) whose index is as large
        as a deck's printed index is in this picture, ``INDEX_PX`` or more (faces are
        drawn with indices from 6 to 11 mm). With ``one_pack`` every card is drawn in
        the same style (paper, font, index size and place: a real pack prints all its
        cards alike); else each card in a style of its own."""
        if card not in self._faces:
            key = zlib.crc32(card.encode())
            if self.photos:
                best = self.photos[card]
            elif self.one_pack:  # the pack's style: the one its 8 of spades is drawn in
                k = self._style("8S", 0)[1]
                # a printer lays a number card's pips clear of its indices: a drawing
                # whose pip runs into an index's suit (a large index beside large
                # pips) is drawn again
                for again in range(PIP_TRIES if card[:-1] in PIP_CARDS else 1):
                    pack = np.random.default_rng([self.seed, 0, k])
                    rng = np.random.default_rng([self.seed, key, k, *([again] if again else [])])
                    face = render_face(
                        card, rng, self.deck, pack=pack, fonts=self.fonts, indices=self.indices
                    )
                    if again == 0:
                        best = face  # kept where no drawing is clear
                    if _indices_clear(face):
                        best = face
                        break
            else:
                best = self._style(card, key)[0]
            rng = np.random.default_rng([self.seed, key, 99])
            if rng.random() < self.worn:
                # a worn card, or one of another pack: its paper greyer and tinted
                tint = np.array([0.70, 0.76, 0.86]) * rng.uniform(0.85, 1.0)
                dark = np.clip(best.image.astype(np.float32) * tint[rng.permutation(3)], 0, 255)
                best = replace(best, image=dark.astype(np.uint8))
            self._faces[card] = best
        return self._faces[card]

    def _style(self, card: str, key: int) -> tuple[Face, int]:
        """The first rendering of ``card`` (seeds ``[seed, key, k]``) whose index is
        ``INDEX_PX`` or more in this picture, and its ``k``."""
        scale = CARD_W_MM * self.ppm / FACE_W
        best: tuple[Face, int] | None = None
        for k in range(40):
            rng = np.random.default_rng([self.seed, key, k])
            pack = np.random.default_rng([self.seed, 0, k]) if self.one_pack else None
            face = render_face(
                card, rng, self.deck, pack=pack, fonts=self.fonts, indices=self.indices
            )
            if best is None or face.anchors[0].d > best[0].anchors[0].d:
                best = (face, k)
            if face.anchors[0].d * scale >= INDEX_PX:
                return face, k
        assert best is not None
        return best

    def pose(self, x_mm: float, y_mm: float, angle_deg: float) -> NDArray[np.float64]:
        """Affine map from face pixels to frame pixels."""
        cx, cy = self.px(x_mm, y_mm)
        s = CARD_W_MM * self.ppm / FACE_W
        a = -math.radians(angle_deg)  # counter-clockwise on the table: clockwise in pixels
        c, n = math.cos(a) * s, math.sin(a) * s
        return np.array(
            [
                [c, -n, cx - c * FACE_W / 2 + n * FACE_H / 2],
                [n, c, cy - n * FACE_W / 2 - c * FACE_H / 2],
            ]
        )

    def draw_card(
        self, img: Image, face: Face, x_mm: float, y_mm: float, angle_deg: float, lift: float = 0
    ) -> None:
        """Paste a card, with a soft shadow (a longer one while it is lifted)."""
        pose = self.pose(x_mm, y_mm, angle_deg)
        corners = np.array([[0, 0, 1], [FACE_W, 0, 1], [FACE_W, FACE_H, 1], [0, FACE_H, 1]])
        quad = corners @ pose.T
        m = int(12 + lift * 40)
        x0 = max(0, int(quad[:, 0].min()) - m)
        y0 = max(0, int(quad[:, 1].min()) - m)
        x1 = min(self.w, int(quad[:, 0].max()) + m + 1)
        y1 = min(self.h, int(quad[:, 1].max()) + m + 1)
        if x1 <= x0 or y1 <= y0:
            return
        local = pose.copy()
        local[:, 2] -= (x0, y0)
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpAffine(face.image, local, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(face.alpha, local, size, flags=cv2.INTER_LINEAR)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        shift = 2.0 + lift * 18
        shadow = cv2.warpAffine(
            cv2.GaussianBlur(alpha, (0, 0), 2.5 + lift * 6),
            np.float32([[1, 0, shift], [0, 1, shift]]),
            size,
        )
        roi *= 1 - (0.35 - 0.1 * lift) * shadow[:, :, None] / 255.0
        a = alpha[:, :, None].astype(np.float32) / 255.0
        roi = warped * a + roi * (1 - a)
        img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class _Lying:
    face: Face
    x: float
    y: float
    angle: float


@dataclass
class _Gesture:
    actions: list[Action]
    start: float  # the hand appears
    land: float  # the cards land at their new place
    end: float  # the hand has gone
    pick: float  # the cards are taken up (moves and removals; == start for places)
    rest: float  # the hand rests still this long after the cards land, then goes out
    src: tuple[float, float]  # where the hand reaches first (mm)
    dst: tuple[float, float]  # where it lays or takes the cards (mm)
    entry: tuple[float, float]  # off the table, on the seat's side (mm)
    tone: tuple[float, float, float]


TONES = ((120, 150, 205), (95, 125, 180), (140, 170, 225), (80, 105, 160))


def _indices_clear(face: Face) -> bool:
    """Whether no ink runs into the suit of either index of ``face``: the ink blob at
    each suit's middle is no larger than 1.3 times the index's rank-to-suit distance
    (a suit is smaller than that; one joined to a pip is not). Of the 1,600 number
    faces of the one-pack renderings of seeds 1 to 40, seven failed, all tens."""
    img = face.image.astype(np.int16)
    ink = ((img.mean(axis=2) < 150) | (img.max(axis=2) - img.min(axis=2) > 60)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    for a in face.anchors:
        sx, sy = a.x + a.ux * a.d / 2, a.y + a.uy * a.d / 2
        r = max(2, int(a.d / 4))
        near = labels[max(0, int(sy) - r) : int(sy) + r, max(0, int(sx) - r) : int(sx) + r]
        for i in np.unique(near):
            if i and max(stats[i, 2], stats[i, 3]) > 1.3 * a.d:
                return False
    return True


def _seat_sides(layout: TableLayout) -> dict[int, tuple[float, float]]:
    """Unit vectors from the table's centre to each seat's side: towards the seat's zones."""
    cx, cy = layout.width_mm / 2, layout.depth_mm / 2
    sides: dict[int, tuple[float, float]] = {}
    for seat in range(layout.players):
        pts = [z.centre for z in layout.zones if z.seat == seat]
        if pts:
            dx = sum(p[0] for p in pts) / len(pts) - cx
            dy = sum(p[1] for p in pts) / len(pts) - cy
        else:  # seats round clockwise from the south
            a = -math.pi / 2 - 2 * math.pi * seat / layout.players
            dx, dy = math.cos(a), math.sin(a)
        if abs(dx) >= abs(dy):
            sides[seat] = (math.copysign(1.0, dx), 0.0)
        else:
            sides[seat] = (0.0, math.copysign(1.0, dy))
    return sides


def _gestures(
    layout: TableLayout, actions: Sequence[Action], beyond_mm: tuple[float, float] = (40.0, 40.0)
) -> list[_Gesture]:
    """The hands' gestures; ``beyond_mm``: how far the picture reaches past the table's
    east and west edges, and past its north and south ones (an arm comes in from past
    the picture's border)."""
    sides = _seat_sides(layout)
    where: dict[str, tuple[float, float]] = {}
    gestures: list[_Gesture] = []
    groups: dict[float, list[Action]] = {}
    for a in sorted(actions, key=lambda a: a.t):
        groups.setdefault(a.t, []).append(a)
    for t, group in sorted(groups.items()):
        kind = "place" if all(a.kind == "place" for a in group) else "move"
        rest = max(a.rest_s for a in group)
        before, after = gesture_times(kind, rest)
        dst = (group[0].x_mm, group[0].y_mm)
        if kind == "place":
            src = dst
        else:
            known = [where[a.card] for a in group if a.card in where]
            src = known[0] if known else dst
        for a in group:
            where[a.card] = (a.x_mm, a.y_mm)
        seat = group[0].seat
        side = sides.get(seat, (0.0, -1.0)) if seat is not None else (0.0, -1.0)
        # straight in from the seat's edge, past the picture's border (at least 160 mm)
        beyond = beyond_mm[1] if side[0] == 0.0 else beyond_mm[0]
        reach = max(layout.width_mm, layout.depth_mm) * 0.5 + max(200.0, beyond + 160.0)
        if side[0] == 0.0:
            entry = (src[0] + 60.0 * side[1], layout.depth_mm / 2 + side[1] * reach)
        else:
            entry = (layout.width_mm / 2 + side[0] * reach, src[1] - 60.0 * side[0])
        tone = TONES[(seat or 0) % len(TONES)]
        gestures.append(
            _Gesture(
                group,
                t - before,
                t,
                t + after,
                t - before + REACH_S,
                rest,
                src,
                dst,
                entry,
                tone,
            )
        )
    for g, h in itertools.pairwise(gestures):
        if h.start < g.end:
            raise ValueError(
                f"the gesture at {h.land:g} s begins ({h.start:g} s) before the one at "
                f"{g.land:g} s has ended ({g.end:g} s)"
            )
    return gestures


def _ease(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def _lerp(p: tuple[float, float], q: tuple[float, float], u: float) -> tuple[float, float]:
    return (p[0] + (q[0] - p[0]) * u, p[1] + (q[1] - p[1]) * u)


def _draw_hand(
    table: _Table,
    img: Image,
    palm_mm: tuple[float, float],
    entry_mm: tuple[float, float],
    tone: tuple[float, float, float],
    shadow: bool = False,
    lean: bool = False,
    sleeve: str = "bare",
) -> NDArray[np.uint8] | None:
    """An arm from off the picture to a hand whose fingertips rest on ``palm_mm``, the
    arm in a ``sleeve`` (:data:`SLEEVES`) to a hand's length short of the wrist; with
    ``shadow``, the shadow it casts from a lamp to the north-west. With ``lean``, the
    player leans in as they reach: their head and shoulders cast a broad, soft shadow
    from the same lamp, a third darker, over the table beside the arm. The mask of
    what the hand covers (arm, hand and its shadow), or ``None`` when nothing of it
    is in the picture: the body's shadow dims the light on the cards under it but
    hides none of them (a card in it lies in plain sight once the hand has left, and
    the latency is counted from then)."""
    ppm = table.ppm
    body: NDArray[np.uint8] | None = None
    if lean:  # head and shoulders 40 % of the way to the hand, 40 cm over the table
        bx = entry_mm[0] + 0.4 * (palm_mm[0] - entry_mm[0])
        by = entry_mm[1] + 0.4 * (palm_mm[1] - entry_mm[1])
        cx, cy = table.px(bx, by)
        e = ppm / 8  # drawn and blurred at an eighth of the size: it is soft
        small = np.zeros((-(-table.h // 8), -(-table.w // 8)), np.float32)
        centre = (round((cx + 100 * ppm) / 8), round((cy + 90 * ppm) / 8))
        cv2.ellipse(small, centre, (int(250 * e), int(180 * e)), 0, 0, 360, 255.0, -1)
        small = cv2.GaussianBlur(small, (0, 0), 45 * e)
        body = cv2.resize(small, (small.shape[1] * 8, small.shape[0] * 8))
        body = np.clip(body[: table.h, : table.w], 0, 255).astype(np.uint8)
        img[:] = (img * (1 - 0.33 * body[:, :, None].astype(np.float32) / 255.0)).astype(np.uint8)
    dx, dy = palm_mm[0] - entry_mm[0], palm_mm[1] - entry_mm[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n  # along the arm, towards the fingertips
    # the palm sits a little short of the card centre so that the fingers hold its near end
    pc = (palm_mm[0] - ux * 70, palm_mm[1] - uy * 70)
    mask = np.zeros((table.h, table.w), np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        a, b = table.px(x, y)
        return round(a), round(b)

    cv2.line(mask, p(*entry_mm), p(*pc), 255, int(85 * ppm), cv2.LINE_AA)
    angle = math.degrees(math.atan2(-uy, ux))
    cv2.ellipse(mask, p(*pc), (int(55 * ppm), int(45 * ppm)), angle, 0, 360, 255, -1, cv2.LINE_AA)
    vx, vy = -uy, ux
    for k, length in zip((-1.5, -0.5, 0.5, 1.5), (70, 80, 78, 62), strict=True):
        base = (pc[0] + vx * k * 20, pc[1] + vy * k * 20)
        tip = (base[0] + ux * length, base[1] + uy * length)
        cv2.line(mask, p(*base), p(*tip), 255, int(17 * ppm), cv2.LINE_AA)
    thumb = (pc[0] + vx * 55 + ux * 25, pc[1] + vy * 55 + uy * 25)
    cv2.line(mask, p(*pc), p(*thumb), 255, int(20 * ppm), cv2.LINE_AA)
    cuffed: NDArray[np.uint8] | None = None
    if sleeve != "bare":  # a shirt's sleeve, a little wider than the arm, to the cuff
        cuff = (pc[0] - ux * 110, pc[1] - uy * 110)
        cuffed = np.zeros_like(mask)
        cv2.line(cuffed, p(*entry_mm), p(*cuff), 255, int(95 * ppm), cv2.LINE_AA)
        mask = np.maximum(mask, cuffed)
    if shadow:  # held 8 cm over the table: the shadow falls 6 cm to the south-east, soft
        off = np.float32([[1, 0, 45 * ppm], [0, 1, 40 * ppm]])
        dark = cv2.warpAffine(mask, off, (table.w, table.h))
        dark = cv2.GaussianBlur(dark, (0, 0), 7 * ppm)
        img[:] = (img * (1 - 0.45 * dark[:, :, None].astype(np.float32) / 255.0)).astype(np.uint8)
        covered = np.maximum(mask, (dark > 40).astype(np.uint8) * 255)
    else:
        covered = mask
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:  # the arm off the picture (and so its shadow)
        return None
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    m = mask[y0:y1, x0:x1].astype(np.float32)[:, :, None] / 255.0
    shade = cv2.GaussianBlur(m[:, :, 0], (0, 0), 6 * ppm)[:, :, None]  # rounder in the middle
    skin = np.array(tone, np.float32)[None, None, :] * (0.75 + 0.3 * shade)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    dressed = skin * m + roi * (1 - m)
    if cuffed is not None:
        c = cuffed[y0:y1, x0:x1].astype(np.float32)[:, :, None] / 255.0
        cloth = np.full_like(dressed, 236.0) * (0.8 + 0.2 * shade)
        if sleeve == "check":  # blue lines 1.5 mm wide every 10 mm both ways, on white
            yy, xx = np.mgrid[y0:y1, x0:x1]
            period, width = 10 * ppm, 1.5 * ppm
            lines = ((xx % period) < width) | ((yy % period) < width)
            cloth[lines] *= np.array([0.55, 0.3, 0.2], np.float32)
        dressed = cloth * c + dressed * (1 - c)
    img[y0:y1, x0:x1] = np.clip(dressed, 0, 255).astype(np.uint8)
    return covered


def script_frames(
    layout: TableLayout,
    actions: Sequence[Action],
    *,
    px_per_mm: float = 2.74,
    fps: float = 5.0,
    seed: int = 0,
    margin_mm: float = 40.0,
    tail_s: float = 3.0,
    shadow: bool = False,
    deck: str = "french",
    worn: float = 0.0,
    one_pack: bool = False,
    cleared: list[float] | None = None,
    fonts: str = "dejavu",
    indices: int = 2,
    photos: Path | None = None,
    frame: tuple[int, int] | None = None,
    lean: bool = False,
    cloth: str = "green",
    sleeve: str = "bare",
    back: str = "lattice",
) -> Iterable[tuple[float, Image, bool]]:
    """The frames of a script: ``(t, image, fresh)``; ``fresh`` is False for a frame that
    repeats the one before it (nothing moved).

    ``shadow``: hands cast shadows; ``lean``: players lean in as they reach, and
    their heads and shoulders shade the table beside the arm. ``deck``: the faces' style (see
    :func:`~vision.faces.render_face`); ``one_pack``: all cards in one style, as a
    real pack. ``worn``: the share of cards drawn on greyer, tinted paper.
    ``fonts``: the set the indices are printed in (:data:`vision.faces.FONT_SETS`;
    ``unseen``: fonts training never meets, a deck of another design); ``indices``: the
    corners a rendered pack prints its index in, 2 or 4 (:func:`~vision.faces.render_face`).
    ``photos``: a folder of the 52 cards' flattened photographs (``<rank><suit>.jpg``,
    :func:`~vision.faces.photo_faces`), drawn in place of rendered faces.
    ``frame``: the frame's width and height in pixels (a camera's, 3840 x 2160 say),
    the layout in its middle and felt round it; by default the layout and
    ``margin_mm`` round it. ``cloth``: what the cards lie on (:data:`CLOTHS`);
    ``sleeve``: what the players' arms wear (:data:`SLEEVES`); ``back``: the pack's
    back, that face-down cards show (:data:`vision.faces.BACKS`).
    ``cleared``, when given, gets for each action (in the order given) the time of
    the first frame after its card lands in which neither the hand nor its shadow
    touches the card: from then on it lies still in plain sight."""
    table = _Table(
        layout,
        px_per_mm,
        margin_mm,
        seed,
        deck=deck,
        worn=worn,
        one_pack=one_pack,
        fonts=fonts,
        indices=indices,
        photos=photos,
        frame=frame,
        cloth=cloth,
        back=back,
    )
    if sleeve not in SLEEVES:
        raise ValueError(f"sleeve: expected one of {', '.join(SLEEVES)}, got {sleeve!r}")
    order = {id(a): i for i, a in enumerate(actions)}
    if cleared is not None:
        cleared[:] = [math.nan] * len(actions)
    gestures = _gestures(layout, actions, table.margin)
    lying: dict[str, _Lying] = {}
    piles: dict[tuple[float, float], int] = {}
    end = (gestures[-1].end if gestures else 0.0) + tail_s
    n = math.floor(end * fps) + 1
    still: Image | None = None  # the table without hands, while nothing changes
    last: Image | None = None
    handled = False  # the last frame drew a gesture (its hand, a leaning player's shadow)
    gi = 0
    applied: set[int] = set()
    picked: set[int] = set()

    def on_table(x: float, y: float) -> bool:
        return 0 <= x <= layout.width_mm and 0 <= y <= layout.depth_mm

    def render_still() -> Image:
        img = table.empty.copy()
        for (x, y), count in sorted(piles.items()):
            for k in range(min(count, 6)):
                table.draw_card(img, table.back, x + k * 0.6, y + k * 0.8, 90.0 + k * 2.5)
        for c in lying.values():
            table.draw_card(img, c.face, c.x, c.y, c.angle)
        return img

    def camera(img: Image) -> Image:
        f = img.astype(np.float32)
        f = cv2.GaussianBlur(f, (0, 0), 0.6)
        f *= table.light[:, :, None]
        f += table.noise[:, :, None]
        return np.clip(f, 0, 255).astype(np.uint8)

    was: dict[int, tuple[float, float, float]] = {}

    def remember(g: _Gesture) -> None:
        for a in g.actions:
            if a.kind == "remove" and a.card in lying and id(a) not in was:
                c = lying[a.card]
                was[id(a)] = (c.x, c.y, c.angle)

    def clear(g: _Gesture, t: float, hand: NDArray[np.uint8] | None) -> None:
        """Note the cards of a gesture that have landed and that ``hand`` leaves alone."""
        if cleared is None or t < g.land:
            return
        for a in g.actions:
            i = order[id(a)]
            if not math.isnan(cleared[i]):
                continue
            # a card laid or moved: where it lies now; a card taken: where it lay
            x, y, angle = was.get(id(a), (a.x_mm, a.y_mm, a.angle_deg))
            if hand is not None:
                spot = np.zeros(hand.shape, np.uint8)
                corners = (
                    table.pose(x, y, angle)
                    @ np.array([[0, 0, 1], [FACE_W, 0, 1], [FACE_W, FACE_H, 1], [0, FACE_H, 1]]).T
                )
                cv2.fillConvexPoly(spot, np.round(corners.T).astype(np.int32), 1)
                if np.count_nonzero(hand[spot > 0]):
                    continue
            cleared[i] = t

    for i in range(n):
        t = i / fps
        changed = False
        active: _Gesture | None = None
        while gi < len(gestures) and gestures[gi].end < t:
            g = gestures[gi]
            remember(g)
            changed |= _pick(g, lying, picked, gi) | _land(g, table, lying, piles, applied, gi)
            clear(g, t, None)
            gi += 1
        if gi < len(gestures) and gestures[gi].start <= t:
            active = gestures[gi]
            remember(active)
            if t >= active.pick:
                changed |= _pick(active, lying, picked, gi)
            if t >= active.land:
                changed |= _land(active, table, lying, piles, applied, gi)
        if changed or still is None:
            still = render_still()
        if active is None:
            if changed or last is None or handled:
                handled = False
                last = camera(still)
                yield t, last, True
            else:
                yield t, last, False
            continue
        img = still.copy()
        g = active
        carried: list[Action] = []
        if t < g.pick:  # reaching in (with the card, for a place)
            u = _ease((t - g.start) / REACH_S)
            hand = _lerp(g.entry, g.src, u)
            if g.pick == g.start or all(a.kind == "place" for a in g.actions):
                carried = g.actions
        elif t < g.land:  # carrying what was picked up
            u = _ease((t - g.pick) / CARRY_S)
            hand = _lerp(g.src, g.dst, u)
            carried = g.actions
        else:  # resting where it laid or took the cards, then going out
            u = _ease(max(0.0, t - g.land - g.rest) / LEAVE_S)
            hand = _lerp(g.dst, g.entry, u)
            carried = [a for a in g.actions if a.kind == "remove" and not on_table(a.x_mm, a.y_mm)]
        if all(a.kind == "place" for a in g.actions) and t < g.land:
            carried = g.actions
        for k, a in enumerate(carried):
            face = table.face(a.card) if a.face_up and a.kind != "remove" else table.back
            table.draw_card(img, face, hand[0] + k, hand[1] + k, a.angle_deg, lift=1.0)
        covered = _draw_hand(table, img, hand, g.entry, g.tone, shadow, lean, sleeve)
        clear(g, t, covered)
        last = camera(img)
        handled = True
        yield t, last, True


def _pick(g: _Gesture, lying: dict[str, _Lying], picked: set[int], gi: int) -> bool:
    if gi in picked:
        return False
    picked.add(gi)
    changed = False
    for a in g.actions:
        if a.kind != "place" and a.card in lying:
            del lying[a.card]
            changed = True
    return changed


def _land(
    g: _Gesture,
    table: _Table,
    lying: dict[str, _Lying],
    piles: dict[tuple[float, float], int],
    applied: set[int],
    gi: int,
) -> bool:
    if gi in applied:
        return False
    applied.add(gi)
    layout = table.layout
    for a in g.actions:
        if a.kind == "remove":
            lying.pop(a.card, None)
            if 0 <= a.x_mm <= layout.width_mm and 0 <= a.y_mm <= layout.depth_mm:
                key = (a.x_mm, a.y_mm)
                piles[key] = piles.get(key, 0) + 1
        else:
            face = table.face(a.card) if a.face_up else table.back
            lying[a.card] = _Lying(face, a.x_mm, a.y_mm, a.angle_deg)
    return True


def render_video(
    layout: TableLayout,
    actions: Sequence[Action],
    path: str | Path,
    *,
    px_per_mm: float = 2.74,
    fps: float = 5.0,
    seed: int = 0,
    margin_mm: float = 40.0,
    tail_s: float = 3.0,
    shadow: bool = False,
    deck: str = "french",
    worn: float = 0.0,
    one_pack: bool = False,
    cleared: list[float] | None = None,
    fonts: str = "dejavu",
    indices: int = 2,
    photos: Path | None = None,
    frame: tuple[int, int] | None = None,
    lean: bool = False,
    cloth: str = "green",
    sleeve: str = "bare",
    back: str = "lattice",
) -> VideoInfo:
    """Render a script to a video file that :class:`~vision.sources.VideoFileSource`
    reads back: ``.mp4`` (MPEG-4, ``mp4v``) or ``.avi`` (Motion JPEG)."""
    p = Path(path)
    fourcc = {".mp4": "mp4v", ".avi": "MJPG"}.get(p.suffix.lower())
    if fourcc is None:
        raise ValueError(f"{p}: expected a .mp4 or .avi file name")
    if fps <= 0 or px_per_mm <= 0:
        raise ValueError("fps and px_per_mm must be positive")
    writer: cv2.VideoWriter | None = None
    frames = 0
    size = (0, 0)
    try:
        for _, img, _fresh in script_frames(
            layout,
            actions,
            px_per_mm=px_per_mm,
            fps=fps,
            seed=seed,
            margin_mm=margin_mm,
            tail_s=tail_s,
            shadow=shadow,
            deck=deck,
            worn=worn,
            one_pack=one_pack,
            cleared=cleared,
            fonts=fonts,
            indices=indices,
            photos=photos,
            frame=frame,
            lean=lean,
            cloth=cloth,
            sleeve=sleeve,
            back=back,
        ):
            if writer is None:
                size = (img.shape[1], img.shape[0])
                p.parent.mkdir(parents=True, exist_ok=True)
                writer = cv2.VideoWriter(str(p), cv2.VideoWriter_fourcc(*fourcc), fps, size)
                if not writer.isOpened():
                    raise OSError(f"{p}: OpenCV cannot write {fourcc} video here")
            writer.write(img)
            frames += 1
    finally:
        if writer is not None:
            writer.release()
    return VideoInfo(p, frames, fps, size, px_per_mm)
