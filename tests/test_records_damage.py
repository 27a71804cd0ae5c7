"""Damaged records and a damaged referee's log: one line naming the file and the row
(status 2), never a traceback; what is not damaged is still read; and the commands
that only read never make or change a records database (docs/records.md)."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from test_outbox import game_lines
from test_recorder import Rig

from controller.bus.bus import MemoryBroker, MemoryBus
from controller.cli import main
from controller.recorder.service import Recorder
from controller.recorder.store import DamagedRecord, RecordsError, RecordStore, database_url
from controller.referee import InputLog, Referee, StoreError
from controller.referee.store import DamagedLog
from rules.reading import TableSetup


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()


@pytest.fixture(scope="module")
def two_matches(tmp_path_factory) -> Path:
    """A records file with two matches, recorded from the bus: 1 at t1, 2 at t2."""
    path = tmp_path_factory.mktemp("records") / "records.db"
    for table in ("t1", "t2"):
        rig = Rig(str(path), TableSetup("cribbage", {"game_to": 61}, dealer=0), table=table)
        rig.feed(game_lines()[:30])
        rig.recorder.close()
        rig.recorder.store.close()
    return path


def _damaged(two_matches: Path, tmp_path: Path, statement: str) -> Path:
    path = tmp_path / "damaged.db"
    path.write_bytes(two_matches.read_bytes())
    _sql(path, statement)
    return path


def _one_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("kiebitz: error: "), err
    return err


# -- A: a damaged records database ----------------------------------------------------------


def test_records_of_a_schema_this_kiebitz_does_not_know_are_refused_in_one_line(
    two_matches, tmp_path, capsys
):
    path = _damaged(two_matches, tmp_path, "UPDATE alembic_version SET version_num = 'zzz'")
    before = path.read_bytes()
    for argv in (["list"], ["show", "1"], ["export", "1"]):
        err = _one_line(capsys, ["records", "--db", str(path), *argv])
        assert f"{path}: made by a newer Kiebitz (schema zzz), this one knows up to 0001" in err
    # the recorder does not take it either, and nothing is changed
    with pytest.raises(RecordsError, match="made by a newer Kiebitz"):
        RecordStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("statement", "says", "listed"),
    [
        (
            "UPDATE events SET event = '{bad' WHERE match_id = 1 AND idx = 2",
            "match 1: event 2 is damaged (not JSON: Expecting property name",
            True,
        ),
        (
            "UPDATE events SET outcome = '7' WHERE match_id = 1 AND idx = 4",
            "match 1: the outcome of event 4 is damaged (not a JSON object: '7')",
            True,
        ),
        (
            "UPDATE matches SET setup = 'nope' WHERE id = 1",
            "match 1: its setup is damaged (not JSON: Expecting value",
            False,
        ),
        (
            "UPDATE matches SET state = '[1' WHERE id = 1",
            "match 1: its state is damaged (not JSON: ",
            False,
        ),
        (
            "UPDATE matches SET events = 'many' WHERE id = 1",
            "match 1: its count of events is damaged (not a whole number: 'many')",
            False,
        ),
    ],
)
def test_a_damaged_row_is_named_and_the_other_matches_are_still_read(
    two_matches, tmp_path, capsys, statement, says, listed
):
    path = _damaged(two_matches, tmp_path, statement)
    for argv in (["show", "1"], ["export", "1"], ["export", "1", "--format", "cribbage-log"]):
        err = _one_line(capsys, ["records", "--db", str(path), *argv])
        assert f"{path}: {says}" in err, err
    # the other match is read as ever
    assert main(["records", "--db", str(path), "show", "2"]) == 0
    assert "match 2: cribbage at table t2" in capsys.readouterr().out
    # the list lists the others and names the damaged one (status 1, as a bad batch line)
    status = main(["records", "--db", str(path), "list"])
    out, err = capsys.readouterr()
    shown = [line.split()[0] for line in out.splitlines()]
    if listed:  # the match's own row is whole: listed
        assert status == 0 and shown == ["2", "1"] and err == ""
    else:
        assert status == 1 and shown == ["2"], out
        assert err.count("\n") == 1 and f"kiebitz: {path}: {says}" in err, err
        assert err.rstrip().endswith("; not listed")
    # the recorder starts on it: the damaged match is not taken up again, said
    store = RecordStore(path)
    assert 2 in [m.id for m in store.open_matches().values()]
    # the web view's match page says it (it was a server error, 500), and the list
    # lists the others
    from starlette.testclient import TestClient

    from controller.web.app import make_app
    from controller.web.hub import TableHub

    with TestClient(make_app(TableHub(), records=store)) as web:
        page = web.get("/matches/1")
        assert page.status_code == 200
        assert "This match cannot be read" in page.text and "is damaged" in page.text
        assert "match-2" in web.get("/matches/2/export/json").headers["content-disposition"]
        assert '<a href="/matches/2">2</a>' in web.get("/matches").text
        # a number past SQLite's integers was a server error (500)
        for huge in ("99999999999999999999", str(2**63)):
            assert "No such match" in web.get(f"/matches/{huge}").text
            assert web.get(f"/matches/{huge}/export/json").status_code == 404
    store.close()


def _set(table: str, column: str, value: object, where: str) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return f"UPDATE {table} SET {column} = '{text}' WHERE {where}"


_OUTCOME_15 = "match_id = 1 AND idx = 15"
_EVENT_5 = "match_id = 1 AND idx = 5"


@pytest.mark.parametrize(
    ("statement", "says", "listed"),
    [
        # an event's outcome as the referee said it: pegged, verdicts, notes are lists
        (
            _set(
                "events", "outcome", {"pegged": {"0": 5}, "verdicts": [], "notes": []}, _OUTCOME_15
            ),
            """match 1: the outcome of event 15 is damaged (pegged is not a list: '{"0": 5}')""",
            True,
        ),
        (
            _set("events", "outcome", {"pegged": [5]}, _OUTCOME_15),
            "match 1: the outcome of event 15 is damaged (a pegging that is not points and a",
            True,
        ),
        (
            _set(
                "events",
                "outcome",
                {"pegged": [{"seat": 1, "points": "x", "score": 3}]},
                _OUTCOME_15,
            ),
            "match 1: the outcome of event 15 is damaged (a pegging that is not points and a",
            True,
        ),
        (
            _set("events", "outcome", {"verdicts": {"a": 1}}, _OUTCOME_15),
            "match 1: the outcome of event 15 is damaged (verdicts is not a list",
            True,
        ),
        (
            _set("events", "outcome", {"result": [1]}, _OUTCOME_15),
            "match 1: the outcome of event 15 is damaged (its result is not an object: '[1]')",
            True,
        ),
        # an event that is an object but no event of the game's
        (
            _set("events", "event", {"type": "dance"}, _EVENT_5),
            "match 1: event 5 is damaged (unknown event type 'dance')",
            True,
        ),
        (
            _set("events", "event", {"seat": 1}, _EVENT_5),
            "match 1: event 5 is damaged (unknown event type None)",
            True,
        ),
        (
            _set("events", "event", {"type": "play", "seat": "x", "card": "10C"}, _EVENT_5),
            "match 1: event 5 is damaged (play: field 'seat' must be an integer, got 'x')",
            True,
        ),
        # a deal's row, as the recorder made it from the events
        (
            _set("deals", "pegged", {"0": 5}, "match_id = 1"),
            "match 1: the pegging of deal 1 (row number 0) is damaged (side 0: not points and a",
            True,
        ),
        (
            _set("deals", "pegged", {"0": {"score": 5}}, "match_id = 1"),
            "match 1: the pegging of deal 1 (row number 0) is damaged (side 0: not points and a",
            True,
        ),
        (
            _set("deals", "result", {"name": [1], "value": 3}, "match_id = 1"),
            "match 1: the result of deal 1 (row number 0) is damaged (its name is not text: '[1]')",
            True,
        ),
        (
            _set("deals", "number", "x", "match_id = 1"),
            "match 1: a deal's number is damaged (not a whole number: 'x')",
            True,
        ),
        (
            _set("deals", "game", "x", "match_id = 1"),
            "match 1: deal 1 (row number 0): its game is damaged (not a whole number: 'x')",
            True,
        ),
        (
            _set("plays", "seat", "x", "match_id = 1 AND idx = 5"),
            "match 1: the seat of play 5 is damaged (not a whole number: 'x')",
            True,
        ),
        # the setup: options an object, a game and options the rules know
        (
            _set("matches", "setup", {"game": "cribbage", "options": [61]}, "id = 1"),
            "match 1: its setup is damaged (its options are not a JSON object: '[61]')",
            False,
        ),
        (
            _set("matches", "setup", {"game": "nope"}, "id = 1"),
            "match 1: its setup is damaged (unknown game 'nope')",
            True,
        ),
        (
            _set("matches", "setup", {"game": "cribbage", "options": {"players": 9}}, "id = 1"),
            "match 1: its setup is damaged (players 9: cribbage is for 2, 3 or 4)",
            True,
        ),
        (
            _set("matches", "state", [1, 2], "id = 1"),
            "match 1: its state is damaged (not a JSON object: '[1, 2]')",
            False,
        ),
    ],
)
def test_a_row_of_json_shaped_wrong_is_named_as_damaged_not_a_traceback(
    two_matches, tmp_path, capsys, statement, says, listed
):
    """Valid JSON of the wrong shape (a deal's pegging {"0": 5}, options that are a
    list, an object that is no event) was a traceback out of `show` or `export`, a
    server error of the web view, or an export error naming neither file nor match."""
    path = _damaged(two_matches, tmp_path, statement)
    for fmt in ("json", "csv", "cribbage-log", "iss", "pad", "seeger-fabian"):
        err = _one_line(capsys, ["records", "--db", str(path), "export", "1", "--format", fmt])
        assert f"kiebitz: error: {path}: {says}" in err, err
    err = _one_line(capsys, ["records", "--db", str(path), "show", "1"])
    assert f"kiebitz: error: {path}: {says}" in err, err
    assert main(["records", "--db", str(path), "show", "2"]) == 0
    capsys.readouterr()
    status = main(["records", "--db", str(path), "list"])
    out, err = capsys.readouterr()
    shown = [line.split()[0] for line in out.splitlines()]
    if listed:
        assert (status, shown, err) == (0, ["2", "1"], "")
    else:
        assert status == 1 and shown == ["2"] and f"kiebitz: {path}: {says}" in err, err
    # the web view's match page says it; its exports refuse it (not a server error)
    from starlette.testclient import TestClient

    from controller.web.app import make_app
    from controller.web.hub import TableHub

    store = RecordStore(path)
    with TestClient(make_app(TableHub(), records=store), raise_server_exceptions=False) as web:
        page = web.get("/matches/1")
        assert page.status_code == 200 and "This match cannot be read" in page.text
        for fmt in ("json", "csv"):
            assert web.get(f"/matches/1/export/{fmt}").status_code == 409
    store.close()


def test_json_of_another_shape_that_harms_nothing_is_read_as_it_is(two_matches, tmp_path, capsys):
    # the referee's state is kept as it was sent: scores that are no list are shown as
    # none; an outcome without its lists is an outcome that said nothing
    path = _damaged(two_matches, tmp_path, _set("matches", "state", {"scores": {"a": 1}}, "id = 1"))
    _sql(path, _set("events", "outcome", {}, _OUTCOME_15))
    assert main(["records", "--db", str(path), "show", "1"]) == 0
    assert "scores   -" in capsys.readouterr().out
    assert main(["records", "--db", str(path), "export", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state"] == {"scores": {"a": 1}} and data["events"][15] == {
        "index": 15,
        "event": data["events"][15]["event"],
    }


def test_the_recorder_starts_on_records_whose_match_under_way_is_damaged(
    two_matches, tmp_path, caplog
):
    path = _damaged(two_matches, tmp_path, "UPDATE matches SET setup = '{}' WHERE id = 1")
    store = RecordStore(path)
    recorder = Recorder(MemoryBus(MemoryBroker(), "recorder"), store).start()
    assert recorder.match_of("t1") is None and recorder.match_of("t2") == 2
    assert "match 1: its setup is damaged (it names no game: '{}')" in caplog.text
    with pytest.raises(DamagedRecord, match="match 1: its setup is damaged"):
        store.match(1)
    recorder.close()
    store.close()


# -- B: a damaged referee's log -----------------------------------------------------------


def _referee_log(path: Path) -> Path:
    log = InputLog(path)
    log.set_setup("table1", TableSetup("cribbage", {"game_to": 61}, dealer=0).to_json())
    for n, line in enumerate(game_lines()[:12], 1):
        log.append("table1", f"m{n}", "table1/table", n, "observation", line)
    log.close()
    return path


@pytest.mark.parametrize(
    ("statement", "says"),
    [
        (
            "UPDATE inputs SET body = '{not json' WHERE n = 3",
            "table table1: input 3 is damaged (not JSON: Expecting property name",
        ),
        (
            "UPDATE tables SET setup = 'garbage'",
            "table table1: its setup is damaged (not JSON: Expecting value",
        ),
    ],
)
def test_a_damaged_referee_log_is_one_line_naming_the_file_table_and_row(
    tmp_path, capsys, statement, says
):
    log = _referee_log(tmp_path / "referee.db")
    _sql(log, statement)
    # the referee's own reading of it, given that one table to serve: nothing to serve
    referee = Referee(
        MemoryBus(MemoryBroker(), "referee"),
        InputLog(log),
        setup_for=lambda _t: TableSetup("cribbage"),
        tables=["table1"],
    )
    with pytest.raises(StoreError) as raised:
        referee.start()
    assert isinstance(raised.value, DamagedLog) and str(raised.value).startswith(f"{log}: {says}")
    referee.close()
    # `kiebitz referee --tables table1`, as systemd starts it: one line, status 2
    argv = ["referee", "--db", str(log), "--broker", "memory://damaged", "--tables", "table1"]
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"kiebitz: error: {log}: {says}"), done.stderr
    # `kiebitz records import` of it
    records = tmp_path / "records.db"
    argv = ["records", "--db", str(records), "import", "--referee-db", str(log)]
    err = _one_line(capsys, [*argv, "--table", "table1"])
    assert f"{log}: {says}" in err


@pytest.mark.parametrize(
    ("statement", "at_start"),
    [
        ("UPDATE inputs SET body = '{not json' WHERE n = 3 AND table_id = 'table1'", True),
        ("UPDATE tables SET setup = 'garbage' WHERE table_id = 'table1'", True),
        ("""UPDATE tables SET setup = '{"game": "nope"}' WHERE table_id = 'table1'""", True),
        # read only when the sender is next heard (where its seqs go on from)
        ("UPDATE inputs SET seq = 'many' WHERE n = 2 AND table_id = 'table1'", False),
    ],
)
def test_a_club_referee_sets_a_damaged_table_aside_and_serves_the_others(
    tmp_path, caplog, statement, at_start
):
    """One table's damaged log stopped the referee of every table (status 2, and under
    systemd a restart loop): now that table is set aside (said once, its status offline
    with why, its inputs refused and not written) and the others are served."""
    from test_referee import Table

    from controller.bus.dispatch import Publisher
    from controller.bus.envelope import Stamper
    from controller.bus.topics import status_topic

    log = _referee_log(tmp_path / "referee.db")
    store = InputLog(log)
    store.set_setup("table2", TableSetup("cribbage", {"game_to": 61}, dealer=0).to_json())
    for n, line in enumerate(game_lines()[:5], 1):
        store.append("table2", f"x{n}", "table2/table", n, "observation", line)
    store.close()
    _sql(log, statement)
    before = log.read_bytes()
    broker = MemoryBroker()
    ref_bus = MemoryBus(broker, "referee")
    ref_bus.start()
    statuses: dict[str, dict] = {}
    watch = MemoryBus(broker, "watch")
    watch.start()
    for t in ("table1", "table2"):
        watch.subscribe(
            status_topic(t, "referee"),
            lambda _topic, p, t=t: statuses.__setitem__(t, json.loads(p)["body"]),
        )
    referee = Referee(ref_bus, InputLog(log), setup_for=lambda _t: TableSetup("cribbage"))
    with caplog.at_level(logging.ERROR, logger="kiebitz.referee"):
        referee.start()
    assert list(referee.set_aside) == (["table1"] if at_start else [])
    assert referee.inputs("table2") == 5 and statuses["table2"]["state"] == "online"
    # table2 goes on; table1's inputs are refused with an error event, not stored
    t1 = Table(MemoryBus(broker, "t1"), "table1")
    t1.bus.start()
    t2 = Table(MemoryBus(broker, "t2"), "table2")
    t2.bus.start()
    # seqs past those stored (the referee reads a sender on from its last stored seq)
    t1.pub = Publisher(t1.bus, Stamper("table1/table", start_seq=100))
    t2.pub = Publisher(t2.bus, Stamper("table2/table", start_seq=6))
    for line in game_lines()[5:7]:
        t2.pub.send("kiebitz/v1/table2/table/observation", "observation", line)
        t1.pub.send("kiebitz/v1/table1/table/observation", "observation", line)
    assert referee.inputs("table2") == 7 and t2.states and t2.states[-1]["inputs"] == 7
    assert list(referee.set_aside) == ["table1"] and list(referee.runs) == ["table2"]
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(said) == 1 and said[0].startswith(f"{log}: table table1: "), said
    assert statuses["table1"]["state"] == "offline", statuses
    assert statuses["table1"]["detail"].startswith("set aside: table table1: "), statuses
    errors = [e for e in t1.events if e["type"] == "error"]
    assert len(errors) == 2, errors
    assert all("not stored" in e["reason"] and "table1 is set aside" in e["reason"] for e in errors)
    referee.close()
    # nothing of table1 was written: its rows are as they were (table2's grew)
    check = sqlite3.connect(log)
    rows = check.execute("SELECT COUNT(*) FROM inputs WHERE table_id = 'table1'").fetchone()
    check.close()
    assert rows == (12,) and log.read_bytes() != before


def test_a_referee_log_setup_naming_no_known_game_is_refused_by_the_import(tmp_path, capsys):
    log = _referee_log(tmp_path / "referee.db")
    _sql(log, """UPDATE tables SET setup = '{"game": "nope"}'""")
    argv = ["records", "--db", str(tmp_path / "r.db"), "import", "--referee-db", str(log)]
    err = _one_line(capsys, [*argv, "--table", "table1"])
    assert f"{log}: table table1: its setup cannot be read: unknown game 'nope'" in err
    # and by the referee (a traceback from building the table's game), as options the
    # rules refuse are
    for setup, says in (
        ('{"game": "nope"}', "unknown game 'nope'"),
        ('{"game": "cribbage", "options": {"players": 9}}', "players 9: cribbage is for 2"),
    ):
        _sql(log, f"UPDATE tables SET setup = '{setup}'")
        referee = Referee(
            MemoryBus(MemoryBroker(), "referee"),
            InputLog(log),
            setup_for=lambda _t: TableSetup("cribbage"),
            tables=["table1"],
        )
        with pytest.raises(
            DamagedLog, match=f"^{log}: table table1: its setup cannot be read: {says}"
        ):
            referee.start()
        referee.close()


# -- C: the commands that only read make nothing ------------------------------------------


def test_reading_an_empty_file_or_none_says_so_and_makes_no_records_database(tmp_path, capsys):
    empty = tmp_path / "e2.db"
    empty.touch()
    for argv in (["list"], ["show", "1"], ["export", "1"]):
        err = _one_line(capsys, ["records", "--db", str(empty), *argv])
        assert f"{empty}: not a records database (empty file)" in err
        assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e2.db"]
    for where in (str(tmp_path / "nosuch.db"), f"sqlite:///{tmp_path / 'nosuch2.db'}"):
        for argv in (["list"], ["show", "1"], ["export", "1"]):
            err = _one_line(capsys, ["records", "--db", where, *argv])
            assert f"{where}: no such file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e2.db"]
    # a file of tables but no records schema, and one of none at all
    _sql(tmp_path / "bare.db", "PRAGMA user_version = 1")
    err = _one_line(capsys, ["records", "--db", str(tmp_path / "bare.db"), "list"])
    assert "not a records database (it holds no tables)" in err


def test_reading_records_changes_nothing_in_the_file(two_matches, tmp_path, capsys):
    path = tmp_path / "r.db"
    path.write_bytes(two_matches.read_bytes())
    before = path.read_bytes()
    for argv in (["list"], ["show", "1"], ["export", "2", "--format", "csv"]):
        assert main(["records", "--db", str(path), *argv]) == 0
    capsys.readouterr()
    assert path.read_bytes() == before


def test_the_recorder_still_makes_its_records_in_an_empty_file(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    empty = tmp_path / "new.db"
    empty.touch()
    store = RecordStore(empty)
    assert store.matches() == []
    store.close()
    assert empty.stat().st_size > 0


def test_reading_an_empty_postgresql_database_makes_no_schema_in_it(postgres_url, capsys):
    err = _one_line(capsys, ["records", "--db", postgres_url, "list"])
    assert "not a records database (it holds no tables)" in err
    engine = sa.create_engine(database_url(postgres_url))
    with engine.connect() as conn:
        assert sa.inspect(conn).get_table_names() == []
    engine.dispose()
    RecordStore(postgres_url).close()  # the recorder makes it; then it is read
    assert main(["records", "--db", postgres_url, "list"]) == 0
    assert "no matches recorded" in capsys.readouterr().err


def _page_damaged(source: Path, path: Path, table: str) -> Path:
    """A copy of ``source`` whose ``table``'s first page (its root) is overwritten, as a
    failing card leaves a file: SQLite says "database disk image is malformed" when
    that table is read, and nothing before."""
    path.write_bytes(source.read_bytes())
    db = sqlite3.connect(path)
    size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * size : root * size] = b"\x55" * size
    path.write_bytes(bytes(data))
    return path


def test_records_whose_pages_are_damaged_are_one_line_not_a_traceback(
    two_matches, tmp_path, capsys
):
    """`records show` and `export` of a file with a damaged page printed SQLAlchemy's
    53-line traceback, status 1 (a probe). Now one line naming the file; `list`,
    which reads other pages, lists the matches."""
    path = _page_damaged(two_matches, tmp_path / "damaged.db", "events")
    for argv in (["show", "1"], ["export", "1", "--format", "json"]):
        err = _one_line(capsys, ["records", "--db", str(path), *argv])
        assert f"{path}: the file is damaged: database disk image is malformed" in err
    assert main(["records", "--db", str(path), "list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    path = _page_damaged(two_matches, tmp_path / "damaged-matches.db", "matches")
    err = _one_line(capsys, ["records", "--db", str(path), "list"])
    assert "the file is damaged: database disk image is malformed" in err


def test_an_import_of_a_referee_log_whose_pages_are_damaged_is_one_line(tmp_path, capsys):
    log = _page_damaged(_referee_log(tmp_path / "referee.db"), tmp_path / "damaged.db", "inputs")
    argv = ["records", "--db", str(tmp_path / "records.db"), "import", "--referee-db", str(log)]
    err = _one_line(capsys, [*argv, "--table", "table1"])
    assert f"{log}: the referee's log is damaged: database disk image is malformed" in err


def test_a_run_whose_records_are_damaged_keeps_its_referee_log_for_an_import(
    two_matches, tmp_path, monkeypatch, capsys
):
    """`kiebitz run --records DAMAGED`: each message refused, then a traceback at the
    end, no summary, and the referee's log (the run's own, in its folder) removed
    with the only copy of the game (a probe). Now the summary, a warning naming the
    damage, and the log kept in the current folder, from which `records import`
    makes the match whole."""
    records = _page_damaged(two_matches, tmp_path / "damaged.db", "events")
    lines = tmp_path / "game.jsonl"
    lines.write_text("".join(json.dumps(line) + "\n" for line in game_lines()[:30]))
    monkeypatch.chdir(tmp_path)
    argv = ["run", "--observations", str(lines), "--headless", "--records", str(records)]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "Summary: cribbage" in out and "Traceback" not in err
    warning = err.strip().splitlines()[-1]
    # (the part of the match written before a damaged page was met, read back: not whole)
    assert warning.startswith("warning: ") and str(records) in warning, err
    (kept,) = tmp_path.glob("kiebitz-run-*-referee.db")
    assert f"the referee's log is kept at {kept}" in warning
    fresh = tmp_path / "fresh.db"
    argv = ["records", "--db", str(fresh), "import", "--referee-db", str(kept)]
    assert main([*argv, "--table", "table1"]) == 0
    assert "recorded as match 1" in capsys.readouterr().out
    assert main(["records", "--db", str(fresh), "show", "1"]) == 0
