"""`kiebitz vision train`: make synthetic scenes, train the index classifier, export ONNX.

Training needs PyTorch (the ``train`` extra: ``pip install -e '.[train]'``, the
CPU build); running the model does not: the exported ONNX file is run by
OpenCV's DNN module. Everything is seeded: the same command gives the same
patches and, on the same machine, the same model.

The network is small on purpose (three strided convolutions of 16, 32 and 64
channels, about 0.74 million multiply-adds a patch), and sees only what the gate
lets through. Strided convolutions rather than convolution and max pooling:
OpenCV's pooling costs more than a convolution at these sizes, and the strided
network runs in about 55 % of the time for the same accuracy on the bench
(``strided=False`` gives the pooled design of earlier models).
A gate in front of it (two strided convolutions of 12 and 24 channels on the
patch at half size, about 56,000 multiply-adds, one logit) is trained on the same
patches to tell "may be an index" from the rest, with its threshold set on the
validation scenes so that it passes ``gate_recall`` of their indices; it is
exported beside the model as ``cards.gate.onnx`` (see :mod:`vision.model`).
"""

from __future__ import annotations

import json
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.dataset import Patches, build_patches
from vision.faces import DECK_STYLES, TRAINING_ONLY, whole_font_set
from vision.model import (
    DEFAULT_MODEL,
    GATE_H,
    GATE_W,
    RANK_CLASSES,
    SUIT_CLASSES,
    gate_path,
)
from vision.proposals import PATCH_H, PATCH_W

__all__ = ["TrainConfig", "build_data", "train", "train_gate"]


@dataclass
class TrainConfig:
    scenes: int = 4000
    val_scenes: int = 150
    epochs: int = 16
    batch: int = 256
    lr: float = 3e-3
    seed: int = 2026
    workers: int = 2
    photo_faces: str | None = None
    hard: float = 0.15  # chance of each hard condition of real tables per scene (synth.HARD)
    # teach indices with two fifths of a glyph covered as "no index" (dataset.COVERED);
    # tried on 2026-12-01: fewer false readings, lower precision on the pinochle photos
    refuse_covered: bool = False
    # the font set rendered faces draw their glyphs from (vision.faces.FONT_SETS)
    fonts: str = "training"
    out: str = str(DEFAULT_MODEL)
    # 24-48-96 since 2026-12-02: the 16-32-64 network had no room for many index fonts
    channels: tuple[int, int, int] = (24, 48, 96)
    hidden: int = 128
    strided: bool = True  # strided convolutions (False: convolution + 2 x 2 max pooling)
    gate_epochs: int = 8  # 0: no gate
    gate_channels: tuple[int, int] = (12, 24)
    gate_recall: float = 0.999


def _network(channels: tuple[int, int, int], hidden: int, strided: bool = False) -> Any:
    import torch
    from torch import nn

    class IndexNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()

            def block(cin: int, cout: int) -> nn.Sequential:
                if strided:
                    return nn.Sequential(
                        nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
                        nn.BatchNorm2d(cout),
                        nn.ReLU(inplace=True),
                    )
                return nn.Sequential(
                    nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                    nn.BatchNorm2d(cout),
                    nn.ReLU(inplace=True),
                    nn.MaxPool2d(2),
                )

            c1, c2, c3 = channels
            self.features = nn.Sequential(block(3, c1), block(c1, c2), block(c2, c3))
            # 36 x 24 halves three times: 4 x 3 after pooling, 5 x 3 after strided
            # convolutions (which round up)
            h, w = PATCH_H, PATCH_W
            for _ in range(3):
                h, w = ((h + 1) // 2, (w + 1) // 2) if strided else (h // 2, w // 2)
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Linear(c3 * h * w, hidden),
                nn.ReLU(inplace=True),
                nn.Dropout(0.2),
                nn.Linear(hidden, len(RANK_CLASSES) + len(SUIT_CLASSES)),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.features(x))

    return IndexNet()


def _gate_network(channels: tuple[int, int] = (8, 16)) -> Any:
    """Two strided convolutions on the half-size patch (18 x 12 -> 9 x 6 -> 5 x 3), one
    logit. Strided convolutions, not pooling: OpenCV's max pooling costs more than
    the convolutions themselves at these sizes."""
    from torch import nn

    c1, c2 = channels
    h, w = (GATE_H + 3) // 4, (GATE_W + 3) // 4
    return nn.Sequential(
        nn.Conv2d(3, c1, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(c1),
        nn.ReLU(inplace=True),
        nn.Conv2d(c1, c2, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(c2),
        nn.ReLU(inplace=True),
        nn.Flatten(),
        nn.Linear(c2 * h * w, 1),
    )


def _tensor(images: np.ndarray) -> Any:
    import torch

    x = torch.from_numpy(images).permute(0, 3, 1, 2).float()
    return x / 255.0 - 0.5


def _augment(x: Any, gen: Any) -> Any:
    """Per-batch photometric jitter: brightness, contrast, colour balance."""
    import torch

    n = x.shape[0]
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    tint = 1 + 0.12 * (torch.rand(n, 3, 1, 1, generator=gen) - 0.5)
    shift = 0.15 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    return (x * gain * tint + shift).clamp(-0.5, 0.5)


def _export(
    model: Any, out_path: Path, output: str = "logits", size: tuple[int, int] = (PATCH_H, PATCH_W)
) -> None:
    """The weights (``.pt``) and the ONNX file OpenCV reads."""
    import torch

    torch.save(model.state_dict(), out_path.with_name(out_path.stem + ".pt"))
    model.eval()
    dummy = torch.zeros(1, 3, *size)
    with warnings.catch_warnings():  # the legacy exporter is the one OpenCV's DNN reads well
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            dummy,
            str(out_path),
            input_names=["patch"],
            output_names=[output],
            dynamic_axes={"patch": {0: "n"}, output: {0: "n"}},
            opset_version=13,
            dynamo=False,
        )


def evaluate(model: Any, data: Patches) -> dict[str, float]:
    logits = _logits(model, data.images)
    nr = len(RANK_CLASSES)
    rank_pred = logits[:, :nr].argmax(1).numpy()
    suit_pred = logits[:, nr:].argmax(1).numpy()
    pos = data.rank > 0
    card_ok = (rank_pred == data.rank) & (suit_pred == data.suit)
    return {
        "patches": float(len(data)),
        "index_recall": float(card_ok[pos].mean()) if pos.any() else 0.0,
        "background_rejected": float((rank_pred[~pos] == 0).mean()) if (~pos).any() else 0.0,
        "false_index_rate": float((rank_pred[~pos] > 0).mean()) if (~pos).any() else 0.0,
    }


def _batches(n: int, batch: int, gen: Any, desc: str) -> Any:
    """Indices of one shuffled epoch, a batch at a time, with a progress bar."""
    import torch
    from tqdm import tqdm

    order = torch.randperm(n, generator=gen)
    for i in tqdm(range(0, n, batch), desc=desc, unit="batch", leave=False):
        yield order[i : i + batch]


def _logits(model: Any, images: np.ndarray) -> Any:
    import torch

    model.eval()
    with torch.no_grad():
        return torch.cat(
            [model(_tensor(images[i : i + 1024])) for i in range(0, len(images), 1024)]
        )


def train_gate(
    config: TrainConfig, data: Patches, val: Patches, log: Any = print
) -> dict[str, float]:
    """Train the gate, fold its threshold into its last bias, export it beside the model."""
    import torch
    from torch import nn

    gate = _gate_network(config.gate_channels)
    opt = torch.optim.AdamW(gate.parameters(), lr=config.lr, weight_decay=1e-4)
    steps = config.gate_epochs * ((len(data) + config.batch - 1) // config.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=config.lr, total_steps=steps)
    # missing an index costs a card; passing a pip costs a millisecond: weigh indices up
    bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(4.0))
    gen = torch.Generator().manual_seed(config.seed + 1)
    x_all = _tensor(data.small)
    y_all = torch.from_numpy((data.rank > 0).astype(np.float32))
    for epoch in range(config.gate_epochs):
        gate.train()
        for idx in _batches(len(data), config.batch, gen, f"gate {epoch + 1}/{config.gate_epochs}"):
            out = gate(_augment(x_all[idx], gen))[:, 0]
            loss = bce(out, y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    logit = _logits(gate, val.small)[:, 0].numpy()
    pos = val.rank > 0
    # the threshold that passes gate_recall of the validation indices, folded into the bias
    # (a hair below an actual index's logit, so that this index itself passes)
    threshold = (
        float(np.quantile(logit[pos], 1 - config.gate_recall, method="lower")) - 1e-3
        if pos.any()
        else 0.0
    )
    with torch.no_grad():
        gate[-1].bias -= threshold
    metrics = {
        "gate_index_passed": float((logit[pos] > threshold).mean()) if pos.any() else 0.0,
        "gate_background_passed": float((logit[~pos] > threshold).mean()) if (~pos).any() else 0.0,
    }
    _export(gate, gate_path(Path(config.out)), "gate", (GATE_H, GATE_W))
    log(
        f"gate: passes {metrics['gate_index_passed']:.4f} of validation indices and "
        f"{metrics['gate_background_passed']:.4f} of the rest"
    )
    return metrics


def build_data(config: TrainConfig) -> tuple[Patches, Patches]:
    """The training and validation patches of ``config`` (the slow part of training)."""
    from tqdm import tqdm

    if config.fonts in TRAINING_ONLY:  # a set trained on whole or not at all
        try:
            whole_font_set(config.fonts)
        except FileNotFoundError as exc:
            raise SystemExit(str(exc)) from exc
    photo = Path(config.photo_faces) if config.photo_faces else None
    with tqdm(total=config.scenes + config.val_scenes, desc="scenes", unit="scene") as bar:
        data = build_patches(
            config.scenes,
            config.seed,
            photo_dir=photo,
            workers=config.workers,
            progress=bar.update,
            hard=config.hard,
            refuse_covered=config.refuse_covered,
            fonts=config.fonts,
        )
        # validation scenes use seeds the training scenes never meet
        val = build_patches(
            config.val_scenes,
            config.seed + 10_000_000,
            photo_dir=photo,
            workers=config.workers,
            progress=bar.update,
            hard=config.hard,
            refuse_covered=config.refuse_covered,
            fonts=config.fonts,
        )
    return data, val


def train(
    config: TrainConfig, log: Any = print, data: tuple[Patches, Patches] | None = None
) -> dict[str, Any]:
    """Build the data (unless given), train, export; returns the metrics written to the
    model card."""
    try:
        import torch
        from torch import nn
    except ImportError as exc:
        raise SystemExit(
            "training needs PyTorch: .venv/bin/pip install -e '.[train]' (CPU build)"
        ) from exc

    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, config.workers))
    started = time.time()
    data, val = data if data is not None else build_data(config)
    indices = int((data.rank > 0).sum())
    log(f"patches: {len(data)} training ({indices} indices), {len(val)} validation")
    model = _network(config.channels, config.hidden, config.strided)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=1e-4)
    steps = config.epochs * ((len(data) + config.batch - 1) // config.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=config.lr, total_steps=steps)
    ce = nn.CrossEntropyLoss()
    ce_suit = nn.CrossEntropyLoss(reduction="none")
    gen = torch.Generator().manual_seed(config.seed)
    x_all = _tensor(data.images)
    r_all = torch.from_numpy(data.rank)
    s_all = torch.from_numpy(data.suit)
    nr = len(RANK_CLASSES)
    history = []
    out_path = Path(config.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    for epoch in range(config.epochs):
        model.train()
        total = 0.0
        for idx in _batches(len(data), config.batch, gen, f"epoch {epoch + 1}/{config.epochs}"):
            x = _augment(x_all[idx], gen)
            r, s = r_all[idx], s_all[idx]
            out = model(x)
            loss = ce(out[:, :nr], r)
            is_card = (r > 0).float()
            loss = loss + (ce_suit(out[:, nr:], s) * is_card).sum() / is_card.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        metrics = evaluate(model, val)
        history.append({"epoch": epoch + 1, "loss": total / len(data), **metrics})
        log(
            f"epoch {epoch + 1}: loss {total / len(data):.4f}, validation index recall "
            f"{metrics['index_recall']:.4f}, false index rate {metrics['false_index_rate']:.4f}"
        )
        # after every epoch: a long run that is stopped still leaves a usable model
        _export(model, out_path)
    gate = train_gate(config, data, val, log) if config.gate_epochs > 0 else {}
    if not gate:
        gate_path(out_path).unlink(missing_ok=True)  # a stale gate would judge for another model
    card = {
        "config": asdict(config),
        "gate": gate,
        "history": history,
        "validation": history[-1] if history else {},
        "patches": {"train": len(data), "validation": len(val)},
        "seconds": round(time.time() - started, 1),
        "torch": torch.__version__,
        "deck_styles": [list(d) for d in DECK_STYLES],  # the training scenes' decks
    }
    out_path.with_suffix(".json").write_text(json.dumps(card, indent=2) + "\n")
    log(f"wrote {out_path} ({out_path.stat().st_size / 1e6:.2f} MB) in {card['seconds']} s")
    beside = [
        p for p in out_path.parent.glob(f"{out_path.stem}.*.onnx") if p != gate_path(out_path)
    ]
    if beside:  # not read with it: its fresh card lists none (vision.model.more_paths)
        names = ", ".join(sorted(p.name for p in beside))
        log(
            f"{names} beside it are not read with it; to average them with it, list them "
            "under 'networks' in its card (docs/model.md, 'More networks')"
        )
    return card
