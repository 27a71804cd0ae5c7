"""Frame sources: the Pi camera, a USB/V4L2 or network camera, a video file, a folder of images.

All sources share one small interface: ``open()``, ``read()`` (a :class:`Frame`,
or ``None`` when a file or folder is finished), ``close()``. A source that
cannot be opened raises :class:`~vision.errors.SourceError` naming the device or
file. :class:`Reconnecting` wraps a live camera: when it disappears it is
reopened with back-off, and its state is reported.

The Pi camera is read through ``picamera2`` (on Raspberry Pi OS it comes from
apt, ``python3-picamera2``, into a venv made with ``--system-site-packages``);
``cv2.VideoCapture`` does not work with Pi camera modules. Everything else goes
through ``cv2.VideoCapture``.

>>> open_source("/no/such/file.mp4")
Traceback (most recent call last):
...
vision.errors.SourceError: no such file, folder or camera: /no/such/file.mp4
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import SourceError
from vision.images import ImageError, read_image

# FFmpeg's own log lines ("moov atom not found", "ac-tex damaged at 12 5") went to
# stderr beside Kiebitz's one line for the same fault, in no form of ours; quiet
# unless asked for (OPENCV_FFMPEG_LOGLEVEL, read when OpenCV first opens a video)
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

__all__ = [
    "CameraSource",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "PiCameraSource",
    "Reconnecting",
    "VideoFileSource",
    "camera_size",
    "open_source",
    "yuv420_to_bgr",
    "yuv_encoding",
]

# A Pi camera frame at least this large is given three buffers, not six (PiCameraSource)
BIG_FRAME = 8_000_000
# ... and its one autofocus cycle at open is waited for this long at most
AF_TIMEOUT_S = 5.0

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".gif"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v", ".mjpg", ".h264"})


@dataclass(frozen=True)
class Frame:
    """One picture: BGR pixels, the time it was taken (seconds), its number; and, from
    a camera that gives one, a small grey copy of the same exposure (``small``: the
    Pi camera's second stream) for the motion gate, and the same small copy in colour
    (``small_colour``, BGR: what the gate tells a hand's colour by, so that it need
    not sample the frame for it)."""

    image: NDArray[np.uint8]
    t: float
    index: int
    name: str = ""
    small: NDArray[np.uint8] | None = None
    small_colour: NDArray[np.uint8] | None = None


# A YUV picture's BGR, by its colour space's Y'CbCr encoding and range (picamera2's own
# matrices, ``picamera2/converters.py``): Y's scale and offset, then V's part of red,
# U's and V's of green, U's of blue
_YUV_BGR: dict[tuple[str, str], tuple[float, float, float, float, float, float]] = {
    ("601", "full"): (1.0, 0.0, 1.402, -0.344, -0.714, 1.772),  # sYCC, JPEG
    ("601", "limited"): (1.164, 16.0, 1.596, -0.392, -0.813, 2.017),  # SMPTE 170M
    ("709", "limited"): (1.164, 16.0, 1.793, -0.213, -0.533, 2.112),  # Rec. 709
    ("709", "full"): (1.0, 0.0, 1.5748, -0.1873, -0.4681, 1.8556),
}


# a limited range's Y (16 to 235) as a grey of the full range, as the frame's grey is
# (the gate's levels are of that: a Y plane taken as it is shows every change 14 % smaller)
_FULL_RANGE = np.clip(np.round((np.arange(256) - 16.0) * 255.0 / 219.0), 0, 255).astype(np.uint8)


def yuv_encoding(colour_space: Any) -> tuple[str, str] | None:
    """The Y'CbCr encoding (``601``, ``709``) and range (``full``, ``limited``) of a
    libcamera ``ColorSpace`` (its ``ycbcrEncoding`` and ``range``, or its name:
    ``sYCC``, ``JPEG``, ``SMPTE170M``, ``Rec709``); ``None`` where it names neither
    (the small stream's colour is then not used: the gate samples the frame's).

    >>> yuv_encoding("Rec709"), yuv_encoding("sYCC"), yuv_encoding("sRGB"), yuv_encoding(None)
    (('709', 'limited'), ('601', 'full'), ('601', 'full'), None)
    """
    if colour_space is None:
        return None
    encoding = str(getattr(colour_space, "ycbcrEncoding", "")).lower()
    span = str(getattr(colour_space, "range", "")).lower()
    if encoding and span:
        enc = "709" if "709" in encoding else "601" if "601" in encoding else None
        rng = "full" if "full" in span else "limited" if "limited" in span else None
        if enc is not None and rng is not None:
            return enc, rng
    name = str(colour_space).lower()
    for key, found in (
        ("sycc", ("601", "full")),
        ("jpeg", ("601", "full")),
        # an RGB stream's sYCC as picamera2 reports it (the main stream's, its Y'CbCr
        # encoding dropped): what an older picamera2 asks of every stream with RGB main
        ("srgb", ("601", "full")),
        ("smpte170m", ("601", "limited")),
        ("rec709", ("709", "limited")),
    ):
        if key in name:
            return found
    return None


def yuv420_to_bgr(
    yuv: NDArray[np.uint8], size: tuple[int, int], encoding: tuple[str, str]
) -> NDArray[np.uint8]:
    """The BGR picture of ``size`` (width, height: even) held in a YUV420 buffer as
    picamera2's ``make_array`` gives it (rows of the stride's width: the Y plane's
    ``height`` rows, then the U and the V planes at half size, packed), in the colour
    space ``encoding`` (:func:`yuv_encoding`). The chroma is taken to each pixel of
    its 2 x 2 block; a fifth of a millisecond for 576 x 324 on one core here. A
    buffer not so laid out (an odd side, fewer rows or a narrower stride than
    ``size`` needs) is a ValueError."""
    w, h = size
    if yuv.ndim != 2 or yuv.shape[0] % 3 or w % 2 or h % 2:
        raise ValueError(f"not a YUV420 buffer of {w}x{h}: {yuv.shape}")
    rows, stride = yuv.shape[0] * 2 // 3, yuv.shape[1]  # the Y plane's rows (padded)
    if rows < h or stride < w or stride % 2 or rows % 2:
        raise ValueError(f"not a YUV420 buffer of {w}x{h}: {yuv.shape}")
    flat = np.ascontiguousarray(yuv).reshape(-1)
    n = rows * stride
    y = yuv[:h, :w]
    u = flat[n : n + n // 4].reshape(rows // 2, stride // 2)[: h // 2, : w // 2]
    v = flat[n + n // 4 : n + n // 2].reshape(rows // 2, stride // 2)[: h // 2, : w // 2]
    u = cv2.resize(u, (w, h), interpolation=cv2.INTER_NEAREST)
    v = cv2.resize(v, (w, h), interpolation=cv2.INTER_NEAREST)
    cy, off, rv, gu, gv, bu = _YUV_BGR[encoding]
    matrix = np.array(
        [
            [cy, bu, 0.0, -cy * off - bu * 128],
            [cy, gu, gv, -cy * off - (gu + gv) * 128],
            [cy, 0.0, rv, -cy * off - rv * 128],
        ],
        np.float32,
    )
    return cv2.transform(cv2.merge([np.ascontiguousarray(y), u, v]), matrix)


class FrameSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class ImageFolderSource:
    """The images of a folder (or one image file) in name order, ``fps`` frames a second.

    An image that cannot be decoded raises :class:`SourceError` naming it; the
    next ``read()`` goes on with the following image.
    """

    def __init__(self, path: str | Path, fps: float = 1.0) -> None:
        self.path = Path(path)
        self.name = str(path)
        self.fps = fps
        self._files: list[Path] = []
        self._next = 0

    def open(self) -> None:
        if self.path.is_file():
            self._files = [self.path]
        elif self.path.is_dir():
            self._files = sorted(
                p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._files:
                # a folder of a phone's HEIC photos, say: name what lies there
                others = sorted(p.name for p in self.path.iterdir() if p.is_file())
                kinds = ", ".join(sorted(IMAGE_SUFFIXES))
                said = (
                    f" ({len(others)} other files, such as {others[0]!r}; pictures are "
                    f"read from {kinds})"
                    if others
                    else ""
                )
                raise SourceError(f"no images in folder {self.path}{said}")
        else:
            raise SourceError(f"no such image or folder: {self.path}")
        self._next = 0

    def read(self) -> Frame | None:
        if self._next >= len(self._files):
            return None
        index = self._next
        self._next += 1
        path = self._files[index]
        try:
            image = read_image(path)
        except ImageError as exc:
            raise SourceError(str(exc)) from exc
        return Frame(image, index / self.fps, index, path.name)

    def close(self) -> None:
        self._files = []


class _CaptureBase:
    name: str
    _capture: Any

    def __init__(self) -> None:
        self._capture = None
        self._index = 0

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


#: The codecs FFmpeg makes "video" of text with (its tty demuxer's ANSI art, and
#: the binary text of old BBS files): no camera's
TEXT_CODECS = frozenset((b"ansi", b"bint", b"xbin", b"idf\x00", b"idf "))


class VideoFileSource(_CaptureBase):
    """A video file; frame times come from the file, not the clock.

    A file that ends well before the frame count its header gives (a copy cut
    short, an AVI or an mp4 written with its index first: the frames before the cut
    play) raises :class:`SourceError` once, naming how far it got, where it ends;
    then it reads as ended. A count within ``SHORT_SLACK`` frames is not doubted (a
    header's count may be an estimate)."""

    SHORT_SLACK = 2

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.name = str(path)
        self._expected: int | None = None
        self._ended = False

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"no such video file: {self.path}")
        if self.path.stat().st_size == 0:
            raise SourceError(f"cannot open video file {self.path}: it is empty")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise SourceError(
                f"cannot open video file {self.path}: not a video this FFmpeg reads "
                "(an unknown format, or a file cut short before its index)"
            )
        codec = int(capture.get(cv2.CAP_PROP_FOURCC)).to_bytes(4, "little")
        if codec in TEXT_CODECS:
            # FFmpeg plays a .txt (.nfo, .asc, ...) as text drawn on a terminal's screen:
            # `vision watch notes.txt` read 151 such frames and said nothing, status 0
            capture.release()
            raise SourceError(
                f"cannot open video file {self.path}: a text file, not a video "
                "(FFmpeg would draw its characters as pictures)"
            )
        self._capture = capture
        self._index = 0
        count = capture.get(cv2.CAP_PROP_FRAME_COUNT)
        self._expected = int(count) if count and count > 0 else None
        self._ended = False

    def read(self) -> Frame | None:
        if self._capture is None:
            raise SourceError(f"video file {self.path} is not open")
        if self._ended:
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            self._ended = True
            if self._expected is not None and self._index < self._expected - self.SHORT_SLACK:
                raise SourceError(
                    f"video file {self.path} ends at frame {self._index} of the "
                    f"{self._expected} its header gives: cut short"
                )
            return None
        t = float(self._capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0
        frame = Frame(image, t, self._index, self.path.name)
        self._index += 1
        return frame


class CameraSource(_CaptureBase):
    """A USB/V4L2 camera (``0``, ``/dev/video0``) or a network stream (``rtsp://…``).
    ``detail``, once open, says the size the camera gives (the nearest it has to the
    one asked for), and a USB camera's pixel format.

    A USB camera sends uncompressed YUYV unless asked for another format, and over
    USB 2 that is a few frames a second at the sizes that read a table (a 3840 x
    2160 frame is 16.6 MB; the bus carries about 40 MB/s): the live loop's events
    would come a second or more late. So a local camera is asked for ``fourcc``
    (Motion-JPEG, which UVC cameras of 1080p and more give at their full frame
    rate) before its size, as V4L2 wants; one that has no such format keeps its own.
    A network stream's format is the stream's. ``opener`` opens the device
    (``cv2.VideoCapture``; a test passes a stand-in)."""

    def __init__(
        self,
        device: str | int,
        *,
        width: int = 1280,
        height: int = 720,
        fourcc: str | None = "MJPG",
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[str | int], Any] = cv2.VideoCapture,
    ) -> None:
        super().__init__()
        self.device = device
        self.name = str(device)
        self.detail = self.name
        self.width, self.height = width, height
        self.fourcc = fourcc
        self.clock = clock
        self.opener = opener

    @property
    def local(self) -> bool:
        """Whether the camera is a V4L2 device (a number, a path under /dev/), not a
        stream."""
        return isinstance(self.device, int) or self.device.startswith("/dev/")

    def open(self) -> None:
        capture = self.opener(self.device)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open camera {self.device}")
        if self.local and self.fourcc:  # before the size: V4L2 sets both in one format
            capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*self.fourcc))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._capture = capture
        self._index = 0
        # a camera gives the nearest size it has to the one asked for: say which
        got = (
            int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
            int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        )
        self.detail = f"{self.name} {got[0]}x{got[1]}"
        if self.local:
            code = int(capture.get(cv2.CAP_PROP_FOURCC))
            fmt = "".join(chr((code >> (8 * i)) & 0xFF) for i in range(4)).strip("\x00 ")
            if fmt.isprintable() and fmt:
                self.detail += f" {fmt}"
        if got != (self.width, self.height) and all(got):
            self.detail += f" (asked for {self.width}x{self.height}: the nearest it gives)"

    def read(self) -> Frame | None:
        if self._capture is None:
            raise SourceError(f"camera {self.device} is not open")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise SourceError(f"camera {self.device} stopped delivering frames")
        frame = Frame(image, self.clock(), self._index, self.name)
        self._index += 1
        return frame


def _configured(picam: Any) -> tuple[Any, tuple[int, int] | None]:
    """The streams' colour space as picamera2 chose it (by its version and the main
    stream's format and size: how the small stream's YUV is brought to BGR for the
    gate, :func:`yuv420_to_bgr`), and the small stream's size as configured
    (libcamera may align it; ``None``: not said)."""
    chosen = getattr(picam, "camera_config", None)
    if not isinstance(chosen, dict):
        return None, None
    lores = chosen.get("lores")
    size = lores.get("size") if isinstance(lores, dict) else None
    if size is None or len(size) != 2:
        return chosen.get("colour_space"), None
    return chosen.get("colour_space"), (int(size[0]), int(size[1]))


class PiCameraSource:
    """A Raspberry Pi camera module through ``picamera2``, with two streams.

    ``main`` (``width`` x ``height``, RGB888, which is BGR in memory) is what the
    cards are read from: by default the sensor's full resolution (the Camera
    Module 3's 4608 x 2592, the only mode that reads a whole table from where it
    sees one: hardware/camera-mounting.md; 1280 x 720 there is 0.65 px/mm and reads
    no card). ``lores`` (an eighth of it each way, YUV420, the ISP's own downscale)
    is the motion gate's: its Y plane is a grey copy of the same exposure, so a
    frame where nothing changed costs no colour conversion of the whole frame.
    Both come from one request, so they are the same instant. ``lores=None`` asks
    for the main stream only.

    A camera that focuses (the Camera Module 3) runs one autofocus cycle when it
    is opened and then holds its lens there (``AfMode`` auto: the lens moves only
    when asked): the table does not move, and a hand reaching in, nearer the lens
    than the cards, would draw a continuous autofocus off them. ``detail`` says
    what was opened and how the focus went.
    """

    def __init__(
        self,
        camera: int = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        lores: tuple[int, int] | None = (-1, -1),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (width is None) != (height is None):
            raise ValueError("give the Pi camera's width and height both, or neither")
        self.camera = camera
        self.name = f"picamera:{camera}"
        self.width, self.height = width, height
        self._lores_asked = lores
        self.lores: tuple[int, int] | None = None
        self.clock = clock
        self.detail = self.name
        self._picam: Any = None
        self._index = 0
        # the small stream's Y'CbCr encoding and range (yuv_encoding); None: unknown
        self._encoding: tuple[str, str] | None = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise SourceError(
                f"{self.name}: picamera2 is not installed (on Raspberry Pi OS: "
                "apt install python3-picamera2, and make the venv with --system-site-packages)"
            ) from exc
        picam = None
        try:
            picam = Picamera2(self.camera)
            if self.width is None or self.height is None:
                # the sensor's full resolution: the full field of view, every pixel
                self.width, self.height = (int(v) for v in picam.sensor_resolution)
            lores = self._lores_asked
            if lores == (-1, -1):  # the default: an eighth each way, even sizes for YUV420
                lores = (max(2, self.width // 8 // 2 * 2), max(2, self.height // 8 // 2 * 2))
            self.lores = lores
            streams: dict[str, Any] = {
                "main": {"size": (self.width, self.height), "format": "RGB888"}
            }
            if self.lores is not None:
                streams["lores"] = {"size": self.lores, "format": "YUV420"}
            # a full-mode frame is 36 MB (and picamera2 adds a raw stream's 15 MB a
            # buffer): three buffers, not picamera2's six for video (the reader takes
            # frames slower than the camera makes them anyway)
            big = self.width * self.height >= BIG_FRAME
            config = picam.create_video_configuration(
                **streams, **({"buffer_count": 3} if big else {})
            )
            picam.configure(config)
            space, configured = _configured(picam)
            if self.lores is not None:
                self._encoding = yuv_encoding(space)
                self.lores = configured or self.lores
            picam.start()
            focus = self._focus(picam)
        except Exception as exc:  # picamera2 raises RuntimeError, IndexError, OSError...
            if picam is not None:  # let it go: a camera left open stays busy
                with contextlib.suppress(Exception):  # the first error is the one to name
                    picam.close()
            raise SourceError(f"cannot open {self.name}: {exc}") from exc
        self._picam = picam
        self._index = 0
        small = ""
        if self.lores is not None:
            w, h = self.lores
            if self._encoding is not None:
                enc, span = self._encoding
                small = f", small stream {w}x{h} in colour (BT.{enc}, {span} range)"
            else:
                small = f", small stream {w}x{h} grey (its colour space, {space}, not known)"
        self.detail = f"{self.name} {self.width}x{self.height}{small}, {focus}"

    @staticmethod
    def _focus(picam: Any) -> str:
        """Focus once on what the camera sees, then hold the lens (see the class);
        what came of it, in words. A camera with a fixed lens has no ``AfMode``."""
        if "AfMode" not in getattr(picam, "camera_controls", {}):
            return "fixed focus"
        try:
            # picamera2's own wait has no end (a cycle facing a plain table has taken
            # 25 s, and one never returned): the camera's open, and so the frame loop
            # and every reconnection, would hang on it
            job = picam.autofocus_cycle(wait=False)
            focused = picam.wait(job, timeout=AF_TIMEOUT_S)
        except TimeoutError:
            return f"autofocus did not finish in {AF_TIMEOUT_S:g} s: the lens is where it stopped"
        except Exception as exc:  # an older picamera2 or a lens driver's fault
            return f"autofocus failed ({exc}): the lens is where it was"
        if not focused:
            return "autofocus found no sharp picture: the lens is where it stopped"
        lens = picam.capture_metadata().get("LensPosition")
        at = f" (lens at {lens:.2f} dioptres, {1 / lens:.2f} m)" if lens else ""
        return f"focused once{at}, held"

    def read(self) -> Frame | None:
        if self._picam is None:
            raise SourceError(f"{self.name} is not open")
        small = colour = None
        try:
            if self.lores is None:
                image = self._picam.capture_array("main")  # RGB888 is BGR in memory
            else:
                request = self._picam.capture_request()
                try:
                    image = request.make_array("main")
                    yuv = request.make_array("lores")
                finally:
                    request.release()
                y = yuv[: self.lores[1], : self.lores[0]]  # the Y plane
                if self._encoding is not None and self._encoding[1] == "limited":
                    small = cv2.LUT(y, _FULL_RANGE)  # Y from 16 to 235: the grey's range
                else:
                    small = np.ascontiguousarray(y)
                if self._encoding is not None:  # ... and its colour, for the gate
                    with contextlib.suppress(ValueError):  # (else the grey alone)
                        colour = yuv420_to_bgr(yuv, self.lores, self._encoding)
        except Exception as exc:
            raise SourceError(f"{self.name} stopped delivering frames: {exc}") from exc
        frame = Frame(
            np.ascontiguousarray(image[:, :, :3]),
            self.clock(),
            self._index,
            self.name,
            small,
            colour,
        )
        self._index += 1
        return frame

    def close(self) -> None:
        if self._picam is not None:
            try:
                self._picam.stop()
                self._picam.close()
            finally:
                self._picam = None


class Reconnecting:
    """A live source that is reopened with back-off when it fails.

    ``state`` is one of ``connecting``, ``open``, ``lost``; every change is
    passed to ``on_state(state, detail)``. ``read()`` returns ``None`` while the
    camera is away (after waiting the back-off), so a frame loop keeps running.
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        first_delay: float = 0.5,
        max_delay: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        on_state: Callable[[str, str], None] | None = None,
    ) -> None:
        self.source = source
        self.name = source.name
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.sleep = sleep
        self.on_state = on_state
        self.state = "connecting"
        self.delay = first_delay
        self.failures = 0

    def _set(self, state: str, detail: str) -> None:
        if state != self.state or state == "lost":
            self.state = state
            if self.on_state is not None:
                self.on_state(state, detail)

    def open(self) -> None:
        try:
            self.source.open()
        except SourceError as exc:
            self._failed(str(exc))
            return
        self.delay = self.first_delay
        self.failures = 0
        # what was opened (a Pi camera: its size and how its focus went)
        self._set("open", getattr(self.source, "detail", self.name))

    def _failed(self, detail: str) -> None:
        self.failures += 1
        self._set("lost", f"{detail}; retrying in {self.delay:g} s")
        self.source.close()
        self.sleep(self.delay)
        self.delay = min(self.delay * 2, self.max_delay)

    def read(self) -> Frame | None:
        if self.state != "open":
            self.open()
            if self.state != "open":
                return None
        try:
            return self.source.read()
        except SourceError as exc:
            self._failed(str(exc))
            return None

    def close(self) -> None:
        self.source.close()
        self._set("connecting", "closed")


#: The major device number of video4linux (``/dev/video*``: Linux's devices.txt).
V4L_MAJOR = 81


# The sizes a Pi camera may be asked for (each side; picamera2 wants them even)
PI_SIDES = (64, 16384)


def camera_size(spec: str, size: str, example: str = "0@1920x1080") -> tuple[int, int]:
    """A camera's ``WIDTHxHEIGHT``, ``size``, the part after the ``@`` of ``spec``."""
    w, x, h = size.partition("x")
    lo, hi = PI_SIDES
    if not (x and w.isdigit() and h.isdigit() and w.isascii() and h.isascii()):
        raise SourceError(f"bad camera size in {spec!r} (WIDTHxHEIGHT after the @: {example})")
    width, height = int(w), int(h)
    if not (lo <= width <= hi and lo <= height <= hi) or width % 2 or height % 2:
        raise SourceError(f"bad camera size in {spec!r}: each side even, from {lo} to {hi} pixels")
    return width, height


def _pi_camera(spec: str) -> PiCameraSource:
    """``picamera[:N][@WIDTHxHEIGHT]``: camera N (0), at that size (the sensor's
    full resolution)."""
    rest = spec[len("picamera") :]
    rest, at, size = rest.partition("@")
    number = rest[1:] if rest.startswith(":") else rest
    if rest and (not rest.startswith(":") or not number.isdigit() or not number.isascii()):
        raise SourceError(f"bad Pi camera number in {spec!r} (picamera:0, picamera:1)")
    width, height = camera_size(spec, size, "picamera@4608x2592") if at else (None, None)
    return PiCameraSource(int(number or 0), width=width, height=height)


def _usb_camera(spec: str) -> CameraSource | None:
    """``0@1280x720`` or ``/dev/video0@1920x1080``: a V4L2 camera asked for that
    size; ``None`` where ``spec`` is no such thing (a file may have an ``@`` in its
    name, a stream's address a user's)."""
    device, at, size = spec.rpartition("@")
    if not at or not (device.isdigit() or device.startswith("/dev/")):
        return None
    width, height = camera_size(spec, size)
    if device.isdigit():
        return CameraSource(int(device), width=width, height=height)
    _v4l_device(device)
    return CameraSource(device, width=width, height=height)


def _v4l_device(spec: str) -> bool:
    """Whether ``spec`` (under /dev/) is a video4linux device: not there, or another
    character device, is refused; anything else (a folder, a file) is not one."""
    path = Path(spec)
    if not path.exists():
        raise SourceError(f"no such camera device: {spec}")
    if not stat.S_ISCHR(path.stat().st_mode):
        return False
    # /dev/zero opened as a camera was "lost" and retried for ever
    if os.major(path.stat().st_rdev) != V4L_MAJOR:
        raise SourceError(f"{spec} is not a camera (a device, not a video4linux one)")
    return True


def open_source(spec: str, *, fps: float = 1.0) -> FrameSource:
    """A source from a command-line spec; it is not opened yet.

    ``picamera`` / ``picamera:1`` / ``picamera@2304x1296`` (the sensor's full
    resolution unless a size is given); ``0`` or ``/dev/video0`` (V4L2, 1280 x 720
    unless a size is given: ``0@1920x1080``, ``/dev/video0@1920x1080``); ``rtsp://…``,
    ``http://…`` (network camera); a folder or image file; a video file.
    """
    if spec == "picamera" or spec.startswith(("picamera:", "picamera@")):
        return _pi_camera(spec)
    if spec.isdigit():
        return CameraSource(int(spec))
    if spec.startswith(("rtsp://", "http://", "https://", "udp://", "tcp://")):
        return CameraSource(spec)
    sized = _usb_camera(spec)
    if sized is not None:
        return sized
    path = Path(spec)
    if spec.startswith("/dev/") and _v4l_device(spec):
        return CameraSource(spec)
    if path.is_dir() or (path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES):
        return ImageFolderSource(path, fps=fps)
    if path.is_file():
        return VideoFileSource(path)
    if path.exists():  # a named pipe, a socket, a device: none is read as frames
        raise SourceError(f"{spec} is not a video, a folder of pictures or a camera")
    raise SourceError(f"no such file, folder or camera: {spec}")
