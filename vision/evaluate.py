"""`kiebitz vision eval DIR`: recall and precision on labelled photographs.

``DIR/labels.csv`` has the columns ``file`` (relative to DIR) and ``cards``
(space-separated codes such as ``10S QH``; ``A?`` means the rank alone is
labelled). Scoring is by set comparison, as ``../shared/data/cards/README.md``
says: a labelled card counts as found when the recognised set contains it, a
recognised card absent from the labels is a false positive, and ``?`` labels
are compared by rank alone.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.errors import SourceError
from vision.images import ImageError, read_image
from vision.recognize import CardReading, Recognizer

__all__ = ["ImageScore", "evaluate_dir", "read_labels", "score_image"]


@dataclass(frozen=True)
class ImageScore:
    file: str
    labelled: int
    found: int
    recognised: int
    false_positives: int
    missed: tuple[str, ...]
    extra: tuple[str, ...]

    @property
    def recall(self) -> float:
        return self.found / self.labelled if self.labelled else 1.0

    @property
    def precision(self) -> float:
        return (
            (self.recognised - self.false_positives) / self.recognised if self.recognised else 1.0
        )


def read_labels(folder: Path) -> list[tuple[str, list[str]]]:
    path = folder / "labels.csv"
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if rows and not {"file", "cards"} <= set(rows[0]):
        raise SourceError(f"{path}: needs the columns file and cards")
    return [(row["file"], row["cards"].split()) for row in rows]


def score_image(file: str, labels: list[str], readings: list[CardReading]) -> ImageScore:
    full = {c for c in labels if not c.endswith("?")}
    rank_only = [c[:-1] for c in labels if c.endswith("?")]
    got_cards = {r.card for r in readings}
    got_ranks = {r.rank for r in readings}
    found_full = full & got_cards
    found_ranks = [r for r in set(rank_only) if r in got_ranks]
    missed = sorted(full - got_cards) + sorted(f"{r}?" for r in set(rank_only) - got_ranks)
    if rank_only and not full:
        extra = sorted(got_ranks - set(rank_only))
        recognised = len(got_ranks)
        labelled = len(set(rank_only))
        found = len(found_ranks)
    else:
        extra = sorted(got_cards - full - {c for c in got_cards if c[:-1] in rank_only})
        recognised = len(got_cards)
        labelled = len(full) + len(set(rank_only))
        found = len(found_full) + len(found_ranks)
    return ImageScore(file, labelled, found, recognised, len(extra), tuple(missed), tuple(extra))


def evaluate_dir(
    folder: Path,
    recognizer: Recognizer,
    *,
    subset: str | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Iterator[ImageScore]:
    """Score every labelled image (under ``subset``, a path prefix, if given)."""
    for file, labels in read_labels(folder):
        if subset and not file.startswith(subset):
            continue
        try:
            image = read_image(folder / file)
        except ImageError as exc:
            if on_error:
                on_error(str(exc))
            continue
        yield score_image(file, labels, recognizer.read_any_scale(image))
