"""The host's end of the serial line: one board, opened by URL, kept in step.

:class:`BoardLink` opens the port with pyserial's ``serial_for_url``
(``/dev/ttyACM0``, ``loop://``, ``socket://host:port``, ``spy://PORT?file=dump``
for a hex dump), says HELLO, checks the board's protocol version and layout
fingerprint, then keeps the board showing the newest state:

* only the newest state is kept (coalescing): ten states set while one frame is
  in flight send one frame, the last;
* one frame is in flight at a time; no ACK within ``ack_timeout`` sends the
  newest state again, with a new sequence number;
* a heartbeat every ``heartbeat`` seconds when nothing else is sent; its ACK
  carries the board's boot id, so a board that reset is resynchronised at once
  (so is one that says ANNOUNCE at boot);
* a port that fails (USB unplugged, Pico reset) or a board that stops answering
  is closed and reopened with back-off, then resynchronised;
* :meth:`BoardLink.health` reports all of it.

Bad input (a state the layout cannot show) raises :class:`StateError` at once;
line trouble never raises out of the link, it shows in the health.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import serial
from pegboard import frame as fr
from pegboard import protocol as p
from pegboard.layout import Layout

from controller.board import _firmware  # noqa: F401
from controller.board.errors import BoardRefusedError, BoardTimeoutError
from controller.board.model import BoardState

__all__ = ["BoardLink", "LinkHealth"]

CLOSED = "closed"
OPENING = "opening"
HANDSHAKE = "handshake"
REFUSED = "refused"
CONNECTED = "connected"  # handshake done, no state set yet
SYNCING = "syncing"  # a state is waiting for its ACK
SYNCED = "synced"  # the board shows the newest state

_LINE_ERRORS = (serial.SerialException, OSError, ValueError)
#: A frame NAKed is sent again at once this many times in a row; past that, after
#: ``ack_timeout`` (a frame corrupted on the line once is sent again at once; a board
#: that NAKs everything is not flooded)
NAKS_AT_ONCE = 3


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """A snapshot of the link: what it is doing, what the board is, what went wrong."""

    url: str
    status: str = CLOSED
    board: p.BoardInfo | None = None
    last_answer_age: float | None = None
    rtt_ms: float | None = None
    frames_sent: int = 0
    states_sent: int = 0
    states_acked: int = 0
    retransmits: int = 0
    naks: int = 0
    bad_frames: int = 0
    board_bad_frames: int = 0
    reconnects: int = 0
    resyncs: int = 0
    last_error: str | None = None

    @property
    def connected(self) -> bool:
        return self.status in (CONNECTED, SYNCING, SYNCED)

    @property
    def synced(self) -> bool:
        return self.status == SYNCED

    def summary(self) -> str:
        """One line for logs and the command line."""
        parts = [f"{self.url}: {self.status}"]
        if self.board is not None:
            version = ".".join(str(v) for v in self.board.firmware)
            parts.append(
                f"firmware {version}, protocol {self.board.protocol}, "
                f"layout 0x{self.board.fingerprint:04x}, boot 0x{self.board.boot_id:04x}"
            )
        if self.rtt_ms is not None:
            parts.append(f"rtt {self.rtt_ms:.1f} ms")
        parts.append(
            f"sent {self.frames_sent}, states {self.states_acked}/{self.states_sent} acked, "
            f"retransmits {self.retransmits}, naks {self.naks}, bad frames {self.bad_frames} "
            f"(board {self.board_bad_frames}), reconnects {self.reconnects}, resyncs {self.resyncs}"
        )
        if self.last_error:
            parts.append(f"last error: {self.last_error}")
        return "; ".join(parts)


@dataclass(slots=True)
class _InFlight:
    seq: int
    kind: int
    sent_at: float
    state: p.State | None = None


class BoardLink:
    """Keep one peg board showing the newest state. Use as a context manager or start/close."""

    def __init__(
        self,
        url: str,
        layout: Layout,
        *,
        baudrate: int = 115200,
        ack_timeout: float = 0.1,
        heartbeat: float = 0.5,
        answer_timeout: float = 1.5,
        hello_retry: float = 0.25,
        backoff: tuple[float, float] = (0.05, 0.25),
        read_timeout: float = 0.01,
        opener: Callable[..., Any] = serial.serial_for_url,
        clock: Callable[[], float] = time.monotonic,
        on_health: Callable[[LinkHealth], None] | None = None,
    ) -> None:
        if ack_timeout <= 0 or heartbeat <= 0 or answer_timeout <= 0:
            raise ValueError("timeouts must be positive")
        self.url = url
        self.layout = layout
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.heartbeat = heartbeat
        self.answer_timeout = answer_timeout
        self.hello_retry = hello_retry
        self.backoff = backoff
        self.read_timeout = read_timeout
        self._opener = opener
        self._clock = clock
        self._on_health = on_health
        self._fingerprint = layout.fingerprint()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None
        self._decoder = fr.FrameDecoder()
        self._seq = 0
        self._status = CLOSED
        self._health = LinkHealth(url=url)
        self._desired: p.State | None = None
        self._acked: p.State | None = None
        # the last state the board said it cannot show (NAK bad payload): not sent
        # again, and no state shown to whoever waits for it (wait_synced)
        self._unshowable: p.State | None = None
        self._naks_in_row = 0  # NAKs since the last ACK (NAKS_AT_ONCE)
        self._inflight: _InFlight | None = None
        self._last_tx = 0.0
        self._last_rx = 0.0
        self._hello_at = 0.0
        self._opened_at = 0.0

    # -- public ---------------------------------------------------------------------

    def start(self) -> BoardLink:
        if self._thread is not None:
            raise RuntimeError("the link is already started")
        self._closing.clear()
        with self._lock:
            self._set_status(OPENING)
        self._thread = threading.Thread(
            target=self._run, name=f"board-link {self.url}", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread.is_alive():  # one never started is not joined
            thread.join(timeout=2)
        with self._lock:
            self._close_port()
            self._set_status(CLOSED)

    def __enter__(self) -> BoardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_state(self, state: BoardState | p.State) -> None:
        """Show ``state`` (the newest wins); :class:`StateError` if the layout cannot show it."""
        wire = state.to_wire(self.layout) if isinstance(state, BoardState) else state
        p.encode_state(wire)  # raises ProtocolError on what no frame can carry
        with self._lock:
            self._desired = wire
            if self._status in (CONNECTED, SYNCED) and self._inflight is None:
                self._send_state(self._clock())
            elif self._status == SYNCED:
                self._set_status(SYNCING)
            self._changed.notify_all()

    def self_test(self) -> None:
        """Ask the board to run its self-test pattern (it answers with an ACK)."""
        with self._lock:
            if self._port is not None and self._status not in (OPENING, HANDSHAKE, REFUSED):
                self._send(p.SELFTEST, b"", self._clock())

    def health(self) -> LinkHealth:
        with self._lock:
            age = self._clock() - self._last_rx if self._last_rx else None
            return replace(self._health, status=self._status, last_answer_age=age)

    def wait_synced(self, timeout: float) -> LinkHealth:
        """Wait until the board shows the newest state; :class:`BoardTimeoutError` if not in time.

        A refused board raises :class:`BoardRefusedError` naming the mismatch.
        """
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                if self._status == REFUSED:
                    raise BoardRefusedError(self._health.last_error or "the board refused")
                if self._desired is not None and self._desired == self._unshowable:
                    # (`board show` said "synced", status 0, with nothing shown)
                    raise BoardRefusedError(
                        "the board cannot show this state: "
                        + (self._health.last_error or "it refused it")
                    )
                if self._status == SYNCED or (self._status == CONNECTED and self._desired is None):
                    return self.health()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BoardTimeoutError(
                        f"the board did not show the state within {timeout:g} s: "
                        + self.health().summary()
                    )
                self._changed.wait(min(left, 0.05))

    # -- the loop -------------------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._closing.is_set():
            if self._port is None:
                if self._open():
                    delay = self.backoff[0]
                else:
                    self._closing.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                continue
            try:
                port = self._port
                data = port.read(max(1, port.in_waiting))
                items = self._decoder.feed(data) if data else []
                with self._lock:
                    now = self._clock()
                    for item in items:
                        self._receive(item, now)
                    self._timers(now)
            except _LINE_ERRORS as exc:
                with self._lock:
                    self._lost(f"{type(exc).__name__}: {exc}")

    def _open(self) -> bool:
        try:
            port = self._opener(
                self.url, baudrate=self.baudrate, timeout=self.read_timeout, write_timeout=1.0
            )
            port.reset_input_buffer()
        except _LINE_ERRORS as exc:
            with self._lock:
                # pyserial names the port three times ("[Errno 2] could not open port
                # P: [Errno 2] No such file or directory: 'P'"): the port once, the why
                errno = getattr(exc, "errno", None)
                why = os.strerror(errno) if isinstance(errno, int) else str(exc)
                self._note(last_error=f"cannot open {self.url}: {why}")
            return False
        with self._lock:
            self._port = port
            self._decoder.reset()
            self._inflight = None
            self._acked = None
            now = self._clock()
            self._opened_at = now
            self._last_rx = 0.0
            self._set_status(HANDSHAKE)
            try:
                self._hello(now)
            except _LINE_ERRORS as exc:
                self._lost(f"{type(exc).__name__}: {exc}")
                return False
        return True

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(_LINE_ERRORS):
                port.close()

    def _lost(self, why: str) -> None:
        self._close_port()
        self._inflight = None
        self._acked = None
        self._note(last_error=why, reconnects=self._health.reconnects + 1)
        if not self._closing.is_set():
            self._set_status(OPENING)

    # -- sending (with the lock held) ---------------------------------------------------

    def _send(self, kind: int, payload: bytes, now: float) -> int:
        if self._port is None:
            raise serial.SerialException("port closed")
        self._seq = (self._seq + 1) & 0xFF
        self._port.write(fr.encode_frame(p.PROTOCOL_VERSION, self._seq, kind, payload, lead=True))
        self._last_tx = now
        self._note(frames_sent=self._health.frames_sent + 1)
        return self._seq

    def _hello(self, now: float) -> None:
        # Its leading delimiter ends whatever half frame the board may hold.
        self._send(p.HELLO, p.encode_hello(), now)
        self._hello_at = now

    def _send_state(self, now: float, *, again: bool = False) -> None:
        state = self._desired
        assert state is not None
        try:
            seq = self._send(p.STATE, p.encode_state(state), now)
        except _LINE_ERRORS as exc:
            # The loop notices the broken port on its next read and reconnects.
            self._note(last_error=f"{type(exc).__name__}: {exc}")
            self._inflight = None
            return
        self._inflight = _InFlight(seq, p.STATE, now, state)
        self._note(
            states_sent=self._health.states_sent + 1,
            retransmits=self._health.retransmits + (1 if again else 0),
        )
        if self._status != SYNCING:
            self._set_status(SYNCING)

    def _timers(self, now: float) -> None:
        status = self._status
        if status in (HANDSHAKE, REFUSED):
            retry = self.hello_retry if status == HANDSHAKE else 2.0
            if now - self._hello_at >= retry:
                self._hello(now)
            if status == HANDSHAKE and now - self._opened_at > self.answer_timeout:
                self._note(last_error=f"no answer to HELLO within {self.answer_timeout:g} s")
                self._opened_at = now
            return
        if status not in (CONNECTED, SYNCING, SYNCED):
            return
        if now - self._last_rx > self.answer_timeout:
            self._lost(f"the board stopped answering for {self.answer_timeout:g} s")
            return
        inflight = self._inflight
        if inflight is not None:
            if now - inflight.sent_at >= self.ack_timeout:
                if self._desired is not None and (
                    inflight.kind == p.STATE or self._desired != self._acked
                ):
                    self._send_state(now, again=True)
                else:
                    self._inflight = None
            return
        if self._desired is not None and self._desired != self._acked:
            self._send_state(now)
        elif now - self._last_tx >= self.heartbeat:
            seq = self._send(p.HEARTBEAT, b"", now)
            self._inflight = _InFlight(seq, p.HEARTBEAT, now)

    # -- receiving (with the lock held) -------------------------------------------------

    def _receive(self, item: fr.Frame | fr.FrameError, now: float) -> None:
        if isinstance(item, fr.FrameError):
            self._note(bad_frames=self._health.bad_frames + 1, last_error=f"bad frame: {item}")
            return
        try:
            if item.type in (p.HELLO_REPLY, p.ANNOUNCE):
                self._last_rx = now
                self._board_info(p.decode_info(item.payload), now, announce=item.type == p.ANNOUNCE)
            elif item.type == p.ACK:
                self._last_rx = now
                self._ack(*p.decode_ack(item.payload), now=now)
            elif item.type == p.NAK:
                self._last_rx = now
                self._nak(*p.decode_nak(item.payload), now=now)
            else:
                self._note(last_error=f"unexpected message type 0x{item.type:02x} from the board")
        except p.ProtocolError as exc:
            self._note(bad_frames=self._health.bad_frames + 1, last_error=f"bad payload: {exc}")

    def _board_info(self, info: p.BoardInfo, now: float, *, announce: bool) -> None:
        old = self._health.board
        if info.protocol != p.PROTOCOL_VERSION:
            self._refuse(
                info,
                f"the board speaks protocol {info.protocol}, this host {p.PROTOCOL_VERSION}: "
                "flash matching firmware (kiebitz board flash)",
            )
            return
        if info.fingerprint != self._fingerprint or info.led_count != self.layout.led_count:
            self._refuse(
                info,
                f"the board's layout (fingerprint 0x{info.fingerprint:04x}, {info.led_count} LEDs) "
                f"is not {self.layout.name!r} (0x{self._fingerprint:04x}, "
                f"{self.layout.led_count} LEDs): flash it with this layout",
            )
            return
        if self._status == HANDSHAKE and announce:
            return  # a stale boot message; the HELLO_REPLY follows
        rebooted = old is not None and old.boot_id != info.boot_id
        self._note(board=info, resyncs=self._health.resyncs + (1 if rebooted or announce else 0))
        self._inflight = None
        self._acked = None
        # a board met afresh (reflashed, reset) may show what it could not: it is asked
        self._unshowable = None
        self._naks_in_row = 0
        self._set_status(CONNECTED)
        if self._desired is not None:
            self._send_state(now)

    def _refuse(self, info: p.BoardInfo, why: str) -> None:
        self._note(board=info, last_error=why)
        self._inflight = None
        self._set_status(REFUSED)

    def _ack(self, seq: int, flags: int, boot_id: int, bad: int, *, now: float) -> None:
        self._note(board_bad_frames=bad)
        self._naks_in_row = 0
        board = self._health.board
        if board is not None and boot_id != board.boot_id:
            # The board reset and we missed its ANNOUNCE: say HELLO again.
            self._inflight = None
            self._acked = None
            self._set_status(HANDSHAKE)
            self._hello(now)
            return
        inflight = self._inflight
        if inflight is None or inflight.seq != seq:
            return  # a late ACK of a frame we already sent again
        self._inflight = None
        rtt = (now - inflight.sent_at) * 1000
        old = self._health.rtt_ms
        self._note(rtt_ms=rtt if old is None else 0.8 * old + 0.2 * rtt)
        if inflight.kind == p.STATE:
            self._acked = inflight.state
            if inflight.state == self._unshowable:  # it shows it after all
                self._unshowable = None
            self._note(states_acked=self._health.states_acked + 1)
        elif not flags & p.ACK_HAS_STATE:
            self._acked = None
        if self._desired is not None and self._desired != self._acked:
            self._send_state(now)
        else:
            self._set_status(SYNCED if self._desired is not None else CONNECTED)

    def _nak(self, seq: int | None, code: int, detail: str, *, now: float) -> None:
        name = p.NAK_NAMES.get(code, f"code {code}")
        self._note(naks=self._health.naks + 1, last_error=f"board NAK: {name}: {detail}")
        if code == p.NAK_VERSION:
            self._set_status(HANDSHAKE)
            self._hello(now)
            return
        inflight = self._inflight
        if inflight is not None and (seq is None or seq == inflight.seq):
            if code == p.NAK_BAD_PAYLOAD and seq == inflight.seq:
                # The board cannot show this state: sending it again will not help.
                self._inflight = None
                self._acked = self._unshowable = self._desired
                self._set_status(CONNECTED)
                return
            self._naks_in_row += 1
            if self._desired is not None and self._naks_in_row <= NAKS_AT_ONCE:
                self._send_state(now, again=True)
            # (past them the ack timer sends it again: a board that NAKs every frame at
            # once had it sent 13,000 times a second; the firmware NAKs once in 50 ms)

    # -- bookkeeping ----------------------------------------------------------------

    def _note(self, **changes: Any) -> None:
        self._health = replace(self._health, **changes)

    def _set_status(self, status: str) -> None:
        if status == self._status:
            return
        self._status = status
        self._changed.notify_all()
        if self._on_health is not None:
            with contextlib.suppress(Exception):
                self._on_health(self.health())
