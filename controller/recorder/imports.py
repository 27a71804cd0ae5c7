"""A match taken from a referee's log into the records (``kiebitz records import``).

A recorder started after a match began records it from then on and marks the
record incomplete: it cannot ask for what it missed. The referee's log has every
input of the table, so the match can be made whole from it: the inputs are read
through the rules again (as the referee does on start), and the match under way
at the table is recorded with every engine event, what each did (pegs, proved
verdicts, results: :func:`~controller.referee.service.outcome_json`) and the
state it ends in. The imported match is recorded as ended (the recorder's live
match at that table, if any, is left as it is); importing the same log again
changes nothing (the import is one message, named by the table and the number of
inputs read).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from controller.recorder.store import RecordsError, RecordStore
from controller.referee.service import outcome_json, setup_from_json
from controller.referee.store import InputLog, StoreError
from rules.errors import RulesError
from rules.events import event_to_json
from rules.reading import TableReading, parse_input
from rules.reading.games import engine_for

__all__ = ["import_referee_log"]


def _check_referee_log(log_path: str | Path, table: str | None = None) -> None:
    """That ``log_path`` already holds a referee's tables, read without writing:
    opening another database (the records file itself, named by mistake) as the
    log made the referee's tables in it."""

    try:
        # as_uri() escapes '#', '?' and '%', which a bare file: address takes for its own
        db = sqlite3.connect(Path(log_path).resolve().as_uri() + "?mode=ro", uri=True)
        try:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            served = (
                {r[0] for r in db.execute("SELECT table_id FROM tables")}
                if {"tables", "inputs"} <= names
                else set()
            )
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise RecordsError(f"{log_path}: cannot open the referee's log: {exc}") from None
    if not {"tables", "inputs"} <= names:
        raise RecordsError(f"{log_path}: not a referee's log (it has no tables and inputs)")
    if table is not None and table not in served:
        tables = ", ".join(sorted(str(t) for t in served)) or "none"
        raise RecordsError(f"{log_path}: no table {table} in this log (it has: {tables})")


def check_referee_log(log_path: str | Path, table: str | None = None) -> None:
    """:class:`RecordsError` where ``log_path`` is no referee's log (a folder, missing,
    not SQLite, not the referee's tables), or has no ``table``: what an import checks
    before it opens the records, so that a refused import leaves no records database
    behind."""
    if Path(log_path).is_dir():
        raise RecordsError(f"{log_path}: a folder, not a referee log")
    if not Path(log_path).is_file():
        raise RecordsError(f"{log_path}: no such referee log")
    _check_referee_log(log_path, table)


def import_referee_log(
    store: RecordStore, log_path: str | Path, table: str, *, at: float
) -> tuple[int | None, int]:
    """Record ``table``'s match under way in the referee's log at ``log_path``: (the
    new match's id, or None when this log was imported before; the inputs read).
    A log that cannot be opened, or has no such table, raises :class:`RecordsError`."""
    check_referee_log(log_path)
    try:
        log = InputLog(log_path)
    except StoreError as exc:
        raise RecordsError(str(exc)) from exc
    try:
        stored = log.setup(table)
        if stored is None:
            tables = ", ".join(log.tables()) or "none"
            raise RecordsError(f"{log_path}: no table {table} in this log (it has: {tables})")
        try:
            reading = TableReading(setup_from_json(stored))
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise RecordsError(
                f"{log_path}: table {table}: its setup cannot be read: {exc}"
            ) from None
        n = 0
        for number, _, body in log.inputs(table):
            n = number
            try:
                reading.feed(parse_input(body))
            except RulesError:  # as the referee: an input that no longer reads is skipped
                continue
    except StoreError as exc:  # a row of the log damaged: named (file, table, row)
        raise RecordsError(str(exc)) from None
    except sqlite3.DatabaseError as exc:  # its pages damaged (a traceback, a probe found)
        raise RecordsError(f"{log_path}: the referee's log is damaged: {exc}") from None
    finally:
        log.close()
    setup = reading.setup.to_json()
    # every event of the match with what it did, from a fresh engine of its setup
    game = engine_for(setup["game"], setup.get("options") or {})
    proven = reading.reader.PROVEN
    items: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    for i, event in enumerate(reading.game.events):
        items.append((i, event_to_json(event), outcome_json(game.apply(event), proven)))
    state = reading.summary()
    state.update(table=table, inputs=n)
    with store.write(f"import:{table}:{Path(log_path).resolve()}:{n}", table, at=at) as tx:
        if tx is None:
            return None, n
        match = tx.begin_match(table, setup, [], at=at, keep_open=True)
        tx.put_events(match, items, at=at)
        tx.put_state(match, state, at=at)
        tx.end_match(match, at=at)
    return match, n
