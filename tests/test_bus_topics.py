"""Topic names under kiebitz/v1/<table>/."""

import pytest

from controller.bus import topics as t


@pytest.mark.parametrize("suffix", [t.OBSERVATION, t.COMMAND, t.EVENT, t.STATE, "status/referee"])
def test_topic_round_trip(suffix: str) -> None:
    assert t.parse_topic(t.topic("club_7", suffix)) == ("club_7", suffix)


@pytest.mark.parametrize("table", ["", "T1", "-a", "a b", "a/b", "x" * 33, "tisch+1", "#"])
def test_bad_table_ids_are_named(table: str) -> None:
    with pytest.raises(t.TopicError, match="table id"):
        t.check_table_id(table)
    with pytest.raises(ValueError):
        t.topic(table, t.EVENT)


@pytest.mark.parametrize(
    "topic",
    [
        "kiebitz/v2/t1/game/event",
        "kiebitz/v1/t1",
        "kiebitz/v1/T1/game/event",
        "other/v1/t1/game/event",
        "kiebitz/v1/t1/game//event",
        "kiebitz/v1/t1/game/+",
    ],
)
def test_foreign_topics_raise_naming_the_topic(topic: str) -> None:
    with pytest.raises(t.TopicError) as info:
        t.parse_topic(topic)
    assert repr(topic) in str(info.value)


def test_wildcards() -> None:
    assert t.all_tables(t.EVENT) == "kiebitz/v1/+/game/event"
    assert t.all_tables("status/+") == "kiebitz/v1/+/status/+"
    with pytest.raises(t.TopicError):
        t.all_tables("#/status")
    assert t.status_topic("t1", "table") == "kiebitz/v1/t1/status/table"
