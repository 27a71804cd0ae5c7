"""Every subscriber fuzzed with hostile payloads (issue 12): wrong types, huge strings,
deep nesting, unknown cards, other tables' ids, replayed messages. Each is rejected
and logged (an ``error`` event), the service stays alive, and the state is unchanged:
the referee's and the table service's alike, and ``kiebitz run``'s narrator.

Property-based (hypothesis): payloads are drawn at random from hostile shapes, and
from a good envelope with one field made wrong.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.bus.bus import MemoryBroker, MemoryBus
from controller.bus.envelope import Stamper, encode
from controller.referee import InputLog, Referee
from controller.table.service import TableService
from rules.reading import TableSetup

OBS = "kiebitz/v1/t1/table/observation"
CMD = "kiebitz/v1/t1/table/command"
STATE = "kiebitz/v1/t1/game/state"
GOOD_BODY = {
    "kind": "placed",
    "card": "5H",
    "zone": "play.1",
    "zone_kind": "play",
    "seat": 1,
    "from_zone": None,
    "t": 1.0,
    "confidence": 0.99,
}

# values that are wrong wherever they go
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.just("x" * 60_000),  # a huge string, under the 64 kB payload cap
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
NESTED = st.integers(min_value=30, max_value=3000).map(lambda n: "[" * n + "]" * n)
BAD_CARDS = st.sampled_from(["ZZ", "1H", "", "5", "HH", "🂠", "10X", "5H5H", "  ", "A♥♥"])


def envelope(body: Any, **fields: Any) -> bytes:
    env = Stamper("t1/table", start_seq=1000).stamp("observation", GOOD_BODY).to_json()
    env["body"] = body
    env.update(fields)
    return json.dumps(env).encode()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (
        (_is_int(v) or isinstance(v, float)) and v == v and v not in (float("inf"), float("-inf"))
    )


def _is_whole(v: Any) -> bool:
    """An integer as JSON Schema counts them: 3 and 3.0 alike."""
    return _is_number(v) and float(v).is_integer()


#: For each envelope field, junk that is surely wrong there.
WRONG_FIELD = {
    "schema": JUNK.filter(lambda v: not (_is_number(v) and v == 1)),
    "id": JUNK.filter(
        lambda v: not (isinstance(v, str) and len(v) == 32 and set(v) <= set("0123456789abcdef"))
    ),
    "sender": st.sampled_from(["t2/table", "t1x/table", "T1/table", "t1", "", "t1/table/x"]),
    "seq": JUNK.filter(lambda v: not (_is_whole(v) and v >= 1)),
    "ts": JUNK.filter(lambda v: not (_is_number(v) and v >= 0)),
    "kind": JUNK.filter(lambda v: v not in ("observation", "command")),
}
#: For each observation field, a value that is surely wrong there.
WRONG_BODY = {
    "card": BAD_CARDS,
    "kind": JUNK.filter(lambda v: v not in ("placed", "moved", "removed")),
    "seat": JUNK.filter(lambda v: not (v is None or (_is_whole(v) and 0 <= v <= 7))),
    "confidence": JUNK.filter(lambda v: not (_is_number(v) and 0 <= v <= 1)),
    "zone": st.one_of(st.just("z" * 65), st.integers(), st.lists(st.text(), max_size=2)),
    "extra": JUNK,  # a field the schema does not have
}


@st.composite
def hostile(draw: st.DrawFn) -> tuple[str, bytes]:
    """(topic, payload): never a message that is both well formed and new."""
    where = draw(st.sampled_from([OBS, CMD]))
    shape = draw(st.integers(min_value=0, max_value=6))
    if shape == 0:
        return where, draw(st.binary(max_size=200))
    if shape == 1:
        return where, json.dumps(draw(JUNK)).encode()
    if shape == 2:
        return where, draw(NESTED).encode()
    if shape == 3:  # one envelope field made wrong (another table's sender among them)
        name = draw(st.sampled_from(sorted(WRONG_FIELD)))
        return where, envelope(GOOD_BODY, **{name: draw(WRONG_FIELD[name])})
    if shape == 4:  # one body field made wrong: an unknown card, a field too many …
        name = draw(st.sampled_from(sorted(WRONG_BODY)))
        return where, envelope({**GOOD_BODY, name: draw(WRONG_BODY[name])})
    if shape == 5:  # a body that is not an object, or nested deep
        deep = st.integers(min_value=33, max_value=400).map(lambda n: json.loads("[" * n + "]" * n))
        inner = draw(st.one_of(JUNK, deep))
        return where, envelope(inner if not isinstance(inner, dict) else [inner])
    return OBS, REPLAY  # the good message, replayed


REPLAY = encode(Stamper("t1/table", start_seq=1).stamp("observation", GOOD_BODY))


@pytest.fixture(scope="module")
def referee_rig(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    broker = MemoryBroker()
    bus = MemoryBus(broker, "referee")
    bus.start()
    log = InputLog(tmp_path_factory.mktemp("fuzz") / "r.db")
    referee = Referee(bus, log, setup_for=lambda t: TableSetup("cribbage", dealer=0)).start()
    table = MemoryBus(broker, "t1-table")
    table.start()
    errors: list[str] = []
    table.subscribe("kiebitz/v1/t1/game/event", lambda t, p: errors.append(t))
    table.publish(OBS, REPLAY)  # one good observation: the state to keep
    yield referee, table, errors
    referee.close()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile())
def test_the_referee_rejects_hostile_payloads_and_keeps_its_state(referee_rig, message):
    referee, table, errors = referee_rig
    before = json.dumps(referee.state("t1"), sort_keys=True)
    inputs = referee.inputs("t1")
    n_errors = len(errors)
    topic, payload = message
    table.publish(topic, payload)
    referee.tick()
    assert json.dumps(referee.state("t1"), sort_keys=True) == before
    assert referee.inputs("t1") == inputs == 1
    if payload != REPLAY:
        assert len(errors) == n_errors + 1  # rejected and said so
    # alive: the referee still reads its table
    assert referee.reading("t1").summary()["game"] == "cribbage"


def _state_with(name: str, value: Any) -> bytes:
    env = Stamper("t1/referee", start_seq=50).stamp("state", {"game": "cribbage"}).to_json()
    env[name] = value
    return json.dumps(env).encode()


WRONG_STATE_FIELD = {
    **{k: v for k, v in WRONG_FIELD.items() if k not in ("kind", "sender")},
    "sender": st.sampled_from(["t2/referee", "t1x/referee", "", "t1"]),
    "kind": JUNK.filter(lambda v: v != "state"),
    "body": JUNK.filter(lambda v: not (isinstance(v, dict) and "game" in v)),
}
STATES = st.one_of(
    st.binary(max_size=100),
    JUNK.map(lambda v: json.dumps(v).encode()),
    NESTED.map(str.encode),
    st.sampled_from(sorted(WRONG_STATE_FIELD)).flatmap(
        lambda name: WRONG_STATE_FIELD[name].map(lambda value: _state_with(name, value))
    ),
)


@pytest.fixture(scope="module")
def table_rig():  # type: ignore[no-untyped-def]
    broker = MemoryBroker()
    service = TableService("t1", MemoryBus(broker, "t1-table"))
    service.start()
    referee = MemoryBus(broker, "t1-referee")
    referee.start()
    good = {"game": "cribbage", "scores": [5, 9], "pegs": [[5, 0], [9, 4]], "dealer": 0}
    referee.publish(STATE, encode(Stamper("t1/referee", start_seq=1).stamp("state", good)))
    yield service, referee
    service.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STATES)
def test_the_table_service_rejects_hostile_states_and_keeps_its_board(table_rig, payload):
    service, referee = table_rig
    before = service.health()
    referee.publish(STATE, payload)
    after = service.health()
    assert after["last_board_state"] == before["last_board_state"]
    assert after["states"] == before["states"] == 1
    # said on table/event, or (a sender's seq seen before: a replay) dropped and logged
    assert after["errors"] - before["errors"] in (0, 1)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=100), JUNK.map(lambda v: json.dumps(v).encode())))
def test_the_narrator_of_kiebitz_run_shrugs_off_hostile_events(payload):
    from controller.bus.dispatch import Dispatcher

    broker = MemoryBroker()
    bus = MemoryBus(broker, "run")
    bus.start()
    said: list[Any] = []
    rejected: list[str] = []
    d = Dispatcher(bus, on_error=lambda topic, reason, sender: rejected.append(reason))
    d.route("kiebitz/v1/t1/game/event", "event", lambda t, env: said.append(env))
    other = MemoryBus(broker, "x")
    other.start()
    other.publish("kiebitz/v1/t1/game/event", payload)
    assert said == [] and len(rejected) == 1


# -- the recorder and the web view (issue 13) --------------------------------------------

EVENT_BODIES = st.one_of(
    st.fixed_dictionaries({"type": st.just("event"), "index": JUNK, "event": JUNK}),
    st.fixed_dictionaries(
        {
            "type": st.just("event"),
            "index": st.integers(-5, 200),
            "event": st.dictionaries(
                st.sampled_from(["type", "seat", "card", "index", "old", "new", "cards"]),
                st.one_of(JUNK, BAD_CARDS, st.sampled_from(["play", "correct", "deal", "go"])),
                max_size=5,
            ),
            "pegged": JUNK,
            "verdicts": JUNK,
        }
    ),
    st.fixed_dictionaries({"type": st.just("recount"), "since": JUNK}),
    st.fixed_dictionaries({"type": st.just("new_match"), "setup": JUNK}),
    st.fixed_dictionaries({"type": st.sampled_from(["note", "alert", "refused"]), "text": JUNK}),
    st.dictionaries(st.text(max_size=8), JUNK, max_size=4).map(lambda d: {**d, "type": "x"}),
)
STATE_BODIES = st.dictionaries(
    st.sampled_from(
        ["setup", "scores", "plays", "alerts", "engine", "turn", "pegs", "inputs", "events"]
    ),
    st.one_of(JUNK, st.lists(JUNK, max_size=3)),
    max_size=6,
).map(lambda d: {**d, "game": "cribbage"})


@pytest.fixture(scope="module")
def recorder_rig(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from test_outbox import game_lines

    from controller.bus.dispatch import Publisher
    from controller.recorder.service import Recorder
    from controller.recorder.store import RecordStore

    broker = MemoryBroker()
    bus = MemoryBus(broker, "recorder")
    recorder = Recorder(bus, RecordStore(tmp_path_factory.mktemp("rec") / "r.db")).start()
    bus.start()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    table = MemoryBus(broker, "table")
    table.start()
    Referee(
        ref_bus, InputLog(":memory:"), setup_for=lambda _t: TableSetup("cribbage", dealer=0)
    ).start()
    pub = Publisher(table, Stamper("t1/table"))
    for line in game_lines()[:12]:
        pub.send(OBS, "observation", line)
    hostile_bus = MemoryBus(broker, "hostile")
    hostile_bus.start()
    # one sender for every example: its seqs go on (a seq seen before is dropped)
    yield recorder, hostile_bus, Stamper("t1/referee-fuzz")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(EVENT_BODIES.map(lambda b: ("event", b)), STATE_BODIES.map(lambda b: ("state", b)))
)
def test_the_recorder_shrugs_off_hostile_bodies_and_goes_on(recorder_rig, kind_body):
    from controller.recorder.exports import export

    recorder, bus, stamper = recorder_rig
    kind, body = kind_body
    topic = "kiebitz/v1/t1/game/" + kind
    try:
        payload = encode(stamper.stamp(kind, body))
    except ValueError:  # the envelope's own schema refuses it: never reaches anyone
        return
    bus.publish(topic, payload)
    assert len(recorder.backlog) == 0  # nothing held for ever
    # alive: a good message after it is recorded, and the record still reads
    match = recorder.match_of("t1")
    assert match is not None
    said = len(recorder.store.match(match).said)
    bus.publish(
        "kiebitz/v1/t1/game/event", encode(stamper.stamp("event", {"type": "note", "text": "ok"}))
    )
    record = recorder.store.match(recorder.match_of("t1"))
    assert len(record.said) == said + 1 or record.row.id != match
    json.loads(export(record, "json"))


def _web_hub() -> tuple[Any, MemoryBus]:
    """The web view's hub on a bus of its own, and another client on the same broker."""
    from controller.web.hub import TableHub

    hub = TableHub()
    broker = MemoryBroker()
    bus = MemoryBus(broker, "web")
    hub.attach(bus)
    bus.start()
    other = MemoryBus(broker, "x")
    other.start()
    return hub, other


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(EVENT_BODIES.map(lambda b: ("event", b)), STATE_BODIES.map(lambda b: ("state", b)))
)
def test_the_web_views_hub_shrugs_off_hostile_bodies(kind_body):
    hub, other = _web_hub()
    good = {"game": "cribbage", "setup": {"game": "cribbage", "options": {}}, "scores": [1, 2]}
    other.publish(STATE, encode(Stamper("t1/referee", start_seq=1).stamp("state", good)))
    kind, body = kind_body
    try:
        payload = encode(Stamper("t1/referee", start_seq=5).stamp(kind, body))
    except ValueError:
        return
    other.publish("kiebitz/v1/t1/game/" + kind, payload)
    view = hub.view("t1")
    assert view is not None and json.loads(hub.payload("t1") or b"{}")["table"] == "t1"
    assert [row["table"] for row in hub.club()] == ["t1"]


# -- topics that are not Kiebitz's, and senders of another table (the live probe) ------

#: Levels a ``+`` matches that are no table id: each was a traceback in every service
#: (the handler's own parse_topic raised), the longest a log line of 120,000 characters.
BAD_TABLE_LEVELS = ["tü", "T1", "t" * 60_000, "", "t 1", "t1\u202e", "t1\nWARNING forged"]


def _hostile_topics(suffix: str, kind: str, body: dict[str, Any]) -> list[tuple[str, bytes]]:
    good = encode(Stamper("t1/x", start_seq=7).stamp(kind, body))
    out = [(f"kiebitz/v1/{level}/{suffix}", p) for level in BAD_TABLE_LEVELS for p in (good, b"x")]
    if suffix.startswith("status/"):
        out += [("kiebitz/v1/t1/status/" + "é" * 30_000, good)]
        out += [("kiebitz/v1/t1/status/" + "c" * 60_000, good)]
    return out


def _one_clear_line_each(caplog: pytest.LogCaptureFixture, n: int) -> None:
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r for r in records if r.exc_info] == [], "a traceback"
    assert len(records) == n, [r.getMessage()[:200] for r in records]
    for r in records:
        line = r.getMessage()
        assert "\n" not in line and len(line) < 600, line[:200]
        assert "table id" in line or "characters" in line or "bad level" in line or "JSON" in line


def test_topics_that_are_no_kiebitz_topic_are_one_clear_line_in_each_service(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from controller.recorder.service import Recorder
    from controller.recorder.store import RecordStore
    from controller.web.hub import TableHub

    broker = MemoryBroker()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    referee = Referee(
        ref_bus, InputLog(":memory:"), setup_for=lambda t: TableSetup("cribbage", dealer=0)
    ).start()
    rec_bus = MemoryBus(broker, "recorder")
    recorder = Recorder(rec_bus, RecordStore(tmp_path / "r.db")).start()
    rec_bus.start()
    hub = TableHub()
    web_bus = MemoryBus(broker, "web")
    hub.attach(web_bus)
    web_bus.start()
    hostile_bus = MemoryBus(broker, "hostile")
    hostile_bus.start()
    cases = [
        ("table/observation", "observation", GOOD_BODY),
        ("table/command", "command", {"command": "undo"}),
        ("game/event", "event", {"type": "note", "text": "x"}),
        ("game/state", "state", {"game": "cribbage"}),
        ("status/x", "status", {"state": "online", "component": "x"}),
    ]
    # each service subscribes to two of them (the web view to three): one line each
    expected = {"observation": 1, "command": 1, "event": 2, "state": 2, "status": 1}
    for suffix, kind, body in cases:
        for topic_, payload in _hostile_topics(suffix, kind, body):
            caplog.clear()
            with caplog.at_level(logging.INFO):
                hostile_bus.publish(topic_, payload)
            _one_clear_line_each(caplog, expected[kind])
    assert referee.runs == {} and hub.tables == {} and recorder.tables == {}
    # alive: a good observation is read, recorded and shown
    table = MemoryBus(broker, "t1-table")
    table.start()
    table.publish(OBS, REPLAY)
    assert referee.inputs("t1") == 1
    assert recorder.match_of("t1") is not None
    view = hub.view("t1")
    assert view is not None and view["state_ts"] is not None
    assert view["events"] == referee.state("t1")["events"]
    referee.close()


def test_the_web_view_shows_no_state_from_another_tables_sender(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hub, other = _web_hub()
    good = {"game": "cribbage", "scores": [1, 2]}
    other.publish(STATE, encode(Stamper("t1/referee").stamp("state", good)))
    forged = {"game": "skat", "scores": [99, 0, 0]}
    with caplog.at_level(logging.WARNING):
        for sender in ("t2/referee", "x/y"):
            other.publish(STATE, encode(Stamper(sender).stamp("state", forged)))
            other.publish(
                "kiebitz/v1/t1/status/referee",
                encode(Stamper(sender).stamp("status", {"state": "offline", "component": "r"})),
            )
    view = hub.view("t1")
    assert view is not None and view["game"] == "cribbage" and view["scores"] == [1, 2]
    assert view["status"] == {}
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4 and all("is not of table t1" in line for line in lines)
