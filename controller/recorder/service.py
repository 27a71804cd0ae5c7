"""The recorder service: the referee's game events and states into the records.

It follows ``kiebitz/v1/+/game/event`` and the retained ``game/state`` of every
table (or of ``tables``) and keeps, per table, the match under way:

* a match begins with the first state the recorder sees of a table (its ``setup``)
  or with a ``new_match`` event; the engine events the setup itself makes (the
  first dealer), which the referee applies but never sends, are made here from the
  setup (:func:`~controller.recorder.replay.initial_events`);
* each ``event`` is stored at its index, ``recount`` drops the events from its
  ``since`` (those that follow replace them), and the games, deals and plays are
  made from the events as they come (:class:`~controller.recorder.store.Writer`);
* alerts, notes, refused commands and errors are kept as what was said;
* each state is kept as the match's last (``kiebitz records`` shows its scores;
  :func:`~controller.recorder.replay.check` compares a replay with it).

Each message is stored in one transaction with its id, so a message delivered
twice (QoS 1; a session resumed after a restart) is stored once. Events of a
table whose setup is not known yet wait (in order) for its first state. A
database that cannot be written (a full disk, PostgreSQL restarting) keeps the
messages in memory, in order, and :meth:`Recorder.tick` writes them when it can:
the recorder never drops what the broker gave it.

Given its bus, store and clock (STYLE.md): tests run it on a MemoryBus or a real
Mosquitto, on SQLite or a real PostgreSQL.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from controller.bus.bus import Bus
from controller.bus.dispatch import Dispatcher
from controller.bus.envelope import Envelope
from controller.bus.topics import EVENT, STATE, all_tables, parse_topic, topic
from controller.kept_file import KeptFileWatch
from controller.recorder.replay import initial_events
from controller.recorder.store import RecordsError, RecordStore, Writer
from rules.errors import RulesError
from rules.events import event_from_json

__all__ = ["Recorder"]

log = logging.getLogger("kiebitz.recorder")

#: Messages of a table without a known setup kept waiting for its first state.
MAX_WAITING = 10_000
#: Messages kept in memory while the database is away (a day of a busy club's tables).
MAX_BACKLOG = 200_000
#: What was said besides the events, kept with the match.
SAID = frozenset({"alert", "alert_cleared", "note", "refused", "error"})


@dataclass
class _Table:
    match: int | None = None
    setup: dict[str, Any] | None = None
    #: messages that came before the table's setup was known, oldest first
    waiting: list[tuple[str, Envelope]] = field(default_factory=list)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} {value!r} is not a whole number")
    return value


def _setup(value: Any, where: str) -> dict[str, Any]:
    """The setup of a ``state`` or ``new_match`` body (``where``), checked."""
    if value is None:  # (it said only what a setup is, not that there was none)
        raise ValueError(f"{where}: no setup (an object with its game)")
    if not isinstance(value, dict) or not isinstance(value.get("game"), str):
        raise ValueError(f"{where}: setup is no object with its game")
    return dict(value)


def _engine_event(value: Any, game: str) -> dict[str, Any]:
    """An engine event's JSON as the match's game reads it (its type and fields checked
    by the game's own decoder, :func:`rules.events.event_from_json`)."""
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ValueError("an event is an object with its type")
    from rules.game import find_game

    types = find_game(game).game_type.event_types  # type: ignore[attr-defined]
    event_from_json(dict(value), types)  # a RulesError (a ValueError) names what is wrong
    return dict(value)


class Recorder:
    """Records every table it hears (or those of ``tables``) from ``bus`` into ``store``."""

    def __init__(
        self,
        bus: Bus,
        store: RecordStore,
        *,
        tables: Collection[str] | None = None,
        on_record: Callable[[str, int], None] | None = None,
    ) -> None:
        self.bus = bus
        self.store = store
        keep = getattr(store, "keep_file", None)
        self._file_watch = (
            None if keep is None else KeptFileWatch(keep, store.shown, "the records", log)
        )
        self.only = None if tables is None else frozenset(tables)
        #: called with (table, match id) after each message stored
        self.on_record = on_record
        self.tables: dict[str, _Table] = {}
        #: messages the store could not take yet (oldest first), written by tick()
        self.backlog: deque[tuple[str, Envelope]] = deque()
        self.stored = 0
        self.errors = 0
        self._lock = threading.RLock()
        self._dispatch = Dispatcher(bus, on_error=self._bad)

    def start(self) -> Recorder:
        """Take up the matches under way from the store, then listen (call before the
        bus starts, so a resumed session's queue comes to the handlers)."""
        for table, row in self.store.open_matches().items():
            self.tables[table] = _Table(match=row.id, setup=row.setup)
        if self.only is not None and len(self.only) == 1:
            one = next(iter(self.only))
            patterns = (topic(one, EVENT), topic(one, STATE))
        else:
            patterns = (all_tables(EVENT), all_tables(STATE))
        self._dispatch.route(patterns[0], "event", self._receive)
        self._dispatch.route(patterns[1], "state", self._receive)
        return self

    def match_of(self, table: str) -> int | None:
        """The id of the match under way at ``table`` (None before its first state)."""
        with self._lock:
            t = self.tables.get(table)
            return None if t is None else t.match

    def close(self) -> None:
        with self._lock:
            self.tick()
            if self.backlog:
                log.error(
                    "%d message(s) could not be written to the records and are lost with "
                    "this process",
                    len(self.backlog),
                )
        self.store.close()

    # Receiving ---------------------------------------------------------------------------

    def _bad(self, topic_name: str, reason: str, sender: str | None) -> None:
        self.errors += 1
        log.warning("rejected a message on %s from %s: %s", topic_name, sender or "?", reason)

    def _receive(self, topic_name: str, env: Envelope) -> None:
        table, _ = parse_topic(topic_name)
        if self.only is not None and table not in self.only:
            return
        if env.sender.split("/", 1)[0] != table:
            log.warning("%s: a message from %s is not of this table", topic_name, env.sender)
            return
        with self._lock:
            if self.backlog:  # keep the order: after what waits
                self._hold(table, env)
                return
            self._take(table, env)

    def _hold(self, table: str, env: Envelope) -> None:
        """Keep a message for later, behind those waiting; past ``MAX_BACKLOG`` the
        oldest is lost (and said)."""
        if len(self.backlog) >= MAX_BACKLOG:
            dropped, _ = self.backlog.popleft()
            log.error("%s: the backlog is full: a message is lost", dropped)
        self.backlog.append((table, env))

    def tick(self) -> None:
        """Write what the store could not take before, in order; once all of it is
        written, say so (the error said when it began to wait was the last word)."""
        with self._lock:
            self._keep_file()
            waited = len(self.backlog)
            while self.backlog:
                table, env = self.backlog[0]
                if not self._take(table, env, retry=True):
                    return
                self.backlog.popleft()
            if waited:
                log.info("the %d message(s) kept in memory are in the records", waited)

    def _keep_file(self) -> None:
        """The records' SQLite file removed while in use (a folder cleaned by hand) is
        made again from the open copy (:meth:`RecordStore.keep_file`), and said."""
        if self._file_watch is not None:
            self._file_watch.look()

    def run_ticks(self, stop: threading.Event, every: float = 1.0) -> threading.Thread:
        def loop() -> None:
            while not stop.wait(every):
                try:
                    self.tick()
                except Exception:  # a defect must not stop the ticks
                    log.exception("recorder tick failed")

        thread = threading.Thread(target=loop, name="recorder-ticks", daemon=True)
        thread.start()
        return thread

    def _take(self, table: str, env: Envelope, *, retry: bool = False) -> bool:
        """Store one message; False (and the message kept in the backlog) when the store
        cannot be written."""
        try:
            self._store(table, env)
        except RecordsError as exc:  # the database away or full: try again later
            if not retry:
                if not self.backlog:
                    log.error("%s: %s; kept in memory until it can be written", table, exc)
                self._hold(table, env)
            return False
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            # a body the recorder cannot make sense of: said, skipped, the rest goes on
            self.errors += 1
            log.warning("%s: %s seq %d not recorded: %s", table, env.sender, env.seq, exc)
        return True

    def _store(self, table: str, env: Envelope) -> None:
        t = self.tables.setdefault(table, _Table())
        body = dict(env.body)
        if env.kind == "state":
            self._state(table, t, env, body)
            return
        kind = body.get("type")
        if kind == "new_match":
            setup = _setup(body.get("setup"), "new_match")
            initial = initial_events(setup)
            begun = None
            with self.store.write(env.id, table, at=env.ts) as tx:
                if tx is not None:
                    begun = tx.begin_match(table, setup, initial, at=env.ts)
            if begun is not None:  # committed: only now is it the match under way
                t.match, t.setup = begun, setup
                log.info("%s: match %d begun (%s)", table, begun, setup.get("game"))
            self._recorded(table, t)
            return
        if t.match is None:
            if len(t.waiting) >= MAX_WAITING:
                raise ValueError(f"no setup known after {MAX_WAITING} messages: dropped")
            t.waiting.append((table, env))
            return
        with self.store.write(env.id, table, at=env.ts) as tx:
            if tx is not None:
                self._event(tx, t, kind, body, env.ts)
        self._recorded(table, t)

    def _event(self, tx: Writer, t: _Table, kind: Any, body: dict[str, Any], at: float) -> None:
        match = t.match
        assert match is not None and t.setup is not None
        if kind == "event":
            outcome = {k: body[k] for k in ("pegged", "verdicts", "notes", "result") if k in body}
            event = _engine_event(body.get("event"), str(t.setup.get("game")))
            for key in ("pegged", "verdicts", "notes"):
                if not isinstance(outcome.get(key, []), list):
                    raise ValueError(f"event: {key} is not a list")
            tx.put_events(match, [(_whole(body.get("index"), "index"), event, outcome)], at=at)
        elif kind == "recount":
            since = _whole(body.get("since"), "since")
            tx.recount(match, since, at=at)
            tx.put_said(match, "recount", {"since": since}, at=at)
        elif kind in SAID:
            tx.put_said(match, str(kind), {k: v for k, v in body.items() if k != "type"}, at=at)

    def _state(self, table: str, t: _Table, env: Envelope, body: dict[str, Any]) -> None:
        begun = setup = None
        with self.store.write(env.id, table, at=env.ts) as tx:
            if tx is None:
                return
            match = t.match
            if match is None or self._afresh(t, body):
                # the first state of a table, or a referee serving another match there
                # than the one under way: a match begins
                setup = _setup(body.get("setup"), "state")
                match = begun = tx.begin_match(table, setup, initial_events(setup), at=env.ts)
            tx.put_state(match, body, at=env.ts)
        if begun is not None and setup is not None:  # committed: only now is it under way
            t.match, t.setup = begun, setup
            log.info("%s: match %d begun (%s)", table, begun, setup.get("game"))
        # what came before the table's first state, in order, each on its own (a bad
        # one skipped, the database away: the rest waits in the backlog behind it)
        waiting, t.waiting = t.waiting, []
        for _, early in waiting:
            if self.backlog:
                self._hold(table, early)
            else:
                self._take(table, early)
        self._recorded(table, t)

    def _afresh(self, t: _Table, state: dict[str, Any]) -> bool:
        """Is this state of another match than the one under way? Its setup differs, or
        its referee has read no input while the match under way has events past its
        setup's own: a referee started with a new log (another ``kiebitz run``)."""
        if isinstance(state.get("setup"), dict) and state["setup"] != t.setup:
            return True
        if state.get("inputs") != 0 or t.match is None or t.setup is None:
            return False
        row = self.store.match_row(t.match)
        return row.events > len(initial_events(t.setup))

    def end(self, table: str, *, at: float) -> None:
        """End the match under way at ``table`` (its referee's log is gone: a run over)."""
        with self._lock:
            t = self.tables.get(table)
            if t is None or t.match is None:
                return
            with self.store.write(f"end:{t.match}", table, at=at) as tx:
                if tx is not None:
                    tx.end_match(t.match, at=at)
            t.match, t.setup = None, None

    def _recorded(self, table: str, t: _Table) -> None:
        self.stored += 1
        if self.on_record is not None and t.match is not None:
            self.on_record(table, t.match)
