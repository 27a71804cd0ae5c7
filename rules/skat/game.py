"""A Skat table as a sequence of events, with undo.

The game is its event log: :meth:`SkatGame.apply` takes the next event and returns
what it flagged and, at the end of a deal, the deal's result; :meth:`SkatGame.undo`
pops the last event and the state is rebuilt by replaying the log, so the score
pad follows. A card seen played stays played: what is wrong is a verdict with
evidence, and where the laws say an irregularity decides the game (Laws 26, 32,
46, 48-53) the earliest one decides it, the play going on "to see if he can make
schneider or schwarz". Only malformed events raise
:class:`~rules.errors.InvalidEventError`, leaving the game as it was.

Seats are numbered clockwise 0 to n-1. With three at the table "Hinterhand shall
deal" (Law 15): the dealer's left is Vorhand, then Mittelhand. With four or more
"the dealer takes no cards, but gives cards to the two sitting immediately on his
left and to the one next him on his right" (Law 14).

>>> from rules.cards import parse_cards
>>> g = SkatGame()
>>> hands = (parse_cards("JC JS AH 10H KH QH 9H AS 10S KS"),
...          parse_cards("JH JD AC 10C KC QC 9C 8C 7C AD"),
...          parse_cards("10D KD QD 9D 8D 7D QS 9S 8S 7S"))
>>> for e in [Deal(dealer=2, hands=hands, skat=tuple(parse_cards("8H 7H"))),
...           Bid(1, 18), Hold(0), Pass(1), Pass(2), Declare(0, "hearts", hand=True)]:
...     _ = g.apply(e)
>>> g.phase, g.turn, g.deal.bidding.value
('play', 0, 18)
>>> out = g.apply(Play(0, parse_cards("JC")[0]))
>>> out = g.apply(Play(1, parse_cards("7C")[0]))  # Mittelhand holds two jacks
>>> [(v.kind, v.seat, v.trick, [str(c) for c in v.cards]) for v in out.verdicts]
[('revoke', 1, 1, ['7C', 'JH'])]
>>> g.undo()
Play(seat=1, card=Card.parse('7C'))
>>> g.verdicts
()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, NamedTuple

from rules.cards import SKAT_DECK, Card
from rules.errors import InvalidEventError
from rules.events import corrected, replace_card
from rules.skat import verdicts as v
from rules.skat.bidding import Bidding
from rules.skat.declaration import (
    CARD_POINTS,
    SUIT_GAMES,
    Declaration,
    contract_for,
    trump_sequence,
)
from rules.skat.events import (
    Bid,
    Claim,
    Concede,
    Correct,
    Deal,
    Declare,
    Discard,
    Event,
    Hold,
    Kontra,
    LookBack,
    Pass,
    Penalty,
    PickUp,
    Play,
    Re,
    SetDealer,
    SkatSeen,
    SkatShown,
    event_from_json,
    event_to_json,
)
from rules.skat.rulesets import SkatRules
from rules.skat.values import (
    GameValue,
    bid_values,
    game_name,
    ramsch_charges,
    score_game,
)
from rules.tricks.contract import SUIT_NO, index_of
from rules.tricks.game import Step, apply_all, check_seats, events_of
from rules.tricks.play import ASIDE, Trick, TrickPlay
from rules.tricks.verdicts import TrickVerdict

__all__ = ["DealResult", "DealState", "Outcome", "SkatGame", "SkatState", "positions"]

SCHEMA: Final = 1
_DECK: Final = frozenset(SKAT_DECK)
#: The Skat pack's ranks: a card is of the pack if its rank is (every suit is).
_RANKS: Final = frozenset(c.rank for c in SKAT_DECK)
_CLAIMS: Final = ("won", "schneider", "defeated", "rest", "open")
_BID_VERDICTS: Final[dict[str, type[TrickVerdict]]] = {
    "bid-out-of-turn": v.BidOutOfTurn,
    "bid-after-pass": v.BidAfterPass,
    "bid-too-low": v.BidTooLow,
    "invalid-bid": v.InvalidBid,
    "out-of-phase": v.OutOfPhase,
}


def positions(dealer: int, players: int) -> tuple[int, int, int]:
    """The seats of Vorhand, Mittelhand and Hinterhand for a dealer (Laws 14-15).

    >>> positions(2, 3), positions(0, 4), positions(0, 6)
    ((0, 1, 2), (1, 2, 3), (1, 2, 5))
    """
    if players == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    return ((dealer + 1) % players, (dealer + 2) % players, (dealer - 1) % players)


_DECK_IX: Final = tuple((c, index_of(c)) for c in SKAT_DECK)


@cache
def _allowed_bids(rules: SkatRules) -> frozenset[int]:
    return frozenset(bid_values(rules))


@cache
def _sequence_ix(game: str) -> tuple[int, ...]:
    return tuple(index_of(c) for c in trump_sequence(game))


def _count_matadors(held: Sequence[bool | None]) -> int | None:
    """Matadors from the trump sequence, top down: held or not (``None``: not seen).

    >>> _count_matadors([True, True, False, None]), _count_matadors([False, None])
    (2, None)
    """
    if not held:
        return 0
    with_ = held[0]
    count = 0
    for h in held:
        if h is None:
            return None
        if h != with_:
            break
        count += 1
    return count if with_ else -count


def _points(cards: Iterable[Card]) -> int:
    return sum(CARD_POINTS.get(c.rank, 0) for c in cards)


class DealResult(NamedTuple):
    """The end of one deal, as the score pad and the records need it (a named tuple:
    immutable, and cheap to build once a deal).

    ``value`` is the score-pad entry of the single player (Law 58); ``changes`` the
    entry of every seat (Ramsch charges the loser; a penalty its seat);
    ``tournament`` the Seeger-Fabian points of every seat (ISkO), else ``None``.
    ``points``/``tricks`` are the single player's; ``value`` is ``None`` while the
    cards that decide the matadors are unseen.
    """

    deal: int
    kind: str  # "game", "passed", "ramsch"
    declarer: int | None = None
    game: str | None = None
    name: str | None = None
    bid: int = 0
    won: bool | None = None
    value: int | None = None
    matadors: int | None = None
    points: int | None = None
    tricks: int | None = None
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    decided_by: str | None = None
    changes: tuple[int, ...] = ()
    tournament: tuple[int, ...] | None = None
    ramsch_points: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "kind": self.kind,
            "declarer": self.declarer,
            "game": self.game,
            "name": self.name,
            "bid": self.bid,
            "won": self.won,
            "value": self.value,
            "matadors": self.matadors,
            "points": self.points,
            "tricks": self.tricks,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "overbid": self.overbid,
            "decided_by": self.decided_by,
            "changes": list(self.changes),
            "tournament": None if self.tournament is None else list(self.tournament),
            "ramsch_points": None if self.ramsch_points is None else list(self.ramsch_points),
        }


@dataclass
class DealState:
    """Everything about the current deal."""

    number: int
    dealer: int
    seats: tuple[int, int, int]
    bidding: Bidding
    hands: tuple[tuple[Card, ...], ...] | None = None
    skat: tuple[Card, ...] = ()
    #: The dealt hands as card indexes (:data:`rules.tricks.contract.INDEX`).
    hands_ix: tuple[tuple[int, ...], ...] | None = None
    bock: bool = False
    phase: str = "bidding"  # bidding, declaring, play, over
    declarer: int | None = None
    picked_up: bool = False
    skat_seen: list[Card] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)
    laid_count: int | None = None
    declaration: Declaration | None = None
    play: TrickPlay | None = None
    factor: int = 1  # Kontra 2, Re 4
    kontra: int | None = None
    forced: list[tuple[int, int, bool, str]] = field(default_factory=list)
    rest_to: str | None = None  # who takes the tricks not played: "declarer"/"defenders"
    extra: list[Card] = field(default_factory=list)  # Law 50: counted with the player's
    conceded: set[int] = field(default_factory=set)
    abandoned: bool = False
    claim_points: int | None = None
    bock_added: int = 0
    #: The single player of a nullo (a trick of his ends it), else -1.
    null_player: int = -1
    result: DealResult | None = None

    def position(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    @property
    def defenders(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != self.declarer)


@dataclass
class SkatState:
    """The table: the current deal, the score pad, the tournament points, verdicts."""

    players: int
    next_dealer: int | None = None
    deal_number: int = 0
    deal: DealState | None = None
    pad: list[int] = field(default_factory=list)
    tournament: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    bock_left: int = 0
    results: list[DealResult] = field(default_factory=list)
    verdicts: list[TrickVerdict] = field(default_factory=list)

    @classmethod
    def new(cls, players: int) -> SkatState:
        zeros = [0] * players
        return cls(
            players, pad=list(zeros), tournament=list(zeros), won=list(zeros), lost=list(zeros)
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one event did: the verdicts it raised, notes for people, a deal's result."""

    verdicts: tuple[TrickVerdict, ...] = ()
    notes: tuple[str, ...] = ()
    result: DealResult | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdicts": [x.to_json() for x in self.verdicts],
            "notes": list(self.notes),
            "result": None if self.result is None else self.result.to_json(),
        }


#: The outcome of the many events that do nothing worth telling.
_QUIET: Final = Outcome()


class _Step(Step):
    """Collects what one event does."""

    __slots__ = ("result",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.result: DealResult | None = None


class SkatGame:
    """A sitting at one Skat table (any number of deals)."""

    def __init__(self, rules: SkatRules | None = None) -> None:
        self.rules = rules or SkatRules()
        self._events: list[Event] = []
        self._state = SkatState.new(self.rules.players)
        #: The collector of the hot path's events (replaced when it collects anything).
        self._sink = _Step(0)
        self._sink_flag = self._sink.flag
        self._checked: tuple[Declare, Declaration] | None = None
        self._bids = _allowed_bids(self.rules)

    # The log ----------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> SkatState:
        """The current state. Treat it as read-only."""
        return self._state

    def apply(self, event: Event) -> Outcome:
        """Apply the next event; return what it flagged and any deal's result.

        Raises :class:`InvalidEventError` for a malformed event, changing nothing.
        """
        if isinstance(event, Play):
            out = self._fast_play(event)
            if out is not None:
                return out
        kind = type(event)
        self._validate(event)
        index = len(self._events)
        if kind is Correct:
            assert isinstance(event, Correct)
            return self._correct(event, index)
        step = _Step(index)
        _HANDLERS[kind](self, self._state, event, step)
        if step.verdicts:
            self._state.verdicts.extend(step.verdicts)
        self._events.append(event)
        if not step.verdicts and not step.notes and step.result is None:
            return _QUIET
        return Outcome(tuple(step.verdicts), tuple(step.notes), step.result)

    def _fast_play(self, event: Play) -> Outcome | None:
        """The hot path, thirty times a deal: the checks of :meth:`_validate` and
        :meth:`_play` for a card in a game being played; ``None`` for anything else,
        which takes the long way."""
        d = self._state.deal
        if d is None or d.phase != "play" or d.play is None:
            return None
        play = d.play
        seat, card = event.seat, event.card
        if type(seat) is not int or seat not in play.seats or card.rank not in _RANKS:
            return None
        step = self._sink
        step.index = len(self._events)
        trick = play.play(seat, card, self._sink_flag)
        self._events.append(event)
        if step.verdicts or (
            trick is not None and (trick.number == 1 or play.finished or trick.winner == d.declarer)
        ):
            self._after_card(self._state, d, play, trick, step)
            if step.verdicts or step.notes or step.result is not None:
                self._sink = _Step(0)
                self._sink_flag = self._sink.flag
                self._state.verdicts.extend(step.verdicts)
                return Outcome(tuple(step.verdicts), tuple(step.notes), step.result)
        return _QUIET

    def undo(self) -> Event:
        """Pop the last event; the state is rebuilt exactly as it was before it."""
        if not self._events:
            raise IndexError("undo: no event to undo")
        event = self._events.pop()
        self._state = self._replay(self._corrected(self._events))
        return event

    def _corrected(self, events: Sequence[Event]) -> list[Event]:
        return corrected(events)

    def _replay(self, effective: Sequence[Event]) -> SkatState:
        state = SkatState.new(self.rules.players)
        for i, e in enumerate(effective):
            if isinstance(e, Correct):
                continue
            step = _Step(i)
            self._step(state, e, step)
            state.verdicts.extend(step.verdicts)
        return state

    def _correct(self, event: Correct, index: int) -> Outcome:
        if not 0 <= event.index < index or isinstance(self._events[event.index], Correct):
            raise InvalidEventError(f"correct: no event {event.index} with cards to correct")
        effective = self._corrected(self._events)
        fixed = replace_card(effective[event.index], event.old, event.new)
        self._validate(fixed)
        effective[event.index] = fixed
        effective.append(event)
        before = list(self._state.verdicts)
        self._state = self._replay(effective)
        self._events.append(event)
        raised = tuple(x for x in self._state.verdicts if x not in before)
        note = f"event {event.index}: {event.old} corrected to {event.new}; the deal is recounted"
        return Outcome(raised, (note,))

    # Views --------------------------------------------------------------------------

    @property
    def deal(self) -> DealState | None:
        return self._state.deal

    @property
    def phase(self) -> str:
        d = self._state.deal
        if d is None or d.phase == "over":
            return "deal"
        return d.phase

    @property
    def turn(self) -> int | None:
        """The seat to call in the auction or to play, if any."""
        d = self._state.deal
        if d is None:
            return None
        if d.phase == "bidding":
            pos = d.bidding.to_call
            return None if pos is None else d.seats[pos]
        if d.phase == "play" and d.play is not None:
            return d.play.turn
        return d.declarer if d.phase == "declaring" else None

    @property
    def verdicts(self) -> tuple[TrickVerdict, ...]:
        return tuple(self._state.verdicts)

    @property
    def results(self) -> tuple[DealResult, ...]:
        return tuple(self._state.results)

    @property
    def pad(self) -> tuple[int, ...]:
        """The score pad: each seat's running total (Law 58)."""
        return tuple(self._state.pad)

    def settlement(self) -> tuple[int, ...]:
        """Law 59: "each player wins from or loses to each of the others at the table
        the full amount of his score": what each seat wins (or loses) in all.

        >>> g = SkatGame(SkatRules("foster1906", players=4))
        >>> g.state.pad[:] = [80, -22, 0, 0]
        >>> g.settlement()
        (262, -146, -58, -58)
        """
        pad = self._state.pad
        total = sum(pad)
        n = len(pad)
        return tuple(n * p - total for p in pad)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game": "skat",
            "rules": self.rules.to_json(),
            "events": [event_to_json(e) for e in self._events],
            "state": self.summary(),
        }

    @classmethod
    def from_json(cls, data: Any) -> SkatGame:
        """Rebuild a game by replaying its events (the ``state`` field is ignored)."""
        if not isinstance(data, dict) or data.get("game") != "skat":
            raise InvalidEventError("not a Skat game record")
        if data.get("schema") != SCHEMA:
            raise InvalidEventError(f"unknown schema {data.get('schema')!r}")
        game = cls(SkatRules.from_json(data.get("rules", {})))
        apply_all(game.apply, events_of(data), event_from_json)
        return game

    def summary(self) -> dict[str, Any]:
        """The table as observers need it."""
        st = self._state
        d = st.deal
        out: dict[str, Any] = {
            "phase": self.phase,
            "deal_number": st.deal_number,
            "turn": self.turn,
            "pad": list(st.pad),
            "tournament": list(st.tournament) if self.rules.isko else None,
            "bock_left": st.bock_left,
            "verdicts": [x.to_json() for x in st.verdicts],
        }
        if d is not None:
            out.update(
                dealer=d.dealer,
                seats={"vorhand": d.seats[0], "mittelhand": d.seats[1], "hinterhand": d.seats[2]},
                bid=d.bidding.value,
                declarer=d.declarer,
                game=None if d.declaration is None else str(d.declaration),
                tricks=[] if d.play is None else [t.to_json() for t in d.play.tricks],
                current=None if d.play is None else d.play.current.to_json(),
                result=None if d.result is None else d.result.to_json(),
            )
        return out

    # Malformed events ------------------------------------------------------------------

    def _validate(self, event: Event) -> None:
        if type(event) is Play:  # the hot path: thirty a deal
            seat = event.seat
            if type(seat) is not int or not 0 <= seat < self.rules.players:
                raise InvalidEventError(
                    f"play: seat {seat!r} is not a seat (0..{self.rules.players - 1})"
                )
            if event.card.rank not in _RANKS:
                raise InvalidEventError(f"play: {event.card} is not a card of the Skat pack")
            return
        if type(event) not in _HANDLERS and type(event) is not Correct:
            raise InvalidEventError(f"not a Skat event: {event!r}")
        check_seats(event, self.rules.players)
        if isinstance(event, Correct):
            if event.new.rank not in _RANKS:
                raise InvalidEventError(f"correct: {event.new} is not a card of the Skat pack")
            return
        if isinstance(event, Deal):
            if event.hands is not None and len(event.hands) != 3:
                raise InvalidEventError(f"deal: {len(event.hands)} hands; three are dealt (Law 6)")
            for hand in (*(event.hands or ()), event.skat):
                for card in hand:
                    if card.rank not in _RANKS:
                        raise InvalidEventError(f"deal: {card} is not a card of the Skat pack")
            return
        for card in event.cards():
            if card.rank not in _RANKS:
                raise InvalidEventError(f"{event.type}: {card} is not a card of the Skat pack")
        if isinstance(event, Bid):
            if event.value <= 0:
                raise InvalidEventError(f"bid: {event.value} is not a figure")
        elif isinstance(event, Declare):
            # Raises for what cannot be said at a table; kept for _declare.
            self._checked = (event, event.declaration)
        elif isinstance(event, Discard):
            if event.count is not None and (
                event.count < 0 or (event.laid and event.count != len(event.laid))
            ):
                raise InvalidEventError(f"discard: count {event.count} does not fit the cards")
        elif isinstance(event, Claim):
            if event.what not in _CLAIMS:
                raise InvalidEventError(
                    f"claim: {event.what!r} is not a claim ({', '.join(_CLAIMS)})"
                )
        elif isinstance(event, Penalty) and event.points == 0:
            raise InvalidEventError("penalty: points must not be zero")

    # The referee -----------------------------------------------------------------------

    def _step(self, st: SkatState, event: Event, step: _Step) -> None:
        handler = _HANDLERS[type(event)]
        handler(self, st, event, step)

    def _out_of_phase(self, st: SkatState, event: Event, step: _Step, want: str) -> None:
        d = st.deal
        phase = "no deal" if d is None else d.phase
        trick = None if d is None or d.play is None else d.play.trick_number
        step.flag(
            v.OutOfPhase,
            getattr(event, "seat", None),
            trick,
            event.cards(),
            f"{event.type} during {phase}; expected {want}",
        )

    def _set_dealer(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, SetDealer)
        if st.deal is not None and st.deal.phase != "over":
            return self._out_of_phase(st, e, step, "the first dealer before the first deal")
        st.next_dealer = e.seat
        return None

    def _deal(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Deal)
        r = self.rules
        n = r.players
        old = st.deal
        redeal = old is not None and old.phase != "over" and old.result is None
        if redeal:
            assert old is not None
            # Laws 19-23: a new deal, by the same dealer.
            expected = old.dealer
            step.notes.append(f"deal {old.number} abandoned: a new deal by the same dealer")
        else:
            expected = st.next_dealer if st.next_dealer is not None else n - 1
        dealer = expected if e.dealer is None else e.dealer
        next_dealer = (dealer + 1) % n
        if dealer != expected:
            step.flag(
                v.DealtOutOfTurn, dealer, None, (), f"seat {dealer} dealt; seat {expected}'s deal"
            )
            # Law 20: "the next deal must be by the player who should have dealt".
            next_dealer = expected
            if not r.isko and r.penalty_dealt_out_of_turn:
                self._charge(st, dealer, -r.penalty_dealt_out_of_turn, step, "Law 20")
        if not redeal:
            st.deal_number += 1
        bock = False
        if st.bock_left > 0 and not redeal:
            bock = True
            st.bock_left -= 1
        d = DealState(
            number=st.deal_number,
            dealer=dealer,
            seats=positions(dealer, n),
            bidding=Bidding(r, allowed=self._bids),
            hands=e.hands,
            skat=e.skat,
            bock=bock,
        )
        st.deal = d
        st.next_dealer = next_dealer
        misdealt = False
        if e.hands is not None:
            d.hands_ix = tuple(
                tuple([(c.rank - 1) * 4 + SUIT_NO[id(c.suit)] for c in hand]) for hand in e.hands
            )
            seen: set[int] = set()
            for pos, hand in enumerate(e.hands):
                if len(hand) != 10:
                    misdealt = True
                    step.flag(
                        v.WrongNumberOfCards,
                        d.seats[pos],
                        None,
                        hand,
                        f"dealt {len(hand)} cards, the deal is ten (Laws 18, 23)",
                    )
                for card, i in zip(hand, d.hands_ix[pos], strict=True):
                    if i in seen:
                        step.flag(
                            v.DuplicateCard, d.seats[pos], None, (card,), f"{card} dealt twice"
                        )
                    seen.add(i)
            for card in e.skat:
                if index_of(card) in seen:
                    step.flag(v.DuplicateCard, None, None, (card,), f"{card} dealt twice")
                seen.add(index_of(card))
        if e.skat and len(e.skat) != 2:
            misdealt = True
            step.flag(v.WrongNumberOfCards, None, None, e.skat, "the skat is two cards (Law 18)")
        if misdealt:
            # Law 23: "there must be a new deal, and the dealer is charged 10 points".
            st.next_dealer = dealer
            if not r.isko:
                self._charge(st, dealer, -10, step, "Law 23")
        return None

    def _charge(self, st: SkatState, seat: int, points: int, step: _Step, why: str) -> None:
        st.pad[seat] += points
        step.notes.append(f"seat {seat}: {points:+d} ({why})")

    # The auction --------------------------------------------------------------------

    def _call(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, (Bid, Hold, Pass))
        d = st.deal
        if d is None or d.phase != "bidding":
            return self._out_of_phase(st, e, step, "no bidding")
        pos = d.position(e.seat)
        if pos is None:
            step.flag(v.BidOutOfTurn, e.seat, None, (), f"seat {e.seat} holds no cards (Law 6)")
            return None
        what: int | str = (
            e.value if isinstance(e, Bid) else ("hold" if isinstance(e, Hold) else "pass")
        )
        wrong = d.bidding.call(pos, what)
        if wrong is not None:
            step.flag(_BID_VERDICTS[wrong[0]], e.seat, None, (), wrong[1])
        if d.bidding.done:
            self._bidding_done(st, d, step)
        return None

    def _bidding_done(self, st: SkatState, d: DealState, step: _Step) -> None:
        pos = d.bidding.declarer
        if pos is not None:
            d.declarer = d.seats[pos]
            d.phase = "declaring"
            return
        if self.rules.ramsch:
            # Laws 4, 37: nobody will play: Ramsch, "The winner of the last trick
            # takes the skat cards."
            d.declaration = Declaration("ramsch")
            d.play = self._new_play(d, None)
            d.phase = "play"
            step.notes.append("all passed: Ramsch")
            return
        d.phase = "over"
        self._record(st, d, DealResult(d.number, "passed", changes=(0,) * st.players), step)

    # The skat and the declaration ------------------------------------------------------

    def _declarer_only(self, st: SkatState, d: DealState, e: Event, step: _Step, what: str) -> bool:
        seat = getattr(e, "seat", None)
        if seat == d.declarer:
            return True
        step.flag(
            v.SkatSeen if what != "declare" else v.IllegalDeclaration,
            seat,
            None,
            e.cards(),
            f"seat {seat} is not the single player (seat {d.declarer}) (Laws 24, 36)",
        )
        return False

    def _before_first_card(self, d: DealState) -> bool:
        return d.phase == "declaring" or (
            d.phase == "play"
            and d.play is not None
            and not d.play.played[d.seats[0]]
            and not d.play.current.cards
        )

    def _pick_up(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, PickUp)
        d = st.deal
        if d is None or d.declarer is None or not self._before_first_card(d):
            return self._out_of_phase(st, e, step, "the skat taken up before the play")
        if not self._declarer_only(st, d, e, step, "pick_up"):
            return None
        if d.declaration is not None and d.declaration.hand:
            step.flag(v.IllegalDeclaration, e.seat, None, e.shown, "a hand game's skat taken up")
        d.picked_up = True
        for card in e.shown:
            if d.skat and card not in d.skat:
                step.flag(v.CardNotInHand, e.seat, None, (card,), f"{card} is not in the skat")
            if card not in d.skat_seen:
                d.skat_seen.append(card)
        return None

    def _discard(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Discard)
        d = st.deal
        if d is None or d.declarer is None or not self._before_first_card(d):
            return self._out_of_phase(st, e, step, "the skat laid out before the play")
        if not self._declarer_only(st, d, e, step, "discard"):
            return None
        if d.declaration is not None and d.declaration.hand:
            step.flag(v.IllegalDeclaration, e.seat, None, e.laid, "a hand game lays nothing out")
        own = self._declarer_cards(d)
        for card in e.laid:
            if own is not None and card not in own:
                step.flag(v.CardNotInHand, e.seat, None, (card,), f"{card} is not the player's")
            d.laid.append(card)
        d.laid_count = (d.laid_count or 0) + e.number
        if d.play is not None:
            for card in e.laid:
                d.play.place(card, None)
        return None

    def _declarer_cards(self, d: DealState) -> set[Card] | None:
        """The twelve cards the single player chooses from, where the deal is known."""
        if d.hands is None or d.declarer is None:
            return None
        pos = d.position(d.declarer)
        assert pos is not None
        return set(d.hands[pos]) | set(d.skat) | set(d.skat_seen)

    def _declare(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Declare)
        d = st.deal
        if d is None or d.phase != "declaring":
            return self._out_of_phase(st, e, step, "a game declared after the bidding")
        if not self._declarer_only(st, d, e, step, "declare"):
            return None
        checked = self._checked
        decl = checked[1] if checked is not None and checked[0] is e else e.declaration
        for why in self._illegal(d, decl):
            step.flag(v.IllegalDeclaration, e.seat, None, e.shown, why)
        d.declaration = decl
        d.play = self._new_play(d, decl)
        d.phase = "play"
        if decl.is_null and d.declarer is not None:
            d.null_player = d.declarer
        if e.shown:
            d.play.reveal(e.seat, e.shown, step.flag)
        elif decl.ouvert:
            step.notes.append("an open game: the player's hand was not seen laid down (Law 5)")
        return None

    def _illegal(self, d: DealState, decl: Declaration) -> list[str]:
        """What the laws forbid in this declaration."""
        r = self.rules
        why: list[str] = []
        trumps = decl.game in SUIT_GAMES or decl.game == "grand"
        if decl.game == "ramsch":
            why.append("Ramsch is not declared: it is played when nobody bids (Laws 37, 43)")
        if r.isko:
            if decl.game in ("revolution", "uno", "duo"):
                why.append(f"{decl.game} is not a game of the ISkO")
            if trumps and (decl.schneider or decl.ouvert) and not decl.hand:
                why.append("schneider, schwarz and ouvert are announced only in hand games")
            if decl.turned is not None or decl.passt:
                why.append("the ISkO turns no skat card")
        else:
            if decl.game == "revolution" and not r.revolution:
                why.append("Revolution is not played at this table (Law 1: 'if played')")
            if decl.game in ("uno", "duo") and not r.uno_duo:
                why.append("Uno and Duo are not played at this table (Law 1: 'if played')")
            if r.gucki_variation:
                if decl.hand:
                    why.append("in the Gucki variation the highest bidder always sees the skat")
            else:
                if trumps and decl.schneider and not decl.hand:
                    why.append(
                        "schneider or schwarz announced in a game that uses the skat (Law 41)"
                    )
                why.extend(self._turned_laws(d, decl))
                if decl.game == "null" and not decl.hand and decl.turned is None and d.picked_up:
                    why.append(
                        "a Gucki Nullo must be announced before the skat cards are touched (Law 40)"
                    )
        if decl.hand and d.picked_up:
            why.append("a hand game declared after taking up the skat")
        return why

    def _turned_laws(self, d: DealState, decl: Declaration) -> list[str]:
        """Laws 28-31: the skat card turned decides the game."""
        why: list[str] = []
        card = decl.turned
        if decl.hand:
            return why
        if card is None:
            if decl.game in SUIT_GAMES:
                why.append(
                    "a suit game with the skat turns a card (Laws 28-29): taking both "
                    "is a Gucki Grand"
                )
            return why
        if d.skat and card not in d.skat:
            why.append(f"{card} turned is not in the skat")
        if decl.game in SUIT_GAMES:
            if card.rank != 11 and decl.trump != card.suit.value:
                why.append(f"{card} turned: trumps are {card.suit.word} (Law 29)")
        elif decl.game == "grand":
            if card.rank != 11:
                why.append(f"a turned grand needs a jack turned (Law 30), not {card}")
        elif decl.game == "null" and (card.rank != 7 or not self.rules.turned_nullo):
            why.append(
                "a Nullo after turning a card: only a seven, and only where turned "
                "Nullos are agreed (Law 31)"
            )
        return why

    def _new_play(self, d: DealState, decl: Declaration | None) -> TrickPlay:
        game = "ramsch" if decl is None else decl.game
        known: dict[int, Iterable[int]] = {}
        aside: list[Card] = []
        placed: Sequence[Card] = ()
        if d.hands is not None and d.hands_ix is not None:
            for pos, seat in enumerate(d.seats):
                if seat != d.declarer:
                    known[seat] = d.hands_ix[pos]
            if d.declarer is not None and decl is not None:
                pos = d.seats.index(d.declarer)
                twelve = (*d.hands_ix[pos], *(index_of(c) for c in d.skat))
                laid = {index_of(c) for c in d.laid}
                if decl.hand:
                    known[d.declarer] = d.hands_ix[pos]
                    aside = list(d.skat)
                elif len(d.skat) == 2 and len(laid) == 2 and laid <= set(twelve):
                    known[d.declarer] = [i for i in twelve if i not in laid]
                    aside = list(d.laid)
                else:
                    placed = (*d.hands[pos], *d.skat)
            elif decl is None:
                aside = list(d.skat)
        elif decl is not None:
            aside = list(d.laid)
        # Law 45: "Vorhand shall always lead for the first trick".
        play = TrickPlay(contract_for(game), d.seats, d.seats[0], 10, aside=aside, known=known)
        if d.declarer is not None:
            for card in placed:
                play.place(card, d.declarer)
        return play

    # The play ------------------------------------------------------------------------

    def _decides(
        self, d: DealState, kind: str, seat: int | None, trick: int | None, event: int
    ) -> None:
        """Laws 46, 48, 52, 53: a revoke, a wrong number of cards, an adversary's lead
        out of turn decide the game for the other side."""
        if d.declarer is None or seat is None or d.declaration is None:
            return
        if d.declaration.game == "ramsch":
            return
        by_player = seat == d.declarer
        if kind == "revoke" or kind == "wrong-number-of-cards":
            law = (
                "Law 52"
                if by_player and kind == "revoke"
                else "Law 53"
                if kind == "revoke"
                else "Law 46"
            )
            d.forced.append((trick or 0, event, not by_player, f"{kind} ({law})"))
        elif kind == "led-out-of-turn" and not by_player:
            d.forced.append((trick or 0, event, True, "led-out-of-turn (Law 48)"))

    def _play(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Play)
        d = st.deal
        if d is None or d.phase != "play" or d.play is None:
            return self._out_of_phase(st, e, step, "no card before the game is declared")
        play = d.play
        if e.seat not in play.seats:
            step.flag(
                v.PlayedOutOfTurn,
                e.seat,
                play.trick_number,
                (e.card,),
                f"seat {e.seat} holds no cards (Law 6)",
            )
            return None
        return self._play_card(st, d, play, e, step)

    def _play_card(
        self, st: SkatState, d: DealState, play: TrickPlay, e: Play, step: _Step
    ) -> None:
        trick = play.play(e.seat, e.card, step.flag)
        self._after_card(st, d, play, trick, step)

    def _after_card(
        self, st: SkatState, d: DealState, play: TrickPlay, trick: Trick | None, step: _Step
    ) -> None:
        """What a card decides: the laws' consequences, the skat laid, the end."""
        for x in step.verdicts:
            self._decides(d, x.kind, x.seat, x.trick, step.index)
        if trick is not None and trick.number == 1:
            self._check_skat_laid(d, step)
        if play.finished:
            self._unrecord(st, d)
            self._end(st, d, step)
        elif (
            trick is not None
            and trick.winner == d.declarer
            and d.result is None
            and d.declaration is not None
            and d.declaration.is_null
        ):
            # A nullo is lost with the player's first trick: scored now, as a server
            # stops there. Cards played on are still checked, and the deal is scored
            # again at its last trick (an earlier revoke may yet decide it).
            step.notes.append(f"trick {trick.number}: the player takes a trick; the nullo is lost")
            self._end(st, d, step)
            d.phase = "play"
        return None

    def _check_skat_laid(self, d: DealState, step: _Step) -> None:
        """Law 32: two cards laid out, discovered after the first trick is quitted."""
        decl = d.declaration
        if decl is None or decl.hand or d.declarer is None or d.laid_count is None:
            return
        if d.laid_count != 2:
            step.flag(
                v.WrongSkatCount,
                d.declarer,
                1,
                tuple(d.laid),
                f"{d.laid_count} cards laid out for the skat: the game is lost (Law 32)",
            )
            d.forced.append((1, step.index, False, "wrong-skat-count (Law 32)"))

    def _claim(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Claim)
        d = st.deal
        if d is None or d.phase != "play" or d.play is None or d.declarer is None:
            return self._out_of_phase(st, e, step, "a claim during the play of a game")
        play = d.play
        tno = play.trick_number
        if e.shown:
            play.reveal(e.seat, e.shown, step.flag)
            for x in step.verdicts:
                self._decides(d, x.kind, x.seat, x.trick, step.index)
        by_player = e.seat == d.declarer
        skat_pts = self._skat_points(d)
        if e.what in ("won", "schneider"):
            target = 61 if e.what == "won" else self.rules.schneider_at
            have = play.points[d.declarer] + (skat_pts or 0)
            if not by_player:
                step.flag(
                    v.ClaimMistaken,
                    e.seat,
                    tno,
                    e.shown,
                    "only the single player claims his game (Law 49)",
                )
                return None
            if have < target:
                step.flag(
                    v.ClaimMistaken,
                    e.seat,
                    tno,
                    e.shown,
                    f"claimed {target} with {have} taken in: the game is lost (Law 49)",
                )
                d.forced.append((tno, step.index, False, "claim-mistaken (Law 49)"))
            else:
                d.forced.append((tno, step.index, True, "claim (Law 49)"))
        elif e.what == "defeated":
            if by_player:
                step.flag(
                    v.ClaimMistaken,
                    e.seat,
                    tno,
                    e.shown,
                    "the single player cannot claim 'defeated' (Law 50)",
                )
                return None
            against = sum(play.points[s] for s in d.defenders)
            if against >= 60:
                d.forced.append((tno, step.index, False, "claim (Law 50)"))
            else:
                step.flag(
                    v.ClaimMistaken,
                    e.seat,
                    tno,
                    e.shown,
                    f"claimed the player defeated with {against} taken in (Law 50)",
                )
                d.forced.append((tno, step.index, True, "claim-mistaken (Law 50)"))
                d.extra.extend(e.shown)
        elif e.what == "open":
            # The hand laid open, the rest offered (a server's "show cards"): the
            # play goes on until the other side concedes or the last trick.
            return None
        else:
            self._rest(d, "declarer" if by_player else "defenders")
        self._end(st, d, step)
        return None

    def _rest(self, d: DealState, side: str) -> None:
        """Who takes the tricks not played. In a nullo the single player wins by
        taking no trick: whoever gives up, he takes none of the rest."""
        assert d.declaration is not None
        d.rest_to = "defenders" if d.declaration.is_null else side

    def _concede(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Concede)
        d = st.deal
        if d is None or d.declarer is None or d.phase != "play" or d.play is None:
            return self._out_of_phase(st, e, step, "a game conceded during its play")
        tno = d.play.trick_number
        if e.seat == d.declarer:
            decl = d.declaration
            if (
                decl is not None
                and not self.rules.isko
                and decl.game in SUIT_GAMES
                and decl.turned is not None
                and len(d.play.played[d.declarer]) <= 1
            ):
                d.abandoned = True  # Law 44: "scored as a 'game' lost"
            self._rest(d, "defenders")
            d.forced.append((tno, step.index, False, "conceded (Law 51)"))
            self._end(st, d, step)
            return None
        if e.seat not in d.seats:
            return self._out_of_phase(st, e, step, "a concession from a player in the game")
        d.conceded.add(e.seat)
        if set(d.defenders) <= d.conceded:
            self._rest(d, "declarer")
            d.forced.append((tno, step.index, True, "conceded by the adversaries"))
            self._end(st, d, step)
        return None

    def _skat_shown(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, SkatShown)
        d = st.deal
        if d is None:
            return self._out_of_phase(st, e, step, "a deal")
        for card in e.shown:
            if d.skat and card not in d.skat and (d.declaration is None or d.declaration.hand):
                step.flag(v.CardNotInHand, None, None, (card,), f"{card} was not dealt to the skat")
            if card not in d.skat_seen:
                d.skat_seen.append(card)
        if d.play is not None:
            d.play.set_aside(e.shown, step.flag)
        if d.phase == "over" and d.result is not None and d.result.value is None:
            self._unrecord(st, d)
            self._end(st, d, step)
        return None

    def _skat_seen(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, SkatSeen)
        d = st.deal
        if d is None or d.phase == "over":
            return self._out_of_phase(st, e, step, "a deal")
        pos = d.position(e.seat)
        foster = not self.rules.isko
        if d.phase == "bidding":
            if pos is None:
                step.flag(
                    v.SkatSeen,
                    e.seat,
                    None,
                    (),
                    "a player without cards looked at the skat (Law 24)",
                )
                if foster:
                    self._charge(st, e.seat, -10, step, "Law 24")
                return None
            law = "Law 27" if e.taken else "Law 24"
            step.flag(v.SkatSeen, e.seat, None, (), f"debarred from bidding this deal ({law})")
            if foster and e.taken:
                self._charge(st, e.seat, -25, step, "Law 27")
            d.bidding.debar(pos)
            if d.bidding.done:
                self._bidding_done(st, d, step)
            return None
        tno = None if d.play is None else d.play.trick_number
        if e.seat == d.declarer and d.picked_up and d.laid_count:
            return None  # he laid those cards out himself (Law 26)
        step.flag(v.SkatSeen, e.seat, tno, (), "the skat looked at during the play (Law 26)")
        if d.declarer is not None and pos is not None:
            d.forced.append((tno or 0, step.index, e.seat != d.declarer, "skat-seen (Law 26)"))
        return None

    def _look_back(self, st: SkatState, e: Event, step: _Step) -> None:
        """Law 54: "Any active player may see the last trick turned and quitted,
        provided no card has been led for the next trick. Should a player look back
        at any other trick, or count his cards, he loses the game; but either of the
        others may insist on playing on to see if they can make schneider.\""""
        assert isinstance(e, LookBack)
        d = st.deal
        if d is None or d.phase != "play" or d.play is None or d.declarer is None:
            return self._out_of_phase(st, e, step, "looking back during the play")
        play = d.play
        last = len(play.tricks)
        if 0 < e.trick == last and not play.current.cards:
            return None
        what = "counted his cards" if e.trick == 0 else f"looked back at trick {e.trick}"
        step.flag(v.LookedBack, e.seat, play.trick_number, (), f"seat {e.seat} {what} (Law 54)")
        if e.seat in d.seats:
            d.forced.append(
                (play.trick_number, step.index, e.seat != d.declarer, "looked-back (Law 54)")
            )
        return None

    def _kontra(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, (Kontra, Re))
        d = st.deal
        if not self.rules.kontra:
            return self._out_of_phase(st, e, step, "no Kontra: the house rule is off")
        if d is None or d.declarer is None or not self._before_first_card(d):
            return self._out_of_phase(st, e, step, "Kontra or Re before the first card")
        if isinstance(e, Kontra):
            if e.seat not in d.defenders or d.kontra is not None:
                return self._out_of_phase(st, e, step, "Kontra once, from an adversary")
            d.kontra = e.seat
            d.factor = 2
        else:
            if e.seat != d.declarer or d.factor != 2:
                return self._out_of_phase(st, e, step, "Re from the single player after Kontra")
            d.factor = 4
        return None

    def _penalty(self, st: SkatState, e: Event, step: _Step) -> None:
        assert isinstance(e, Penalty)
        self._charge(st, e.seat, e.points, step, e.reason or "ruling")
        return None

    # The end of a deal -----------------------------------------------------------------

    def _skat_cards(self, d: DealState) -> list[Card] | None:
        """The two cards that count for the single player at the end, if known."""
        decl = d.declaration
        if decl is not None and decl.hand and len(d.skat) == 2:
            return list(d.skat)
        if decl is not None and not decl.hand and len(d.laid) == 2:
            return list(d.laid)
        if decl is not None and decl.game == "ramsch" and len(d.skat) == 2:
            return list(d.skat)
        if d.play is not None and d.play.finished:
            rest = d.play.not_played(_DECK_IX)
            if len(rest) == 2:
                return rest
        shown = d.skat_seen if (decl is None or decl.hand or not d.picked_up) else []
        return list(shown) if len(shown) == 2 else None

    def _skat_points(self, d: DealState) -> int | None:
        skat = self._skat_cards(d)
        return None if skat is None else _points(skat)

    def _end(self, st: SkatState, d: DealState, step: _Step) -> None:
        d.phase = "over"
        if d.declaration is not None and d.declaration.game == "ramsch":
            return self._end_ramsch(st, d, step)
        assert d.play is not None and d.declarer is not None and d.declaration is not None
        play = d.play
        decl = d.declaration
        me = d.declarer
        skat = self._skat_cards(d)
        done = sum(play.points.values())
        rest_tricks = 10 - len(play.tricks)
        points: int | None = play.points[me] + _points(d.extra)
        tricks = play.trick_count[me] + (rest_tricks if d.rest_to == "declarer" else 0)
        if skat is None:
            points = None
            step.notes.append("the skat is not known: show it to count the player's points")
        else:
            assert points is not None
            points += _points(skat)
            if d.rest_to == "declarer":
                points += 120 - done - _points(skat) - _points(d.extra)
        m = self._matadors(d, skat)
        if m is None:
            step.notes.append("the matadors are not known: show the player's hand and the skat")
        forced_won: bool | None = None
        decided: str | None = None
        if d.forced:
            first = min(d.forced)
            forced_won, decided = first[2], first[3]
        if points is None or (m is None and not decl.is_null):
            result = DealResult(
                d.number,
                "game",
                me,
                str(decl),
                game_name(decl, self.rules),
                d.bidding.value,
                forced_won,
                None,
                m,
                points,
                tricks,
                decided_by=decided,
                changes=(0,) * st.players,
            )
            self._record(st, d, result, step)
            return None
        gv = score_game(
            decl,
            self.rules,
            matadors=m or 0,
            points=points,
            tricks=tricks,
            bid=d.bidding.value,
            forced=forced_won,
            abandoned=d.abandoned,
        )
        self._score(st, d, gv, points, tricks, decided, step)
        return None

    def _matadors(self, d: DealState, skat: list[Card] | None) -> int | None:
        decl = d.declaration
        assert decl is not None and d.play is not None and d.declarer is not None
        if decl.is_null:
            return 0
        if d.hands_ix is not None and len(d.skat) == 2:
            pos = d.seats.index(d.declarer)
            twelve = set(d.hands_ix[pos]).union(index_of(c) for c in d.skat)
            return _count_matadors([i in twelve for i in _sequence_ix(decl.game)])
        # Otherwise from where each trump was seen: played or held by whom, or in
        # the skat, which is the player's.
        play = d.play
        skat_ix = {index_of(c) for c in (*(skat or ()), *d.skat_seen)}
        sequence = _sequence_ix(decl.game)
        me = d.declarer
        held = [
            True if i in skat_ix or seat == ASIDE else None if seat is None else seat == me
            for i, seat in zip(sequence, play.holders(sequence), strict=True)
        ]
        return _count_matadors(held)

    def _score(
        self,
        st: SkatState,
        d: DealState,
        gv: GameValue,
        points: int,
        tricks: int,
        decided: str | None,
        step: _Step,
    ) -> None:
        assert d.declarer is not None and d.declaration is not None
        n = st.players
        factor = d.factor * (2 if d.bock else 1)
        value = gv.value * factor
        changes = [0] * n
        changes[d.declarer] = value
        tournament: tuple[int, ...] | None = None
        if self.rules.isko:
            # Seeger-Fabian: +50 per game won, -50 per game lost; per lost game +40 to
            # each adversary at a table of three, +30 to each other player at four.
            tp = [0] * n
            tp[d.declarer] = value + (50 if gv.won else -50)
            if not gv.won:
                for s in range(n):
                    if s != d.declarer:
                        tp[s] += 40 if n == 3 else 30
            tournament = tuple(tp)
        if self.rules.bock and (points == 60 or (not gv.won and d.factor > 1)):
            st.bock_left += n
            d.bock_added += n
            step.notes.append(f"a Bock round: the next {n} deals count double")
        result = DealResult(
            d.number,
            "game",
            d.declarer,
            str(d.declaration),
            game_name(d.declaration, self.rules),
            d.bidding.value,
            gv.won,
            value,
            gv.matadors,
            points,
            tricks,
            gv.schneider,
            gv.schwarz,
            gv.overbid,
            decided,
            tuple(changes),
            tournament,
        )
        self._record(st, d, result, step)

    def _end_ramsch(self, st: SkatState, d: DealState, step: _Step) -> None:
        """Law 4 (foster1906) or the house Ramsch (ISkO): the most points lose."""
        play = d.play
        assert play is not None
        pts = {s: play.points[s] for s in d.seats}
        last = play.tricks[-1].winner if play.tricks else None
        skat = self._skat_cards(d)
        if last is not None and skat is not None:
            pts[last] += _points(skat)  # "The winner of the last trick takes the skat cards."
        tricks = {s: play.trick_count[s] for s in d.seats}
        changes = [0] * st.players
        for seat, charge in ramsch_charges(pts, tricks, last, self.rules).items():
            changes[seat] = charge
        factor = 2 if d.bock else 1
        changes = [c * factor for c in changes]
        result = DealResult(
            d.number,
            "ramsch",
            changes=tuple(changes),
            ramsch_points=tuple(pts.get(s, 0) for s in range(st.players)),
        )
        self._record(st, d, result, step)

    def _record(self, st: SkatState, d: DealState, result: DealResult, step: _Step) -> None:
        d.result = result
        st.results.append(result)
        for seat, change in enumerate(result.changes):
            st.pad[seat] += change
        if result.tournament is not None:
            for seat, tp in enumerate(result.tournament):
                st.tournament[seat] += tp
        if result.declarer is not None and result.value is not None:
            (st.won if result.won else st.lost)[result.declarer] += 1
        step.result = result

    def _unrecord(self, st: SkatState, d: DealState) -> None:
        """Take back a deal's result (it is about to be scored again)."""
        result = d.result
        if result is None:
            return
        for k in range(len(st.results) - 1, -1, -1):
            if st.results[k] is result:
                del st.results[k]
                break
        for seat, change in enumerate(result.changes):
            st.pad[seat] -= change
        if result.tournament is not None:
            for seat, tp in enumerate(result.tournament):
                st.tournament[seat] -= tp
        if result.declarer is not None and result.value is not None:
            (st.won if result.won else st.lost)[result.declarer] -= 1
        st.bock_left -= d.bock_added
        d.bock_added = 0
        d.result = None


_HANDLERS: dict[type[Event], Any] = {
    SetDealer: SkatGame._set_dealer,
    Deal: SkatGame._deal,
    Bid: SkatGame._call,
    Hold: SkatGame._call,
    Pass: SkatGame._call,
    PickUp: SkatGame._pick_up,
    Discard: SkatGame._discard,
    Declare: SkatGame._declare,
    Play: SkatGame._play,
    Claim: SkatGame._claim,
    Concede: SkatGame._concede,
    SkatShown: SkatGame._skat_shown,
    SkatSeen: SkatGame._skat_seen,
    LookBack: SkatGame._look_back,
    Kontra: SkatGame._kontra,
    Re: SkatGame._kontra,
    Penalty: SkatGame._penalty,
}
