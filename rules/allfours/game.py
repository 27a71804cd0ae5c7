"""All Fours as a sequence of events, with undo.

Seed 004 §91: "All Fours is usually played by two persons; not unfrequently by
four. Its name is derived from the four chances, called high, low, Jack, game,
each making a point. It is played with a complete pack of cards, six of which are
to be dealt to each player, three at a time; and the next card, the thirteenth, is
turned up for the trump by the dealer, who, if it prove a knave, scores one point.
The highest card cut deals first. The cards rank the same as at whist--the first
to score ten points, wins."

The seed stops at "92. Laws of All-Fours."; the rest follows the standard laws,
each an option where clubs differ:

* **Begging.** The eldest hand (the dealer's left) stands, or begs; the dealer
  then gives one point ("take one"), or runs the cards: three more to each and a
  new card turned. A card of the old trump suit is run again; a new suit is
  trumps (a jack of it scores the dealer one). If the pack runs out, the same
  dealer deals again. After a run each discards to six.
* **The play.** The eldest leads; each must follow suit or trump, as he likes;
  void of the suit led, anything. A, K, Q, J, 10 … 2.
* **Scoring**, in this order: **High**, the highest trump in play, to whoever held
  it; **Low**, the lowest, to whoever held it (one trump out is both); **Jack**,
  the jack of trumps, to whoever wins it in a trick; **Game**, the most points in
  tricks (ten 10, ace 4, king 3, queen 2, jack 1; a tie scores nobody unless
  ``game_tie="eldest"``). The first to ``game_to`` (10, or 7) wins at once.
* **Revoke**: proved as in every trick game here; the other side scores
  ``revoke_penalty`` (one point).

Four players play two against two, partners opposite (seats 0 and 2, 1 and 3).

>>> import random
>>> from rules.allfours.autoplay import random_deal
>>> g = AllFoursGame()
>>> for e in random_deal(random.Random(2)).events:
...     _ = g.apply(e)
>>> g.verdicts, g.phase, sum(g.scores) >= 2
((), 'deal', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Final, Never

from rules import events as base
from rules.cards import JACK, Card
from rules.errors import InvalidEventError, InvalidOptionError
from rules.events import (
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
    "AllFoursGame",
    "AllFoursRules",
    "Beg",
    "Cut",
    "Deal",
    "Discard",
    "Give",
    "Run",
    "Stand",
    "contract_for",
    "event_from_json",
    "hand_points",
]

SCHEMA: Final = 1
#: "The cards rank the same as at whist": ace high.
ORDER: Final = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
#: Points for Game: "ten 10, ace 4, king 3, queen 2, jack 1".
GAME_POINTS: Final = {10: 10, 1: 4, 13: 3, 12: 2, 11: 1}


def contract_for(trump: str) -> Contract:
    return Contract.build(
        f"all fours {trump}",
        trump=trump,
        order=ORDER,
        points=GAME_POINTS,
        obligation=Obligation.FOLLOW_OR_TRUMP,
    )


_CONTRACTS: Final = {s: contract_for(s) for s in "SHDC"}


@dataclass(frozen=True, slots=True)
class AllFoursRules:
    """Options of a game of All Fours."""

    players: int = 2
    #: Seed 004 §91: "the first to score ten points, wins"; seven is also played.
    game_to: int = 10
    #: Points the other side scores for a revoke.
    revoke_penalty: int = 1
    #: Game tied on points: ``"none"`` scores nobody; ``"eldest"`` gives it to the
    #: eldest hand's side.
    game_tie: str = "none"

    def __post_init__(self) -> None:
        if self.players not in (2, 4):
            raise InvalidOptionError(f"players {self.players!r}: All Fours is for two or four")
        if self.game_to not in (7, 10):
            raise InvalidOptionError(f"game_to {self.game_to!r}: expected 7 or 10")
        if self.revoke_penalty < 0:
            raise InvalidOptionError("revoke_penalty must not be negative")
        if self.game_tie not in ("none", "eldest"):
            raise InvalidOptionError("game_tie: expected 'none' or 'eldest'")

    @property
    def teams(self) -> int:
        return 2

    def team_of(self, seat: int) -> int:
        return seat % 2

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# Events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cut(Event):
    """Cutting for deal, one card a seat: "The highest card cut deals first"."""

    type: ClassVar[str] = "cut"
    json_names: ClassVar[dict[str, str]] = {"cut": "cards"}
    cut: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """Six each, three at a time, and the thirteenth turned up. ``hands`` by seat."""

    type: ClassVar[str] = "deal"
    dealer: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    turned: Card | None = None


@dataclass(frozen=True, slots=True)
class Stand(Event):
    """The eldest hand accepts the trump."""

    type: ClassVar[str] = "stand"
    seat: int


@dataclass(frozen=True, slots=True)
class Beg(Event):
    """The eldest hand begs."""

    type: ClassVar[str] = "beg"
    seat: int


@dataclass(frozen=True, slots=True)
class Give(Event):
    """The dealer gives the beggar one point; the trump stands."""

    type: ClassVar[str] = "give"
    seat: int


@dataclass(frozen=True, slots=True)
class Run(Event):
    """The dealer runs the cards: three more each (``hands`` by seat, if known) and
    ``turned`` the new card turned up (``None``: the pack ran out)."""

    type: ClassVar[str] = "run"
    seat: int
    turned: Card | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """After a run, cards laid away to keep six: the cards if seen, else how many."""

    type: ClassVar[str] = "discard"
    json_names: ClassVar[dict[str, str]] = {"laid": "cards"}
    seat: int
    laid: tuple[Card, ...] = ()
    count: int | None = None


EVENT_TYPES = base.registry(
    Cut, SetDealer, Deal, Stand, Beg, Give, Run, Discard, Play, Correct, Penalty
)


def event_from_json(data: Any) -> Event:
    return base.event_from_json(data, EVENT_TYPES)


# Verdicts -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BegOutOfTurn(Verdict):
    """Standing or begging by other than the eldest; giving or running by other than
    the dealer."""

    kind: ClassVar[str] = "beg-out-of-turn"


# Scoring -----------------------------------------------------------------------------------------


def hand_points(
    contract: Contract, tricks: Sequence[tuple[Sequence[int], Sequence[Card], int]]
) -> list[tuple[str, int | None, tuple[Card, ...]]]:
    """High, Low, Jack and Game of a hand: ``(name, seat or None, evidence)``.

    ``tricks`` are ``(seats, cards, winner)`` in the order played.

    >>> c = contract_for("H")
    >>> from rules.cards import parse_cards
    >>> tricks = [((0, 1), parse_cards("AH 2H"), 0), ((0, 1), parse_cards("10S JH"), 1)]
    >>> [(name, seat) for name, seat, cards in hand_points(c, tricks)]
    [('high', 0), ('low', 1), ('jack', 1), ('game', 1)]
    """
    held: dict[Card, int] = {}
    won_by: dict[Card, int] = {}
    pips: dict[int, int] = {}
    for seats, cards, winner in tricks:
        for seat, card in zip(seats, cards, strict=True):
            held[card] = seat
            won_by[card] = winner
            pips[winner] = pips.get(winner, 0) + contract.points(card)
    trumps = sorted((c for c in held if contract.is_trump(c)), key=contract.power)
    out: list[tuple[str, int | None, tuple[Card, ...]]] = []
    if trumps:
        out.append(("high", held[trumps[-1]], (trumps[-1],)))
        out.append(("low", held[trumps[0]], (trumps[0],)))
        jack = next((c for c in trumps if c.rank == JACK), None)
        if jack is not None:
            out.append(("jack", won_by[jack], (jack,)))
    best = max(pips.values(), default=0)
    leaders = [s for s, p in pips.items() if p == best]
    evidence = tuple(c for c in held if contract.points(c))
    out.append(("game", leaders[0] if len(leaders) == 1 else None, evidence))
    return out


@dataclass
class AllFoursDeal:
    number: int
    dealer: int
    hands: list[list[Card]] | None
    turned: Card | None
    phase: str = "begging"  # begging, giving, discard, play, over
    trump: str | None = None
    refused: str | None = None  # the suit begged away: a run turning it runs again
    runs: int = 0
    pack_out: bool = False
    discarded: list[int] = field(default_factory=list)
    play: TrickPlay | None = None


@dataclass
class AllFoursState:
    players: int
    phase: str = "cut"  # cut, deal, (the deal's phases), over
    dealer: int | None = None
    deal_number: int = 0
    deal: AllFoursDeal | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    verdicts: list[Verdict] = field(default_factory=list)
    points: list[dict[str, Any]] = field(default_factory=list)


class _Step(Step):
    __slots__ = ("scored",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.scored: list[dict[str, Any]] = []


class AllFoursGame(EventLog[AllFoursRules, AllFoursState, _Step, Outcome[Never]]):
    """One game of All Fours, to ``rules.game_to`` points."""

    name = "all-fours"
    title = "All Fours"
    a_title = "an All Fours"
    event_types = EVENT_TYPES
    rules_type = AllFoursRules

    def __init__(self, rules: AllFoursRules | None = None) -> None:
        super().__init__(rules or AllFoursRules())

    def _new_state(self) -> AllFoursState:
        return AllFoursState(self.rules.players)

    def _new_step(self, index: int) -> _Step:
        return _Step(index)

    def _outcome(
        self, verdicts: tuple[Verdict, ...], notes: tuple[str, ...], step: _Step | None
    ) -> Outcome[Never]:
        return Outcome(verdicts, notes, scored=() if step is None else tuple(step.scored))

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of each side (a player, or a partnership of four)."""
        return tuple(self._state.scores)

    @property
    def phase(self) -> str:
        st = self._state
        if st.phase == "over":
            return "over"
        if st.deal is None or st.deal.phase == "over":
            return "deal" if st.dealer is not None else "cut"
        return st.deal.phase

    @property
    def dealer(self) -> int | None:
        return self._state.dealer

    def summary(self) -> dict[str, Any]:
        """The table as observers need it: ``scores`` by side (a player, or a
        partnership of four).

        >>> s = AllFoursGame(AllFoursRules(players=4)).summary()
        >>> s["game"], s["phase"], s["scores"], s["score_by"]
        ('all-fours', 'cut', [0, 0], 'team')
        """
        st = self._state
        d = st.deal
        return {
            **self._summary(st.scores, "team" if self.rules.players == 4 else "seat"),
            "deal_number": st.deal_number,
            "winner": st.winner,
            "trump": None if d is None else d.trump,
            "tricks": [] if d is None or d.play is None else [t.to_json() for t in d.play.tricks],
        }

    @property
    def turn(self) -> int | None:
        d = self._state.deal
        if d is None or d.phase == "over":
            return None
        if d.phase == "play" and d.play is not None:
            return d.play.turn
        eldest = (d.dealer + 1) % self.rules.players
        return eldest if d.phase == "begging" else d.dealer

    # Malformed input ------------------------------------------------------------------------

    def _validate(self, event: Event) -> None:
        if type(event) not in EVENT_TYPES.values():
            raise InvalidEventError(f"not an All Fours event: {event!r}")
        n = self.rules.players
        check_seats(event, n)
        if isinstance(event, Cut) and len(event.cut) != n:
            raise InvalidEventError(f"cut: {len(event.cut)} cards for {n} players")
        for name in ("hands",):
            hands = getattr(event, name, None)
            if hands is not None and len(hands) != n:
                raise InvalidEventError(f"{event.type}: {len(hands)} hands for {n} players")
        if isinstance(event, Discard) and event.count is not None and event.count < 0:
            raise InvalidEventError("discard: count must not be negative")

    # The referee ----------------------------------------------------------------------------

    def _step(self, st: AllFoursState, e: Event, step: _Step) -> None:
        if st.phase == "over" and not isinstance(e, Penalty):
            step.flag(v.OutOfPhase, getattr(e, "seat", None), None, e.cards(), "the game is over")
            return
        d = st.deal
        if isinstance(e, Cut):
            self._cut(st, e, step)
        elif isinstance(e, SetDealer):
            st.dealer = e.seat
            st.phase = "deal"
        elif isinstance(e, Deal):
            self._deal(st, e, step)
        elif isinstance(e, Penalty):
            self._score(st, e.seat, e.points, "penalty", (), step)
        elif d is None or d.phase == "over":
            step.flag(v.OutOfPhase, getattr(e, "seat", None), None, e.cards(), "no deal")
        elif isinstance(e, (Stand, Beg)):
            self._beg(st, d, e, step)
        elif isinstance(e, (Give, Run)):
            self._answer(st, d, e, step)
        elif isinstance(e, Discard):
            self._discard(st, d, e, step)
        elif isinstance(e, Play):
            self._play(st, d, e, step)

    def _cut(self, st: AllFoursState, e: Cut, step: _Step) -> None:
        if st.phase != "cut":
            step.flag(v.OutOfPhase, None, None, e.cut, "cutting is before the first deal")
            return
        # "The highest card cut deals first." Ace high, as at whist.
        ranks = [14 if c.rank == 1 else c.rank for c in e.cut]
        top = [s for s, r in enumerate(ranks) if r == max(ranks)]
        if len(top) > 1:
            step.notes.append("a tie: cut again")
            return
        st.dealer = top[0]
        st.phase = "deal"

    def _deal(self, st: AllFoursState, e: Deal, step: _Step) -> None:
        n = self.rules.players
        old = st.deal
        if st.dealer is None:
            st.dealer = n - 1
        again = old is not None and (old.phase != "over" or old.pack_out)
        expected = st.dealer if again or old is None else (st.dealer + 1) % n
        dealer = expected if e.dealer is None else e.dealer
        if dealer != expected:
            step.flag(
                v.PlayedOutOfTurn, dealer, None, (), f"seat {dealer} dealt; seat {expected}'s deal"
            )
        st.dealer = dealer
        st.deal_number += 1
        hands = None if e.hands is None else [list(h) for h in e.hands]
        d = AllFoursDeal(st.deal_number, dealer, hands, e.turned, discarded=[0] * n)
        st.deal = d
        st.phase = "deal"
        if hands is not None:
            for seat, hand in enumerate(hands):
                if len(hand) != 6:
                    step.flag(v.WrongNumberOfCards, seat, None, hand, f"dealt {len(hand)}, not six")
        if e.turned is not None:
            d.trump = e.turned.suit.value
            if e.turned.rank == JACK:
                # "the thirteenth, is turned up for the trump by the dealer, who, if it
                # prove a knave, scores one point"
                self._score(st, dealer, 1, "jack turned", (e.turned,), step)

    def _beg(self, st: AllFoursState, d: AllFoursDeal, e: Stand | Beg, step: _Step) -> None:
        eldest = (d.dealer + 1) % self.rules.players
        if d.phase != "begging" or e.seat != eldest:
            step.flag(
                BegOutOfTurn, e.seat, None, (), f"seat {eldest}, the eldest hand, stands or begs"
            )
            return
        if isinstance(e, Stand):
            self._start_play(d)
        else:
            d.phase = "giving"
            d.refused = d.trump

    def _answer(self, st: AllFoursState, d: AllFoursDeal, e: Give | Run, step: _Step) -> None:
        if d.phase != "giving" or e.seat != d.dealer:
            step.flag(
                BegOutOfTurn, e.seat, None, e.cards(), f"seat {d.dealer}, the dealer, gives or runs"
            )
            return
        eldest = (d.dealer + 1) % self.rules.players
        if isinstance(e, Give):
            self._score(st, eldest, 1, "gift", (), step)
            if st.phase != "over":
                self._start_play(d)
            return
        d.runs += 1
        if e.hands is not None and d.hands is not None:
            for seat, more in enumerate(e.hands):
                d.hands[seat].extend(more)
        if e.turned is None:
            step.notes.append("the pack ran out: the same dealer deals again")
            d.phase = "over"
            d.pack_out = True
            return
        d.turned = e.turned
        if e.turned.suit.value == d.refused:
            step.notes.append(f"{e.turned} is of the suit begged away: the cards are run again")
            return
        d.trump = e.turned.suit.value
        if e.turned.rank == JACK:
            self._score(st, d.dealer, 1, "jack turned", (e.turned,), step)
        d.phase = "discard"

    def _discard(self, st: AllFoursState, d: AllFoursDeal, e: Discard, step: _Step) -> None:
        if d.phase != "discard":
            step.flag(v.OutOfPhase, e.seat, None, e.laid, "discarding is after the cards are run")
            return
        count = len(e.laid) if e.count is None else e.count
        d.discarded[e.seat] += count
        if d.hands is not None:
            for card in e.laid:
                if card in d.hands[e.seat]:
                    d.hands[e.seat].remove(card)
                else:
                    step.flag(v.CardNotInHand, e.seat, None, (card,), f"{card} is not in the hand")
        if all(x >= 3 * d.runs for x in d.discarded):
            self._start_play(d)

    def _start_play(self, d: AllFoursDeal) -> None:
        assert d.trump is not None
        n = self.rules.players
        seats = [(d.dealer + 1 + k) % n for k in range(n)]
        known = None
        if d.hands is not None and all(len(h) == 6 for h in d.hands):
            known = {s: d.hands[s] for s in range(n)}
        d.play = TrickPlay(_CONTRACTS[d.trump], seats, seats[0], 6, hands=known)
        d.phase = "play"

    def _play(self, st: AllFoursState, d: AllFoursDeal, e: Play, step: _Step) -> None:
        if d.phase == "discard" and d.play is None:
            step.notes.append("play begun: the discards are taken as made")
            self._start_play(d)
        if d.phase != "play" or d.play is None:
            step.flag(v.OutOfPhase, e.seat, None, (e.card,), "no card before the trump stands")
            return
        before = len(step.verdicts)
        d.play.play(e.seat, e.card, step.flag)
        for x in step.verdicts[before:]:
            if x.kind == "revoke" and x.seat is not None and self.rules.revoke_penalty:
                other = (x.seat + 1) % self.rules.players
                self._score(st, other, self.rules.revoke_penalty, "revoke", x.cards, step)
        if d.play.finished and st.phase != "over":
            d.phase = "over"
            self._count(st, d, step)

    def _count(self, st: AllFoursState, d: AllFoursDeal, step: _Step) -> None:
        assert d.play is not None
        tricks = [
            (t.seats, t.cards, t.seats[0] if t.winner is None else t.winner) for t in d.play.tricks
        ]
        eldest = (d.dealer + 1) % self.rules.players
        for name, seat, cards in hand_points(d.play.contract, tricks):
            if name == "game" and seat is None and self.rules.game_tie == "eldest":
                seat = eldest
            if seat is not None and st.phase != "over":
                self._score(st, seat, 1, name, cards, step)

    def _score(
        self,
        st: AllFoursState,
        seat: int,
        points: int,
        why: str,
        cards: Sequence[Card],
        step: _Step,
    ) -> None:
        if st.phase == "over":
            return
        team = self.rules.team_of(seat)
        st.scores[team] += points
        item = {"seat": seat, "team": team, "points": points, "for": why,
                "cards": [str(c) for c in cards], "score": st.scores[team]}  # fmt: skip
        st.points.append(item)
        step.scored.append(item)
        if st.scores[team] >= self.rules.game_to:
            # "the first to score ten points, wins": at once, mid-count included.
            st.phase = "over"
            st.winner = team
            if st.deal is not None:
                st.deal.phase = "over"
            step.notes.append(f"side {team} reaches {st.scores[team]} and wins")
