"""The table service: observations out, the referee's state onto the peg board and the panel.

Real parts where they matter: a private Mosquitto, the emulated peg board running
the firmware's own code, gpiozero's MockFactory, a rendered table video. The
in-process MemoryBus elsewhere (its delivery is synchronous). Waits poll with a
bound that only stops a hung test; nothing asserts how fast anything was.
"""

from __future__ import annotations

import io
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.board.emulator import Emulator, Snapshot
from controller.board.layouts import load_layout as load_board_layout
from controller.board.link import BoardLink
from controller.board.model import BoardState
from controller.bus.broker import Mosquitto
from controller.bus.bus import MemoryBroker, MemoryBus, open_bus
from controller.bus.envelope import Envelope, Stamper, decode, encode
from controller.bus.topics import status_topic, topic
from controller.cli import main
from controller.table.board_view import board_state
from controller.table.observations import observation_body, read_observation_lines
from controller.table.service import TableService, status_will
from vision.geometry import render_marker_sheet
from vision.layout import load_layout
from vision.model import DEFAULT_MODEL
from vision.recognize import Recognizer
from vision.sources import ImageFolderSource, open_source
from vision.tracker import Observation
from vision.watch import TableWatcher

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "config" / "tables" / "cribbage-2.toml"
WAIT_S = 15.0  # a bound for a loaded machine, not a measurement

OBS = "kiebitz/v1/t1/table/observation"
CMD = "kiebitz/v1/t1/table/command"
EVT = "kiebitz/v1/t1/table/event"  # the table's own errors: it writes no game topic
STATE = "kiebitz/v1/t1/game/state"


def eventually(predicate: Callable[[], object], what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Listener:
    """Decoded bodies per topic, from a bus that subscribes to the whole table."""

    def __init__(self, bus: Any) -> None:
        self.bus = bus
        self.got: list[tuple[str, Envelope]] = []
        self._lock = threading.Lock()
        bus.subscribe("kiebitz/v1/t1/#", self._take)

    def _take(self, topic_: str, payload: bytes) -> None:
        env = decode(payload)
        with self._lock:
            self.got.append((topic_, env))

    def bodies(self, topic_: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(env.body) for t, env in self.got if t == topic_]


def referee_state(bus: Any, body: dict[str, Any], seq: int = 1) -> None:
    """Publish ``body`` as the referee's retained state."""
    env = Stamper("t1/referee", start_seq=seq).stamp("state", body)
    bus.publish(STATE, encode(env), retain=True)


def cribbage_state(**changes: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "game": "cribbage",
        "phase": "play",
        "turn": 0,
        "dealer": 1,
        "events": 9,
        "scores": [14, 9],
        "score_by": "seat",
        "pegs": [{"front": 14, "back": 8}, {"front": 9, "back": 5}],
        "games_won": [1, 0],
        "count": 12,
        "verdicts": [],
        "alerts": [],
        "table": "t1",
    }
    state.update(changes)
    return state


@pytest.fixture
def broker() -> MemoryBroker:
    return MemoryBroker()


@pytest.fixture
def listener(broker: MemoryBroker) -> Listener:
    bus = MemoryBus(broker, "listener")
    bus.start()
    return Listener(bus)


@pytest.fixture
def services() -> Iterator[list[TableService]]:
    made: list[TableService] = []
    yield made
    for service in made:
        service.close()


@pytest.fixture
def board() -> Iterator[tuple[Emulator, Any]]:
    layout = load_board_layout("two-player-121")
    emulator = Emulator(layout).start()
    try:
        yield emulator, layout
    finally:
        emulator.close()


# -- observations -------------------------------------------------------------------

WATCH_LINES = [
    {"status": "calibrated", "error_mm": 0.41},
    {
        "kind": "placed",
        "card": "10H",
        "zone": "play.0",
        "from_zone": None,
        "t": 4.2,
        "since": 3.8,
        "frames": 5,
        "confidence": 0.97,
        "position_mm": [412.0, 260.5],
    },
    {"t": 4.4, "reading": {"card": "QS", "flags": ["doubtful"]}},
    {"warning": "frame 12: markers not found"},
    {
        "kind": "moved",
        "card": "10H",
        "zone": "crib",
        "from_zone": "play.0",
        "t": 9.0,
        "since": 8.5,
        "frames": 7,
        "confidence": 0.9,
        "position_mm": [600.0, 450.0],
    },
    {"error": "cannot read image x.png"},
    {
        "kind": "removed",
        "card": "10H",
        "zone": None,
        "from_zone": "crib",
        "t": 20.0,
        "since": 19.0,
        "frames": 3,
        "confidence": 0.8,
        "position_mm": [600.0, 450.0],
    },
]

WATCH_BODIES = [
    {
        "kind": "placed",
        "card": "10H",
        "zone": "play.0",
        "zone_kind": "play",
        "seat": 0,
        "from_zone": None,
        "t": 4.2,
        "confidence": 0.97,
        "frames": 5,
        "position_mm": [412.0, 260.5],
    },
    {
        "kind": "moved",
        "card": "10H",
        "zone": "crib",
        "zone_kind": "crib",
        "seat": None,
        "from_zone": "play.0",
        "t": 9.0,
        "confidence": 0.9,
        "frames": 7,
        "position_mm": [600.0, 450.0],
    },
    {
        "kind": "removed",
        "card": "10H",
        "zone": None,
        "zone_kind": None,
        "seat": None,
        "from_zone": "crib",
        "t": 20.0,
        "confidence": 0.8,
        "frames": 3,
        "position_mm": [600.0, 450.0],
    },
]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_recorded_observations_reach_a_real_broker_with_their_bodies(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    layout = load_layout(TABLE)
    bodies = read_observation_lines(
        write_lines(tmp_path / "game.jsonl", WATCH_LINES), layout=layout
    )
    watcher_bus = open_bus(mosquitto.url, "listener")
    listener = Listener(watcher_bus)
    watcher_bus.start()
    eventually(lambda: watcher_bus.health().subscriptions >= 1, "the listener's subscription")
    stamper = Stamper("t1/table")
    bus = open_bus(mosquitto.url, "t1-table", will=status_will("t1", stamper))
    service = TableService("t1", bus, observations=bodies, layout=layout, stamper=stamper)
    try:
        service.run()
        assert service.flush(timeout=WAIT_S), bus.health()
        eventually(lambda: len(listener.bodies(OBS)) == 3, "three observations")
        assert listener.bodies(OBS) == WATCH_BODIES
        assert [s["state"] for s in listener.bodies(status_topic("t1", "table"))] == ["online"]
        assert service.health()["observations"] == 3
    finally:
        service.close()
    eventually(
        lambda: (
            [s["state"] for s in listener.bodies(status_topic("t1", "table"))][-1:] == ["offline"]
        ),
        "the offline status",
    )
    watcher_bus.close()


def test_observation_bodies_take_zone_kind_and_seat_from_the_layout() -> None:
    layout = load_layout(TABLE)
    placed = Observation("placed", "QH", "play.1", None, 2.0, 1.5, 4, 0.95, 450.0, 640.0)
    removed = Observation("removed", "QH", "play.1", "play.1", 7.0, 6.0, 2, 0.9, 450.0, 640.0)
    elsewhere = Observation("placed", "2C", "nowhere", None, 1.0, 0.5, 1, 1.2, 5.0, 5.0)
    body = observation_body(placed, layout)
    assert (body["zone"], body["zone_kind"], body["seat"]) == ("play.1", "play", 1)
    gone = observation_body(removed, layout)
    assert (gone["zone"], gone["zone_kind"], gone["seat"], gone["from_zone"]) == (
        None,
        None,
        None,
        "play.1",
    )
    odd = observation_body(elsewhere, layout)
    assert (odd["zone_kind"], odd["seat"], odd["confidence"]) == (None, None, 1.0)
    for b in (body, gone, odd):
        env = Stamper("t1/table").stamp("observation", b)
        assert decode(encode(env)).body == b


def test_a_malformed_observation_line_names_its_number() -> None:
    lines = io.StringIO(
        json.dumps(WATCH_LINES[0]) + "\n\n" + json.dumps(WATCH_LINES[1]) + "\n{not json\n"
    )
    reader = read_observation_lines(lines)
    assert next(reader)["card"] == "10H"
    with pytest.raises(ValueError, match=r"^line 4: not JSON"):
        next(reader)
    bad_card = io.StringIO(json.dumps({**WATCH_LINES[1], "card": "ZZ"}) + "\n")
    with pytest.raises(ValueError, match=r"^line 1: body\.card: 'ZZ'"):
        list(read_observation_lines(bad_card))
    extra = io.StringIO("[1]\n")
    with pytest.raises(ValueError, match=r"^line 1: expected an object, got list"):
        list(read_observation_lines(extra))


def test_a_bad_recorded_body_is_an_error_event_and_the_rest_go_on(
    broker: MemoryBroker, listener: Listener, services: list[TableService]
) -> None:
    good = WATCH_BODIES[0]
    service = TableService(
        "t1", MemoryBus(broker, "t1-table"), observations=[good, {**good, "card": "1X"}, good]
    )
    services.append(service)
    seen: list[tuple[str, float]] = []
    service.latency_hook = lambda what, t: seen.append((what, t))
    service.run()
    assert listener.bodies(OBS) == [good, good]
    errors = listener.bodies(EVT)
    assert len(errors) == 1 and errors[0]["type"] == "error"
    assert errors[0]["component"] == "table" and "body.card" in errors[0]["reason"]
    assert [what for what, _ in seen] == ["observation", "observation"]


# -- the state onto the board and the panel -------------------------------------------


def test_a_retained_state_on_the_broker_reaches_the_board_at_start(
    mosquitto: Mosquitto, board: tuple[Emulator, Any]
) -> None:
    emulator, layout = board
    referee = open_bus(mosquitto.url, "t1-referee")
    referee.start()
    eventually(lambda: referee.connected, "the referee's connection")
    referee_state(referee, cribbage_state())
    eventually(lambda: referee.health().published >= 1, "the retained state")
    referee.close()
    service = TableService(
        "t1", open_bus(mosquitto.url, "t1-table"), board=BoardLink(emulator.port, layout)
    )
    try:
        service.start()

        def shows(snap: Snapshot) -> bool:
            state = emulator.board.state
            return state is not None and state.tracks == [(14, 8, 1), (9, 5, 0)]

        assert emulator.wait_for(shows, timeout=WAIT_S), service.health()["board"]
        snap = emulator.wait_for(
            lambda s: all(
                s.leds[layout.peg_led(t, score)] for t, score in ((0, 14), (0, 8), (1, 9), (1, 5))
            ),
            timeout=WAIT_S,
        )
        assert snap is not None, "the pegs never lit"
        assert emulator.board.state.dealer == 1 and emulator.board.state.displays == [14, 9]
        assert service.health()["states"] == 1
    finally:
        service.close()


def red_holes(snap: Snapshot, layout: Any, track: int) -> int:
    """How many of ``track``'s holes are lit pure red (the revoke flash)."""
    count = 0
    for score in range(1, layout.game + 1):
        r, g, b = Snapshot.rgb(snap.leds[layout.peg_led(track, score)])
        count += r > 0 and g == 0 and b == 0
    return count


def test_a_revoke_with_the_last_event_flashes_the_offenders_track(
    broker: MemoryBroker, board: tuple[Emulator, Any], services: list[TableService]
) -> None:
    emulator, layout = board
    service = TableService(
        "t1", MemoryBus(broker, "t1-table"), board=BoardLink(emulator.port, layout)
    )
    services.append(service)
    marks: list[str] = []
    service.latency_hook = lambda what, t: marks.append(what)
    service.start()
    referee = MemoryBus(broker, "t1-referee")
    referee.start()
    revoke = [{"kind": "revoke", "event": 8, "seat": 1, "trick": 2}]
    referee_state(referee, cribbage_state(verdicts=revoke))
    snap = emulator.wait_for(lambda s: red_holes(s, layout, 1) > 100, timeout=WAIT_S)
    assert snap is not None, f"track 1 never flashed red: {service.health()['board']}"
    assert red_holes(snap, layout, 0) == 0
    assert emulator.board.state.alert_mask == 0b10 and marks == ["board"]
    # One event later the revoke is old news: the flash stops.
    referee_state(referee, cribbage_state(verdicts=revoke, events=10), seq=2)
    assert emulator.wait_for(lambda s: emulator.board.state.alert == 0, timeout=WAIT_S)


def test_malformed_states_are_error_events_and_the_service_keeps_running(
    broker: MemoryBroker,
    listener: Listener,
    services: list[TableService],
    caplog: pytest.LogCaptureFixture,
) -> None:
    service = TableService("t1", MemoryBus(broker, "t1-table"))
    services.append(service)
    service.start()
    referee = MemoryBus(broker, "t1-referee")
    referee.start()
    with caplog.at_level(logging.WARNING):
        referee.publish(STATE, b"{not json", retain=True)
    said = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(
        f"t1: rejected a message on {STATE} from ?: envelope: not JSON"
    )  # one warning, the table service's
    wrong = Stamper("t1/referee", start_seq=5).stamp("state", {"scores": [1, 2]})  # no game
    referee.publish(STATE, json.dumps(wrong.to_json()).encode(), retain=True)
    errors = listener.bodies(EVT)
    assert [e["type"] for e in errors] == ["error", "error"]
    assert errors[0]["reason"].startswith("envelope: not JSON")
    assert "'game' is a required property" in errors[1]["reason"]
    assert all(e["topic"] == STATE and e["component"] == "table" for e in errors)
    assert errors[1]["sender"] == "t1/referee"
    assert service.health()["states"] == 0
    # Odd shapes inside a valid state are clipped and logged, never raised.
    referee_state(referee, cribbage_state(pegs="x", scores=["a", 3], dealer="1"), seq=10)
    assert service.health()["states"] == 1
    assert service.health()["last_board_state"].scores == (None, 3)
    referee_state(referee, cribbage_state(), seq=11)
    assert service.health()["last_board_state"].pegs == ((14, 8), (9, 5))
    assert len(listener.bodies(EVT)) == 2


def test_a_button_press_publishes_a_command_and_states_light_the_panel(
    broker: MemoryBroker, listener: Listener, services: list[TableService], factory: Any
) -> None:
    from controller.gpio.panel import Panel
    from controller.gpio.pins import PanelPins

    now = [100.0]
    pins = PanelPins()

    def make_panel(on_command: Any) -> Panel:
        return Panel(pins, pin_factory=factory, on_command=on_command, clock=lambda: now[0])

    service = TableService("t1", MemoryBus(broker, "t1-table"), panel=make_panel)
    services.append(service)
    service.start()
    factory.pin(pins.undo).drive_low()
    now[0] += 0.2
    factory.pin(pins.undo).drive_high()
    eventually(lambda: listener.bodies(CMD), "the undo command")
    assert listener.bodies(CMD) == [{"command": "undo"}]
    referee = MemoryBus(broker, "t1-referee")
    referee.start()
    revoke = [{"kind": "revoke", "event": 8, "seat": 1}]
    referee_state(referee, cribbage_state(verdicts=revoke))
    assert service.panel is not None and service.panel.status == "revoke"
    offline = Stamper("t1/referee").stamp("status", {"state": "offline", "component": "referee"})
    referee.publish(status_topic("t1", "referee"), encode(offline), retain=True)
    assert service.panel.status == "offline"


# -- frames -------------------------------------------------------------------------


def test_a_rendered_table_video_calibrates_and_publishes_the_card_played(
    broker: MemoryBroker, listener: Listener, services: list[TableService], tmp_path: Path
) -> None:
    from vision.tablevideo import Action, render_video

    layout = load_layout(TABLE)
    video = tmp_path / "table.mp4"
    render_video(layout, [Action(0.5, "place", "QH", 450.0, 260.0, seat=0)], video, tail_s=2.0)
    watcher = TableWatcher(Recognizer(DEFAULT_MODEL), layout=layout)
    service = TableService(
        "t1", MemoryBus(broker, "t1-table"), source=open_source(str(video)), watcher=watcher
    )
    services.append(service)
    service.run()
    health = service.health()
    assert health["calibrated"] and health["frames"] > 0 and health["full_reads"] > 0
    # after the first frame the card laid is read region by region, not whole frames
    assert health["region_reads"] > 0 and health["full_reads"] < health["frames"] // 2
    placed = [b for b in listener.bodies(OBS) if b["kind"] == "placed"]
    assert [(b["card"], b["zone"], b["zone_kind"], b["seat"]) for b in placed] == [
        ("QH", "play.0", "play", 0)
    ]
    assert listener.bodies(EVT) == []


def _frames(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """An empty folder for frames, and the layout's marker sheet as a frame."""
    folder = tmp_path / "frames"
    folder.mkdir()
    return folder, cv2.cvtColor(render_marker_sheet(load_layout(TABLE)), cv2.COLOR_GRAY2BGR)


def _watching(folder: Path, broker: MemoryBroker, services: list[TableService]) -> TableService:
    """A table service that has watched the folder's frames to their end."""
    watcher = TableWatcher(Recognizer(DEFAULT_MODEL), layout=load_layout(TABLE))
    source = ImageFolderSource(folder, fps=2)
    service = TableService("t1", MemoryBus(broker, "t1-table"), source=source, watcher=watcher)
    services.append(service)
    service.run()
    return service


def test_an_empty_table_calibrates_and_an_unreadable_frame_is_skipped(
    broker: MemoryBroker, listener: Listener, services: list[TableService], tmp_path: Path
) -> None:
    folder, sheet = _frames(tmp_path)
    (folder / "0.png").write_bytes(b"not a picture")
    blank = np.full_like(sheet, 255)
    cv2.imwrite(str(folder / "1.png"), blank)  # no markers: calibration trouble
    for i in (2, 3):
        cv2.imwrite(str(folder / f"{i}.png"), sheet)
    service = _watching(folder, broker, services)
    health = service.health()
    assert health["calibrated"] and health["frames"] == 3 and health["unreadable_frames"] == 1
    assert listener.bodies(OBS) == []
    reasons = [e["reason"] for e in listener.bodies(EVT)]
    assert len(reasons) == 2, reasons
    assert "0.png" in reasons[0] and "calibration" in reasons[1]


def test_many_unreadable_frames_in_a_row_are_counted_not_each_said(
    broker: MemoryBroker, listener: Listener, services: list[TableService], tmp_path: Path
) -> None:
    # a folder source whose pictures were deleted under it: a line for every frame,
    # on the bus and in the log (135 of them in the sweep that found it)
    from controller.table.service import SKIPS_SAID

    folder, sheet = _frames(tmp_path)
    cv2.imwrite(str(folder / "00.png"), sheet)
    for i in range(1, 11):
        (folder / f"{i:02d}.png").write_bytes(b"gone")
    cv2.imwrite(str(folder / "11.png"), sheet)
    for i in range(12, 20):
        (folder / f"{i:02d}.png").write_bytes(b"gone")
    service = _watching(folder, broker, services)
    assert service.health()["unreadable_frames"] == 18 and service.health()["frames"] == 2
    reasons = [e["reason"] for e in listener.bodies(EVT)]
    skipped = [r for r in reasons if r.startswith("frame skipped")]
    assert len(skipped) == 2 * SKIPS_SAID, reasons
    assert skipped[SKIPS_SAID - 1].endswith("(the next ones are counted, not said)")
    # each run's number said once a frame reads again, or the source ends
    assert [r for r in reasons if "in a row" in r] == [
        "10 frames in a row could not be read",
        "8 frames in a row could not be read",
    ]


# -- life cycle ---------------------------------------------------------------------


class Part:
    def __init__(self, name: str, log: list[str]) -> None:
        self.name, self.log = name, log

    def close(self) -> None:
        self.log.append(self.name)


class FakeSource(Part):
    def open(self) -> None:
        pass

    def read(self) -> None:
        return None


class FakeBoard(Part):
    class layout:
        tracks = 2
        game = 121

    def start(self) -> None:
        pass

    def set_state(self, state: BoardState) -> None:
        pass


class FakePanel(Part):
    def show(self, status: str) -> None:
        pass


def test_a_new_game_command_has_the_camera_forget_the_pack(
    broker: MemoryBroker, listener: Listener, services: list[TableService]
) -> None:
    """The panel's new_game (a long press) may come with another pack on the table: the
    service passes it to the watcher (TableWatcher.new_game: what the frames showed
    of the pack, such as whether it prints four indices, is forgotten), and so it
    does a new game or match the referee says it read; an undo is no new game."""
    called: list[str] = []

    class Watcher(TableWatcher):
        def new_game(self) -> None:
            called.append("new_game")
            super().new_game()

    watcher = Watcher(Recognizer(DEFAULT_MODEL), layout=load_layout(TABLE))
    service = TableService("t1", MemoryBus(broker, "t1-table"), watcher=watcher)
    services.append(service)
    service.start()
    service.send_command({"command": "undo"})
    assert called == []
    service.send_command({"command": "new_game"})
    assert called == ["new_game"]
    eventually(lambda: len(listener.bodies(CMD)) == 2, "both commands")
    assert listener.bodies(CMD) == [{"command": "undo"}, {"command": "new_game"}]
    # a new game or match the referee read, whoever asked for it (the web view's
    # operators publish their commands straight to the referee), as its game events
    # say it; other events change nothing
    referee = MemoryBus(broker, "t1-referee")
    referee.start()
    events = Stamper("t1/referee")

    def event(body: dict[str, Any]) -> None:
        referee.publish("kiebitz/v1/t1/game/event", encode(events.stamp("event", body)))

    event({"type": "event", "index": 4, "event": {"type": "play", "seat": 0, "card": "5H"}})
    event({"type": "recount", "since": 2})
    event({"type": "event", "index": 9, "event": {"type": "new_game"}})
    eventually(lambda: len(called) == 2, "the new game read")
    event({"type": "new_match", "setup": {"game": "skat"}})
    eventually(lambda: len(called) == 3, "the new match")
    assert called == ["new_game"] * 3


def test_close_closes_source_board_panel_bus_in_that_order_once(broker: MemoryBroker) -> None:
    log: list[str] = []

    class Bus(MemoryBus):
        def close(self) -> None:
            log.append("bus")
            super().close()

    service = TableService(
        "t1",
        Bus(broker, "t1-table"),
        source=FakeSource("source", log),  # type: ignore[arg-type]
        watcher=object(),  # type: ignore[arg-type]
        board=FakeBoard("board", log),  # type: ignore[arg-type]
        panel=FakePanel("panel", log),  # type: ignore[arg-type]
    )
    service.start()
    assert service.step() is False  # a finite source that has ended
    service.close()
    service.close()
    assert log == ["source", "board", "panel", "bus"]
    assert service.step() is False


def test_a_board_lost_and_back_is_said_in_the_status_and_the_log(
    broker: MemoryBroker, caplog: pytest.LogCaptureFixture
) -> None:
    # a board unplugged and plugged in again left no line in the service's log, and
    # its status said only "board opening"
    from types import SimpleNamespace

    now = {"health": SimpleNamespace(status="synced", last_error=None)}

    class Board(FakeBoard):
        def health(self) -> SimpleNamespace:
            return now["health"]

    service = TableService(
        "t1",
        MemoryBus(broker, "t1-table"),
        observations=[],
        board=Board("board", []),  # type: ignore[arg-type]
    )
    service.start()
    caplog.set_level("INFO", logger="kiebitz.table")
    lost = "read failed: [Errno 5] Input/output error"
    for health in (SimpleNamespace(status="opening", last_error=lost), now["health"]):
        now["health"] = health
        service._parts_checked = 0.0  # (looked at every 2 s at most)
        service.step()
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "kiebitz.table"]
    assert said == [
        ("WARNING", f"status: board opening ({lost})"),
        ("INFO", "status: board synced"),
    ]
    service.close()


def test_a_board_error_naming_a_long_port_fits_in_the_status(
    broker: MemoryBroker, tmp_path: Path
) -> None:
    # the shipped config's board port (/dev/serial/by-id/…), unplugged: pyserial's
    # error named it three times, the status's detail was over the schema's 200
    # characters, and `kiebitz run --board …` and `kiebitz table` died at start with
    # a PayloadError traceback. The port is named once now, and a detail is cut to fit.
    port = tmp_path / ("usb-MicroPython_Board_in_FS_mode_e6614103e7452d2f-if00" * 3)
    link = BoardLink(str(port), load_board_layout("two-player-121")).start()
    service = TableService("t1", MemoryBus(broker, "t1-table"), observations=[], board=link)
    try:
        eventually(lambda: link.health().last_error, "the board's first try")
        why = str(link.health().last_error)
        assert why == f"cannot open {port}: No such file or directory"
        service.start()
        said = json.loads(broker.retained()[status_topic("t1", "table")])["body"]
        assert said["state"] == "online" and len(said["detail"]) <= 200
        assert said["detail"].startswith(f"board opening (cannot open {str(port)[:80]}")
        assert said["detail"].endswith("…)")
        assert service.step() is False  # the status said again as the board stands
    finally:
        service.close()


def test_a_table_connected_again_says_online_again(broker: MemoryBroker) -> None:
    # the broker published the will (offline) when the link dropped; the service,
    # running on, never said online again (the referee's fix had been the referee's)
    import json

    from controller.table.service import status_will

    stamper = Stamper("t1/table-status")
    bus = MemoryBus(broker, "t1-table", will=status_will("t1", stamper))
    service = TableService("t1", bus, observations=[], status_stamper=stamper)
    service.start()
    said = lambda: json.loads(broker.retained()[status_topic("t1", "table")])["body"]  # noqa: E731
    assert said()["state"] == "online"
    bus.kill()  # the connection lost: the will
    assert said() == {"state": "offline", "component": "table", "detail": "connection lost"}
    bus.start()
    service.step()
    assert said()["state"] == "online" and "since" in said()
    service.close()


def test_bad_parts_are_refused_at_once(broker: MemoryBroker) -> None:
    bus = MemoryBus(broker, "x")
    with pytest.raises(ValueError, match="table id"):
        TableService("Table 1", bus)
    with pytest.raises(ValueError, match="needs a watcher"):
        TableService("t1", bus, source=FakeSource("s", []))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        TableService("t1", bus, source=FakeSource("s", []), observations=[])  # type: ignore[arg-type]


# -- the command line ---------------------------------------------------------------


def test_kiebitz_table_publishes_a_recorded_file_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"cli-{id(tmp_path)}"
    bus = MemoryBus(MemoryBroker.named(name), "listener")
    bus.start()
    listener = Listener(bus)
    path = write_lines(tmp_path / "game.jsonl", WATCH_LINES)
    argv = ["table", "--table-id", "t1", "--broker", f"memory://{name}", "--observations"]
    assert main([*argv, str(path), "--layout", str(TABLE)]) == 0
    assert listener.bodies(OBS) == WATCH_BODIES
    assert [s["state"] for s in listener.bodies(status_topic("t1", "table"))] == [
        "online",
        "offline",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--table-id", "T 1", "--observations", "x.jsonl"], "--table-id: table id 'T 1'"),
        (["--table-id", "t1", "--source", "0"], "--source needs --layout"),
        (
            ["--table-id", "t1", "--observations", "/no/such.jsonl"],
            "--observations /no/such.jsonl: No such file or directory",
        ),
        (["--table-id", "t1", "--observations", "BAD"], "bad.jsonl: line 2: not JSON"),
        (["--table-id", "t1", "--source", "/no/such.mp4", "--layout", str(TABLE)], "--source: "),
        (["--table-id", "t1", "--observations", "x", "--source", "0"], "not allowed with"),
    ],
)
def test_kiebitz_table_bad_arguments_are_one_line_and_status_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"status": "calibrated"}\n{oops\n', encoding="utf-8")
    args = [str(bad) if a == "BAD" else a for a in args]
    assert main(["table", "--broker", "memory://cli-bad", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kiebitz: error: ") and message in err


def test_topics_of_the_service_are_the_documented_ones() -> None:
    assert topic("t1", "table/observation") == OBS
    assert status_will("t1", Stamper("t1/table"))[0] == "kiebitz/v1/t1/status/table"


# -- board_state ----------------------------------------------------------------------


def wire(state: BoardState, name: str = "two-player-121") -> Any:
    """What the board would be sent: raises if the state does not fit the layout."""
    return state.to_wire(load_board_layout(name))


def test_cribbage_pegs_games_dealer_and_turn_by_side() -> None:
    s = board_state(cribbage_state(), tracks=2, game_hole=121)
    assert s.pegs == ((14, 8), (9, 5)) and s.games_won == (1, 0)
    assert (s.dealer, s.turn, s.scores, s.alert, s.show_pegs) == (1, 0, (14, 9), "none", True)
    four = cribbage_state(score_by="team", dealer=3, turn=2, scores=[30, 12])
    four["pegs"] = [{"front": 30, "back": 22}, {"front": 12, "back": 4}]
    s4 = board_state(four, tracks=2)
    assert (s4.dealer, s4.turn) == (1, 0)
    wire(s4)


def test_skat_and_frog_show_scores_not_pegs() -> None:
    skat = {"game": "skat", "phase": "play", "scores": [-48, 23, 0], "dealer": 2, "turn": 1}
    s = board_state(skat, tracks=2)
    assert (s.show_pegs, s.pegs, s.scores, s.dealer, s.turn) == (False, (), (-48, 23, 0), None, 1)
    assert wire(s).displays == [-48, 23, 0]
    frog = {"game": "frog", "scores": [12, 40, 7], "score_by": "seat", "turn": 0}
    f = board_state(frog, tracks=3, game_hole=121)
    assert (f.show_pegs, f.scores, f.turn) == (False, (12, 40, 7), 0)
    wire(f, "three-player-121")


def test_all_fours_pegs_keep_the_score_before_as_the_back_peg() -> None:
    first = board_state({"game": "allfours", "scores": [0, 0]}, tracks=2)
    assert first.pegs == ((0, 0), (0, 0))
    second = board_state({"game": "allfours", "scores": [2, 0]}, tracks=2, previous=first)
    assert second.pegs == ((2, 0), (0, 0))
    third = board_state({"game": "allfours", "scores": [2, 1]}, tracks=2, previous=second)
    assert third.pegs == ((2, 0), (1, 0)) and third.scores == (2, 1)
    undone = board_state({"game": "allfours", "scores": [1, 1]}, tracks=2, previous=third)
    assert undone.pegs[0] == (1, 0)


def test_alerts_revoke_only_with_the_last_event_then_dispute_then_win() -> None:
    revoke = [{"kind": "revoke", "event": 8, "seat": 1, "trick": 1}]
    assert board_state(cribbage_state(verdicts=revoke), tracks=2).alert_tracks == (1,)
    old = board_state(cribbage_state(verdicts=revoke, events=10), tracks=2)
    assert old.alert == "none"
    dup = [{"id": "a1", "kind": "duplicate-card", "detail": "QS twice", "seat": 0}]
    s = board_state(cribbage_state(alerts=dup), tracks=2)
    assert (s.alert, s.alert_tracks) == ("dispute", (0,))
    anyone = [{"id": "a2", "kind": "missing-card", "detail": "", "seat": None}]
    assert board_state(cribbage_state(alerts=anyone), tracks=2).alert_tracks == (0, 1)
    other = [{"id": "a3", "kind": "shown-hand-differs", "detail": "", "seat": 0}]
    assert board_state(cribbage_state(alerts=other), tracks=2).alert == "none"
    both = board_state(cribbage_state(verdicts=revoke, alerts=dup), tracks=2)
    assert both.alert == "revoke"
    over = cribbage_state(phase="over", scores=[121, 97])
    over["pegs"] = [{"front": 121, "back": 117}, {"front": 97, "back": 90}]
    won = board_state(over, tracks=2, game_hole=121)
    assert (won.alert, won.alert_tracks) == ("win", (0,))
    wire(won)


def test_what_the_board_cannot_show_is_clipped_never_raised() -> None:
    state = cribbage_state(scores=[140, -40000], games_won=[300, -1], dealer=5, turn=7)
    state["pegs"] = [{"front": 140, "back": 118}, {"front": -3, "back": 0}, {"front": 9, "back": 1}]
    s = board_state(state, tracks=2, game_hole=121)
    assert s.pegs == ((121, 118), (0, 0)) and s.games_won == (255, 0)
    assert s.scores == (140, -32767)
    assert (s.dealer, s.turn) == (None, 1)  # three sides on two tracks: seat 5 is side 2
    wire(s)
    many = board_state({"game": "skat", "scores": list(range(20))}, tracks=2)
    assert len(many.scores) == 16
    wire(many)


@pytest.mark.parametrize(
    "state",
    [
        {},
        {"game": "cribbage", "pegs": [1, {"front": "x"}], "games_won": "no"},
        {"game": "skat", "scores": {"a": 1}, "verdicts": "revoke", "events": 1.5e300},
        {"game": "allfours", "scores": [True, None, 2.7], "alerts": [None, {"kind": 3}]},
        {"game": "poker", "phase": "over", "scores": [1, 1]},
        {"game": "cribbage", "events": float("inf"), "dealer": -1, "turn": float("nan")},
    ],
)
def test_garbage_states_give_a_state_the_board_can_show(state: dict[str, Any]) -> None:
    wire(board_state(state, tracks=2, game_hole=121))
