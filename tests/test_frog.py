"""Frog (seed 002): the table, the bidding, the widow, must-trump, the counters.
Every expected number was worked out by hand from the passage quoted beside it."""

from __future__ import annotations

import json
import random

import pytest

from rules.cards import Card, parse_cards
from rules.errors import InvalidEventError, InvalidOptionError
from rules.events import Correct, Play
from rules.frog.autoplay import random_deal
from rules.frog.game import (
    Deal,
    Discard,
    FrogGame,
    FrogRules,
    NameTrump,
    Offer,
    Pass,
    WidowShown,
    settle,
)

C = Card.parse

# A deal worked on paper: seat 0 holds nine hearts and two aces, seat 1 spades and
# diamonds, seat 2 clubs and diamonds; the widow is worth nothing.
HAND0 = parse_cards("AH 10H KH QH JH 9H 8H 7H 6H AS AC")
HAND1 = parse_cards("AD 10D KD 6S 7S 8S 9S JS QS KS 10S")
HAND2 = parse_cards("QD JD 9D 6C 7C 8C 9C JC QC KC 10C")
WIDOW = parse_cards("8D 7D 6D")


def kinds(game: FrogGame) -> list[str]:
    return [v.kind for v in game.verdicts]


def new_deal(game: FrogGame, known: bool = True) -> None:
    hands = (tuple(HAND0), tuple(HAND1), tuple(HAND2)) if known else None
    game.apply(Deal(dealer=2, hands=hands, widow=tuple(WIDOW) if known else ()))


def test_the_counters_per_point_over_or_under_60():
    # "For every point the single player gets over 60 he must be paid a counter by
    # each of the others who held cards."
    assert settle("frog", 70, 1, (1, 2, 3), 4) == [0, 20, -10, -10]
    # "if he does not get 60, he must pay each of the others at the table,
    # including those who held no cards ... a counter for every point his
    # adversaries get over 60" (they have 70: 10 each).
    assert settle("frog", 50, 1, (1, 2, 3), 4) == [10, -30, 10, 10]
    # "two counters in Chico"; "four counters" in a Grand.
    assert settle("chico", 65, 0, (0, 1, 2), 3) == [20, -10, -10]
    assert settle("grand", 58, 0, (0, 1, 2), 5) == [-32, 8, 8, 8, 8]
    assert settle("grand", 60, 0, (0, 1, 2), 3) == [0, 0, 0]


def play_out(game: FrogGame) -> None:
    """Seat 0 leads its hearts, then AS and AC, and takes every trick."""
    ones = parse_cards("AD 10D KD 6S 7S 8S 9S JS QS KS 10S")
    twos = parse_cards("QD JD 9D 6C 7C 8C 9C JC QC KC 10C")
    for lead, one, two in zip(HAND0, ones, twos, strict=True):
        for e in (Play(0, lead), Play(1, one), Play(2, two)):
            game.apply(e)


def test_a_grand_taking_every_trick_is_paid_240_by_each_adversary():
    game = FrogGame()
    new_deal(game)
    # "Grand outbids Chico, and is the highest bid possible": the bidding ends.
    game.apply(Offer(0, "grand"))
    assert game.turn == 0 and game.deal is not None and game.deal.trump == "H"
    play_out(game)
    assert game.verdicts == ()
    r = game.results[-1]
    # 120 points, 60 over, four counters a point, from each of the two: 240 each.
    assert (r.game, r.declarer, r.points) == ("grand", 0, 120)
    assert game.totals == (480, -240, -240)


def test_the_bidding_frog_chico_grand_in_turn_from_the_dealers_left():
    game = FrogGame()
    new_deal(game, known=False)
    assert game.turn == 0  # "beginning on the dealer's left"
    out = game.apply(Offer(1, "frog"))
    assert [v.kind for v in out.verdicts] == ["offer-out-of-turn"]
    game.apply(Offer(0, "frog"))
    out = game.apply(Offer(1, "frog"))  # "the highest offer must be accepted"
    assert [v.kind for v in out.verdicts] == ["offer-too-low"]
    game.apply(Offer(1, "chico"))  # "Chico outbids Frog"
    game.apply(Pass(2))
    # Back to seat 0, who was overbid: he may raise ("unless he is overbid").
    assert game.turn == 0
    game.apply(Pass(0))
    assert game.deal is not None and game.deal.declarer == 1 and game.deal.phase == "naming"
    out = game.apply(NameTrump(1, "H"))  # "any suit for the trump except hearts"
    assert [v.kind for v in out.verdicts] == ["illegal-trump"]


def test_a_player_cannot_raise_his_own_offer():
    game = FrogGame()
    new_deal(game, known=False)
    game.apply(Offer(0, "frog"))
    out = game.apply(Offer(0, "chico"))
    assert [v.kind for v in out.verdicts] == ["offer-too-low"]


def test_nobody_offers_the_deal_passes():
    game = FrogGame()
    new_deal(game, known=False)
    for seat in (0, 1, 2):
        game.apply(Pass(seat))
    assert game.results[-1].game is None and game.state.next_dealer == 0


def test_frog_the_widow_turned_taken_and_three_laid_away_count_for_him():
    game = FrogGame()
    new_deal(game)
    for e in (Offer(0, "frog"), Pass(1), Pass(2), WidowShown(0, tuple(WIDOW))):
        game.apply(e)
    out = game.apply(Discard(0, tuple(parse_cards("8D 7D 6D"))))
    assert out.verdicts == () and game.deal is not None and game.deal.phase == "play"
    assert game.turn == 0  # "The player on the dealer's left always leads"
    play_out(game)
    # All 120 points (the three laid away are worth nothing): 60 over, one counter
    # a point in Frog, from each of the two.
    assert game.results[-1].points == 120 and game.totals == (120, -60, -60)


def test_chico_and_grand_do_not_touch_the_widow():
    game = FrogGame()
    new_deal(game)
    game.apply(Offer(0, "grand"))
    out = game.apply(Discard(0, tuple(parse_cards("8D 7D 6D"))))
    assert [v.kind for v in out.verdicts] == ["widow-touched"]


def test_must_trump_when_void_the_revoke_proved_later():
    game = FrogGame()
    new_deal(game, known=False)
    game.apply(Offer(0, "grand"))
    # Trick 1: seat 1 follows; seat 2, without spades, plays a club though it must
    # trump if it can (a heart, later seen).
    for e in (Play(0, C("AS")), Play(1, C("KS")), Play(2, C("QC"))):
        game.apply(e)
    for e in (Play(0, C("AH")), Play(1, C("6S")), Play(2, C("7H"))):
        game.apply(e)
    assert [(v.kind, v.seat, v.trick) for v in game.verdicts] == [("revoke", 2, 1)]
    assert [str(c) for c in game.verdicts[0].cards] == ["QC", "7H"]


def test_four_and_five_at_the_table():
    # "If four play, the dealer takes no cards. If five play, he gives cards to the
    # two on his left and one on his right."
    four = FrogGame(FrogRules(players=4))
    four.apply(Deal(dealer=0))
    assert four.deal is not None and four.deal.seats == (1, 2, 3)
    five = FrogGame(FrogRules(players=5))
    five.apply(Deal(dealer=0))
    assert five.deal is not None and five.deal.seats == (1, 2, 4)
    with pytest.raises(InvalidOptionError):
        FrogRules(players=6)


def test_malformed_events_raise():
    game = FrogGame()
    with pytest.raises(InvalidEventError, match="not a card of the Frog pack"):
        game.apply(Play(0, C("5H")))
    with pytest.raises(InvalidEventError, match="not frog, chico or grand"):
        game.apply(Offer(0, "misere"))


def test_undo_correct_and_replay():
    deal = random_deal(random.Random(11))
    game = FrogGame()
    for e in deal.events:
        game.apply(e)
    text = json.dumps(game.to_json())
    assert json.dumps(FrogGame.from_json(json.loads(text)).to_json()) == text
    totals = game.totals
    game.undo()
    assert game.results == ()
    game.apply(deal.events[-1])
    assert game.totals == totals
    last = deal.events[-1]
    assert isinstance(last, Play)
    wrong = next(c for c in parse_cards("6S 6C 6D") if c != last.card)
    game2 = FrogGame()
    for e in deal.events[:-1]:
        game2.apply(e)
    game2.apply(Play(last.seat, wrong))
    game2.apply(Correct(len(deal.events) - 1, wrong, last.card))
    assert game2.totals == totals


def check(seed: int) -> None:
    reveal = seed % 2 == 0
    deal = random_deal(random.Random(seed), reveal=reveal)
    game = FrogGame()
    for e in deal.events:
        game.apply(e)
    assert game.verdicts == (), seed
    assert game.results[-1].points is not None and sum(game.totals) == 0
    if deal.chances:
        k = random.Random(~seed).randrange(deal.chances)
        seeded = random_deal(random.Random(seed), reveal=reveal, revoke_at=k)
        game = FrogGame()
        for e in seeded.events:
            game.apply(e)
        assert seeded.revoke is not None
        assert [(v.kind, v.seat, v.trick) for v in game.verdicts] == [("revoke", *seeded.revoke)]


def test_generated_deals():
    for seed in range(300):
        check(seed)


@pytest.mark.slow
def test_ten_thousand_generated_deals():
    for seed in range(300, 10_300):
        check(seed)


# The plain-text record (docs/records.md) --------------------------------------------------

GRAND_SWEEP = (
    (
        "# The Grand of test_a_grand_taking_every_trick_is_paid_240_by_each_adversary.\n"
        "kiebitz-record 1 frog players=3\n"
        "deal dealer=2 hands=AH.10H.KH.QH.JH.9H.8H.7H.6H.AS.AC|AD.10D.KD.6S.7S.8S.9S.JS.QS.KS.10S"
        "|QD.JD.9D.6C.7C.8C.9C.JC.QC.KC.10C widow=8D.7D.6D\n"
    )
    + """\
offer seat=0 game=grand
play seat=0 card=AH
play seat=1 card=AD
play seat=2 card=QD
end
"""
)


def test_a_record_written_by_hand_replays():
    game = FrogGame.from_record(GRAND_SWEEP)
    assert game.deal is not None and game.deal.play is not None
    assert game.deal.play.tricks[0].winner == 0 and game.deal.play.points[0] == 11 + 11 + 3


def test_records_round_trip_and_bad_lines_are_named():
    deal = random_deal(random.Random(8))
    game = FrogGame()
    for e in deal.events:
        game.apply(e)
    again = FrogGame.from_record(game.to_record())
    assert again.events == game.events and again.totals == game.totals
    bad = GRAND_SWEEP.replace("card=QD", "card=5D")
    with pytest.raises(InvalidEventError, match="event 4: play: 5D is not a card"):
        FrogGame.from_record(bad)
    with pytest.raises(InvalidEventError, match="no 'end'"):
        FrogGame.from_record(GRAND_SWEEP.replace("end\n", ""))
