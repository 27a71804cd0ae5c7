# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""The messages of protocol version 1: their types, payloads and error codes.

Every message travels in a frame (:mod:`pegboard.frame`). The host sends state,
never deltas: a STATE message holds every peg, every digit and every indicator,
so a lost or corrupt frame is healed by the next one. See docs/serial-protocol.md.

>>> s = State(tracks=[(12, 6, 1), (30, 22, 0)], dealer=0, turn=1, displays=[12, None])
>>> encode_state(s).hex()
'0300010000ff020c06011e160002000c8000'
>>> decode_state(encode_state(s)) == s
True
"""

from pegboard.compat import const

PROTOCOL_VERSION = const(1)

# Host -> board.
HELLO = const(0x01)
STATE = const(0x02)
HEARTBEAT = const(0x03)
SELFTEST = const(0x04)
# Board -> host.
HELLO_REPLY = const(0x81)
ACK = const(0x82)
NAK = const(0x83)
ANNOUNCE = const(0x84)

MESSAGE_NAMES = {
    HELLO: "HELLO",
    STATE: "STATE",
    HEARTBEAT: "HEARTBEAT",
    SELFTEST: "SELFTEST",
    HELLO_REPLY: "HELLO_REPLY",
    ACK: "ACK",
    NAK: "NAK",
    ANNOUNCE: "ANNOUNCE",
}

# NAK codes.
NAK_BAD_FRAME = const(1)
NAK_VERSION = const(2)
NAK_UNKNOWN_TYPE = const(3)
NAK_BAD_PAYLOAD = const(4)

NAK_NAMES = {
    NAK_BAD_FRAME: "bad frame",
    NAK_VERSION: "protocol version mismatch",
    NAK_UNKNOWN_TYPE: "unknown message type",
    NAK_BAD_PAYLOAD: "bad payload",
}

# STATE flags.
FLAG_PEGS = const(0x01)
FLAG_INDICATORS = const(0x02)
FLAG_DEFAULT = const(0x03)

# ACK flags.
ACK_HAS_STATE = const(0x01)
ACK_HOST_LOST = const(0x02)

# Alert patterns.
ALERT_NONE = const(0)
ALERT_REVOKE = const(1)
ALERT_DISPUTE = const(2)
ALERT_WIN = const(3)
ALERT_NAMES = ("none", "revoke", "dispute", "win")

NOBODY = const(0xFF)
BLANK = const(-32768)
MAX_TRACKS = const(8)
MAX_DISPLAYS = const(16)


class ProtocolError(ValueError):
    """A payload that does not say what its message type needs."""


class State:
    """What the board shows: pegs, games won, indicators, alert, digits.

    ``tracks``: one ``(front, back, games_won)`` per track (0 is a start hole);
    ``dealer``/``turn``: a track or None; ``alert``: one of ``ALERT_*`` on the
    tracks in ``alert_mask``; ``brightness``: 0-255 of the board's cap;
    ``displays``: one score per seat's display, None for blank.
    """

    def __init__(
        self,
        tracks=(),
        dealer=None,
        turn=None,
        alert=ALERT_NONE,
        alert_mask=0,
        brightness=255,
        displays=(),
        flags=FLAG_DEFAULT,
    ):
        self.tracks = [tuple(t) for t in tracks]
        self.dealer = dealer
        self.turn = turn
        self.alert = alert
        self.alert_mask = alert_mask
        self.brightness = brightness
        self.displays = list(displays)
        self.flags = flags

    def key(self):
        return (
            tuple(self.tracks),
            self.dealer,
            self.turn,
            self.alert,
            self.alert_mask,
            self.brightness,
            tuple(self.displays),
            self.flags,
        )

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return (
            "State(tracks=%r, dealer=%r, turn=%r, alert=%r, alert_mask=%r, "
            "brightness=%r, displays=%r, flags=%r)"
            % (
                self.tracks,
                self.dealer,
                self.turn,
                self.alert,
                self.alert_mask,
                self.brightness,
                self.displays,
                self.flags,
            )
        )


def _seat_byte(value, name):
    if value is None:
        return NOBODY
    if not 0 <= value < MAX_TRACKS:
        raise ProtocolError("%s %r is not a track from 0 to %d" % (name, value, MAX_TRACKS - 1))
    return value


def _u8(value, name):
    if type(value) is not int or not 0 <= value <= 255:
        raise ProtocolError("%s %r is not an integer from 0 to 255" % (name, value))
    return value


def encode_state(state):
    """The STATE payload of ``state``."""
    if len(state.tracks) > MAX_TRACKS:
        raise ProtocolError("%d tracks: at most %d" % (len(state.tracks), MAX_TRACKS))
    if len(state.displays) > MAX_DISPLAYS:
        raise ProtocolError("%d displays: at most %d" % (len(state.displays), MAX_DISPLAYS))
    if state.alert not in (ALERT_NONE, ALERT_REVOKE, ALERT_DISPUTE, ALERT_WIN):
        raise ProtocolError("unknown alert pattern %r" % (state.alert,))
    out = bytearray(
        [
            _u8(state.flags, "flags"),
            _seat_byte(state.dealer, "dealer"),
            _seat_byte(state.turn, "turn"),
            state.alert,
            _u8(state.alert_mask, "alert mask"),
            _u8(state.brightness, "brightness"),
            len(state.tracks),
        ]
    )
    for number, track in enumerate(state.tracks):
        if len(track) != 3:
            raise ProtocolError("track %d: expected (front, back, games won)" % number)
        for value, what in zip(track, ("front peg", "back peg", "games won")):  # noqa: B905
            out.append(_u8(value, "track %d %s" % (number, what)))
    out.append(len(state.displays))
    for number, value in enumerate(state.displays):
        if value is None:
            value = BLANK
        elif type(value) is not int or not -32767 <= value <= 32767:
            raise ProtocolError(
                "display %d: %r is not an integer from -32767 to 32767" % (number, value)
            )
        value &= 0xFFFF
        out.append(value >> 8)
        out.append(value & 0xFF)
    return bytes(out)


def decode_state(payload):
    """A :class:`State` from a STATE payload; :class:`ProtocolError` names what is wrong."""
    size = len(payload)
    if size < 8:
        raise ProtocolError("state payload of %d bytes: at least 8 needed" % size)
    flags, dealer, turn, alert, mask, brightness, ntracks = payload[0:7]
    if ntracks > MAX_TRACKS:
        raise ProtocolError("state with %d tracks: at most %d" % (ntracks, MAX_TRACKS))
    at = 7 + 3 * ntracks
    if size < at + 1:
        raise ProtocolError("state payload of %d bytes cut short in the tracks" % size)
    tracks = [tuple(payload[7 + 3 * i : 10 + 3 * i]) for i in range(ntracks)]
    ndisplays = payload[at]
    at += 1
    if size != at + 2 * ndisplays:
        raise ProtocolError(
            "state payload of %d bytes: %d tracks and %d displays need %d"
            % (size, ntracks, ndisplays, at + 2 * ndisplays)
        )
    if alert > ALERT_WIN:
        raise ProtocolError("unknown alert pattern %d" % alert)
    for name, seat in (("dealer", dealer), ("turn", turn)):
        if seat != NOBODY and seat >= ntracks:
            raise ProtocolError("%s %d is not one of the %d tracks" % (name, seat, ntracks))
    displays = []
    for i in range(ndisplays):
        value = (payload[at + 2 * i] << 8) | payload[at + 2 * i + 1]
        if value >= 0x8000:
            value -= 0x10000
        displays.append(None if value == BLANK else value)
    return State(
        tracks=tracks,
        dealer=None if dealer == NOBODY else dealer,
        turn=None if turn == NOBODY else turn,
        alert=alert,
        alert_mask=mask,
        brightness=brightness,
        displays=displays,
        flags=flags,
    )


class BoardInfo:
    """Who answered: protocol and firmware version, layout fingerprint, LEDs, boot id, id."""

    def __init__(
        self,
        protocol,
        firmware,
        fingerprint,
        led_count,
        tracks,
        displays,
        boot_id,
        uid=b"",
    ):
        self.protocol = protocol
        self.firmware = tuple(firmware)
        self.fingerprint = fingerprint
        self.led_count = led_count
        self.tracks = tracks
        self.displays = displays
        self.boot_id = boot_id
        self.uid = bytes(uid)

    def key(self):
        return (
            self.protocol,
            self.firmware,
            self.fingerprint,
            self.led_count,
            self.tracks,
            self.displays,
            self.boot_id,
            self.uid,
        )

    def __eq__(self, other):
        return isinstance(other, BoardInfo) and self.key() == other.key()

    def __repr__(self):
        return (
            "BoardInfo(protocol=%d, firmware=%r, fingerprint=0x%04x, led_count=%d, "
            "tracks=%d, displays=%d, boot_id=0x%04x, uid=%r)" % self.key()
        )


def encode_info(info):
    """The payload of HELLO_REPLY and ANNOUNCE."""
    uid = info.uid[:16]
    return bytes(
        [
            info.protocol,
            info.firmware[0],
            info.firmware[1],
            info.firmware[2],
            info.fingerprint >> 8,
            info.fingerprint & 0xFF,
            info.led_count >> 8,
            info.led_count & 0xFF,
            info.tracks,
            info.displays,
            info.boot_id >> 8,
            info.boot_id & 0xFF,
            len(uid),
        ]
    ) + bytes(uid)


def decode_info(payload):
    if len(payload) < 13 or len(payload) != 13 + payload[12]:
        raise ProtocolError("board info payload of %d bytes is malformed" % len(payload))
    p = payload
    return BoardInfo(
        protocol=p[0],
        firmware=(p[1], p[2], p[3]),
        fingerprint=(p[4] << 8) | p[5],
        led_count=(p[6] << 8) | p[7],
        tracks=p[8],
        displays=p[9],
        boot_id=(p[10] << 8) | p[11],
        uid=p[13:],
    )


def encode_hello(version=PROTOCOL_VERSION):
    return bytes([version])


def decode_hello(payload):
    if len(payload) != 1:
        raise ProtocolError("HELLO payload of %d bytes: expected 1" % len(payload))
    return payload[0]


def encode_ack(seq, flags, boot_id, bad_frames):
    bad_frames = min(bad_frames, 0xFFFF)
    return bytes([seq, flags, boot_id >> 8, boot_id & 0xFF, bad_frames >> 8, bad_frames & 0xFF])


def decode_ack(payload):
    """``(acked seq, flags, boot id, bad frames the board has seen)``."""
    if len(payload) != 6:
        raise ProtocolError("ACK payload of %d bytes: expected 6" % len(payload))
    p = payload
    return p[0], p[1], (p[2] << 8) | p[3], (p[4] << 8) | p[5]


def encode_nak(seq, code, detail=""):
    text = detail.encode()[:120] if isinstance(detail, str) else bytes(detail)[:120]
    return bytes([seq, code]) + text


def decode_nak(payload):
    """``(seq or None, code, detail text)``."""
    if len(payload) < 2:
        raise ProtocolError("NAK payload of %d bytes: at least 2 needed" % len(payload))
    seq = None if payload[0] == NOBODY else payload[0]
    detail = bytes(payload[2:]).decode("utf-8", "replace") if len(payload) > 2 else ""
    return seq, payload[1], detail
