"""The recognition pipeline's parts that do not depend on how well the model is trained:
faces and their anchors, synthetic scenes, proposals, patches, labels, scoring."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.dataset import label_proposals, scene_patches
from vision.errors import ModelError
from vision.evaluate import score_image
from vision.faces import render_face
from vision.model import IndexClassifier
from vision.proposals import (
    PATCH_H,
    PATCH_W,
    Components,
    Proposals,
    _merged_indices,
    extract_patches,
    find_components,
    pair_proposals,
)
from vision.recognize import CardReading
from vision.synth import CODES, make_scene


def one(x, y, ux, uy, d):
    f = [np.array([v], np.float32) for v in (x, y, ux, uy, d)]
    z = np.zeros(1, np.int32)
    return Proposals(*f, z, z)


def covered(props, t):
    dist = np.hypot(props.x - t.x, props.y - t.y)
    cos = props.ux * t.ux + props.uy * t.uy
    ratio = props.d / t.d
    return bool(((dist < 0.45 * t.d) & (cos > 0.8) & (ratio > 0.6) & (ratio < 1.6)).any())


def test_every_card_renders_with_two_opposite_anchors():
    rng = np.random.default_rng(1)
    for code in CODES:
        face = render_face(code, rng)
        a, b = face.anchors
        assert face.image.shape == (350, 250, 3) and face.alpha.shape == (350, 250)
        assert a.x < 70 and a.y < 110 and b.x > 180 and b.y > 240, code  # opposite corners
        assert a.ux * b.ux + a.uy * b.uy == pytest.approx(-1.0)
        assert 15 < a.d < 70


def test_the_two_corner_patches_of_a_face_look_alike():
    # cut upright at either anchor, the top-left and the (turned) bottom-right index agree
    rng = np.random.default_rng(3)
    face = render_face("7H", rng)
    a, b = face.anchors
    pa = extract_patches(face.image, one(a.x, a.y, a.ux, a.uy, a.d))[0].astype(float)
    pb = extract_patches(face.image, one(b.x, b.y, b.ux, b.uy, b.d))[0].astype(float)
    assert pa.shape == (PATCH_H, PATCH_W, 3)
    corr = np.corrcoef(pa.ravel(), pb.ravel())[0, 1]
    wrong_way = extract_patches(face.image, one(a.x, a.y, -a.ux, -a.uy, a.d))[0].astype(float)
    assert corr > 0.8 > np.corrcoef(pa.ravel(), wrong_way.ravel())[0, 1]


def test_proposals_reach_most_visible_indices_of_synthetic_scenes():
    total = hit = 0
    for seed in range(100, 130):
        scene = make_scene(np.random.default_rng(seed))
        props = pair_proposals(find_components(scene.image))
        for t in scene.indices:
            if t.visible and t.d >= 12:
                total += 1
                hit += covered(props, t)
    assert total > 80
    assert hit / total >= 0.8  # measured 0.875 on these seeds


def test_a_rank_pairs_with_its_compact_suit_before_thin_strokes_as_near():
    """A 7 beside a card's edge: two dashes of the edge and a fragment of the card above
    lie nearer the 7 than its heart does. Each rank pairs with its three nearest
    blobs; a thin blob counts as twice as far, so the heart is still one of them
    (bench/vision.py: a visible index the proposals missed, in 8 of 10 cards missed at
    the recommended mounting)."""
    f = np.float32
    # the 7, its heart below it, and three thin blobs (major over 2.5 times minor)
    x, y = [0, 9, -18, -26, 14], [0, 32, 22, 8, -29]
    w, h = [18, 22, 7, 7, 11], [30, 23, 19, 16, 5]
    major, minor = [30, 24, 19, 16, 11], [12, 22, 3, 3, 4]
    n = len(x)
    comps = Components(
        f(x), f(y), f(w), f(h), np.zeros(n, bool), np.ones(n, f), np.zeros(n, f), f(major), f(minor)
    )
    assert max(np.hypot(x[1:], y[1:])) == pytest.approx(np.hypot(9, 32))  # the 4th nearest
    props = pair_proposals(comps)
    pairs = set(zip(props.rank_index.tolist(), props.suit_index.tolist(), strict=True))
    assert (0, 1) in pairs


def test_scene_truth_marks_covered_indices_invisible():
    seen = hidden = 0
    for seed in range(10):
        scene = make_scene(np.random.default_rng(seed))
        seen += sum(t.visible for t in scene.indices)
        hidden += sum(not t.visible for t in scene.indices)
        assert len(scene.indices) == 2 * len(scene.cards)
    assert seen > 0 and hidden > 0


def test_labels_follow_the_truth():
    scene = make_scene(np.random.default_rng(5))
    t = next(t for t in scene.indices if t.visible)
    props = pair_proposals(find_components(scene.image))
    rank, _, skip = label_proposals(props, scene.indices)
    # a proposal exactly on a visible index is that card; the same turned round is not
    exact = one(t.x, t.y, t.ux, t.uy, t.d)
    r, s, _ = label_proposals(exact, (t,))
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert (r[0], s[0]) == (
        ranks.index(t.code[:-1]) + 1,
        "SHDC".index(t.code[-1]),
    )
    r, _, _ = label_proposals(one(t.x, t.y, -t.ux, -t.uy, t.d), (t,))
    assert r[0] == 0
    assert len(rank) == len(props) and not (skip & (rank > 0)).any()


def test_scene_patches_hold_cards_and_background():
    p = scene_patches(11, None)
    assert p.images.shape[1:] == (PATCH_H, PATCH_W, 3)
    assert p.small.shape == (len(p), PATCH_H // 2, PATCH_W // 2, 3)  # the gate's cut of each
    assert (p.rank > 0).any() and (p.rank == 0).any()
    assert p.rank.max() <= 13 and p.suit.max() <= 3


def reading(card):
    return CardReading(card, 0.9, 0.9, ((0, 0), (1, 0), (1, 1), (0, 1)), ())


def test_scoring_by_sets_and_rank_only_labels():
    s = score_image("x.jpg", ["QH", "10S", "2C"], [reading("QH"), reading("10S"), reading("9D")])
    assert (s.found, s.labelled, s.false_positives) == (2, 3, 1)
    assert s.missed == ("2C",) and s.extra == ("9D",)
    assert s.recall == pytest.approx(2 / 3) and s.precision == pytest.approx(2 / 3)
    s = score_image("p.jpg", ["9?", "K?"], [reading("9H"), reading("KS"), reading("AS")])
    assert (s.found, s.labelled, s.extra) == (2, 2, ("A",))


def test_a_missing_or_corrupt_model_names_the_file(tmp_path):
    with pytest.raises(ModelError, match=r"model file not found: .*nothing\.onnx"):
        IndexClassifier(tmp_path / "nothing.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07not really onnx")
    with pytest.raises(ModelError, match=r"bad\.onnx"):
        IndexClassifier(bad)


def test_thousands_of_patches_are_cut_in_one_call():
    # cv2.remap's maps are limited to 32,767 rows: 1,000 patches need more than one call
    img = np.random.default_rng(0).integers(0, 255, (200, 300, 3), dtype=np.uint8)
    n = 1000
    f = np.float32
    props = Proposals(
        np.full(n, 150, f),
        np.full(n, 100, f),
        np.zeros(n, f),
        np.ones(n, f),
        np.full(n, 20, f),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
    )
    patches = extract_patches(img, props)
    assert patches.shape == (n, PATCH_H, PATCH_W, 3)
    assert (patches == patches[0]).all()


def test_moments_match_a_drawn_ellipse():
    import cv2

    # blobs' moments are summed for all blobs at once; a filled ellipse with half-axes
    # a, b has major = 4 * sqrt(a^2 / 4) = 2a and minor 2b
    img = np.full((720, 960, 3), 235, np.uint8)
    cv2.ellipse(img, (450, 300), (14, 5), 30, 0, 360, (20, 20, 20), -1)
    cv2.rectangle(img, (200, 200), (215, 230), (20, 20, 200), 2)  # a second blob, red
    comps = find_components(img)
    assert len(comps) == 2
    i = int(np.argmin(np.hypot(comps.cx - 450, comps.cy - 300)))
    assert (comps.cx[i], comps.cy[i]) == (pytest.approx(450, abs=0.5), pytest.approx(300, abs=0.5))
    assert comps.major[i] == pytest.approx(28, rel=0.08)
    assert comps.minor[i] == pytest.approx(10, rel=0.15)
    angle = np.degrees(np.arctan2(comps.ay[i], comps.ax[i])) % 180
    assert angle == pytest.approx(30, abs=3)
    assert not comps.red[i] and comps.red[1 - i]


def test_indices_on_dim_paper_are_still_proposed():
    # the same scene at 60 % of its light: card paper drops to about 140 grey, which a
    # fixed "paper is over 150" test missed; paper is judged against its surroundings
    import cv2

    total = bright = dim = 0
    for seed in range(200, 215):
        scene = make_scene(np.random.default_rng(seed))
        darker = cv2.convertScaleAbs(scene.image, alpha=0.6)
        lit = pair_proposals(find_components(scene.image))
        dark = pair_proposals(find_components(darker))
        for t in scene.indices:
            if t.visible and t.d >= 14:
                total += 1
                bright += covered(lit, t)
                dim += covered(dark, t)
    assert total > 40
    assert dim >= 0.95 * bright


def test_no_index_outside_the_frame_counts_as_visible():
    for seed in range(40):
        scene = make_scene(np.random.default_rng(seed))
        h, w = scene.image.shape[:2]
        for t in scene.indices:
            if t.visible:
                assert 0 <= t.x <= w and 0 <= t.y <= h


def test_cards_are_sized_by_the_camera_mounting():
    # at 2.35 px per mm of table a 63 mm card is 148 px wide (before the perspective)
    from vision.synth import d_for_mounting

    d = d_for_mounting(2.35)
    widths = []
    for seed in range(5):
        scene = make_scene(np.random.default_rng(seed), size=(960, 720), d_range=(d, d))
        for quad in scene.card_quads:
            widths.append(np.linalg.norm(quad[1] - quad[0]))
    assert np.median(widths) == pytest.approx(63 * 2.35, rel=0.1)


def test_tiny_pictures_give_no_proposals_and_no_error():
    from vision.proposals import all_proposals

    for shape in [(1, 1, 3), (1, 9, 3), (3, 2, 3)]:
        assert len(all_proposals(np.full(shape, 200, np.uint8))) == 0


def test_a_free_card_under_a_dim_blue_light_is_outlined():
    # card paper at about 130 grey with a blue cast on a dark cloth: a fixed "bright
    # and grey" bar (V > 140, S < 70) misses it; the adaptive paper mask does not
    import cv2

    from vision.proposals import card_quads

    img = np.zeros((720, 960, 3), np.uint8)
    img[:] = (40, 60, 30)  # dark green cloth
    box = cv2.boxPoints(((480, 360), (150, 210), 20)).astype(np.int32)
    cv2.fillConvexPoly(img, box, (135, 118, 100))  # BGR: dim paper, blue cast
    quads = card_quads(img)
    assert len(quads) == 1
    found = sorted(map(tuple, np.round(quads[0]).astype(int)))
    drawn = sorted(map(tuple, box))
    assert all(np.hypot(a[0] - b[0], a[1] - b[1]) < 6 for a, b in zip(found, drawn, strict=True))


def test_noise_print_and_a_cloth_of_dots_are_read_with_bounded_work_and_give_no_cards():
    from vision.proposals import MAX_BLOBS, Picture, _components
    from vision.recognize import Recognizer
    from vision.synth import clutter

    rec = Recognizer()
    noise = clutter("noise", np.random.default_rng(0))
    # noise's "paper" is speckle (a fifth of it passes the bars, in specks): no solid
    # square of it, so no paper at all (PAPER_CORE), no ink looked for, no blob
    noise_paper = Picture(noise).paper()
    assert np.count_nonzero(noise_paper) < 0.001 * noise_paper.size
    assert len(_components(Picture(noise))[0]) == 0
    # a page of print, and a cloth of navy dots on white: every dot a blob ringed by paper
    page = clutter("print", np.random.default_rng(3))
    dots = clutter("dots", np.random.default_rng(0))
    with pytest.raises(ValueError, match="one of noise, print, dots, flowers"):
        clutter("tartan", np.random.default_rng(0))
    for image in (noise, page, dots):
        comps, _ = _components(Picture(image))
        if image is not noise:
            assert len(comps) == MAX_BLOBS  # thousands pass the paper test; the cap holds
        readings = rec.read(image)
        # each blob pairs with at most three others, or is a whole index both ways
        assert rec.timings["proposals_n"] <= 5 * MAX_BLOBS
        assert [r.card for r in readings if r.confidence >= 0.8] == []


def test_over_the_blob_cap_strong_ink_is_kept_before_a_table_s_grain():
    """A sheet of paper half covered by faint grain (hundreds of specks 50 levels
    under it, as a bright cork's grain in an overexposed photograph) and half by
    print: with the cap under the number of blobs, every printed glyph is kept. The
    cap used to keep the first blobs from the top, all grain."""
    from vision.proposals import Picture, _components

    rng = np.random.default_rng(5)
    image = np.full((600, 800, 3), 240, np.uint8)
    for _ in range(900):
        x, y = int(rng.integers(10, 790)), int(rng.integers(10, 290))
        cv2.circle(image, (x, y), int(rng.integers(3, 6)), (190, 190, 190), -1)
    glyphs = [(60 + 70 * i, 420) for i in range(10)]
    for i, (x, y) in enumerate(glyphs):
        cv2.putText(
            image, "AKQJ98765432"[i], (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 3
        )
    pic = Picture(image)
    every, _ = _components(pic)
    assert len(every) > 300  # the grain passes the ink tests
    pic = Picture(image)
    pic.max_blobs = 20
    kept, _ = _components(pic)
    assert len(kept) == 20
    for x, y in glyphs:
        near = (np.abs(kept.cx - (x + 14)) < 20) & (np.abs(kept.cy - (y - 16)) < 20)
        assert near.any(), (x, y)


def _shadowed_indices_proposed(light=None) -> tuple[int, int]:
    """Twelve tables with the right half under a hard shadow (45 % of the light), and
    ``light`` (the float picture, changed in place) over it: how many of the visible
    indices in the shadow a proposal lies on, and how many there are."""
    from vision.proposals import all_proposals
    from vision.synth import d_for_mounting

    reached = total = 0
    for i in range(12):
        scene = make_scene(
            np.random.default_rng(4300 + i),
            size=(800, 600),
            d_range=(d_for_mounting(2.35), d_for_mounting(3.0)),
            hands=0.0,
        )
        image = scene.image.astype(np.float32)
        w = image.shape[1]
        image[:, w // 2 :] *= 0.45
        if light is not None:
            light(image)
        props = all_proposals(np.clip(image, 0, 255).astype(np.uint8))
        for t in scene.indices:
            if t.visible and t.x > w // 2 + 20:
                total += 1
                near = (np.hypot(props.x - t.x, props.y - t.y) < 0.35 * t.d) & (
                    np.abs(props.d / t.d - 1) < 0.3
                )
                reached += bool(near.any())
    return reached, total


def test_indices_under_a_hard_shadow_are_still_proposed():
    """Half the table under a hard shadow (45 % of the light): paper there is darker
    than the lit paper a card away; it is still the brightest neutral thing near it."""
    reached, total = _shadowed_indices_proposed()
    # judged against the lit paper alone, 6 of 53 were proposed; now 45
    assert total >= 40 and reached / total >= 0.8


def test_indices_under_a_hard_shadow_in_a_green_cast_with_glare_are_still_proposed():
    """The same shadow in a green cloth's bounce, with a lamp's glare on the lit side:
    the brightest grey is the glare, white whatever the light, so a balance taken from
    it left the cast in and the shadowed paper, tinted, was not neutral enough for its
    second bar. The balance is taken from the paper the first bar passes."""

    def glare_and_green(image: np.ndarray) -> None:
        h, w = image.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        image += (160 * np.exp(-((xx - w / 4) ** 2 + (yy - h / 2) ** 2) / (2 * 45**2)))[..., None]
        image *= np.float32([0.85, 1.2, 0.8])  # BGR: green

    reached, total = _shadowed_indices_proposed(glare_and_green)
    # balanced to the glare, 30 of 67 were proposed; to the paper, 53
    assert total >= 60 and reached / total >= 0.7


def test_the_median_of_grey_levels_from_their_histogram_is_numpys():
    from vision.proposals import grey_percentile

    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 4, 51, 1000, 1001):
        for _ in range(50):
            values = rng.integers(0, 256, (n, 1)).astype(np.uint8)
            assert grey_percentile(values, 50) == np.median(values)


def test_every_font_set_is_installed_and_the_unseen_one_shares_nothing_with_training():
    from vision.faces import FONT_SETS, TRAINING_ONLY, available_rank_fonts, missing_fonts

    for name, (ranks, _suits) in FONT_SETS.items():
        if name in TRAINING_ONLY:  # only training the second network needs them (below)
            continue
        # `make test` installs them; a missing font fails here, it does not skip
        assert available_rank_fonts(name) == list(ranks), name
        assert missing_fonts(name) == []
        for i, code in enumerate(("AS", "10H", "QC", "7D", "KH", "JS", "2C", "9D")):
            face = render_face(code, np.random.default_rng(i), "mixed", fonts=name)
            assert len(face.anchors) == 2 and face.anchors[0].d > 10
    training, unseen = FONT_SETS["training"], FONT_SETS["unseen"]
    assert not set(training[0]) & set(unseen[0]) and not set(training[1]) & set(unseen[1])
    wide = FONT_SETS["wide"]
    assert not set(wide[0]) & set(unseen[0]) and not set(wide[1]) & set(unseen[1])
    # the default set draws exactly what the renderer always drew
    a = render_face("QH", np.random.default_rng(5), "french")
    b = render_face("QH", np.random.default_rng(5), "french", fonts="dejavu")
    assert np.array_equal(a.image, b.image)


def test_a_warped_glyph_is_bolder_thinner_leaning_and_stays_in_its_box():
    """The ``varied`` set reshapes each pack's glyphs (vision.faces.GlyphWarp): a
    bolder weight inks more of the box, a thinner one less, a positive shear moves
    the glyph's top to the right of its foot, and the glyph stays centred in the
    plain glyph's box so that the index anchors still hold."""
    from vision.faces import RANK_FONTS, GlyphWarp, _font, _warp_glyph

    def coverage(warp: GlyphWarp, text: str = "7", size: int = 40) -> np.ndarray:
        _ink, alpha = _warp_glyph(text, _font(RANK_FONTS[0], size), (0, 0, 0), warp, 1.0)
        return np.asarray(alpha, np.float64) / 255

    plain, bold, thin = (coverage(GlyphWarp(w, 0.0, 1.0)) for w in (0.0, 1.0, -0.4))
    assert bold.sum() > 1.15 * plain.sum() and thin.sum() < 0.9 * plain.sum()

    def lean(a: np.ndarray) -> float:
        rows = np.nonzero(a.sum(axis=1) > 0.5)[0]
        top, foot = a[rows[: len(rows) // 4]], a[rows[-len(rows) // 4 :]]
        xs = np.arange(a.shape[1])
        return float((top.sum(0) @ xs) / top.sum() - (foot.sum(0) @ xs) / foot.sum())

    leaning = coverage(GlyphWarp(0.0, 0.1, 1.0), "I")
    upright = coverage(GlyphWarp(0.0, 0.0, 1.0), "I")
    assert lean(leaning) > lean(upright) + 2
    # the recipe's extremes on wide glyphs of the largest size: centred, none lost
    extremes = [
        coverage(GlyphWarp(1.0, shear, 1.0), text, 45)
        for shear in (-0.1, 0.1)
        for text in ("10", "Q")
    ]
    for a in (plain, bold, leaning, *extremes):
        ys, xs = np.nonzero(a > 0.5)
        h, w = a.shape
        assert abs(xs.mean() - w / 2) < 0.15 * w and abs(ys.mean() - h / 2) < 0.15 * h
        assert max(a[0].max(), a[-1].max(), a[:, 0].max(), a[:, -1].max()) < 0.5
    # a pack draws one warp for all its cards (training's scenes draw each card alone)
    faces = [
        render_face(
            c, np.random.default_rng(i), "french", pack=np.random.default_rng(9), fonts="varied"
        )
        for i, c in enumerate(("7S", "7S"))
    ]

    def corner_ink(face) -> np.ndarray:  # the ink's colour is each card's own
        g = cv2.cvtColor(face.image[5:60, 5:40], cv2.COLOR_BGR2GRAY).astype(np.float64)
        return (g.max() - g) / (g.max() - g.min())  # inside the printed border

    assert np.abs(corner_ink(faces[0]) - corner_ink(faces[1])).max() < 0.1


def test_the_light_grain_of_a_dark_wood_table_is_not_paper():
    """A dark wood table with a pale arm across it and one card showing: far from the
    card the first paper bar is 80 % of the grain's own brightest level, and the
    floor (55 % of the picture's 99th percentile) is set by the arm, not by paper.
    The grain passed as paper (57 % of this table; 41 % of the bench's 4608 x 2592
    frame of this kind), and the ink stage read the whole frame. The first bar now
    asks at least the table's level and a quarter more and 30 (up to 150)."""
    import cv2

    from vision.proposals import Picture

    h, w = 720, 1280
    rng = np.random.default_rng(5)
    yy = np.arange(h, dtype=np.float32)[:, None]
    grain = np.sin(yy / 3.0 + rng.normal(0, 0.3, (h, 1))) * 18 + rng.normal(0, 4, (h, w))
    wood = np.stack([45 + grain * 0.5, 70 + grain * 0.8, 100 + grain], axis=2)
    image = np.clip(wood, 0, 255).astype(np.uint8)
    cv2.line(image, (0, 40), (1000, 560), (120, 115, 135), 150)  # the arm
    image[600:660, 1140:1180] = 235  # a card corner, too small to set the 99th percentile
    paper = Picture(image).paper()
    table = np.ones(paper.shape, bool)
    cv2.line(table.view(np.uint8), (0, 20), (500, 280), 0, 130)  # away from the arm...
    table[250:, 520:] = False  # ... and the card
    share = float((paper[table] > 0).mean())
    assert share < 0.01, f"{share:.1%} of the table taken for paper"
    assert (paper[305:325, 575:585] > 0).all()  # the card is paper


def test_a_light_wooden_table_passing_the_paper_bar_sets_no_white_balance():
    """Where few cards lie in the light, a light wooden table's grain passes the first
    paper bar as much as their paper does, and the median colour of the brighter half
    of it was the wood's: gains of (1.84, 1.0, 0.69) (the live check's seed 110 with
    half the table under a lamp's hard shadow; the same under a lamp's glare on the
    wood). A worn card in the shadow was then no neutral paper, and was placed 3.3 s
    late. The paper is the less saturated kind of what passes (Otsu's split of its
    saturation): card paper is less saturated than wood under any light."""
    from vision.proposals import Picture

    h, w = 1200, 1600  # (a megapixel and more: the gains judged on a sample)
    rng = np.random.default_rng(5)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 12.0, sigmaY=1.0)
    grey = 185 + 20 * grain / grain.std()
    wood = np.stack([grey * 0.55, grey * 0.95, grey * 1.25], axis=2)  # light wood (BGR)
    image = np.clip(wood, 0, 255).astype(np.uint8)
    cards = [(300, 300), (900, 500)]
    for x, y in cards:  # two cards, a few per cent of the picture
        image[y : y + 210, x : x + 150] = (228, 232, 235)
    pic = Picture(image)
    assert np.allclose(pic.gains, 1.0, atol=0.05), pic.gains


def test_paper_in_a_lamps_bluer_shadow_is_judged_against_the_light_there():
    """A calibrated camera's table half under a lamp's hard shadow, lit there by the
    room's bluer light (45 % of the light, blue up a tenth, red down a tenth: the live
    check's lamp probe). A worn card, its paper a fifth off grey in the lamp's light,
    lay in the shadow a third off grey after the lamp's balance: no neutral paper,
    unread for 10.7 s (seed 120's 6S). The table's own colour there says what the
    light's is (:attr:`Picture.cast`), and the card's paper is judged against it. A
    picture whose table is lit alike throughout, or a single photograph (no
    calibration: its surroundings are no one table), has no cast."""
    from vision.proposals import Picture, _neutral

    h, w = 1200, 1600
    rng = np.random.default_rng(7)
    felt = np.zeros((h, w, 3), np.float32)
    felt[:] = (60, 120, 45)  # green cloth (BGR)
    felt += rng.normal(0, 3, (h, w, 1))
    worn = (180, 155, 140)  # a worn card's paper: a fifth off grey (blue-grey)
    new = (232, 230, 228)
    cards = {(300, 200): new, (1100, 250): new, (350, 800): worn, (1150, 850): new}
    for (x, y), colour in cards.items():
        felt[y : y + 210, x : x + 150] = colour
    shade = np.ones((h, w, 3), np.float32)
    shade[h // 2 :] = (0.45 * 1.1, 0.45, 0.45 * 0.9)  # the lower half in the shadow
    image = np.clip(felt * shade, 0, 255).astype(np.uint8)

    def grey(neutral: np.ndarray, x: int, y: int) -> float:  # (quarter size)
        return float(neutral[(y + 40) // 4 : (y + 170) // 4, (x + 30) // 4 : (x + 120) // 4].mean())

    pic = Picture(image, index_d=20.0)  # 2.36 px/mm: an index 20 px, a card 149 wide
    assert pic.cast is not None
    cast = pic.cast[(3 * h // 4) // 4, (w // 2) // 4]
    assert cast[0] > 1.05 and cast[2] < 0.95, cast  # the shadow's light: bluer
    assert np.allclose(pic.cast[(h // 4) // 4, (w // 2) // 4], 1.0, atol=0.03)
    assert grey(pic.neutral, 350, 800) > 0.9 * 255  # the worn card in the shadow
    assert grey(pic.neutral, 1150, 850) > 0.9 * 255 and grey(pic.neutral, 300, 200) > 0.9 * 255
    assert grey(pic.neutral, 700, 1000) == 0 and grey(pic.neutral, 700, 300) == 0  # the felt
    # taken against the lamp's light alone (as before), no neutral paper there
    assert grey(_neutral(pic.quarter_colour, pic.gains), 350, 800) < 0.1 * 255
    assert pic.paper()[(800 + 100) // 2, (350 + 75) // 2] > 0
    assert Picture(image).cast is None  # a single photograph
    # a lamp's glare off the cloth adds white, no light of another colour: no cast
    # there (taken for one, a card carried past it was unread in the hand)
    yy, xx = np.mgrid[0:h, 0:w]
    glare = 110.0 * np.clip(1.5 - np.hypot(xx - 800, yy - 300) / 200.0, 0, 1)[..., None]
    glared = np.clip(felt * shade + glare, 0, 255).astype(np.uint8)
    cast = Picture(glared, index_d=20.0).cast
    assert cast is not None and np.allclose(cast[300 // 4, 800 // 4], 1.0)
    # the table lit alike throughout: no cast
    assert Picture(np.clip(felt, 0, 255).astype(np.uint8), index_d=20.0).cast is None


def _glared_table(
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0),
    glare: tuple[float, float, float] = (110.0, 110.0, 110.0),
    knee: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A green felt with two new cards, four worn ones and a pinkish worn one laid
    across a new one (cards of an index 10 px), lit by a light of ``cast`` (BGR) and
    under a lamp's glare adding ``glare`` levels at its middle, fading over a sixth
    of the frame (the live check's glare probe); ``knee``: a camera's highlights
    rolled off (tanh, this steep). The picture, and the same without the glare."""
    h, w = 1200, 1600  # (a megapixel and more: the gains judged on a sample)
    rng = np.random.default_rng(9)
    felt = np.zeros((h, w, 3), np.float32)
    felt[:] = (55, 88, 85)  # a green felt (BGR)
    felt += rng.normal(0, 3, (h, w, 1))
    new, worn, pink = (232, 230, 228), (186, 182, 178), (154, 137, 151)
    spots = [(150 + 300 * (i % 5), 120 + 320 * (i // 5)) for i in range(6)]
    for (x, y), paper in zip(spots, [new, new, worn, worn, worn, worn], strict=True):
        felt[y : y + 105, x : x + 75] = paper
    felt[160:235, 140:245] = pink  # across the first new card
    felt *= np.array(cast, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = min(w, h) / 12
    spread = np.clip(1.5 - np.hypot(xx - 0.42 * w, yy - 0.4 * h) / (2 * r), 0, 1) ** 1.5
    glared = felt + spread[..., None] * np.array(glare, np.float32)
    if knee is not None:
        glared, felt = (255 * np.tanh(v / 255 * knee) / np.tanh(knee) for v in (glared, felt))
    return tuple(np.clip(v, 0, 255).astype(np.uint8) for v in (glared, felt))  # type: ignore[return-value]


def test_a_lamps_glare_on_the_cloth_sets_no_white_balance_and_a_worn_card_is_paper():
    """A calibrated camera's green felt under a lamp's glare (110 levels added at its
    middle, fading over a sixth of the frame: the live check's glare probe), with
    worn cards, their paper greyer than the cloth in the glare. That cloth passed the
    first paper bar, and was as much of the brighter half the white balance was taken
    from as the paper: gains of 1.11, 0.95, 0.96 here (1.15, 0.84, 1.07 in the probe's
    seed 112), and a pinkish worn card laid across a new one was no neutral paper (the
    probe's 4D, never read in the show row, its move missed). The cloth in the glare
    lies between the cloth's colour and the light's; the paper lies at the light's: the
    kind less like the cloth is the paper."""
    from vision.proposals import Picture

    glared, bare = _glared_table()
    plain = Picture(bare, index_d=10.0)
    pic = Picture(glared, index_d=10.0)
    assert np.allclose(pic.gains, plain.gains, atol=0.03), (pic.gains, plain.gains)
    assert np.allclose(pic.gains, 1.0, atol=0.05), pic.gains
    pink_paper = pic.neutral[(160 + 20) // 4 : (235 - 20) // 4, (140 + 20) // 4 : (245 - 20) // 4]
    assert float(pink_paper.mean()) > 0.9 * 255  # neutral paper under the light's balance
    assert pic.paper()[(160 + 235) // 4, (140 + 245) // 4] > 0
    # the lamp's glare in a warm light's colour, the camera's highlights rolled off:
    # the same (gains of 1.23, 0.96, 0.88 taking the cloth in; 1.12, 0.99, 0.91 without
    # the glare)
    warm = (0.75, 0.9, 1.05)
    glared, bare = _glared_table(warm, tuple(110 * c for c in warm), knee=1.2)
    gains = Picture(glared, index_d=10.0).gains
    assert np.allclose(gains, Picture(bare, index_d=10.0).gains, atol=0.02), gains


@pytest.mark.parametrize("patches", [1, 2])
def test_the_kind_unlike_the_table_is_the_paper_only_where_it_lies_on_two_cards(patches):
    """The white balance's candidates split by their likeness to the cloth: the kind
    less like it is kept only where it lies in two patches or more (two cards). One
    patch may be a glare's whitened middle, of another light than the cards lie in
    (a lamp's over a room's warm light: a review's case kept it and left the paper
    out); then every candidate is kept, as without the split."""
    from vision.proposals import _unlike_table, channels

    part = np.zeros((60, 80, 3), np.uint8)
    part[:] = (55, 88, 85)  # the felt
    part[5:15, 5:15] = (150, 182, 178)  # the felt in a glare
    if patches == 2:
        part[30:36, 20:26] = part[40:46, 50:56] = (230, 229, 228)  # two cards' paper
    else:
        part[30:39, 20:28] = (230, 229, 228)  # one patch
    b, g, r = channels(part)
    brightest = np.maximum(np.maximum(b, g), r).astype(np.float32)
    spread = brightest - np.minimum(np.minimum(b, g), r)
    saturation = np.round(255 * spread / brightest).astype(np.uint8)
    candidates = np.where(part.sum(axis=2) > 3 * 120, 255, 0).astype(np.uint8)
    kept = _unlike_table(candidates, part, saturation)
    paper = (part == (230, 229, 228)).all(axis=2)
    if patches == 2:
        assert np.array_equal(kept > 0, paper)
    else:
        assert np.array_equal(kept, candidates)


def test_a_bright_cork_table_in_an_overexposed_picture_is_not_paper():
    """One stop over, card paper is clipped white and a cork table is lit to 150-210
    grey: anything over 150 was light (the first paper bar's cap), and with every
    card clipped the white balance came from the cork, so its orange passed the
    second bar's neutral test too: 80 % of a real deal so exposed was "paper". In a
    picture with 3 % of it clipped white the cap is 70 % of white (178), and the
    clipped paper's colour is white."""
    from vision.proposals import Picture

    h, w = 720, 960
    rng = np.random.default_rng(11)
    speck = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2.0)
    grey = 160 + 25 * speck / speck.std()  # grain, from 110 to over 210
    cork = np.stack([grey * 0.62, grey * 0.86, grey * 1.1], axis=2)  # orange (BGR)
    image = np.clip(cork, 0, 255).astype(np.uint8)
    cards = [(100, 100), (420, 120), (700, 380), (180, 420), (560, 400)]
    for x, y in cards:  # five cards, their paper clipped white: 23 % of the picture
        image[y : y + 210, x : x + 150] = 255
    pic = Picture(image)
    assert np.allclose(pic.gains, 1.0)
    paper = pic.paper() > 0
    on_card = np.zeros((h // 2, w // 2), bool)
    for x, y in cards:
        on_card[y // 2 + 4 : (y + 210) // 2 - 4, x // 2 + 4 : (x + 150) // 2 - 4] = True
    near = cv2.dilate(on_card.astype(np.uint8), np.ones((41, 41), np.uint8)) > 0
    assert paper[on_card].mean() > 0.99
    # 6 % of the cork far from the cards is paper (its brightest grain); with the cap
    # at 150 it was 73 %, and with the cork's balance as well
    assert paper[~near].mean() < 0.1, paper[~near].mean()


def test_pale_red_print_near_a_card_s_corner_on_dark_felt_is_ink_with_the_index_size():
    """The window ink is judged darker than its surroundings in is a 24th of the
    picture's shorter side: 97 pixels of a 2320-pixel frame, 41 mm of the table.
    Round an index near a card's corner most of it is dark felt, and a thin pale red
    stroke (a photographed jack's J, its colour smeared by the codec) was not
    darker than its mean. With the calibrated index size (20 pixels) the window is
    three index sizes, 61 pixels, and the stroke is ink."""
    from vision.proposals import Picture, _components

    image = np.zeros((2320, 2320, 3), np.uint8)
    image[:] = (40, 95, 30)  # green felt
    image[1000:1210, 1000:1150] = 235  # a card
    cv2.line(image, (1138, 1172), (1138, 1192), (130, 130, 210), 2)  # the J, 12 px in
    cv2.circle(image, (1138, 1160), 5, (60, 60, 200), -1)  # its heart

    def stroke_found(pic: Picture) -> bool:
        comps, _ = _components(pic)
        return bool(((np.abs(comps.cx - 1138) < 6) & (np.abs(comps.cy - 1182) < 8)).any())

    assert Picture(image).background_k == 97
    assert not stroke_found(Picture(image))
    assert Picture(image, 20.0).background_k == 61
    assert stroke_found(Picture(image, 20.0))
    # the heart is found either way
    comps, _ = _components(Picture(image))
    assert ((np.abs(comps.cx - 1138) < 4) & (np.abs(comps.cy - 1160) < 4)).any()


def test_a_suit_joined_to_a_thin_frame_line_is_a_blob_of_its_own():
    """The photographed JH of ``bidly`` in the live check (docs/vision.md "Faces
    photographed"): its heart touches the 1-pixel line of the court figure's frame,
    and the two were one blob 16 x 43 that paired with nothing, so the J was not
    read while the card lay in plain sight. The line goes in a 3 x 3 opening; the
    heart is a blob of its own too (the joined blob stays)."""
    img = np.full((240, 240, 3), (40, 90, 30), np.uint8)  # felt
    img[20:220, 20:220] = 235  # a card
    cv2.putText(img, "J", (46, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 190), 2, cv2.LINE_AA)
    cv2.circle(img, (56, 104), 7, (40, 40, 190), -1, cv2.LINE_AA)  # the heart
    cv2.line(img, (63, 92), (63, 150), (40, 40, 190), 1)  # the frame's line, touching it
    comps = find_components(img)
    near = np.hypot(comps.cx - 56, comps.cy - 104) < 3
    assert near.any(), "no blob for the heart alone"
    k = int(np.nonzero(near)[0][0])
    assert 12 <= comps.w[k] <= 17 and 12 <= comps.h[k] <= 17
    # the joined blob is still there, long and thin, marked split: it is proposed with
    # its neighbours, but not as a whole index (a lone heart and the edge of the card
    # over it, one blob under a colour cast, was read whole as a JH at 0.995: the live
    # check's four-player seed 110 under a wandering white balance)
    joined = (comps.h > 50) & (comps.w < 20)
    assert joined.any() and comps.split is not None
    assert comps.split[joined].all() and not comps.split[near].any()
    merged = _merged_indices(comps)
    assert not np.isin(merged.rank_index, np.nonzero(joined)[0]).any()
    # a long blob no suit was split off (a merged index, rank and suit as one) is
    # proposed whole, both ways along it, as before
    one = np.ones(1, np.float32)
    long_blob = Components(
        100 * one, 100 * one, 12 * one, 30 * one, np.ones(1, bool), 0 * one, one, 30 * one, 12 * one
    )
    assert _merged_indices(long_blob).rank_index.tolist() == [0, 0]
    split = dataclasses.replace(long_blob, split=np.ones(1, bool))
    assert _merged_indices(split).rank_index.tolist() == []


def _court_in_its_frame(reaching_out: bool = False) -> np.ndarray:
    """A court card whose index's heart touches the 1-pixel line of its figure's frame,
    the figure's jewels on thin lines joined to the frame, one jewel touching the line
    inside; ``reaching_out``: an ornament of the frame reaching out past the heart."""
    img = np.full((300, 260, 3), (40, 90, 30), np.uint8)  # felt
    img[10:290, 10:250] = 235  # a card
    red = (40, 40, 190)
    cv2.putText(img, "Q", (24, 78), cv2.FONT_HERSHEY_SIMPLEX, 0.7, red, 2, cv2.LINE_AA)
    cv2.circle(img, (32, 100), 7, red, -1, cv2.LINE_AA)  # the index's heart
    cv2.rectangle(img, (39, 40), (200, 260), red, 1)  # the frame, touching it
    if reaching_out:
        cv2.line(img, (39, 120), (18, 120), red, 1)
    for k in range(6):  # the figure: jewels on thin lines, joined to the frame
        y = 50 + 35 * k
        cv2.line(img, (40, y), (199, y + 20), (30, 30, 30), 1)
        cv2.circle(img, (120, y + 10), 9, (30, 30, 30), -1)
    cv2.circle(img, (190, 150), 9, (30, 30, 30), -1)  # a jewel touching the line inside
    return img


@pytest.mark.parametrize("reaching_out", [False, True])
def test_a_suit_touching_a_court_frame_with_its_figure_is_a_blob_of_its_own(reaching_out):
    """The photographed QH and JH of ``bidly`` in the live checks at 2.36 px/mm (a
    compressed video's QH; seed 97's JH in a show row, its other corner covered):
    the index's heart touches the frame's line, and the line runs round the court's
    figure, which touches it too: one blob 125 x 172, larger than the largest print,
    so the card was unread from that corner. Of a blob larger than the largest, the
    compact parts the opening leaves at the edge of its box are blobs of their own
    (the figure's pieces inside the frame are not).

    ``reaching_out``: a photographed QH in a show row (seed 131): a line of its frame
    reached four pixels further out than its heart, so the heart was not at the edge
    of the joined blob's box and was dropped as a piece of the figure; the card lay
    unread for three seconds and was told removed where it had been moved. A part of
    a frame is its own blob too where the paper round it lies outside the frame's
    lines (reached from the box's edge without crossing them)."""
    comps = find_components(_court_in_its_frame(reaching_out))
    near = np.hypot(comps.cx - 32, comps.cy - 100) < 3
    assert near.any(), "no blob for the heart alone"
    k = int(np.nonzero(near)[0][0])
    assert 12 <= comps.w[k] <= 17 and 12 <= comps.h[k] <= 17
    # the figure's pieces inside the frame (its round jewels, compact once the
    # opening has cut the lines) are no blobs of their own
    inside = (comps.cx > 45) & (comps.cx < 195) & (comps.cy > 45) & (comps.cy < 255)
    assert not (inside & (comps.w >= 15) & (comps.h >= 15)).any()


def test_a_calibrated_cameras_card_outlines_are_a_cards_size():
    """A row of cards each laid 23 mm over the one before is one light patch of
    paper, card-shaped at four cards (130 x 88 mm): its outline's corners were read as
    indices (a 10D at the ace's lower corner in a play row of an unseen pack). Where
    the camera is calibrated an outline must be about a card's size; a card lying
    free, poker or patience sized, still has its outline."""
    from vision.proposals import CARD_INDICES, INDEX_D_MM, Picture, all_proposals, card_quads

    px_mm = 2.36
    d = INDEX_D_MM * px_mm  # the calibrated index size
    card = (CARD_INDICES[0] * d, CARD_INDICES[1] * d)
    img = np.full((900, 1400, 3), (40, 110, 50), np.uint8)  # green felt

    def lay(x_mm, y_mm, w_mm=63.0, h_mm=88.0):
        x, y = int(x_mm * px_mm), int(y_mm * px_mm)
        cv2.rectangle(img, (x, y), (x + int(w_mm * px_mm), y + int(h_mm * px_mm)), (80,) * 3, 2)
        cv2.rectangle(
            img,
            (x + 1, y + 1),
            (x + int(w_mm * px_mm) - 1, y + int(h_mm * px_mm) - 1),
            (235, 235, 235),
            -1,
        )

    for i in range(4):  # the play row, each card over the one before
        lay(30 + 23 * i, 40)
    lay(250, 40)  # a card lying free
    lay(420, 50, 44, 67)  # a patience card

    def long_sides(quads):  # in mm, to the nearest 5
        return sorted(5 * round(float(np.linalg.norm(q[2] - q[1])) / px_mm / 5) for q in quads)

    assert long_sides(card_quads(img)) == [65, 85, 130]  # the row: a "card" 130 mm long
    assert long_sides(card_quads(img, card=card)) == [65, 85]
    # and so the row's corners are proposed as indices only where no size is known
    far = all_proposals(Picture(img))
    near = all_proposals(Picture(img, d))
    assert len(far) - len(near) == 4  # its two ends, each mirrored


def test_a_tilted_cameras_card_outlines_are_judged_by_the_scale_where_they_lie():
    """A camera tilted over the table sees its near side's cards larger than the
    markers' middle, its far side's smaller: a card on the near side whose outline is
    1.35 times the middle's card kept its outline only when judged by the
    calibration's scale where it lies; a play row's patch at that scale is still no
    card, and a row of three on the far side (0.82 times) is no card either, though
    at the middle's scale it would be card-sized. Through the recogniser, the size at
    a point is the calibration's (a homography whose scale grows across the frame),
    at the frame's own scale and at a working scale that shrinks it."""
    from vision.geometry import Calibration
    from vision.proposals import CARD_INDICES, INDEX_D_MM, card_quads
    from vision.recognize import Recognizer

    middle, near, far = 2.36, 2.36 * 1.35, 2.36 * 0.82  # px per mm
    img = np.full((1200, 1600, 3), (40, 110, 50), np.uint8)

    def lay(x, y, w_mm, h_mm, px_mm):
        w, h = int(w_mm * px_mm), int(h_mm * px_mm)
        cv2.rectangle(img, (x, y), (x + w, y + h), (80,) * 3, 2)
        cv2.rectangle(img, (x + 1, y + 1), (x + w - 1, y + h - 1), (235,) * 3, -1)

    lay(100, 100, 63, 88, middle)  # a card at the middle's scale, on the left
    lay(1000, 100, 63, 88, near)  # a card on the near side, on the right
    for i in range(4):  # a play row on the near side
        lay(1000 + int(23 * i * near), 500, 63, 88, near)
    for i in range(3):  # a row of three on the far side, below
        lay(100 + int(23 * i * far), 900, 63, 88, far)
    d = INDEX_D_MM * middle
    card = (CARD_INDICES[0] * d, CARD_INDICES[1] * d)

    def index_d_at(x, y):  # the scale across the frame, as a tilted camera's
        return INDEX_D_MM * (far if y > 750 else middle if x < 800 else near)

    def corners(quads):
        return sorted(
            (int(q[:, 0].min()) // 100 * 100, int(q[:, 1].min()) // 100 * 100) for q in quads
        )

    # the near card lost, the far row taken for a card
    assert corners(card_quads(img, card=card)) == [(100, 100), (100, 900)]
    assert corners(card_quads(img, card=card, index_d_at=index_d_at)) == [(100, 100), (1000, 100)]
    # a box of the picture: the point asked for is the whole picture's
    box = (896, 64, 1600, 480)
    asked = []

    def noted(x, y):
        asked.append((x, y))
        return index_d_at(x, y)

    x0, y0, x1, y1 = box
    got = card_quads(img[y0:y1, x0:x1], card=card, region=(box, img.shape[:2]), index_d_at=noted)
    assert len(got) == 1 and asked and all(x > 1000 for x, _ in asked)

    # the recogniser's size at a point: a homography whose millimetres per pixel fall
    # from left to right (x_mm = x_px * (1 + x_px / 4000)^-1: a perspective division)
    for px_mm in (middle, 5.0):  # a frame read as it is, and one shrunk to WORK_D
        h = np.diag([1 / px_mm, 1 / px_mm, 1.0]) @ np.array(
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1 / 4000, 0.0, 1.0]]
        )
        rec = Recognizer()
        marker = np.array([[0, 0], [10, 0], [10, 10], [0, 10.0]])
        rec.calibration = Calibration(h, {0: marker}, 0.0)
        assert rec.shrinks == (px_mm > 3)
        at = rec.picture(img).index_d_at
        assert at is not None
        s = rec.scale if rec.shrinks else 1.0

        def mm_per_px(x, px_mm=px_mm):  # the mean of d x_mm / d x and d y_mm / d y
            k = 1 + x / 4000
            return (1 / k**2 + 1 / k) / 2 / px_mm

        # in the working picture's pixels: the frame's point (x, 300) lies at
        # ((x + 0.5) s - 0.5, (300 + 0.5) s - 0.5)
        for x in (5, 1500):
            got = at((x + 0.5) * s - 0.5, 300.5 * s - 0.5)
            assert got == pytest.approx(INDEX_D_MM / mm_per_px(x) * s, rel=0.002)
        ratio = at(1500.5 * s - 0.5, 300) / at(5.5 * s - 0.5, 300)
        assert ratio > 1.4


def _decode_rows(pairs, rows):
    """Readings (``Recognizer._decode``) of proposals ``(x, y, rank blob, suit blob)``
    read ``rows`` (rank, suit, the rank's confidence, and the suit's where it is not
    1), as (card, x) sorted."""
    from vision.model import RANK_CLASSES, SUIT_CLASSES
    from vision.proposals import Proposals
    from vision.recognize import Recognizer

    f = np.float32
    props = Proposals(
        np.array([p[0] for p in pairs], f),
        np.array([p[1] for p in pairs], f),
        np.full(len(pairs), -0.35, f),
        np.full(len(pairs), -0.94, f),
        np.full(len(pairs), 22.0, f),
        np.array([p[2] for p in pairs], np.int32),
        np.array([p[3] for p in pairs], np.int32),
    )
    rank_p = np.zeros((len(rows), len(RANK_CLASSES)), f)
    suit_p = np.zeros((len(rows), len(SUIT_CLASSES)), f)
    for j, (rank, suit, conf, *of_suit) in enumerate(rows):
        rank_p[j, RANK_CLASSES.index(rank)] = conf
        rank_p[j, 0] = 1 - conf
        # (a suit read less surely: the rest of its confidence on another suit)
        sure = of_suit[0] if of_suit else 1.0
        suit_p[j, SUIT_CLASSES.index(suit)] = sure
        suit_p[j, (SUIT_CLASSES.index(suit) + 1) % len(SUIT_CLASSES)] = 1.0 - sure
    got = Recognizer()._decode(props, rank_p, suit_p)
    return sorted((d.rank + d.suit, round(d.x)) for d in got)


def test_ink_read_surely_as_one_index_is_no_second_index_of_another_rank():
    """An upside-down 10D in a font training never met, a pip beside its index: the
    10 with its own diamond read 10D (1.0), and its 0 paired with the pip read QD
    (0.992), a midpoint 17 px off, past one index's reach (SAME_INDEX): a QD was
    placed in the crib where there was none (the live check's seed 106). A reading
    that takes in a blob a surer reading kept (or one index with one kept, of its
    rank) took in, and reads another rank, is dropped; one of the same rank, or
    one of ink no surer reading took in, is kept as before."""
    decode = _decode_rows

    # 0 and 1 of the 10 are blobs 58 and 59, its diamond 62, the pip 63 (the seed's)
    ten_own = (1689.0, 1323.0, 62, 59)  # 10D
    ten_pip = (1697.0, 1323.0, 63, 59)  # 10D, one index with the first
    zero_pip = (1680.0, 1323.0, 62, 58)  # QD, 17 px from the second
    rows = [("10", "D", 1.0), ("10", "D", 1.0), ("Q", "D", 0.992)]
    assert decode([ten_pip, ten_own, zero_pip], rows) == [("10D", 1697)]
    # the same readings of ink no surer reading took in: another index, kept
    apart = (1680.0, 1323.0, 70, 71)
    assert decode([ten_pip, ten_own, apart], rows) == [("10D", 1697), ("QD", 1680)]
    # a less sure reading of the same ink and the same rank is kept as before (the
    # card read twice: CardReading's "duplicate")
    again = (1680.0, 1323.0, 62, 58)
    rows_same = [("10", "D", 1.0), ("10", "D", 1.0), ("10", "D", 0.99)]
    assert decode([ten_pip, ten_own, again], rows_same) == [("10D", 1680), ("10D", 1697)]


def test_a_rank_glyph_is_one_indexs_and_a_second_suit_paired_with_it_no_card():
    """A 10S of a four-index pack in a font training never met, on a tinted card: its
    10 with its spade read 10S (1.0), and the same 10 paired with the card's edge
    beyond it, the other way round, read 10C (0.97), a midpoint 20 px off, past one
    index's reach (SAME_INDEX): a 10C was placed on the far side of that corner
    where none lay (the live check's Skat seed 139). A reading whose rank glyph a
    surer index of another suit took as its own is dropped; one of the same card,
    or whose glyph no surer index took, is kept as before."""
    ten_spade = (958.0, 1326.0, 5, 6)  # the 10, its spade
    ten_edge = (978.0, 1328.0, 5, 7)  # the same 10, the card's edge
    rows = [("10", "S", 1.0), ("10", "C", 0.969)]
    assert _decode_rows([ten_spade, ten_edge], rows) == [("10S", 958)]
    # its glyph its own: another index, kept
    apart = (978.0, 1328.0, 8, 7)
    assert _decode_rows([ten_spade, apart], rows) == [("10C", 978), ("10S", 958)]
    # the same card read again through its glyph: kept (CardReading's "duplicate")
    same = [("10", "S", 1.0), ("10", "S", 0.969)]
    assert _decode_rows([ten_spade, ten_edge], same) == [("10S", 958), ("10S", 978)]
    # the surer reading keeps the glyph: the 10C at 0.99 over a 10S at 0.98
    surer = [("10", "S", 0.98), ("10", "C", 0.99)]
    assert _decode_rows([ten_spade, ten_edge], surer) == [("10C", 978)]


def test_a_glyph_broken_in_two_paired_with_a_pip_is_no_second_index():
    """A photographed 7H in a side seat's show row: its 7 read with its heart (1.0),
    the 7's stem, a blob apart from its bar, read with a pip beside it as KH (0.96),
    a card not there (the live check's four-player seed 112: a KH placed in show.1).
    Paired with the 7H's own heart the stem reads 7H, however weakly (0.37): it is
    that index's ink, and a less sure reading of another rank that takes it in is
    dropped. Without that pairing, or read as another suit, the KH is kept."""
    seven = (340.0, 1045.0, 54, 53)  # the 7's bar, its heart
    stem_pip = (335.0, 1067.0, 57, 59)  # the stem, a pip: KH
    stem_heart = (337.0, 1053.0, 57, 53)  # the stem, the 7's heart: 7H, weakly
    rows = [("7", "H", 1.0), ("K", "H", 0.96), ("7", "H", 0.6, 0.62)]
    assert _decode_rows([seven, stem_pip, stem_heart], rows) == [("7H", 340)]
    assert _decode_rows([seven, stem_pip], rows[:2]) == [("7H", 340), ("KH", 335)]
    other = [("7", "H", 1.0), ("K", "H", 0.96), ("7", "D", 0.6, 0.62)]
    assert _decode_rows([seven, stem_pip, stem_heart], other) == [("7H", 340), ("KH", 335)]
    # a surer reading of another rank keeps its ink: the KH at 0.99 over a 7H at 0.98
    surer = [("7", "H", 0.98), ("K", "H", 0.99), ("7", "H", 0.6, 0.62)]
    assert _decode_rows([seven, stem_pip, stem_heart], surer) == [("7H", 340), ("KH", 335)]
