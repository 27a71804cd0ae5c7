"""What a Skat game is worth: unit values, matadors, multipliers, won and lost.

Two rule sets (:class:`~rules.skat.rulesets.SkatRules`):

* ``foster1906`` — seed 000 Law 1 (unit values), Law 2 (the multipliers 1 game,
  2 schneider, 3 schneider announced or schwarz unannounced, 4 schwarz after
  announcing schneider, 5 schwarz announced, plus one per matador), Law 3 (a lost
  passt-mir-nicht or gucki costs double), Laws 56-57 (61 wins, 91 schneider),
  Laws 60-61 (a loss costs what the game would have won; an overbid costs the
  smallest multiple of the unit that covers the bid); and the Gucki variation.
* ``isko`` — base value × (matadors + game + hand + schneider + schneider
  announced + schwarz + schwarz announced + ouvert); null 23, 35, 46, 59; a lost
  game counts double; schneider at 30 or fewer points, schwarz is no trick.

The texts' own examples (seed 000):

>>> from rules.skat.rulesets import SkatRules
>>> foster = SkatRules("foster1906")
>>> lost = score_game(Declaration("spades", hand=True), foster, matadors=-1, points=59, tricks=4)
>>> lost.won, lost.value                  # "loses a spade Solo without one; twice 11, or 22"
(False, -22)
>>> score_game(Declaration("grand", hand=True), foster, matadors=3, points=50, tricks=4).value
-80
>>> gucki = SkatRules("foster1906", gucki_variation=True)
>>> d = Declaration("spades", schneider=True)
>>> [score_game(d, gucki, matadors=-1, points=p, tricks=t).value
...  for p, t in [(95, 8), (80, 7), (120, 10)]]
[66, -132, 77]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, Final, NamedTuple

from rules.cards import Card
from rules.skat.declaration import SUIT_GAMES, Declaration, trump_sequence
from rules.skat.rulesets import SkatRules

__all__ = [
    "GameValue",
    "bid_values",
    "game_name",
    "matadors",
    "matadors_known",
    "ramsch_charges",
    "score_game",
    "unit_value",
]

#: ISkO base values.
ISKO_BASE: Final = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
#: ISkO null values by (hand, ouvert).
ISKO_NULL: Final = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
#: Law 1: "Tournée in diamonds 5, in hearts 6, in spades 7 and in clubs 8."
FOSTER_TOURNEE: Final = {"diamonds": 5, "hearts": 6, "spades": 7, "clubs": 8}
#: Law 1: "Solo in diamonds 9, in hearts 10, in spades 11 and in clubs 12".
FOSTER_SOLO: Final = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}
#: Law 1: "Turned grand 12, gucki grand 16, solo grand 20 and open grand 24."
FOSTER_GRAND: Final = {"turned": 12, "gucki": 16, "solo": 20, "open": 24}
#: Law 1: "Gucki nullo 15, open gucki nullo 30, solo nullo 20, open solo nullo 40";
#: Law 31: turned Nullos "worth 10 points".
FOSTER_NULLO: Final = {"gucki": 15, "open gucki": 30, "solo": 20, "open solo": 40, "turned": 10}
#: The Gucki variation's grand: the text's largest loss, "a grand with four, schwarz
#: announced, costing 1,008", is 24 × 7 × 3 (trebled) × 2 (lost): 24 is the unit.
GUCKI_VARIATION_GRAND: Final = 24


class GameValue(NamedTuple):
    """The outcome of one game for the score pad (a named tuple: built once a deal
    by the referee, where a frozen dataclass costs more than the game's scoring).

    ``value`` is what is entered under the single player's name (Law 58): positive
    when won, negative when lost (doubled where the rule set says so).
    ``multiplier`` is ISkO's multiplier or Law 2's multiplier plus matadors;
    for nullos it is 1. ``matadors`` is signed: positive "with", negative "without".
    """

    won: bool
    value: int
    unit: int
    multiplier: int
    matadors: int
    schneider: bool
    schwarz: bool
    overbid: bool
    doubled: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "won": self.won,
            "value": self.value,
            "unit": self.unit,
            "multiplier": self.multiplier,
            "matadors": self.matadors,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "overbid": self.overbid,
        }


def matadors(cards: Iterable[Card], game: str) -> int:
    """Matadors "with" (positive) or "without" (negative), counted over ``cards``:
    the single player's hand and the skat.

    >>> from rules.cards import parse_cards
    >>> matadors(parse_cards("JC JS AH 7D"), "hearts"), matadors(parse_cards("JH JD"), "grand")
    (2, -2)
    >>> matadors(parse_cards("JC JS JH JD AS 10S KS"), "spades"), matadors([], "null")
    (7, 0)
    """
    sequence = trump_sequence(game)
    if not sequence:
        return 0
    held = set(cards)
    with_ = sequence[0] in held
    count = 0
    for card in sequence:
        if (card in held) != with_:
            break
        count += 1
    return count if with_ else -count


def matadors_known(declarer: Iterable[Card], elsewhere: Iterable[Card], game: str) -> int | None:
    """Matadors when only some cards are placed: ``declarer`` are known to be his
    (or the skat's), ``elsewhere`` known to be the adversaries'. ``None`` while an
    unplaced card could still change the count.

    >>> from rules.cards import parse_cards
    >>> matadors_known(parse_cards("JC"), parse_cards("JS"), "grand")
    1
    >>> matadors_known(parse_cards("JC"), [], "grand") is None
    True
    """
    sequence = trump_sequence(game)
    if not sequence:
        return 0
    mine, theirs = set(declarer), set(elsewhere)
    with_: bool | None = None
    count = 0
    for card in sequence:
        held = True if card in mine else False if card in theirs else None
        if held is None:
            return None
        if with_ is None:
            with_ = held
        elif held != with_:
            break
        count += 1
    return count if with_ else -count


def unit_value(decl: Declaration, rules: SkatRules) -> int:
    """The ISkO base value, or the unit value of Law 1.

    >>> from rules.skat.rulesets import SkatRules
    >>> f = SkatRules("foster1906")
    >>> [unit_value(Declaration.parse(t), f) for t in
    ...  ["clubs turned 7C", "clubs hand", "grand turned JS", "grand", "grand hand",
    ...   "grand hand ouvert", "null", "null ouvert", "null hand", "null hand ouvert"]]
    [8, 12, 12, 16, 20, 24, 15, 30, 20, 40]
    """
    game = decl.game
    if rules.isko:
        if decl.is_null:
            return ISKO_NULL[(decl.hand, decl.ouvert)]
        return ISKO_BASE[game]
    if rules.gucki_variation:
        if game in SUIT_GAMES:
            return FOSTER_SOLO[game]
        if game == "grand":
            return GUCKI_VARIATION_GRAND
        if game == "null":
            return FOSTER_NULLO["open gucki" if decl.ouvert else "gucki"]
    if game in SUIT_GAMES:
        return FOSTER_SOLO[game] if decl.hand else FOSTER_TOURNEE[game]
    if game == "grand":
        if decl.hand:
            return FOSTER_GRAND["open" if decl.ouvert else "solo"]
        return FOSTER_GRAND["turned" if decl.turned is not None else "gucki"]
    if game == "null":
        if decl.hand:
            return FOSTER_NULLO["open solo" if decl.ouvert else "solo"]
        if decl.turned is not None and decl.turned.rank == 7:
            return FOSTER_NULLO["turned"]
        return FOSTER_NULLO["open gucki" if decl.ouvert else "gucki"]
    if game == "revolution":
        return 60
    if game in ("uno", "duo"):
        return 40 if decl.ouvert else 20
    raise ValueError(f"{game!r} has no unit value")  # ramsch is scored by its own law


def game_name(decl: Declaration, rules: SkatRules) -> str:
    """The game in the rule set's own words.

    >>> from rules.skat.rulesets import SkatRules
    >>> f = SkatRules("foster1906")
    >>> game_name(Declaration.parse("spades hand"), f), game_name(Declaration.parse("grand"), f)
    ('spade solo', 'gucki grand')
    >>> game_name(Declaration.parse("hearts passt turned 9H"), f)
    'heart passt-mir-nicht'
    >>> game_name(Declaration.parse("clubs hand schneider"), SkatRules())
    'clubs hand schneider announced'
    """
    game = decl.game
    if rules.isko or rules.gucki_variation:
        words = [game]
        if decl.hand:
            words.append("hand")
        if decl.ouvert:
            words.append("ouvert")
        elif decl.schwarz:
            words.append("schwarz announced")
        elif decl.schneider:
            words.append("schneider announced")
        return " ".join(words)
    if game in SUIT_GAMES:
        single = game[:-1]
        if decl.hand:
            return f"{single} solo" + _announced(decl)
        return f"{single} passt-mir-nicht" if decl.passt else f"{single} tournée"
    if game == "grand":
        if decl.hand:
            return "open grand" if decl.ouvert else "solo grand" + _announced(decl)
        return "turned grand" if decl.turned is not None else "gucki grand"
    if game == "null":
        if decl.hand:
            return "open solo nullo" if decl.ouvert else "solo nullo"
        if decl.turned is not None:
            return "turned nullo"
        return "open gucki nullo" if decl.ouvert else "gucki nullo"
    return ("open " if decl.ouvert else "") + game


def _announced(decl: Declaration) -> str:
    if decl.schwarz:
        return ", schwarz announced"
    return ", schneider announced" if decl.schneider else ""


def doubles_when_lost(decl: Declaration, rules: SkatRules) -> bool:
    """ISkO: every lost game. Law 3: passt-mir-nicht and guckis ("whether grand or
    nullo"). The Gucki variation: "if he loses he always loses double".

    A gucki is a game played after taking both skat cards (Law 28). Uno, Duo and
    Revolution, games without trumps ranked as the Nullo, count as nullos here:
    from the hand (a solo, as their single value in Law 1 suggests) a lost one costs
    its value (Law 60); played after taking up the skat it costs double.

    >>> from rules.skat.rulesets import SkatRules
    >>> f = SkatRules("foster1906", uno_duo=True)
    >>> doubles_when_lost(Declaration("uno", hand=True), f), doubles_when_lost(
    ...     Declaration("uno"), f)
    (False, True)
    """
    if rules.isko or rules.gucki_variation:
        return True
    if decl.passt:
        return True
    return not decl.hand and decl.turned is None and (decl.game == "grand" or decl.is_null)


def _ceil_multiple(unit: int, bid: int) -> int:
    return -(-bid // unit) * unit


def score_game(
    decl: Declaration,
    rules: SkatRules,
    *,
    matadors: int,
    points: int,
    tricks: int,
    bid: int = 0,
    all_tricks: int = 10,
    forced: bool | None = None,
    abandoned: bool = False,
    tricks_left: int = 0,
    points_left: int = 0,
) -> GameValue:
    """Score one game from what the single player took in.

    ``points`` are his card points (tricks and skat), ``tricks`` his tricks.
    ``forced`` is the outcome an irregularity imposed (``True``: an adversary
    revoked, Law 53; ``False``: the player revoked, Law 52), the game being played
    out "to see if he can make schneider or schwarz". ``abandoned`` is a Tournée
    given up before the second trick, "scored as a 'game' lost" (Law 44).
    ``tricks_left``/``points_left``: the tricks not played and the card points in
    them when the game is scored before its last trick (a game announced schwarz,
    lost at the defenders' first trick). Schneider and schwarz are then only what has
    already happened: "If they get to 90, they make him schneider; and if they win
    every trick they make him schwarz" (Law 57; "He wins schwarz if he gets every
    trick", Law 56). A player who took no trick before the game stopped was not made
    schwarz (a real ISS record: clubs ouvert lost at the first trick, ``s:0 z:0``).

    >>> from rules.skat.rulesets import SkatRules
    >>> isko = SkatRules()
    >>> g = score_game(Declaration("diamonds"), isko, matadors=-2, points=59, tricks=4, bid=18)
    >>> g.won, g.value, g.multiplier
    (False, -54, 3)
    >>> score_game(Declaration("diamonds"), isko, matadors=1, points=80, tricks=6, bid=36).value
    -72
    >>> co = Declaration.from_iss("CO")  # clubs ouvert, lost at trick 1 (ISS 13577)
    >>> g = score_game(co, isko, matadors=1, points=13, tricks=0, tricks_left=9, points_left=92)
    >>> g.value, g.schneider, g.schwarz
    (-192, False, False)
    """
    if decl.is_null:
        return _score_null(decl, rules, tricks=tricks, bid=bid, forced=forced)
    unit = unit_value(decl, rules)
    m = abs(matadors)
    total = all_tricks
    if rules.isko:
        schneider = points >= 90 or points + points_left <= 30
        schwarz = tricks in (0, total) and not tricks_left
        made = points >= 61 and (not decl.schneider or points >= 90)
        made = made and (not decl.schwarz or tricks == total)
        won = made if forced is None else forced
        mult = m + 1 + decl.hand + (schneider or decl.schneider) + decl.schneider
        mult += (schwarz or decl.schwarz) + decl.schwarz + decl.ouvert
    else:
        made_schneider = points >= 91
        made_schwarz = tricks == total and not tricks_left
        lost_schneider = points + points_left <= 30
        lost_schwarz = tricks == 0 and not tricks_left
        made = points >= 61 and (not decl.schneider or made_schneider)
        made = made and (not decl.schwarz or made_schwarz)
        won = made if forced is None else forced
        schneider = made_schneider if won else lost_schneider
        schwarz = made_schwarz if won else lost_schwarz
        if abandoned:
            schneider = schwarz = False
        if rules.gucki_variation:
            mult = _gucki_variation_multiplier(decl, m, won, schneider, schwarz)
        else:
            mult = m + _law2_level(decl, won, schneider, schwarz)
    value = unit * mult
    overbid = value < bid
    if overbid:
        # Law 61 / ISkO: "the smallest multiple of the base value that covers the bid".
        value = _ceil_multiple(unit, bid)
        if forced is None:
            won = False
    doubled = not won and doubles_when_lost(decl, rules)
    entry = value if won else -value * (2 if doubled else 1)
    return GameValue(won, entry, unit, mult, matadors, schneider, schwarz, overbid, doubled)


def _law2_level(decl: Declaration, won: bool, schneider: bool, schwarz: bool) -> int:
    """Law 2: "1 for game; 2 for schneider; 3 for announcing schneider, or for making
    schwarz without having made any announcement; 4 for schwarz after having
    announced schneider; and 5 for announcing schwarz." A lost game costs what it
    would have won (Law 60), or more when the adversaries made the player schneider
    or schwarz (Law 57)."""
    if decl.schwarz:
        announced = 5
    elif decl.schneider:
        announced = 4 if (won and schwarz) else 3
    else:
        announced = 1
    if decl.schneider or decl.schwarz:
        return announced
    return 3 if schwarz else 2 if schneider else 1


def _gucki_variation_multiplier(
    decl: Declaration, m: int, won: bool, schneider: bool, schwarz: bool
) -> int:
    """The Gucki variation: "If he makes an announced schneider, it doubles the value
    of his game, instead of simply adding a multiplier. An announced schwarz trebles
    it." Its example: spade solo with 1, schneider announced, is 3 × 11 doubled,
    66; "If he makes schwarz after announcing schneider, it adds one multiplier, 77"."""
    if decl.schwarz:
        return 3 * (m + 3)
    if decl.schneider:
        return 2 * (m + 2) + (1 if won and schwarz else 0)
    return m + 1 + schneider + schwarz


def _score_null(
    decl: Declaration, rules: SkatRules, *, tricks: int, bid: int, forced: bool | None
) -> GameValue:
    """A game without trumps: won by taking exactly :attr:`Declaration.tricks_to_take`
    tricks (a nullo none, Uno one, Duo two), worth its unit (Law 1), lost for the same
    (Law 60) or the smallest multiple covering the bid (Law 61), doubled where
    :func:`doubles_when_lost` says.

    >>> from rules.skat.rulesets import SkatRules
    >>> f = SkatRules("foster1906", uno_duo=True)
    >>> [score_game(Declaration("uno", hand=True), f, matadors=0, points=0, tricks=t).value
    ...  for t in (0, 1, 2)]
    [-20, 20, -20]
    >>> score_game(Declaration("duo", hand=True, ouvert=True), f, matadors=0, points=9,
    ...            tricks=2).value
    40
    """
    unit = unit_value(decl, rules)
    won = tricks == decl.tricks_to_take if forced is None else forced
    value = unit
    overbid = value < bid
    if overbid:
        value = _ceil_multiple(unit, bid)
        if forced is None:
            won = False
    doubled = not won and doubles_when_lost(decl, rules)
    entry = value if won else -value * (2 if doubled else 1)
    return GameValue(won, entry, unit, 1, 0, False, False, overbid, doubled)


@cache
def bid_values(rules: SkatRules) -> tuple[int, ...]:
    """Every bid the rule set allows: the values of possible games (Law 33: "All
    bidding shall be by numbers representing the value of some possible game").

    >>> from rules.skat.rulesets import SkatRules
    >>> bid_values(SkatRules())[:12]
    (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)
    >>> bid_values(SkatRules())[-1], bid_values(SkatRules("foster1906"))[:6]
    (264, (10, 12, 14, 15, 16, 18))
    """
    values: set[int] = set()
    if rules.isko:
        for base in (9, 10, 11, 12):
            values.update(base * k for k in range(2, 19))
        values.update(24 * k for k in range(2, 12))
        values.update(ISKO_NULL.values())
    elif rules.gucki_variation:
        for unit, top in [(9, 11), (10, 11), (11, 11), (12, 11), (GUCKI_VARIATION_GRAND, 4)]:
            for m in range(1, top + 1):
                for mult in (m + 1, m + 2, m + 3, 2 * (m + 2), 2 * (m + 2) + 1, 3 * (m + 3)):
                    values.add(unit * mult)
        values.update((FOSTER_NULLO["gucki"], FOSTER_NULLO["open gucki"]))
    else:
        for unit in FOSTER_TOURNEE.values():  # no announcements with the skat (Law 41)
            values.update(unit * k for k in range(2, 11 + 3 + 1))
        for unit in FOSTER_SOLO.values():
            values.update(unit * k for k in range(2, 11 + 5 + 1))
        values.update(FOSTER_GRAND["turned"] * k for k in range(2, 4 + 3 + 1))
        values.update(FOSTER_GRAND["gucki"] * k for k in range(2, 4 + 3 + 1))
        values.update(FOSTER_GRAND["solo"] * k for k in range(2, 4 + 5 + 1))
        values.update(FOSTER_GRAND["open"] * k for k in range(1 + 5, 4 + 5 + 1))
        values.update(FOSTER_NULLO[k] for k in ("gucki", "open gucki", "solo", "open solo"))
        if rules.turned_nullo:
            values.add(FOSTER_NULLO["turned"])
        if rules.revolution:
            values.add(60)
        if rules.uno_duo:
            values.update((20, 40))
    return tuple(sorted(v for v in values if v >= rules.lowest_bid))


def ramsch_charges(
    points: dict[int, int], tricks: dict[int, int], last: int | None, rules: SkatRules
) -> dict[int, int]:
    """What each seat is charged (negative) or paid in a Ramsch; ``points`` include
    the skat, which goes to the winner of the last trick, ``last``.

    foster1906, Law 4: "The value of Ramsch shall be 20 points, to be charged to the
    player losing the game. If one player takes no trick, the loser shall be charged
    30 points. If two players take no trick, the loser shall be charged 50 points
    ... If there is a tie between two for high score, the winner of the last trick
    shall be the loser. If the last trick is taken by the low score, and the others
    are tied, the two high scores lose 20 points each. If all three are tied at 40
    points each, there is no score."

    ISkO house rule: the most points lose that many, doubled for each player who
    took no trick (a *Jungfrau*); a player who takes every trick (*Durchmarsch*)
    wins 120.

    >>> from rules.skat.rulesets import SkatRules
    >>> ramsch_charges({0: 50, 1: 40, 2: 30}, {0: 4, 1: 3, 2: 3}, 2, SkatRules("foster1906"))
    {0: -20, 1: 0, 2: 0}
    """
    seats = list(points)
    high = max(points.values())
    tied = [s for s in seats if points[s] == high]
    no_trick = sum(1 for s in seats if tricks[s] == 0)
    out = dict.fromkeys(seats, 0)
    if rules.isko:
        sweeper = [s for s in seats if tricks[s] == sum(tricks.values()) and tricks[s] > 0]
        if sweeper and no_trick == len(seats) - 1:
            out[sweeper[0]] = 120
        else:
            for s in tied:
                out[s] = -high * 2**no_trick
        return out
    charge = 50 if no_trick == 2 else 30 if no_trick == 1 else 20
    if len(tied) == 1:
        out[tied[0]] = -charge
    elif len(tied) == 2:
        if last in tied:
            out[last] = -charge
        else:
            for s in tied:
                out[s] = -20
    return out
