"""Where match records live: SQLite on a Pi, PostgreSQL on a club server.

:class:`RecordStore` opens a database by URL (a plain path or ``sqlite:///path``
for SQLite; ``postgresql://user@host:port/name`` for PostgreSQL, through
psycopg 3), brings its schema to the newest revision with the migrations under
``migrations/`` (Alembic), and offers two sides:

* the recorder's writes, each message in one transaction (:meth:`RecordStore.write`):
  a message already stored is skipped, so a redelivery changes nothing;
* the readers' queries (:meth:`RecordStore.matches`, :meth:`RecordStore.match`) for
  ``kiebitz records`` and the web view.

SQLite runs in WAL mode with ``synchronous=FULL``: a match recorded survives the
process dying and the power going.

>>> store = RecordStore("sqlite://")
>>> with store.write("m1", "t1", at=1.0) as tx:
...     match = tx.begin_match("t1", {"game": "frog", "options": {}}, [], at=1.0)
>>> with store.write("m1", "t1", at=1.0) as tx:  # the same message again
...     tx is None
True
>>> [m.table_id for m in store.matches()]
['t1']
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from controller.errors import ControllerError
from controller.kept_file import copy_back, file_inode, removed
from controller.recorder.schema import (
    deals,
    events,
    games,
    matches,
    messages,
    plays,
    said,
)

__all__ = [
    "DamagedRecord",
    "MatchRecord",
    "MatchRow",
    "RecordRefused",
    "RecordStore",
    "RecordsError",
    "Writer",
    "database_url",
    "shown_url",
]


#: How far past the events received an event's index may be (the recorder missed the
#: ones between); one further is refused as malformed.
MAX_GAP = 10_000

#: How long an opener waits for another that is making or migrating the schema (s).
SCHEMA_WAIT = 60.0

#: The PostgreSQL advisory lock that one opener at a time migrates the schema under
#: ("kbtzrecs" as a number).
SCHEMA_LOCK_KEY = 0x6B62747A72656373

log = logging.getLogger("kiebitz.recorder")


class RecordsError(ControllerError, OSError):
    """The records cannot be opened, migrated or written; or a match asked for is not there."""


class DamagedRecord(ControllerError, ValueError):
    """A row of the records that cannot be read (its JSON mangled, a number that is
    text): the message names the database, the match and the row. Not a
    :class:`RecordsError`, which the recorder takes for a database away and tries
    again: a damaged row stays damaged."""


class RecordRefused(ControllerError, ValueError):
    """The database is there but refuses a message's data (a value too long, a
    constraint): writing it again would fail again."""


def _unreachable(exc: BaseException) -> bool:
    """Is this the database being away or full (worth trying again later), rather than
    a refusal of the data? Connection trouble, a locked or full SQLite file, a server
    restarting: ``OperationalError``, or any error that invalidated the connection."""
    if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(exc, (sa.exc.OperationalError, sa.exc.DisconnectionError))


def database_url(url: str | Path) -> str:
    """A SQLAlchemy URL from what a config or a command line gives.

    >>> database_url("/var/lib/kiebitz/records.db")
    'sqlite:////var/lib/kiebitz/records.db'
    >>> database_url("postgresql://kiebitz@db:5432/club")
    'postgresql+psycopg://kiebitz@db:5432/club'
    >>> database_url("mysql://x")
    Traceback (most recent call last):
    ...
    controller.recorder.store.RecordsError: records database 'mysql://x': expected a file, ...
    """
    text = str(url)
    if "://" not in text:
        return f"sqlite:///{Path(text).resolve()}" if text != ":memory:" else "sqlite://"
    scheme = text.partition("://")[0]
    if scheme in ("postgresql", "postgres"):
        return "postgresql+psycopg://" + text.partition("://")[2]
    if scheme in ("sqlite", "postgresql+psycopg"):
        return text
    raise RecordsError(
        f"records database {text!r}: expected a file, sqlite:///FILE or postgresql://HOST/NAME"
    )


def shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        return url


@dataclass(frozen=True)
class MatchRow:
    """One match as listed."""

    id: int
    table_id: str
    game: str
    setup: dict[str, Any]
    started_at: float
    ended_at: float | None
    events: int
    updated_at: float
    state: dict[str, Any] | None = None

    @property
    def open(self) -> bool:
        return self.ended_at is None


@dataclass
class MatchRecord:
    """One match with everything stored of it."""

    row: MatchRow
    #: (index, engine event JSON, outcome as the referee said it), in order
    events: list[tuple[int, dict[str, Any], dict[str, Any]]]
    games: list[dict[str, Any]]
    deals: list[dict[str, Any]]
    plays: list[dict[str, Any]]
    said: list[dict[str, Any]]
    #: indices below :attr:`MatchRow.events` that never came (the recorder missed them)
    missing: list[int] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every event from the first to the last the referee reported was received."""
        state_events = (self.row.state or {}).get("events")
        behind = isinstance(state_events, int) and state_events > self.row.events
        return not self.missing and not behind


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    # A new file is put into WAL under an exclusive lock. Where another opener holds
    # the write lock (making the schema, _schema_lock) SQLite answers "database is
    # locked" at once, without its busy wait (the two would otherwise wait on each
    # other): eight openers at once on a loaded machine met it. Asked again until the
    # other is done, for as long as the schema lock waits.
    deadline = time.monotonic() + SCHEMA_WAIT
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _read_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """A store only read from: the file's journal mode is left as it is (setting WAL
    writes the file's header), and SQLite refuses any change."""
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA query_only=ON")
    cur.close()


class RecordStore:
    """The records database (see the module's documentation). ``read_only``: for
    those that only read (``kiebitz records list / show / export``): nothing is
    made or changed, so a file that is not there, an empty one or one of an
    older schema is refused (:class:`RecordsError`) rather than made a records
    database."""

    def __init__(self, url: str | Path, *, read_only: bool = False) -> None:
        self.url = database_url(url)
        self.shown = shown_url(self.url)
        self.read_only = read_only
        #: what messages name the database by: a file as it was given, else the URL
        self.name = str(url) if "://" not in str(url) and str(url) != ":memory:" else self.shown
        try:
            if self.url.startswith("sqlite"):
                memory = self.url in ("sqlite://", "sqlite:///:memory:")
                if read_only and not memory:
                    self._check_file(sa.engine.make_url(self.url).database or "")
                self.engine: Engine = sa.create_engine(
                    self.url,
                    connect_args={"check_same_thread": False},
                    poolclass=sa.pool.StaticPool if memory else None,
                )
                sa.event.listen(self.engine, "connect", _read_pragmas if read_only else _pragmas)
            else:
                self.engine = sa.create_engine(self.url, pool_pre_ping=True)
            self._migrate()
        except RecordsError:
            raise
        except (sa.exc.SQLAlchemyError, OSError, ValueError) as exc:
            raise RecordsError(f"{self.shown}: cannot open the records: {_one_line(exc)}") from exc
        self._lock = threading.Lock()
        # an SQLite file's path and inode (keep_file), and a connection of the store's
        # own kept open on that file: what keep_file copies from, whatever the pool
        # holds or has let go (a connection the pool opens after the file is removed
        # makes an empty one at the path); None for PostgreSQL or memory, and for a
        # store only read from (nothing of it to keep)
        self._file = (
            self.engine.url.database if self.url.startswith("sqlite") and not read_only else None
        )
        self._inode = file_inode(self._file or "")
        self._keeper = self._open_keeper()

    def _check_file(self, path: str) -> None:
        """A file only read from must be there and hold something: SQLite takes a
        missing or empty file for an empty database, which the migrations made a
        records database of (``kiebitz records list`` on a mistyped name)."""
        if not os.path.lexists(path):
            raise RecordsError(
                f"{self.name}: no such file (no records database there: the recorder makes it)"
            )
        if os.path.isdir(path):
            raise RecordsError(f"{self.name}: a folder, not a records database")
        try:
            size = os.path.getsize(path)
        except OSError as exc:
            raise RecordsError(f"{self.name}: cannot open the records: {exc.strerror}") from exc
        if size == 0:
            raise RecordsError(f"{self.name}: not a records database (empty file)")

    def _open_keeper(self) -> sqlite3.Connection | None:
        if self._inode is None or self._file is None:
            return None
        try:
            keeper = sqlite3.connect(self._file, check_same_thread=False, isolation_level=None)
            # a first read opens the write-ahead log and its index, which a removed
            # folder takes with it: opened now, they stay this connection's
            keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            return None
        return keeper

    def keep_file(self) -> bool:
        """Make the SQLite file again where it was removed while open (its folder
        cleaned by hand: :mod:`controller.kept_file`); True when it was. The open
        database is copied back to its path and the connections that knew the
        removed file are let go. :class:`RecordsError` where it cannot be (the next
        call tries again)."""
        if self._file is None or self._keeper is None or not removed(self._file, self._inode):
            return False
        with self._lock:
            if not removed(self._file, self._inode):  # another thread made it meanwhile
                return False
            try:
                copy_back(self._keeper, self._file).close()
            except (OSError, sqlite3.Error) as exc:
                raise RecordsError(
                    f"{self.shown}: the records were removed and cannot be made again: {exc}"
                ) from exc
            self.engine.dispose()  # the pool's connections open the file made again
            old, self._inode = self._keeper, file_inode(self._file)
            self._keeper = self._open_keeper()
            old.close()
        return True

    def _migrate(self) -> None:
        """Bring the schema to the newest revision (a store only read from: check that
        it is there). A database that holds other tables, or none where one is only
        read, is not a records database; one at a revision these migrations do not
        know was made by a newer Kiebitz, and is left as it is."""
        _quiet_alembic()  # before alembic loads: it says its plugins as it imports
        from alembic import command
        from alembic.config import Config
        from alembic.script import ScriptDirectory
        from alembic.util import CommandError

        with resources.as_file(resources.files("controller.recorder") / "migrations") as where:
            cfg = Config()
            cfg.set_main_option("script_location", str(where))
            script = ScriptDirectory.from_config(cfg)
            known = {rev.revision for rev in script.walk_revisions()}
            head = script.get_current_head()
            with self.engine.begin() as conn, self._schema_lock(conn):
                inspector = sa.inspect(conn)
                names = set(inspector.get_table_names())
                if names and "alembic_version" not in names:
                    raise RecordsError(
                        f"{self.name}: holds tables ({', '.join(sorted(names)[:4])}) but no "
                        "records schema: not a records database"
                    )
                if not names and self.read_only:
                    raise RecordsError(f"{self.name}: not a records database (it holds no tables)")
                if names:
                    versions = [
                        r[0]
                        for r in conn.execute(sa.text("SELECT version_num FROM alembic_version"))
                    ]
                    if not versions:
                        raise RecordsError(
                            f"{self.name}: the records' schema version is missing "
                            "(alembic_version is empty): not a records database Kiebitz can read"
                        )
                    for version in versions:
                        if str(version) not in known:
                            raise RecordsError(
                                f"{self.name}: made by a newer Kiebitz (schema "
                                f"{str(version)[:24]}), this one knows up to {head}"
                            )
                    if self.read_only:
                        if versions != [head]:
                            raise RecordsError(
                                f"{self.name}: records of an older Kiebitz (schema "
                                f"{versions[0]}); the recorder (or `kiebitz records import`) "
                                f"brings them up to {head} when it opens them"
                            )
                        return
                cfg.attributes["connection"] = conn
                try:
                    command.upgrade(cfg, "head")
                except CommandError as exc:  # a revision it cannot go on from
                    raise RecordsError(
                        f"{self.name}: cannot bring the records up to date: {_one_line(exc)}"
                    ) from exc

    @contextlib.contextmanager
    def _schema_lock(self, conn: Connection) -> Iterator[None]:
        """The schema looked at and migrated by one opener at a time, in one transaction:
        the recorder and the web view started in the same second on a new file both
        made ``alembic_version`` (``table alembic_version already exists``), or one
        read the other's tables half made (``alembic_version is empty``). SQLite: the
        transaction takes the write lock first (``BEGIN IMMEDIATE``), and the others
        wait for it (up to :data:`SCHEMA_WAIT` seconds), then find the schema made;
        its tables are made all at once or not at all. PostgreSQL: a lock of the
        transaction (``pg_advisory_xact_lock``). A store only read from takes none."""
        if self.read_only:
            yield
            return
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            yield
            return
        if conn.dialect.name != "sqlite":
            yield
            return
        # pysqlite begins a transaction only before a write: begun here, by hand, it
        # takes the lock now, and pysqlite commits or rolls it back as its own
        waited = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
        conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(SCHEMA_WAIT * 1000)}")
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield
        finally:
            with contextlib.suppress(sa.exc.SQLAlchemyError):
                conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(waited or 5000)}")

    def version(self) -> str:
        with self.engine.connect() as conn:
            return str(conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar())

    def close(self) -> None:
        self.engine.dispose()
        if self._keeper is not None:
            self._keeper.close()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sa.Connection]:
        """A connection to read with. A database away is :class:`RecordsError`; a file
        whose pages are damaged ("database disk image is malformed") is
        :class:`DamagedRecord` naming it: a traceback of SQLAlchemy's before (a probe
        overwrote one page of a records file)."""
        try:
            with self.engine.connect() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as exc:
            if _unreachable(exc):
                raise RecordsError(f"{self.shown}: cannot read: {_one_line(exc)}") from exc
            raise DamagedRecord(f"{self.shown}: the file is damaged: {_one_line(exc)}") from exc

    # Writing ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def write(self, message_id: str, table: str, *, at: float) -> Iterator[Writer | None]:
        """One message's changes in one transaction; ``None`` when that message was
        stored before (nothing to do). A failure rolls the whole message back and
        raises :class:`RecordsError`."""
        with self._lock:
            try:
                with self.engine.begin() as conn:
                    seen = conn.execute(
                        sa.select(messages.c.message_id).where(messages.c.message_id == message_id)
                    ).first()
                    if seen is not None:
                        yield None
                        return
                    conn.execute(
                        messages.insert().values(message_id=message_id, table_id=table, at=at)
                    )
                    yield Writer(conn)
            except sa.exc.SQLAlchemyError as exc:
                if _unreachable(exc):
                    raise RecordsError(f"{self.shown}: cannot write: {_one_line(exc)}") from exc
                # the database is there and refuses this message's data: no retry helps
                raise RecordRefused(f"{self.shown}: refused: {_one_line(exc)}") from exc

    def open_matches(self) -> dict[str, MatchRow]:
        """The match under way at each table (the newest one not ended). A match whose
        row is damaged is logged and left out: the table's next state begins a new one."""
        with self._reading() as conn:
            rows = conn.execute(
                sa.select(*_raw(matches)).where(matches.c.ended_at.is_(None)).order_by(matches.c.id)
            ).all()
        found = {}
        for r in rows:
            try:
                found[r.table_id] = _row(r, self.name)
            except DamagedRecord as exc:
                log.error("%s; that match is not taken up again", exc)
                if isinstance(r.table_id, str):  # nor an older one of its table
                    found.pop(r.table_id, None)
        return found

    # Reading ---------------------------------------------------------------------------

    def matches(
        self,
        *,
        table: str | None = None,
        game: str | None = None,
        limit: int | None = None,
        damaged: list[DamagedRecord] | None = None,
    ) -> list[MatchRow]:
        """Matches, newest first. One whose row cannot be read is left out and put in
        ``damaged`` where that is given (logged where it is not): the others are
        listed all the same."""
        q = sa.select(*_raw(matches)).order_by(matches.c.id.desc())
        if table is not None:
            q = q.where(matches.c.table_id == table)
        if game is not None:
            q = q.where(matches.c.game == game)
        if limit is not None:
            q = q.limit(limit)
        with self._reading() as conn:
            rows = conn.execute(q).all()
        found = []
        for r in rows:
            try:
                found.append(_row(r, self.name))
            except DamagedRecord as exc:
                if damaged is None:
                    log.error("%s", exc)
                else:
                    damaged.append(exc)
        return found

    def match_row(self, match_id: int) -> MatchRow:
        """The match's own row alone (how many events, its state, when it ended), for
        what asks that often (a run waiting for the recorder to catch up): not its
        events, each read and checked against the rules as :meth:`match` does."""
        with self._reading() as conn:
            return self._match_row(conn, match_id)

    def _match_row(self, conn: Connection, match_id: int) -> MatchRow:
        r = conn.execute(sa.select(*_raw(matches)).where(matches.c.id == match_id)).first()
        if r is None:
            raise RecordsError(f"{self.name}: no match {match_id}")
        return _row(r, self.name)

    def match(self, match_id: int) -> MatchRecord:
        """One match with everything stored of it: :class:`RecordsError` where there is
        no such match, :class:`DamagedRecord` where a row of it cannot be read."""
        with self._reading() as conn:
            row = self._match_row(conn, match_id)
            evs = conn.execute(
                sa.select(*_raw(events)).where(events.c.match_id == match_id).order_by(events.c.idx)
            ).all()
            gs = conn.execute(
                sa.select(games).where(games.c.match_id == match_id).order_by(games.c.number)
            ).all()
            ds = conn.execute(
                sa.select(*_raw(deals)).where(deals.c.match_id == match_id).order_by(deals.c.number)
            ).all()
            ps = conn.execute(
                sa.select(plays).where(plays.c.match_id == match_id).order_by(plays.c.idx)
            ).all()
            ss = conn.execute(
                sa.select(*_raw(said)).where(said.c.match_id == match_id).order_by(said.c.id)
            ).all()
        where = f"{self.name}: match {match_id}"
        stored = []
        for e in evs:
            idx = _whole(e.idx, f"{where}: an event's index")
            event = _json_object(e.event, f"{where}: event {idx}")
            outcome = _outcome(e.outcome, f"{where}: the outcome of event {idx}")
            stored.append((idx, event, outcome))
        _readable(row, stored, where)
        have = {idx for idx, _, _ in stored}
        return MatchRecord(
            row=row,
            events=stored,
            games=[
                {
                    "number": _whole(g.number, f"{where}: a game's number"),
                    "first_event": _whole(g.first_event, f"{where}: a game's first event"),
                }
                for g in gs
            ],
            deals=[_deal_row(d, where) for d in ds],
            plays=[
                {
                    "event": _whole(p.idx, f"{where}: a play's event"),
                    "deal": _whole(p.deal, f"{where}: the deal of play {p.idx}"),
                    "seat": _whole(p.seat, f"{where}: the seat of play {p.idx}"),
                    "card": _text(p.card, f"{where}: the card of play {p.idx}"),
                }
                for p in ps
            ],
            said=[
                {
                    "at": _time(s.at, f"{where}: the time of said row {s.id}"),
                    "type": _text(s.type, f"{where}: the type of said row {s.id}"),
                    **_json_object(s.body, f"{where}: said row {s.id}"),
                }
                for s in ss
            ],
            missing=[i for i in range(row.events) if i not in have],
        )


def _one_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


def _raw(table: sa.Table) -> list[Any]:
    """A table's columns with its JSON ones as the text stored, decoded row by row
    (:func:`_json_object`), so that a damaged one is named, not a traceback out of
    the driver's decoder."""
    return [
        sa.cast(c, sa.Text).label(c.name) if isinstance(c.type, sa.JSON) else c for c in table.c
    ]


def _deal(number: Any) -> str:
    """A deal as ``kiebitz records show`` counts them (from 1), and its row's number."""
    if isinstance(number, int) and not isinstance(number, bool):
        return f"deal {number + 1} (row number {number})"
    return f"deal row number {_clip(number)}"


def _clip(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 24 else text[:24] + "…")


def _json_object(raw: Any, what: str, *, null: bool = False) -> Any:
    """The JSON object stored as ``raw`` (``None`` for a null where ``null``);
    :class:`DamagedRecord` naming ``what`` where it is not one."""
    if raw is None and null:
        return None
    if isinstance(raw, (bytes, bytearray)):
        raw = bytes(raw).decode("utf-8", "replace")
    if raw is None:
        raise DamagedRecord(f"{what} is damaged (empty)")
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError as exc:
            raise DamagedRecord(f"{what} is damaged (not JSON: {exc})") from None
    else:  # a driver that decoded it itself
        value = raw
    if value is None and null:
        return None
    if not isinstance(value, dict):
        raise DamagedRecord(f"{what} is damaged (not a JSON object: {_clip(raw)})")
    return value


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DamagedRecord(f"{what} is damaged (not a whole number: {_clip(value)})")
    return value


def _time(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DamagedRecord(f"{what} is damaged (not a time: {_clip(value)})")
    return float(value)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise DamagedRecord(f"{what} is damaged (not text: {_clip(value)})")
    return value


def _json(value: Any) -> str:
    """A value read from JSON as JSON again, for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _shown(value: Any) -> str:
    """A value read from JSON, shown clipped in a message."""
    return _clip(_json(value))


def _is_pegging(value: Any) -> bool:
    """A pegging as the referee says it: an object of whole ``points`` and ``score``."""
    return (
        isinstance(value, dict) and _is_whole(value.get("points")) and _is_whole(value.get("score"))
    )


def _outcome(raw: Any, what: str) -> dict[str, Any]:
    """An event's outcome as the referee said it: its ``pegged``, ``verdicts`` and
    ``notes`` lists (each pegging an object with whole ``points`` and ``score``), its
    ``result`` an object or null; :class:`DamagedRecord` naming ``what`` otherwise."""
    outcome = _json_object(raw, what)
    for key in ("pegged", "verdicts", "notes"):
        value = outcome.get(key, [])
        if not isinstance(value, list):
            raise DamagedRecord(f"{what} is damaged ({key} is not a list: {_shown(value)})")
    for pegging in outcome.get("pegged", []):
        if not _is_pegging(pegging):
            raise DamagedRecord(
                f"{what} is damaged (a pegging that is not points and a score: {_shown(pegging)})"
            )
    for verdict in outcome.get("verdicts", []):
        if not isinstance(verdict, dict):
            raise DamagedRecord(
                f"{what} is damaged (a verdict that is not an object: {_shown(verdict)})"
            )
    if not isinstance(outcome.get("result") or {}, dict):
        raise DamagedRecord(
            f"{what} is damaged (its result is not an object: {_shown(outcome['result'])})"
        )
    return outcome


def _deal_row(d: Any, where: str) -> dict[str, Any]:
    """A deal's row: its numbers whole, its result an object (its name text), its
    pegging by side the points and the score (``{"0": {"points": 11, "score": 11}}``)."""
    what = f"{where}: {_deal(d.number)}"
    number = _whole(d.number, f"{where}: a deal's number")
    game = _whole(d.game, f"{what}: its game")
    first = _whole(d.first_event, f"{what}: its first event")
    dealer = None if d.dealer is None else _whole(d.dealer, f"{what}: its dealer")
    result = _json_object(d.result, f"{where}: the result of {_deal(d.number)}", null=True)
    if result is not None and not isinstance(result.get("name") or "", str):
        raise DamagedRecord(
            f"{where}: the result of {_deal(d.number)} is damaged (its name is not text: "
            f"{_shown(result['name'])})"
        )
    pegged = _json_object(d.pegged, f"{where}: the pegging of {_deal(d.number)}", null=True)
    for side, value in (pegged or {}).items():
        if not _is_pegging(value):
            raise DamagedRecord(
                f"{where}: the pegging of {_deal(d.number)} is damaged (side {side}: not "
                f"points and a score: {_shown(value)})"
            )
    return {
        "number": number,
        "game": game,
        "first_event": first,
        "dealer": dealer,
        "result": result,
        "pegged": pegged,
    }


def _readable(row: MatchRow, stored: Sequence[tuple[int, dict[str, Any], Any]], where: str) -> None:
    """The match's setup names a game these rules know, with options they take, and
    each event is one of that game's events with its fields (as the recorder checked
    them when it stored them): :class:`DamagedRecord` naming the row otherwise, not a
    traceback out of the replay (a ``KeyError``) or an export that says nothing of
    where."""
    from rules.errors import RulesError
    from rules.events import event_from_json
    from rules.reading.games import engine_for

    try:
        game = engine_for(str(row.setup["game"]), row.setup.get("options") or {})
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise DamagedRecord(f"{where}: its setup is damaged ({_one_line(exc)})") from None
    for idx, event, _ in stored:
        try:
            event_from_json(dict(event), game.event_types)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise DamagedRecord(f"{where}: event {idx} is damaged ({_one_line(exc)})") from None


def _row(r: Any, name: str) -> MatchRow:
    where = f"{name}: match {r.id}"
    for column in ("table_id", "game"):
        if not isinstance(getattr(r, column), str):
            raise DamagedRecord(f"{where}: its {column} is damaged ({_clip(getattr(r, column))})")
    events_received = _whole(r.events, f"{where}: its count of events")
    setup = _json_object(r.setup, f"{where}: its setup")
    if not isinstance(setup.get("game"), str):
        raise DamagedRecord(f"{where}: its setup is damaged (it names no game: {_clip(r.setup)})")
    if not isinstance(setup.get("options") or {}, dict):
        raise DamagedRecord(
            f"{where}: its setup is damaged (its options are not a JSON object: "
            f"{_shown(setup['options'])})"
        )
    return MatchRow(
        id=r.id,
        table_id=r.table_id,
        game=r.game,
        setup=setup,
        started_at=_time(r.started_at, f"{where}: its start"),
        ended_at=None if r.ended_at is None else _time(r.ended_at, f"{where}: its end"),
        events=events_received,
        updated_at=_time(r.updated_at, f"{where}: its last change"),
        state=_json_object(r.state, f"{where}: its state", null=True),
    )


class Writer:
    """The changes of one message (inside :meth:`RecordStore.write`'s transaction)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def begin_match(
        self,
        table: str,
        setup: Mapping[str, Any],
        initial: Sequence[Mapping[str, Any]],
        *,
        at: float,
        keep_open: bool = False,
    ) -> int:
        """End the table's open match (if any; not with ``keep_open``: an imported
        match beside the live one) and begin a new one; ``initial``: the engine events
        the setup itself makes (the first dealer), which the referee never sends as
        events."""
        if not keep_open:
            self.conn.execute(
                matches.update()
                .where(matches.c.table_id == table, matches.c.ended_at.is_(None))
                .values(ended_at=at, updated_at=at)
            )
        match_id = int(
            self.conn.execute(
                matches.insert().values(
                    table_id=table,
                    game=str(setup["game"]),
                    setup=dict(setup),
                    started_at=at,
                    events=0,
                    updated_at=at,
                )
            ).inserted_primary_key[0]
        )
        self.conn.execute(games.insert().values(match_id=match_id, number=0, first_event=0))
        if initial:
            self.put_events(
                match_id,
                [
                    (i, dict(e), {"pegged": [], "verdicts": [], "notes": []})
                    for i, e in enumerate(initial)
                ],
                at=at,
            )
        return match_id

    def end_match(self, match_id: int, *, at: float) -> None:
        self.conn.execute(
            matches.update()
            .where(matches.c.id == match_id, matches.c.ended_at.is_(None))
            .values(ended_at=at, updated_at=at)
        )

    def _events(self, match_id: int) -> int:
        n = self.conn.execute(sa.select(matches.c.events).where(matches.c.id == match_id)).scalar()
        if n is None:
            raise ValueError(f"no match {match_id}")
        return int(n)

    def recount(self, match_id: int, since: int, *, at: float) -> None:
        """The events from ``since`` on are replaced by those that follow; ``since`` past
        the events received is refused (``ValueError``)."""
        if not 0 <= since <= self._events(match_id):
            raise ValueError(
                f"recount since {since}: the match has {self._events(match_id)} events"
            )
        undone = self._corrected(match_id, events.c.idx >= since)
        self.conn.execute(
            events.delete().where(events.c.match_id == match_id, events.c.idx >= since)
        )
        self.conn.execute(
            matches.update().where(matches.c.id == match_id).values(events=since, updated_at=at)
        )
        self._derive(match_id, since)
        self._recorrect(match_id, undone)

    def put_events(
        self,
        match_id: int,
        items: Sequence[tuple[int, Mapping[str, Any], Mapping[str, Any]]],
        *,
        at: float,
    ) -> None:
        """Store engine events by index (one there already is replaced) and bring the
        games, deals and plays up to date from the first of them."""
        if not items:
            return
        have = self._events(match_id)
        for idx, _, _ in items:
            # a gap is events the recorder missed; one this far past them is no event
            if not 0 <= idx <= have + MAX_GAP:
                raise ValueError(f"event index {idx}: the match has {have} events")
        # corrections being replaced: the plays they named are put right again below
        undone = self._corrected(match_id, events.c.idx.in_([idx for idx, _, _ in items]))
        for idx, event, outcome in items:
            self.conn.execute(
                events.delete().where(events.c.match_id == match_id, events.c.idx == idx)
            )
            self.conn.execute(
                events.insert().values(
                    match_id=match_id, idx=idx, event=dict(event), outcome=dict(outcome), at=at
                )
            )
        top = max(idx for idx, _, _ in items) + 1
        self.conn.execute(
            matches.update()
            .where(matches.c.id == match_id)
            .values(
                events=sa.case((matches.c.events < top, top), else_=matches.c.events), updated_at=at
            )
        )
        self._derive(match_id, min(idx for idx, _, _ in items))
        self._recorrect(match_id, undone)

    def put_state(self, match_id: int, state: Mapping[str, Any], *, at: float) -> None:
        """Keep the referee's last state of the match; its ``dealer`` is the dealer of
        the deal under way where that deal's event did not name one (the engine's
        turn to deal)."""
        self.conn.execute(
            matches.update()
            .where(matches.c.id == match_id)
            .values(state=dict(state), updated_at=at)
        )
        dealer = state.get("dealer")
        if isinstance(dealer, int) and not isinstance(dealer, bool):
            last = (
                sa.select(sa.func.max(deals.c.number))
                .where(deals.c.match_id == match_id)
                .scalar_subquery()
            )
            self.conn.execute(
                deals.update()
                .where(deals.c.match_id == match_id, deals.c.number == last)
                .where(deals.c.dealer.is_(None))
                .values(dealer=dealer)
            )

    def put_said(self, match_id: int, kind: str, body: Mapping[str, Any], *, at: float) -> None:
        self.conn.execute(
            said.insert().values(match_id=match_id, at=at, type=kind, body=dict(body))
        )

    # Games, deals and plays from the events -------------------------------------------

    def _corrected(self, match_id: int, where: Any) -> set[int]:
        """The plays that the ``correct`` events among those ``where`` selects name."""
        rows = self.conn.execute(
            sa.select(events.c.event).where(events.c.match_id == match_id, where)
        ).all()
        return {
            int(r.event["index"])
            for r in rows
            if r.event.get("type") == "correct" and isinstance(r.event.get("index"), int)
        }

    def _recorrect(self, match_id: int, plays_named: set[int]) -> None:
        """The card of each play in ``plays_named`` as its event and the corrections still
        in the match make it (a correction undone, or replaced, is undone here too)."""
        if not plays_named:
            return
        rows = self.conn.execute(
            sa.select(events.c.idx, events.c.event)
            .where(events.c.match_id == match_id)
            .order_by(events.c.idx)
        ).all()
        cards: dict[int, str] = {}
        for r in rows:
            ev = r.event
            if r.idx in plays_named and ev.get("type") == "play":
                cards[r.idx] = str(ev.get("card"))
            elif (
                ev.get("type") == "correct"
                and ev.get("index") in cards
                and cards[ev["index"]] == ev.get("old")
            ):
                cards[ev["index"]] = str(ev.get("new"))
        for idx, card in cards.items():
            self.conn.execute(
                plays.update()
                .where(plays.c.match_id == match_id, plays.c.idx == idx)
                .values(card=card)
            )

    def _derive(self, match_id: int, since: int) -> None:
        """Make the games, deals and plays from event ``since`` on again (from the start
        of the deal it falls in, which a deal's row needs whole)."""
        c = self.conn
        start_deal = c.execute(
            sa.select(deals.c.number, deals.c.first_event)
            .where(deals.c.match_id == match_id, deals.c.first_event <= since)
            .order_by(deals.c.number.desc())
            .limit(1)
        ).first()
        start = since if start_deal is None else int(start_deal.first_event)
        # a dealer the state named (not the deal's event) outlives the deal's remaking
        dealers = {
            r.first_event: r.dealer
            for r in c.execute(
                sa.select(deals.c.first_event, deals.c.dealer).where(
                    deals.c.match_id == match_id, deals.c.first_event >= start
                )
            )
        }
        c.execute(deals.delete().where(deals.c.match_id == match_id, deals.c.first_event >= start))
        c.execute(plays.delete().where(plays.c.match_id == match_id, plays.c.idx >= start))
        c.execute(
            games.delete().where(
                games.c.match_id == match_id, games.c.first_event >= start, games.c.number > 0
            )
        )
        game = c.execute(
            sa.select(sa.func.max(games.c.number)).where(games.c.match_id == match_id)
        ).scalar()
        game = int(game or 0)
        deal = c.execute(
            sa.select(sa.func.max(deals.c.number)).where(deals.c.match_id == match_id)
        ).scalar()
        deal_no: int | None = None if deal is None else int(deal)
        rows = c.execute(
            sa.select(events.c.idx, events.c.event, events.c.outcome)
            .where(events.c.match_id == match_id, events.c.idx >= start)
            .order_by(events.c.idx)
        ).all()
        current: dict[str, Any] | None = None

        def flush() -> None:
            if current is not None:
                c.execute(deals.insert().values(match_id=match_id, **current))

        for r in rows:
            ev, out = dict(r.event), dict(r.outcome)
            kind = ev.get("type")
            if kind == "new_game":
                game += 1
                c.execute(games.insert().values(match_id=match_id, number=game, first_event=r.idx))
            if kind == "deal":
                flush()
                deal_no = 0 if deal_no is None else deal_no + 1
                current = {
                    "number": deal_no,
                    "game": game,
                    "first_event": r.idx,
                    "dealer": dealers.get(r.idx) if ev.get("dealer") is None else ev["dealer"],
                    "result": None,
                    "pegged": None,
                }
            if kind == "play" and "card" in ev and "seat" in ev:
                c.execute(
                    plays.insert().values(
                        match_id=match_id,
                        idx=r.idx,
                        deal=-1 if deal_no is None else deal_no,
                        seat=int(ev["seat"]),
                        card=str(ev["card"]),
                    )
                )
            if kind == "correct":
                c.execute(
                    plays.update()
                    .where(
                        plays.c.match_id == match_id,
                        plays.c.idx == ev.get("index"),
                        plays.c.card == ev.get("old"),
                    )
                    .values(card=ev.get("new"))
                )
            if current is not None:
                if out.get("result") is not None:
                    current["result"] = out["result"]
                for p in out.get("pegged") or ():
                    # by side: the points counted in the deal, and the score after
                    sides = dict(current["pegged"] or {})
                    key = str(p.get("team", p.get("seat")))
                    was = sides.get(key, {"points": 0})
                    sides[key] = {"points": was["points"] + int(p["points"]), "score": p["score"]}
                    current["pegged"] = sides
        flush()


def _alembic_says_upgrade(record: logging.LogRecord) -> bool:
    return record.getMessage().startswith("Running upgrade")


def _quiet_alembic() -> None:
    """Alembic says at INFO which plugins it set up and which dialect it runs, a dozen
    lines at every start of the recorder in the journal; of its lines only an upgrade
    ("Running upgrade r0001 -> r0002") tells an installer something."""
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    migration = logging.getLogger("alembic.runtime.migration")
    if _alembic_says_upgrade not in migration.filters:
        migration.addFilter(_alembic_says_upgrade)
