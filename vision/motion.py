"""Cheap motion analysis on a small grey copy of each frame.

Two uses in the live loop:

* **gating**: a frame that looks like the last one read in full is not read
  again; its readings are the same (a still table costs about a millisecond a
  frame instead of a full reading); a full reading is forced every
  ``refresh_s`` all the same;
* **occlusion**: where something moved recently (a hand reaching over the
  table), a card that cannot be seen is taken to be covered, not removed; a card
  that is taken away leaves a still table behind, and its absence counts.

>>> import numpy as np
>>> gate = MotionGate()
>>> still = np.full((72, 128, 3), 90, np.uint8)
>>> gate.update(0.0, still), gate.update(0.1, still)
(True, False)
>>> moved = still.copy(); moved[10:40, 10:60] = 250
>>> gate.update(0.2, moved), gate.moving_near(30, 25, 0.3), gate.moving_near(120, 70, 0.3)
(True, True, False)
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["MotionGate"]


class MotionGate:
    def __init__(
        self,
        *,
        shrink: int = 8,
        level: int = 18,
        share: float = 0.0015,
        refresh_s: float = 1.0,
        memory_s: float = 0.7,
    ) -> None:
        self.shrink = shrink
        self.level = level
        self.share = share
        self.refresh_s = refresh_s
        self.memory_s = memory_s
        self._reference: NDArray[np.uint8] | None = None
        self._previous: NDArray[np.uint8] | None = None
        self._last_full = float("-inf")
        self._last_moved: NDArray[np.float32] | None = None

    def _small(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        h, w = gray.shape
        small = cv2.resize(
            gray, (max(1, w // self.shrink), max(1, h // self.shrink)), interpolation=cv2.INTER_AREA
        )
        return cv2.GaussianBlur(small, (3, 3), 0)

    def update(self, t: float, image: NDArray[np.uint8]) -> bool:
        """Take the next frame; return whether it must be read in full."""
        small = self._small(image)
        if self._previous is not None and self._previous.shape == small.shape:
            moving = cv2.absdiff(small, self._previous) > self.level
            if self._last_moved is None or self._last_moved.shape != small.shape:
                self._last_moved = np.full(small.shape, -np.inf, np.float32)
            self._last_moved[cv2.dilate(moving.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0] = t
        self._previous = small
        if (
            self._reference is None
            or self._reference.shape != small.shape
            or t - self._last_full >= self.refresh_s
            or np.mean(cv2.absdiff(small, self._reference) > self.level) > self.share
        ):
            self._reference = small
            self._last_full = t
            return True
        return False

    def moving_near(self, x_px: float, y_px: float, t: float) -> bool:
        """Did something move near this pixel within the last ``memory_s`` seconds?"""
        if self._last_moved is None:
            return False
        h, w = self._last_moved.shape
        cx, cy = int(x_px / self.shrink), int(y_px / self.shrink)
        x0, x1 = max(0, cx - 3), min(w, cx + 4)
        y0, y1 = max(0, cy - 3), min(h, cy + 4)
        if x0 >= x1 or y0 >= y1:
            return False
        return bool((t - self._last_moved[y0:y1, x0:x1] <= self.memory_s).any())
