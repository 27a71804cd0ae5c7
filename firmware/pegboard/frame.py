# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""Frames on the serial line: COBS-encoded, each ended by one 0x00 byte.

Inside the COBS encoding a frame is::

    version (1) | sequence (1) | type (1) | payload (0-250) | CRC-16 (2, big-endian)

The CRC (:mod:`pegboard.crc`) covers everything before it. The layout of these
header bytes never changes between protocol versions, so either end can always
read which version the other speaks.

>>> wire = encode_frame(1, 7, 0x10, b"")
>>> wire.hex()
'06010710700a00'
>>> decoder = FrameDecoder()
>>> decoder.feed(wire)
[Frame(version=1, seq=7, type=0x10, payload=b'')]
>>> decoder.feed(b"\\x02\\x01\\x00")
[FrameError('frame of 1 bytes is shorter than the 5-byte minimum')]
"""

from pegboard import cobs
from pegboard.compat import const
from pegboard.crc import crc16

HEADER_SIZE = const(3)
CRC_SIZE = const(2)
MIN_FRAME = const(5)
MAX_PAYLOAD = const(250)
#: The longest encoded frame: COBS adds one byte per 254 and one at the start.
MAX_ENCODED = const(258)
DELIMITER = b"\x00"


class FrameError(ValueError):
    """A frame that cannot be trusted: bad COBS, too short or long, a CRC mismatch."""

    def __repr__(self):
        return "FrameError(%r)" % (self.args[0] if self.args else "")


class Frame:
    """One decoded frame: protocol version, sequence number, message type, payload."""

    def __init__(self, version, seq, type, payload=b""):
        self.version = version
        self.seq = seq
        self.type = type
        self.payload = bytes(payload)

    def __eq__(self, other):
        return (
            isinstance(other, Frame)
            and self.version == other.version
            and self.seq == other.seq
            and self.type == other.type
            and self.payload == other.payload
        )

    def __repr__(self):
        return "Frame(version=%d, seq=%d, type=0x%02x, payload=%r)" % (
            self.version,
            self.seq,
            self.type,
            self.payload,
        )


def _byte(value, name):
    if not 0 <= value <= 0xFF:
        raise ValueError("%s %r does not fit in one byte" % (name, value))
    return value


def frame_body(version, seq, type, payload=b""):
    """The frame before COBS: header, payload and CRC."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes exceeds %d" % (len(payload), MAX_PAYLOAD))
    body = bytearray(3 + len(payload) + 2)
    body[0] = _byte(version, "version")
    body[1] = _byte(seq, "sequence number")
    body[2] = _byte(type, "message type")
    body[3 : 3 + len(payload)] = payload
    crc = crc16(memoryview(body)[: 3 + len(payload)])
    body[-2] = crc >> 8
    body[-1] = crc & 0xFF
    return bytes(body)


def encode_frame(version, seq, type, payload=b"", lead=False):
    """The bytes to write: the COBS-encoded frame and its 0x00 delimiter; with
    ``lead``, a 0x00 before it too. Both ends lead every frame so: a stray byte the
    line brought since the last frame is then ended on its own (one bad frame, which
    the receiver drops) instead of spoiling this one. Receivers ignore the empty
    frame two delimiters in a row make, so a sender that leads speaks to one that
    does not."""
    wire = cobs.encode(frame_body(version, seq, type, payload)) + DELIMITER
    return DELIMITER + wire if lead else wire


def decode_body(body):
    """A :class:`Frame` from the bytes between two delimiters; :class:`FrameError` if bad."""
    if len(body) > MAX_ENCODED:
        raise FrameError("frame of %d bytes exceeds %d" % (len(body), MAX_ENCODED))
    try:
        raw = cobs.decode(body)
    except ValueError as exc:
        raise FrameError("bad COBS: %s" % exc) from None
    if len(raw) < MIN_FRAME:
        raise FrameError("frame of %d bytes is shorter than the 5-byte minimum" % len(raw))
    want = (raw[-2] << 8) | raw[-1]
    got = crc16(memoryview(raw)[:-2])
    if want != got:
        raise FrameError("CRC mismatch: frame says 0x%04x, bytes give 0x%04x" % (want, got))
    return Frame(raw[0], raw[1], raw[2], raw[3:-2])


class FrameDecoder:
    """Cuts a byte stream into frames; never raises on what the line brings.

    :meth:`feed` returns, in order, a :class:`Frame` for every good frame and a
    :class:`FrameError` for every bad one. Bytes of an unfinished frame wait for
    the next call; an overlong run without a delimiter is dropped (one error).
    Empty frames (two delimiters in a row) are ignored: a sender may start with
    0x00 to end whatever garbage came before.
    """

    def __init__(self, max_encoded=MAX_ENCODED):
        self._buf = bytearray()
        self._max = max_encoded
        self._overflow = False
        self.good = 0
        self.bad = 0

    def reset(self):
        """Forget a partial frame (after a reconnect)."""
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        out = []
        data = bytes(data)
        start = 0
        size = len(data)
        while start < size:
            end = data.find(DELIMITER, start)
            if end < 0:
                self._take(data[start:], out)
                break
            self._take(data[start:end], out)
            self._finish(out)
            start = end + 1
        return out

    def _take(self, chunk, out):
        if self._overflow:
            return
        if len(self._buf) + len(chunk) > self._max:
            self._overflow = True
            self._buf = bytearray()
            self.bad += 1
            out.append(FrameError("no delimiter within %d bytes: dropped" % self._max))
            return
        self._buf.extend(chunk)

    def _finish(self, out):
        if self._overflow:
            self._overflow = False
            return
        if not self._buf:
            return
        body = self._buf
        self._buf = bytearray()
        try:
            frame = decode_body(body)
        except FrameError as exc:
            self.bad += 1
            out.append(exc)
            return
        self.good += 1
        out.append(frame)
