"""A private Mosquitto for ``kiebitz run`` and the tests: own config, own port, own log.

Never the system broker: the listener is bound to 127.0.0.1 on a free port picked
at start (unless given), persistence is off, the log goes to ``workdir``.

>>> find_mosquitto() is None or find_mosquitto().endswith("mosquitto")
True
"""

from __future__ import annotations

import contextlib
import os
import pwd
import random
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType

from controller.bus.errors import BrokerError

__all__ = ["BrokerError", "Mosquitto", "find_mosquitto", "free_port"]

_INSTALL = "install it with `apt-get install mosquitto` (or `make system-deps` as root)"


def find_mosquitto() -> str | None:
    """The mosquitto binary: on PATH, else /usr/sbin/mosquitto, else None."""
    found = shutil.which("mosquitto")
    if found:
        return found
    fallback = "/usr/sbin/mosquitto"
    return fallback if os.access(fallback, os.X_OK) else None


def _dying_with_us(argv: list[str]) -> list[str]:
    """``argv`` run so that the kernel sends it SIGTERM when this process dies.

    The broker runs in its own session (below), so a SIGKILLed ``kiebitz run`` left
    it running, listening and logging, with nobody to stop it. ``setpriv
    --pdeathsig`` (util-linux, on every Debian and Raspberry Pi OS) asks the kernel to
    signal it when its parent goes, and then runs the broker in its own place (same
    pid). The kernel means the parent *thread*: only a broker started on the main
    thread, which lives as long as the process, is tied so; one started on another
    thread (or where there is no setpriv) is stopped by :meth:`Mosquitto.stop` alone.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None or threading.current_thread() is not threading.main_thread():
        return argv
    return [setpriv, "--pdeathsig", "TERM", "--", *argv]


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now.

    Drawn at random below the kernel's ephemeral range (20000-32767), not asked of
    the kernel (port 0): a broker stopped and started again on its port (a fault
    test, a restart) leaves it free a moment, and the kernel hands a free ephemeral
    port to the next asker, so another private broker could take it and the first
    broker's clients reconnect to the wrong one. A random draw from 12,768 ports
    makes that a 1-in-12,768 chance at worst.
    """
    rng = random.SystemRandom()
    for _ in range(64):
        port = rng.randrange(20000, 32768)
        if _port_free(port):
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:  # a crowded machine
        s.bind(("127.0.0.1", 0))
        found: int = s.getsockname()[1]
        return found


class Mosquitto:
    """One private Mosquitto process.

    ``extra_config`` is appended to the generated config (an ``acl_file`` line, a
    ``password_file`` …); ``config`` replaces its listener and rules with a whole
    configuration of one's own. Use as a context manager, or ``start()`` / ``stop()``.
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        workdir: Path,
        binary: str | None = None,
        extra_config: str = "",
        config: str | None = None,
    ) -> None:
        self.config = config
        self.port = port
        self.workdir = Path(workdir)
        self.binary = binary
        self.extra_config = extra_config
        self.config_path = self.workdir / "mosquitto.conf"
        self.log_path = self.workdir / "mosquitto.log"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise BrokerError("the broker has no port yet: start() it first")
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:]) or "(log empty)"

    def _write_config(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        # ``config``: a whole configuration of listeners and rules (the shipped
        # config/mosquitto/kiebitz.conf, its paths and ports made private), to which
        # only the user and log lines below are added; ``port`` must be its first
        # listener's, the one probed for readiness.
        head = (
            [self.config]
            if self.config is not None
            else [f"listener {self.port} 127.0.0.1", "allow_anonymous true", "persistence false"]
        )
        if self.config is None or "max_queued_messages" not in self.config:
            # Mosquitto queues 1000 messages for a slow subscriber and then drops QoS 1
            # messages it has acknowledged to their sender: a burst (tables sending what
            # they kept through an outage) would be lost at the referee
            head.append("max_queued_messages 1000000")
        lines = [
            *head,
            # small packets out at once: with Nagle's algorithm a message waits for the
            # client's delayed ACK of the one before (40 ms on Linux)
            "set_tcp_nodelay true",
            # Mosquitto started as root drops to the `mosquitto` user, who cannot read a
            # private workdir (the log, an ACL file); stay the user who started it.
            f"user {pwd.getpwuid(os.getuid()).pw_name}",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
            self.extra_config,
        ]
        self.config_path.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10) -> Mosquitto:
        if self.running:
            return self
        binary = self.binary or find_mosquitto()
        if binary is None or not (Path(binary).exists() or shutil.which(binary)):
            raise BrokerError(f"mosquitto not found ({binary or 'not on PATH'}): {_INSTALL}")
        if self.port is None:
            self.port = free_port()
        elif not _port_free(self.port):
            # the readiness probe below would talk to whoever holds it
            raise BrokerError(f"port {self.port} on 127.0.0.1 is in use: pass another or None")
        self._write_config()
        try:
            self._proc = subprocess.Popen(
                _dying_with_us([binary, "-c", str(self.config_path)]),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=open(self.workdir / "mosquitto.stderr", "wb"),  # noqa: SIM115
                # Its own session: a Ctrl-C at the terminal stops the run, which then
                # closes its clients and stops the broker last, not the broker first;
                # a run killed outright takes it along (`_dying_with_us`).
                start_new_session=True,
            )
        except OSError as exc:
            raise BrokerError(f"cannot run {binary}: {exc}; {_INSTALL}") from None
        deadline = time.monotonic() + timeout
        while True:
            if self._proc.poll() is not None:
                raise BrokerError(
                    f"mosquitto exited with status {self._proc.returncode} at start-up:\n"
                    f"{self._stderr()}{self.log_tail()}"
                )
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return self
            if time.monotonic() > deadline:
                self.stop()
                raise BrokerError(
                    f"mosquitto did not accept connections on port {self.port} "
                    f"within {timeout} s:\n{self.log_tail()}"
                )
            time.sleep(0.05)

    def _stderr(self) -> str:
        try:
            text = (self.workdir / "mosquitto.stderr").read_text(errors="replace").strip()
        except OSError:
            return ""
        return text + "\n" if text else ""

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def restart(self, timeout: float = 10) -> Mosquitto:
        """Stop and start again on the same port (retained messages are lost: no persistence)."""
        self.stop()
        return self.start(timeout)

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
