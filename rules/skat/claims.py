"""Claims and concessions in Skat (Laws 49-51).

A claim is right if the claimant's side makes it against every defence: where the
claimant's cards are known (laid down, or known before) the rest of the play is
searched (:func:`rules.tricks.solve.solve`); otherwise, or where the search is
too long, the count so far decides. A mistaken claim decides the game for the
other side; a concession gives the other side the tricks still to play.

>>> sorted(NULL_WORDS), CLAIMS
(['duo', 'null', 'revolution', 'uno'], ('won', 'schneider', 'defeated', 'rest', 'open'))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules.cards import Card
from rules.skat import verdicts as v
from rules.skat.declaration import SUIT_GAMES
from rules.skat.events import Claim, Concede, Event
from rules.skat.settlement import end, skat_points, unrecord
from rules.skat.state import DECK_IX, DealState, SkatState, SkatStep
from rules.tricks.solve import Answer, Goal, solve

if TYPE_CHECKING:
    from rules.skat.game import SkatGame

__all__ = ["CLAIMS", "NULL_WORDS", "check_claim", "claim", "concede", "rest", "search_claim"]

#: What a seat may claim (:class:`~rules.events.Claim`).
CLAIMS: Final = ("won", "schneider", "defeated", "rest", "open")
#: The games without trumps, as the notes name them.
NULL_WORDS: Final = {"null": "nullo", "revolution": "Revolution", "uno": "Uno", "duo": "Duo"}


def claim(game: SkatGame, st: SkatState, e: Event, step: SkatStep) -> None:
    """Laws 49-50: a claim laid down. A claim is right if the claimant's side
    makes it against every defence: where the claimant's cards are known (laid
    down, or known before) the rest is searched (:func:`rules.tricks.solve.solve`);
    otherwise, or where the search is too long, the count so far decides."""
    assert isinstance(e, Claim)
    playing = game._in_play(st, e, step, "a claim during the play of a game")
    if playing is None:
        return None
    d, play = playing
    tno = play.trick_number
    if e.shown:
        # Laws 49, 50: the claimant "lays his cards on the table". Cards that are not
        # the ones he still holds (too many, too few, another's, one played) prove
        # nothing: the claim is refused, each fault a verdict, and nothing is learnt
        # from them; it was searched on the wrong hand, or counted.
        fits = play.check_hand(e.seat, e.shown, step.flag)
        if fits:
            play.reveal(e.seat, e.shown, step.flag)
        for x in step.verdicts:
            game._decides(d, x.kind, x.seat, x.trick, step.index)
        if not fits:
            step.notes.append(
                f"the claim is refused: the cards laid down are not the {play.remaining(e.seat)}"
                f" seat {e.seat} holds (Laws 49, 50)"
            )
            return None
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
    holds, why, evidence = check_claim(game, d, e, step)
    law = "Law 49" if by_player else "Law 50"
    if holds is False:
        step.flag(v.ClaimMistaken, e.seat, tno, evidence, f"{why} ({law})")
        d.forced.append((tno, step.index, not by_player, f"claim-mistaken ({law})"))
        if not by_player:
            # Law 50: "all that adversary's cards shall be taken by the player".
            d.extra.extend(e.shown)
    elif e.what == "rest":
        rest(d, "declarer" if by_player else "defenders")
    else:
        d.forced.append((tno, step.index, by_player, f"claim ({law})"))
    # a game lost before its last trick (game._lost_early) was scored then: scored
    # again now, not twice
    unrecord(st, d)
    end(game.rules, st, d, step)
    return None


def check_claim(
    game: SkatGame, d: DealState, e: Claim, step: SkatStep
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
        claim = f"the {NULL_WORDS[decl.game]} {'won' if by_player else 'defeated'}"
        goal = Goal(frozenset({me}), tricks=(k - tricks, k - tricks), negate=not by_player)
        # By the count: won once it can no longer be lost; defeated once the player
        # has more tricks than he may take, or too few left to take.
        counted = (tricks == k and left == 0) if by_player else (tricks > k or tricks + left < k)
        why_count = f"claimed {claim} with {tricks} tricks taken and {left} to play"
    elif what in ("won", "schneider"):
        # a game announced schneider is won only with schneider (Law 39)
        target = game.rules.schneider_at if what == "schneider" or decl.schneider else 61
        have = play.points[me] + (skat_points(d) or 0)
        claim = f"{target}"
        # The player's card points are what the adversaries leave: the skat is his.
        goal = Goal(frozenset({me}), against=(0, 120 - target - against))
        counted = have >= target
        why_count = f"claimed {target} with {have} taken in: the game is lost"
    else:
        # defeated once the player can no longer reach 61, or the schneider he
        # announced (Law 39): the adversaries hold 60, or 31 (30 where schneider is 91)
        need = 121 - (game.rules.schneider_at if decl.schneider else 61)
        claim = "the player defeated"
        goal = Goal(frozenset({me}), against=(need - against, 120))
        counted = against >= need
        why_count = f"claimed the player defeated with {against} taken in"
    if counted:
        return True, "", ()
    if play.known_ix(e.seat) is not None:
        answer = search_claim(
            d, frozenset({me}) if by_player else defenders, goal, game.claim_budget
        )
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


def search_claim(d: DealState, claimants: frozenset[int], goal: Goal, budget: int) -> Answer:
    """Search the rest of the play from the cards the referee knows."""
    play = d.play
    assert play is not None
    seats = play.seats
    hands = {s: play.known_ix(s) for s in seats}
    unseen: list[int] = []
    pinned: dict[int, list[int]] = {}
    for _, i in DECK_IX:
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
        budget=budget,
    )


def rest(d: DealState, side: str) -> None:
    """Who takes the tricks not played. In a nullo the single player wins by
    taking no trick: whoever gives up, he takes none of the rest."""
    assert d.declaration is not None
    d.rest_to = "defenders" if d.declaration.is_null else side


def concede(game: SkatGame, st: SkatState, e: Event, step: SkatStep) -> None:
    assert isinstance(e, Concede)
    d = st.deal
    if d is None or d.declarer is None or d.phase != "play" or d.play is None:
        return game._out_of_phase(st, e, step, "a game conceded during its play")
    tno = d.play.trick_number
    if e.seat == d.declarer:
        decl = d.declaration
        if (
            decl is not None
            and not game.rules.isko
            and decl.game in SUIT_GAMES
            and decl.turned is not None
            and len(d.play.played[d.declarer]) <= 1
        ):
            d.abandoned = True  # Law 44: "scored as a 'game' lost"
        rest(d, "defenders")
        d.forced.append((tno, step.index, False, "conceded (Law 51)"))
        unrecord(st, d)  # a game lost before its last trick was scored then
        end(game.rules, st, d, step)
        return None
    if e.seat not in d.seats:
        return game._out_of_phase(st, e, step, "a concession from a player in the game")
    d.conceded.add(e.seat)
    if set(d.defenders) <= d.conceded:
        rest(d, "declarer")
        d.forced.append((tno, step.index, True, "conceded by the adversaries"))
        unrecord(st, d)
        end(game.rules, st, d, step)
    return None
