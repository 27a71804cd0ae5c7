"""The rule set of one cribbage game: variant, number of players, game length, penalties.

Variants of the rule texts:

* ``five-card`` (seed 003, seed 004 §83–85): five cards each, two to the crib,
  three in hand; the play ends at the first thirty-one or go ("This (at
  five-card cribbage) terminates the hand"); the non-dealer of the first deal
  pegs three for last (§89: six-card begins "without scoring any points for
  the last"); game 61.
* ``six-card`` (seed 000/002): six each, two to the crib, four in hand, play on
  to the last card; the texts play to 61, clubs today to 121 (the default here).
* ``eight-card`` (seed 004 §90): eight each, six retained, same plan as six-card.
* three or four players (seed 004 §87): five each, "but one card each to the
  crib" (with three, the crib's fourth card comes from the pack), play "in
  rotation ... till all are played out"; four play as two partnerships.

>>> r = CribbageRules()
>>> r.variant, r.players, r.game_to, r.hand_size, r.deal_size
('six-card', 2, 121, 4, 6)
>>> CribbageRules("five-card").game_to, CribbageRules("five-card").three_for_last
(61, True)
>>> CribbageRules(players=3).deal_size, CribbageRules(players=3).crib_from_pack
(5, 1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from rules.errors import InvalidOptionError
from rules.options import build_rules

__all__ = ["VARIANTS", "CribbageRules"]

VARIANTS: Final = ("five-card", "six-card", "eight-card")
_DEAL_TWO_HANDED: Final = {"five-card": 5, "six-card": 6, "eight-card": 8}


@dataclass(frozen=True, slots=True)
class CribbageRules:
    """Options of a game. Invalid combinations raise :class:`InvalidOptionError`.

    Penalties follow seed 000/002 "Irregularities" and "THE CRIB"; each is an
    option, on by default because the texts state them plainly. They apply where
    the texts' "adversary" and "non-dealer" are one side: two players, or four in
    partnerships. With three players the irregularity is flagged, not penalised.
    """

    variant: str = "six-card"
    players: int = 2
    game_to: int = 0  # 0: the variant's usual game (61 five-card, else 121)
    #: "The penalty for dealing out of turn is two points" (seed 000 Irregularities).
    penalty_dealing_out_of_turn: bool = True
    #: Dealer "gives too many or too few cards to any player ... the non-dealer
    #: scores two points by way of penalty" (seed 000 Irregularities).
    penalty_misdeal: bool = True
    #: "Cards once laid out for the crib ... cannot be taken up again. A penalty of
    #: two points may be scored by the adversary for each card" (seed 000 THE CRIB).
    penalty_crib_card_taken_up: bool = True
    #: Games a double skunk counts (121 game, loser short of 61). Clubs differ.
    double_skunk_games: int = 4

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise InvalidOptionError(
                f"variant {self.variant!r}: expected one of {', '.join(VARIANTS)}"
            )
        if self.players not in (2, 3, 4):
            raise InvalidOptionError(f"players {self.players!r}: cribbage is for 2, 3 or 4")
        if self.players > 2 and self.variant == "eight-card":
            raise InvalidOptionError("eight-card cribbage is for two players (seed 004 §90)")
        if self.game_to == 0:
            object.__setattr__(self, "game_to", 61 if self.variant == "five-card" else 121)
        if self.game_to not in (61, 121):
            raise InvalidOptionError(f"game_to {self.game_to!r}: expected 61 or 121")
        if self.double_skunk_games < 2:
            raise InvalidOptionError("double_skunk_games must be at least 2")

    # Derived quantities -----------------------------------------------------

    @property
    def deal_size(self) -> int:
        return _DEAL_TWO_HANDED[self.variant] if self.players == 2 else 5

    @property
    def discards_each(self) -> int:
        return 2 if self.players == 2 else 1

    @property
    def crib_from_pack(self) -> int:
        """Cards the crib takes from the pack: one in three-hand, else none."""
        return 1 if self.players == 3 else 0

    @property
    def hand_size(self) -> int:
        return self.deal_size - self.discards_each

    @property
    def crib_size(self) -> int:
        return self.players * self.discards_each + self.crib_from_pack

    @property
    def play_ends_at_first_count(self) -> bool:
        """Five-card, two hands: the play stops at the first 31 or go (seed 003)."""
        return self.variant == "five-card" and self.players == 2

    @property
    def three_for_last(self) -> bool:
        """Five-card, two hands: the first non-dealer pegs three (seed 004 §89)."""
        return self.variant == "five-card" and self.players == 2

    @property
    def partnerships(self) -> bool:
        """Four players play two against two, partners opposite (seed 000 PLAYERS)."""
        return self.players == 4

    @property
    def teams(self) -> int:
        return 2 if self.partnerships else self.players

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    @property
    def corner(self) -> int:
        """A loser at or below this has not turned the corner (61 game: a lurch)."""
        return 30

    def games_for(self, loser_score: int) -> tuple[int, str]:
        """Games a win counts, and its name, from the best loser's score.

        Seed 000 MARKERS: "When one player reaches his game-hole before the other
        turns the corner, it is called a lurch, and counts two games." The 121
        game's skunk (loser short of 91) and double skunk (short of 61) are
        today's equivalents.

        >>> CribbageRules("five-card").games_for(30), CribbageRules().games_for(90)
        ((2, 'lurch'), (2, 'skunk'))
        >>> CribbageRules().games_for(60), CribbageRules().games_for(91)
        ((4, 'double skunk'), (1, 'game'))
        """
        if self.game_to == 61:
            return (2, "lurch") if loser_score <= self.corner else (1, "game")
        if loser_score < 61:
            return self.double_skunk_games, "double skunk"
        if loser_score < 91:
            return 2, "skunk"
        return 1, "game"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CribbageRules:
        return build_rules(cls, data)
