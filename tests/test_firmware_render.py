"""The firmware's main loop, renderer and drivers on CPython with fake pins, PIO and chips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import controller.board  # noqa: F401 - puts firmware/ on sys.path
from controller.board.layouts import load_layout

# isort: split
from pegboard import frame as fr
from pegboard import protocol as p
from pegboard.render import MODE_HOST_LOST, MODE_STATE, Renderer, breath, worst_case_ma
from pegboard_emu.board import make_board


class Wire:
    def __init__(self) -> None:
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self) -> bytearray:
        data, self.inbox = self.inbox, bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def replies(self) -> list[Any]:
        out, self.sent = fr.FrameDecoder().feed(self.sent), bytearray()
        return out


class Rig:
    def __init__(self, name: str = "two-player-61") -> None:
        self.now = 0
        self.layout = load_layout(name)
        self.wire = Wire()
        self.board, self.hw = make_board(
            self.layout, self.wire, clock=lambda: self.now, boot_id=0xB007
        )
        self.board.start()
        self.seq = 0

    def send(self, kind: int, payload: bytes = b"", version: int = 1) -> None:
        self.seq += 1
        self.wire.inbox += fr.encode_frame(version, self.seq, kind, payload)

    def state(self, state: p.State) -> None:
        self.send(p.STATE, p.encode_state(state))

    def at(self, ms: int) -> None:
        self.now = ms
        self.board.poll()

    def lit(self) -> set[int]:
        return {i for i, w in enumerate(self.hw.led_words()) if w}


def test_boot_self_test_then_waiting_then_state() -> None:
    rig = Rig()
    (announce,) = rig.wire.replies()
    assert announce.type == p.ANNOUNCE
    info = p.decode_info(announce.payload)
    assert (info.boot_id, info.fingerprint, info.led_count) == (
        0xB007,
        rig.layout.fingerprint(),
        148,
    )
    assert rig.hw.display_texts() == {0: "8888", 1: "8888"}
    rig.at(200)  # half-way through the self-test: half of each track's chain is lit
    assert len(rig.lit()) == 2 * (200 * 74 // 400 + 1)
    rig.at(450)  # waiting for a host: the start holes breathe, the displays show dashes
    assert rig.lit() == {0, 1, 74, 75}
    assert rig.hw.display_texts() == {0: "----", 1: "----"}
    rig.state(p.State(tracks=[(12, 6, 1), (30, 22, 0)], dealer=0, turn=1, displays=[12, 30]))
    rig.at(460)
    layout = rig.layout
    assert rig.lit() == {
        layout.peg_led(0, 12),
        layout.peg_led(0, 6),
        layout.won_led(0, 1),
        layout.deal_led(0),
        layout.peg_led(1, 30),
        layout.peg_led(1, 22),
        layout.turn_led(1),
    }
    assert rig.hw.display_texts() == {0: "  12", 1: "  30"}
    (ack,) = rig.wire.replies()
    assert ack.type == p.ACK and p.decode_ack(ack.payload) == (rig.seq, p.ACK_HAS_STATE, 0xB007, 0)


def test_front_peg_bright_back_peg_dim_in_the_players_colour() -> None:
    rig = Rig()
    rig.state(p.State(tracks=[(12, 6, 0), (0, 0, 0)]))
    rig.at(1000)
    words = rig.hw.led_words()
    front, back = words[rig.layout.peg_led(0, 12)], words[rig.layout.peg_led(0, 6)]
    r, g, b = (front >> 8) & 0xFF, front >> 16, front & 0xFF
    # '#ff2000' at the 25 % cap.
    assert (r, g, b) == (63, 8, 0)
    # The back peg at 30 % of that.
    assert ((back >> 8) & 0xFF, back >> 16, back & 0xFF) == (19, 2, 0)


def test_score_zero_uses_the_start_holes_and_the_game_the_game_hole() -> None:
    rig = Rig()
    rig.state(p.State(tracks=[(61, 58, 2), (0, 0, 0)]))
    rig.at(1000)
    assert rig.layout.led_kind(rig.layout.peg_led(0, 61)) == (0, "game", 0)
    assert rig.layout.peg_led(0, 61) in rig.lit()
    assert {rig.layout.peg_led(1, 0), rig.layout.back_start_led(1)} <= rig.lit()


def test_alerts_flash() -> None:
    rig = Rig()
    layout = rig.layout
    rig.state(p.State(tracks=[(20, 11, 0), (5, 0, 0)], alert=p.ALERT_DISPUTE, alert_mask=1))
    rig.at(1000)  # blink on: the holes of the last count, between back and front, light amber
    between = {layout.peg_led(0, s) for s in range(12, 20)}
    assert between <= rig.lit()
    rig.at(1250)  # blink off
    assert not between & rig.lit()
    rig.state(p.State(tracks=[(20, 11, 0), (5, 0, 0)], alert=p.ALERT_REVOKE, alert_mask=2))
    rig.at(1500)
    assert {layout.peg_led(1, s) for s in range(1, 62)} <= rig.lit()
    assert not between & rig.lit()


def test_host_lost_breathes_the_last_state_and_a_frame_ends_it() -> None:
    rig = Rig()
    rig.state(p.State(tracks=[(12, 6, 0), (3, 0, 0)]))
    rig.at(1000)
    shown = rig.lit()
    bright = rig.hw.led_words()[rig.layout.peg_led(0, 12)]
    assert rig.board.mode(1000) == MODE_STATE
    rig.at(1000 + 5001 + 1000)  # five seconds without a frame, one second into a breath
    assert rig.board.mode(rig.now) == MODE_HOST_LOST
    assert rig.lit() == shown  # still the last state ...
    assert rig.hw.led_words()[rig.layout.peg_led(0, 12)] != bright  # ... but breathing
    rig.send(p.HEARTBEAT)
    rig.at(rig.now + 1)
    (ack,) = rig.wire.replies()[-1:]
    assert p.decode_ack(ack.payload)[1] == p.ACK_HAS_STATE
    assert rig.board.mode(rig.now) == MODE_STATE
    assert rig.hw.led_words()[rig.layout.peg_led(0, 12)] == bright


def test_bad_input_is_refused_with_a_clear_nak_and_nothing_accepted_is_lost() -> None:
    rig = Rig()
    good = p.State(tracks=[(12, 6, 0), (3, 0, 0)])
    rig.state(good)
    rig.at(1000)
    rig.wire.replies()
    rig.state(p.State(tracks=[(70, 6, 0), (3, 0, 0)]))
    rig.at(1100)
    rig.state(p.State(tracks=[(1, 0, 0)] * 3))
    rig.at(1200)
    rig.send(0x42)
    rig.at(1300)
    rig.send(p.STATE, p.encode_state(good), version=2)
    rig.at(1400)
    naks = [p.decode_nak(f.payload) for f in rig.wire.replies()]
    assert [(code, detail) for _, code, detail in naks] == [
        (p.NAK_BAD_PAYLOAD, "track 0 front peg 70 is past the game hole (61)"),
        (p.NAK_BAD_PAYLOAD, "state has 3 tracks, the board has 2"),
        (p.NAK_UNKNOWN_TYPE, "unknown message type 0x42"),
        (p.NAK_VERSION, "board speaks protocol 1, frame is 2"),
    ]
    assert rig.board.state == good


def test_hello_is_answered_in_any_version() -> None:
    rig = Rig()
    rig.wire.replies()
    rig.send(p.HELLO, p.encode_hello(7), version=7)
    rig.at(500)
    (reply,) = rig.wire.replies()
    assert reply.type == p.HELLO_REPLY and p.decode_info(reply.payload).protocol == 1


def test_watchdog_is_fed_every_turn() -> None:
    rig = Rig()
    for ms in range(0, 3000, 10):
        rig.at(ms)
    wdt = rig.hw.machine.watchdogs[0]
    assert wdt.timeout == 5000
    assert wdt.feeds >= 300 and not wdt.starved()


def test_max7219_shows_negative_four_digit_skat_scores() -> None:
    rig = Rig("three-player-61")
    rig.state(p.State(tracks=[(0, 0, 0)] * 3, displays=[-1200, 38, None, 2340]))
    rig.at(1000)
    assert rig.hw.display_texts() == {0: "   -1200", 1: "      38", 2: "        ", 3: "    2340"}
    ((_, chip),) = rig.hw.chips
    assert chip.registers[0] == {0x0C: 1, 0x0F: 0, 0x0B: 7, 0x09: 0xFF, 0x0A: 6}


def test_tm1637_overflow_shows_dashes_with_points() -> None:
    rig = Rig()
    rig.state(p.State(tracks=[(0, 0, 0)] * 2, displays=[-1200, 9999]))
    rig.at(1000)
    assert rig.hw.display_texts() == {0: "----", 1: "9999"}
    (_, chip) = rig.hw.chips[0]
    assert all(byte & 0x80 for byte in chip.memory[:4])
    assert chip.on and chip.brightness == 4


def test_current_limiter_caps_every_frame() -> None:
    layout = load_layout("three-player-121")
    renderer = Renderer(layout)
    assert worst_case_ma(layout) > layout.max_ma
    state = p.State(tracks=[(120, 1, 9)] * 3, alert=p.ALERT_REVOKE, alert_mask=7, dealer=0, turn=1)
    for now in range(0, 1000, 125):
        renderer.frame(state, now)
        assert renderer.estimated_ma <= layout.max_ma


def test_breath_stays_between_20_and_100() -> None:
    values = [breath(t) for t in range(0, 8000, 5)]
    assert min(values) == 20 and max(values) == 100


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=64), max_size=10))
def test_firmware_survives_any_bytes(chunks: list[bytes]) -> None:
    rig = Rig()
    for i, chunk in enumerate(chunks):
        rig.wire.inbox += chunk
        rig.at(500 + 10 * i)
    rig.state(p.State(tracks=[(4, 2, 0), (0, 0, 0)]))
    rig.wire.inbox[:0] = b"\x00"  # a host always starts with a delimiter after garbage
    rig.at(2000)
    assert rig.board.state.tracks[0] == (4, 2, 0)


@pytest.mark.parametrize("kind", [p.STATE, p.HELLO, p.HEARTBEAT, p.SELFTEST, 0x00, 0x99])
@settings(max_examples=50, deadline=None)
@given(payload=st.binary(max_size=40))
def test_firmware_survives_any_payload(kind: int, payload: bytes) -> None:
    rig = Rig()
    rig.send(kind, payload)
    rig.at(500)
    assert all(isinstance(f, fr.Frame) for f in rig.wire.replies())
