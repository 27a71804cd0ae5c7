"""Table geometry: ArUco markers to a homography from camera pixels to table millimetres.

Four (or more) ArUco markers are taped at the positions the table layout gives
(``[markers]`` in ``config/tables/*.toml``), upright: the marker's top edge
towards the north side of the table (away from seat 0). Their centres give a
homography from pixels to millimetres; with more than four markers it is fitted
by RANSAC and the reprojection error says how good it is.

>>> import numpy as np
>>> h = Calibration(np.eye(3), markers={}, error_mm=0.0)
>>> h.to_mm([[10.0, 20.0]]).tolist()
[[10.0, 20.0]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import CalibrationError
from vision.layout import TableLayout

__all__ = ["Calibration", "calibrate", "detect_markers", "draw_layout", "render_marker_sheet"]

FloatArray = NDArray[np.float64]


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
    error_mm: float

    def to_mm(self, points_px: Iterable[Sequence[float]] | FloatArray) -> FloatArray:
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_px(self, points_mm: Iterable[Sequence[float]] | FloatArray) -> FloatArray:
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts, inverse).reshape(-1, 2)

    def mm_per_px(self, point_px: Sequence[float]) -> float:
        """The local scale at a pixel: millimetres per pixel (mean of x and y)."""
        x, y = point_px
        a, b, c = self.to_mm([[x, y], [x + 1, y], [x, y + 1]])
        return float((np.linalg.norm(b - a) + np.linalg.norm(c - a)) / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "homography": self.homography.tolist(),
            "error_mm": self.error_mm,
            "markers": sorted(self.markers),
        }


def calibrate(image: NDArray[Any], layout: TableLayout) -> Calibration:
    """Calibrate from one frame showing the table's markers.

    Raises :class:`CalibrationError` naming the markers that were not found when
    fewer than four of the layout's markers are visible.
    """
    found = detect_markers(image, layout.dictionary)
    usable = sorted(set(found) & set(layout.markers))
    if len(usable) < 4:
        missing = sorted(set(layout.markers) - set(found))
        raise CalibrationError(
            f"need 4 of the layout's markers, found {len(usable)} "
            f"(missing ids {', '.join(map(str, missing))}; dictionary {layout.dictionary})"
        )
    src = np.array([found[i].mean(axis=0) for i in usable], dtype=np.float64)
    dst = np.array([layout.markers[i] for i in usable], dtype=np.float64)
    method = cv2.RANSAC if len(usable) > 4 else 0
    homography, _ = cv2.findHomography(src, dst, method, 5.0)
    if homography is None or not np.isfinite(homography).all():
        raise CalibrationError("the markers do not give a usable homography (are they in a line?)")
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.sqrt(((projected - dst) ** 2).sum(axis=1)).max())
    return Calibration(homography, {i: found[i] for i in usable}, error)


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
