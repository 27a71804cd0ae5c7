"""The end of a Skat deal: the player's points and matadors, the game's value, the
score pad (Laws 55-59), the tournament points (ISkO), Ramsch's charges (Law 4).

:func:`end` settles a deal when its last trick is taken, a claim or a concession
decides it, or a nullo is lost; :func:`record` writes the result on the pad and
:func:`unrecord` takes it back when the deal is settled again (the skat shown
later, a nullo's last trick). :func:`settle` is Law 59's settlement of the pad.

>>> settle([80, -22, 0, 0])
(262, -146, -58, -58)
>>> DealResult(1, "passed", changes=(0, 0, 0)).to_json()["kind"]
'passed'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final, NamedTuple

from rules.cards import Card
from rules.skat.declaration import CARD_POINTS, trump_sequence
from rules.skat.rulesets import SkatRules
from rules.skat.state import DECK_IX, DealState, SkatState, SkatStep
from rules.skat.values import GameValue, game_name, ramsch_charges, score_game
from rules.tricks.contract import index_of
from rules.tricks.play import ASIDE

__all__ = [
    "DealResult",
    "card_points",
    "end",
    "end_ramsch",
    "matadors",
    "record",
    "score",
    "settle",
    "skat_cards",
    "skat_points",
    "unrecord",
]

#: Card points by rank (Law 11), a list for speed.
_RANK_POINTS: Final = [CARD_POINTS.get(rank, 0) for rank in range(14)]


def card_points(cards: Iterable[Card]) -> int:
    """The card points of ``cards`` (Law 11)."""
    return sum([_RANK_POINTS[c.rank] for c in cards])


@cache
def _sequence_ix(game: str) -> tuple[int, ...]:
    return tuple(index_of(c) for c in trump_sequence(game))


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


def skat_cards(d: DealState) -> list[Card] | None:
    """The two cards that count for the single player at the end, if known."""
    decl = d.declaration
    if decl is not None and decl.hand and len(d.skat) == 2:
        return list(d.skat)
    if decl is not None and not decl.hand and len(d.laid) == 2:
        return list(d.laid)
    if decl is not None and decl.game == "ramsch" and len(d.skat) == 2:
        return list(d.skat)
    if d.play is not None and d.play.finished:
        rest = d.play.not_played(DECK_IX)
        if len(rest) == 2:
            return rest
    shown = d.skat_seen if (decl is None or decl.hand or not d.picked_up) else []
    return list(shown) if len(shown) == 2 else None


def skat_points(d: DealState) -> int | None:
    skat = skat_cards(d)
    return None if skat is None else card_points(skat)


def end(rules: SkatRules, st: SkatState, d: DealState, step: SkatStep) -> None:
    d.phase = "over"
    if d.declaration is not None and d.declaration.game == "ramsch":
        return end_ramsch(rules, st, d, step)
    assert d.play is not None and d.declarer is not None and d.declaration is not None
    play = d.play
    decl = d.declaration
    me = d.declarer
    skat = skat_cards(d)
    done = sum(play.points.values())
    rest_tricks = 10 - len(play.tricks)
    points: int | None = play.points[me] + card_points(d.extra)
    tricks = play.trick_count[me] + (rest_tricks if d.rest_to == "declarer" else 0)
    if skat is None:
        points = None
        step.notes.append("the skat is not known: show it to count the player's points")
    else:
        assert points is not None
        points += card_points(skat)
        if d.rest_to == "declarer":
            points += 120 - done - card_points(skat) - card_points(d.extra)
    m = matadors(d, skat)
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
            game_name(decl, rules),
            d.bidding.value,
            forced_won,
            None,
            m,
            points,
            tricks,
            decided_by=decided,
            changes=(0,) * st.players,
        )
        record(st, d, result, step)
        return None
    gv = score_game(
        decl,
        rules,
        matadors=m or 0,
        points=points,
        tricks=tricks,
        bid=d.bidding.value,
        forced=forced_won,
        abandoned=d.abandoned,
        # scored before its last trick (a game announced schwarz lost at the
        # defenders' first trick): schneider and schwarz only as far as they happened
        tricks_left=0 if d.rest_to else rest_tricks,
        points_left=0 if d.rest_to else 120 - done - card_points(skat or []) - card_points(d.extra),
    )
    score(rules, st, d, gv, points, tricks, decided, step)
    return None


def matadors(d: DealState, skat: list[Card] | None) -> int | None:
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


def score(
    rules: SkatRules,
    st: SkatState,
    d: DealState,
    gv: GameValue,
    points: int,
    tricks: int,
    decided: str | None,
    step: SkatStep,
) -> None:
    me = d.declarer
    assert me is not None and d.declaration is not None
    n = st.players
    value = gv.value * d.factor * (2 if d.bock else 1)
    won = gv.won
    changes = [0] * n
    changes[me] = value
    tournament: tuple[int, ...] | None = None
    if rules.isko:
        # Seeger-Fabian: +50 per game won, -50 per game lost; per lost game +40 to
        # each adversary at a table of three, +30 to each other player at four.
        if won:
            tp = [0] * n
            tp[me] = value + 50
        else:
            tp = [40 if n == 3 else 30] * n
            tp[me] = value - 50
        tournament = tuple(tp)
    if rules.bock and (points == 60 or (not won and d.factor > 1)):
        st.bock_left += n
        d.bock_added += n
        step.notes.append(f"a Bock round: the next {n} deals count double")
    result = DealResult(
        d.number,
        "game",
        me,
        str(d.declaration),
        game_name(d.declaration, rules),
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
    record(st, d, result, step)


def end_ramsch(rules: SkatRules, st: SkatState, d: DealState, step: SkatStep) -> None:
    """Law 4 (foster1906) or the house Ramsch (ISkO): the most points lose."""
    play = d.play
    assert play is not None
    pts = {s: play.points[s] for s in d.seats}
    last = play.tricks[-1].winner if play.tricks else None
    skat = skat_cards(d)
    if last is not None and skat is not None:
        pts[last] += card_points(skat)  # "The winner of the last trick takes the skat cards."
    tricks = {s: play.trick_count[s] for s in d.seats}
    changes = [0] * st.players
    for seat, charge in ramsch_charges(pts, tricks, last, rules).items():
        changes[seat] = charge
    factor = 2 if d.bock else 1
    changes = [c * factor for c in changes]
    result = DealResult(
        d.number,
        "ramsch",
        changes=tuple(changes),
        ramsch_points=tuple(pts.get(s, 0) for s in range(st.players)),
    )
    record(st, d, result, step)


def record(st: SkatState, d: DealState, result: DealResult, step: SkatStep) -> None:
    d.result = result
    st.results.append(result)
    st.pad[:] = map(int.__add__, st.pad, result.changes)
    if result.tournament is not None:
        st.tournament[:] = map(int.__add__, st.tournament, result.tournament)
    if result.declarer is not None and result.value is not None:
        (st.won if result.won else st.lost)[result.declarer] += 1
    step.result = result


def unrecord(st: SkatState, d: DealState) -> None:
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


def settle(pad: Sequence[int]) -> tuple[int, ...]:
    """Law 59: "each player wins from or loses to each of the others at the table
    the full amount of his score": what each seat wins (or loses) in all."""
    total = sum(pad)
    n = len(pad)
    return tuple(n * p - total for p in pad)
