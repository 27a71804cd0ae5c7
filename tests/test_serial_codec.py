"""The serial protocol's pure codec: CRC-16, COBS, frames, messages; fuzzed with hypothesis."""

from __future__ import annotations

import binascii
import contextlib
import doctest
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import controller.board  # noqa: F401 - puts firmware/ on sys.path

# isort: split
from pegboard import app, cobs, crc, digits, frame, layout, protocol, render
from pegboard import protocol as p
from pegboard.frame import Frame, FrameDecoder, FrameError, decode_body, encode_frame

DOC = Path(__file__).resolve().parents[1] / "docs" / "serial-protocol.md"


@pytest.mark.parametrize("module", [app, cobs, crc, digits, frame, layout, protocol, render])
def test_firmware_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert failures == 0 and tried > 0


@given(st.binary(max_size=600))
def test_crc_equals_binascii_crc_hqx(data: bytes) -> None:
    assert crc.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs.encode(data)
    assert b"\x00" not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs.decode(encoded) == data


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    # The vectors of Cheshire & Baker's paper as Wikipedia lists them.
    assert cobs.encode(raw) == encoded
    assert cobs.decode(encoded) == raw


@given(
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 255),
    st.binary(max_size=frame.MAX_PAYLOAD),
)
def test_frame_round_trip(version: int, seq: int, kind: int, payload: bytes) -> None:
    wire = encode_frame(version, seq, kind, payload)
    assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
    assert len(wire) - 1 <= frame.MAX_ENCODED
    assert FrameDecoder().feed(wire) == [Frame(version, seq, kind, payload)]


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_decoder_never_raises_on_random_bytes(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    for chunk in chunks:
        for item in decoder.feed(chunk):
            assert isinstance(item, Frame | FrameError)


@settings(max_examples=300)
@given(st.binary(min_size=1, max_size=40), st.integers(0, 39), st.integers(1, 255))
def test_any_single_corrupt_byte_is_caught_or_harmless(payload: bytes, at: int, flip: int) -> None:
    """A flipped byte never yields a different frame that passes the CRC (for these sizes)."""
    wire = bytearray(encode_frame(1, 9, p.STATE, payload))
    at %= len(wire) - 1
    wire[at] ^= flip
    for item in FrameDecoder().feed(bytes(wire) + encode_frame(1, 10, p.HEARTBEAT)):
        if isinstance(item, Frame):
            assert item in (Frame(1, 9, p.STATE, payload), Frame(1, 10, p.HEARTBEAT))


def test_decoder_reassembles_split_frames_and_reports_errors() -> None:
    wire = encode_frame(1, 1, p.HEARTBEAT) + encode_frame(1, 2, p.STATE, b"\x00\x03")
    decoder = FrameDecoder()
    items = []
    for i in range(len(wire)):
        items += decoder.feed(wire[i : i + 1])
    assert items == [Frame(1, 1, p.HEARTBEAT), Frame(1, 2, p.STATE, b"\x00\x03")]
    assert decoder.feed(b"\x00\x00\x00") == []  # idle delimiters
    (error,) = decoder.feed(b"\x09\x01\x02\x00")
    assert isinstance(error, FrameError) and "runs past the end" in str(error)
    (error,) = decoder.feed(b"\x01" * (frame.MAX_ENCODED + 1))
    assert "no delimiter" in str(error)
    # The rest of the long run up to its delimiter is dropped; then frames flow again.
    assert decoder.feed(b"\x01\x01\x00" + wire[:-1]) == [Frame(1, 1, p.HEARTBEAT)]
    assert decoder.feed(b"\x00") == [Frame(1, 2, p.STATE, b"\x00\x03")]
    assert decoder.bad == 2


def test_decode_body_names_the_problem() -> None:
    body = bytearray(encode_frame(1, 1, p.HELLO, b"\x01")[:-1])
    body[-1] ^= 1
    with pytest.raises(FrameError, match="CRC mismatch"):
        decode_body(bytes(body))
    with pytest.raises(FrameError, match="shorter than the 5-byte minimum"):
        decode_body(cobs.encode(b"\x01\x02"))
    with pytest.raises(ValueError, match="exceeds 250"):
        encode_frame(1, 1, p.STATE, bytes(251))


states = st.builds(
    lambda tracks, dealer, turn, alert, mask, brightness, displays, flags: p.State(
        tracks=tracks,
        dealer=None if dealer is None else dealer % len(tracks) if tracks else None,
        turn=None if turn is None else turn % len(tracks) if tracks else None,
        alert=alert,
        alert_mask=mask,
        brightness=brightness,
        displays=displays,
        flags=flags,
    ),
    st.lists(st.tuples(*[st.integers(0, 255)] * 3), max_size=p.MAX_TRACKS),
    st.none() | st.integers(0, 7),
    st.none() | st.integers(0, 7),
    st.integers(0, 3),
    st.integers(0, 255),
    st.integers(0, 255),
    st.lists(st.none() | st.integers(-32767, 32767), max_size=p.MAX_DISPLAYS),
    st.integers(0, 255),
)


@given(states)
def test_state_round_trip(state: p.State) -> None:
    assert p.decode_state(p.encode_state(state)) == state


@settings(max_examples=500)
@given(st.binary(max_size=80))
def test_state_decoder_raises_only_protocol_errors(payload: bytes) -> None:
    with contextlib.suppress(p.ProtocolError):
        p.decode_state(payload)


@given(st.binary(max_size=40))
def test_other_decoders_raise_only_protocol_errors(payload: bytes) -> None:
    for decode in (p.decode_info, p.decode_ack, p.decode_nak, p.decode_hello):
        with contextlib.suppress(p.ProtocolError):
            decode(payload)


def test_encode_state_names_what_does_not_fit() -> None:
    with pytest.raises(p.ProtocolError, match="track 1 front peg 300"):
        p.encode_state(p.State(tracks=[(1, 1, 1), (300, 0, 0)]))
    with pytest.raises(p.ProtocolError, match="display 0: 40000"):
        p.encode_state(p.State(displays=[40000]))
    with pytest.raises(p.ProtocolError, match="dealer 9"):
        p.encode_state(p.State(dealer=9))


_EXAMPLE = re.compile(
    r"frame: +version (\d+), seq (\d+), type 0x([0-9a-f]{2}) \w+, payload ([0-9a-f ]*?)\n"
    r"body: +([0-9a-f ]+)\n"
    r"wire: +([0-9a-f ]+)\n"
)


def test_the_documents_byte_level_examples_are_right() -> None:
    text = DOC.read_text(encoding="utf-8")
    examples = _EXAMPLE.findall(text)
    assert len(examples) >= 6
    for version, seq, kind, payload, body, wire in examples:
        raw = bytes.fromhex(payload.replace(" ", ""))
        args = (int(version), int(seq), int(kind, 16), raw)
        assert frame.frame_body(*args).hex(" ") == body.strip()
        assert encode_frame(*args).hex(" ") == wire.strip()
