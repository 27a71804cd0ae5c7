"""Frame sources: folders, video files, cameras that vanish and come back."""

from __future__ import annotations

import re
from typing import ClassVar

import cv2
import numpy as np
import pytest

from vision.errors import SourceError
from vision.sources import (
    CameraSource,
    Frame,
    ImageFolderSource,
    PiCameraSource,
    Reconnecting,
    VideoFileSource,
    open_source,
    yuv420_to_bgr,
)


def write_images(folder, n=3):
    folder.mkdir(exist_ok=True)
    for i in range(n):
        img = np.full((48, 64, 3), 40 * i, np.uint8)
        cv2.imwrite(str(folder / f"frame{i:02d}.png"), img)


def test_image_folder_in_name_order_with_a_corrupt_image_named(tmp_path):
    folder = tmp_path / "shots"
    write_images(folder)
    (folder / "frame01b.jpg").write_bytes(b"not a jpeg")
    src = open_source(str(folder), fps=2.0)
    assert isinstance(src, ImageFolderSource)
    src.open()
    first, second = src.read(), src.read()
    assert (first.index, first.t, first.name) == (0, 0.0, "frame00.png")
    assert second.name == "frame01.png" and int(second.image[0, 0, 0]) == 40
    with pytest.raises(SourceError, match=r"frame01b\.jpg"):
        src.read()
    third = src.read()  # the loop goes on after a bad image
    assert third.name == "frame02.png" and third.t == 1.5
    assert src.read() is None


def test_empty_folder_and_missing_paths(tmp_path):
    with pytest.raises(SourceError, match="no images in folder"):
        ImageFolderSource(tmp_path).open()
    # a folder of a phone's HEIC photos: what lies there and what is read are named
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"\x00" * 16)
    with pytest.raises(SourceError, match=r"1 other files, such as 'IMG_0001.HEIC'.*\.jpg"):
        ImageFolderSource(tmp_path).open()


def test_a_folder_of_gif_frames_is_read(tmp_path):
    from PIL import Image

    Image.new("RGB", (32, 24), (200, 10, 10)).save(tmp_path / "frame00.gif")
    src = ImageFolderSource(tmp_path)
    src.open()
    frame = src.read()
    assert frame is not None and frame.image.shape == (24, 32, 3)
    with pytest.raises(SourceError, match=r"no such file, folder or camera: .*nothing"):
        open_source(str(tmp_path / "nothing"))
    with pytest.raises(SourceError, match="no such camera device: /dev/video99"):
        open_source("/dev/video99")


def test_video_file_frames_and_times(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 50 * i, np.uint8))
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, VideoFileSource)
    src.open()
    frames = []
    while (f := src.read()) is not None:
        frames.append(f)
    src.close()
    assert len(frames) == 5
    assert [round(f.t, 2) for f in frames] == [0.0, 0.1, 0.2, 0.3, 0.4]  # from the file
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert abs(int(frames[2].image[0, 0, 0]) - 100) < 8  # the third frame's pixels


def test_a_file_that_is_not_a_video_names_it(tmp_path):
    bad = tmp_path / "notes.mp4"
    bad.write_text("hello")
    with pytest.raises(SourceError, match=r"cannot open video file .*notes\.mp4"):
        open_source(str(bad)).open()


def test_a_video_cut_short_before_its_index_or_empty_is_one_line(tmp_path):
    """An MP4 whose index (moov) was never written (a copy cut short) or an empty file:
    `kiebitz vision watch` says one line of its own, status 2; FFmpeg's own
    `moov atom not found` went to stderr beside it."""
    import subprocess
    import sys
    from pathlib import Path

    whole = Path(__file__).parents[1] / "config" / "videos" / "cribbage-deal.mp4"
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(whole.read_bytes()[: 1 << 20])
    empty = tmp_path / "empty.mp4"
    empty.touch()
    # a club's notes: FFmpeg plays a .txt as text drawn on a terminal's screen (151
    # frames of it were read and nothing said, status 0: a probe)
    notes = tmp_path / "notes.txt"
    notes.write_text("Thursday's cribbage: Anna 121, Ben 97.\n" * 200)
    for path, says in (
        (cut, "not a video this FFmpeg reads (an unknown format, or a file cut short"),
        (empty, "it is empty"),
        (notes, "a text file, not a video (FFmpeg would draw its characters as pictures)"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "controller.cli", "vision", "watch", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2 and done.stdout == "", done
        said = f"kiebitz: error: cannot open video file {path}: {says}"
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr


def test_specs_pick_the_right_source():
    assert isinstance(open_source("0"), CameraSource)
    assert isinstance(open_source("rtsp://table.local/stream"), CameraSource)
    cam = open_source("picamera:1")
    assert isinstance(cam, PiCameraSource) and cam.camera == 1


def test_pi_camera_without_picamera2_says_how_to_get_it():
    with pytest.raises(SourceError, match=r"picamera2 is not installed.*python3-picamera2"):
        PiCameraSource().open()


class FakePicamera2:
    """What the Pi camera module gives through picamera2, for a machine without one:
    ``configure`` keeps the streams asked for; each request holds a main RGB888 frame
    (BGR in memory, four bytes a pixel on a Pi 5, here three) and a YUV420 lores frame
    (the Y plane, then the quarter-size U and V planes). The scene is ``scene``."""

    instances: ClassVar[list[FakePicamera2]] = []
    scene = np.zeros((720, 1280, 3), np.uint8)
    # the Camera Module 3: its full mode, and a lens that focuses (a Camera Module 2
    # or the HQ camera has no AfMode); what an autofocus cycle answers and where it
    # leaves the lens (dioptres); a fault at start
    sensor_resolution = (4608, 2592)
    camera_controls: ClassVar[dict] = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
    focuses: bool | Exception = True
    lens = 0.68
    fails_to_start: Exception | None = None

    # the colour space picamera2 chose for the streams (camera_config), as libcamera's
    # ColorSpace says it: its Y'CbCr encoding and range; and the lores rows' stride
    colour_space: object = None
    stride = 0  # 0: the width; else rows that long (a driver's padding)

    def __init__(self, camera: int = 0) -> None:
        self.camera = camera
        self.config: dict | None = None
        self.camera_config: dict | None = None
        self.started = self.closed = False
        self.requests = 0
        self.cycles = 0
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores=None, buffer_count=6):
        return {"main": main, "lores": lores, "buffer_count": buffer_count}

    def configure(self, config):
        self.config = config
        self.camera_config = {**config, "colour_space": self.colour_space}

    def start(self):
        if self.fails_to_start is not None:
            raise self.fails_to_start
        self.started = True

    def autofocus_cycle(self, wait=True):
        assert self.started, "picamera2 focuses a started camera"
        assert not wait, "picamera2's own wait has no timeout: a cycle may never end"
        self.cycles += 1
        return "job"

    def wait(self, job, timeout=None):
        assert job == "job" and timeout is not None
        if isinstance(self.focuses, Exception):
            raise self.focuses
        return self.focuses

    def capture_metadata(self):
        return {"LensPosition": self.lens}

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True

    def capture_array(self, name="main"):
        assert name == "main" and self.config["lores"] is None
        return self._main()

    def _main(self):
        w, h = self.config["main"]["size"]
        return cv2.resize(self.scene, (w, h), interpolation=cv2.INTER_AREA)

    def capture_request(self):
        camera = self
        camera.requests += 1

        class Request:
            released = False

            def make_array(self, name):
                if name == "main":
                    return camera._main()
                w, h = camera.config["lores"]["size"]
                small = cv2.resize(camera.scene, (w, h), interpolation=cv2.INTER_AREA)
                return _yuv420(small, camera.colour_space, camera.stride or w)

            def release(self):
                Request.released = True

        return Request()


class FakeColourSpace:
    """A libcamera ``ColorSpace`` as its Python binding shows it: enums for its
    Y'CbCr encoding and range, and its name."""

    def __init__(self, name: str, encoding: str, span: str) -> None:
        self.name = name
        self.ycbcrEncoding = f"YcbcrEncoding.{encoding}"
        self.range = f"Range.{span}"

    def __repr__(self) -> str:
        return f"<libcamera.ColorSpace '{self.name}'>"


REC709 = FakeColourSpace("Rec709", "Rec709", "Limited")
SYCC = FakeColourSpace("sYCC", "Rec601", "Full")
SMPTE170M = FakeColourSpace("SMPTE170M", "Rec601", "Limited")


def _yuv420(bgr: np.ndarray, space: object, stride: int) -> np.ndarray:
    """``bgr`` as a YUV420 buffer in ``space`` (Y, then U and V at half size, each 2 x 2
    block's mean), rows ``stride`` long, as picamera2's make_array gives it; a space
    libcamera names neither way (None): a grey picture's, Y from the grey."""
    h, w = bgr.shape[:2]
    # picamera2's own YUV-to-RGB matrices (picamera2/converters.py: rows Y, U, V,
    # columns R, G, B), and the luma offset of a limited range, by the space's name
    matrices = {
        "sYCC": ([[1.0, 1.0, 1.0], [0.0, -0.344, 1.772], [1.402, -0.714, 0.0]], 0.0),
        "SMPTE170M": ([[1.164] * 3, [0.0, -0.392, 2.017], [1.596, -0.813, 0.0]], 16.0),
        "Rec709": ([[1.164] * 3, [0.0, -0.213, 2.112], [1.793, -0.533, 0.0]], 16.0),
    }
    name = getattr(space, "name", space)
    if name not in matrices:
        y = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float64)
        u = v = np.full((h // 2, w // 2), 128.0)
    else:
        m, off = matrices[name]
        # RGB = (Y - off, U - 128, V - 128) M: solved for Y, U, V
        rgb = bgr[:, :, ::-1].reshape(-1, 3).astype(np.float64)
        yuv = rgb @ np.linalg.inv(np.array(m))
        yuv = yuv.reshape(h, w, 3) + np.array([off, 128.0, 128.0])
        y = yuv[:, :, 0]
        u, v = (
            cv2.resize(yuv[:, :, k], (w // 2, h // 2), interpolation=cv2.INTER_AREA) for k in (1, 2)
        )
    out = np.zeros((h * 3 // 2, stride), np.uint8)
    out[:h, :w] = np.clip(np.round(y), 0, 255)
    flat = out.reshape(-1)
    n = h * stride
    for k, plane in enumerate((u, v)):
        rows = np.zeros((h // 2, stride // 2), np.uint8)
        rows[:, : w // 2] = np.clip(np.round(plane), 0, 255)
        at = n + k * (n // 4)
        # (an odd height's buffer, one no camera gives, takes what fits)
        seg = rows.reshape(-1)[: min(n // 4, flat.size - at)]
        flat[at : at + seg.size] = seg
    return out


@pytest.fixture
def picamera2(monkeypatch):
    import sys
    import types

    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.instances = []
    monkeypatch.setattr(FakePicamera2, "camera_controls", dict(FakePicamera2.camera_controls))
    monkeypatch.setattr(FakePicamera2, "focuses", True)
    monkeypatch.setattr(FakePicamera2, "fails_to_start", None)
    monkeypatch.setattr(FakePicamera2, "colour_space", SYCC)  # (Y is the grey)
    monkeypatch.setattr(FakePicamera2, "stride", 0)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_the_pi_camera_gives_the_gate_its_own_small_grey_stream(picamera2):
    picamera2.scene = np.full((720, 1280, 3), (40, 120, 60), np.uint8)
    source = PiCameraSource(width=1280, height=720)
    source.open()
    (camera,) = picamera2.instances
    assert camera.config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert camera.config["lores"] == {"size": (160, 90), "format": "YUV420"}
    frame = source.read()
    assert frame.image.shape == (720, 1280, 3) and frame.small.shape == (90, 160)
    assert (
        abs(int(frame.small[0, 0]) - int(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)[0, 0])) <= 1
    )
    source.close()
    assert camera.closed and camera.requests == 1
    plain = PiCameraSource(width=640, height=480, lores=None)
    plain.open()
    assert picamera2.instances[-1].config["lores"] is None and plain.read().small is None


@pytest.mark.parametrize(
    ("space", "stride"), [(REC709, 0), (SYCC, 192), (SMPTE170M, 0), ("Rec709", 0)]
)
def test_the_pi_cameras_small_stream_comes_in_colour_too(picamera2, space, stride):
    """The gate tells a hand by its colour as well as its grey: the small stream's YUV
    brought to BGR in the colour space picamera2 chose for the streams (sYCC with an
    RGB main stream in some versions, Rec. 709's limited range for one of 1280 x 720
    and more in others, SMPTE 170M below that), whatever the rows' stride; the
    stand-in codes it with picamera2's own matrices."""
    scene = np.zeros((720, 1280, 3), np.uint8)
    colours = [(40, 120, 60), (200, 200, 200), (60, 90, 200), (230, 70, 30), (20, 20, 20)]
    for k, c in enumerate(colours):
        scene[:, 256 * k : 256 * (k + 1)] = c
    picamera2.scene = scene
    picamera2.colour_space, picamera2.stride = space, stride
    source = PiCameraSource(width=1280, height=720)
    source.open()
    frame = source.read()
    assert frame.small_colour is not None and frame.small_colour.shape == (90, 160, 3)
    for k, c in enumerate(colours):  # the middle of each band, away from the chroma's blocks
        got = frame.small_colour[45, 32 * k + 16].astype(int)
        assert np.abs(got - np.array(c)).max() <= 3, (space, c, got)
    # the grey is the Y plane, in the full range the frame's grey has (a limited
    # range's 16 to 235 taken to 0 to 255), its luma weights the colour space's
    grey = cv2.cvtColor(frame.small_colour, cv2.COLOR_BGR2GRAY).astype(int)
    assert frame.small.shape == (90, 160)
    assert np.abs(frame.small.astype(int) - grey)[:, ::32].max() <= 10
    assert frame.small[45, 16 + 32 * 4] < 25 and frame.small[45, 16 + 32] > 190  # dark, white


def test_a_small_stream_in_a_colour_space_not_known_gives_its_grey_alone(picamera2):
    picamera2.colour_space = None
    source = PiCameraSource(width=1280, height=720)
    source.open()
    assert "small stream 160x90 grey (its colour space, None, not known)" in source.detail
    frame = source.read()
    assert frame.small is not None and frame.small_colour is None


def test_a_small_stream_not_laid_out_as_asked_gives_its_grey_and_the_frame(picamera2):
    """libcamera may size the small stream otherwise than asked: its size as configured
    is the one read; a buffer that is not the YUV420 of it (an odd height) gives the
    grey alone, and the frame is read all the same, not lost."""
    picamera2.scene = np.full((720, 1280, 3), (40, 120, 60), np.uint8)
    source = PiCameraSource(width=1280, height=720, lores=(160, 91))
    source.open()
    assert "small stream 160x91 in colour" in source.detail
    frame = source.read()
    assert frame.image.shape == (720, 1280, 3) and frame.small.shape == (91, 160)
    assert frame.small_colour is None
    with pytest.raises(ValueError, match="not a YUV420 buffer of 160x91"):
        yuv420_to_bgr(np.zeros((136, 160), np.uint8), (160, 91), ("601", "full"))


def test_the_gate_reads_a_card_laid_from_the_small_stream_alone(picamera2):
    from vision.motion import MotionGate

    table = np.full((720, 1280, 3), (40, 120, 60), np.uint8)
    picamera2.scene = table
    source = PiCameraSource(width=1280, height=720)
    source.open()
    gate = MotionGate(refresh_s=100.0)
    frame = source.read()
    assert gate.look(0.0, frame.image, frame.small).full
    gate.mark_read(0.0)
    laid = table.copy()
    laid[300:500, 600:740] = 235  # a card laid
    picamera2.scene = laid
    looks = []
    for k in range(1, 4):
        frame = source.read()
        # the gate never looks at the main frame: a blank one changes nothing
        blank = np.zeros_like(frame.image)
        looks.append(gate.look(k / 10, blank, frame.small, frame.small_colour).regions)
    assert looks[0] == () and len(looks[1]) == 1
    x0, y0, x1, y1 = looks[1][0]
    assert x0 <= 600 and y0 <= 300 and x1 >= 740 and y1 >= 500


def test_the_pi_camera_opens_its_full_mode_and_focuses_once_on_the_table(picamera2):
    """hardware/camera-mounting.md: only the Camera Module 3's full mode reads a whole
    table from where it sees one (1280 x 720 there is 0.65 px/mm and reads no card);
    a hand reaching in would draw a continuous autofocus off the cards."""
    picamera2.scene = np.full((2592, 4608, 3), (40, 120, 60), np.uint8)
    source = open_source("picamera")
    source.open()
    (camera,) = picamera2.instances
    assert camera.config["main"] == {"size": (4608, 2592), "format": "RGB888"}
    assert camera.config["lores"] == {"size": (576, 324), "format": "YUV420"}
    assert camera.config["buffer_count"] == 3  # 36 MB a frame: not six of them
    assert camera.cycles == 1
    assert source.detail == (
        "picamera:0 4608x2592, small stream 576x324 in colour (BT.601, full range), "
        "focused once (lens at 0.68 dioptres, 1.47 m), held"
    )
    frame = source.read()
    assert frame.image.shape == (2592, 4608, 3) and frame.small.shape == (324, 576)
    assert camera.cycles == 1  # once, at the start: never while cards are read
    source.close()


def test_a_pi_camera_asked_for_a_size_a_fixed_lens_or_a_focus_that_fails(picamera2):
    picamera2.scene = np.full((720, 1280, 3), 90, np.uint8)
    small = open_source("picamera:1@1280x720")
    small.open()
    camera = picamera2.instances[-1]
    assert camera.camera == 1 and camera.config["main"]["size"] == (1280, 720)
    assert camera.config["buffer_count"] == 6  # picamera2's own for a small frame
    del picamera2.camera_controls["AfMode"]  # a Camera Module 2, the HQ camera
    fixed = open_source("picamera")
    fixed.open()
    assert picamera2.instances[-1].cycles == 0 and fixed.detail.endswith("fixed focus")
    picamera2.camera_controls["AfMode"] = (0, 2, 0)
    for focuses, said in (
        (False, "autofocus found no sharp picture: the lens is where it stopped"),
        (RuntimeError("lens driver gone"), "autofocus failed (lens driver gone)"),
        (TimeoutError(), "autofocus did not finish in 5 s: the lens is where it stopped"),
    ):
        picamera2.focuses = focuses
        blurred = open_source("picamera")
        blurred.open()  # the camera still reads: a soft picture is read sharpened
        assert said in blurred.detail and blurred.read() is not None


def test_a_pi_camera_that_fails_to_start_is_let_go_for_the_next_try(picamera2):
    """A camera opened and not closed stays busy: every reconnection would fail."""
    picamera2.fails_to_start = RuntimeError("Device or resource busy")
    source = open_source("picamera")
    with pytest.raises(SourceError, match=r"cannot open picamera:0: Device or resource busy"):
        source.open()
    assert picamera2.instances[-1].closed


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("picamera:x", "bad Pi camera number in 'picamera:x'"),
        ("picamera:", "bad Pi camera number in 'picamera:'"),
        ("picamera:\u0661", "bad Pi camera number"),
        ("picamera@4608", "bad camera size in 'picamera@4608' (WIDTHxHEIGHT after the @: pi"),
        ("picamera@", "bad camera size in 'picamera@'"),
        ("picamera@axb", "bad camera size"),
        ("picamera@4607x2592", "each side even, from 64 to 16384 pixels"),
        ("picamera@32x32", "each side even, from 64 to 16384 pixels"),
        ("picamera@99999x2592", "each side even, from 64 to 16384 pixels"),
        ("0@1920", "bad camera size in '0@1920' (WIDTHxHEIGHT after the @: 0@1920x1080)"),
        ("0@1921x1080", "each side even"),
        ("/dev/zero@640x480", "/dev/zero is not a camera (a device, not a video4linux one)"),
        ("/dev/video99@640x480", "no such camera device: /dev/video99"),
    ],
)
def test_a_bad_camera_spec_is_named(spec, said):
    with pytest.raises(SourceError, match=re.escape(said)):
        open_source(spec)


def test_a_usb_camera_is_asked_for_a_size_and_an_at_elsewhere_is_no_size(tmp_path):
    sized = open_source("2@1920x1080")
    assert isinstance(sized, CameraSource) and (sized.device, sized.width, sized.height) == (
        2,
        1920,
        1080,
    )
    plain = open_source("0")
    assert (plain.width, plain.height) == (1280, 720)
    # a stream's user and a file's name may hold an @: neither is a size
    stream = open_source("rtsp://user:secret@10.0.0.5/table")
    assert isinstance(stream, CameraSource) and stream.device == "rtsp://user:secret@10.0.0.5/table"
    video = tmp_path / "club@night.mp4"
    video.write_bytes(b"")
    assert isinstance(open_source(str(video)), VideoFileSource)


def test_a_reconnected_camera_reports_what_it_opened(picamera2):
    states = []
    src = Reconnecting(open_source("picamera"), on_state=lambda s, d: states.append((s, d)))
    picamera2.scene = np.full((2592, 4608, 3), 90, np.uint8)
    assert src.read() is not None
    assert states == [
        (
            "open",
            "picamera:0 4608x2592, small stream 576x324 in colour (BT.601, full range), "
            "focused once (lens at 0.68 dioptres, 1.47 m), held",
        )
    ]


class FlakyCamera:
    """Fails to open ``down`` times, then delivers ``frames`` frames, then vanishes."""

    def __init__(self, down: int, frames: int) -> None:
        self.name = "flaky"
        self.down, self.frames = down, frames
        self.opened = 0
        self.served = 0
        self.is_open = False

    def open(self) -> None:
        if self.down > 0:
            self.down -= 1
            raise SourceError("cannot open camera flaky")
        self.is_open = True
        self.opened += 1

    def read(self):
        if not self.is_open or self.served >= self.frames:
            raise SourceError("camera flaky stopped delivering frames")
        self.served += 1
        return Frame(np.zeros((2, 2, 3), np.uint8), float(self.served), self.served)

    def close(self) -> None:
        self.is_open = False


def test_a_vanishing_camera_is_reopened_with_back_off_and_reported():
    slept, states = [], []
    cam = FlakyCamera(down=3, frames=2)
    src = Reconnecting(
        cam,
        first_delay=0.5,
        max_delay=2.0,
        sleep=slept.append,
        on_state=lambda s, d: states.append(s),
    )
    got = [src.read() for _ in range(6)]
    assert [f is not None for f in got] == [False, False, False, True, True, False]
    assert slept == [0.5, 1.0, 2.0, 0.5]  # doubling, capped, reset after success
    assert states == ["lost", "lost", "lost", "open", "lost"]
    cam.frames = 10  # plugged in again
    assert src.read() is not None and src.state == "open" and cam.opened == 2


def test_a_camera_says_the_size_it_gives_when_not_the_one_asked_for(tmp_path):
    # a stream gives the size it has (as a USB camera gives the nearest of its modes):
    # here a file opened as a network camera would be
    path = tmp_path / "stream.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (640, 480))
    writer.write(np.full((480, 640, 3), 90, np.uint8))
    writer.release()
    camera = CameraSource(str(path), width=1920, height=1080)
    camera.open()
    assert camera.detail == f"{path} 640x480 (asked for 1920x1080: the nearest it gives)"
    assert camera.read().image.shape == (480, 640, 3)
    camera.close()


class _FakeCapture:
    """A V4L2 camera's capture as OpenCV gives it: the properties set, in order; it
    gives Motion-JPEG where asked and has it, else YUYV, at the nearest of its sizes."""

    def __init__(self, formats: tuple[str, ...] = ("YUYV", "MJPG")) -> None:
        self.formats = formats
        self.calls: list[tuple[int, float]] = []
        self.props = {
            cv2.CAP_PROP_FOURCC: float(cv2.VideoWriter_fourcc(*"YUYV")),
            cv2.CAP_PROP_FRAME_WIDTH: 640.0,
            cv2.CAP_PROP_FRAME_HEIGHT: 480.0,
        }

    def isOpened(self) -> bool:  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.calls.append((prop, value))
        if prop == cv2.CAP_PROP_FOURCC:
            name = "".join(chr((int(value) >> (8 * i)) & 0xFF) for i in range(4))
            if name not in self.formats:
                return False
        self.props[prop] = float(value)
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def read(self):
        h, w = self.props[cv2.CAP_PROP_FRAME_HEIGHT], self.props[cv2.CAP_PROP_FRAME_WIDTH]
        return True, np.zeros((int(h), int(w), 3), np.uint8)

    def release(self) -> None:
        pass


def test_a_usb_camera_is_asked_for_motion_jpeg_before_its_size_and_says_what_it_gives():
    """A USB camera sends uncompressed YUYV unless asked: a few frames a second over
    USB 2 at the sizes that read a table. So a local camera is asked for MJPG first
    (V4L2 sets format and size together), and says which format it gives; one
    without MJPG keeps YUYV; a network stream is not asked."""
    made: list[_FakeCapture] = []

    def opener(formats: tuple[str, ...]):
        def open_(device):
            made.append(_FakeCapture(formats))
            return made[-1]

        return open_

    camera = CameraSource(0, width=1920, height=1080, opener=opener(("YUYV", "MJPG")))
    camera.open()
    props = [p for p, _ in made[-1].calls]
    assert props == [cv2.CAP_PROP_FOURCC, cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT]
    assert made[-1].calls[0][1] == cv2.VideoWriter_fourcc(*"MJPG")
    assert camera.detail == "0 1920x1080 MJPG"
    assert camera.read().image.shape == (1080, 1920, 3)
    old = CameraSource("/dev/video2", width=1920, height=1080, opener=opener(("YUYV",)))
    old.open()
    assert old.detail == "/dev/video2 1920x1080 YUYV"
    stream = CameraSource("rtsp://table.local/stream", opener=opener(("YUYV", "MJPG")))
    stream.open()
    assert cv2.CAP_PROP_FOURCC not in [p for p, _ in made[-1].calls]
    assert stream.detail == "rtsp://table.local/stream 1280x720"
    raw = CameraSource(0, fourcc=None, opener=opener(("YUYV", "MJPG")))
    raw.open()
    assert cv2.CAP_PROP_FOURCC not in [p for p, _ in made[-1].calls]
    assert raw.detail == "0 1280x720 YUYV"
