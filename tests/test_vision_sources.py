"""Frame sources: folders, video files, cameras that vanish and come back."""

from __future__ import annotations

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


def test_specs_pick_the_right_source():
    assert isinstance(open_source("0"), CameraSource)
    assert isinstance(open_source("rtsp://table.local/stream"), CameraSource)
    cam = open_source("picamera:1")
    assert isinstance(cam, PiCameraSource) and cam.camera == 1


def test_pi_camera_without_picamera2_says_how_to_get_it():
    with pytest.raises(SourceError, match=r"picamera2 is not installed.*python3-picamera2"):
        PiCameraSource().open()


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
