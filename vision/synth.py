"""Synthetic table scenes for training and for measuring the recogniser.

A scene is a table texture (cork, wood, felt, cloth) with groups of cards laid
the way players lay them: a row in front of a cribbage player, a trick of three
or four in the middle of a Skat table, a fanned hand at the show, a few strewn
cards. Cards overlap; hands and other things cover some of them; the camera
sees it all in perspective, with uneven light, the Pi camera's blue cast, blur,
noise and JPEG artefacts. Each scene comes with the true position of every
corner index and whether it can be seen.

Everything is drawn from ``rng``: the same seed gives the same scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.faces import Face, render_face
from vision.faces import H as FACE_H
from vision.faces import W as FACE_W

__all__ = [
    "CLUTTER",
    "CODES",
    "HARD",
    "PHOTO_VIEWS",
    "IndexTruth",
    "Scene",
    "card_photo",
    "clutter",
    "make_scene",
    "shaded",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
CODES = tuple(r + s for s in SUITS for r in RANKS)


@dataclass(frozen=True)
class IndexTruth:
    """Where one corner index of one card lies in the scene, and whether it shows."""

    code: str
    card: int
    x: float
    y: float
    ux: float
    uy: float
    d: float
    visible: bool
    # how much of the worse covered of its two glyphs (rank, suit) shows: an index
    # that is not visible but shows two thirds or less of a glyph is taught as "no
    # index" (a half-covered 8 is a 3, a half-covered 6 a 5: refuse it), one
    # between that and visible is left out of training
    seen: float = 1.0


@dataclass(frozen=True)
class Scene:
    image: NDArray[np.uint8]
    indices: tuple[IndexTruth, ...]
    cards: tuple[str, ...]
    card_quads: tuple[NDArray[np.float64], ...]
    hard_conditions: tuple[str, ...] = ()


def _texture(h: int, w: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    kind = rng.integers(0, 5)
    base = np.array(
        [
            [60, 100, 150],  # cork (BGR)
            [40, 80, 130],  # wood
            [60, 110, 40],  # green felt
            [110, 60, 30],  # blue cloth
            [rng.integers(30, 200), rng.integers(30, 200), rng.integers(30, 200)],
        ][kind],
        dtype=np.float32,
    )
    base = base * rng.uniform(0.6, 1.3)
    noise = rng.normal(0, 1, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), rng.uniform(0.5, 3)), (w, h))
    img = np.empty((h, w, 3), np.float32)
    if kind == 1:  # wood grain
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(yy / rng.uniform(3, 12) + noise * 2.0) * 18
        for c in range(3):
            img[:, :, c] = base[c] + grain + noise * 6
    else:
        fine = rng.normal(0, rng.uniform(3, 14), (h, w)).astype(np.float32)
        for c in range(3):
            img[:, :, c] = base[c] + noise * rng.uniform(8, 25) + fine
    return np.clip(img, 0, 255).astype(np.uint8)


def _card_pose(cx: float, cy: float, angle: float, scale: float) -> NDArray[np.float64]:
    """Affine map from face pixels to scene pixels: centre, rotation (radians), scale."""
    c, s = np.cos(angle) * scale, np.sin(angle) * scale
    return np.array(
        [
            [c, -s, cx - c * FACE_W / 2 + s * FACE_H / 2],
            [s, c, cy - s * FACE_W / 2 - c * FACE_H / 2],
        ]
    )


def _layout(rng: np.random.Generator, w: int, h: int, scale: float) -> list[tuple[float, ...]]:
    """Poses (cx, cy, angle, scale) for one group of cards, in drawing order."""
    kind = rng.choice(["row", "fan", "trick", "scatter", "single"], p=[0.3, 0.25, 0.2, 0.15, 0.1])
    cw, ch = FACE_W * scale, FACE_H * scale
    cx, cy = rng.uniform(0.15 * w, 0.85 * w), rng.uniform(0.15 * h, 0.85 * h)
    base = rng.uniform(0, 2 * np.pi)
    poses: list[tuple[float, ...]] = []
    if kind == "row":
        n = int(rng.integers(2, 8))
        step = rng.uniform(0.22, 1.1) * cw
        ca, sa = np.cos(base), np.sin(base)
        for i in range(n):
            off = (i - (n - 1) / 2) * step
            poses.append((cx + off * ca, cy + off * sa, base + rng.normal(0, 0.04), scale))
    elif kind == "fan":
        n = int(rng.integers(3, 13))
        step = rng.uniform(0.06, 0.2)
        radius = ch * rng.uniform(0.5, 0.9)
        for i in range(n):
            a = base + (i - (n - 1) / 2) * step
            poses.append((cx + radius * np.sin(a), cy - radius * np.cos(a), a, scale))
    elif kind == "trick":
        n = int(rng.integers(2, 5))
        for i in range(n):
            a = base + i * np.pi / 2 + rng.normal(0, 0.3)
            r = ch * rng.uniform(0.15, 0.45)
            poses.append((cx + r * np.sin(a), cy - r * np.cos(a), a, scale))
    elif kind == "scatter":
        for _ in range(int(rng.integers(2, 6))):
            poses.append(
                (cx + rng.normal(0, cw), cy + rng.normal(0, ch), rng.uniform(0, 2 * np.pi), scale)
            )
    else:
        poses.append((cx, cy, base, scale))
    return poses


def _hand(img: NDArray[np.uint8], owner: NDArray[np.int16], rng: np.random.Generator) -> None:
    """A hand reaching over the table: palm and fingers in a skin tone."""
    h, w = owner.shape
    tone = np.array([rng.uniform(60, 180), rng.uniform(90, 190), rng.uniform(150, 240)])
    colour = tuple(float(v) for v in tone)
    px, py = rng.uniform(0, w), rng.uniform(0, h)
    size = rng.uniform(0.08, 0.2) * min(h, w)
    angle = rng.uniform(0, 2 * np.pi)
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(
        mask, (int(px), int(py)), (int(size), int(size * 0.8)), np.degrees(angle), 0, 360, 255, -1
    )
    for k in range(int(rng.integers(2, 6))):
        a = angle + (k - 2) * 0.35
        fx, fy = px + np.cos(a) * size * 1.7, py + np.sin(a) * size * 1.7
        cv2.line(mask, (int(px), int(py)), (int(fx), int(fy)), 255, int(size * 0.35))
    if rng.random() < 0.5:  # an arm leading off the picture
        ex, ey = px - np.cos(angle) * w, py - np.sin(angle) * w
        cv2.line(mask, (int(px), int(py)), (int(ex), int(ey)), 255, int(size * 1.1))
    shade = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 5)
    sel = mask > 0
    for c in range(3):
        img[:, :, c][sel] = np.clip(colour[c] + shade[sel], 0, 255)
    owner[sel] = -1


def _scribbles(img: NDArray[np.uint8], owner: NDArray[np.int16], rng: np.random.Generator) -> None:
    """A score pad with handwriting: white paper with dark marks that are not cards."""
    h, w = owner.shape
    pw, ph = int(rng.uniform(0.1, 0.25) * w), int(rng.uniform(0.1, 0.3) * h)
    x0, y0 = int(rng.uniform(0, w - pw)), int(rng.uniform(0, h - ph))
    img[y0 : y0 + ph, x0 : x0 + pw] = rng.integers(215, 250)
    owner[y0 : y0 + ph, x0 : x0 + pw] = -1
    chars = "0123456789AKQJ+-=ab"
    for _ in range(int(rng.integers(3, 15))):
        x = int(rng.uniform(x0, x0 + pw - 10))
        y = int(rng.uniform(y0 + 10, y0 + ph))
        ink = (20, 20, 20) if rng.random() < 0.7 else (40, 30, 170)
        text = "".join(rng.choice(list(chars), size=int(rng.integers(1, 4))))
        cv2.putText(
            img,
            text,
            (x, y),
            int(rng.integers(0, 8)),
            rng.uniform(0.3, 0.9),
            ink,
            int(rng.integers(1, 3)),
            cv2.LINE_AA,
        )


D_FACE = 40.0  # the face index length (face pixels) that ``d_range`` is given for
CARD_MM = 63.0  # a poker card's width: the rendered face's FACE_W pixels


def d_for_mounting(px_per_mm: float) -> float:
    """The ``d_range`` value that lays cards as a camera giving ``px_per_mm`` of table
    sees them. A printed index runs about 8.5 mm from rank to suit, 34 face pixels,
    so at 2.35 px/mm (the recommended mounting) a typical index is 20 pixels; the
    rendered faces' indices run from 24 to 44 face pixels, as decks differ."""
    return px_per_mm * D_FACE * CARD_MM / FACE_W  # image px per face px, times D_FACE


def make_scene(
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (640, 480),
    photo_faces: list[Face] | None = None,
    d_range: tuple[float, float] = (10.0, 32.0),
    hands: float = 0.3,
    hard: float = 0.0,
    deck: str = "french",
    fonts: str = "dejavu",
) -> Scene:
    """One random scene. ``d_range`` sets the cards' size: the rank-to-suit distance, in
    pixels, an index of ``D_FACE`` face pixels would have (rendered indices are 24 to
    44 face pixels, so the drawn ones are 0.6 to 1.1 times it; see
    :func:`d_for_mounting` to size cards by a camera's pixels per millimetre).

    ``hard`` is the chance of each of the hard conditions of real tables
    (:data:`HARD`): a white or pale table, a hard shadow across the cards, glare,
    a strong colour cast, motion blur; ``hard_conditions`` on the scene says which
    were drawn. With ``hard=0`` the scene is what it always was for its seed.

    ``deck`` is the deck every face is rendered from (``french``, ``german4``), or
    ``mixed``: each face draws its deck (:data:`vision.faces.DECK_STYLES`), as the
    training scenes do. ``fonts``: the font set rendered faces draw their glyphs
    from (:data:`vision.faces.FONT_SETS`)."""
    w, h = size
    hrng = np.random.default_rng(int(rng.integers(2**63))) if hard > 0 else None
    conditions = [c for c in HARD if hrng is not None and hrng.random() < hard]
    img = _texture(h, w, rng)
    if "pale-table" in conditions:
        assert hrng is not None
        img = _pale(img, hrng)
    owner = np.full((h, w), -1, np.int16)
    codes: list[str] = []
    faces: list[Face] = []
    poses: list[NDArray[np.float64]] = []
    for _ in range(int(rng.integers(2, 6))):
        scale = rng.uniform(*d_range) / D_FACE
        for cx, cy, angle, sc in _layout(rng, w, h, scale):
            code = CODES[int(rng.integers(0, len(CODES)))]
            if photo_faces and rng.random() < 0.35:
                face = photo_faces[int(rng.integers(0, len(photo_faces)))]
                code = face.code
            else:
                face = render_face(code, rng, style=deck, fonts=fonts)
            codes.append(code)
            faces.append(face)
            poses.append(_card_pose(cx, cy, angle, sc))
    for k, (face, pose) in enumerate(zip(faces, poses, strict=True)):
        warped = cv2.warpAffine(face.image, pose, (w, h), flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(face.alpha, pose, (w, h), flags=cv2.INTER_LINEAR)
        if rng.random() < 0.7:  # a soft shadow under the card
            shadow = cv2.GaussianBlur(alpha, (0, 0), 3)
            shift = np.float32([[1, 0, rng.uniform(1, 4)], [0, 1, rng.uniform(1, 4)]])
            shadow = cv2.warpAffine(shadow, shift, (w, h))
            img[:] = (img * (1 - 0.35 * shadow[:, :, None] / 255.0)).astype(np.uint8)
        a = alpha[:, :, None].astype(np.float32) / 255.0
        img[:] = (warped * a + img * (1 - a)).astype(np.uint8)
        owner[alpha > 127] = k
    if rng.random() < 0.25:
        _scribbles(img, owner, rng)
    if rng.random() < hands:
        _hand(img, owner, rng)
    truths: list[IndexTruth] = []
    for k, (face, pose) in enumerate(zip(faces, poses, strict=True)):
        for a in face.anchors:
            x, y = pose @ np.array([a.x, a.y, 1.0])
            u = pose[:, :2] @ np.array([a.ux, a.uy])
            scale = float(np.linalg.norm(u))
            ux, uy = u / scale
            d = a.d * scale
            visible, seen = _visible(owner, k, x, y, ux, uy, d)
            truths.append(
                IndexTruth(
                    codes[k], k, float(x), float(y), float(ux), float(uy), float(d), visible, seen
                )
            )
    quads = [
        (pose @ np.array([[0, 0, 1], [FACE_W, 0, 1], [FACE_W, FACE_H, 1], [0, FACE_H, 1]]).T).T
        for pose in poses
    ]
    if hrng is not None:
        img = _hard_light(img, conditions, hrng)
    img, truths, quads = _camera(img, truths, quads, rng)
    if hrng is not None and "motion-blur" in conditions:
        img = _motion_blur(img, hrng)
    return Scene(img, tuple(truths), tuple(codes), tuple(quads), tuple(conditions))


#: The hard conditions ``make_scene(hard=...)`` draws from.
HARD = ("pale-table", "hard-shadow", "glare", "colour-cast", "motion-blur")


def _pale(img: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """A white or pale table: the table's texture kept, its level brought near card paper."""
    level = rng.uniform(170, 235)
    tint = rng.uniform(0.9, 1.05, 3)
    f = img.astype(np.float32)
    f = level * tint + (f - f.mean(axis=(0, 1))) * rng.uniform(0.2, 0.6)
    return np.clip(f, 0, 255).astype(np.uint8)


def _hard_light(
    img: NDArray[np.uint8], conditions: list[str], rng: np.random.Generator
) -> NDArray[np.uint8]:
    """A hard shadow (a head, an arm, a lamp's shade) across part of the table, glare (a
    lamp reflected in the cards' coating), a strong colour cast (tungsten, a green
    cloth's bounce, a low-cost camera's white balance)."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    if "hard-shadow" in conditions:
        mask = np.zeros((h, w), np.float32)
        # a band or a blob with a sharp edge, dark to half the light or less
        if rng.random() < 0.5:
            a = rng.uniform(0, np.pi)
            nx, ny = np.cos(a), np.sin(a)
            off = rng.uniform(0.3, 0.7) * (abs(nx) * w + abs(ny) * h)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            mask[(xx * abs(nx) + yy * abs(ny)) > off] = 1.0
        else:
            centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            axes = (int(rng.uniform(0.2, 0.5) * w), int(rng.uniform(0.15, 0.4) * h))
            cv2.ellipse(mask, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        soft = rng.uniform(0.5, 4.0)
        mask = cv2.GaussianBlur(mask, (0, 0), soft)
        depth = rng.uniform(0.35, 0.65)  # the shadowed light: 35 to 65 % gone
        f *= (1 - depth * mask)[:, :, None]
    if "glare" in conditions:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.04, 0.15) * min(h, w)
        spot = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))
        f += (rng.uniform(80, 200) * spot)[:, :, None]
    if "colour-cast" in conditions:
        casts = (
            (0.6, 0.85, 1.25),  # tungsten (BGR): warm, little blue
            (0.85, 1.2, 0.8),  # green bounce
            (1.35, 1.0, 0.7),  # a cold, blue white balance
        )
        f *= np.array(casts[int(rng.integers(0, len(casts)))], np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def _motion_blur(img: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """The camera or the table shaken: a straight streak of a few pixels."""
    n = int(rng.integers(3, 8))
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1.0 / n
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, rot, (n, n))
    kernel /= max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel)


def _visible(
    owner: NDArray[np.int16], k: int, x: float, y: float, ux: float, uy: float, d: float
) -> tuple[bool, float]:
    """Whether most of the rank and suit region is this card's own paper, and the
    share of the worse covered glyph's region (rank or suit) that is."""
    h, w = owner.shape
    vx, vy = uy, -ux
    hits = total = 0
    glyph = {-1: [0, 0], 1: [0, 0]}  # rank (before the middle), suit (after): hits, total
    for t in np.linspace(-0.9, 0.9, 7):
        for j, s in enumerate(np.linspace(-0.4, 0.4, 5)):
            px, py = x + t * d * ux + s * d * vx, y + t * d * uy + s * d * vy
            mine = 0 <= px < w and 0 <= py < h and owner[int(py), int(px)] == k
            if j % 2 == 0:  # visible: judged on three columns
                total += 1
                hits += mine
            if abs(t) > 0.1:
                glyph[1 if t > 0 else -1][0] += mine
                glyph[1 if t > 0 else -1][1] += 1
    seen = min(a / b for a, b in glyph.values())
    return hits >= 0.85 * total, float(seen)


def _camera(
    img: NDArray[np.uint8],
    truths: list[IndexTruth],
    quads: list[NDArray[np.float64]],
    rng: np.random.Generator,
) -> tuple[NDArray[np.uint8], list[IndexTruth], tuple[NDArray[np.float64], ...]]:
    """Perspective, light, colour cast, blur, noise, JPEG."""
    h, w = img.shape[:2]
    j = 0.06 * min(h, w)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(-j, j, size=(4, 2)).astype(np.float32)
    persp = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, persp, (w, h), borderMode=cv2.BORDER_REFLECT)

    def move(x: float, y: float) -> tuple[float, float]:
        p = persp @ np.array([x, y, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    moved = []
    for t in truths:
        x, y = move(t.x, t.y)
        x2, y2 = move(t.x + t.ux * t.d, t.y + t.uy * t.d)
        d = float(np.hypot(x2 - x, y2 - y))
        # an index the perspective pushes out of the frame is not visible, however open
        inside = 0.8 * d <= x <= w - 0.8 * d and 0.8 * d <= y <= h - 0.8 * d
        moved.append(
            IndexTruth(
                t.code, t.card, x, y, (x2 - x) / d, (y2 - y) / d, d, t.visible and inside, t.seen
            )
        )
    new_quads = tuple(np.array([move(float(a), float(b)) for a, b in q]) for q in quads)
    f = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + rng.uniform(0, 0.35) * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    f *= light[:, :, None] * rng.uniform(0.7, 1.15)
    cast = np.array([rng.uniform(1.0, 1.25), rng.uniform(0.95, 1.05), rng.uniform(0.8, 1.0)])
    if rng.random() < 0.5:
        f *= cast  # the Pi camera's blue cast (BGR)
    f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.8, 1.25)
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    f += rng.normal(0, rng.uniform(0, 7), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    quality = int(rng.integers(40, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, moved, new_quads


#: How a single card may be photographed (:func:`card_photo`): the frame (width,
#: height), the share of its shorter side the card's longer side spans, the most the
#: card leans away from the camera (the far edge that much shorter), and the light.
PHOTO_VIEWS: dict[str, tuple[tuple[int, int], float, float, str]] = {
    "phone, filling the frame": ((1700, 2300), 0.95, 0.1, "daylight"),
    "phone, at arm's length, leaning": ((4000, 3000), 0.45, 0.35, "lamp"),
    "Pi camera, blue cast": ((640, 850), 0.75, 0.15, "blue"),
    "webcam, 320 x 240, dim": ((320, 240), 0.9, 0.1, "dim"),
}


def card_photo(
    code: str,
    rng: np.random.Generator,
    view: str,
    *,
    fonts: str = "dejavu",
    deck: str = "mixed",
    face: Face | None = None,
) -> NDArray[np.uint8]:
    """A photograph of one card ``code`` alone on a table, as :data:`PHOTO_VIEWS`
    ``view`` takes it: the card's long side along the frame's, either way up, turned
    a little, leaning, in that light, with sensor noise and JPEG compression. The
    scale is the picture's own: nothing says how large the index is (``kiebitz
    vision identify`` searches for it). ``face``: the card's face as another pack
    prints it (``FACE_W`` x ``FACE_H``), in place of a rendered one."""
    (w, h), fill, lean, light = PHOTO_VIEWS[view]
    if face is None:
        face = render_face(code, rng, style=deck, fonts=fonts)
    elif face.code != code:
        raise ValueError(f"the face given is {face.code}'s, not {code}'s")
    table = _texture(h, w, rng)
    k = fill * min(w, h) / FACE_H
    # the card's long side along the frame's, either way up, turned a little
    angle = rng.uniform(-0.2, 0.2) + np.pi * int(rng.integers(0, 2)) + (np.pi / 2 if w > h else 0)
    c, s = np.cos(angle), np.sin(angle)
    far = rng.uniform(0, lean)  # how much shorter the far edge looks
    src = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])
    dst = []
    for x, y in src - (FACE_W / 2, FACE_H / 2):
        shrink = 1 - far * (0.5 - y / FACE_H)  # the top edge leans away
        x, y = x * shrink * k, y * k * (1 - far / 2)
        dst.append((w / 2 + c * x - s * y, h / 2 + s * x + c * y))
    m = cv2.getPerspectiveTransform(src, np.float32(dst))
    card = cv2.warpPerspective(face.image, m, (w, h), flags=cv2.INTER_CUBIC)
    alpha = cv2.warpPerspective(face.alpha, m, (w, h)).astype(np.float32)[..., None] / 255
    img = card * alpha + table * (1 - alpha)
    ramp = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.95, 1.1), w, dtype=np.float32)
    img *= ramp[None, :, None]
    if light == "lamp":  # warm tungsten
        img *= np.float32([0.6, 0.85, 1.05])
    elif light == "blue":  # the Pi camera's cast
        img *= np.float32([1.1, 0.95, 0.75])
    elif light == "dim":
        img *= 0.4
    img += rng.normal(0, 6 if light == "dim" else 3, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


#: Frames that are no card table (:func:`clutter`), for bounded work: uniform noise,
#: a page of small dense print, a cloth of navy dots on white (every dot a blob ringed
#: by paper), a cloth of small flowers in many colours on cream.
CLUTTER = ("noise", "print", "dots", "flowers")


def clutter(
    kind: str, rng: np.random.Generator, size: tuple[int, int] = (1280, 720)
) -> NDArray[np.uint8]:
    """A frame of ``size`` (width, height) that is no card table, of the kind
    ``kind`` (:data:`CLUTTER`)."""
    w, h = size
    if kind == "noise":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    if kind == "print":
        page = np.full((h, w, 3), 235, np.uint8)
        letters = list("abcdefghijklmnopqrstuvwxyz0123456789AKQJ  ")
        for y in range(14, h, 14):
            line = "".join(rng.choice(letters) for _ in range(w // 7))
            cv2.putText(page, line, (2, y), cv2.FONT_HERSHEY_PLAIN, 0.8, (20, 20, 20), 1)
        return page
    if kind == "dots":  # 12 px, a staggered 24 px grid
        dots = np.full((h, w, 3), 240, np.uint8)
        for i, cy in enumerate(range(10, h, 24)):
            for cx in range(10 + (i % 2) * 12, w, 24):
                cv2.circle(dots, (cx, cy), 6, (90, 40, 20), -1, cv2.LINE_AA)
        return dots
    if kind == "flowers":
        flowers = np.full((h, w, 3), (215, 235, 245), np.uint8)
        for _ in range(1500 * w * h // (1280 * 720)):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            axes = (int(rng.integers(3, 9)), int(rng.integers(2, 6)))
            ink = tuple(int(v) for v in rng.integers(20, 160, 3))
            cv2.ellipse(flowers, centre, axes, float(rng.integers(0, 180)), 0, 360, ink, -1)
        return flowers
    raise ValueError(f"no clutter of the kind {kind!r}: one of {', '.join(CLUTTER)}")


def shaded(image: NDArray[np.uint8], light: float, angle: float | None = 0.0) -> NDArray[np.uint8]:
    """``image`` (a photograph) under light it was not taken in: beyond a straight,
    sharp edge through its centre, ``light`` of the light (a hard shadow: a head, an
    arm, a lamp's shade). The edge's normal points ``angle`` degrees clockwise from
    the right: 0 shades the right half, 45 the lower right. ``angle=None`` dims
    the whole picture (an underexposed photograph, a dim room)."""
    if angle is None:
        return cv2.convertScaleAbs(image, alpha=light)
    h, w = image.shape[:2]
    a = np.deg2rad(angle)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = (xx - (w - 1) / 2) * np.cos(a) + (yy - (h - 1) / 2) * np.sin(a)
    # a sharp edge, a pixel or two wide, as a hard shadow photographs
    factor = 1.0 - (1.0 - light) * np.clip(beyond / 2.0 + 0.5, 0.0, 1.0)
    return np.clip(image * factor[:, :, None], 0, 255).astype(np.uint8)


# a bluish shade (B, G, R gains): a shadow is lit by the room, not by the lamp
SHADE_TINT = (1.15, 1.0, 0.85)


def card_on_felt(
    code: str,
    rng: np.random.Generator,
    *,
    pack: np.random.Generator | None = None,
    fonts: str = "unseen",
    shade: float = 1.0,
    size: int = 1400,
) -> NDArray[np.uint8]:
    """One card ``code`` lying square on a dark green felt, as a calibrated camera at
    the recommended 2.36 px/mm sees it (63 mm across: 149 pixels), in a ``size``
    square frame; the whole at ``shade`` of the light, bluish (:data:`SHADE_TINT`)
    where it is shaded. Its indices lie some 8 mm from two edges, so a third to a half
    of a window round them is the dark felt. ``pack``: the pack's own looks
    (:func:`~vision.faces.render_face`)."""
    face = render_face(code, rng, pack=pack, fonts=fonts)
    k = 149 / face.image.shape[1]
    card = cv2.resize(face.image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(face.alpha, (card.shape[1], card.shape[0]))[..., None] / 255.0
    felt = np.full((size, size, 3), (40, 105, 35), np.uint8)
    y, x = size * 3 // 7, size * 31 // 70
    spot = felt[y : y + card.shape[0], x : x + card.shape[1]]
    spot[:] = (card * alpha + spot * (1 - alpha)).astype(np.uint8)
    if shade == 1.0:
        return felt
    gains = np.float32(SHADE_TINT) * np.float32(shade)
    return np.clip(felt * gains, 0, 255).astype(np.uint8)


def smeared(image: NDArray[np.uint8], length: float, angle: float) -> NDArray[np.uint8]:
    """``image`` (a photograph) as a camera moving while it was taken draws it: the
    mean of the picture shifted along a straight way of ``length`` pixels at
    ``angle`` degrees clockwise from the right, four shifts to a pixel (a shaking
    hand, a photo taken in passing)."""
    a = np.deg2rad(angle)
    h, w = image.shape[:2]
    acc = np.zeros(image.shape, np.float32)
    shifts = np.linspace(-(length - 1) / 2, (length - 1) / 2, max(2, int(4 * length)))
    for t in shifts:
        move = np.float32([[1, 0, t * np.cos(a)], [0, 1, t * np.sin(a)]])
        acc += cv2.warpAffine(
            image, move, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )
    return np.clip(np.rint(acc / len(shifts)), 0, 255).astype(np.uint8)


def write_scene(scene: Scene, path: Path) -> None:  # pragma: no cover - a debugging aid
    vis = scene.image.copy()
    for t in scene.indices:
        colour = (0, 255, 0) if t.visible else (0, 0, 255)
        cv2.circle(vis, (int(t.x), int(t.y)), 3, colour, -1)
        cv2.putText(vis, t.code, (int(t.x) + 4, int(t.y)), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour)
    cv2.imwrite(str(path), vis)
