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
from typing import Any, ClassVar, Final, NamedTuple

from rules.cards import SKAT_DECK, Card
from rules.errors import InvalidEventError
from rules.events import corrected, replace_card
from rules.outcome import Outcome
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
    Exchange,
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
from rules.tricks.contract import IX_BY_SUIT, index_of
from rules.tricks.game import Step, apply_all, check_seats, events_of
from rules.tricks.play import ASIDE, Flag, Trick, TrickPlay
from rules.tricks.solve import BUDGET, Answer, Goal, solve
from rules.verdicts import Verdict

__all__ = ["DealResult", "DealState", "Outcome", "SkatGame", "SkatState", "positions"]

SCHEMA: Final = 1
_DECK: Final = frozenset(SKAT_DECK)
#: The Skat pack's ranks: a card is of the pack if its rank is (every suit is).
_RANKS: Final = frozenset(c.rank for c in SKAT_DECK)
_CLAIMS: Final = ("won", "schneider", "defeated", "rest", "open")
_ORDINALS: Final = ("first", "second", "third")
_CALLS: Final = frozenset((Bid, Hold, Pass))
_NULL_WORDS: Final = {"null": "nullo", "revolution": "Revolution", "uno": "Uno", "duo": "Duo"}
_BID_VERDICTS: Final[dict[str, type[Verdict]]] = {
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
_SKAT_IX: Final = frozenset(i for _, i in _DECK_IX)


@cache
def _allowed_bids(rules: SkatRules) -> frozenset[int]:
    return frozenset(bid_values(rules))


@cache
def _sequence_ix(game: str) -> tuple[int, ...]:
    return tuple(index_of(c) for c in trump_sequence(game))


def _hands_ix(hands: Iterable[Iterable[Card]]) -> tuple[tuple[int, ...], ...]:
    """Hands of cards as card indexes (:func:`~rules.tricks.contract.index_of`)."""
    return tuple(tuple([IX_BY_SUIT[c.suit][c.rank] for c in hand]) for hand in hands)


#: Card points by rank (Law 11), a list for speed.
_RANK_POINTS: Final = [CARD_POINTS.get(rank, 0) for rank in range(14)]


def _points(cards: Iterable[Card]) -> int:
    return sum([_RANK_POINTS[c.rank] for c in cards])


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


@dataclass(slots=True)
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
    #: The single player of a game without trumps (a nullo, Uno, Duo, Revolution),
    #: whose tricks may decide it before the end, else -1.
    null_player: int = -1
    #: In a Revolution until the first card: the cards each adversary gave the other.
    exchange: dict[int, list[Card]] | None = None
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
    verdicts: list[Verdict] = field(default_factory=list)

    @classmethod
    def new(cls, players: int) -> SkatState:
        zeros = [0] * players
        return cls(
            players, pad=list(zeros), tournament=list(zeros), won=list(zeros), lost=list(zeros)
        )


#: The outcome of the many events that do nothing worth telling.
_QUIET: Final[Outcome[DealResult]] = Outcome()


class _Step(Step):
    """Collects what one event does."""

    __slots__ = ("result",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.result: DealResult | None = None


class SkatGame:
    """A sitting at one Skat table (any number of deals)."""

    #: The game as its records name it.
    name: ClassVar[str] = "skat"

    def __init__(self, rules: SkatRules | None = None, *, claim_budget: int = BUDGET) -> None:
        self.rules = rules or SkatRules()
        self._isko = self.rules.isko
        #: Positions a claim's search may visit before the count decides instead.
        self.claim_budget = claim_budget
        self._events: list[Event] = []
        self._state = SkatState.new(self.rules.players)
        #: The collector of the hot path's events (replaced when it collects anything).
        self._sink: _Step
        self._sink_flag: Flag
        self._new_sink()
        #: While a game is being played: (deal, play, seats), for the hot path.
        self._hot: tuple[DealState, TrickPlay, frozenset[int]] | None = None
        self._checked: tuple[Declare, Declaration] | None = None
        #: The last deal validated, with its cards as indexes (hands, skat).
        self._dealt: tuple[Deal, tuple[tuple[int, ...], ...], tuple[int, ...]] | None = None
        self._bids = _allowed_bids(self.rules)

    # The log ----------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> SkatState:
        """The current state. Treat it as read-only."""
        return self._state

    def apply(self, event: Event) -> Outcome[DealResult]:
        """Apply the next event; return what it flagged and any deal's result.

        Raises :class:`InvalidEventError` for a malformed event, changing nothing.
        """
        if type(event) is Play:
            # The hot path, thirty times a deal: the checks of _validate and _play
            # for a card of the pack from a seat in the game, while it is played.
            hot = self._hot
            if hot is not None:
                seat = event.seat
                if type(seat) is int and seat in hot[2] and event.card.rank in _RANKS:
                    d, play, _ = hot
                    step = self._sink
                    try:
                        trick = play.play(seat, event.card, self._sink_flag)
                    except BaseException:
                        self._new_sink()
                        raise
                    self._events.append(event)
                    if step.verdicts or (
                        trick is not None
                        and (trick.number == 1 or play.finished or trick.winner == d.null_player)
                    ):
                        step.index = len(self._events) - 1
                        return self._after_hot(d, play, trick, step)
                    return _QUIET
        kind = type(event)
        self._validate(event)
        index = len(self._events)
        if kind is Correct:
            assert isinstance(event, Correct)
            out = self._correct(event, index)
            self._hot = self._playing()
            return out
        step = self._sink  # empty: it is replaced whenever it collects anything
        step.index = index
        try:
            _HANDLERS[kind](self, self._state, event, step)
        except BaseException:
            self._new_sink()  # nothing it collected belongs to the next event
            raise
        self._events.append(event)
        self._hot = self._playing()
        if not step.verdicts and not step.notes and step.result is None:
            return _QUIET
        self._new_sink()
        if step.verdicts:
            self._state.verdicts.extend(step.verdicts)
        return Outcome(tuple(step.verdicts), tuple(step.notes), step.result)

    def _new_sink(self) -> None:
        """A fresh collector for the events that raise nothing, which is most of them.
        Its ``flag`` for the hot path numbers a verdict by the event not yet logged."""
        step = _Step(0)
        verdicts, events = step.verdicts, self._events

        def flag(
            kind: type[Verdict],
            seat: int | None,
            trick: int | None,
            cards: Sequence[Card],
            detail: str,
        ) -> None:
            verdicts.append(kind(len(events), seat, trick, tuple(cards), detail))

        self._sink = step
        self._sink_flag = flag

    def _playing(self) -> tuple[DealState, TrickPlay, frozenset[int]] | None:
        """The deal and its play while cards take the hot path, else ``None``."""
        d = self._state.deal
        if d is None or d.phase != "play" or d.play is None or d.exchange is not None:
            return None
        return d, d.play, frozenset(d.play.seats)

    def _after_hot(
        self, d: DealState, play: TrickPlay, trick: Trick | None, step: _Step
    ) -> Outcome[DealResult]:
        """What a card on the hot path decides (:meth:`_after_card`)."""
        self._after_card(self._state, d, play, trick, step)
        if d.phase != "play":
            self._hot = None
        if step.verdicts or step.notes or step.result is not None:
            self._new_sink()
            self._state.verdicts.extend(step.verdicts)
            return Outcome(tuple(step.verdicts), tuple(step.notes), step.result)
        return _QUIET

    def undo(self) -> Event:
        """Pop the last event; the state is rebuilt exactly as it was before it."""
        if not self._events:
            raise IndexError("undo: no event to undo")
        event = self._events.pop()
        self._state = self._replay(self._corrected(self._events))
        self._hot = self._playing()
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

    def _correct(self, event: Correct, index: int) -> Outcome[DealResult]:
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
    def verdicts(self) -> tuple[Verdict, ...]:
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
            "game": self.name,
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
            "game": self.name,
            "phase": self.phase,
            "deal_number": st.deal_number,
            "turn": self.turn,
            "dealer": None,
            "scores": list(st.pad),
            "score_by": "seat",
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
        kind = type(event)
        if kind in _CALLS:  # the auction, a few a deal: a seat, and a figure above 0
            assert isinstance(event, (Bid, Hold, Pass))
            who = event.seat
            if (
                type(who) is int
                and 0 <= who < self.rules.players
                and (not isinstance(event, Bid) or event.value > 0)
            ):
                return
        if kind not in _HANDLERS and kind is not Correct:
            raise InvalidEventError(f"not a Skat event: {event!r}")
        named = getattr(event, "seat" if kind is not Deal else "dealer", None)
        if named is not None and (type(named) is not int or not 0 <= named < self.rules.players):
            check_seats(event, self.rules.players)  # raises, naming the field
        if isinstance(event, Correct):
            if event.new.rank not in _RANKS:
                raise InvalidEventError(f"correct: {event.new} is not a card of the Skat pack")
            return
        if isinstance(event, Deal):
            if event.hands is not None and len(event.hands) != 3:
                raise InvalidEventError(f"deal: {len(event.hands)} hands; three are dealt (Law 6)")
            # The cards as indexes, checked at once and kept for _deal.
            hands_ix = _hands_ix(event.hands or ())
            skat_ix = _hands_ix((event.skat,))[0]
            if not _SKAT_IX.issuperset(skat_ix) or not all(map(_SKAT_IX.issuperset, hands_ix)):
                for hand in (*(event.hands or ()), event.skat):
                    for card in hand:
                        if card.rank not in _RANKS:
                            raise InvalidEventError(f"deal: {card} is not a card of the Skat pack")
            self._dealt = (event, hands_ix, skat_ix)
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
            dealt_ix = self._dealt
            if dealt_ix is not None and dealt_ix[0] is e:
                hands_ix, skat_ix = dealt_ix[1], dealt_ix[2]
            else:
                hands_ix, skat_ix = _hands_ix(e.hands), _hands_ix((e.skat,))[0]
            d.hands_ix = hands_ix
            dealt = [*hands_ix[0], *hands_ix[1], *hands_ix[2], *skat_ix]
            if len(set(dealt)) == len(dealt) and all(len(h) == 10 for h in hands_ix):
                dealt = []  # every card once, ten each: nothing to flag but the skat's size
        if e.hands is not None and dealt:
            assert d.hands_ix is not None
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
            if own is not None and index_of(card) not in own:
                step.flag(v.CardNotInHand, e.seat, None, (card,), f"{card} is not the player's")
            d.laid.append(card)
        d.laid_count = (d.laid_count or 0) + e.number
        if d.play is not None:
            for card in e.laid:
                d.play.place(card, None)
        return None

    def _declarer_cards(self, d: DealState) -> set[int] | None:
        """The twelve cards the single player chooses from, where the deal is known,
        as card indexes."""
        if d.hands_ix is None or d.declarer is None:
            return None
        pos = d.position(d.declarer)
        assert pos is not None
        return {*d.hands_ix[pos], *map(index_of, d.skat), *map(index_of, d.skat_seen)}

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
        if decl.game == "revolution":
            d.exchange = {s: [] for s in d.defenders}
        if e.shown:
            d.play.reveal(e.seat, e.shown, step.flag)
        elif decl.ouvert or decl.game == "revolution":
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
        elif decl.game not in ("grand", "null"):
            why.append(
                f"{card} turned: a card is turned for a Tournée, a turned grand or a "
                f"turned Nullo (Laws 29-31), not for a {decl.game}"
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
                twelve = (*d.hands_ix[pos], *map(index_of, d.skat))
                laid = set(map(index_of, d.laid))
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
        if d.exchange is not None:
            self._close_exchange(d, step)
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
            and trick.winner == d.null_player
            and d.result is None
            and d.declaration is not None
            and (limit := d.declaration.tricks_to_take) is not None
            and play.trick_count[d.null_player] > limit
        ):
            # A nullo is lost with the player's first trick (an Uno with his second, a
            # Duo with his third): scored now, as a server stops there. Cards played
            # on are still checked, and the deal is scored again at its last trick (an
            # earlier revoke may yet decide it).
            step.notes.append(
                f"trick {trick.number}: the player takes his {_ORDINALS[limit]} trick; "
                f"the {_NULL_WORDS[d.declaration.game]} is lost"
            )
            self._end(st, d, step)
            d.phase = "play"
        return None

    # Revolution's exchange --------------------------------------------------------------

    def _exchange(self, st: SkatState, e: Event, step: _Step) -> None:
        """Cards one adversary passes to the other. In a Revolution, after the player's
        hand is laid open and before the first card is led, the adversaries may
        exchange cards, each giving as many as he receives (docs/skat.md: the seeds
        give only the game's value, Law 1). Anything else is an illegal exchange."""
        assert isinstance(e, Exchange)
        d = st.deal
        if d is None or d.phase != "play" or d.play is None or d.declarer is None:
            return self._out_of_phase(st, e, step, "an exchange of cards in a Revolution")
        play = d.play
        decl = d.declaration
        tno = play.trick_number
        assert decl is not None

        def illegal(why: str, cards: Sequence[Card] = e.given) -> None:
            step.flag(v.IllegalExchange, e.seat, tno, cards, why)

        if decl.game != "revolution":
            return illegal(f"cards exchanged in a {decl.game}: only a Revolution allows it")
        if d.exchange is None:
            return illegal("cards exchanged after the first card was led")
        if e.seat == d.declarer:
            return illegal("the player's hand is laid open and stays his (Law 5)")
        if e.seat not in d.exchange:
            return illegal(f"seat {e.seat} holds no cards (Law 6)")
        to = next(s for s in d.exchange if s != e.seat)
        for card in e.given:
            at = play.locate(card)
            if at is None or at == ("hand", e.seat):
                play.transfer(card, e.seat, to)
            elif at[0] == "aside":
                illegal(f"{card} is in the skat", (card,))
            elif at[1] == d.declarer:
                illegal(f"{card} is in the player's hand", (card,))
            else:
                illegal(f"{card} is in seat {at[1]}'s hand, not seat {e.seat}'s", (card,))
            d.exchange[e.seat].append(card)
        return None

    def _close_exchange(self, d: DealState, step: _Step) -> None:
        """At the first card: each adversary must have received as many cards as he
        gave, or one of them holds more than ten and the other fewer, which Law 46
        decides: "If it is one of his adversaries, the player's game is won."
        """
        given = d.exchange
        assert given is not None
        d.exchange = None
        a, b = given
        if len(given[a]) == len(given[b]):
            return
        more, fewer = (a, b) if len(given[a]) > len(given[b]) else (b, a)
        diff = len(given[more]) - len(given[fewer])
        step.flag(
            v.IllegalExchange,
            more,
            1,
            (*given[more], *given[fewer]),
            f"seat {more} gave {len(given[more])} cards and received {len(given[fewer])}: "
            f"seat {more} holds {10 - diff}, seat {fewer} {10 + diff} (Law 46)",
        )
        d.forced.append((1, step.index, True, "illegal-exchange (Law 46)"))

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
        """Laws 49-50: a claim laid down. A claim is right if the claimant's side
        makes it against every defence: where the claimant's cards are known (laid
        down, or known before) the rest is searched (:func:`rules.tricks.solve.solve`);
        otherwise, or where the search is too long, the count so far decides."""
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
        if e.what == "open":
            # The hand laid open, the rest offered (a server's "show cards"): the
            # play goes on until the other side concedes or the last trick.
            return None
        by_player = e.seat == d.declarer
        if e.what in ("won", "schneider") and not by_player:
            step.flag(
                v.ClaimMistaken,
                e.seat,
                tno,
                e.shown,
                "only the single player claims his game (Law 49)",
            )
            return None
        if e.what == "defeated" and by_player:
            step.flag(
                v.ClaimMistaken,
                e.seat,
                tno,
                e.shown,
                "the single player cannot claim 'defeated' (Law 50)",
            )
            return None
        holds, why, evidence = self._check_claim(d, e, step)
        law = "Law 49" if by_player else "Law 50"
        if holds is False:
            step.flag(v.ClaimMistaken, e.seat, tno, evidence, f"{why} ({law})")
            d.forced.append((tno, step.index, not by_player, f"claim-mistaken ({law})"))
            if not by_player:
                # Law 50: "all that adversary's cards shall be taken by the player".
                d.extra.extend(e.shown)
        elif e.what == "rest":
            self._rest(d, "declarer" if by_player else "defenders")
        else:
            d.forced.append((tno, step.index, by_player, f"claim ({law})"))
        self._end(st, d, step)
        return None

    def _check_claim(
        self, d: DealState, e: Claim, step: _Step
    ) -> tuple[bool | None, str, tuple[Card, ...]]:
        """Whether a claim holds (``None``: a claim of the rest not checked), why not,
        and the evidence: the refuting line of play, or the cards laid down."""
        play, decl, me = d.play, d.declaration, d.declarer
        assert play is not None and decl is not None and me is not None
        by_player = e.seat == me
        defenders = frozenset(d.defenders)
        left = 10 - len(play.tricks)
        tricks = play.trick_count[me]
        against = sum(play.points[s] for s in defenders)
        k = decl.tricks_to_take
        what = e.what
        # The goal, counted from now on (see rules.tricks.solve.Goal); the count so far
        # (None: a claim of the rest, not decided by a count) and why it fails.
        goal: Goal
        counted: bool | None = None
        why_count = ""
        if what == "rest":
            if k is None:
                claim = "the rest"
                goal = Goal(frozenset({me}), tricks=(left, left) if by_player else (0, 0))
            else:
                claim = "that the player takes no more tricks"
                goal = Goal(frozenset({me}), tricks=(0, 0))
        elif k is not None:
            claim = f"the {_NULL_WORDS[decl.game]} {'won' if by_player else 'defeated'}"
            goal = Goal(frozenset({me}), tricks=(k - tricks, k - tricks), negate=not by_player)
            # By the count: won once it can no longer be lost; defeated once the player
            # has more tricks than he may take, or too few left to take.
            counted = (
                (tricks == k and left == 0) if by_player else (tricks > k or tricks + left < k)
            )
            why_count = f"claimed {claim} with {tricks} tricks taken and {left} to play"
        elif what in ("won", "schneider"):
            target = 61 if what == "won" else self.rules.schneider_at
            have = play.points[me] + (self._skat_points(d) or 0)
            claim = f"{target}"
            # The player's card points are what the adversaries leave: the skat is his.
            goal = Goal(frozenset({me}), against=(0, 120 - target - against))
            counted = have >= target
            why_count = f"claimed {target} with {have} taken in: the game is lost"
        else:
            claim = "the player defeated"
            goal = Goal(frozenset({me}), against=(60 - against, 120))
            counted = against >= 60
            why_count = f"claimed the player defeated with {against} taken in"
        if counted:
            return True, "", ()
        if play.known_ix(e.seat) is not None:
            answer = self._search_claim(d, frozenset({me}) if by_player else defenders, goal)
            if answer.holds is not None:
                if answer.holds:
                    return True, "", ()
                line = " ".join(f"{s}:{c}" for s, c in answer.line)
                return (
                    False,
                    f"claimed {claim} against every defence; this one beats it: {line}",
                    tuple(c for _, c in answer.line),
                )
            step.notes.append(f"the claim was not searched ({answer.why}): counted instead")
        return counted, why_count, e.shown

    def _search_claim(self, d: DealState, claimants: frozenset[int], goal: Goal) -> Answer:
        """Search the rest of the play from the cards the referee knows."""
        play = d.play
        assert play is not None
        seats = play.seats
        hands = {s: play.known_ix(s) for s in seats}
        unseen: list[int] = []
        pinned: dict[int, list[int]] = {}
        for _, i in _DECK_IX:
            at = play.location_ix(i)
            if at is None:
                unseen.append(i)
            elif at[0] == "hand" and at[1] is not None and hands.get(at[1]) is None:
                # Placed with a hand not seen whole (the player's twelve before he
                # lays away): with him, or laid away.
                unseen.append(i)
                pinned.setdefault(at[1], []).append(i)
        cur = play.current
        return solve(
            play.contract,
            seats,
            cur.seats[0] if cur.seats else cur.leader,
            tuple(zip(cur.seats, cur.ix, strict=True)),
            hands,
            {s: play.remaining(s) for s in seats},
            unseen,
            claimants=claimants,
            goal=goal,
            pinned=pinned,
            voids={s: tuple(play.voids[s]) for s in seats},
            budget=self.claim_budget,
        )

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
        sequence = _sequence_ix(decl.game)
        if d.hands_ix is not None and len(d.skat) == 2:
            twelve = {*d.hands_ix[d.seats.index(d.declarer)], *map(index_of, d.skat)}
            with_ = sequence[0] in twelve
            count = 0
            for i in sequence:
                if (i in twelve) is not with_:
                    break
                count += 1
            return count if with_ else -count
        # Otherwise from where each trump was seen: played or held by whom, or in
        # the skat, which is the player's.
        holder = d.play.holder
        skat_ix = {index_of(c) for c in (*(skat or ()), *d.skat_seen)}
        me = d.declarer
        run: bool | None = None  # "with" or "without"
        count = 0
        for i in sequence:  # from the top, as far as the run goes
            seat = holder(i)
            if seat is None and i not in skat_ix:
                return None  # not yet seen
            mine = i in skat_ix or seat in (ASIDE, me)
            if run is None:
                run = mine
            elif mine is not run:
                break
            count += 1
        return count if run else -count

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
        me = d.declarer
        assert me is not None and d.declaration is not None
        n = st.players
        value = gv.value * d.factor * (2 if d.bock else 1)
        won = gv.won
        changes = [0] * n
        changes[me] = value
        tournament: tuple[int, ...] | None = None
        if self._isko:
            # Seeger-Fabian: +50 per game won, -50 per game lost; per lost game +40 to
            # each adversary at a table of three, +30 to each other player at four.
            if won:
                tp = [0] * n
                tp[me] = value + 50
            else:
                tp = [40 if n == 3 else 30] * n
                tp[me] = value - 50
            tournament = tuple(tp)
        if self.rules.bock and (points == 60 or (not won and d.factor > 1)):
            st.bock_left += n
            d.bock_added += n
            step.notes.append(f"a Bock round: the next {n} deals count double")
        result = DealResult(
            d.number,
            "game",
            me,
            str(d.declaration),
            game_name(d.declaration, self.rules),
            d.bidding.value,
            won,
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
        st.pad[:] = map(int.__add__, st.pad, result.changes)
        if result.tournament is not None:
            st.tournament[:] = map(int.__add__, st.tournament, result.tournament)
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
    Exchange: SkatGame._exchange,
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
