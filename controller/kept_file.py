"""An SQLite file removed while a service has it open, made again from the open copy.

A folder cleaned by hand (``rm -rf /var/lib/kiebitz``, a tidy-up script) takes the
file of an open SQLite database with it, and SQLite goes on writing into the
removed file without a word: everything kept since it was opened goes with the
process. The referee's log, the recorder's records and the table service's outbox
each look now and then whether their file is still theirs (its inode), and where
it is gone copy the open database back to its path with SQLite's backup
(:func:`copy_back`) and go on from there.

A file of another inode at the path is left alone: someone put it there.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path


def file_inode(path: str) -> int | None:
    """The inode of the file at ``path`` (``None``: not there, or not a file path:
    ``:memory:``, a ``file:`` URI)."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def removed(path: str, inode: int | None) -> bool:
    """Whether the file opened as ``inode`` at ``path`` is gone from it: nothing there
    now, or an empty file or database of another inode (what SQLite makes where a
    connection opens a path that is gone: a pool's next connection). A file of
    another inode with something in it is someone else's and not taken for it."""
    if inode is None:
        return False
    try:
        st = os.stat(path)
    except OSError:
        return True
    if st.st_ino == inode:
        return False
    if st.st_size == 0:
        return True
    try:  # an empty database (a pool's connection set its journal mode): nothing in it
        probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            (tables,) = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            probe.close()
    except sqlite3.Error:
        return False  # not a database: someone else's
    return int(tables) == 0


def copy_back(db: sqlite3.Connection, path: str, pragmas: Sequence[str] = ()) -> sqlite3.Connection:
    """Copy the open database ``db`` to ``path`` (its folder made again) and return a
    connection to the copy, with ``pragmas`` run on it; the caller closes ``db`` and
    uses the new one. Where the copy cannot be made (a full disk), no half-made file
    is left at the path, where it would pass for the database, and the error
    (``OSError`` or ``sqlite3.Error``) is raised: the caller tries again later."""
    # what is at the path holds nothing (removed() said so), and the write-ahead log
    # and index left beside it are the removed file's (its open connections keep
    # them by descriptor): a new file must not read them as its own
    _unlink_all(path)
    fresh = None
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fresh = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        db.backup(fresh)
        for pragma in pragmas:
            fresh.execute(pragma)
    except (OSError, sqlite3.Error):
        if fresh is not None:
            fresh.close()
        _unlink_all(path)
        raise
    return fresh


def _unlink_all(path: str) -> None:
    """Remove an SQLite file and the journal, log and index beside it, if there."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            os.unlink(path + suffix)


class KeptFile:
    """What a store of one SQLite connection (``_db``, used under ``_lock``) at
    ``path`` needs to make its file again: it sets ``_inode`` (:func:`file_inode`)
    once open, and names its pragmas, what it is (``_what``) and its error."""

    path: str
    _db: sqlite3.Connection
    _lock: threading.Lock
    _inode: int | None
    _pragmas: tuple[str, ...] = ()
    _what = "the database"
    _error: type[OSError] = OSError

    def keep_file(self) -> bool:
        """Make the file again where it was removed while open: the open database is
        copied to its path (:func:`copy_back`) and used from there; True when it
        was. ``_error`` where the copy cannot be made (the next call tries again)."""
        if not removed(self.path, self._inode):
            return False
        with self._lock:
            if not removed(self.path, self._inode):  # another thread made it meanwhile
                return False
            try:
                fresh = copy_back(self._db, self.path, self._pragmas)
            except (OSError, sqlite3.Error) as exc:
                raise self._error(
                    f"{self.path}: {self._what} was removed and cannot be made again: {exc}"
                ) from exc
            old, self._db = self._db, fresh
            old.close()
            self._inode = file_inode(self.path)
        return True


class KeptFileWatch:
    """A service's look at one store's file (:meth:`KeptFile.keep_file`, or the
    records' own): a file made again is said, as an error line on the service's
    ``log`` (something removed it); a file that cannot be made again is told to
    ``on_trouble`` (default: an error line on ``log``) once, not at every look,
    until it is made again."""

    def __init__(
        self,
        keep: Callable[[], bool],
        where: str,
        what: str,
        log: logging.Logger,
        on_trouble: Callable[[str], None] | None = None,
    ) -> None:
        self._keep, self._where, self._what = keep, where, what
        self._log = log
        self._on_trouble = on_trouble or (lambda why: log.error("%s", why))
        self._trouble_said = False

    def look(self) -> None:
        try:
            made = self._keep()
        except OSError as exc:  # the stores' errors are OSErrors: StoreError, ...
            if not self._trouble_said:
                self._trouble_said = True
                self._on_trouble(str(exc))
            return
        if made:
            self._trouble_said = False  # a later removal is said again
            self._log.error(
                "%s: %s was removed while in use: made again from the open copy, nothing lost",
                self._where,
                self._what,
            )
