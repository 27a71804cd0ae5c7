"""The referee service over a bus: observations in, events and the retained state
out, every input in the SQLite log, tables rebuilt from it on start.

Most tests run on the in-process bus; the last ones on a real Mosquitto.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import threading

import pytest
from reading_helpers import trick_told

from controller.bus.bus import MemoryBroker, MemoryBus, MqttBus
from controller.bus.dispatch import Dispatcher, Publisher
from controller.bus.envelope import Stamper, encode
from controller.bus.topics import topic
from controller.referee import InputLog, Referee
from rules.events import Play
from rules.reading import Contract, TableSetup
from rules.skat.autoplay import random_deal
from rules.skat.events import Declare


class Table:
    """A table service's end of the bus: publishes observations and commands,
    collects the referee's events and states."""

    def __init__(self, bus, table="t1"):
        self.bus, self.table = bus, table
        self.pub = Publisher(bus, Stamper(f"{table}/table"))
        self.events, self.states, self.errors = [], [], []
        d = Dispatcher(bus)
        d.route(topic(table, "game/event"), "event", lambda t, e: self.events.append(e.body))
        d.route(topic(table, "game/state"), "state", lambda t, e: self.states.append(e.body))

    def observe(self, kind, card, zone=None, seat=None, zone_kind=None):
        zk = zone_kind or (zone.split(".")[0] if zone else None)
        body = {
            "kind": kind,
            "card": card,
            "zone": zone,
            "zone_kind": zk,
            "seat": seat,
            "from_zone": None,
            "t": 1.0,
            "confidence": 0.99,
        }
        return self.pub.send(topic(self.table, "table/observation"), "observation", body)

    def command(self, **body):
        return self.pub.send(topic(self.table, "table/command"), "command", body)

    def kinds(self):
        return [e["type"] for e in self.events]


@pytest.fixture
def memory(tmp_path):
    broker = MemoryBroker()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    store = InputLog(tmp_path / "referee.db")
    referee = Referee(ref_bus, store, setup_for=lambda t: TableSetup("cribbage", dealer=0)).start()
    bus = MemoryBus(broker, "table")
    bus.start()
    yield broker, referee, Table(bus), tmp_path / "referee.db"
    referee.close()


def test_cards_laid_become_events_pegs_and_a_retained_state(memory):
    _, _referee, table, _ = memory
    table.observe("placed", "7S", "starter")
    table.observe("placed", "10H", "play.1", 1)
    table.observe("placed", "5C", "play.0", 0)
    events = [e for e in table.events if e["type"] == "event"]
    assert [e["event"]["type"] for e in events][-3:] == ["starter", "play", "play"]
    assert events[-1]["pegged"][0]["points"] == 2
    state = table.states[-1]
    assert state["scores"] == [2, 0] and state["count"] == 15 and state["table"] == "t1"
    assert state["plays"] == [{"seat": 1, "card": "10H"}, {"seat": 0, "card": "5C"}]


def test_a_redelivered_message_is_read_once_and_a_bad_one_answered_with_an_error(memory, caplog):
    _broker, referee, table, _ = memory
    table.observe("placed", "7S", "starter")
    env = table.observe("placed", "10H", "play.1", 1)
    table.bus.publish(topic("t1", "table/observation"), encode(env))  # QoS 1: again
    assert referee.reading("t1").plays() == [{"seat": 1, "card": "10H"}]
    with caplog.at_level(logging.WARNING):
        table.bus.publish(topic("t1", "table/observation"), b'{"schema": 1, "nonsense": true}')
    said = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(
        "rejected a message on kiebitz/v1/t1/table/observation from ?: envelope: "
    )  # one warning, the referee's (the bus's own is a debug line)
    # valid for the schema, refused by the reading: a command of another table's game
    table.command(command="contract", declarer=0, contract="grand")
    errors = [e for e in table.events if e["type"] == "error"]
    assert len(errors) == 1 and "envelope" in errors[0]["reason"]
    assert table.kinds()[-1] == "refused"
    assert referee.reading("t1").plays() == [{"seat": 1, "card": "10H"}]


def test_a_table_service_started_again_without_an_outbox_loses_none_of_its_cards(memory):
    # a table service without an outbox starts its seqs at 1 again: the referee's
    # dispatcher dropped its first messages as duplicates of the last run's (the same
    # sender and seq), without a word, until the new count passed the old (a bus
    # sweep's find). A redelivery is the same message (its id); these are new ones.
    _broker, referee, table, _ = memory
    table.observe("placed", "5D", "starter")
    table.observe("placed", "10H", "play.1", 1)
    table.observe("placed", "5C", "play.0", 0)
    table.pub = Publisher(table.bus, Stamper("t1/table"))  # started again: seq 1
    table.observe("placed", "6C", "play.1", 1)
    table.observe("placed", "7S", "play.0", 0)
    plays = [p["card"] for p in referee.reading("t1").plays()]
    assert plays == ["10H", "5C", "6C", "7S"]
    assert table.states[-1]["scores"] == [5, 0]  # 15 for two, and the run 5 6 7 for three


def test_an_observation_in_a_zone_the_referee_reads_nothing_in_is_said(memory, caplog):
    # `nowhere` and `play.9` were stored and read, changing nothing, without a word
    # from the live referee (`referee --replay` said them: a bus sweep's find)
    _broker, referee, table, _ = memory
    table.observe("placed", "5D", "starter")
    with caplog.at_level(logging.WARNING):
        body = {"kind": "placed", "card": "9H", "zone": "nowhere", "zone_kind": None}
        body.update(seat=None, from_zone=None, t=1.0, confidence=0.99)
        table.pub.send(topic("t1", "table/observation"), "observation", body)
        table.observe("placed", "8H", "play.9", None, zone_kind="play")
    errors = [e["reason"] for e in table.events if e["type"] == "error"]
    assert errors[0].startswith("ignored: zone 'nowhere' is none the referee reads")
    assert errors[1] == "ignored: zone 'play.9' names no seat of a table"
    said = [r.getMessage() for r in caplog.records]
    assert said[0].startswith(
        "an observation read and ignored on kiebitz/v1/t1/table/observation from t1/table: "
    )
    table.observe("placed", "10H", "play.1", 1)  # the game goes on
    assert referee.reading("t1").plays() == [{"seat": 1, "card": "10H"}]
    assert referee.store.count("t1") == 4  # every one kept


def test_a_message_on_another_tables_topic_is_refused_naming_its_sender(memory, caplog):
    """The rejection named the sender as "?" though the envelope says who sent it."""
    _broker, referee, table, _ = memory
    stranger = Publisher(table.bus, Stamper("t2/table"))
    body = {"kind": "placed", "card": "7S", "zone": "starter", "zone_kind": "starter"}
    body.update(seat=None, from_zone=None, t=1.0, confidence=0.99)
    with caplog.at_level(logging.WARNING):
        stranger.send(topic("t1", "table/observation"), "observation", body)
    said = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert said == [
        "rejected a message on kiebitz/v1/t1/table/observation from t2/table: "
        "sender t2/table is not of table t1"
    ]
    errors = [e for e in table.events if e["type"] == "error"]
    assert [e["sender"] for e in errors] == ["t2/table"]
    # nor is an input from the referee's own name (its events taken for the table's)
    Publisher(table.bus, Stamper("t1/referee")).send(
        topic("t1", "table/observation"), "observation", body
    )
    errors = [e for e in table.events if e["type"] == "error"]
    assert errors[-1]["reason"] == "sender t1/referee is a referee: it sends no inputs"
    assert referee.inputs("t1") == 0


def test_a_command_refused_says_why_and_an_alert_is_published(memory):
    _, _referee, table, _ = memory
    table.observe("placed", "7S", "starter")
    table.observe("placed", "9H", "play.1", 1)
    table.observe("placed", "2C", "play.1", 1)
    alerts = [e["alert"] for e in table.events if e["type"] == "alert"]
    assert [a["kind"] for a in alerts] == ["missing-card"]
    assert table.states[-1]["alerts"][0]["id"] == alerts[0]["id"]
    table.command(command="supply", seat=0, card="4D")
    assert table.kinds()[-1] != "refused" and table.states[-1]["alerts"] == []
    table.command(command="supply", seat=0, card="4D")
    assert "refused" in table.kinds()


def test_a_referee_started_again_resumes_from_its_log(memory, tmp_path):
    broker, referee, table, path = memory
    for card, zone, seat in [("7S", "starter", None), ("10H", "play.1", 1), ("5C", "play.0", 0)]:
        table.observe("placed", card, zone, seat)
    table.command(command="undo")
    before = referee.state("t1")
    referee.close()
    again = Referee(
        MemoryBus(broker, "referee2"), InputLog(path), setup_for=lambda t: TableSetup("skat")
    ).start()
    after = again.state("t1")
    assert after["engine"] == before["engine"] and after["plays"] == before["plays"]
    assert after["game"] == "cribbage"  # the setup is the log's, not the new default
    assert after["inputs"] == 4
    again.close()


def test_a_log_whose_folder_is_removed_in_use_is_made_again_with_nothing_lost(tmp_path, caplog):
    # `rm -rf` of the log's folder under a running referee: SQLite wrote on into the
    # removed file without a word, and the next start found no log at all
    import shutil

    broker = MemoryBroker()
    folder = tmp_path / "ref"
    folder.mkdir()
    path = folder / "referee.db"
    bus = MemoryBus(broker, "referee")
    bus.start()
    referee = Referee(bus, InputLog(path), setup_for=lambda t: TableSetup("cribbage", dealer=0))
    referee.start()
    table_bus = MemoryBus(broker, "table")
    table_bus.start()
    table = Table(table_bus)
    table.observe("placed", "7S", "starter")
    shutil.rmtree(folder)
    table.observe("placed", "10H", "play.1", 1)
    referee.tick()  # (the ticks' thread, every 0.25 s)
    assert path.is_file() and "made again from the open copy, nothing lost" in caplog.text
    table.observe("placed", "5C", "play.0", 0)  # into the file made again
    before = referee.state("t1")
    referee.close()
    again = Referee(
        MemoryBus(broker, "referee2"), InputLog(path), setup_for=lambda t: TableSetup("skat")
    ).start()
    assert again.state("t1")["plays"] == before["plays"] and again.inputs("t1") == 3
    again.close()


def test_the_log_holds_every_input_once_and_the_events_derived(memory):
    _, _referee, table, path = memory
    table.observe("placed", "7S", "starter")
    env = table.observe("placed", "10H", "play.1", 1)
    table.bus.publish(topic("t1", "table/observation"), encode(env))
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM inputs").fetchone()[0] == 2
    kinds = [json.loads(r[0])["type"] for r in db.execute("SELECT event FROM events ORDER BY idx")]
    assert kinds == ["set_dealer", "deal", "discard", "discard", "starter", "play"]


def test_an_input_the_log_cannot_hold_leaves_no_transaction_open(tmp_path):
    # a seq past SQLite's integers raised OverflowError inside BEGIN; the open
    # transaction then refused the next good input ("cannot start a transaction
    # within a transaction")
    store = InputLog(tmp_path / "r.db")
    with pytest.raises(OverflowError):
        store.append("t1", "a" * 32, "t1/table", 2**63, "observation", {"x": 1})
    assert store.append("t1", "b" * 32, "t1/table", 1, "observation", {"x": 2}) == 1
    assert [body for _, _, body in store.inputs("t1")] == [{"x": 2}]
    store.close()


def skat_plays(seed=8):
    rng = random.Random(seed)
    deal = random_deal(rng, reveal=False, revoke_at=2)
    declare = next(e for e in deal.events if isinstance(e, Declare))
    contract = Contract(
        declare.seat,
        declare.declaration.game,
        hand=declare.declaration.hand,
        ouvert=declare.declaration.ouvert,
    )
    return [(e.seat, e.card) for e in deal.events if isinstance(e, Play)], contract, deal.revoke


def test_many_tables_through_one_real_mosquitto(mosquitto, tmp_path):
    plays, contract, _ = skat_plays()
    ref_bus = MqttBus(mosquitto.url, "referee")
    ref_bus.start()
    referee = Referee(
        ref_bus,
        InputLog(tmp_path / "r.db"),
        setup_for=lambda t: TableSetup("skat", dealer=2, contract=contract),
    ).start()
    stop = threading.Event()
    referee.run_ticks(stop)
    done = threading.Event()
    states: dict[str, dict] = {}

    def seen(t, env):
        states[env.body["table"]] = env.body
        if len(states) == 3 and all(len(s["plays"]) == 30 for s in states.values()):
            done.set()

    watcher = MqttBus(mosquitto.url, "watcher")
    watcher.start()
    Dispatcher(watcher).route("kiebitz/v1/+/game/state", "state", seen)
    buses = []
    try:
        for name in ("a1", "b2", "c3"):
            bus = MqttBus(mosquitto.url, f"table-{name}")
            bus.start()
            buses.append(bus)
            # as the table service does: paho may send what was queued before it
            # connected in another order (the referee would wait for the rest)
            for _ in range(500):
                if bus.connected:
                    break
                threading.Event().wait(0.01)
            pub = Publisher(bus, Stamper(f"{name}/table"))
            for obs in trick_told(plays, 3).lines():
                body = dict(obs.to_json(), card=str(obs.card))
                body["t"] = float(body["t"])
                pub.send(topic(name, "table/observation"), "observation", body)
        assert done.wait(30), {k: len(v["plays"]) for k, v in states.items()}
        for name in ("a1", "b2", "c3"):
            assert referee.reading(name).plays() == [{"seat": s, "card": str(c)} for s, c in plays]
    finally:
        stop.set()
        for bus in buses:
            bus.close()
        watcher.close()
        ref_bus.close()
        referee.close()


def test_messages_delivered_out_of_order_are_read_in_their_senders_order(tmp_path):
    broker = MemoryBroker()
    now = [0.0]
    referee = Referee(
        MemoryBus(broker, "referee"),
        InputLog(tmp_path / "r.db"),
        setup_for=lambda t: TableSetup("cribbage", dealer=0),
        monotonic=lambda: now[0],
    ).start()
    referee.bus.start()
    bus = MemoryBus(broker, "table")
    bus.start()
    stamper = Stamper("t1/table")
    envs = []
    for card, zone, seat in [
        ("7S", "starter", None),
        ("10H", "play.1", 1),
        ("5C", "play.0", 0),
        ("4D", "play.1", 1),
    ]:
        body = {
            "kind": "placed",
            "card": card,
            "zone": zone,
            "zone_kind": zone.split(".")[0],
            "seat": seat,
            "from_zone": None,
            "t": 1.0,
            "confidence": 1.0,
        }
        envs.append(stamper.stamp("observation", body))
    for env in (envs[1], envs[0], envs[2]):  # the second before the first
        bus.publish(topic("t1", "table/observation"), encode(env))
    assert referee.reading("t1").plays() == [{"seat": 1, "card": "10H"}, {"seat": 0, "card": "5C"}]
    # a message that never comes: the ones behind it are read after reorder_s
    stamper.stamp("observation", envs[3].body)  # seq 5 is lost
    late = stamper.stamp("observation", dict(envs[3].body, card="3D", zone="play.0", seat=0))
    bus.publish(topic("t1", "table/observation"), encode(envs[3]))
    bus.publish(topic("t1", "table/observation"), encode(late))
    assert len(referee.reading("t1").plays()) == 3
    referee.tick()
    assert len(referee.reading("t1").plays()) == 3  # still waiting
    now[0] = 5.0
    referee.tick()
    assert [p["card"] for p in referee.reading("t1").plays()] == ["10H", "5C", "4D", "3D"]
    referee.close()


def test_a_restarted_referee_goes_on_past_every_seq_it_used(memory):
    broker, referee, table, path = memory
    table.observe("placed", "7S", "starter")
    referee.close()
    again = Referee(
        MemoryBus(broker, "referee2"),
        InputLog(path),
        setup_for=lambda t: TableSetup("cribbage", dealer=0),
    )
    again.bus.start()
    again.start()
    before = len(table.events)
    table.observe("placed", "10H", "play.1", 1)
    table.observe("placed", "5C", "play.0", 0)
    # the table's dispatcher drops seqs it has seen: the new events came through
    assert [e["event"]["card"] for e in table.events[before:] if e["type"] == "event"] == [
        "10H",
        "5C",
    ]
    again.close()


def test_after_a_broker_that_forgot_its_retained_messages_the_referee_says_them_again(
    mosquitto, tmp_path
):
    # a broker without persistence (`kiebitz run`'s own, a plain `mosquitto -p`)
    # restarted: the referee reconnected, but its retained online status and the
    # table's state were gone until the next input (forever, after the game's end)
    from controller.bus.topics import status_topic

    ref_bus = MqttBus(mosquitto.url, "referee", reconnect=(0.05, 0.2))
    referee = Referee(
        ref_bus, InputLog(tmp_path / "r.db"), setup_for=lambda t: TableSetup("cribbage")
    ).start()
    ref_bus.start()
    stop = threading.Event()
    referee.run_ticks(stop, every=0.05)
    table_bus = MqttBus(mosquitto.url, "table-t1")
    table_bus.start()
    try:
        table = Table(table_bus)
        # what is sent before the referee's subscriptions are in is not its (no session)
        _until(lambda: ref_bus.health().subscriptions >= 2 and table_bus.connected)
        table.observe("placed", "5H", "hand.0", 0)
        _until(lambda: referee.inputs("t1") == 1)
        inputs = referee.state("t1")["inputs"]
        mosquitto.restart()
        _until(lambda: ref_bus.health().connects >= 2 and ref_bus.connected)
        seen: dict[str, bytes] = {}
        late = MqttBus(mosquitto.url, "late")
        late.subscribe(status_topic("t1", "referee"), lambda t, p: seen.setdefault("status", p))
        late.subscribe(topic("t1", "game/state"), lambda t, p: seen.setdefault("state", p))
        late.start()
        try:
            _until(lambda: len(seen) == 2)
        finally:
            late.close()
        assert json.loads(seen["status"])["body"]["state"] == "online"
        assert json.loads(seen["state"])["body"]["inputs"] == inputs
    finally:
        stop.set()
        table_bus.close()
        referee.close()
        ref_bus.close()


def test_retained_garbage_is_said_once_by_a_referee_whose_session_the_broker_keeps(
    mosquitto, tmp_path
):
    """The referee's session outlives it (``kiebitz referee``: session expiry a day).
    A message retained on its input topics while it was away (a table's bug, or a
    hand-typed ``mosquitto_pub -r``) was given it twice at its start, from the
    session's queue and again as retained: an envelope is dropped the second time by
    its id, garbage has none, and each start said two errors a message."""
    said: list[str] = []  # the topic of each error event the referee published
    watch = MqttBus(mosquitto.url, "watch")
    watch.subscribe(
        topic("t1", "game/event"),
        lambda t, p: said.append(json.loads(p)["body"].get("topic", "")),
    )
    watch.start()
    sender = MqttBus(mosquitto.url, "sender")
    sender.start()

    def referee_once() -> None:
        bus = MqttBus(mosquitto.url, "kiebitz-referee", session_expiry=60)
        referee = Referee(
            bus, InputLog(tmp_path / "r.db"), setup_for=lambda t: TableSetup("cribbage")
        ).start()
        bus.start()
        try:
            _until(lambda: bus.health().subscriptions == 2)
            # the broker sends a subscription's retained messages before it reads the
            # next publish: once this one is said, everything of the start is
            told = said.count(topic("t1", "table/command"))
            sender.publish(topic("t1", "table/command"), b"not an envelope")
            _until(lambda: said.count(topic("t1", "table/command")) > told)
        finally:
            referee.close()
            bus.close()

    try:
        _until(lambda: watch.connected and sender.connected)
        referee_once()  # its session begins
        sender.publish(topic("t1", "table/observation"), b"\x00garbage", retain=True)
        _until(lambda: sender.health().published == 2)
        start = len(said)
        referee_once()
        assert said[start:].count(topic("t1", "table/observation")) == 1, said
    finally:
        sender.close()
        watch.close()


def _until(check, timeout=20.0):
    deadline = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        deadline.wait(0.02)
    raise AssertionError("timed out")


def test_a_stored_contract_no_table_can_declare_is_dropped_not_a_failed_start(tmp_path, caplog):
    # a log written before such contracts were refused when set: the referee did not
    # start at all (every table's reading raised)
    path = tmp_path / "old.db"
    log = InputLog(path)
    setup = TableSetup("skat", {"rules": "isko"}, dealer=0).to_json()
    setup["contract"] = Contract(1, "null", schneider=True).to_json()
    log.set_setup("t1", setup)
    log.close()
    bus = MemoryBus(MemoryBroker(), "referee")
    referee = Referee(bus, InputLog(path), setup_for=lambda t: TableSetup("cribbage")).start()
    assert referee.state("t1")["game"] == "skat" and referee.reading("t1").setup.contract is None
    assert "the stored contract is dropped" in caplog.text
    referee.close()
