"""Nothing observed is lost, nothing counted twice: the table service's outbox and the
referee's log on a full disk (issue 12). Real SQLite; the in-process bus stands in
for the broker here, tests/test_faults.py kills real processes."""

from __future__ import annotations

import errno
import json
import random
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from reading_helpers import cribbage_told

from controller.bus.bus import MemoryBroker, MemoryBus
from controller.bus.envelope import decode
from controller.referee import InputLog, Referee
from controller.table.outbox import Outbox
from controller.table.service import TableService
from rules.cribbage.autoplay import play_game
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules
from rules.reading import TableSetup

OBS = "kiebitz/v1/t1/table/observation"


def game_lines(seed: int = 3) -> list[dict[str, Any]]:
    """A whole cribbage game to 61 as the camera reports it, as observation bodies."""
    game = CribbageGame(CribbageRules(game_to=61))
    for _ in play_game(game, random.Random(seed), reveal_hands=False):
        pass
    return [
        {**json.loads(json.dumps(obs.to_json())), "card": str(obs.card)}
        for obs in cribbage_told(list(game.events), 2).lines()
    ]


class Silent(MemoryBus):
    """A bus whose broker answers nothing: the process dies before any PUBACK."""

    def publish(self, topic, payload, *, retain=False, qos=1, on_done=None):  # type: ignore[no-untyped-def]
        super().publish(topic, payload, retain=retain, qos=qos, on_done=None)


class Lost(MemoryBus):
    """A bus that delivers nothing and acknowledges nothing: the broker went away."""

    def publish(self, topic, payload, *, retain=False, qos=1, on_done=None):  # type: ignore[no-untyped-def]
        return None


class SmallDisk:
    """A real filesystem of 16 MiB (a tmpfs mounted under the test's folder: CI runs
    as root) that a test can fill to the last byte, as a full SD card is."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        folder.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            pytest.fail(f"cannot mount a small tmpfs (needs root, as CI runs): {done.stderr}")

    def fill(self) -> None:
        with open(self.path / "filler", "ab", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 512)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC

    def free(self) -> None:
        (self.path / "filler").unlink()

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False)


@pytest.fixture
def disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    small = SmallDisk(tmp_path / "card")
    yield small
    small.close()


def referee_on(broker: MemoryBroker, db: Path) -> Referee:
    bus = MemoryBus(broker, "referee")
    bus.start()
    return Referee(bus, InputLog(db), setup_for=lambda t: TableSetup("cribbage", dealer=0)).start()


def final(referee: Referee) -> dict[str, Any]:
    state = referee.state("t1")
    return {k: state[k] for k in ("plays", "scores", "deal", "inputs") if k in state}


def fault_free(tmp_path: Path, lines: list[dict[str, Any]]) -> dict[str, Any]:
    broker = MemoryBroker()
    referee = referee_on(broker, tmp_path / "clean.db")
    bus = MemoryBus(broker, "t1-table")
    service = TableService("t1", bus, observations=lines)
    service.run()
    out = final(referee)
    service.close()
    referee.close()
    return out


def test_a_message_stays_in_the_outbox_until_the_broker_acknowledges_it(tmp_path):
    box = Outbox(tmp_path / "outbox.db")
    broker = MemoryBroker()
    bus = MemoryBus(broker, "t1-table")  # not started: nothing can be acknowledged yet
    service = TableService("t1", bus, observations=[], outbox=box)
    service.publisher.send(OBS, "observation", game_lines()[0])
    assert len(box) == 1
    bus.start()  # connected: the queued message goes out and is acknowledged
    assert len(box) == 0
    service.close()


def test_a_service_killed_before_any_acknowledgement_sends_it_all_again(tmp_path):
    lines = game_lines()
    clean = fault_free(tmp_path, lines)
    broker = MemoryBroker()
    referee = referee_on(broker, tmp_path / "ref.db")
    got: list[str] = []
    watch = MemoryBus(broker, "watch")
    watch.start()
    watch.subscribe(OBS, lambda t, p: got.append(decode(p).id))
    # the first service reads 40 lines and publishes them to a broker that never
    # answers (none reached the referee), then dies without a goodbye
    first = TableService(
        "t1", Lost(broker, "t1-table"), observations=lines, outbox=Outbox(tmp_path / "o.db"),
        recorded_as="game.jsonl",
    )  # fmt: skip
    first.start()
    for _ in range(40):
        first.step()
    assert referee.inputs("t1") == 0
    # started again on the same file: the 40 kept go first, then line 41 on
    second = TableService(
        "t1", MemoryBus(broker, "t1-table"), observations=lines,
        outbox=Outbox(tmp_path / "o.db"), recorded_as="game.jsonl",
    )  # fmt: skip
    second.run()
    assert second.flush(timeout=5) and len(second.outbox) == 0  # type: ignore[arg-type]
    assert final(referee) == clean
    assert len(got) == len(set(got)) == len(lines)  # each line once, none lost
    assert json.loads(json.dumps(final(referee)))["inputs"] == len(lines)
    second.close()
    referee.close()


def test_an_outbox_whose_folder_is_removed_in_use_is_made_again_with_nothing_lost(tmp_path, caplog):
    # `rm -rf` of the outbox's folder under a running table service: SQLite wrote on
    # into the removed file, and what the broker had not acknowledged went with the
    # process (the referee's log and the records are made again alike)
    import shutil

    import controller.table.service as table_service

    lines = game_lines()
    clean = fault_free(tmp_path, lines)
    broker = MemoryBroker()
    referee = referee_on(broker, tmp_path / "ref.db")
    folder = tmp_path / "table"
    folder.mkdir()
    path = folder / "o.db"
    first = TableService(
        "t1", Lost(broker, "t1-table"), observations=lines, outbox=Outbox(path), recorded_as="g"
    )
    first.start()
    for _ in range(20):
        first.step()
    shutil.rmtree(folder)
    table_service.KEEP_LOOK_S, before = 0.0, table_service.KEEP_LOOK_S
    try:
        for _ in range(20):  # the next message's send looks, and makes the file again
            first.step()
    finally:
        table_service.KEEP_LOOK_S = before
    assert path.is_file() and "made again from the open copy, nothing lost" in caplog.text
    first.close()  # the process dies: none of the 40 was acknowledged
    assert referee.inputs("t1") == 0 and len(Outbox(path)) == 40
    second = TableService(
        "t1", MemoryBus(broker, "t1-table"), observations=lines, outbox=Outbox(path),
        recorded_as="g",
    )  # fmt: skip
    second.run()
    assert final(referee) == clean
    second.close()
    referee.close()


def test_a_message_delivered_but_not_acknowledged_is_counted_once(tmp_path):
    # the broker delivered the first 25 but the PUBACKs were lost with the process:
    # they are sent again with the same ids, and the referee counts each once
    lines = game_lines()
    clean = fault_free(tmp_path, lines)
    broker = MemoryBroker()
    referee = referee_on(broker, tmp_path / "ref.db")
    silent = Silent(broker, "t1-table")
    first = TableService(
        "t1", silent, observations=lines, outbox=Outbox(tmp_path / "o.db"), recorded_as="g"
    )
    first.start()
    for _ in range(25):
        first.step()
    assert referee.inputs("t1") == 25 and len(first.outbox) == 25  # type: ignore[arg-type]
    second = TableService(
        "t1", MemoryBus(broker, "t1-table"), observations=lines,
        outbox=Outbox(tmp_path / "o.db"), recorded_as="g",
    )  # fmt: skip
    second.run()
    assert final(referee) == clean
    with sqlite3.connect(tmp_path / "ref.db") as db:
        (n,) = db.execute("SELECT COUNT(*) FROM inputs").fetchone()
    assert n == len(lines)
    second.close()
    referee.close()


def test_a_service_started_again_goes_on_numbering_where_it_stopped(tmp_path):
    lines = game_lines()[:10]
    broker = MemoryBroker()
    seqs: list[int] = []
    watch = MemoryBus(broker, "watch")
    watch.start()
    watch.subscribe(OBS, lambda t, p: seqs.append(decode(p).seq))
    for part in (lines[:5], lines[5:]):
        service = TableService(
            "t1", MemoryBus(broker, "t1-table"), observations=part, outbox=Outbox(tmp_path / "o")
        )
        service.run()
        service.close()
    assert seqs == list(range(1, 11))


def test_a_full_outbox_still_sends_and_says_so(tmp_path, disk):
    box = Outbox(disk.path / "o.db")
    disk.fill()  # the card is full
    broker = MemoryBroker()
    errors: list[dict[str, Any]] = []
    watch = MemoryBus(broker, "watch")
    watch.start()
    watch.subscribe("kiebitz/v1/t1/table/event", lambda t, p: errors.append(dict(decode(p).body)))
    got: list[str] = []
    watch.subscribe(OBS, lambda t, p: got.append(decode(p).body["card"]))
    lines = game_lines()[:3]
    service = TableService("t1", MemoryBus(broker, "t1-table"), observations=lines, outbox=box)
    service.run()
    assert got == [line["card"] for line in lines]  # sent all the same
    assert len(errors) == 3 and "database or disk is full" in errors[0]["reason"]
    assert "sent without keeping it" in errors[0]["reason"]
    service.close()


def test_a_referee_whose_log_is_full_goes_on_and_stores_it_all_when_there_is_room(tmp_path, disk):
    lines = game_lines()
    clean = fault_free(tmp_path, lines)
    broker = MemoryBroker()
    referee = referee_on(broker, disk.path / "ref.db")
    errors: list[str] = []
    watch = MemoryBus(broker, "watch")
    watch.start()
    watch.subscribe("kiebitz/v1/t1/game/event", lambda t, p: errors.append(str(decode(p).body)))
    sent: list[bytes] = []
    watch.subscribe(OBS, lambda t, p: sent.append(p))
    service = TableService("t1", MemoryBus(broker, "t1-table"), observations=lines)
    service.start()
    for _ in range(20):
        service.step()
    disk.fill()  # the disk is full from here
    for _ in range(30):
        service.step()
    # messages delivered twice while the log is full (one already in the log, one
    # kept in memory) are still read once
    again = MemoryBus(broker, "again")
    again.start()
    again.publish(OBS, sent[5])
    again.publish(OBS, sent[45])
    assert referee.inputs("t1") == 50
    assert any("kept in memory until the log has room" in e for e in errors)
    disk.free()  # room again
    referee.tick()
    service.run()
    assert final(referee) == clean
    referee.close()
    # and a referee started from the log alone reaches the same state
    again_ref = referee_on(MemoryBroker(), disk.path / "ref.db")
    assert final(again_ref) == clean
    again_ref.close()
    service.close()


@pytest.mark.parametrize("cut", [0, 1, 17])
def test_the_outbox_keeps_the_order_of_what_it_holds(tmp_path, cut):
    box = Outbox(tmp_path / "o.db")
    rows = [box.put(OBS, f"{i}".encode(), False, "t1/table", i + 2) for i in range(20)]
    for row in rows[:cut]:
        box.done(row)
    assert [p.payload for p in box.pending()] == [f"{i}".encode() for i in range(cut, 20)]
    assert box.next_seq("t1/table") == 21
    box.close()
    again = Outbox(tmp_path / "o.db")
    assert len(again) == 20 - cut and again.next_seq("t1/table") == 21


def test_a_refused_message_stays_in_the_outbox_for_the_next_start(tmp_path):
    # a broker that refuses (an account or ACL mistake): nothing is forgotten, and once
    # it is mended the next start sends what was refused
    lines = game_lines()[:4]
    deny = MemoryBroker(deny=("kiebitz/v1/t1/table/#",))
    first = TableService(
        "t1", MemoryBus(deny, "t1-table"), observations=lines, outbox=Outbox(tmp_path / "o")
    )
    first.run()
    assert len(first.outbox) == 4  # type: ignore[arg-type]
    first.close()
    mended = MemoryBroker()
    got: list[str] = []
    watch = MemoryBus(mended, "watch")
    watch.start()
    watch.subscribe(OBS, lambda t, p: got.append(decode(p).body["card"]))
    second = TableService(
        "t1", MemoryBus(mended, "t1-table"), observations=lines, outbox=Outbox(tmp_path / "o")
    )
    second.run()
    assert got == [line["card"] for line in lines] * 2  # the kept four, then the file again
    assert len(second.outbox) == 0  # type: ignore[arg-type]
    second.close()


def test_a_referee_with_a_full_disk_serves_a_table_it_has_never_seen(tmp_path, disk):
    # the table's setup cannot be written either: the table is served from memory and
    # its setup and inputs are written when there is room
    lines = game_lines()[:30]
    clean = fault_free(tmp_path, lines)
    broker = MemoryBroker()
    referee = referee_on(broker, disk.path / "ref.db")
    disk.fill()
    service = TableService("t1", MemoryBus(broker, "t1-table"), observations=lines)
    service.run()
    assert referee.inputs("t1") == 30
    disk.free()
    referee.tick()
    referee.close()
    again = referee_on(MemoryBroker(), disk.path / "ref.db")
    assert final(again) == clean
    again.close()
    service.close()


def test_kiebitz_table_with_the_broker_down_keeps_what_is_unsent_and_exits_0(tmp_path, capsys):
    # it said status 1 and "did not acknowledge everything" as if something were lost,
    # though the outbox holds it for the next start
    from test_table_service import WATCH_LINES, write_lines

    from controller.bus.broker import free_port
    from controller.cli import main

    path = write_lines(tmp_path / "game.jsonl", WATCH_LINES)
    outbox = tmp_path / "outbox.db"
    url = f"mqtt://127.0.0.1:{free_port()}"  # no broker there
    argv = ["table", "--table-id", "t1", "--broker", url, "--observations", str(path)]
    assert main([*argv, "--outbox", str(outbox)]) == 0
    err = capsys.readouterr().err
    kept = len(Outbox(outbox))
    assert kept > 0
    assert f"did not acknowledge {kept} message(s)" in err and f"kept in the outbox {outbox}" in err
    # without an outbox it is lost with the process: a warning and status 1
    assert main(argv) == 1
    assert "did not acknowledge everything sent" in capsys.readouterr().err


def test_a_removed_log_that_cannot_be_made_again_leaves_no_empty_one_and_is_made_later(disk):
    # the copy of a removed log failing on a full disk left an empty database at the
    # path, which then passed for the log: never tried again, and a restart read nothing
    from controller.referee.store import StoreError

    path = disk.path / "ref.db"
    log = InputLog(path)
    log.set_setup("t1", TableSetup("cribbage", dealer=0).to_json())
    for n in range(5):
        log.append("t1", f"id{n}", "t1/table", n, "observation", {"n": n})
    path.unlink()
    disk.fill()
    with pytest.raises(StoreError, match="cannot be made again"):
        log.keep_file()
    assert not path.exists()
    disk.free()
    assert log.keep_file() and path.is_file()
    log.close()
    assert len(list(InputLog(path).inputs("t1"))) == 5


def test_an_outbox_that_cannot_be_made_again_is_said_once_not_at_every_look(tmp_path, caplog):
    import shutil

    import controller.table.service as table_service

    folder = tmp_path / "table"
    folder.mkdir()
    service = TableService(
        "t1", MemoryBus(MemoryBroker(), "t1-table"), observations=[],
        outbox=Outbox(folder / "o.db"),
    )  # fmt: skip
    service.start()
    shutil.rmtree(folder)
    folder.write_text("a file where the folder was: nothing can be made under it")
    table_service.KEEP_LOOK_S, before = 0.0, table_service.KEEP_LOOK_S
    try:
        for body in game_lines()[:5]:
            service.publisher.send(OBS, "observation", body)
    finally:
        table_service.KEEP_LOOK_S = before
    said = [r for r in caplog.records if "cannot be made again" in r.getMessage()]
    assert len(said) == 1
    service.close()


def test_two_threads_making_a_removed_outbox_again_make_it_once(tmp_path):
    # a button's command (gpiozero's thread) and an observation (the main loop) may
    # both find the file gone; the second must not copy the made file onto itself
    # (a locked copy's cleanup removed the file just made)
    import threading

    path = tmp_path / "box" / "o.db"
    path.parent.mkdir()
    box = Outbox(path)
    for n in range(20):
        box.put(OBS, b"{}", False, "t1/table", n + 2)
    path.unlink()
    start = threading.Barrier(4)
    made: list[bool] = []

    def keep() -> None:
        start.wait()
        made.append(box.keep_file())

    threads = [threading.Thread(target=keep) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(made) == [False, False, False, True]
    assert path.is_file() and len(Outbox(path)) == 20
