"""``kiebitz vision …`` and ``kiebitz calibrate``: the camera side on the command line.

* ``vision identify IMAGE [--json]``: the cards in one picture (``-``: the picture
  piped in on standard input);
* ``vision annotate IMAGE OUT.png``: the same, drawn over the picture;
* ``vision eval DIR [--subset PREFIX]``: recall and precision against ``DIR/labels.csv``;
* ``vision watch SOURCE [--table FILE]``: live observations as JSON lines;
* ``vision train``: make synthetic scenes and train the model (needs the ``train`` extra);
* ``calibrate SOURCE --table FILE OUT.png``: find the markers, draw the zones.

An unreadable image, a missing or corrupt model file, a table layout with an
error, a source that cannot be opened: exit status 2 and one line naming it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli_io import STDIN, counting_number, name_commands, positive_number, share
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["register"]


def register(commands: Commands) -> None:
    vision = commands.add_parser(
        "vision",
        help="read cards from pictures and cameras",
        description="Card recognition: identify, annotate, evaluate, watch, train.",
    )
    sub = vision.add_commands("vision_command")
    model_help = "the ONNX model (default: the shipped vision/models/cards.onnx)"
    from vision.decks import DECKS  # standard library only: no cost to the CLI's start

    deck_help = (
        f"the pack on the table ({', '.join(DECKS)}): only its ranks are read "
        "(default: every rank; watch: the table layout's pack)"
    )

    image_help = "the picture (PNG, JPEG, WebP, TIFF, BMP, GIF); - reads it from standard input"
    p = sub.add_parser("identify", help="the cards in one picture")
    p.add_argument("image", help=image_help)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--model", help=model_help)
    p.add_argument("--deck", help=deck_help)
    p.set_defaults(handler=_identify)

    p = sub.add_parser("annotate", help="draw the cards found over the picture")
    p.add_argument("image", help=image_help)
    p.add_argument("out", help="the picture to write (PNG or JPEG)")
    p.add_argument("--model", help=model_help)
    p.add_argument("--deck", help=deck_help)
    p.set_defaults(handler=_annotate)

    p = sub.add_parser("eval", help="recall and precision against DIR/labels.csv")
    p.add_argument("dir")
    p.add_argument("--subset", help="only files whose path starts with this")
    p.add_argument("--json", action="store_true", help="one JSON line per image, then the total")
    p.add_argument("--model", help=model_help)
    p.add_argument("--deck", help=deck_help)
    p.set_defaults(handler=_eval)

    p = sub.add_parser("watch", help="live table observations as JSON lines")
    p.add_argument("source", help="picamera, 0, /dev/video0, rtsp://…, a video file or a folder")
    p.add_argument("--table", help="table layout TOML (calibrates from the first frame)")
    p.add_argument(
        "--fps", type=positive_number, default=10.0, help="frame rate of an image folder"
    )
    p.add_argument("--model", help=model_help)
    p.add_argument("--deck", help=deck_help)
    p.set_defaults(handler=_watch)

    p = sub.add_parser("train", help="train the model on synthetic scenes (CPU, PyTorch)")
    p.add_argument("--scenes", type=counting_number, default=4000)
    p.add_argument("--epochs", type=counting_number, default=16)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--photo-faces", help="folder of flattened single-card photos to use as faces")
    p.add_argument(
        "--hard",
        type=share,
        default=0.15,
        help="chance of each hard condition (shadow, glare, pale table, cast, blur) per scene",
    )
    p.add_argument(
        "--refuse-covered",
        action="store_true",
        help="teach indices with much of the rank or suit covered as no index",
    )
    p.add_argument(
        "--fonts",
        default="training",
        choices=["dejavu", "training", "wide", "varied"],
        help="the fonts rendered faces draw their indices from (default training: DejaVu, "
        "Liberation and FreeFont; wide: those and 24 faces of other designs, what the "
        "shipped second network, cards.2.onnx, learnt from; varied: the training set with "
        "half the glyphs made bolder or "
        "thinner, leaning, wider or narrower, tried and not shipped; the URW faces are kept "
        "for the bench's unseen-fonts set)",
    )
    p.add_argument("--out", help="where to write the model (default: the shipped model)")
    p.set_defaults(handler=_train)
    name_commands(sub)

    cal = commands.add_parser(
        "calibrate",
        help="find the table markers and draw the zones over a frame",
        description="Calibrate the camera from the table's ArUco markers.",
    )
    cal.add_argument("source")
    cal.add_argument("--table", required=True, help="table layout TOML")
    cal.add_argument("out", help="the picture to write (PNG or JPEG)")
    cal.set_defaults(handler=_calibrate)


def _vision_errors() -> tuple[type[Exception], ...]:
    from vision.errors import VisionError

    return (VisionError,)


def _deck(args: argparse.Namespace) -> Any:
    from vision.decks import find_deck

    if not getattr(args, "deck", None):
        return None
    try:
        return find_deck(args.deck)
    except ValueError as exc:
        raise UsageError(f"--deck: {exc}") from exc


def _recognizer(args: argparse.Namespace, **kwargs: Any) -> Any:
    from vision.model import DEFAULT_MODEL
    from vision.recognize import Recognizer

    deck = _deck(args)
    try:
        return Recognizer(args.model or DEFAULT_MODEL, deck=deck, **kwargs)
    except _vision_errors() as exc:
        raise UsageError(str(exc)) from exc


def _read_image(path: str) -> Any:
    """The picture at ``path``, or piped in on standard input where it is ``-``."""
    from vision.images import ImageError, decode_image, read_image, too_large

    try:
        if path == STDIN:
            data = _stdin_bytes()
            too_large(data, "from standard input")
            return decode_image(data, "from standard input")
        return read_image(path)
    except ImageError as exc:
        raise UsageError(str(exc)) from exc


def _stdin_bytes() -> bytes:
    """Standard input's bytes; a terminal there is a :class:`UsageError` (it would wait
    for a picture typed in)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise UsageError("cannot read image from standard input: there is none")
    if stream.isatty():
        raise UsageError(
            "cannot read image from standard input: it is a terminal "
            "(pipe a picture in: - < photo.jpg)"
        )
    from vision.images import MAX_FILE_BYTES

    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text stream standing in for stdin (tests)
        return stream.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogateescape")
    return bytes(binary.read(MAX_FILE_BYTES + 1))  # /dev/zero piped in: bounded


def _identify(args: argparse.Namespace) -> int:
    image = _read_image(args.image)
    recognizer = _recognizer(args)
    readings = recognizer.read_any_scale(image)
    if args.json:
        cards = [r.to_json() for r in readings]
        # how the picture was read: brightened, at which scale, sharpened, a smear undone
        moved = recognizer.last_unsmeared
        how = {
            "brightened": round(recognizer.last_gain, 2),
            "scale": recognizer.last_scale,
            "sharpened": recognizer.last_sharpened,
            "unsmeared": None if moved is None else {"angle": round(moved[0], 1), "px": moved[1]},
        }
        print(json.dumps({"image": args.image, **how, "cards": cards}))
    else:
        for r in readings:
            flags = f"  [{', '.join(r.flags)}]" if r.flags else ""
            print(f"{r.card:4} {r.confidence:.3f}{flags}")
        if not readings:  # said aside: stdout stays one line a card for scripts
            print(f"no card found in {args.image}", file=sys.stderr)
    return 0


#: What ``vision annotate`` writes: OpenCV's writers for PNG and JPEG.
_PICTURE_TYPES = (".png", ".jpg", ".jpeg")


def _picture_target(out: str) -> None:
    """A picture to write (``annotate``, ``calibrate``): a PNG or JPEG name in a folder
    that exists, else a :class:`UsageError` before any work is done."""
    target = Path(out)
    if target.suffix.lower() not in _PICTURE_TYPES:
        raise UsageError(
            f"cannot write {out}: the picture is PNG or JPEG "
            f"(end the name in {', '.join(_PICTURE_TYPES)})"
        )
    if not target.parent.is_dir():
        raise UsageError(f"cannot write {out}: no folder {str(target.parent)!r}")
    if target.is_dir():
        raise UsageError(f"cannot write {out}: it is a folder")


def _annotate(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    _picture_target(args.out)
    image = _read_image(args.image)
    readings = _recognizer(args).read_any_scale(image)
    out = image.copy()
    for r in readings:
        colour = (0, 200, 0) if not r.flags else (0, 165, 255)
        pts = np.array(r.corners, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        for det in r.indices:
            cv2.circle(out, (int(det.x), int(det.y)), max(3, int(det.d * 0.8)), colour, 2)
            cv2.putText(
                out,
                f"{r.card} {r.confidence:.2f}",
                (int(det.x + det.d), int(det.y)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.5,
                colour,
                2,
                cv2.LINE_AA,
            )
    try:
        written = cv2.imwrite(args.out, out)
    except cv2.error as exc:  # OpenCV raises for some failures and returns False for others
        raise UsageError(f"cannot write {args.out}: {str(exc).strip().splitlines()[-1]}") from exc
    if not written:
        raise UsageError(f"cannot write {args.out}")
    print(f"{len(readings)} cards -> {args.out}")
    return 0


def _utf8_labels(path: Path) -> None:
    """A labels file of UTF-16 text (a spreadsheet's "Unicode text") is one line saying
    so, not a header without the columns (its NUL bytes) or bytes that are not UTF-8;
    any other fault of it is :func:`vision.evaluate.read_labels`'s to name."""
    from controller.cli_io import not_utf8
    from vision.files import read_capped

    try:  # a named pipe nobody writes to waited here for ever
        head = read_capped(path, 512)
    except OSError:
        return
    why = not_utf8(head)
    if why is not None:
        raise UsageError(f"{path}: {why}")


def _eval(args: argparse.Namespace) -> int:
    from vision.evaluate import evaluate_dir

    folder = Path(args.dir)
    recognizer = _recognizer(args)
    _utf8_labels(folder / "labels.csv")
    totals = {"labelled": 0, "found": 0, "recognised": 0, "false_positives": 0, "images": 0}
    unread: list[str] = []

    def unreadable(message: str) -> None:
        unread.append(message)
        print(f"error: {message}", file=sys.stderr)

    try:
        for score in evaluate_dir(folder, recognizer, subset=args.subset, on_error=unreadable):
            for key in ("labelled", "found", "recognised", "false_positives"):
                totals[key] += getattr(score, key)
            totals["images"] += 1
            if args.json:
                print(
                    json.dumps(
                        {
                            "file": score.file,
                            "recall": round(score.recall, 4),
                            "precision": round(score.precision, 4),
                            "missed": list(score.missed),
                            "extra": list(score.extra),
                        }
                    )
                )
            else:
                print(
                    f"{score.file}: recall {score.found}/{score.labelled} = {score.recall:.3f}, "
                    f"precision {score.precision:.3f}"
                    + (f"; missed {' '.join(score.missed)}" if score.missed else "")
                    + (f"; extra {' '.join(score.extra)}" if score.extra else "")
                )
    except _vision_errors() as exc:
        raise UsageError(str(exc)) from exc
    if totals["images"] == 0 and not unread:
        under = f" under {args.subset!r}" if args.subset else ""
        raise UsageError(f"{folder / 'labels.csv'}: no labelled image{under} to read")
    # nothing labelled, nothing read: 1.0, as each image's line says (the totals said
    # 0.0 where every line said 1.000: a sweep's find)
    recall = totals["found"] / totals["labelled"] if totals["labelled"] else 1.0
    good = totals["recognised"] - totals["false_positives"]
    precision = good / totals["recognised"] if totals["recognised"] else 1.0
    summary = {
        "images": totals["images"],
        "recall": round(recall, 4),
        "precision": round(precision, 4),
        **totals,
    }
    if args.json:
        print(json.dumps({"total": summary}))
    else:
        print(
            f"total: {totals['images']} images, recall {totals['found']}/{totals['labelled']} = "
            f"{recall:.4f}, precision {good}/{totals['recognised']} = {precision:.4f}"
        )
    if unread:  # the totals leave those images out: not the whole answer
        print(
            f"kiebitz: error: {len(unread)} labelled image(s) could not be read; "
            "the totals leave them out",
            file=sys.stderr,
        )
        return 2
    return 0


def _watch(args: argparse.Namespace) -> int:
    from controller.stopping import obey_ctrl_c
    from vision.watch import watch

    try:
        return watch(
            args.source,
            table=args.table,
            fps=args.fps,
            model=args.model,
            deck=_deck(args),
            out=sys.stdout,
            between_frames=obey_ctrl_c,
        )
    except _vision_errors() as exc:
        raise UsageError(str(exc)) from exc


def _train(args: argparse.Namespace) -> int:
    from vision.train import TrainConfig, train

    if args.photo_faces is not None:
        # a file, a device or a folder without pictures trained on no photo at all,
        # said nothing, and the model shipped was not the one asked for
        faces = Path(args.photo_faces)
        if not faces.is_dir():
            why = "no such folder" if not faces.exists() else "not a folder"
            raise UsageError(f"--photo-faces {args.photo_faces}: {why}")
        if not any(faces.glob("*.jpg")):
            raise UsageError(
                f"--photo-faces {args.photo_faces}: no pictures in it (<rank><suit>.jpg)"
            )
    config = TrainConfig(
        scenes=args.scenes,
        epochs=args.epochs,
        seed=args.seed,
        workers=args.workers,
        photo_faces=args.photo_faces,
        hard=args.hard,
        refuse_covered=args.refuse_covered,
        fonts=args.fonts,
    )
    if args.out:
        config.out = args.out
    train(config)
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import cv2

    from vision.geometry import calibrate, draw_layout
    from vision.layout import load_layout
    from vision.sources import open_source

    if args.out is not None:
        _picture_target(args.out)
    try:
        layout = load_layout(args.table)
        source = open_source(args.source)
        source.open()
        try:
            frame = source.read()
        finally:
            source.close()
        if frame is None:
            raise UsageError(f"{args.source}: no frame to calibrate from")
        cal = calibrate(frame.image, layout)
    except _vision_errors() as exc:
        raise UsageError(str(exc)) from exc
    if not cv2.imwrite(args.out, draw_layout(frame.image, layout, cal)):
        raise UsageError(f"cannot write {args.out}")
    warnings = cal.trouble()
    print(
        json.dumps(
            {
                "table": layout.name,
                "markers": sorted(cal.markers),
                "error_mm": round(cal.error_mm, 2),
                "marker_errors_mm": {str(k): round(v, 2) for k, v in cal.marker_errors_mm.items()},
                "left_out": list(cal.left_out),
                "warnings": warnings,
                "out": args.out,
            }
        )
    )
    for warning in warnings:
        print(f"kiebitz: warning: {warning}", file=sys.stderr)
    return 0
