"""Table geometry: ArUco markers to a homography from camera pixels to table millimetres.

Four (or more) ArUco markers are taped at the positions the table layout gives
(``[markers]`` in ``config/tables/*.toml``), upright: the marker's top edge
towards the north side of the table (away from seat 0). Every corner of every
marker found has a known place on the table (its centre, its size, upright), so
the homography from pixels to millimetres is fitted to all of them (16 points
from four markers, least squares) and the error says something: how far each
marker's corners land from where the layout puts them. Four centres alone fit
any four points exactly, so their error was always 0. While the worst marker is
further off than ``MARKER_BAR_MM`` (or ``MARKER_BAR_PX`` pixels) and more than
three would remain, it is left out and the table fitted to the others: a marker
taped in the wrong place or turned is named with how far off it is
(``marker_errors_mm``, ``left_out``, :meth:`Calibration.trouble`).

>>> import numpy as np
>>> h = Calibration(np.eye(3), markers={}, error_mm=0.0)
>>> h.to_mm([[10.0, 20.0]]).tolist()
[[10.0, 20.0]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import CalibrationError
from vision.layout import TableLayout

__all__ = [
    "Calibration",
    "calibrate",
    "detect_markers",
    "draw_layout",
    "marker_corners",
    "render_marker_sheet",
]

FloatArray = NDArray[np.float64]
# A marker corner further than this from its place (or this many pixels, on a coarse
# camera) is worth an installer's look.
MARKER_BAR_MM = 3.0
MARKER_BAR_PX = 3.0
# Calibration.markers_near looks for a marker this many times its size round where it was.
DRIFT_LOOK = 1.5


def _dictionary(name: str) -> Any:
    try:
        return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))
    except AttributeError as exc:
        raise CalibrationError(f"unknown ArUco dictionary {name!r}") from exc


def detect_markers(image: NDArray[Any], dictionary: str) -> dict[int, FloatArray]:
    """Find ArUco markers: ``{id: 4x2 corner pixels}`` (top-left, top-right, bottom-right,
    bottom-left in the marker's own frame)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(_dictionary(dictionary), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, FloatArray] = {}
    if ids is not None:
        for marker_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
            found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64)
    return found


@dataclass(frozen=True)
class Calibration:
    """A homography from image pixels to table millimetres, and back."""

    homography: FloatArray
    markers: dict[int, FloatArray]
    error_mm: float  # the largest distance of a marker corner from its place, mm
    marker_errors_mm: dict[int, float] = field(default_factory=dict)  # the same per marker
    left_out: tuple[int, ...] = ()  # markers too far off to be fitted

    def to_mm(self, points_px: Iterable[Sequence[float]] | FloatArray) -> FloatArray:
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    @cached_property
    def _inverse(self) -> FloatArray:
        return np.linalg.inv(self.homography)  # the live loop asks for pixels every frame

    def to_px(self, points_mm: Iterable[Sequence[float]] | FloatArray) -> FloatArray:
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self._inverse).reshape(-1, 2)

    def mm_per_px(self, point_px: Sequence[float]) -> float:
        """The local scale at a pixel: millimetres per pixel (mean of x and y)."""
        return _mm_per_px(self.homography, point_px)

    def markers_near(self, image: NDArray[Any], dictionary: str) -> dict[int, FloatArray]:
        """Each marker the table was calibrated with, looked for only round where it
        was (its box grown by ``DRIFT_LOOK`` times its size each way: a few per cent
        of a full-mode frame), so that a camera knocked or sagging on its mount is
        noticed cheaply: ``{id: its 4x2 corner pixels now}``. A marker not found there
        (a hand over it, or moved further) is left out of the answer; one left out of
        the fit is looked for too (where it lies in the picture says how the camera
        moved as well as any)."""
        h, w = image.shape[:2]
        out: dict[int, FloatArray] = {}
        for marker, was in self.markers.items():
            side = float(np.linalg.norm(was[1] - was[0]))
            grow = DRIFT_LOOK * max(side, 1.0)
            x0, y0 = (was.min(axis=0) - grow).astype(int)
            x1, y1 = (was.max(axis=0) + grow).astype(int) + 1
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue  # it was at the frame's edge and the frame is smaller now
            found = detect_markers(image[y0:y1, x0:x1], dictionary).get(marker)
            if found is not None:
                out[marker] = found + np.array([x0, y0], np.float64)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "homography": self.homography.tolist(),
            "error_mm": self.error_mm,
            "markers": sorted(self.markers),
            "marker_errors_mm": {str(k): round(v, 2) for k, v in self.marker_errors_mm.items()},
            "left_out": list(self.left_out),
        }

    def trouble(self) -> list[str]:
        """What an installer should put right: each marker whose corners land further
        from their places (moved, turned, or not flat) than ``MARKER_BAR_MM`` or
        ``MARKER_BAR_PX`` pixels there, whichever is more (a coarse camera finds a
        corner to a pixel or so)."""
        out = []
        for marker, err in sorted(self.marker_errors_mm.items()):
            bar = max(MARKER_BAR_MM, MARKER_BAR_PX * self.mm_per_px(self.markers[marker].mean(0)))
            if err > bar:
                why = "left out of the fit" if marker in self.left_out else "fitted"
                out.append(
                    f"marker {marker} is {err:.1f} mm from where the layout puts it ({why}): "
                    "is it moved or turned? its top edge must face north, away from seat 0"
                )
        return out


def calibrate(
    image: NDArray[Any], layout: TableLayout, found: dict[int, FloatArray] | None = None
) -> Calibration:
    """Calibrate from one frame showing the table's markers (``found``: the markers
    :func:`detect_markers` found in it, where the caller has them already).

    Raises :class:`CalibrationError` naming the markers that were not found when
    fewer than four of the layout's markers are visible.
    """
    if found is None:
        found = detect_markers(image, layout.dictionary)
    usable = sorted(set(found) & set(layout.markers))
    if len(usable) < 4:
        missing = sorted(set(layout.markers) - set(found))
        raise CalibrationError(
            f"need 4 of the layout's markers, found {len(usable)} "
            f"(missing ids {', '.join(map(str, missing))}; dictionary {layout.dictionary})"
        )
    corners_px = {i: found[i].astype(np.float64) for i in usable}
    corners_mm = {i: marker_corners(layout, i) for i in usable}
    fitted = list(usable)
    while True:
        homography = _fit(corners_px, corners_mm, fitted)
        per_marker = {
            i: float(
                np.linalg.norm(_project(homography, corners_px[i]) - corners_mm[i], axis=1).max()
            )
            for i in usable
        }
        worst = max(fitted, key=lambda i: per_marker[i])
        scale = _mm_per_px(homography, corners_px[worst].mean(axis=0))
        if len(fitted) <= 3 or per_marker[worst] <= max(MARKER_BAR_MM, MARKER_BAR_PX * scale):
            break
        fitted.remove(worst)  # one marker off its place: fit the table to the others
    left_out = tuple(i for i in usable if i not in fitted)
    return Calibration(
        homography,
        {i: found[i] for i in usable},
        max(per_marker.values()),
        per_marker,
        left_out,
    )


def _fit(px: dict[int, FloatArray], mm: dict[int, FloatArray], markers: list[int]) -> FloatArray:
    src = np.concatenate([px[i] for i in markers])
    dst = np.concatenate([mm[i] for i in markers])
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None or not np.isfinite(homography).all():
        raise CalibrationError("the markers do not give a usable homography (are they in a line?)")
    return np.asarray(homography, np.float64)


def _project(homography: FloatArray, points: FloatArray) -> FloatArray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)


def _mm_per_px(homography: FloatArray, point_px: Sequence[float] | FloatArray) -> float:
    """The local scale of ``homography`` at a pixel: millimetres per pixel (mean of x, y)."""
    x, y = float(point_px[0]), float(point_px[1])
    a, b, c = _project(homography, np.array([[x, y], [x + 1, y], [x, y + 1]]))
    return float((np.linalg.norm(b - a) + np.linalg.norm(c - a)) / 2)


def marker_corners(layout: TableLayout, marker: int) -> FloatArray:
    """Where the corners of an upright marker lie on the table (mm), in ArUco's order
    (top-left, top-right, bottom-right, bottom-left; top is north, +y)."""
    cx, cy = layout.markers[marker]
    h = layout.marker_size_mm / 2
    return np.array([[cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]])


def draw_layout(image: NDArray[Any], layout: TableLayout, calibration: Calibration) -> NDArray[Any]:
    """A copy of ``image`` with the layout's zones and the markers found drawn over it."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    palette = [(0, 200, 255), (255, 120, 0), (0, 220, 0), (200, 0, 200), (0, 0, 255), (255, 255, 0)]
    for i, zone in enumerate(layout.zones):
        colour = palette[(zone.seat if zone.seat is not None else i) % len(palette)]
        pts = calibration.to_px(zone.polygon).round().astype(np.int32)
        cv2.polylines(out, [pts.reshape(-1, 1, 2)], True, colour, 2, cv2.LINE_AA)
        cx, cy = pts.mean(axis=0)
        cv2.putText(
            out,
            zone.name,
            (int(cx) - 30, int(cy)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            colour,
            2,
            cv2.LINE_AA,
        )
    for marker_id, quad in calibration.markers.items():
        q = quad.round().astype(np.int32)
        cv2.polylines(out, [q.reshape(-1, 1, 2)], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(
            out,
            f"#{marker_id}",
            (int(q[0][0]), int(q[0][1]) - 6),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (0, 0, 255),
            2,
            cv2.LINE_AA,
        )
    return out


def render_marker_sheet(layout: TableLayout, px_per_mm: float = 2.0) -> NDArray[np.uint8]:
    """A top view of the empty table with its markers (for printing, and for tests):
    white, ``px_per_mm`` pixels per millimetre, north up."""
    w = round(layout.width_mm * px_per_mm)
    h = round(layout.depth_mm * px_per_mm)
    sheet = np.full((h, w), 255, np.uint8)
    side = round(layout.marker_size_mm * px_per_mm)
    dictionary = _dictionary(layout.dictionary)
    for marker_id, (x, y) in layout.markers.items():
        img = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        col = round(x * px_per_mm - side / 2)
        row = round((layout.depth_mm - y) * px_per_mm - side / 2)  # north is up
        sheet[row : row + side, col : col + side] = img
    return sheet
