"""The trick-play core shared by Skat, Frog and All Fours.

A :class:`~rules.tricks.contract.Contract` says, for one game, which cards are
trumps, how the cards rank, what they count and what a player must play.
:class:`~rules.tricks.play.TrickPlay` referees the tricks of one deal: whose turn
it is, who wins each trick, what each side takes in, and what was wrong, proved
by the cards seen (a revoke is proved by a later card of the suit the seat did
not follow).
"""

from rules.tricks.contract import TRUMP, Contract, Obligation
from rules.tricks.play import Trick, TrickPlay

__all__ = ["TRUMP", "Contract", "Obligation", "Trick", "TrickPlay"]
