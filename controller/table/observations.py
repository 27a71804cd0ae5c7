"""Observation bodies for ``table/observation``: from the tracker, or from recorded lines.

Pure: no bus, no I/O beyond reading the file it is given. A body has exactly the
fields of ``controller/bus/schemas/observation.schema.json``: ``kind, card, zone,
zone_kind, seat, from_zone, t, confidence`` and, when known, ``frames`` and
``position_mm``. ``zone_kind`` and ``seat`` come from the table layout's zone.

>>> from vision.tracker import Observation
>>> obs = Observation("placed", "10H", "play.0", None, 812.4, 812.1, 5, 0.97, 212.0, 140.5)
>>> observation_body(obs, None)["zone_kind"] is None
True
>>> import io
>>> lines = io.StringIO('{"status": "calibrated", "error_mm": 0.4}\\n'
...                     '{"kind": "removed", "card": "QS", "zone": null, "from_zone": "crib",'
...                     ' "t": 3.5, "since": 3.1, "frames": 4, "confidence": 0.9}\\n')
>>> [b["card"] for b in read_observation_lines(lines)]
['QS']
>>> list(read_observation_lines(io.StringIO('{"kind": "placed"}\\n')))
Traceback (most recent call last):
...
ValueError: line 1: body: 'card' is a required property
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from controller.bus.envelope import PayloadError, StrictJsonError, strict_json, validate_body
from rules.cards import parse_card
from rules.errors import InvalidCardError, InvalidInputError
from rules.reading import parse_input
from vision.layout import TableLayout
from vision.tracker import Observation

__all__ = ["NOT_OBSERVATIONS", "observation_body", "read_observation_lines"]

#: Keys of the lines ``kiebitz vision watch`` prints that are not observations.
NOT_OBSERVATIONS = frozenset({"status", "reading", "warning", "error"})

_FIELDS = ("kind", "card", "zone", "zone_kind", "seat", "from_zone", "t", "confidence")
_OPTIONAL = ("frames", "position_mm")


def _zone_facts(zone: str | None, layout: TableLayout | None) -> tuple[str | None, int | None]:
    if zone is None or layout is None:
        return None, None
    try:
        found = layout.zone(zone)
    except KeyError:
        return None, None
    return found.kind, found.seat


def _clip01(value: float) -> float:
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def observation_body(obs: Observation, layout: TableLayout | None) -> dict[str, Any]:
    """The ``observation`` body of a tracker observation; a removed card has zone null.

    >>> from vision.tracker import Observation
    >>> obs = Observation("moved", "QH", "crib", "play.1", 4.25, 4.0, 3, 0.9123, 10.04, 5.0)
    >>> observation_body(obs, None)
    {'kind': 'moved', 'card': 'QH', 'zone': 'crib', 'zone_kind': None, 'seat': None, \
'from_zone': 'play.1', 't': 4.25, 'confidence': 0.912, 'frames': 3, 'position_mm': [10.0, 5.0]}
    """
    zone = None if obs.kind == "removed" else obs.zone
    zone_kind, seat = _zone_facts(zone, layout)
    body: dict[str, Any] = {
        "kind": obs.kind,
        "card": obs.card,
        "zone": zone,
        "zone_kind": zone_kind,
        "seat": seat,
        "from_zone": obs.from_zone,
        "t": round(max(0.0, obs.t), 3),
        "confidence": round(_clip01(obs.confidence), 3),
        "frames": max(0, int(obs.frames)),
    }
    if math.isfinite(obs.x_mm) and math.isfinite(obs.y_mm):
        body["position_mm"] = [round(obs.x_mm, 1), round(obs.y_mm, 1)]
    return body


def _line_body(data: dict[str, Any], layout: TableLayout | None) -> dict[str, Any]:
    """A line of ``kiebitz vision watch`` (or a whole body) as a body: ``since`` dropped,
    ``zone_kind``/``seat`` from the layout where the line has none."""
    body = {k: data[k] for k in (*_FIELDS, *_OPTIONAL) if k in data}
    unknown = set(data) - set(body) - {"since"}
    if unknown:
        raise PayloadError(f"body: unknown field(s) {', '.join(sorted(unknown))}")
    if body.get("kind") == "removed":
        body["zone"] = None
    body.setdefault("zone", None)
    body.setdefault("from_zone", None)
    zone_kind, seat = _zone_facts(body["zone"], layout)
    if body.get("zone_kind") is None:
        body["zone_kind"] = zone_kind
    if body.get("seat") is None:
        body["seat"] = seat
    body.setdefault("confidence", 1.0)
    card = body.get("card")
    if isinstance(card, str):
        # the card as the rules read it (`TH`, `10h`, `Q♠`), in the bus's one spelling:
        # `referee --replay` read such a file and `run --observations` refused it
        with contextlib.suppress(InvalidCardError):  # (said by the schema, as before)
            body["card"] = str(parse_card(card))
    validate_body("observation", body)
    out = {k: body[k] for k in (*_FIELDS, *_OPTIONAL) if k in body}
    try:  # as the referee will read it: a t it refuses lost the card, status 0 (a probe)
        parse_input(out)
    except InvalidInputError as exc:
        raise PayloadError(str(exc)) from None
    return out


_LINE_END = re.compile(rb"\r\n?")
#: The longest line of a recorded file, in bytes (as ``kiebitz referee --replay``'s)
MAX_LINE = 1 << 16


def _text_lines(handle: IO[bytes]) -> Iterator[str]:
    """The lines of a file read as bytes, each decoded as UTF-8 on its own, so that
    a line in another encoding is named by its number (a whole-file decoder said
    only which byte of which block of the file it stumbled on). A file of UTF-16
    text (a Windows editor's "Unicode") is said so, not "line 1: not UTF-8"."""
    from controller.cli_io import not_utf8

    peek = getattr(handle, "peek", None)
    why = not_utf8(peek(512)[:512]) if peek is not None else None
    if why is not None:
        raise ValueError(why)
    number = 0
    while raw := handle.readline(MAX_LINE + 2):
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            # one of 200 MB was held whole, and then its copies: a line of an
            # observation is a few hundred bytes
            raise ValueError(f"line {number + 1}: longer than {MAX_LINE:,} bytes")
        # a line ends at LF, CRLF or a lone CR (an old Mac's), as text mode reads it
        for piece in _LINE_END.split(raw.rstrip(b"\r\n")):
            number += 1
            try:  # a byte-order mark, as some editors write UTF-8, is allowed
                yield piece.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"line {number}: not UTF-8 text (byte {exc.start})") from None


def read_observation_lines(
    path_or_file: str | Path | IO[str], *, layout: TableLayout | None = None
) -> Iterator[dict[str, Any]]:
    """Observation bodies from a JSON-lines file as ``kiebitz vision watch`` prints it.

    ``{"status": …}``, ``{"reading": …}``, ``{"warning": …}`` and ``{"error": …}``
    lines and blank lines are skipped; any other line must be an observation (or
    a whole body), else :class:`ValueError` names the line number and what is wrong.
    A line without ``t`` (as ``kiebitz referee --replay`` reads one: a file written
    by hand) is taken at the time of the line before it, the first at 0.

    >>> import io
    >>> [b["t"] for b in read_observation_lines(io.StringIO(
    ...     '{"kind": "placed", "card": "5H", "zone": "crib"}\\n'
    ...     '{"kind": "placed", "card": "5S", "zone": "crib", "t": 2.5}\\n'
    ...     '{"kind": "placed", "card": "5D", "zone": "crib"}\\n'))]
    [0.0, 2.5, 2.5]
    """
    if isinstance(path_or_file, str | Path):
        with open(path_or_file, "rb") as handle:
            yield from read_observation_lines(_text_lines(handle), layout=layout)
        return
    last_t = 0.0  # the time of a line without one: the line before's
    for number, line in enumerate(path_or_file, start=1):
        if not line.strip():
            continue
        try:
            # NaN, Infinity and 1e999 are not numbers JSON allows: a line with one was
            # taken, and then not sent (the bus cannot encode it) with a warning that
            # named no line, and the run said status 0
            data = strict_json(line)
        except StrictJsonError as exc:
            raise ValueError(f"line {number}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number}: not JSON: {exc.msg} at char {exc.pos}") from None
        if not isinstance(data, dict):
            raise ValueError(f"line {number}: expected an object, got {type(data).__name__}")
        if NOT_OBSERVATIONS & data.keys():
            continue
        # `referee --replay` took a line without "t" and `run --observations` refused
        # it (a sweep's find): the table is paced by t, so such a line comes at once
        data.setdefault("t", last_t)
        try:
            body = _line_body(data, layout)
        except PayloadError as exc:
            raise ValueError(f"line {number}: {exc}") from None
        last_t = body["t"]
        yield body
