"""The cribbage game engine: deals, the play, the show, verdicts, undo, replay.

Every expected number here was counted by hand from the rule texts; the law or
passage each one comes from is named beside it.
"""

from __future__ import annotations

import json

import pytest

from rules.cards import Card, parse_cards
from rules.cribbage import verdicts as v
from rules.cribbage.events import (
    Correct,
    Cut,
    Deal,
    Discard,
    Go,
    NewGame,
    Penalty,
    Play,
    SetDealer,
    Show,
    Starter,
    event_from_json,
)
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules
from rules.errors import InvalidEventError, InvalidOptionError

C = Card.parse


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def kinds(game: CribbageGame) -> list[str]:
    return [x.kind for x in game.verdicts]


def new_deal(
    game: CribbageGame, starter: str, *, dealer: int | None = None, hands=None, discards=None
) -> None:
    """Deal, lay out (by count unless cards are given) and turn the starter."""
    if game.phase == "cut":
        game.apply(SetDealer(0 if dealer is None else dealer))
    game.apply(Deal(dealer=dealer, hands=hands))
    n = game.rules.players
    d = game.dealer
    assert d is not None
    for k in range(1, n + 1):
        seat = (d + k) % n
        laid = cards(discards[seat]) if discards else ()
        game.apply(Discard(seat, laid, count=None if laid else game.rules.discards_each))
    game.apply(Starter(C(starter)))


def play(game: CribbageGame, moves: str) -> list:
    """Apply moves like ``"1:5H 0:4S 1:go"``; return the outcomes."""
    outcomes = []
    for move in moves.split():
        seat, what = move.split(":")
        event = Go(int(seat)) if what == "go" else Play(int(seat), C(what))
        outcomes.append(game.apply(event))
    return outcomes


# Cutting and dealing ------------------------------------------------------------


def test_lowest_cut_deals_ace_low_and_ties_cut_again():
    # Seed 000 CUTTING: "The lowest cut has the choice ... The Ace is low ...
    # Ties are also decided by cutting again."
    game = CribbageGame()
    out = game.apply(Cut(cards("8S 8H")))
    assert game.phase == "cut" and game.dealer is None
    assert "cutting again" in out.notes[0]
    game.apply(Cut(cards("KD AC")))
    assert (game.phase, game.dealer) == ("deal", 1)


def test_deal_passes_and_dealing_out_of_turn_costs_two():
    # Seed 000 Irregularities: "The penalty for dealing out of turn is two points"
    # and "otherwise the deal stands good".
    game = CribbageGame()
    new_deal(game, "2C", dealer=0)
    play(game, "1:AS 0:AH 1:2S 0:2H 1:3S 0:3H 1:4S 0:4H")
    assert game.phase == "show"
    game.apply(Show(1, cards("AS 2S 3S 4S")))
    game.apply(Show(0, cards("AH 2H 3H 4H")))
    game.apply(Show(0, cards("5H 6H 7S 8C"), crib=True))
    assert game.phase == "deal"
    before = game.scores
    out = game.apply(Deal(dealer=0))  # seat 1's deal
    assert kinds(game) == ["dealt-out-of-turn"]
    assert [(p.seat, p.points) for p in out.pegged] == [(1, 2)]
    assert game.scores == (before[0], before[1] + 2)
    assert game.dealer == 0  # the deal stands


def test_penalties_are_options():
    game = CribbageGame(CribbageRules(penalty_dealing_out_of_turn=False))
    game.apply(SetDealer(0))
    game.apply(Deal(dealer=1))
    assert kinds(game) == ["dealt-out-of-turn"] and game.scores == (0, 0)


def test_misdeal_with_known_hands_gives_the_non_dealer_two():
    # Seed 000 Irregularities: the dealer "gives too many or too few cards to any
    # player ... the non-dealer scores two points by way of penalty".
    game = CribbageGame()
    game.apply(SetDealer(0))
    out = game.apply(Deal(hands=(cards("AS 2S 3S 4S 5S 6S 7S"), cards("AH 2H 3H 4H 5H 6H"))))
    assert kinds(game) == ["wrong-number-of-cards"]
    assert game.verdicts[0].seat == 0
    assert [(p.seat, p.points) for p in out.pegged] == [(1, 2)]


# The play ---------------------------------------------------------------------------


def test_seed_003_runs_in_the_play_go_and_last_card():
    # Seed 003 SEQUENCES: "A plays a five, and B a four. If A now plays either a
    # six or a three, he is entitled to score a run of three ... If B can play
    # either a six or a two, he will be entitled to score four; and if A can then
    # add another card at either end, he will score five." A is seat 1 (the
    # non-dealer leads), B seat 0.
    game = CribbageGame()
    new_deal(game, "4C", dealer=0)
    outs = play(game, "1:5H 0:4S 1:3D 0:2C 1:6S")
    assert [sum(p.points for p in o.pegged) for o in outs] == [0, 0, 3, 4, 5]
    # Then 7C on 2..6 is a run of six, AD on 2..7 a run of seven, "the highest
    # number that can be scored for a sequence is seven, for ace ... seven".
    outs = play(game, "0:7C 1:AD")
    assert [o.pegged[0].items[0].kind for o in outs] == ["run", "run"]
    assert [o.pegged[0].points for o in outs] == [6, 7]
    assert game.count == 28 and game.turn == 0
    # Seat 0 holds only 10H: "Go". Seat 1 has no card left, so the count ends
    # and seat 1 pegs one for last card; seat 0 leads the next count.
    out = game.apply(Go(0))
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(1, 1, "go")]
    assert (game.count, game.turn) == (0, 0)
    out = game.apply(Play(0, C("10H")))  # the last card of the play: one for last
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(0, 1, "go")]
    assert game.phase == "show"
    assert game.scores == (4 + 6 + 1, 3 + 5 + 7 + 1)
    # The show, non-dealer first. 5H 3D 6S AD + 4C: fifteen two (5 6 4), fifteen
    # four (A 3 5 6) and a run of four (3 4 5 6) is eight.
    out = game.apply(Show(1, cards("5H 3D 6S AD")))
    assert out.pegged[0].points == 8
    # 4S 2C 7C 10H + 4C: fifteen two (4 4 7) and a pair is four.
    assert game.apply(Show(0, cards("4S 2C 7C 10H"))).pegged[0].points == 4
    # Crib 8D 9D 10S JS + 4C: a run of four.
    assert game.apply(Show(0, cards("8D 9D 10S JS"), crib=True)).pegged[0].points == 4
    assert game.scores == (11 + 4 + 4, 16 + 8) and game.phase == "deal"
    assert game.verdicts == ()


def test_thirty_one_and_a_run_on_one_card_score_once_each():
    # Seed 003: thirty-one "he scores two"; the run of three 6 7 8 scores three;
    # no extra one for last card when thirty-one is made.
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    outs = play(game, "1:KH 0:6S 1:7D 0:8C")
    last = outs[-1].pegged
    assert len(last) == 1 and last[0].points == 5
    assert sorted(i.kind for i in last[0].items) == ["run", "thirty-one"]
    assert game.count == 0 and game.turn == 1  # the next count, the other player leads


def test_thirty_one_on_the_last_card_is_not_also_last_card():
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    play(game, "1:KH 0:KS 1:AH 0:KD")  # 31; seat 1 leads the next count
    assert game.turn == 1
    play(game, "1:QH 0:QC 1:2H")  # 22
    out = game.apply(Play(0, C("9S")))  # 31 with the last card of the play
    assert game.phase == "show"
    assert [(p.seat, [i.kind for i in p.items]) for p in out.pegged] == [(0, ["thirty-one"])]


def test_pairs_count_only_over_cards_played_one_after_another():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    outs = play(game, "1:5H 0:6S 1:5D")
    assert outs[-1].pegged == ()  # 5 6 5: no pair, no run, count 16
    outs = play(game, "0:5C")  # 5 after 5: a pair, count 21
    assert [i.kind for i in outs[-1].pegged[0].items] == ["pair"]


def test_pair_royal_and_double_pair_royal_in_the_play():
    # Seed 003 PAIRS-ROYAL six, DOUBLE PAIRS-ROYAL twelve; four sevens make 28.
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    outs = play(game, "1:7H 0:7S 1:7D 0:7C")
    assert [sum(p.points for p in o.pegged) for o in outs] == [0, 2, 6, 12]


def test_go_out_of_turn_is_flagged():
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    play(game, "1:KH 0:QS 1:9C 1:go")  # count 29: seat 0 is to play, seat 1 says go
    assert kinds(game) == ["played-out-of-turn"]


def test_go_then_the_other_plays_on_and_the_count_closes_when_the_go_sayer_leads():
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    play(game, "1:KH 0:QS 1:9C")  # 29
    game.apply(Go(0))
    assert game.turn == 1
    play(game, "1:AH")  # 30, seat 1 plays on
    out = game.apply(Play(0, C("JD")))  # seat 0 leads again: the count had ended
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(1, 1, "go")]
    assert game.count == 10 and game.verdicts == ()


# Verdicts ----------------------------------------------------------------------


def test_a_card_past_thirty_one_is_recorded_and_flagged_and_the_count_stands():
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    play(game, "1:KH 0:6S 1:7D")  # 23
    out = game.apply(Play(0, C("9C")))
    assert [x.kind for x in out.verdicts] == ["over-thirty-one"]
    assert out.verdicts[0].cards == (C("9C"),) and out.pegged == ()
    assert game.count == 23 and game.turn == 0
    assert C("9C") in game.state.deal.played[0]
    game.undo()
    assert game.verdicts == () and C("9C") not in game.state.deal.played[0]


def test_the_same_card_seen_twice_is_flagged():
    game = CribbageGame()
    new_deal(game, "5H", dealer=0)
    out = game.apply(Play(1, C("5H")))
    assert [x.kind for x in out.verdicts] == ["duplicate-card"]
    assert "starter" in out.verdicts[0].detail


def test_a_card_from_a_hand_known_not_to_hold_it():
    hands = (cards("AS 2S 3S 4S 5S 6S"), cards("AH 2H 3H 4H 5H 6H"))
    game = CribbageGame()
    new_deal(game, "KC", dealer=0, hands=hands, discards={0: "AS 2S", 1: "AH 2H"})
    out = game.apply(Play(1, C("3S")))  # in seat 0's hand
    assert [x.kind for x in out.verdicts] == ["card-not-in-hand"]
    out = game.apply(Play(0, C("9D")))  # in nobody's known hand
    assert [x.kind for x in out.verdicts] == ["card-not-in-hand"]


def test_play_out_of_turn_is_flagged_and_the_card_counts():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    out = game.apply(Play(0, C("5H")))  # the non-dealer, seat 1, leads
    assert [x.kind for x in out.verdicts] == ["played-out-of-turn"]
    assert game.count == 5 and game.turn == 1


def test_go_while_able_with_a_known_hand_is_flagged_at_once():
    hands = (cards("AS 2S 3S 4S 5S 6S"), cards("10H JH QH KH 9H 8H"))
    game = CribbageGame()
    new_deal(game, "KC", dealer=0, hands=hands, discards={0: "AS 2S", 1: "9H 8H"})
    play(game, "1:10H 0:6S 1:JH")  # 26
    out = game.apply(Go(0))  # holds 3S 4S 5S: each fits
    assert [x.kind for x in out.verdicts] == ["go-while-able-to-play"]
    assert out.verdicts[0].cards == (C("3S"),)


def test_go_while_able_is_proved_by_a_card_played_later():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    play(game, "1:10H 0:QS")  # 20
    out = game.apply(Go(1))  # nothing known yet
    assert out.verdicts == ()
    play(game, "0:KD")  # 30
    out = game.apply(Play(1, C("5C")))  # a new count; 5C would have fitted at 20
    assert [x.kind for x in out.verdicts] == ["go-while-able-to-play"]
    assert out.verdicts[0].seat == 1 and out.verdicts[0].cards == (C("5C"),)
    assert "said go at 20" in out.verdicts[0].detail


def test_go_while_able_is_proved_at_the_show_in_five_card():
    # Five-card: the play ends at the first go, unplayed cards are seen at the show.
    game = CribbageGame(CribbageRules("five-card"))
    new_deal(game, "KC", dealer=0)
    play(game, "1:10H 0:QS 1:9C")  # 29
    game.apply(Go(0))
    game.apply(Go(1))  # seat 1 holds two cards but cannot play: 29
    assert game.phase == "show"
    out = game.apply(Show(1, cards("10H 9C 4D")))  # 4D: 29 + 4 > 31, honest go
    assert out.verdicts == ()
    out = game.apply(Show(0, cards("QS 2D AS")))  # 2D fitted at 29: a false go
    assert [x.kind for x in out.verdicts] == ["go-while-able-to-play"]
    assert out.verdicts[0].cards == (C("2D"),)


def test_a_crib_card_taken_up_again_costs_two():
    # Seed 000 THE CRIB: "A penalty of two points may be scored by the adversary
    # for each card so taken up again".
    game = CribbageGame()
    new_deal(game, "KC", dealer=0, discards={0: "2S 3S", 1: "5H 6H"})
    out = game.apply(Play(1, C("5H")))
    assert [x.kind for x in out.verdicts] == ["crib-card-taken-up"]
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(0, 2, "penalty")]


def test_wrong_number_of_crib_cards_is_flagged_when_the_starter_comes():
    game = CribbageGame()
    game.apply(SetDealer(0))
    game.apply(Deal())
    game.apply(Discard(1, count=2))
    game.apply(Discard(0, count=1))
    game.apply(Starter(C("KC")))
    assert kinds(game) == ["wrong-crib-count"] and game.verdicts[0].seat == 0
    assert game.phase == "play"


def test_show_out_of_order_and_wrong_number_of_cards():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    play(game, "1:AH 0:AS 1:2H 0:2S 1:3H 0:3S 1:4H 0:4S")
    out = game.apply(Show(0, cards("AS 2S 3S 4S")))  # the dealer before the pone
    assert [x.kind for x in out.verdicts] == ["shown-out-of-order"]
    out = game.apply(Show(1, cards("AH 2H 3H")))  # one short, and 4H was played
    assert sorted(x.kind for x in out.verdicts) == ["hand-mismatch", "wrong-number-of-cards"]


def test_events_out_of_phase_are_recorded_and_change_nothing():
    game = CribbageGame()
    game.apply(SetDealer(0))
    game.apply(Deal())
    scores_before = game.scores
    out = game.apply(Play(1, C("5H")))
    assert [x.kind for x in out.verdicts] == ["out-of-phase"]
    assert game.phase == "discard" and game.scores == scores_before
    assert len(game.events) == 3


# Starter, his heels, his nobs ---------------------------------------------------------


def test_his_heels_to_the_dealer_and_no_nobs_when_the_jack_is_the_starter():
    game = CribbageGame()
    out = None
    game.apply(SetDealer(1))
    game.apply(Deal())
    game.apply(Discard(0, count=2))
    game.apply(Discard(1, count=2))
    out = game.apply(Starter(C("JH")))
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(1, 2, "his heels")]
    play(game, "0:2C 1:3D 0:4S 1:8H 0:6D 1:AD 0:7C 1:KS")
    game.apply(Show(0, cards("2C 4S 6D 7C")))
    out = game.apply(Show(1, cards("3D 8H AD KS")))
    assert all(i.kind != "his nobs" for p in out.pegged for i in p.items)


def test_the_pegging_board_example_front_and_back_peg():
    # Seed 000/002 MARKERS: "One player makes 6 for his first count. He places one
    # of his pegs in the sixth hole ... Then he makes 4, and places the second peg
    # four holes in advance of the first, which will show that his total score is
    # ten points. The third time he makes 2, which he scores by lifting out the back
    # peg and putting it two holes in advance of the first one."
    game = CribbageGame()
    game.apply(SetDealer(0))
    steps = []
    for points in (6, 4, 2):
        game.apply(Penalty(1, points, "MARKERS"))
        steps.append(game.pegs(1))
    assert steps == [(6, 0), (10, 6), (12, 10)]
    assert game.summary()["pegs"][1] == {"front": 12, "back": 10}
    assert game.pegs(0) == (0, 0)


# Five-card, three- and four-handed ---------------------------------------------------


def test_five_card_three_for_last_and_the_play_ends_at_the_first_go():
    game = CribbageGame(CribbageRules("five-card"))
    game.apply(SetDealer(0))
    out = game.apply(Deal())
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(1, 3, "three for last")]
    for seat in (1, 0):
        game.apply(Discard(seat, count=2))
    game.apply(Starter(C("2C")))
    play(game, "1:KH 0:QH 1:9D")  # 29
    game.apply(Go(0))
    out = game.apply(Go(1))
    assert [(p.seat, p.points) for p in out.pegged] == [(1, 1)]
    assert game.phase == "show"  # "This (at five-card cribbage) terminates the hand."
    game.apply(Show(1, cards("KH 9D 3S")))
    game.apply(Show(0, cards("QH AS 8S")))
    game.apply(Show(0, cards("4D 5D 7C 8C"), crib=True))
    out = game.apply(Deal())  # no three for last after the first deal
    assert out.pegged == () and game.dealer == 1


def test_five_card_turn_up_knave_marks_two():
    # Seed 004 §83: "the dealer turns up and lays upon the crib the uppermost card,
    # the turn-up. If it be a knave, he marks two points."
    game = CribbageGame(CribbageRules("five-card"))
    game.apply(SetDealer(0))
    game.apply(Deal())  # the first non-dealer's three for last
    for seat in (1, 0):
        game.apply(Discard(seat, count=2))
    out = game.apply(Starter(C("JS")))
    assert [(p.seat, p.points, p.items[0].kind) for p in out.pegged] == [(0, 2, "his heels")]
    assert game.scores == (2, 3)


def test_six_card_starts_level_four_in_hand_two_to_the_crib():
    # Seed 004 §89 Six-Card Cribbage: "The two players commence on an equality,
    # without scoring any points for the last, retain four cards in hand, and throw
    # out two for crib."
    rules = CribbageRules("six-card")
    assert (rules.deal_size, rules.discards_each, rules.hand_size) == (6, 2, 4)
    assert rules.three_for_last is False
    game = CribbageGame(rules)
    game.apply(SetDealer(0))
    assert game.apply(Deal()).pegged == () and game.scores == (0, 0)


def test_eight_card_six_retained_on_the_same_plan():
    # Seed 004 §90: "Eight-Card Cribbage is sometimes played. Six are retained in
    # hand, and the game is conducted on the same plan as before" (§89: two thrown
    # out for crib, no points for the last, the play to the last card).
    rules = CribbageRules("eight-card")
    assert (rules.deal_size, rules.discards_each, rules.hand_size, rules.crib_size) == (8, 2, 6, 4)
    game = CribbageGame(rules)
    game.apply(SetDealer(0))
    spades = cards("AS 2S 3S 4S 5S 6S 7S 8S")
    hearts = cards("AH 2H 3H 4H 5H 6H 7H 8H")
    assert game.apply(Deal(hands=(spades, hearts))).pegged == ()
    game.apply(Discard(1, cards("7H 8H")))
    game.apply(Discard(0, cards("7S 8S")))
    game.apply(Starter(C("KC")))
    # Each card pairs the pone's: five pairs, 10; at 30 both say go, one for last.
    play(game, "1:AH 0:AS 1:2H 0:2S 1:3H 0:3S 1:4H 0:4S 1:5H 0:5S 1:go 0:go")
    assert game.scores == (11, 0) and game.count == 0
    play(game, "1:6H 0:6S")  # a pair and one for the last card of the play
    assert game.scores == (14, 0) and game.phase == "show"
    # A 2 3 4 5 6 and the K: fifteens 5-K, A-4-K, 2-3-K, 4-5-6, A-3-5-6, 2-3-4-6,
    # A-2-3-4-5 (14), a run of six (6) and a flush of six (6): 26.
    assert game.apply(Show(1, hearts[:6])).pegged[0].points == 26
    assert game.apply(Show(0, spades[:6])).pegged[0].points == 26
    # Crib 7 8 7 8 + K: four fifteens and two pairs, 12.
    assert game.apply(Show(0, cards("7H 8H 7S 8S"), crib=True)).pegged[0].points == 12
    assert game.scores == (14 + 26 + 12, 26) and game.verdicts == ()


def test_five_card_play_ends_at_thirty_one():
    game = CribbageGame(CribbageRules("five-card"))
    new_deal(game, "2C", dealer=0)
    play(game, "1:KH 0:QH 1:AD")  # 21
    out = game.apply(Play(0, C("KD")))  # 31
    assert out.pegged[0].items[0].kind == "thirty-one" and game.phase == "show"


def test_five_card_after_a_go_thirty_one_exactly_is_two_not_three():
    # Seed 004 §84: "he says, 'Go,' and his antagonist scores one, or plays any card
    # or cards he may have that will make thirty-one, or under. If he can make exactly
    # thirty-one, he takes two points; if not, one." Seed 003: "If they make
    # thirty-one exactly, he scores two; if not, he scores one for 'last card.'"
    game = CribbageGame(CribbageRules("five-card"))
    game.apply(SetDealer(0))
    game.apply(Deal(hands=(cards("QH 5S 6S AS 8S"), cards("KH 9D 2D 3C 4C"))))
    game.apply(Discard(1, cards("3C 4C")))
    game.apply(Discard(0, cards("AS 8S")))
    game.apply(Starter(C("7C")))
    play(game, "1:KH 0:QH 1:9D")  # 29
    assert game.apply(Go(0)).pegged == ()  # 5S and 6S will not go
    out = game.apply(Play(1, C("2D")))
    assert [(p.seat, p.points, [i.kind for i in p.items]) for p in out.pegged] == [
        (1, 2, ["thirty-one"])
    ]
    assert game.scores == (0, 3 + 2) and game.phase == "show"


def test_five_card_show_after_a_go_closes_the_play():
    game = CribbageGame(CribbageRules("five-card"))
    new_deal(game, "2C", dealer=0)
    play(game, "1:KH 0:QH 1:9D")  # 29
    game.apply(Go(0))
    out = game.apply(Show(1, cards("KH 9D 3S")))  # seat 1 shows: it had finished
    assert out.pegged[0].items[0].kind == "go" and game.phase == "show"


def test_three_hand_crib_card_from_the_pack_and_rotation():
    # Seed 004 §87: "They put out but one card each to the crib ... the next eldest
    # hand leads, and the players go on again in rotation ... till all are played out".
    game = CribbageGame(CribbageRules(players=3))
    game.apply(SetDealer(2))
    game.apply(Deal(crib_card=C("5S")))
    for seat in (0, 1, 2):
        game.apply(Discard(seat, count=1))
    game.apply(Starter(C("KC")))
    assert game.turn == 0  # left of the dealer leads
    play(game, "0:10H 1:10D 2:5H")  # 25
    assert game.turn == 0
    play(game, "0:go 1:go")  # 9H 8H 7H and 9D 8D 7D cannot go under 31
    assert game.turn == 2
    out = game.apply(Play(2, C("6H")))  # thirty-one
    assert out.pegged[0].points == 2 and game.turn == 0
    outs = play(game, "0:9H 1:9D 2:AC 0:8H 1:go 2:2C 0:go")  # 29; seat 2 is out of cards
    assert [(p.seat, p.points) for o in outs for p in o.pegged] == [(1, 2), (2, 1)]
    assert game.turn == 0  # next after the last player, with cards
    outs = play(game, "0:7H 1:8D 1:7D")
    assert [(p.seat, p.points) for o in outs for p in o.pegged] == [(1, 2), (1, 1)]
    assert game.phase == "show"
    game.apply(Show(0, cards("10H 9H 8H 7H")))
    game.apply(Show(1, cards("10D 9D 8D 7D")))
    game.apply(Show(2, cards("5H 6H AC 2C")))
    out = game.apply(Show(2, cards("5S 4D 3C QS"), crib=True))
    assert game.verdicts == () and game.phase == "deal"
    assert out.pegged[0].team == 2


def test_three_and_four_hand_put_out_but_one_card_each():
    # Seed 004 §87 Three or Four-Hand Cribbage "differs little from the preceding
    # [five-card]. They put out but one card each to the crib". Five dealt, four kept;
    # with three the crib's fourth card is the pack's.
    three, four = CribbageRules(players=3), CribbageRules(players=4)
    assert (three.deal_size, three.discards_each, three.hand_size) == (5, 1, 4)
    assert (four.deal_size, four.discards_each, four.hand_size) == (5, 1, 4)
    assert (three.crib_from_pack, three.crib_size, four.crib_size) == (1, 4, 4)
    game = CribbageGame(four)
    game.apply(SetDealer(3))
    game.apply(Deal())
    for seat in (0, 1, 2):
        game.apply(Discard(seat, count=1))
    game.apply(Discard(3, count=2))  # a second card from one player is one too many
    assert kinds(game) == ["wrong-crib-count"]


def test_four_hand_partners_peg_together():
    game = CribbageGame(CribbageRules(players=4))
    new_deal(game, "KC", dealer=3)
    out = play(game, "0:10H 1:5H")
    assert out[-1].pegged[0].seat == 1 and out[-1].pegged[0].team == 1
    out = play(game, "2:5D")  # a pair for seat 2, partner of seat 0
    assert out[-1].pegged[0].team == 0
    assert game.scores == (2, 2)
    with pytest.raises(InvalidOptionError):
        CribbageRules("eight-card", players=4)


# The end of the game ----------------------------------------------------------------


def _score_to(game: CribbageGame, seat: int, points: int) -> None:
    game.apply(Penalty(seat, points, "set-up"))


def test_the_game_ends_the_moment_a_player_reaches_121_even_mid_show():
    game = CribbageGame()
    game.apply(SetDealer(0))
    _score_to(game, 1, 115)
    _score_to(game, 0, 110)
    new_deal(game, "KC")
    play(game, "1:AH 0:10S 1:2H 0:QD 1:3H 0:go 1:4C")  # 30: one for last to seat 1
    play(game, "0:7C 0:8D")  # fifteen two and one for last to seat 0
    assert game.scores == (113, 116) and game.phase == "show"
    # The non-dealer counts first: AH 2H 3H 4C + KC: fifteen two (A 4 K), fifteen
    # four (2 3 K) and a run of four is eight: 124, and the game is his at 121.
    out = game.apply(Show(1, cards("AH 2H 3H 4C")))
    assert out.pegged[0].points == 8
    assert game.phase == "over" and game.state.winner == 1
    assert game.scores[1] == 121  # the front peg stops in the game hole
    out = game.apply(Show(0, cards("10S QD 7C 8D")))  # the dealer never counts
    assert [x.kind for x in out.verdicts] == ["out-of-phase"] and game.scores[0] == 113
    assert game.state.result == "game" and game.state.games_won == [0, 1]


@pytest.mark.parametrize(
    ("variant", "loser", "games", "name"),
    [
        ("five-card", 30, 2, "lurch"),  # seed 000 MARKERS: before the corner
        ("five-card", 31, 1, "game"),
        ("six-card", 90, 2, "skunk"),
        ("six-card", 60, 4, "double skunk"),
        ("six-card", 91, 1, "game"),
    ],
)
def test_lurch_skunk_and_games_won(variant, loser, games, name):
    game = CribbageGame(CribbageRules(variant))
    game.apply(SetDealer(0))
    if loser:
        _score_to(game, 0, loser)
    _score_to(game, 1, game.rules.game_to)
    assert (game.state.result, game.state.games_won) == (name, [0, games])
    game.apply(NewGame())
    assert game.phase == "cut" and game.scores == (0, 0)
    assert game.state.games_won == [0, games] and game.state.game_number == 2


def test_the_six_card_game_of_the_texts_is_61_and_a_lurch_counts_two():
    # Seed 000/002 MARKERS, the six-card game: "The game is 61 points"; "When one
    # player reaches his game-hole before the other turns the corner, it is called a
    # lurch, and counts two games" - the corner at 30, "the extreme right of the
    # board". (121 is the default; the texts' 61 is the option, docs/cribbage.md.)
    for loser, games, name in ((30, 2, "lurch"), (31, 1, "game")):
        game = CribbageGame(CribbageRules("six-card", game_to=61))
        game.apply(SetDealer(0))
        _score_to(game, 0, loser)
        _score_to(game, 1, 61)
        assert (game.state.result, game.state.games_won) == (name, [0, games])


# Undo, corrections, JSON ----------------------------------------------------------------


def test_a_misread_card_is_corrected_and_every_score_follows():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    play(game, "1:10H 0:6C")  # the camera read 6C; it was 5C
    assert game.scores == (0, 0)
    index = len(game.events) - 1
    out = game.apply(Correct(index, C("6C"), C("5C")))
    assert game.scores == (2, 0) and game.count == 15
    assert "recounted" in out.notes[0]
    game.apply(Play(1, C("5D")))  # a pair on the corrected five
    assert game.scores == (2, 2)
    game.undo()
    game.undo()  # the correction itself
    assert game.scores == (0, 0) and game.count == 16


def test_a_bad_correction_raises_and_changes_nothing():
    game = CribbageGame()
    new_deal(game, "KC", dealer=0)
    play(game, "1:10H")
    before = game.to_json()
    with pytest.raises(InvalidEventError, match="does not name 9S"):
        game.apply(Correct(len(game.events) - 1, C("9S"), C("5C")))
    with pytest.raises(InvalidEventError, match="no event 99"):
        game.apply(Correct(99, C("10H"), C("5C")))
    assert game.to_json() == before


def test_malformed_events_raise_and_change_nothing():
    game = CribbageGame()
    with pytest.raises(InvalidEventError, match="seat 2 is not a seat"):
        game.apply(Play(2, C("5H")))
    with pytest.raises(InvalidEventError, match="3 cards for 2 players"):
        game.apply(Cut(cards("5H 6H 7H")))
    assert game.events == ()


def test_undo_of_nothing_raises():
    with pytest.raises(IndexError):
        CribbageGame().undo()


def test_json_round_trip_rebuilds_the_state_exactly():
    game = CribbageGame(CribbageRules("five-card"))
    new_deal(game, "JC", dealer=0)
    play(game, "1:10H 0:9S 1:9D 0:2H")
    data = json.loads(json.dumps(game.to_json()))
    assert data["state"]["scores"] == [2, 3 + 2]  # his heels; three for last and a pair
    rebuilt = CribbageGame.from_json(data)
    assert rebuilt.state == game.state and rebuilt.events == game.events


def test_event_json_errors_name_the_field():
    with pytest.raises(InvalidEventError, match="unknown event type 'dance'"):
        event_from_json({"type": "dance"})
    with pytest.raises(InvalidEventError, match=r"field 'card': invalid card 'ZZ'"):
        event_from_json({"type": "play", "seat": 0, "card": "ZZ"})
    with pytest.raises(InvalidEventError, match="unknown field"):
        event_from_json({"type": "go", "seat": 0, "card": "5H"})
    with pytest.raises(InvalidEventError, match="must be an integer"):
        event_from_json({"type": "go", "seat": True})
    with pytest.raises(InvalidEventError, match=r"cards\[1\]"):
        event_from_json({"type": "show", "seat": 0, "cards": ["5H", 7]})


def test_from_json_names_the_bad_event():
    game = CribbageGame()
    data = game.to_json()
    data["events"] = [{"type": "set_dealer", "seat": 0}, {"type": "deal", "dealer": "x"}]
    with pytest.raises(InvalidEventError, match="event 1: deal: field 'dealer'"):
        CribbageGame.from_json(data)


def test_verdicts_serialise_with_their_evidence():
    game = CribbageGame()
    new_deal(game, "2D", dealer=0)
    play(game, "1:KH 0:6S 1:7D 0:9C")
    (verdict,) = game.to_json()["state"]["verdicts"]
    assert verdict == {
        "kind": "over-thirty-one",
        "event": 8,
        "seat": 0,
        "cards": ["9C"],
        "detail": "count 23 + 9C = 32, past thirty-one",
    }
    assert isinstance(game.verdicts[0], v.OverThirtyOne)


def test_a_penalty_of_more_than_a_whole_game_is_refused():
    # the rule texts' penalties are two points (seed 000, Irregularities); a
    # penalty of 1,000,000 typed by an operator ended the match
    game = CribbageGame(CribbageRules(game_to=61))
    with pytest.raises(InvalidEventError, match=r"1000000 points is more than a whole game \(61\)"):
        game.apply(Penalty(0, 1_000_000, "a slip"))
    assert game.state.scores == [0, 0]
    game.apply(Penalty(0, 61, "the most a penalty may be"))
