"""The recorder: the referee's events into records, on SQLite and a real PostgreSQL;
every game's stored match replayed through the engine to the referee's result;
the exports; redeliveries, restarts, a database away, bad messages."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from reading_helpers import trick_told
from test_outbox import game_lines

from controller.bus.bus import MemoryBroker, MemoryBus
from controller.bus.dispatch import Publisher
from controller.bus.envelope import Stamper
from controller.bus.topics import topic
from controller.recorder.exports import FORMATS, export
from controller.recorder.replay import ReplayError, check, replay
from controller.recorder.service import Recorder
from controller.recorder.store import RecordsError, RecordStore
from controller.referee import InputLog, Referee
from rules.events import Play, event_to_json
from rules.reading import Contract, TableSetup


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> str:
    """A records database of each kind."""
    if request.param == "sqlite":
        return str(tmp_path / "records.db")
    return request.getfixturevalue("postgres_url")


class Rig:
    """A referee and a recorder on one in-process broker, and a table sending to them."""

    def __init__(self, url: str, setup: TableSetup, table: str = "t1") -> None:
        self.broker = MemoryBroker()
        self.url = url
        self.table = table
        ref_bus = MemoryBus(self.broker, "referee")
        ref_bus.start()
        self.referee = Referee(ref_bus, InputLog(":memory:"), setup_for=lambda _t: setup)
        self.referee.start()
        self.recorder = self.new_recorder()
        bus = MemoryBus(self.broker, "table")
        bus.start()
        self.pub = Publisher(bus, Stamper(f"{table}/table"))

    def new_recorder(self, name: str = "recorder") -> Recorder:
        bus = MemoryBus(self.broker, name)
        recorder = Recorder(bus, RecordStore(self.url)).start()
        bus.start()
        return recorder

    def sender(self, name: str, source: str) -> Publisher:
        """Another client on the broker, stamping what it sends as ``source``."""
        bus = MemoryBus(self.broker, name)
        bus.start()
        return Publisher(bus, Stamper(source))

    def observe(self, body: dict[str, Any]) -> None:
        self.pub.send(topic(self.table, "table/observation"), "observation", body)

    def command(self, **body: Any) -> None:
        self.pub.send(topic(self.table, "table/command"), "command", body)

    def feed(self, items) -> None:
        for item in items:
            if "command" in item:
                self.command(**item)
            else:
                self.observe(item)

    def record(self, match: int | None = None):
        store = self.recorder.store
        return store.match(match if match is not None else self.recorder.match_of(self.table))


def obs_bodies(lines) -> list[dict[str, Any]]:
    return [{**json.loads(json.dumps(o.to_json())), "card": str(o.card)} for o in lines]


def skat_deal_inputs(seed: int, *, revoke: bool) -> tuple[list[dict[str, Any]], Contract]:
    from rules.skat.autoplay import random_deal
    from rules.skat.events import Declare

    deal = random_deal(random.Random(seed), reveal=False, revoke_at=2 if revoke else None)
    declare = next(e for e in deal.events if isinstance(e, Declare))
    d = declare.declaration
    contract = Contract(declare.seat, d.game, hand=d.hand, ouvert=d.ouvert)
    plays = [(e.seat, e.card) for e in deal.events if isinstance(e, Play)]
    return obs_bodies(trick_told(plays, 3).lines()), contract


def assert_round_trip(rig: Rig) -> Any:
    """The stored match replays through the engine to the referee's own state."""
    record = rig.record()
    assert record.complete and record.missing == []
    state = rig.referee.state(rig.table)
    game = replay(record)
    assert len(game.events) == state["events"] == record.row.events
    assert check(record) == []
    assert game.summary()["scores"] == state["scores"]
    assert [v.to_json() for v in game.verdicts if v.to_json() in state["verdicts"]] == state[
        "verdicts"
    ]
    plays = [(p["seat"], p["card"]) for p in record.plays]
    engine_plays = [(p["seat"], p["card"]) for p in rig.referee.reading(rig.table).plays()]
    assert plays == engine_plays
    return record


# -- every game, round trip ----------------------------------------------------------


def test_a_cribbage_game_is_recorded_deal_by_deal_and_replays_to_its_result(db):
    rig = Rig(db, TableSetup("cribbage", {"game_to": 61}, dealer=0))
    rig.feed(game_lines())
    record = assert_round_trip(rig)
    state = rig.referee.state("t1")
    assert max(state["scores"]) == 61
    assert len(record.deals) >= 4 and [d["number"] for d in record.deals] == list(
        range(len(record.deals))
    )
    # the dealer of each deal (the state's, the deal event names none) alternates
    assert [d["dealer"] for d in record.deals] == [n % 2 for n in range(len(record.deals))]
    # points counted in each deal add up to the final scores (the winner's stop at
    # the game hole), and the scores after the last deal are the state's
    totals = [0, 0]
    for d in record.deals:
        for side, pegged in (d["pegged"] or {}).items():
            totals[int(side)] += pegged["points"]
    assert [min(t, 61) for t in totals] == state["scores"]
    last = record.deals[-1]["pegged"]
    assert [last[str(side)]["score"] for side in (0, 1)] == state["scores"]
    log = export(record, "cribbage-log")
    assert "game over: seat" in log and "fifteen" in log
    assert log.count("\ndeal ") == len(record.deals)
    rows = export(record, "csv").splitlines()
    assert len(rows) == 1 + len(record.deals)
    assert rows[-1].split(",")[-1] == " ".join(map(str, state["scores"]))


def test_a_skat_deal_with_a_revoke_is_recorded_with_its_verdict(db):
    inputs, contract = skat_deal_inputs(8, revoke=True)
    rig = Rig(db, TableSetup("skat", {"rules": "isko"}, dealer=2, contract=contract))
    rig.feed(inputs)
    record = assert_round_trip(rig)
    assert [v["kind"] for v in rig.referee.state("t1")["verdicts"]] == ["revoke"]
    assert len(record.deals) == 1 and record.deals[0]["result"]["kind"] == "game"
    assert len(record.plays) == 30
    pad = export(record, "pad")
    value = record.deals[0]["result"]["value"]
    assert "settlement (Law 59)" in pad and str(abs(value)) in pad
    sf = export(record, "seeger-fabian")
    assert "games won" in sf and "total" in sf
    # the camera sees cards played, not the deal: no ISS record, and it says why
    assert export(record, "iss").startswith("# deal 1: no ISS record")


def test_frog_and_all_fours_deals_round_trip(db):
    from rules.allfours.autoplay import random_deal as allfours_deal
    from rules.allfours.game import Deal as AFDeal
    from rules.frog.autoplay import random_deal as frog_deal
    from rules.frog.game import NameTrump, Offer
    from rules.reading.inputs import TableObservation

    deal = frog_deal(random.Random(3), reveal=False)
    offer = next(e for e in deal.events if isinstance(e, Offer))
    name = next((e for e in deal.events if isinstance(e, NameTrump)), None)
    word = {"S": "spades", "D": "diamonds", "C": "clubs"}[name.suit] if name else deal.game
    plays = [(e.seat, e.card) for e in deal.events if isinstance(e, Play)]
    rig = Rig(db, TableSetup("frog", dealer=2, contract=Contract(offer.seat, word)))
    rig.feed(obs_bodies(trick_told(plays, 3).lines()))
    assert len(assert_round_trip(rig).plays) == len(plays)

    af = allfours_deal(random.Random(1), reveal=False)
    turned = next(e for e in af.events if isinstance(e, AFDeal)).turned
    plays = [(e.seat, e.card) for e in af.events if isinstance(e, Play)]
    rig = Rig(db, TableSetup("allfours", dealer=1), table="t2")
    starter = TableObservation("placed", turned, "starter", "starter", None)
    rig.feed(obs_bodies([starter, *trick_told(plays, 2).lines()]))
    assert len(assert_round_trip(rig).plays) == len(plays)


def test_corrections_undo_and_a_new_match_are_recorded(db):
    rig = Rig(db, TableSetup("cribbage", dealer=0))
    lines = game_lines()
    rig.feed(lines[:12])
    rig.command(command="undo")  # the last card read set aside: the deal recounted
    rig.feed(lines[11:50])
    assert any(p["deal"] == 1 for p in rig.record().plays)
    # a card of an earlier deal put right: a correct event, the play row follows it
    first_play = next(p for p in rig.record().plays if p["deal"] == 0)
    new = "KS" if first_play["card"] != "KS" else "QS"
    rig.command(command="replace", event=first_play["event"], old=first_play["card"], new=new)
    record = assert_round_trip(rig)
    assert any(s["type"] == "recount" for s in record.said)
    assert next(p for p in record.plays if p["event"] == first_play["event"])["card"] == new
    assert record.events[-1][1]["type"] == "correct"
    first = record.row.id
    # another game: the first match ends, the second begins with its own setup
    rig.command(command="new_game", game="skat", options={"players": 3})
    assert rig.recorder.match_of("t1") != first
    matches = rig.recorder.store.matches(table="t1")
    assert [m.game for m in matches] == ["skat", "cribbage"]
    assert matches[1].ended_at is not None and matches[0].open
    assert check(rig.recorder.store.match(first)) == []


# -- exports ------------------------------------------------------------------------------


def test_an_iss_record_stored_is_exported_as_the_same_deal(tmp_path):
    # a deal whose hands are known (entered, or read from an ISS file) round-trips
    from rules.skat.iss import parse_record, record_events
    from rules.skat.iss import replay as iss_replay

    lines = (Path(__file__).parent / "data" / "skat" / "iss_records.txt").read_text()
    text = next(
        line
        for line in lines.splitlines()
        if line.startswith("(;") and "passed" not in line and "TI." not in line
    )
    rec = parse_record(text)
    events = [event_to_json(e) for e in record_events(rec)]
    store = RecordStore(tmp_path / "r.db")
    setup = {"game": "skat", "options": {"rules": "isko"}, "dealer": None, "contract": None}
    with store.write("m1", "t1", at=1.0) as tx:
        assert tx is not None
        match = tx.begin_match("t1", setup, [], at=1.0)
        tx.put_events(match, [(i, e, {}) for i, e in enumerate(events)], at=1.0)
    out = export(store.match(match), "iss").strip()
    again = iss_replay(parse_record(out))
    assert again.differs == () and again.result == iss_replay(rec).result
    played = [e for e in record_events(rec) if isinstance(e, Play)]
    assert [e for e in record_events(parse_record(out)) if isinstance(e, Play)] == played


def test_every_export_says_what_it_cannot_write(tmp_path):
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    rig.feed(game_lines()[:20])
    record = rig.record()
    for fmt in ("iss", "pad", "seeger-fabian"):
        with pytest.raises(ValueError, match="is cribbage, not skat"):
            export(record, fmt)
    with pytest.raises(ValueError, match="format 'pdf'"):
        export(record, "pdf")
    data = json.loads(export(record, "json"))
    assert data["replay"] == {"replayed": True, "agrees": True, "differences": []}
    assert len(data["events"]) == record.row.events
    assert set(FORMATS) == {"json", "iss", "pad", "seeger-fabian", "cribbage-log", "csv"}


# -- nothing lost, nothing twice ---------------------------------------------------------


def test_a_redelivered_message_is_stored_once_and_a_restarted_recorder_goes_on(tmp_path):
    url = str(tmp_path / "r.db")
    rig = Rig(url, TableSetup("cribbage", dealer=0))
    lines = game_lines()
    seen: list[bytes] = []
    watch = MemoryBus(rig.broker, "watch")
    watch.subscribe("kiebitz/v1/t1/game/event", lambda _t, p: seen.append(p))
    watch.start()
    rig.feed(lines[:10])
    for payload in list(seen):  # every event again (QoS 1 delivers at least once)
        watch.publish("kiebitz/v1/t1/game/event", payload)
    assert rig.record().row.events == rig.referee.state("t1")["events"]
    rig.recorder.bus.close()
    rig.recorder.close()
    rig.feed(lines[10:20])  # played while the recorder is away (no session on this bus)
    rig.recorder = rig.new_recorder("recorder2")
    rig.feed(lines[20:40])
    record = rig.record()
    assert len(rig.recorder.store.matches()) == 1  # the match under way, taken up again
    assert not record.complete and record.missing  # what it never heard is said
    with pytest.raises(ReplayError, match="never received"):
        replay(record)
    assert json.loads(export(record, "json"))["replay"]["replayed"] is False


def test_a_recorder_started_mid_match_records_from_the_state_on(tmp_path):
    broker = MemoryBroker()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    referee = Referee(ref_bus, InputLog(":memory:"), setup_for=lambda _t: TableSetup("cribbage"))
    referee.start()
    table = MemoryBus(broker, "table")
    table.start()
    pub = Publisher(table, Stamper("t1/table"))
    lines = game_lines()
    for body in lines[:15]:
        pub.send(topic("t1", "table/observation"), "observation", body)
    bus = MemoryBus(broker, "recorder")
    recorder = Recorder(bus, RecordStore(tmp_path / "r.db")).start()
    bus.start()  # the retained state opens the match
    record = recorder.store.match(recorder.match_of("t1"))
    assert record.row.state["events"] > record.row.events and not record.complete
    for body in lines[15:25]:
        pub.send(topic("t1", "table/observation"), "observation", body)
    assert recorder.store.match(recorder.match_of("t1")).missing


def test_a_database_away_keeps_the_messages_and_writes_them_when_it_is_back(
    postgres_server, caplog
):
    caplog.set_level("INFO", logger="kiebitz.recorder")
    url = postgres_server.database()
    rig = Rig(url, TableSetup("cribbage", {"game_to": 61}, dealer=0))
    lines = game_lines()
    rig.feed(lines[:30])
    postgres_server.stop()
    try:
        rig.feed(lines[30:80])  # the recorder cannot write: it keeps them, in order
        assert rig.recorder.backlog
    finally:
        postgres_server.start()
    waited = len(rig.recorder.backlog)
    rig.recorder.tick()
    assert len(rig.recorder.backlog) == 0
    # the error when it began to wait was the last word; now the return is said too
    said = [r.getMessage() for r in caplog.records if r.name == "kiebitz.recorder"]
    assert f"the {waited} message(s) kept in memory are in the records" in said
    rig.feed(lines[80:])
    assert_round_trip(rig)


def _records_in_a_folder(tmp_path: Path) -> tuple[Rig, Path, list[dict[str, Any]]]:
    """A rig recording into ``records/r.db``, the first 30 lines of a game fed."""
    folder = tmp_path / "records"
    folder.mkdir()
    path = folder / "r.db"
    rig = Rig(str(path), TableSetup("cribbage", {"game_to": 61}, dealer=0))
    lines = game_lines()
    rig.feed(lines[:30])
    return rig, path, lines


def _the_whole_match_is_on_disk(rig: Rig, path: Path) -> None:
    """The match round-trips, and a store opened afresh (a start) holds all of it."""
    assert_round_trip(rig)
    match = rig.recorder.match_of("t1")
    rig.recorder.close()
    again = RecordStore(path)
    assert again.match(match).complete
    again.close()


def test_records_whose_folder_is_removed_in_use_are_made_again_with_nothing_lost(tmp_path, caplog):
    # `rm -rf` of the records' folder under a running recorder: SQLite wrote on into
    # the removed file without a word, and the match went with the process
    import shutil

    rig, path, lines = _records_in_a_folder(tmp_path)
    shutil.rmtree(path.parent)
    rig.feed(lines[30:60])
    with caplog.at_level(logging.ERROR, logger="kiebitz.recorder"):
        rig.recorder.tick()  # (the ticks' thread, every second)
    assert path.is_file() and "made again from the open copy, nothing lost" in caplog.text
    rig.feed(lines[60:])  # into the file made again
    _the_whole_match_is_on_disk(rig, path)


def test_records_removed_while_the_pool_holds_a_connection_are_made_again_whole(tmp_path, caplog):
    # the web view may hold the pool's only connection: the copy was taken from a
    # connection the pool opened afresh, which cannot open a path whose folder is
    # gone (a traceback every tick, the backlog never written); the store copies
    # from a connection of its own, kept open on the file it opened
    import shutil

    rig, path, lines = _records_in_a_folder(tmp_path)
    store = rig.recorder.store
    held = store.engine.connect()  # a spectator's request, still open
    shutil.rmtree(path.parent)
    with pytest.raises(sa.exc.OperationalError), store.engine.connect():
        pass  # the pool's next connection: the folder is gone
    with caplog.at_level(logging.ERROR, logger="kiebitz.recorder"):
        rig.recorder.tick()
    assert "made again from the open copy, nothing lost" in caplog.text
    assert "tick failed" not in caplog.text
    held.close()
    rig.feed(lines[30:])
    _the_whole_match_is_on_disk(rig, path)


def test_bad_messages_are_said_and_skipped_and_the_recorder_goes_on(tmp_path, caplog):
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    rig.feed(game_lines()[:6])
    forger = rig.sender("t1-forger", "t1/referee-x")
    forger.send(topic("t1", "game/event"), "event", {"type": "event", "index": "x"})
    forger.send(topic("t1", "game/event"), "event", {"type": "recount"})
    with caplog.at_level(logging.WARNING):
        forger.bus.publish(topic("t1", "game/event"), b"not json")
    errors = rig.recorder.errors
    assert errors >= 3
    said = [r for r in caplog.records if "rejected" in r.getMessage()]
    assert [r.name for r in said] == ["kiebitz.recorder"]  # one warning, the recorder's
    assert (
        said[0]
        .getMessage()
        .startswith("rejected a message on kiebitz/v1/t1/game/event from ?: envelope: not JSON")
    )
    rig.feed(game_lines()[6:30])
    assert_round_trip(rig)


def test_a_first_state_without_its_setup_is_named_so(tmp_path, caplog):
    # "a setup is an object with its game" said what a setup is, not that the state
    # had none (a bus sweep's find)
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    stray = rig.sender("t2-table", "t2/referee")
    with caplog.at_level(logging.WARNING, logger="kiebitz.recorder"):
        stray.send(topic("t2", "game/state"), "state", {"game": "cribbage", "table": "t2"})
        stray.send(
            topic("t2", "game/state"), "state", {"game": "cribbage", "table": "t2", "setup": 5}
        )
    said = [r.getMessage() for r in caplog.records]
    assert any(m.endswith("state: no setup (an object with its game)") for m in said), said
    assert any(m.endswith("state: setup is no object with its game") for m in said), said


def test_the_migrations_make_the_schema_the_code_declares(db):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from controller.recorder.schema import SCHEMA_VERSION, metadata

    store = RecordStore(db)
    assert store.version() == SCHEMA_VERSION
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
    store.close()
    RecordStore(db).close()  # opened again: already at the newest revision


#: A worker of the race below: opens the records at each round's URL when the round's
#: go file appears (after every worker said it is ready), and says how it went.
_OPENER = r"""
import json, os, sys, time
from controller.recorder.store import RecordStore
where, urls = sys.argv[1], json.loads(sys.argv[2])
for n, url in enumerate(urls):
    open(os.path.join(where, f"ready-{n}-{os.getpid()}"), "w").close()
    go = os.path.join(where, f"go-{n}")
    deadline = time.monotonic() + 120
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.0005)
    try:
        store = RecordStore(url)
        said = store.version()
        store.close()
    except Exception as exc:
        said = f"{type(exc).__name__}: {exc}"
    print(json.dumps([n, said]), flush=True)
"""


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_openers_started_at_once_on_new_records_all_open_them_at_the_newest_schema(
    kind, tmp_path, request
):
    """The recorder and the web view started in the same second on a new records file:
    one failed with ``table alembic_version already exists`` (or found the other's
    tables half made). Eight processes open new records at once, round after round:
    every one opens them, at the newest revision, with the schema made once."""
    from controller.recorder.schema import SCHEMA_VERSION

    workers, rounds = 8, 4
    if kind == "sqlite":
        urls = [str(tmp_path / f"records-{n}.db") for n in range(rounds)]
    else:
        server = request.getfixturevalue("postgres_server")
        urls = [server.database() for _ in range(rounds)]
    where = tmp_path / "barrier"
    where.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _OPENER, str(where), json.dumps(urls)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        for _ in range(workers)
    ]
    try:
        for n in range(rounds):
            deadline = time.monotonic() + 120
            while len(list(where.glob(f"ready-{n}-*"))) < workers:
                assert time.monotonic() < deadline, "the workers never got ready"
                assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
                time.sleep(0.01)
            (where / f"go-{n}").touch()
        said = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    results = [json.loads(line) for out, _ in said for line in out.splitlines()]
    assert all(p.returncode == 0 for p in procs), [err for _, err in said]
    assert sorted(results) == sorted([n, SCHEMA_VERSION] for n in range(rounds) for _ in procs), [
        r for r in results if r[1] != SCHEMA_VERSION
    ]
    for url in urls:  # each made once: one version row, and every table there
        store = RecordStore(url)
        with store.engine.connect() as conn:
            versions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).all()
            assert [v[0] for v in versions] == [SCHEMA_VERSION]
            assert {"matches", "events", "deals", "messages"} <= set(
                sa.inspect(conn).get_table_names()
            )
        store.close()


def test_a_file_that_is_not_a_records_database_is_refused(tmp_path):
    other = tmp_path / "referee.db"
    InputLog(other).close()
    with pytest.raises(RecordsError, match="not a records database"):
        RecordStore(other)
    with pytest.raises(RecordsError, match="cannot open"):
        RecordStore(tmp_path / "no" / "such" / "folder.db")
    with pytest.raises(RecordsError, match="expected a file"):
        RecordStore("mysql://x")
    (tmp_path / "junk.db").write_bytes(b"this is no database" * 100)
    with pytest.raises(RecordsError):
        RecordStore(tmp_path / "junk.db")


def test_sqlite_records_are_kept_in_wal_mode(tmp_path):
    RecordStore(tmp_path / "r.db").close()
    assert sqlite3.connect(tmp_path / "r.db").execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_message_of_another_table_is_not_recorded_for_this_one(tmp_path):
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    rig.feed(game_lines()[:6])
    before = rig.record().row.events
    other = rig.sender("t2", "t2/referee")
    other.send(topic("t1", "game/event"), "event", {"type": "event", "index": 99, "event": {}})
    assert rig.record().row.events == before


# -- the command line ----------------------------------------------------------------------


def test_kiebitz_records_lists_shows_and_exports(tmp_path, capsys):
    from controller.cli import main

    url = str(tmp_path / "r.db")
    inputs, contract = skat_deal_inputs(8, revoke=True)
    rig = Rig(url, TableSetup("skat", {"rules": "isko"}, dealer=2, contract=contract))
    rig.feed(inputs)
    match = rig.recorder.match_of("t1")
    capsys.readouterr()
    assert main(["records", "--db", url, "list"]) == 0
    out = capsys.readouterr().out
    assert out.split()[:3] == [str(match), "t1", "skat"] and "playing" in out
    assert main(["records", "--db", url, "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["match"] == match
    assert main(["records", "--db", url, "show", str(match)]) == 0
    out = capsys.readouterr().out
    assert "replay   agrees with the referee" in out and "30 cards played" in out
    pad = tmp_path / "pad.txt"
    assert (
        main(["records", "--db", url, "export", str(match), "--format", "pad", "--out", str(pad)])
        == 0
    )
    assert "settlement (Law 59)" in pad.read_text()
    assert main(["records", "--db", url, "export", str(match), "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith("match,table,game,deal")
    # what cannot be done: one line, status 2
    for argv, says in (
        (["show", "99"], "no match 99"),
        (["export", str(match), "--format", "cribbage-log"], "is skat, not cribbage"),
        (["export", str(match), "--out", str(tmp_path / "no" / "x")], "--out"),
    ):
        assert main(["records", "--db", url, *argv]) == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1, err
    other = tmp_path / "referee.db"
    InputLog(other).close()
    assert main(["records", "--db", str(other), "list"]) == 2
    assert "not a records database" in capsys.readouterr().err
    # a mistyped name is not a new, empty database to list (it was made, and said
    # "no matches recorded" with status 0)
    typo = tmp_path / "recrods.db"
    for argv in (["list"], ["show", str(match)], ["export", str(match)]):
        assert main(["records", "--db", str(typo), *argv]) == 2
        assert f"{typo}: no such file" in capsys.readouterr().err
    assert not typo.exists()


def test_an_event_index_far_past_the_match_or_a_recount_past_it_is_refused(tmp_path):
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    rig.feed(game_lines()[:6])
    before = rig.record().row.events
    odd = rig.sender("t1-odd", "t1/referee-odd")
    errors = rig.recorder.errors
    odd.send(topic("t1", "game/event"), "event",
             {"type": "event", "index": 10**9, "event": {"type": "go", "seat": 0}})  # fmt: skip
    odd.send(topic("t1", "game/event"), "event", {"type": "recount", "since": before + 5})
    odd.send(topic("t1", "game/event"), "event", {"type": "recount", "since": -1})
    assert rig.recorder.errors == errors + 3
    record = rig.record()
    assert record.row.events == before and record.missing == []  # nothing of them kept


# -- the review's cases ---------------------------------------------------------------------


def test_a_body_the_database_refuses_is_skipped_and_the_rest_goes_on(db):
    rig = Rig(db, TableSetup("cribbage", dealer=0))
    lines = game_lines()
    rig.feed(lines[:6])
    odd = rig.sender("t1-odd", "t1/referee-odd")
    errors = rig.recorder.errors
    events = rig.record().row.events
    # no event of the game (an index that is a list, a card that is no card); a note the
    # database cannot hold (PostgreSQL's JSON takes no NUL character)
    odd.send(topic("t1", "game/event"), "event",
             {"type": "event", "index": events,
              "event": {"type": "correct", "index": [1], "old": "5H", "new": "6H"}})  # fmt: skip
    odd.send(topic("t1", "game/event"), "event",
             {"type": "event", "index": events,
              "event": {"type": "play", "seat": 0, "card": "5HHHH"}})  # fmt: skip
    odd.send(topic("t1", "game/event"), "event", {"type": "note", "text": "a\x00b"})
    assert rig.recorder.errors >= errors + 2
    rig.feed(lines[6:30])
    assert len(rig.recorder.backlog) == 0
    assert_round_trip(rig)


def test_a_match_begun_in_a_write_that_failed_is_not_taken_as_under_way(tmp_path, monkeypatch):
    import sqlalchemy as sa

    from controller.recorder.store import Writer

    real = Writer.put_state
    fails = [1]

    def once(self, *a, **kw):  # the database goes away once, mid-transaction
        if fails:
            fails.pop()
            raise sa.exc.OperationalError("UPDATE", {}, Exception("server closed the connection"))
        return real(self, *a, **kw)

    monkeypatch.setattr(Writer, "put_state", once)
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    rig.feed(game_lines()[:20])
    # the table's first state failed: nothing committed, the recorder knows no match; it
    # and what came after it wait, in order
    assert rig.recorder.match_of("t1") is None and rig.recorder.backlog
    rig.recorder.tick()
    assert len(rig.recorder.backlog) == 0 and rig.recorder.store.matches()[0].id == 1
    assert_round_trip(rig)


def test_messages_before_the_first_state_are_each_taken_on_their_own(tmp_path):
    broker = MemoryBroker()
    bus = MemoryBus(broker, "recorder")
    recorder = Recorder(bus, RecordStore(tmp_path / "r.db")).start()
    bus.start()
    sender = MemoryBus(broker, "ref")
    sender.start()
    ref = Publisher(sender, Stamper("t1/referee"))
    ev = lambda i, e: {"type": "event", "index": i, "event": e}  # noqa: E731
    ref.send(topic("t1", "game/event"), "event", ev(1, {"type": "bogus"}))  # no such event
    ref.send(topic("t1", "game/event"), "event", ev(1, {"type": "deal"}))
    ref.send(topic("t1", "game/event"), "event", {"type": "note", "text": "a deal"})
    setup = {"game": "cribbage", "options": {}, "dealer": 0, "contract": None}
    ref.send(topic("t1", "game/state"), "state", {"game": "cribbage", "setup": setup, "events": 2})
    record = recorder.store.match(recorder.match_of("t1"))
    assert [e["type"] for _, e, _ in record.events] == ["set_dealer", "deal"]
    assert [s["type"] for s in record.said] == ["note"] and recorder.errors == 1


def test_a_correction_undone_deals_later_puts_the_play_back(tmp_path):
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))
    lines = game_lines()
    rig.feed(lines[:100])
    record = rig.record()
    assert max(p["deal"] for p in record.plays) >= 2
    first = next(p for p in record.plays if p["deal"] == 0)
    new = "KS" if first["card"] != "KS" else "QS"
    rig.command(command="replace", event=first["event"], old=first["card"], new=new)
    assert next(p for p in rig.record().plays if p["event"] == first["event"])["card"] == new
    rig.command(command="undo")  # the correction was the last thing in this deal's reading
    record = assert_round_trip(rig)
    card = next(p for p in record.plays if p["event"] == first["event"])["card"]
    engine = rig.referee.reading("t1").plays()
    assert card == engine[[p["event"] for p in record.plays].index(first["event"])]["card"]


def test_every_entry_on_the_skat_pad_is_a_line_and_the_lists_add_up(tmp_path):
    # Law 58: every item entered, the last entry the player's score; a penalty (Law 23)
    # is on the pad, not in the Seeger-Fabian points
    inputs, contract = skat_deal_inputs(8, revoke=True)
    rig = Rig(
        str(tmp_path / "r.db"), TableSetup("skat", {"rules": "isko"}, dealer=2, contract=contract)
    )
    rig.feed(inputs)
    rig.command(command="penalty", seat=1, points=-25, reason="Law 23")
    record = assert_round_trip(rig)
    pad = export(record, "pad").splitlines()
    deal = record.deals[0]["result"]
    assert any(line.strip().startswith(f"deal 1: seat {deal['declarer']}") for line in pad)
    penalty = next(line for line in pad if "penalty, seat 1 (Law 23)" in line)
    assert penalty.split()[-1] == "-25"
    state = rig.referee.state("t1")
    total = next(line for line in pad if line.strip().startswith("total"))
    assert [int(x) for x in total.split()[1:]] == state["scores"]
    sf = export(record, "seeger-fabian").splitlines()
    sf_total = next(line for line in sf if line.strip().startswith("total"))
    tournament = state["engine"]["tournament"]
    assert [int(x) for x in sf_total.split()[1:]] == tournament
    apart = next(line for line in sf if "penalties on the score pad" in line)
    assert apart.split()[-3:] == ["0", "-25", "0"]


def test_a_match_recorded_late_is_made_whole_from_the_referees_log(tmp_path, capsys):
    from controller.cli import main

    # the referee with its log on disk; the recorder comes when the game is under way
    broker = MemoryBroker()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    log = tmp_path / "referee.db"
    referee = Referee(
        ref_bus,
        InputLog(log),
        setup_for=lambda _t: TableSetup("cribbage", {"game_to": 61}, dealer=0),
    ).start()
    table = MemoryBus(broker, "table")
    table.start()
    pub = Publisher(table, Stamper("t1/table"))
    lines = game_lines()
    for line in lines[:40]:
        pub.send(topic("t1", "table/observation"), "observation", line)
    url = str(tmp_path / "r.db")
    bus = MemoryBus(broker, "recorder")
    recorder = Recorder(bus, RecordStore(url)).start()
    bus.start()
    for line in lines[40:]:
        pub.send(topic("t1", "table/observation"), "observation", line)
    late = recorder.match_of("t1")
    assert not recorder.store.match(late).complete
    final = referee.state("t1")["scores"]
    referee.close()
    capsys.readouterr()
    assert main(["records", "--db", url, "import", "--referee-db", str(log), "--table", "t1"]) == 0
    out = capsys.readouterr().out
    assert f"({len(lines)} inputs) recorded as match" in out
    whole = int(out.rsplit("match ", 1)[1])
    record = RecordStore(url).match(whole)
    assert record.complete and check(record) == []
    assert replay(record).summary()["scores"] == record.row.state["scores"] == final
    assert record.row.ended_at is not None
    assert RecordStore(url).open_matches()["t1"].id == late  # the live one untouched
    # again: nothing new; a table the log does not have: one line, status 2
    assert main(["records", "--db", url, "import", "--referee-db", str(log), "--table", "t1"]) == 0
    assert "imported before" in capsys.readouterr().out
    assert main(["records", "--db", url, "import", "--referee-db", str(log), "--table", "t9"]) == 2
    assert "no table t9 in this log (it has: t1)" in capsys.readouterr().err
    # the records file itself named as the log, by mistake: refused, and not written
    # (the referee's tables were made in it), a folder named as a folder
    before = Path(url).read_bytes()
    assert main(["records", "--db", url, "import", "--referee-db", url, "--table", "t1"]) == 2
    assert "not a referee's log (it has no tables and inputs)" in capsys.readouterr().err
    assert Path(url).read_bytes() == before
    assert (
        main(["records", "--db", url, "import", "--referee-db", str(tmp_path), "--table", "t1"])
        == 2
    )
    assert "a folder, not a referee log" in capsys.readouterr().err
    # a refused import into records not there yet makes none (an empty database was
    # left, which `records list` then read as "no matches recorded": a sweep's find)
    fresh = tmp_path / "fresh.db"
    for bad, table in ((tmp_path / "nosuch.db", "t1"), (tmp_path, "t1"), (log, "t9")):
        args = ["--db", str(fresh), "import", "--referee-db", str(bad), "--table", table]
        assert main(["records", *args]) == 2
        assert not fresh.exists()
    capsys.readouterr()
    # a log in a folder whose name holds '#' or '%' (a file: address's own signs)
    odd = tmp_path / "club #2 %20"
    odd.mkdir()
    (odd / "ref.db").write_bytes(Path(log).read_bytes())
    argv = ["records", "--db", url, "import", "--referee-db", str(odd / "ref.db"), "--table", "t1"]
    assert main(argv) == 0
    assert "club #2 %20/ref.db: table t1 (157 inputs) recorded as match" in capsys.readouterr().out


def test_opening_the_records_says_an_upgrade_and_nothing_else_of_alembic(tmp_path, caplog):
    """The recorder's start in the journal: alembic's INFO lines (its plugins, its
    dialect) said nothing to an installer; an upgrade of the schema does."""
    import logging

    caplog.set_level(logging.INFO)
    RecordStore(tmp_path / "r.db").close()
    first = [r.getMessage() for r in caplog.records if r.name.startswith("alembic")]
    caplog.clear()
    RecordStore(tmp_path / "r.db").close()
    again = [r.getMessage() for r in caplog.records if r.name.startswith("alembic")]
    assert len(first) == 1 and first[0].startswith("Running upgrade"), first
    assert again == []


def test_the_backlog_while_the_database_is_away_keeps_the_newest_up_to_its_cap(
    tmp_path, monkeypatch, caplog
):
    """Every message that arrives while the database is away waits behind the first
    one refused, but no more than ``MAX_BACKLOG`` of them (the cap once held only for
    the message refused, not for those arriving behind it)."""
    import sqlalchemy as sa

    from controller.recorder import service
    from controller.recorder.store import Writer

    monkeypatch.setattr(service, "MAX_BACKLOG", 5)
    rig = Rig(str(tmp_path / "r.db"), TableSetup("cribbage", dealer=0))

    def away(self, *a, **kw):
        raise sa.exc.OperationalError("INSERT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(Writer, "put_state", away)
    monkeypatch.setattr(Writer, "put_events", away)
    rig.feed(game_lines()[:20])
    assert len(rig.recorder.backlog) == 5
    assert "the backlog is full: a message is lost" in caplog.text
