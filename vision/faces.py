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

__all__ = [
    "BACKS",
    "DECK_STYLES",
    "FONT_DIRS",
    "Anchor",
    "Face",
    "photo_faces",
    "render_back",
    "render_face",
]

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation2"),
    Path("/usr/share/fonts/truetype/freefont"),
    Path("/usr/share/fonts/opentype/urw-base35"),
    Path("/usr/share/fonts/truetype"),
    Path("/usr/share/fonts"),
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
#: ``wide``: the training set and 24 more faces of other designs that Debian packs
#: (Roboto, Open Sans, Go, Cantarell, Comfortaa, Andika, Caladea, Carlito, Linux
#: Libertine and Biolinum, EB Garamond, Gentium, Gillius, Courier Prime, Hack,
#: STIX), so that a glyph is learnt from more shapes of it: a URW Q read as a 9
#: and a 3 as an 8 where no training font drew them so. Paths under
#: /usr/share/fonts; the URW faces stay out (the bench's unseen set).
FONT_SETS["wide"] = (
    (
        *FONT_SETS["training"][0],
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
        "truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
        "truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
        "truetype/open-sans/OpenSans-Bold.ttf",
        "truetype/open-sans/OpenSans-ExtraBold.ttf",
        "fonts-go/Go-Bold.ttf",
        "fonts-go/Go-Medium.ttf",
        "opentype/cantarell/Cantarell-Bold.otf",
        "opentype/cantarell/Cantarell-ExtraBold.otf",
        "truetype/comfortaa/Comfortaa-Bold.ttf",
        "truetype/andika/Andika-Bold.ttf",
        "truetype/crosextra/Caladea-Bold.ttf",
        "truetype/crosextra/Carlito-Bold.ttf",
        "opentype/linux-libertine/LinLibertine_RB.otf",
        "opentype/linux-libertine/LinBiolinum_RB.otf",
        "opentype/ebgaramond/EBGaramond12-Bold.otf",
        "truetype/gentium/Gentium-R.ttf",
        "truetype/adf/GilliusADF-Bold.otf",
        "truetype/adf/GilliusADF-BoldCond.otf",
        "truetype/adf/GilliusADFNo2-Bold.otf",
        "opentype/courier-prime/Courier Prime Bold.otf",
        "truetype/hack/Hack-Bold.ttf",
        "opentype/stix-word/STIX-Bold.otf",
        "opentype/stix/STIXGeneral-Bold.otf",
    ),
    (
        *FONT_SETS["training"][1],
        "opentype/stix/STIXGeneral-Regular.otf",
        "truetype/ancient-scripts/Symbola_hint.ttf",
    ),
)
#: Sets only training needs (`make test` does not install them; training asks for
#: every font of one, :func:`missing_fonts`).
TRAINING_ONLY = frozenset({"wide"})
#: The Debian packages of the ``wide`` set's other faces (training only).
WIDE_PACKAGES = (
    "fonts-roboto-unhinted",
    "fonts-open-sans",
    "fonts-go",
    "fonts-cantarell",
    "fonts-comfortaa",
    "fonts-sil-andika",
    "fonts-crosextra-caladea",
    "fonts-crosextra-carlito",
    "fonts-linuxlibertine",
    "fonts-ebgaramond",
    "fonts-sil-gentium",
    "fonts-adf-gillius",
    "fonts-courier-prime",
    "fonts-hack",
    "fonts-stix",
    "fonts-symbola",
)
#: ``varied``: the training set's fonts with half the packs' glyphs reshaped
#: (:class:`GlyphWarp`, :func:`_warp_glyph`: strokes made bolder or thinner, the
#: glyph leaning, wider or narrower), so that a model may learn a 7 by its shape
#: rather than by a font's. One reshaping a pack given ``render_face(pack=)``; the
#: training scenes draw each face alone, so there it is half the cards. Tried on
#: 2026-12-02 and not shipped (docs/model.md).
FONT_SETS["varied"] = FONT_SETS["training"]
WARPED_SETS = frozenset({"varied"})
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
PIP_PLACES: dict[int, list[tuple[float, float]]] = {
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
    "fonts-urw-base35 (`make test` installs them); the `wide` set, only for training "
    f"the second network, also {' '.join(WIDE_PACKAGES)}"
)


def _installed(name: str) -> bool:
    return any((d / name).exists() for d in FONT_DIRS)


def missing_fonts(fonts: str) -> list[str]:
    """The rank and suit fonts of the set ``fonts`` that are not installed."""
    ranks, suits = FONT_SETS[fonts]
    return [n for n in (*ranks, *suits) if not _installed(n)]


def whole_font_set(fonts: str) -> None:
    """Raise ``FileNotFoundError`` naming every font of the set ``fonts`` that is not
    installed, and the packages that hold them (a training-only set is trained on
    whole or not at all)."""
    missing = missing_fonts(fonts)
    if missing:
        raise FileNotFoundError(
            f"font set {fonts!r} lacks {', '.join(missing)}: install {_INSTALL}"
        )


def available_rank_fonts(fonts: str = "dejavu") -> list[str]:
    """The rank fonts of the set ``fonts`` (:data:`FONT_SETS`) that are installed."""
    return [n for n in FONT_SETS[fonts][0] if _installed(n)]


# The backs a table's face-down cards show (render_back): a dark lattice with no ink on
# paper; a fine blue ornament printed on white paper (ink on paper, as many Skat and
# bridge backs); a club's or a sponsor's back: its name and year in letters of an
# index's size and the four suits in its corners, on white paper.
BACKS = ("lattice", "ornate", "advert")


def render_back(design: str = "lattice") -> Face:
    """A card back of one of :data:`BACKS`, with no index anchors (it is no card)."""
    if design not in BACKS:
        raise ValueError(f"back: expected one of {', '.join(BACKS)}, got {design!r}")
    mask = _rounded_mask(14)
    if design == "lattice":  # dark red with a lighter lattice and a white rim
        img = np.full((H, W, 3), (40, 30, 150), np.uint8)
        for k in range(-H, W + H, 18):
            cv2.line(img, (k, 0), (k + H, H), (70, 60, 180), 3, cv2.LINE_AA)
            cv2.line(img, (k, 0), (k - H, H), (70, 60, 180), 3, cv2.LINE_AA)
        cv2.rectangle(img, (0, 0), (W - 1, H - 1), (235, 235, 235), 14)
        return Face("back", img, mask, ())
    img = np.full((H, W, 3), (232, 236, 238), np.uint8)
    if design == "ornate":  # rosettes in a lattice of fine lines, blue on white
        ink = (120, 50, 25)
        cv2.rectangle(img, (12, 12), (W - 13, H - 13), ink, 2, cv2.LINE_AA)
        cv2.rectangle(img, (17, 17), (W - 18, H - 18), ink, 1, cv2.LINE_AA)
        inner = np.zeros((H, W), np.uint8)  # where the ornament's lines run
        for y in range(10, H, 26):
            for x in range(10 + (13 if (y // 26) % 2 else 0), W, 26):
                cv2.circle(inner, (x, y), 8, 1, 1, cv2.LINE_AA)
                cv2.ellipse(inner, (x, y), (3, 8), 0, 0, 360, 1, 1, cv2.LINE_AA)
                cv2.ellipse(inner, (x, y), (8, 3), 0, 0, 360, 1, 1, cv2.LINE_AA)
        for k in range(-H, W + H, 26):
            cv2.line(inner, (k, 0), (k + H, H), 1, 1, cv2.LINE_AA)
            cv2.line(inner, (k, 0), (k - H, H), 1, 1, cv2.LINE_AA)
        inner[:21], inner[H - 21 :], inner[:, :21], inner[:, W - 21 :] = 0, 0, 0, 0
        img[inner > 0] = ink
        return Face("back", img, mask, ())
    # advert: a club's name and year in the middle, the four suits in the corners
    ink, red = (110, 40, 20), (40, 30, 200)
    cv2.rectangle(img, (10, 10), (W - 11, H - 11), red, 3, cv2.LINE_AA)
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    rgb = (ink[2], ink[1], ink[0])
    letters = _font("DejaVuSans-Bold.ttf", 30)
    for text, y in (("SKATCLUB", 120), ("KIEBITZ", 165), ("1987", 215)):
        _draw_centred(
            draw, text, letters if text != "1987" else _font("DejaVuSans.ttf", 28), (W / 2, y), rgb
        )
    suits = _font(SUIT_FONT, 24)
    for k, (x, y) in enumerate(((32, 34), (W - 32, 34), (32, H - 34), (W - 32, H - 34))):
        suit = "SHDC"[k]
        colour = (red[2], red[1], red[0]) if suit in "HD" else rgb
        _draw_centred(draw, SUIT_CHARS[suit], suits, (x, y), colour)
    img = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)
    return Face("back", img, mask, ())


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


@dataclass(frozen=True)
class GlyphWarp:
    """How one pack's index glyphs differ from the font's (``varied`` font set):
    ``weight`` face pixels added to every stroke's edge (negative: thinner),
    ``shear`` the lean (x shift per pixel of height), ``stretch`` the suit's width
    factor (the rank's is the renderer's ``squeeze``)."""

    weight: float
    shear: float
    stretch: float

    @staticmethod
    def draw(rng: np.random.Generator) -> GlyphWarp:
        if rng.random() < 0.5:  # half the packs as their fonts print them
            return GlyphWarp(0.0, 0.0, 1.0)
        return GlyphWarp(
            weight=float(rng.uniform(-0.4, 1.0)),
            shear=float(rng.uniform(-0.1, 0.1)),
            stretch=float(rng.uniform(0.9, 1.1)),
        )


_WARP_SS = 3  # the supersampling a warped glyph is reshaped at


def _warp_glyph(
    text: str,
    font: ImageFont.FreeTypeFont,
    ink: tuple[int, int, int],
    warp: GlyphWarp,
    width_factor: float,
) -> tuple[Image.Image, Image.Image]:
    """``text`` drawn in ``font``, reshaped by ``warp`` and ``width_factor``: the ink
    (RGB) and its coverage (L), in a box of the glyph's size and 4 px margins (so
    it is centred where the plain glyph's box would be)."""
    ss = _WARP_SS
    big = _font(Path(str(font.path)).name, int(font.size) * ss)  # the same face, larger
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    x0, y0, x1, y1 = _text_box(probe, text, font)
    gw, gh = x1 - x0, y1 - y0
    w, h = (gw + 8) * ss, (gh + 8) * ss
    mask = Image.new("L", (w, h), 0)
    bx0, by0, bx1, by1 = _text_box(probe, text, big)
    ImageDraw.Draw(mask).text(
        ((w - (bx1 - bx0)) / 2 - bx0, (h - (by1 - by0)) / 2 - by0), text, font=big, fill=255
    )
    m = np.asarray(mask)
    r = round(abs(warp.weight) * ss)
    if r > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        m = cv2.dilate(m, kernel) if warp.weight > 0 else cv2.erode(m, kernel)
    shear = np.float32([[1, -warp.shear, warp.shear * h / 2], [0, 1, 0]])
    m = cv2.warpAffine(m, shear, (w, h), flags=cv2.INTER_LINEAR)
    size = (max(4, round((gw + 8) * width_factor)), gh + 8)
    m = cv2.resize(m, size, interpolation=cv2.INTER_AREA)
    alpha = Image.fromarray(m)
    return Image.new("RGB", size, ink), alpha


def render_face(
    code: str,
    rng: np.random.Generator,
    style: str = "french",
    pack: np.random.Generator | None = None,
    fonts: str = "dejavu",
    indices: int = 2,
) -> Face:
    """Render one card face (``code`` like ``10H``) in a random plausible style of the
    deck ``style``: ``french`` (the classic two colours), ``german4`` (the German
    four-colour tournament deck), or ``mixed`` (each face draws one from
    :data:`DECK_STYLES`). ``code`` is always the card's meaning: a German jack prints
    B and is rendered for ``JS``. ``pack``: where the pack's own style is drawn from
    (paper, index font, size and place): give every card of one pack a generator
    seeded alike and they are printed alike; without it, ``rng`` draws it all.
    ``fonts``: the set (:data:`FONT_SETS`) the rank and suit glyphs are drawn from;
    with ``dejavu`` a face is exactly what it always was for its generators.
    ``indices``: 2, the index in two opposite corners; 4, in all four (many European
    packs, Skat's among them: the top right one upright as the top left, the bottom
    ones turned), drawn with nothing more from the generators, so a face is the same
    but for the two more corners (and its anchors, in the order top left, bottom
    right, top right, bottom left)."""
    if indices not in (2, 4):
        raise ValueError(f"indices: a card prints its index in 2 or 4 corners, not {indices}")
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
    warp = GlyphWarp.draw(sr) if fonts in WARPED_SETS else None
    suit_glyph: tuple[Image.Image, Image.Image] | None = None
    if warp is None:
        tile = Image.new("RGB", (gw + 8, gh + 8), paper)
        ImageDraw.Draw(tile).text((4 - box[0], 4 - box[1]), text, font=rank_font, fill=ink)
        tile = tile.resize((max(4, round((gw + 8) * squeeze)), gh + 8), Image.Resampling.LANCZOS)
        tile_alpha = None
    else:
        tile, tile_alpha = _warp_glyph(text, rank_font, ink, warp, squeeze)
        suit_glyph = _warp_glyph(SUIT_CHARS[suit], suit_font, ink, warp, warp.stretch)
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
    # the top right corner's index (four indices) as far from the right edge as the top
    # left one is from the left, the rank and the suit as they lie there
    for flip, shift in [(False, 0.0), (True, 0.0), *([(False, 1.0), (True, 1.0)][: indices - 2])]:
        dx = shift * (W - 2 * rank_cx)
        corner = img if not flip else img.rotate(180)
        corner.paste(
            tile,
            (round(rank_cx + dx - tile.width / 2), round(rank_cy - tile.height / 2)),
            tile_alpha,
        )
        if suit_glyph is None:
            _draw_centred(
                ImageDraw.Draw(corner), SUIT_CHARS[suit], suit_font, (suit_cx + dx, suit_cy), ink
            )
        else:
            glyph, alpha = suit_glyph
            at = (round(suit_cx + dx - glyph.width / 2), round(suit_cy - glyph.height / 2))
            corner.paste(glyph, at, alpha)
        img = corner if not flip else corner.rotate(180)
        d = float(np.hypot(suit_cx - rank_cx, suit_cy - rank_cy))
        ux, uy = (suit_cx - rank_cx) / d, (suit_cy - rank_cy) / d
        mx, my = (rank_cx + suit_cx) / 2 + dx, (rank_cy + suit_cy) / 2
        if flip:
            mx, my, ux, uy = W - mx, H - my, -ux, -uy
        anchors.append(Anchor(mx, my, ux, uy, d))
    draw = ImageDraw.Draw(img)
    letter_font = RANK_FONTS[0] if fonts == "dejavu" else rank_font_name
    _draw_centre(draw, rank, suit, ink, rng, text, suit_name, letter_font, img)
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
    image: Image.Image | None = None,
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
        if image is None:
            raise ValueError("a court card's panel is drawn into its face: pass image")
        _draw_court(image, rank, suit, ink, rng, letter_text, suit_font, letter_font)
        return
    n = int(rank)
    pip_font = _font(suit_font, int(rng.integers(40, 56)))
    for fx, fy in PIP_PLACES[n]:
        cx = x0 + 10 + fx * (x1 - x0 - 20)
        cy = y0 + 18 + fy * (y1 - y0 - 36)
        _draw_centred(draw, SUIT_CHARS[suit], pip_font, (cx, cy), ink)


# -- court cards --------------------------------------------------------------------------

#: Court figures' flat colours (RGB, as PIL draws): the red, blue, yellow and black of
#: printed court cards, and skin.
_COURT_RED, _COURT_BLUE, _COURT_YELLOW, _COURT_BLACK = (
    (200, 30, 40),
    (30, 60, 160),
    (230, 190, 30),
    (20, 20, 20),
)
_SKIN = (250, 222, 185)


def _jitter(rng: np.random.Generator, v: float, spread: float) -> float:
    return float(v + rng.uniform(-spread, spread))


def _hatch(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    rng: np.random.Generator,
    colour: tuple[int, int, int],
) -> None:
    """Parallel thin strokes across a box: the shading of an engraved robe."""
    x0, y0, x1, y1 = box
    step = rng.uniform(3, 6)
    slope = rng.uniform(-0.8, 0.8)
    x = x0
    while x < x1:
        draw.line((x, y0, x + slope * (y1 - y0), y1), fill=colour, width=1)
        x += step


def _court_half(
    rank: str,
    suit: str,
    ink: tuple[int, int, int],
    rng: np.random.Generator,
    size: tuple[int, int],
    paper: tuple[int, int, int],
    suit_font: str,
) -> Image.Image:
    """One end of a double-ended court figure, drawn as printed court cards are: flat
    colours inside black outlines, a face, a crown (king, queen) or cap (jack), robes
    with bands, hatching and patterns, a sceptre, sword or flower, and the small suit
    symbol beside the head that real court cards print (a pip that is no index)."""
    pw, ph = size
    half = Image.new("RGB", (pw, ph), paper)
    draw = ImageDraw.Draw(half)
    colours = [ink, _COURT_RED, _COURT_BLUE, _COURT_YELLOW, _COURT_BLACK]
    line = _COURT_BLACK
    cx = _jitter(rng, pw * 0.5, pw * 0.1)
    head_y = _jitter(rng, ph * 0.33, ph * 0.06)
    hr = rng.uniform(12, 19)
    # robes: shoulders to the middle of the card, in bands of flat colour
    shoulder = head_y + hr * rng.uniform(0.9, 1.3)
    left, right = cx - rng.uniform(35, 55), cx + rng.uniform(35, 55)
    robe = [(cx - hr * 1.2, shoulder), (cx + hr * 1.2, shoulder), (right, ph), (left, ph)]
    draw.polygon(robe, fill=colours[int(rng.integers(0, 5))], outline=line)
    for _ in range(int(rng.integers(2, 6))):  # bands, panels and collars
        y = rng.uniform(shoulder, ph - 6)
        h = rng.uniform(5, 18)
        x_a, x_b = rng.uniform(left, cx - 5), rng.uniform(cx + 5, right)
        colour = colours[int(rng.integers(0, 5))]
        if rng.random() < 0.5:
            draw.rectangle((x_a, y, x_b, y + h), fill=colour, outline=line)
        else:
            draw.polygon(
                [(x_a, y), (x_b, y), (cx + rng.uniform(-8, 8), y + h * 2)],
                fill=colour,
                outline=line,
            )
        if rng.random() < 0.4:
            _hatch(draw, (x_a, y, x_b, y + h), rng, line)
        if rng.random() < 0.4:  # a row of small dots or rings along the band
            r = rng.uniform(1.5, 3.5)
            for x in np.arange(x_a + 4, x_b - 2, r * 3):
                draw.ellipse(
                    (x - r, y + h / 2 - r, x + r, y + h / 2 + r),
                    outline=line,
                    fill=colours[int(rng.integers(0, 5))] if rng.random() < 0.5 else None,
                )
    if rng.random() < 0.6:
        _hatch(draw, (left + 4, shoulder + 4, right - 4, ph), rng, line)
    # what the figure holds: a sceptre or sword (a long stroke with a head) or a flower
    hx = rng.choice([cx - rng.uniform(25, 45), cx + rng.uniform(25, 45)])
    top = rng.uniform(head_y - hr * 1.5, head_y + hr)
    width = int(rng.integers(2, 5))
    draw.line((hx, top, hx + rng.uniform(-10, 10), ph), fill=line, width=width)
    held = rng.random()
    if held < 0.4:  # an orb, a fleur or a flower head
        r = rng.uniform(4, 9)
        draw.ellipse(
            (hx - r, top - r, hx + r, top + r), fill=colours[int(rng.integers(0, 5))], outline=line
        )
    elif held < 0.7:  # a blade's hilt: a cross bar
        draw.line((hx - 8, top + 8, hx + 8, top + 8), fill=line, width=width)
    else:  # petals
        for k in range(5):
            a = k * 2 * np.pi / 5
            px, py = hx + 6 * np.cos(a), top + 6 * np.sin(a)
            draw.ellipse((px - 3, py - 3, px + 3, py + 3), fill=_COURT_RED, outline=line)
    # the head: hair or beard, face, eyes, nose, mouth
    if rank == "K" or rng.random() < 0.3:  # a beard, or hair to the shoulders
        beard = [
            (cx - hr, head_y),
            (cx + hr, head_y),
            (cx + hr * 0.5, head_y + hr * 1.6),
            (cx - hr * 0.5, head_y + hr * 1.6),
        ]
        draw.polygon(beard, fill=colours[int(rng.integers(0, 5))], outline=line)
    draw.ellipse(
        (cx - hr * 0.85, head_y - hr, cx + hr * 0.85, head_y + hr),
        fill=_SKIN,
        outline=line,
        width=1,
    )
    eye_y = head_y - hr * 0.15
    for ex in (cx - hr * 0.35, cx + hr * 0.35):
        draw.ellipse((ex - 1.5, eye_y - 1.2, ex + 1.5, eye_y + 1.2), fill=line)
    draw.line((cx, eye_y, cx + rng.uniform(-3, 3), head_y + hr * 0.3), fill=line, width=1)
    draw.line(
        (cx - hr * 0.25, head_y + hr * 0.55, cx + hr * 0.25, head_y + hr * 0.55),
        fill=_COURT_RED,
        width=1,
    )
    crown_y = head_y - hr * 0.8
    if rank in ("K", "Q"):  # a crown: a band and its points
        points = int(rng.integers(3, 6))
        xs = np.linspace(cx - hr, cx + hr, 2 * points + 1)
        top_y = crown_y - rng.uniform(10, 18)
        poly = [(cx - hr, crown_y)] + [
            (x, top_y if i % 2 else crown_y - 5) for i, x in enumerate(xs)
        ]
        poly.append((cx + hr, crown_y))
        draw.polygon(poly, fill=_COURT_YELLOW, outline=line)
        for x in xs[1::2]:
            draw.ellipse((x - 2, top_y - 2, x + 2, top_y + 2), fill=_COURT_RED, outline=line)
    else:  # a cap with a feather
        draw.chord(
            (cx - hr * 1.1, crown_y - hr * 0.9, cx + hr * 1.1, crown_y + hr * 0.7),
            180,
            360,
            fill=colours[int(rng.integers(0, 5))],
            outline=line,
        )
        fx = cx + rng.uniform(-hr, hr)
        draw.line(
            (fx, crown_y - 4, fx + rng.uniform(-15, 15), crown_y - rng.uniform(14, 24)),
            fill=line,
            width=2,
        )
    # the small suit symbol beside the head, as real court cards print it
    if rng.random() < 0.85:
        sx = cx + rng.choice([-1, 1]) * rng.uniform(hr + 14, hr + 30)
        sy = head_y - rng.uniform(0, hr * 1.5)
        _draw_centred(
            draw, SUIT_CHARS[suit], _font(suit_font, int(rng.integers(16, 30))), (sx, sy), ink
        )
    return half


def _draw_court(
    img: Image.Image,
    rank: str,
    suit: str,
    ink: tuple[int, int, int],
    rng: np.random.Generator,
    letter_text: str | None,
    suit_font: str,
    letter_font: str,
) -> None:
    """A court card's panel: a frame and a double-ended figure (one end drawn, the other
    the same turned half a turn, split straight or on the diagonal); some decks print
    the rank's letter large across the middle as well."""
    x0, y0, x1, y1 = 54, 44, W - 54, H - 44
    paper = img.getpixel((W // 2, 4))
    pw, ph = x1 - x0, (y1 - y0) // 2
    end = _court_half(rank, suit, ink, rng, (pw, ph), paper, suit_font)
    img.paste(end, (x0, y0))
    img.paste(end.rotate(180), (x0, y0 + ph))
    mid = y0 + ph
    draw = ImageDraw.Draw(img)
    if rng.random() < 0.5:
        draw.line((x0, mid, x1, mid), fill=ink, width=1)
    else:
        slope = rng.uniform(-0.25, 0.25) * (x1 - x0)
        draw.line((x0, mid + slope, x1, mid - slope), fill=ink, width=1)
    draw.rectangle((x0, y0, x1, y1), outline=ink, width=int(rng.integers(1, 3)))
    if rng.random() < 0.25:
        letter = _font(letter_font, int(rng.integers(40, 70)))
        _draw_centred(draw, letter_text or rank, letter, (W / 2, H / 2), ink)


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
