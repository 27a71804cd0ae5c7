"""The live loop: frames in, table observations out (`kiebitz vision watch SOURCE`).

:class:`TableWatcher` is the loop's body for one frame: it reads the frame in
full only when it differs from the last one read (:class:`~vision.motion.MotionGate`),
feeds the readings to the :class:`~vision.tracker.Tracker`, and tells the tracker
where something moved a moment ago: a card there is neither placed (it may be in
a passing hand) nor removed (it may be under one).

:func:`watch` runs it over a source and prints one JSON line per observation.
With ``table`` the first frame that shows the markers calibrates the camera and
every card gets a position in millimetres and a zone; without, positions are in
pixels and zones are unknown. Live cameras are reopened with back-off when they
vanish, and their state changes are printed as ``{"status": …}`` lines. A frame
that cannot be read is reported and skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

import numpy as np
from numpy.typing import NDArray

from vision.errors import CalibrationError, SourceError
from vision.geometry import calibrate
from vision.layout import TableLayout, load_layout
from vision.model import DEFAULT_MODEL
from vision.motion import MotionGate
from vision.recognize import CardReading, Recognizer
from vision.sources import (
    CameraSource,
    ImageFolderSource,
    PiCameraSource,
    Reconnecting,
    open_source,
)
from vision.tracker import Observation, Sighting, Tracker

__all__ = ["TableWatcher", "watch"]


class TableWatcher:
    """One table: recogniser, motion gate, tracker, and the calibration once found."""

    def __init__(
        self,
        recognizer: Recognizer,
        *,
        layout: TableLayout | None = None,
        tracker: Tracker | None = None,
        gate: MotionGate | None = None,
    ) -> None:
        self.recognizer = recognizer
        self.layout = layout
        self.tracker = tracker or Tracker()
        self.gate = gate or MotionGate()
        self.readings: list[CardReading] = []
        self.full_reads = 0

    def try_calibrate(self, image: NDArray[np.uint8]) -> float | None:
        """Calibrate from this frame if not done yet; the error in mm, or ``None``."""
        if self.layout is None or self.recognizer.calibration is not None:
            return None
        cal = calibrate(image, self.layout)
        self.recognizer.layout = self.layout
        self.recognizer.calibration = cal
        return cal.error_mm

    def process(
        self, t: float, image: NDArray[np.uint8]
    ) -> tuple[list[Observation], list[CardReading]]:
        """Observations this frame settles, and the flagged readings it made (if read)."""
        flagged: list[CardReading] = []
        looked = self.gate.update(t, image)
        if looked:
            self.readings = self.recognizer.read(image)
            self.full_reads += 1
            flagged = [r for r in self.readings if r.flags]
        cal = self.recognizer.calibration
        sightings = []
        for r in self.readings:
            x, y = r.position_mm if r.position_mm is not None else r.centre
            sightings.append(Sighting(r.card, r.confidence, x, y, r.zone))

        def busy(x: float, y: float) -> bool:
            if cal is not None:
                x, y = cal.to_px([[x, y]])[0]
            return self.gate.moving_near(float(x), float(y), t)

        return self.tracker.update(t, sightings, busy, looked=looked), flagged


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
    watcher = TableWatcher(Recognizer(model or DEFAULT_MODEL), layout=layout)

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
            if layout is not None and watcher.recognizer.calibration is None:
                try:
                    error = watcher.try_calibrate(frame.image)
                    emit({"status": "calibrated", "error_mm": round(error or 0.0, 2)})
                except CalibrationError as exc:
                    emit({"warning": f"frame {frame.index}: {exc}"})
            observations, flagged = watcher.process(frame.t, frame.image)
            for r in flagged:
                emit({"t": round(frame.t, 3), "reading": r.to_json()})
            for obs in observations:
                emit(obs.to_json())
    finally:
        source.close()
    return 0
