"""A club evening (issue 12): 20 tables through one real Mosquitto and one referee,
each table its own game, each ending in its own right state."""

from __future__ import annotations

import json
import threading
import time

import pytest
from test_outbox import game_lines

from controller.bus.bus import MqttBus
from controller.bus.dispatch import Publisher
from controller.bus.envelope import Stamper, decode
from controller.bus.topics import topic
from controller.referee import InputLog, Referee
from rules.reading import TableReading, TableSetup, parse_input

pytestmark = pytest.mark.slow
TABLES = [f"c{i:02d}" for i in range(20)]


def expected(lines):  # type: ignore[no-untyped-def]
    reading = TableReading(TableSetup("cribbage", dealer=0))
    for line in lines:
        reading.feed(parse_input(line))
    return reading.summary()


def test_twenty_tables_through_one_broker_and_one_referee(mosquitto, tmp_path):
    games = {t: game_lines(seed=100 + i) for i, t in enumerate(TABLES)}
    ref_bus = MqttBus(mosquitto.url, "kiebitz-referee")
    referee = Referee(
        ref_bus,
        InputLog(tmp_path / "club.db"),
        setup_for=lambda t: TableSetup("cribbage", dealer=0),
    ).start()
    ref_bus.start()
    stop = threading.Event()
    referee.run_ticks(stop)
    states: dict[str, dict] = {}
    lock = threading.Lock()

    def seen(topic_: str, payload: bytes) -> None:
        body = dict(decode(payload).body)
        with lock:
            states[body["table"]] = body

    watch = MqttBus(mosquitto.url, "watch")
    watch.subscribe("kiebitz/v1/+/game/state", seen)
    watch.start()
    buses = []
    try:
        pubs = {}
        for t in TABLES:
            bus = MqttBus(mosquitto.url, f"{t}-table")
            bus.start()
            buses.append(bus)
            pubs[t] = Publisher(bus, Stamper(f"{t}/table"))
        deadline = time.monotonic() + 20
        while not all(b.connected for b in buses) and time.monotonic() < deadline:
            time.sleep(0.02)
        # the tables play at once, a line of each in turn
        for i in range(max(len(g) for g in games.values())):
            for t in TABLES:
                if i < len(games[t]):
                    pubs[t].send(topic(t, "table/observation"), "observation", games[t][i])
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if all(referee.inputs(t) == len(games[t]) for t in TABLES):
                break
            time.sleep(0.05)
        assert {t: referee.inputs(t) for t in TABLES} == {t: len(g) for t, g in games.items()}
        for t in TABLES:
            want = json.loads(json.dumps(expected(games[t])))
            for _ in range(100):  # the retained state of the last input that changed it
                with lock:
                    got = {k: v for k, v in states[t].items() if k not in ("table", "inputs")}
                if got == want:
                    break
                time.sleep(0.05)
            assert got == want, t
        # the twenty games all differ, so a table given another's inputs would show
        wanted = {json.dumps(expected(games[t]), sort_keys=True) for t in TABLES}
        assert len(wanted) == len(TABLES)
    finally:
        stop.set()
        for bus in buses:
            bus.close()
        watch.close()
        ref_bus.close()
        referee.close()
