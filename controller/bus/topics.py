"""MQTT topic names of Kiebitz: everything lives under ``kiebitz/v1/<table>/``.

Pure: no paho, no I/O.

>>> topic("club-3", OBSERVATION)
'kiebitz/v1/club-3/table/observation'
>>> parse_topic("kiebitz/v1/club-3/status/referee")
('club-3', 'status/referee')
>>> status_topic("t1", "referee")
'kiebitz/v1/t1/status/referee'
>>> all_tables(STATE)
'kiebitz/v1/+/game/state'
"""

from __future__ import annotations

import re

from controller.bus.errors import TopicError

__all__ = [
    "COMMAND",
    "EVENT",
    "OBSERVATION",
    "PREFIX",
    "STATE",
    "STATUS",
    "TABLE_EVENT",
    "TopicError",
    "all_tables",
    "check_table_id",
    "parse_topic",
    "status_topic",
    "topic",
]

PREFIX = "kiebitz/v1"
OBSERVATION = "table/observation"
COMMAND = "table/command"
TABLE_EVENT = "table/event"  # the table service's own events (errors): not a game topic
EVENT = "game/event"
STATE = "game/state"
STATUS = "status"  # the status topic is kiebitz/v1/<table>/status/<component>

_TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_SUFFIX_PART = re.compile(r"[A-Za-z0-9_.-]+")


def check_table_id(table: str) -> str:
    """Return ``table`` when it is a valid table id, else raise :class:`TopicError`.

    >>> check_table_id("t1")
    't1'
    >>> check_table_id("Table 1")
    Traceback (most recent call last):
    ...
    controller.bus.errors.TopicError: table id 'Table 1' must match [a-z0-9][a-z0-9_-]{0,31}
    """
    if not isinstance(table, str) or not _TABLE_ID.fullmatch(table):
        raise TopicError(f"table id {table!r} must match {_TABLE_ID.pattern}")
    return table


def _check_suffix(suffix: str, *, wildcards: bool = False) -> str:
    if not isinstance(suffix, str) or not suffix:
        raise TopicError(f"topic suffix {suffix!r} is empty")
    for part in suffix.split("/"):
        if wildcards and part in ("+", "#"):
            continue
        if not _SUFFIX_PART.fullmatch(part):
            raise TopicError(f"topic suffix {suffix!r} has a bad level {part!r}")
    if wildcards and "#" in suffix.split("/")[:-1]:
        raise TopicError(f"topic suffix {suffix!r}: '#' must be the last level")
    return suffix


def topic(table: str, suffix: str) -> str:
    """The full topic of ``suffix`` (one of the constants) on ``table``.

    >>> topic("t1", EVENT)
    'kiebitz/v1/t1/game/event'
    >>> topic("t1", "bad topic")
    Traceback (most recent call last):
    ...
    controller.bus.errors.TopicError: topic suffix 'bad topic' has a bad level 'bad topic'
    """
    return f"{PREFIX}/{check_table_id(table)}/{_check_suffix(suffix)}"


def status_topic(table: str, component: str) -> str:
    """The retained status topic of ``component`` on ``table``.

    >>> status_topic("t1", "table")
    'kiebitz/v1/t1/status/table'
    """
    return topic(table, f"{STATUS}/{component}")


def parse_topic(topic: str) -> tuple[str, str]:
    """Split a Kiebitz topic into (table, suffix); :class:`TopicError` if it is not ours.

    >>> parse_topic("kiebitz/v1/t1/game/state")
    ('t1', 'game/state')
    >>> parse_topic("homeassistant/light")
    Traceback (most recent call last):
    ...
    controller.bus.errors.TopicError: topic 'homeassistant/light' is not under kiebitz/v1/<table>/
    """
    parts = topic.split("/", 3) if isinstance(topic, str) else []
    if len(parts) != 4 or f"{parts[0]}/{parts[1]}" != PREFIX:
        raise TopicError(f"topic {topic!r} is not under {PREFIX}/<table>/")
    table, suffix = parts[2], parts[3]
    try:
        check_table_id(table)
        _check_suffix(suffix)
    except TopicError as exc:
        raise TopicError(f"topic {topic!r}: {exc}") from None
    return table, suffix


def all_tables(suffix: str) -> str:
    """A subscription pattern for ``suffix`` on every table.

    >>> all_tables("status/#")
    'kiebitz/v1/+/status/#'
    """
    return f"{PREFIX}/+/{_check_suffix(suffix, wildcards=True)}"
