"""The index classifier at run time: an ONNX file run by OpenCV's DNN module (no PyTorch).

Input: upright index patches, ``PATCH_H`` x ``PATCH_W`` BGR, scaled to [-0.5, 0.5].
Output per patch: 14 rank logits (no index, A, 2 … 10, J, Q, K) then 4 suit logits
(S, H, D, C).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.proposals import PATCH_H, PATCH_W

__all__ = ["DEFAULT_MODEL", "RANK_CLASSES", "SUIT_CLASSES", "IndexClassifier"]

DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "cards.onnx"
RANK_CLASSES = ("-", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_CLASSES = ("S", "H", "D", "C")


def _softmax(x: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class IndexClassifier:
    """Loads the model once; :meth:`classify` takes a stack of patches."""

    def __init__(self, path: str | Path = DEFAULT_MODEL, *, batch: int = 256) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise ModelError(f"model file not found: {self.path}")
        try:
            self.net = cv2.dnn.readNetFromONNX(str(self.path))
        except cv2.error as exc:
            raise ModelError(f"model file {self.path} is not a readable ONNX model") from exc
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.batch = batch
        probe = self.classify(np.zeros((1, PATCH_H, PATCH_W, 3), np.uint8))
        if probe[0].shape != (1, len(RANK_CLASSES)):
            raise ModelError(f"model file {self.path} does not give {len(RANK_CLASSES)} ranks")

    def classify(
        self, patches: NDArray[np.uint8]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Rank and suit probabilities per patch."""
        if len(patches) == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, 4), np.float32)
        outs = []
        for i in range(0, len(patches), self.batch):
            chunk = patches[i : i + self.batch]
            blob = (chunk.astype(np.float32) / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()
            self.net.setInput(blob)
            outs.append(np.asarray(self.net.forward(), dtype=np.float32).reshape(len(chunk), -1))
        logits = np.concatenate(outs)
        nr = len(RANK_CLASSES)
        return _softmax(logits[:, :nr]), _softmax(logits[:, nr : nr + len(SUIT_CLASSES)])
