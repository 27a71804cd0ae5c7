"""Probes for the live check: a kept video of ``bench/live.py --keep DIR`` passed on as
a real camera and its recorder would pass it on, to be watched again.

    .venv/bin/python bench/probe_video.py wander KEEP/VIDEO.mp4 OUTDIR
    .venv/bin/python bench/probe_video.py noise KEEP/VIDEO.mp4 OUTDIR [--sigma 6]
    .venv/bin/python bench/probe_video.py shake KEEP/VIDEO.mp4 OUTDIR
    .venv/bin/python bench/probe_video.py knock KEEP/VIDEO.mp4 OUTDIR
    .venv/bin/python bench/probe_video.py tilt KEEP/VIDEO.mp4 OUTDIR [--degrees 15]
    .venv/bin/python bench/probe_video.py cast KEEP/VIDEO.mp4 OUTDIR [--gains 1.35 1 0.75]
    .venv/bin/python bench/probe_video.py edge KEEP/VIDEO.mp4 OUTDIR [--light 0.45 --blur 3]
    .venv/bin/python bench/probe_video.py glare KEEP/VIDEO.mp4 OUTDIR
    .venv/bin/python bench/probe_video.py grey KEEP/VIDEO.mp4 OUTDIR
    .venv/bin/python bench/live.py <the same options as the kept run> --keep OUTDIR

Each writes OUTDIR/VIDEO.mp4 (MPEG-4 part 2, as ``bench/live.py`` renders) and copies
the kept run's ``.json`` beside it, so that ``bench/live.py --keep OUTDIR`` with the
kept run's options watches the probe instead of rendering afresh (the truth is the
deal's; the times of each card lying still are the kept run's).

* ``wander``: the camera's white balance and exposure wander as an automatic camera's
  do: the blue gain ±12 % over 9 s, the red ∓6 %, the exposure ±15 % over 15 s, and an
  automatic exposure following the frame's mean, a frame late, damped (``--damping``,
  0.3 a frame). The twenty-eighth and twenty-ninth sessions' probe (docs/notes.md).
* ``noise``: a dim camera's sensor noise, fresh every frame, σ levels a pixel and
  channel (``--sigma``, 6).
* ``shake``: the camera shaken, every frame of 0.8 s in every 7 s shifted by up to
  3 px (a table knocked; the twenty-eighth session's probe, docs/vision.md "A shaken
  camera is no moved one").
* ``knock``: the table knocked every 7 s from 3.5 s on: the picture sways along a
  slant, 4 px at first, at 4 Hz, dying away over 1.5 s (the thirtieth session's probe,
  docs/vision.md "A shaken camera's frames are taken back onto the table").
* ``cast``: a camera with no white balance to speak of (a Pi camera without its tuning
  file, a room lit by one kind of lamp): every frame's blue, green and red gains
  (``--gains``, 1.35 1 0.75: the strong blue cast of the Pi camera's stills in
  issue 11), then the exposure made 0.8 of it (the thirty-second session's probe).
* ``tilt``: the camera mounted leaning, not straight down: every frame as a camera
  turned ``--degrees`` (15) about its horizontal axis sees it (the homography
  K R K⁻¹ of a camera turned about its centre, a lens of 55° across the frame), in a
  frame grown to hold the whole picture (nothing shrunk), its corners filled by the
  picture mirrored at its border (felt, and near the larger side some of the table's
  edge: more clutter than a wider camera would see, not less). The table is a
  trapezoid, the side nearer the camera seen larger (at 15°, in a square frame the
  top edge's middle 1.20 times, the bottom's 0.91; in a 3840 x 2160 one 1.12 and
  0.96: the thirty-second session's probe).

* ``edge``: a lamp's hard shadow lying across the table for the whole video (the
  edge of a lampshade's shadow, a standing onlooker's): a straight edge at a slant
  through the frame's middle, blurred over ``--blur`` pixels (3), the far side at
  ``--light`` (0.45) of the light, a little bluer (lit by the room, not the lamp).
  Every card laid beside it, across it or in it stays so: the paper and ink stages'
  local contrast, a patch a shadow's edge crosses evened, under a camera's own
  frames (the thirty-fourth session's probe).
* ``glare``: a lamp's glare off the table and the cards' gloss for the whole video:
  a bright patch a sixth of the frame across, its middle 110 levels brighter
  (paper clipped white there), fading over as much again, a little off the middle
  of the frame (the thirty-fourth session's probe).
* ``grey``: a monochrome camera (or a colour one in a black-and-white mode) whose
  frames are stored as colour video: every frame's grey, in all three channels. Red
  ink is as grey as black; the recogniser reads such frames as colourless
  (docs/vision.md "A picture without colour"; the forty-first session's probe).

Not a benchmark with a figure of its own: what it measures is ``bench/live.py``'s.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np


def _wander(frames, fps: float, damping: float):  # type: ignore[no-untyped-def]
    exposure = 1.0
    target = None
    for i, frame in enumerate(frames):
        t = i / fps
        blue = 1 + 0.12 * math.sin(2 * math.pi * t / 9)
        red = 1 - 0.06 * math.sin(2 * math.pi * t / 9)
        swing = 1 + 0.15 * math.sin(2 * math.pi * t / 15)
        h, w = frame.shape[:2]
        mean = float(cv2.resize(frame, (w // 16, h // 16), interpolation=cv2.INTER_AREA).mean())
        target = mean if target is None else target
        gain = swing * exposure
        out = frame.astype(np.float32) * np.float32(gain)
        out[..., 0] *= blue
        out[..., 2] *= red
        yield np.clip(out, 0, 255).astype(np.uint8)
        # the camera sees this frame's mean and moves towards its target, damped
        exposure *= (target / max(mean * gain, 1.0)) ** damping


def _cast(frames, gains: tuple[float, float, float]):  # type: ignore[no-untyped-def]
    scale = np.float32(gains) * np.float32(0.8)
    for frame in frames:
        yield np.clip(frame.astype(np.float32) * scale, 0, 255).astype(np.uint8)


def _grey(frames):  # type: ignore[no-untyped-def]
    for frame in frames:
        yield cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _noise(frames, sigma: float):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(5)
    for frame in frames:
        noise = rng.normal(0.0, sigma, frame.shape).astype(np.float32)
        yield np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _shake(frames, fps: float):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(7)
    for i, frame in enumerate(frames):
        t = i / fps
        if t % 7.0 < 0.8 and t > 1.0:
            dx, dy = rng.uniform(-3.0, 3.0, 2)
            h, w = frame.shape[:2]
            shift = np.float32([[1, 0, dx], [0, 1, dy]])
            frame = cv2.warpAffine(frame, shift, (w, h), borderMode=cv2.BORDER_REPLICATE)
        yield frame


def _knock(frames, fps: float):  # type: ignore[no-untyped-def]
    for i, frame in enumerate(frames):
        t = i / fps
        since = (t - 3.5) % 7.0  # a knock every 7 s from 3.5 s on
        if t > 3.5 and since < 1.5:
            # a damped sway: 4 px at first, at 4 Hz, falling to a twentieth in 1.5 s,
            # along a slant of its own each knock
            knock = int((t - 3.5) // 7.0)
            angle = 0.7 + 1.3 * knock
            amplitude = 4.0 * math.exp(-2.0 * since) * math.sin(2 * math.pi * 4.0 * since)
            dx, dy = amplitude * math.cos(angle), amplitude * math.sin(angle)
            h, w = frame.shape[:2]
            shift = np.float32([[1, 0, dx], [0, 1, dy]])
            frame = cv2.warpAffine(frame, shift, (w, h), borderMode=cv2.BORDER_REPLICATE)
        yield frame


def _edge_mask(size: tuple[int, int], light: float, blur: float) -> np.ndarray:
    """The light a lamp's hard shadow leaves each pixel: 1 on the lit side of a straight
    edge through the middle of a ``size`` frame (leaning 25 degrees off its rows),
    ``light`` beyond it, the step blurred over ``blur`` pixels; as a BGR gain, the
    shadow a little bluer (lit by the room's light, not the lamp's)."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(25.0)
    side = (yy - h / 2) * math.cos(a) - (xx - w / 2) * math.sin(a)  # > 0: in the shadow
    lit = np.clip(0.5 - side / max(blur, 0.5), 0.0, 1.0)
    lit = cv2.GaussianBlur(lit, (0, 0), max(blur, 0.5) / 2)
    gain = np.stack([lit + (1 - lit) * light * k for k in (1.1, 1.0, 0.9)], axis=2)
    return gain.astype(np.float32)


def _glare_add(size: tuple[int, int]) -> np.ndarray:
    """The light a lamp's glare adds each pixel of a ``size`` frame: 110 levels at its
    middle (a little up and left of the frame's), a sixth of the frame across, fading
    over as much again."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = min(w, h) / 12
    cx, cy = 0.42 * w, 0.4 * h
    dist = np.hypot(xx - cx, yy - cy)
    add = 110.0 * np.clip(1.5 - dist / (2 * r), 0.0, 1.0) ** 1.5
    return np.repeat(add[:, :, None], 3, axis=2).astype(np.float32)


def _lit(frames, gain: np.ndarray | None, add: np.ndarray | None):  # type: ignore[no-untyped-def]
    for frame in frames:
        out = frame.astype(np.float32)
        if gain is not None:
            out *= gain
        if add is not None:
            out += add
        yield np.clip(out, 0, 255).astype(np.uint8)


def tilted(
    size: tuple[int, int], degrees: float
) -> tuple[np.ndarray, tuple[int, int], tuple[float, float, float]]:
    """The homography of a frame of ``size`` seen by a camera turned ``degrees`` about
    its horizontal axis (a lens of 55° across the frame), moved so that the whole
    picture lies in a frame grown to hold it (the camera's wider frame: nothing is
    shrunk); that frame's size; and the scale it gives the far edge's middle, the
    middle and the near edge's middle (along the rows, against the frame as it was)."""
    w, h = size
    f = 0.5 * w / math.tan(math.radians(55.0) / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    a = math.radians(degrees)
    turn = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    hom = k @ turn @ np.linalg.inv(k)
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(corners, hom).reshape(-1, 2)
    lo, hi = np.floor(seen.min(axis=0)), np.ceil(seen.max(axis=0))
    hom = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]]) @ hom
    grown = (int(hi[0] - lo[0]) // 2 * 2, int(hi[1] - lo[1]) // 2 * 2)

    def scale_at(x: float, y: float) -> float:  # a short step along the rows, as seen
        p = cv2.perspectiveTransform(np.float32([[[x - 1, y]], [[x + 1, y]]]), hom)
        return float(np.linalg.norm(p[1, 0] - p[0, 0]) / 2)

    return hom, grown, (scale_at(w / 2, 0.0), scale_at(w / 2, h / 2), scale_at(w / 2, float(h)))


def _tilt(frames, size: tuple[int, int], degrees: float):  # type: ignore[no-untyped-def]
    hom, grown, _ = tilted(size, degrees)
    for frame in frames:
        yield cv2.warpPerspective(
            frame, hom, grown, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "probe",
        choices=["wander", "noise", "shake", "knock", "tilt", "cast", "edge", "glare", "grey"],
    )
    ap.add_argument("video", type=Path, help="a kept video of bench/live.py --keep")
    ap.add_argument("out", type=Path, help="the folder to write the probe to")
    ap.add_argument("--sigma", type=float, default=6.0, help="noise: levels a pixel")
    ap.add_argument("--damping", type=float, default=0.3, help="wander: the exposure's")
    ap.add_argument("--degrees", type=float, default=15.0, help="tilt: the camera's lean")
    ap.add_argument("--light", type=float, default=0.45, help="edge: the shadow's light")
    ap.add_argument("--blur", type=float, default=3.0, help="edge: the step's pixels")
    ap.add_argument(
        "--gains",
        type=float,
        nargs=3,
        default=(1.35, 1.0, 0.75),
        metavar=("BLUE", "GREEN", "RED"),
        help="cast: the channels' gains",
    )
    args = ap.parse_args()
    if not abs(args.degrees) <= 40:  # (a 55-degree lens sees its horizon at 62.5)
        ap.error(f"--degrees {args.degrees:g}: a camera leaning 40 degrees or less")
    if not all(g > 0 for g in args.gains):
        ap.error("--gains: three gains above 0")
    if not 0 < args.light <= 1:
        ap.error(f"--light {args.light:g}: the shadow's share of the light, above 0, 1 at most")
    if not args.blur >= 0:
        ap.error(f"--blur {args.blur:g}: pixels, 0 or more")
    kept = args.video.with_suffix(".json")
    if not args.video.is_file() or not kept.is_file():
        print(f"{args.video}: not a kept video of bench/live.py (with its .json)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    target = args.out / args.video.name
    if target.resolve() == args.video.resolve():
        print("the probe would overwrite the kept video: give another folder", file=sys.stderr)
        return 2
    source = cv2.VideoCapture(str(args.video))
    fps = source.get(cv2.CAP_PROP_FPS) or 10.0
    size = (int(source.get(cv2.CAP_PROP_FRAME_WIDTH)), int(source.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    def frames():  # type: ignore[no-untyped-def]
        while True:
            ok, frame = source.read()
            if not ok:
                return
            yield frame

    if args.probe == "wander":
        passed = _wander(frames(), fps, args.damping)
    elif args.probe == "noise":
        passed = _noise(frames(), args.sigma)
    elif args.probe == "knock":
        passed = _knock(frames(), fps)
    elif args.probe == "cast":
        passed = _cast(frames(), tuple(args.gains))
    elif args.probe == "edge":
        passed = _lit(frames(), _edge_mask(size, args.light, args.blur), None)
    elif args.probe == "glare":
        passed = _lit(frames(), None, _glare_add(size))
    elif args.probe == "grey":
        passed = _grey(frames())
    elif args.probe == "tilt":
        passed = _tilt(frames(), size, args.degrees)
        _, size, (top, middle, bottom) = tilted(size, args.degrees)
        print(
            f"tilted {args.degrees:g} degrees: the top edge seen at {top:.2f} of its size, "
            f"the middle at {middle:.2f}, the bottom edge at {bottom:.2f}, in a "
            f"{size[0]}x{size[1]} frame"
        )
    else:
        passed = _shake(frames(), fps)
    # the .json last: bench/live.py watches only a video whose .json is there
    (args.out / kept.name).unlink(missing_ok=True)
    writer = cv2.VideoWriter(str(target), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        print(f"{target}: OpenCV cannot write a {size[0]}x{size[1]} video here", file=sys.stderr)
        return 2
    count = 0
    for frame in passed:
        writer.write(frame)
        count += 1
    writer.release()
    source.release()
    shutil.copy(kept, args.out / kept.name)
    print(f"{target}: {count} frames at {fps:g} fps, {args.probe}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
