# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""The board's main loop: read frames, answer them, show the last state received.

:class:`Board` owns no hardware of its own: the LED driver, the displays, the
byte stream, the watchdog and the clock are passed in, so the same loop runs on
the Pico (``main.py``), in the emulator and in tests.

>>> from pegboard.layout import Layout, example
>>> from pegboard import frame, protocol as p
>>> class Wire:
...     def __init__(self): self.inbox, self.sent = bytearray(), bytearray()
...     def read(self):
...         data, self.inbox = self.inbox, bytearray()
...         return data
...     def write(self, data): self.sent += data
>>> class Leds:
...     def __init__(self): self.frames = []
...     def same(self, words): return False
...     def write(self, words): self.frames.append(list(words))
>>> now = [0]
>>> wire, leds = Wire(), Leds()
>>> board = Board(Layout(example(game=61)), leds, [], wire, clock=lambda: now[0], boot_id=0x1234)
>>> board.start()
>>> state = p.State(tracks=[(5, 0, 0), (0, 0, 0)])
>>> wire.inbox += frame.encode_frame(1, 9, p.STATE, p.encode_state(state))
>>> now[0] = 500   # after the self-test
>>> board.poll()
>>> [f.type for f in frame.FrameDecoder().feed(wire.sent)] == [p.ANNOUNCE, p.ACK]
True
>>> [led for led, word in enumerate(leds.frames[-1]) if word]
[0, 6, 74, 75]
"""

from pegboard import FIRMWARE_VERSION, frame
from pegboard import protocol as p
from pegboard.compat import sleep_ms, ticks_diff, ticks_ms
from pegboard.render import (
    MODE_HOST_LOST,
    MODE_SELFTEST,
    MODE_STATE,
    MODE_WAITING,
    Renderer,
)

NAK_GAP_MS = 50


class Board:
    def __init__(
        self,
        layout,
        leds,
        displays,
        transport,
        clock=ticks_ms,
        wdt=None,
        boot_id=0,
        uid=b"",
    ):
        self.layout = layout
        self.leds = leds
        self.displays = displays
        self.transport = transport
        self.clock = clock
        self.wdt = wdt
        self.boot_id = boot_id & 0xFFFF
        self.uid = uid
        self.renderer = Renderer(layout)
        self.decoder = frame.FrameDecoder()
        self.state = None
        self.seq = 0
        self.bad_frames = 0
        self.states_received = 0
        self.started = clock()
        self.selftest_from = self.started
        self.last_host = None
        self.last_nak = None
        self._dirty = True
        self._last_render = None

    def info(self):
        return p.BoardInfo(
            protocol=p.PROTOCOL_VERSION,
            firmware=FIRMWARE_VERSION,
            fingerprint=self.layout.fingerprint(),
            led_count=self.layout.led_count,
            tracks=self.layout.tracks,
            displays=self.layout.seats,
            boot_id=self.boot_id,
            uid=self.uid,
        )

    def start(self):
        """The boot: self-test, then announce ourselves so a listening host resyncs."""
        self.started = self.clock()
        self.selftest_from = self.started
        for display in self.displays:
            display.show([int("8" * display.width)] * 16)
        self._send(p.ANNOUNCE, p.encode_info(self.info()))

    # -- frames ---------------------------------------------------------------------

    def _send(self, kind, payload=b""):
        self.seq = (self.seq + 1) & 0xFF
        wire = frame.encode_frame(p.PROTOCOL_VERSION, self.seq, kind, payload, lead=True)
        self.transport.write(wire)

    def _nak(self, seq, code, detail):
        now = self.clock()
        if self.last_nak is not None and ticks_diff(now, self.last_nak) < NAK_GAP_MS:
            return
        self.last_nak = now
        self._send(p.NAK, p.encode_nak(p.NOBODY if seq is None else seq, code, detail))

    def _ack(self, seq):
        flags = (p.ACK_HAS_STATE if self.state is not None else 0) | (
            p.ACK_HOST_LOST if self._host_lost(self.clock()) else 0
        )
        self._send(p.ACK, p.encode_ack(seq, flags, self.boot_id, self.bad_frames))

    def handle(self, item):
        if isinstance(item, frame.FrameError):
            self.bad_frames += 1
            self._nak(None, p.NAK_BAD_FRAME, str(item))
            return
        self.last_host = self.clock()
        if item.type == p.HELLO:
            # Answered in any version, so the host can say what the mismatch is.
            self._send(p.HELLO_REPLY, p.encode_info(self.info()))
            return
        if item.version != p.PROTOCOL_VERSION:
            self._nak(
                item.seq,
                p.NAK_VERSION,
                "board speaks protocol %d, frame is %d" % (p.PROTOCOL_VERSION, item.version),
            )
            return
        if item.type == p.STATE:
            try:
                state = self._check(p.decode_state(item.payload))
            except p.ProtocolError as exc:
                self.bad_frames += 1
                self._nak(item.seq, p.NAK_BAD_PAYLOAD, str(exc))
                return
            self.states_received += 1
            if state != self.state:
                self.state = state
                self._dirty = True
                self._show_displays()
            self._ack(item.seq)
        elif item.type == p.HEARTBEAT:
            self._ack(item.seq)
        elif item.type == p.SELFTEST:
            self.selftest_from = self.clock()
            self._ack(item.seq)
        else:
            self._nak(item.seq, p.NAK_UNKNOWN_TYPE, "unknown message type 0x%02x" % item.type)

    def _check(self, state):
        layout = self.layout
        if len(state.tracks) != layout.tracks:
            raise p.ProtocolError(
                "state has %d tracks, the board has %d" % (len(state.tracks), layout.tracks)
            )
        for track, (front, back, _won) in enumerate(state.tracks):
            for name, value in (("front peg", front), ("back peg", back)):
                if value > layout.game:
                    raise p.ProtocolError(
                        "track %d %s %d is past the game hole (%d)"
                        % (track, name, value, layout.game)
                    )
        return state

    # -- output ---------------------------------------------------------------------

    def _host_lost(self, now):
        if self.last_host is None:
            return ticks_diff(now, self.started) > self.layout.host_timeout_ms
        return ticks_diff(now, self.last_host) > self.layout.host_timeout_ms

    def mode(self, now):
        if ticks_diff(now, self.selftest_from) < self.layout.selftest_ms:
            return MODE_SELFTEST
        if self.state is None:
            return MODE_WAITING
        if self._host_lost(now):
            return MODE_HOST_LOST
        return MODE_STATE

    def _animated(self, mode):
        if mode != MODE_STATE:
            return True
        return self.state.alert != p.ALERT_NONE and self.state.alert_mask != 0

    def _show_displays(self):
        scores = self.state.displays if self.state is not None else None
        for display in self.displays:
            display.show(scores if scores is not None else ["waiting"] * 16)

    def render(self):
        now = self.clock()
        mode = self.mode(now)
        due = self._dirty or self._last_render is None
        if not due and self._animated(mode):
            due = ticks_diff(now, self._last_render) >= self.layout.frame_ms
        if not due and mode != self._last_mode:
            due = True
        if not due:
            return
        if self._last_mode == MODE_SELFTEST and mode != MODE_SELFTEST:
            self._show_displays()
        self._last_render = now
        self._last_mode = mode
        self._dirty = False
        words = self.renderer.frame(
            self.state, now, mode=mode, elapsed=ticks_diff(now, self.selftest_from)
        )
        if not self.leds.same(words):
            self.leds.write(words)

    _last_mode = None

    def poll(self):
        """One turn of the main loop: never blocks, never raises on line noise."""
        data = self.transport.read()
        if data:
            for item in self.decoder.feed(data):
                self.handle(item)
        self.render()
        if self.wdt is not None:
            self.wdt.feed()

    def run(self, pause_ms=1):
        self.start()
        while True:
            self.poll()
            sleep_ms(pause_ms)
