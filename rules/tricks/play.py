"""The tricks of one deal: turn, winner, what each seat takes in, and what was wrong.

:class:`TrickPlay` is given each card as the camera sees it. It never refuses a
card: a card out of turn, a card seen twice, a card from a hand known not to hold
it are recorded and flagged through the ``flag`` callback the game passes in.

**Revokes without seeing the hands.** A seat that does not follow suit (or, where
the game demands it, does not trump) shows itself void in that suit from that
trick on. When it later plays a card of that suit, or lays one down on a claim,
the earlier trick is flagged as a revoke, with the card it played there and the
card that proves it held the suit. The earliest such trick is flagged, and only
once. Where the hand is known (a known deal, an open game, a hand laid down), the
check is immediate.

>>> from rules.cards import parse_cards
>>> from rules.tricks.contract import Contract, Obligation
>>> hearts = Contract.build("hearts", trump="H", order=(1, 10, 13, 12, 11, 9, 8, 7, 6),
...                         points={1: 11, 10: 10, 13: 4, 12: 3, 11: 2},
...                         obligation=Obligation.FOLLOW)
>>> flagged = []
>>> def flag(kind, seat, trick, cards, detail):
...     flagged.append((kind.kind, seat, trick, [str(c) for c in cards]))
>>> play = TrickPlay(hearts, seats=(1, 2, 0), leader=1, hand_size=3)
>>> for seat, card in zip([1, 2, 0, 1, 2, 0], parse_cards("AS 7C KS 10S 8C QS")):
...     _ = play.play(seat, card, flag)
>>> [(t.number, t.winner, t.points) for t in play.tricks]
[(1, 1, 15), (2, 1, 13)]
>>> _ = play.play(1, parse_cards("9D")[0], flag)
>>> _ = play.play(2, parse_cards("7S")[0], flag)   # seat 2 did not follow spades twice
>>> flagged
[('revoke', 2, 1, ['7C', '7S'])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from rules.cards import Card
from rules.tricks import verdicts as v
from rules.tricks.contract import INDEX, IX_BY_SUIT, TRUMP, Contract, Obligation, index_of

__all__ = ["ASIDE", "Flag", "Trick", "TrickPlay"]

#: How the play reports what is wrong: ``flag(kind, seat, trick, cards, detail)``.
Flag = Callable[[type[v.Verdict], "int | None", "int | None", Sequence[Card], str], None]

_UNKNOWN: Final = -1
_ASIDE: Final = -2
#: What :meth:`TrickPlay.holders` says of a card out of play (the skat, the widow).
ASIDE: Final = _ASIDE
_PLAYED: Final = 64  # + the seat

_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "trumps"}


@dataclass(slots=True)
class Trick:
    """One trick: its number (from 1), who led it, the cards in the order played."""

    number: int
    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    winner: int | None = None
    points: int = 0
    ix: list[int] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.seats[0] if self.seats else self.leader,
            "cards": [[s, str(c)] for s, c in zip(self.seats, self.cards, strict=True)],
            "winner": self.winner,
            "points": self.points,
        }


class TrickPlay:
    """The play of one deal among the active ``seats`` (in playing order, clockwise).

    ``hands`` are the hands known to the referee (a shuffling machine, a record,
    an open game); ``aside`` are cards known to be out of play (the skat, the
    widow) and ``aside_name`` what to call them; ``known`` are hands given as card
    indexes, which saves looking them up again. Inside, cards are their
    :data:`~rules.tricks.contract.INDEX`: the referee checks thousands of deals a
    second.
    """

    __slots__ = (
        "_after",
        "_known",
        "_loc",
        "_n",
        "_next",
        "_succ",
        "_suit_ix",
        "aside_name",
        "contract",
        "current",
        "finished",
        "hand_size",
        "played",
        "points",
        "revokes",
        "seats",
        "taken",
        "trick_count",
        "tricks",
        "voids",
    )

    def __init__(
        self,
        contract: Contract,
        seats: Sequence[int],
        leader: int,
        hand_size: int,
        *,
        hands: Mapping[int, Iterable[Card]] | None = None,
        aside: Iterable[Card] = (),
        aside_name: str = "skat",
        known: Mapping[int, Iterable[int]] | None = None,
    ) -> None:
        self.contract = contract
        self.seats = seats = tuple(seats)
        self.hand_size = hand_size
        self.aside_name = aside_name
        self._after, self._succ = _order(seats)
        self.tricks: list[Trick] = []
        self.current = Trick(1, leader, [], [], None, 0, [])
        self.finished = False
        self.played: dict[int, list[Card]] = {s: [] for s in seats}
        self._n = len(seats)
        self._next = leader
        self._suit_ix = contract.suit_ix
        #: The hands known to the referee, as card indexes still held.
        self._known: dict[int, set[int] | None] = dict.fromkeys(seats)
        #: Where each card is known to be, by index: a seat's hand (the seat),
        #: played (_PLAYED + seat), out of play (_ASIDE) or not known (_UNKNOWN).
        loc = [_UNKNOWN] * 52
        self._loc: list[int] = loc
        #: seat -> effective suit -> (trick, card played there): what each seat showed void.
        self.voids: dict[int, dict[str, tuple[int, Card]]] = {s: {} for s in seats}
        #: (seat, trick) of every revoke flagged, so that none is flagged twice.
        self.revokes: set[tuple[int, int]] = set()
        self.taken: dict[int, list[Card]] = {s: [] for s in seats}
        self.points: dict[int, int] = dict.fromkeys(seats, 0)
        self.trick_count: dict[int, int] = dict.fromkeys(seats, 0)
        given: list[tuple[int, Iterable[int]]] = []
        if hands:
            given += [(seat, [index_of(c) for c in hand]) for seat, hand in hands.items()]
        if known:
            given += known.items()
        for seat, hand_ix in given:
            held = set(hand_ix)
            self._known[seat] = held
            for i in held:
                loc[i] = seat
        for c in aside:
            loc[IX_BY_SUIT[c.suit][c.rank]] = _ASIDE

    # Views ----------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to play next, or ``None`` when the play is over."""
        if self.finished:
            return None
        cur = self.current
        if not cur.seats:
            return cur.leader
        for s in self._after[cur.seats[0]]:
            if s not in cur.seats:
                return s
        return None  # pragma: no cover - a full trick is closed at once

    @property
    def trick_number(self) -> int:
        return self.current.number

    def led(self) -> Card | None:
        """The card led to the current trick, if any."""
        return self.current.cards[0] if self.current.cards else None

    def remaining(self, seat: int) -> int:
        return max(0, self.hand_size - len(self.played[seat]))

    def known(self, seat: int) -> list[Card] | None:
        """The cards ``seat`` still holds, where its hand is known."""
        held = self._known[seat]
        return None if held is None else sorted(_CARDS[i] for i in held)

    unplayed = known

    def locate(self, card: Card) -> tuple[str, int | None] | None:
        """Where a card is known to be: ``("hand", seat)``, ``("played", seat)``,
        ``("aside", None)``, or ``None``."""
        return _decode(self._loc[index_of(card)])

    def location_ix(self, index: int) -> tuple[str, int | None] | None:
        """:meth:`locate` by card index."""
        return _decode(self._loc[index])

    def played_ix(self) -> set[int]:
        """The indexes of every card played so far."""
        return {i for i, at in enumerate(self._loc) if at >= _PLAYED}

    def not_played(self, cards: Iterable[tuple[Card, int]]) -> list[Card]:
        """Those of ``cards`` (pairs of a card and its index) not played."""
        loc = self._loc
        return [c for c, i in cards if loc[i] < _PLAYED]

    def holder(self, index: int) -> int | None:
        """The seat that holds or played the card of index ``index``, :data:`ASIDE`
        if it is out of play, ``None`` if not known."""
        at = self._loc[index]
        return None if at == _UNKNOWN else at - _PLAYED if at >= _PLAYED else at

    def holders(self, indexes: Iterable[int]) -> list[int | None]:
        """For each card index: the seat that holds or played it, :data:`ASIDE` if
        it is out of play, ``None`` if not known."""
        out: list[int | None] = []
        for i in indexes:
            at = self._loc[i]
            out.append(None if at == _UNKNOWN else at - _PLAYED if at >= _PLAYED else at)
        return out

    def place(self, card: Card, seat: int | None) -> None:
        """Know that ``card`` is with ``seat`` (``None``: aside, out of play); a seat
        whose hand is known no longer holds a card laid aside."""
        i = index_of(card)
        if seat is None:
            self._loc[i] = _ASIDE
            for held in self._known.values():
                if held is not None:
                    held.discard(i)
        else:
            self._loc[i] = seat

    def transfer(self, card: Card, giver: int, receiver: int) -> None:
        """``card`` passes from ``giver``'s hand to ``receiver``'s before the play
        (Skat's Revolution): the known hands follow."""
        i = index_of(card)
        held = self._known[giver]
        if held is not None:
            held.discard(i)
        held = self._known[receiver]
        if held is not None:
            held.add(i)
        self._loc[i] = receiver

    def known_ix(self, seat: int) -> frozenset[int] | None:
        """The card indexes ``seat`` still holds, where its hand is known."""
        held = self._known[seat]
        return None if held is None else frozenset(held)

    # The play -----------------------------------------------------------------

    def play(self, seat: int, card: Card, flag: Flag) -> Trick | None:
        """Record ``card`` played by ``seat``; return the trick if this card closed it."""
        cur = self.current
        if self.finished:
            flag(v.OutOfPhase, seat, None, (card,), f"{card} played after the last trick")
            return None
        i = IX_BY_SUIT[card.suit][card.rank]  # index_of(card), without hashing
        seats = cur.seats
        ix = cur.ix
        held = self._known[seat]
        if seat != self._next:  # the leader, or the next seat that has not played
            if not ix:
                flag(v.LedOutOfTurn, seat, cur.number, (card,), f"seat {cur.leader} was to lead")
            elif seat in seats:
                self._stray(seat, card, i, held, flag)
                return None
            else:
                flag(v.PlayedOutOfTurn, seat, cur.number, (card,), f"seat {self._next} was to play")
        loc = self._loc
        at = loc[i]
        if at != seat:
            if at != _UNKNOWN:
                self._misplaced(seat, card, at, cur.number, flag)
            elif held is not None:
                flag(
                    v.CardNotInHand,
                    seat,
                    cur.number,
                    (card,),
                    f"{card} is not in seat {seat}'s hand",
                )
        played = self.played[seat]
        if len(played) >= self.hand_size:
            self._too_many(seat, card, len(played), flag)
        suit_ix = self._suit_ix
        mine = suit_ix[i]
        want = suit_ix[ix[0]] if ix else mine
        if mine != want and held is not None and i in held:
            owed = self._owed(held, want, mine)
            if owed is not None:
                self._revoke(seat, cur.number, card, _CARDS[owed], flag, f"held {_CARDS[owed]}")
        voids = self.voids[seat]
        if voids:
            proved = voids.pop(mine, None)
            if proved is not None:
                self._revoke(seat, proved[0], proved[1], card, flag, f"later played {card}")
        played.append(card)
        loc[i] = _PLAYED + seat
        if held is not None:
            held.discard(i)
        if mine != want:
            for s in self.contract.shown_void_suits(want, mine):
                if s not in voids:
                    voids[s] = (cur.number, card)
        seats.append(seat)
        cur.cards.append(card)
        ix.append(i)
        if len(ix) == self._n:
            return self._close()
        nxt = self._succ[seat]
        if nxt in seats:  # someone played out of turn: the first seat still to play
            nxt = next(s for s in self._after[seats[0]] if s not in seats)
        self._next = nxt
        return None

    def _stray(self, seat: int, card: Card, i: int, held: set[int] | None, flag: Flag) -> None:
        """A second card from a seat to the same trick: recorded as played by it,
        outside the trick."""
        tno = self.current.number
        flag(v.PlayedOutOfTurn, seat, tno, (card,), f"seat {seat} already played to this trick")
        at = self._loc[i]
        if at != seat and at != _UNKNOWN:
            self._misplaced(seat, card, at, tno, flag)
        played = self.played[seat]
        if len(played) >= self.hand_size:
            self._too_many(seat, card, len(played), flag)
        voids = self.voids[seat]
        proved = voids.pop(self._suit_ix[i], None) if voids else None
        if proved is not None:
            self._revoke(seat, proved[0], proved[1], card, flag, f"later played {card}")
        played.append(card)
        self._loc[i] = _PLAYED + seat
        if held is not None:
            held.discard(i)

    def _too_many(self, seat: int, card: Card, played: int, flag: Flag) -> None:
        flag(
            v.WrongNumberOfCards,
            seat,
            self.current.number,
            (card,),
            f"card {played + 1} from a hand of {self.hand_size} (Law 46)",
        )

    def _owed(self, held: set[int], want: str, mine: str) -> int | None:
        """The best card of ``held`` that the seat had to play instead of a card of
        effective suit ``mine`` to a trick led in ``want``, if any."""
        contract = self.contract
        suit_ix, power_ix = contract.suit_ix, contract.power_ix
        following = [c for c in held if suit_ix[c] == want]
        if following:
            if contract.obligation is Obligation.FOLLOW_OR_TRUMP and mine == TRUMP:
                return None
            return max(following, key=power_ix.__getitem__)
        if contract.obligation is Obligation.FOLLOW_ELSE_TRUMP and mine != TRUMP:
            trumps = [c for c in held if suit_ix[c] == TRUMP]
            if trumps:
                return max(trumps, key=power_ix.__getitem__)
        return None

    def _misplaced(self, seat: int, card: Card, at: int, tno: int | None, flag: Flag) -> None:
        if at >= _PLAYED:
            flag(
                v.DuplicateCard, seat, tno, (card,), f"{card} already played by seat {at - _PLAYED}"
            )
        elif at == _ASIDE:
            flag(v.CardNotInHand, seat, tno, (card,), f"{card} is in the {self.aside_name}")
        else:
            flag(v.CardNotInHand, seat, tno, (card,), f"{card} is in seat {at}'s hand")

    def _revoke(self, seat: int, trick: int, then: Card, proof: Card, flag: Flag, how: str) -> None:
        if (seat, trick) in self.revokes:
            return
        self.revokes.add((seat, trick))
        led = self.tricks[trick - 1].cards[0] if trick <= len(self.tricks) else self.led()
        suit = _SUIT_WORDS[self.contract.suit_of(led)] if led is not None else "suit"
        flag(
            v.Revoke,
            seat,
            trick,
            (then, proof),
            f"seat {seat} played {then} to trick {trick} ({suit} led) and {how}",
        )

    def _close(self) -> Trick:
        cur = self.current
        contract = self.contract
        ix = cur.ix
        points = contract.points_ix
        if len(ix) == 3:
            # Contract.winner_ix for three cards, spelt out: once a trick.
            suit, power = contract.suit_ix, contract.power_ix
            a, b, c = ix
            best, best_suit, best_power = 0, suit[a], power[a]
            s = suit[b]
            if s == best_suit:
                if power[b] > best_power:
                    best, best_power = 1, power[b]
            elif s == TRUMP:
                best, best_suit, best_power = 1, TRUMP, power[b]
            s = suit[c]
            if (s == best_suit and power[c] > best_power) or (s == TRUMP != best_suit):
                best = 2
            cur.points = points[a] + points[b] + points[c]
        else:
            best = contract.winner_ix(ix)
            cur.points = sum(map(points.__getitem__, ix))
        winner = cur.seats[best]
        cur.winner = winner
        self.tricks.append(cur)
        self.taken[winner].extend(cur.cards)
        self.points[winner] += cur.points
        self.trick_count[winner] += 1
        if len(self.tricks) >= self.hand_size:
            self.finished = True
        self.current = Trick(cur.number + 1, winner, [], [], None, 0, [])
        self._next = winner
        return cur

    # What is shown ------------------------------------------------------------

    def check_hand(self, seat: int, cards: Iterable[Card], flag: Flag) -> bool:
        """Whether ``cards`` are the cards ``seat`` still holds, as far as the
        referee knows; each thing that is not so is flagged (a card listed twice, one
        played, in another hand or out of play, one not in the seat's known hand, too
        many or too few cards). Nothing is learnt from them (:meth:`reveal` learns).

        >>> from rules.cards import parse_cards
        >>> plain = Contract.build("plain", trump=None, order=(1, 13, 12, 11, 10, 9, 8, 7),
        ...                        points={}, obligation=Obligation.FOLLOW)
        >>> play = TrickPlay(plain, seats=(0, 1), leader=0, hand_size=2,
        ...                  hands={0: parse_cards("AS KS"), 1: parse_cards("7C 8C")})
        >>> said: list[str] = []
        >>> play.check_hand(0, parse_cards("AS 7C 9D"), lambda k, s, t, c, d: said.append(d))
        False
        >>> said[:2]
        ["7C is in seat 1's hand", "9D is not in seat 0's hand"]
        >>> said[2]
        'laid down 3 cards, should hold 2 (Law 46)'
        >>> play.check_hand(0, parse_cards("KS AS"), lambda k, s, t, c, d: said.append(d))
        True
        """
        tno = None if self.finished else self.current.number
        listed = list(cards)
        shown = self._once_each(seat, listed, tno, flag)
        fits = len(shown) == len(listed)
        held = self._known[seat]
        for card in shown:
            i = index_of(card)
            at = self._loc[i]
            if at != seat and at != _UNKNOWN:
                self._misplaced(seat, card, at, tno, flag)
                fits = False
            elif held is not None and i not in held:
                flag(v.CardNotInHand, seat, tno, (card,), f"{card} is not in seat {seat}'s hand")
                fits = False
        return self._as_many_as_held(seat, shown, tno, flag) and fits

    def _once_each(self, seat: int, listed: list[Card], tno: int | None, flag: Flag) -> list[Card]:
        """``listed`` with each card once; a card listed twice is flagged (a hand holds
        it once)."""
        shown = list(dict.fromkeys(listed))
        if len(shown) != len(listed):
            for card in shown:
                if listed.count(card) > 1:
                    flag(v.DuplicateCard, seat, tno, (card,), f"{card} laid down twice")
        return shown

    def _as_many_as_held(self, seat: int, shown: list[Card], tno: int | None, flag: Flag) -> bool:
        """Whether ``shown`` are as many cards as ``seat`` still holds (else flagged,
        Law 46)."""
        if len(shown) == self.remaining(seat):
            return True
        flag(
            v.WrongNumberOfCards,
            seat,
            tno,
            tuple(shown),
            f"laid down {len(shown)} cards, should hold {self.remaining(seat)} (Law 46)",
        )
        return False

    def reveal(self, seat: int, cards: Iterable[Card], flag: Flag) -> None:
        """A seat's remaining hand laid face up (an open game, a claim): check it
        against what the seat showed void in, then know it."""
        tno = None if self.finished else self.current.number
        shown = self._once_each(seat, list(cards), tno, flag)
        voids = self.voids[seat]
        for card in shown:
            at = self._loc[index_of(card)]
            if at != seat and at != _UNKNOWN:
                self._misplaced(seat, card, at, tno, flag)
                if at >= _PLAYED:
                    continue
            proved = voids.pop(self.contract.suit_of(card), None)
            if proved is not None:
                t, then = proved
                self._revoke(seat, t, then, card, flag, f"laid down {card}")
        self._known[seat] = {index_of(c) for c in shown}
        for card in shown:
            if self._loc[index_of(card)] == _UNKNOWN:
                self._loc[index_of(card)] = seat
        self._as_many_as_held(seat, shown, tno, flag)

    def set_aside(self, cards: Iterable[Card], flag: Flag) -> None:
        """Cards seen out of play (the skat turned at the end): a card among them that
        was played or is in a known hand is flagged, with the seat concerned."""
        for card in cards:
            at = self._loc[index_of(card)]
            if at >= _PLAYED:
                flag(
                    v.DuplicateCard,
                    at - _PLAYED,
                    None,
                    (card,),
                    f"{card} played by seat {at - _PLAYED} is in the {self.aside_name}",
                )
            elif at >= 0:
                flag(
                    v.CardNotInHand,
                    at,
                    None,
                    (card,),
                    f"{card} of seat {at}'s hand is in the {self.aside_name}",
                )
            else:
                self._loc[index_of(card)] = _ASIDE


_CARDS: dict[int, Card] = {i: c for c, i in INDEX.items()}


@cache
def _order(seats: tuple[int, ...]) -> tuple[dict[int, tuple[int, ...]], dict[int, int]]:
    """For each seat, the seats after it in playing order, and the next one."""
    n = len(seats)
    after = {s: tuple(seats[(i + k) % n] for k in range(1, n)) for i, s in enumerate(seats)}
    return after, {s: seats[(i + 1) % n] for i, s in enumerate(seats)}


def _decode(at: int) -> tuple[str, int | None] | None:
    if at == _UNKNOWN:
        return None
    if at == _ASIDE:
        return ("aside", None)
    if at >= _PLAYED:
        return ("played", at - _PLAYED)
    return ("hand", at)
