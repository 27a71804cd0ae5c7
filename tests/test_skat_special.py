"""Skat at the table: the optional games of Law 1 (Uno, Duo, Revolution and its
exchange of cards) and claims checked against the cards (Laws 49-51).

Law 1 gives Uno, Duo and Revolution only their values; how they are played is the
reading docs/skat.md records: Uno is won by taking exactly one trick, Duo two,
and in a Revolution (an open nullo) the adversaries exchange cards before the
first card, each giving as many as he receives. Every expected number below was
worked out by hand from the law named beside it."""

from __future__ import annotations

import json
import random

import pytest
from skat_helpers import play

from rules.cards import SKAT_DECK, Card, parse_cards
from rules.skat.declaration import contract_for
from rules.skat.events import (
    Bid,
    Claim,
    Deal,
    Declare,
    Discard,
    Exchange,
    Hold,
    Pass,
    PickUp,
    Play,
    event_from_json,
    event_to_json,
)
from rules.skat.game import SkatGame
from rules.skat.rulesets import SkatRules
from rules.tricks.game import play_out

C = Card.parse
OPTIONAL = SkatRules("foster1906", uno_duo=True, revolution=True)

# Record k2 of tests/data/skat/iss_records.txt, by position: Vorhand holds the jack
# of clubs and eight clubs; Mittelhand the other jacks, spades and hearts.
VH = parse_cards("JC AC 10C KC QC 9C 8C 7C 7S 8S")
MH = parse_cards("JS JH JD AS 10S KS QS 9S AH 10H")
HH = parse_cards("KH QH 9H 8H 7H AD 10D KD QD 9D")
SKAT = parse_cards("8D 7D")
# Record k3's deal: Mittelhand holds the lowest cards of every suit.
K3_VH = parse_cards("AC KC QC JC AS KS QS JS AH KH")
K3_MH = parse_cards("7C 8C 9C 7S 8S 9S 7H 8H 7D 8D")
K3_HH = parse_cards("QH JH 10H 9H AD KD QD JD 10D 9D")
K3_SKAT = parse_cards("10C 10S")


def kinds(outcomes) -> list[str]:
    return [v.kind for out in outcomes for v in out.verdicts]


def k3_deal(game: SkatGame, *, known: bool = True) -> None:
    hands = (tuple(K3_VH), tuple(K3_MH), tuple(K3_HH)) if known else None
    game.apply(Deal(dealer=2, hands=hands, skat=tuple(K3_SKAT) if known else ()))


def k3_mittelhand_hand(game: SkatGame, kind: str) -> None:
    """Record k3's cards; Mittelhand bids 20 and declares ``kind`` from the hand."""
    k3_deal(game)
    for e in (Bid(1, 20), Pass(0), Pass(2), Declare(1, kind, hand=True)):
        game.apply(e)


def k2_deal(game: SkatGame, *, known: bool = True) -> None:
    hands = (tuple(VH), tuple(MH), tuple(HH)) if known else None
    game.apply(Deal(dealer=2, hands=hands, skat=tuple(SKAT) if known else ()))


def grand_hand_by_vorhand(game: SkatGame, *, known: bool = True) -> None:
    k2_deal(game, known=known)
    for e in (Pass(1), Pass(2), Bid(0, 18), Declare(0, "grand", hand=True)):
        game.apply(e)


# Uno and Duo ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game_name", "k"), [("uno", 1), ("duo", 2)])
def test_uno_and_duo_played_out_are_won_by_exactly_their_tricks(game_name, k):
    """Random deals played out with legal cards: won exactly when the player took k
    tricks, worth 20 (open 40); lost as soon as he takes trick k + 1."""
    seen = {"won": 0, "lost early": 0, "lost short": 0, "lost at the end": 0}
    for seed in range(60):
        rng = random.Random(seed)
        pack = list(SKAT_DECK)
        rng.shuffle(pack)
        hands = {0: pack[0:10], 1: pack[10:20], 2: pack[20:30]}
        me = rng.randrange(3)
        ouvert = seed % 3 == 0
        events = [
            Deal(dealer=2, hands=tuple(tuple(hands[s]) for s in range(3)), skat=tuple(pack[30:]))
        ]
        bid = 40 if ouvert else 20
        events += {
            0: [Bid(1, bid), Hold(0), Pass(1), Pass(2)],
            1: [Bid(1, bid), Pass(0), Pass(2)],
            2: [Pass(1), Bid(2, bid), Pass(0)],
        }[me]
        shown = tuple(hands[me]) if ouvert else ()
        events.append(Declare(me, game_name, hand=True, ouvert=ouvert, shown=shown))
        play_out(rng, contract_for(game_name), hands, (0, 1, 2), 10, events, None)
        game = SkatGame(OPTIONAL)
        outcomes = [game.apply(e) for e in events]
        assert kinds(outcomes) == [], seed
        taken = game.deal.play.trick_count[me]
        result = game.results[-1]
        assert result.won is (taken == k) and result.tricks == taken
        assert result.value == (40 if ouvert else 20) * (1 if taken == k else -1)
        assert game.pad[me] == result.value
        early = [out for out in outcomes[:-1] if out.result is not None]
        mine = [t.number for t in game.deal.play.tricks if t.winner == me]
        if taken > k and mine[k] < 10:
            # Scored at the trick that gave him trick k + 1, and again at the end.
            ordinal = ("second", "third")[k - 1]
            assert len(early) == 1 and early[0].result.won is False
            assert (
                f"takes his {ordinal} trick; the {game_name.capitalize()} is lost"
                in (early[0].notes[0])
            )
            seen["lost early"] += 1
        else:
            assert early == []
            seen["won" if taken == k else "lost short" if taken < k else "lost at the end"] += 1
    assert seen["won"] and seen["lost early"] and seen["lost short"], seen


def test_an_uno_lost_by_taking_no_trick_costs_20_and_a_turned_card_is_no_uno():
    game = SkatGame(OPTIONAL)
    k3_mittelhand_hand(game, "uno")
    # Record k3's play: Mittelhand holds the lowest card of every suit, takes none.
    play(
        game,
        "0:AC 1:7C 2:9D 0:KC 1:8C 2:10D 0:QC 1:9C 2:JD 0:JC 1:9S 2:QD 0:AS 1:7S 2:KD "
        "0:KS 1:8S 2:AD 0:QS 1:7D 2:9H 0:JS 1:8D 2:10H 0:AH 1:7H 2:JH 0:KH 1:8H 2:QH",
    )
    r = game.results[-1]
    assert game.verdicts == ()
    assert (r.won, r.tricks, r.value, r.name) == (False, 0, -20, "uno")
    game = SkatGame(OPTIONAL)
    k3_deal(game)
    for e in (Bid(1, 20), Pass(0), Pass(2)):
        game.apply(e)
    out = game.apply(Declare(1, "uno", turned=C("10C")))
    assert [v.kind for v in out.verdicts] == ["illegal-declaration"]
    assert "Laws 29-31" in out.verdicts[0].detail


# Revolution: the adversaries' exchange -----------------------------------------------------


def revolution(*, known: bool = True, shown: bool = True) -> SkatGame:
    """Record k3's deal, Mittelhand plays a Revolution (Law 1: "revolution, if
    played, 60"), his hand laid open (Law 5)."""
    game = SkatGame(OPTIONAL)
    k3_deal(game, known=known)
    for e in (Bid(1, 60), Pass(0), Pass(2)):
        game.apply(e)
    game.apply(Declare(1, "revolution", hand=True, shown=tuple(K3_MH) if shown else ()))
    return game


def test_a_revolution_exchange_moves_the_cards_between_the_adversaries():
    game = revolution()
    assert game.apply(Exchange(0, (C("AC"), C("KC")))).verdicts == ()
    assert game.apply(Exchange(2, (C("AD"), C("KD")))).verdicts == ()
    play_ = game.deal.play
    assert C("AC") in play_.known(2) and C("AD") in play_.known(0)
    assert C("AC") not in play_.known(0) and len(play_.known(0)) == len(play_.known(2)) == 10
    # Vorhand leads the ace of diamonds he was given; Hinterhand follows: no verdict,
    # the exchanged cards are where they went. Hinterhand later plays the ace of clubs.
    out = play(game, "0:AD 1:7D 2:9D 0:QC 1:7C 2:AC")
    assert kinds(out) == []
    assert game.deal.forced == []


def test_a_revolution_exchange_that_leaves_a_wrong_number_of_cards_wins_the_game_law_46():
    game = revolution()
    game.apply(Exchange(0, (C("AC"), C("KC"))))
    game.apply(Exchange(2, (C("AD"),)))
    out = game.apply(Play(0, C("AD")))  # at the first card the exchange is checked
    assert [(v.kind, v.seat, v.trick) for v in out.verdicts] == [("illegal-exchange", 0, 1)]
    assert [str(c) for c in out.verdicts[0].cards] == ["AC", "KC", "AD"]
    assert "holds 9, seat 2 11 (Law 46)" in out.verdicts[0].detail
    # Law 46: "If it is one of his adversaries, the player's game is won."
    assert game.deal.forced[0][2:] == (True, "illegal-exchange (Law 46)")


@pytest.mark.parametrize(
    ("seat", "cards", "why"),
    [
        (1, "7C", "the player's hand is laid open and stays his"),
        (0, "7C", "7C is in the player's hand"),
        (0, "AD", "AD is in seat 2's hand, not seat 0's"),
        (0, "10C", "10C is in the skat"),
    ],
)
def test_an_exchange_of_cards_not_the_givers_is_illegal(seat, cards, why):
    game = revolution()
    out = game.apply(Exchange(seat, tuple(parse_cards(cards))))
    assert [v.kind for v in out.verdicts] == ["illegal-exchange"]
    assert why in out.verdicts[0].detail


def test_no_exchange_after_the_first_card_nor_outside_a_revolution():
    game = revolution()
    play(game, "0:AC")
    out = game.apply(Exchange(2, (C("AD"),)))
    assert [v.kind for v in out.verdicts] == ["illegal-exchange"]
    assert "after the first card" in out.verdicts[0].detail
    game = SkatGame()
    grand_hand_by_vorhand(game)
    out = game.apply(Exchange(1, (C("AS"),)))
    assert [v.kind for v in out.verdicts] == ["illegal-exchange"]
    assert "only a Revolution" in out.verdicts[0].detail


def test_an_exchange_seen_without_the_deal_places_the_cards_and_round_trips():
    game = revolution(known=False, shown=False)
    assert game.apply(Exchange(0, (C("AC"),))).verdicts == ()
    assert game.deal.play.locate(C("AC")) == ("hand", 2)
    game.apply(Exchange(2, (C("AD"),)))
    data = event_to_json(Exchange(0, (C("AC"),)))
    assert data == {"type": "exchange", "seat": 0, "cards": ["AC"]}
    assert event_from_json(data) == Exchange(0, (C("AC"),))
    again = SkatGame.from_json(json.loads(json.dumps(game.to_json())))
    assert again.summary() == game.summary()
    game.undo()
    game.undo()
    assert game.deal.play.locate(C("AC")) is None and game.deal.exchange == {0: [], 2: []}


# Claims against the cards (Laws 49-51) -----------------------------------------------------


def test_law_49_the_players_claim_of_the_rest_beaten_by_a_defence_loses():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D")
    out = game.apply(Claim(0, "rest", tuple(parse_cards("AC 10C KC QC 9C 8C 7C 7S 8S"))))
    (verdict,) = out.verdicts
    assert (verdict.kind, verdict.seat, verdict.trick) == ("claim-mistaken", 0, 2)
    # The evidence is a defence that beats it: Mittelhand trumps the first club.
    assert [str(c) for c in verdict.cards[:2]] == ["AC", "JS"]
    assert "this one beats it: 0:AC 1:JS" in verdict.detail and "(Law 49)" in verdict.detail
    assert out.result is not None and out.result.won is False
    assert out.result.decided_by == "claim-mistaken (Law 49)"


def test_an_adversarys_claim_of_the_rest_that_holds_gives_his_side_every_trick():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D 0:AC 1:JS 2:QD 1:AS 2:KD 0:7S 1:10S 2:10D 0:8S")
    # The player has only clubs left, which nobody else holds: Mittelhand, to lead,
    # takes the rest with his side however the player plays.
    out = game.apply(Claim(1, "rest", tuple(parse_cards("JH KS QS 9S AH 10H"))))
    assert out.verdicts == ()
    r = out.result
    # As record k2 played out: the player took 4 points in one trick, schneider.
    assert (r.won, r.points, r.tricks, r.schneider, r.value) == (False, 4, 1, True, -192)


def test_law_50_an_adversarys_claim_of_the_rest_beaten_wins_the_game_for_the_player():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    # Before a card: Vorhand leads the jack of clubs and takes the first trick.
    out = game.apply(Claim(1, "rest", tuple(MH)))
    (verdict,) = out.verdicts
    assert verdict.kind == "claim-mistaken" and "(Law 50)" in verdict.detail
    assert str(verdict.cards[0]) == "JC"
    assert out.result.won is True and out.result.decided_by == "claim-mistaken (Law 50)"


def test_a_claim_of_61_with_the_other_hands_unseen_holds_wherever_the_cards_lie():
    game = SkatGame()
    game.apply(Deal(dealer=2))  # the camera: no hand known
    for e in (Bid(1, 18), Hold(0), Pass(1), Pass(2), Declare(0, "grand", hand=True)):
        game.apply(e)
    top = tuple(parse_cards("JC JS JH JD AC 10C KC QC AS 10S"))
    out = game.apply(Claim(0, "won", top))
    assert out.verdicts == ()
    assert out.result.won is True and out.result.decided_by == "claim (Law 49)"


def test_a_claim_of_the_rest_beaten_by_some_lie_of_the_unseen_cards_is_mistaken():
    game = SkatGame()
    game.apply(Deal(dealer=2))
    for e in (Bid(1, 18), Hold(0), Pass(1), Pass(2), Declare(0, "grand", hand=True)):
        game.apply(e)
    # The king of spades, not the ten: an adversary may hold the ten of spades.
    out = game.apply(Claim(0, "rest", tuple(parse_cards("JC JS JH JD AC 10C KC QC AS KS"))))
    (verdict,) = out.verdicts
    assert verdict.kind == "claim-mistaken"
    line = verdict.detail.split("this one beats it: ")[1].split(" (Law")[0].split()
    # The adversary holding the ten of spades keeps it for the king.
    assert any(m.endswith(":10S") and not m.startswith("0:") for m in line)


def test_a_nullo_claimed_with_the_lowest_cards_holds_and_a_claim_not_searched_is_counted():
    game = SkatGame(OPTIONAL)
    k3_mittelhand_hand(game, "null")
    out = game.apply(Claim(1, "won", tuple(K3_MH)))
    assert out.verdicts == () and out.result.won is True
    # The same claim where the search may visit one position: the count decides, and
    # a nullo with ten tricks to play is not yet won.
    game = SkatGame(OPTIONAL, claim_budget=1)
    k3_mittelhand_hand(game, "null")
    out = game.apply(Claim(1, "won", tuple(K3_MH)))
    assert "not searched (more than 1 positions)" in out.notes[0]
    assert [v.kind for v in out.verdicts] == ["claim-mistaken"] and out.result.won is False


def test_an_uno_defeated_claim_holds_when_the_player_cannot_take_a_trick():
    game = SkatGame(OPTIONAL)
    k3_mittelhand_hand(game, "uno")
    # Vorhand claims the Uno defeated: Mittelhand's cards are the lowest of every
    # suit, he can take no trick, let alone exactly one.
    out = game.apply(Claim(0, "defeated", tuple(K3_VH)))
    assert out.verdicts == () and out.result.won is False
    assert out.result.decided_by == "claim (Law 50)"
    # And the player's own claim of his Uno is mistaken.
    game = SkatGame(OPTIONAL)
    k3_mittelhand_hand(game, "uno")
    out = game.apply(Claim(1, "won", tuple(K3_MH)))
    assert [v.kind for v in out.verdicts] == ["claim-mistaken"]
    assert "claimed the Uno won against every defence" in out.verdicts[0].detail


@pytest.mark.parametrize(
    ("shown", "said"),
    [
        # Vorhand holds nine after trick 1 (AC 10C KC QC 9C 8C 7C 7S 8S)
        ("AC 10C KC QC 9C 8C 7C 7S", ["laid down 8 cards, should hold 9 (Law 46)"]),
        (
            "AC 10C KC QC 9C 8C 7C 7S 8S JS",
            ["JS is in seat 1's hand", "laid down 10 cards, should hold 9 (Law 46)"],
        ),
        # nine cards, one of them Mittelhand's: it was searched with JS in both hands
        ("AC 10C KC QC 9C 8C 7C 7S JS", ["JS is in seat 1's hand"]),
        (
            "AC 10C KC QC 9C 8C 7C 7S 7S",
            ["7S laid down twice", "laid down 8 cards, should hold 9 (Law 46)"],
        ),
    ],
)
@pytest.mark.parametrize("what", ["won", "rest"])
def test_laws_49_50_a_claim_with_a_hand_not_the_claimants_is_refused(what, shown, said):
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D")
    out = game.apply(Claim(0, what, tuple(parse_cards(shown))))
    # Each fault said; the claim neither searched on those cards nor ruled on
    # (it was a "claim-mistaken" with a line of play, or a result)
    assert [x.detail for x in out.verdicts] == said
    assert out.result is None and game.deal.result is None
    assert out.notes == (
        "the claim is refused: the cards laid down are not the 9 seat 0 holds (Laws 49, 50)",
    )
    # nothing learnt from them: Vorhand's hand is still the one dealt
    assert game.deal.play.known(0) == sorted(VH[1:])
    # the play goes on
    assert play(game, "0:AC")[0].verdicts == ()


def test_a_claim_showing_a_card_not_in_the_hand_laid_open_is_refused():
    game = SkatGame()
    game.apply(Deal(dealer=2))  # the camera: only the open hand is known
    open_hand = tuple(parse_cards("JC JS JH JD AC 10C KC QC AS 10S"))
    for e in (Bid(1, 18), Hold(0), Pass(1), Pass(2)):
        game.apply(e)
    game.apply(Declare(0, "grand", hand=True, ouvert=True, shown=open_hand))
    play(game, "0:JC 1:7D 2:8D")
    # Nine cards, but 9S for the 10S laid open: it was taken without a word and
    # the claim searched on a hand Vorhand does not hold
    shown = tuple(parse_cards("JS JH JD AC 10C KC QC AS 9S"))
    out = game.apply(Claim(0, "rest", shown))
    assert [(x.kind, x.detail) for x in out.verdicts] == [
        ("card-not-in-hand", "9S is not in seat 0's hand")
    ]
    assert out.result is None and "the claim is refused" in out.notes[0]
    # the right nine are taken
    out = game.apply(Claim(0, "rest", (*shown[:-1], Card.parse("10S"))))
    assert out.verdicts == () and out.result is not None and out.result.tricks == 10


# The hot path ----------------------------------------------------------------------------


def test_verdicts_on_the_hot_path_name_the_event_that_raised_them():
    game = SkatGame()
    grand_hand_by_vorhand(game)  # events 0-4
    out = play(game, "0:JC 1:AS")  # Mittelhand holds jacks: a revoke, event 6
    assert [(v.kind, v.event) for v in out[-1].verdicts] == [("revoke", 6)]
    assert game.deal.forced[0][:2] == (1, 6)
    game = SkatGame()
    grand_hand_by_vorhand(game, known=False)
    play(game, "0:JC 1:AS 2:9D 0:AC")  # events 5-8
    out = play(game, "1:JS")  # the jack proves the revoke of trick 1: event 9
    assert [(v.kind, v.trick, v.event) for v in out[-1].verdicts] == [("revoke", 1, 9)]
    # Law 32 at the end of the first trick, on its third card (event 9 here).
    game = SkatGame(SkatRules("foster1906"))
    k2_deal(game)
    for e in (Bid(1, 18), Pass(0), Pass(2)):
        game.apply(e)
    for e in (PickUp(1), Discard(1, count=3), Declare(1, "grand")):
        game.apply(e)
    out = play(game, "0:7S 1:AS 2:AD")
    assert [(v.kind, v.event) for v in out[-1].verdicts] == [("wrong-skat-count", 9)]


@pytest.mark.parametrize("rules", [SkatRules(), OPTIONAL], ids=["isko", "foster1906"])
def test_a_revoke_after_a_nullo_was_lost_decides_nothing(rules):
    """The player takes the first trick: his nullo is lost there. A defender who then
    fails to follow suit (trick 3, shown by his hearts at trick 4) revokes in a game
    already decided: the revoke is said, but it does not win the nullo for the player
    (Law 53 decides a game still open). Before, the earliest forced decision was the
    revoke and the deal was scored again at its end as won."""
    hands = (
        parse_cards("AC KC QC AS KS QS AH KH QH AD"),
        parse_cards("7C 8C 9C 7S 8S 9S 7H 8H 9H 7D"),
        parse_cards("10C JC 10S JS 10H JH 8D 9D 10D JD"),
    )
    game = SkatGame(rules)
    game.apply(Deal(dealer=2, hands=hands, skat=tuple(parse_cards("QD KD"))))
    for e in (Bid(1, 18), Hold(0), Pass(1), Pass(2), Declare(0, "null", hand=True)):
        game.apply(e)
    outcomes = play(
        game,
        "0:AC 1:7C 2:10C 0:AS 1:7S 2:10S 0:AH 1:7H 2:8D 0:KH 1:8H 2:10H 0:QH 1:9H 2:JH "
        "0:KC 1:8C 2:JC 0:QC 1:9C 2:JS 0:KS 1:8S 2:9D 0:QS 1:9S 2:10D 0:AD 1:7D 2:JD",
    )
    assert outcomes[2].result is not None and outcomes[2].result.won is False
    assert [(v.kind, v.seat, v.trick) for v in game.verdicts] == [("revoke", 2, 3)]
    result = game.results[-1]
    assert result.won is False and result.value < 0, result
    assert result.decided_by is None, result
