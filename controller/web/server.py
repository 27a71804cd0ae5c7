"""The web view served: uvicorn in a thread of its own, over a hub fed by a bus.

:class:`WebServer` is what ``kiebitz web`` and ``kiebitz run --web`` start: the
hub follows the bus, the app is served on ``host:port``, and operators' commands
are published on the same bus, each table's stamped ``<table>/web``.

A web view started again begins its commands' sequence numbers at the time in
milliseconds, above any it used before (receivers drop a sender's seqs they have
seen); the referee waits up to a second for the numbers between, once.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
import time
from typing import Any

from controller.bus.dispatch import Publisher
from controller.bus.envelope import Stamper
from controller.bus.topics import COMMAND, topic
from controller.web.app import make_app
from controller.web.auth import Users
from controller.web.hub import TableHub

__all__ = ["ListenError", "WebServer"]

log = logging.getLogger("kiebitz.web")


class ListenError(OSError):
    """The view cannot listen: ``which`` says whose fault, ``"host"`` or ``"port"``."""

    def __init__(self, which: str, message: str) -> None:
        super().__init__(message)
        self.which = which


class WebServer:
    """The hub on ``bus``, the app on ``host:port`` (port 0: a free one)."""

    def __init__(
        self,
        bus: Any,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        users: Users | None = None,
        records: Any = None,
        secret: str | None = None,
        read_only: bool = False,
        https_only: bool = False,
    ) -> None:
        import uvicorn

        self.bus = bus
        self.hub = TableHub()
        self.hub.attach(bus)
        self._stampers: dict[str, Stamper] = {}
        self._lock = threading.Lock()
        self.app = make_app(
            self.hub,
            send=None if read_only else self.send,
            users=users,
            records=records,
            secret=secret,
            https_only=https_only,
        )
        config = uvicorn.Config(
            self.app, host=host, port=port, log_level="warning", lifespan="off",
            access_log=False, timeout_graceful_shutdown=1,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self.host = host

    def send(self, table: str, body: dict[str, Any]) -> str:
        """Publish an operator's command for ``table``; its message id (a body the
        command schema refuses raises :class:`~controller.bus.envelope.PayloadError`)."""
        with self._lock:
            stamper = self._stampers.get(table)
            if stamper is None:
                stamper = self._stampers[table] = Stamper(
                    f"{table}/web", start_seq=int(time.time() * 1000)
                )
        env = Publisher(self.bus, stamper).send(topic(table, COMMAND), "command", body)
        log.info("%s: %s sent (%s)", table, body.get("command"), env.id)
        return env.id

    def start(self, timeout: float = 15.0) -> WebServer:
        """Listen, then serve on a thread. A host or port it cannot listen on is
        :class:`ListenError` here, naming which (its socket is bound before the
        server starts: uvicorn printed its own error line and ended its thread, and
        the view could only say that it had not started)."""
        sock = self._sock = self._listen()

        def serve() -> None:
            asyncio.run(self._server.serve(sockets=[sock]))

        self._thread = threading.Thread(target=serve, name="kiebitz-web", daemon=True)
        try:
            self._thread.start()
        except BaseException:  # a Ctrl-C in the start: the port is not held on
            sock.close()
            raise
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the web view could not listen on {self.host}")
            time.sleep(0.02)
        return self

    def _listen(self) -> socket.socket:
        host, port = self.host, int(self._server.config.port)
        # the family as uvicorn chose it: IPv6 only for an address with a colon (the
        # first answer for "localhost" may be ::1, where IPv6 may be off)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            family, kind, proto, _, address = socket.getaddrinfo(
                host, port, family, socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            )[0]
        except socket.gaierror as exc:
            raise ListenError("host", f"cannot listen on {host}: {exc.strerror}") from None
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            sock.close()
            # taken, or below 1024 for a user: the port's fault; else the host's (an
            # address this machine does not have)
            which = "port" if exc.errno in (errno.EADDRINUSE, errno.EACCES) else "host"
            why = exc.strerror or str(exc)
            raise ListenError(which, f"cannot listen on {host} port {port}: {why}") from None
        return sock

    @property
    def port(self) -> int:
        servers = getattr(self._server, "servers", [])
        for server in servers:
            for sock in server.sockets:
                return int(sock.getsockname()[1])
        return int(self._server.config.port)

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.hub.close()  # the pages' streams end, so the server can stop at once
        self._server.should_exit = True
        # is_alive: a Ctrl-C inside start() can leave the thread made and never started
        # (its join then raised "cannot join thread before it is started")
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=10)
        if self._sock is not None:  # (uvicorn closes it as it stops; a thread that died
            self._sock.close()  # before it took the socket did not)
