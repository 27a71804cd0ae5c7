"""The referee's reading of one table: observations and commands in, game events out.

:class:`TableReading` holds one match's engine and the reader of its game
(:mod:`rules.reading.cribbage`, :mod:`rules.reading.tricks`). Each input (a
:class:`~rules.reading.inputs.TableObservation` or a
:class:`~rules.reading.inputs.Command`) goes to the reader, which turns it into
engine events through the layout's zone kinds and seats, and into alerts for what
cannot be true. :meth:`TableReading.feed` returns an :class:`Update`: the events
applied (with what the engine made of them) and the alerts raised and cleared.

**Recounting.** The reader keeps the inputs of the current deal. An undo (the
last thing read is ignored) or a card replaced in this deal recounts the deal: the
engine is taken back to the start of the deal (an engine that keeps a snapshot
before every event, cribbage, pops the deal's events; another is rebuilt from the
match's events before the deal) and the deal's inputs are read again.
The update then says ``since``: the first event index whose meaning changed.
Everything is a function of the inputs in order, so a referee that replays its
input log gets the same events, the same alerts and the same alert ids.

**Verdicts and alerts.** Only what the engine *proves* (a revoke, a go said
holding a card that fitted) is a verdict. What is evidence of a misread as much
as of a fault (a card seen twice, a card out of turn, a hand shown that differs
from the cards played) is an alert, with the engine's evidence, for an operator
to confirm or dismiss.

>>> from rules.reading.inputs import Command, TableObservation as Obs
>>> from rules.cards import Card
>>> r = TableReading(TableSetup("cribbage", dealer=0))
>>> _ = r.feed(Obs("placed", Card.parse("JS"), "starter", "starter"))
>>> up = r.feed(Obs("placed", Card.parse("10H"), "play.1", "play", 1))
>>> [type(a.event).__name__ for a in up.applied], r.game.count
(['Play'], 10)
>>> up = r.feed(Obs("placed", Card.parse("5C"), "play.0", "play", 0))
>>> [(p.seat, p.points) for a in up.applied for p in a.outcome.pegged]
[(0, 2)]
>>> r.feed(Command("undo")).since, r.game.count
(1, 10)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from rules.cards import Card
from rules.errors import InvalidInputError, InvalidOptionError, RulesError
from rules.events import Correct, Event, Play, corrected
from rules.reading.inputs import Alert, Command, TableObservation

__all__ = [
    "Applied",
    "Contract",
    "DealReader",
    "Engine",
    "TableReading",
    "TableSetup",
    "Update",
    "table_scores",
]

Input = TableObservation | Command


class Engine(Protocol):
    """What the reading asks of a game engine (every game of :mod:`rules` has it)."""

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def phase(self) -> str: ...

    @property
    def turn(self) -> int | None: ...

    def apply(self, event: Event) -> Any: ...

    def summary(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Contract:
    """A trick game's contract for one deal, as the table announced it.

    ``game``: Skat ``clubs spades hearts diamonds grand null``; Frog ``frog grand``
    or a suit for a Chico (``spades``); All Fours ``stand`` or ``give`` (the
    eldest begs and the dealer gives one).
    """

    declarer: int
    game: str
    hand: bool = False
    ouvert: bool = False
    schneider: bool = False
    schwarz: bool = False
    bid: int | None = None
    turned: Card | None = None

    @classmethod
    def of(cls, command: Command) -> Contract:
        if command.declarer is None or command.contract is None:
            raise InvalidInputError("command contract: give 'declarer' and 'contract'")
        return cls(
            command.declarer,
            command.contract,
            hand=command.hand,
            ouvert=command.ouvert,
            schneider=command.schneider,
            schwarz=command.schwarz,
            bid=command.bid,
            turned=command.turned,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"declarer": self.declarer, "contract": self.game}
        for name in ("hand", "ouvert", "schneider", "schwarz"):
            if getattr(self, name):
                out[name] = True
        if self.bid is not None:
            out["bid"] = self.bid
        if self.turned is not None:
            out["turned"] = str(self.turned)
        return out


@dataclass(frozen=True, slots=True)
class TableSetup:
    """One match: the game, its rule options, the first dealer and first contract."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    contract: Contract | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "dealer": self.dealer,
            "contract": None if self.contract is None else self.contract.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Applied:
    """One engine event: its index in the log, the event, what the engine made of it."""

    index: int
    event: Event
    outcome: Any


@dataclass
class Update:
    """What one input changed."""

    applied: list[Applied] = field(default_factory=list)
    #: The first event index that changed meaning (a recount), else ``None``.
    since: int | None = None
    raised: list[Alert] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: A command that could not be carried out, in one line.
    error: str | None = None
    #: A new match began (``new_game`` with another game or options).
    new_match: bool = False
    #: The input changed what the reading holds (an event, a card pending).
    changed: bool = False

    @property
    def anything(self) -> bool:
        """Whether observers need a new state: something changed or was said."""
        return bool(
            self.changed
            or self.applied
            or self.since is not None
            or self.raised
            or self.cleared
            or self.notes
            or self.error
            or self.new_match
        )


class DealReader:
    """Base of the per-game readers: the inputs of the current deal, alerts, emitting.

    A reader is given each input of its deal through :meth:`observe` and
    :meth:`command` and calls :meth:`emit` for each engine event. Subclasses keep
    their deal's state in :meth:`reset` and say which verdict kinds the engine
    proves (:attr:`PROVEN`).
    """

    PROVEN: frozenset[str] = frozenset({"revoke"})

    def __init__(self, table: TableReading) -> None:
        self.table = table
        self.alerts: dict[str, Alert] = {}
        self.resolved: set[str] = set()
        self.renames: dict[Card, Card] = {}
        self.deal_start = len(table.game.events)
        self.reset()

    # What a game supplies ------------------------------------------------------------

    def reset(self) -> None:
        """Forget the current deal's reading (the alerts and inputs are the table's)."""

    @staticmethod
    def contract_problem(contract: Contract, rules: Any) -> str | None:
        """Why no table playing under ``rules`` can have declared ``contract`` (its
        details with its game), or None. Asked when a contract is set, by the setup
        or a ``contract`` command, so an impossible one is refused there and then
        instead of failing when the deal opens."""
        return None

    def observe(self, obs: TableObservation, card: Card) -> None:
        raise NotImplementedError

    def command(self, cmd: Command) -> None:
        self.table.fail(f"{cmd.command}: not a command for {self.table.setup.game}")

    def pending(self) -> list[dict[str, Any]]:
        """Cards seen but not yet given to the engine (behind a missing card)."""
        return []

    def start(self) -> None:
        """The match begins: the first dealer, the first contract."""

    # Helpers --------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        return self.table.game

    def emit(self, event: Event) -> Any:
        return self.table.emit(event)

    def raise_alert(self, alert: Alert) -> None:
        if alert.id in self.resolved or alert.id in self.alerts:
            return
        self.alerts[alert.id] = alert
        self.table.update.raised.append(alert)

    def clear_alert(self, alert_id: str) -> None:
        if self.alerts.pop(alert_id, None) is not None:
            self.table.update.cleared.append(alert_id)

    def clear_alerts(self, prefix: str) -> None:
        for alert_id in [a for a in self.alerts if a.startswith(prefix)]:
            self.clear_alert(alert_id)

    def new_deal(self) -> None:
        """The current input starts a deal: the inputs before it belong to the last."""
        self.table.begin_deal()


class TableReading:
    """One table's match: the engine, the reader of its game, the open alerts."""

    def __init__(self, setup: TableSetup) -> None:
        from rules.reading.games import READERS, engine_for  # the games import this module

        if setup.game not in READERS:
            raise InvalidOptionError(
                f"unknown game {setup.game!r}; expected one of {', '.join(sorted(READERS))}"
            )
        words: frozenset[str] = getattr(READERS[setup.game], "CONTRACT_WORDS", frozenset())
        if setup.contract is not None and setup.contract.game not in words:
            raise InvalidOptionError(
                f"contract {setup.contract.game!r}: {setup.game} knows "
                f"{', '.join(sorted(words)) or 'no contract'}"
            )
        self.setup = setup
        self.game: Any = engine_for(setup.game, setup.options)
        if setup.contract is not None:
            problem = READERS[setup.game].contract_problem(setup.contract, self.game.rules)
            if problem is not None:
                raise InvalidOptionError(problem)
        self._engine_for: Callable[[], Any] = lambda: engine_for(setup.game, setup.options)
        self.update = Update()
        #: The current deal's inputs (numbered), and those an undo set aside.
        self.deal_inputs: list[tuple[int, Input]] = []
        self.ignored: set[int] = set()
        self._effective: list[int] = []
        self._counter = 0
        self._current = 0
        self._replaying = False
        self._summary_key: tuple[int, int] | None = None
        self._summary: dict[str, Any] = {}
        self.reader: DealReader = READERS[setup.game](self)
        self.reader.start()
        # The setup's events (the first dealer) belong to no deal: a recount keeps them.
        self.reader.deal_start = len(self.game.events)

    # Feeding ---------------------------------------------------------------------------

    def feed(self, item: Input) -> Update:
        """Read one input; malformed commands raise :class:`InvalidInputError`."""
        self.update = update = Update()
        number = self._counter
        self._counter += 1
        if isinstance(item, Command):
            if item.command == "undo":
                self._undo()
                return update
            if item.command == "new_game" and (item.game is not None or item.options):
                self._new_match(item)
                return update
        self.deal_inputs.append((number, item))
        self._read(number, item)
        if update.error is not None and (isinstance(item, Command) or self._seatless(item)):
            # A command refused changed nothing, nor did an observation of no seat
            # here: a recount must not read it again.
            self.ignored.add(number)
        return update

    def _read(self, number: int, item: Input) -> None:
        self._current = number
        if isinstance(item, TableObservation) and self._seatless(item):
            # a layout of more seats than the game's players (or a line written by
            # hand): no seat's row to read it in, and no alert to open
            players = int(self.game.rules.players)
            where = f"zone {item.zone!r}" if item.zone else "its zone"
            self.fail(
                f"observation {item.kind} {item.card}: {where} is seat {item.seat}, "
                f"not at this table of {players} (seats 0..{players - 1})"
            )
            return
        before = (len(self.game.events), len(self.reader.pending()))
        try:
            if isinstance(item, TableObservation):
                card = self.reader.renames.get(item.card, item.card)
                self.reader.observe(item, card)
            else:
                self._command(item)
        except RulesError as exc:  # an event the engine refuses: say so, keep reading
            what = item.command if isinstance(item, Command) else f"observation {item.kind}"
            said = str(exc)  # (an engine's own "penalty: …" was "penalty: penalty: …")
            self.fail((said if said.startswith(f"{what}: ") else f"{what}: {said}")[:200])
        if (len(self.game.events), len(self.reader.pending())) != before:
            self._effective.append(number)
            self.update.changed = True

    def _seatless(self, item: Input) -> bool:
        """An observation in a zone of a seat this table has not."""
        seat = item.seat if isinstance(item, TableObservation) else None
        return seat is not None and not 0 <= seat < int(self.game.rules.players)

    def _command(self, cmd: Command) -> None:
        r = self.reader
        players = int(self.game.rules.players)
        for name in ("seat", "declarer", "dealer"):
            seat = getattr(cmd, name)
            if seat is not None and not 0 <= seat < players:
                self.fail(f"{cmd.command}: {name} {seat} is not at this table (0..{players - 1})")
                return
        if cmd.card is not None and cmd.card in r.renames:
            cmd = dataclasses.replace(cmd, card=r.renames[cmd.card])
        if cmd.command == "dismiss" or cmd.command == "confirm":
            ids = [cmd.alert] if cmd.alert is not None else list(r.alerts)[-1:]
            if not ids or ids[0] not in r.alerts:
                if not self._replaying:
                    self.fail(f"{cmd.command}: no open alert {cmd.alert or ''}".strip())
                return
            for alert_id in ids:
                r.resolved.add(alert_id)
                r.clear_alert(alert_id)
            if cmd.command == "confirm":
                r.command(dataclasses.replace(cmd, alert=ids[0]))
            return
        if cmd.command == "replace":
            self._replace(cmd)
            return
        r.command(cmd)

    def fail(self, why: str) -> None:
        if self.update.error is None:
            self.update.error = why

    def emit(self, event: Event) -> Any:
        """Apply one event to the engine, sorting its verdicts into proof and doubt."""
        index = len(self.game.events)
        outcome = self.game.apply(event)
        self.update.applied.append(Applied(index, event, outcome))
        for verdict in getattr(outcome, "verdicts", ()):
            if verdict.kind in self.reader.PROVEN:
                continue
            cards = tuple(verdict.cards)
            self.reader.raise_alert(
                Alert(
                    f"e{index}:{verdict.kind}:{verdict.seat}",
                    verdict.kind,
                    verdict.detail,
                    seat=verdict.seat,
                    trick=getattr(verdict, "trick", None),
                    cards=cards,
                    event=index,
                )
            )
        return outcome

    # Deals, undo and recounting ---------------------------------------------------------

    def begin_deal(self) -> None:
        """Called by a reader when the input being read starts a new deal."""
        if self._replaying:
            return
        current = [(n, i) for n, i in self.deal_inputs if n == self._current]
        self.deal_inputs = current
        self.ignored = set()
        self._effective = []
        r = self.reader
        for alert_id in list(r.alerts):
            r.clear_alert(alert_id)
        r.resolved = set()
        r.renames = {}
        r.deal_start = len(self.game.events)
        r.reset()

    def _undo(self) -> None:
        live = [n for n in self._effective if n not in self.ignored]
        if not live:
            self.fail("undo: nothing read in this deal to undo")
            return
        self.ignored.add(live[-1])
        self._effective.remove(live[-1])
        self.update.notes.append("the last card read is set aside; the deal is recounted")
        self.recount()

    def _replace(self, cmd: Command) -> None:
        if cmd.event is None or cmd.old is None or cmd.new is None:
            self.fail("replace: give 'event', 'old' and 'new'")
            return
        r = self.reader
        if self._replaying:  # read once already: a rename of this deal, or a correction
            if cmd.event < r.deal_start:
                self.emit(Correct(cmd.event, cmd.old, cmd.new))
            return
        events = self.game.events
        if not 0 <= cmd.event < len(events):
            self.fail(f"replace: there is no event {cmd.event}")
            return
        if cmd.old not in corrected(events)[cmd.event].cards():
            self.fail(f"replace: event {cmd.event} does not name {cmd.old}")
            return
        if cmd.event >= r.deal_start:
            seen = {k for k, v in r.renames.items() if v == cmd.old} | {cmd.old}
            for k in seen:
                r.renames[k] = cmd.new
            self.update.notes.append(
                f"event {cmd.event}: {cmd.old} corrected to {cmd.new}; the deal is recounted"
            )
            self.recount()
            return
        self.emit(Correct(cmd.event, cmd.old, cmd.new))

    def recount(self) -> None:
        """Take the engine back to the start of the deal and read the deal's inputs again."""
        r = self.reader
        start = r.deal_start
        if getattr(self.game, "snapshots", False):
            # an engine that keeps its state before every event (cribbage) is taken
            # back to the deal's start by popping the deal's events; rebuilt, the
            # whole match was replayed for every undo (a match's log of 10,000 lines with an undo
            # every fourth or so: 2,119 undos replayed 3.2 million events, 134 s)
            for _ in range(len(self.game.events) - start):
                self.game.undo()
        else:
            prefix = self.game.events[:start]
            game = self._engine_for()
            for event in prefix:
                game.apply(event)
            self.game = game
        # the engine's summary was kept by its length, which a recount gives again
        self._summary_key = None
        resolved = set(r.resolved)
        renames = dict(r.renames)
        old_alerts = dict(r.alerts)
        r.alerts = {}
        r.resolved = resolved
        r.renames = renames
        r.reset()
        self.update.since = start
        self.update.applied = []
        self.update.raised = []
        self._effective = []
        self._replaying = True
        try:
            for number, item in self.deal_inputs:
                if number in self.ignored:
                    continue
                self._read(number, item)
        finally:
            self._replaying = False
        self.update.error = None  # what a recount re-read was said when it came
        self.update.cleared = [a for a in old_alerts if a not in r.alerts]
        self.update.raised = [a for k, a in r.alerts.items() if k not in old_alerts]

    def _new_match(self, cmd: Command) -> None:
        options = dict(cmd.options)
        setup = TableSetup(
            cmd.game or self.setup.game,
            options,
            dealer=cmd.dealer,
            contract=None,
        )
        try:
            fresh = TableReading(setup)
        except RulesError as exc:
            self.fail(f"new_game: {exc}"[:200])
            return
        self.__dict__.update(
            {k: v for k, v in fresh.__dict__.items() if k not in ("update", "_counter")}
        )
        self.reader.table = self
        self.update.new_match = True
        self.update.notes.append(f"a new match of {setup.game}")

    # Views ---------------------------------------------------------------------------

    @property
    def alerts(self) -> list[Alert]:
        return list(self.reader.alerts.values())

    def plays(self, since: int = 0) -> list[dict[str, Any]]:
        """Every card played (from event ``since``), in order, as the engine has them
        (corrections applied)."""
        return [
            {"seat": e.seat, "card": str(e.card)}
            for e in corrected(self.game.events)[since:]
            if isinstance(e, Play)
        ]

    def verdicts(self) -> list[dict[str, Any]]:
        """The verdicts the engine proved (:attr:`DealReader.PROVEN`)."""
        proven = self.reader.PROVEN
        return [v.to_json() for v in self.game.verdicts if v.kind in proven]

    def summary(self) -> dict[str, Any]:
        """The table's state for observers (the retained ``game/state`` body): the
        plays of the current deal (from event ``deal_start``), the scores, the open
        alerts, the verdicts proved, and the engine's own summary."""
        key = (id(self.game), len(self.game.events))
        if self._summary_key != key:  # the engine's own summary changes only with an event
            self._summary_key, self._summary = key, self.game.summary()
        engine = self._summary
        out: dict[str, Any] = {
            "game": self.setup.game,
            "setup": self.setup.to_json(),
            "players": self.game.rules.players,
            "phase": self.game.phase,
            "turn": self.game.turn,
            "dealer": engine.get("dealer"),
            "events": len(self.game.events),
            "deal_start": self.reader.deal_start,
            "plays": self.plays(self.reader.deal_start),
            "verdicts": self.verdicts(),
            "alerts": [a.to_json() for a in self.alerts],
            "pending": self.reader.pending(),
            "engine": engine,
        }
        out.update(table_scores(self.setup.game, engine, self.game))
        return out


def table_scores(game: str, engine: Mapping[str, Any], live: Any) -> dict[str, Any]:
    """Scores by seat (or by side), and the pegs where the game pegs: the state's
    score fields from the engine's ``summary()`` (``engine``) and the engine itself."""
    if game == "cribbage":
        return {
            "scores": list(engine["scores"]),
            "score_by": "team" if live.rules.teams != live.rules.players else "seat",
            "pegs": engine["pegs"],
            "games_won": engine["games_won"],
            "count": engine["count"],
        }
    if game == "skat":
        return {"scores": list(engine["pad"]), "score_by": "seat"}
    totals: Sequence[int] = getattr(live, "totals", None) or getattr(live, "scores", None) or ()
    by = "team" if game == "allfours" and live.rules.players == 4 else "seat"
    return {"scores": list(totals), "score_by": by}


#: Zone kinds where a card lies in front of a seat, played by it.
SEAT_ZONES: Final = frozenset({"play", "trick"})
