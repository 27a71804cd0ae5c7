"""A stored match through the engine again: the round trip of every record.

The record keeps the setup and the engine events (corrections and all) as the
referee applied them; :func:`replay` feeds them to a fresh engine of the same
game and options, so every count, score, verdict and deal result follows from
the rules again rather than from what was stored. :func:`check` compares that
with the referee's last state of the match.

>>> setup = {"game": "cribbage", "options": {"players": 2}, "dealer": 0, "contract": None}
>>> [e["type"] for e in initial_events(setup)]
['set_dealer']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from controller.recorder.store import MatchRecord
from controller.referee.service import setup_from_json
from rules.errors import RulesError
from rules.events import event_from_json, event_to_json
from rules.reading import TableReading
from rules.reading.games import READERS, engine_for
from rules.reading.table import table_scores

__all__ = ["ReplayError", "check", "initial_events", "replay", "replay_events", "steps"]

#: What :func:`check` compares between the replay and the referee's last state.
COMPARED = ("phase", "scores", "events", "verdicts")


class ReplayError(ValueError):
    """The record cannot be replayed: events missing, or one the engine refuses."""


def initial_events(setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The engine events a match's setup makes before any input (its first dealer, a
    contract given in advance): the referee applies them but never sends them."""
    reading = TableReading(setup_from_json(setup))
    return [event_to_json(e) for e in reading.game.events]


def replay_events(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Any:
    """A fresh engine of the setup's game with ``events`` applied, in order."""
    game = engine_for(str(setup["game"]), setup.get("options") or {})
    for i, data in enumerate(events):
        try:
            game.apply(event_from_json(dict(data), game.event_types))
        except RulesError as exc:
            raise ReplayError(f"event {i}: {exc}") from exc
    return game


def _whole(record: MatchRecord) -> None:
    """A record with events the recorder never received cannot be replayed."""
    if record.missing:
        shown = ", ".join(map(str, record.missing[:8]))
        raise ReplayError(
            f"match {record.row.id}: events {shown}{'…' if len(record.missing) > 8 else ''} "
            "were never received; the record cannot be replayed"
        )


def replay(record: MatchRecord) -> Any:
    """The match's engine, replayed from its record; a record with events the
    recorder never received cannot be replayed (:class:`ReplayError`)."""
    _whole(record)
    return replay_events(record.row.setup, (e for _, e, _ in record.events))


def steps(record: MatchRecord) -> Iterator[tuple[dict[str, Any], Any, Any]]:
    """The match replayed one event at a time on one engine: (the event's JSON, what
    it did, the engine after it), for exports that tell the match as it went."""
    _whole(record)
    game = engine_for(str(record.row.setup["game"]), record.row.setup.get("options") or {})
    for i, (_, data, _) in enumerate(record.events):
        try:
            outcome = game.apply(event_from_json(dict(data), game.event_types))
        except RulesError as exc:
            raise ReplayError(f"event {i}: {exc}") from exc
        yield data, outcome, game


def check(record: MatchRecord) -> list[str]:
    """Where the replay disagrees with the referee's last state of the match (empty:
    the same result). A record whose state is behind its events (the state of the
    last input that changed nothing is not sent) is compared as far as it goes."""
    game = replay(record)
    state = record.row.state
    if state is None:
        return []
    name = str(record.row.setup["game"])
    proven = READERS[name].PROVEN
    mine: dict[str, Any] = {
        "phase": game.phase,
        "events": len(game.events),
        "verdicts": [v.to_json() for v in game.verdicts if v.kind in proven],
    }
    mine.update(table_scores(name, game.summary(), game))
    return [
        f"{key}: the referee's state says {state[key]!r}, the replay {mine[key]!r}"
        for key in COMPARED
        if key in state and state[key] != mine[key]
    ]
