"""The state of a Skat table while its events are refereed: the deal, the table, a step.

:class:`SkatState` is the table (the score pad, the tournament points, the
deals' results, the verdicts); :class:`DealState` the current deal; a
:class:`SkatStep` collects what one event does. :mod:`rules.skat.game` referees
the events; :mod:`rules.skat.claims`, :mod:`rules.skat.exchange` and
:mod:`rules.skat.settlement` are its seams.

>>> SkatState.new(3).pad, DECK_IX[0][0]
([0, 0, 0], Card.parse('AS'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from rules.cards import SKAT_DECK, Card
from rules.eventlog import Step
from rules.skat.bidding import Bidding
from rules.skat.declaration import Declaration
from rules.tricks.contract import index_of
from rules.tricks.play import TrickPlay
from rules.verdicts import Verdict

if TYPE_CHECKING:
    from rules.skat.settlement import DealResult

__all__ = ["DECK_IX", "DealState", "SkatState", "SkatStep"]

#: The Skat pack, each card with its index (:func:`~rules.tricks.contract.index_of`).
DECK_IX: Final = tuple((c, index_of(c)) for c in SKAT_DECK)


@dataclass(slots=True)
class DealState:
    """Everything about the current deal."""

    number: int
    dealer: int
    seats: tuple[int, int, int]
    bidding: Bidding
    hands: tuple[tuple[Card, ...], ...] | None = None
    skat: tuple[Card, ...] = ()
    #: The dealt hands as card indexes (:data:`rules.tricks.contract.INDEX`).
    hands_ix: tuple[tuple[int, ...], ...] | None = None
    bock: bool = False
    phase: str = "bidding"  # bidding, declaring, play, over
    declarer: int | None = None
    picked_up: bool = False
    skat_seen: list[Card] = field(default_factory=list)
    laid: list[Card] = field(default_factory=list)
    laid_count: int | None = None
    declaration: Declaration | None = None
    play: TrickPlay | None = None
    factor: int = 1  # Kontra 2, Re 4
    kontra: int | None = None
    forced: list[tuple[int, int, bool, str]] = field(default_factory=list)
    rest_to: str | None = None  # who takes the tricks not played: "declarer"/"defenders"
    extra: list[Card] = field(default_factory=list)  # Law 50: counted with the player's
    conceded: set[int] = field(default_factory=set)
    abandoned: bool = False
    claim_points: int | None = None
    bock_added: int = 0
    #: The single player of a game without trumps (a nullo, Uno, Duo, Revolution),
    #: whose tricks may decide it before the end, else -1.
    null_player: int = -1
    #: The single player of a game announced schwarz (an ouvert suit game or grand,
    #: or schwarz announced in hand), lost at the defenders' first trick, else -1.
    schwarz_player: int = -1
    #: The trick at which such a game was lost before the end (0: none): a revoke or
    #: a lead out of turn in a later trick comes after the game was decided, and
    #: decides nothing (:meth:`SkatGame._decides`).
    decided_at: int = 0
    #: In a Revolution until the first card: the cards each adversary gave the other.
    exchange: dict[int, list[Card]] | None = None
    result: DealResult | None = None

    def position(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    @property
    def defenders(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != self.declarer)


@dataclass
class SkatState:
    """The table: the current deal, the score pad, the tournament points, verdicts."""

    players: int
    next_dealer: int | None = None
    deal_number: int = 0
    deal: DealState | None = None
    pad: list[int] = field(default_factory=list)
    tournament: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    bock_left: int = 0
    results: list[DealResult] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)

    @classmethod
    def new(cls, players: int) -> SkatState:
        zeros = [0] * players
        return cls(
            players, pad=list(zeros), tournament=list(zeros), won=list(zeros), lost=list(zeros)
        )


class SkatStep(Step):
    """Collects what one event does: verdicts, notes and a deal's result."""

    __slots__ = ("result",)

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.result: DealResult | None = None
