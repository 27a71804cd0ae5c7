"""What Skat games are worth: every scoring example of seed 000, the multipliers
of Law 2, Laws 3, 44, 56-57, 60-61, the Gucki variation, and the ISkO values of
every game type and level (tests/data/skat/isko_values.txt). Every number was
worked out by hand from the text named beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.cards import parse_cards
from rules.skat.declaration import Declaration
from rules.skat.rulesets import SkatRules
from rules.skat.values import bid_values, game_name, matadors, score_game, unit_value

DATA = Path(__file__).parent / "data" / "skat"
ISKO = SkatRules()
FOSTER = SkatRules("foster1906")
GUCKI = SkatRules("foster1906", gucki_variation=True)

# Seed 000, the first example: the player A's hand, "a spade Solo without one".
SPADE_SOLO_HAND = "🂫 🂡 🂪 🂩 🂨 🂱 🂺 🃑 🃈 🃇"
# Seed 000, "A GRAND. B bids ... and B announces a Grand, with the following cards".
GRAND_HAND = "🃛 🂫 🂻 🃑 🃁 🃊 🃎 🂡 🂭 🂩"


def isko_cases() -> list[tuple[str, int, int, int, int, int]]:
    cases = []
    for line in (DATA / "isko_values.txt").read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        decl, rest = text.split("|")
        numbers, value = rest.split("=")
        m, points, tricks, bid = (int(x) for x in numbers.split())
        cases.append((decl.strip(), m, points, tricks, bid, int(value)))
    return cases


@pytest.mark.parametrize(("decl", "m", "points", "tricks", "bid", "value"), isko_cases())
def test_isko_values_of_every_game_type_and_level(decl, m, points, tricks, bid, value):
    got = score_game(
        Declaration.parse(decl), ISKO, matadors=m, points=points, tricks=tricks, bid=bid
    )
    assert got.value == value


def test_the_known_answer_file_covers_every_game_type():
    games = {Declaration.parse(case[0]).game for case in isko_cases()}
    assert games == {"diamonds", "hearts", "spades", "clubs", "grand", "null"}
    assert len(isko_cases()) >= 30


# Seed 000's examples -------------------------------------------------------------------


def test_the_spade_solo_without_one_is_lost_for_22():
    # "A, having failed to reach 61, loses a spade Solo without one; twice 11, or
    # 22 points, which was the game he must have won to be as good as the offer of
    # 18 which he refused."
    hand = parse_cards(SPADE_SOLO_HAND)
    assert matadors(hand, "spades") == -1  # he holds the jack of spades, not of clubs
    solo = Declaration("spades", hand=True)
    assert game_name(solo, FOSTER) == "spade solo"
    lost = score_game(solo, FOSTER, matadors=-1, points=59, tricks=4)
    assert (lost.won, lost.value, lost.unit, lost.multiplier) == (False, -22, 11, 2)
    assert score_game(solo, FOSTER, matadors=-1, points=61, tricks=5).value == 22 > 18


def test_the_grand_with_three_is_lost_for_80():
    # "A Grand with three Matadores is worth 4 times 20 or 80 points, which is what B
    # loses, although he may have bid only 10 or 12 to get the play."
    hand = parse_cards(GRAND_HAND)
    assert matadors(hand, "grand") == 3
    grand = Declaration("grand", hand=True)  # announced without the skat: a solo grand
    assert game_name(grand, FOSTER) == "solo grand" and unit_value(grand, FOSTER) == 20
    for bid in (10, 12):
        lost = score_game(grand, FOSTER, matadors=3, points=55, tricks=4, bid=bid)
        assert (lost.won, lost.value) == (False, -80)


def test_the_gucki_variation_spade_solo_with_one_schneider_announced():
    # "Spade solo with 1, schneider announced. His game is 1 for game, 1 for
    # schneider, without 1, 3 x 11 = 33, doubled for announcing schneider, 66. If
    # lost, it costs 132. If he makes schwarz after announcing schneider, it adds
    # one multiplier, 77."
    d = Declaration("spades", schneider=True)
    assert score_game(d, GUCKI, matadors=-1, points=93, tricks=8).value == 66
    assert score_game(d, GUCKI, matadors=-1, points=88, tricks=8).value == -132
    assert score_game(d, GUCKI, matadors=-1, points=120, tricks=10).value == 77


def test_the_gucki_variation_smallest_game_and_largest_loss():
    # "The smallest possible game is a diamond with or without 1, worth 18; 36 if
    # lost. The largest game possible to lose is a grand with four, schwarz
    # announced, costing 1,008."
    diamond = Declaration("diamonds")
    for m in (1, -1):
        assert score_game(diamond, GUCKI, matadors=m, points=70, tricks=6).value == 18
        assert score_game(diamond, GUCKI, matadors=m, points=50, tricks=4).value == -36
    assert min(bid_values(GUCKI)) == 18
    grand = Declaration("grand", schwarz=True)
    assert score_game(grand, GUCKI, matadors=4, points=119, tricks=9).value == -1008
    assert score_game(grand, GUCKI, matadors=4, points=120, tricks=10).value == 504


def test_the_examples_matadores_counted_from_the_hands():
    # Law 2: "one for each matadore, 'with' or 'without'". The Gucki examples' "a
    # diamond with or without 1" and "a grand with four": the jack of clubs held and
    # the jack of spades not is "with 1"; the jack of spades without the club is
    # "without 1"; the four jacks in a grand, "with four".
    assert matadors(parse_cards("JC JH 7D 8D AS 10S KS QS 9S 8S"), "diamonds") == 1
    assert matadors(parse_cards("JS JH 7D 8D AS 10S KS QS 9S 8S"), "diamonds") == -1
    assert matadors(parse_cards("JC JS JH JD AS 10S KS QS 9S 8S"), "grand") == 4
    # The spade Solo of the first example: 1 + 1 times 11 won, as the text's 22.
    hand = parse_cards(SPADE_SOLO_HAND)
    won = score_game(
        Declaration("spades", hand=True),
        FOSTER,
        matadors=matadors(hand, "spades"),
        points=61,
        tricks=5,
    )
    assert won.value == 22


def test_the_examples_bids_are_bids_of_the_laws():
    # Seed 000: "the offer of 18 which he refused"; "he may have bid only 10 or 12
    # to get the play". Law 33: "All bidding shall be by numbers representing the
    # value of some possible game".
    assert {10, 12, 18} <= set(bid_values(FOSTER))


def test_law_39_open_grands_are_schwarz_announced():
    # Law 39: "All Open Grands are compulsory 'schwarz announced.'" Law 1: open grand
    # 24; Law 2: "5 for announcing schwarz", plus the matadores. With one: 6 x 24 =
    # 144. Missing schwarz loses "what he would have won" (Law 60), 144, whether he
    # took 110 points or 50.
    open_grand = Declaration.parse("grand hand ouvert")
    won = score_game(open_grand, FOSTER, matadors=1, points=120, tricks=10)
    assert (won.won, won.value, won.unit, won.multiplier) == (True, 144, 24, 6)
    for points, tricks in ((110, 9), (50, 4)):
        lost = score_game(open_grand, FOSTER, matadors=1, points=points, tricks=tricks)
        assert (lost.won, lost.value) == (False, -144)


def test_the_gucki_variation_always_loses_double_and_always_sees_the_skat():
    plain = Declaration("hearts")
    assert score_game(plain, GUCKI, matadors=2, points=40, tricks=3).value == -2 * 3 * 10


# Law 1: unit values ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit", "name"),
    [
        ("diamonds turned 7D", 5, "diamond tournée"),
        ("hearts turned KH", 6, "heart tournée"),
        ("spades turned 8S", 7, "spade tournée"),
        ("clubs turned AC", 8, "club tournée"),
        ("clubs passt turned 9C", 8, "club passt-mir-nicht"),
        ("diamonds hand", 9, "diamond solo"),
        ("hearts hand", 10, "heart solo"),
        ("spades hand", 11, "spade solo"),
        ("clubs hand", 12, "club solo"),
        ("grand turned JD", 12, "turned grand"),
        ("grand", 16, "gucki grand"),
        ("grand hand", 20, "solo grand"),
        ("grand hand ouvert", 24, "open grand"),
        ("null", 15, "gucki nullo"),
        ("null ouvert", 30, "open gucki nullo"),
        ("null hand", 20, "solo nullo"),
        ("null hand ouvert", 40, "open solo nullo"),
        ("null turned 7S", 10, "turned nullo"),
        ("revolution", 60, "revolution"),
        ("uno", 20, "uno"),
        ("duo ouvert", 40, "open duo"),
    ],
)
def test_law_1_unit_values(text, unit, name):
    decl = Declaration.parse(text)
    assert unit_value(decl, FOSTER) == unit
    assert game_name(decl, FOSTER) == name


# Law 2: multipliers, Laws 56-57 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points", "tricks", "multiplier", "won"),
    [
        ("clubs hand", 61, 5, 1 + 2, True),  # 1 for game, plus 2 matadors
        ("clubs hand", 90, 8, 1 + 2, True),  # Law 56: schneider at 91, not 90
        ("clubs hand", 91, 8, 2 + 2, True),  # "2 for schneider"
        (
            "clubs hand",
            120,
            10,
            3 + 2,
            True,
        ),  # "3 ... for making schwarz without ... any announcement"
        ("clubs hand schneider", 91, 8, 3 + 2, True),  # "3 for announcing schneider"
        (
            "clubs hand schneider",
            120,
            10,
            4 + 2,
            True,
        ),  # "4 for schwarz after having announced schneider"
        ("clubs hand schwarz", 120, 10, 5 + 2, True),  # "5 for announcing schwarz"
        ("clubs hand schneider", 90, 8, 3 + 2, False),  # announced and missed: lost, Law 60
        ("clubs hand schwarz", 119, 9, 5 + 2, False),
        ("clubs hand", 31, 3, 1 + 2, False),  # Law 57: adversaries at 89, no schneider
        ("clubs hand", 30, 3, 2 + 2, False),  # "If they get to 90, they make him schneider"
        ("clubs hand", 0, 0, 3 + 2, False),  # "if they win every trick they make him schwarz"
    ],
)
def test_law_2_multipliers(text, points, tricks, multiplier, won):
    got = score_game(Declaration.parse(text), FOSTER, matadors=2, points=points, tricks=tricks)
    assert (got.multiplier, got.won) == (multiplier, won)
    assert got.value == (1 if won else -1) * multiplier * 12


def test_law_3_passt_mir_nicht_and_guckis_lose_double():
    # "if the player says 'passt-mir-nicht' ... he loses double if he loses his
    # game. In guckis, whether grand or nullo, the player loses double".
    tournee = Declaration.parse("hearts turned 8H")
    passt = Declaration.parse("hearts passt turned 8H")
    assert score_game(tournee, FOSTER, matadors=1, points=50, tricks=4).value == -12
    assert score_game(passt, FOSTER, matadors=1, points=50, tricks=4).value == -24
    assert score_game(Declaration("grand"), FOSTER, matadors=1, points=50, tricks=4).value == -64
    turned_grand = Declaration.parse("grand turned JS")
    assert score_game(turned_grand, FOSTER, matadors=1, points=50, tricks=4).value == -24
    assert score_game(Declaration("null"), FOSTER, matadors=0, points=0, tricks=1).value == -30
    assert (
        score_game(Declaration("null", hand=True), FOSTER, matadors=0, points=0, tricks=1).value
        == -20
    )


def test_law_44_an_abandoned_tournee_is_a_game_lost_not_schneider():
    tournee = Declaration.parse("spades turned 9S")
    made_schneider = score_game(tournee, FOSTER, matadors=1, points=10, tricks=1)
    abandoned = score_game(tournee, FOSTER, matadors=1, points=10, tricks=1, abandoned=True)
    assert made_schneider.value == -(2 + 1) * 7
    assert abandoned.value == -(1 + 1) * 7


def test_laws_60_61_a_loss_is_the_game_or_the_multiple_that_covers_the_bid():
    # Law 60: "he loses what he would have won if he had been successful, regardless
    # of the amount he may have bid"; Law 61: "he loses the value of the next higher
    # game which would have made his bid good".
    tournee = Declaration.parse("hearts turned 7H")
    won_too_little = score_game(tournee, FOSTER, matadors=1, points=70, tricks=6, bid=30)
    assert (won_too_little.won, won_too_little.overbid, won_too_little.value) == (False, True, -30)
    lost = score_game(tournee, FOSTER, matadors=3, points=40, tricks=3, bid=20)
    assert (lost.overbid, lost.value) == (False, -24)
    lost_overbid = score_game(tournee, FOSTER, matadors=1, points=40, tricks=3, bid=20)
    assert (lost_overbid.overbid, lost_overbid.value) == (True, -24)  # 4 x 6 covers 20


def test_a_revoke_decides_the_game_and_schneider_is_still_counted():
    # Law 53: "the player may claim his game as won; but he may insist on playing
    # the hand out to see if he can make schneider"; "Even if the single player has
    # overbid his hand, he wins his game if either adversary revokes."
    solo = Declaration("hearts", hand=True)
    won = score_game(solo, FOSTER, matadors=1, points=50, tricks=4, bid=40, forced=True)
    assert (won.won, won.value) == (True, 40)
    schneider = score_game(solo, FOSTER, matadors=1, points=95, tricks=8, forced=True)
    assert schneider.value == (2 + 1) * 10
    # Law 52: the player's revoke loses his game.
    assert score_game(solo, FOSTER, matadors=1, points=95, tricks=8, forced=False).value == -20


# Bids ---------------------------------------------------------------------------------------


def test_isko_bids_are_the_values_of_possible_games():
    bids = bid_values(ISKO)
    assert bids[:20] == (
        18,
        20,
        22,
        23,
        24,
        27,
        30,
        33,
        35,
        36,
        40,
        44,
        45,
        46,
        48,
        50,
        54,
        55,
        59,
        60,
    )
    assert 19 not in bids and 21 not in bids and max(bids) == 264


def test_foster_bids_start_at_10_law_33():
    bids = bid_values(FOSTER)
    assert min(bids) == 10  # "the lowest bid allowed shall be 10": a diamond tournée with 1
    assert 11 not in bids and 13 not in bids
    assert {15, 20, 30, 40} <= set(bids)  # the nullos of Law 1
    assert 46 not in bid_values(FOSTER) and 46 in bid_values(ISKO)


def test_isko_names():
    assert game_name(Declaration.parse("grand hand ouvert"), ISKO) == "grand hand ouvert"
    assert game_name(Declaration.parse("spades hand schwarz"), ISKO) == (
        "spades hand schwarz announced"
    )


UNO_DUO = SkatRules("foster1906", uno_duo=True)


# Uno and Duo: Law 1 gives their value ("Uno and duo, if played, shall be worth 20, or
# if played open 40"); won by taking exactly one trick (Uno) or two (Duo), the
# standard reading (docs/skat.md). A loss costs the value (Law 60), double after
# taking up the skat (Law 3, a gucki) and in the Gucki variation; an overbid the
# smallest multiple of the unit covering the bid (Law 61).
@pytest.mark.parametrize(
    ("text", "rules", "tricks", "bid", "won", "value"),
    [
        ("uno hand", UNO_DUO, 1, 20, True, 20),
        ("uno hand", UNO_DUO, 0, 20, False, -20),
        ("uno hand", UNO_DUO, 2, 20, False, -20),
        ("uno hand", UNO_DUO, 10, 20, False, -20),
        ("uno hand ouvert", UNO_DUO, 1, 40, True, 40),
        ("duo hand", UNO_DUO, 2, 20, True, 20),
        ("duo hand", UNO_DUO, 1, 20, False, -20),
        ("duo hand", UNO_DUO, 3, 20, False, -20),
        ("duo hand ouvert", UNO_DUO, 3, 40, False, -40),
        ("uno", UNO_DUO, 2, 20, False, -40),  # the skat taken up: a gucki, Law 3
        ("duo ouvert", UNO_DUO, 0, 40, False, -80),
        ("uno hand", UNO_DUO, 1, 30, False, -40),  # Law 61: 30 bid, 40 covers it
        ("uno", SkatRules("foster1906", gucki_variation=True, uno_duo=True), 0, 20, False, -40),
    ],
)
def test_uno_and_duo_are_won_by_exactly_one_and_two_tricks(text, rules, tricks, bid, won, value):
    g = score_game(Declaration.parse(text), rules, matadors=0, points=0, tricks=tricks, bid=bid)
    assert (g.won, g.value, g.schneider, g.schwarz) == (won, value, False, False)


def test_a_revolution_is_won_by_taking_no_trick_and_worth_60():
    # Law 1: "revolution, if played, 60".
    rules = SkatRules("foster1906", revolution=True)
    won = score_game(Declaration("revolution", hand=True), rules, matadors=0, points=0, tricks=0)
    lost = score_game(Declaration("revolution", hand=True), rules, matadors=0, points=5, tricks=1)
    assert (won.won, won.value, lost.won, lost.value) == (True, 60, False, -60)
