"""The JSON envelope every Kiebitz MQTT payload travels in, and its strict codec.

Pure: standard library and :mod:`jsonschema`, no paho. A payload is compact UTF-8 JSON::

    {"schema": 1, "id": "<32 hex>", "sender": "<table>/<component>", "seq": 7,
     "ts": 1700000000.25, "kind": "observation", "body": {...}}

The body is checked against ``schemas/<kind>.schema.json`` (JSON Schema 2020-12).
:func:`decode` raises only :class:`PayloadError`, whose message names what is wrong
and where (a JSON path such as ``body.card``); anything over 64 KiB, not UTF-8,
nested deeper than 32, carrying NaN/Infinity or a duplicate key is refused.

>>> stamper = Stamper("t1/referee", clock=lambda: 100.0, ids=lambda: "ab" * 16)
>>> env = stamper.stamp("status", {"state": "online", "component": "referee"})
>>> env.seq, env.kind
(1, 'status')
>>> encode(env)[:40]
b'{"schema":1,"id":"ababababababababababab'
>>> decode(encode(env), kind="status") == env
True
>>> bad = encode(env).replace(b'"online"', b'"asleep"')
>>> decode(bad)
Traceback (most recent call last):
...
controller.bus.errors.PayloadError: body.state: 'asleep' is not one of ['online', 'offline']
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import jsonschema_rs

from controller.bus.errors import PayloadError

__all__ = [
    "KINDS",
    "MAX_DEPTH",
    "MAX_PAYLOAD",
    "SCHEMA_VERSION",
    "Envelope",
    "PayloadError",
    "Stamper",
    "StrictJsonError",
    "decode",
    "encode",
    "load_schema",
    "strict_json",
    "validate_body",
]

SCHEMA_VERSION = 1
MAX_PAYLOAD = 64 * 1024
MAX_DEPTH = 32
KINDS = ("observation", "command", "event", "state", "status", "error")
_MAX_MESSAGE = 300  # error messages quote the offending value; keep them one line
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SENDER = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}/[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True, slots=True)
class Envelope:
    """One message: who sent it, its place in the sender's sequence, when, what kind, the body."""

    schema: int
    id: str
    sender: str
    seq: int
    ts: float
    kind: str
    body: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "id": self.id,
            "sender": self.sender,
            "seq": self.seq,
            "ts": self.ts,
            "kind": self.kind,
            "body": self.body,
        }


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``schemas/<name>.schema.json`` (package data).

    >>> load_schema("status")["required"]
    ['state', 'component']
    """
    text = resources.files("controller.bus").joinpath(f"schemas/{name}.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator: jsonschema.protocols.Validator = cls(schema)
    return validator


def _where(prefix: str, path: Any) -> str:
    out = prefix
    for part in path:
        out = f"{out}[{part}]" if isinstance(part, int) else f"{out}.{part}" if out else str(part)
    return out or "envelope"


def _short(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


@cache
def _fast(name: str) -> Any:
    """The schema compiled by jsonschema-rs: a valid payload is checked in about a
    microsecond (the pure-Python validator takes a hundred times as long, which the
    referee's 1,000 observations a second cannot afford)."""
    return jsonschema_rs.validator_for(load_schema(name))


def _check(name: str, instance: Any, prefix: str) -> None:
    if _fast(name).is_valid(instance):
        return
    # Only a refused payload pays for the pure-Python validator's best message.
    error = jsonschema.exceptions.best_match(_validator(name).iter_errors(instance))
    if error is not None:
        raise PayloadError(_short(f"{_where(prefix, error.absolute_path)}: {error.message}"))


def validate_body(kind: str, body: Any) -> None:
    """Raise :class:`PayloadError` unless ``body`` is a valid body of ``kind``.

    >>> validate_body("observation", {"kind": "placed", "card": "ZZ"})
    Traceback (most recent call last):
    ...
    controller.bus.errors.PayloadError: body: 'zone' is a required property
    >>> validate_body("command", {"command": "undo", "event": 3})
    """
    if kind not in KINDS:
        raise PayloadError(f"kind: {kind!r} is not one of {list(KINDS)}")
    _check(kind, body, "body")


_BRACKETS = re.compile(rb"[\[\]{}]+")


def _depth(raw: bytes) -> int:
    """Deepest nesting of arrays/objects, strings blanked out first (only the runs
    of brackets are walked: a state of 20 KB has a few hundred)."""
    depth = deepest = 0
    for run in _BRACKETS.findall(_STRINGS.sub(b'""', raw)):
        for byte in run:
            if byte in (0x5B, 0x7B):  # [ {
                depth += 1
                if depth > deepest:
                    deepest = depth
            else:
                depth -= 1
    return deepest


class StrictJsonError(ValueError):
    """JSON that parses but is not JSON as the bus takes it (:func:`strict_json`)."""


def _refuse_constant(name: str) -> Any:
    raise StrictJsonError(f"{name} is not allowed in a payload")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError(f"number {_short(text)} is out of range")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJsonError(_short(f"duplicate key {key!r}"))
        out[key] = value
    return out


def strict_json(text: str) -> Any:
    """``json.loads`` as the bus reads a payload (and a recorded observation line):
    ``NaN`` and ``Infinity``, a number out of a float's range (``1e999``), a key
    given twice, an integer longer than Python reads (4,300 digits) and nesting deeper
    than the interpreter's stack are :class:`StrictJsonError`; bad syntax is
    ``json.JSONDecodeError``. No other error comes out of a ``str``, so a caller
    names the two.

    >>> strict_json('{"t": 1e999}')
    Traceback (most recent call last):
    ...
    controller.bus.envelope.StrictJsonError: number 1e999 is out of range
    >>> strict_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    controller.bus.envelope.StrictJsonError: not JSON: nested too deeply
    """
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            object_pairs_hook=_no_duplicates,
        )
    except (StrictJsonError, json.JSONDecodeError):
        raise
    except RecursionError:  # `[[[…]]]` thousands deep
        raise StrictJsonError("not JSON: nested too deeply") from None
    except ValueError as exc:
        if "digits" not in str(exc):  # bytes that are not UTF-8, say: not ours to name
            raise
        # an integer of over 4,300 digits (Python's own bound)
        raise StrictJsonError("not JSON: a number too long to read") from None


def decode(payload: bytes, *, kind: str | None = None) -> Envelope:
    """Parse and validate one payload; ``kind`` given: the envelope must be of that kind.

    >>> decode(b"[1, 2]")
    Traceback (most recent call last):
    ...
    controller.bus.errors.PayloadError: envelope: [1, 2] is not of type 'object'
    >>> decode(b'{"schema": NaN}')
    Traceback (most recent call last):
    ...
    controller.bus.errors.PayloadError: envelope: NaN is not allowed in a payload
    """
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise PayloadError(f"envelope: payload must be bytes, not {type(payload).__name__}")
    raw = bytes(payload)
    if len(raw) > MAX_PAYLOAD:
        raise PayloadError(f"envelope: payload of {len(raw)} bytes is over {MAX_PAYLOAD}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PayloadError(f"envelope: not UTF-8 at byte {exc.start}") from None
    depth = _depth(raw)
    if depth > MAX_DEPTH:
        raise PayloadError(f"envelope: nested {depth} deep, more than {MAX_DEPTH}")
    try:
        data = strict_json(text)
    except StrictJsonError as exc:
        raise PayloadError(f"envelope: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PayloadError(f"envelope: not JSON: {exc.msg} at char {exc.pos}") from None
    _check("envelope", data, "")
    if kind is not None and data["kind"] != kind:
        raise PayloadError(f"kind: expected {kind!r}, got {data['kind']!r}")
    _check(data["kind"], data["body"], "body")
    return Envelope(
        schema=data["schema"],
        id=data["id"],
        sender=data["sender"],
        seq=data["seq"],
        ts=float(data["ts"]),
        kind=data["kind"],
        body=data["body"],
    )


def encode(env: Envelope) -> bytes:
    """Compact UTF-8 JSON of ``env``, validated first (a bad body raises :class:`PayloadError`)."""
    data = env.to_json()
    try:
        raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise PayloadError(_short(f"body: cannot be encoded as JSON: {exc}")) from None
    out = raw.encode("utf-8")
    if len(out) > MAX_PAYLOAD:
        raise PayloadError(f"envelope: payload of {len(out)} bytes is over {MAX_PAYLOAD}")
    depth = _depth(out)
    if depth > MAX_DEPTH:
        raise PayloadError(f"envelope: nested {depth} deep, more than {MAX_DEPTH}")
    try:  # the dict as sent; what JSON makes of it only where the fast check balks
        fast = _fast("envelope").is_valid(data) and _fast(env.kind).is_valid(data["body"])
    except ValueError:  # a mapping type the compiled validator does not know
        fast = False
    if not fast:
        parsed = json.loads(raw)
        _check("envelope", parsed, "")
        _check(env.kind, parsed["body"], "body")
    return out


class Stamper:
    """Stamps bodies into envelopes for one sender: a fresh id, the next seq, the time.

    ``clock`` and ``ids`` are passed in so tests are exact. Thread-safe.

    >>> s = Stamper("t1/table", clock=lambda: 5.0, ids=lambda: "0" * 32, start_seq=41)
    >>> [s.stamp("event", {"type": "hello"}).seq for _ in range(2)]
    [41, 42]
    >>> Stamper("no sender")
    Traceback (most recent call last):
    ...
    ValueError: sender 'no sender' must look like '<table>/<component>'
    """

    def __init__(
        self,
        sender: str,
        *,
        clock: Callable[[], float] = time.time,
        ids: Callable[[], str] = lambda: uuid.uuid4().hex,
        start_seq: int = 1,
    ) -> None:
        if not isinstance(sender, str) or not _SENDER.fullmatch(sender):
            raise ValueError(f"sender {sender!r} must look like '<table>/<component>'")
        if start_seq < 1:
            raise ValueError(f"start_seq must be >= 1, not {start_seq}")
        self.sender = sender
        self._clock = clock
        self._ids = ids
        self._next = start_seq
        self._lock = threading.Lock()

    @property
    def next_seq(self) -> int:
        return self._next

    def stamp(self, kind: str, body: Mapping[str, Any]) -> Envelope:
        with self._lock:
            seq = self._next
            self._next += 1
        return Envelope(SCHEMA_VERSION, self._ids(), self.sender, seq, self._clock(), kind, body)
