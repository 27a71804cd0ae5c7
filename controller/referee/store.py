"""The referee's log: every accepted input of every table, in order, in SQLite.

The log is the truth for game state. The referee reads each table's inputs (the
observations and commands it accepted) through :class:`rules.reading.TableReading`
again on start, so a Pi that lost power mid-hand resumes where it stopped, with
the same events and the same alert ids. Each input is stored once: a message
delivered twice (MQTT QoS 1 is *at least once*) has the same message id and is
refused by the table's unique key. The game events the reading derived are
stored beside the inputs, for records and for a look into the log; they are
rewritten from the first event a recount changed.

WAL mode, ``synchronous=NORMAL``: a commit survives the process dying; the last
commits before a power cut may be lost with the OS's buffers, and then the
sender's redelivery brings them again.

>>> log = InputLog(":memory:")
>>> log.set_setup("t1", {"game": "cribbage"})
>>> log.append("t1", "m1", "t1/table", 1, "observation", {"kind": "placed"})
1
>>> log.append("t1", "m1", "t1/table", 1, "observation", {"kind": "placed"})  # again
>>> [body for _, _, body in log.inputs("t1")], log.tables()
([{'kind': 'placed'}], ['t1'])
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.errors import ControllerError
from controller.kept_file import KeptFile, file_inode

__all__ = ["DamagedLog", "InputLog", "StoreError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    next_seq INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS inputs (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    sender TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (table_id, n),
    UNIQUE (table_id, message_id)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


class StoreError(ControllerError, OSError):
    """The log cannot be opened or written (a full disk, a file that is not a log)."""


class DamagedLog(StoreError):
    """A row of the log that cannot be read (its JSON mangled, a number that is text):
    the message names the log's file, the table and the row. The table cannot be read
    again without it (the log is the truth of its game), so the referee does not start
    on it; ``kiebitz`` says the one line (status 2), not a traceback, and under
    systemd the journal says what to mend."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{path}: {what}")
        # the command line's one line for an error about a file: "FILE: WHAT"
        self.filename = path
        self.strerror = what

    def __str__(self) -> str:
        return str(self.args[0])


def _clip(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 24 else text[:24] + "…")


class InputLog(KeptFile):
    """One SQLite file (or ``:memory:``) holding the inputs of every table. Its file
    removed while open (its folder cleaned by hand: SQLite wrote on into the removed
    file, and the whole log went with the process) is made again from the open copy
    by :meth:`keep_file` (:mod:`controller.kept_file`)."""

    _pragmas = _PRAGMAS
    _what = "the log"
    _error = StoreError

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            for pragma in _PRAGMAS:
                self._db.execute(pragma)
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the referee's log: {exc}") from exc
        self._lock = threading.Lock()
        self._next: dict[str, int] = {}
        self._inode = file_inode(self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: Sequence[Any]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write the referee's log: {exc}") from exc

    # Tables ---------------------------------------------------------------------------

    def tables(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT table_id FROM tables ORDER BY table_id").fetchall()
        return [r[0] for r in rows]

    def setup(self, table: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT setup FROM tables WHERE table_id = ?", (table,)
            ).fetchone()
        if row is None:
            return None
        setup = self._json(row[0], f"table {table}: its setup")
        if not isinstance(setup.get("game"), str):
            raise DamagedLog(
                self.path,
                f"table {table}: its setup is damaged (it names no game: {_clip(row[0])})",
            )
        return setup

    def _json(self, raw: Any, what: str) -> dict[str, Any]:
        """The JSON object stored as ``raw``; :class:`DamagedLog` naming ``what``
        where it is not one."""
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        if not isinstance(raw, str):
            raise DamagedLog(self.path, f"{what} is damaged (not JSON text: {_clip(raw)})")
        try:
            value = json.loads(raw)
        except ValueError as exc:
            raise DamagedLog(self.path, f"{what} is damaged (not JSON: {exc})") from None
        if not isinstance(value, dict):
            raise DamagedLog(self.path, f"{what} is damaged (not a JSON object: {_clip(raw)})")
        return value

    def _whole(self, raw: Any, what: str) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise DamagedLog(self.path, f"{what} is damaged (not a whole number: {_clip(raw)})")
        return raw

    def set_setup(self, table: str, setup: Mapping[str, Any]) -> None:
        with self._lock:
            self._write(
                "INSERT INTO tables (table_id, setup) VALUES (?, ?) "
                "ON CONFLICT (table_id) DO UPDATE SET setup = excluded.setup",
                (table, json.dumps(dict(setup))),
            )

    def set_next_seq(self, table: str, next_seq: int) -> None:
        """Keep the referee's next seq for ``table``: a restart goes on past it."""
        with self._lock:
            self._write(
                "UPDATE tables SET next_seq = MAX(next_seq, ?) WHERE table_id = ?",
                (next_seq, table),
            )

    def next_seq(self, table: str) -> int:
        """The referee's next sequence number for ``table`` (kept across restarts)."""
        with self._lock:
            row = self._db.execute(
                "SELECT next_seq FROM tables WHERE table_id = ?", (table,)
            ).fetchone()
        return 1 if row is None else self._whole(row[0], f"table {table}: its next_seq")

    # Inputs ---------------------------------------------------------------------------

    def has(self, table: str, message_id: str) -> bool:
        """Whether the message is in ``table``'s log (read only: works on a full disk)."""
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM inputs WHERE table_id = ? AND message_id = ?", (table, message_id)
            ).fetchone()
        return row is not None

    def append(
        self,
        table: str,
        message_id: str,
        sender: str,
        seq: int,
        kind: str,
        body: Mapping[str, Any],
        *,
        next_seq: int | None = None,
    ) -> int | None:
        """Store one input; its number in the table's log, or ``None`` if it is
        there already (the same message delivered again)."""
        with self._lock:
            n = self._next.get(table)
            if n is None:
                row = self._db.execute(
                    "SELECT COALESCE(MAX(n), 0) FROM inputs WHERE table_id = ?", (table,)
                ).fetchone()
                n = int(row[0])
            try:
                self._write("BEGIN", ())
                self._write(
                    "INSERT INTO inputs (table_id, n, message_id, sender, seq, kind, body) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table, n + 1, message_id, sender, seq, kind, json.dumps(dict(body))),
                )
                if next_seq is not None:
                    self._write(
                        "UPDATE tables SET next_seq = ? WHERE table_id = ?", (next_seq, table)
                    )
                self._write("COMMIT", ())
            except sqlite3.IntegrityError:
                self._db.execute("ROLLBACK")
                return None
            except Exception:
                # any failure (a full disk; a value SQLite cannot hold, an OverflowError
                # that left the transaction open and refused the next good input)
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._next[table] = n + 1
            return n + 1

    def inputs(self, table: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """(number, kind, body) of every input of ``table``, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT n, kind, body FROM inputs WHERE table_id = ? ORDER BY n", (table,)
            ).fetchall()
        for n, kind, body in rows:
            number = self._whole(n, f"table {table}: an input's number")
            yield number, str(kind), self._json(body, f"table {table}: input {number}")

    def last_seq(self, table: str, sender: str) -> int | None:
        """The highest seq stored from ``sender`` at ``table``, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT MAX(seq) FROM inputs WHERE table_id = ? AND sender = ?", (table, sender)
            ).fetchone()
        if row is None or row[0] is None:
            return None
        return self._whole(row[0], f"table {table}: the seq of {sender}'s inputs")

    def count(self, table: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM inputs WHERE table_id = ?", (table,)
            ).fetchone()
        return int(row[0])

    # Derived events -------------------------------------------------------------------------

    def write_events(self, table: str, since: int, events: Sequence[Mapping[str, Any]]) -> None:
        """Events from index ``since`` on, replacing any stored there before."""
        with self._lock:
            try:
                self._write("BEGIN", ())
                self._write("DELETE FROM events WHERE table_id = ? AND idx >= ?", (table, since))
                self._db.executemany(
                    "INSERT INTO events (table_id, idx, event) VALUES (?, ?, ?)",
                    [(table, since + k, json.dumps(dict(e))) for k, e in enumerate(events)],
                )
                self._write("COMMIT", ())
            except (sqlite3.Error, StoreError) as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StoreError(f"{self.path}: cannot write events: {exc}") from exc

    def events(self, table: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT idx, event FROM events WHERE table_id = ? ORDER BY idx", (table,)
            ).fetchall()
        return [self._json(event, f"table {table}: event {idx}") for idx, event in rows]
