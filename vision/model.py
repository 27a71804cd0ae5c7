"""The index classifier at run time: an ONNX file run by OpenCV's DNN module (no PyTorch).

Input: upright index patches, ``PATCH_H`` x ``PATCH_W`` BGR, scaled to [-0.5, 0.5].
Output per patch: 14 rank logits (no index, A, 2 … 10, J, Q, K) then 4 suit logits
(S, H, D, C).

An optional *gate* beside the model (``cards.gate.onnx`` next to ``cards.onnx``)
is a network about a thirtieth of the model's cost that sees every patch first,
at half size (:func:`gate_input`), and gives one logit: above zero, "may be an
index" (its threshold is folded into its last bias when it is trained, chosen to
pass 99.9 % of the indices of the validation scenes). Only those patches go
through the full network; the others are reported as "no index" with certainty.
Most proposals are pips, court art and table texture, so the gate spares the
full network most of its work.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError
from vision.proposals import PATCH_H, PATCH_W

__all__ = [
    "DEFAULT_MODEL",
    "RANK_CLASSES",
    "SUIT_CLASSES",
    "IndexClassifier",
    "gate_input",
    "gate_path",
]

DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "cards.onnx"
RANK_CLASSES = ("-", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_CLASSES = ("S", "H", "D", "C")


def _softmax(x: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def gate_path(model: Path) -> Path:
    """Where the gate of ``model`` lives: ``cards.onnx`` -> ``cards.gate.onnx``."""
    return model.with_name(model.stem + ".gate.onnx")


def gate_input(patches: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """What the gate sees: each patch at half size (2 x 2 means), 18 x 12. The whole
    stack is shrunk as one tall picture, which is a mean of exactly each patch's own
    2 x 2 blocks since the patch sides are even."""
    n, h, w, c = patches.shape
    tall = patches.reshape(n * h, w, c)
    small = cv2.resize(tall, (w // 2, n * h // 2), interpolation=cv2.INTER_AREA)
    return small.reshape(n, h // 2, w // 2, c)


def _blob(patches: NDArray[np.uint8]) -> NDArray[np.float32]:
    return (patches.astype(np.float32) / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()


def _read_onnx(path: Path) -> cv2.dnn.Net:
    """The ONNX file on OpenCV's classic DNN engine where there is a choice (OpenCV 5):
    for this small network it runs about twice as fast on one core as the new
    engine, which OpenCV 5 picks by default."""
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:  # OpenCV 4: one engine
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=classic)


class IndexClassifier:
    """Loads the model once; :meth:`classify` takes a stack of patches.

    Patches go through the network in batches of ``batch``: small batches keep each
    layer's activations in the cache (48 patches are about 1 MB at the first layer),
    which on one core is faster than one large batch.
    """

    def __init__(
        self, path: str | Path = DEFAULT_MODEL, *, batch: int = 48, gate: bool = True
    ) -> None:
        self.path = Path(path)
        self.net = self._load(self.path)
        gpath = gate_path(self.path)
        self.gate = self._load(gpath) if gate and gpath.is_file() else None
        self.batch = batch
        self.passed = 0  # patches the gate let through in the last call
        probe = self.classify(np.zeros((1, PATCH_H, PATCH_W, 3), np.uint8))
        if probe[0].shape != (1, len(RANK_CLASSES)):
            raise ModelError(f"model file {self.path} does not give {len(RANK_CLASSES)} ranks")
        if self.gate is not None:
            self.gate.setInput(_blob(gate_input(np.zeros((2, PATCH_H, PATCH_W, 3), np.uint8))))
            if np.asarray(self.gate.forward()).size != 2:
                raise ModelError(f"gate file {gpath} does not give one logit a patch")

    @staticmethod
    def _load(path: Path) -> cv2.dnn.Net:
        if not path.is_file():
            raise ModelError(f"model file not found: {path}")
        try:
            net = _read_onnx(path)
        except cv2.error as exc:
            raise ModelError(f"model file {path} is not a readable ONNX model") from exc
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        return net

    def _run(self, net: cv2.dnn.Net, patches: NDArray[np.uint8]) -> NDArray[np.float32]:
        outs = []
        for i in range(0, len(patches), self.batch):
            chunk = patches[i : i + self.batch]
            net.setInput(_blob(chunk))
            outs.append(np.asarray(net.forward(), dtype=np.float32).reshape(len(chunk), -1))
        return np.concatenate(outs)

    def classify(
        self, patches: NDArray[np.uint8]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Rank and suit probabilities per patch (a patch the gate stops: certainly
        no index, suits even)."""
        nr, ns = len(RANK_CLASSES), len(SUIT_CLASSES)
        n = len(patches)
        rank_p = np.zeros((n, nr), np.float32)
        suit_p = np.full((n, ns), 1.0 / ns, np.float32)
        rank_p[:, 0] = 1.0
        if n == 0:
            self.passed = 0
            return rank_p, suit_p
        keep = np.arange(n)
        if self.gate is not None:
            keep = np.nonzero(self._run(self.gate, gate_input(patches))[:, 0] > 0)[0]
        self.passed = len(keep)
        if len(keep):
            logits = self._run(self.net, patches[keep])
            rank_p[keep] = _softmax(logits[:, :nr])
            suit_p[keep] = _softmax(logits[:, nr : nr + ns])
        return rank_p, suit_p
