"""Training runs end to end on a handful of scenes and gives a model OpenCV can run."""

from __future__ import annotations

import json

import numpy as np

from vision.model import RANK_CLASSES, IndexClassifier
from vision.proposals import PATCH_H, PATCH_W
from vision.train import TrainConfig, train


def test_a_tiny_training_run_exports_a_working_onnx_model(tmp_path):
    out = tmp_path / "cards.onnx"
    lines: list[str] = []
    card = train(
        TrainConfig(scenes=6, val_scenes=2, epochs=1, batch=64, workers=1, out=str(out)),
        log=lines.append,
    )
    assert out.is_file() and out.with_suffix(".pt").is_file()
    written = json.loads(out.with_suffix(".json").read_text())
    assert written["config"]["scenes"] == 6 and len(written["history"]) == 1
    assert card["patches"]["train"] > 50
    assert any(line.startswith("epoch 1:") for line in lines)
    clf = IndexClassifier(out)
    rank_p, suit_p = clf.classify(np.zeros((5, PATCH_H, PATCH_W, 3), np.uint8))
    assert rank_p.shape == (5, len(RANK_CLASSES)) and suit_p.shape == (5, 4)
    assert np.allclose(rank_p.sum(axis=1), 1, atol=1e-4)
