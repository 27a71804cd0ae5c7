"""Deck profiles: which ranks a table's pack holds.

A reading is only ever one of the pack's cards. The network reads every rank of
a full French pack; given a profile, the recogniser drops the ranks the pack
does not hold and takes the probabilities given that the patch is "no index" or
one of the pack's ranks, so a Skat pack's 7 that the network half took for a 2
reads as the 7, and a card no pack of that game holds is never reported.

The profile comes from the table layout (``[deck] name = "skat-32"``, or the
game's own pack when the layout names none) or from ``--deck`` on the command
line. The German four-colour Skat pack (green spades, orange diamonds, B D K A
for jack, queen, king, ace) holds the ``skat-32`` ranks, and the network reads its
faces as the French ones they stand for; its own profile, ``skat-32-four-colour``,
says that the pack prints in four colours (``four_colour``): the proposal stage
then takes ink warmer than the paper round it for red ink too, so the thin
orange strokes of its diamonds, too pale for the red ink test and too light for
the dark one, are found (``Picture(warm_ink=True)``, docs/vision.md).

A profile also says how many of each card the pack holds (``copies``: pinochle's
two). In a pack of one of each that is seen to print its index in all four corners,
two readings of one card code are corners of one card wherever they lie as such a
card shows them (docs/vision.md "A pack printed with four indices").

>>> find_deck("skat-32").ranks
('7', '8', '9', '10', 'J', 'Q', 'K', 'A')
>>> deck_for_game("cribbage").name
'french-52'
>>> find_deck("skat-32-four-colour").four_colour
True
>>> find_deck("pinochle-48").copies
2
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DECKS", "GAME_DECKS", "INDEX_MM_RANGE", "Deck", "deck_for_game", "find_deck"]

#: The index sizes a pack may be given (``Deck.index_mm``), rank to suit centre to
#: centre in millimetres: a peek index's 5 to a large jumbo's
INDEX_MM_RANGE = (5.0, 25.0)


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    ranks: tuple[str, ...]
    note: str
    # printed in four colours (the German tournament Skat pack's green spades and
    # orange diamonds), not red and black alone
    four_colour: bool = False
    # how many of each card the pack holds (pinochle's two): where it is one, two
    # readings of one card code may be corners of one card printed with four indices
    # (vision.recognize._four_corners); where it is two they stay two cards
    copies: int = 1
    # how far the pack prints its index's suit from its rank, centre to centre, in
    # millimetres (a typical pack's 8.5; a "jumbo index" pack's 12 to 19): a
    # calibrated camera looks for the pack's indices at this size, and a card's
    # outline is reckoned from an index as a typical one's (the table layout's
    # [deck] index_mm; vision.recognize.Recognizer.index_k)
    index_mm: float = 8.5


DECKS = {
    d.name: d
    for d in (
        Deck(
            "french-52",
            ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
            "the full pack: cribbage, All Fours, bridge",
        ),
        Deck(
            "skat-32",
            ("7", "8", "9", "10", "J", "Q", "K", "A"),
            "Skat (French or German four-colour faces), piquet",
        ),
        Deck(
            "skat-32-four-colour",
            ("7", "8", "9", "10", "J", "Q", "K", "A"),
            "Skat with the German tournament pack (green spades, orange diamonds, B D K A)",
            four_colour=True,
        ),
        Deck("frog-36", ("6", "7", "8", "9", "10", "J", "Q", "K", "A"), "Frog (seed 002)"),
        Deck("pinochle-48", ("9", "10", "J", "Q", "K", "A"), "pinochle", copies=2),
    )
}

#: The pack each game is played with (the rule texts).
GAME_DECKS = {
    "cribbage": "french-52",
    "allfours": "french-52",
    "skat": "skat-32",
    "frog": "frog-36",
}


def find_deck(name: str) -> Deck:
    """The profile of that name; ``ValueError`` names the known ones."""
    try:
        return DECKS[name]
    except KeyError:
        raise ValueError(
            f"unknown deck {name!r}: expected one of {', '.join(sorted(DECKS))}"
        ) from None


def deck_for_game(game: str) -> Deck:
    """The pack a game is played with (the full pack for a game not known here)."""
    return DECKS[GAME_DECKS.get(game.replace(" ", "").lower(), "french-52")]
