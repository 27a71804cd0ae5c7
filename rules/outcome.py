"""What one event did, in every game: the one :class:`Outcome` that ``apply`` returns.

Every game's :meth:`apply` answers with the verdicts the event raised, notes for
people and, where the game has them, the pegs it moved (cribbage's
:class:`Pegged`), the deal's result it settled (Skat's and Frog's, at the end of
a deal) and the points it scored (All Fours' High, Low, Jack and Game). What a
game does not have stays empty.

>>> from rules.verdicts import OutOfPhase
>>> out = Outcome(verdicts=(OutOfPhase(3, 0, None, (), "play during cut; expected no play"),))
>>> out.to_json()["verdicts"][0]["kind"], out.pegged, out.result
('out-of-phase', (), None)
>>> sorted(Outcome().to_json())
['notes', 'pegged', 'result', 'scored', 'verdicts']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from rules.verdicts import Verdict

if TYPE_CHECKING:
    from rules.cribbage.scoring import ScoreItem

__all__ = ["Outcome", "Pegged", "Result"]


class Result(Protocol):
    """A deal's result: anything with a JSON form (Skat's ``DealResult``, Frog's
    ``FrogResult``)."""

    def to_json(self) -> dict[str, Any]: ...


ResultT = TypeVar("ResultT", bound=Result)


@dataclass(frozen=True, slots=True)
class Pegged:
    """One move of a side's pegs (cribbage): the points, what made them, the score after."""

    seat: int
    team: int
    points: int
    items: tuple[ScoreItem, ...]
    score: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "team": self.team,
            "points": self.points,
            "score": self.score,
            "items": [i.to_json() for i in self.items],
        }


@dataclass(frozen=True, slots=True)
class Outcome(Generic[ResultT]):
    """What one event did: the verdicts it raised, notes for people, the deal's
    result it settled (Skat, Frog), the pegs it moved (cribbage), the points it
    scored (All Fours: each with the seat, side, points, what for, evidence cards
    and the side's score after)."""

    verdicts: tuple[Verdict, ...] = ()
    notes: tuple[str, ...] = ()
    result: ResultT | None = None
    pegged: tuple[Pegged, ...] = ()
    scored: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "verdicts": [x.to_json() for x in self.verdicts],
            "notes": list(self.notes),
            "result": None if self.result is None else self.result.to_json(),
            "pegged": [p.to_json() for p in self.pegged],
            "scored": list(self.scored),
        }
