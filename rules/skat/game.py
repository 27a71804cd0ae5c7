"""A Skat table as a sequence of events, with undo.

The game is its event log: :meth:`SkatGame.apply` takes the next event and returns
what it flagged and, at the end of a deal, the deal's result; :meth:`SkatGame.undo`
pops the last event and the state is rebuilt by replaying the log, so the score
pad follows. A card seen played stays played: what is wrong is a verdict with
evidence, and where the laws say an irregularity decides the game (Laws 26, 32,
46, 48-53) the earliest one decides it, the play going on "to see if he can make
schneider or schwarz". Only malformed events raise
:class:`~rules.errors.InvalidEventError`, leaving the game as it was.

The seams live apart: :mod:`~rules.skat.claims` (claims and concessions,
Laws 49-51), :mod:`~rules.skat.exchange` (Revolution's exchange) and
:mod:`~rules.skat.settlement` (the end of a deal, the score pad, Laws 55-59);
:mod:`~rules.skat.state` holds the state they share.

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
from functools import cache
from typing import Any, Final, Self

from rules.cards import SKAT_DECK, Card
from rules.errors import InvalidEventError
from rules.eventlog import EventLog, apply_all, check_seats, events_of
from rules.outcome import Outcome
from rules.skat import verdicts as v
from rules.skat.bidding import Bidding
from rules.skat.claims import CLAIMS, NULL_WORDS, claim, concede
from rules.skat.declaration import SUIT_GAMES, Declaration, contract_for
from rules.skat.events import (
    EVENT_TYPES,
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
)
from rules.skat.exchange import close_exchange, exchange
from rules.skat.rulesets import SkatRules
from rules.skat.settlement import DealResult, end, record, settle, unrecord
from rules.skat.state import DECK_IX, DealState, SkatState, SkatStep
from rules.skat.values import bid_values
from rules.tricks.contract import IX_BY_SUIT, index_of
from rules.tricks.play import Flag, Trick, TrickPlay
from rules.tricks.solve import BUDGET
from rules.verdicts import Verdict

__all__ = ["DealResult", "DealState", "Outcome", "SkatGame", "SkatState", "positions"]

SCHEMA: Final = 1
_DECK: Final = frozenset(SKAT_DECK)
#: The Skat pack's ranks: a card is of the pack if its rank is (every suit is).
_RANKS: Final = frozenset(c.rank for c in SKAT_DECK)
_ORDINALS: Final = ("first", "second", "third")
_CALLS: Final = frozenset((Bid, Hold, Pass))
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


_SKAT_IX: Final = frozenset(i for _, i in DECK_IX)


@cache
def _allowed_bids(rules: SkatRules) -> frozenset[int]:
    return frozenset(bid_values(rules))


def _hands_ix(hands: Iterable[Iterable[Card]]) -> tuple[tuple[int, ...], ...]:
    """Hands of cards as card indexes (:func:`~rules.tricks.contract.index_of`)."""
    return tuple(tuple([IX_BY_SUIT[c.suit][c.rank] for c in hand]) for hand in hands)


#: The outcome of the many events that do nothing worth telling.
_QUIET: Final[Outcome[DealResult]] = Outcome()


def _lost_early(d: DealState, play: TrickPlay, trick: Trick, schneider_at: int) -> str | None:
    """What ``trick`` loses of a game not yet scored, said as a note; ``None`` where it
    decides nothing yet:

    * a nullo, with the player's first trick (an Uno with his second, a Duo with
      his third);
    * a game announced schwarz (and so every ouvert game with trumps: Law 39, ISkO),
      with the defenders' first trick;
    * a game announced schneider (and not schwarz: Law 39), with the trick after
      which the player can no longer reach ``schneider_at`` (the rules': 90, or 91
      in the laws of 1906, Law 56), the defenders holding 31 (or 30) points (the
      game's value counts the announcement, Law 2).
    """
    decl = d.declaration
    if d.result is not None or decl is None:
        return None
    if trick.winner == d.null_player:
        limit = decl.tricks_to_take
        if limit is not None and play.trick_count[d.null_player] > limit:
            return (
                f"the player takes his {_ORDINALS[limit]} trick; the "
                f"{NULL_WORDS[decl.game]} is lost"
            )
        return None
    if d.schwarz_player >= 0 and trick.winner != d.schwarz_player:
        return "the defenders take a trick; the game announced schwarz is lost"
    if _schneider_missed(d, play, trick, schneider_at):
        return (
            f"the defenders have taken {121 - schneider_at} points or more; the game announced "
            "schneider is lost"
        )
    return None


def _schneider_missed(d: DealState, play: TrickPlay, trick: Trick, schneider_at: int) -> bool:
    """Whether ``trick`` gives the defenders of a game announced schneider (and not
    schwarz) more than ``120 - schneider_at`` points, the game not yet scored
    (:func:`_lost_early`)."""
    decl = d.declaration
    return (
        decl is not None
        and decl.schneider
        and not decl.schwarz
        and d.result is None
        and d.declarer is not None
        and trick.winner != d.declarer
        and decl.has_trumps
        and sum(p for seat, p in play.points.items() if seat != d.declarer) > 120 - schneider_at
    )


class SkatGame(EventLog[SkatRules, SkatState, SkatStep, Outcome[DealResult]]):
    """A sitting at one Skat table (any number of deals).

    The log, its corrections and undo are :class:`~rules.eventlog.EventLog`'s;
    :meth:`apply` is Skat's own, a hot path for the thirty cards of a deal.
    """

    name = "skat"
    title = "Skat"
    a_title = "a Skat"
    event_types = EVENT_TYPES
    rules_type = SkatRules
    schema = SCHEMA
    recount = "; the deal is recounted"

    def __init__(self, rules: SkatRules | None = None, *, claim_budget: int = BUDGET) -> None:
        super().__init__(rules or SkatRules())
        #: Positions a claim's search may visit before the count decides instead.
        self.claim_budget = claim_budget
        #: The collector of the hot path's events (replaced when it collects anything).
        self._sink: SkatStep
        self._sink_flag: Flag
        self._new_sink()
        #: While a game is being played: (deal, play, seats), for the hot path.
        self._hot: tuple[DealState, TrickPlay, frozenset[int]] | None = None
        self._checked: tuple[Declare, Declaration] | None = None
        #: The last deal validated, with its cards as indexes (hands, skat).
        self._dealt: tuple[Deal, tuple[tuple[int, ...], ...], tuple[int, ...]] | None = None
        self._bids = _allowed_bids(self.rules)

    # The log ----------------------------------------------------------------------

    def _new_state(self) -> SkatState:
        return SkatState.new(self.rules.players)

    def _new_step(self, index: int) -> SkatStep:
        return SkatStep(index)

    def _outcome(
        self, verdicts: tuple[Verdict, ...], notes: tuple[str, ...], step: SkatStep | None
    ) -> Outcome[DealResult]:
        return Outcome(verdicts, notes, None if step is None else step.result)

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
                        and (
                            trick.number == 1
                            or play.finished
                            or trick.winner == d.null_player
                            or (d.schwarz_player >= 0 and trick.winner != d.schwarz_player)
                            or _schneider_missed(d, play, trick, self.rules.schneider_at)
                        )
                    ):
                        step.index = len(self._events) - 1
                        return self._after_hot(d, play, trick, step)
                    return _QUIET
        kind = type(event)
        self._validate(event)
        index = len(self._events)
        if kind is Correct:
            assert isinstance(event, Correct)
            out = self._correct(event)
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
        step = SkatStep(0)
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
        self, d: DealState, play: TrickPlay, trick: Trick | None, step: SkatStep
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
        event = super().undo()
        self._hot = self._playing()
        return event

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
    def dealer(self) -> int | None:
        d = self._state.deal
        return None if d is None else d.dealer

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
        return settle(self._state.pad)

    def to_json(self) -> dict[str, Any]:
        """The log, with the rules, and a summary of the state for observers."""
        data = super().to_json()
        data["state"] = self.summary()
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
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
            **self._summary(st.pad),
            "deal_number": st.deal_number,
            "pad": list(st.pad),
            "tournament": list(st.tournament) if self.rules.isko else None,
            "bock_left": st.bock_left,
        }
        if d is not None:
            out.update(
                seats={"vorhand": d.seats[0], "mittelhand": d.seats[1], "hinterhand": d.seats[2]},
                bid=d.bidding.value,
                declarer=d.declarer,
                declaration=None if d.declaration is None else str(d.declaration),
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
            if event.what not in CLAIMS:
                raise InvalidEventError(
                    f"claim: {event.what!r} is not a claim ({', '.join(CLAIMS)})"
                )
        elif isinstance(event, Penalty) and event.points == 0:
            raise InvalidEventError("penalty: points must not be zero")

    # The referee -----------------------------------------------------------------------

    def _step(self, st: SkatState, event: Event, step: SkatStep) -> None:
        handler = _HANDLERS[type(event)]
        handler(self, st, event, step)

    def _out_of_phase(self, st: SkatState, event: Event, step: SkatStep, want: str) -> None:
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

    def _in_play(
        self, st: SkatState, event: Event, step: SkatStep, want: str
    ) -> tuple[DealState, TrickPlay] | None:
        """The deal and its play while a declared game is played; else ``None``, the
        event flagged out of phase (expecting ``want``)."""
        d = st.deal
        if d is None or d.phase != "play" or d.play is None or d.declarer is None:
            self._out_of_phase(st, event, step, want)
            return None
        return d, d.play

    def _set_dealer(self, st: SkatState, e: Event, step: SkatStep) -> None:
        assert isinstance(e, SetDealer)
        if st.deal is not None and st.deal.phase != "over":
            return self._out_of_phase(st, e, step, "the first dealer before the first deal")
        st.next_dealer = e.seat
        return None

    def _deal(self, st: SkatState, e: Event, step: SkatStep) -> None:
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

    def _charge(self, st: SkatState, seat: int, points: int, step: SkatStep, why: str) -> None:
        st.pad[seat] += points
        step.notes.append(f"seat {seat}: {points:+d} ({why})")

    # The auction --------------------------------------------------------------------

    def _call(self, st: SkatState, e: Event, step: SkatStep) -> None:
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

    def _bidding_done(self, st: SkatState, d: DealState, step: SkatStep) -> None:
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
        record(st, d, DealResult(d.number, "passed", changes=(0,) * st.players), step)

    # The skat and the declaration ------------------------------------------------------

    def _declarer_only(
        self, st: SkatState, d: DealState, e: Event, step: SkatStep, what: str
    ) -> bool:
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

    def _pick_up(self, st: SkatState, e: Event, step: SkatStep) -> None:
        assert isinstance(e, PickUp)
        d = st.deal
        if d is None or d.declarer is None or not self._before_first_card(d):
            return self._out_of_phase(st, e, step, "the skat taken up before the play")
        if not self._declarer_only(st, d, e, step, "pick_up"):
            return None
        if d.picked_up:
            # Law 32: "The player who takes the skat cards must lay out two cards in
            # their place": he takes them once. A second taking up was accepted
            # without a word (and would take back what he laid out): said, not done.
            step.flag(
                v.SkatSeen,
                e.seat,
                None,
                e.shown,
                f"the skat taken up twice in deal {d.number}: the player takes it up once "
                "and lays out two cards in its place (Law 32)",
            )
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

    def _discard(self, st: SkatState, e: Event, step: SkatStep) -> None:
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
            if card in d.laid:
                # one card cannot lie in the skat twice (Law 32: "two cards"); it was
                # laid again, its points counted twice and the card it stood for kept
                step.flag(v.DuplicateCard, e.seat, None, (card,), f"{card} laid out twice")
                continue
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

    def _declare(self, st: SkatState, e: Event, step: SkatStep) -> None:
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
        if decl.schwarz and decl.has_trumps and d.declarer is not None:
            d.schwarz_player = d.declarer
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
        if d.decided_at and (trick or 0) > d.decided_at:
            # a nullo lost at the player's first trick (a schwarz announced, at the
            # defenders' first) is decided there: a revoke in a later trick is said,
            # but Laws 52 and 53 decide a game still being played, not one over
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

    def _play(self, st: SkatState, e: Event, step: SkatStep) -> None:
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
        self, st: SkatState, d: DealState, play: TrickPlay, e: Play, step: SkatStep
    ) -> None:
        if d.exchange is not None:
            close_exchange(d, step)
        trick = play.play(e.seat, e.card, step.flag)
        self._after_card(st, d, play, trick, step)

    def _after_card(
        self, st: SkatState, d: DealState, play: TrickPlay, trick: Trick | None, step: SkatStep
    ) -> None:
        """What a card decides: the laws' consequences, the skat laid, the end."""
        for x in step.verdicts:
            self._decides(d, x.kind, x.seat, x.trick, step.index)
        if trick is not None and trick.number == 1:
            self._check_skat_laid(d, step)
        if play.finished:
            unrecord(st, d)
            end(self.rules, st, d, step)
        elif (
            trick is not None
            and (lost := _lost_early(d, play, trick, self.rules.schneider_at)) is not None
        ):
            # A game lost before its last trick is scored now, as a server stops there
            # (its records end with that trick). Cards played on are still checked,
            # and the deal is scored again at its last trick (an earlier revoke may
            # yet decide it).
            step.notes.append(f"trick {trick.number}: {lost}")
            end(self.rules, st, d, step)
            d.phase = "play"
            d.decided_at = trick.number
        return None

    # The skat, looking back, Kontra, rulings ------------------------------------------

    def _check_skat_laid(self, d: DealState, step: SkatStep) -> None:
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

    def _skat_shown(self, st: SkatState, e: Event, step: SkatStep) -> None:
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
            unrecord(st, d)
            end(self.rules, st, d, step)
        return None

    def _skat_seen(self, st: SkatState, e: Event, step: SkatStep) -> None:
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

    def _look_back(self, st: SkatState, e: Event, step: SkatStep) -> None:
        """Law 54: "Any active player may see the last trick turned and quitted,
        provided no card has been led for the next trick. Should a player look back
        at any other trick, or count his cards, he loses the game; but either of the
        others may insist on playing on to see if they can make schneider.\""""
        assert isinstance(e, LookBack)
        playing = self._in_play(st, e, step, "looking back during the play")
        if playing is None:
            return None
        d, play = playing
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

    def _kontra(self, st: SkatState, e: Event, step: SkatStep) -> None:
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

    def _penalty(self, st: SkatState, e: Event, step: SkatStep) -> None:
        assert isinstance(e, Penalty)
        self._charge(st, e.seat, e.points, step, e.reason or "ruling")
        return None


_HANDLERS: dict[type[Event], Any] = {
    SetDealer: SkatGame._set_dealer,
    Deal: SkatGame._deal,
    Bid: SkatGame._call,
    Hold: SkatGame._call,
    Pass: SkatGame._call,
    PickUp: SkatGame._pick_up,
    Discard: SkatGame._discard,
    Declare: SkatGame._declare,
    Exchange: exchange,
    Play: SkatGame._play,
    Claim: claim,
    Concede: concede,
    SkatShown: SkatGame._skat_shown,
    SkatSeen: SkatGame._skat_seen,
    LookBack: SkatGame._look_back,
    Kontra: SkatGame._kontra,
    Re: SkatGame._kontra,
    Penalty: SkatGame._penalty,
}
