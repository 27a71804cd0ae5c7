"""Kiebitz's own plain-text game record, for every game on :class:`~rules.eventlog.EventLog`.

One record is a header line, one event a line, and ``end``::

    kiebitz-record 1 frog players=3
    deal dealer=2 hands=AH.10H.KH|AD.10D.KD|QD.JD.9D widow=8D.7D.6D
    offer seat=0 game=grand
    play seat=0 card=AH
    end

An event line is its JSON ``type`` and its fields as ``name=value``: numbers,
``true``/``false``, cards in the usual notation, card lists joined by ``.`` (``-``
for none), hands joined by ``|``, text percent-encoded. Fields left at their
default are left out. Blank lines and ``#`` comments are skipped. The reader is as
strict as the JSON codec: a bad line raises :class:`InvalidEventError` naming the
line. See ``docs/records.md``.

>>> from rules.frog.game import EVENT_TYPES, Offer, Pass
>>> text = write_record("frog", {"players": 3}, [Offer(0, "grand"), Pass(1)])
>>> print(text, end="")
kiebitz-record 1 frog players=3
offer seat=0 game=grand
pass seat=1
end
>>> read_record(text, {"frog": EVENT_TYPES})
('frog', {'players': 3}, [Offer(seat=0, game='grand'), Pass(seat=1)])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any
from urllib.parse import quote, unquote

from rules.errors import InvalidEventError
from rules.events import Event, event_from_json, event_to_json

__all__ = ["HEADER", "read_record", "write_record"]

HEADER = "kiebitz-record"
VERSION = "1"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return quote(value, safe="")
    if isinstance(value, list) and value and isinstance(value[0], list):
        return "|".join(".".join(hand) or "-" for hand in value)
    if isinstance(value, list):
        return ".".join(value) or "-"
    raise TypeError(f"cannot write {value!r}")  # pragma: no cover - the codec makes these


def _rule_value(text: str) -> Any:
    """A header option as written by :func:`_value`: a number, true/false, or text."""
    if text.lstrip("-").isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text, unquote(text))


def write_record(game: str, rules: Mapping[str, Any], events: Iterable[Event]) -> str:
    """A whole record: header, the events, ``end``."""
    head = " ".join([HEADER, VERSION, game, *(f"{k}={_value(v)}" for k, v in rules.items())])
    lines = [head]
    for event in events:
        data = event_to_json(event)
        kind = data.pop("type")
        lines.append(" ".join([kind, *(f"{k}={_value(v)}" for k, v in data.items())]))
    lines.append("end")
    return "\n".join(lines) + "\n"


def _parse_value(cls: type[Event], name: str, text: str) -> Any:
    """A field's text back into its JSON value, by the field's type."""
    json_to_field = {v: k for k, v in cls.json_names.items()}
    field_name = json_to_field.get(name, name)
    kinds = {f.name: str(f.type).removesuffix(" | None") for f in fields(cls)}
    kind = kinds.get(field_name)
    if kind is None:
        return text  # the codec names the unknown field
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return text  # the codec reports the mistyped field
    if kind == "bool":
        return {"true": True, "false": False}.get(text, text)
    if kind == "str":
        return unquote(text)
    if kind == "Card":
        return text
    if kind == "tuple[Card, ...]":
        return [] if text == "-" else text.split(".")
    if kind == "tuple[tuple[Card, ...], ...]":
        return [[] if h == "-" else h.split(".") for h in text.split("|")]
    return text  # pragma: no cover


def read_record(
    text: str, games: Mapping[str, Mapping[str, type[Event]]]
) -> tuple[str, dict[str, Any], list[Event]]:
    """Read one record: ``(game, rules, events)``. ``games`` maps each game's name
    to its event registry."""
    lines: Sequence[tuple[int, str]] = [
        (n, line.split("#", 1)[0].strip()) for n, line in enumerate(text.splitlines(), start=1)
    ]
    body = [(n, line) for n, line in lines if line]
    if not body:
        raise InvalidEventError("an empty record")
    number, head = body[0]
    words = head.split()
    if len(words) < 3 or words[0] != HEADER:
        raise InvalidEventError(f"line {number}: expected '{HEADER} {VERSION} GAME …'")
    if words[1] != VERSION:
        raise InvalidEventError(f"line {number}: unknown record version {words[1]!r}")
    game = words[2]
    if game not in games:
        raise InvalidEventError(f"line {number}: unknown game {game!r}")
    rules: dict[str, Any] = {}
    for word in words[3:]:
        key, eq, value = word.partition("=")
        if not eq:
            raise InvalidEventError(f"line {number}: expected name=value, got {word!r}")
        rules[key] = _rule_value(value)
    registry = games[game]
    events: list[Event] = []
    ended = False
    for number, line in body[1:]:
        if ended:
            raise InvalidEventError(f"line {number}: text after 'end'")
        if line == "end":
            ended = True
            continue
        kind, *pairs = line.split()
        cls = registry.get(kind)
        data: dict[str, Any] = {"type": kind}
        for pair in pairs:
            key, eq, value = pair.partition("=")
            if not eq:
                raise InvalidEventError(f"line {number}: expected name=value, got {pair!r}")
            data[key] = value if cls is None else _parse_value(cls, key, value)
        try:
            events.append(event_from_json(data, registry))
        except InvalidEventError as exc:
            raise InvalidEventError(f"line {number}: {exc}") from exc
    if not ended:
        raise InvalidEventError("the record has no 'end'")
    return game, rules, events
