"""All Fours (seed 004 §91 and the standard laws): the cut, the turned jack,
begging, running the cards, High, Low, Jack and Game, revokes, game to 10 or 7.
Every expected number was worked out by hand."""

from __future__ import annotations

import json
import random

import pytest

from rules.allfours.autoplay import random_deal
from rules.allfours.game import (
    AllFoursGame,
    AllFoursRules,
    Beg,
    Cut,
    Deal,
    Discard,
    Give,
    Run,
    Stand,
)
from rules.cards import Card, parse_cards
from rules.errors import InvalidEventError, InvalidOptionError
from rules.events import Play

C = Card.parse

# A hand worked on paper: hearts trumps, seat 1 deals, seat 0 is the eldest hand.
SEAT0 = parse_cards("AH 2H 10S 9S 8S 7S")
SEAT1 = parse_cards("JH 3H KC QC 4D 5D")
# Trick by trick: the eldest's ace of trumps, then his deuce to the jack; then
# seat 1 leads clubs and diamonds and seat 0, void of both, throws spades.
PLAY = "0:AH 1:3H 0:2H 1:JH 1:KC 0:7S 1:QC 0:8S 1:4D 0:9S 1:5D 0:10S"


def run(game: AllFoursGame, moves: str) -> list:
    out = []
    for move in moves.split():
        seat, card = move.split(":")
        out.append(game.apply(Play(int(seat), C(card))))
    return out


def deal(game: AllFoursGame, turned: str = "5H") -> None:
    game.apply(Deal(dealer=1, hands=(tuple(SEAT0), tuple(SEAT1)), turned=C(turned)))


def test_the_highest_card_cut_deals_first():
    game = AllFoursGame()
    game.apply(Cut(tuple(parse_cards("KS KD"))))  # a tie: cut again
    assert game.phase == "cut"
    game.apply(Cut(tuple(parse_cards("QS AD"))))  # "The cards rank the same as at whist"
    assert game.state.dealer == 1 and game.phase == "deal"


def test_high_low_jack_and_game():
    game = AllFoursGame()
    deal(game)
    game.apply(Stand(0))
    outs = run(game, PLAY)
    assert game.verdicts == ()
    scored = [(s["for"], s["seat"]) for o in outs for s in o.scored]
    # High: AH, seat 0's. Low: the lowest trump in play is 2H (the turned 5H is not
    # in play), seat 0's. Jack: won by seat 1 in trick 2. Game: seat 0 took 4 (AH);
    # seat 1 took 1 + 3 + 2 + 0 + 10 = 16.
    assert scored == [("high", 0), ("low", 0), ("jack", 1), ("game", 1)]
    assert game.scores == (2, 2)


def test_a_jack_turned_scores_the_dealer_one():
    # "turned up for the trump by the dealer, who, if it prove a knave, scores one point"
    game = AllFoursGame()
    out = game.apply(Deal(dealer=1, turned=C("JD")))
    assert [(s["for"], s["seat"]) for s in out.scored] == [("jack turned", 1)]
    assert game.scores == (0, 1)


def test_begging_the_dealer_gives_one_or_runs_the_cards():
    game = AllFoursGame()
    deal(game)
    game.apply(Beg(0))
    game.apply(Give(1))  # "take one"
    assert game.scores == (1, 0) and game.phase == "play"

    game = AllFoursGame()
    game.apply(Deal(dealer=1, turned=C("5H")))
    game.apply(Beg(0))
    out = game.apply(Run(1, C("9H")))  # the suit begged away: run again
    assert "run again" in out.notes[0] and game.phase == "giving"
    out = game.apply(Run(1, C("JS")))  # a new suit; a jack of it scores the dealer
    assert game.scores == (0, 1) and game.phase == "discard"
    game.apply(Discard(0, count=6))
    game.apply(Discard(1, count=6))
    assert game.phase == "play" and game.turn == 0


def test_the_pack_run_out_the_same_dealer_deals_again():
    game = AllFoursGame()
    game.apply(Deal(dealer=1, turned=C("5H")))
    game.apply(Beg(0))
    game.apply(Run(1, None))
    out = game.apply(Deal())
    assert out.verdicts == () and game.state.dealer == 1


def test_only_the_eldest_begs_and_only_the_dealer_gives():
    game = AllFoursGame()
    deal(game)
    assert [v.kind for v in game.apply(Beg(1)).verdicts] == ["beg-out-of-turn"]
    game.apply(Beg(0))
    assert [v.kind for v in game.apply(Give(0)).verdicts] == ["beg-out-of-turn"]


def test_a_revoke_proved_later_scores_the_other_side_one():
    game = AllFoursGame()
    game.apply(Deal(dealer=1, turned=C("5H")))  # the hands unseen
    game.apply(Stand(0))
    # Trick 1: seat 1 neither follows hearts nor trumps (KC); trick 2 he plays JH.
    outs = run(game, "0:AH 1:KC 0:2H 1:JH")
    assert [(v.kind, v.seat, v.trick) for v in game.verdicts] == [("revoke", 1, 1)]
    assert [str(c) for c in game.verdicts[0].cards] == ["KC", "JH"]
    assert [(s["for"], s["seat"], s["points"]) for s in outs[-1].scored] == [("revoke", 0, 1)]


def test_trumping_while_holding_the_suit_led_is_allowed():
    game = AllFoursGame()
    game.apply(Deal(dealer=1, hands=(tuple(SEAT0), tuple(SEAT1)), turned=C("5D")))
    game.apply(Stand(0))
    run(game, "0:AH 1:4D")  # seat 1 holds hearts but trumps with a diamond
    assert game.verdicts == ()


def test_the_first_to_the_game_wins_at_once():
    game = AllFoursGame(AllFoursRules(game_to=7))
    from rules.events import Penalty

    game.apply(Penalty(0, 6, "earlier hands"))
    deal(game)
    game.apply(Stand(0))
    outs = run(game, PLAY)
    # High takes seat 0 to 7: the game is over before Low, Jack and Game are counted.
    assert [(s["for"], s["score"]) for o in outs for s in o.scored] == [("high", 7)]
    assert game.state.winner == 0 and game.phase == "over"


def test_the_first_to_score_ten_points_wins():
    # Seed 004 §91: "the first to score ten points, wins" (the default; 7 is the
    # option). A dealer at nine turning a knave, "who, if it prove a knave, scores
    # one point", wins at the turn.
    assert AllFoursRules().game_to == 10
    from rules.events import Penalty

    game = AllFoursGame()
    game.apply(Penalty(1, 9, "earlier hands"))
    assert game.phase != "over"
    out = game.apply(Deal(dealer=1, turned=C("JS")))
    assert [(s["for"], s["seat"], s["score"]) for s in out.scored] == [("jack turned", 1, 10)]
    assert game.state.winner == 1 and game.phase == "over"


def test_six_cards_each_and_the_thirteenth_turned():
    # Seed 004 §91: "six of which are to be dealt to each player, three at a time;
    # and the next card, the thirteenth, is turned up for the trump". High, Low,
    # Jack and Game are "each making a point" (test_high_low_jack_and_game).
    game = AllFoursGame()
    game.apply(Deal(dealer=1, hands=(tuple(SEAT0), tuple(SEAT1[:5])), turned=C("5H")))
    assert [(v.kind, v.seat) for v in game.verdicts] == [("wrong-number-of-cards", 1)]
    assert game.state.deal is not None and game.state.deal.trump == "H"


def test_four_players_two_partnerships():
    game = AllFoursGame(AllFoursRules(players=4))
    game.apply(Deal(dealer=3, turned=C("5C")))
    game.apply(Stand(0))
    run(game, "0:AC 1:2C 2:3C 3:4C")
    assert game.state.deal is not None and game.state.deal.play is not None
    assert game.state.deal.play.tricks[0].winner == 0


def test_options_and_malformed_events():
    with pytest.raises(InvalidOptionError):
        AllFoursRules(game_to=21)
    with pytest.raises(InvalidOptionError):
        AllFoursRules(players=3)
    with pytest.raises(InvalidEventError, match="3 hands for 2 players"):
        AllFoursGame().apply(Deal(hands=((), (), ())))


def test_undo_and_replay():
    deal_ = random_deal(random.Random(3))
    game = AllFoursGame()
    for e in deal_.events:
        game.apply(e)
    text = json.dumps(game.to_json())
    assert json.dumps(AllFoursGame.from_json(json.loads(text)).to_json()) == text
    scores = game.scores
    last = game.undo()
    game.apply(last)
    assert game.scores == scores


def check(seed: int) -> None:
    players = 2 if seed % 3 else 4
    reveal = seed % 2 == 0
    deal_ = random_deal(random.Random(seed), players=players, reveal=reveal)
    game = AllFoursGame(AllFoursRules(players=players))
    for e in deal_.events:
        game.apply(e)
    assert game.verdicts == (), seed
    if deal_.chances:
        k = random.Random(~seed).randrange(deal_.chances)
        seeded = random_deal(random.Random(seed), players=players, reveal=reveal, revoke_at=k)
        game = AllFoursGame(AllFoursRules(players=players))
        for e in seeded.events:
            game.apply(e)
        assert seeded.revoke is not None
        assert [(v.kind, v.seat, v.trick) for v in game.verdicts] == [("revoke", *seeded.revoke)]


def test_generated_deals():
    for seed in range(400):
        check(seed)


@pytest.mark.slow
def test_ten_thousand_generated_deals():
    for seed in range(400, 10_400):
        check(seed)


def test_the_plain_text_record_round_trips():
    game = AllFoursGame()
    deal(game)
    game.apply(Stand(0))
    run(game, PLAY)
    text = game.to_record()
    assert (
        text.splitlines()[1] == "deal dealer=1 hands=AH.2H.10S.9S.8S.7S|JH.3H.KC.QC.4D.5D turned=5H"
    )
    again = AllFoursGame.from_record(text)
    assert again.scores == (2, 2) and again.events == game.events
