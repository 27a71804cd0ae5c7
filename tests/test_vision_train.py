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


def test_the_gate_stops_patches_and_the_rest_get_the_full_network(tmp_path):
    import cv2

    from vision.dataset import scene_patches
    from vision.model import _blob, gate_input, gate_path

    out = tmp_path / "cards.onnx"
    card = train(
        TrainConfig(scenes=6, val_scenes=2, epochs=1, batch=64, workers=1, out=str(out)),
        log=lambda _: None,
    )
    assert gate_path(out).is_file() and gate_path(out).name == "cards.gate.onnx"
    # the threshold is set on the validation indices: it passes that share of them
    assert card["gate"]["gate_index_passed"] >= 0.99
    gated, full = IndexClassifier(out), IndexClassifier(out, gate=False)
    assert gated.gate is not None and full.gate is None
    patches = scene_patches(4242, None).images
    net = cv2.dnn.readNetFromONNX(str(gate_path(out)))
    net.setInput(_blob(gate_input(patches)))
    passed = np.asarray(net.forward()).reshape(-1) > 0
    rank_g, suit_g = gated.classify(patches)
    rank_f, suit_f = full.classify(patches)
    assert gated.passed == passed.sum() and full.passed == len(patches)
    assert np.allclose(rank_g[passed], rank_f[passed], atol=1e-5)
    assert np.allclose(suit_g[passed], suit_f[passed], atol=1e-5)
    assert (rank_g[~passed, 0] == 1).all() and np.allclose(suit_g[~passed], 0.25)

    # a model trained without a gate leaves no stale gate beside it
    train(
        TrainConfig(
            scenes=3, val_scenes=1, epochs=1, batch=64, workers=1, out=str(out), gate_epochs=0
        ),
        log=lambda _: None,
    )
    assert not gate_path(out).exists() and IndexClassifier(out).gate is None


def test_the_gate_sees_each_patch_at_half_size_by_2x2_means():
    from vision.model import gate_input

    rng = np.random.default_rng(7)
    patches = rng.integers(0, 256, (5, PATCH_H, PATCH_W, 3), dtype=np.uint8)
    small = gate_input(patches)
    assert small.shape == (5, PATCH_H // 2, PATCH_W // 2, 3)
    means = patches.reshape(5, PATCH_H // 2, 2, PATCH_W // 2, 2, 3).astype(float).mean(axis=(2, 4))
    assert np.abs(small.astype(float) - means).max() <= 0.5 + 1e-9  # rounded, never mixed
