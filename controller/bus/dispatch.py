"""From topic to handler: decode, validate, drop duplicates, never let an exception out.

:class:`Dispatcher` subscribes a handler to a topic pattern for one kind of
envelope. Every payload is decoded and checked against that kind's schema; a bad
one is logged (logger ``kiebitz.bus``) with its reason and passed to
``on_error(topic, reason, sender)`` — the services publish it as an ``error``
event. Redelivered messages (MQTT QoS 1 is *at least once*) are dropped by
(sender, seq): per route and sender the highest seq seen is kept with a window of
the most recent seqs, so a reordered message is still accepted, once.

A seq more than ``window`` below the highest seen is taken as the sender having
started again from 1 (a restarted service), not as a duplicate: its history is
forgotten and the message accepted.

>>> from controller.bus.bus import MemoryBus
>>> from controller.bus.envelope import Stamper
>>> bus = MemoryBus(); bus.start()
>>> seen, errors = [], []
>>> d = Dispatcher(bus, on_error=lambda topic, reason, sender: errors.append(reason))
>>> d.route("kiebitz/v1/+/game/event", "event", lambda topic, env: seen.append(env.seq))
>>> pub = Publisher(bus, Stamper("t1/referee", clock=lambda: 1.0))
>>> env = pub.send("kiebitz/v1/t1/game/event", "event", {"type": "trick_won", "seat": 1})
>>> bus.publish("kiebitz/v1/t1/game/event", encode(env))  # redelivered: dropped
>>> bus.publish("kiebitz/v1/t1/game/event", b"not json")
>>> seen, errors
([1], ['envelope: not JSON: Expecting value at char 0'])
>>> d.stats()
DispatchStats(accepted=1, duplicates=1, rejected=1, handler_errors=0)
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from controller.bus.bus import Bus
from controller.bus.envelope import (
    KINDS,
    MAX_PAYLOAD,
    Envelope,
    PayloadError,
    Stamper,
    decode,
    encode,
)
from controller.bus.topics import PREFIX, TopicError, parse_topic

__all__ = ["DispatchStats", "Dispatcher", "OnError", "Publisher", "SeqWindow", "encode"]

log = logging.getLogger("kiebitz.bus")

#: The longest topic taken: a Kiebitz topic is at most ``kiebitz/v1/<32>/status/<64>``.
MAX_TOPIC = 200
_SHOWN = 120

OnError = Callable[[str, str, "str | None"], None]
EnvelopeHandler = Callable[[str, Envelope], None]


@dataclass(frozen=True, slots=True)
class DispatchStats:
    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0
    handler_errors: int = 0


class SeqWindow:
    """Which (sender, seq) were seen: the highest per sender and a window of recent seqs.

    >>> w = SeqWindow(window=4)
    >>> [w.accept("t1/a", s) for s in (1, 3, 2, 3, 1)]
    [True, True, True, False, False]
    >>> w.accept("t1/a", 7), w.accept("t1/a", 2), w.accept("t1/a", 6), w.accept("t1/a", 6)
    (True, False, True, False)
    >>> w.accept("t1/a", 11), w.accept("t1/a", 1)  # far below: the sender started again
    (True, True)

    A seq more than a window above the highest is delivered but not taken as the
    sender's count until a second comes close after it: one corrupt or forged seq
    far ahead made every genuine message after it "just below the window", dropped
    for a thousand seqs.

    >>> w = SeqWindow(window=4)
    >>> [w.accept("t1/a", s) for s in (1, 2, 50, 3, 50, 4)]
    [True, True, True, True, False, True]
    >>> w.accept("t1/a", 90), w.accept("t1/a", 91), w.accept("t1/a", 86)  # a real jump
    (True, True, False)

    Given each message's ``id`` (every envelope has one), a message is a redelivery
    where its id came within the sender's last window of messages, and new otherwise,
    whatever its seq says: a redelivered message is the same message, its id the
    same. A sender that started again from 1 (a table service without an outbox) is
    taken at once; before, every message of it up to its old count was dropped as a
    duplicate, without a word, and the seq rules kept with the ids still dropped some
    (a review's find: with a window of 4, the restarted sender's first two of three).

    >>> w = SeqWindow(window=4)
    >>> [w.accept("t1/a", s, f"run1-{s}") for s in (1, 2, 3, 4, 5, 6)]
    [True, True, True, True, True, True]
    >>> [w.accept("t1/a", s, f"run2-{s}") for s in (1, 2, 3)]
    [True, True, True]
    >>> w.accept("t1/a", 2, "run2-2"), w.accept("t1/a", 6, "run1-6"), w.accept("t1/a", 4, "run2-4")
    (False, False, True)
    """

    def __init__(self, window: int = 1024) -> None:
        if window < 1:
            raise ValueError(f"window must be >= 1, not {window}")
        self.window = window
        self._lock = threading.Lock()
        self._highest: dict[str, int] = {}
        self._recent: dict[str, set[int]] = {}
        self._order: dict[str, deque[int]] = {}
        self._ahead: dict[str, int] = {}  # the last seq far ahead of each sender's count
        # the ids of each sender's last window of messages (the rule where ids are given)
        self._ids: dict[str, tuple[set[str], deque[str]]] = {}

    def accept(self, sender: str, seq: int, id: str | None = None) -> bool:
        """True (and remembered) the first time a message comes: by its ``id`` where
        given, else by (sender, seq); False for a duplicate."""
        with self._lock:
            if id is None:
                return self._accept(sender, seq)
            ids, order = self._ids.setdefault(sender, (set(), deque()))
            return _first_in(ids, order, id, self.window)

    def _accept(self, sender: str, seq: int) -> bool:
        """:meth:`accept` by (sender, seq), the lock held."""
        highest = self._highest.get(sender)
        if highest is not None and seq > highest + self.window:
            ahead = self._ahead.get(sender)
            self._ahead[sender] = seq
            if ahead is None or not 0 < seq - ahead <= self.window:
                # alone far ahead (corrupt, forged, or the first after a gap this
                # receiver missed): delivered once, the count left where it is
                return _first_in(self._recent[sender], self._order[sender], seq, self.window)
            log.info("%s jumped from seq %d to %d: history forgotten", sender, highest, seq)
            highest = None
        if highest is not None and seq <= highest - self.window:
            if seq > highest - 2 * self.window:
                return False  # just below the window: an old redelivery
            log.info("%s started again at seq %d (had %d): history forgotten", sender, seq, highest)
            highest = None
        if highest is None:
            self._highest[sender] = seq
            self._recent[sender] = {seq}
            self._order[sender] = deque([seq])
            return True
        recent = self._recent[sender]
        if seq in recent:
            return False
        recent.add(seq)
        self._order[sender].append(seq)
        if seq > highest:
            self._highest[sender] = highest = seq
        order = self._order[sender]
        while len(order) > self.window or (order and order[0] <= highest - self.window):
            recent.discard(order.popleft())
        return True


def _first_in(seen: set[Any], order: deque[Any], key: Any, window: int) -> bool:
    """True (and ``key`` remembered) if ``key`` is not among the last ``window`` keys
    remembered in ``seen`` (``order``: the same, oldest first); False if it is."""
    if key in seen:
        return False
    seen.add(key)
    order.append(key)
    while len(order) > window:
        seen.discard(order.popleft())
    return True


def _sender_of(payload: bytes) -> str | None:
    """Best effort: the sender named in a payload that failed validation."""
    try:
        if len(payload) > MAX_PAYLOAD:
            return None
        data = json.loads(payload)
        sender = data.get("sender") if isinstance(data, dict) else None
        return sender[:128] if isinstance(sender, str) else None
    except Exception:
        return None


def _shown(topic: str) -> str:
    """A topic as a log line may carry it: a long one clipped, one with control or
    format characters (a newline, a right-to-left mark) quoted."""
    if len(topic) <= _SHOWN and topic.isprintable():
        return topic
    if len(topic) <= _SHOWN:
        return repr(topic)
    return f"{topic[:_SHOWN]!r}... ({len(topic)} characters)"


def _topic_problem(topic: str) -> str | None:
    """Why a topic a pattern such as ``kiebitz/v1/+/game/state`` matched is not one of
    Kiebitz's (a table id ``T1`` or ``tü``, a level of 60,000 characters), else None.
    Before, the handler's own ``parse_topic`` raised: a traceback in every service."""
    if len(topic) > MAX_TOPIC:
        return f"topic: {len(topic)} characters, more than {MAX_TOPIC}"
    if topic.startswith(PREFIX + "/"):
        try:
            parse_topic(topic)
        except TopicError as exc:
            return f"topic: {exc}".replace(f"topic {topic!r}: ", "", 1)
    return None


class Dispatcher:
    """Routes validated, de-duplicated envelopes from a :class:`Bus` to handlers."""

    def __init__(self, bus: Bus, *, on_error: OnError | None = None, window: int = 1024) -> None:
        self.bus = bus
        self.on_error = on_error
        self.window = window
        self._lock = threading.Lock()
        self._stats = DispatchStats()

    def stats(self) -> DispatchStats:
        return self._stats

    def _count(self, **changes: int) -> None:
        with self._lock:
            s = self._stats
            self._stats = replace(s, **{k: getattr(s, k) + v for k, v in changes.items()})

    def route(
        self, pattern: str, kind: str, handler: EnvelopeHandler, *, resume_retained: bool = True
    ) -> None:
        """Call ``handler(topic, envelope)`` for each new valid ``kind`` envelope on
        ``pattern`` (``resume_retained``: :meth:`Bus.subscribe`'s)."""
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r} is not one of {list(KINDS)}")
        seen = SeqWindow(self.window)

        def receive(topic: str, payload: bytes) -> None:
            try:
                self._receive(topic, payload, kind, handler, seen)
            except Exception:  # the last line of defence: a service never dies of a message
                log.exception("dispatching a message on %s failed", topic)

        self.bus.subscribe(pattern, receive, resume_retained=resume_retained)

    def _receive(
        self, topic: str, payload: bytes, kind: str, handler: EnvelopeHandler, seen: SeqWindow
    ) -> None:
        problem = _topic_problem(topic)
        if problem is not None:
            self._count(rejected=1)
            self._reject(_shown(topic), problem, _sender_of(payload))
            return
        try:
            env = decode(payload, kind=kind)
        except PayloadError as exc:
            self._count(rejected=1)
            self._reject(topic, str(exc), _sender_of(payload))
            return
        # the window is the sender's on this topic: a message on another table's topic
        # that names this sender (refused by the service as not of that table) took
        # its seqs, and the sender's own later messages were dropped as seen
        if not seen.accept(f"{env.sender} on {topic}", env.seq, env.id):
            self._count(duplicates=1)
            log.debug("dropped a duplicate %s seq %d on %s", env.sender, env.seq, topic)
            return
        self._count(accepted=1)
        try:
            handler(topic, env)
        except Exception as exc:
            self._count(handler_errors=1)
            log.exception("handler for %s failed on %s seq %d", topic, env.sender, env.seq)
            self._reject(topic, f"handler failed: {type(exc).__name__}: {exc}"[:300], env.sender)

    def _reject(self, topic: str, reason: str, sender: str | None) -> None:
        if self.on_error is None:
            log.warning("rejected a message on %s from %s: %s", topic, sender or "?", reason)
            return
        # the service says it, in its own log line (one warning a message, not two)
        log.debug("rejected a message on %s from %s: %s", topic, sender or "?", reason)
        try:
            self.on_error(topic, reason, sender)
        except Exception:
            log.exception("on_error failed for %s", topic)


class Publisher:
    """Stamps, encodes (validating the body) and publishes with QoS 1."""

    def __init__(self, bus: Bus, stamper: Stamper) -> None:
        self.bus = bus
        self.stamper = stamper

    def send(
        self, topic: str, kind: str, body: Mapping[str, Any], retain: bool = False
    ) -> Envelope:
        """Publish ``body`` as a ``kind`` envelope; a bad body raises :class:`PayloadError`."""
        env = self.stamper.stamp(kind, body)
        self.bus.publish(topic, encode(env), retain=retain, qos=1)
        return env
