"""Frog as a sequence of events, with undo (seed 002, "FROG.").

"Three, four, or five can play; but only three are active in each deal. If four
play, the dealer takes no cards. If five play, he gives cards to the two on his
left and one on his right." The pack is 36 cards, A 10 K Q J 9 8 7 6; "three
hands of eleven cards each, and three in the widow".

The games, "Each player in turn, beginning on the dealer's left, can offer to play
one of three games, and the highest offer must be accepted. A player cannot
increase his own bid unless he is overbid":

* **Frog** — hearts trumps; the player turns the widow up, takes it, and lays
  three cards away, whose points count for him. One counter a point.
* **Chico** — "any suit for the trump except hearts"; the widow untouched, its
  points his. Two counters a point.
* **Grand** — hearts trumps; the widow untouched until the play is over. Four
  counters a point.

"The player on the dealer's left always leads"; "The others must follow suit if
they can ... If a player cannot follow suit, he must trump ... he is not obliged
to over-trump". "For every point the single player gets over 60 he must be paid a
counter by each of the others who held cards. But if he does not get 60, he must
pay each of the others at the table, including those who held no cards".

Where the text is silent: a pass is final (as in Skat, Law 35); if nobody offers,
the deal passes to the next dealer; a revoke is flagged with its evidence and
decides nothing (the text names no penalty).

>>> import random
>>> from rules.frog.autoplay import random_deal
>>> g = FrogGame()
>>> for e in random_deal(random.Random(1)).events:
...     _ = g.apply(e)
>>> g.verdicts, len(g.results), sum(g.totals)
((), 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Final

from rules import events as base
from rules.cards import FROG_DECK, Card
from rules.errors import InvalidEventError, InvalidOptionError
from rules.events import (
    Claim,
    Concede,
    Correct,
    Event,
    Penalty,
    Play,
    SetDealer,
)
from rules.outcome import Outcome
from rules.tricks import verdicts as v
from rules.tricks.contract import Contract, Obligation
from rules.tricks.game import EventLog, Step, check_seats
from rules.tricks.play import TrickPlay
from rules.verdicts import Verdict

__all__ = [
    "EVENT_TYPES",
    "GAMES",
    "Deal",
    "Discard",
    "FrogGame",
    "FrogResult",
    "FrogRules",
    "NameTrump",
    "Offer",
    "Pass",
    "WidowShown",
    "contract_for",
    "event_from_json",
    "settle",
]

SCHEMA: Final = 1
#: The games, lowest first: "Chico outbids Frog"; "Grand outbids Chico".
GAMES: Final = ("frog", "chico", "grand")
#: Counters a point: "Each point under or over 60 is worth two counters in Chico";
#: "Every point under or over 60 in a Grand is worth four counters."
COUNTERS: Final = {"frog": 1, "chico": 2, "grand": 4}
#: Seed 002: "Each Ace is worth 11, Tens are worth 10, Kings 4, Queens 3, and Jacks 2."
POINTS: Final = {1: 11, 10: 10, 13: 4, 12: 3, 11: 2}
ORDER: Final = (1, 10, 13, 12, 11, 9, 8, 7, 6)
_DECK: Final = frozenset(FROG_DECK)


def contract_for(trump: str) -> Contract:
    """Frog's trick contract with ``trump`` as the trump suit."""
    return Contract.build(
        f"frog {trump}",
        trump=trump,
        order=ORDER,
        points=POINTS,
        obligation=Obligation.FOLLOW_ELSE_TRUMP,
    )


_CONTRACTS: Final = {s: contract_for(s) for s in "SHDC"}


@dataclass(frozen=True, slots=True)
class FrogRules:
    """Options: the number at the table (seed 002: "Three, four, or five")."""

    players: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 3 <= self.players <= 5:
            raise InvalidOptionError(f"players {self.players!r}: Frog is for three to five")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# Events ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """A new deal: 3 each, 3 to the widow, 4 and 4 each. ``hands`` by position (the
    dealer's left first) and ``widow`` if known."""

    type: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    widow: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Offer(Event):
    """An offer to play ``frog``, ``chico`` or ``grand``."""

    type: ClassVar[str] = "offer"
    seat: int
    game: str


@dataclass(frozen=True, slots=True)
class Pass(Event):
    type: ClassVar[str] = "pass"
    seat: int


@dataclass(frozen=True, slots=True)
class NameTrump(Event):
    """The Chico player names the trump suit (``S``, ``D`` or ``C``)."""

    type: ClassVar[str] = "name_trump"
    seat: int
    suit: str


@dataclass(frozen=True, slots=True)
class WidowShown(Event):
    """The widow turned face up (Frog: "to show what it contained"; else at the end)."""

    type: ClassVar[str] = "widow_shown"
    json_names: ClassVar[Mapping[str, str]] = {"shown": "cards"}
    seat: int
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """Frog: the three cards laid away after taking the widow, or only how many."""

    type: ClassVar[str] = "discard"
    json_names: ClassVar[Mapping[str, str]] = {"laid": "cards"}
    seat: int
    laid: tuple[Card, ...] = ()
    count: int | None = None


EVENT_TYPES = base.registry(
    SetDealer,
    Deal,
    Offer,
    Pass,
    NameTrump,
    WidowShown,
    Discard,
    Play,
    Claim,
    Concede,
    Correct,
    Penalty,
)


def event_from_json(data: Any) -> Event:
    return base.event_from_json(data, EVENT_TYPES)


# Verdicts ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OfferOutOfTurn(Verdict):
    """An offer or pass from a player whose turn it was not, or who has passed."""

    kind: ClassVar[str] = "offer-out-of-turn"


@dataclass(frozen=True, slots=True)
class OfferTooLow(Verdict):
    """An offer not above the highest ("the highest offer must be accepted"), or a
    player raising his own offer ("cannot increase his own bid unless he is
    overbid")."""

    kind: ClassVar[str] = "offer-too-low"


@dataclass(frozen=True, slots=True)
class WidowTouched(Verdict):
    """In Chico or Grand the player "must not touch the widow"; in Frog three cards
    are laid away."""

    kind: ClassVar[str] = "widow-touched"


@dataclass(frozen=True, slots=True)
class IllegalTrump(Verdict):
    """Chico names "any suit for the trump except hearts"."""

    kind: ClassVar[str] = "illegal-trump"


# Scoring ---------------------------------------------------------------------------------


def settle(game: str, points: int, declarer: int, active: Sequence[int], players: int) -> list[int]:
    """Counters won (+) and paid (-) by each seat for one game.

    >>> settle("frog", 70, 1, (1, 2, 0), 3)
    [-10, 20, -10]
    >>> settle("grand", 55, 1, (1, 2, 3), 4)            # 5 under, 4 counters, to all three
    [20, -60, 20, 20]
    >>> settle("chico", 60, 0, (0, 1, 2), 3)
    [0, 0, 0]
    """
    rate = COUNTERS[game]
    out = [0] * players
    if points > 60:
        # "paid a counter by each of the others who held cards"
        for seat in active:
            if seat != declarer:
                out[seat] -= (points - 60) * rate
                out[declarer] += (points - 60) * rate
    elif points < 60:
        # "he must pay each of the others at the table, including those who held no cards"
        for seat in range(players):
            if seat != declarer:
                out[seat] += (60 - points) * rate
                out[declarer] -= (60 - points) * rate
    return out


@dataclass(frozen=True, slots=True)
class FrogResult:
    """One deal's end: the game, the player, his points and the counters."""

    deal: int
    game: str | None
    declarer: int | None
    trump: str | None
    points: int | None
    changes: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "game": self.game,
            "declarer": self.declarer,
            "trump": self.trump,
            "points": self.points,
            "changes": list(self.changes),
        }


@dataclass
class FrogDeal:
    number: int
    dealer: int
    seats: tuple[int, int, int]
    hands: tuple[tuple[Card, ...], ...] | None
    widow: tuple[Card, ...]
    phase: str = "bidding"  # bidding, naming, widow, play, over
    high: str | None = None
    declarer: int | None = None
    passed: set[int] = field(default_factory=set)
    turn: int | None = None
    trump: str | None = None
    widow_seen: list[Card] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)
    laid_count: int | None = None
    play: TrickPlay | None = None
    rest_to: str | None = None
    result: FrogResult | None = None


@dataclass
class FrogState:
    players: int
    next_dealer: int | None = None
    deal_number: int = 0
    deal: FrogDeal | None = None
    totals: list[int] = field(default_factory=list)
    results: list[FrogResult] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)


class _Step(Step):
    __slots__ = ("result",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.result: FrogResult | None = None


def _positions(dealer: int, players: int) -> tuple[int, int, int]:
    """Three play all; "If four play, the dealer takes no cards. If five play, he
    gives cards to the two on his left and one on his right"."""
    if players == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    if players == 4:
        return ((dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4)
    return ((dealer + 1) % players, (dealer + 2) % players, (dealer - 1) % players)


def _points(cards: Sequence[Card]) -> int:
    return sum(POINTS.get(c.rank, 0) for c in cards)


class FrogGame(EventLog[FrogRules, FrogState, _Step, Outcome[FrogResult]]):
    """A sitting at one Frog table."""

    name = "frog"
    title = "Frog"
    a_title = "a Frog"
    event_types = EVENT_TYPES
    rules_type = FrogRules

    def __init__(self, rules: FrogRules | None = None) -> None:
        super().__init__(rules or FrogRules())

    def _new_state(self) -> FrogState:
        return FrogState(self.rules.players, totals=[0] * self.rules.players)

    def _new_step(self, index: int) -> _Step:
        return _Step(index)

    def _outcome(
        self, verdicts: tuple[Verdict, ...], notes: tuple[str, ...], step: _Step | None
    ) -> Outcome[FrogResult]:
        return Outcome(verdicts, notes, None if step is None else step.result)

    # The log --------------------------------------------------------------------------

    @property
    def results(self) -> tuple[FrogResult, ...]:
        return tuple(self._state.results)

    @property
    def totals(self) -> tuple[int, ...]:
        """Counters won (+) or owed (-) by each seat so far."""
        return tuple(self._state.totals)

    @property
    def deal(self) -> FrogDeal | None:
        return self._state.deal

    @property
    def phase(self) -> str:
        """The deal's phase (bidding, naming, widow, play), or ``deal`` between deals."""
        d = self._state.deal
        return "deal" if d is None or d.phase == "over" else d.phase

    @property
    def dealer(self) -> int | None:
        d = self._state.deal
        return None if d is None else d.dealer

    def summary(self) -> dict[str, Any]:
        """The table as observers need it.

        >>> s = FrogGame().summary()
        >>> s["game"], s["phase"], s["scores"], s["score_by"]
        ('frog', 'deal', [0, 0, 0], 'seat')
        """
        st = self._state
        d = st.deal
        return {
            **self._summary(st.totals),
            "deal_number": st.deal_number,
            "declarer": None if d is None else d.declarer,
            "game_offered": None if d is None else d.high,
            "trump": None if d is None else d.trump,
            "tricks": [] if d is None or d.play is None else [t.to_json() for t in d.play.tricks],
            "results": [r.to_json() for r in st.results],
        }

    @property
    def turn(self) -> int | None:
        d = self._state.deal
        if d is None:
            return None
        if d.phase == "bidding":
            return d.turn
        if d.phase == "play" and d.play is not None:
            return d.play.turn
        return d.declarer if d.phase in ("naming", "widow") else None

    # Malformed input -------------------------------------------------------------------

    def _validate(self, event: Event) -> None:
        if type(event) not in EVENT_TYPES.values():
            raise InvalidEventError(f"not a Frog event: {event!r}")
        check_seats(event, self.rules.players)
        cards = (event.new,) if isinstance(event, Correct) else event.cards()
        for card in cards:
            if card not in _DECK:
                raise InvalidEventError(f"{event.type}: {card} is not a card of the Frog pack")
        if isinstance(event, Deal) and event.hands is not None and len(event.hands) != 3:
            raise InvalidEventError(f"deal: {len(event.hands)} hands; three are active")
        if isinstance(event, Offer) and event.game not in GAMES:
            raise InvalidEventError(f"offer: {event.game!r} is not frog, chico or grand")
        if isinstance(event, NameTrump) and event.suit not in ("S", "H", "D", "C"):
            raise InvalidEventError(f"name_trump: {event.suit!r} is not a suit (S H D C)")
        if isinstance(event, Claim) and event.what != "rest":
            raise InvalidEventError("claim: a Frog claim is 'rest'")
        if isinstance(event, Discard) and event.count is not None and event.count < 0:
            raise InvalidEventError("discard: count must not be negative")

    # The referee --------------------------------------------------------------------------

    def _step(self, st: FrogState, e: Event, step: _Step) -> None:
        d = st.deal
        if isinstance(e, SetDealer):
            st.next_dealer = e.seat
        elif isinstance(e, Deal):
            self._deal(st, e, step)
        elif isinstance(e, Penalty):
            st.totals[e.seat] += e.points
        elif d is None or d.phase == "over":
            self._out_of_phase(d, e, step, "a deal")
        elif isinstance(e, (Offer, Pass)):
            self._call(st, d, e, step)
        elif isinstance(e, NameTrump):
            self._name(d, e, step)
        elif isinstance(e, (WidowShown, Discard)):
            self._widow(st, d, e, step)
        elif isinstance(e, Play):
            self._play(st, d, e, step)
        elif isinstance(e, (Claim, Concede)):
            self._give_up(st, d, e, step)

    def _out_of_phase(self, d: FrogDeal | None, e: Event, step: _Step, want: str) -> None:
        phase = "no deal" if d is None else d.phase
        step.flag(
            v.OutOfPhase,
            getattr(e, "seat", None),
            None,
            e.cards(),
            f"{e.type} during {phase}; expected {want}",
        )

    def _deal(self, st: FrogState, e: Deal, step: _Step) -> None:
        n = st.players
        old = st.deal
        if old is not None and old.phase not in ("over", "bidding"):
            step.notes.append(f"deal {old.number} abandoned")
        expected = st.next_dealer if st.next_dealer is not None else n - 1
        if old is not None and old.phase == "bidding" and old.high is None and not old.passed:
            expected = old.dealer  # a fresh deal before any offer: the same dealer
        dealer = expected if e.dealer is None else e.dealer
        if dealer != expected:
            step.flag(
                v.PlayedOutOfTurn, dealer, None, (), f"seat {dealer} dealt; seat {expected}'s deal"
            )
        st.deal_number += 1
        seats = _positions(dealer, n)
        d = FrogDeal(st.deal_number, dealer, seats, e.hands, e.widow, turn=seats[0])
        st.deal = d
        st.next_dealer = (dealer + 1) % n  # "the deal passes to the left"
        if e.hands is not None:
            seen: set[Card] = set()
            for pos, hand in enumerate(e.hands):
                if len(hand) != 11:
                    step.flag(
                        v.WrongNumberOfCards,
                        seats[pos],
                        None,
                        hand,
                        f"dealt {len(hand)}, not eleven",
                    )
                for card in hand:
                    if card in seen:
                        step.flag(v.DuplicateCard, seats[pos], None, (card,), f"{card} dealt twice")
                    seen.add(card)
        if e.widow and len(e.widow) != 3:
            step.flag(v.WrongNumberOfCards, None, None, e.widow, "the widow is three cards")

    def _call(self, st: FrogState, d: FrogDeal, e: Offer | Pass, step: _Step) -> None:
        if d.phase != "bidding":
            return self._out_of_phase(d, e, step, "no offer after the bidding")
        seat = e.seat
        if seat not in d.seats or seat in d.passed or seat != d.turn:
            if isinstance(e, Offer) and seat == d.declarer:
                step.flag(OfferTooLow, seat, None, (), "a player cannot increase his own bid")
            else:
                step.flag(OfferOutOfTurn, seat, None, (), f"seat {d.turn} is to offer or pass")
            return None
        if isinstance(e, Offer):
            if d.high is not None and GAMES.index(e.game) <= GAMES.index(d.high):
                step.flag(OfferTooLow, seat, None, (), f"{e.game} does not outbid {d.high}")
                return None
            d.high, d.declarer = e.game, seat
        else:
            d.passed.add(seat)
        self._next_bidder(st, d, seat, step)
        return None

    def _next_bidder(self, st: FrogState, d: FrogDeal, after: int, step: _Step) -> None:
        order = d.seats
        i = order.index(after)
        for k in range(1, 4):
            s = order[(i + k) % 3]
            if s in d.passed:
                continue
            if s == d.declarer or d.high == "grand":
                break  # nobody left to outbid him ("Grand ... is the highest bid possible")
            d.turn = s
            return
        d.turn = None
        if d.declarer is None or d.high is None:
            d.phase = "over"
            result = FrogResult(d.number, None, None, None, None, (0,) * st.players)
            self._record(st, d, result, step)
            step.notes.append("nobody offered: the deal passes")
            return
        if d.high == "chico":
            d.phase = "naming"
        elif d.high == "frog":
            d.trump = "H"  # "In this, hearts must be trumps."
            d.phase = "widow"
        else:
            d.trump = "H"  # "Hearts must be trumps"
            self._start_play(d)

    def _name(self, d: FrogDeal, e: NameTrump, step: _Step) -> None:
        if d.phase != "naming" or e.seat != d.declarer:
            return self._out_of_phase(d, e, step, "the Chico player naming trumps")
        if e.suit == "H":
            step.flag(
                IllegalTrump, e.seat, None, (), "Chico: 'any suit for the trump except hearts'"
            )
        d.trump = e.suit
        self._start_play(d)
        return None

    def _widow(self, st: FrogState, d: FrogDeal, e: WidowShown | Discard, step: _Step) -> None:
        if isinstance(e, WidowShown):
            for card in e.shown:
                if d.widow and card not in d.widow:
                    step.flag(v.CardNotInHand, e.seat, None, (card,), f"{card} is not in the widow")
                if card not in d.widow_seen:
                    d.widow_seen.append(card)
            if d.play is not None:
                d.play.set_aside(e.shown, step.flag)
            if d.phase == "widow" and e.seat == d.declarer:
                return None
            if (
                d.phase == "play"
                and d.play is not None
                and not d.play.finished
                and d.high != "frog"
            ):
                step.flag(
                    WidowTouched,
                    e.seat,
                    d.play.trick_number,
                    e.shown,
                    f"in {d.high} the widow is not touched until the play is finished",
                )
            return None
        if d.phase != "widow" or e.seat != d.declarer:
            step.flag(WidowTouched, e.seat, None, e.laid, "only the Frog player lays cards away")
            return None
        d.laid.extend(e.laid)
        d.laid_count = (d.laid_count or 0) + (len(e.laid) if e.count is None else e.count)
        if d.laid_count != 3:
            step.flag(
                WidowTouched, e.seat, None, e.laid, f"{d.laid_count} cards laid away, not three"
            )
        self._start_play(d)
        return None

    def _start_play(self, d: FrogDeal) -> None:
        assert d.trump is not None
        known: dict[int, Sequence[Card]] = {}
        aside: list[Card] = []
        if d.hands is not None:
            for pos, seat in enumerate(d.seats):
                if seat != d.declarer or d.high != "frog":
                    known[seat] = d.hands[pos]
                elif len(d.laid) == 3 and d.widow:
                    known[seat] = [c for c in (*d.hands[pos], *d.widow) if c not in d.laid]
            aside = list(d.widow) if d.high != "frog" else list(d.laid)
        elif d.high == "frog":
            aside = list(d.laid)
        # "The player on the dealer's left always leads for the first trick."
        d.play = TrickPlay(
            _CONTRACTS[d.trump],
            d.seats,
            d.seats[0],
            11,
            hands=known,
            aside=aside,
            aside_name="widow",
        )
        d.phase = "play"

    def _play(self, st: FrogState, d: FrogDeal, e: Play, step: _Step) -> None:
        if d.phase != "play" or d.play is None:
            return self._out_of_phase(d, e, step, "no card before the game is made")
        if e.seat not in d.seats:
            step.flag(
                v.PlayedOutOfTurn,
                e.seat,
                d.play.trick_number,
                (e.card,),
                f"seat {e.seat} holds no cards",
            )
            return None
        d.play.play(e.seat, e.card, step.flag)
        if d.play.finished:
            self._end(st, d, step)
        return None

    def _give_up(self, st: FrogState, d: FrogDeal, e: Claim | Concede, step: _Step) -> None:
        if d.phase != "play" or d.play is None:
            return self._out_of_phase(d, e, step, "a claim during the play")
        if isinstance(e, Claim) and e.shown:
            d.play.reveal(e.seat, e.shown, step.flag)
        by_player = e.seat == d.declarer
        claims = isinstance(e, Claim)
        d.rest_to = "declarer" if by_player == claims else "defenders"
        self._end(st, d, step)
        return None

    def _end(self, st: FrogState, d: FrogDeal, step: _Step) -> None:
        play = d.play
        assert play is not None and d.declarer is not None and d.high is not None
        d.phase = "over"
        taken = play.points[d.declarer]
        # The widow (Chico, Grand) or the cards laid away (Frog) count for the player.
        counted: list[Card] | None = None
        if d.high == "frog" and len(d.laid) == 3:
            counted = list(d.laid)
        elif d.high != "frog" and len(d.widow) == 3:
            counted = list(d.widow)
        elif d.high != "frog" and len(d.widow_seen) == 3:
            counted = list(d.widow_seen)
        elif play.finished:
            played = {c for t in play.tricks for c in t.cards}
            rest = [c for c in FROG_DECK if c not in played]
            counted = rest if len(rest) == 3 else None
        points: int | None = None
        if counted is not None:
            points = taken + _points(counted)
            if d.rest_to == "declarer":
                points += 120 - sum(play.points.values()) - _points(counted)
        else:
            step.notes.append("the widow is not known: show it to count the player's points")
        changes = (
            tuple(settle(d.high, points, d.declarer, d.seats, st.players))
            if points is not None
            else (0,) * st.players
        )
        result = FrogResult(d.number, d.high, d.declarer, d.trump, points, changes)
        self._record(st, d, result, step)

    def _record(self, st: FrogState, d: FrogDeal, result: FrogResult, step: _Step) -> None:
        d.result = result
        st.results.append(result)
        for seat, change in enumerate(result.changes):
            st.totals[seat] += change
        step.result = result
