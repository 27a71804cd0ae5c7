"""The card networks' two engines (vision/model.py, docs/model.md "Engines"): ONNX
Runtime, what runs them where it is installed, and OpenCV's DNN module, what a
platform without ONNX Runtime's wheels runs them on. Both must read a patch alike,
and a bad file must be named the same way on each."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.errors import ModelError
from vision.images import read_image
from vision.model import (
    DEFAULT_MODEL,
    ENGINES,
    IndexClassifier,
    default_engine,
    gate_path,
    load_network,
    more_paths,
)
from vision.proposals import all_proposals, extract_patches
from vision.recognize import Recognizer
from vision.synth import make_scene

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"


def _deal(k: int) -> np.ndarray:
    photos = sorted((DATA / "bidly" / "deals").glob("*.jpg"))
    assert len(photos) > k, f"{DATA} is missing: put ../shared beside the clone"
    return read_image(photos[k])


def test_onnx_runtime_runs_the_networks_where_it_is_installed():
    # the dependency is declared for every platform with wheels (pyproject.toml); a
    # fresh install that lost it would run four times slower and say nothing
    import onnxruntime  # noqa: F401  (fails, not skips, where it is missing)

    assert default_engine() == "onnxruntime"
    assert IndexClassifier().engine == "onnxruntime"


def _patches() -> np.ndarray:
    """The patches a real whole-deal photo and a synthetic table propose."""
    image = _deal(0)
    scene = make_scene(np.random.default_rng(9_000_778), size=(960, 720)).image
    return np.concatenate(
        [extract_patches(img, all_proposals(img)) for img in (image, scene)], axis=0
    )


def test_both_engines_read_a_patch_alike():
    patches = _patches()
    assert len(patches) > 200
    by = {e: IndexClassifier(engine=e) for e in ENGINES}
    ranks = {e: c.classify(patches) for e, c in by.items()}
    (r1, s1), (r2, s2) = ranks["onnxruntime"], ranks["opencv"]
    assert np.abs(r1 - r2).max() < 1e-4 and np.abs(s1 - s2).max() < 1e-4
    sure = r1.max(axis=1) > 0.5
    assert sure.sum() > 20  # indices among them, not only "no index"
    assert (r1.argmax(axis=1)[sure] == r2.argmax(axis=1)[sure]).all()
    small = patches[:, ::2, ::2]  # the gate's patches' size (its own cut is finer)
    g1, g2 = (by[e].gate_logits(small) for e in ENGINES)
    assert np.abs(g1 - g2).max() < 1e-3


def test_a_recogniser_reads_the_same_cards_on_either_engine():
    image = _deal(1)
    cards = {}
    for engine in ENGINES:
        rec = Recognizer()
        rec.classifier = IndexClassifier(engine=engine)
        cards[engine] = sorted(r.card for r in rec.read_any_scale(image))
    assert len(cards["onnxruntime"]) >= 10
    assert cards["onnxruntime"] == cards["opencv"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_network_is_named_on_either_engine(tmp_path, engine):
    with pytest.raises(ModelError, match=r"model file not found: .*nothing\.onnx"):
        IndexClassifier(tmp_path / "nothing.onnx", engine=engine)
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07not really onnx")
    with pytest.raises(ModelError, match=r"bad\.onnx is not a readable ONNX model"):
        IndexClassifier(bad, engine=engine)
    with pytest.raises(ModelError, match="is a folder"):
        load_network(tmp_path, engine)
    # the card network saved as the gate: it takes patches twice the gate's size
    model = tmp_path / "cards.onnx"
    shutil.copy(DEFAULT_MODEL, model)
    shutil.copy(DEFAULT_MODEL, gate_path(model))
    with pytest.raises(ModelError, match=r"gate file .*cards\.gate\.onnx does not read 18 x 12"):
        IndexClassifier(model, engine=engine)
    # the gate saved as the card network: it takes half-size patches
    shutil.copy(gate_path(DEFAULT_MODEL), model)
    gate_path(model).unlink()
    with pytest.raises(ModelError, match=r"cards\.onnx does not read 36 x 24"):
        IndexClassifier(model, engine=engine)
    # the classifier, told so, runs on that engine, with the networks its card lists
    clf = IndexClassifier(engine=engine)
    assert clf.engine == engine and len(clf.others) == len(more_paths(DEFAULT_MODEL))


def test_an_engine_that_is_none_is_named():
    with pytest.raises(ModelError, match=r"no engine 'tensorrt': one of onnxruntime, opencv"):
        IndexClassifier(engine="tensorrt")


def test_the_networks_run_on_onnx_runtime_on_the_calling_thread(monkeypatch):
    """What the engine is for: ONNX Runtime's sessions, one thread each and no pool
    spinning beside the live loop (docs/model.md "Engines")."""
    import onnxruntime

    import vision.model as model

    made = []
    real = onnxruntime.InferenceSession

    def spy(path, options, **kwargs):
        made.append((Path(path).name, options))
        return real(path, options, **kwargs)

    monkeypatch.setattr(model.onnxruntime, "InferenceSession", spy)
    tasks = Path("/proc/self/task")
    before = len(list(tasks.iterdir()))
    clf = IndexClassifier()
    names = sorted(name for name, _ in made)
    assert names == sorted(
        [DEFAULT_MODEL.name, gate_path(DEFAULT_MODEL).name]
        + [p.name for p in more_paths(DEFAULT_MODEL)]
    )
    for _, options in made:
        assert options.intra_op_num_threads == 1 and options.inter_op_num_threads == 1
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    patches = np.random.default_rng(3).integers(0, 256, (200, 36, 24, 3), dtype=np.uint8)
    clf.classify(patches)
    clf.gate_logits(patches[:, ::2, ::2])
    assert len(list(tasks.iterdir())) == before, "the networks started threads of their own"


def _onnx_file(path: Path, *, batch: int | str = "n", inputs: int = 1) -> Path:
    """A tiny network of the card network's shape (36 x 24 patches in, 18 numbers out)
    as a foreign exporter might write it: ``batch`` fixed or free, one input or more."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    feat = 3 * 36 * 24
    ins = [
        helper.make_tensor_value_info(f"x{i}", TensorProto.FLOAT, [batch, 3, 36, 24])
        for i in range(inputs)
    ]
    nodes = [helper.make_node("Flatten", ["x0"], ["flat"], axis=1)]
    last = "flat"
    for i in range(1, inputs):
        nodes.append(helper.make_node("Flatten", [f"x{i}"], [f"flat{i}"], axis=1))
        nodes.append(helper.make_node("Add", [last, f"flat{i}"], [f"sum{i}"]))
        last = f"sum{i}"
    weight = numpy_helper.from_array(np.full((feat, 18), 1e-3, np.float32), "w")
    nodes.append(helper.make_node("MatMul", [last, "w"], ["logits"]))
    out = helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 18])
    graph = helper.make_graph(nodes, "foreign", ins, [out], [weight])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, str(path))
    return path


@pytest.mark.parametrize("engine", ENGINES)
def test_a_network_that_loads_reads_a_frames_batch(tmp_path, engine):
    """A network exported for one patch at a time is refused when it is loaded, not at
    the first frame's batch; one with two inputs is refused naming the file."""
    patches = np.random.default_rng(4).integers(0, 256, (50, 36, 24, 3), dtype=np.uint8)
    free = _onnx_file(tmp_path / "free.onnx")
    rank, suit = IndexClassifier(free, engine=engine).classify(patches)
    assert rank.shape == (50, 14) and suit.shape == (50, 4)
    single = _onnx_file(tmp_path / "single.onnx", batch=1)
    try:
        clf = IndexClassifier(single, engine=engine)
    except ModelError as exc:
        assert "single.onnx does not read 36 x 24 patches, two at once" in str(exc)
    else:  # an engine that reads it whole at any batch (OpenCV's)
        assert clf.classify(patches)[0].shape == (50, 14)
    two = _onnx_file(tmp_path / "two.onnx", inputs=2)
    with pytest.raises(ModelError, match=r"two\.onnx"):
        IndexClassifier(two, engine=engine)
