"""The shipped model on real photographs and synthetic tables, through the library
and the command line. The figures the issue asks for are measured by
bench/vision.py; these tests guard them from falling far."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.evaluate import read_labels, score_image
from vision.faces import render_face
from vision.geometry import Calibration
from vision.images import read_image
from vision.recognize import SCALE_D, SOFT, Recognizer, sharpness
from vision.synth import PHOTO_VIEWS, card_on_felt, card_photo, make_scene, shaded, smeared

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"


def needs_data(test):
    """A test of the real photographs in ../shared/data: without them it fails, naming
    what is missing (CI has ../shared beside the clone; a skip would hide the gap)."""

    def run(*args, **kwargs):
        assert (DATA / "labels.csv").exists(), f"{DATA} is missing: put ../shared beside the clone"
        return test(*args, **kwargs)

    run.__name__, run.__doc__ = test.__name__, test.__doc__
    import inspect

    run.__signature__ = inspect.signature(test)
    return run


@pytest.fixture(scope="module")
def rec():
    return Recognizer()


def _opposite(det, d):
    """Where the opposite corner's index of the card ``det`` reads at (index size ``d``)
    lies: a typical card's other corner (``vision.recognize._OTHER_CORNER``)."""
    from vision.recognize import _OTHER_CORNER

    return (
        det.x + d * (_OTHER_CORNER[0] * det.uy + _OTHER_CORNER[1] * det.ux),
        det.y + d * (_OTHER_CORNER[0] * -det.ux + _OTHER_CORNER[1] * det.uy),
    )


@needs_data
def test_real_single_cards_are_identified(rec):
    singles = sorted((DATA / "bidly" / "single").glob("*.jpg"))
    assert len(singles) == 52
    right = 0
    for path in singles:
        readings = rec.read(cv2.imread(str(path)))
        right += bool(readings) and readings[0].card == path.stem.upper()
    assert right >= 50  # the bench measures 52/52 for the shipped model


@needs_data
def test_a_huge_photograph_is_read_shrunk_first(rec, monkeypatch):
    """A photograph of more than MAX_READ_PIXELS is first read shrunk to that many
    (a 144-megapixel deal photo took 4.0 GB and 12 s read at its own size first;
    1.3 GB and 8.8 s so): no reading is of a larger picture, and the deal reads as
    well as at its own size, positions in the photograph's pixels. Shown with the
    bar lowered to 2 megapixels and the 1200 x 1200 deal enlarged twice."""
    from vision import recognize

    deal = cv2.imread(str(DATA / "bidly/deals/deal1-md-sq.jpg"))
    big = cv2.resize(deal, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    labels = dict(read_labels(DATA))["bidly/deals/deal1-md-sq.jpg"]
    own = score_image("deal1", labels, rec.read_any_scale(big))
    read_sizes: list[int] = []
    plain = Recognizer.detect_indices

    def detect_indices(self, image):
        read_sizes.append(image.shape[0] * image.shape[1])
        return plain(self, image)

    monkeypatch.setattr(recognize, "MAX_READ_PIXELS", 2_000_000)
    monkeypatch.setattr(Recognizer, "detect_indices", detect_indices)
    readings = rec.read_any_scale(big)
    assert max(read_sizes) <= 2_000_000 < big.shape[0] * big.shape[1]
    shrunk = score_image("deal1", labels, readings)
    assert shrunk.found >= own.found - 1 and shrunk.false_positives == 0
    assert rec.last_scale < 0.6
    h, w = big.shape[:2]
    assert all(0 <= i.x < w and 0 <= i.y < h for r in readings for i in r.indices)


@needs_data
def test_a_real_card_photographed_close_enough_to_fill_the_frame_is_read(rec, tmp_path, capsys):
    singles = sorted((DATA / "bidly" / "single").glob("*.jpg"))[::7]
    right = 0
    for k, path in enumerate(singles):
        photo = cv2.imread(str(path))
        # the card fills a phone's frame: indices several times what the network reads
        big = cv2.resize(photo, None, fx=5 + k % 4, fy=5 + k % 4, interpolation=cv2.INTER_CUBIC)
        assert not any(r.confidence >= rec.confident for r in rec.read(big))
        readings = rec.read_any_scale(big)
        right += bool(readings) and readings[0].card == path.stem.upper()
        assert rec.last_scale < 1.0
        # positions come back in the photo's own pixels: the index lies in the photo
        # and its size is the photo's (the card's outline is a guess from the index)
        h, w = big.shape[:2]
        assert all(0 <= i.x < w and 0 <= i.y < h and i.d > 60 for i in readings[0].indices)
    assert right == len(singles)
    cv2.imwrite(str(tmp_path / "close.jpg"), big)
    assert main(["vision", "identify", str(tmp_path / "close.jpg"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scale"] < 1.0 and out["cards"][0]["card"] == singles[-1].stem.upper()


def test_a_card_filling_the_frame_is_not_settled_by_its_outline_alone(rec):
    """An index far larger than the blob stage pairs is proposed only where the card's
    outline puts a typical deck's index; this pack prints it elsewhere, and the
    outline's guess reads surely as another card. The scale search goes on to where
    the index itself is read."""
    face = render_face("6S", np.random.default_rng(544))
    big = cv2.resize(face.image, None, fx=6, fy=6, interpolation=cv2.INTER_CUBIC)
    alpha = cv2.resize(face.alpha, None, fx=6, fy=6)[..., None] / 255.0
    h, w = big.shape[:2]
    photo = np.full((h + 200, w + 200, 3), (60, 90, 120), np.uint8)
    part = photo[100 : 100 + h, 100 : 100 + w]
    photo[100 : 100 + h, 100 : 100 + w] = (big * alpha + part * (1 - alpha)).astype(np.uint8)
    native = [r for r in rec.read(photo) if r.confidence >= rec.confident]
    # the outline's guess, surely another card by its index (a 6C); since 2026-12-07
    # the face's pips in plain sight show it a spade (docs/vision.md "A suit told by
    # its pips' shapes"), and its index glyph's outline may too ("A club told by its
    # outline"), but the index itself is not what was read
    told = {"suit-by-pips", "suit-by-shape"}
    assert native and (native[0].card != "6S" or told & set(native[0].flags))
    assert all(min(i.d for i in r.indices) > SCALE_D for r in native)
    readings = rec.read_any_scale(photo)
    assert readings[0].card == "6S" and rec.last_scale < 1.0


@pytest.mark.parametrize(
    ("finer", "kept"),
    [
        (("3H", 1.0), ["3H"]),
        (None, ["3H", "5H"]),
        (("QD", 0.5), ["3H", "5H"]),
        (("5H", 0.5), ["3H", "5H"]),
    ],
)
def test_a_corner_misread_at_a_coarse_scale_is_denied_by_a_finer_one(monkeypatch, finer, kept):
    """A phone photo read by the scale search: the card's indices too large at its
    own size (112 px), readable at a half and a quarter. At an eighth (14 px, smaller
    than the networks read best) its lower corner reads as another card, a 5H, which
    would win that scale the search with two cards for one (KDE's standard pack's
    flat-topped 3H did so, at arm's length). A finer scale at which that corner is of
    a readable size read it surely as another card: no 5H. Where the finer one read
    nothing there, another card only doubtfully, or the 5H itself, the 5H stands."""
    from vision.recognize import IndexDetection

    upper, lower = (800.0, 400.0), (600.0, 1000.0)

    def at(k, card, spot, sure=1.0):
        return IndexDetection(
            card[:-1], card[-1], sure, sure, spot[0] * k, spot[1] * k, 0, 1, 112 * k
        )

    quarter = [at(0.25, "3H", upper)] + ([at(0.25, finer[0], lower, finer[1])] if finer else [])
    script = {
        1600: [at(1, "3H", upper)],
        800: [at(0.5, "3H", upper)],
        400: quarter,
        200: [at(0.125, "3H", upper), at(0.125, "5H", lower)],
    }
    monkeypatch.setattr(Recognizer, "detect_indices", lambda self, image: script[image.shape[1]])
    rec = Recognizer()  # (its own: nothing learnt of faces by other tests)
    readings = rec.read_any_scale(np.full((1600, 1600, 3), 128, np.uint8))
    assert sorted(r.card for r in readings) == kept
    # the card's own corner at the coarse scale, a sight no finer scale denies, stands
    assert "3H" in [r.card for r in readings]


def test_a_coarse_sight_is_denied_only_by_what_every_readable_finer_scale_says():
    """``_coarse_sight`` on its own: a corner read 5C at an eighth (its detection a 5S,
    its suit weighed by its glyph) against what finer scales read at its spot."""
    from vision.recognize import CardReading, IndexDetection, _coarse_sight

    def det(card, k, sure=1.0, d=112.0):  # (in the picture's own pixels)
        return IndexDetection(card[:-1], card[-1], sure, sure, 600.0, 1000.0, 0, 1, d)

    corner = det("5S", 0.125)
    coarse = CardReading("5C", 1.0, 1.0, ((0, 0), (1, 0), (1, 1), (0, 1)), (corner,))
    quarter, half = 0.25, 0.5  # the index 28 and 56 px there: both readable

    def denied(*finer, index_k=1.0, card=coarse):
        return _coarse_sight(card, 0.125, list(finer), 0.8, index_k)

    assert denied((quarter, [det("3C", quarter)]))
    assert not denied((quarter, []))
    assert not denied((quarter, [det("3C", quarter, sure=0.5)]))
    # as detected (a 5S) or as weighed (a 5C): this card, not another
    assert not denied((quarter, [det("5S", quarter)]))
    assert not denied((quarter, [det("5C", quarter)]))
    # one readable scale reading it as this card outweighs another's other card
    assert not denied((quarter, [det("3C", quarter)]), (half, [det("5C", half, sure=0.5)]))
    # elsewhere than its spot, or a scale at which the index is not readable (an
    # eighth again, 14 px; four times, 448 px), says nothing
    away = replace(det("3C", quarter), x=900.0)
    assert not denied((quarter, [away]))
    assert not denied((0.125, [det("3C", 0.125)]), (4.0, [det("3C", 4.0)]))
    # read at two corners: no coarse sight
    pair = replace(coarse, indices=(corner, replace(corner, x=100.0)))
    assert not denied((quarter, [det("3C", quarter)]), card=pair)
    # a pack whose index is printed twice a typical one's: its detections' d are
    # typical (56), its index 14 px at an eighth as printed, 28 at a quarter
    jumbo = replace(coarse, indices=(replace(corner, d=56.0),))
    assert denied((quarter, [det("3C", quarter, d=56.0)]), index_k=2.0, card=jumbo)
    assert not denied((quarter, [det("3C", quarter, d=56.0)]), index_k=1.0, card=jumbo)


@pytest.mark.parametrize("view", list(PHOTO_VIEWS))
def test_a_card_photographed_at_any_scale_is_identified(rec, view):
    """A phone's frame filled, a lamp at arm's length, the Pi camera's blue cast, a dim
    webcam: nothing gives the scale, from a 1700 x 2300 frame down to 320 x 240."""
    for k, code in enumerate(("10S", "QH", "7D")):
        photo = card_photo(code, np.random.default_rng(100 + k), view)
        readings = rec.read_any_scale(photo)
        assert readings and readings[0].card == code, (view, code, readings[:1])
        # and nothing else read surely (the bench's part `single` counts those: a 10H
        # under the blue cast, seed 100, reads as a 10D at 0.99999999 too)
        others = [r.card for r in readings if r.card != code and r.confidence >= rec.confident]
        assert others == [], (view, code, others)


def _jumbo_on_felt(code: str, seed: int, k: float = 1.8) -> tuple[np.ndarray, tuple[float, float]]:
    """A rendered face whose two indices are printed ``k`` times larger (a "jumbo
    index" pack), lying square on felt at the club mounting's 2.36 px/mm; and the
    card's middle."""
    from vision.faces import H, W

    face = render_face(code, np.random.default_rng(seed))
    img = face.image.copy()
    a = face.anchors[0]
    x0, y0 = int(max(0, a.x - 0.9 * a.d)), int(max(0, a.y - 1.5 * a.d))
    x1, y1 = int(a.x + 0.9 * a.d), int(a.y + 1.3 * a.d)
    big = cv2.resize(img[y0:y1, x0:x1], None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    bh, bw = big.shape[:2]
    paper = img[H // 2, 8].copy()
    img[: int(y1 * k) + 4, : int(x1 * k) + 4] = paper
    img[H - int(y1 * k) - 4 :, W - int(x1 * k) - 4 :] = paper
    img[y0 : y0 + bh, x0 : x0 + bw] = big[: H - y0, : W - x0]
    img[H - y0 - bh : H - y0, W - x0 - bw : W - x0] = cv2.rotate(big, cv2.ROTATE_180)
    s = 149 / W
    card = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(face.alpha, (card.shape[1], card.shape[0]))[..., None] / 255.0
    felt = np.full((900, 900, 3), (40, 105, 35), np.uint8)
    spot = felt[300 : 300 + card.shape[0], 350 : 350 + card.shape[1]]
    spot[:] = (card * alpha + spot * (1 - alpha)).astype(np.uint8)
    return felt, (350 + card.shape[1] / 2, 300 + card.shape[0] / 2)


def test_a_jumbo_index_pack_is_read_where_its_layout_says_so():
    """A pack printing its index 1.8 times a typical one's (KDE's Nicu packs print
    theirs 2.2 times: a live video of one placed 2 of its 34 cards). A calibrated
    camera looks for indices of a typical size and takes a reading 1.6 times that
    for no card of the pack. The layout's [deck] index_mm says the pack's: the
    indices are looked for at that size, and each reading's size is given as a
    typical index's, so the card's middle is reckoned as for any pack."""
    from dataclasses import replace

    from vision.decks import find_deck
    from vision.recognize import card_middle

    jumbo = replace(find_deck("french-52"), index_mm=8.5 * 1.8)
    typical_read = 0
    for seed, code in enumerate(("7C", "QH", "10D", "4S"), start=1):
        picture, middle = _jumbo_on_felt(code, seed)
        for deck in (None, jumbo):
            reader = Recognizer(deck=deck)
            reader.index_px, reader.scale = 20.0, 1.0  # as a calibration at 2.36 px/mm
            sure = [r for r in reader.read(picture) if r.confidence >= reader.confident]
            if deck is None:
                typical_read += any(r.card == code for r in sure)
                continue
            assert [r.card for r in sure] == [code], (code, sure)
            x, y = card_middle(sure[0].indices[0], reader.index_px)
            assert math.hypot(x - middle[0], y - middle[1]) < 35, (code, (x, y), middle)
    assert typical_read <= 1


@needs_data
def test_another_packs_face_is_photographed_as_given(rec):
    """card_photo takes a face another pack prints (the vision bench's KDE decks, here
    the real photographed pack's), and refuses one of another card."""
    from vision.faces import photo_faces

    faces = {f.code: f for f in photo_faces(DATA / "bidly" / "single")}
    for k, code in enumerate(("9H", "KC")):
        view = list(PHOTO_VIEWS)[k]
        photo = card_photo(code, np.random.default_rng(7 + k), view, face=faces[code])
        assert rec.read_any_scale(photo)[0].card == code, (code, view)
    with pytest.raises(ValueError, match="the face given is 9H's, not KC's"):
        card_photo("KC", np.random.default_rng(0), view, face=faces["9H"])


@needs_data
def test_a_real_overhead_deal_is_read_with_few_mistakes(rec):
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal1-md-sq.jpg"
    got = {r.card for r in rec.read(cv2.imread(str(DATA / file)))}
    want = set(rows[file])
    assert len(got & want) >= 0.9 * len(want)
    assert len(got - want) <= 1


@pytest.mark.parametrize(("light", "angle"), [(0.25, 45.0), (0.35, None)])
@needs_data
def test_a_real_deal_under_a_hard_shadow_or_in_dim_light_is_read(rec, light, angle):
    """Issue 11: "a deal on a white table under a hard shadow cast across the cards:
    25 of 51 cards (49 %)". A real deal with its lower right under a sharp shadow at
    a quarter of the light was read 26 of 45, and the whole photograph at 35 % of
    its exposure 30 of 45: ink's steps were grey levels of paper in good light.
    Its contrasts are now lifted where the light is dim (Picture.lift): 44 and 45."""
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal2-md-sq.jpg"
    got = {r.card for r in rec.read(shaded(cv2.imread(str(DATA / file)), light, angle))}
    want = set(rows[file])
    assert len(got & want) >= 0.9 * len(want), sorted(want - got)
    assert got <= want


@pytest.mark.parametrize(
    ("file", "cards"),
    [("deal1-md-sq.jpg", {"2C"}), ("deal3-md-sq.jpg", {"8D", "QC"}), ("deal2-md-sq.jpg", {"KS"})],
)
@needs_data
def test_a_real_deal_with_a_shadows_edge_through_its_indices_is_read(rec, file, cards):
    """The real deals with their lower half at a quarter of the light read 130 of
    138 cards. Two causes: an index the shadow's edge crosses (the 2C's rank lit,
    its suit in the shadow; the 8D's diamond) was read as no index, and paper deep
    in the shadow (about 45 grey, the QC and KS) fell under the paper bars' floor
    of 40. A patch across the edge is now evened (proposals._evened) and the floor
    is 30: 134 of 138, nothing false. These cards were each missed before."""
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    image = shaded(cv2.imread(str(DATA / "bidly" / "deals" / file)), 0.25, 90.0)
    got = {r.card for r in rec.read(image)}
    want = set(rows[f"bidly/deals/{file}"])
    assert cards <= got, sorted(cards - got)
    assert len(got & want) >= len(want) - 2, sorted(want - got)
    assert got <= want


@needs_data
def test_a_deal_photographed_at_a_slant_has_its_squeezed_indices_read(rec):
    """Issue 11: phone photos of a deal are not always taken square from overhead.
    At a slant (far side 70 % as wide) the real deals read 131 of 138: the far
    side's indices, squeezed across, read as no index. A single picture's sure
    gate proposals read as no index or doubtfully are cut again as if unsqueezed
    (Recognizer._squeezed): the second deal's 3D and 4D, missed before, are read,
    nothing false; a frame of the live loop (Recognizer.read) is not cut again."""
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal2-md-sq.jpg"
    photo = cv2.imread(str(DATA / file))
    h, w = photo.shape[:2]  # the far (top) side 70 % as wide, as bench/vision.py slants it
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.15 * w, 0], [0.85 * w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    image = cv2.warpPerspective(photo, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
    want = set(rows[file])
    got = {r.card for r in rec.read_any_scale(image)}
    assert {"3D", "4D"} <= got, sorted(want - got)
    assert got <= want
    assert rec.squeezes == ()  # set only while a single picture is read
    assert not {"3D", "4D"} <= {r.card for r in rec.read(image)}


def test_an_index_squeezed_across_is_cut_as_it_was_at_that_aspect():
    """extract_patches(aspect=a) cuts a stretch a times as wide across the index:
    the patch of a picture squeezed to 80 % across is the unsqueezed picture's patch
    (to the resampling's blur)."""
    from vision.proposals import Proposals, extract_patches

    face = render_face("8D", np.random.default_rng(3))
    image = cv2.copyMakeBorder(face.image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(60, 110, 50))
    h, w = image.shape[:2]
    squeezed = cv2.resize(image, (round(w * 0.8), h), interpolation=cv2.INTER_AREA)
    upright = [a for a in face.anchors if a.uy > 0.9]  # the upper index, "down" is down
    assert upright
    x, y, d = 40 + upright[0].x, 40 + upright[0].y, upright[0].d

    def one(px: float) -> Proposals:
        f = np.float32
        return Proposals(
            np.array([px], f),
            np.array([y], f),
            np.array([0.0], f),
            np.array([1.0], f),
            np.array([d], f),
            np.array([0], np.int32),
            np.array([0], np.int32),
        )

    plain = extract_patches(image, one(x)).astype(np.float32)
    back = extract_patches(squeezed, one(x * 0.8), aspect=0.8).astype(np.float32)
    wrong = extract_patches(squeezed, one(x * 0.8)).astype(np.float32)
    assert np.abs(back - plain).mean() < 0.5 * np.abs(wrong - plain).mean()


@pytest.mark.parametrize("gain", [1.5, 2.0])
@needs_data
def test_an_overexposed_photograph_is_read(rec, gain):
    """A real deal on cork photographed one stop over (its paper clipped white, the
    cork 150 grey and more, its grain lit to 200) read 22 of 44 cards at 1.5 times
    the exposure and 2 at twice: the cork passed for paper (anything over 150
    was light), the white balance was taken from it (clipped paper was left out of
    the sample), and of its thousand grains ringed by "paper" the blob cap kept the
    first 600 from the top. Now an overexposed picture asks 70 % of white for paper
    (``_paper_bars``) and its clipped paper is white (``Picture.gains``), which
    cut the work; over the cap the blobs of strong ink come first
    (``_Blobs.strong``), which reads the cards."""
    from vision.proposals import Picture

    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal1-md-sq.jpg"
    image = cv2.imread(str(DATA / file))
    over = np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    assert np.allclose(Picture(over).gains, 1.0)
    got = {r.card for r in rec.read_any_scale(over)}
    want = set(rows[file])
    assert len(got & want) >= 0.9 * len(want), sorted(want - got)
    assert got <= want


@needs_data
def test_an_underexposed_photograph_is_read_brightened(rec):
    """The real deals at a seventh of their exposure (paper about 30 grey, at the
    paper bars' floor) read nothing as they are: a single picture whose bright end
    is that dark is read brightened (vision.recognize.exposed). At a fifth (paper
    about 45 grey) the deals read 74 of 138 cards before the floor came down from
    40 to 30 (proposals.NEAR_FLOOR), 134 brightened. One deal: all but one card or
    so, nothing false."""
    from vision.recognize import exposed

    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal3-md-sq.jpg"
    image = cv2.imread(str(DATA / file))
    want = set(rows[file])
    for light in (0.2, 0.15):
        dim = shaded(image, light, None)
        if light < 0.2:  # under the floor as it is
            assert len({r.card for r in rec.read(dim)} & want) < 0.5 * len(want)
        got = {r.card for r in rec.read_any_scale(dim)}
        assert rec.last_gain > 3.0
        assert len(got & want) >= len(want) - 2, sorted(want - got)
        assert got <= want
    # a picture exposed well, or a dim one with bright cards in it, is left alone
    assert exposed(image)[1] == 1.0
    assert exposed(shaded(image, 0.35, None))[1] == 1.0
    night = np.full((400, 400, 3), 20, np.uint8)
    night[:30, :30] = 240  # a card's corner: its 0.56 % of the picture is the bright end
    assert exposed(night)[1] == 1.0


@needs_data
def test_a_photograph_whose_indices_are_too_small_is_read_at_twice_its_size(rec):
    """The pinochle photos shrunk to half (most 189 x 252, ranks of 5 to 13 px) read 68 of
    111 ranks at their own size, and the search only ever shrank a picture; read
    again at twice the size, 107 with 1 false. A real deal at half: 35 -> 39 of 44."""
    found = labelled = extra = 0
    for file, labels in read_labels(DATA):
        if not file.startswith("edje-pinochle/"):
            continue
        image = cv2.imread(str(DATA / file))
        small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        score = score_image(file, labels, rec.read_any_scale(small))
        found, labelled = found + score.found, labelled + score.labelled
        extra += len(score.extra)
    assert found >= 0.9 * labelled and extra <= 3, (found, labelled, extra)
    deal = cv2.imread(str(DATA / "bidly/deals/deal1-md-sq.jpg"))
    half = rec.read_any_scale(cv2.resize(deal, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    assert rec.last_scale == 2.0  # (and sharpened: enlarged, its edges are soft)
    whole = rec.read_any_scale(deal)  # indices of 22 px at the median: its own size
    assert rec.last_scale == 1.0
    # the enlarged reading's indices lie where the whole photograph's do, halved (a
    # card may be read by its other corner at one size: most, not all, coincide)
    at = {(r.card, i): (d.x, d.y, d.d) for r in whole for i, d in enumerate(r.indices)}
    off = []
    for r in half:
        for d in r.indices:
            near = [
                np.hypot(d.x - (x + 0.5) / 2 + 0.5, d.y - (y + 0.5) / 2 + 0.5) / (dd / 2)
                for (card, _), (x, y, dd) in at.items()
                if card == r.card
            ]
            if near:
                off.append(min(near))
    assert len(off) >= 30 and np.mean(np.array(off) < 0.3) >= 0.8, sorted(off)


@needs_data
def test_a_blurred_photograph_is_read_sharpened_and_a_sharp_one_as_it_is(rec):
    """A real deal blurred by a Gaussian of 1.5 px (a camera out of focus) read 20 of
    45 cards: its ranks' thin strokes fade while the suits stay. Its edges are soft
    (sharpness 0.25, the photographs as taken 0.37 to 0.50), so it is read again
    sharpened: 41 of 45 with the mildest mask alone (the red ranks 10, 7, J and Q of
    hearts stayed within the ink step of a window that takes in the dark cork), all
    45 with the stronger ones too, nothing false; blurred 2 px, all 45 with the
    strongest. The photograph as taken is not sharpened."""
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    file = "bidly/deals/deal2-md-sq.jpg"
    image = cv2.imread(str(DATA / file))
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    assert sharpness(blurred) < SOFT <= sharpness(image)
    got = {r.card for r in rec.read_any_scale(blurred)}
    want = set(rows[file])
    assert rec.last_sharpened
    assert len(got & want) >= len(want) - 1 and got <= want, sorted(want - got)
    # blurred 2 px: 35 of 45 sharpened 1.5 and 3 times, every card 5 times too
    got = {r.card for r in rec.read_any_scale(cv2.GaussianBlur(image, (0, 0), 2.0))}
    assert len(got & want) >= len(want) - 1 and got <= want, sorted(want - got)
    rec.read_any_scale(image)
    assert not rec.last_sharpened


def single_card_table(code: str) -> np.ndarray:
    """One upright card on green cloth, both corner indices in view."""
    face = render_face(code, np.random.default_rng(7))
    table = np.full((500, 420, 3), (40, 110, 50), np.uint8)
    table[75:425, 85:335][face.alpha > 127] = face.image[face.alpha > 127]
    return table


def test_one_card_seen_by_both_corners_is_one_card(rec):
    readings = rec.read(single_card_table("7C"))
    assert [r.card for r in readings] == ["7C"]
    assert len(readings[0].indices) == 2 and "duplicate" not in readings[0].flags
    xs = [x for x, _ in readings[0].corners]
    assert 60 < min(xs) < 110 and 310 < max(xs) < 360  # the outline fits the card


def test_identify_json_and_annotate(tmp_path, capsys):
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), single_card_table("QH"))
    assert main(["vision", "identify", str(image), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (card,) = out["cards"]
    assert card["card"] == "QH" and 0.5 < card["confidence"] <= 1.0
    assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
    drawn = tmp_path / "drawn.png"
    assert main(["vision", "annotate", str(image), str(drawn)]) == 0
    assert "1 cards" in capsys.readouterr().out
    assert (cv2.imread(str(drawn)) != cv2.imread(str(image))).any()


def test_eval_prints_per_image_and_total(tmp_path, capsys):
    for code in ("2D", "KS"):
        cv2.imwrite(str(tmp_path / f"{code}.png"), single_card_table(code))
    (tmp_path / "labels.csv").write_text("file,cards\n2D.png,2D\nKS.png,KS 5H\n")
    assert main(["vision", "eval", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("2D.png: recall 1/1")
    assert lines[1].startswith("KS.png: recall 1/2") and "missed 5H" in lines[1]
    assert lines[2] == "total: 2 images, recall 2/3 = 0.6667, precision 2/2 = 1.0000"


def test_watch_places_cards_once_and_a_passing_hand_changes_nothing(tmp_path, capsys):
    scene = make_scene(np.random.default_rng(21), size=(960, 720), d_range=(16.0, 24.0), hands=0.0)
    folder = tmp_path / "frames"
    folder.mkdir()
    for f in range(40):  # 4 s at 10 frames a second; a hand sweeps through in the middle
        img = scene.image.copy()
        if 15 <= f < 25:
            x = int(-150 + 130 * (f - 15))
            cv2.ellipse(img, (x, 360), (110, 80), 20, 0, 360, (120, 150, 210), -1)
        cv2.imwrite(str(folder / f"{f:03d}.png"), img)
    assert main(["vision", "watch", str(folder), "--fps", "10"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    placed = [e for e in events if e.get("kind") == "placed"]
    assert placed and all(e["t"] < 1.5 for e in placed)  # all at the start
    assert len({e["card"] for e in placed}) == len(placed)  # each card once
    assert not [e for e in events if e.get("kind") in ("removed", "moved")]


def test_doubtful_readings_are_read_again_at_two_other_scales(rec):
    # the bench's occlusion table: the ace of spades' lower index lies under score-pad
    # writing ("880"), and the ace with the writing under it reads as a doubtful 4S
    from dataclasses import replace

    from vision.proposals import Picture, Pyramid, all_proposals, extract_patches
    from vision.recognize import RECHECK, RECHECK_SCALES
    from vision.synth import d_for_mounting

    scene = make_scene(  # as bench/vision.py's occlusion_video makes it
        np.random.default_rng(9_000_000 - 1),
        size=(1280, 720),
        d_range=(d_for_mounting(2.35), d_for_mounting(3.0)),
        hands=0.0,
    )
    image, cards = scene.image, scene.cards
    pic = Picture(image)  # the reader lifts patches in dim light (Picture.lift): so here
    props = all_proposals(pic)
    first_r, first_s = rec.classifier.read(Pyramid(image, pic.lift), props)
    rank_c = first_r.max(axis=1)
    doubt = (
        (first_r.argmax(axis=1) > 0) & (rank_c >= 0.3) & (rank_c * first_s.max(axis=1) < RECHECK)
    )
    assert doubt.any()
    readings = rec.read(image)
    assert rec.timings["rechecked_n"] == doubt.sum()
    # each doubtful proposal ends as the mean of its three readings
    rank_p, suit_p = first_r.copy(), first_s.copy()
    assert rec._recheck(Pyramid(image, pic.lift), props, rank_p, suit_p) == doubt.sum()
    sub = props.take(np.nonzero(doubt)[0])
    again = [
        rec.classifier.classify(
            extract_patches(Pyramid(image, pic.lift), replace(sub, d=sub.d * s))
        )
        for s in RECHECK_SCALES
    ]
    want = (first_r[doubt] + sum(r for r, _ in again)) / 3
    assert np.allclose(rank_p[doubt], want, atol=1e-5)
    assert np.array_equal(rank_p[~doubt], first_r[~doubt])  # the sure ones are untouched
    # and what is read surely is on the table (a doubt is flagged: the shipped model
    # reads one queen of the writing at 0.51, which the tracker, at 0.7, never places)
    assert {r.card for r in readings if "low-confidence" not in r.flags} <= set(cards)
    assert all(r.confidence < 0.7 for r in readings if r.card not in cards)


def test_a_deck_profile_reads_only_its_packs_ranks():
    from vision.decks import find_deck
    from vision.model import RANK_CLASSES

    skat = Recognizer(deck=find_deck("skat-32"))
    # a patch the network half took for a 2 and half for a 7: a Skat pack has no 2
    p = np.zeros((3, len(RANK_CLASSES)), np.float32)
    p[0, RANK_CLASSES.index("2")], p[0, RANK_CLASSES.index("7")], p[0, 0] = 0.55, 0.4, 0.05
    # surely a 3, a rank the pack lacks: that is nothing sure, not a 7
    p[1, RANK_CLASSES.index("3")], p[1, RANK_CLASSES.index("7")], p[1, 0] = 0.97, 0.01, 0.02
    p[2, 0] = 1.0
    skat._in_deck(p)
    assert p[0].argmax() == RANK_CLASSES.index("7") and p[0].max() == pytest.approx(0.4 / 0.45)
    assert p[1].max() < 0.7 and p[1, RANK_CLASSES.index("3")] == 0.0
    assert p[2, 0] == 1.0 and np.allclose(p.sum(axis=1), 1.0)
    # over whole scenes: nothing outside the pack is ever read
    for seed in range(5):
        scene = make_scene(np.random.default_rng(700 + seed), size=(960, 720))
        ranks = {r.rank for r in skat.read(scene.image)}
        assert ranks <= set(find_deck("skat-32").ranks)


@pytest.mark.parametrize("seed, card", [(9_200_005, "5D"), (9_200_022, "8D"), (9_200_042, "3D")])
def test_a_four_colour_packs_pale_orange_diamonds_are_read_where_its_profile_says_so(seed, card):
    """The German tournament pack's orange diamonds print thin and pale: too little
    red for the red ink test, too light for the dark one. The synthetic bench's German
    scenes (these seeds among them) missed them with no proposal at all; read with a
    four-colour profile (``skat-32-four-colour``; here every rank, as the bench's
    scenes hold them all) ink warmer than its paper is red ink too."""
    import dataclasses

    from vision.decks import find_deck
    from vision.synth import d_for_mounting

    four = dataclasses.replace(find_deck("french-52"), four_colour=True)
    scene = make_scene(
        np.random.default_rng(seed),
        size=(960, 720),
        d_range=(d_for_mounting(2.35), d_for_mounting(3.5)),
        deck="german4",
    )
    assert card in {scene.cards[t.card] for t in scene.indices if t.visible}
    assert card not in {r.card for r in Recognizer().read(scene.image)}
    assert card in {r.card for r in Recognizer(deck=four).read(scene.image)}


def test_warmth_is_the_inks_own_not_a_yellowish_papers_or_a_warm_lamps():
    """``_warmer``: red less blue, white-balanced, less its mean round about. Thin
    orange strokes on white card stand 22 and more over it; black letters on
    yellowish newsprint, and black strokes on white card under a tungsten lamp, stand
    under it (a stroke's edge is as warm as its paper, or less)."""
    from vision.proposals import Picture, _warmer, channels

    def strokes(paper, ink, lamp=(1.0, 1.0, 1.0)):
        # a white card beside the paper: the picture's white balance is the card's
        image = np.full((200, 600, 3), (235, 238, 240), np.float32)
        image[:, 300:] = paper
        for x in range(320, 580, 12):
            image[30:170, x : x + 2] = ink  # 2 px strokes, blurred as a camera does
        image = cv2.GaussianBlur(image, (0, 0), 0.8) * np.float32(lamp)
        pic = Picture(np.clip(image, 0, 255).astype(np.uint8))
        b, _, r = channels(pic.image)
        return _warmer(pic, r, b, pic.background_k)[30:170, 320:580]

    # a pale orange (BGR) as the German ranks print it: red over green and blue 20,
    # under the red ink bar once blurred, but twice that over blue alone
    orange = (185, 215, 235)
    assert strokes((235, 238, 240), orange).max() >= 22
    image = np.full((60, 60, 3), (235, 238, 240), np.uint8)
    image[10:50, 29:31] = orange
    b, g, r = channels(cv2.GaussianBlur(image, (0, 0), 0.8))
    assert cv2.subtract(r, cv2.max(g, b)).max() < 22  # the red ink test alone misses it
    assert strokes((170, 200, 215), (30, 30, 30)).max() < 22  # black on newsprint
    assert strokes((235, 238, 240), (30, 30, 30), lamp=(0.55, 0.85, 1.1)).max() < 22


def test_an_unknown_deck_on_the_command_line_is_named(tmp_path, capsys):
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), single_card_table("QH"))
    assert main(["vision", "identify", str(image), "--deck", "tarot-78"]) == 2
    assert "--deck: unknown deck 'tarot-78'" in capsys.readouterr().err
    assert main(["vision", "identify", str(image), "--deck", "skat-32", "--json"]) == 0
    assert [c["card"] for c in json.loads(capsys.readouterr().out)["cards"]] == ["QH"]


def test_two_corners_of_one_card_read_as_different_cards_are_both_doubtful():
    from dataclasses import replace

    from vision.recognize import IndexDetection

    d = 20.0
    nine = IndexDetection("9", "H", 0.99, 0.99, 200.0, 150.0, 0.0, 1.0, d)
    # the opposite corner: turned round, where a card's other index lies
    ex, ey = _opposite(nine, d)
    jack = IndexDetection("J", "H", 0.98, 0.98, ex, ey, 0.0, -1.0, d)  # half covered: a "J"
    rec = Recognizer(threshold=0.0)
    readings = {r.card: r for r in rec.cards([nine, jack])}
    assert set(readings) == {"9H", "JH"}
    assert all("corners-disagree" in r.flags for r in readings.values())
    # the surer corner stands; the other is only as sure as that leaves room for
    assert readings["9H"].confidence == pytest.approx(0.99)
    assert readings["JH"].confidence == pytest.approx(0.98 * 0.01)
    tie = {r.card: r for r in rec.cards([nine, replace(jack, confidence=0.99)])}
    assert all(r.confidence < 0.05 for r in tie.values())  # on a tie neither is sure
    # the same corners agreeing are one sure card
    (one,) = rec.cards([nine, IndexDetection("9", "H", 0.98, 0.98, ex, ey, 0.0, -1.0, d)])
    assert one.card == "9H" and len(one.indices) == 2 and one.confidence > 0.99
    # a card of a row beside it, turned the other way but not where the corner lies
    other = IndexDetection("J", "H", 0.98, 0.98, ex + 3 * d, ey, 0.0, -1.0, d)
    assert all(not r.flags for r in rec.cards([nine, other]))


def test_one_index_read_again_at_a_larger_size_as_another_card_gives_way():
    # a URW 4H shot by the Pi camera: both corners read 4H at 1.00, and the lower
    # corner's 4 and heart read again with an index 1.4 times the size, a little off,
    # as a 4D at 1.00, which stood as a second card
    from dataclasses import replace

    from vision.recognize import IndexDetection, _opposite_index

    d = 34.0
    upper = IndexDetection("4", "H", 1.0, 1.0, 180.0, 270.0, 0.0, 1.0, d)
    lower = _opposite_index(upper)
    again = IndexDetection("4", "D", 0.999, 1.0, lower.x + 4, lower.y + 24, 0.0, -1.0, 1.4 * d)
    rec = Recognizer(threshold=0.0)
    readings = {r.card: r for r in rec.cards([upper, lower, again])}
    assert readings["4H"].confidence == 1.0 and not readings["4H"].flags
    assert "one-ink" in readings["4D"].flags and readings["4D"].confidence < 0.01
    # a card whose two corners were not joined (two readings apart) is read more often
    # than the one reading, if as sure, of the ink it shares with one of them
    far = replace(upper, x=upper.x - 400)  # too far to be the lower corner's card
    readings = {r.card: r for r in rec.cards([far, lower, again])}
    assert "one-ink" in readings["4D"].flags and readings["4D"].confidence < 0.01
    # ... not if less sure (a real deal's JC at 1.00 and a 3D at 0.57 reading its ink
    # with a larger index, the real 3D read elsewhere)
    jack = IndexDetection("J", "C", 1.0, 1.0, 847.0, 291.0, 0.0, 1.0, 19.7)
    three = IndexDetection("3", "D", 0.57, 0.9, 834.0, 303.0, 0.0, 1.0, 26.6)
    elsewhere = replace(three, x=200.0, confidence=1.0)
    readings = {r.card: r for r in rec.cards([jack, three, elsewhere])}
    assert readings["JC"].confidence == 1.0 and not readings["JC"].flags
    # two cards of one pack side by side are not one index's ink
    beside = replace(again, x=lower.x + 0.8 * d, y=lower.y, d=d)
    assert all(not r.flags for r in rec.cards([upper, lower, beside]))


@pytest.mark.parametrize(("code", "rep", "seed"), [("4H", 2, 123), ("AH", 3, 123), ("4C", 2, 777)])
def test_a_single_card_in_an_unseen_font_is_not_read_again_as_another_at_a_larger_size(
    code, rep, seed
):
    # the single-card bench's views of a pack printed in fonts training never meets: a
    # 4D read at 1.00 in a 4H and in an AH, a 4S at 0.99 in a 4C, beside the card itself
    from vision.synth import CODES

    views = list(PHOTO_VIEWS)
    i = CODES.index(code)
    image = card_photo(
        code,
        np.random.default_rng(seed + rep * 1000 + i),
        views[(i + rep) % len(views)],
        fonts="unseen",
        deck="mixed",
    )
    rec = Recognizer()
    readings = rec.read_any_scale(image)
    assert readings and readings[0].card == code
    assert [r.card for r in readings if r.confidence >= rec.confident] == [code]


def test_in_a_slanted_single_picture_two_corners_read_as_two_suits_are_one_card():
    # the single-card bench's URW 7C, shot leaning: its near corner read 7C with an index
    # 1.3 times the far one's, the far one 7S, both sure, and both stood as cards
    from vision.recognize import SQUEEZES, IndexDetection

    d = 20.0
    far = IndexDetection("7", "S", 0.97, 0.99, 200.0, 150.0, 0.0, 1.0, d)
    # the near corner: a card 1.2 times a typical one's length in the far index's sizes
    k = 1.2 * d
    ex, ey = _opposite(far, k)
    near = IndexDetection("7", "C", 0.99, 0.99, ex, ey, 0.05, -1.0, 1.3 * d)
    rec = Recognizer(threshold=0.0)
    # a table frame (the strict rule: one pack at one scale, straight down): two cards
    assert {r.card: r.flags for r in rec.cards([far, near])} == {"7C": (), "7S": ()}
    rec.squeezes = SQUEEZES  # as read_any_scale reads a single picture
    readings = {r.card: r for r in rec.cards([far, near])}
    assert all("corners-disagree" in r.flags for r in readings.values())
    assert readings["7C"].confidence == pytest.approx(0.99)
    assert readings["7S"].confidence < rec.confident  # the less sure corner gives way
    # a card beside it, turned the other way but a card's width off: not one card
    beside = IndexDetection("7", "C", 0.99, 0.99, ex + 4 * d, ey, 0.05, -1.0, 1.3 * d)
    assert all(not r.flags for r in rec.cards([far, beside]))
    # another rank there keeps the strict rule (a fan's neighbour, not a misread suit)
    king = IndexDetection("K", "C", 0.99, 0.99, ex, ey, 0.05, -1.0, 1.3 * d)
    assert all(not r.flags for r in rec.cards([far, king]))


def test_a_rank_read_gives_way_to_the_pips_its_face_shows():
    # the live check's URW pack: a 5S whose lower index reads 6S at 0.98, its upper one
    # 5S at 0.69; the face shows five pips plainly (vision/pips.py)
    from dataclasses import replace

    from vision.recognize import IndexDetection

    d = 20.0
    five = IndexDetection("5", "S", 0.69, 0.69, 200.0, 150.0, 0.0, 1.0, d, pips=5)
    ex, ey = _opposite(five, d)
    six = IndexDetection("6", "S", 0.98, 0.98, ex, ey, 0.0, -1.0, d, pips=5)
    assert six.pips_disagree and not five.pips_disagree
    rec = Recognizer(threshold=0.0)
    readings = {r.card: r for r in rec.cards([five, six])}
    assert "pips-disagree" in readings["6S"].flags
    # the readings' indices are the detections as read (the live loop reports the
    # flagged readings its fresh detections make, knowing them by identity)
    assert readings["6S"].indices[0] is six and readings["5S"].indices[0] is five
    assert readings["6S"].confidence == pytest.approx(0.98 * 0.2 * (1 - 0.69 - 0.31 * 0.75))
    # the 5 agrees with its face: its rank's doubt is a quarter (its suit's is its own)
    assert readings["5S"].confidence == pytest.approx(1 - 0.31 * 0.25)
    doubtful_suit = replace(five, confidence=0.6, rank_confidence=0.75)
    (only,) = rec.cards([doubtful_suit])
    assert only.confidence == pytest.approx((1 - 0.25 * 0.25) * 0.8)
    # uncounted (None: the face not in plain sight) or a court rank: the reading stands
    uncounted = IndexDetection("6", "S", 0.98, 0.98, ex, ey, 0.0, -1.0, d)
    assert not uncounted.pips_disagree
    assert {r.card: r.confidence for r in rec.cards([uncounted])} == {"6S": 0.98}
    court = IndexDetection("K", "S", 0.9, 0.9, ex, ey, 0.0, -1.0, d, pips=5)
    assert not court.pips_disagree
    assert {r.card: r.confidence for r in rec.cards([court])} == {"KS": 0.9}


def test_a_number_read_as_another_at_both_corners_is_the_number_its_pips_show():
    # the live check's URW pack at 3840 x 2160: a 3H read as an 8H at both corners
    # (0.997 and 0.984), each corner's face showing three hearts plainly; it was doubted
    # by its pips and never placed. Both corners counting the same number read it so.
    from dataclasses import replace

    from vision.decks import DECKS
    from vision.recognize import PIP_READ, IndexDetection

    d = 20.0
    upper = IndexDetection("8", "H", 0.997, 0.997, 200.0, 150.0, 0.0, 1.0, d, pips=3)
    ex, ey = _opposite(upper, d)
    lower = IndexDetection("8", "H", 0.984, 0.99, ex, ey, 0.0, -1.0, d, pips=3)
    rec = Recognizer(threshold=0.0)
    (three,) = rec.cards([upper, lower])
    assert three.card == "3H" and "read-by-pips" in three.flags
    suit = 0.984 / 0.99  # the lower corner's suit share, as the network read it
    assert three.confidence == pytest.approx(1 - (1 - PIP_READ) * (1 - PIP_READ * suit))
    assert three.confidence >= rec.confident
    # the reading's indices are the detections as read (the live loop knows them)
    assert set(map(id, three.indices)) == {id(upper), id(lower)}
    # another 8H on the table: the 3H is no second copy of it
    far = replace(upper, x=900.0, pips=None)
    assert {r.card: r.flags for r in rec.cards([upper, lower, far])} == {
        "3H": ("read-by-pips",),
        "8H": (),
    }
    # one corner alone: a face half under the next card counts fewer pips; doubted only
    (alone,) = rec.cards([upper])
    assert alone.card == "8H" and "pips-disagree" in alone.flags
    # the two corners count different numbers, or one is not counted: as read, doubted
    for other in (replace(lower, pips=4), replace(lower, pips=None)):
        assert {r.card for r in rec.cards([upper, other])} == {"8H"}
    # a count that agrees with the rank read is no rereading
    assert [r.flags for r in rec.cards([replace(upper, pips=8), replace(lower, pips=8)])] == [()]
    # a pack without threes (Skat's 32 cards): no 3H
    rec.deck = DECKS["skat-32"]
    assert {r.card for r in rec.cards([upper, lower])} == {"8H"}


def test_the_counts_a_covered_face_shows_say_nothing_against_the_rank_read():
    """A 5H read 5H at both corners, a paper-white chip (or glare, a fingertip) over its
    middle pip: both corners' faces count four, a layout a 4 has. That count is no
    reading of a 4H (``HIDDEN_COUNTS``): the 5H stays doubted. A 3H read 8H at both
    corners counts three, which no 8 shows with pips covered: read 3H. The faces are
    drawn and counted (vision.pips); the network's readings are given. Ink added to a
    face (a dark mark on a 4's middle shows a 5) is no rereading either."""
    from vision.pips import count_pips
    from vision.recognize import IndexDetection

    def laid(code, chip=False, dot=None):
        img, face = _laid_face(code)
        h, w = face.image.shape[:2]
        if chip:  # over the middle pip, the face's centre
            cv2.circle(img, (120 + w // 2, 120 + h // 2), 24, (235, 235, 235), -1)
        if dot is not None:  # a pip-sized mark of ink on the face's centre
            cv2.circle(img, (120 + w // 2, 120 + h // 2), 12, dot, -1)
        return img, [(an.x + 120, an.y + 120, an.ux, an.uy, an.d) for an in face.anchors]

    def read(code, rank, **marks):
        img, anchors = laid(code, **marks)
        counts = [count_pips(img, *an) for an in anchors]
        dets = [
            IndexDetection(rank, code[-1], 0.99, 0.99, *an, pips=n)
            for an, n in zip(anchors, counts, strict=True)
        ]
        return counts, rec.cards(dets)

    rec = Recognizer(threshold=0.0)
    # ink added: a dark mark on a 4S's middle, a red one on a 4H's, shows a 5; on a 2S's,
    # a 3: layouts that hold the rank read's. The reading stays as read, doubted.
    for code, dot, shown in (
        ("4S", (30, 30, 30), 5),
        ("4H", (40, 40, 200), 5),
        ("2S", (30, 30, 30), 3),
    ):
        counts, readings = read(code, code[:-1], dot=dot)
        assert counts == [shown, shown], code
        assert [(r.card, "read-by-pips" in r.flags) for r in readings] == [(code, False)]
    img, anchors = laid("5H", chip=True)
    counts = [count_pips(img, *an) for an in anchors]
    assert counts == [4, 4]
    dets = [
        IndexDetection("5", "H", 0.99, 0.99, *an, pips=n)
        for an, n in zip(anchors, counts, strict=True)
    ]
    (five,) = rec.cards(dets)
    assert five.card == "5H" and "pips-disagree" in five.flags and "read-by-pips" not in five.flags
    assert five.confidence < Recognizer().threshold  # doubted, as before: not placed
    img, anchors = laid("3H")
    counts = [count_pips(img, *an) for an in anchors]
    assert counts == [3, 3]
    dets = [
        IndexDetection("8", "H", 0.99, 0.99, *an, pips=n)
        for an, n in zip(anchors, counts, strict=True)
    ]
    assert [(r.card, r.flags) for r in rec.cards(dets)] == [("3H", ("read-by-pips",))]


def test_a_number_card_read_doubtfully_has_its_pips_counted(monkeypatch):
    # detect_indices counts the pips of number readings less sure than PIP_COUNTED;
    # counted for every reading here, so that the rendered card's are
    import vision.recognize as recognize
    from vision.faces import render_face

    monkeypatch.setattr(recognize, "PIP_COUNTED", 1.1)
    rng = np.random.default_rng(5)
    faces = (render_face("6C", rng) for _ in range(50))
    face = next(f for f in faces if 32 <= f.anchors[0].d <= 40)
    image = np.full((500, 420, 3), (40, 110, 45), np.uint8)
    image[75:425, 85:335][face.alpha > 128] = face.image[face.alpha > 128]
    dets = [d for d in Recognizer().detect_indices(image) if d.card == "6C"]
    assert dets and all(d.pips in (None, 6) for d in dets)
    assert any(d.pips == 6 for d in dets)


def test_print_on_a_cards_face_read_as_an_index_is_impossible():
    # from the live check: a play row, 2H and 3S each half under the next card, the QH
    # on top read by both corners; the QH's court art read as a JD, turned a quarter
    from vision.recognize import IndexDetection

    def det(card, x, y, ux, uy, d, conf=1.0):
        return IndexDetection(card[:-1], card[-1], conf, conf, x, y, ux, uy, d)

    queen = [det("QH", 920, 634, -0.06, 1.0, 22.6), det("QH", 1032, 778, 0.06, -1.0, 22.0)]
    three = det("3S", 866, 642, -0.03, 1.0, 21.9)
    art = det("JD", 1009, 624, -1.0, -0.01, 24.5, 0.97)
    readings = {r.card: r for r in Recognizer(threshold=0.0).cards([*queen, three, art])}
    # a JD lying there would lie on the QH (its index is on the QH's face) and would
    # hide the QH's and the 3S's indices, which are read: no card can make it
    assert "impossible" in readings["JD"].flags and readings["JD"].confidence < 0.1
    # the 3S under the QH, its index in the open, and the QH itself stand
    assert readings["3S"].flags == () and readings["QH"].flags == ()
    assert readings["3S"].confidence == 1.0 and readings["QH"].confidence == 1.0
    # the art read at other turns: the 3S is never the one found impossible (a reading
    # less sure than it testifies to nothing against it)
    for turn in range(0, 360, 15):
        a = np.radians(turn)
        art = det("JD", 960, 700, float(np.cos(a)), float(np.sin(a)), 24.5, 0.97)
        readings = {r.card: r for r in Recognizer(threshold=0.0).cards([*queen, three, art])}
        assert readings["3S"].flags == () and readings["QH"].flags == (), turn


def test_an_index_at_the_edge_of_a_card_over_it_is_not_on_its_face():
    # bidly deal 2 keystoned (its far side 70 % as wide): the 3C lies under the 2H by
    # its right half, its index in the open beside the 2H's left edge. The 2H's
    # outline, drawn from its two corners, takes in the 3C's index by 4.6 pixels; the
    # 3C was thrown out as impossible (its card would hide the 2H's index)
    from vision.recognize import ON_FACE, IndexDetection

    def det(card, x, y, ux, uy, d):
        return IndexDetection(card[:-1], card[-1], 1.0, 1.0, x, y, ux, uy, d)

    heart = [
        det("2H", 890.6, 895.7, -0.183, 0.983, 25.4),
        det("2H", 964.5, 1138, 0.168, -0.986, 28.3),
    ]
    three = det("3C", 857.6, 875.6, -0.099, 0.995, 27.7)
    readings = {r.card: r for r in Recognizer(threshold=0.0).cards([*heart, three])}
    assert readings["3C"].flags == () and readings["3C"].confidence == 1.0
    # the same index an index size inside the 2H's outline (29 pixels) is on its
    # face: impossible
    assert ON_FACE < 1.0
    deeper = det("3C", 877.6, 903.6, -0.099, 0.995, 27.7)
    readings = {r.card: r for r in Recognizer(threshold=0.0).cards([*heart, deeper])}
    assert "impossible" in readings["3C"].flags


def test_a_suit_at_a_cards_corner_read_with_the_next_cards_corner_is_impossible():
    # the live check's seed 118 under a strong blue cast (bench/probe_video.py cast):
    # a crib row's 3C, its lower index's rank under the 2C laid below it, its small
    # club left in the open; the 2C's rounded corner, its outline's dark edge on the
    # 3C's paper, read as a 7 with that club: a 7C at 0.91 turned 27 degrees, whose
    # index lies 11.5 pixels (0.39 of its size) inside the 3C's outline and whose
    # card would hide the 3C's upper index. A suit at a corner lies about half an
    # index inside its own card: the 7C was kept at ON_FACE 0.5 and, once the show
    # row's 7C was taken away, the tracker moved it into the crib (a false `moved`)
    from vision.recognize import ON_FACE, IndexDetection

    three = IndexDetection("3", "C", 1.0, 1.0, 1512.2, 1117.3, -0.023, 0.9997, 22.0)
    seven = IndexDetection("7", "C", 0.913, 0.972, 1635.6, 1265.7, -0.447, -0.8945, 29.4)
    readings = {r.card: r for r in Recognizer(threshold=0.0).cards([three, seven])}
    assert readings["3C"].flags == () and readings["3C"].confidence == 1.0
    assert "impossible" in readings["7C"].flags and readings["7C"].confidence < 0.1
    # the bound is the outlines' error (the keystoned 3C's 4.6 of 27.7 pixels, above)
    # with room, not the half an index a corner's suit lies inside its card
    assert 4.6 / 27.7 < ON_FACE < 11.5 / 29.4


def test_an_index_at_another_scale_than_the_packs_is_outsize():
    # a single picture holds one pack at one scale: print read as an index 2.5 times
    # the size of the indices read surely round it counts a tenth as sure
    from vision.recognize import OUTSIZE, IndexDetection

    def det(card, x, y, d, conf=1.0):
        return IndexDetection(card[:-1], card[-1], conf, conf, x, y, 0.0, 1.0, d)

    def read(dets, one_scale=True):
        rec = Recognizer(threshold=0.0)
        rec.one_scale = one_scale  # as read_any_scale sets it
        return {r.card: r for r in rec.cards(dets)}

    pack = [det("9D", 100, 100, 22.0), det("JS", 400, 100, 24.9), det("KD", 700, 100, 24.4)]
    for d, out in ((56.0, True), (9.0, True), (OUTSIZE * 23.0, False), (35.0, False)):
        readings = read([*pack, det("4D", 400, 500, d)])
        assert ("outsize" in readings["4D"].flags) == out, d
        assert (readings["4D"].confidence < 0.2) == out, d
        assert all(readings[c].flags == () for c in ("9D", "JS", "KD"))
    # a witness is a card read surely; with fewer than OUTSIZE_WITNESSES of them the
    # scale is not known, and nothing is outsize
    doubtful = [det("9D", 100, 100, 22.0, 0.6), det("JS", 400, 100, 24.9, 0.6), pack[2]]
    assert "outsize" not in read([*doubtful, det("4D", 400, 500, 56.0)])["4D"].flags
    assert read([pack[0], det("4D", 400, 500, 56.0)])["4D"].flags == ()
    # a frame read as it is (`read`, the live loop, the synthetic bench) is not judged so
    assert read([*pack, det("4D", 400, 500, 56.0)], one_scale=False)["4D"].flags == ()


@needs_data
def test_a_smeared_pinochle_photo_has_no_outsize_reading(rec):
    # edje-pinochle's cam_image45 smeared 7 px at 30 degrees (bench/vision.py): a
    # pip and the ink beside it were read as a 4D at 0.999, its index 2.5 times the
    # size of the four cards read round it
    image = read_image(DATA / "edje-pinochle" / "test" / "cam_image45.jpg")
    readings = rec.read_any_scale(smeared(image, 7, 30.0))
    assert {r.rank for r in readings} == {"9", "A", "J", "K"}


def test_a_calibrated_cameras_reading_at_another_scale_than_a_packs_is_outsize():
    # a calibrated camera knows the index size without witnesses: two pips of a 10S
    # in a show row read as a 2S with an index 0.56 times the calibrated size (a
    # false `placed` at 5 fps, unseen fonts, seed 43); a deck's own spread is not
    from dataclasses import replace

    from vision.recognize import CALIBRATED_SIZES, IndexDetection

    def det(card, d):
        return IndexDetection(card[:-1], card[-1], 1.0, 1.0, 400.0, 500.0, 0.0, 1.0, d)

    rec = Recognizer(threshold=0.0)
    assert rec.cards([det("2S", 11.2)])[0].flags == ()  # no calibration: no scale known
    rec.index_px = 20.0  # as a calibration sets it (8.5 mm at the table's scale)
    for d, out in (
        (11.2, True),
        (0.59 * 20, True),
        (1.61 * 20, True),
        (0.8 * 20, False),
        (1.4 * 20, False),
        (20.0, False),
    ):
        (reading,) = rec.cards([det("2S", d)])
        assert ("outsize" in reading.flags) == out, d
        assert (reading.confidence < 0.2) == out, d
    assert CALIBRATED_SIZES[0] < 0.67 and CALIBRATED_SIZES[1] > 1.43  # a deck's own spread

    # a tilted camera sees its near side larger: judged by the scale where it lies
    class Tilted:
        def mm_per_px(self, point):
            return 8.5 / (20.0 if point[0] < 1000 else 30.0)  # 20 px an index, 30 near

    groups = [("KD", [replace(det("KD", 40.0), x=x)], 1) for x in (400.0, 1400.0)]
    assert Recognizer._off_scale(groups, 20.0) == {0, 1}  # by the middle's scale alone
    assert Recognizer._off_scale(groups, 20.0, Tilted()) == {0}  # 40 px is 1.33 times 30


def _row_with_darker_cards(seed: int, factor: float, tint=(1.0, 1.0, 1.0)):
    """A show row as players lay it on green felt at the club mounting: twelve cards
    25 mm apart, each over the one before, every other one darker by ``factor``
    (and tinted): worn cards, or cards of another pack, beside bright new ones."""
    from dataclasses import replace

    from vision.geometry import calibrate
    from vision.layout import LAYOUT_DIR, load_layout
    from vision.tablevideo import _Table

    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    table = _Table(layout, 2.36, 60.0, seed)
    img = table.empty.copy()
    pool = ["AS", "7H", "QC", "3D", "9S", "KH", "5C", "10D", "2S", "8H", "JC", "6D", "4S", "9C"]
    cards = [str(c) for c in np.random.default_rng(seed).permutation(pool)[:12]]
    for i, card in enumerate(cards):
        face = table.face(card)
        if i % 2:
            shade = np.array(tint, np.float32) * factor
            dark = np.clip(face.image.astype(np.float32) * shade, 0, 255).astype(np.uint8)
            face = replace(face, image=dark)
        table.draw_card(img, face, 120 + 25 * i, 300 + 2 * (i % 3), 0.0)
    lit = img.astype(np.float32) * table.light[:, :, None] + table.noise[:, :, None]
    img = np.clip(lit, 0, 255).astype(np.uint8)
    return img, cards[1::2], cards[0::2], calibrate(img, layout), layout


@pytest.mark.parametrize("blur", [0.9, 1.2])
def test_a_thin_index_beside_dark_felt_is_judged_against_its_cards_paper(blur):
    """A calibrated camera judges ink against a window of three index sizes, which
    round a card's corner index still lies a third to a half on the cloth: a thin
    stroke (a Times-like 2 printed in a font training never meets, at 2.36 px/mm,
    softened by the lens) was not 35 levels under a mean half of dark felt, broke,
    and its bar paired with the suit as an index of half the size, which the
    calibrated scale calls no index (the live check with photographed faces of such
    a pack missed its 2S; the German pack's thin B, its JD, the same). On paper the
    window's mean is now the paper's alone (``proposals._paper_mean``)."""
    felt = card_on_felt("2S", np.random.default_rng(1), pack=np.random.default_rng(77))
    reader = Recognizer()
    reader.index_px, reader.scale = 20.0, 1.0  # as a calibration at 2.36 px/mm sets them
    dets = [
        d for d in reader.detect_indices(cv2.GaussianBlur(felt, (0, 0), blur)) if d.confidence > 0.4
    ]
    assert len([d for d in dets if d.card == "2S" and d.confidence > 0.9]) == 2, dets
    assert all(d.d >= 0.7 * 20.0 for d in dets), dets  # the whole index, rank to suit


@pytest.mark.parametrize("shade", [0.35, 0.3])
def test_an_index_in_the_shade_beside_dark_felt_is_judged_against_its_cards_paper(shade):
    """The live check's worn 8D under a lamp's hard shadow (seed 112): its lower index
    in the shade, paper at 64 grey beside felt at 20, was one 6 x 6 blob of its 8;
    the card was placed 0.8 s late, when the other index was read. The index's ink
    is no paper, so the paper's own mean (``proposals._paper_mean``) did not judge it;
    the window's mean, a third of it the dark felt, was: the 8's strokes, 34 levels
    under the paper, were 18 under that mean, broken by the dark bar even lifted for
    the shade. The paper's mean now judges the ink it rings too (the paper mask
    closed over ``INK_CLOSE``). Cards of a pack in fonts training never meets, at
    2.36 px/mm in a bluish shade at 35 % and 30 % of the light: 46 and 39 of 52
    indices read before, 52 and 52 now (four of them here)."""
    for card in ("3C", "5S", "7C", "8S"):
        picture = card_on_felt(
            card, np.random.default_rng(1), pack=np.random.default_rng(78), shade=shade
        )
        reader = Recognizer()
        reader.index_px, reader.scale = 20.0, 1.0  # as a calibration at 2.36 px/mm sets them
        sure = [
            d
            for d in reader.detect_indices(cv2.GaussianBlur(picture, (0, 0), 1.0))
            if d.confidence > 0.9
        ]
        assert [d.card for d in sure] == [card, card], (card, sure)


@pytest.mark.parametrize(
    ("factor", "tint", "least"),
    [(0.6, (1.0, 1.0, 1.0), 18), (0.75, (0.70, 0.76, 0.86), 18), (0.5, (1.0, 1.0, 1.0), 18)],
)
def test_darker_cards_between_bright_ones_are_read(factor, tint, least):
    """Issue 11: "cards whose paper photographs darker (a worn card, a colour cast)
    were missed beside brighter ones: paper is judged against the brightest level
    nearby". Paper at 60 % of its neighbours' brightness (or greyer and tinted) is
    still light against the table; before the table-level paper bar, 5 of 18 such
    cards were read in three such rows, 4 of 18 tinted. Since the faces have court
    figures (2026-12-02), the same rows read 14 of 18 and 9 of 18 tinted (with the
    old random-shape courts, other rows: 15 and 12); 11 of 18 tinted since pale red
    only a little darker than its surroundings is not red ink (the tinted paper's
    specks joined each index into one blob too large to be one). Since dark ink on
    paper must also be darker than the paper next to it (the grey closing), not
    only than a window its bright neighbours raise: 18 of 18 plain and tinted, and
    18 of 18 at half the brightness (were 14, 11 and 7)."""
    read_dark = total_dark = 0
    for seed in range(3):
        img, dark, bright, cal, layout = _row_with_darker_cards(seed, factor, tint)
        reader = Recognizer(layout=layout)
        reader.calibration = cal
        got = {r.card for r in reader.read(img) if r.confidence >= reader.threshold}
        assert set(bright) <= got  # the bright ones as before
        assert got <= set(dark) | set(bright)  # nothing false
        read_dark += len(got & set(dark))
        total_dark += len(dark)
    assert read_dark >= least, f"{read_dark} of {total_dark} darker cards read"


def test_two_corners_of_a_card_join_though_its_deck_prints_a_smaller_or_larger_index():
    """A card's opposite corner lies where a typical deck puts it, 0.7 to 1.8 times as
    far in index sizes (SAME_CARD_SPREAD): a deck with a small index filling a phone's
    frame was read as two QHs, each flagged a duplicate."""
    from vision.recognize import _OTHER_CORNER, IndexDetection, _same_card

    def corner(scale: float) -> tuple[IndexDetection, IndexDetection]:
        p = IndexDetection("Q", "H", 1.0, 1.0, 100.0, 100.0, 0.0, 1.0, 20.0)
        # v = (uy, -ux) = (1, 0): the other corner lies along (v, u), turned opposite
        a, b = (scale * c * 20.0 for c in _OTHER_CORNER)
        q = IndexDetection("Q", "H", 1.0, 1.0, 100.0 + a, 100.0 + b, 0.0, -1.0, 20.0)
        return p, q

    for scale in (1.0, 0.75, 1.3, 1.45, 1.75):
        assert _same_card(*corner(scale)), scale
    for scale in (0.4, 2.2):
        assert not _same_card(*corner(scale)), scale

    from vision.synth import card_photo

    photo = card_photo("QH", np.random.default_rng(1), "phone, filling the frame")
    readings = Recognizer().read_any_scale(photo)
    assert [(r.card, len(r.indices), r.flags) for r in readings] == [("QH", 2, ())]


def test_one_rank_read_with_two_suits_keeps_the_nearer_suit():
    """The URW 6H of the bench's single photos (the Pi camera's blue cast): its upper
    rank was read with the index's own heart (26 px from the rank) and with a pip
    (45 px) as a 6D, both at 1.0, and the 6D was kept by the order of proposals.
    Of two such readings of one index the nearer suit is the index's own; two
    different ranks keep the surer, however near."""
    from vision.recognize import IndexDetection, _own_suit
    from vision.synth import CODES, card_photo

    def det(rank, suit, conf, d):
        return IndexDetection(rank, suit, conf, conf, 100.0 + d / 2, 100.0, 0.0, 1.0, d)

    assert _own_suit(det("6", "H", 1.0, 26.1), det("6", "D", 1.0, 45.2))
    assert not _own_suit(det("6", "H", 1.0, 45.2), det("6", "D", 1.0, 26.1))
    assert not _own_suit(det("10", "S", 0.9997, 23.6), det("J", "S", 1.0, 26.3))
    assert not _own_suit(det("6", "H", 0.9, 26.1), det("6", "D", 1.0, 45.2))
    rec = Recognizer()
    i = CODES.index("6H")
    photo = card_photo(
        "6H",
        np.random.default_rng(9_000_000 + 400_000 + 10_000 + i),
        "Pi camera, blue cast",
        fonts="unseen",
    )
    readings = rec.read_any_scale(photo)
    assert readings[0].card == "6H" and "6D" not in {r.card for r in readings}


def test_a_reading_a_nearer_suit_replaced_still_stands_for_its_index():
    """The 6D a nearer 6H replaced still drops a later, less sure reading of its own
    index (as it did before it was replaced): no second card is made of it."""
    from vision.recognize import IndexDetection, suppress

    def det(suit, conf, x, d):
        return IndexDetection("6", suit, conf, conf, x, 100.0, 0.0, 1.0, d)

    kept = suppress(
        [det("D", 1.0, 0.0, 45.0), det("H", 0.999, 15.0, 26.0), det("D", 0.99, -6.0, 44.0)]
    )
    assert [k.card for k in kept] == ["6H"]


def test_a_grey_or_bgra_picture_is_read_and_another_depth_is_a_clear_error(rec):
    """The recogniser reads what cv2 decodes: BGRA as its BGR, grey as grey BGR; a
    float or two-channel array, or one without pixels, is an ImageError saying so
    (before: OpenCV's own assertion from deep inside the blob stage)."""
    from vision.images import ImageError

    image = cv2.imread(str(DATA / "bidly" / "deals" / "deal2-md-sq.jpg"))
    assert image is not None, f"{DATA} is missing: put ../shared beside the clone"
    bgr = [(r.card, r.confidence) for r in rec.read(image)]
    bgra = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    assert [(r.card, r.confidence) for r in rec.read(bgra)] == bgr
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert len(rec.read_any_scale(grey)) > 20  # the ranks read; red and black alike
    for bad, said in (
        (image.astype(np.float32), "8-bit"),
        (np.zeros((5, 5, 2), np.uint8), "grey, BGR or BGRA"),
        (np.zeros((0, 5, 3), np.uint8), "pixels"),
    ):
        for read in (rec.read, rec.read_any_scale):
            with pytest.raises(ImageError, match=said):
                read(bad)


def test_a_tables_first_reading_spares_the_other_networks_and_every_rereading_asks_all(
    rec, monkeypatch
):
    """docs/model.md, "Asked only where it can matter": the first reading of a
    table's proposals spares the other networks where the model is sure of no index;
    a re-reading (RECHECK, whose probabilities are averaged) and every reading of a
    single picture (whose squeezed cuts follow what was leant to) ask them all."""
    asked: list[bool] = []
    classify = rec.classifier.classify

    def watched(patches, *, spare=False):
        asked.append(spare)
        return classify(patches, spare=spare)

    monkeypatch.setattr(rec.classifier, "classify", watched)
    from vision.synth import d_for_mounting

    scene = make_scene(  # the occlusion table: a doubtful 4S under score-pad writing
        np.random.default_rng(9_000_000 - 1),
        size=(1280, 720),
        d_range=(d_for_mounting(2.35), d_for_mounting(3.0)),
        hands=0.0,
    )
    rec.read(scene.image)
    assert rec.timings["rechecked_n"] > 0  # read again ...
    assert asked[0] is True and len(asked) > 1 and not any(asked[1:])  # ... asking all
    asked.clear()
    h, w = scene.image.shape[:2]
    rec.detect_regions(scene.image, [(0, 0, w // 2, h), (w // 2, 0, w, h)])
    assert asked[:1] == [True]  # the live loop's regions spare as a whole frame does
    asked.clear()
    rec.read_any_scale(card_photo("7C", np.random.default_rng(5), next(iter(PHOTO_VIEWS))))
    assert asked and not any(asked)
    asked.clear()
    rec.read(scene.image)  # sparing again after the single picture
    assert asked[0] is True


def test_the_networks_beside_the_model_read_every_patch_too_and_are_averaged(tmp_path):
    """docs/model.md, "More networks": the networks a model card lists (cards.2.onnx
    beside cards.onnx, with its hash) read what the gate passes too; their
    probabilities are averaged (sparing them, except where the model alone is sure
    a patch shows no index: a table's first reading). A card that lists none reads
    alone; a network missing, changed or of another shape is named."""
    import json
    import shutil

    from vision.errors import ModelError
    from vision.model import (
        DEFAULT_MODEL,
        SURELY_NONE,
        IndexClassifier,
        gate_path,
        more_paths,
        network_hash,
        network_path,
    )
    from vision.proposals import all_proposals, extract_patches

    pair = IndexClassifier()
    assert [p.name for p, _ in pair.others] == [p.name for p in more_paths(DEFAULT_MODEL)]
    assert len(pair.others) >= 1  # shipped
    first = IndexClassifier(more=False)
    others = [IndexClassifier(p, gate=False, more=False) for p in more_paths(DEFAULT_MODEL)]
    scene = make_scene(np.random.default_rng(9_000_777), size=(960, 720))
    patches = extract_patches(scene.image, all_proposals(scene.image))
    assert len(patches) > 20
    rank, suit = pair.classify(patches)
    rank1, suit1 = first.classify(patches)
    each = [o.classify(patches) for o in others]
    n = 1 + len(each)
    mean_r = (rank1 + sum(r for r, _ in each)) / n
    mean_s = (suit1 + sum(s for _, s in each)) / n
    assert np.allclose(rank, mean_r, atol=1e-6)
    assert np.allclose(suit, mean_s, atol=1e-6)
    for r, _ in each:  # other networks, not one read again
        assert not np.allclose(rank1, r, atol=1e-3)
    # sparing, only where the model is not sure the patch shows no index ...
    rank, suit = pair.classify(patches, spare=True)
    ask = rank1[:, 0] < SURELY_NONE
    assert 0 < ask.sum() < len(ask)  # both kinds among a table's proposals
    assert np.allclose(rank[ask], mean_r[ask], atol=1e-6)
    assert np.allclose(suit[ask], mean_s[ask], atol=1e-6)
    # ... its own reading where it is (docs/model.md, "Asked only where it can matter")
    assert np.allclose(rank[~ask], rank1[~ask], atol=1e-6)
    assert np.allclose(suit[~ask], suit1[~ask], atol=1e-6)
    assert (mean_r[~ask].argmax(axis=1) == 0).all()  # which the average would not change
    rank, suit = pair.classify(patches)
    # a model whose card lists no network reads alone, whatever lies beside it
    alone = tmp_path / "cards.onnx"
    shutil.copy(DEFAULT_MODEL, alone)
    shutil.copy(gate_path(DEFAULT_MODEL), gate_path(alone))
    shutil.copy(more_paths(DEFAULT_MODEL)[0], network_path(alone, 2))
    assert IndexClassifier(alone).others == []  # no card
    card = alone.with_suffix(".json")
    card.write_text(json.dumps({"config": {}}))
    solo = IndexClassifier(alone)
    assert solo.others == []
    assert np.allclose(solo.classify(patches)[0], rank1, atol=1e-6)
    # listed with its hash, it reads with it
    card.write_text(json.dumps({"networks": [network_hash(network_path(alone, 2))]}))
    assert np.allclose(IndexClassifier(alone).classify(patches)[0], rank, atol=1e-6)
    # two others spare nothing: of one mind, they could outvote the model's sureness
    shutil.copy(network_path(alone, 2), network_path(alone, 3))
    listed = [network_hash(network_path(alone, k)) for k in (2, 3)]
    card.write_text(json.dumps({"networks": listed}))
    three = IndexClassifier(alone)
    assert len(three.others) == 2
    every = three.classify(patches)
    spared = three.classify(patches, spare=True)
    assert np.array_equal(every[0], spared[0]) and np.array_equal(every[1], spared[1])
    network_path(alone, 3).unlink()
    # another file under that name, a listed file missing, a list that is none: named
    shutil.copy(DEFAULT_MODEL, network_path(alone, 2))
    with pytest.raises(ModelError, match=r"cards\.2\.onnx is not the network its model card"):
        IndexClassifier(alone)
    card.write_text(json.dumps({"networks": [{"file": "cards.3.onnx", "sha256": "0"}]}))
    with pytest.raises(ModelError, match=r"lists cards\.3\.onnx, which is not beside it"):
        IndexClassifier(alone)
    card.write_text('{"networks": [')
    with pytest.raises(ModelError, match="is not readable JSON"):
        IndexClassifier(alone)
    for bad in ("cards.2.onnx", [{"file": "../cards.2.onnx", "sha256": "0"}], [{"f": 1}]):
        card.write_text(json.dumps({"networks": bad}))
        with pytest.raises(ModelError, match="not a list of files and hashes"):
            IndexClassifier(alone)
    # a listed network that is no such network: the error names it
    shutil.copy(gate_path(DEFAULT_MODEL), network_path(alone, 2))
    card.write_text(json.dumps({"networks": [network_hash(network_path(alone, 2))]}))
    with pytest.raises(ModelError, match=r"cards\.2\.onnx does not read"):
        IndexClassifier(alone)


def _laid_face(code: str, shape: tuple[int, int] = (600, 500)):
    """A rendered face of ``code`` (``render_face``, seed 3) laid on felt, its top left
    corner at (120, 120): the picture, and the face."""
    face = render_face(code, np.random.default_rng(3))
    img = np.full((*shape, 3), (40, 110, 50), np.uint8)
    h, w = face.image.shape[:2]
    a = face.alpha[:, :, None].astype(np.float32) / 255
    img[120 : 120 + h, 120 : 120 + w] = (
        face.image * a + img[120 : 120 + h, 120 : 120 + w] * (1 - a)
    ).astype(np.uint8)
    return img, face


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


@needs_data
def test_a_picture_without_colour_is_told_from_one_with_it():
    from vision.proposals import Picture

    for name in ("bidly/deals/deal1-md-sq.jpg", "bidly/single/2d.jpg"):
        image = read_image(DATA / name)
        assert not Picture(image).colourless, name
        grey = _grey(image)
        assert Picture(grey).colourless, name
        # grey saved as a colour JPEG: its chroma a little off grey
        ok, data = cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, 70])
        assert ok and Picture(cv2.imdecode(data, cv2.IMREAD_COLOR)).colourless, name
    # a synthetic table on felt is coloured whatever its cards
    assert not Picture(make_scene(np.random.default_rng(3), size=(640, 480)).image).colourless


def test_a_pale_table_with_a_few_cards_is_in_colour():
    """The live check on a pale grey laminate (seed 66): so few pixels were coloured
    that the frame passed for a grey one, and a QS laid there read QD at one corner
    (a colourless picture's spades read as diamonds half the time). A few vivid pixels
    (a red pip, a hand) are colour; the same table made grey is not."""
    from vision.proposals import COLOURLESS_SHARE, COLOURLESS_SPREAD, Picture, channels

    table = np.empty((2320, 2320, 3), np.uint8)
    table[:] = (196, 200, 204)  # BGR: a pale grey, a shade off the cards' white
    # two cards at the club mounting's 2.36 px/mm (149 x 208 px), white: a four of
    # hearts' pips and a black card's marks, 9 mm across
    for x, ink in ((900, (40, 40, 200)), (1200, (30, 30, 30))):
        cv2.rectangle(table, (x, 1000), (x + 148, 1207), (250, 250, 250), -1)
        for px, py in ((40, 50), (108, 50), (40, 158), (108, 158)):
            cv2.circle(table, (x + px, 1000 + py), 11, ink, -1)
    pic = Picture(table)
    b, g, r = channels(pic.sample)
    spread = np.maximum(np.maximum(b, g), r).astype(int) - np.minimum(np.minimum(b, g), r)
    assert np.count_nonzero(spread > COLOURLESS_SPREAD) <= COLOURLESS_SHARE * spread.size
    assert not pic.colourless
    assert Picture(_grey(table)).colourless
    # the live loop's frames are one camera's: once a frame had colour, a frame of the
    # pale table with a black card alone (no red, no hand) is read in colour too; a
    # recogniser of single pictures judges each picture alone
    black = np.empty_like(table)
    black[:] = (196, 200, 204)
    black[1000:1208, 1200:1349] = table[1000:1208, 1200:1349]
    assert Picture(black).colourless
    for one_camera in (True, False):
        rec = Recognizer()
        rec.one_camera = one_camera
        rec.detect_indices(table)
        assert not rec.classifier.colourless
        rec.detect_indices(black)
        assert rec.classifier.colourless is not one_camera


@pytest.mark.parametrize("code", ["2D", "3D", "AD", "5H", "9S", "QC"])
def test_red_cards_in_a_grey_picture_read_red(code):
    """The networks learnt red from colour: made grey, the real 2D, 3D and AD read as
    spades (49 of the 52 single cards). A colourless picture's patches are read as
    they are and with their ink printed red, each colour's suits from its own
    reading: 52 of 52 (docs/vision.md "A picture without colour")."""
    image = read_image(DATA / "bidly" / "single" / f"{code[:-1]}{code[-1].lower()}.jpg")
    readings = Recognizer().read_any_scale(_grey(image))
    assert readings and readings[0].card == code, [r.card for r in readings[:3]]


@needs_data
def test_grey_photographs_of_deals_read_nearly_as_their_colour_ones():
    """The three real deals made grey: their red suits read as black ones (121 of 138
    cards, one false reading); read by both inks, 133 of 138, none false (the colour
    photographs: 136)."""
    rows = [(f, labels) for f, labels in read_labels(DATA) if f.startswith("bidly/deals/")]
    assert len(rows) == 3, "bidly/deals is missing from labels.csv"
    rec = Recognizer()
    scores = [
        score_image(f, labels, rec.read_any_scale(_grey(read_image(DATA / f))))
        for f, labels in rows
    ]
    assert sum(s.false_positives for s in scores) == 0, scores
    assert sum(s.found for s in scores) >= 130, scores


def test_a_black_spade_in_a_grey_picture_is_no_diamond():
    """Synthetic tables at the club mounting made grey (a monochrome camera). The
    networks read any patch printed red as a red suit, surely: where the black suits'
    probabilities came from the patch as it is and the red suits' from it reddened,
    a black spade was half a diamond, and 12 grey tables read 101 of 108 cards with 7
    false readings (40 tables: 12 cards read as the other colour's suit, 11 not at
    all). Each suit is now as likely as both readings allow (their geometric mean):
    108 of 108, one false (docs/vision.md "A picture without colour")."""
    from vision.synth import d_for_mounting

    cards = read = false = 0
    rec = Recognizer()
    for i in range(12):
        scene = make_scene(
            np.random.default_rng(7000 + i),
            size=(960, 720),
            d_range=(d_for_mounting(2.35), d_for_mounting(3.5)),
        )
        shown = {scene.cards[t.card] for t in scene.indices if t.visible}
        got = {r.card for r in rec.read(_grey(scene.image))}
        assert rec.classifier.colourless
        cards += len(shown)
        read += len(shown & got)
        false += len(got - set(scene.cards))
    assert read >= cards - 2 and false <= 2, (read, cards, false)


def test_a_court_read_surely_as_a_number_is_read_by_its_face():
    # a queen of clubs printed in a font training never meets (URW, a swash Q) and
    # photographed by the Pi camera: both corners were read 9C at 1.00, the card
    # "identified" as a 9C; its face between them shows a court's panel. Doubted by it;
    # since the network gives the queen a share at both corners (0.01 and 0.33, the
    # other courts none), the QC its face and corners agree on
    from vision.synth import CODES

    i = CODES.index("QC")
    views = list(PHOTO_VIEWS)
    image = card_photo(
        "QC", np.random.default_rng(8_000_000 + i), views[i % len(views)], fonts="unseen"
    )
    rec = Recognizer(threshold=0.1)
    readings = rec.read_any_scale(image)
    sure = [r.card for r in readings if r.confidence >= rec.confident]
    assert "9C" not in sure and all(c == "QC" for c in sure)
    assert all(r.confidence <= 0.2 for r in readings if r.card == "9C")
    (queen,) = [r for r in readings if r.card == "QC"]
    assert "read-by-face" in queen.flags and queen.confidence >= rec.confident


def test_a_court_read_as_a_number_is_the_court_its_face_and_corners_agree_on():
    """The live check on a wooden table, in fonts the network never met (seed 61): a
    QS in the crib, printed in a URW face whose Q looks like a 9, read 9S at one
    corner (the network 0.82 sure of the 9, 0.18 of the Q) and QS at the other (0.48,
    the 9 0.52). The corners disagreed and the card was never placed. Its face shows a
    court's panel, so it is one of the courts; asked which, both corners say the
    queen (knave and king under 0.001): the QS, read by its face. The faces are drawn;
    the network's readings are given."""
    from dataclasses import replace

    from vision.recognize import PIP_READ, IndexDetection

    def laid(code):
        img, face = _laid_face(code)
        return img, [(an.x + 120, an.y + 120, an.ux, an.uy, an.d) for an in face.anchors]

    def corners(code, first=("9", 0.82, (1e-4, 0.18, 0.0)), second=("Q", 0.48, (1e-4, 0.48, 0.0))):
        img, (a, b) = laid(code)
        dets = [
            IndexDetection(rank, "S", p, p, *an, courts=courts)
            for an, (rank, p, courts) in ((a, first), (b, second))
        ]
        return img, dets

    rec = Recognizer(threshold=0.0)
    img, dets = corners("QS")
    rec.faces = img
    (queen,) = rec.cards(dets)
    assert queen.card == "QS" and queen.flags == ("read-by-face",)
    assert queen.confidence == pytest.approx(1 - (1 - PIP_READ) ** 2)  # placed
    assert queen.confidence >= rec.confident
    assert set(map(id, queen.indices)) == {id(d) for d in dets}  # as read
    # read 9S at both corners: the QS as well (before, only doubted by its face)
    both = [replace(dets[0]), replace(dets[1], rank="9", confidence=0.52, rank_confidence=0.52)]
    assert [(r.card, r.flags) for r in rec.cards(both)] == [("QS", ("read-by-face",))]
    # a number card's face (pips, no panel): the corners stay as read, disagreeing
    img9, dets9 = corners("9S")
    rec.faces = img9
    assert {r.card for r in rec.cards(dets9)} == {"9S", "QS"}
    assert all("read-by-face" not in r.flags for r in rec.cards(dets9))
    rec.faces = img
    # the corners do not agree on one court (the queen at one, the king at the other),
    # the network gave the courts nothing at all at one corner, or the suits differ:
    # as without the face (disagreeing corners, the surer one standing)
    blind = Recognizer(threshold=0.0)
    for first, second in (
        (dets[0], replace(dets[1], rank="K", courts=(1e-4, 0.01, 0.48))),
        (replace(dets[0], courts=(0.0, 0.0, 0.0)), dets[1]),
        (replace(dets[0], courts=(1e-6, 1.7e-4, 1e-9)), dets[1]),  # a sure 9S stands
        (dets[0], replace(dets[1], suit="C")),
    ):
        readings = rec.cards([first, second])
        assert all("read-by-face" not in r.flags for r in readings)
        assert readings == blind.cards([first, second])
    # read 9S at both, the queen 5e-9 and 0.34: the QS (the courts seen at one corner);
    # the queen at 1e-4 and 7e-4 (a smeared 9C whose pips made one panel): no reading
    seen = [replace(both[0], courts=(1e-17, 5e-9, 0.0)), replace(both[1], courts=(0.0, 0.34, 0.0))]
    assert [(r.card, r.flags) for r in rec.cards(seen)] == [("QS", ("read-by-face",))]
    tails = [replace(both[0], courts=(0.0, 1e-4, 0.0)), replace(both[1], courts=(0.0, 7e-4, 0.0))]
    (nine,) = rec.cards(tails)
    assert nine.card == "9S" and "court-face" in nine.flags
    unseen = [replace(m, courts=(0.0, 0.0, 0.0)) for m in both]
    (nine,) = rec.cards(unseen)
    assert nine.card == "9S" and "court-face" in nine.flags


def test_print_on_a_courts_face_is_no_card():
    """The live check in fonts the network never met (seed 21): the crown on a QS's
    face read 3S at 1.00, turned a quarter, and was placed (and later removed): two
    false events. The QS is read at both corners and its face shows its panel whole
    between them, so nothing lies on it there: a reading of one corner between its
    indices is print on the court (``court-print``). Beside the court, or between the
    corners of a number card, such a reading stands, and so does one whose print
    is not the court's own turned half (a card laid over the court's corner)."""
    from dataclasses import replace

    from vision.recognize import IndexDetection

    def laid(code):
        img, face = _laid_face(code, (700, 600))
        h, w = face.image.shape[:2]
        corners = [
            IndexDetection(
                code[:-1], code[-1], 1.0, 1.0, an.x + 120, an.y + 120, an.ux, an.uy, an.d
            )
            for an in face.anchors
        ]
        return img, corners, (120 + w / 2, 120 + h / 2), w

    rec = Recognizer(threshold=0.0)
    img, (top, bottom), (cx, cy), w = laid("QS")
    rec.faces = img
    # the crown, a quarter turned, a third of the way from the middle to the top index
    crown = IndexDetection("3", "S", 1.0, 1.0, cx, cy + (top.y - cy) * 0.6, -1.0, 0.0, top.d)
    readings = {r.card: r for r in rec.cards([top, bottom, crown])}
    assert readings["QS"].flags == () and readings["QS"].confidence == pytest.approx(1.0)
    assert readings["3S"].flags == ("court-print", "low-confidence")
    assert readings["3S"].confidence == pytest.approx(0.1)
    # the court read 9S at both corners as a hand passed, or 9S at one and QS at the
    # other: its face is a court's all the same
    for upper in (replace(top, rank="9"), replace(top, rank="9", confidence=0.7)):
        lower = replace(bottom, rank="9") if upper.confidence == 1.0 else bottom
        readings = {r.card: r for r in rec.cards([upper, lower, crown])}
        assert "court-print" in readings["3S"].flags, readings
    # a card laid over the court's corner, its index on the court's face (a fan in the
    # bench's synthetic scenes; the panel still looks whole): the print there is not
    # the court's turned half, and the reading stands
    laid_on = img.copy()
    x, y = round(cx + w * 0.3), round(crown.y)
    d = round(top.d)
    cv2.rectangle(laid_on, (x - d, y - d), (x + 4 * d, y + 5 * d), (245, 245, 245), -1)
    cv2.putText(laid_on, "3", (x - d // 2, y), cv2.FONT_HERSHEY_SIMPLEX, d / 25, (20, 20, 20), 2)
    cv2.circle(laid_on, (x, y + d // 2), d // 4, (20, 20, 20), -1)
    rec.faces = laid_on
    rec._courts.clear()  # the panel looked at afresh, in this picture
    on = IndexDetection("3", "S", 1.0, 1.0, float(x), y - d / 4, 0.0, 1.0, top.d)
    assert rec._court_face(top, bottom)  # the panel still passes for whole
    assert rec._mirrored(on, cx, cy) < 0.5
    three = {r.card: r for r in rec.cards([top, bottom, on])}["3S"]
    assert "court-print" not in three.flags  # (its card would cover the QS's index)
    rec.faces = img
    rec._courts.clear()
    # beside the court: another card's index
    beside = IndexDetection("3", "S", 1.0, 1.0, cx + w, crown.y, 0.0, 1.0, top.d)
    assert {r.card: r.flags for r in rec.cards([top, bottom, beside])}["3S"] == ()
    # between a number card's corners: no panel says nothing lies there
    img9, (top9, bottom9), _, _ = laid("9S")
    rec.faces = img9
    assert {r.card: r.flags for r in rec.cards([top9, bottom9, crown])}["3S"] == ()


def _three_corners(rank: str, suit: str, x: float, y: float, d: float) -> list:
    """A four-index card upright with its top left index at ``x, y``, read at its top
    left, bottom right and top right corners: a witness that the pack prints four."""
    from vision.recognize import _OTHER_CORNER, IndexDetection

    ea, eb = _OTHER_CORNER
    return [
        IndexDetection(rank, suit, 0.99, 0.99, x, y, 0.0, 1.0, d),
        IndexDetection(rank, suit, 0.99, 0.99, x + ea * d, y + eb * d, 0.0, -1.0, d),
        IndexDetection(rank, suit, 0.99, 0.99, x + ea * d, y, 0.0, 1.0, d),
    ]


def _four_index_table(codes: list[str], seed: int = 1, indices: int = 4) -> np.ndarray:
    """Cards of one pack printed with the index in all four corners (``indices``),
    laid apart on green cloth at about 2.6 px/mm, each turned a little."""
    from vision.tablevideo import _indices_clear

    rng = np.random.default_rng(seed)
    table = np.full((760, 1000, 3), (40, 110, 50), np.uint8)
    for k, code in enumerate(codes):
        for again in range(12):  # a printer keeps the pips clear of the indices
            face = render_face(
                code,
                np.random.default_rng([seed, k, again]),
                pack=np.random.default_rng(seed),
                indices=indices,
            )
            if _indices_clear(face):
                break
        small = cv2.resize(face.image, (164, 230), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(face.alpha, (164, 230), interpolation=cv2.INTER_AREA)
        small = cv2.copyMakeBorder(small, 40, 40, 40, 40, cv2.BORDER_CONSTANT)
        alpha = cv2.copyMakeBorder(alpha, 40, 40, 40, 40, cv2.BORDER_CONSTANT)
        turn = cv2.getRotationMatrix2D((122, 155), float(rng.uniform(-20, 20)), 1.0)
        small = cv2.warpAffine(small, turn, (244, 310))
        alpha = cv2.warpAffine(alpha, turn, (244, 310))[..., None] / 255.0
        y, x = 40 + (k // 4) * 340, 10 + (k % 4) * 245
        spot = table[y : y + 310, x : x + 244]
        spot[:] = (small * alpha + spot * (1 - alpha)).astype(np.uint8)
    return table


def test_a_pack_printed_with_four_indices_reads_each_card_once(rec):
    """Many European packs (Skat's among them) print the index in all four corners:
    the top right one upright beside the top left, the bottom ones turned. Each card
    is one reading, not two or three flagged ``duplicate`` (the top right and bottom
    left corners are the opposite corners of a card read as if its index were on
    the right). With a table's pack (one of each card) any two corners join; with
    none, those a read pair of opposite corners places."""
    from vision.decks import find_deck

    codes = ["10D", "KC", "7S", "AH", "QS", "9H", "JD", "4C"]
    table = _four_index_table(codes)
    for deck in (find_deck("french-52"), None):
        reader = Recognizer(rec.classifier.path, deck=deck)
        readings = reader.read(table)
        assert sorted(r.card for r in readings) == sorted(codes), deck
        assert not [r.card for r in readings if "duplicate" in r.flags], deck
        assert all(len(r.indices) == 2 for r in readings)


def test_four_corners_of_one_code_join_only_in_a_pack_of_one_of_each():
    """Two readings of one code beside each other are a four-index card's top corners
    in a pack of one of each card seen to print four indices (two cards read again
    at a third corner); the surer is kept, at the top left's place. A two-index
    pack's neighbour misread as the card stays a reading of its own, flagged; a
    pinochle pack holds each card twice, fanned one copy beside the other."""
    from vision.decks import find_deck
    from vision.recognize import _OTHER_CORNER, IndexDetection

    d = 20.0
    left = IndexDetection("K", "S", 0.45, 0.45, 200.0, 150.0, 0.0, 1.0, d)
    right = IndexDetection("K", "S", 0.99, 0.99, 200.0 + _OTHER_CORNER[0] * d, 151.0, 0.0, 1.0, d)
    witnesses = _three_corners("2", "C", 600.0, 150.0, d) + _three_corners("3", "D", 600, 400, d)
    french = Recognizer(threshold=0.5, deck=find_deck("french-52"))
    readings = {r.card: r for r in french.cards([left, right, *witnesses])}
    ks = readings["KS"]
    assert ks.flags == () and ks.confidence == pytest.approx(0.99)
    (at,) = ks.indices
    assert (at.x, at.y, at.confidence) == (left.x, left.y, 0.99)  # the surer, at the top left
    assert set(map(id, ks.also)) == {id(left), id(right)}
    # no witnesses: the pack may print two indices, the left one a neighbour misread
    alone = french.cards([left, right])
    assert [(r.card, r.confidence) for r in alone] == [("KS", 0.99)]
    assert alone[0].flags == ("duplicate",) and alone[0].indices == (right,)
    pinochle = Recognizer(threshold=0.0, deck=find_deck("pinochle-48"))
    two = [r for r in pinochle.cards([left, right, *witnesses]) if r.card == "KS"]
    assert len(two) == 2 and all("duplicate" in r.flags for r in two)


def test_a_new_game_forgets_that_the_pack_printed_four_indices():
    """In the live loop (a calibrated camera) what earlier frames showed of the pack
    holds: two cards read at a third corner once, and two readings of one code beside
    each other are one four-index card in every later frame. A new game (the panel's
    ``new_game``, passed on by the table service: TableWatcher.new_game) may bring
    another pack, a two-index one whose neighbour misread as the card must stay a
    reading of its own: the evidence is forgotten then, before the next frame."""
    from vision.decks import find_deck
    from vision.geometry import calibrate, render_marker_sheet
    from vision.layout import LAYOUT_DIR, load_layout
    from vision.recognize import _OTHER_CORNER, IndexDetection
    from vision.watch import TableWatcher

    d = 20.0
    left = IndexDetection("K", "S", 0.45, 0.45, 200.0, 150.0, 0.0, 1.0, d)
    right = IndexDetection("K", "S", 0.99, 0.99, 200.0 + _OTHER_CORNER[0] * d, 151.0, 0.0, 1.0, d)
    witnesses = _three_corners("2", "C", 600.0, 150.0, d) + _three_corners("3", "D", 600, 400, d)
    layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
    sheet = cv2.cvtColor(render_marker_sheet(layout), cv2.COLOR_GRAY2BGR)
    rec = Recognizer(threshold=0.5, deck=find_deck("french-52"))
    rec.calibration = calibrate(sheet, layout)
    rec.cards([left, right, *witnesses])  # a frame that shows the pack prints four
    (ks,) = rec.cards([left, right])  # later frames: the two corners are one card
    assert ks.flags == () and set(map(id, ks.also)) == {id(left), id(right)}
    watcher = TableWatcher(rec, layout=layout)
    watcher.new_game()
    (ks,) = rec.cards([left, right])  # (forgotten before the next frame, not at once)
    assert ks.flags == ()
    watcher.process(0.0, sheet)
    (ks,) = rec.cards([left, right])
    assert ks.flags == ("duplicate",) and ks.indices == (right,)


def test_a_four_index_card_seen_at_one_edge_says_where_it_lies_were_it_on_the_other_side():
    """A four-index card seen only at its left edge's two corners (the strip a row laid
    each card over the one before leaves in sight) is read at the surer, as a top
    left; which side of them it lies on is not known, so the reading says where it
    lies were that corner its top right: a card's width along its top edge (the live
    loop takes the side where the card was seen lying: the JD of seed 114's video with
    such a pack was removed 1.5 s late, looked for a card's width off)."""
    from vision.decks import find_deck
    from vision.recognize import _OTHER_CORNER, IndexDetection

    d = 20.0
    ea, eb = _OTHER_CORNER
    top = IndexDetection("J", "D", 0.99, 0.99, 200.0, 150.0, 0.0, 1.0, d)
    below = IndexDetection("J", "D", 0.95, 0.95, 200.0, 150.0 + eb * d, 0.0, -1.0, d)
    witnesses = _three_corners("2", "C", 600.0, 150.0, d) + _three_corners("3", "D", 600, 400, d)
    rec = Recognizer(threshold=0.5, deck=find_deck("french-52"))
    (jd,) = [r for r in rec.cards([top, below, *witnesses]) if r.card == "JD"]
    assert jd.indices == (top,) and jd.also == (below,) and "duplicate" not in jd.flags
    assert jd.other_side is not None
    corners, place, zone = jd.other_side
    here, there = jd.centre, replace(jd, corners=corners).centre
    assert there[0] == pytest.approx(here[0] - ea * d, abs=1.0) and there[1] == pytest.approx(
        here[1]
    )
    assert (place, zone) == (None, None)  # (no calibration)
    # the live loop takes the side where the tracker has it lying, else the surer's
    from vision.watch import where_it_lies

    assert where_it_lies(jd, None) == (*here, None)
    assert where_it_lies(jd, (here[0] - ea * d + 5, here[1])) == (*there, None)
    assert where_it_lies(jd, (here[0] + 5, here[1] - 3)) == (*here, None)
    placed = replace(jd, position_mm=(60.0, 40.0), zone="show.0")
    placed = replace(placed, other_side=(corners, (12.0, 40.0), "show.1"))
    assert where_it_lies(placed, (15.0, 41.0)) == (12.0, 40.0, "show.1")
    assert where_it_lies(placed, (58.0, 41.0)) == (60.0, 40.0, "show.0")
    # a card read at a corner beside another knows its side
    beside = IndexDetection("J", "D", 0.9, 0.9, 200.0 + ea * d, 150.0, 0.0, 1.0, d)
    (known,) = [r for r in rec.cards([top, beside, *witnesses]) if r.card == "JD"]
    assert known.other_side is None


def test_a_third_corner_misread_as_another_card_gives_way():
    """A German jack's B at a four-index card's top right corner read as an 8 (the
    live check's Skat video with such a pack placed a false 8H): where the picture
    shows the pack prints four indices (two cards read again at another corner, and
    a quarter of those read at both opposite corners), a reading from one corner
    lying where a card read at two opposite corners has another corner is that
    card's own corner misread. In a pack of two indices it stands: another card's
    index peeks past a card's corner there."""
    from vision.recognize import _OTHER_CORNER, IndexDetection

    d = 20.0
    top = IndexDetection("J", "H", 0.99, 0.99, 200.0, 150.0, 0.0, 1.0, d)
    ex, ey = _opposite(top, d)
    bottom = IndexDetection("J", "H", 0.99, 0.99, ex, ey, 0.0, -1.0, d)
    eight = IndexDetection("8", "H", 0.999, 0.999, 200.0 + _OTHER_CORNER[0] * d, 150.0, 0.0, 1.0, d)
    witnesses = _three_corners("2", "C", 600.0, 150.0, d) + _three_corners("3", "D", 600, 400, d)
    rec = Recognizer(threshold=0.5)
    readings = {r.card for r in rec.cards([top, bottom, eight, *witnesses])}
    assert readings == {"JH", "2C", "3D"}
    assert "8H" in {r.card for r in rec.cards([top, bottom, eight, *witnesses[:3]])}  # one
    assert "8H" in {r.card for r in rec.cards([top, bottom, eight])}
    # the same reading where a card of a row lies, two index sizes further on
    row = replace(eight, x=eight.x + 2 * d)
    assert "8H" in {r.card for r in rec.cards([top, bottom, row, *witnesses])}
    # two witnesses among many cards read at both corners: a two-index pack's misreads
    plain = [
        det
        for k, rank in enumerate("456789")
        for det in _three_corners(rank, "S", 1000.0 + 200 * k, 150.0, d)[:2]
    ]
    assert "8H" in {r.card for r in rec.cards([top, bottom, eight, *witnesses, *plain])}
    # in the live loop (a calibrated camera) witnesses seen in earlier frames count
    live = Recognizer(threshold=0.5)
    # (2.35 px/mm: the 20-pixel indices are the pack's size)
    live.calibration = Calibration(np.diag([1 / 2.35, 1 / 2.35, 1.0]), markers={}, error_mm=0.0)
    live.cards(witnesses)
    assert {r.card for r in live.cards([top, bottom, eight])} == {"JH"}


def test_a_face_printed_with_four_indices_is_the_two_index_face_and_two_corners_more():
    a = render_face("10D", np.random.default_rng(3), pack=np.random.default_rng(4))
    b = render_face("10D", np.random.default_rng(3), pack=np.random.default_rng(4), indices=4)
    assert len(a.anchors) == 2 and len(b.anchors) == 4 and b.anchors[:2] == a.anchors
    tl, br, tr, bl = b.anchors
    assert (tr.ux, tr.uy, tr.y) == (tl.ux, tl.uy, tl.y) and tr.x > 200  # upright, at the right
    assert (bl.ux, bl.uy, bl.y) == (br.ux, br.uy, br.y) and bl.x < 50  # turned, at the left
    changed = (a.image != b.image).any(axis=2)
    ys, xs = np.nonzero(changed)
    # only the top right and the bottom left corners
    assert all((y < 120 and x > 170) or (y > 230 and x < 80) for y, x in zip(ys, xs, strict=True))
    with pytest.raises(ValueError, match="2 or 4 corners"):
        render_face("10D", np.random.default_rng(3), indices=3)


def test_a_small_index_joins_its_cards_two_corners():
    """A pack printing a small index high on its card (a rendered pack of the probe:
    its corners 9.9 and 14.1 index sizes apart across and along the card, where a
    typical card's are 5.6 and 6.7) is one card read at both corners, not two
    readings of it flagged ``duplicate`` (up to INDEX_SPREAD's 1.5 typical lengths
    it was two)."""
    from vision.recognize import IndexDetection

    d = 14.0
    top = IndexDetection("5", "C", 0.99, 0.99, 100.0, 100.0, 0.0, 1.0, d)
    bottom = IndexDetection("5", "C", 0.98, 0.98, 100 + 9.94 * d, 100 + 14.12 * d, 0, -1, d)
    (one,) = Recognizer(threshold=0.0).cards([top, bottom])
    assert len(one.indices) == 2 and "duplicate" not in one.flags
