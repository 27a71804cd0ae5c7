"""The dispatcher: validation, de-duplication by (sender, seq), and a service that survives."""

import logging
from collections.abc import Callable
from typing import Any

import pytest

from controller.bus.broker import Mosquitto
from controller.bus.bus import MemoryBus, MqttBus
from controller.bus.dispatch import Dispatcher, Publisher, SeqWindow
from controller.bus.envelope import Envelope, PayloadError, Stamper, encode

TOPIC = "kiebitz/v1/t1/game/event"
WaitUntil = Callable[..., None]


def event(seq: int, sender: str = "t1/referee", **body: Any) -> bytes:
    return encode(Envelope(1, f"{seq:032x}", sender, seq, 1.0, "event", {"type": "x", **body}))


class Rig:
    def __init__(self) -> None:
        self.bus = MemoryBus()
        self.bus.start()
        self.seen: list[tuple[str, int]] = []
        self.errors: list[tuple[str, str, str | None]] = []
        self.dispatcher = Dispatcher(self.bus, on_error=lambda *e: self.errors.append(e))
        self.dispatcher.route(
            "kiebitz/v1/+/game/event",
            "event",
            lambda t, env: self.seen.append((env.sender, env.seq)),
        )

    def send(self, payload: bytes) -> None:
        self.bus.publish(TOPIC, payload)


def test_duplicates_dropped_reordered_accepted_once() -> None:
    rig = Rig()
    for seq in (1, 2, 2, 4, 3, 3, 1, 5):
        rig.send(event(seq))
    rig.send(event(2, sender="t1/table"))  # another sender has its own sequence
    assert rig.seen == [("t1/referee", s) for s in (1, 2, 4, 3, 5)] + [("t1/table", 2)]
    stats = rig.dispatcher.stats()
    assert (stats.accepted, stats.duplicates, stats.rejected) == (6, 3, 0)
    assert rig.errors == []


def test_a_sender_named_on_another_tables_topic_takes_none_of_its_seqs() -> None:
    # three messages on t7's topic naming t6's table as sender (refused by the
    # referee as not of that table) took seqs 1-3 of t6's window: t6's own first
    # three were then dropped as duplicates, without a word
    rig = Rig()
    for seq in (1, 2, 3):
        rig.bus.publish("kiebitz/v1/t7/game/event", event(seq, sender="t6/referee"))
    for seq in (1, 2, 3, 4):
        rig.bus.publish("kiebitz/v1/t6/game/event", event(seq, sender="t6/referee"))
    assert rig.seen == [("t6/referee", s) for s in (1, 2, 3, 1, 2, 3, 4)]
    # and one far ahead there does not make the sender's own next seqs look old
    rig.bus.publish("kiebitz/v1/t7/game/event", event(1502, sender="t6/referee"))
    rig.bus.publish("kiebitz/v1/t6/game/event", event(5, sender="t6/referee"))
    assert rig.seen[-1] == ("t6/referee", 5)


def test_a_seq_past_what_the_log_can_store_is_refused() -> None:
    # 2**63 reached the referee's SQLite log: an OverflowError traceback, and the log
    # left inside a transaction that refused the next good message
    rig = Rig()
    rig.send(event(2**63 - 1))
    rig.send(event(7).replace(b'"seq":7', b'"seq":%d' % 2**63))  # encode() refuses it
    assert rig.seen == [("t1/referee", 2**63 - 1)]
    assert len(rig.errors) == 1 and "seq" in rig.errors[0][1]


def test_invalid_payloads_are_logged_and_reported(caplog: pytest.LogCaptureFixture) -> None:
    rig = Rig()
    bad = encode(Envelope(1, "d" * 32, "t1/web", 1, 1.0, "event", {"type": "x"})).replace(
        b'"type":"x"', b'"kind":"x"'
    )
    with caplog.at_level(logging.DEBUG, logger="kiebitz.bus"):
        rig.send(b"\xff")
        rig.send(bad)
        rig.send(encode(Stamper("t1/web").stamp("status", {"state": "online", "component": "w"})))
    assert rig.seen == []
    assert rig.errors == [
        (TOPIC, "envelope: not UTF-8 at byte 0", None),
        (TOPIC, "body: 'type' is a required property", "t1/web"),
        (TOPIC, "kind: expected 'event', got 'status'", "t1/web"),
    ]
    # with an on_error the service says it (one warning a message): the bus only debugs
    said = [r for r in caplog.records if "rejected" in r.getMessage()]
    assert len(said) == 3 and {r.levelno for r in said} == {logging.DEBUG}
    assert said[0].getMessage().rsplit(": ", 1)[-1] == "not UTF-8 at byte 0"
    # without one, the bus warns itself
    caplog.clear()
    alone = Dispatcher(rig.bus)
    alone.route("kiebitz/v1/+/game/state", "state", lambda t, env: None)
    with caplog.at_level(logging.WARNING, logger="kiebitz.bus"):
        rig.bus.publish("kiebitz/v1/t1/game/state", b"\xff")
    assert [r.getMessage() for r in caplog.records] == [
        "rejected a message on kiebitz/v1/t1/game/state from ?: envelope: not UTF-8 at byte 0"
    ]


def test_a_raising_handler_does_not_kill_the_dispatcher() -> None:
    bus = MemoryBus()
    bus.start()
    errors: list[tuple[str, str, str | None]] = []
    seen: list[int] = []

    def handler(topic: str, env: Envelope) -> None:
        if env.body.get("explode"):
            raise KeyError("no such seat")
        seen.append(env.seq)

    def bad_on_error(topic: str, reason: str, sender: str | None) -> None:
        errors.append((topic, reason, sender))
        raise RuntimeError("on_error itself fails")

    dispatcher = Dispatcher(bus, on_error=bad_on_error)
    dispatcher.route(TOPIC, "event", handler)
    bus.publish(TOPIC, event(1, explode=True))
    bus.publish(TOPIC, event(2))
    bus.publish(TOPIC, event(1, explode=True))  # the failed one was accepted: not run again
    assert seen == [2]
    assert errors == [(TOPIC, "handler failed: KeyError: 'no such seat'", "t1/referee")]
    assert dispatcher.stats().handler_errors == 1


def test_publisher_stamps_and_validates() -> None:
    bus = MemoryBus()
    bus.start()
    got: list[Envelope] = []
    Dispatcher(bus).route("kiebitz/v1/t1/game/state", "state", lambda t, e: got.append(e))
    pub = Publisher(bus, Stamper("t1/referee", clock=lambda: 3.0))
    first = pub.send("kiebitz/v1/t1/game/state", "state", {"game": "skat"}, retain=True)
    pub.send("kiebitz/v1/t1/game/state", "state", {"game": "skat", "hand": 2}, retain=True)
    assert [e.seq for e in got] == [1, 2] and got[0] == first
    with pytest.raises(PayloadError, match="body: 'game' is a required property"):
        pub.send("kiebitz/v1/t1/game/state", "state", {})
    assert len(bus.broker.retained()) == 1


def test_seq_window_forgets_only_beyond_the_window() -> None:
    w = SeqWindow(window=3)
    assert [w.accept("a", s) for s in range(1, 11)] == [True] * 10
    assert [w.accept("a", s) for s in (10, 9, 8, 7, 6, 5)] == [False] * 6
    assert w.accept("a", 1) is True  # more than 2 windows back: the sender started again
    assert w.accept("a", 1) is False
    with pytest.raises(ValueError):
        SeqWindow(window=0)


def test_dispatcher_over_the_real_broker(mosquitto: Mosquitto, wait_until: WaitUntil) -> None:
    bus = MqttBus(mosquitto.url, "referee")
    seen: list[int] = []
    errors: list[str] = []
    Dispatcher(bus, on_error=lambda t, r, s: errors.append(r)).route(
        TOPIC, "event", lambda t, env: seen.append(env.seq)
    )
    bus.start()
    sender = MqttBus(mosquitto.url, "table")
    sender.start()
    try:
        wait_until(lambda: bus.health().subscriptions == 1 and sender.connected, "connections")
        for payload in (event(1), event(1), b"{}", event(2)):
            sender.publish(TOPIC, payload)
        wait_until(lambda: seen == [1, 2] and len(errors) == 1, "two events and one error")
        assert errors[0].startswith("envelope: 'schema' is a required property")
    finally:
        sender.close()
        bus.close()


def test_one_seq_far_ahead_does_not_silence_the_real_sender() -> None:
    # a message naming t1/table with a seq 1,500 ahead (corrupt, or forged where the
    # broker's access rules let it through) made every genuine message after it
    # "just below the window": the referee dropped the table's next thousand seqs
    w = SeqWindow()
    assert all(w.accept("t1/table", s) for s in range(1, 11))
    assert w.accept("t1/table", 1510) is True  # delivered once
    assert w.accept("t1/table", 1510) is False
    assert all(w.accept("t1/table", s) for s in range(11, 41))
    assert [w.accept("t1/table", s) for s in (39, 40)] == [False, False]
    # a sender whose count did jump (messages this receiver missed): two seqs close
    # together far ahead move the count, and what was far below is a restart
    assert w.accept("t1/table", 5000) and w.accept("t1/table", 5001)
    assert w.accept("t1/table", 5001) is False
    assert w.accept("t1/table", 4990) is True  # within the window: not seen yet
