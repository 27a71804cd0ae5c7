"""What the web view shows of each table, kept from the bus and handed to the pages.

:class:`TableHub` follows every table's retained ``game/state``, its ``game/event``
and its ``status/…`` topics (it publishes nothing itself). For each table it keeps
a :class:`TableView`: the last state, the last events in words (the run's
:class:`~controller.run.narrate.Narrator`), the open alerts, who is online, and the
peg board as its LEDs show it (:func:`~controller.table.board_view.board_state`, the
same function the table service drives the board with). Each change makes the
table's view JSON once; every page following that table (or the club page) gets
it through its own queue (:meth:`TableHub.follow`), from the bus's thread into the
web server's event loop.

>>> hub = TableHub()
>>> hub.take_state("t1", {"game": "cribbage", "setup": {"game": "cribbage", "options": {}},
...     "phase": "play", "scores": [5, 2], "pegs": [{"front": 5, "back": 0},
...     {"front": 2, "back": 0}], "games_won": [0, 0], "count": 12, "plays": []})
>>> v = hub.view("t1")
>>> v["board"]["pegs"], v["board"]["game_hole"], v["scores"]
([[5, 0], [2, 0]], 121, [5, 2])
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.run.narrate import Narrator
from controller.table.board_view import DISPUTE_KINDS, board_state

__all__ = ["TableHub", "TableView"]

log = logging.getLogger("kiebitz.web")

#: Lines of the last events kept for a table's page.
LAST_LINES = 30
#: Alert kinds a page highlights (besides verdicts such as a revoke).
ALERT_KINDS = DISPUTE_KINDS


def _game_hole(setup: Mapping[str, Any]) -> int | None:
    """The last hole of the game's track (cribbage 121 or 61, All Fours' game)."""
    from rules.errors import RulesError
    from rules.reading.games import engine_for

    try:
        rules = engine_for(str(setup.get("game")), setup.get("options") or {}).rules
    except (RulesError, TypeError, ValueError):
        return None
    hole = getattr(rules, "game_to", None)
    return int(hole) if isinstance(hole, int) else None


def _offer(queue: asyncio.Queue[bytes], payload: bytes) -> None:
    """Put a view on a page's queue; a page that has fallen that far behind loses its
    oldest view (each view is the whole table: the newest is what matters)."""
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(payload)


_LISTS = ("scores", "games_won", "pegs")
_RECORDS = ("plays", "alerts", "verdicts")
_INTS = ("players", "turn", "dealer", "count", "events", "deal_start", "inputs")
_TEXTS = ("game", "phase", "score_by")


def _clean(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state with each field the pages use of the type they expect, or missing."""
    out = dict(state)
    for key in _LISTS:
        if not isinstance(out.get(key), list):
            out.pop(key, None)
    for key in _RECORDS:
        value = out.get(key)
        out[key] = [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []
    out["plays"] = [
        p for p in out["plays"] if isinstance(p.get("card"), str) and isinstance(p.get("seat"), int)
    ]
    for key in _INTS:
        if key in out and (isinstance(out[key], bool) or not isinstance(out[key], int)):
            out[key] = None
    for key in _TEXTS:
        if key in out and not isinstance(out[key], str):
            out[key] = None
    for key in ("engine", "setup"):
        if not isinstance(out.get(key), dict):
            out[key] = {}
    if not isinstance(out["engine"].get("pad"), list):
        out["engine"] = {k: v for k, v in out["engine"].items() if k != "pad"}
    return out


@dataclass
class TableView:
    """One table as the pages show it."""

    table: str
    state: dict[str, Any] = field(default_factory=dict)
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=LAST_LINES))
    status: dict[str, str] = field(default_factory=dict)
    narrator: Narrator | None = None
    game_hole: int | None = None
    setup_key: str = ""
    board: Any = None
    #: bumped at every change; pages ask for newer
    version: int = 0
    #: time.time() of the last change, and of the state it came with (the referee's ts)
    changed_at: float = 0.0
    state_ts: float | None = None
    cached: bytes | None = None


class TableHub:
    """Every table's view, kept from the bus (see the module's documentation)."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.tables: dict[str, TableView] = {}
        self._lock = threading.Lock()
        # (loop, queue, table or None for every table) of each page following
        self._followers: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[bytes], str | None]]
        self._followers = []

    # From the bus --------------------------------------------------------------------

    def attach(self, bus: Any) -> None:
        """Follow every table on ``bus`` (a :class:`~controller.bus.bus.Bus`); call
        before the bus starts."""
        from controller.bus.dispatch import Dispatcher
        from controller.bus.topics import EVENT, STATE, all_tables, parse_topic

        d = Dispatcher(bus)

        def of_table(topic: str, env: Any) -> str | None:
            """The topic's table, if the sender is of it (as the recorder and the table
            service take it): before, a state from ``t2/referee`` on t1's topic was
            shown to t1's spectators, while the recorder refused it."""
            table = parse_topic(topic)[0]
            if env.sender.partition("/")[0] == table:
                return table
            log.warning(
                "rejected a message on %s from %s: sender %s is not of table %s",
                topic,
                env.sender,
                env.sender,
                table,
            )
            return None

        def state(topic: str, env: Any) -> None:
            if (table := of_table(topic, env)) is not None:
                self.take_state(table, dict(env.body), ts=env.ts)

        def event(topic: str, env: Any) -> None:
            if (table := of_table(topic, env)) is not None:
                self.take_event(table, dict(env.body))

        def status(topic: str, env: Any) -> None:
            if (table := of_table(topic, env)) is not None:
                component = parse_topic(topic)[1].rpartition("/")[2]
                self.take_status(table, component, str(env.body.get("state")))

        d.route(all_tables(STATE), "state", state)
        d.route(all_tables(EVENT), "event", event)
        d.route(all_tables("status/+"), "status", status)

    def _view(self, table: str) -> TableView:
        view = self.tables.get(table)
        if view is None:
            view = self.tables[table] = TableView(table)
        return view

    def take_state(self, table: str, state: dict[str, Any], *, ts: float | None = None) -> None:
        """Keep a table's new state (its fields of the wrong type taken as missing: a
        retained state that is malformed must not break every page)."""
        state = _clean(state)
        with self._lock:
            v = self._view(table)
            setup = state.get("setup") if isinstance(state.get("setup"), dict) else {}
            key = json.dumps(setup, sort_keys=True)
            if key != v.setup_key or v.narrator is None:
                v.setup_key = key
                v.game_hole = _game_hole(setup)
                v.narrator = Narrator(str(state.get("game")))
            v.state = state
            try:
                sides = max(len(state.get("scores") or ()), 1)
                v.board = board_state(
                    state, tracks=min(sides, 8), game_hole=v.game_hole, previous=v.board
                )
            except (TypeError, ValueError):
                v.board = None
            v.state_ts = ts
            self._changed(v)

    def take_event(self, table: str, body: dict[str, Any]) -> None:
        with self._lock:
            v = self._view(table)
            if v.narrator is None:
                v.narrator = Narrator(str((v.state or {}).get("game", "")))
            try:
                said = v.narrator.take(body)
            except ValueError as exc:
                # an event not as the referee sends it: said, not shown (it was a
                # traceback and "rejected … handler failed: AttributeError")
                log.warning("%s: an event not shown: %s", table, exc)
                said = []
            v.lines.extend(line.strip() for line in said if line.strip())
            if said:
                self._changed(v)

    def take_status(self, table: str, component: str, state: str) -> None:
        with self._lock:
            v = self._view(table)
            v.status[component] = state
            self._changed(v)

    def _changed(self, v: TableView) -> None:
        v.version += 1
        v.changed_at = self.clock()
        v.cached = None
        payload = self._payload(v)
        for loop, queue, which in list(self._followers):
            if which is None or which == v.table:
                try:
                    loop.call_soon_threadsafe(_offer, queue, payload)
                except RuntimeError:  # the page's loop is gone
                    self._followers = [f for f in self._followers if f[1] is not queue]

    # To the pages ----------------------------------------------------------------------

    def view(self, table: str) -> dict[str, Any] | None:
        with self._lock:
            v = self.tables.get(table)
            return None if v is None else self._json(v)

    def payload(self, table: str) -> bytes | None:
        with self._lock:
            v = self.tables.get(table)
            return None if v is None else self._payload(v)

    def club(self) -> list[dict[str, Any]]:
        """Every table in a line: its game, phase, scores, who is online, its alerts."""
        with self._lock:
            out = []
            for name in sorted(self.tables):
                s = self.tables[name].state
                out.append(
                    {
                        "table": name,
                        "game": s.get("game"),
                        "phase": s.get("phase"),
                        "scores": s.get("scores"),
                        "score_by": s.get("score_by"),
                        "alerts": len(s.get("alerts") or ()),
                        "status": dict(self.tables[name].status),
                    }
                )
            return out

    def follow(self, table: str | None) -> asyncio.Queue[bytes]:
        """A queue of view payloads of ``table`` (every table: ``None``) for the calling
        event loop; :meth:`unfollow` it when the page goes."""
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=256)
        with self._lock:
            self._followers.append((asyncio.get_running_loop(), queue, table))
        return queue

    def close(self) -> None:
        """End every page's stream (the server is stopping): each queue gets ``b""``."""
        with self._lock:
            followers, self._followers = self._followers, []
        for loop, queue, _ in followers:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_offer, queue, b"")

    def unfollow(self, queue: asyncio.Queue[bytes]) -> None:
        with self._lock:
            self._followers = [f for f in self._followers if f[1] is not queue]

    @property
    def followers(self) -> int:
        return len(self._followers)

    def _payload(self, v: TableView) -> bytes:
        if v.cached is None:
            v.cached = json.dumps(self._json(v), separators=(",", ":")).encode()
        return v.cached

    def _json(self, v: TableView) -> dict[str, Any]:
        s = v.state
        b = v.board
        board = None
        if b is not None:
            board = {
                "show_pegs": b.show_pegs,
                "pegs": [list(p) for p in b.pegs],
                "games_won": list(b.games_won),
                "game_hole": v.game_hole,
                "dealer": b.dealer,
                "turn": b.turn,
                "alert": b.alert,
                "alert_tracks": list(b.alert_tracks),
                "displays": list(b.scores),
            }
        alerts = [a for a in s.get("alerts") or () if isinstance(a, dict)]
        return {
            "table": v.table,
            "version": v.version,
            "changed_at": v.changed_at,
            "state_ts": v.state_ts,
            "game": s.get("game"),
            "setup": s.get("setup"),
            "players": s.get("players"),
            "phase": s.get("phase"),
            "turn": s.get("turn"),
            "dealer": s.get("dealer"),
            "count": s.get("count"),
            "scores": s.get("scores"),
            "score_by": s.get("score_by"),
            "games_won": s.get("games_won"),
            "plays": s.get("plays") or [],
            "events": s.get("events"),
            "deal_start": s.get("deal_start"),
            "alerts": alerts,
            "disputes": [a for a in alerts if a.get("kind") in ALERT_KINDS],
            "verdicts": s.get("verdicts") or [],
            "pad": (s.get("engine") or {}).get("pad"),
            "last": list(v.lines)[-12:],
            "status": dict(v.status),
            "board": board,
        }
