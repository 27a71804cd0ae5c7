"""Training patches from synthetic scenes: the recogniser's own proposals, labelled.

For each scene the proposal stage runs exactly as at the table; a proposal that
lands on a visible corner index (close to its centre, turned the same way, at
about its scale) is labelled with that card, one that lands nowhere is labelled
"no index", and one that lands on a covered index is left out (with
``refuse_covered``, one on an index with much of its rank or suit covered is
labelled "no index": a half-covered 8 must not read as a 3). Jittered patches
cut at the true indices are added so that every card is seen often, whatever
the proposals found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.faces import photo_faces
from vision.model import GATE_H, GATE_W
from vision.proposals import Picture, Proposals, all_proposals, extract_patches
from vision.synth import RANKS, SUITS, IndexTruth, make_scene

__all__ = ["Patches", "build_patches", "label_proposals"]

BACKGROUND = 0  # rank label 0: no index here; ranks are 1..13 in RANKS order


@dataclass
class Patches:
    images: NDArray[np.uint8]  # N x PATCH_H x PATCH_W x 3, for the network
    small: NDArray[np.uint8]  # N x GATE_H x GATE_W x 3: the same proposals cut for the gate
    rank: NDArray[np.int64]  # 0 background, 1..13
    suit: NDArray[np.int64]  # 0..3 (meaningless for background)

    def __len__(self) -> int:
        return len(self.rank)


# An index none of whose proposals is taught as a card: shows this share or less of
# its rank's or its suit's region (two of five columns covered by another card, a
# hand, a pencil)
COVERED = 0.6


def code_labels(code: str) -> tuple[int, int]:
    return RANKS.index(code[:-1]) + 1, SUITS.index(code[-1])


def label_proposals(
    props: Proposals, truths: tuple[IndexTruth, ...], refuse_covered: bool = False
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    """Rank and suit label per proposal, and which proposals to leave out."""
    n = len(props)
    rank = np.zeros(n, np.int64)
    suit = np.zeros(n, np.int64)
    skip = np.zeros(n, bool)
    for t in truths:
        dist = np.hypot(props.x - t.x, props.y - t.y)
        cos = props.ux * t.ux + props.uy * t.uy
        ratio = props.d / t.d
        near = dist < 0.45 * t.d
        match = near & (cos > 0.8) & (ratio > 0.6) & (ratio < 1.6)
        if t.visible:
            r, s = code_labels(t.code)
            rank[match], suit[match] = r, s
            skip |= near & ~match & (dist < 0.25 * t.d)  # nearly right: neither yes nor no
        elif not refuse_covered or t.seen > COVERED:
            skip |= near  # neither yes nor no
        # else: a glyph two fifths or more covered is taught as no index (refused)
    skip &= rank == BACKGROUND
    return rank, suit, skip


def _truth_proposals(
    truths: tuple[IndexTruth, ...], rng: np.random.Generator, copies: int
) -> tuple[Proposals, NDArray[np.int64], NDArray[np.int64]]:
    rows = []
    for t in truths:
        if not t.visible:
            continue
        for _ in range(copies):
            a = rng.normal(0, 0.12)
            c, s = np.cos(a), np.sin(a)
            ux, uy = c * t.ux - s * t.uy, s * t.ux + c * t.uy
            d = t.d * rng.uniform(0.8, 1.25)
            rows.append(
                (
                    t.x + rng.normal(0, 0.12) * t.d,
                    t.y + rng.normal(0, 0.12) * t.d,
                    ux,
                    uy,
                    d,
                    *code_labels(t.code),
                )
            )
    if not rows:
        z = np.zeros(0, np.float32)
        zi = np.zeros(0, np.int32)
        return Proposals(z, z, z, z, z, zi, zi), np.zeros(0, np.int64), np.zeros(0, np.int64)
    arr = np.array(rows, dtype=np.float64)
    f = arr[:, :5].astype(np.float32)
    zi = np.zeros(len(arr), np.int32)
    props = Proposals(f[:, 0], f[:, 1], f[:, 2], f[:, 3], f[:, 4], zi, zi)
    return props, arr[:, 5].astype(np.int64), arr[:, 6].astype(np.int64)


def scene_patches(
    seed: int,
    photo_dir: Path | None,
    negatives_per_positive: float = 4.0,
    hard: float = 0.0,
    refuse_covered: bool = False,
    fonts: str = "dejavu",
) -> Patches:
    """All labelled patches of one scene made from ``seed`` (``hard``: the chance of
    each hard condition, :data:`vision.synth.HARD`; ``refuse_covered``: see
    :func:`label_proposals`; ``fonts``: the faces' font set)."""
    rng = np.random.default_rng(seed)
    faces = _faces(photo_dir)
    scene = make_scene(rng, photo_faces=faces, hard=hard, deck="mixed", fonts=fonts)
    pic = Picture(scene.image)
    props = all_proposals(pic)
    rank, suit, skip = label_proposals(props, scene.indices, refuse_covered)
    keep = ~skip
    pos = np.nonzero(keep & (rank > 0))[0]
    neg = np.nonzero(keep & (rank == 0))[0]
    n_neg = min(len(neg), max(12, int(negatives_per_positive * max(len(pos), 4))))
    neg = rng.choice(neg, size=n_neg, replace=False) if len(neg) else neg
    chosen = np.concatenate([pos, neg]).astype(np.int64)
    sub = props.take(chosen)
    pyramid = pic.pyramid()  # patches lifted as the reader lifts them
    gate_pyramid = pic.pyramid(gate=True)  # and the gate's cut as the reader cuts them
    parts = [(sub, rank[chosen], suit[chosen])]
    tprops, tr, ts = _truth_proposals(scene.indices, rng, copies=2)
    if len(tprops):
        parts.append((tprops, tr, ts))
    return Patches(
        np.concatenate([extract_patches(pyramid, p) for p, _, _ in parts]),
        np.concatenate(
            [
                extract_patches(gate_pyramid, p, size=(GATE_H, GATE_W), even=False)
                for p, _, _ in parts
            ]
        ),
        np.concatenate([r for _, r, _ in parts]),
        np.concatenate([s for _, _, s in parts]),
    )


_FACE_CACHE: dict[str, list] = {}


def _faces(photo_dir: Path | None) -> list | None:
    if photo_dir is None:
        return None
    key = str(photo_dir)
    if key not in _FACE_CACHE:
        _FACE_CACHE[key] = photo_faces(photo_dir)
    return _FACE_CACHE[key]


def _work(args: tuple[int, str | None, float, bool, str]) -> Patches:
    seed, photo_dir, hard, refuse, fonts = args
    photo = Path(photo_dir) if photo_dir else None
    return scene_patches(seed, photo, hard=hard, refuse_covered=refuse, fonts=fonts)


def build_patches(
    scenes: int,
    seed: int,
    *,
    photo_dir: Path | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    hard: float = 0.0,
    refuse_covered: bool = False,
    fonts: str = "dejavu",
) -> Patches:
    """Patches from ``scenes`` scenes, seeds ``seed``, ``seed + 1``, ...; in parallel."""
    photo = str(photo_dir) if photo_dir else None
    jobs = [(seed + i, photo, hard, refuse_covered, fonts) for i in range(scenes)]
    parts: list[Patches] = []
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(_work, jobs, chunksize=4):
                parts.append(part)
                if progress:
                    progress(1)
    else:
        for job in jobs:
            parts.append(_work(job))
            if progress:
                progress(1)
    return Patches(
        np.concatenate([p.images for p in parts]),
        np.concatenate([p.small for p in parts]),
        np.concatenate([p.rank for p in parts]),
        np.concatenate([p.suit for p in parts]),
    )
