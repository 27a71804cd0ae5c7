"""The seam between the services and the broker: :class:`Bus`, a fake and a real side.

* :class:`MemoryBus` — in-process, on a shared :class:`MemoryBroker`: retained
  messages, ``+``/``#`` wildcards, an online message on start and the last will
  on :meth:`MemoryBus.kill`. Delivery is **synchronous**: :meth:`publish` calls
  every matching handler, of every client on the broker, in the publisher's
  thread before it returns.
* :class:`MqttBus` — paho-mqtt 2.x over MQTT 5 with QoS 1, a retained last will,
  the retained online message and re-subscription on every (re)connect,
  exponential back-off, its own network thread (``loop_start``). Handlers run in
  that thread.

Open either by URL with :func:`open_bus` (``memory://<name>``, ``mqtt://host:port``).
Network trouble never raises into the caller: it shows in :meth:`Bus.health`;
a handler that raises is logged and the bus carries on.

>>> broker = MemoryBroker()
>>> a, b = MemoryBus(broker, "a"), MemoryBus(broker, "b")
>>> a.start(); b.start()
>>> a.publish("kiebitz/v1/t1/game/state", b'{"n": 1}', retain=True)
>>> seen = []
>>> b.subscribe("kiebitz/v1/+/game/#", lambda topic, payload: seen.append((topic, payload)))
>>> seen
[('kiebitz/v1/t1/game/state', b'{"n": 1}')]
>>> b.health().delivered
1
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

__all__ = [
    "Bus",
    "BusHealth",
    "Handler",
    "MemoryBroker",
    "MemoryBus",
    "MqttBus",
    "OnRefused",
    "matches",
    "open_bus",
]

log = logging.getLogger("kiebitz.bus")

Handler = Callable[[str, bytes], None]
OnRefused = Callable[[str, str], None]
#: Called once the broker answered a QoS 1 publish: True accepted, False refused.
OnDone = Callable[[bool], None]

CLOSED = "closed"  # not started, or closed
CONNECTING = "connecting"
CONNECTED = "connected"
DISCONNECTED = "disconnected"  # lost; reconnecting with back-off
REFUSED = "refused"  # the broker refused the connection (credentials, client id ...)
KILLED = "killed"  # MemoryBus.kill(): gone without a goodbye, last will sent


@dataclass(frozen=True, slots=True)
class BusHealth:
    """A snapshot of a bus client.

    ``published`` counts publishes the broker accepted (QoS 1: acknowledged),
    ``refused`` those it refused with a reason code, ``delivered`` the messages
    handed to handlers, ``handler_errors`` the handler calls that raised.
    """

    url: str
    status: str = CLOSED
    connects: int = 0
    disconnects: int = 0
    published: int = 0
    delivered: int = 0
    refused: int = 0
    last_error: str | None = None
    handler_errors: int = 0
    subscriptions: int = 0  # patterns the broker has acknowledged on this connection

    @property
    def connected(self) -> bool:
        return self.status == CONNECTED


@runtime_checkable
class Bus(Protocol):
    """What a service needs of the broker; see :class:`MemoryBus` and :class:`MqttBus`."""

    def publish(
        self,
        topic: str,
        payload: bytes,
        *,
        retain: bool = False,
        qos: int = 1,
        on_done: OnDone | None = None,
    ) -> None: ...

    def subscribe(self, pattern: str, handler: Handler, *, resume_retained: bool = True) -> None:
        """Call ``handler(topic, payload)`` for each message on ``pattern``, the retained
        ones first. ``resume_retained=False``: where a session the broker kept already
        holds the subscription, what came while the client was away comes from the
        session's queue alone, not again as retained (the referee's inputs: see
        :class:`MqttBus`); a state kept retained for a resync keeps the default. It
        is the pattern's: one handler asking so asks it for every handler of that
        pattern on this bus (MQTT holds one subscription a pattern)."""
        ...

    def start(self) -> None: ...

    def close(self) -> None: ...

    @property
    def connected(self) -> bool: ...

    def health(self) -> BusHealth: ...


def matches(pattern: str, topic: str) -> bool:
    """MQTT topic filter matching, ``+`` one level, ``#`` the rest (and the parent).

    >>> matches("kiebitz/v1/+/status/#", "kiebitz/v1/t1/status/referee")
    True
    >>> matches("a/#", "a"), matches("a/+", "a/b/c"), matches("#", "$SYS/uptime")
    (True, False, False)
    """
    p_parts = pattern.split("/")
    t_parts = topic.split("/")
    if topic.startswith("$") and p_parts[0] in ("+", "#"):
        return False
    for i, part in enumerate(p_parts):
        if part == "#":
            return True
        if i >= len(t_parts):
            return False
        if part != "+" and part != t_parts[i]:
            return False
    return len(p_parts) == len(t_parts)


def _check_pattern(pattern: str) -> None:
    if not isinstance(pattern, str) or not pattern:
        raise ValueError(f"subscription pattern {pattern!r} is empty")
    parts = pattern.split("/")
    for i, part in enumerate(parts):
        if ("#" in part and (part != "#" or i != len(parts) - 1)) or ("+" in part and part != "+"):
            raise ValueError(f"subscription pattern {pattern!r}: bad wildcard in {part!r}")


def _check_publish(topic: str, payload: bytes, qos: int) -> None:
    if not isinstance(topic, str) or not topic or "+" in topic or "#" in topic:
        raise ValueError(f"cannot publish to topic {topic!r}")
    if not isinstance(payload, bytes | bytearray):
        raise ValueError(f"payload for {topic!r} must be bytes, not {type(payload).__name__}")
    if qos not in (0, 1, 2):
        raise ValueError(f"qos must be 0, 1 or 2, not {qos!r}")


def _call(handler: Handler, topic: str, payload: bytes) -> bool:
    """Run one handler; an exception is logged, never raised. True when it returned."""
    try:
        handler(topic, payload)
    except Exception:
        log.exception("handler %r failed on a message on %s", handler, topic)
        return False
    return True


# --------------------------------------------------------------------------- memory


class MemoryBroker:
    """An in-process broker shared by :class:`MemoryBus` clients.

    ``deny`` lists topic filters no client may publish to (like an ACL): such a
    publish is refused with reason ``"Not authorized"``, as Mosquitto does.
    """

    _named: ClassVar[dict[str, MemoryBroker]] = {}
    _named_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, *, deny: tuple[str, ...] = ()) -> None:
        self.deny = deny
        self._lock = threading.RLock()
        self._retained: dict[str, bytes] = {}
        self._clients: list[MemoryBus] = []

    @classmethod
    def named(cls, name: str) -> MemoryBroker:
        """The process-wide broker called ``name`` (made on first use)."""
        with cls._named_lock:
            return cls._named.setdefault(name, cls())

    def retained(self) -> dict[str, bytes]:
        with self._lock:
            return dict(self._retained)

    def _attach(self, client: MemoryBus) -> None:
        with self._lock:
            if client not in self._clients:
                self._clients.append(client)

    def _detach(self, client: MemoryBus) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def _refuses(self, topic: str) -> bool:
        return any(matches(pattern, topic) for pattern in self.deny)

    def _publish(self, topic: str, payload: bytes, retain: bool) -> None:
        with self._lock:
            if retain:
                if payload:
                    self._retained[topic] = payload
                else:  # an empty retained message clears the topic, as in MQTT
                    self._retained.pop(topic, None)
            clients = list(self._clients)
        for client in clients:
            client._deliver(topic, payload)

    def _retained_for(self, pattern: str) -> list[tuple[str, bytes]]:
        with self._lock:
            return [(t, p) for t, p in self._retained.items() if matches(pattern, t)]


class MemoryBus:
    """The fake side of :class:`Bus`: same semantics as :class:`MqttBus`, in one process.

    Publishing before :meth:`start` queues the message until start (paho queues too).
    The MQTT-only keywords of :class:`MqttBus` are accepted and ignored, so
    :func:`open_bus` takes the same keywords for both.
    """

    def __init__(
        self,
        broker: MemoryBroker | None = None,
        client_id: str = "memory",
        *,
        will: tuple[str, bytes] | None = None,
        online: tuple[str, bytes] | None = None,
        on_refused: OnRefused | None = None,
        url: str = "memory://",
        **_mqtt_only: Any,
    ) -> None:
        self.broker = broker if broker is not None else MemoryBroker()
        self.client_id = client_id
        self.will = will
        self.online = online
        self.on_refused = on_refused
        self._lock = threading.RLock()
        self._subs: list[tuple[str, Handler]] = []
        self._outbox: list[tuple[str, bytes, bool, OnDone | None]] = []
        self._health = BusHealth(url=url)

    @property
    def connected(self) -> bool:
        return self._health.status == CONNECTED

    def health(self) -> BusHealth:
        return self._health

    def _bump(self, **changes: Any) -> None:
        with self._lock:
            self._health = replace(self._health, **changes)

    def start(self) -> None:
        if self.connected:
            return
        self.broker._attach(self)
        h = self._health
        with self._lock:
            subs = list(self._subs)
            patterns = len({p for p, _ in subs})
            outbox, self._outbox = self._outbox, []
        self._bump(status=CONNECTED, connects=h.connects + 1, subscriptions=patterns)
        for pattern, handler in subs:
            for topic, payload in self.broker._retained_for(pattern):
                self._hand(handler, topic, payload)
        if self.online is not None:
            self.publish(self.online[0], self.online[1], retain=True)
        for topic, payload, retain, on_done in outbox:
            self.publish(topic, payload, retain=retain, on_done=on_done)

    def subscribe(self, pattern: str, handler: Handler, *, resume_retained: bool = True) -> None:
        # (no session outlives a MemoryBus's client: resume_retained changes nothing)
        _check_pattern(pattern)
        with self._lock:
            self._subs.append((pattern, handler))
            patterns = len({p for p, _ in self._subs})
        if self.connected:
            self._bump(subscriptions=patterns)
            for topic, payload in self.broker._retained_for(pattern):
                self._hand(handler, topic, payload)

    def publish(
        self,
        topic: str,
        payload: bytes,
        *,
        retain: bool = False,
        qos: int = 1,
        on_done: OnDone | None = None,
    ) -> None:
        _check_publish(topic, payload, qos)
        payload = bytes(payload)
        if not self.connected:
            with self._lock:
                self._outbox.append((topic, payload, retain, on_done))
            return
        if self.broker._refuses(topic):
            self._bump(refused=self._health.refused + 1, last_error=f"{topic}: Not authorized")
            if self.on_refused is not None:
                try:
                    self.on_refused(topic, "Not authorized")
                except Exception:
                    log.exception("on_refused failed for %s", topic)
            _done(on_done, False, topic)
            return
        self._bump(published=self._health.published + 1)
        self.broker._publish(topic, payload, retain)
        _done(on_done, True, topic)

    def close(self) -> None:
        """A clean goodbye: the will's payload is published (retained), then detached."""
        if self.connected and self.will is not None:
            self.publish(self.will[0], self.will[1], retain=True)
        self._leave(CLOSED)

    def kill(self) -> None:
        """Vanish as a crashed client does: the broker sends the last will."""
        was = self.connected
        self._leave(KILLED)
        if was and self.will is not None:
            self.broker._publish(self.will[0], self.will[1], True)

    def _leave(self, status: str) -> None:
        was = self.connected
        self.broker._detach(self)
        self._bump(status=status, disconnects=self._health.disconnects + int(was), subscriptions=0)

    def _deliver(self, topic: str, payload: bytes) -> None:
        with self._lock:
            handlers = [h for pattern, h in self._subs if matches(pattern, topic)]
        for handler in handlers:
            self._hand(handler, topic, payload)

    def _hand(self, handler: Handler, topic: str, payload: bytes) -> None:
        ok = _call(handler, topic, payload)
        with self._lock:
            h = self._health
            self._health = replace(
                h, delivered=h.delivered + 1, handler_errors=h.handler_errors + (not ok)
            )


# --------------------------------------------------------------------------- MQTT


def _parse_url(url: str) -> tuple[str, int, bool]:
    """Host, port and whether it is TLS (``mqtts://``, port 8883 by default)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ValueError(f"broker URL {url!r} must look like mqtt://host:port or mqtts://host:port")
    if "@" in parts.netloc:
        # an account in the URL was dropped without a word, and the broker then refused
        # the connection as anonymous: the password is not echoed here
        shown = f"{parts.scheme}://…@{parts.netloc.rpartition('@')[2]}"
        raise ValueError(
            f"broker URL {shown!r}: no account in the URL (give a username and a password file)"
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"broker URL {url!r} has a path or query: only mqtt://host:port")
    if any(c.isspace() for c in parts.netloc):
        raise ValueError(f"broker URL {url!r} has a space in its host")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError:
        raise ValueError(f"broker URL {url!r} has a bad port") from None
    if parts.port == 0:  # no broker listens on port 0 ("cannot reach" said nothing more)
        raise ValueError(f"broker URL {url!r} has a bad port")
    return parts.hostname, port, tls


#: OpenSSL's X509_V_ERR_HOSTNAME_MISMATCH and X509_V_ERR_IP_ADDRESS_MISMATCH.
_NAME_MISMATCH: Final = frozenset({62, 64})


def _connect_failure(url: str, host: str, port: int, exc: BaseException | None) -> str:
    """Why a connection attempt failed, in words an installer can act on.

    A TCP connection that came up and then failed in the TLS handshake is not "cannot
    reach": the listener does not speak TLS (a plain MQTT port under ``mqtts://``, which
    resets the connection), or the broker's certificate is not trusted here, or is
    issued to another host name than the one connected to.
    """
    if isinstance(exc, ssl.SSLCertVerificationError):
        what = exc.verify_message or exc.reason or str(exc)
        if exc.verify_code in _NAME_MISMATCH:
            # the CA is trusted, the certificate names another host: a CA file would
            # not help (it said "give the CA file that signed it")
            return (
                f"TLS handshake with {host}:{port} failed: the broker's certificate is not "
                f"issued to {host} ({what.rstrip('.')}; connect by a name it names)"
            )
        return (
            f"TLS handshake with {host}:{port} failed: the broker's certificate is not "
            f"trusted ({what}; give the CA file that signed it)"
        )
    if isinstance(exc, ssl.SSLError) or (exc is not None and _in_handshake(exc)):
        what = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        if isinstance(exc, TimeoutError):
            what = "no answer"
        return (
            f"TLS handshake with {host}:{port} failed ({what}): is that port a TLS "
            "listener, and is the broker's certificate trusted?"
        )
    return f"cannot reach {url}"


def _in_handshake(exc: BaseException) -> bool:
    """The exception was raised in an ``ssl`` handshake (after TCP connected)."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "do_handshake":
            return True
        tb = tb.tb_next
    return False


class MqttBus:
    """The real side of :class:`Bus`: paho-mqtt 2.x, MQTT 5, QoS 1.

    ``will`` (topic, payload) is the retained last will; ``online`` is published,
    retained, on every (re)connect, after the subscriptions are renewed.
    ``reconnect`` is paho's (min, max) back-off in seconds; a connection the broker
    refuses (bad credentials …) shows as status ``refused`` with its reason and is
    retried with the same growing back-off, never in a tight loop. A publish the
    broker refuses (PUBACK reason code >= 0x80) is counted in ``health().refused``
    and passed to ``on_refused(topic, reason)``. ``close()`` publishes the will's
    payload itself (a clean stop also says offline), then disconnects.
    """

    def __init__(
        self,
        url: str,
        client_id: str,
        *,
        will: tuple[str, bytes] | None = None,
        online: tuple[str, bytes] | None = None,
        clock: Callable[[], float] = time.monotonic,
        reconnect: tuple[float, float] = (0.5, 8.0),
        keepalive: int = 10,
        username: str | None = None,
        password: str | None = None,
        on_refused: OnRefused | None = None,
        ca_file: str | None = None,
        session_expiry: int = 0,
    ) -> None:
        self.url = url
        # > 0: a session the broker keeps this long (seconds) while the client is away,
        # queueing its QoS 1 messages (the referee: nothing published while it restarts
        # is lost); it resumes on every connect, the first one too
        self._session_expiry = session_expiry
        self._host, self._port, tls = _parse_url(url)
        self.client_id = client_id
        self.will = will
        self.online = online
        self.on_refused = on_refused
        self._clock = clock
        self._keepalive = keepalive
        self._lock = threading.RLock()
        self._subs: list[tuple[str, Handler]] = []
        self._retained_new_only: set[str] = set()  # (subscribe's resume_retained=False)
        #: The connection's subscriptions were made (``_on_connect``): a pattern
        #: subscribed from now on is sent at once. Set under the lock with the
        #: snapshot of the patterns, so each pattern is in the one or sent by the other.
        self._live = False
        self._health = BusHealth(url=url)
        self._started = False
        self._closing = False
        self._connected_at: float | None = None
        # mid -> topic of publishes waiting for their PUBACK; PUBACKs that beat
        # publish() back (the network thread is fast) wait in _early.
        self._pending: dict[int, tuple[str, OnDone | None]] = {}
        self._early: dict[int, tuple[ReasonCode, Any]] = {}
        self._sub_mids: dict[int, str] = {}
        self._sub_ids: dict[str, int] = {}

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            protocol=mqtt.MQTTv5,
            reconnect_on_failure=True,
        )
        # paho says everything at its own levels, including "Client is not connected"
        # from its loop after a clean disconnect; the bus reports trouble in its health
        # and its own warnings, so paho's messages are kept for debugging only.
        paho_log = logging.getLogger("kiebitz.bus.paho")
        if paho_log.level == logging.NOTSET:
            paho_log.setLevel(logging.CRITICAL)
        client.enable_logger(paho_log)
        client.reconnect_delay_set(min_delay=reconnect[0], max_delay=reconnect[1])  # type: ignore[arg-type]
        if username is not None:
            client.username_pw_set(username, password)
        if tls:
            # the broker's certificate checked against ca_file (the club's own CA), else
            # the system's trusted CAs; its host name must match
            try:
                client.tls_set(ca_certs=ca_file)
            except (OSError, ValueError) as exc:
                raise ValueError(f"{url}: TLS with CA file {ca_file!r}: {exc}") from exc
        elif ca_file is not None:
            raise ValueError(f"{url}: a CA file is for mqtts:// (TLS) only")
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        client.on_subscribe = self._on_subscribe
        self._client = client

    # -- the Bus API

    @property
    def connected(self) -> bool:
        return self._health.status == CONNECTED

    def health(self) -> BusHealth:
        return self._health

    def connected_for(self) -> float | None:
        """Seconds since the current connection came up (``clock``), None when down."""
        at = self._connected_at
        return None if at is None else self._clock() - at

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
            self._closing = False
        self._bump(status=CONNECTING)
        if self._session_expiry > 0:
            props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
            props.SessionExpiryInterval = self._session_expiry
            self._client.connect_async(
                self._host,
                self._port,
                keepalive=self._keepalive,
                clean_start=False,
                properties=props,
            )
        else:
            self._client.connect_async(self._host, self._port, keepalive=self._keepalive)
        self._client.loop_start()

    def subscribe(self, pattern: str, handler: Handler, *, resume_retained: bool = True) -> None:
        _check_pattern(pattern)
        with self._lock:
            new = all(p != pattern for p, _ in self._subs)
            self._subs.append((pattern, handler))
            if not resume_retained:
                self._retained_new_only.add(pattern)
            live = self._live
        # Not `self.connected`: that is said only after the connection's subscriptions
        # were sent, and a pattern added between those two moments (a service starting
        # while its bus connects; seen on a loaded machine) was in neither and never
        # subscribed: `kiebitz run` then waited in vain for the broker's answer
        if new and live:
            self._subscribe(pattern)

    def _subscribe(self, pattern: str) -> None:
        # Mosquitto sends one copy per matching subscription; the MQTT 5 subscription
        # identifier on each copy says which pattern it is for, so each handler runs once.
        with self._lock:
            sub_id = self._sub_ids.setdefault(pattern, len(self._sub_ids) + 1)
            new_only = pattern in self._retained_new_only
        props = Properties(PacketTypes.SUBSCRIBE)  # type: ignore[no-untyped-call]
        props.SubscriptionIdentifier = sub_id
        # resume_retained=False: the retained messages only for a subscription the
        # session did not hold. A session the broker kept (the referee's) was sent,
        # while its client was away, every message published meanwhile, queued;
        # renewing the subscription sent the retained ones again, and a retained
        # message that is not an envelope, with no id to be known again by, was said
        # twice at each start. (The recorder's game/state keeps MQTT's default: the
        # retained state is its resync, a copy of a state queued dropped by its id.)
        handling = (
            SubscribeOptions.RETAIN_SEND_IF_NEW_SUB
            if new_only
            else SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE
        )
        options = SubscribeOptions(qos=1, retainHandling=handling)
        rc, mid = self._client.subscribe(pattern, options=options, properties=props)
        if rc == mqtt.MQTT_ERR_SUCCESS and mid is not None:
            with self._lock:
                self._sub_mids[mid] = pattern

    def publish(
        self,
        topic: str,
        payload: bytes,
        *,
        retain: bool = False,
        qos: int = 1,
        on_done: OnDone | None = None,
    ) -> None:
        """Publish; with QoS 1, ``on_done(accepted)`` runs when the broker's PUBACK
        comes (on paho's thread), however long that takes: paho keeps the message and
        sends it again after a reconnect. A message that never got its PUBACK when the
        process ends is lost with it, unless the caller kept it (the table service's
        outbox)."""
        _check_publish(topic, payload, qos)
        self._send(topic, bytes(payload), qos, retain, on_done)

    def _send(
        self, topic: str, payload: bytes, qos: int, retain: bool, on_done: OnDone | None = None
    ) -> mqtt.MQTTMessageInfo:
        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            self._bump(last_error=f"publish to {topic}: {mqtt.error_string(info.rc)}")
            return info
        if qos == 0:
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self._bump(published=self._health.published + 1)
            return info
        with self._lock:
            early = self._early.pop(info.mid, None)
            if early is None:
                self._pending[info.mid] = (topic, on_done)
        if early is not None:
            self._acknowledged(topic, *early, on_done=on_done)
        return info

    def close(self, timeout: float = 2.0) -> None:
        with self._lock:
            if not self._started:
                return
            self._started = False
            self._closing = True
        if self.connected and self.will is not None:
            info = self._send(self.will[0], self.will[1], 1, True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self._client.disconnect()
        self._client.loop_stop()
        self._connected_at = None
        self._bump(status=CLOSED)

    # -- paho callbacks (network thread)

    def _bump(self, **changes: Any) -> None:
        with self._lock:
            self._health = replace(self._health, **changes)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("%s refused the connection: %s", self.url, reason)
            self._bump(status=REFUSED, last_error=f"connection refused: {reason}")
            return
        _no_delay(client)
        self._bump(subscriptions=0)
        with self._lock:
            patterns = list(dict.fromkeys(p for p, _ in self._subs))
            self._live = True
        for pattern in patterns:
            self._subscribe(pattern)
        if self.online is not None:
            self._send(self.online[0], self.online[1], 1, True)
        self._connected_at = self._clock()
        again = self._health.disconnects > 0
        self._bump(status=CONNECTED, connects=self._health.connects + 1)
        # back after a loss: said at the loss's level, so a log (or `kiebitz run`'s
        # terminal, which shows warnings only) that says "lost" also says "back"
        log.log(
            logging.WARNING if again else logging.INFO,
            "%s %s as %s",
            "connected again to" if again else "connected to",
            self.url,
            self.client_id,
        )

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        # paho calls this from inside its `except OSError:` and passes no exception:
        # the one being handled is there to read. An mqtts:// URL pointed at a plain
        # listener (or a broker whose certificate is not trusted) said "cannot reach"
        why = _connect_failure(self.url, self._host, self._port, sys.exc_info()[1])
        self._bump(status=DISCONNECTED, last_error=why)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, props: Any
    ) -> None:
        was = self.connected
        self._connected_at = None
        with self._lock:
            self._live = False
            h = self._health
            status = CLOSED if self._closing else REFUSED if h.status == REFUSED else DISCONNECTED
            error = h.last_error if not was or self._closing else f"connection lost: {reason}"
            self._health = replace(
                h,
                status=status,
                disconnects=h.disconnects + int(was),
                last_error=error,
                subscriptions=0,
            )
        if was and not self._closing:
            # paho's "Unspecified error" is the socket closed under it: the broker gone
            why = "the broker went away" if str(reason) == "Unspecified error" else reason
            log.warning("lost %s (%s); reconnecting", self.url, why)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            topic = message.topic
        except UnicodeDecodeError:
            log.warning("dropped a message with a topic that is not UTF-8")
            return
        ids = getattr(message.properties, "SubscriptionIdentifier", None)
        with self._lock:
            wanted = {p for p, i in self._sub_ids.items() if i in ids} if ids else set()
            if wanted:
                handlers = [h for pattern, h in self._subs if pattern in wanted]
            else:  # no identifier, or one of a session an earlier process made
                handlers = [h for pattern, h in self._subs if matches(pattern, topic)]
        if not handlers:
            return
        payload = bytes(message.payload)
        failed = sum(not _call(h, topic, payload) for h in handlers)
        with self._lock:
            h = self._health
            self._health = replace(
                h, delivered=h.delivered + 1, handler_errors=h.handler_errors + failed
            )

    def _on_subscribe(
        self, client: mqtt.Client, userdata: Any, mid: int, reasons: list[ReasonCode], props: Any
    ) -> None:
        with self._lock:
            pattern = self._sub_mids.pop(mid, "?")
            h = self._health
            if all(not r.is_failure for r in reasons):
                self._health = replace(h, subscriptions=h.subscriptions + 1)
                return
            text = ", ".join(str(r) for r in reasons)
            self._health = replace(h, last_error=f"subscription {pattern} refused: {text}")
        log.warning("%s refused the subscription %s: %s", self.url, pattern, text)

    def _on_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: ReasonCode, props: Any
    ) -> None:
        with self._lock:
            waiting = self._pending.pop(mid, None)
            if waiting is None:
                self._early[mid] = (reason, props)
                return
        self._acknowledged(waiting[0], reason, props, on_done=waiting[1])

    def _acknowledged(
        self, topic: str, reason: ReasonCode, props: Any, *, on_done: OnDone | None = None
    ) -> None:
        if not reason.is_failure:
            self._bump(published=self._health.published + 1)
            _done(on_done, True, topic)
            return
        _done(on_done, False, topic)
        text = getattr(props, "ReasonString", None) or str(reason)
        log.warning("%s refused a publish to %s: %s", self.url, topic, text)
        with self._lock:
            h = self._health
            self._health = replace(h, refused=h.refused + 1, last_error=f"{topic}: {text}")
        if self.on_refused is not None:
            try:
                self.on_refused(topic, text)
            except Exception:
                log.exception("on_refused failed for %s", topic)


def _done(on_done: OnDone | None, accepted: bool, topic: str) -> None:
    if on_done is None:
        return
    try:
        on_done(accepted)
    except Exception:
        log.exception("on_done failed for %s", topic)


def _no_delay(client: mqtt.Client) -> None:
    """Send each small MQTT packet at once (``TCP_NODELAY``). With Nagle's algorithm on,
    a PUBLISH that follows one not yet acknowledged waits for the peer's delayed ACK,
    40 ms on Linux: one round through broker, referee and back paid it twice."""
    sock = client.socket()
    if sock is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def open_bus(url: str, client_id: str, **kw: Any) -> Bus:
    """A bus by URL: ``memory://<name>`` (a named in-process broker) or ``mqtt://host:port``.

    >>> bus = open_bus("memory://doctest", "t1/referee")
    >>> type(bus).__name__, bus.health().url
    ('MemoryBus', 'memory://doctest')
    >>> open_bus("ftp://x", "c")
    Traceback (most recent call last):
    ...
    ValueError: broker URL 'ftp://x' must be memory://<name>, mqtt://host:port or mqtts://host:port
    """
    scheme = url.partition("://")[0]
    if scheme == "memory":
        name = url[len("memory://") :]
        return MemoryBus(MemoryBroker.named(name), client_id, url=url, **kw)
    if scheme in ("mqtt", "mqtts"):
        return MqttBus(url, client_id, **kw)
    raise ValueError(
        f"broker URL {url!r} must be memory://<name>, mqtt://host:port or mqtts://host:port"
    )
