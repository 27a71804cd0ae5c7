"""A rank read among letters of a line of print is no card's index (vision.lines)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.faces import render_face
from vision.lines import in_line_of_print
from vision.pips import INDEX_ANCHOR, INDEX_D
from vision.recognize import IndexDetection, Recognizer

FONT = cv2.FONT_HERSHEY_SIMPLEX
LINE = "the state addiction proposal could hurt programs"


def _page(text: str = LINE, *, scale: float = 1.0, at: tuple[int, int] = (20, 80)):
    """A newspaper's line: ``text`` in black on off-white paper; the picture, and the
    left edge and foot of the line."""
    page = np.full((160, 1000, 3), (225, 228, 230), np.uint8)
    cv2.putText(page, text, at, FONT, scale, (30, 30, 30), 2, cv2.LINE_AA)
    return page, at


def _letters(text: str, start: int, end: int, *, scale: float = 1.0, at=(20, 80)):
    """The middle of the letters ``text[start:end]`` as putText sets them, and their height."""
    (x0, _), _ = cv2.getTextSize(text[:start], FONT, scale, 2)
    (x1, _), _ = cv2.getTextSize(text[:end], FONT, scale, 2)
    (_, h), _ = cv2.getTextSize(text[start:end], FONT, scale, 2)
    return at[0] + (x0 + x1) / 2, at[1] - h / 2, h


def _index_of(x: float, y: float, h: float, *, turned: bool = False):
    """Where an index reading whose rank is the glyphs at (x, y), of height ``h``, puts
    its midpoint: the suit half a rank-to-suit distance below the rank (``d`` the
    glyphs' height, as the network took the headline's "di" for a 10), or above it
    where the reading is turned half (print read upside down)."""
    d = h / 1.2
    uy = -1.0 if turned else 1.0
    return x, y + 0.5 * d * uy, 0.0, uy, d


def test_two_letters_of_a_word_are_print_either_way_up():
    """The headline's "di" of "addiction", read 10S at 1.00 upside down in an enlarged
    pinochle photo: letters of its height on its baseline, set close, either side."""
    page, _ = _page()
    start = LINE.index("addiction") + 2  # "di"
    x, y, h = _letters(LINE, start, start + 2)
    assert in_line_of_print(page, *_index_of(x, y, h))
    assert in_line_of_print(page, *_index_of(x, y, h, turned=True))
    # the page turned a quarter, and the reading with it
    turned = cv2.rotate(page, cv2.ROTATE_90_CLOCKWISE)
    tx, ty = page.shape[0] - 1 - y, x
    d = h / 1.2
    assert in_line_of_print(turned, tx - 0.5 * d, ty, -1.0, 0.0, d)


def test_a_word_s_last_letters_and_a_lone_word_are_not_a_line():
    """The walk needs a glyph close on each side: the rank at a line's end, or a short
    word standing alone (a card's printed name beside its index), is not print."""
    page, _ = _page()
    end = len(LINE)
    x, y, h = _letters(LINE, end - 2, end)  # "ms", the line's last letters
    assert not in_line_of_print(page, *_index_of(x, y, h))
    alone, _ = _page("  10  ")
    x, y, h = _letters("  10  ", 2, 4)
    assert not in_line_of_print(alone, *_index_of(x, y, h))


def test_letters_spread_wide_are_not_set_as_type():
    """Glyphs of the rank's height in a row with gaps wider than type sets letters (a
    row of indices, well apart) are not a line of print."""
    spread = "A   K   Q   J   10   9"
    page, _ = _page(spread)
    start = spread.index("Q")
    x, y, h = _letters(spread, start, start + 1)
    assert not in_line_of_print(page, *_index_of(x, y, h))


def test_a_card_s_index_on_felt_and_on_print_is_no_line():
    """A rendered face's index laid on felt is no print; nor is it laid on a newspaper
    whose lines run across the card: the card's margin and its face stand beside its
    rank, not letters."""
    for code in ("10S", "KH", "QC", "4D"):
        face = render_face(code, np.random.default_rng(3))
        for ground in ("felt", "print"):
            img = np.full((600, 500, 3), (40, 110, 50), np.uint8)
            if ground == "print":
                img[:] = (225, 228, 230)
                for row in range(40, 600, 34):
                    cv2.putText(img, LINE, (0, row), FONT, 0.9, (30, 30, 30), 2, cv2.LINE_AA)
            h, w = face.image.shape[:2]
            a = face.alpha[:, :, None].astype(np.float32) / 255
            part = img[120 : 120 + h, 120 : 120 + w]
            img[120 : 120 + h, 120 : 120 + w] = (face.image * a + part * (1 - a)).astype(np.uint8)
            x, y = 120 + INDEX_ANCHOR[0], 120 + INDEX_ANCHOR[1]
            assert not in_line_of_print(img, x, y, 0.0, 1.0, INDEX_D), (code, ground)
            # the far corner, turned half
            fx, fy = 120 + w - INDEX_ANCHOR[0], 120 + h - INDEX_ANCHOR[1]
            assert not in_line_of_print(img, fx, fy, 0.0, -1.0, INDEX_D), (code, ground)


def test_a_stroke_no_letter_is_ends_the_line():
    """A court's frame beside its index (or the table beyond a card's edge) is no
    letter: the walk along the line stops at it, and letters past it do not count.
    Without the stroke, the same letters a little apart are print."""
    left, right = "state addi", "ction proposal could"
    (lw, _), _ = cv2.getTextSize(left, FONT, 1.0, 2)
    x, y, h = _letters(left, len(left) - 2, len(left))  # "di"
    pages = []
    for stroke in (False, True):
        page, at = _page(left)
        gap = int(0.2 * h)
        cv2.putText(page, right, (at[0] + lw + gap, at[1]), FONT, 1.0, (30, 30, 30), 2, cv2.LINE_AA)
        if stroke:  # thin and tall, in the middle of the gap, touching no letter
            sx = at[0] + lw + gap // 2
            cv2.line(page, (sx, int(y - 2 * h)), (sx, int(y + 2 * h)), (30, 30, 30), 1)
        pages.append(page)
    assert in_line_of_print(pages[0], *_index_of(x, y, h))
    assert not in_line_of_print(pages[1], *_index_of(x, y, h))


def test_other_readings_ranks_are_not_letters():
    """A row of ranks set close as type would pass for a word; told where other
    readings' ranks lie, the walk counts none of them, a 10's two digits either side
    of its middle included."""
    row = "9K10Q2J"
    page, _ = _page(row, scale=1.4)
    start = row.index("Q")
    x, y, h = _letters(row, start, start + 1, scale=1.4)
    here = _index_of(x, y, h)
    assert in_line_of_print(page, *here)
    ranks = {}
    for i, j in ((0, 1), (1, 2), (2, 4), (5, 6), (6, 7)):
        ox, oy, oh = _letters(row, i, j, scale=1.4)
        ranks[row[i:j]] = _index_of(ox, oy, oh)
    assert not in_line_of_print(page, *here, others=list(ranks.values()))
    # the 10 alone: the Q then has no letter close on its left
    assert not in_line_of_print(page, *here, others=[ranks["10"]])


def test_a_tight_row_of_cards_is_not_print():
    """Rendered faces laid in a row each over the one before, 36 to 50 pixels apart
    (an index 36 across): the 1 and 0 of each 10 are set close, but the gaps between
    cards are wider, one after another along the row, so no card's index is print,
    however few of its neighbours are read (a review's row)."""
    codes = ["10H", "10S", "QC", "10D", "10C", "JD", "AS"]
    rng = np.random.default_rng(10)  # one pack (a count of tight gaps took its 10s for print)
    faces = [render_face(c, rng) for c in codes]
    for step in range(36, 51, 2):
        img = np.full((600, 120 + 7 * step + 300, 3), (40, 110, 50), np.uint8)
        for k, face in enumerate(faces):
            h, w = face.image.shape[:2]
            a = face.alpha[:, :, None].astype(np.float32) / 255
            x0 = 120 + k * step
            part = img[120 : 120 + h, x0 : x0 + w]
            img[120 : 120 + h, x0 : x0 + w] = (face.image * a + part * (1 - a)).astype(np.uint8)
        at = [(120 + k * step + INDEX_ANCHOR[0], 120 + INDEX_ANCHOR[1]) for k in range(7)]
        index = [(x, y, 0.0, 1.0, INDEX_D) for x, y in at]
        read = [index[codes.index("JD")], index[codes.index("AS")]]
        for k, (x, y) in enumerate(at):
            for told in ([], read):
                others = [o for o in told if o[:2] != (x, y)]
                assert not in_line_of_print(img, x, y, 0.0, 1.0, INDEX_D, others), (step, codes[k])


def test_a_blank_strip_and_a_tiny_index_are_not_print():
    blank = np.full((200, 400, 3), 200, np.uint8)
    assert not in_line_of_print(blank, 200.0, 100.0, 0.0, 1.0, 20.0)
    page, _ = _page()
    x, y, _ = _letters(LINE, 12, 14)
    assert not in_line_of_print(page, x, y, 0.0, 1.0, 0.0)
    assert not in_line_of_print(page, x, y, 0.0, 1.0, float("nan"))
    # an index far smaller than the letters: the strip lies within one of them
    assert not in_line_of_print(page, x, y, 0.0, 1.0, 2.0)


def test_the_recogniser_leaves_out_a_reading_in_a_line_of_print():
    """Recognizer.cards: a reading of one corner whose rank is letters of a line is
    flagged ``in-print`` and a tenth as sure (left out at the default threshold); a
    card read at both corners, or a lone index, is not looked at so."""
    page, _ = _page()
    start = LINE.index("addiction") + 2
    x, y, h = _letters(LINE, start, start + 2)
    mx, my, ux, uy, d = _index_of(x, y, h, turned=True)
    ten = IndexDetection("10", "S", 0.9997, 0.9997, mx, my, ux, uy, d)
    rec = Recognizer(threshold=0.0)
    rec.faces = page
    (reading,) = rec.cards([ten])
    assert "in-print" in reading.flags
    assert reading.confidence < 0.1
    strict = Recognizer()
    strict.faces = page
    assert strict.cards([ten]) == []
    # the letters before them read as an index too ("ad"): neither clears the other
    ad = LINE.index("addiction")
    cx, cy, ch = _letters(LINE, ad, ad + 2)
    mx2, my2, _, _, d2 = _index_of(cx, cy, ch, turned=True)
    also = IndexDetection("10", "C", 0.6, 0.6, mx2, my2, ux, uy, d2)
    both = Recognizer(threshold=0.0)
    both.faces = page
    assert all("in-print" in r.flags for r in both.cards([ten, also]))
    # the same reading where the picture is plain paper: a card
    plain = Recognizer(threshold=0.0)
    plain.faces = np.full_like(page, 228)
    (card,) = plain.cards([ten])
    assert "in-print" not in card.flags and card.confidence > 0.99
