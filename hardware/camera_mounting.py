"""Camera mounting geometry: how high over the table, and is the resolution enough?

    python hardware/camera_mounting.py > hardware/camera-mounting.md  (the table part)

For a camera looking straight down, the lowest mount that sees the whole table
(plus a margin) is fixed by the field of view; at that height each sensor mode
gives a number of pixels per millimetre of table. The recogniser reads the
card's corner index: it needs ``NEED_PX`` pixels over the index's rank glyph
(``INDEX_MM`` tall on a poker-size card), i.e. ``NEED_PX / INDEX_MM`` px/mm.
Change those two numbers when the recogniser's own figure is measured (vision/).

A pinhole model over a flat table parallel to the sensor: the scale is the same
over the whole table; lens distortion (the wide lens most of all) makes the
corners a little coarser, which the margin in ``NEED_PX`` absorbs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INDEX_MM = 6.0  # height of a corner index's rank glyph on a poker-size card
NEED_PX = 14  # pixels over that glyph the recogniser needs: measured, see docs/vision.md "Scale"
MARGIN = 0.05  # extra view on each side of the table


@dataclass(frozen=True)
class Camera:
    name: str
    hfov_deg: float
    vfov_deg: float
    modes: tuple[tuple[int, int], ...]


CAMERAS = (
    # Raspberry Pi Camera Module 3 (Sony IMX708), data sheet: 66 x 41 degrees.
    Camera("Pi Camera Module 3", 66.0, 41.0, ((4608, 2592), (2304, 1296), (1920, 1080))),
    # Camera Module 3 Wide: 102 x 67 degrees.
    Camera("Pi Camera Module 3 Wide", 102.0, 67.0, ((4608, 2592), (2304, 1296), (1920, 1080))),
    # A typical 1080p USB camera (Logitech C920 class): 78 degrees diagonal, 16:9.
    Camera("1080p USB camera (78° diagonal)", 70.4, 43.3, ((1920, 1080), (1280, 720))),
)

TABLES = (
    ("card table 86 × 86 cm", 860, 860),
    ("club table 100 × 100 cm", 1000, 1000),
    ("table 120 × 80 cm", 1200, 800),
)


def mount(camera: Camera, width_mm: float, depth_mm: float) -> tuple[float, float, float]:
    """``(height mm, view width mm, view depth mm)`` of the lowest mount seeing the table."""
    w = width_mm * (1 + 2 * MARGIN)
    d = depth_mm * (1 + 2 * MARGIN)
    th = math.tan(math.radians(camera.hfov_deg / 2))
    tv = math.tan(math.radians(camera.vfov_deg / 2))
    height = max(w / (2 * th), d / (2 * tv))
    return height, 2 * height * th, 2 * height * tv


def table() -> str:
    need = NEED_PX / INDEX_MM
    lines = [
        f"Needed: {NEED_PX} px over a {INDEX_MM:g} mm corner index = {need:.2f} px/mm; "
        f"view = table + {MARGIN:.0%} each side.",
        "",
        "| camera | table | lens height over the table | view (cm) | mode | px/mm "
        "| px on the index | enough? |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for camera in CAMERAS:
        for name, width, depth in TABLES:
            height, view_w, view_d = mount(camera, width, depth)
            for mode_w, mode_h in camera.modes:
                px_mm = min(mode_w / view_w, mode_h / view_d)
                ok = "yes" if px_mm >= need else "no"
                lines.append(
                    f"| {camera.name} | {name} | {height / 10:.0f} cm | "
                    f"{view_w / 10:.0f} × {view_d / 10:.0f} | {mode_w}×{mode_h} | {px_mm:.2f} | "
                    f"{px_mm * INDEX_MM:.0f} | {ok} |"
                )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(table(), end="")
