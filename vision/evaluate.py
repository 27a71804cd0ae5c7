"""`kiebitz vision eval DIR`: recall and precision on labelled photographs.

``DIR/labels.csv`` has the columns ``file`` (relative to DIR) and ``cards``
(space-separated codes such as ``10S QH``; ``A?`` means the rank alone is
labelled; any notation :func:`rules.cards.parse_card` reads, such as ``TH`` or
``Q♠``, is taken in the recogniser's). Scoring is by set comparison, as
``../shared/data/cards/README.md`` says: a labelled card counts as found when the
recognised set contains it, a recognised card absent from the labels is a false
positive, and ``?`` labels are compared by rank alone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.cards import InvalidCardError, parse_card
from vision.errors import SourceError
from vision.files import read_capped
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


# at most this many faults are named in one error, then how many more there are
NAMED_FAULTS = 5


#: The most ``labels.csv`` may hold: a line a picture, some 60 bytes, for a million
MAX_LABELS_BYTES = 64 << 20


def read_labels(folder: Path) -> list[tuple[str, list[str]]]:
    """The rows of ``folder/labels.csv``: each file and its cards in the recogniser's
    notation (``10H``; ``10?`` for a rank alone). A file that cannot be read, is
    not UTF-8 (a byte-order mark, as spreadsheets write, is allowed) or not CSV,
    is empty, lacks a column or names one twice, or has a row without a file name,
    without its cards cell, with more cells than columns (cards parted by commas)
    or with a code that is no card, or a file labelled on two rows, is a
    :class:`SourceError` naming the line of each fault (a typo in a label would
    otherwise count as a card missed, or quietly against every reading; a file
    labelled twice, twice in the totals)."""
    path = folder / "labels.csv"
    try:  # bounded (/dev/zero was read until memory ran out), a named pipe not waited on
        data = read_capped(path, MAX_LABELS_BYTES + 1)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(data) > MAX_LABELS_BYTES:
        raise SourceError(f"{path}: more than {MAX_LABELS_BYTES:,} bytes: no labels, not read")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(f"{path} is not UTF-8 text (line {line}, byte {exc.start})") from exc
    # strict: a quote left open runs to the end of the file, and every row after it
    # would be one file's cards (read without a word before)
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, dict[str, Any]]] = []
    columns: Sequence[str] | None = None
    try:  # a header too long for csv is its error too (it was an UnboundLocalError)
        columns = reader.fieldnames
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        # the fault lies in the row after the last one read whole (a quote left open
        # is only found at the file's end)
        line = rows[-1][0] + 1 if rows else 1 if columns is None else 2
        raise SourceError(f"{path} is not readable CSV (line {line}): {exc}") from exc
    if not columns:
        raise SourceError(f"{path} is empty: it needs the columns file and cards")
    if not {"file", "cards"} <= set(columns):
        header = ",".join(columns)[:60]
        raise SourceError(
            f"{path}: needs the columns file and cards, parted by commas (its header: {header!r})"
        )
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise SourceError(f"{path}: the column {twice[0]!r} is named twice")
    labels, faults = [], []
    first: dict[str, int] = {}  # each file's line (a file labelled twice counts twice)
    for line, row in rows:
        file, cards = (row.get("file") or "").strip(), row.get("cards")
        if not file or cards is None or None in row:
            why = "no file name" if not file else "no cards cell" if cards is None else ""
            faults.append(f"line {line}: " + (why or "more cells than columns"))
            continue
        if "\x00" in file:  # no file system names a file so (open() raised ValueError)
            faults.append(f"line {line}: the file name has a NUL byte")
            continue
        if file in first:
            faults.append(f"line {line}: {file!r} is labelled again (first on line {first[file]})")
            continue
        first[file] = line
        codes = []
        for code in cards.split():
            try:
                codes.append(_label(code))
            except InvalidCardError:
                faults.append(
                    f"line {line}: {code!r} is not a card (as 10H, TH, Q♠; a rank alone: A?)"
                )
        labels.append((file, codes))
    if faults:
        more = len(faults) - NAMED_FAULTS
        named = "; ".join(faults[:NAMED_FAULTS]) + (f"; and {more} more" if more > 0 else "")
        raise SourceError(f"{path}: {named}")
    return labels


def _label(code: str) -> str:
    """One label in the recogniser's notation: a card, or a rank and ``?``."""
    if code.endswith("?"):
        return parse_card(code[:-1] + "S").rank_name + "?"
    return str(parse_card(code))


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
