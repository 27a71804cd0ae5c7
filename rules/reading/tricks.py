"""Reading a trick-taking table: Skat (ISkO and the 1906 laws), Frog, All Fours.

Zones (``config/tables/skat-*.toml``): a ``trick`` zone in front of each seat, a
``tricks`` pile per seat, the ``skat`` (or ``widow``). What the camera sees becomes:

* **the contract** is said, not seen: it comes with the match's setup for the
  first deal (``--declarer --contract --hand --ouvert --bid``) or by a
  ``contract`` command. The reader turns it into the engine's deal, auction and
  declaration (Skat: the declarer's bid, the others passing; a game with the skat
  picks it up and lays two away, unseen). All Fours needs none (the eldest stands
  unless a command says ``give``), only the card turned for trumps, seen on the
  ``starter`` (or ``pack``) zone.
* **the play**: "a card in front of a seat is played by it". A trick is the
  cards laid in front of the seats until each active seat has laid one; it goes
  to the engine in the order of play from the seat to lead (the engine's turn),
  so cards seen in another order within a trick are no fault, with one
  exception: a trick whose first card came from a seat not to lead, and whose
  leader's card was seen ``LEAD_GAP_S`` or more later, is a lead out of turn
  as far as the camera can tell (Laws 47-48): one ``led-out-of-turn`` alert with
  the cards and times as evidence, for an operator to confirm or dismiss (a
  camera can be slow to see a card; the play is still read in turn).
* **a missed card**: a trick swept off the table, or a seat laying a second card,
  with a seat's card not seen, is **one** alert that asks for that card; the
  tricks after it wait behind it instead of being refereed against a wrong
  leader (no cascade of false out-of-turn and revoke verdicts). It clears when the
  card is supplied (``supply``), or at the end of the deal when it is the only
  card of the pack not accounted for (the skat seen).
* **the skat** laid face up on its zone is the skat shown (at the end of the deal,
  or taken up before it).

Only a revoke the engine proves is a verdict (seed 000 Laws 52-53).

>>> from rules.cards import parse_cards
>>> from rules.reading.inputs import TableObservation as Obs
>>> from rules.reading.table import Contract, TableReading, TableSetup
>>> r = TableReading(TableSetup("skat", dealer=2, contract=Contract(0, "grand", hand=True)))
>>> for seat, card in zip([1, 0, 2], parse_cards("7C JC 8C")):   # any order in a trick
...     _ = r.feed(Obs("placed", card, f"trick.{seat}", "trick", seat))
>>> r.plays()
[{'seat': 0, 'card': 'JC'}, {'seat': 1, 'card': '7C'}, {'seat': 2, 'card': '8C'}]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from rules.cards import FRENCH_DECK, FROG_DECK, SKAT_DECK, Card
from rules.events import Play, SetDealer
from rules.reading.inputs import Alert, Command, TableObservation
from rules.reading.table import Contract, DealReader

__all__ = ["AllFoursReader", "FrogReader", "SkatReader", "TrickReader"]

_SUIT_WORDS: Final = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
# How much later than another seat's card the leader's card must be seen before the
# other is taken to have been led out of turn: the camera settles a card some
# tenths of a second after the hand has left it, later when a hand passes over it.
LEAD_GAP_S: Final = 1.0


@dataclass
class _Trick:
    """Cards laid in front of seats for one trick, in the order seen."""

    number: int
    cards: dict[int, Card] = field(default_factory=dict)
    removed: set[Card] = field(default_factory=set)
    missing: tuple[int, ...] = ()
    alert: str = ""
    seen_at: dict[int, float] = field(default_factory=dict)  # seat -> when its card was laid


@dataclass
class _Deal:
    opened: bool = False
    contract: Contract | None = None
    trump_card: Card | None = None
    current: _Trick = field(default_factory=lambda: _Trick(1))
    #: Tricks closed but not yet given to the engine (behind one with a missing card).
    held: list[_Trick] = field(default_factory=list)
    closed: int = 0
    seen: dict[Card, int] = field(default_factory=dict)
    aside: list[Card] = field(default_factory=list)
    not_in_pack: set[Card] = field(default_factory=set)
    skat_shown: bool = False
    #: Cards of this deal seen leaving the table.
    gone: set[Card] = field(default_factory=set)


class TrickReader(DealReader):
    """What every trick game's table reading does alike."""

    DECK: tuple[Card, ...] = FRENCH_DECK
    NEEDS_CONTRACT = True

    def reset(self) -> None:
        self.d = _Deal()
        if self.table.setup.contract is not None and self.first_deal:
            self.d.contract = self.table.setup.contract

    @property
    def first_deal(self) -> bool:
        return not any(type(e).__name__ == "Deal" for e in self.game.events)

    def start(self) -> None:
        if self.table.setup.dealer is not None:
            self.emit(SetDealer(self.table.setup.dealer))

    # The engine's deal -------------------------------------------------------------------

    def engine_deal(self) -> Any:
        return self.game.state.deal

    def playing(self) -> bool:
        deal = self.engine_deal()
        return deal is not None and deal.phase == "play" and deal.play is not None

    def deal_over(self) -> bool:
        deal = self.engine_deal()
        return (
            deal is None or deal.phase == "over" or (deal.play is not None and deal.play.finished)
        )

    def active_seats(self) -> tuple[int, ...]:
        deal = self.engine_deal()
        if deal is not None and deal.play is not None:
            return tuple(deal.play.seats)
        players: int = self.game.rules.players
        return tuple(range(players))

    #: The words a ``contract`` may say in this game.
    CONTRACT_WORDS: frozenset[str] = frozenset()

    def open_deal(self, contract: Contract | None) -> bool:
        """Give the engine the deal and its contract (the game's own events); False
        (and an alert, nothing given) when the contract cannot be this deal's."""
        raise NotImplementedError

    def pending(self) -> list[dict[str, Any]]:
        out = []
        for trick in [*self.d.held, self.d.current]:
            for seat, card in trick.cards.items():
                out.append({"seat": seat, "card": str(card), "trick": trick.number})
        return out

    # Observations ------------------------------------------------------------------------

    def observe(self, obs: TableObservation, card: Card) -> None:
        d = self.d
        if card not in self.DECK:
            if card not in d.not_in_pack:
                d.not_in_pack.add(card)
                self.raise_alert(
                    Alert(
                        f"pack:{card}",
                        "not-in-pack",
                        f"{card} is not a card of this pack: a misread?",
                        cards=(card,),
                    )
                )
            return
        kind, seat = obs.zone_kind, obs.seat
        if obs.kind == "removed" or kind == "tricks":
            self._swept(card)
            return
        if kind in ("skat", "widow", "starter", "pack"):
            self._aside(card, kind)
            return
        if kind in ("trick", "play") and seat is not None:
            self._laid(seat, card, obs.t)

    def _begin_if_over(self, card: Card | None = None) -> bool:
        """The first card or contract after a deal is over starts the next deal; a
        card of the deal just played, still on the table, starts nothing (False)."""
        d = self.d
        if d.opened and self.deal_over():
            if card is not None and (card in d.seen or card in d.aside) and card not in d.gone:
                return False
            self.new_deal()
        return True

    def _aside(self, card: Card, kind: str) -> None:
        d = self.d
        late_skat = kind in ("skat", "widow") and len(d.aside) < 2 and card not in d.seen
        if d.opened and self.deal_over() and late_skat:
            pass  # the skat turned up after the last trick belongs to this deal
        elif not self._begin_if_over(card):
            return
        d = self.d
        if card not in d.aside and card not in d.seen:
            d.aside.append(card)
        self.on_aside(card)
        self._deduce()

    def on_aside(self, card: Card) -> None:
        """A card laid face up on the skat / widow / starter zone."""

    def _laid(self, seat: int, card: Card, t: float = 0.0) -> None:
        if not self._begin_if_over(card):
            return
        d = self.d
        trick = d.current
        if card in trick.cards.values():
            old = next(s for s, c in trick.cards.items() if c == card)
            if old != seat and seat in trick.cards:
                self.raise_alert(
                    Alert(
                        f"two:{self.deal_start}:{trick.number}:{seat}",
                        "duplicate-card",
                        f"{card} moved in front of seat {seat}, which laid "
                        f"{trick.cards[seat]}: it stays seat {old}'s",
                        seat=seat,
                        trick=trick.number,
                        cards=(card, trick.cards[seat]),
                    )
                )
            elif old != seat:  # moved to another seat's place before the trick closed
                del trick.cards[old]
                trick.cards[seat] = card
                trick.seen_at.pop(old, None)  # its time no longer tells who laid first
                d.seen[card] = seat
                self._maybe_close(trick)
            trick.removed.discard(card)
            return
        if card in d.seen:
            if d.seen[card] != seat:
                self.raise_alert(
                    Alert(
                        f"dup:{card}",
                        "duplicate-card",
                        f"{card} laid by seat {seat}, already played by seat {d.seen[card]}",
                        seat=seat,
                        cards=(card,),
                    )
                )
            return
        if seat not in self.active_seats():
            self.raise_alert(
                Alert(
                    f"seat:{seat}:{card}",
                    "out-of-turn",
                    f"{card} laid by seat {seat}, which holds no cards this deal",
                    seat=seat,
                    cards=(card,),
                )
            )
            return
        if seat in trick.cards:
            self._close(trick)  # a second card from a seat: the trick was gathered
            trick = d.current
        trick.cards[seat] = card
        trick.seen_at[seat] = t
        d.seen[card] = seat
        self._maybe_close(trick)

    def _swept(self, card: Card) -> None:
        d = self.d
        d.gone.add(card)
        trick = d.current
        if card not in trick.cards.values():
            return
        trick.removed.add(card)
        if trick.removed < set(trick.cards.values()):
            return
        if len(trick.cards) == 1:
            # One card alone taken off the table is no trick gathered: it was taken
            # back (or never lay there); it may be laid again.
            seat = next(iter(trick.cards))
            del trick.cards[seat]
            trick.seen_at.pop(seat, None)
            trick.removed.clear()
            d.seen.pop(card, None)
            return
        self._close(trick)

    def _maybe_close(self, trick: _Trick) -> None:
        if len(trick.cards) >= len(self.active_seats()):
            self._close(trick)

    def _close(self, trick: _Trick) -> None:
        d = self.d
        seats = self.active_seats()
        trick.missing = tuple(s for s in seats if s not in trick.cards)
        d.closed = trick.number
        d.current = _Trick(trick.number + 1)
        if trick.missing:
            trick.alert = f"miss:{self.deal_start}:{trick.number}"
            who = ", ".join(f"seat {s}" for s in trick.missing)
            self.raise_alert(
                Alert(
                    trick.alert,
                    "missing-card",
                    f"trick {trick.number} was gathered without {who}'s card seen: supply it",
                    seat=trick.missing[0],
                    trick=trick.number,
                    cards=tuple(trick.cards.values()),
                )
            )
        d.held.append(trick)
        self._feed()

    def _feed(self) -> None:
        """Give the engine every closed trick in order, up to one with a card missing."""
        d = self.d
        if not d.opened:
            if d.contract is None and self.NEEDS_CONTRACT:
                self.raise_alert(
                    Alert("no-contract", "no-contract", "cards are played: set the contract")
                )
                return
            if not self.ready_to_open():
                return
            if self._dealer_unknown():
                if not d.held:
                    return  # the first trick will tell who dealt
                self._dealer_from_lead(d.held[0])
            if not self.open_deal(d.contract):
                d.contract = None  # a contract that cannot be this deal's: say it again
                return
            d.opened = True
            self.clear_alert("no-contract")
        while d.held and not d.held[0].missing and self.playing():
            trick = d.held.pop(0)
            leader = self.game.turn
            self._check_lead(trick, leader)
            seats = self.active_seats()
            start = seats.index(leader) if leader in seats else 0
            for seat in seats[start:] + seats[:start]:
                self.emit(Play(seat, trick.cards[seat]))
        if self.deal_over():
            self.on_deal_end()

    def _check_lead(self, trick: _Trick, leader: int | None) -> None:
        """One ``led-out-of-turn`` alert when the trick's first card came from a seat
        not to lead and the leader's card was seen ``LEAD_GAP_S`` or more after it
        (a card supplied or moved has no time, and tells nothing)."""
        at = trick.seen_at
        if leader is None or leader not in at or len(at) < 2:
            return
        first = min(at, key=lambda s: at[s])
        if first == leader or at[leader] - at[first] < LEAD_GAP_S:
            return
        order = sorted(at, key=lambda s: at[s])
        seen = ", ".join(f"seat {s} {trick.cards[s]} at {at[s]:g} s" for s in order)
        self.raise_alert(
            Alert(
                f"lead:{self.deal_start}:{trick.number}",
                "led-out-of-turn",
                f"trick {trick.number}: seat {first} laid {trick.cards[first]} first, seat "
                f"{leader} was to lead (Laws 47-48); seen: {seen}; read in turn",
                seat=first,
                trick=trick.number,
                cards=tuple(trick.cards[s] for s in order),
            )
        )

    def ready_to_open(self) -> bool:
        return True

    def _dealer_unknown(self) -> bool:
        return self.table.setup.dealer is None and not any(
            isinstance(e, SetDealer) or type(e).__name__ == "Deal" for e in self.game.events
        )

    def _dealer_from_lead(self, trick: _Trick) -> None:
        """No dealer set: the seat whose card of the first trick came first led it, and
        the first lead is the dealer's left (Skat's Vorhand, Law 45; Frog; All Fours'
        eldest), so the dealer sits before it."""
        leader = next(iter(trick.cards), None)
        if leader is None:
            return
        dealer = (leader - 1) % int(self.game.rules.players)
        self.table.update.notes.append(
            f"seat {leader} led the first trick, so seat {dealer} dealt (no dealer was set)"
        )
        self.emit(SetDealer(dealer))

    def on_deal_end(self) -> None:
        """The last trick is played."""

    def _deduce(self) -> None:
        """One card missing from the whole pack, all others seen: it is the missing one."""
        d = self.d
        gaps = [t for t in d.held if t.missing]
        if len(gaps) != 1 or len(gaps[0].missing) != 1:
            return
        tricks: int = self.tricks_per_deal()
        if d.closed < tricks:
            return
        known = set(d.seen) | set(d.aside)
        unknown = [c for c in self.DECK if c not in known]
        if len(unknown) != 1:
            return
        self.table.update.notes.append(
            f"trick {gaps[0].number}: seat {gaps[0].missing[0]}'s card is {unknown[0]}, "
            "the one card of the pack not seen"
        )
        self._fill(gaps[0], gaps[0].missing[0], unknown[0])

    def tricks_per_deal(self) -> int:
        deal = self.engine_deal()
        if deal is not None and deal.play is not None:
            return int(deal.play.hand_size)
        return 10

    def _fill(self, trick: _Trick, seat: int, card: Card) -> None:
        trick.cards[seat] = card
        trick.seen_at.pop(seat, None)  # supplied, not seen: no time to order it by
        trick.missing = tuple(s for s in trick.missing if s != seat)
        self.d.seen[card] = seat
        if not trick.missing:
            self.clear_alert(trick.alert)
        self._feed()

    # Commands ------------------------------------------------------------------------------

    def command(self, cmd: Command) -> None:
        d = self.d
        name = cmd.command
        if name == "contract":
            self._begin_if_over()
            d = self.d
            if d.opened:
                self.table.fail("contract: this deal's game is declared already")
                return
            contract = Contract.of(cmd)
            if contract.game not in self.CONTRACT_WORDS:
                words = ", ".join(sorted(self.CONTRACT_WORDS))
                self.table.fail(f"contract: {contract.game!r} is not a contract here ({words})")
                return
            problem = self.contract_problem(contract, self.game.rules)
            if problem is not None:
                self.table.fail(f"contract: {problem}")
                return
            d.contract = contract
            self._feed()
        elif name == "supply":
            gaps = [t for t in d.held if t.missing]
            if cmd.trick is not None:
                gaps = [t for t in gaps if t.number == cmd.trick]
            if cmd.seat is not None:
                gaps = [t for t in gaps if cmd.seat in t.missing]
            if not gaps or cmd.card is None:
                self.table.fail("supply: no trick waits for that card (give 'card', 'seat')")
                return
            seat = cmd.seat if cmd.seat is not None else gaps[0].missing[0]
            if cmd.card in d.seen:
                self.table.fail(f"supply: {cmd.card} was seen played by seat {d.seen[cmd.card]}")
                return
            self._fill(gaps[0], seat, cmd.card)
        elif name == "set_dealer":
            if cmd.seat is None:
                self.table.fail("set_dealer: give 'seat'")
            elif d.opened and not self.deal_over():
                self.table.fail("set_dealer: only between deals")
            else:
                self.emit(SetDealer(cmd.seat))
        elif name == "next_deal":
            if not self.deal_over():
                self.table.update.notes.append(
                    "next deal: this deal is left unfinished (a card is missing)"
                )
            self.new_deal()
        elif name == "confirm":
            pass  # an alert accepted as seen: nothing more to read
        elif name == "penalty":
            from rules.events import Penalty

            if cmd.seat is None or cmd.points is None:
                self.table.fail("penalty: give 'seat' and 'points'")
            else:
                self.emit(Penalty(cmd.seat, cmd.points, cmd.reason))
        else:
            super().command(cmd)


class SkatReader(TrickReader):
    DECK = SKAT_DECK
    CONTRACT_WORDS = frozenset({"clubs", "spades", "hearts", "diamonds", "grand", "null"})

    @staticmethod
    def declaration(contract: Contract) -> Any:
        """The single player's :class:`~rules.skat.declaration.Declaration` of
        ``contract``; one no table can say raises ``InvalidEventError``."""
        from rules.skat.declaration import Declaration

        return Declaration(
            contract.game,
            hand=contract.hand,
            ouvert=contract.ouvert,
            schneider=contract.schneider,
            schwarz=contract.schwarz,
            turned=contract.turned,
        )

    @staticmethod
    def contract_problem(contract: Contract, rules: Any) -> str | None:
        """The part of :meth:`rules.skat.game.SkatGame._illegal` that a contract
        shows before its deal is dealt (the rest needs the skat and whether it was
        picked up, which the engine judges when the declaration comes)."""
        from rules.errors import InvalidEventError
        from rules.skat.declaration import SUIT_GAMES

        try:
            decl = SkatReader.declaration(contract)
        except InvalidEventError as exc:  # schneider in a null game, a hand game turned
            return str(exc)
        trumps = decl.game in SUIT_GAMES or decl.game == "grand"
        gucki = not rules.isko and rules.gucki_variation
        if rules.isko and decl.turned is not None:
            return "the ISkO turns no skat card"
        if trumps and decl.schneider and not decl.hand and not gucki:
            # seed 000 Law 41: "The player is not allowed to announce either
            # schneider or schwarz in any game in which he uses the skat cards";
            # the ISkO likewise (and an ouvert game with trumps is schwarz announced)
            return (
                f"{decl}: schneider, schwarz and ouvert with trumps are announced only "
                "in hand games (Law 41; ISkO)"
            )
        if gucki and decl.hand:
            return "in the Gucki variation the highest bidder always sees the skat (no hand game)"
        return None

    def open_deal(self, contract: Contract | None) -> bool:
        from rules.skat.events import Bid, Deal, Declare, Discard, Hold, Pass, PickUp
        from rules.skat.game import positions

        assert contract is not None
        g = self.game
        st, n = g.state, int(g.rules.players)
        old = st.deal
        if old is not None and old.phase != "over" and old.result is None:
            dealer = old.dealer  # a fresh deal by the same dealer (Laws 19-23)
        else:
            dealer = st.next_dealer if st.next_dealer is not None else n - 1
        x = contract.declarer
        if x not in positions(dealer, n):
            self.raise_alert(
                Alert(
                    f"declarer:{self.deal_start}",
                    "no-contract",
                    f"seat {x} holds no cards this deal (seat {dealer} deals): set the "
                    "contract again",
                    seat=x,
                )
            )
            return False
        self.clear_alert(f"declarer:{self.deal_start}")
        self.emit(Deal())
        seats = g.state.deal.seats
        bid = contract.bid or g.rules.lowest_bid
        pos = seats.index(x)
        v, m, h = seats
        calls = {
            0: [Bid(m, bid), Hold(v), Pass(m), Pass(h)],
            1: [Bid(m, bid), Pass(v), Pass(h)],
            2: [Pass(m), Bid(h, bid), Pass(v)],
        }[pos]
        for call in calls:
            self.emit(call)
        game = contract.game
        decl = self.declaration(contract)
        shown = tuple(self.d.aside)
        skat_events = [] if decl.hand else [PickUp(x, shown), Discard(x, count=2)]
        foster = not g.rules.isko and not g.rules.gucki_variation
        first = foster and game == "null" and not decl.hand
        declare = Declare.of(x, decl, ())
        order = [declare, *skat_events] if first else [*skat_events, declare]
        for event in order:
            self.emit(event)
        return True

    def on_deal_end(self) -> None:
        self._show_skat()

    def on_aside(self, card: Card) -> None:
        self._show_skat()

    def _show_skat(self) -> None:
        """The skat turned face up after the last trick: counted with the tricks."""
        from rules.skat.events import SkatShown

        d = self.d
        if d.opened and not d.skat_shown and len(d.aside) == 2 and self.deal_over():
            d.skat_shown = True
            self.emit(SkatShown(tuple(d.aside)))


class FrogReader(TrickReader):
    DECK = FROG_DECK
    CONTRACT_WORDS = frozenset({"frog", "grand", "spades", "diamonds", "clubs"})

    def open_deal(self, contract: Contract | None) -> bool:
        from rules.frog.game import Deal, Discard, NameTrump, Offer, Pass, WidowShown

        assert contract is not None
        self.emit(Deal())
        word = contract.game
        game, trump = word, "H"
        if word in _SUIT_WORDS:
            game, trump = "chico", _SUIT_WORDS[word]
        x = contract.declarer
        for _ in range(8):
            deal = self.engine_deal()
            if deal.phase != "bidding" or deal.turn is None:
                break
            seat = deal.turn
            self.emit(Offer(seat, game) if seat == x else Pass(seat))
        if game == "chico":
            self.emit(NameTrump(x, trump))
        elif game == "frog":
            self.emit(WidowShown(x, tuple(self.d.aside)))
            self.emit(Discard(x, count=3))
        return True


class AllFoursReader(TrickReader):
    DECK = FRENCH_DECK
    NEEDS_CONTRACT = False
    CONTRACT_WORDS = frozenset({"stand", "give"})

    def ready_to_open(self) -> bool:
        if self.d.trump_card is None:
            self.raise_alert(
                Alert("no-trump", "no-trump", "the card turned for trumps was not seen")
            )
            return False
        return True

    def on_aside(self, card: Card) -> None:
        d = self.d
        if d.trump_card is None and not d.opened:
            d.trump_card = card
            self.clear_alert("no-trump")
            self._feed()

    def open_deal(self, contract: Contract | None) -> bool:
        from rules.allfours.game import Beg, Deal, Give, Stand

        g = self.game
        self.emit(Deal(turned=self.d.trump_card))
        deal = self.engine_deal()
        eldest = (deal.dealer + 1) % g.rules.players
        if contract is not None and contract.game == "give":
            self.emit(Beg(eldest))
            self.emit(Give(deal.dealer))
        else:
            self.emit(Stand(eldest))
        return True
