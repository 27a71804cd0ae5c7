"""The referee service: observations and commands of one or many tables in, game
events and the retained table state out (``kiebitz referee``).

For each table (``kiebitz/v1/<table>/…``) the referee keeps one
:class:`rules.reading.TableReading`. An input that passes its schema (the
:class:`~controller.bus.dispatch.Dispatcher` checks it and drops redeliveries by
sender and sequence) and the reading's own checks is appended to the
:class:`~controller.referee.store.InputLog` *before* it is read, so nothing
accepted is lost; a redelivered message (same message id) is stored once and
read once. What the reading makes of it goes out on ``game/event``: the engine
events with what they pegged and proved, alerts raised and cleared, recounts,
refused commands; then the whole table on the retained ``game/state``. A
malformed payload is logged, answered with an ``error`` event, and changes
nothing. On start every table in the log is read again from its inputs and its
state published, so power lost mid-hand resumes where it stopped.

The referee is given its bus, its log and its clock (STYLE.md): tests run it on
:class:`~controller.bus.bus.MemoryBus` or on a real Mosquitto alike.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.bus.bus import Bus
from controller.bus.dispatch import Dispatcher, Publisher
from controller.bus.envelope import Envelope, PayloadError, Stamper
from controller.bus.topics import (
    COMMAND,
    EVENT,
    OBSERVATION,
    STATE,
    all_tables,
    parse_topic,
    status_topic,
    topic,
)
from controller.kept_file import KeptFileWatch
from controller.referee.store import DamagedLog, InputLog, StoreError
from rules.cards import parse_card
from rules.errors import InvalidOptionError, RulesError
from rules.events import event_to_json
from rules.reading import TableReading, TableSetup, Update, parse_input
from rules.reading.table import Contract

__all__ = ["Referee", "TableRun", "outcome_json", "setup_from_json", "update_events"]

log = logging.getLogger("kiebitz.referee")


def setup_from_json(data: Mapping[str, Any]) -> TableSetup:
    """A :class:`TableSetup` from its JSON form (:meth:`TableSetup.to_json`)."""
    contract = data.get("contract")
    return TableSetup(
        str(data["game"]),
        dict(data.get("options") or {}),
        dealer=data.get("dealer"),
        contract=None
        if not contract
        else Contract(
            int(contract["declarer"]),
            str(contract["contract"]),
            hand=bool(contract.get("hand")),
            ouvert=bool(contract.get("ouvert")),
            schneider=bool(contract.get("schneider")),
            schwarz=bool(contract.get("schwarz")),
            bid=contract.get("bid"),
            turned=None if not contract.get("turned") else parse_card(contract["turned"]),
        ),
    )


def outcome_json(outcome: Any, proven: Collection[str]) -> dict[str, Any]:
    data = outcome.to_json() if hasattr(outcome, "to_json") else {}
    out: dict[str, Any] = {
        "pegged": data.get("pegged", []),
        "verdicts": [v for v in data.get("verdicts", []) if v.get("kind") in proven],
        "notes": data.get("notes", []),
    }
    if data.get("result") is not None:
        out["result"] = data["result"]
    return out


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kiebitz")
    except PackageNotFoundError:  # pragma: no cover - a tree never installed
        return "?"


def update_events(reading: TableReading, up: Update) -> list[dict[str, Any]]:
    """The ``game/event`` bodies of one update, in the order they happened."""
    proven = reading.reader.PROVEN
    out: list[dict[str, Any]] = []
    if up.new_match:
        out.append({"type": "new_match", "setup": reading.setup.to_json()})
    if up.since is not None:
        out.append({"type": "recount", "since": up.since})
    for a in up.applied:
        body = {"type": "event", "index": a.index, "event": event_to_json(a.event)}
        body.update(outcome_json(a.outcome, proven))
        out.append(body)
    for alert_id in up.cleared:
        out.append({"type": "alert_cleared", "id": alert_id})
    for alert in up.raised:
        out.append({"type": "alert", "alert": alert.to_json()})
    for note in up.notes:
        out.append({"type": "note", "text": note})
    if up.error is not None:
        out.append({"type": "refused", "reason": up.error})
    return out


@dataclass
class _Order:
    """One sender's messages put back in the order it sent them (by ``seq``)."""

    next: int
    held: dict[int, Envelope]
    waiting_since: float | None = None


@dataclass
class TableRun:
    """One table the referee serves: its reading, its stamper, counts."""

    table: str
    reading: TableReading
    stamper: Stamper
    inputs: int = 0
    failures: int = 0
    #: Engine events written to the log's ``events`` table.
    stored: int = 0
    #: Inputs read but not yet in the log (it could not be written: a full disk),
    #: oldest first; stored by :meth:`Referee.tick` when there is room again.
    backlog: list[Envelope] = field(default_factory=list)
    #: The table's setup could not be written either (its inputs wait in the backlog).
    unsaved_setup: bool = False


class Referee:
    """Referees every table it hears (or those of ``tables``) over ``bus``."""

    def __init__(
        self,
        bus: Bus,
        store: InputLog,
        *,
        setup_for: Callable[[str], TableSetup],
        tables: Collection[str] | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        component: str = "referee",
        on_update: Callable[[str, Update], None] | None = None,
        reorder_s: float = 1.0,
        status: Mapping[str, Stamper] | None = None,
    ) -> None:
        self.bus = bus
        #: The stamper of each table's ``status/referee`` (give the one a last will was
        #: stamped with, so that the will's and the announcements' seqs never clash).
        self._status: dict[str, Stamper] = dict(status or {})
        self.store = store
        self.setup_for = setup_for
        self.only = None if tables is None else frozenset(tables)
        self.clock = clock
        self.component = component
        self.on_update = on_update
        self.runs: dict[str, TableRun] = {}
        #: Tables whose log cannot be read (a row mangled, a setup the rules refuse),
        #: with why: set aside, not served, their inputs refused and nothing of theirs
        #: written, while the other tables are served (:meth:`_set_aside`).
        self.set_aside: dict[str, str] = {}
        self.monotonic = monotonic
        #: How long a message waits for an earlier one of its sender that has not come.
        self.reorder_s = reorder_s
        self.errors = 0
        self._orders: dict[tuple[str, str], _Order] = {}
        self._strays: dict[str, Stamper] = {}
        self._lock = threading.RLock()
        self._dispatch = Dispatcher(bus, on_error=self._bad_payload)
        self._connects = 0  # the bus's connections seen by tick (a reconnect: say it again)
        self._started = time.time()  # the online status's "since"
        keep = getattr(store, "keep_file", None)  # a stand-in store may have none
        self._log_watch = (
            None if keep is None else KeptFileWatch(keep, store.path, "the referee's log", log)
        )

    # Life ------------------------------------------------------------------------------

    def start(self) -> Referee:
        """Read every table of the log again (and the tables it was given), publish
        each one's state and say it is online, then listen."""
        tables = [t for t in self.store.tables() if self.only is None or t in self.only]
        tables += sorted(t for t in self.only or () if t not in tables)
        first: DamagedLog | None = None
        for table in tables:
            with self._lock:
                try:
                    self._run(table)
                except DamagedLog as exc:
                    self._set_aside(table, exc, say=False)
                    first = first or exc
                    continue
                self._publish_state(self.runs[table])
                self._keep_seq(self.runs[table])
        if first is not None and self.only is not None and self.only <= set(self.set_aside):
            # every table it was given is set aside: nothing to serve (status 2 at the
            # command line, the one line naming the log, the table and the row)
            raise first
        for why in self.set_aside.values():
            log.error("%s", why)
        if self.only is not None and len(self.only) == 1:
            patterns = [topic(next(iter(self.only)), s) for s in (OBSERVATION, COMMAND)]
        else:
            patterns = [all_tables(OBSERVATION), all_tables(COMMAND)]
        # (nothing the referee reads is retained by design: one retained by mistake is
        # read once, not again from its kept session's queue and as retained)
        self._dispatch.route(patterns[0], "observation", self._receive, resume_retained=False)
        self._dispatch.route(patterns[1], "command", self._receive, resume_retained=False)
        return self

    def close(self) -> None:
        """Read what still waits for an earlier message (it was acknowledged to its
        sender, so it must not be lost), store what the log could not take, say offline
        for every table, then close the log. Close the referee before its bus."""
        with self._lock:
            for table in self.runs:
                self._announce(table, "offline")
            if self.runs and hasattr(self.bus, "will"):
                # said offline just now: the bus's goodbye (its will, stamped at the
                # start) would say it again over this one, with the start's time
                self.bus.will = None
            for (table, _), order in self._orders.items():
                for seq in sorted(order.held):
                    self._input(table, order.held.pop(seq))
                    order.next = seq + 1
            for run in self.runs.values():
                if run.backlog:
                    self._store_backlog(run)
                if run.backlog:
                    log.error(
                        "%s: %d input(s) could not be written to the log and are lost with "
                        "this process",
                        run.table,
                        len(run.backlog),
                    )
        self.store.close()

    def reading(self, table: str) -> TableReading:
        with self._lock:
            return self._run(table).reading

    def _run(self, table: str) -> TableRun:
        run = self.runs.get(table)
        if run is not None:
            return run
        stored = self.store.setup(table)
        unsaved = False
        if stored is None:
            setup = self.setup_for(table)
            try:
                self.store.set_setup(table, setup.to_json())
            except StoreError as exc:  # a full disk: the table is served from memory
                log.error("%s", exc)
                unsaved = True
        else:
            try:
                setup = setup_from_json(stored)
            except (KeyError, TypeError, ValueError, RulesError) as exc:
                raise self._damaged(table, exc) from None
        stamper = Stamper(
            f"{table}/{self.component}", clock=self.clock, start_seq=self.store.next_seq(table)
        )
        try:
            reading = TableReading(setup)
        except InvalidOptionError as exc:
            if setup.contract is None:
                if stored is None:
                    raise
                raise self._damaged(table, exc) from None
            # a log written before such contracts were refused when set (Law 41): the
            # table waits for a contract it can take, as without one
            log.error("%s: the stored contract is dropped: %s", table, exc)
            setup = dataclasses.replace(setup, contract=None)
            reading = TableReading(setup)
        run = TableRun(table, reading, stamper, unsaved_setup=unsaved)
        self._announce(table, "online")
        for n, _, body in self.store.inputs(table):
            try:
                run.reading.feed(parse_input(body))
            except RulesError as exc:  # pragma: no cover - a logged input always parsed once
                log.warning("%s: input %d no longer reads: %s", table, n, exc)
            except Exception:  # a defect must not stop the other inputs being read
                run.failures += 1
                log.exception("%s: input %d could not be read", table, n)
            run.inputs = n
        self.runs[table] = run
        log.info("%s: %d inputs read from %s", table, run.inputs, self.store.path)
        return run

    def _set_aside(self, table: str, exc: DamagedLog, *, say: bool = True) -> None:
        """A table whose log cannot be read is set aside: said once in the log (the
        file, the table, the row), its retained status offline with why, its inputs
        refused with an ``error`` event and never written, so that the row can be
        mended or the log moved aside with nothing of the table's game lost. Before,
        one damaged table stopped the referee of every table in the club."""
        self.runs.pop(table, None)
        if table in self.set_aside:
            return
        self.set_aside[table] = f"{exc}; table {table} is set aside, the other tables are served"
        if say:
            log.error("%s", self.set_aside[table])
        try:  # its error events go on past the seqs it used (receivers drop seqs seen)
            start = self.store.next_seq(table)
        except StoreError:
            start = 1 << 32
        self._strays[table] = Stamper(
            f"{table}/{self.component}", clock=self.clock, start_seq=start
        )
        self._announce_aside(table)

    def _announce_aside(self, table: str) -> None:
        why = self.set_aside[table].removeprefix(f"{self.store.path}: ")
        self._announce(table, "offline", detail=f"set aside: {why}"[:200])

    def _damaged(self, table: str, exc: Exception) -> DamagedLog:
        """A stored setup the rules cannot take (a log mended by hand, an unknown game):
        one line naming the log, the table and why, not a traceback."""
        why = " ".join(str(exc).split())[:200]
        return DamagedLog(self.store.path, f"table {table}: its setup cannot be read: {why}")

    # Inputs ------------------------------------------------------------------------------

    def _receive(self, topic_name: str, env: Envelope) -> None:
        table, _ = parse_topic(topic_name)
        if self.only is not None and table not in self.only:
            return
        if env.sender.split("/", 1)[0] != table:
            why = f"sender {env.sender} is not of table {table}"
            self._bad_payload(topic_name, why, env.sender)
            return
        if env.sender.split("/", 1)[1].split("-", 1)[0] == self.component:
            # a referee's own name: its events read as inputs (a bridge or a client
            # misconfigured) would be stored as the table's game; said, never stored
            why = f"sender {env.sender} is a referee: it sends no inputs"
            self._bad_payload(topic_name, why, env.sender)
            return
        with self._lock:
            if table in self.set_aside:
                self._refuse_aside(table, env)
                return
            try:
                for ready in self._in_order(table, env):
                    self._input(table, ready)
            except DamagedLog as exc:  # a row read only now (a sender's last seq)
                self._set_aside(table, exc)
                self._refuse_aside(table, env)

    def _refuse_aside(self, table: str, env: Envelope) -> None:
        where = topic(table, COMMAND if env.kind == "command" else OBSERVATION)
        self._bad_payload(
            where,
            f"its input not stored: {self.set_aside[table]}",
            env.sender,
        )

    def _in_order(self, table: str, env: Envelope) -> list[Envelope]:
        """QoS 1 may deliver a sender's messages out of order (a reconnect, a queue sent
        on connect): hold each until those before it (by ``seq``) have come, for at
        most :attr:`reorder_s` (:meth:`tick`). A seq below the next expected is a
        sender that started again, or one given up on: read at once. A sender's
        inputs (observations, commands) must be a stream of their own, without gaps:
        the table service sends its status from another sender."""
        key = (table, env.sender)
        order = self._orders.get(key)
        if order is None:
            # Where the log has this sender, it goes on from there; a sender never heard
            # of starts where its first message says.
            last = self.store.last_seq(table, env.sender)
            start = (1 if env.seq <= 16 else env.seq) if last is None else last + 1
            order = self._orders[key] = _Order(start, {})
        if env.seq < order.next:
            return [env]
        order.held.setdefault(env.seq, env)
        ready = []
        while order.next in order.held:
            ready.append(order.held.pop(order.next))
            order.next += 1
        order.waiting_since = None if not order.held else (order.waiting_since or self.monotonic())
        return ready

    def tick(self) -> None:
        """Give up waiting for messages that have not come in :attr:`reorder_s`: read
        what was held behind them, in order; store what the log could not take before.
        Called by :meth:`run_ticks`' thread. After the bus connected again, each
        table's retained status and state are published again: a broker that kept no
        retained messages over its restart (no persistence, as `kiebitz run`'s own)
        had forgotten them, so `kiebitz status` said the referee never started and a
        table that had ended its game had no state until its next input."""
        connects = self.bus.health().connects
        with self._lock:
            self._keep_log_file()
            if connects > self._connects > 0:
                log.info("connected again: the tables' status and state said again")
                for table, run in self.runs.items():
                    self._announce(table, "online")
                    self._publish_state(run)
                    self._keep_seq(run)
                for table in self.set_aside:
                    self._announce_aside(table)
            self._connects = connects
            for run in self.runs.values():
                if run.backlog:
                    self._store_backlog(run)
            now = self.monotonic()
            for (table, _), order in self._orders.items():
                if not order.held or order.waiting_since is None:
                    continue
                if now - order.waiting_since < self.reorder_s and len(order.held) < 4096:
                    continue
                log.warning("%s: messages %d.. of a sender never came", table, order.next)
                for seq in sorted(order.held):
                    self._input(table, order.held.pop(seq))
                    order.next = seq + 1
                order.waiting_since = None

    def _keep_log_file(self) -> None:
        """The log's file removed while in use (a folder cleaned by hand) is made again
        from the open database (:meth:`InputLog.keep_file`), and said; before, the
        referee wrote on into the removed file without a word and the log was gone."""
        if self._log_watch is not None:
            self._log_watch.look()

    def run_ticks(self, stop: threading.Event, every: float = 0.25) -> threading.Thread:
        """A thread calling :meth:`tick` until ``stop`` is set."""

        def loop() -> None:
            while not stop.wait(every):
                try:
                    self.tick()
                except Exception:  # a defect must not stop the ticks (and the backlog)
                    log.exception("the referee's tick failed")

        thread = threading.Thread(target=loop, name="referee-ticks", daemon=True)
        thread.start()
        return thread

    def _input(self, table: str, env: Envelope) -> None:
        where = topic(table, COMMAND if env.kind == "command" else OBSERVATION)
        try:
            item = parse_input(dict(env.body))
        except RulesError as exc:
            self._bad_payload(where, str(exc), env.sender)
            return
        run = self._run(table)
        if run.backlog or run.unsaved_setup:  # the log is behind: this one waits, in order
            if any(b.id == env.id for b in run.backlog) or self.store.has(table, env.id):
                return  # the same message again
            run.backlog.append(env)
            n: int | None = run.inputs + 1
        else:
            try:
                n = self._append(run, env)
            except StoreError as exc:
                # A full disk: the game goes on from memory and the input is stored when
                # there is room (tick); only a referee that stops before then loses it.
                log.error("%s", exc)
                self._bad_payload(
                    where,
                    f"not stored yet, kept in memory until the log has room: {exc}",
                    env.sender,
                )
                run.backlog.append(env)
                n = run.inputs + 1
            if n is None:
                return  # the same message again: stored and read once
        run.inputs = n
        try:
            up = run.reading.feed(item)
        except Exception as exc:  # a defect: the input is kept, the service goes on
            run.failures += 1
            log.exception("%s: input %d could not be read", table, n)
            self._bad_payload(where, f"could not be read: {exc}", env.sender)
            return
        bodies = update_events(run.reading, up)
        for body in bodies:
            self._send(run, EVENT, "event", body)
        unread = item.unread()
        if unread is not None:
            # kept and read, changing nothing: said as `referee --replay` says it (the
            # live referee dropped it without a word: a wrong layout lost every card)
            self._bad_payload(where, f"ignored: {unread}", env.sender, ignored=True)
        if up.applied or up.since is not None or up.new_match:
            self._store_events(run, up if not up.new_match else Update(since=0))
        if up.anything:  # a card seen again, a trick's card swept: the state stands
            self._publish_state(run)
        self._keep_seq(run)
        if self.on_update is not None:
            self.on_update(table, up)

    def _announce(self, table: str, state: str, detail: str | None = None) -> None:
        """The retained ``status/referee`` of ``table``: online or offline."""
        stamper = self._status.setdefault(
            table, Stamper(f"{table}/{self.component}-status", clock=self.clock)
        )
        body: dict[str, Any] = {
            "state": state,
            "component": self.component,
            "detail": detail or f"kiebitz {_version()}",
        }
        if state == "online":  # since the referee started, said again after a reconnect
            body["since"] = self._started
        try:
            Publisher(self.bus, stamper).send(
                status_topic(table, self.component), "status", body, retain=True
            )
        except (PayloadError, ValueError) as exc:
            log.error("%s: status not sent: %s", table, exc)

    def _append(self, run: TableRun, env: Envelope) -> int | None:
        """Store one input in the log (:meth:`InputLog.append`); StoreError if it cannot."""
        return self.store.append(
            run.table,
            env.id,
            env.sender,
            env.seq,
            env.kind,
            dict(env.body),
            next_seq=run.stamper.next_seq,
        )

    def _store_backlog(self, run: TableRun) -> None:
        """Write the inputs the log could not take, oldest first, until it fails again."""
        if run.unsaved_setup:
            try:
                self.store.set_setup(run.table, run.reading.setup.to_json())
            except StoreError:
                return
            run.unsaved_setup = False
        while run.backlog:
            try:
                self._append(run, run.backlog[0])
            except StoreError:
                return
            run.backlog.pop(0)
        log.info("%s: the inputs kept in memory are in the log", run.table)
        self._store_events(run, Update(since=0))
        self._keep_seq(run)

    def _store_events(self, run: TableRun, up: Update) -> None:
        since = run.stored if up.since is None else min(up.since, run.stored)
        events = run.reading.game.events
        try:
            self.store.write_events(run.table, since, [event_to_json(e) for e in events[since:]])
        except StoreError as exc:
            log.error("%s", exc)
            return
        run.stored = len(events)

    def _send(self, run: TableRun, suffix: str, kind: str, body: Mapping[str, Any]) -> None:
        try:
            Publisher(self.bus, run.stamper).send(
                topic(run.table, suffix), kind, body, retain=suffix == STATE
            )
        except PayloadError as exc:  # a defect: say so, never crash the listener
            log.error("%s: %s body not sent: %s", run.table, kind, exc)

    def inputs(self, table: str) -> int:
        """How many inputs of ``table`` the referee has stored and read."""
        with self._lock:
            run = self.runs.get(table)
            return 0 if run is None else run.inputs

    def state(self, table: str) -> dict[str, Any]:
        """The retained ``game/state`` body of ``table``."""
        with self._lock:
            run = self._run(table)
            body = run.reading.summary()
            body.update(table=table, inputs=run.inputs)
            return body

    def _keep_seq(self, run: TableRun) -> None:
        """The log keeps the next seq this table's messages will carry, so a referee
        started again goes on past every seq it used (receivers drop seqs seen)."""
        try:
            self.store.set_next_seq(run.table, run.stamper.next_seq)
        except StoreError as exc:
            log.error("%s", exc)

    def publish_state(self, table: str) -> None:
        """Publish ``table``'s state now (the end of a run: its last word, whatever
        the inputs before it changed)."""
        with self._lock:
            run = self._run(table)
            self._publish_state(run)
            self._keep_seq(run)

    def _publish_state(self, run: TableRun) -> None:
        body = run.reading.summary()
        body.update(table=run.table, inputs=run.inputs)
        self._send(run, STATE, "state", body)

    def _bad_payload(
        self, topic_name: str, reason: str, sender: str | None, *, ignored: bool = False
    ) -> None:
        self.errors += 1
        what = "an observation read and ignored" if ignored else "rejected a message"
        log.warning("%s on %s from %s: %s", what, topic_name, sender or "?", reason)
        try:
            table, _ = parse_topic(topic_name)
        except ValueError:
            return
        if self.only is not None and table not in self.only:
            return
        body = {"type": "error", "reason": reason[:500], "topic": topic_name, "sender": sender}
        if table in self.runs:
            stamper = self.runs[table].stamper
        else:  # a table this referee does not serve yet: no log entry for a bad payload
            stamper = self._strays.setdefault(
                table, Stamper(f"{table}/{self.component}", clock=self.clock)
            )
        try:
            Publisher(self.bus, stamper).send(topic(table, EVENT), "event", body)
        except PayloadError:
            log.error("error event for %s not sent", topic_name)
