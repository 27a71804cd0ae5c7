"""Legal games turned into what a camera over the table would report.

A game played by the engines' automatic players is told as observation lines:
each card laid in its zone (``placed``), each hand moved to the show row
(``moved``), each trick swept away (``removed``). The reading tests feed them to
:class:`rules.reading.TableReading` and compare what it gives the engine with the
game that was played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules.cards import Card
from rules.cribbage.events import Cut, Deal, Go, Play, SetDealer, Show, Starter
from rules.events import Event
from rules.reading.inputs import TableObservation

__all__ = ["Told", "cribbage_told", "trick_told"]


@dataclass
class Told:
    """Observation frames (each a list of observations seen at one time)."""

    frames: list[list[TableObservation]] = field(default_factory=list)
    t: float = 0.0

    def frame(self, *obs: tuple[str, Card, str | None, str | None, int | None]) -> None:
        self.t += 1.0
        self.frames.append(
            [
                TableObservation(kind, card, zone, zk, seat, self.t)
                for kind, card, zone, zk, seat in obs
            ]
        )

    def lines(
        self, rng: random.Random | None = None, *, duplicate: float = 0.0
    ) -> list[TableObservation]:
        """Every observation in order; with ``rng`` shuffled within each frame, and
        each one repeated with probability ``duplicate``."""
        out: list[TableObservation] = []
        for frame in self.frames:
            frame = list(frame)
            if rng is not None:
                rng.shuffle(frame)
            for obs in frame:
                out.append(obs)
                if rng is not None and rng.random() < duplicate:
                    out.append(obs)
        return out


def cribbage_told(events: list[Event], players: int) -> Told:
    """A cribbage game as the camera sees it: the cut, the starter, the play rows,
    hands moved to the show rows, the crib turned up, the cards gathered."""
    told = Told()
    on_table: list[Card] = []
    for e in events:
        if isinstance(e, Cut):
            told.frame(*[("placed", c, f"play.{s}", "play", s) for s, c in enumerate(e.cut)])
            told.frame(*[("removed", c, None, None, None) for c in e.cut])
        elif isinstance(e, Deal) and on_table:
            told.frame(*[("removed", c, None, None, None) for c in on_table])
            on_table = []
        elif isinstance(e, Starter):
            told.frame(("placed", e.card, "starter", "starter", None))
            on_table.append(e.card)
        elif isinstance(e, Play):
            told.frame(("placed", e.card, f"play.{e.seat}", "play", e.seat))
            on_table.append(e.card)
        elif isinstance(e, Show) and e.crib:
            told.frame(*[("placed", c, "crib", "crib", None) for c in e.shown])
            on_table += list(e.shown)
        elif isinstance(e, Show):
            told.frame(*[("moved", c, f"show.{e.seat}", "show", e.seat) for c in e.shown])
            on_table += [c for c in e.shown if c not in on_table]
        elif isinstance(e, (Go, SetDealer)):
            continue  # a go is said, not seen; the dealer is set up
    return told


def trick_told(plays: list[tuple[int, Card]], seats: int, *, sweep: bool = True) -> Told:
    """A trick game's play: each trick's cards laid in front of their seats (one
    frame per card), then the trick swept off the table."""
    told = Told()
    for k in range(0, len(plays), seats):
        trick = plays[k : k + seats]
        for seat, card in trick:
            told.frame(("placed", card, f"trick.{seat}", "trick", seat))
        if sweep:
            told.frame(*[("removed", c, None, None, None) for _, c in trick])
    return told
