"""What several Skat test modules share (not a test module itself)."""

from __future__ import annotations

from rules.cards import Card
from rules.skat.events import Play
from rules.skat.game import SkatGame


def play(game: SkatGame, moves: str) -> list:
    """Apply "seat:card" moves in order; the outcome of each."""
    out = []
    for move in moves.split():
        seat, card = move.split(":")
        out.append(game.apply(Play(int(seat), Card.parse(card))))
    return out
