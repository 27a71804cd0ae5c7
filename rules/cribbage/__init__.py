"""Cribbage: five-, six- and eight-card, two to four players (seeds 000, 002, 003, 004)."""

from rules.cribbage.pegging import count_of, peg
from rules.cribbage.scoring import ScoreItem, Show, pip_value, score_show, show_total

__all__ = ["ScoreItem", "Show", "count_of", "peg", "pip_value", "score_show", "show_total"]
