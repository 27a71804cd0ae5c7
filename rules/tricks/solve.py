"""Whether a claim holds against every defence: a small exhaustive search.

A side that lays its cards down and claims (the rest of the tricks, 61 points, the
player defeated: seed 000 Laws 49-51) is right only if it makes the claim however
the other side plays. :func:`solve` plays the rest out every legal way and says
whether the claimants can always make it, and if not, a defence that beats them.

The claimants choose their own cards; the other side chooses its cards, and also
every card of a hand the referee has not seen, from the cards not yet seen
("unseen"), consistently with what the play has shown: a seat that did not follow
a suit holds none of it, each hand holds its number of cards, and cards placed
with a seat (``pinned``) are with it or out of play. So where a hand is unknown the
claim must hold wherever the unseen cards lie; where every hand is known it is
checked against the cards as they lie. A hand of the claimants' side that is not
known is not counted on: the defence chooses its cards too.

The search is a depth-first minimax over the cards still to play (at most ten
tricks of three cards), with the goal decided as soon as the tricks and points
still to come can no longer change it, cards of one suit next to each other in
rank (and in points, where points matter) tried once, and positions at the start
of a trick remembered. ``budget`` bounds the positions searched: beyond it the
answer is ``None`` (not decided) and the caller falls back on counting.

>>> from rules.cards import parse_cards
>>> from rules.tricks.contract import Contract, Obligation, index_of
>>> grand = Contract.build("grand", trump=None, top_trumps=("JC", "JS", "JH", "JD"),
...     order=(1, 10, 13, 12, 9, 8, 7), points={1: 11, 10: 10, 13: 4, 12: 3, 11: 2},
...     obligation=Obligation.FOLLOW)
>>> def ix(text):
...     return [index_of(c) for c in parse_cards(text)]
>>> hands = {0: ix("JC JS AS"), 1: ix("JH 7S 8S"), 2: ix("AH 9S 7H")}
>>> rest = Goal(side=frozenset({0}), tricks=(3, 3))          # seat 0 takes all three
>>> solve(grand, (0, 1, 2), 0, (), hands, {0: 3, 1: 3, 2: 3}, (), claimants={0},
...       goal=rest).holds
True
>>> hands = {0: ix("AS 10S KS"), 1: ix("JH 7H 8H"), 2: ix("AH 9S 7S")}
>>> answer = solve(grand, (0, 1, 2), 0, (), hands, {0: 3, 1: 3, 2: 3}, (), claimants={0},
...                goal=rest)                                 # seat 1 trumps the spades
>>> answer.holds, [(s, str(c)) for s, c in answer.line]
(False, [(0, 'AS'), (1, 'JH'), (2, '9S')])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rules.cards import Card
from rules.tricks.contract import INDEX, Contract, Obligation

__all__ = ["BUDGET", "Answer", "Goal", "solve"]

#: Positions searched before giving up: about two seconds. A claim of card points
#: in the first tricks can take more; the referee then counts instead.
BUDGET: Final = 100_000

_CARDS: Final[dict[int, Card]] = {i: c for c, i in INDEX.items()}


@dataclass(frozen=True, slots=True)
class Goal:
    """What a claim asserts about the tricks still to play, counted from now on:
    the tricks ``side`` takes lie within ``tricks``, the card points it takes in
    tricks within ``points``, and the card points the other seats take within
    ``against`` (closed ranges; ``None``: anything). ``negate``: the claim is that
    this does *not* happen (an Uno defeated: the player does not take exactly one).
    """

    side: frozenset[int]
    tricks: tuple[int, int] | None = None
    points: tuple[int, int] | None = None
    against: tuple[int, int] | None = None
    negate: bool = False


@dataclass(frozen=True, slots=True)
class Answer:
    """``holds``: the claim is made against every defence (``True``), a defence beats
    it (``False``, and ``line`` is such a defence: the plays from the current
    position, as (seat, card), up to where the claim fails), or it was not decided
    (``None``; ``why`` says why)."""

    holds: bool | None
    line: tuple[tuple[int, Card], ...] = ()
    why: str = ""
    nodes: int = 0


class _OutOfBudget(Exception):
    pass


class _Inconsistent(Exception):
    pass


def solve(
    contract: Contract,
    seats: Sequence[int],
    leader: int,
    trick: Sequence[tuple[int, int]],
    hands: Mapping[int, Iterable[int] | None],
    counts: Mapping[int, int],
    unseen: Iterable[int],
    *,
    claimants: Iterable[int],
    goal: Goal,
    pinned: Mapping[int, Iterable[int]] | None = None,
    voids: Mapping[int, Iterable[str]] | None = None,
    budget: int = BUDGET,
) -> Answer:
    """Can ``claimants`` make ``goal`` against every defence?

    ``seats`` in playing order; ``leader`` led (or is to lead) the current trick,
    to which ``trick`` was played, as (seat, card index); ``hands`` are the card
    indexes each seat holds (``None``: not known) and ``counts`` how many it holds;
    ``unseen`` the cards not played and in no known hand (the unknown hands' and
    those out of play); ``pinned`` unseen cards known to be with a seat (or out of
    play); ``voids`` the effective suits each seat has shown void in.
    """
    if contract.obligation is not Obligation.FOLLOW:
        return Answer(
            None, why=f"claims are searched only where one follows suit ({contract.name})"
        )
    try:
        search = _Search(
            contract,
            tuple(seats),
            leader,
            tuple(trick),
            hands,
            counts,
            unseen,
            set(claimants),
            goal,
            pinned or {},
            voids or {},
            budget,
        )
    except _Inconsistent as exc:
        return Answer(None, why=str(exc))
    try:
        holds = search.root()
    except _OutOfBudget:
        return Answer(None, why=f"more than {budget:,} positions", nodes=search.nodes)
    except _Inconsistent as exc:  # pragma: no cover - the root checks what the search needs
        return Answer(None, why=str(exc), nodes=search.nodes)
    if holds:
        return Answer(True, nodes=search.nodes)
    try:
        line = search.refutation()
    except _OutOfBudget:  # pragma: no cover - the refutation retraces memoised positions
        line = []
    return Answer(False, tuple((s, _CARDS[i]) for s, i in line), nodes=search.nodes)


# The state of the search, a tuple: (hands, pool, voids, counts, trick, leader,
# side_tricks, side_points, other_points, tricks_left, live, live_points), where
# ``live`` are the cards not yet quitted (in hands, the pool and the trick).
_State = tuple[
    tuple[int, ...],
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, int], ...],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
]


class _Search:
    """The minimax. Seats are positions 0..n-1 in playing order; card sets are bit
    masks of card indexes; an unknown hand's mask is -1 (it plays from the pool)."""

    def __init__(
        self,
        contract: Contract,
        seats: tuple[int, ...],
        leader: int,
        trick: tuple[tuple[int, int], ...],
        hands: Mapping[int, Iterable[int] | None],
        counts: Mapping[int, int],
        unseen: Iterable[int],
        claimants: set[int],
        goal: Goal,
        pinned: Mapping[int, Iterable[int]],
        voids: Mapping[int, Iterable[str]],
        budget: int,
    ) -> None:
        n = len(seats)
        pos = {s: k for k, s in enumerate(seats)}
        self.n = n
        self.seats = seats
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[object, ...], bool] = {}
        self.goal = goal
        self.points_matter = goal.points is not None or goal.against is not None
        self.winner_ix = contract.winner_ix
        self.points = contract.points_ix
        self.power = contract.power_ix
        suit_ix = contract.suit_ix
        names = sorted(set(suit_ix))
        self.suit_no = [names.index(s) for s in suit_ix]
        self.suit_mask = [sum(1 << i for i in range(52) if suit_ix[i] == s) for s in names]
        #: Each suit's cards, best first.
        self.by_power = [
            [
                (i, 1 << i)
                for i in sorted(range(52), key=lambda i: -self.power[i])
                if suit_ix[i] == s
            ]
            for s in names
        ]
        self.in_side = tuple(s in goal.side for s in seats)
        pool = _mask(unseen)
        self.pins = [0] * n
        for seat, cards in pinned.items():
            if seat in pos:
                self.pins[pos[seat]] = _mask(cards) & pool
        all_pins = 0
        for p in self.pins:
            all_pins |= p
        self.pinned = bool(all_pins)
        #: The pool cards each unknown hand may hold: not pinned to another seat.
        self.may_hold = [pool & ~(all_pins & ~self.pins[k]) for k in range(n)]
        masks: list[int] = []
        for s in seats:
            held = hands.get(s)
            masks.append(-1 if held is None else _mask(held))
        self.unknown = tuple(k for k in range(n) if masks[k] == -1)
        #: The claimants choose their cards where their hands are known.
        self.is_max = tuple(s in claimants and masks[k] != -1 for k, s in enumerate(seats))
        if not all(counts.get(s, 0) >= 0 for s in seats):
            raise _Inconsistent("a hand with fewer than no cards")
        cnt = tuple(counts.get(s, 0) for s in seats)
        for k in range(n):
            if masks[k] != -1 and masks[k].bit_count() != cnt[k]:
                raise _Inconsistent(
                    f"seat {seats[k]} shows {masks[k].bit_count()} cards, holds {cnt[k]}"
                )
            if masks[k] != -1 and masks[k] & pool:
                raise _Inconsistent(f"seat {seats[k]}'s cards are among the unseen")
        if trick and trick[0][0] != leader:
            raise _Inconsistent("the trick was not led by its leader")
        lead = pos.get(leader)
        if lead is None or any(s not in pos for s, _ in trick) or len(trick) >= n:
            raise _Inconsistent("the trick's seats are not at the table")
        for k, (s, _) in enumerate(trick):
            if pos[s] != (lead + k) % n:
                raise _Inconsistent("the trick was played out of turn")
        nxt = (lead + len(trick)) % n
        left = cnt[nxt]
        for k in range(n):
            played = (k - lead) % n < len(trick)
            if cnt[k] != left - played:
                raise _Inconsistent("the hands do not hold the same number of cards")
        void_masks = [0] * n
        for seat, suits in voids.items():
            if seat in pos:
                for name in suits:
                    if name in names:
                        void_masks[pos[seat]] |= self.suit_mask[names.index(name)]
        trick_ix = tuple((pos[s], i) for s, i in trick)
        live = pool
        for i in (*(i for _, i in trick_ix), *(i for m in masks if m != -1 for i in _indexes(m))):
            live |= 1 << i
        self.start: _State = (
            tuple(masks),
            pool,
            tuple(void_masks),
            cnt,
            trick_ix,
            lead,
            0,
            0,
            0,
            left,
            live,
            sum(self.points[i] for i in _indexes(live)),
        )
        if not self._feasible(pool, tuple(void_masks), cnt):
            raise _Inconsistent("the unseen cards cannot make up the hands not seen")

    # The goal ---------------------------------------------------------------------------

    def _decide(self, state: _State) -> bool | None:
        """The goal, if the tricks and points still to come cannot change it."""
        a_t, a_p, b_p, left = state[6], state[7], state[8], state[9]
        g = self.goal
        sure = True
        if g.tricks is not None:
            lo, hi = g.tricks
            if a_t > hi or a_t + left < lo:
                return g.negate
            sure = a_t >= lo and a_t + left <= hi
        if self.points_matter:
            live = state[11] if left else 0
            for have, rng in ((a_p, g.points), (b_p, g.against)):
                if rng is None:
                    continue
                lo, hi = rng
                if have > hi or have + live < lo:
                    return g.negate
                sure = sure and have >= lo and have + live <= hi
        if sure or not left:
            return not g.negate
        return None

    # The hands that may still be dealt ------------------------------------------------

    def _feasible(self, pool: int, voids: tuple[int, ...], counts: tuple[int, ...]) -> bool:
        """Whether the pool can make up the unknown hands (each its number of cards,
        none of a suit it showed void in, pinned cards only with their seat), the
        rest being out of play. Hall's condition, over the sets of unknown hands."""
        unknown = self.unknown
        if not unknown:
            return True
        spare = pool.bit_count()
        for k in unknown:
            spare -= counts[k]
        if spare < 0:
            return False
        may_hold = self.may_hold
        if len(unknown) == 1:
            k = unknown[0]
            return (pool & ~(may_hold[k] & ~voids[k])).bit_count() <= spare
        if len(unknown) == 2:
            j, k = unknown
            not_j = pool & ~(may_hold[j] & ~voids[j])
            not_k = pool & ~(may_hold[k] & ~voids[k])
            return (
                (not_j & not_k).bit_count() <= spare
                and not_k.bit_count() <= spare + counts[j]
                and not_j.bit_count() <= spare + counts[k]
            )
        allowed = [pool & may_hold[k] & ~voids[k] for k in unknown]
        m = len(unknown)
        for subset in range((1 << m) - 1):
            # Cards that only the hands of ``subset`` (or nobody) may hold must fit there.
            only = pool
            room = spare
            for j in range(m):
                if subset >> j & 1:
                    room += counts[unknown[j]]
                else:
                    only &= ~allowed[j]
            if only.bit_count() > room:
                return False
        return True

    # Moves ----------------------------------------------------------------------------

    def _picks(self, state: _State) -> list[int]:
        """The cards the seat to play may play, one of each set of equal ones."""
        hands, pool, voids, _, trick, lead = state[:6]
        p = (lead + len(trick)) % self.n
        hand = hands[p]
        if hand != -1:
            cands = hand
            if trick:
                follow = hand & self.suit_mask[self.suit_no[trick[0][1]]]
                if follow:
                    cands = follow
            picks = self._distinct(cands, None, state[10])
        else:
            cands = pool & self.may_hold[p] & ~voids[p]
            picks = self._distinct(cands, self.pins if self.pinned else None, state[10])
        power = self.power
        if not trick or len(picks) < 2:
            picks.sort(key=lambda i: -power[i])
            return picks
        # The likely best first: a card that takes the trick; else, the trick being
        # the own side's, the most points; else the fewest.
        cards = [c for _, c in trick]
        best = cards[self.winner_ix(cards)]
        ours = self.in_side[trick[self.winner_ix(cards)][0]] == self.in_side[p]
        points, suit_no = self.points, self.suit_no
        lead_suit, best_suit = suit_no[cards[0]], suit_no[best]

        def beats(i: int) -> bool:
            s = suit_no[i]
            if s == best_suit:
                return power[i] > power[best]
            return power[i] > 100 and power[best] < 100 and s != lead_suit

        def order(i: int) -> tuple[int, int]:
            if beats(i):
                return (0, -power[i])
            return (1, -points[i]) if ours else (2, points[i] * 256 + power[i])

        picks.sort(key=order)
        return picks

    def _child(self, state: _State, i: int) -> _State | None:
        """The position after card ``i``; ``None`` where no deal of the unseen cards
        allows it."""
        hands, pool, voids, counts, trick, lead, a_t, a_p, b_p, left, live, live_pts = state
        n = self.n
        p = (lead + len(trick)) % n
        bit = 1 << i
        counts = (*counts[:p], counts[p] - 1, *counts[p + 1 :])
        hand = hands[p]
        if hand != -1:
            hands = (*hands[:p], hand & ~bit, *hands[p + 1 :])
        else:
            pool &= ~bit
            if trick:
                suit = self.suit_no[trick[0][1]]
                if self.suit_no[i] != suit:
                    voids = (*voids[:p], voids[p] | self.suit_mask[suit], *voids[p + 1 :])
            if not self._feasible(pool, voids, counts):
                return None
        played = (*trick, (p, i))
        if len(played) < n:
            return (hands, pool, voids, counts, played, lead, a_t, a_p, b_p, left, live, live_pts)
        won = played[self.winner_ix([c for _, c in played])][0]
        pts = 0
        for _, c in played:
            live &= ~(1 << c)
            pts += self.points[c]
        if self.in_side[won]:
            a_t += 1
            a_p += pts
        else:
            b_p += pts
        return (hands, pool, voids, counts, (), won, a_t, a_p, b_p, left - 1, live, live_pts - pts)

    def _distinct(self, cands: int, pins: list[int] | None, live: int) -> list[int]:
        """One card of each run of candidates next to each other in rank within their
        suit (and of equal points, where points matter, and pinned alike): playing
        one or another of them leads to the same positions. Best first."""
        picks: list[int] = []
        points, matter, by_power = self.points, self.points_matter, self.by_power
        for s, mask in enumerate(self.suit_mask):
            if not cands & mask:
                continue
            run = False
            run_key = -1
            for i, bit in by_power[s]:
                if not live & bit:
                    continue
                if not cands & bit:
                    run = False
                    continue
                key = points[i] if matter else 0
                if pins is not None:
                    key = key * 64 + next((k + 1 for k, m in enumerate(pins) if m & bit), 0)
                if run and key == run_key:
                    continue
                picks.append(i)
                run, run_key = True, key
        return picks

    # The minimax ---------------------------------------------------------------------

    def root(self) -> bool:
        g = self.goal
        if (
            g.against is not None
            and g.against[0] <= 0 <= g.against[1]
            and g.tricks is None
            and g.points is None
            and not g.negate
            and self.is_max == self.in_side
        ):
            # A claim that the other side takes no more than so many points holds if
            # the claimants take every trick: that search is far smaller, try it first.
            self.goal = Goal(g.side, tricks=(self.start[9], self.start[9]))
            self.points_matter = False
            swept = self._node(self.start)
            self.goal, self.points_matter = g, True
            self.memo.clear()
            if swept:
                return True
        return self._node(self.start)

    def _node(self, state: _State) -> bool:
        key: tuple[object, ...] | None = None
        if not state[4]:
            decided = self._decide(state)
            if decided is not None:
                return decided
            key = state[:3] + state[5:10]
            known = self.memo.get(key)
            if known is not None:
                return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        maxer = self.is_max[(state[5] + len(state[4])) % self.n]
        result = not maxer
        moved = False
        for i in self._picks(state):
            child = self._child(state, i)
            if child is None:
                continue
            moved = True
            if self._node(child) == maxer:
                result = maxer
                break
        if not moved:
            raise _Inconsistent("a hand has no card to play")
        if key is not None:
            self.memo[key] = result
        return result

    def refutation(self) -> list[tuple[int, int]]:
        """A defence that beats the claim (the root is ``False``): the claimants'
        first choice at each of their turns, a winning card of the defence at its."""
        line: list[tuple[int, int]] = []
        state = self.start
        while state[4] or self._decide(state) is None:
            p = (state[5] + len(state[4])) % self.n
            for i in self._picks(state):
                child = self._child(state, i)
                if child is not None and not self._node(child):
                    line.append((self.seats[p], i))
                    state = child
                    break
            else:  # pragma: no cover - a position that is False has such a move
                break
        return line


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for i in cards:
        m |= 1 << i
    return m


def _indexes(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
