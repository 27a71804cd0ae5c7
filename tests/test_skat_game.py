"""The Skat referee: seats, deals, the auction, declarations, the play's
irregularities and what they decide, claims, the score pad, undo and replay.
Every expected number was worked out by hand from the law named beside it."""

from __future__ import annotations

import json

import pytest
from skat_helpers import play

from rules.cards import Card, parse_cards
from rules.errors import InvalidEventError, InvalidOptionError
from rules.skat.events import (
    Bid,
    Claim,
    Concede,
    Correct,
    Deal,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    Penalty,
    PickUp,
    Play,
    Re,
    SkatSeen,
    SkatShown,
    event_from_json,
    event_to_json,
)
from rules.skat.game import SkatGame, positions
from rules.skat.rulesets import SkatRules
from rules.skat.values import ramsch_charges

C = Card.parse
FOSTER = SkatRules("foster1906")

# The deal of tests/data/skat/iss_records.txt record k2, by position: Vorhand holds
# the jack of clubs and eight clubs; Mittelhand the other jacks, spades and hearts.
VH = parse_cards("JC AC 10C KC QC 9C 8C 7C 7S 8S")
MH = parse_cards("JS JH JD AS 10S KS QS 9S AH 10H")
HH = parse_cards("KH QH 9H 8H 7H AD 10D KD QD 9D")
SKAT = parse_cards("8D 7D")
# Record k2's play, a grand hand by Vorhand (Mittelhand leads from trick 3 on).
K2_PLAY = (
    "0:JC 1:JD 2:9D 0:AC 1:JS 2:QD 1:AS 2:KD 0:7S 1:10S 2:10D 0:8S 1:AH 2:7H 0:7C "
    "1:10H 2:8H 0:8C 1:JH 2:9H 0:9C 1:KS 2:QH 0:QC 1:QS 2:KH 0:KC 1:9S 2:AD 0:10C"
)


def kinds(game: SkatGame) -> list[str]:
    return [v.kind for v in game.verdicts]


def deal(game: SkatGame, *, known: bool = True, dealer: int | None = 2) -> None:
    hands = (tuple(VH), tuple(MH), tuple(HH)) if known else None
    game.apply(Deal(dealer=dealer, hands=hands, skat=tuple(SKAT) if known else ()))


def grand_hand_by_vorhand(game: SkatGame, *, known: bool = True) -> None:
    deal(game, known=known)
    for e in (Pass(1), Pass(2), Bid(0, 18), Declare(0, "grand", hand=True)):
        game.apply(e)


# Seats and deals -----------------------------------------------------------------------


def test_seats_of_vorhand_mittelhand_hinterhand():
    # Law 15: "When only three play, Hinterhand shall deal the cards."
    assert positions(2, 3) == (0, 1, 2)
    # Law 14: the dealer "gives cards to the two sitting immediately on his left and
    # to the one next him on his right".
    assert positions(0, 4) == (1, 2, 3)
    assert positions(0, 5) == (1, 2, 4)
    assert positions(3, 6) == (4, 5, 2)


def test_the_deal_passes_to_the_left_and_a_wrong_dealer_is_flagged():
    game = SkatGame(FOSTER)
    deal(game, known=False)
    for e in (Bid(1, 18), Pass(0), Pass(2), Declare(1, "grand", hand=True), Concede(1)):
        game.apply(e)
    assert game.phase == "deal"
    pad = game.pad
    # Law 16: "The deal passes in regular order to the left": seat 0 deals next.
    out = game.apply(Deal(dealer=1))
    assert [(v.kind, v.seat) for v in out.verdicts] == [("dealt-out-of-turn", 1)]
    assert game.pad[1] == pad[1] - 10  # Law 20: "may be penalized 10 points"
    # "the next deal must be by the player who should have dealt"
    assert game.state.next_dealer == 0


def test_a_new_deal_before_the_play_is_over_is_by_the_same_dealer():
    game = SkatGame(FOSTER)
    deal(game, known=False)
    for e in (Pass(1), Pass(2), Pass(0)):  # Ramsch (Law 37), abandoned
        game.apply(e)
    out = game.apply(Deal(dealer=2))  # Laws 19-23: "the same dealer must deal again"
    assert out.verdicts == () and "same dealer" in out.notes[0]


def test_a_misdeal_charges_the_dealer_10_and_he_deals_again():
    game = SkatGame(FOSTER)
    out = game.apply(Deal(dealer=2, hands=(tuple(VH[:9]), tuple(MH), tuple(HH)), skat=tuple(SKAT)))
    assert [v.kind for v in out.verdicts] == ["wrong-number-of-cards"]
    assert game.pad == (0, 0, -10)  # Law 23: "the dealer is charged 10 points"
    assert game.state.next_dealer == 2


def test_a_seat_without_cards_cannot_bid_or_play():
    game = SkatGame(SkatRules(players=4))
    game.apply(Deal(dealer=0))  # Law 14: the dealer takes no cards
    out = game.apply(Bid(0, 18))
    assert [v.kind for v in out.verdicts] == ["bid-out-of-turn"]


# The auction -----------------------------------------------------------------------------


def test_bidding_order_law_34_and_passes_are_final_law_35():
    game = SkatGame()
    deal(game, known=False)
    assert game.turn == 1  # "Mittelhand must bid to Vorhand"
    out = game.apply(Bid(2, 18))  # Hinterhand may not speak until a pass
    assert [v.kind for v in out.verdicts] == ["bid-out-of-turn"]
    game.apply(Bid(1, 18))
    game.apply(Hold(0))
    game.apply(Pass(1))
    assert game.turn == 2  # Hinterhand bids to the survivor, Vorhand
    out = game.apply(Bid(1, 20))
    assert [v.kind for v in out.verdicts] == ["bid-after-pass"]
    out = game.apply(Bid(2, 18))
    assert [v.kind for v in out.verdicts] == ["bid-too-low"]
    out = game.apply(Bid(2, 19))  # not the value of any game: flagged, but said
    assert [v.kind for v in out.verdicts] == ["invalid-bid"]
    game.apply(Pass(0))
    assert game.deal is not None
    assert (game.deal.declarer, game.deal.bidding.value, game.phase) == (2, 19, "declaring")


def test_the_lowest_bid_is_10_under_the_laws_and_18_in_the_isko():
    for rules, low, bad in ((FOSTER, 10, 9), (SkatRules(), 18, 17)):
        game = SkatGame(rules)
        deal(game, known=False)
        assert game.apply(Bid(1, low)).verdicts == ()
        game2 = SkatGame(rules)
        deal(game2, known=False)
        assert [v.kind for v in game2.apply(Bid(1, bad)).verdicts] == ["invalid-bid"]


def test_all_pass_isko_no_game_foster_ramsch():
    isko = SkatGame()
    deal(isko, known=False)
    for e in (Pass(1), Pass(2), Pass(0)):
        isko.apply(e)
    assert isko.results[-1].kind == "passed" and isko.phase == "deal"
    foster = SkatGame(FOSTER)
    deal(foster, known=False)
    for e in (Pass(1), Pass(2), Pass(0)):
        foster.apply(e)
    # Laws 37, 45: Ramsch, and "Vorhand shall always lead for the first trick".
    assert foster.phase == "play" and foster.turn == 0


def test_vorhand_may_undertake_a_game_after_two_passes_law_37():
    game = SkatGame(FOSTER)
    deal(game, known=False)
    for e in (Pass(1), Pass(2), Hold(0)):
        game.apply(e)
    assert game.deal is not None and game.deal.declarer == 0 and game.deal.bidding.value == 0


# Declarations ------------------------------------------------------------------------------


def declare_after(rules: SkatRules, *events) -> list[str]:
    game = SkatGame(rules)
    deal(game)
    for e in (Bid(1, 18), Pass(0), Pass(2), *events):
        game.apply(e)
    return kinds(game)


def test_isko_announcements_only_in_hand_games():
    assert declare_after(SkatRules(), Declare(1, "spades", hand=True, schneider=True)) == []
    assert declare_after(
        SkatRules(), PickUp(1), Discard(1, count=2), Declare(1, "spades", schneider=True)
    ) == ["illegal-declaration"]


def test_law_41_no_announcement_when_the_skat_is_used():
    assert declare_after(FOSTER, PickUp(1), Declare(1, "spades", turned=C("8D"))) == [
        "illegal-declaration"
    ]  # Law 29: the turned 8D makes diamonds trumps
    assert declare_after(FOSTER, PickUp(1), Declare(1, "diamonds", turned=C("8D"))) == []
    assert declare_after(
        FOSTER, PickUp(1), Declare(1, "diamonds", schneider=True, turned=C("8D"))
    ) == ["illegal-declaration"]


def test_law_28_both_skat_cards_taken_is_a_gucki_grand():
    assert declare_after(FOSTER, PickUp(1), Discard(1, count=2), Declare(1, "grand")) == []
    assert declare_after(FOSTER, PickUp(1), Discard(1, count=2), Declare(1, "hearts")) == [
        "illegal-declaration"
    ]


def test_laws_30_31_a_turned_jack_may_be_a_grand_a_turned_seven_a_nullo_if_agreed():
    # The skat of this deal is 8D 7D: neither is a jack, so no turned grand.
    assert declare_after(FOSTER, PickUp(1), Declare(1, "grand", turned=C("8D"))) == [
        "illegal-declaration"
    ]
    assert declare_after(FOSTER, PickUp(1), Declare(1, "null", turned=C("7D"))) == [
        "illegal-declaration"
    ]
    with_turned = SkatRules("foster1906", turned_nullo=True)
    assert declare_after(with_turned, PickUp(1), Declare(1, "null", turned=C("7D"))) == []


def test_law_40_gucki_nullo_announced_before_the_skat_is_touched():
    assert declare_after(FOSTER, Declare(1, "null"), PickUp(1), Discard(1, count=2)) == []
    assert declare_after(FOSTER, PickUp(1), Discard(1, count=2), Declare(1, "null")) == [
        "illegal-declaration"
    ]


def test_only_the_player_declares():
    assert declare_after(SkatRules(), Declare(0, "grand", hand=True)) == ["illegal-declaration"]


# The play and what decides the game ------------------------------------------------------------


def test_record_k2_played_out_is_lost_by_192():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    assert game.turn == 0  # Law 45
    play(game, K2_PLAY)
    r = game.results[-1]
    assert game.verdicts == ()
    assert (r.won, r.value, r.matadors, r.points, r.tricks, r.schneider) == (
        False,
        -192,
        1,
        4,
        1,
        True,
    )
    assert game.pad == (-192, 0, 0)
    # Seeger-Fabian: -192 - 50 for the player, +40 to each adversary at three.
    assert tuple(game.state.tournament) == (-242, 40, 40)


def test_the_same_game_without_the_hands_known_is_scored_alike():
    game = SkatGame()
    grand_hand_by_vorhand(game, known=False)
    play(game, K2_PLAY)
    r = game.results[-1]
    # All thirty cards seen: the skat is the two missing (8D 7D), the matadors follow.
    assert (r.value, r.matadors, r.points) == (-192, 1, 4)


def test_law_53_an_adversarys_revoke_wins_the_game_for_the_player():
    game = SkatGame()
    grand_hand_by_vorhand(game, known=False)
    # Trick 1: Mittelhand plays a spade on the jack of clubs though he holds jacks.
    out = play(game, "0:JC 1:AS 2:9D")
    assert out[-1].verdicts == ()  # not yet provable: his hand is not seen
    out = play(game, "0:AC 1:JS")  # a jack, a trump, from him: the revoke is proved
    assert [(v.kind, v.seat, v.trick) for v in out[-1].verdicts] == [("revoke", 1, 1)]
    assert [str(c) for c in out[-1].verdicts[0].cards] == ["AS", "JS"]


def test_law_52_the_players_revoke_loses_his_game_and_53_the_adversarys_wins_it():
    game = SkatGame()
    grand_hand_by_vorhand(game)  # the hands are known: flagged at once
    out = play(game, "0:JC 1:AS")
    assert [(v.kind, v.seat, v.trick) for v in out[-1].verdicts] == [("revoke", 1, 1)]
    assert game.deal is not None and game.deal.forced[0][2] is True
    game = SkatGame()
    deal(game)
    for e in (Bid(1, 18), Pass(0), Pass(2), Declare(1, "grand", hand=True)):
        game.apply(e)
    out = play(game, "0:7S 1:JS")  # the player holds spades: his revoke
    assert game.deal is not None and game.deal.forced[0][2] is False


def test_law_48_an_adversarys_false_lead_wins_law_47_the_players_does_not():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    out = play(game, "1:AS")
    assert [v.kind for v in out[-1].verdicts] == ["led-out-of-turn"]
    assert game.deal is not None and game.deal.forced == [(1, 5, True, "led-out-of-turn (Law 48)")]
    game = SkatGame()
    deal(game)
    for e in (Bid(1, 18), Pass(0), Pass(2), Declare(1, "grand", hand=True)):
        game.apply(e)
    play(game, "1:AS")
    assert kinds(game) == ["led-out-of-turn"] and game.deal is not None
    assert game.deal.forced == []


def test_law_49_a_mistaken_claim_loses_the_game():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D")  # 4 points and the skat's 0
    out = game.apply(Claim(0, "won", tuple(parse_cards("AC 10C KC QC 9C 8C 7C 7S 8S"))))
    assert [v.kind for v in out.verdicts] == ["claim-mistaken"]
    assert out.result is not None and out.result.won is False


def test_law_50_an_adversarys_claim_checked_by_the_count():
    game = SkatGame()
    grand_hand_by_vorhand(game, known=False)
    play(game, "0:JC 1:JD 2:9D 0:AC 1:JS 2:QD 1:AS 2:KD 0:7S 1:10S 2:10D 0:8S")
    # No card of the claimant seen: the count decides. The adversaries have
    # 16 + 15 + 20 = 51: not yet 60, the claim is mistaken.
    out = game.apply(Claim(1, "defeated"))
    assert [v.kind for v in out.verdicts] == ["claim-mistaken"]
    assert out.result is not None and out.result.won is True


def test_law_50_an_adversarys_claim_checked_against_the_cards():
    game = SkatGame()
    grand_hand_by_vorhand(game)  # the deal is known
    play(game, "0:JC 1:JD 2:9D 0:AC 1:JS 2:QD 1:AS 2:KD 0:7S 1:10S 2:10D 0:8S")
    # 51 taken in, but the player holds only clubs, which nobody else can lead, and
    # Mittelhand leads AH next: the adversaries reach 60 against every play.
    out = game.apply(Claim(1, "defeated"))
    assert out.verdicts == ()
    assert out.result is not None and out.result.won is False
    assert out.result.decided_by == "claim (Law 50)"


def test_law_51_the_player_gives_up_and_the_adversaries_count_for_schneider():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D")
    out = game.apply(Concede(0))
    r = out.result
    assert r is not None and (r.won, r.points, r.tricks, r.schneider) == (False, 4, 1, True)
    # With 1, game, hand, schneider: 4 x 24 = 96, lost double.
    assert r.value == -192


def test_a_server_resignation_by_both_adversaries_gives_the_player_the_rest():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D")
    assert game.apply(Concede(1)).result is None  # one adversary alone is not enough
    r = game.apply(Concede(2)).result
    assert r is not None and (r.won, r.points, r.tricks) == (True, 116 + 4, 10)


def test_law_32_a_wrong_skat_is_found_after_the_first_trick():
    game = SkatGame(FOSTER)
    deal(game)
    events = (Bid(1, 18), Pass(0), Pass(2), PickUp(1), Discard(1, count=3), Declare(1, "grand"))
    for e in events:
        game.apply(e)
    out = play(game, "0:7S 1:AS 2:AD")
    assert [v.kind for v in out[-1].verdicts] == ["wrong-skat-count"]


def test_law_32_the_skat_taken_up_twice_is_refused():
    # Law 32: "The player who takes the skat cards must lay out two cards in their
    # place". A second taking up was accepted without a word.
    game = SkatGame(FOSTER)
    deal(game)
    for e in (Bid(1, 18), Pass(0), Pass(2), PickUp(1, tuple(SKAT))):
        assert game.apply(e).verdicts == ()
    why = (
        "the skat taken up twice in deal 1: the player takes it up once and lays out "
        "two cards in its place (Law 32)"
    )
    out = game.apply(PickUp(1))
    assert [(v.kind, v.seat, v.detail) for v in out.verdicts] == [("skat-seen", 1, why)]
    # After laying out: the second taking up does not take back what was laid out.
    assert game.apply(Discard(1, tuple(parse_cards("9S QS")))).verdicts == ()
    out = game.apply(PickUp(1, tuple(parse_cards("9S QS"))))
    assert [(v.kind, v.detail) for v in out.verdicts] == [("skat-seen", why)]
    assert game.deal.laid == parse_cards("9S QS") and game.deal.laid_count == 2
    assert game.apply(Declare(1, "grand")).verdicts == ()


def test_laws_24_27_the_skat_seen_debars_from_bidding():
    game = SkatGame(FOSTER)
    deal(game, known=False)
    out = game.apply(SkatSeen(0, taken=True))
    assert [v.kind for v in out.verdicts] == ["skat-seen"]
    assert game.pad == (-25, 0, 0)  # Law 27
    out = game.apply(Bid(1, 18))  # Vorhand is out: Hinterhand bids to Mittelhand
    assert game.turn == 2


def test_law_24_a_player_without_cards_looking_at_the_skat_loses_10():
    # Law 24: "If any but an active player look at either of the skat cards, 10
    # points shall be deducted from his score." At four the dealer holds no cards
    # (Law 14). The ISkO set flags it and charges nothing (the laws' penalty).
    game = SkatGame(SkatRules("foster1906", players=4))
    game.apply(Deal(dealer=3))
    out = game.apply(SkatSeen(3))
    assert [(v.kind, v.seat) for v in out.verdicts] == [("skat-seen", 3)]
    assert game.pad == (0, 0, 0, -10)
    assert game.turn == 1  # the bidding is not disturbed: Mittelhand bids
    isko = SkatGame(SkatRules(players=4))
    isko.apply(Deal(dealer=3))
    assert [v.kind for v in isko.apply(SkatSeen(3)).verdicts] == ["skat-seen"]
    assert isko.pad == (0, 0, 0, 0)


def test_law_54_only_the_last_trick_may_be_seen():
    from rules.skat.events import LookBack

    game = SkatGame()
    grand_hand_by_vorhand(game)
    play(game, "0:JC 1:JD 2:9D 0:AC 1:JS 2:QD")
    assert game.apply(LookBack(2, 2)).verdicts == ()  # the last trick, nothing led yet
    out = game.apply(LookBack(2, 1))
    assert [(v.kind, v.seat) for v in out.verdicts] == [("looked-back", 2)]
    # An adversary looked back: the player's game is won, played on for schneider.
    assert game.deal is not None and game.deal.forced[-1][2] is True
    play(game, "1:AS")
    out = game.apply(LookBack(0, 2))  # a card was led to the next trick
    assert [(v.kind, v.seat) for v in out.verdicts] == [("looked-back", 0)]


def test_the_skat_shown_at_the_end_holds_no_card_played():
    game = SkatGame()
    grand_hand_by_vorhand(game, known=False)
    play(game, "0:JC 1:JD 2:9D")
    out = game.apply(SkatShown(tuple(parse_cards("9D 7D"))))
    assert [(v.kind, v.seat) for v in out.verdicts] == [("duplicate-card", 2)]


# Ramsch -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tricks", "last", "charges"),
    [
        ({0: 50, 1: 40, 2: 30}, {0: 4, 1: 3, 2: 3}, 2, {0: -20, 1: 0, 2: 0}),
        ({0: 70, 1: 50, 2: 0}, {0: 6, 1: 4, 2: 0}, 0, {0: -30, 1: 0, 2: 0}),  # one no trick
        ({0: 120, 1: 0, 2: 0}, {0: 10, 1: 0, 2: 0}, 0, {0: -50, 1: 0, 2: 0}),  # two
        ({0: 45, 1: 45, 2: 30}, {0: 4, 1: 3, 2: 3}, 1, {0: 0, 1: -20, 2: 0}),  # tie: last trick
        ({0: 45, 1: 45, 2: 30}, {0: 4, 1: 3, 2: 3}, 2, {0: -20, 1: -20, 2: 0}),  # low took it
        ({0: 40, 1: 40, 2: 40}, {0: 4, 1: 3, 2: 3}, 2, {0: 0, 1: 0, 2: 0}),  # "no score"
    ],
)
def test_law_4_ramsch(points, tricks, last, charges):
    assert ramsch_charges(points, tricks, last, FOSTER) == charges


def test_isko_house_ramsch_jungfrau_and_durchmarsch():
    isko = SkatRules(ramsch=True)
    assert ramsch_charges({0: 70, 1: 50, 2: 0}, {0: 6, 1: 4, 2: 0}, 0, isko) == {
        0: -140,
        1: 0,
        2: 0,
    }
    assert ramsch_charges({0: 120, 1: 0, 2: 0}, {0: 10, 1: 0, 2: 0}, 0, isko)[0] == 120


# The table: pad, settlement, tournament, options -------------------------------------------------


def test_a_table_of_four_seeger_fabian_gives_30_to_each_other_player():
    game = SkatGame(SkatRules(players=4))
    game.apply(Deal(dealer=3, hands=(tuple(VH), tuple(MH), tuple(HH)), skat=tuple(SKAT)))
    assert game.deal is not None and game.deal.seats == (0, 1, 2)
    for e in (Pass(1), Pass(2), Bid(0, 18), Declare(0, "grand", hand=True)):
        game.apply(e)
    play(game, K2_PLAY)
    assert tuple(game.state.tournament) == (-242, 30, 30, 30)


def test_kontra_and_re_double_and_redouble():
    rules = SkatRules(kontra=True)
    game = SkatGame(rules)
    grand_hand_by_vorhand(game)
    assert game.apply(Kontra(1)).verdicts == ()
    assert game.apply(Re(0)).verdicts == ()
    play(game, K2_PLAY)
    assert game.results[-1].value == -192 * 4
    off = SkatGame()
    grand_hand_by_vorhand(off)
    assert [v.kind for v in off.apply(Kontra(1)).verdicts] == ["out-of-phase"]


def test_options_are_checked():
    with pytest.raises(InvalidOptionError):
        SkatRules("isko", kontra=True, gucki_variation=True)
    with pytest.raises(InvalidOptionError):
        SkatRules("foster1906", bock=True)
    with pytest.raises(InvalidOptionError):
        SkatRules("bridge")
    assert SkatRules("foster1906", players=6).players == 6


def test_penalty_and_settlement_law_59():
    game = SkatGame(SkatRules("foster1906", players=4))
    game.apply(Penalty(1, -10, "Law 24"))
    assert game.pad == (0, -10, 0, 0)
    assert game.settlement() == (10, -30, 10, 10)


# Malformed input, undo, corrections, replay ------------------------------------------------------


def test_malformed_events_raise_and_change_nothing():
    game = SkatGame()
    deal(game, known=False)
    before = game.summary()
    with pytest.raises(InvalidEventError, match="seat 3 is not a seat"):
        game.apply(Bid(3, 18))
    with pytest.raises(InvalidEventError, match="6H is not a card of the Skat pack"):
        game.apply(Play(0, C("6H")))
    with pytest.raises(InvalidEventError, match="schneider and schwarz belong"):
        game.apply(Declare(0, "null", schneider=True))
    with pytest.raises(InvalidEventError, match="unknown field"):
        event_from_json({"type": "bid", "seat": 1, "value": 18, "loud": True})
    assert game.summary() == before


def test_undo_rebuilds_the_state_exactly():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    moves = K2_PLAY.split()
    play(game, " ".join(moves[:14]))
    snapshot = json.dumps(game.summary())
    play(game, " ".join(moves[14:]))
    assert game.results
    for _ in moves[14:]:
        game.undo()
    assert json.dumps(game.summary()) == snapshot and game.results == ()


def test_a_misread_card_corrected_takes_back_its_verdict():
    game = SkatGame()
    grand_hand_by_vorhand(game)
    out = play(game, "0:JC 1:AS")  # the camera read AS; it was JD
    assert kinds(game) == ["revoke"]
    index = len(game.events) - 1
    out = game.apply(Correct(index, C("AS"), C("JD")))
    assert kinds(game) == [] and "corrected" in out.notes[0]


def test_replay_from_json_equals_the_live_game():
    game = SkatGame(FOSTER)
    grand_hand_by_vorhand(game)
    play(game, K2_PLAY)
    text = json.dumps(game.to_json())
    rebuilt = SkatGame.from_json(json.loads(text))
    assert json.dumps(rebuilt.to_json()) == text
    assert [event_from_json(event_to_json(e)) for e in game.events] == list(game.events)
