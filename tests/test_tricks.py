"""The trick-play core: effective suits, trick winners, must-follow rules, and
revokes proved by later evidence. Every expected answer is worked out by hand
from the rule texts named beside it."""

from __future__ import annotations

import pytest

from rules.cards import Card, parse_cards
from rules.skat.declaration import contract_for
from rules.tricks.contract import TRUMP, Contract, Obligation
from rules.tricks.play import TrickPlay

C = Card.parse

FROG_ORDER = (1, 10, 13, 12, 11, 9, 8, 7, 6)  # seed 002 Frog: "A 10 K Q J 9 8 7 6"
FROG_POINTS = {1: 11, 10: 10, 13: 4, 12: 3, 11: 2}


def frog(trump: str = "H") -> Contract:
    return Contract.build(
        "frog",
        trump=trump,
        order=FROG_ORDER,
        points=FROG_POINTS,
        obligation=Obligation.FOLLOW_ELSE_TRUMP,
    )


def all_fours(trump: str) -> Contract:
    return Contract.build(
        "all fours",
        trump=trump,
        order=(1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2),
        points={10: 10, 1: 4, 13: 3, 12: 2, 11: 1},
        obligation=Obligation.FOLLOW_OR_TRUMP,
    )


class Recorder:
    """A ``flag`` callback that keeps what it is told."""

    def __init__(self) -> None:
        self.flags: list[tuple[str, int | None, int | None, list[str]]] = []

    def __call__(self, kind, seat, trick, cards, detail) -> None:
        assert detail
        self.flags.append((kind.kind, seat, trick, [str(c) for c in cards]))


def run(play: TrickPlay, moves: str) -> Recorder:
    """Play ``"0:JC 1:7C …"``; return what was flagged."""
    rec = Recorder()
    for move in moves.split():
        seat, card = move.split(":")
        play.play(int(seat), C(card), rec)
    return rec


# Effective suit per game -----------------------------------------------------------


def test_in_skat_suit_and_grand_games_the_jacks_are_trumps_not_their_suit():
    # Seed 000 Law 12: "The four jacks, or Wenzels, which are always the four best trumps".
    for game in ("diamonds", "hearts", "spades", "clubs", "grand"):
        assert contract_for(game).suit_of(C("JH")) == TRUMP
    assert contract_for("spades").suit_of(C("7S")) == TRUMP
    assert contract_for("spades").suit_of(C("AH")) == "H"
    assert contract_for("grand").suit_of(C("AS")) == "S"  # a grand: only the jacks


def test_in_nullo_the_jacks_are_plain_cards_ranking_a_k_q_j_10():
    # Law 13: "In Nullo, the cards rank: A K Q J 10 9 8 7".
    null = contract_for("null")
    assert null.suit_of(C("JC")) == "C"
    assert null.winner(parse_cards("10C JC 9C")) == 1
    assert null.winner(parse_cards("QH KH JH")) == 1
    assert null.winner(parse_cards("7D AS AC")) == 0  # nothing follows, the lead wins


def test_frog_hearts_are_trumps_and_jacks_are_plain():
    # Seed 002 Frog: "In this, hearts must be trumps"; A 10 K Q J 9 8 7 6.
    f = frog()
    assert f.suit_of(C("6H")) == TRUMP and f.suit_of(C("JS")) == "S"
    assert f.winner(parse_cards("AS 6H 10S")) == 1
    assert f.winner(parse_cards("JS 10S QS")) == 1  # the ten is above the queen


def test_skat_trick_winners():
    spades = contract_for("spades")
    # The highest trump wins: the jack of diamonds beats the ace of trumps.
    assert spades.winner(parse_cards("AS JD 10S")) == 1
    # Law 12: clubs, spades, hearts, diamonds: the jack of clubs is the best.
    assert spades.winner(parse_cards("JH JC JS")) == 1
    # Without trumps the highest of the suit led; the ten ranks under the ace.
    assert spades.winner(parse_cards("10H KH AH")) == 2
    assert spades.winner(parse_cards("KH AD QH")) == 0
    assert contract_for("grand").winner(parse_cards("AC 7C JD")) == 2


def test_card_points_count_120_in_the_skat_and_frog_packs():
    # Law 11: jack 2, ace 11, ten 10, king 4, queen 3; seed 002: Frog "120 points in the pack".
    from rules.cards import FROG_DECK, SKAT_DECK

    assert contract_for("grand").trick_points(SKAT_DECK) == 120
    assert frog().trick_points(FROG_DECK) == 120
    assert contract_for("grand").trick_points(parse_cards("AS 10S KS QS JS")) == 30


# What a player must play -------------------------------------------------------------


def test_skat_must_follow_suit_if_able_else_anything():
    # Law 45: "each player in turn must follow suit if he can".
    hearts = contract_for("hearts")
    hand = parse_cards("JD 7H AS KC")
    assert hearts.legal(hand, C("AH")) == parse_cards("JD 7H")  # the jack is a heart here
    assert hearts.legal(hand, C("10S")) == parse_cards("AS")
    assert hearts.legal(parse_cards("7H AS"), C("10D")) == parse_cards("7H AS")
    assert contract_for("null").legal(hand, C("AD")) == parse_cards("JD")


def test_frog_must_trump_when_void_but_need_not_overtrump():
    # Seed 002: "If a player cannot follow suit, he must trump ... he is not obliged
    # to over-trump unless he likes."
    f = frog()
    assert f.legal(parse_cards("7H AC KC"), C("AS")) == parse_cards("7H")
    assert f.legal(parse_cards("7H 8S AC"), C("AS")) == parse_cards("8S")
    assert f.legal(parse_cards("AC KC"), C("AS")) == parse_cards("AC KC")


def test_all_fours_follow_suit_or_trump():
    fours = all_fours("D")
    assert fours.legal(parse_cards("2S 3D KC"), C("AS")) == parse_cards("2S 3D")
    assert fours.legal(parse_cards("3D KC"), C("AS")) == parse_cards("3D KC")


# Revokes proved by later evidence ------------------------------------------------------


def test_a_later_card_of_the_suit_flags_the_earliest_trick_once_with_both_cards():
    play = TrickPlay(contract_for("grand"), seats=(0, 1, 2), leader=0, hand_size=10)
    rec = run(
        play,
        # Trick 1: seat 2 does not follow spades (plays 7C): known void in spades.
        "0:AS 1:7S 2:7C "
        # Trick 2, seat 0 led again: seat 2 again does not follow spades.
        "0:10S 1:8S 2:8C "
        # Trick 3: seat 2 plays a spade: the revoke of trick 1 is proved.
        "0:AH 1:7H 2:KS "
        # Trick 4: another spade from seat 2 is no second verdict.
        "0:10H 1:8H 2:QS",
    )
    assert rec.flags == [("revoke", 2, 1, ["7C", "KS"])]


def test_a_jack_played_on_a_suit_lead_is_no_revoke_in_a_suit_game():
    # In a spade game the jack of hearts is a trump: playing it on a heart lead is
    # a trump played, not the suit followed; the seat shows itself void of hearts.
    play = TrickPlay(contract_for("spades"), seats=(0, 1, 2), leader=0, hand_size=10)
    rec = run(play, "0:AH 1:JH 2:7H 1:KH 2:8H 0:10H")
    assert rec.flags == [("revoke", 1, 1, ["JH", "KH"])]


def test_frog_a_seat_that_did_not_trump_is_proved_by_a_later_trump():
    play = TrickPlay(frog(), seats=(1, 2, 3), leader=1, hand_size=11)
    # Trick 1: seat 3 neither follows spades nor trumps: void of both.
    rec = run(play, "1:AS 2:7S 3:9C 1:AC 2:7C 3:6H")
    assert rec.flags == [("revoke", 3, 1, ["9C", "6H"])]


def test_all_fours_trumping_while_holding_the_suit_is_no_revoke():
    play = TrickPlay(all_fours("D"), seats=(0, 1), leader=0, hand_size=6)
    rec = run(play, "0:AS 1:2D 1:KS 0:QS")  # seat 1 trumped trick 1; later a spade
    assert rec.flags == []
    play = TrickPlay(all_fours("D"), seats=(0, 1), leader=0, hand_size=6)
    rec = run(play, "0:AS 1:2C 0:KC 1:3S")  # seat 1 discarded a club; later a spade
    assert rec.flags == [("revoke", 1, 1, ["2C", "3S"])]


def test_where_the_hand_is_known_the_revoke_is_flagged_at_once():
    hands = {0: parse_cards("AS 10S"), 1: parse_cards("7S 7D"), 2: parse_cards("KD 8S")}
    play = TrickPlay(contract_for("grand"), seats=(0, 1, 2), leader=0, hand_size=2, hands=hands)
    rec = run(play, "0:AS 1:7D")
    assert rec.flags == [("revoke", 1, 1, ["7D", "7S"])]
    rec = run(play, "2:8S 0:10S 1:7S")  # the proof later adds nothing
    assert rec.flags == []


def test_a_hand_laid_down_proves_a_revoke():
    play = TrickPlay(contract_for("grand"), seats=(0, 1, 2), leader=0, hand_size=10)
    run(play, "0:AS 1:7C 2:8S")
    rec = Recorder()
    play.reveal(1, parse_cards("KS 8C 9C 10C QC KC AC 7H 8H"), rec)
    assert rec.flags == [("revoke", 1, 1, ["7C", "KS"])]


def test_each_revoke_is_flagged_once_even_when_proved_twice():
    # Seed 002 Frog: seat 3 fails to follow spades and to trump in trick 1; a trump
    # and then a spade both prove it; one verdict.
    play = TrickPlay(frog(), seats=(1, 2, 3), leader=1, hand_size=11)
    rec = run(play, "1:AS 2:7S 3:9C 1:AC 2:7C 3:6H 3:8S 1:KS 2:9S")
    assert [f[:3] for f in rec.flags] == [("revoke", 3, 1)]


# Other irregularities -----------------------------------------------------------------


def test_leads_and_plays_out_of_turn_and_cards_seen_twice():
    # Laws 47-48: a lead out of turn is flagged; the card stands.
    play = TrickPlay(contract_for("grand"), seats=(0, 1, 2), leader=0, hand_size=10)
    rec = run(play, "1:AS 2:8S 0:7S")
    assert rec.flags == [("led-out-of-turn", 1, 1, ["AS"])]
    assert play.tricks[0].winner == 1  # the false lead stood and won
    rec = run(play, "1:10S 0:AS")
    assert rec.flags == [("played-out-of-turn", 0, 2, ["AS"]), ("duplicate-card", 0, 2, ["AS"])]


def test_a_card_too_many_is_a_wrong_number_of_cards():
    # Law 46: "any player is found to have a wrong number of cards".
    play = TrickPlay(contract_for("grand"), seats=(0, 1, 2), leader=0, hand_size=1)
    rec = run(play, "0:AS 1:7S 2:8S")
    assert play.finished and rec.flags == []
    rec = run(play, "0:KS")
    assert rec.flags == [("out-of-phase", 0, None, ["KS"])]


def test_a_card_in_the_skat_or_another_hand_is_flagged():
    hands = {0: parse_cards("AS"), 1: parse_cards("7S"), 2: parse_cards("8S")}
    play = TrickPlay(
        contract_for("grand"), (0, 1, 2), 0, 1, hands=hands, aside=parse_cards("KS QS")
    )
    rec = run(play, "0:KS 1:AS")
    assert rec.flags == [
        ("card-not-in-hand", 0, 1, ["KS"]),
        ("card-not-in-hand", 1, 1, ["AS"]),
    ]


@pytest.mark.parametrize(
    ("obligation", "hand", "led", "legal"),
    [
        (Obligation.FOLLOW, "7S 7D", "AS", "7S"),
        (Obligation.FOLLOW_ELSE_TRUMP, "7D 7C", "AS", "7D"),
        (Obligation.FOLLOW_OR_TRUMP, "7S 7D 7C", "AS", "7S 7D"),
    ],
)
def test_legal_agrees_with_shown_void(obligation, hand, led, legal):
    contract = Contract.build(
        "x", trump="D", order=(1, 10, 13, 12, 11, 9, 8, 7), points={}, obligation=obligation
    )
    ok = parse_cards(legal)
    assert contract.legal(parse_cards(hand), C(led)) == ok
    for card in parse_cards(hand):
        shown = contract.shown_void(C(led), card)
        if card in ok:
            # A legal card shows no void that the hand contradicts.
            assert not any(contract.suit_of(c) in shown for c in parse_cards(hand) if c != card)
