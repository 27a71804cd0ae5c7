"""The rule set of a Skat table: which laws, how many at the table, which options.

* ``isko`` — the International Skat Order played by clubs and leagues today:
  bids 18, 20, 22 …, base values ♦9 ♥10 ♠11 ♣12, grand 24, null 23/35/46/59;
  lost games count double; Seeger-Fabian tournament points. Tables of three or
  four. House rules, off by default: ``kontra`` (Kontra and Re), ``ramsch`` (when
  all pass), ``bock`` (Bock rounds).
* ``foster1906`` — the Laws of Skat 1-61 of seed 000/002 (Foster's Skat Manual,
  1906): Tournée, Solo, the four grands, the nullos, passt-mir-nicht and guckis;
  the multipliers of Law 2; lowest bid 10 (Law 33); Ramsch when no bid is made
  (Laws 4, 37, 43). Tables of three to six (Law 6). Options: the Gucki variation
  (seed 000, before the laws), Revolution and Uno/Duo (Law 1 "if played"),
  turned Nullos (Law 31 "if it has been previously agreed").

>>> SkatRules().rule_set, SkatRules().players, SkatRules().ramsch
('isko', 3, False)
>>> SkatRules("foster1906", players=5).ramsch
True
>>> SkatRules(players=5)
Traceback (most recent call last):
...
rules.errors.InvalidOptionError: players 5: the ISkO table is three or four (foster1906: 3-6)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from rules.errors import InvalidOptionError
from rules.options import build_rules

__all__ = ["RULE_SETS", "SkatRules"]

RULE_SETS: Final = ("isko", "foster1906")


@dataclass(frozen=True, slots=True)
class SkatRules:
    """Options of a Skat table. Invalid combinations raise :class:`InvalidOptionError`."""

    rule_set: str = "isko"
    #: Seats at the table; three are active in each deal (Law 6).
    players: int = 3
    #: Kontra and Re (house rule, ISkO only): each doubles the game.
    kontra: bool = False
    #: Ramsch when all pass. ``None``: the rule set's own (foster1906 Law 37: yes;
    #: ISkO: the deal is passed in).
    ramsch: bool | None = None
    #: Bock rounds (house rule, ISkO only): after a game of 60 to 60, or a lost game
    #: with Kontra, the next round of deals (one per seat) counts double.
    bock: bool = False
    #: The Gucki variation (seed 000): the declarer always sees the skat; announced
    #: schneider doubles, announced schwarz trebles; a lost game costs double.
    gucki_variation: bool = False
    #: Law 1: "revolution, if played, 60".
    revolution: bool = False
    #: Law 1: "Uno and duo, if played, shall be worth 20, or if played open 40."
    uno_duo: bool = False
    #: Law 31: turned Nullos, "which are worth 10 points", if agreed.
    turned_nullo: bool = False
    #: Points charged for dealing out of turn (Law 20: "may be penalized 10 points").
    penalty_dealt_out_of_turn: int = 10

    def __post_init__(self) -> None:
        if self.rule_set not in RULE_SETS:
            raise InvalidOptionError(
                f"rule_set {self.rule_set!r}: expected one of {', '.join(RULE_SETS)}"
            )
        isko = self.rule_set == "isko"
        if not isinstance(self.players, int) or not 3 <= self.players <= (4 if isko else 6):
            raise InvalidOptionError(
                f"players {self.players!r}: the ISkO table is three or four (foster1906: 3-6)"
            )
        if isko and (self.gucki_variation or self.revolution or self.uno_duo or self.turned_nullo):
            raise InvalidOptionError(
                "gucki_variation, revolution, uno_duo and turned_nullo belong to foster1906"
            )
        if not isko and (self.kontra or self.bock):
            raise InvalidOptionError("kontra and bock are ISkO house rules")
        if self.ramsch is None:
            object.__setattr__(self, "ramsch", not isko)
        if self.penalty_dealt_out_of_turn < 0:
            raise InvalidOptionError("penalty_dealt_out_of_turn must not be negative")

    @property
    def isko(self) -> bool:
        return self.rule_set == "isko"

    @property
    def schneider_at(self) -> int:
        """Points the single player needs for schneider: ISkO 90 (the adversaries
        "30 or fewer"); Law 56: "He wins schneider if he makes 91"."""
        return 90 if self.isko else 91

    @property
    def lowest_bid(self) -> int:
        """ISkO 18; Law 33: "the lowest bid allowed shall be 10"; the Gucki
        variation's smallest game is 18."""
        return 10 if not self.isko and not self.gucki_variation else 18

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> SkatRules:
        return build_rules(cls, data)
