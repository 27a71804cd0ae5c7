"""The host driver and the emulated board over a pseudo-terminal, through pyserial."""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path

import pytest
import serial
from test_board_support import board_and_link, shows

import controller.board  # noqa: F401 - puts firmware/ on sys.path
from controller.board.emulator import Emulator
from controller.board.errors import BoardRefusedError, BoardTimeoutError, StateError
from controller.board.layouts import load_layout
from controller.board.link import BoardLink
from controller.board.model import BoardState
from rules.cribbage.autoplay import play_game
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules

# isort: split
from pegboard import protocol as p


def test_handshake_then_the_state_is_shown(tmp_path: Path) -> None:
    with board_and_link(tmp_path) as (emulator, link, layout):
        state = BoardState.parse(pegs="12:6,30:22", games="1,0", dealer=0, turn=1, scores="12,30")
        link.set_state(state)
        health = link.wait_synced(2)
        assert health.synced and health.connected
        assert health.board is not None
        assert health.board.fingerprint == layout.fingerprint()
        assert health.board.boot_id == emulator.board.boot_id
        assert health.board.uid == emulator.hardware.uid
        assert health.rtt_ms is not None and health.states_acked == 1
        assert emulator.wait_for(shows(layout, state), 2) is not None
        assert "synced; firmware 1.0.1, protocol 1, layout 0xa5b0" in health.summary()


def test_newest_state_wins(tmp_path: Path) -> None:
    with board_and_link(tmp_path) as (emulator, link, layout):
        link.set_state(BoardState.parse(pegs="0:0,0:0"))
        link.wait_synced(2)
        for score in range(1, 61):
            link.set_state(BoardState.parse(pegs=f"{score}:{score - 1},0:0"))
        last = BoardState.parse(pegs="60:59,0:0")
        link.wait_synced(2)
        assert emulator.wait_for(shows(layout, last), 2) is not None
        health = link.health()
        # Coalesced: fewer frames than states set, and the last one arrived.
        assert health.states_acked <= health.states_sent <= 61
        assert emulator.board.state == last.to_wire(layout)


def test_heartbeats_keep_the_board_from_saying_it_lost_the_host(tmp_path: Path) -> None:
    with board_and_link(tmp_path, heartbeat=0.05) as (emulator, link, _layout):
        link.set_state(BoardState.parse(pegs="3:0,5:0"))
        link.wait_synced(2)
        time.sleep(0.4)
        assert link.health().frames_sent >= 5
        assert emulator.board.last_host is not None
        assert link.health().synced


def test_a_state_the_layout_cannot_show_is_refused_before_sending(tmp_path: Path) -> None:
    with board_and_link(tmp_path) as (emulator, link, layout):
        good = BoardState.parse(pegs="12:6,30:22")
        link.set_state(good)
        link.wait_synced(2)
        with pytest.raises(StateError, match="front peg 62 is past the game hole"):
            link.set_state(BoardState.parse(pegs="62:6,30:22"))
        with pytest.raises(StateError, match="dealer 2 is not a track"):
            link.set_state(BoardState(pegs=((1, 0), (0, 0)), dealer=2))
        assert link.wait_synced(1).synced
        assert emulator.wait_for(shows(layout, good), 1) is not None


def test_a_state_the_board_itself_cannot_show_is_no_synced_board(tmp_path: Path) -> None:
    # a board that answered a state with NAK "bad payload" (its own check stricter
    # than the host's: other firmware) was "synced" to `kiebitz board show`, status
    # 0, with nothing shown (a bus sweep's find)
    with board_and_link(tmp_path) as (emulator, link, layout):
        check = emulator.board._check
        refused = BoardState.parse(pegs="40:6,30:22").to_wire(layout)

        def stricter(state: p.State) -> p.State:
            if state == refused:
                raise p.ProtocolError("track 0 front peg 40 is past this board's 39")
            return check(state)

        emulator.board._check = stricter
        link.set_state(BoardState.parse(pegs="40:6,30:22"))
        with pytest.raises(BoardRefusedError, match="cannot show this state: board NAK: bad"):
            link.wait_synced(2)
        assert link.health().connected  # a state refused, not the board
        good = BoardState.parse(pegs="12:6,30:22")
        link.set_state(good)
        assert link.wait_synced(2).synced
        assert emulator.wait_for(shows(layout, good), 2) is not None


def test_a_board_with_another_protocol_version_is_refused(tmp_path: Path) -> None:
    layout = load_layout("two-player-61")
    with Emulator(layout) as emulator:
        real = emulator.board.info

        def other_version() -> p.BoardInfo:
            info = real()
            info.protocol = 2
            return info

        emulator.board.info = other_version
        with BoardLink(emulator.port, layout) as link:
            link.set_state(BoardState.parse(pegs="5:0"))
            with pytest.raises(BoardRefusedError, match="the board speaks protocol 2, this host 1"):
                link.wait_synced(2)
            assert link.health().status == "refused"
            assert emulator.board.state is None  # nothing was sent to it


def test_a_board_flashed_with_another_layout_is_refused(tmp_path: Path) -> None:
    with (
        Emulator(load_layout("two-player-121")) as emulator,
        BoardLink(emulator.port, load_layout("two-player-61")) as link,
        pytest.raises(BoardRefusedError, match=r"is not 'two-player-61' \(0xa5b0, 148 LEDs\)"),
    ):
        link.wait_synced(2)


def test_no_board_on_the_line_is_reported_not_raised() -> None:
    layout = load_layout("two-player-61")
    with BoardLink("loop://", layout, answer_timeout=0.2) as link:
        link.set_state(BoardState.parse(pegs="5:0"))
        with pytest.raises(BoardTimeoutError, match="did not show the state"):
            link.wait_synced(0.5)
        health = link.health()
        assert health.status == "handshake"
        # loop:// echoes our own HELLO: a frame of ours is no answer.
        assert "unexpected message type 0x01" in (health.last_error or "") or "no answer" in (
            health.last_error or ""
        )


def test_a_port_that_cannot_be_opened_is_retried(tmp_path: Path) -> None:
    layout = load_layout("two-player-61")
    with BoardLink(str(tmp_path / "nothing"), layout) as link:
        time.sleep(0.3)
        health = link.health()
        assert health.status == "opening"
        assert "cannot open" in (health.last_error or "")


def test_spy_url_writes_a_hex_dump(tmp_path: Path) -> None:
    layout = load_layout("two-player-61")
    dump = tmp_path / "dump.txt"
    with (
        Emulator(layout) as emulator,
        BoardLink(f"spy://{emulator.port}?file={dump}", layout) as link,
    ):
        link.set_state(BoardState.parse(pegs="5:0"))
        link.wait_synced(2)
    text = dump.read_text()
    assert "TX" in text and "RX" in text


def test_socket_url_through_a_tcp_bridge(tmp_path: Path) -> None:
    """ser2net-style: the board's port served over TCP, the host opens socket://."""
    layout = load_layout("two-player-61")
    with Emulator(layout) as emulator:
        server = socket.create_server(("127.0.0.1", 0))
        port = server.getsockname()[1]
        stop = threading.Event()

        def bridge() -> None:
            conn, _ = server.accept()
            tty = serial.serial_for_url(emulator.port, timeout=0.01)
            conn.settimeout(0.01)
            while not stop.is_set():
                data = tty.read(tty.in_waiting or 1)
                if data:
                    conn.sendall(data)
                try:
                    got = conn.recv(4096)
                except TimeoutError:
                    continue
                if not got:
                    break
                tty.write(got)
            tty.close()
            conn.close()

        thread = threading.Thread(target=bridge, daemon=True)
        thread.start()
        try:
            with BoardLink(f"socket://127.0.0.1:{port}", layout) as link:
                state = BoardState.parse(pegs="7:3,9:1", scores="7,9")
                link.set_state(state)
                link.wait_synced(3)
                assert emulator.wait_for(shows(layout, state), 2) is not None
        finally:
            stop.set()
            thread.join(2)
            server.close()


def test_a_cribbage_game_drives_the_board(tmp_path: Path) -> None:
    with board_and_link(tmp_path, name="two-player-121") as (emulator, link, layout):
        game = CribbageGame(CribbageRules(variant="six-card", game_to=121))
        shown = 0
        for _event, outcome in play_game(game, random.Random(7)):
            if not outcome.pegged:
                continue
            state = BoardState.from_cribbage(game.summary())
            link.set_state(state)
            shown += 1
            if shown >= 15:
                break
        link.wait_synced(2)
        summary = game.summary()
        assert emulator.wait_for(shows(layout, state), 2) is not None
        for track, pegs in enumerate(summary["pegs"]):
            assert emulator.board.state.tracks[track][:2] == (pegs["front"], pegs["back"])
