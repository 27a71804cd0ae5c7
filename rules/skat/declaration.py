"""The game the single player declares, and how the cards play in it.

A :class:`Declaration` is what is announced: the game (a suit, grand, null), hand
or not, schneider or schwarz announced, ouvert; and, for the laws of 1906, how the
skat was used (a card turned up for a Tournée, passt-mir-nicht). Its text form is
words: ``"spades hand schneider"``, ``"grand ouvert"``, ``"hearts turned 9H"``.

>>> d = Declaration.parse("spades hand schneider")
>>> d.trump, d.hand, d.schneider, str(d)
('S', True, True, 'spades hand schneider')
>>> Declaration.parse("grand ouvert").schwarz          # ouvert implies schwarz announced
True
>>> str(Declaration.from_iss("NOH")), Declaration.from_iss("CHZ").schneider
('null hand ouvert', True)
>>> contract_for("grand").suit_of(Card.parse("JH")), contract_for("null").suit_of(Card.parse("JH"))
('T', 'H')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from rules.cards import ACE, JACK, KING, QUEEN, Card, Suit, parse_card
from rules.errors import InvalidCardError, InvalidEventError
from rules.tricks.contract import Contract, Obligation

__all__ = [
    "CARD_POINTS",
    "GAMES",
    "JACKS",
    "SUIT_GAMES",
    "TRICKS_TO_TAKE",
    "Declaration",
    "contract_for",
    "trump_sequence",
]

#: Suit games, lowest to highest (seed 000 Law 12: "clubs, spades, hearts and diamonds").
SUIT_GAMES: Final = ("diamonds", "hearts", "spades", "clubs")
#: Every game a declaration may name. ``ramsch`` is played when all pass (Law 4, 37);
#: ``uno``, ``duo`` and ``revolution`` are the optional games of Law 1.
GAMES: Final = (*SUIT_GAMES, "grand", "null", "ramsch", "revolution", "uno", "duo")
_SUIT_OF: Final = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
_GAME_OF_SUIT: Final = {v: k for k, v in _SUIT_OF.items()}
#: The four jacks, best first (Law 12).
JACKS: Final = tuple(Card(JACK, s) for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))
#: Law 11: "Jack 2; ace 11; ten 10; king 4; queen 3; the nine, eight and seven having
#: no counting value."
CARD_POINTS: Final = {ACE: 11, 10: 10, KING: 4, QUEEN: 3, JACK: 2}
_TRUMP_ORDER: Final = (ACE, 10, KING, QUEEN, 9, 8, 7)
#: Law 13: "In Nullo, the cards rank: A K Q J 10 9 8 7".
_NULL_ORDER: Final = (ACE, KING, QUEEN, JACK, 10, 9, 8, 7)
_ISS_GAME: Final = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs", "G": "grand"}
_ISS_LETTER: Final = {v: k for k, v in _ISS_GAME.items()}
#: The tricks the single player must take, exactly, in the games without trumps. A
#: nullo: none. Uno one, Duo two: seed 000 Law 1 gives only their values ("Uno and
#: duo, if played, shall be worth 20, or if played open 40"); how they are won is
#: the standard reading (Foster's Complete Hoyle, not in the seeds), see docs/skat.md.
#: Revolution is a nullo (the adversaries exchange cards first).
TRICKS_TO_TAKE: Final = {"null": 0, "revolution": 0, "uno": 1, "duo": 2}


@dataclass(frozen=True, slots=True)
class Declaration:
    """What the single player announces. Impossible combinations raise
    :class:`~rules.errors.InvalidEventError` (they cannot be said at a table)."""

    game: str
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    #: The skat card turned up (seed 000 Laws 29-31): a Tournée, a turned grand.
    turned: Card | None = None
    #: Passt-mir-nicht: the first skat card taken unseen, the second turned (Law 28).
    passt: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise InvalidEventError(
                f"unknown game {self.game!r}: expected one of {', '.join(GAMES)}"
            )
        trumps = self.game in SUIT_GAMES or self.game == "grand"
        if self.ouvert and trumps and not self.schwarz:
            # ISkO: ouvert implies schwarz announced; Law 39: "All Open Grands are
            # compulsory 'schwarz announced.'"
            object.__setattr__(self, "schwarz", True)
        if self.schwarz and trumps:
            object.__setattr__(self, "schneider", True)
        if (self.schneider or self.schwarz) and not trumps:
            raise InvalidEventError(
                f"{self.game}: schneider and schwarz belong to games with trumps"
            )
        if self.hand and (self.turned is not None or self.passt):
            raise InvalidEventError("a hand game turns no skat card")
        if self.passt and self.turned is None:
            raise InvalidEventError("passt-mir-nicht names the second skat card, turned up")

    @property
    def trump(self) -> str | None:
        """The trump suit letter in a suit game, else ``None``."""
        return _SUIT_OF.get(self.game)

    @property
    def has_trumps(self) -> bool:
        return self.game in SUIT_GAMES or self.game in ("grand", "ramsch")

    @property
    def is_null(self) -> bool:
        """A game without trumps, won by the number of tricks taken: the nullos,
        Revolution, Uno and Duo."""
        return self.game in TRICKS_TO_TAKE

    @property
    def tricks_to_take(self) -> int | None:
        """The tricks the single player must take, exactly, in a game without trumps
        (:data:`TRICKS_TO_TAKE`); ``None`` in a game won by card points.

        >>> Declaration("null").tricks_to_take, Declaration("duo").tricks_to_take
        (0, 2)
        >>> Declaration("grand").tricks_to_take is None
        True
        """
        return TRICKS_TO_TAKE.get(self.game)

    @property
    def contract(self) -> Contract:
        return contract_for(self.game)

    def __str__(self) -> str:
        words = [self.game]
        if self.hand:
            words.append("hand")
        if self.ouvert:
            words.append("ouvert")
        elif self.schwarz:  # ouvert says schwarz, and schwarz says schneider
            words.append("schwarz")
        if self.schneider and not self.schwarz:
            words.append("schneider")
        if self.passt:
            words.append("passt")
        if self.turned is not None:
            words += ["turned", str(self.turned)]
        return " ".join(words)

    @classmethod
    def parse(cls, text: str) -> Declaration:
        """Read ``"clubs hand schneider"``, ``"grand turned JS"``, ``"null ouvert"``.

        >>> d = Declaration.parse("hearts passt turned 8H")
        >>> d.passt, d.turned, d.trump
        (True, Card.parse('8H'), 'H')
        >>> Declaration.parse("grand sideways")
        Traceback (most recent call last):
        ...
        rules.errors.InvalidEventError: declaration 'grand sideways': unknown word 'sideways'
        """
        words = text.lower().split()
        if not words:
            raise InvalidEventError("empty declaration")
        flags: dict[str, bool] = {}
        turned: Card | None = None
        rest = iter(words[1:])
        for word in rest:
            if word in ("hand", "schneider", "schwarz", "ouvert", "passt"):
                flags[word] = True
            elif word == "open":
                flags["ouvert"] = True
            elif word == "turned":
                card_text = next(rest, "")
                try:
                    turned = parse_card(card_text)
                except InvalidCardError as exc:
                    raise InvalidEventError(f"declaration {text!r}: {exc}") from exc
            else:
                raise InvalidEventError(f"declaration {text!r}: unknown word {word!r}")
        return cls(words[0], turned=turned, **flags)

    def to_iss(self) -> str:
        """The game as the International Skat Server writes it: ``D``, ``CH``, ``GHSZ``,
        ``NO``, ``NOH``."""
        letters = "N" if self.is_null else _ISS_LETTER[self.game]
        if self.ouvert:
            letters += "O"
        if self.hand and not (self.ouvert and not self.is_null):
            letters += "H"
        if self.schneider and not (self.ouvert or self.schwarz):
            letters += "S"
        if self.schwarz and not self.ouvert:
            letters += "Z"
        return letters

    @classmethod
    def from_iss(cls, code: str) -> Declaration:
        """Read the server's game code: ``G`` ``C`` ``S`` ``H`` ``D`` ``N``, then ``O``
        (ouvert), ``H`` (hand), ``S`` (schneider announced), ``Z`` (schwarz announced).
        An ouvert game with trumps is always hand."""
        if not code or code[0] not in "GCSHDN":
            raise InvalidEventError(f"unknown game code {code!r}")
        game = "null" if code[0] == "N" else _ISS_GAME[code[0]]
        mods = code[1:]
        if any(ch not in "OHSZ" for ch in mods) or len(set(mods)) != len(mods):
            raise InvalidEventError(f"unknown game code {code!r}")
        ouvert = "O" in mods
        hand = "H" in mods or (ouvert and game != "null")
        return cls(game, hand=hand, schneider="S" in mods, schwarz="Z" in mods, ouvert=ouvert)

    def with_turned(self, card: Card | None) -> Declaration:
        return replace(self, turned=card)


@cache
def trump_sequence(game: str) -> tuple[Card, ...]:
    """The trumps from the top, for counting matadors: the jacks, then in a suit
    game the suit's A 10 K Q 9 8 7 (seed 000 Laws 2 and 12).

    >>> [str(c) for c in trump_sequence("hearts")][:6]
    ['JC', 'JS', 'JH', 'JD', 'AH', '10H']
    >>> len(trump_sequence("grand")), trump_sequence("null")
    (4, ())
    """
    if game in ("grand", "ramsch"):
        return JACKS
    suit = _SUIT_OF.get(game)
    if suit is None:
        return ()
    return JACKS + tuple(Card(r, Suit(suit)) for r in _TRUMP_ORDER)


@cache
def contract_for(game: str) -> Contract:
    """The trick contract of a game: grand and Ramsch have only the jacks as
    trumps; the nullos rank A K Q J 10 9 8 7 without trumps (Law 13)."""
    if game in ("null", "revolution", "uno", "duo"):
        return Contract.build(
            game, trump=None, order=_NULL_ORDER, points=CARD_POINTS, obligation=Obligation.FOLLOW
        )
    if game not in GAMES:
        raise InvalidEventError(f"unknown game {game!r}")
    return Contract.build(
        game,
        trump=_SUIT_OF.get(game),
        top_trumps=JACKS,
        order=_TRUMP_ORDER,
        points=CARD_POINTS,
        obligation=Obligation.FOLLOW,
    )


def game_of_suit(suit: str) -> str:
    """``'S'`` -> ``'spades'``."""
    return _GAME_OF_SUIT[suit]
