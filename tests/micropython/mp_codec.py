# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""CRC, COBS, frames and messages under MicroPython."""

from pegboard import cobs, frame
from pegboard import protocol as p
from pegboard.crc import crc16


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_crc_known_answer():
    check(crc16(b"123456789") == 0x29B1, "CRC-16/CCITT-FALSE check value")
    check(crc16(b"") == 0xFFFF, "empty")


def test_cobs_vectors():
    vectors = [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ]
    for raw, encoded in vectors:
        check(cobs.encode(raw) == encoded, "encode %r" % raw)
        check(cobs.decode(encoded) == raw, "decode %r" % encoded)


def test_frame_round_trip_and_errors():
    wire = frame.encode_frame(1, 3, p.STATE, b"\x03\x00\x03")
    check(wire[-1] == 0 and 0 not in wire[:-1], "one delimiter at the end")
    decoder = frame.FrameDecoder()
    out = decoder.feed(wire[:4]) + decoder.feed(wire[4:])
    check(out == [frame.Frame(1, 3, p.STATE, b"\x03\x00\x03")], "split feed: %r" % out)
    bad = bytearray(wire)
    bad[2] ^= 0x40
    out = decoder.feed(bytes(bad))
    check(len(out) == 1 and isinstance(out[0], frame.FrameError), "corrupt: %r" % out)
    out = decoder.feed(b"\x05" * 400 + b"\x00" + wire)
    check(isinstance(out[0], frame.FrameError) and out[-1].seq == 3, "overlong: %r" % out)


def test_state_round_trip():
    state = p.State(
        tracks=[(121, 119, 9), (0, 0, 0), (3, 3, 3)],
        dealer=2,
        turn=0,
        alert=p.ALERT_DISPUTE,
        alert_mask=5,
        brightness=3,
        displays=[-1200, 32767, None, -32767],
    )
    check(p.decode_state(p.encode_state(state)) == state, "state round trip")
    for payload in (b"", b"\x03\x00", p.encode_state(state)[:-1]):
        try:
            p.decode_state(payload)
        except p.ProtocolError:
            pass
        else:
            raise AssertionError("no error for %r" % payload)


def test_info_ack_nak():
    info = p.BoardInfo(1, (1, 0, 0), 0xA5B0, 148, 2, 2, 0x1234, b"\x01\x02")
    check(p.decode_info(p.encode_info(info)) == info, "info")
    check(p.decode_ack(p.encode_ack(7, 1, 0xBEEF, 3)) == (7, 1, 0xBEEF, 3), "ack")
    check(p.decode_nak(p.encode_nak(0xFF, 1, "bad"))[0] is None, "nak")


def test_random_bytes_never_raise():
    import os

    decoder = frame.FrameDecoder()
    for _ in range(200):
        for item in decoder.feed(os.urandom(64)):
            check(isinstance(item, (frame.Frame, frame.FrameError)), "item %r" % item)
