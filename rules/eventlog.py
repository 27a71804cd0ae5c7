"""What every game's event log does alike: steps, corrections, undo, records.

A game is its event log. Each event is refereed by a step (:class:`Step`) that
collects the verdicts and notes it raises; a ``correct`` event replaces a card of
an earlier event and the state is rebuilt by replaying the log; undo pops the last
event and replays the rest, or, for a game that keeps a snapshot of its state
after every event (``snapshots = True``: cribbage, whose referee undoes and
corrects often), pops the last snapshot. :class:`EventLog` does this for a game
that supplies its state, its step, its referee and its outcome.

>>> from rules.events import Play
>>> from rules.cards import parse_cards
>>> events = [Play(0, parse_cards("AS")[0]), Correct(0, *parse_cards("AS KS"))]
>>> corrected(events)[0]
Play(seat=0, card=Card.parse('KS'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from rules.cards import Card
from rules.errors import InvalidEventError, InvalidOptionError
from rules.events import (
    Correct,
    Event,
    corrected,
    event_from_json,
    event_to_json,
    replace_card,
)
from rules.tricks.record import read_record, write_record
from rules.verdicts import Verdict

__all__ = [
    "SUMMARY_KEYS",
    "EventLog",
    "Step",
    "apply_all",
    "check_seats",
    "events_of",
]


#: The keys every game's ``summary()`` has (:meth:`EventLog._summary`).
SUMMARY_KEYS: Final = ("game", "phase", "turn", "dealer", "scores", "score_by", "verdicts")


class Step:
    """Collects what one event does: the verdicts it raises and notes for people."""

    __slots__ = ("index", "notes", "verdicts")

    def __init__(self, index: int) -> None:
        self.index = index
        self.verdicts: list[Verdict] = []
        self.notes: list[str] = []

    def flag(
        self,
        kind: type[Verdict],
        seat: int | None,
        trick: int | None,
        cards: Sequence[Card],
        detail: str,
    ) -> None:
        self.verdicts.append(kind(self.index, seat, trick, tuple(cards), detail))


def check_seats(event: Event, players: int) -> None:
    """Raise unless the event's ``seat`` and ``dealer`` (where given) are seats."""
    for name in ("seat", "dealer"):
        who = getattr(event, name, None)
        if who is not None and (
            isinstance(who, bool) or not isinstance(who, int) or not 0 <= who < players
        ):
            raise InvalidEventError(
                f"{event.type}: {name} {who!r} is not a seat (0..{players - 1})"
            )


def apply_all(
    apply: Callable[[Any], object],
    events: Iterable[Any],
    parse: Callable[[Any], Event] | None = None,
) -> None:
    """Apply events in order (each parsed first, if ``parse``); a malformed one
    raises, naming its place."""
    for i, event in enumerate(events):
        try:
            apply(event if parse is None else parse(event))
        except InvalidEventError as exc:
            raise InvalidEventError(f"event {i}: {exc}") from exc


def events_of(data: Mapping[str, Any]) -> list[Any]:
    """A game record's ``events`` list, unparsed."""
    events = data.get("events")
    if not isinstance(events, list):
        raise InvalidEventError("'events' must be a list")
    return events


class _HasVerdicts(Protocol):
    verdicts: list[Verdict]


class _HasJson(Protocol):
    def to_json(self) -> dict[str, Any]: ...


StateT = TypeVar("StateT", bound=_HasVerdicts)
StepT = TypeVar("StepT", bound=Step)
OutcomeT = TypeVar("OutcomeT")
RulesT = TypeVar("RulesT", bound=_HasJson)


class EventLog(Generic[RulesT, StateT, StepT, OutcomeT]):
    """A game as its event log, with corrections and undo.

    A game names itself (``name``, as records spell it; ``title`` and
    ``a_title``, with its article, for messages), its events and its rules, and
    supplies a fresh state, a step, the referee of one event and the outcome of one.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    a_title: ClassVar[str]
    event_types: ClassVar[Mapping[str, type[Event]]]
    rules_type: ClassVar[Callable[..., Any]]
    schema: ClassVar[int] = 1
    #: Keep the state before every event, so that undo is a pop, not a replay (the
    #: game supplies :meth:`_copy_state`); each event is then refereed on a copy.
    snapshots: ClassVar[bool] = False
    #: What a correction's note adds ("; the game is recounted").
    recount: ClassVar[str] = ""
    #: Whether the game plays tricks: one without (cribbage) leaves a verdict's
    #: ``trick`` out of its summary, as its records always have.
    tricks: ClassVar[bool] = True

    def __init__(self, rules: RulesT) -> None:
        self.rules = rules
        self._events: list[Event] = []
        self._state = self._new_state()
        #: With ``snapshots``: the state before each event of the log.
        self._history: list[StateT] = []

    # What a game supplies -------------------------------------------------------------

    def _new_state(self) -> StateT:
        raise NotImplementedError

    def _new_step(self, index: int) -> StepT:
        raise NotImplementedError

    def _copy_state(self, st: StateT) -> StateT:
        """A copy of the state that the next event may change (with ``snapshots``)."""
        raise NotImplementedError

    def _step(self, st: StateT, e: Event, step: StepT) -> None:
        raise NotImplementedError

    def _validate(self, event: Event) -> None:
        raise NotImplementedError

    def _outcome(
        self, verdicts: tuple[Verdict, ...], notes: tuple[str, ...], step: StepT | None
    ) -> OutcomeT:
        raise NotImplementedError

    # What every game shows ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        raise NotImplementedError

    @property
    def turn(self) -> int | None:
        raise NotImplementedError

    @property
    def dealer(self) -> int | None:
        raise NotImplementedError

    def _summary(self, scores: Sequence[int], score_by: str = "seat") -> dict[str, Any]:
        """The keys every game's ``summary()`` starts with (:data:`SUMMARY_KEYS`):
        ``scores`` by seat, or by side where sides score together (``score_by``
        ``"team"``)."""
        return {
            "game": self.name,
            "phase": self.phase,
            "turn": self.turn,
            "dealer": self.dealer,
            "scores": list(scores),
            "score_by": score_by,
            "verdicts": [x.to_json(trick=self.tricks) for x in self._state.verdicts],
        }

    # The log --------------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> StateT:
        return self._state

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        return tuple(self._state.verdicts)

    def apply(self, event: Event) -> OutcomeT:
        """Apply the next event; malformed events raise, changing nothing."""
        self._validate(event)
        index = len(self._events)
        if isinstance(event, Correct):
            return self._correct(event)
        step = self._new_step(index)
        if self.snapshots:
            state = self._copy_state(self._state)
            self._step(state, event, step)
            state.verdicts.extend(step.verdicts)
            self._history.append(self._state)
            self._state = state
        else:
            self._step(self._state, event, step)
            self._state.verdicts.extend(step.verdicts)
        self._events.append(event)
        return self._outcome(tuple(step.verdicts), tuple(step.notes), step)

    def _correct(self, event: Correct) -> OutcomeT:
        """A misread card put right: the log is replayed with the card corrected."""
        index = len(self._events)
        if not 0 <= event.index < index or isinstance(self._events[event.index], Correct):
            raise InvalidEventError(f"correct: no event {event.index} with cards to correct")
        effective = corrected(self._events)
        effective[event.index] = replace_card(effective[event.index], event.old, event.new)
        self._validate(effective[event.index])
        effective.append(event)
        before = self._state
        self._state = self._replay(effective)
        if self.snapshots:
            self._history.append(before)
        self._events.append(event)
        raised = tuple(x for x in self._state.verdicts if x not in before.verdicts)
        note = f"event {event.index}: {event.old} corrected to {event.new}{self.recount}"
        return self._outcome(raised, (note,), None)

    def undo(self) -> Event:
        """Pop the last event; the state is exactly what it was before it."""
        if not self._events:
            raise IndexError("undo: no event to undo")
        event = self._events.pop()
        if self.snapshots:
            self._state = self._history.pop()
        else:
            self._state = self._replay(corrected(self._events))
        return event

    def _replay(self, effective: Sequence[Event]) -> StateT:
        state = self._new_state()
        for i, e in enumerate(effective):
            if isinstance(e, Correct):
                continue
            step = self._new_step(i)
            self._step(state, e, step)
            state.verdicts.extend(step.verdicts)
        return state

    # Records ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "game": self.name,
            "rules": self.rules.to_json(),
            "events": [event_to_json(e) for e in self._events],
        }

    def to_record(self) -> str:
        """The game as a plain-text record (:mod:`rules.tricks.record`)."""
        return write_record(self.name, self.rules.to_json(), self._events)

    @classmethod
    def from_record(cls, text: str) -> Self:
        """Replay a plain-text record (:mod:`rules.tricks.record`)."""
        _, rules, events = read_record(text, {cls.name: cls.event_types})
        unknown = set(rules) - set(cls._rule_fields())
        if unknown:
            raise InvalidOptionError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        game = cls(cls.rules_type(**rules))
        apply_all(game.apply, events)
        return game

    @classmethod
    def from_json(cls, data: Any) -> Self:
        if not isinstance(data, dict) or data.get("game") != cls.name:
            raise InvalidEventError(f"not {cls.a_title} game record")
        rules = data.get("rules", {})
        if not isinstance(rules, dict) or set(rules) - set(cls._rule_fields()):
            raise InvalidOptionError(f"unknown {cls.title} rule option")
        game = cls(cls.rules_type(**rules))
        apply_all(game.apply, events_of(data), cls._parse)
        return game

    @classmethod
    def _parse(cls, raw: Any) -> Event:
        return event_from_json(raw, cls.event_types)

    @classmethod
    def _rule_fields(cls) -> Iterable[str]:
        fields: Mapping[str, Any] = getattr(cls.rules_type, "__dataclass_fields__", {})
        return fields
