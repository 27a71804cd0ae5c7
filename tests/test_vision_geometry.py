"""Calibration from ArUco markers on a rendered table seen in perspective."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import CalibrationError
from vision.geometry import calibrate, draw_layout, render_marker_sheet
from vision.layout import LAYOUT_DIR, load_layout

LAYOUT = load_layout(LAYOUT_DIR / "cribbage-2.toml")
SCALE = 1.5  # sheet pixels per millimetre


def camera_view(
    seed: int,
    hide: tuple[int, ...] = (),
    moved: dict[int, tuple[float, float]] | None = None,
    turned: tuple[int, ...] = (),
):
    """The marker sheet on a grey floor, seen by a camera tilted at random; markers
    hidden under a hand, ``moved`` by (east, north) millimetres, or ``turned`` a
    quarter. Returns the frame and the true mm -> px mapping."""
    rng = np.random.default_rng(seed)
    sheet = cv2.cvtColor(render_marker_sheet(LAYOUT, SCALE), cv2.COLOR_GRAY2BGR)
    h, w = sheet.shape[:2]
    side = round(LAYOUT.marker_size_mm * SCALE)
    for marker_id in (*(moved or {}), *turned):
        x, y = LAYOUT.markers[marker_id]
        c0 = round(x * SCALE - side / 2)
        r0 = round((LAYOUT.depth_mm - y) * SCALE - side / 2)
        square = sheet[r0 : r0 + side, c0 : c0 + side].copy()
        if marker_id in turned:
            sheet[r0 : r0 + side, c0 : c0 + side] = np.rot90(square)
            continue
        dx, dy = (moved or {})[marker_id]
        sheet[r0 : r0 + side, c0 : c0 + side] = 255
        r1, c1 = r0 - round(dy * SCALE), c0 + round(dx * SCALE)
        sheet[r1 : r1 + side, c1 : c1 + side] = square
    for marker_id in hide:
        x, y = LAYOUT.markers[marker_id]
        c, r = int(x * SCALE), int((LAYOUT.depth_mm - y) * SCALE)
        sheet[r - 60 : r + 60, c - 60 : c + 60] = (40, 90, 160)  # a hand over it
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.uniform(-35, 35, size=(4, 2))
    dst = np.float32([[240, 50], [1040, 50], [1180, 680], [100, 680]]) + jitter.astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(sheet, warp, (1280, 720), borderValue=(90, 90, 90))
    frame = cv2.GaussianBlur(frame, (3, 3), 0.8)

    def truth(points_mm):
        pts = np.array([[x * SCALE, (LAYOUT.depth_mm - y) * SCALE] for x, y in points_mm])
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), warp).reshape(-1, 2)

    return frame, truth


@pytest.mark.parametrize("seed", range(5))
def test_calibration_maps_pixels_to_millimetres(seed):
    frame, truth = camera_view(seed)
    cal = calibrate(frame, LAYOUT)
    assert sorted(cal.markers) == [0, 1, 2, 3]
    probe_mm = [(450, 450), (100, 800), (800, 120), (300, 250)]
    got_mm = cal.to_mm(truth(probe_mm))
    assert np.abs(got_mm - np.array(probe_mm)).max() < 3.0  # millimetres
    back = cal.to_px(probe_mm)
    assert np.abs(back - truth(probe_mm)).max() < 3.0  # pixels
    assert 0.5 < cal.mm_per_px(truth([(450, 450)])[0]) < 2.0


@pytest.mark.parametrize("seed", range(3))
def test_the_error_measures_every_corner_and_is_small_when_the_markers_are_right(seed):
    frame, _ = camera_view(seed)
    cal = calibrate(frame, LAYOUT)
    # 16 corners, not 4 centres fitted exactly; this camera sees 0.7 px a millimetre
    assert 0.0 < cal.error_mm < 3.5
    assert set(cal.marker_errors_mm) == {0, 1, 2, 3} and cal.left_out == ()
    assert cal.trouble() == []


@pytest.mark.parametrize(
    ("seed", "moved", "turned", "culprit"),
    [(0, {2: (-40.0, -25.0)}, (), 2), (3, {2: (-40.0, -25.0)}, (), 2)]
    + [(seed, {}, (1,), 1) for seed in range(3)],
)
def test_a_marker_moved_or_turned_is_named_and_the_others_still_calibrate(
    seed, moved, turned, culprit
):
    frame, truth = camera_view(seed, moved=moved, turned=turned)
    cal = calibrate(frame, LAYOUT)
    assert cal.left_out == (culprit,)
    assert cal.error_mm == pytest.approx(cal.marker_errors_mm[culprit]) and cal.error_mm > 30
    (warning,) = cal.trouble()
    assert warning.startswith(f"marker {culprit} is ") and "moved or turned" in warning
    # the other three markers make the table: good between them, worse towards the
    # corner of the one left out (the perspective there is extrapolated)
    between = [(450, 450), (300, 250), (200, 700)]
    assert np.abs(cal.to_mm(truth(between)) - np.array(between)).max() < 3.0
    x, y = LAYOUT.markers[culprit]
    near = [(x + (100 if x < 450 else -100), y + (100 if y < 450 else -100))]
    assert np.abs(cal.to_mm(truth(near)) - np.array(near)).max() < 12.0


def test_missing_markers_are_named():
    frame, _ = camera_view(0, hide=(2, 3))
    with pytest.raises(CalibrationError, match="missing ids 2, 3"):
        calibrate(frame, LAYOUT)


def test_a_blank_frame_finds_no_markers():
    with pytest.raises(CalibrationError, match="found 0"):
        calibrate(np.zeros((480, 640, 3), np.uint8), LAYOUT)


def test_zones_are_drawn_over_the_frame():
    frame, truth = camera_view(1)
    cal = calibrate(frame, LAYOUT)
    drawn = draw_layout(frame, LAYOUT, cal)
    assert drawn.shape == frame.shape and (drawn != frame).any()
    # the outline of the starter zone passes through its corner pixel
    corner = truth([LAYOUT.zone("starter").polygon[0]])[0].round().astype(int)
    x, y = corner
    patch = np.abs(
        drawn[y - 2 : y + 3, x - 2 : x + 3].astype(int) - frame[y - 2 : y + 3, x - 2 : x + 3]
    )
    assert patch.sum() > 0
