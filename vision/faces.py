"""Card faces for synthetic training scenes: rendered from free fonts, or real flattened photos.

Every face comes with its *index anchors*: for each corner index (rank above
suit, read upright), the midpoint between the rank glyph's centre and the suit
pip's centre, the unit vector from rank to suit ("down" on the card) and their
distance ``d``. The recogniser proposes exactly such rank/suit pairs, so the
anchors say which proposals are right.

Rendered faces use DejaVu fonts (Bitstream Vera / public-domain licence; Debian
``fonts-dejavu-core`` and ``fonts-dejavu-extra``) for ranks and suit symbols,
with the index layout, pips and court panels drawn here. Real faces come from
the flattened single-card photographs in ``../shared/data/cards/bidly/single``
(MIT), whose anchors are found on the photo itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

__all__ = ["DECK_STYLES", "FONT_DIRS", "Anchor", "Face", "photo_faces", "render_face"]

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation2"),
    Path("/usr/share/fonts/truetype/freefont"),
    Path("/usr/share/fonts/opentype/urw-base35"),
    Path("/usr/share/fonts/truetype"),
)
RANK_FONTS = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSans.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerifCondensed.ttf",
)
SUIT_FONT = "DejaVuSans.ttf"
#: Font sets a face's rank and suit glyphs are drawn from (``render_face(fonts=)``):
#: ``dejavu``, what the renderer always drew (the bench's synthetic sets, the
#: bundled videos); ``training``, DejaVu with the Liberation and GNU FreeFont
#: faces (Debian ``fonts-liberation2``, ``fonts-freefont-ttf``); ``unseen``, the
#: URW base 35 faces (``fonts-urw-base35``: Helvetica, Times, Century
#: Schoolbook, Palatino, Bookman, Avant Garde and Courier alikes) with
#: Liberation's suits, which training never meets: a bench set of index fonts
#: the model has not seen.
FONT_SETS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "dejavu": (RANK_FONTS, (SUIT_FONT,)),
    "training": (
        (
            *RANK_FONTS,
            "LiberationSans-Bold.ttf",
            "LiberationSerif-Bold.ttf",
            "LiberationMono-Bold.ttf",
            "LiberationSans-Regular.ttf",
            "LiberationSerif-Regular.ttf",
            "FreeSansBold.ttf",
            "FreeSerifBold.ttf",
            "FreeMonoBold.ttf",
            "FreeSerif.ttf",
        ),
        (SUIT_FONT, "FreeSerif.ttf", "FreeSans.ttf"),
    ),
    "unseen": (
        (
            "NimbusSans-Bold.otf",
            "NimbusRoman-Bold.otf",
            "NimbusSansNarrow-Bold.otf",
            "C059-Bold.otf",
            "P052-Bold.otf",
            "URWBookman-Demi.otf",
            "URWGothic-Demi.otf",
            "NimbusMonoPS-Bold.otf",
        ),
        ("LiberationSans-Regular.ttf",),
    ),
}
SUIT_CHARS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {"A": "A", "J": "J", "Q": "Q", "K": "K", "10": "10"}
#: The German tournament Skat deck (French suits, four colours, the DSkV's pack):
#: Bube, Dame, König, Ass print B, D, K, A; spades green, diamonds orange.
GERMAN_RANK_TEXT = {"A": "A", "J": "B", "Q": "D", "K": "K", "10": "10"}
GERMAN_INK = {  # BGR, each varied a little per card
    "S": (40, 130, 20),  # green
    "H": (30, 20, 200),  # red
    "D": (10, 130, 245),  # orange
    "C": (25, 25, 25),  # black
}
#: Deck styles render_face draws from, and how often: the classic two-colour French
#: deck, and the German four-colour tournament deck.
DECK_STYLES = (("french", 0.8), ("german4", 0.2))

W, H = 250, 350  # face size in pixels (a poker card is 63 x 88 mm)

# Standard pip positions (fractions of the pip area) for 2..10.
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}


@dataclass(frozen=True)
class Anchor:
    """One corner index: midpoint of rank and suit centres, unit "down" vector, their distance."""

    x: float
    y: float
    ux: float
    uy: float
    d: float


@dataclass(frozen=True)
class Face:
    """A card face: BGR pixels, an alpha mask (rounded corners) and its index anchors."""

    code: str
    image: NDArray[np.uint8]
    alpha: NDArray[np.uint8]
    anchors: tuple[Anchor, ...]


@cache
def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    for folder in FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    folders = ", ".join(map(str, FONT_DIRS))
    raise FileNotFoundError(f"font {name} not found in {folders}: {_INSTALL}")


_INSTALL = (
    "Debian's fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-freefont-ttf "
    "fonts-urw-base35 (`make test` installs them)"
)


def available_rank_fonts(fonts: str = "dejavu") -> list[str]:
    """The rank fonts of the set ``fonts`` (:data:`FONT_SETS`) that are installed."""
    return [n for n in FONT_SETS[fonts][0] if any((d / n).exists() for d in FONT_DIRS)]


def _rounded_mask(radius: int) -> NDArray[np.uint8]:
    mask = np.zeros((H, W), np.uint8)
    cv2.rectangle(mask, (radius, 0), (W - radius, H), 255, -1)
    cv2.rectangle(mask, (0, radius), (W, H - radius), 255, -1)
    for cx, cy in (
        (radius, radius),
        (W - radius, radius),
        (radius, H - radius),
        (W - radius, H - radius),
    ):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask


def _ink(suit: str, rng: np.random.Generator) -> tuple[int, int, int]:
    if suit in "HD":
        return (int(rng.integers(170, 235)), int(rng.integers(0, 45)), int(rng.integers(10, 60)))
    k = int(rng.integers(0, 45))
    return (k, k, k)


def _text_box(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont
) -> tuple[int, ...]:
    return tuple(int(v) for v in draw.textbbox((0, 0), text, font=font))


def _draw_centred(
    draw: ImageDraw.ImageDraw,
    text: str,
    font: ImageFont.FreeTypeFont,
    centre: tuple[float, float],
    fill: tuple[int, int, int],
) -> None:
    x0, y0, x1, y1 = _text_box(draw, text, font)
    draw.text((centre[0] - (x0 + x1) / 2, centre[1] - (y0 + y1) / 2), text, font=font, fill=fill)


def render_face(
    code: str,
    rng: np.random.Generator,
    style: str = "french",
    pack: np.random.Generator | None = None,
    fonts: str = "dejavu",
) -> Face:
    """Render one card face (``code`` like ``10H``) in a random plausible style of the
    deck ``style``: ``french`` (the classic two colours), ``german4`` (the German
    four-colour tournament deck), or ``mixed`` (each face draws one from
    :data:`DECK_STYLES`). ``code`` is always the card's meaning: a German jack prints
    B and is rendered for ``JS``. ``pack``: where the pack's own style is drawn from
    (paper, index font, size and place): give every card of one pack a generator
    seeded alike and they are printed alike; without it, ``rng`` draws it all.
    ``fonts``: the set (:data:`FONT_SETS`) the rank and suit glyphs are drawn from;
    with ``dejavu`` a face is exactly what it always was for its generators."""
    sr = pack if pack is not None else rng
    if style == "mixed":
        names = [n for n, _ in DECK_STYLES]
        weights = np.array([w for _, w in DECK_STYLES])
        style = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    rank, suit = code[:-1], code[-1]
    paper = tuple(int(v) for v in sr.integers(225, 256, size=3))
    img = Image.new("RGB", (W, H), paper)
    draw = ImageDraw.Draw(img)
    if style == "german4":
        b, g, r = (int(np.clip(v + rng.integers(-20, 21), 0, 255)) for v in GERMAN_INK[suit])
        ink = (r, g, b)  # PIL draws RGB
        rank_text = GERMAN_RANK_TEXT
    else:
        ink = _ink(suit, rng)
        rank_text = RANK_TEXT
    names = available_rank_fonts(fonts)
    if not names:
        raise FileNotFoundError(f"no font of the set {fonts!r} is installed: " + _INSTALL)
    rank_font_name = names[int(sr.integers(0, len(names)))]
    rank_size = int(sr.integers(30, 46))
    rank_font = _font(rank_font_name, rank_size)
    suit_size = int(rank_size * sr.uniform(0.65, 0.95))
    suits = FONT_SETS[fonts][1]
    suit_name = suits[0] if len(suits) == 1 else suits[int(sr.integers(0, len(suits)))]
    suit_font = _font(suit_name, suit_size)
    text = rank_text.get(rank, rank)
    squeeze = sr.uniform(0.7, 1.0)
    # the index, drawn on its own and squeezed sideways like a card printer's condensed face
    box = _text_box(draw, text, rank_font)
    gw, gh = box[2] - box[0], box[3] - box[1]
    tile = Image.new("RGB", (gw + 8, gh + 8), paper)
    ImageDraw.Draw(tile).text((4 - box[0], 4 - box[1]), text, font=rank_font, fill=ink)
    tile = tile.resize((max(4, round((gw + 8) * squeeze)), gh + 8), Image.Resampling.LANCZOS)
    margin_x = sr.uniform(5, 14)
    top = sr.uniform(6, 16)
    rank_cx = margin_x + tile.width / 2
    rank_cy = top + tile.height / 2
    gap = sr.uniform(2, 9)
    sbox = _text_box(draw, SUIT_CHARS[suit], suit_font)
    sh = sbox[3] - sbox[1]
    suit_cx = rank_cx + sr.uniform(-2, 2)
    suit_cy = rank_cy + (gh / 2) + gap + sh / 2
    anchors = []
    for flip in (False, True):
        corner = img if not flip else img.rotate(180)
        corner.paste(tile, (round(rank_cx - tile.width / 2), round(rank_cy - tile.height / 2)))
        _draw_centred(ImageDraw.Draw(corner), SUIT_CHARS[suit], suit_font, (suit_cx, suit_cy), ink)
        img = corner if not flip else corner.rotate(180)
        d = float(np.hypot(suit_cx - rank_cx, suit_cy - rank_cy))
        ux, uy = (suit_cx - rank_cx) / d, (suit_cy - rank_cy) / d
        mx, my = (rank_cx + suit_cx) / 2, (rank_cy + suit_cy) / 2
        if flip:
            mx, my, ux, uy = W - mx, H - my, -ux, -uy
        anchors.append(Anchor(mx, my, ux, uy, d))
    draw = ImageDraw.Draw(img)
    letter_font = RANK_FONTS[0] if fonts == "dejavu" else rank_font_name
    _draw_centre(draw, rank, suit, ink, rng, text, suit_name, letter_font)
    face = cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)
    radius = int(rng.integers(8, 20))
    if rng.random() < 0.6:  # a thin printed border line
        grey = int(rng.integers(120, 200))
        cv2.rectangle(face, (3, 3), (W - 4, H - 4), (grey, grey, grey), 1, cv2.LINE_AA)
    return Face(code, face, _rounded_mask(radius), tuple(anchors))


def _draw_centre(
    draw: ImageDraw.ImageDraw,
    rank: str,
    suit: str,
    ink: tuple[int, int, int],
    rng: np.random.Generator,
    letter_text: str | None = None,
    suit_font: str = SUIT_FONT,
    letter_font: str = RANK_FONTS[0],
) -> None:
    """Pips for number cards, one large pip for the ace, a busy panel for court cards
    (with ``letter_text``, the deck's letter for the rank, in the middle); the pips in
    ``suit_font``, the letter in ``letter_font``."""
    x0, y0, x1, y1 = 62, 48, W - 62, H - 48
    if rank == "A":
        size = int(rng.integers(70, 130))
        _draw_centred(draw, SUIT_CHARS[suit], _font(suit_font, size), (W / 2, H / 2), ink)
        return
    if rank in ("J", "Q", "K"):
        draw.rectangle((x0 - 8, y0 - 4, x1 + 8, y1 + 4), outline=ink, width=2)
        palette = [ink, (230, 190, 30), (30, 60, 160), (20, 20, 20), (200, 30, 40)]
        for _ in range(int(rng.integers(25, 60))):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            r = rng.uniform(4, 22)
            colour = palette[int(rng.integers(0, len(palette)))]
            if rng.random() < 0.5:
                draw.ellipse((cx - r, cy - r * rng.uniform(0.4, 1.5), cx + r, cy + r), fill=colour)
            else:
                pts = [(cx + rng.uniform(-r, r), cy + rng.uniform(-r, r)) for _ in range(4)]
                draw.polygon(pts, fill=colour)
        letter = _font(letter_font, int(rng.integers(40, 70)))
        _draw_centred(draw, letter_text or rank, letter, (W / 2, H / 2), ink)
        return
    n = int(rank)
    pip_font = _font(suit_font, int(rng.integers(40, 56)))
    for fx, fy in _PIPS[n]:
        cx = x0 + 10 + fx * (x1 - x0 - 20)
        cy = y0 + 18 + fy * (y1 - y0 - 36)
        _draw_centred(draw, SUIT_CHARS[suit], pip_font, (cx, cy), ink)


# -- real faces ------------------------------------------------------------------------

# Where the bidly deck prints its index on a 250 x 350 face: rank and suit centres.
_PHOTO_RANK = (24.0, 38.0)
_PHOTO_SUIT = (25.0, 72.0)


def _photo_index(view: NDArray[np.uint8]) -> tuple[float, float, float, float]:
    """Rank and suit centres of the top-left index of a flattened photo: the deck's
    printed position, refined by the ink found there."""
    from vision.proposals import find_components

    comps = find_components(view[: int(H * 0.3), : int(W * 0.2)])
    rx, ry = _PHOTO_RANK
    sx, sy = _PHOTO_SUIT
    if len(comps):
        near_suit = np.hypot(comps.cx - sx, comps.cy - sy)
        j = int(np.argmin(near_suit))
        if near_suit[j] < 10 and 10 <= comps.size[j] <= 32:
            sx, sy = float(comps.cx[j]), float(comps.cy[j])
        glyph = (comps.cy > 18) & (comps.cy < 55) & (comps.cx < 45) & (comps.size >= 6)
        if glyph.any():
            x0 = float((comps.cx - comps.w / 2)[glyph].min())
            x1 = float((comps.cx + comps.w / 2)[glyph].max())
            y0 = float((comps.cy - comps.h / 2)[glyph].min())
            y1 = float((comps.cy + comps.h / 2)[glyph].max())
            if abs((x0 + x1) / 2 - rx) < 10 and abs((y0 + y1) / 2 - ry) < 10:
                rx, ry = (x0 + x1) / 2, (y0 + y1) / 2
    return rx, ry, sx, sy


def photo_faces(folder: Path) -> list[Face]:
    """The flattened single-card photos (``<rank><suit>.jpg``), resized to the face size,
    with anchors at the deck's index positions, refined by the ink found there."""
    faces = []
    for path in sorted(folder.glob("*.jpg")):
        stem = path.stem.upper()
        code = stem[:-1] + stem[-1]
        image = cv2.imread(str(path))
        if image is None:
            continue
        image = cv2.resize(image, (W, H), interpolation=cv2.INTER_AREA)
        anchors = []
        for flip in (False, True):
            view = image if not flip else cv2.rotate(image, cv2.ROTATE_180)
            rx, ry, sx, sy = _photo_index(view)
            d = float(np.hypot(sx - rx, sy - ry))
            ux, uy = (sx - rx) / d, (sy - ry) / d
            mx, my = (rx + sx) / 2, (ry + sy) / 2
            if flip:
                mx, my, ux, uy = W - mx, H - my, -ux, -uy
            anchors.append(Anchor(mx, my, ux, uy, d))
        faces.append(Face(code, image, _rounded_mask(12), tuple(anchors)))
    return faces
