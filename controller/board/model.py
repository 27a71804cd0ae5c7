"""The board state as the host builds it: pegs, games won, whose deal and turn, alerts, scores.

A :class:`BoardState` is a value; :meth:`BoardState.to_wire` turns it into the
firmware's :class:`pegboard.protocol.State` after checking it against a layout.

>>> state = BoardState.parse(pegs="12:6,30:22", games="1,0", dealer=0, turn=1, scores="12,30")
>>> state.pegs
((12, 6), (30, 22))
>>> from controller.board.layouts import load_layout
>>> state.to_wire(load_layout("two-player-61")).tracks
[(12, 6, 1), (30, 22, 0)]
>>> BoardState.parse(pegs="70:60").to_wire(load_layout("two-player-61"))
Traceback (most recent call last):
...
controller.board.errors.StateError: track 0: front peg 70 is past the game hole (61)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pegboard import protocol as p
from pegboard.layout import Layout

from controller.board import _firmware  # noqa: F401
from controller.board.errors import StateError

__all__ = ["ALERTS", "BoardState"]

#: Alert names as the command line and the referee say them.
ALERTS = {name: number for number, name in enumerate(p.ALERT_NAMES)}


def _ints(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise StateError(f"{what}: expected comma-separated integers, got {text!r}") from None


@dataclass(frozen=True, slots=True)
class BoardState:
    """What the board should show. Scores are per seat (displays), pegs per track."""

    pegs: tuple[tuple[int, int], ...] = ()
    games_won: tuple[int, ...] = ()
    dealer: int | None = None
    turn: int | None = None
    alert: str = "none"
    alert_tracks: tuple[int, ...] = ()
    scores: tuple[int | None, ...] = ()
    brightness: int = 255
    show_pegs: bool = True
    show_indicators: bool = True
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def parse(
        cls,
        *,
        pegs: str = "",
        games: str = "",
        dealer: int | None = None,
        turn: int | None = None,
        alert: str = "none",
        alert_tracks: str = "",
        scores: str = "",
        brightness: int = 255,
    ) -> BoardState:
        """From the command line's words: ``--pegs 12:6,30:22 --games 1,0 --scores 12,-1200``.

        A peg pair is ``FRONT:BACK``; a single number means both pegs there.
        """
        pairs = []
        for part in pegs.split(","):
            part = part.strip()
            if not part:
                continue
            front, _, back = part.partition(":")
            try:
                pair = (int(front), int(back) if back else int(front))
            except ValueError:
                raise StateError(f"--pegs: expected FRONT:BACK pairs, got {part!r}") from None
            if pair[1] > pair[0]:
                # the back peg is where the front one stood before it last moved
                # (seed 000, Markers: "lifting out the back peg and putting it … in
                # advance of the first one")
                raise StateError(
                    f"--pegs {part}: the back peg {pair[1]} is ahead of the front peg "
                    f"{pair[0]} (FRONT:BACK, the back peg trails)"
                )
            pairs.append(pair)
        score_values: list[int | None] = []
        for part in scores.split(","):
            part = part.strip()
            if not part:
                continue
            if part == "-":
                score_values.append(None)
                continue
            try:
                score_values.append(int(part))
            except ValueError:
                raise StateError(f"--scores: expected integers or '-', got {part!r}") from None
        return cls(
            pegs=tuple(pairs),
            games_won=_ints(games, "--games"),
            dealer=dealer,
            turn=turn,
            alert=alert,
            alert_tracks=_ints(alert_tracks, "--alert-tracks"),
            scores=tuple(score_values),
            brightness=brightness,
        )

    @classmethod
    def from_cribbage(cls, summary: Mapping[str, Any], *, teams: int | None = None) -> BoardState:
        """From ``CribbageGame.summary()``: pegs per side, games won, deal and turn by side.

        With four players (partners) seats 0 and 2 peg on track 0, seats 1 and 3
        on track 1, so the dealer's and the turn's seat are shown on their team's
        track. Verdicts of the last event flash: a revoke-like fault on the
        offender's track, a disputed count on the track that pegged.
        """
        pegs = tuple((int(pg["front"]), int(pg["back"])) for pg in summary["pegs"])
        sides = teams or len(pegs)

        def track(seat: Any) -> int | None:
            return None if seat is None else int(seat) % sides

        return cls(
            pegs=pegs,
            games_won=tuple(int(g) for g in summary.get("games_won", ())),
            dealer=track(summary.get("dealer")),
            turn=track(summary.get("turn")),
            scores=tuple(int(s) for s in summary.get("scores", ())),
        )

    def to_wire(self, layout: Layout) -> p.State:
        """The STATE message for ``layout``; :class:`StateError` says what does not fit."""
        if len(self.pegs) > layout.tracks:
            raise StateError(f"{len(self.pegs)} peg pairs for a board of {layout.tracks} tracks")
        if len(self.games_won) > layout.tracks:
            raise StateError(
                f"{len(self.games_won)} games-won counts for a board of {layout.tracks} tracks"
            )
        if self.alert not in ALERTS:
            raise StateError(f"unknown alert {self.alert!r} (choose from {', '.join(ALERTS)})")
        tracks = []
        for number in range(layout.tracks):
            front, back = self.pegs[number] if number < len(self.pegs) else (0, 0)
            won = self.games_won[number] if number < len(self.games_won) else 0
            for name, value in (("front peg", front), ("back peg", back)):
                if not 0 <= value <= layout.game:
                    raise StateError(
                        f"track {number}: {name} {value} is past the game hole ({layout.game})"
                        if value > layout.game
                        else f"track {number}: {name} {value} is negative"
                    )
            if not 0 <= won <= 255:
                raise StateError(f"track {number}: games won {won} is not from 0 to 255")
            tracks.append((front, back, won))
        for name, seat in (("dealer", self.dealer), ("turn", self.turn)):
            if seat is not None and not 0 <= seat < layout.tracks:
                raise StateError(
                    f"{name} {seat} is not a track of this board (0-{layout.tracks - 1})"
                )
        mask = 0
        for number in self.alert_tracks:
            if not 0 <= number < layout.tracks:
                raise StateError(f"alert track {number} is not a track of this board")
            mask |= 1 << number
        if self.alert != "none" and not self.alert_tracks:
            mask = (1 << layout.tracks) - 1
        for seat, score in enumerate(self.scores):
            if score is not None and not -32767 <= score <= 32767:
                raise StateError(f"seat {seat}: score {score} does not fit the displays")
        if not 0 <= self.brightness <= 255:
            raise StateError(f"brightness {self.brightness} is not from 0 to 255")
        flags = (p.FLAG_PEGS if self.show_pegs else 0) | (
            p.FLAG_INDICATORS if self.show_indicators else 0
        )
        return p.State(
            tracks=tracks,
            dealer=self.dealer,
            turn=self.turn,
            alert=ALERTS[self.alert],
            alert_mask=mask,
            brightness=self.brightness,
            displays=list(self.scores),
            flags=flags,
        )


def scores_text(scores: Sequence[int | None]) -> str:
    return ",".join("-" if s is None else str(s) for s in scores)
