"""The table service's outbox: every observation and command on disk before it is sent.

paho keeps an unacknowledged QoS 1 message in memory only: a table service that is
killed, or a Pi that loses power, loses what the broker had not yet acknowledged.
So the service writes each message here first (SQLite, WAL, ``synchronous=FULL``:
the row is on the card before ``put`` returns), publishes it, and deletes the row
when the broker's PUBACK comes. On start, whatever is still here is sent again,
oldest first, before anything new; the referee drops a message it already has by
its message id, so a message sent twice (its PUBACK lost with the process) is
counted once.

The outbox also keeps each sender's next sequence number, so a service started
again goes on numbering where it stopped and the referee reads its messages in the
order they were made.

>>> box = Outbox(":memory:")
>>> box.next_seq("t1/table")
1
>>> row = box.put("kiebitz/v1/t1/table/observation", b"{}", False, "t1/table", 2)
>>> [(r.topic, r.payload) for r in box.pending()], box.next_seq("t1/table")
([('kiebitz/v1/t1/table/observation', b'{}')], 2)
>>> box.done(row); len(box)
0
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from controller.errors import ControllerError
from controller.kept_file import KeptFile, file_inode

__all__ = ["Outbox", "OutboxError", "Pending"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    row INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS senders (
    sender TEXT PRIMARY KEY,
    next_seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS progress (
    source TEXT PRIMARY KEY,
    lines INTEGER NOT NULL
);
"""


# WAL; FULL: a commit is on the card when put() returns, power cut or not
_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL")


class OutboxError(ControllerError, OSError):
    """The outbox cannot be opened or written (a full disk, a file that is not an outbox)."""


@dataclass(frozen=True, slots=True)
class Pending:
    row: int
    topic: str
    payload: bytes
    retain: bool


class Outbox(KeptFile):
    """One SQLite file (or ``:memory:``) of messages not yet acknowledged. Its file
    removed while open (its folder cleaned by hand) is made again from the open
    copy by :meth:`keep_file` (:mod:`controller.kept_file`)."""

    _pragmas = _PRAGMAS
    _what = "the outbox"
    _error = OutboxError

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            for pragma in _PRAGMAS:
                self._db.execute(pragma)
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise OutboxError(f"{self.path}: cannot open the outbox: {exc}") from exc
        self._inode = file_inode(self.path)

    def put(
        self,
        topic: str,
        payload: bytes,
        retain: bool,
        sender: str,
        next_seq: int,
        progress: tuple[str, int] | None = None,
    ) -> int:
        """Keep a message (and its sender's next sequence number; with ``progress``,
        how many lines of a recorded source are sent with it); its row id."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                cur = self._db.execute(
                    "INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, ?)",
                    (topic, payload, int(retain)),
                )
                self._db.execute(
                    "INSERT INTO senders (sender, next_seq) VALUES (?, ?) ON CONFLICT (sender) "
                    "DO UPDATE SET next_seq = MAX(next_seq, excluded.next_seq)",
                    (sender, next_seq),
                )
                if progress is not None:
                    self._db.execute(
                        "INSERT INTO progress (source, lines) VALUES (?, ?) ON CONFLICT (source) "
                        "DO UPDATE SET lines = MAX(lines, excluded.lines)",
                        progress,
                    )
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise OutboxError(f"{self.path}: cannot keep a message: {exc}") from exc
            row = cur.lastrowid
            assert row is not None
            return row

    def done(self, row: int) -> None:
        """The broker acknowledged the message: forget it. A failure to delete is only
        logged by the caller: the message is sent again next start, and dropped there
        by its id."""
        with self._lock:
            try:
                self._db.execute("DELETE FROM outbox WHERE row = ?", (row,))
            except sqlite3.Error as exc:
                raise OutboxError(f"{self.path}: cannot forget message {row}: {exc}") from exc

    def pending(self) -> list[Pending]:
        """Messages not yet acknowledged, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT row, topic, payload, retain FROM outbox ORDER BY row"
            ).fetchall()
        return [Pending(r, t, bytes(p), bool(k)) for r, t, p, k in rows]

    def next_seq(self, sender: str) -> int:
        """The sequence number ``sender``'s next message carries (1 for a new sender)."""
        with self._lock:
            row = self._db.execute(
                "SELECT next_seq FROM senders WHERE sender = ?", (sender,)
            ).fetchone()
        return 1 if row is None else int(row[0])

    def progress(self, source: str) -> int:
        """How many lines of the recorded source ``source`` were sent (0 if none): a
        service started again on the same file goes on after them."""
        with self._lock:
            row = self._db.execute(
                "SELECT lines FROM progress WHERE source = ?", (source,)
            ).fetchone()
        return 0 if row is None else int(row[0])

    def __len__(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()
        return int(n)

    def close(self) -> None:
        with self._lock:
            self._db.close()
