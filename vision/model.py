"""The index classifier at run time: an ONNX file run by ONNX Runtime on one thread, or,
where ONNX Runtime is not installed, by OpenCV's DNN module (no PyTorch either way).

Input: upright index patches, ``PATCH_H`` x ``PATCH_W`` BGR, scaled to [-0.5, 0.5].
Output per patch: 14 rank logits (no index, A, 2 … 10, J, Q, K) then 4 suit logits
(S, H, D, C).

An optional *gate* beside the model (``cards.gate.onnx`` next to ``cards.onnx``)
is a network about a thirteenth of the model's cost that sees every proposal
first, cut at half size (``GATE_H`` x ``GATE_W``, from the next level of the
image pyramid: a quarter of the pixels to cut), and gives one logit: above zero,
"may be an index" (its threshold is folded into its last bias when it is
trained, chosen to pass 99.9 % of the indices of the validation scenes). Only
those proposals are cut at full size and go through the full network; the others
are reported as "no index" with certainty. Most proposals are pips, court art
and table texture, so the gate spares the full network, and the cutting of full
patches, most of the work.

Optional *more networks* beside the model (``cards.2.onnx`` … next to
``cards.onnx``, listed with their hashes in its model card, ``cards.json``:
:func:`more_paths`), of the same shape but trained
apart (other index fonts, other scenes: docs/model.md), read every patch the
gate passes too, and the networks' probabilities are averaged. Networks wrong in
different ways are seldom all sure of the same wrong card: the pair read every
bench set with fewer readings of cards not there than either alone
(docs/model.md, "More networks"), each network's time added (a millisecond or
two a frame). A table's first reading of its proposals may spare a single other
network (``classify(spare=True)``): where the model alone is sure a patch shows no
index (``SURELY_NONE`` of its probability) it is not asked, since the average
could not make it an index (docs/model.md, "Asked only where it can matter").
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

try:  # the engine these small networks run fastest on (docs/model.md, "Engines")
    import onnxruntime
except ImportError:  # a platform without its wheels (32-bit Raspberry Pi OS)
    onnxruntime = None

from vision.errors import ModelError
from vision.proposals import PATCH_H, PATCH_W, Proposals, Pyramid, extract_patches

__all__ = [
    "DEFAULT_MODEL",
    "ENGINES",
    "GATE_H",
    "GATE_W",
    "RANK_CLASSES",
    "SUIT_CLASSES",
    "IndexClassifier",
    "default_engine",
    "gate_path",
    "load_network",
    "more_paths",
    "network_hash",
    "network_path",
]

DEFAULT_MODEL = Path(__file__).resolve().parent / "models" / "cards.onnx"
GATE_H, GATE_W = PATCH_H // 2, PATCH_W // 2  # the gate's patches: the same stretch, half size
RANK_CLASSES = ("-", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_CLASSES = ("S", "H", "D", "C")
#: The model's own "no index" probability from which a patch is not read by the
#: other network (where there is one other). Averaged with it, it could then read
#: an index only where it was at least 0.999 sure of one rank, and only at about 0.5
#: confidence.
#: Measured (docs/model.md, "Asked only where it can matter"): 3,285 of 5,638 patches
#: the gate passed (real photos, synthetic tables, unseen fonts, hard light,
#: patterned cloth and print: 45 to 64 % of a table's, 96 % of the cloths') were
#: this sure; none was read otherwise averaged, and the other network was at most
#: 0.983 sure of a rank in any of them.
SURELY_NONE = 0.9995


def _reddened(patches: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Grey patches with their ink printed red: the red channel barely darker than
    paper, blue and green as grey (:meth:`IndexClassifier.classify`, colourless)."""
    grey = patches.astype(np.float32).mean(axis=3)
    out = np.empty(patches.shape, np.float32)
    out[..., 0] = out[..., 1] = grey * 0.9
    out[..., 2] = 255.0 - (255.0 - grey) * 0.25
    return np.clip(out, 0, 255).astype(np.uint8)


def _softmax(x: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def gate_path(model: Path) -> Path:
    """Where the gate of ``model`` lives: ``cards.onnx`` -> ``cards.gate.onnx``."""
    return model.with_name(model.stem + ".gate.onnx")


def network_path(model: Path, k: int) -> Path:
    """Where the ``k``-th network of ``model`` lives: ``cards.onnx`` -> ``cards.2.onnx``."""
    return model.with_name(f"{model.stem}.{k}.onnx")


def more_paths(model: Path) -> list[Path]:
    """The networks that read with ``model``: those its model card (``cards.json``
    beside ``cards.onnx``) lists under ``"networks"``, each by file name and SHA-256.

    Only the card says so, not the files lying there: a model trained afresh where
    an older ``cards.2.onnx`` lay would otherwise be averaged with a network it was
    never measured with. A listed network that is missing or not the file measured
    (another hash) is a :class:`ModelError`; a model without a card, or a card
    without the list, reads alone."""
    card = model.with_suffix(".json")
    if not card.is_file():
        return []
    try:
        text = json.loads(card.read_text())
    except ValueError as exc:
        raise ModelError(f"model card {card} is not readable JSON: {exc}") from exc
    try:
        listed = text.get("networks", [])
        # a file beside the model, by its bare name (with_name refuses a path)
        entries = [(model.with_name(str(n["file"])), str(n["sha256"])) for n in listed]
    except (ValueError, AttributeError, KeyError, TypeError) as exc:
        raise ModelError(
            f"model card {card}: 'networks' is not a list of files and hashes"
        ) from exc
    paths = []
    for path, digest in entries:
        name = path.name
        if not path.is_file():
            raise ModelError(f"model card {card} lists {name}, which is not beside it")
        if network_hash(path)["sha256"] != digest:
            raise ModelError(f"{path} is not the network its model card {card} lists")
        paths.append(path)
    return paths


def network_hash(path: Path) -> dict[str, str]:
    """The entry of ``path`` for a model card's ``"networks"``: its file name and hash."""
    return {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _blob(patches: NDArray[np.uint8]) -> NDArray[np.float32]:
    return (patches.astype(np.float32) / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()


def _read_onnx(path: Path) -> cv2.dnn.Net:
    """The ONNX file on OpenCV's own DNN engine where there is a choice. OpenCV 5.0
    has two: the classic one runs these small networks about twice as fast on one
    core as the new one it picks by default. OpenCV 5.1 has one of its own
    (``ENGINE_OPENCV``; the choice's other side is ONNX Runtime, where OpenCV was
    built with it, which the PyPI wheels are not), which reads the card network a
    fifth faster than 5.0's classic engine and the gate at half its speed (measured
    on an AVX2 host, 2026-12-04: 4.8 against 6.0 ms for 48 patches, 3.7 against
    1.8 ms for the gate's 199); OpenCV 4: one engine."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", getattr(cv2.dnn, "ENGINE_OPENCV", None))
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=engine)


#: The engines a network can run on: ONNX Runtime (the default where it is
#: installed) and OpenCV's DNN module (what a platform without ONNX Runtime's wheels
#: has). On this project's networks, one core, ONNX Runtime is 2.5 to 3.5 times as
#: fast (docs/model.md, "Engines"); their probabilities differ by about 1e-5.
ENGINES = ("onnxruntime", "opencv")

#: A network as the classifier runs it: a batch of blobs (:func:`_blob`) in, one
#: row of outputs a patch out.
Network = Callable[[NDArray[np.float32]], NDArray[np.float32]]


def default_engine() -> str:
    """ONNX Runtime where it is installed, else OpenCV's DNN module."""
    return "onnxruntime" if onnxruntime is not None else "opencv"


def _opencv_network(path: Path) -> Network:
    try:
        net = _read_onnx(path)
    except cv2.error as exc:
        raise ModelError(f"model file {path} is not a readable ONNX model") from exc
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)

    def run(blob: NDArray[np.float32]) -> NDArray[np.float32]:
        # OpenCV 5 may refuse a file only here (an operation it lacks, two inputs)
        net.setInput(blob)
        return np.asarray(net.forward())

    return run


def _runtime_network(path: Path) -> Network:
    """``path`` on ONNX Runtime, on the calling thread alone: the live loop reads a
    frame on one core, and the other services keep theirs (a pool of threads that
    spin while they wait would take them)."""
    if onnxruntime is None:
        raise ModelError("ONNX Runtime is not installed: use the engine 'opencv'")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: its warnings are not the user's
    try:
        session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
    except Exception as exc:  # ONNX Runtime's errors derive from Exception alone
        raise ModelError(
            f"model file {path} is not a readable ONNX model: {_first_line(str(exc))}"
        ) from exc
    inputs = session.get_inputs()
    if len(inputs) != 1:
        raise ModelError(f"model file {path} takes {len(inputs)} inputs, not one")
    name = inputs[0].name

    def run(blob: NDArray[np.float32]) -> NDArray[np.float32]:
        return np.asarray(session.run(None, {name: blob})[0])

    return run


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else "failed"


def load_network(path: Path, engine: str | None = None) -> Network:
    """The ONNX file at ``path``, ready to run on ``engine`` (one of :data:`ENGINES`;
    ``None``: :func:`default_engine`). A missing, unreadable or foreign file is a
    :class:`~vision.errors.ModelError` naming it."""
    engine = engine or default_engine()
    if engine not in ENGINES:
        raise ModelError(f"no engine {engine!r}: one of {', '.join(ENGINES)}")
    if path.is_dir():
        raise ModelError(f"model file {path} is a folder, not an ONNX file")
    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    raw = _runtime_network(path) if engine == "onnxruntime" else _opencv_network(path)
    # what each engine raises on a batch it cannot run: ONNX Runtime's errors derive
    # from Exception alone; ValueError, a network that gives no row a patch
    fails = Exception if engine == "onnxruntime" else (cv2.error, ValueError)

    def run(blob: NDArray[np.float32]) -> NDArray[np.float32]:
        try:
            return np.asarray(raw(blob), dtype=np.float32).reshape(len(blob), -1)
        except fails as exc:  # a patch of another size, say
            raise ModelError(f"model file {path}: {_first_line(str(exc))}") from exc

    return run


class IndexClassifier:
    """Loads the model (and its gate and more networks, where they are) once.

    :meth:`read` takes a picture and its proposals: it cuts each proposal at half
    size for the gate and at full size only those the gate passes.
    :meth:`classify` runs the full network on patches already cut. Patches go
    through a network in batches of ``batch``: small batches keep each layer's
    activations in the cache (48 patches are about 1 MB at the first layer), which
    on one core is faster than one large batch.
    """

    def __init__(
        self,
        path: str | Path = DEFAULT_MODEL,
        *,
        batch: int = 48,
        gate: bool = True,
        more: bool = True,
        engine: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.engine = engine or default_engine()  # what the networks run on (ENGINES)
        self.net = self._load(self.path)
        # the networks that read with it (``more=False``: it alone)
        paths = more_paths(self.path) if more else []
        self.others = [(path, self._load(path)) for path in paths]
        gpath = gate_path(self.path)
        self.gate = self._load(gpath) if gate and gpath.is_file() else None
        self.batch = batch
        self.passed = 0  # proposals the gate let through in the last reading
        # the picture read has no colour (vision.proposals.Picture.colourless): set by
        # the recogniser for each picture; its patches are then read twice
        self.colourless = False
        # the gate's logit for each proposal of the last reading (None: no gate)
        self.last_gate: NDArray[np.float32] | None = None
        self.timings: dict[str, float] = {}  # seconds of the last reading: gate, classify
        # each network read once: it takes patches and gives the ranks' and suits'
        # logits; two at once (a network exported for one patch at a time would read
        # this probe and fail at the first frame's batch)
        zero = np.zeros((2, PATCH_H, PATCH_W, 3), np.uint8)
        outputs = len(RANK_CLASSES) + len(SUIT_CLASSES)
        for where, net in ((self.path, self.net), *self.others):
            try:
                probe = self._run(net, zero)
            except ModelError as exc:
                raise ModelError(
                    f"model file {where} does not read {PATCH_H} x {PATCH_W} patches, two "
                    f"at once ({exc})"
                ) from exc
            if probe.shape != (2, outputs):
                raise ModelError(
                    f"model file {where} does not give {len(RANK_CLASSES)} ranks and "
                    f"{len(SUIT_CLASSES)} suits"
                )
        small = np.zeros((2, GATE_H, GATE_W, 3), np.uint8)
        if self.gate is not None:
            try:
                logits = self.gate_logits(small)
            except ModelError as exc:  # a card network saved as the gate, say
                raise ModelError(
                    f"gate file {gpath} does not read {GATE_H} x {GATE_W} patches, two at "
                    f"once ({exc})"
                ) from exc
            if logits.shape != (2,):
                raise ModelError(f"gate file {gpath} does not give one logit a patch")

    def _load(self, path: Path) -> Network:
        return load_network(path, self.engine)

    def _run(self, net: Network, patches: NDArray[np.uint8]) -> NDArray[np.float32]:
        outs = [net(_blob(patches[i : i + self.batch])) for i in range(0, len(patches), self.batch)]
        if not outs:
            return np.zeros((0, 1), np.float32)
        return np.concatenate(outs)

    def gate_logits(self, small: NDArray[np.uint8]) -> NDArray[np.float32]:
        """The gate's logit per half-size patch (above zero: may be an index)."""
        if self.gate is None:
            raise ModelError(f"model {self.path} has no gate beside it")
        return self._run(self.gate, small).reshape(-1)

    def classify(
        self, patches: NDArray[np.uint8], *, spare: bool = False
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Rank and suit probabilities per full-size patch (:meth:`_classify`). Where
        the picture is colourless (:attr:`colourless`), the networks, which learnt
        red from colour, read a grey diamond or heart as a black suit: the patches
        are read as they are and again with their ink printed red
        (:func:`_reddened`), each suit's probability the geometric mean of the two
        readings' (a suit must be the likely one for its shape read black and read
        red alike), and the rank from the surer. Made grey, the real single cards
        read 49 of 52 (2D, 3D and AD as spades), the deals 121 of 138 with one false
        reading; so read, 52 of 52, and 133 of 138 with none. The black suits' taken
        from the first reading and the red suits' from the second (2026-12-04 to
        -07) read the deals 132, and split a black spade half and half with a
        diamond (the networks read any red patch as a red suit, surely): in 40
        synthetic grey tables 12 cards read as the other colour's suit and 11 not
        at all, 26 false readings; now 2, 3 and 14 (docs/vision.md)."""
        if not self.colourless or len(patches) == 0:
            return self._classify(patches, spare=spare)
        rank_k, suit_k = self._classify(patches, spare=spare)
        rank_r, suit_r = self._classify(_reddened(patches), spare=spare)
        suit = np.sqrt((suit_k + 1e-4) * (suit_r + 1e-4))
        suit /= suit.sum(axis=1, keepdims=True)
        surer = (rank_k.max(axis=1) >= rank_r.max(axis=1))[:, None]
        return np.where(surer, rank_k, rank_r), suit.astype(np.float32)

    def _classify(
        self, patches: NDArray[np.uint8], *, spare: bool = False
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Rank and suit probabilities per full-size patch: the full network's, or its
        and the other networks' averaged. ``spare``: where there is one other
        network, it does not read a patch the model is sure (``SURELY_NONE``) shows
        no index, which then has the model's probabilities alone (what is done with
        them must ask only whether an index was read: a re-reading that averages
        them asks all). With two others or more every patch is read by all: two
        others each about 0.75 sure of one rank would outvote the model."""
        nr, ns = len(RANK_CLASSES), len(SUIT_CLASSES)
        if len(patches) == 0:
            return np.zeros((0, nr), np.float32), np.zeros((0, ns), np.float32)
        logits = self._run(self.net, patches)
        rank_p = _softmax(logits[:, :nr])
        suit_p = _softmax(logits[:, nr : nr + ns])
        if not self.others:
            return rank_p, suit_p
        # sparing, the other network reads only what the model is not sure shows no
        # index; not where there are more: two others of one mind could outvote it
        if spare and len(self.others) == 1:
            ask = np.nonzero(rank_p[:, 0] < SURELY_NONE)[0]
        else:
            ask = np.arange(len(patches))
        if ask.size == 0:
            return rank_p, suit_p
        asked = patches[ask]
        more_r, more_s = rank_p[ask], suit_p[ask]
        for _, net in self.others:  # every network's probabilities averaged
            logits = self._run(net, asked)
            more_r += _softmax(logits[:, :nr])
            more_s += _softmax(logits[:, nr : nr + ns])
        n = 1 + len(self.others)
        rank_p[ask] = more_r / n
        suit_p[ask] = more_s / n
        return rank_p, suit_p

    def read(
        self,
        image: NDArray[np.uint8] | Pyramid,
        props: Proposals,
        gate_pyramid: Pyramid | None = None,
        *,
        spare: bool = False,
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Rank and suit probabilities per proposal of ``image`` (a proposal the gate
        stops: certainly no index, suits even). The gate's half-size patches come
        from ``gate_pyramid`` where given (:meth:`~vision.proposals.Picture.pyramid`);
        ``spare`` as :meth:`classify`."""
        t0 = time.perf_counter()
        pyramid = image if isinstance(image, Pyramid) else Pyramid(image)
        nr, ns = len(RANK_CLASSES), len(SUIT_CLASSES)
        n = len(props)
        rank_p = np.zeros((n, nr), np.float32)
        suit_p = np.full((n, ns), 1.0 / ns, np.float32)
        rank_p[:, 0] = 1.0
        keep = np.arange(n)
        self.last_gate = None
        if self.gate is not None and n:
            small = extract_patches(
                gate_pyramid or pyramid, props, size=(GATE_H, GATE_W), even=False
            )
            self.last_gate = self.gate_logits(small)
            keep = np.nonzero(self.last_gate > 0)[0]
        t1 = time.perf_counter()
        self.passed = len(keep)
        if len(keep):
            rank_p[keep], suit_p[keep] = self.classify(
                extract_patches(pyramid, props.take(keep)), spare=spare
            )
        self.timings = {"gate": t1 - t0, "classify": time.perf_counter() - t1}
        return rank_p, suit_p
