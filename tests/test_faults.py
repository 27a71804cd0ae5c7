"""Faults with real processes (issue 12): a real Mosquitto, ``kiebitz referee`` and
``kiebitz table`` as the systemd units run them, one of them killed (SIGKILL) and
started again mid-game, or the deliveries duplicated and reordered. In every case
the final state equals the fault-free run's, no observation is lost and nothing is
counted twice (the referee's log holds each input once).

The table replays a whole cribbage game (157 observations) at a steady pace, so
that the fault lands mid-game; what is guaranteed and what is not:
docs/services.md, "Nothing lost".
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_outbox import SmallDisk, game_lines

from controller.bus.broker import Mosquitto, find_mosquitto, free_port
from controller.bus.bus import MqttBus
from controller.bus.envelope import decode

pytestmark = pytest.mark.slow

KIEBITZ = str(Path(sys.executable).parent / "kiebitz")
PACE = 0.03  # seconds between observations: a game of 157 takes about 5 s
KEYS = ("plays", "scores", "deal", "phase", "alerts")


class Rig:
    """A broker with persistence, the referee and the table service, as processes."""

    def __init__(self, tmp: Path, data: Path | None = None) -> None:
        if find_mosquitto() is None:
            pytest.fail("mosquitto is not installed (make test installs it)")
        self.tmp = tmp
        self.data = data or tmp  # where the referee's log and the table's outbox live
        self.lines = game_lines()
        self.file = tmp / "game.jsonl"
        self.file.write_text("".join(json.dumps(line) + "\n" for line in self.lines))
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        broker_dir = tmp / "broker"
        config = "\n".join(
            [
                f"listener {self.port} 127.0.0.1",
                "allow_anonymous true",
                # the broker's own state on disk, saved at every change: a broker killed
                # keeps the referee's session and the messages queued for it
                "persistence true",
                f"persistence_location {broker_dir}/",
                "autosave_on_changes true",
                "autosave_interval 1",
            ]
        )
        self.broker = Mosquitto(self.port, workdir=broker_dir, config=config)
        self.broker.start()
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.last_state: dict[str, Any] = {}
        self._changed = threading.Condition()
        self.watch = MqttBus(self.url, "watch")
        self.watch.subscribe("kiebitz/v1/t1/game/state", self._on_state)
        self.watch.start()

    def _on_state(self, topic: str, payload: bytes) -> None:
        with self._changed:
            self.last_state = dict(decode(payload).body)
            self._changed.notify_all()

    def start(self, name: str) -> None:
        if name == "referee":
            argv = ["referee", "--broker", self.url, "--db", str(self.data / "referee.db"),
                    "--game", "cribbage", "--dealer", "0"]  # fmt: skip
        elif name == "recorder":
            argv = ["recorder", "--broker", self.url, "--db", str(self.data / "records.db")]
        else:
            argv = ["table", "--table-id", "t1", "--broker", self.url, "--observations",
                    str(self.file), "--outbox", str(self.data / "outbox.db"),
                    "--pace", str(PACE)]  # fmt: skip
        path = self.tmp / f"{name}.log"
        log = open(path, "ab")  # noqa: SIM115
        self.procs[name] = subprocess.Popen(
            [KIEBITZ, *argv], stdout=log, stderr=log, stdin=subprocess.DEVNULL
        )
        ready = {"referee": "referee: serving", "recorder": "recorder: recording"}.get(name)
        served = path.read_text().count(ready) if ready and path.exists() else 0
        if ready:  # its subscriptions are in before any table sends
            deadline = time.monotonic() + 60
            while path.read_text().count(ready) == served:
                assert time.monotonic() < deadline, self.logs()
                time.sleep(0.05)

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=20)

    def kill_broker(self) -> None:
        proc = self.broker._proc
        assert proc is not None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)
        self.broker._proc = None

    def table_done(self, timeout: float = 90) -> int:
        return self.procs.pop("table").wait(timeout=timeout)

    def final_state(self, timeout: float = 60) -> dict[str, Any]:
        """The retained state once every observation is in the referee's log (the
        state is published when an input changes it, so its own count may lag)."""
        want = len(self.lines)
        deadline = time.monotonic() + timeout
        while self.logged_inputs()[0] < want and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.logged_inputs()[0] == want, (self.logged_inputs(), want, self.logs())
        time.sleep(0.5)  # the state of the last input that changed it, delivered
        with self._changed:
            state = dict(self.last_state)
        return {k: state.get(k) for k in KEYS}

    def logged_inputs(self) -> tuple[int, int]:
        """(inputs in the referee's log, distinct message ids among them)."""
        with sqlite3.connect(self.data / "referee.db") as db:
            n, ids = db.execute(
                "SELECT COUNT(*), COUNT(DISTINCT message_id) FROM inputs"
            ).fetchone()
        return int(n), int(ids)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-1500:]}" for p in self.tmp.glob("*.log")
        )

    def close(self) -> None:
        for proc in self.procs.values():
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.watch.close()
        self.broker.stop()


@pytest.fixture
def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    r = Rig(tmp_path)
    yield r
    r.close()


@pytest.fixture(scope="module")
def fault_free(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    r = Rig(tmp_path_factory.mktemp("clean"))
    try:
        r.start("referee")
        r.start("table")
        assert r.table_done() == 0, r.logs()
        return r.final_state()
    finally:
        r.close()


def _once_each(rig: Rig) -> None:
    n, ids = rig.logged_inputs()
    assert n == ids == len(rig.lines), (n, ids, len(rig.lines))


def test_the_fault_free_run_reads_every_observation(fault_free):
    assert len(fault_free["plays"]) > 0 and fault_free["scores"] != [0, 0]


def test_the_broker_killed_and_started_again_mid_game(rig, fault_free):
    rig.start("referee")
    rig.start("table")
    time.sleep(1.5)
    rig.kill_broker()  # SIGKILL: no goodbye, no last save
    time.sleep(1.0)  # the table goes on observing; paho and the outbox keep it all
    rig.broker.start()
    assert rig.table_done() == 0, rig.logs()
    assert rig.final_state() == fault_free
    _once_each(rig)


def test_the_table_service_killed_and_started_again_mid_game(rig, fault_free):
    rig.start("referee")
    rig.start("table")
    time.sleep(2.0)
    rig.kill("table")  # what it had not had acknowledged is in its outbox
    rig.start("table")  # same file, same outbox: goes on after the lines it sent
    assert rig.table_done() == 0, rig.logs()
    assert rig.final_state() == fault_free
    _once_each(rig)


def test_the_referee_killed_and_started_again_mid_game(rig, fault_free):
    rig.start("referee")
    rig.start("table")
    time.sleep(2.0)
    rig.kill("referee")  # the broker queues the table's messages in its session
    time.sleep(1.0)
    rig.start("referee")  # the log is read again, the queued messages come
    assert rig.table_done() == 0, rig.logs()
    assert rig.final_state() == fault_free
    _once_each(rig)


def test_duplicated_and_reordered_deliveries(rig, fault_free):
    # a second client sends copies of the table's messages again, some at once, some
    # after later ones: QoS 1 delivers at least once, and in order only per session
    copies = MqttBus(rig.url, "copies")
    rng = random.Random(12)
    held: list[bytes] = []

    def echo(topic: str, payload: bytes) -> None:
        if rng.random() < 0.3:
            copies.publish(topic, payload)  # a duplicate at once
        if rng.random() < 0.3:
            held.append(payload)
        if len(held) > 3:  # a copy of an older message, after newer ones
            copies.publish(topic, held.pop(rng.randrange(len(held))))

    copies.subscribe("kiebitz/v1/t1/table/observation", echo)
    copies.start()
    try:
        rig.start("referee")
        rig.start("table")
        assert rig.table_done() == 0, rig.logs()
        for payload in held:
            copies.publish("kiebitz/v1/t1/table/observation", payload)
        assert rig.final_state() == fault_free
        _once_each(rig)
    finally:
        copies.close()


def test_a_full_disk_under_the_referee_and_the_outbox_mid_game(tmp_path, fault_free):
    # the referee's log and the table's outbox on one small real filesystem, filled to
    # the last byte mid-game and freed again a moment later
    disk = SmallDisk(tmp_path / "card")
    rig = Rig(tmp_path, data=disk.path)
    try:
        rig.start("referee")
        rig.start("table")
        # mid-game: once both have their files open (under a loaded machine the table
        # service took over 1.5 s to start, found the disk full before it had opened
        # its outbox, and stopped at its start, as it should), and 1.5 s more
        deadline = time.monotonic() + 30.0
        files = [disk.path / "referee.db", disk.path / "outbox.db"]
        while not all(f.is_file() and f.stat().st_size for f in files):
            assert time.monotonic() < deadline, rig.logs()
            time.sleep(0.1)
        time.sleep(1.5)
        disk.fill()
        # the game goes on from memory; both say so in their logs. Freed once one has
        # said it (a fixed 1.5 s was, under a loaded machine, over before either
        # service next wrote), and not before a moment has passed
        deadline = time.monotonic() + 30.0
        time.sleep(1.5)
        while "disk is full" not in rig.logs() and time.monotonic() < deadline:
            time.sleep(0.1)
        disk.free()
        assert rig.table_done() == 0, rig.logs()
        assert rig.final_state() == fault_free
        rig.close()  # the referee stores what it held before it stops
        _once_each(rig)
        assert "disk is full" in rig.logs()
    finally:
        rig.close()
        disk.close()


def test_the_recorder_killed_and_started_again_mid_game_keeps_the_whole_match(rig, fault_free):
    from controller.recorder.replay import check
    from controller.recorder.store import RecordStore

    rig.start("recorder")  # before the referee: it hears the match from its first state
    rig.start("referee")
    rig.start("table")
    time.sleep(2.0)
    rig.kill("recorder")  # SIGKILL; the broker keeps its session and queues the events
    time.sleep(1.0)
    rig.start("recorder")
    assert rig.table_done() == 0, rig.logs()
    assert rig.final_state() == fault_free
    store = RecordStore(rig.data / "records.db")
    deadline = time.monotonic() + 30
    while True:
        (row,) = store.matches()
        record = store.match(row.id)
        if record.complete and row.state and row.state.get("inputs") == len(rig.lines):
            break
        assert time.monotonic() < deadline, (row.events, record.missing, rig.logs())
        time.sleep(0.2)
    assert check(record) == []
    assert row.state["scores"] == fault_free["scores"]
    store.close()
