"""Training runs end to end on a handful of scenes and gives a model OpenCV can run."""

from __future__ import annotations

import json

import numpy as np
import pytest

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

    from vision.model import GATE_H, GATE_W, _blob, gate_path
    from vision.proposals import all_proposals, extract_patches
    from vision.synth import make_scene

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
    image = make_scene(np.random.default_rng(4242)).image
    props = all_proposals(image)
    # the gate judges each proposal cut at half size
    net = cv2.dnn.readNetFromONNX(str(gate_path(out)))
    net.setInput(_blob(extract_patches(image, props, size=(GATE_H, GATE_W))))
    passed = np.asarray(net.forward()).reshape(-1) > 0
    assert 0 < passed.sum() < len(props)
    rank_g, suit_g = gated.read(image, props)
    rank_f, suit_f = full.read(image, props)
    assert gated.passed == passed.sum() and full.passed == len(props)
    assert np.allclose(rank_g[passed], rank_f[passed], atol=1e-5)
    assert np.allclose(suit_g[passed], suit_f[passed], atol=1e-5)
    assert (rank_g[~passed, 0] == 1).all() and np.allclose(suit_g[~passed], 0.25)
    # and what passes is read from the full-size patch, as classify reads it
    rank_c, _ = full.classify(extract_patches(image, props))
    assert np.allclose(rank_f, rank_c, atol=1e-5)

    # a model trained without a gate leaves no stale gate beside it; a network left
    # beside it (docs/model.md "More networks") is not read with it: its fresh card
    # lists none, and the log says so
    import shutil

    from vision.model import network_path

    shutil.copy(out, network_path(out, 2))
    said: list[str] = []
    train(
        TrainConfig(
            scenes=3, val_scenes=1, epochs=1, batch=64, workers=1, out=str(out), gate_epochs=0
        ),
        log=said.append,
    )
    assert not gate_path(out).exists() and IndexClassifier(out).gate is None
    assert any(line.startswith("cards.2.onnx beside it are not read") for line in said)
    assert IndexClassifier(out).others == []


def test_the_gate_patch_is_the_full_patch_at_half_size():
    # on a smooth picture each half-size pixel is the mean of its 2 x 2 block of the
    # full-size patch: the same stretch of card, centred alike, whatever the pyramid
    # level each is cut from
    from vision.model import GATE_H, GATE_W
    from vision.proposals import Proposals, extract_patches

    yy, xx = np.mgrid[0:400, 0:600].astype(np.float64)
    ramp = np.stack([xx * 0.3, yy * 0.4, 40 + xx * 0.1 + yy * 0.2], axis=-1)
    image = np.clip(ramp, 0, 255).astype(np.uint8)
    f = [np.array(v, np.float32) for v in ([300, 200], [200, 150], [0.6, 0], [0.8, 1], [20, 30])]
    z = np.zeros(2, np.int32)
    props = Proposals(*f, z, z)
    full = extract_patches(image, props).astype(float)
    small = extract_patches(image, props, size=(GATE_H, GATE_W)).astype(float)
    assert small.shape == (2, PATCH_H // 2, PATCH_W // 2, 3)
    means = full.reshape(2, PATCH_H // 2, 2, PATCH_W // 2, 2, 3).mean(axis=(2, 4))
    assert np.abs(small - means).max() <= 1.5  # rounding only


def test_the_strided_variant_exports_a_network_opencv_runs(tmp_path):
    # TrainConfig(strided=True): strided convolutions in place of max pooling (cheaper
    # for OpenCV at these sizes; docs/notes.md has how it compared)
    import torch

    from vision.model import _blob, _read_onnx
    from vision.train import _export, _network

    for strided, weights in ((True, 15), (False, 12)):
        model = _network((4, 6, 8), 16, strided)
        assert model.head[1].in_features == 8 * weights  # 5 x 3 or 4 x 3 after three halvings
        out = tmp_path / f"net{strided}.onnx"
        _export(model, out)
        net = _read_onnx(out)
        patches = np.random.default_rng(1).integers(0, 256, (3, PATCH_H, PATCH_W, 3), np.uint8)
        net.setInput(_blob(patches))
        got = np.asarray(net.forward())
        with torch.no_grad():
            want = model(torch.from_numpy(_blob(patches))).numpy()
        assert got.shape == (3, len(RANK_CLASSES) + 4) and np.allclose(got, want, atol=1e-4)


def test_a_half_covered_index_is_left_out_or_refused_never_taught_as_its_card():
    from vision.dataset import label_proposals
    from vision.proposals import Proposals
    from vision.synth import IndexTruth, make_scene

    f = np.float32
    props = Proposals(
        *(np.array([v, v + 300.0], f) for v in (100.0, 100.0)),
        np.array([0.0, 0.0], f),
        np.array([1.0, 1.0], f),
        np.array([20.0, 20.0], f),
        np.zeros(2, np.int32),
        np.zeros(2, np.int32),
    )
    half = IndexTruth("8H", 0, 100.0, 100.0, 0.0, 1.0, 20.0, visible=False, seen=0.4)
    whole = IndexTruth("8H", 0, 100.0, 100.0, 0.0, 1.0, 20.0, visible=True, seen=1.0)
    rank, _, skip = label_proposals(props, (half,))
    assert rank.tolist() == [0, 0] and skip.tolist() == [True, False]  # left out
    rank, _, skip = label_proposals(props, (half,), refuse_covered=True)
    assert rank.tolist() == [0, 0] and skip.tolist() == [False, False]  # taught "no index"
    rank, _, skip = label_proposals(props, (whole,), refuse_covered=True)
    assert rank.tolist() == [RANK_CLASSES.index("8"), 0] and not skip.any()
    # the scenes measure how much of each glyph shows
    scene = make_scene(np.random.default_rng(3))
    assert all(t.seen >= 0.6 for t in scene.indices if t.visible)
    scenes = [make_scene(np.random.default_rng(s)) for s in range(3)]
    assert any(0.0 < t.seen <= 0.6 for s in scenes for t in s.indices)


def test_a_training_only_font_set_is_trained_on_whole_or_not_at_all(monkeypatch, tmp_path):
    """The `wide` set's faces are not installed by `make test`; training on it with
    some missing would quietly learn from fewer fonts than the model card says."""
    import vision.faces as faces
    from vision.train import build_data

    # the DejaVu, Liberation and FreeFont folders only: the wide set's other faces gone
    monkeypatch.setattr(faces, "FONT_DIRS", faces.FONT_DIRS[:3])
    missing = faces.missing_fonts("wide")
    assert "truetype/hack/Hack-Bold.ttf" in missing
    with pytest.raises(SystemExit, match=r"lacks .*Hack-Bold\.ttf.*fonts-hack"):
        build_data(TrainConfig(scenes=1, val_scenes=1, workers=1, fonts="wide"))
