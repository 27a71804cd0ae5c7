"""Everything one table needs on one machine (``kiebitz run``).

:func:`run_table` starts, in this order: a private Mosquitto on a free port with a
generated config (unless a broker URL is given), the referee with its SQLite log,
an emulated peg board running the firmware's own code on a pseudo-terminal
(unless a serial port is given), and the table service reading the frame source
(a camera, a video file, an image folder) or a file of recorded observation
lines. The run follows its table on the bus like any other client: it tells the
game from ``game/event`` (:class:`~controller.run.narrate.Narrator`) and keeps the
retained ``game/state``. With ``headless`` it runs the source to its end, waits
until the referee has read every observation and the board shows the last state,
writes the summary and returns. Ctrl-C stops every part cleanly (status 130).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.bus.broker import Mosquitto
from controller.bus.bus import MqttBus
from controller.bus.dispatch import Dispatcher
from controller.bus.envelope import Envelope, Stamper
from controller.bus.topics import EVENT, STATE, TABLE_EVENT, topic
from controller.errors import UsageError
from controller.referee import InputLog, Referee
from controller.run.narrate import Narrator
from controller.stopping import (
    Terminated,
    calm_while_stopping,
    ctrl_c_obeyed,
    obey_ctrl_c,
    wait_for_stop,
)
from controller.table.service import TableService, status_will
from rules.reading import TableSetup

__all__ = ["RunConfig", "board_layout_for", "run_table"]

log = logging.getLogger("kiebitz.run")


@dataclass
class RunConfig:
    """What ``kiebitz run`` was asked for."""

    setup: TableSetup
    table_id: str = "table1"
    source: str | None = None
    observations: Path | None = None
    layout: Path | None = None
    broker: str | None = None
    board: str | None = None
    board_layout: str | None = None
    db: Path | None = None
    #: Where the match is recorded (a file or a postgresql:// URL); None: not recorded.
    records: str | None = None
    #: Serve the live web view on this port (0: a free one); None: no web view.
    web: int | None = None
    headless: bool = False
    summary: Path | None = None
    fps: float = 5.0
    #: The GPIO panel's pin factory (``mock``, ``lgpio``, ``rpigpio``, ``native``), if any.
    gpio: str | None = None
    workdir: Path | None = None
    out: TextIO = field(default_factory=lambda: sys.stdout)
    #: Stop waiting for the referee and the board after this long (headless).
    settle_s: float = 20.0


def board_layout_for(setup: TableSetup) -> str:
    """The shipped peg board a game uses: two tracks for two sides, three for three."""
    game_to = int(setup.options.get("game_to") or 0)
    length = "61" if game_to == 61 or setup.options.get("variant") == "five-card" else "121"
    players = int(
        setup.options.get("players") or (2 if setup.game in ("cribbage", "allfours") else 3)
    )
    if setup.game == "allfours":
        return "two-player-61"
    if setup.game == "cribbage" and players in (2, 4):
        return f"two-player-{length}"
    return f"three-player-{length}"


class _Follower:
    """The run's own client on the bus: tells the game, keeps the last state."""

    def __init__(self, cfg: RunConfig, live: bool) -> None:
        self.cfg = cfg
        self.narrator = Narrator(cfg.setup.game)
        self.state: dict[str, Any] | None = None
        self.live = live
        self._lock = threading.Lock()
        self._line = ""
        self.changed = threading.Condition(self._lock)

    def on_event(self, _topic: str, env: Envelope) -> None:
        try:
            lines = self.narrator.take(env.body)
        except ValueError as exc:  # not as the referee sends one (Narrator.take): said
            lines = [f"(an event from {env.sender} not told: {exc})"]
        with self._lock:
            self._print(lines)

    def say(self, line: str) -> None:
        with self._lock:
            self._print([line])

    def on_state(self, _topic: str, env: Envelope) -> None:
        with self.changed:
            self.state = dict(env.body)
            self.changed.notify_all()
            if self.live:
                self._print([])

    def _print(self, lines: list[str]) -> None:
        out = self.cfg.out
        if self.live and self._line:
            out.write("\r\x1b[K")
        for line in lines:
            out.write(line + "\n")
        if self.live and self.state is not None:
            self._line = self.live_line(self.state)
            out.write(self._line)
        out.flush()

    def live_line(self, state: dict[str, Any]) -> str:
        scores = state.get("scores", [])
        parts = [f"{self.cfg.table_id}: {state.get('game')} {state.get('phase')}"]
        pegs = state.get("pegs")
        if pegs:
            parts.append(" ".join(f"[{p['front']}/{p['back']}]" for p in pegs))
        else:
            parts.append(" ".join(str(s) for s in scores))
        if state.get("count") is not None:
            parts.append(f"count {state['count']}")
        if state.get("alerts"):
            parts.append(f"{len(state['alerts'])} alert(s)")
        if self.narrator.last_scored:
            parts.append(f"last: {self.narrator.last_scored}")
        return " | ".join(parts)[:160]

    def wait(self, check: Callable[[dict[str, Any]], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.state is None or not check(self.state):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True


#: How long a run waits for the broker to acknowledge its services' subscriptions.
SUBSCRIBE_WAIT_S = 30.0


def _inputs(state: Any) -> int:
    """The inputs a state the referee published had read (0: none, or no state)."""
    value = state.get("inputs", 0) if isinstance(state, dict) else 0
    return value if isinstance(value, int) else 0


def _board_done(health: Any) -> bool:
    """Whether the run's end need wait no longer for the board: it shows the last
    state, or it never answered and is not connected."""
    return bool(health.synced or (health.board is None and not health.connected))


def _wait(check: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def run_table(cfg: RunConfig) -> dict[str, Any]:
    """Run one table to the end of its source (headless) or until Ctrl-C; the summary."""
    from controller.board.emulator import Emulator
    from controller.board.layouts import load_layout as load_board
    from controller.board.link import BoardLink

    live = not cfg.headless and cfg.out.isatty()
    table = cfg.table_id
    # recorded observations read (and refused) before anything is started or made: a
    # refused file left the run's databases behind (a bad-input sweep's find)
    recorded = _recorded(cfg) if cfg.observations is not None else None
    calmed: list[Callable[[], None]] = []  # the handlers to put back once all is stopped
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [restore() for restore in calmed])  # the last to run
        workdir = cfg.workdir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="kiebitz-run-"))
        )
        url = cfg.broker
        if url is None:
            # its stop on the stack before it starts: a SIGTERM while it came up (the
            # wait for its port) left it running, its folder removed under it
            broker = Mosquitto(workdir=workdir / "broker")
            stack.callback(broker.stop)
            url = broker.start().url
        db = cfg.db or workdir / "referee.db"
        # The recorder, before the referee: it hears the match from its first state.
        recorder = None
        if cfg.records is not None:
            recorder = _recorder(cfg, url, stack)
        # The referee, with its log.
        ref_status = Stamper(f"{table}/referee-status")
        ref_bus = MqttBus(url, f"{table}-referee", will=status_will(table, ref_status, "referee"))
        stack.callback(ref_bus.close)
        referee = Referee(
            ref_bus,
            InputLog(db),
            setup_for=lambda _t: cfg.setup,
            tables=[table],
            status={table: ref_status},
        )
        stack.callback(referee.close)
        ref_bus.start()
        referee.start()
        stop = threading.Event()
        stack.callback(stop.set)
        referee.run_ticks(stop)
        # The web view, read only (a run has no operators): every change of the table live.
        web = None
        if cfg.web is not None:
            web = _web(cfg, url, stack, None if recorder is None else recorder.store)
            print(f"Web view: {web.url}tables/{table}", file=cfg.out, flush=True)
        # The run's own view of the table.
        follower = _Follower(cfg, live)
        view = MqttBus(url, f"{table}-run")
        stack.callback(view.close)
        view_routes = Dispatcher(view)
        view_routes.route(topic(table, EVENT), "event", follower.on_event)
        view_routes.route(topic(table, TABLE_EVENT), "event", follower.on_event)
        view_routes.route(topic(table, STATE), "state", follower.on_state)
        view.start()
        # The peg board: the emulator unless a real one is named.
        layout_name = cfg.board_layout or board_layout_for(cfg.setup)
        board_layout = load_board(layout_name)
        emulator = None
        port = cfg.board
        if port is None:
            emulator = Emulator(board_layout)
            stack.callback(emulator.close)  # before it starts, as the broker's
            port = emulator.start().port
        link = BoardLink(port, board_layout)
        # The table service.
        table_stamper = Stamper(f"{table}/table")
        table_status = Stamper(f"{table}/table-status")
        table_bus = MqttBus(url, f"{table}-table", will=status_will(table, table_status))
        if recorded is not None:
            service = TableService(
                table,
                table_bus,
                observations=recorded,
                board=link,
                board_tracks=board_layout.tracks,
                stamper=table_stamper,
                status_stamper=table_status,
            )
        else:
            service = _camera_service(
                cfg, table, table_bus, link, board_layout.tracks, table_stamper, table_status
            )
        if cfg.gpio is not None:
            service.panel = _panel(cfg.gpio, service)
        stack.callback(service.close)
        # 30 s: a loaded machine (a Pi reading frames, a test run's other worker) took
        # more than the 10 s this waited once, and the run stopped on a broker that was
        # only slow to acknowledge
        if not _wait(
            lambda: ref_bus.health().subscriptions >= 2 and view.health().subscriptions >= 2,
            SUBSCRIBE_WAIT_S,
        ):
            raise UsageError(
                f"the broker at {url} does not answer: the referee's and the run's "
                f"subscriptions were not acknowledged in {SUBSCRIBE_WAIT_S:.0f} s"
            )
        from vision.errors import SourceError

        try:
            service.start()  # opens the source: a folder of no pictures, a file cut short
        except SourceError as exc:  # one line, as `kiebitz table` says it
            raise UsageError(f"--source: {exc}") from exc
        interrupted = terminated = False
        try:
            while service.step():
                obey_ctrl_c()  # one a native import swallowed (controller.stopping)
            if not cfg.headless:
                follower.say("The source has ended; Ctrl-C stops the table.")
                wait_for_stop(stop)  # a live source ends only with Ctrl-C
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (stopping.Terminated)
            interrupted = True
            terminated = isinstance(exc, Terminated)
            ctrl_c_obeyed()
            # a second Ctrl-C while the run winds down is said, not obeyed (a third is)
            calmed.append(calm_while_stopping("kiebitz run"))
        sent = service.health().get("observations", 0)
        service.flush()
        settled = _wait(lambda: referee.inputs(table) >= sent, cfg.settle_s)
        read = referee.inputs(table)
        referee.publish_state(table)
        # bounds on a stall, not waits: each returns as soon as it holds. At 5 s a test
        # run's loaded machine once printed the board as it stood a few cards before
        follower.wait(lambda s: s.get("inputs", 0) >= read, cfg.settle_s)
        # ... and the table service, which shows it on the board: the board's "synced"
        # was of the state before while the last one was still on its way over the
        # bus (the summary's board a few pegs short, one run in six: a flaky test)
        _wait(lambda: _inputs(service.health().get("last_state")) >= read, cfg.settle_s)
        # a board that never answered and is not connected (no such port, /dev/zero)
        # is not waited for: the run waited out 20 s before its warning
        _wait(lambda: _board_done(link.health()), cfg.settle_s)
        shown = link.health().synced
        summary = _summary(cfg, follower, service, referee, emulator, db, sent)
        summary["web"] = None if web is None else web.url
        summary["record"] = (
            None if recorder is None else _record(recorder, table, referee, end=cfg.db is None)
        )
        record = summary["record"]
        if record is not None and cfg.db is None and not record.get("complete"):
            # the match is not whole in the records (a damaged file, a database away)
            # and the referee's log, in the run's own folder, goes with it: kept
            record["referee_log"] = _keep_log(db)
        summary.update(
            settled=settled,
            board_synced=shown,
            board_link=link.health().summary(),
            interrupted=interrupted,
            terminated=terminated,
        )
        if live:
            cfg.out.write("\n")
        if cfg.summary is not None:
            try:
                cfg.summary.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"--summary {cfg.summary}: {exc.strerror or exc}") from exc
        return summary


def _recorder(cfg: RunConfig, url: str, stack: contextlib.ExitStack) -> Any:
    """The run's recorder: the match into ``cfg.records``, as ``kiebitz recorder`` does."""
    from controller.recorder.service import Recorder
    from controller.recorder.store import RecordsError, RecordStore

    try:
        store = RecordStore(cfg.records or "")
    except RecordsError as exc:
        raise UsageError(f"--records: {exc}") from exc
    bus = MqttBus(url, f"{cfg.table_id}-recorder")
    recorder = Recorder(bus, store, tables=[cfg.table_id]).start()
    stack.callback(recorder.close)
    stack.callback(bus.close)
    ticking = threading.Event()
    stack.callback(ticking.set)  # (the callbacks run last first: the ticks stop first)
    recorder.run_ticks(ticking)  # what the database could not take is written when it can
    bus.start()
    if not _wait(lambda: bus.health().subscriptions >= 2, 10.0):
        raise UsageError(f"the broker at {url} does not answer")
    return recorder


def _web(cfg: RunConfig, url: str, stack: contextlib.ExitStack, records: Any) -> Any:
    """The run's web view on its own bus (spectators only: a run has no operators)."""
    from controller.web.server import WebServer

    bus = MqttBus(url, f"{cfg.table_id}-web")
    web = WebServer(bus, port=cfg.web or 0, records=records, read_only=True)
    # both stops on the stack before either starts: a Ctrl-C while the server came up
    # left its bus connected as the broker stopped ("lost mqtt://…; reconnecting"
    # printed after the interrupt, a loaded machine's flaky test)
    stack.callback(bus.close)
    stack.callback(web.close)
    bus.start()
    try:
        web.start()
    except OSError as exc:
        raise UsageError(f"--web {cfg.web}: {exc}") from exc
    return web


def _record(recorder: Any, table: str, referee: Referee, *, end: bool) -> dict[str, Any] | None:
    """Where the run's match was recorded, once the recorder has what the referee sent;
    with ``end`` (the referee's log was the run's own, and goes with it) the match ends.
    Records that cannot be read back (a damaged file) give ``{"db", "error"}``."""
    from controller.recorder.store import DamagedRecord, RecordsError

    try:
        return _recorded_match(recorder, table, referee, end=end)
    except (RecordsError, DamagedRecord) as exc:
        return {"db": recorder.store.shown, "error": " ".join(str(exc).split())}


def _recorded_match(
    recorder: Any, table: str, referee: Referee, *, end: bool
) -> dict[str, Any] | None:
    events = len(referee.reading(table).game.events)

    def caught_up() -> bool:
        match = recorder.match_of(table)
        return match is not None and recorder.store.match_row(match).events >= events

    _wait(caught_up, 20.0)
    match = recorder.match_of(table)
    if match is None:
        return None
    record = recorder.store.match(match)
    if end:
        recorder.end(table, at=time.time())
    return {
        "db": recorder.store.shown,
        "match": match,
        "events": record.row.events,
        "complete": record.complete and record.row.events >= events,
    }


def _keep_log(db: Path) -> str | None:
    """A copy of the run's referee log beside the working folder (``kiebitz-run-…-
    referee.db`` in the current folder), for ``kiebitz records import``; None where
    it cannot be written."""
    import sqlite3

    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"  # two runs in one second
    kept = Path.cwd() / f"kiebitz-run-{stamp}-referee.db"
    try:  # SQLite's own backup: the log's last inputs may lie in its write-ahead file
        with (
            contextlib.closing(sqlite3.connect(db)) as src,
            contextlib.closing(sqlite3.connect(kept)) as dst,
        ):
            src.backup(dst)
    except (OSError, sqlite3.Error) as exc:
        log.error("the referee's log could not be kept at %s: %s", kept, exc)
        return None
    return str(kept)


def _recorded(cfg: RunConfig) -> list[dict[str, Any]]:
    """Every line of the recorded file, read before anything starts: a bad line is
    one line of error naming it (and nothing is published), not the rest lost."""
    from controller.table.observations import read_observation_lines

    assert cfg.observations is not None
    layout = None
    if cfg.layout is not None:
        from vision.errors import LayoutError
        from vision.layout import load_layout

        try:
            layout = load_layout(cfg.layout)
        except LayoutError as exc:
            raise UsageError(str(exc)) from exc
    try:  # each line decoded on its own: one in another encoding is named by number
        return list(read_observation_lines(cfg.observations, layout=layout))
    except OSError as exc:
        raise UsageError(f"--observations {cfg.observations}: {exc.strerror or exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"--observations {cfg.observations}: {exc}"[:300]) from exc


def _panel(factory_name: str, service: TableService) -> Any:
    """The buttons, buzzer and status LED, their presses sent as the table's commands."""
    from controller.gpio.errors import GpioError
    from controller.gpio.factory import make_pin_factory
    from controller.gpio.panel import Panel
    from controller.gpio.pins import PanelPins

    try:
        factory = make_pin_factory(factory_name, where="--gpio")
        return Panel(PanelPins(), pin_factory=factory, on_command=service.send_command)
    except (GpioError, ValueError, OSError) as exc:
        text = str(exc)
        raise UsageError(text if text.startswith("--gpio") else f"--gpio: {text}") from exc


def _camera_service(
    cfg: RunConfig,
    table: str,
    bus: MqttBus,
    link: Any,
    tracks: int,
    stamper: Stamper,
    status: Stamper,
) -> TableService:
    from vision.errors import LayoutError, SourceError
    from vision.layout import load_layout
    from vision.model import DEFAULT_MODEL
    from vision.recognize import Recognizer
    from vision.sources import open_source
    from vision.watch import TableWatcher

    if cfg.source is None or cfg.layout is None:
        raise UsageError("give --source and --table (the layout), or --observations")
    try:
        layout = load_layout(cfg.layout)
        source = open_source(cfg.source, fps=cfg.fps)
    except (LayoutError, SourceError) as exc:
        raise UsageError(str(exc)) from exc
    watcher = TableWatcher(Recognizer(DEFAULT_MODEL), layout=layout)
    return TableService(
        table,
        bus,
        source=source,
        watcher=watcher,
        layout=layout,
        board=link,
        board_tracks=tracks,
        stamper=stamper,
        status_stamper=status,
    )


def _by_seat(state: dict[str, Any]) -> list[Any]:
    """Scores by seat: partners (four at cribbage or All Fours, seats 0 and 2 against
    1 and 3) each show their side's score."""
    scores = list(state.get("scores", []))
    if state.get("score_by") != "team" or not scores:
        return scores
    players = int((state.get("setup") or {}).get("options", {}).get("players") or 4)
    return [scores[seat % len(scores)] for seat in range(players)]


def _summary(
    cfg: RunConfig,
    follower: _Follower,
    service: TableService,
    referee: Referee,
    emulator: Any,
    db: Path,
    sent: int,
) -> dict[str, Any]:
    state = follower.state or referee.state(cfg.table_id)
    health = service.health()
    shown = health.get("last_board_state")
    board: dict[str, Any] = {}
    if shown is not None:
        board = {
            "pegs": [list(p) for p in shown.pegs] if shown.show_pegs else [],
            "games_won": list(shown.games_won),
            "dealer": shown.dealer,
            "turn": shown.turn,
            "alert": shown.alert,
            "alert_tracks": list(shown.alert_tracks),
            "displays": list(shown.scores),
        }
    if emulator is not None:
        snap = emulator.snapshot()
        board.update(
            leds_lit=len(snap.lit()), display_text={str(k): v for k, v in snap.displays.items()}
        )
    return {
        "game": cfg.setup.game,
        "table": cfg.table_id,
        "setup": cfg.setup.to_json(),
        "phase": state.get("phase"),
        "scores": _by_seat(state),
        "side_scores": state.get("scores", []) if state.get("score_by") == "team" else None,
        "pegs": state.get("pegs"),
        "games_won": state.get("games_won"),
        "plays": follower.narrator.plays(),
        "verdicts": follower.narrator.verdicts(),
        "alerts": state.get("alerts", []),
        "board": board,
        "observations": sent,
        "inputs": state.get("inputs"),
        "frames": health.get("frames"),
        "unreadable_frames": health.get("unreadable_frames", 0),
        "full_reads": health.get("full_reads"),
        "region_reads": health.get("region_reads"),
        "calibration_error_mm": health.get("calibration_error_mm"),
        "log": str(db) if cfg.db is not None else None,
    }
