# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""The firmware's main loop with fake hardware under MicroPython."""

from pegboard import frame
from pegboard import protocol as p
from pegboard.layout import Layout, example
from pegboard_emu.board import make_board


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Wire:
    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self):
        data = self.inbox
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.sent += data


def test_state_shown_and_acked():
    now = [0]
    data = example(game=121, tracks=3)
    data["displays"] = [
        {"kind": "max7219", "spi": 0, "sck": 18, "mosi": 19, "cs": 17, "seats": [0, 1, 2]}
    ]
    layout = Layout(data)
    wire = Wire()
    board, hw = make_board(layout, wire, clock=lambda: now[0], boot_id=7)
    board.start()
    now[0] = 1000
    state = p.State(tracks=[(5, 0, 0), (0, 0, 0), (121, 100, 3)], displays=[-1200, 3, None])
    wire.inbox += frame.encode_frame(1, 3, p.STATE, p.encode_state(state))
    board.poll()
    check(hw.display_texts() == {0: "   -1200", 1: "       3", 2: "        "}, hw.display_texts())
    lit = [i for i, w in enumerate(hw.led_words()) if w]
    check(layout.peg_led(0, 5) in lit and layout.peg_led(2, 121) in lit, "pegs lit %r" % lit)
    kinds = [f.type for f in frame.FrameDecoder().feed(wire.sent)]
    check(kinds == [p.ANNOUNCE, p.ACK], "replies %r" % kinds)
    check(hw.wdt.feeds >= 1, "watchdog fed")


def test_garbage_then_state():
    now = [1000]
    layout = Layout(example(game=61))
    wire = Wire()
    board, _hw = make_board(layout, wire, clock=lambda: now[0])
    board.start()
    now[0] += 1000
    wire.inbox += b"\x03\x03\x01\xff\x00\x07garbage\x00"
    wire.inbox += frame.encode_frame(
        1, 3, p.STATE, p.encode_state(p.State(tracks=[(3, 0, 0), (0, 0, 0)]))
    )
    board.poll()
    check(board.state is not None and board.state.tracks[0] == (3, 0, 0), "state %r" % board.state)
    check(board.bad_frames == 2, "bad frames %d" % board.bad_frames)
