"""A cribbage game as a sequence of events, with undo.

The game is its event log. :meth:`CribbageGame.apply` takes the next event,
changes the state, and returns what it scored and what it flagged;
:meth:`CribbageGame.undo` pops the last event and every score follows;
:meth:`CribbageGame.to_json` and :meth:`CribbageGame.from_json` carry the log,
and replaying it rebuilds the state exactly.

A card seen played is recorded even when it is wrong: a card past thirty-one,
a card seen twice, a card from a hand known not to hold it, a play out of turn
are verdicts with evidence (:mod:`rules.cribbage.verdicts`). Only malformed
events (a seat that does not exist, a correction of a card an event does not
name) raise :class:`~rules.errors.InvalidEventError`, and leave the game as it was.

>>> from rules.cards import Card, parse_cards
>>> from rules.cribbage.events import Deal, Discard, Go, Play, SetDealer, Starter
>>> g = CribbageGame()
>>> for e in [SetDealer(0), Deal(), Discard(1, count=2), Discard(0, count=2),
...           Starter(Card.parse("JS"))]:
...     _ = g.apply(e)
>>> g.scores, g.phase, g.turn
((2, 0), 'play', 1)
>>> g.apply(Play(1, Card.parse("10H"))).pegged
()
>>> [(p.seat, p.points, p.items[0].kind) for p in g.apply(Play(0, Card.parse("5C"))).pegged]
[(0, 2, 'fifteen')]
>>> g.apply(Play(1, Card.parse("5D"))).pegged[0].items[0].kind
'pair'
>>> g.undo()
Play(seat=1, card=Card.parse('5D'))
>>> g.scores, g.count
((4, 0), 15)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Never, Self

from rules.cards import JACK, Card
from rules.cribbage import verdicts as v
from rules.cribbage.events import (
    EVENT_TYPES,
    Cut,
    Deal,
    Discard,
    Event,
    Go,
    NewGame,
    Penalty,
    Play,
    SetDealer,
    Show,
    Starter,
    event_from_json,
)
from rules.cribbage.pegging import score_last
from rules.cribbage.scoring import HAND_SIZES, ScoreItem, pip_value, score_show
from rules.cribbage.variants import CribbageRules
from rules.errors import InvalidEventError
from rules.eventlog import EventLog, Step, apply_all, events_of
from rules.outcome import Outcome, Pegged

__all__ = ["CribbageGame", "DealState", "GameState", "Outcome", "Pegged"]

SCHEMA = 1

# Where a card is known to be during a deal.
Location = tuple[str, int | None]  # ("hand"|"crib"|"played"|"starter", seat)


@dataclass
class PendingGo:
    """A "go" whose honesty can only be proved later, when the hand is seen."""

    seat: int
    count: int
    event: int
    played_before: int
    proven: bool = False


@dataclass
class DealState:
    """Everything about the current deal."""

    dealer: int
    hand_sizes: list[int]
    known: list[list[Card] | None]
    location: dict[Card, Location] = field(default_factory=dict)
    discards: list[int] = field(default_factory=list)
    crib_known: list[Card] = field(default_factory=list)
    starter: Card | None = None
    played: list[list[Card]] = field(default_factory=list)
    run: list[Card] = field(default_factory=list)
    count: int = 0
    went: list[bool] = field(default_factory=list)
    turn: int | None = None
    last_player: int | None = None
    pending_goes: list[PendingGo] = field(default_factory=list)
    shown: list[tuple[int, bool]] = field(default_factory=list)

    def clone(self) -> DealState:
        return DealState(
            dealer=self.dealer,
            hand_sizes=list(self.hand_sizes),
            known=[None if k is None else list(k) for k in self.known],
            location=dict(self.location),
            discards=list(self.discards),
            crib_known=list(self.crib_known),
            starter=self.starter,
            played=[list(p) for p in self.played],
            run=list(self.run),
            count=self.count,
            went=list(self.went),
            turn=self.turn,
            last_player=self.last_player,
            pending_goes=[dataclasses.replace(p) for p in self.pending_goes],
            shown=list(self.shown),
        )

    def cards_left(self, seat: int) -> int:
        return max(0, self.hand_sizes[seat] - len(self.played[seat]))


@dataclass
class GameState:
    """The whole table: phase, scores and pegs, games won, the current deal, verdicts."""

    phase: str  # cut, deal, discard, starter, play, show, over
    scores: list[int]
    back_pegs: list[int]
    games_won: list[int]
    game_number: int = 1
    dealer: int | None = None
    deal_number: int = 0
    winner: int | None = None
    result: str | None = None
    deal: DealState | None = None
    verdicts: list[v.Verdict] = field(default_factory=list)

    def clone(self) -> GameState:
        return GameState(
            phase=self.phase,
            scores=list(self.scores),
            back_pegs=list(self.back_pegs),
            games_won=list(self.games_won),
            game_number=self.game_number,
            dealer=self.dealer,
            deal_number=self.deal_number,
            winner=self.winner,
            result=self.result,
            deal=None if self.deal is None else self.deal.clone(),
            verdicts=list(self.verdicts),
        )


class _Step(Step):
    """Collects what one event does: verdicts, notes and the pegs it moved."""

    __slots__ = ("pegged",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.pegged: list[Pegged] = []


class CribbageGame(EventLog[CribbageRules, GameState, _Step, Outcome[Never]]):
    """One match of cribbage (one or more games) between 2, 3 or 4 players.

    The log is :class:`~rules.eventlog.EventLog`'s, with a snapshot of the state
    after every event: the referee undoes and corrects often, and undo is a pop.
    :attr:`state` is replaced, never changed: treat it as read-only.
    """

    name = "cribbage"
    title = "cribbage"
    a_title = "a cribbage"
    event_types = EVENT_TYPES
    rules_type = CribbageRules
    schema = SCHEMA
    snapshots = True
    recount = "; the game is recounted"
    tricks = False

    def __init__(self, rules: CribbageRules | None = None) -> None:
        super().__init__(rules or CribbageRules())

    def _new_state(self) -> GameState:
        teams = self.rules.teams
        return GameState(
            phase="cut", scores=[0] * teams, back_pegs=[0] * teams, games_won=[0] * teams
        )

    def _new_step(self, index: int) -> _Step:
        return _Step(index)

    def _copy_state(self, st: GameState) -> GameState:
        return st.clone()

    def _outcome(
        self, verdicts: tuple[v.Verdict, ...], notes: tuple[str, ...], step: _Step | None
    ) -> Outcome[Never]:
        return Outcome(verdicts, notes, pegged=() if step is None else tuple(step.pegged))

    # Views --------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.scores)

    def pegs(self, team: int) -> tuple[int, int]:
        """(front peg, back peg) of a team: the back peg marks the score before the last move."""
        return self.state.scores[team], self.state.back_pegs[team]

    @property
    def turn(self) -> int | None:
        d = self.state.deal
        return None if d is None or self.state.phase != "play" else d.turn

    @property
    def count(self) -> int:
        d = self.state.deal
        return 0 if d is None else d.count

    @property
    def dealer(self) -> int | None:
        return self.state.dealer

    def to_json(self) -> dict[str, Any]:
        """The log, with the rules, and a summary of the state for observers."""
        data = super().to_json()
        data["state"] = self.summary()
        return data

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """Rebuild a game by replaying its events (the ``state`` field is ignored)."""
        if not isinstance(data, dict) or data.get("game") != "cribbage":
            raise InvalidEventError("not a cribbage game record")
        if data.get("schema") != SCHEMA:
            raise InvalidEventError(f"unknown schema {data.get('schema')!r}")
        game = cls(CribbageRules.from_json(data.get("rules", {})))
        apply_all(game.apply, events_of(data), event_from_json)
        return game

    def summary(self) -> dict[str, Any]:
        """The table as observers need it: phase, pegs, turn, count, cards on the table."""
        st = self.state
        d = st.deal
        return {
            **self._summary(st.scores, "team" if self.rules.partnerships else "seat"),
            "game_number": st.game_number,
            "deal_number": st.deal_number,
            "count": self.count,
            "pegs": [{"front": f, "back": b} for f, b in zip(st.scores, st.back_pegs, strict=True)],
            "games_won": list(st.games_won),
            "winner": st.winner,
            "result": st.result,
            "starter": None if d is None or d.starter is None else str(d.starter),
            "run": [] if d is None else [str(c) for c in d.run],
            "played": [] if d is None else [[str(c) for c in p] for p in d.played],
        }

    # Validation of malformed events ------------------------------------------------

    def _validate(self, event: Event) -> None:
        if not isinstance(event, Event):
            raise InvalidEventError(f"not an event: {event!r}")
        n = self.rules.players

        def seat_ok(seat: int | None, name: str = "seat") -> None:
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
                raise InvalidEventError(f"{event.type}: {name} {seat!r} is not a seat (0..{n - 1})")

        for name in ("seat", "dealer"):
            if hasattr(event, name):
                seat_ok(getattr(event, name), name)
        if isinstance(event, Cut) and len(event.cut) != n:
            raise InvalidEventError(f"cut: {len(event.cut)} cards for {n} players")
        if isinstance(event, Deal) and event.hands is not None and len(event.hands) != n:
            raise InvalidEventError(f"deal: {len(event.hands)} hands for {n} players")
        if (
            isinstance(event, Discard)
            and event.count is not None
            and (event.count < 0 or (event.crib_cards and event.count != len(event.crib_cards)))
        ):
            raise InvalidEventError(f"discard: count {event.count} does not fit the cards")
        if isinstance(event, Penalty) and event.points <= 0:
            raise InvalidEventError(f"penalty: points must be positive, got {event.points}")
        if isinstance(event, Penalty) and event.points > self.rules.game_to:
            # the laws' penalties are two points (seed 000): a million ended the match
            # on a slip of the operator's keyboard
            raise InvalidEventError(
                f"penalty: {event.points} points is more than a whole game ({self.rules.game_to})"
            )

    # The referee ------------------------------------------------------------------

    def _step(self, st: GameState, event: Event, step: _Step) -> None:
        handlers = {
            Cut: self._cut,
            SetDealer: self._set_dealer,
            Deal: self._deal,
            Discard: self._discard,
            Starter: self._starter,
            Play: self._play,
            Go: self._go,
            Show: self._show,
            Penalty: self._penalty,
            NewGame: self._new_game,
        }
        handlers[type(event)](st, event, step)

    def _out_of_phase(self, st: GameState, event: Event, step: _Step, want: str) -> None:
        seat = getattr(event, "seat", None)
        step.flag(
            v.OutOfPhase,
            seat,
            None,
            event.cards(),
            f"{event.type} during {st.phase}; expected {want}",
        )

    def _adversary(self, seat: int) -> int | None:
        """The seat that scores a penalty against ``seat``: with two sides only."""
        return (seat + 1) % self.rules.players if self.rules.teams == 2 else None

    def _peg(self, st: GameState, seat: int, items: Sequence[ScoreItem], step: _Step) -> None:
        points = sum(i.points for i in items)
        if st.phase == "over" or points == 0:
            return
        team = self.rules.team_of(seat)
        st.back_pegs[team] = st.scores[team]
        # The front peg stops in the game hole; points beyond it count for nothing.
        st.scores[team] = min(st.scores[team] + points, self.rules.game_to)
        step.pegged.append(Pegged(seat, team, points, tuple(items), st.scores[team]))
        if st.scores[team] >= self.rules.game_to:
            # "the player who first pegs a sufficient number ... wins the game": at
            # once, even in the middle of the play or the show.
            st.phase = "over"
            st.winner = team
            best_loser = max(s for t, s in enumerate(st.scores) if t != team)
            games, name = self.rules.games_for(best_loser)
            st.result = name
            st.games_won[team] += games
            step.notes.append(f"game: {name}, {games} game{'s' if games > 1 else ''}")

    def _cut(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Cut)
        if st.phase != "cut":
            return self._out_of_phase(st, e, step, "no cut")
        if len(set(e.cut)) != len(e.cut):
            step.flag(v.DuplicateCard, None, None, e.cut, "the same card cut twice")
            return None
        low = min(c.rank for c in e.cut)
        lowest = [s for s, c in enumerate(e.cut) if c.rank == low]
        if len(lowest) > 1:
            step.notes.append("ties are decided by cutting again")  # seed 000 CUTTING
            return None
        st.dealer = lowest[0]
        st.phase = "deal"
        step.notes.append(f"seat {lowest[0]} cuts lowest and deals")
        return None

    def _set_dealer(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, SetDealer)
        if st.phase != "cut":
            return self._out_of_phase(st, e, step, "no choice of dealer")
        st.dealer = e.seat
        st.phase = "deal"
        return None

    def _deal(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Deal)
        r = self.rules
        n = r.players
        redeal = st.phase == "discard" and st.deal is not None
        if st.phase != "deal" and not redeal:
            return self._out_of_phase(st, e, step, "no deal")
        assert st.dealer is not None
        # The first deal, or a fresh deal "by the same dealer" after a misdeal.
        expected = st.dealer if redeal or st.deal is None else (st.dealer + 1) % n
        dealer = expected if e.dealer is None else e.dealer
        if dealer != expected:
            step.flag(
                v.DealtOutOfTurn, dealer, None, (), f"seat {dealer} dealt; seat {expected}'s deal"
            )
            adversary = self._adversary(dealer)
            if r.penalty_dealing_out_of_turn and adversary is not None:
                self._peg(st, adversary, [ScoreItem("penalty", 2)], step)
        first_of_game = st.deal is None
        st.dealer = dealer
        if not redeal:
            st.deal_number += 1
        d = DealState(
            dealer=dealer,
            hand_sizes=[r.hand_size] * n,
            known=[None] * n,
            discards=[0] * n,
            played=[[] for _ in range(n)],
            went=[False] * n,
        )
        st.deal = d
        st.phase = "discard"
        if e.hands is not None:
            misdealt = False
            for seat, hand in enumerate(e.hands):
                d.known[seat] = list(hand)
                d.hand_sizes[seat] = len(hand) - r.discards_each
                if len(hand) != r.deal_size:
                    misdealt = True
                    step.flag(
                        v.WrongNumberOfCards,
                        seat,
                        None,
                        hand,
                        f"dealt {len(hand)} cards, the deal is {r.deal_size}",
                    )
                for card in hand:
                    if card in d.location:
                        step.flag(v.DuplicateCard, seat, None, (card,), f"{card} dealt twice")
                    d.location[card] = ("hand", seat)
            if misdealt and r.penalty_misdeal and r.teams == 2:
                # "the non-dealer scores two points by way of penalty" (seed 000)
                self._peg(st, (dealer + 1) % n, [ScoreItem("penalty", 2)], step)
        if e.crib_card is not None:
            if e.crib_card in d.location:
                step.flag(v.DuplicateCard, None, None, (e.crib_card,), f"{e.crib_card} dealt twice")
            d.location[e.crib_card] = ("crib", None)
            d.crib_known.append(e.crib_card)
        if first_of_game and r.three_for_last and not redeal:
            self._peg(st, (dealer + 1) % n, [ScoreItem("three for last", 3)], step)
        return None

    def _where(self, d: DealState, card: Card) -> str:
        kind, seat = d.location[card]
        return {
            "hand": f"in seat {seat}'s hand",
            "crib": "laid out for the crib",
            "played": f"played by seat {seat}",
            "starter": "the starter",
        }[kind]

    def _check_own_card(
        self, st: GameState, seat: int, card: Card, step: _Step, *, showing: bool = False
    ) -> None:
        """Flag a card that ``seat`` plays or shows but cannot hold."""
        d = st.deal
        assert d is not None
        loc = d.location.get(card)
        if loc is None:
            hand = d.known[seat]
            if hand is not None and card not in hand:
                step.flag(
                    v.CardNotInHand, seat, None, (card,), f"{card} is not in seat {seat}'s hand"
                )
            return
        kind, owner = loc
        if owner == seat and (kind == "hand" or (showing and kind == "played")):
            return
        if kind == "crib" and owner == seat:
            step.flag(v.CribCardTakenUp, seat, None, (card,), f"{card} was laid out for the crib")
            adversary = self._adversary(seat)
            if self.rules.penalty_crib_card_taken_up and adversary is not None:
                self._peg(st, adversary, [ScoreItem("penalty", 2, (card,))], step)
        elif kind == "hand":
            step.flag(v.CardNotInHand, seat, None, (card,), f"{card} is {self._where(d, card)}")
        else:
            step.flag(
                v.DuplicateCard, seat, None, (card,), f"{card} seen twice: {self._where(d, card)}"
            )

    def _discard(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Discard)
        if st.phase != "discard":
            return self._out_of_phase(st, e, step, "no laying out")
        d = st.deal
        assert d is not None
        for card in e.crib_cards:
            loc = d.location.get(card)
            if loc is None or loc == ("hand", e.seat):
                self._check_own_card(st, e.seat, card, step)
            elif loc[0] == "hand":
                step.flag(
                    v.CardNotInHand, e.seat, None, (card,), f"{card} is {self._where(d, card)}"
                )
            else:
                step.flag(v.DuplicateCard, e.seat, None, (card,), f"{card} seen twice")
            hand = d.known[e.seat]
            if hand is not None and card in hand:
                hand.remove(card)
            d.location[card] = ("crib", e.seat)
            d.crib_known.append(card)
        d.discards[e.seat] += e.number
        if d.discards[e.seat] > self.rules.discards_each:
            step.flag(
                v.WrongCribCount,
                e.seat,
                None,
                e.crib_cards,
                f"laid out {d.discards[e.seat]}, expected {self.rules.discards_each}",
            )
        if all(n >= self.rules.discards_each for n in d.discards):
            st.phase = "starter"
        return None

    def _starter(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Starter)
        if st.phase not in ("starter", "discard"):
            return self._out_of_phase(st, e, step, "no starter")
        d = st.deal
        assert d is not None
        if st.phase == "discard":
            for seat, n in enumerate(d.discards):
                if n != self.rules.discards_each:
                    step.flag(
                        v.WrongCribCount,
                        seat,
                        None,
                        (),
                        f"laid out {n}, expected {self.rules.discards_each}",
                    )
        if e.card in d.location:
            step.flag(
                v.DuplicateCard,
                None,
                None,
                (e.card,),
                f"starter {e.card} is {self._where(d, e.card)}",
            )
        d.location[e.card] = ("starter", None)
        d.starter = e.card
        st.phase = "play"
        d.turn = (d.dealer + 1) % self.rules.players  # "the eldest hand plays a card"
        if e.card.rank == JACK:
            # "If the starter is a Jack, the dealer immediately pegs two points for his heels."
            self._peg(st, d.dealer, [ScoreItem("his heels", 2, (e.card,))], step)
        return None

    def _prove_goes(
        self, d: DealState, seat: int, held: Iterable[Card], step: _Step, *, at_show: bool = False
    ) -> None:
        """Flag each earlier "go" of ``seat`` that a card it held then proves false.

        Every card a seat plays later in the deal was in its hand at each of its
        earlier goes; at the show, the cards not yet played when it said go were.
        """
        cards = list(held)
        for go in d.pending_goes:
            if go.seat != seat or go.proven:
                continue
            before = d.played[seat][: go.played_before] if at_show else []
            for card in cards:
                if card not in before and pip_value(card) <= 31 - go.count:
                    go.proven = True
                    step.flag(
                        v.GoWhileAbleToPlay,
                        seat,
                        None,
                        (card,),
                        f"said go at {go.count} (event {go.event}) holding {card}",
                    )
                    break

    def _play(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Play)
        if st.phase != "play":
            return self._out_of_phase(st, e, step, "no play")
        d = st.deal
        assert d is not None
        seat, card = e.seat, e.card
        if d.went[seat]:
            # The seat said go in this count and plays again: the others are done,
            # the count is closed and this card leads the next one.
            self._close_count(st, step)
            if st.phase != "play":
                return self._out_of_phase(st, e, step, "no play after the play ended")
        if d.turn is not None and seat != d.turn:
            step.flag(
                v.PlayedOutOfTurn, seat, None, (card,), f"seat {seat} played; seat {d.turn}'s turn"
            )
        self._check_own_card(st, seat, card, step)
        if len(d.played[seat]) >= d.hand_sizes[seat]:
            step.flag(
                v.WrongNumberOfCards,
                seat,
                None,
                (card,),
                f"card {len(d.played[seat]) + 1} from a hand of {d.hand_sizes[seat]}",
            )
            d.hand_sizes[seat] = len(d.played[seat]) + 1
        self._prove_goes(d, seat, (card,), step)
        d.played[seat].append(card)
        d.location[card] = ("played", seat)
        hand = d.known[seat]
        if hand is not None and card in hand:
            hand.remove(card)
        value = pip_value(card)
        if d.count + value > 31:
            step.flag(
                v.OverThirtyOne,
                seat,
                None,
                (card,),
                f"count {d.count} + {card} = {d.count + value}, past thirty-one",
            )
            return None
        d.run.append(card)
        d.count += value
        d.last_player = seat
        self._peg(st, seat, score_last(d.run), step)
        if st.phase == "over":
            return None
        if d.count == 31:
            self._close_count(st, step, thirty_one=True)
        else:
            self._advance(st, seat, step)
        return None

    def _go(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Go)
        if st.phase != "play":
            return self._out_of_phase(st, e, step, "no go")
        d = st.deal
        assert d is not None
        seat = e.seat
        if d.went[seat]:
            return None
        if d.turn is not None and seat != d.turn:
            step.flag(
                v.PlayedOutOfTurn, seat, None, (), f"seat {seat} said go; seat {d.turn}'s turn"
            )
        hand = d.known[seat]
        if hand is not None:
            playable = [c for c in hand if pip_value(c) <= 31 - d.count]
            if playable:
                step.flag(
                    v.GoWhileAbleToPlay,
                    seat,
                    None,
                    playable[:1],
                    f"said go at {d.count} holding {playable[0]}",
                )
        else:
            d.pending_goes.append(PendingGo(seat, d.count, step.index, len(d.played[seat])))
        d.went[seat] = True
        self._advance(st, seat, step)
        return None

    def _advance(self, st: GameState, after: int, step: _Step) -> None:
        """Pass the turn on, or close the count when nobody can go on."""
        d = st.deal
        assert d is not None
        n = self.rules.players
        if all(d.cards_left(s) == 0 for s in range(n)):
            self._close_count(st, step)
            return
        for k in range(1, n + 1):
            s = (after + k) % n
            if d.cards_left(s) > 0 and not d.went[s]:
                d.turn = s
                return
        self._close_count(st, step)

    def _close_count(self, st: GameState, step: _Step, *, thirty_one: bool = False) -> None:
        """End one count: one for last card unless thirty-one, then the next count
        or the end of the play (seed 003 FIFTEEN or THIRTY-ONE; seed 004 §87)."""
        d = st.deal
        assert d is not None
        n = self.rules.players
        last = d.last_player
        if not thirty_one and d.run and last is not None:
            self._peg(st, last, [ScoreItem("go", 1, (d.run[-1],))], step)
        d.run = []
        d.count = 0
        d.went = [False] * n
        d.last_player = None
        if st.phase == "over":
            return
        if self.rules.play_ends_at_first_count or all(d.cards_left(s) == 0 for s in range(n)):
            st.phase = "show"
            d.turn = None
            return
        start = last if last is not None else (d.turn if d.turn is not None else d.dealer)
        for k in range(1, n + 1):
            s = (start + k) % n
            if d.cards_left(s) > 0:
                d.turn = s
                return

    def _show_order(self, d: DealState) -> list[tuple[int, bool]]:
        n = self.rules.players
        return [((d.dealer + k) % n, False) for k in range(1, n + 1)] + [(d.dealer, True)]

    def _show(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Show)
        d = st.deal
        if (
            st.phase == "play"
            and d is not None
            and self.rules.play_ends_at_first_count
            and any(d.went)
        ):
            # A go was said and the hands are being shown: the five-card play is over.
            self._close_count(st, step)
        if st.phase != "show":
            return self._out_of_phase(st, e, step, "no show")
        assert d is not None and d.starter is not None
        r = self.rules
        seat = d.dealer if e.crib else e.seat
        key = (seat, e.crib)
        if key in d.shown:
            return self._out_of_phase(st, e, step, "each hand shown once")
        expected = next(k for k in self._show_order(d) if k not in d.shown)
        if key != expected or (e.crib and e.seat != d.dealer):
            what = "the crib" if expected[1] else f"seat {expected[0]}'s hand"
            step.flag(v.ShownOutOfOrder, e.seat, None, e.shown, f"{what} is counted first")
        d.shown.append(key)
        cards = e.shown
        sound = len(set(cards)) == len(cards) and d.starter not in cards
        if e.crib:
            if len(cards) != r.crib_size:
                step.flag(
                    v.WrongCribCount,
                    seat,
                    None,
                    cards,
                    f"crib of {len(cards)}, expected {r.crib_size}",
                )
            for card in cards:
                loc = d.location.get(card)
                if loc is not None and loc[0] != "crib":
                    step.flag(
                        v.DuplicateCard, seat, None, (card,), f"{card} is {self._where(d, card)}"
                    )
            missing = [c for c in d.crib_known if c not in cards]
            if missing:
                step.flag(v.HandMismatch, seat, None, missing, "crib shown without cards laid out")
            scorable = sound and len(cards) == 4
        else:
            if len(cards) != d.hand_sizes[seat]:
                step.flag(
                    v.WrongNumberOfCards,
                    seat,
                    None,
                    cards,
                    f"shows {len(cards)} cards, holds {d.hand_sizes[seat]}",
                )
            for card in cards:
                self._check_own_card(st, seat, card, step, showing=True)
            missing = [c for c in d.played[seat] if c not in cards]
            if missing:
                step.flag(v.HandMismatch, seat, None, missing, "shown without cards it played")
            self._prove_goes(d, seat, cards, step, at_show=True)
            scorable = sound and len(cards) in HAND_SIZES
        for card in cards:
            d.location.setdefault(card, ("crib", None) if e.crib else ("hand", seat))
        if scorable:
            counted = score_show(cards, d.starter, crib=e.crib)
            self._peg(st, seat, counted.items, step)
        if st.phase != "over" and len(d.shown) == len(self._show_order(d)):
            st.phase = "deal"
        return None

    def _penalty(self, st: GameState, e: Event, step: _Step) -> None:
        assert isinstance(e, Penalty)
        if st.phase == "over":
            return self._out_of_phase(st, e, step, "no score after the game")
        self._peg(st, e.seat, [ScoreItem("penalty", e.points)], step)
        if e.reason:
            step.notes.append(e.reason)
        return None

    def _new_game(self, st: GameState, e: Event, step: _Step) -> None:
        if st.phase != "over":
            return self._out_of_phase(st, e, step, "a new game only after one is won")
        teams = self.rules.teams
        st.phase = "cut"
        st.scores = [0] * teams
        st.back_pegs = [0] * teams
        st.game_number += 1
        st.dealer = None
        st.deal_number = 0
        st.winner = None
        st.result = None
        st.deal = None
        return None
