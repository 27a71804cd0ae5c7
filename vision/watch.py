"""`kiebitz vision watch SOURCE`: frames in, table observations out, one JSON line each.

With ``--table`` the first frame that shows the markers calibrates the camera
and every card gets a position in millimetres and a zone; without, positions
are in pixels and zones are unknown. Live cameras are reopened with back-off
when they vanish; their state changes are printed as ``{"status": …}`` lines.
A frame that cannot be read is reported and skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from vision.errors import CalibrationError, SourceError
from vision.geometry import Calibration, calibrate
from vision.layout import load_layout
from vision.model import DEFAULT_MODEL
from vision.recognize import Recognizer
from vision.sources import (
    CameraSource,
    ImageFolderSource,
    PiCameraSource,
    Reconnecting,
    open_source,
)
from vision.tracker import Sighting, Tracker

__all__ = ["watch"]


def watch(
    spec: str,
    *,
    table: str | None = None,
    fps: float = 10.0,
    model: str | Path | None = None,
    out: TextIO,
    max_frames: int | None = None,
) -> int:
    layout = load_layout(table) if table else None
    recognizer = Recognizer(model or DEFAULT_MODEL, layout=layout)
    tracker = Tracker()

    def emit(obj: dict[str, object]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    raw = open_source(spec, fps=fps)
    live = isinstance(raw, (CameraSource, PiCameraSource))
    source = (
        Reconnecting(raw, on_state=lambda s, d: emit({"status": s, "source": spec, "detail": d}))
        if live
        else raw
    )
    source.open()
    calibration: Calibration | None = None
    frames = 0
    try:
        while max_frames is None or frames < max_frames:
            try:
                frame = source.read()
            except SourceError as exc:
                emit({"error": str(exc)})
                if isinstance(raw, ImageFolderSource):
                    continue
                raise
            if frame is None:
                if live:
                    continue
                break
            frames += 1
            if layout is not None and calibration is None:
                try:
                    calibration = calibrate(frame.image, layout)
                    recognizer.calibration = calibration
                    emit({"status": "calibrated", "error_mm": round(calibration.error_mm, 2)})
                except CalibrationError as exc:
                    emit({"warning": f"frame {frame.index}: {exc}"})
            readings = recognizer.read(frame.image)
            sightings = []
            for r in readings:
                if "duplicate" in r.flags or "low-confidence" in r.flags:
                    emit({"t": round(frame.t, 3), "reading": r.to_json()})
                x, y = r.position_mm if r.position_mm is not None else r.centre
                sightings.append(Sighting(r.card, r.confidence, x, y, r.zone))
            for obs in tracker.update(frame.t, sightings):
                emit(obs.to_json())
    finally:
        source.close()
    return 0
