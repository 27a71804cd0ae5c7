"""A rank read among letters of a line of print is no card's index (vision.lines)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.faces import render_face
from vision.lines import LINE_GLYPHS, LINE_TIGHT, _walk, in_line_of_print
from vision.pips import INDEX_ANCHOR, INDEX_D
from vision.recognize import IndexDetection, Recognizer

FONT = cv2.FONT_HERSHEY_SIMPLEX
PAPER = (225, 228, 230)
INK = (30, 30, 30)
LINE = "the state addiction proposal could hurt programs"


def _ink_columns(ch: str) -> tuple[int, int]:
    """The first and last column of ink of ``ch`` as putText draws it at x = 10."""
    scratch = np.zeros((60, 80), np.uint8)
    cv2.putText(scratch, ch, (10, 40), FONT, 1.0, 255, 2, cv2.LINE_AA)
    cols = np.flatnonzero(scratch.max(axis=0) > 100)
    return int(cols[0]), int(cols[-1])


def _typeset(text: str, *, gap: float = 0.08, word: float = 0.45, page=None, at=(20, 80)):
    """``text`` set letter by letter as a newspaper sets it: each letter's ink ``gap``
    cap heights after the last one's, a space ``word`` cap heights. The page (a new
    off-white one, or ``page``), and each character's ink columns (``None`` for a
    space) and the cap height."""
    if page is None:
        page = np.full((160, 1100, 3), PAPER, np.uint8)
    (_, cap), _ = cv2.getTextSize("H", FONT, 1.0, 2)
    x, spans = at[0], []
    for ch in text:
        if ch == " ":
            x += round(word * cap)
            spans.append(None)
            continue
        c0, c1 = _ink_columns(ch)
        cv2.putText(page, ch, (x - (c0 - 10), at[1]), FONT, 1.0, INK, 2, cv2.LINE_AA)
        spans.append((x, x + c1 - c0))
        x += c1 - c0 + 1 + max(1, round(gap * cap))
    return page, spans, cap


def _reading(page, spans, start: int, end: int, *, turned: bool = False):
    """An index reading whose rank is the letters ``start:end``: its midpoint half a
    rank-to-suit distance under their middle (above it, turned half: print read upside
    down, as the headline's "di" was), ``d`` their height over 1.2 (as the network took
    the headline's letters)."""
    x0, x1 = spans[start][0], spans[end - 1][1]
    rows = np.flatnonzero(page[:, x0 : x1 + 1].min(axis=(1, 2)) < 128)
    top, foot = int(rows[0]), int(rows[-1])
    d = (foot - top + 1) / 1.2
    x, y = (x0 + x1) / 2, (top + foot) / 2
    uy = -1.0 if turned else 1.0
    return x, y + 0.5 * d * uy, 0.0, uy, d


def test_two_letters_of_a_word_are_print_either_way_up():
    """The headline's "di" of "addiction", read 10S at 1.00 upside down in an enlarged
    pinochle photo: letters set close on each side, more along its line."""
    page, spans, _ = _typeset(LINE)
    di = LINE.index("addiction") + 2
    assert in_line_of_print(page, *_reading(page, spans, di, di + 2))
    assert in_line_of_print(page, *_reading(page, spans, di, di + 2, turned=True))
    # the page turned a quarter, and the reading with it
    x, y, _, _, d = _reading(page, spans, di, di + 2)
    turned = cv2.rotate(page, cv2.ROTATE_90_CLOCKWISE)
    tx, ty = page.shape[0] - 1 - y, x
    assert in_line_of_print(turned, tx, ty, -1.0, 0.0, d)


def test_letters_at_a_word_s_end_or_spaced_wide_are_not_print():
    """A letter next to a space, a line's last letters, a short word alone, and letters
    set wider than type sets them (0.3 cap heights apart: within the walk's reach, but
    not close) are not print: an index's card margin lies beside it."""
    page, spans, _ = _typeset(LINE)
    end = len(LINE)
    assert not in_line_of_print(page, *_reading(page, spans, end - 1, end))  # the "s"
    the = LINE.index("state") - 2  # the "e" of "the", a space after it
    assert not in_line_of_print(page, *_reading(page, spans, the, the + 1))
    alone, spans, _ = _typeset("    10    ")
    assert not in_line_of_print(alone, *_reading(alone, spans, 4, 6))
    wide, spans, _ = _typeset(LINE, gap=0.3)
    di = LINE.index("addiction") + 2
    assert not in_line_of_print(wide, *_reading(wide, spans, di, di + 2))
    assert LINE_TIGHT < 0.3


def test_a_short_word_is_too_few_letters():
    """Print needs ``LINE_GLYPHS`` glyphs on the line with the rank: the middle letter
    of a three-letter word set alone is not print."""
    assert LINE_GLYPHS == 4
    page, spans, _ = _typeset("   odi   ")
    assert not in_line_of_print(page, *_reading(page, spans, 4, 5))
    page, spans, _ = _typeset("   oddi   ")
    assert in_line_of_print(page, *_reading(page, spans, 4, 5))


def test_a_stroke_no_letter_is_ends_the_line():
    """A court's frame beside its index (or the table beyond a card's edge) is no
    letter: the walk along the line stops at it, and letters past it do not count.
    The same letters without the stroke are print."""
    text = "   odi tion"
    pages = []
    for stroke in (False, True):
        page, spans, cap = _typeset(text, word=0.3)
        if stroke:  # thin and tall, in the middle of the space after "odi"
            sx = spans[text.index("i")][1] + round(0.2 * cap)  # of 0.38 cap heights
            cv2.line(page, (sx, 80 - 2 * cap), (sx, 80 + cap), INK, 1)
        pages.append((page, spans))
    page, spans = pages[0]
    d = text.index("d")
    assert in_line_of_print(page, *_reading(page, spans, d, d + 1))
    page, spans = pages[1]
    assert not in_line_of_print(page, *_reading(page, spans, d, d + 1))


def test_a_card_s_index_on_felt_and_on_print_is_no_line():
    """A rendered face's index laid on felt is no print; nor is it laid on a newspaper
    whose lines run along the card's: the card's margin and its face stand beside its
    rank, not letters."""
    for code in ("10S", "KH", "QC", "4D"):
        face = render_face(code, np.random.default_rng(3))
        for ground in ("felt", "print"):
            img = np.full((600, 500, 3), (40, 110, 50), np.uint8)
            if ground == "print":
                img[:] = PAPER
                for row in range(40, 600, 34):
                    _typeset(LINE, page=img, at=(0, row))
            h, w = face.image.shape[:2]
            a = face.alpha[:, :, None].astype(np.float32) / 255
            part = img[120 : 120 + h, 120 : 120 + w]
            img[120 : 120 + h, 120 : 120 + w] = (face.image * a + part * (1 - a)).astype(np.uint8)
            x, y = 120 + INDEX_ANCHOR[0], 120 + INDEX_ANCHOR[1]
            assert not in_line_of_print(img, x, y, 0.0, 1.0, INDEX_D), (code, ground)
            fx, fy = 120 + w - INDEX_ANCHOR[0], 120 + h - INDEX_ANCHOR[1]
            assert not in_line_of_print(img, fx, fy, 0.0, -1.0, INDEX_D), (code, ground)


def test_cards_ranks_are_not_letters():
    """A row of ranks set as close as type passes for a word; told where cards' ranks
    lie, the walk counts none of them, a 10's two digits either side of its middle
    included."""
    row = "  9K10Q2J  "
    page, spans, _ = _typeset(row)
    q = row.index("Q")
    here = _reading(page, spans, q, q + 1)
    assert in_line_of_print(page, *here)
    ranks = {r: _reading(page, spans, row.index(r), row.index(r) + len(r)) for r in "9K2J"}
    ranks["10"] = _reading(page, spans, row.index("10"), row.index("10") + 2)
    assert not in_line_of_print(page, *here, others=list(ranks.values()))
    # the 10 alone: the Q then has no letter close on its left
    assert not in_line_of_print(page, *here, others=[ranks["10"]])


def test_a_row_of_cards_is_not_print():
    """Rendered faces laid in a row each over the one before, 28 to 60 pixels apart
    (an index 36 across), none of their neighbours read: the 1 and 0 of each 10 are
    set close, but every index has a card's margin beside it (a review's rows: counting
    tight gaps along the row, 11 of 672 indices passed for print, and with a run of two
    tight gaps, 2 of 714)."""
    codes = ["10H", "10S", "QC", "10D", "10C", "JD", "AS", "7H"]
    for seed in range(6):
        rng = np.random.default_rng(seed)
        faces = [render_face(c, rng) for c in codes]
        for step in range(28, 61, 8):
            img = np.full((600, 120 + len(codes) * step + 300, 3), (40, 110, 50), np.uint8)
            for k, face in enumerate(faces):
                h, w = face.image.shape[:2]
                a = face.alpha[:, :, None].astype(np.float32) / 255
                x0 = 120 + k * step
                part = img[120 : 120 + h, x0 : x0 + w]
                img[120 : 120 + h, x0 : x0 + w] = (face.image * a + part * (1 - a)).astype(np.uint8)
            for k in range(len(codes)):
                x, y = 120 + k * step + INDEX_ANCHOR[0], 120 + INDEX_ANCHOR[1]
                assert not in_line_of_print(img, x, y, 0.0, 1.0, INDEX_D), (seed, step, codes[k])


def test_the_walk_passes_over_a_broken_letter():
    """A letter in two pieces (a coarse JPEG) is one glyph: the piece within the one
    before adds no gap and no glyph, and the walk does not step back."""
    hr = 20.0
    glyphs = [(2.0, 10.0), (9.0, 9.5), (11.0, 18.0)]  # a piece ending inside the first
    assert _walk(glyphs, [], 0.0, hr, outwards=1) == [2.0, 1.0]
    assert _walk([(-18.0, -11.0), (-9.5, -9.0), (-10.0, -2.0)], [], 0.0, hr, outwards=-1) == [
        2.0,
        1.0,
    ]
    # a stroke no letter is that reaches past the rank's edge stops the walk where it is
    assert _walk(glyphs, [(-5.0, 3.0)], 0.0, hr, outwards=1) == []
    assert _walk(glyphs, [(10.5, 10.8)], 0.0, hr, outwards=1) == [2.0]


def test_a_blank_strip_a_tiny_index_and_a_bad_reading_are_not_print():
    blank = np.full((200, 400, 3), 200, np.uint8)
    assert not in_line_of_print(blank, 200.0, 100.0, 0.0, 1.0, 20.0)
    page, spans, _ = _typeset(LINE)
    di = LINE.index("addiction") + 2
    x, y, ux, uy, d = _reading(page, spans, di, di + 2)
    assert in_line_of_print(page, x, y, ux, uy, d)
    for bad in (
        (x, y, ux, uy, 0.0),
        (x, y, ux, uy, float("nan")),
        (float("nan"), y, ux, uy, d),
        (x, y, float("nan"), uy, d),
        (x, float("inf"), ux, uy, d),
    ):
        assert not in_line_of_print(page, *bad), bad
    # an index far smaller than the letters: its strip lies within one of them
    assert not in_line_of_print(page, x, y, ux, uy, 2.0)


def _opposite(det: IndexDetection) -> IndexDetection:
    """The card's other corner, read alike: where a typical card's other index lies
    (``vision.recognize._OTHER_CORNER``), turned half."""
    from dataclasses import replace

    from vision.recognize import _OTHER_CORNER

    d = det.d
    x = det.x + d * (_OTHER_CORNER[0] * det.uy + _OTHER_CORNER[1] * det.ux)
    y = det.y + d * (_OTHER_CORNER[0] * -det.ux + _OTHER_CORNER[1] * det.uy)
    return replace(det, x=x, y=y, ux=-det.ux, uy=-det.uy)


def flagged_of(page, dets):
    rec = Recognizer(threshold=0.0)
    rec.faces = page
    return {r.card: r.flags for r in rec.cards(dets)}


def test_the_recogniser_leaves_out_a_reading_in_a_line_of_print():
    """Recognizer.cards: a reading of one corner whose rank is letters of a line is
    flagged ``in-print`` and a tenth as sure (left out at the default threshold). Told
    of the readings near it that are no print alone, it counts their ranks as cards'
    (the row of darker cards in tests/test_vision_recognition.py: a 9C between a 10D
    and a JC, each read at one corner, passed for print when only cards read at both
    corners were told). A card read at both corners is not looked at."""
    page, spans, _ = _typeset(LINE)
    di = LINE.index("addiction") + 2
    mx, my, ux, uy, d = _reading(page, spans, di, di + 2, turned=True)
    ten = IndexDetection("10", "S", 0.9997, 0.9997, mx, my, ux, uy, d)
    rec = Recognizer(threshold=0.0)
    rec.faces = page
    (reading,) = rec.cards([ten])
    assert "in-print" in reading.flags
    assert reading.confidence < 0.1
    strict = Recognizer()
    strict.faces = page
    assert strict.cards([ten]) == []
    # the verdict is kept where the reading lies (the live loop weighs its readings
    # every frame) until that part of the frame is read afresh
    rec.faces = np.full_like(page, 228)
    assert "in-print" in rec.cards([ten])[0].flags
    rec.faces = page
    assert "in-print" in rec.cards([ten])[0].flags
    box = (int(mx) - 4, int(my) - 4, int(mx) + 4, int(my) + 4)
    rec.detect_regions(np.full_like(page, 228), [box], index_px=d)  # the print taken away
    assert "in-print" not in rec.cards([ten])[0].flags
    # the next letters ("ct") read as an index too are print as well, and both stay
    # so; the word's first letters ("ad") read as an index of one corner, no print
    # alone (a space beside them), are taken for a card's index (a row of cards each
    # read at one corner, a margin apart) and clear it, as a card read at both corners
    # there does
    ct = di + 2
    cx, cy, _, _, ct_d = _reading(page, spans, ct, ct + 2, turned=True)
    nine = IndexDetection("9", "C", 0.8, 0.8, cx, cy, ux, uy, ct_d)
    ax, ay, _, _, ad_d = _reading(page, spans, di - 2, di, turned=True)
    ace = IndexDetection("A", "D", 0.99, 0.99, ax, ay, ux, uy, ad_d)
    for told, stays in (([nine], True), ([ace], False), ([ace, _opposite(ace)], False)):
        both = Recognizer(threshold=0.0)
        both.faces = page
        flagged = {r.card: r.flags for r in both.cards([ten, *told])}
        assert ("in-print" in flagged["10S"]) is stays, told
    assert "in-print" in flagged_of(page, [ten, nine])["9C"]
    # a card read at both corners on the line is not looked at
    pair = Recognizer(threshold=0.0)
    pair.faces = page
    (card,) = pair.cards([ten, _opposite(ten)])
    assert "in-print" not in card.flags
    # the same reading where the picture is plain paper: a card
    plain = Recognizer(threshold=0.0)
    plain.faces = np.full_like(page, 228)
    (card,) = plain.cards([ten])
    assert "in-print" not in card.flags and card.confidence > 0.99
