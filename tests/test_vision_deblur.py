"""Pictures smeared by motion (vision/deblur.py): the smear's direction and length are
measured from the picture, undone by a Wiener filter, and a smeared photograph of a
real deal is read as the sharp one is."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deblur import directional_sharpness, line_kernel, smear, unsmeared
from vision.recognize import Recognizer
from vision.synth import shaded, smeared

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"
DEAL = "bidly/deals/deal2-md-sq.jpg"


@pytest.fixture(scope="module")
def deal():
    image = cv2.imread(str(DATA / DEAL))
    assert image is not None, f"{DATA / DEAL} is missing: put ../shared beside the clone"
    with open(DATA / "labels.csv", newline="") as fh:
        rows = {r["file"]: r["cards"].split() for r in csv.DictReader(fh)}
    return image, set(rows[DEAL])


def _apart(a: float, b: float) -> float:
    """Degrees between two directions (a direction and its opposite are one)."""
    d = abs(a - b) % 180
    return min(d, 180 - d)


def test_a_sharp_photograph_and_one_out_of_focus_are_not_smeared(deal):
    image, _ = deal
    assert smear(image) is None
    assert smear(cv2.GaussianBlur(image, (0, 0), 1.5)) is None  # soft every way alike
    assert smear(np.full((300, 400, 3), 128, np.uint8)) is None  # no edge at all
    assert smear(np.zeros((5, 5, 3), np.uint8)) is None


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, 135.0, 160.0])
@pytest.mark.parametrize("length", [5, 9, 15, 21])
def test_the_smear_is_measured_from_the_picture(deal, angle, length):
    """vision.synth.smeared moves the picture along a way (4 shifts a pixel), which is
    not how line_kernel draws it: the measure is of the picture, not of the kernel."""
    found = smear(smeared(deal[0], length, angle))
    assert found is not None
    assert _apart(found[0], angle) <= 6.0, found
    assert abs(found[1] - length) <= 1, found


@pytest.mark.parametrize(
    ("length", "angle", "light"), [(21, 45.0, 0.35), (11, 0.0, 0.2), (15, 90.0, 0.2)]
)
def test_a_long_smear_in_dim_light_is_measured(deal, length, angle, light):
    """Dim and smeared far, the picture has no edge over the bar across the smear in
    some directions: those are the softest (the middle of them), not left out."""
    found = smear(shaded(smeared(deal[0], length, angle), light, None))
    assert found is not None
    assert _apart(found[0], angle) <= 6.0, found
    assert abs(found[1] - length) <= 1, found


def test_grey_pictures_and_tiny_ones_are_measured_and_undone(deal):
    grey = cv2.cvtColor(smeared(deal[0], 7, 30.0), cv2.COLOR_BGR2GRAY)
    found = smear(grey)
    assert found is not None and _apart(found[0], 30.0) <= 6.0
    back = unsmeared(grey, *found)
    assert back.shape == grey.shape and back.dtype == np.uint8
    for shape in ((5, 5, 3), (1, 40), (40, 1, 3), (9, 300, 3)):
        tiny = np.full(shape, 200, np.uint8)
        assert smear(tiny) is None
        assert unsmeared(tiny, 45.0, 7).shape == tiny.shape


def test_a_short_smear_is_left_to_sharpening(deal):
    assert smear(smeared(deal[0], 2, 45.0)) is None


def test_the_line_kernel_is_a_line_of_its_length_and_direction():
    for angle in (0.0, 30.0, 90.0, 145.0):
        k = line_kernel(angle, 7)
        assert k.shape[0] == k.shape[1] and k.shape[0] % 2 == 1
        assert abs(float(k.sum()) - 1.0) < 1e-5
        ys, xs = np.nonzero(k > 0.02)
        c = (k.shape[0] - 1) / 2
        a = np.deg2rad(angle)
        along = (xs - c) * np.cos(a) + (ys - c) * np.sin(a)
        across = -(xs - c) * np.sin(a) + (ys - c) * np.cos(a)
        assert np.abs(across).max() <= 1.0 and 5.0 <= np.ptp(along) <= 7.5, angle


def test_unsmearing_evens_out_the_edges(deal):
    """Smeared, the deal's edges along the smear are under half as sharp as across it;
    undone, their softest direction is again more than 0.65 of their sharpest."""
    for length, angle in ((7, 30.0), (9, 120.0), (5, 0.0)):
        blurred = smeared(deal[0], length, angle)
        before = directional_sharpness(blurred)
        back = unsmeared(blurred, angle, length)
        after = directional_sharpness(back)
        assert back.shape == blurred.shape and back.dtype == np.uint8
        assert before.min() < 0.55 * before.max() and after.min() > 0.65 * after.max()
        assert after.min() > 1.4 * before.min()


def test_a_smeared_photograph_of_a_deal_is_read(deal):
    """deal2 smeared 7 px at 30 degrees (its indices about 40 px): 19 of 45 cards read
    before the smear was undone; 41 since, none false; 9 px at 120 degrees: 21 (one
    false) against 44. The photograph as taken is read as it is."""
    image, want = deal
    rec = Recognizer()
    for length, angle, least in ((7, 30.0, 39), (9, 120.0, 42)):
        got = {r.card for r in rec.read_any_scale(smeared(image, length, angle))}
        assert rec.last_unsmeared is not None
        assert _apart(rec.last_unsmeared[0], angle) <= 6.0
        assert len(got & want) >= least and got <= want, (length, sorted(want - got))
    rec.read_any_scale(image)
    assert rec.last_unsmeared is None


def test_identify_says_the_smear_it_undid(deal, tmp_path, capsys):
    import json

    from controller.cli import main

    image, want = deal
    cv2.imwrite(str(tmp_path / "shaken.png"), smeared(image, 9, 120.0))
    cv2.imwrite(str(tmp_path / "still.png"), image)
    assert main(["vision", "identify", str(tmp_path / "shaken.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert 8 <= out["unsmeared"]["px"] <= 10 and _apart(out["unsmeared"]["angle"], 120) <= 6
    assert len({c["card"] for c in out["cards"] if c["confidence"] >= 0.8} & want) >= 40
    assert main(["vision", "identify", str(tmp_path / "still.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unsmeared"] is None and out["sharpened"] is False and out["scale"] == 1.0
