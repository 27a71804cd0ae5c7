"""Reading a cribbage table: the cut, the starter, the play rows, the show, the crib.

Zones (``config/tables/cribbage-*.toml``): a ``play`` row and a ``show`` row in
front of each seat, the ``starter`` and the ``crib``. What the camera sees becomes:

* **the cut** (seed 000 CUTTING): before the first deal, a card laid in front of
  each seat is its cut; when every seat has cut, ``Cut``. The dealer may be set
  instead (``--dealer``, a ``set_dealer`` command).
* **the deal and the lay-out** are not seen: the hands and the crib are face down.
  A card turned up on the ``starter`` zone opens the deal: ``Deal``, a
  ``Discard`` of as many unseen cards as each seat lays out, then ``Starter``.
* **the play**: "a card laid in a seat's play row is played by that seat". A go
  is not seen either. When a seat plays while another seat was to play, the
  other said go if it could have (the count is 22 or more: any card it held may
  not fit); the engine keeps such a go pending and proves it false at the show
  if a card that fitted turns up in that hand (seed 003 "Go"). When the other
  seat could not have said go (the count is 21 or less, so every card fits), its
  card was missed, or the card was laid out of turn: that is **one** alert that
  asks for the card, and the plays after it wait behind it (no cascade of false
  verdicts). It clears when an operator supplies the card (``supply``), says go
  for the seat (``go``) or confirms the play as laid (``confirm``), or at the
  show: the seat's hand holds exactly one card that was not seen played (or
  every card was seen, the first after the gap late).
* **the show**: a seat's cards laid (or moved) into its ``show`` row are its
  hand; the crib's cards turned up in the ``crib`` zone are the crib. Each is
  shown, in the order the texts count them (non-dealer first, the crib last),
  once the row holds the hand's number of cards.

>>> from rules.cards import Card
>>> from rules.reading.inputs import TableObservation as Obs
>>> from rules.reading.table import TableReading, TableSetup
>>> r = TableReading(TableSetup("cribbage", dealer=0))
>>> for card, zone in [("7S", "starter"), ("9H", "play.1"), ("10C", "play.1")]:
...     _ = r.feed(Obs("placed", Card.parse(card), zone, zone.split(".")[0],
...                    int(zone[-1]) if "." in zone else None))
>>> [(a.kind, a.seat) for a in r.alerts], r.summary()["pending"]
([('missing-card', 0)], [{'seat': 1, 'card': '10C'}])
>>> from rules.reading.inputs import Command
>>> _ = r.feed(Command("supply", seat=0, card=Card.parse("5D")))   # an operator says
>>> r.alerts, [p["card"] for p in r.plays()]
([], ['9H', '5D', '10C'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from rules.cards import Card
from rules.cribbage.events import Cut, Deal, Discard, Go, Play, SetDealer, Show, Starter
from rules.cribbage.scoring import pip_value
from rules.reading.inputs import Alert, Command, TableObservation
from rules.reading.table import DealReader

__all__ = ["CribbageReader"]

#: At a count of 22 or more a hand may hold no card that fits (a ten is the most).
_GO_POSSIBLE: Final = 22


@dataclass
class _Gap:
    """A seat whose card the camera missed, and the play that showed it."""

    seat: int
    count: int
    alert: str
    seen: tuple[int, Card]


@dataclass
class _Deal:
    cut: dict[int, Card] = field(default_factory=dict)
    #: Cards of this deal and where they were seen: "starter", ("play", seat)...
    seen: dict[Card, tuple[str, int | None]] = field(default_factory=dict)
    show_rows: dict[int, list[Card]] = field(default_factory=dict)
    crib: list[Card] = field(default_factory=list)
    held: list[tuple[int, Card]] = field(default_factory=list)
    gap: _Gap | None = None
    #: A new deal's first card is read, the engine's ``Deal`` not given yet.
    waiting: bool = False
    #: The first deal's starter, turned with no cut seen and no dealer set.
    starter_first: Card | None = None


class CribbageReader(DealReader):
    """Observations of a cribbage table into cribbage events."""

    PROVEN = frozenset({"go-while-able-to-play"})

    def reset(self) -> None:
        self.d = _Deal()
        #: The cards cut for deal, which may still lie there when the deal begins.
        self.cut_cards: set[Card] = getattr(self, "cut_cards", set())

    def start(self) -> None:
        dealer = self.table.setup.dealer
        if dealer is not None:
            self.emit(SetDealer(dealer))

    def pending(self) -> list[dict[str, Any]]:
        return [{"seat": s, "card": str(c)} for s, c in self.d.held]

    # Observations ------------------------------------------------------------------------

    def observe(self, obs: TableObservation, card: Card) -> None:
        g = self.game
        d = self.d
        if obs.kind == "removed":
            self._taken_up(card)
            return
        kind, seat = obs.zone_kind, obs.seat
        phase = g.phase
        if phase == "over":
            if obs.kind != "placed" or kind not in ("starter", "play") or card in d.seen:
                return  # the hands still shown after the game was won
            self.raise_alert(
                Alert("over", "game-over", "the game is over: press new game to play on")
            )
            return
        if phase == "cut":
            if d.starter_first is not None and kind == "play" and seat is not None:
                self._dealer_from_lead(seat, card)
            elif kind in ("play", "show") and seat is not None:
                self._cut(seat, card)
            elif kind == "starter" and obs.kind == "placed" and not d.cut:
                # Nobody was seen cutting: the starter waits for the first card played,
                # whose seat is the eldest hand ("the eldest hand plays a card").
                self._begin()
                self.d.starter_first = card
                self.raise_alert(
                    Alert(
                        "no-dealer",
                        "no-dealer",
                        "no cut seen and no dealer set: the dealer is taken to be the seat "
                        "before the first to play",
                    )
                )
            return
        if kind == "starter":
            if obs.kind == "moved" and phase not in ("deal", "discard"):
                return
            self._starter(card, fresh=obs.kind == "placed")
        elif kind == "play" and seat is not None:
            if obs.kind == "moved" and d.seen.get(card, ("", None))[0] == "play":
                return  # a played card pushed along its row
            self._play(seat, card)
        elif kind == "show" and seat is not None and phase != "deal":
            row = d.show_rows.setdefault(seat, [])
            if card not in row:
                for other in d.show_rows.values():
                    if card in other:
                        other.remove(card)
                row.append(card)
            self._try_show()
        elif kind == "crib" and phase != "deal":
            if card not in d.crib:
                d.crib.append(card)
            self._try_show()

    def _dealer_from_lead(self, seat: int, card: Card) -> None:
        """The first card of the first deal, with the starter seen before any cut: its
        seat is the eldest hand, so the dealer sits before it."""
        starter = self.d.starter_first
        assert starter is not None
        dealer = (seat - 1) % self.game.rules.players
        self.table.update.notes.append(
            f"seat {seat} played first, so seat {dealer} dealt (no cut was seen)"
        )
        self.emit(SetDealer(dealer))
        self.clear_alert("no-dealer")
        self._starter(starter, fresh=True)
        self._play(seat, card)

    def _begin(self) -> None:
        """The first card of a new deal: the deal's inputs start here."""
        if not self.d.waiting:
            self.new_deal()
            self.d.waiting = True

    def _taken_up(self, card: Card) -> None:
        """A card gone from the table: it leaves a row still being laid for the show."""
        for row in self.d.show_rows.values():
            if card in row:
                row.remove(card)
        if card in self.d.crib:
            self.d.crib.remove(card)
        for seat, cut in list(self.d.cut.items()):
            if cut == card:
                del self.d.cut[seat]
        self.cut_cards.discard(card)
        if self.game.phase in ("deal", "discard"):  # a card taken back before the starter
            self.d.held = [(s, c) for s, c in self.d.held if c != card]
            if not self.d.held:
                self.clear_alert("no-starter")

    def _cut(self, seat: int, card: Card) -> None:
        d = self.d
        d.cut[seat] = card
        n = self.game.rules.players
        if len(d.cut) < n:
            return
        self.cut_cards = set(d.cut.values())
        self.emit(Cut(tuple(d.cut[s] for s in range(n))))
        d.cut = {}  # a tie: they cut again

    def _starter(self, card: Card, *, fresh: bool) -> None:
        g = self.game
        d = self.d
        phase = g.phase
        if phase == "show" and fresh and card not in d.seen:
            # A new starter while hands of the last deal are still to be shown: the
            # next deal has begun, so what lies in the rows is what was shown.
            self.table.update.notes.append(
                f"{card} turned for the next deal: the hands are counted as they lay"
            )
            self._show_in_order(as_laid=True)
            phase = g.phase
        if phase == "deal" and fresh:
            self._begin()
            d = self.d
            d.waiting = False
            self.emit(Deal())
            phase = g.phase
        if phase != "discard":
            where = d.seen.get(card)
            if where is not None and where[0] == "starter":
                return  # the starter seen again
            self._duplicate(card, "a second starter")
            return
        deal = g.state.deal
        for seat in range(g.rules.players):
            owed = g.rules.discards_each - deal.discards[seat]
            if owed > 0:
                self.emit(Discard(seat, count=owed))
        d.seen[card] = ("starter", None)
        self.cut_cards = set()
        self.emit(Starter(card))
        self.clear_alert("no-starter")
        held, d.held = d.held, []
        for seat, c in held:
            self._play(seat, c)

    def _duplicate(self, card: Card, why: str) -> None:
        where = self.d.seen.get(card)
        said = "" if where is None else f"; seen before: {where[0]} {where[1] or ''}".rstrip()
        self.raise_alert(
            Alert(f"dup:{card}", "duplicate-card", f"{card}: {why}{said}", cards=(card,))
        )

    def _play(self, seat: int, card: Card) -> None:
        g = self.game
        d = self.d
        phase = g.phase
        if phase in ("deal", "discard"):
            if card in self.cut_cards:
                return  # a card cut for deal, not yet taken up
            if phase == "deal":
                self._begin()
                d = self.d
            if (seat, card) in d.held:
                # the same card seen again where it lies: held once (each copy was held,
                # and a camera that says "placed" again and again made every read, and
                # the reading of the starter, slower with each)
                return
            if not d.held:
                self.raise_alert(
                    Alert("no-starter", "no-starter", "a card played before the starter was seen")
                )
            d.held.append((seat, card))
            return
        if card in d.seen or any(c == card for _, c in d.held):
            where = d.seen.get(card)
            if where == ("play", seat) or (seat, card) in d.held:
                return  # the same card, seen again where it lies
            self._duplicate(card, f"played by seat {seat}")
            return
        if d.gap is not None or d.held:
            d.held.append((seat, card))
            return
        if phase != "play":
            self._late(seat, card)
            return
        deal = g.state.deal
        for _ in range(2 * g.rules.players + 2):
            turn = g.turn
            if g.phase != "play" or turn is None:
                break
            fits = deal.count + pip_value(card) <= 31
            if turn == seat and fits:
                break
            if deal.count >= _GO_POSSIBLE and deal.cards_left(turn) > 0:
                self.emit(Go(turn))  # it held no card that fitted, or the show will say
                deal = g.state.deal
                continue
            if turn == seat:
                break  # a card that does not fit: the engine says so
            self._open_gap(turn, seat, card, deal.count)
            return
        if g.phase != "play":
            self._late(seat, card)
            return
        d.seen[card] = ("play", seat)
        self.emit(Play(seat, card))

    def _late(self, seat: int, card: Card) -> None:
        self.raise_alert(
            Alert(
                f"late:{card}",
                "out-of-phase",
                f"{card} laid in seat {seat}'s play row after the play",
                seat=seat,
                cards=(card,),
            )
        )

    def _open_gap(self, missing: int, seat: int, card: Card, count: int) -> None:
        d = self.d
        alert = f"gap:{self.game.state.deal_number}:{len(self.game.events)}"
        d.gap = _Gap(missing, count, alert, (seat, card))
        d.held.append((seat, card))
        self.raise_alert(
            Alert(
                alert,
                "missing-card",
                f"seat {missing}'s card at {count} was not seen (seat {seat} laid {card}): "
                f"supply it, say go for seat {missing}, or confirm {card} as laid",
                seat=missing,
                cards=(card,),
            )
        )

    def _release(self, fill: Any = None) -> None:
        """Close the gap: play what fills it (a card, a go), then the plays behind it."""
        d = self.d
        gap = d.gap
        if gap is None:
            return
        d.gap = None
        self.clear_alert(gap.alert)
        held, d.held = d.held, []
        if isinstance(fill, Card):
            d.seen[fill] = ("play", gap.seat)
            self.emit(Play(gap.seat, fill))
        elif fill == "go":
            self.emit(Go(gap.seat))
        elif fill == "as-laid":
            seat, card = held.pop(0)
            d.seen[card] = ("play", seat)
            self.emit(Play(seat, card))
        for seat, card in held:
            self._play(seat, card)

    # The show ------------------------------------------------------------------------------

    def _deduce(self) -> None:
        """A shown hand with exactly one card not seen played fills the seat's gap."""
        d = self.d
        gap = d.gap
        if gap is None:
            return
        row = d.show_rows.get(gap.seat, [])
        size = self.game.rules.hand_size
        if len(row) < size:
            return
        deal = self.game.state.deal
        late = [c for s, c in d.held if s == gap.seat]
        unseen = [c for c in row if c not in set(deal.played[gap.seat]) | set(late)]
        if len(unseen) == 1 and unseen[0] not in d.seen:
            self.table.update.notes.append(
                f"seat {gap.seat}'s missing card is {unseen[0]}: the only card of its hand "
                "not seen played"
            )
            self._release(unseen[0])
        elif not unseen and late:
            # every card of the hand was seen: the first one seen after the gap filled it
            d.held.remove((gap.seat, late[0]))
            self.table.update.notes.append(
                f"seat {gap.seat}'s card at {gap.count} was {late[0]}, seen late"
            )
            self._release(late[0])

    def _end_of_play(self) -> None:
        """Hands laid for the show while the engine is still in the play: the goes
        nobody saw were said (five-card: the play ends at the first go), or the
        last cards of the play were missed, which the shown hands tell."""
        g = self.game
        for _ in range(4 * g.rules.players * g.rules.hand_size):
            if g.phase != "play" or g.turn is None:
                return
            deal = g.state.deal
            turn = g.turn
            if deal.count >= _GO_POSSIBLE:
                self.emit(Go(turn))
                continue
            row = self.d.show_rows.get(turn, [])
            if len(row) < deal.hand_sizes[turn]:
                return
            unplayed = [c for c in row if c not in deal.played[turn] and c not in self.d.seen]
            if len(unplayed) != 1 or deal.cards_left(turn) != 1:
                return
            self.table.update.notes.append(
                f"seat {turn}'s last card {unplayed[0]} was not seen played: it is the card "
                "of its hand shown that was not"
            )
            self.d.seen[unplayed[0]] = ("play", turn)
            self.emit(Play(turn, unplayed[0]))

    def _try_show(self) -> None:
        self._deduce()
        if self.d.gap is not None or self.d.held:
            return
        self._end_of_play()
        self._show_in_order(as_laid=False)

    def _show_in_order(self, *, as_laid: bool) -> None:
        """Show each hand, then the crib, in the texts' order (non-dealer first), as
        long as the next one's row holds its number of cards (``as_laid``: as it lies)."""
        g = self.game
        while g.phase == "show":
            deal = g.state.deal
            n = g.rules.players
            order = [((deal.dealer + k) % n, False) for k in range(1, n + 1)]
            order.append((deal.dealer, True))
            todo = [k for k in order if k not in deal.shown]
            if not todo:
                return
            seat, crib = todo[0]
            cards = list(self.d.crib if crib else self.d.show_rows.get(seat, []))
            need = g.rules.crib_size if crib else deal.hand_sizes[seat]
            if not crib:
                # The cards the seat was seen playing come first: a card read in the row
                # that it never played is the likelier misread (a half-covered index).
                played = list(deal.played[seat])
                cards = [c for c in cards if c in played] + [c for c in cards if c not in played]
                if not as_laid and len(played) == need and not set(played) <= set(cards):
                    # every card of the hand was played: wait until the row shows them
                    # (or the next deal begins, which counts the row as it lies)
                    return
            if as_laid:
                need = len(cards) if crib else min(need, len(cards))
            elif len(cards) < need:
                return
            self.emit(Show(seat, tuple(cards[:need]), crib=crib))

    # Commands --------------------------------------------------------------------------------

    def command(self, cmd: Command) -> None:
        g = self.game
        d = self.d
        name = cmd.command
        if name == "set_dealer":
            if cmd.seat is None:
                self.table.fail("set_dealer: give 'seat'")
            elif g.phase != "cut":
                self.table.fail("set_dealer: the dealer is set before the first deal")
            else:
                self.emit(SetDealer(cmd.seat))
        elif name == "supply":
            if d.gap is None or cmd.card is None:
                self.table.fail("supply: no missing card is asked for (or no 'card' given)")
            elif cmd.seat is not None and cmd.seat != d.gap.seat:
                self.table.fail(f"supply: the card asked for is seat {d.gap.seat}'s")
            else:
                self._release(cmd.card)
        elif name == "go":
            if d.gap is not None and cmd.seat in (None, d.gap.seat):
                self._release("go")
            elif g.phase == "play" and g.turn is not None:
                self.emit(Go(g.turn if cmd.seat is None else cmd.seat))
            else:
                self.table.fail("go: nobody is to play")
        elif name == "confirm":
            if d.gap is not None and cmd.alert == d.gap.alert:
                self._release("as-laid")
        elif name == "next_deal":
            self._show_as_laid()
        elif name == "new_game":
            from rules.cribbage.events import NewGame

            if g.phase != "over":
                self.table.fail("new_game: the game is not over (a new match: give 'game')")
            else:
                self.new_deal()
                self.emit(NewGame())
        elif name == "penalty":
            from rules.cribbage.events import Penalty

            if cmd.seat is None or not cmd.points or cmd.points <= 0:
                self.table.fail("penalty: give 'seat' and positive 'points'")
            else:
                self.emit(Penalty(cmd.seat, cmd.points, cmd.reason))
        elif name == "contract":
            self.table.fail("contract: cribbage has no contract")
        else:
            super().command(cmd)

    def _show_as_laid(self) -> None:
        """``next_deal`` during the show: count each hand as its row lies, then end."""
        g = self.game
        if g.phase != "show":
            self.table.fail("next_deal: the deal is not at the show")
            return
        self._try_show()
        self._show_in_order(as_laid=True)
