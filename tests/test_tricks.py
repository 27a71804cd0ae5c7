"""The trick-play core: effective suits, trick winners, must-follow rules, and
revokes proved by later evidence. Every expected answer is worked out by hand
from the rule texts named beside it."""

from __future__ import annotations

import pytest

from rules.cards import Card, parse_cards
from rules.skat.declaration import contract_for
from rules.tricks.contract import TRUMP, Contract, Obligation
from rules.tricks.play import TrickPlay
from rules.tricks.solve import Goal

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


# Claims searched against every defence (rules/tricks/solve.py) ---------------------------
#
# The search prunes, merges equal cards and remembers positions; these tests check it
# against the plainest minimax over Card objects and Contract.legal (seed 000 Law 45:
# "each player in turn must follow suit if he can"), on random endings.


def naive(contract, seats, hands, leader, trick, claimants, goal):
    """Whether ``claimants`` make ``goal`` however the others play: every legal card
    tried at every turn, nothing pruned or remembered."""
    n = len(seats)

    def final(tricks, pts, against):
        inner = all(
            rng is None or rng[0] <= x <= rng[1]
            for x, rng in ((tricks, goal.tricks), (pts, goal.points), (against, goal.against))
        )
        return inner != goal.negate

    def go(hands, leader, trick, tricks, pts, against):
        if not trick and not any(hands.values()):
            return final(tricks, pts, against)
        seat = seats[(seats.index(leader) + len(trick)) % n]
        led = trick[0][1] if trick else None
        results = []
        for card in contract.legal(hands[seat], led):
            rest = dict(hands)
            rest[seat] = [c for c in hands[seat] if c != card]
            played = [*trick, (seat, card)]
            if len(played) < n:
                results.append(go(rest, leader, played, tricks, pts, against))
                continue
            won = played[contract.winner([c for _, c in played])][0]
            got = contract.trick_points([c for _, c in played])
            if won in goal.side:
                results.append(go(rest, won, [], tricks + 1, pts + got, against))
            else:
                results.append(go(rest, won, [], tricks, pts, against + got))
        return any(results) if seat in claimants else all(results)

    return go(hands, leader, list(trick), 0, 0, 0)


def random_ending(rng, tricks, game):
    from rules.cards import SKAT_DECK

    pack = list(SKAT_DECK)
    rng.shuffle(pack)
    hands = {s: pack[s * tricks : (s + 1) * tricks] for s in range(3)}
    contract = contract_for(game)
    side = frozenset({rng.randrange(3)})
    kind = rng.randrange(4)
    left = tricks
    if kind == 0:
        goal = Goal(side, tricks=(left, left))
    elif kind == 1:
        goal = Goal(side, against=(0, rng.randrange(0, 40)))
    elif kind == 2:
        goal = Goal(side, points=(rng.randrange(0, 40), 120))
    else:
        t = rng.randrange(0, left + 1)
        goal = Goal(side, tricks=(t, t), negate=rng.random() < 0.5)
    claimants = side if rng.random() < 0.6 else frozenset({0, 1, 2}) - side
    return contract, hands, goal, claimants, pack[3 * tricks :]


@pytest.mark.parametrize("seed", range(6))
def test_the_claim_search_agrees_with_plain_minimax_where_every_hand_is_known(seed):
    import random

    from rules.tricks.contract import index_of
    from rules.tricks.solve import solve

    rng = random.Random(seed)
    for case in range(40):
        game = rng.choice(("grand", "hearts", "clubs", "null"))
        contract, hands, goal, claimants, _ = random_ending(rng, rng.choice((2, 3, 3)), game)
        leader = rng.randrange(3)
        # Sometimes a trick already begun: the leader's legal first card.
        trick = []
        if rng.random() < 0.4:
            card = rng.choice(hands[leader])
            trick = [(leader, card)]
            hands[leader] = [c for c in hands[leader] if c != card]
        expected = naive(contract, (0, 1, 2), hands, leader, trick, claimants, goal)
        answer = solve(
            contract,
            (0, 1, 2),
            leader,
            [(s, index_of(c)) for s, c in trick],
            {s: [index_of(c) for c in h] for s, h in hands.items()},
            {s: len(h) for s, h in hands.items()},
            (),
            claimants=claimants,
            goal=goal,
        )
        assert answer.holds is expected, (seed, case, game, goal, claimants, hands, trick)
        if not expected:
            # The defence given is legal play, from where the claim was made (empty
            # where the claim could not be made from the start).
            rest = {s: list(h) for s, h in hands.items()}
            played = list(trick)
            for s, c in answer.line:
                assert c in contract.legal(rest[s], played[0][1] if played else None)
                rest[s].remove(c)
                played.append((s, c))
                if len(played) == 3:
                    played = []


@pytest.mark.parametrize("seed", range(3))
def test_with_hands_unseen_a_claim_that_holds_holds_for_every_deal_of_the_unseen_cards(seed):
    import itertools
    import random

    from rules.tricks.contract import index_of
    from rules.tricks.solve import solve

    rng = random.Random(100 + seed)
    for _case in range(10):
        game = rng.choice(("grand", "spades", "null"))
        contract, hands, goal, _, spare = random_ending(rng, 3, game)
        claimant = next(iter(goal.side))
        claimants = frozenset({claimant})
        others = [s for s in range(3) if s != claimant]
        skat = spare[:2]  # two cards out of play, unseen too
        unseen = [c for s in others for c in hands[s]] + skat
        answer = solve(
            contract,
            (0, 1, 2),
            0,
            (),
            {claimant: [index_of(c) for c in hands[claimant]], others[0]: None, others[1]: None},
            {s: 3 for s in range(3)},
            [index_of(c) for c in unseen],
            claimants=claimants,
            goal=goal,
        )
        assert answer.holds is not None
        # Every deal of the unseen cards, each searched with the hands known (which
        # the test above checks against the plain minimax).
        every = []
        for first in itertools.combinations(unseen, 3):
            left_over = [c for c in unseen if c not in first]
            for second in itertools.combinations(left_over, 3):
                deal = {claimant: hands[claimant], others[0]: first, others[1]: second}
                known = solve(
                    contract,
                    (0, 1, 2),
                    0,
                    (),
                    {s: [index_of(c) for c in h] for s, h in deal.items()},
                    {s: 3 for s in range(3)},
                    (),
                    claimants=claimants,
                    goal=goal,
                )
                every.append(known.holds)
        if answer.holds:
            assert all(every), (seed, game, goal, hands)
        # A claim that fails for some deal of the unseen cards fails.
        if not all(every):
            assert answer.holds is False


@pytest.mark.parametrize(
    ("voids", "pinned", "ace"),
    [
        ({}, {}, {1, 2}),  # the ace of spades may be with either adversary
        ({1: "S"}, {}, {2}),  # then it is seat 2's
        ({1: "S", 2: "S"}, {}, None),  # neither holds a spade: the ace is in the skat
        ({2: "S"}, {1: ["AS"]}, {1}),  # placed with seat 1, who may hold it
        ({1: "S"}, {1: ["AS"]}, None),  # placed with seat 1, void: it was laid away
    ],
)
def test_unseen_cards_lie_only_where_the_play_allows(voids, pinned, ace):
    from rules.tricks.contract import index_of
    from rules.tricks.solve import solve

    # Seat 0 leads 10S, his last card, and claims the trick; the adversaries hold one
    # card each of AS 7H 8H, the third is out of play (the skat).
    def ix(text):
        return [index_of(c) for c in parse_cards(text)]

    answer = solve(
        contract_for("grand"),
        (0, 1, 2),
        0,
        (),
        {0: ix("10S"), 1: None, 2: None},
        {0: 1, 1: 1, 2: 1},
        ix("AS 7H 8H"),
        claimants={0},
        goal=Goal(frozenset({0}), tricks=(1, 1)),
        voids=voids,
        pinned={s: ix(" ".join(cards)) for s, cards in pinned.items()},
    )
    # The claim holds where the ace cannot be with an adversary; otherwise the
    # defence plays it, from a seat that may hold it.
    assert answer.holds is (ace is None)
    if ace is not None:
        assert {s for s, c in answer.line if str(c) == "AS"} <= ace
        assert "AS" in [str(c) for _, c in answer.line]


def test_a_position_whose_cards_do_not_add_up_is_not_decided():
    from rules.tricks.contract import index_of
    from rules.tricks.solve import solve

    hearts = [index_of(c) for c in parse_cards("AH 7H")]
    answer = solve(
        contract_for("grand"),
        (0, 1, 2),
        0,
        (),
        {0: hearts, 1: None, 2: None},
        {0: 2, 1: 2, 2: 2},
        [index_of(c) for c in parse_cards("AS 7S 8S")],  # three cards for four places
        claimants={0},
        goal=Goal(frozenset({0}), tricks=(2, 2)),
    )
    assert answer.holds is None and "cannot make up" in answer.why


@pytest.mark.parametrize("game", ["grand", "clubs", "diamonds", "null"])
def test_the_play_takes_each_trick_as_the_contract_ranks_it(game):
    # TrickPlay closes a trick of three with its own spelt-out ranking: it must
    # agree with Contract.winner on every trick of random deals.
    import random

    from rules.cards import SKAT_DECK

    contract = contract_for(game)
    rng = random.Random(game)
    for _ in range(200):
        pack = list(SKAT_DECK)
        rng.shuffle(pack)
        play = TrickPlay(contract, (0, 1, 2), 0, 10)
        leader = 0
        for t in range(10):
            cards = pack[3 * t : 3 * t + 3]
            seats = [(leader + k) % 3 for k in range(3)]
            trick = None
            for seat, card in zip(seats, cards, strict=True):
                trick = play.play(seat, card, Recorder())
            assert trick is not None
            assert trick.winner == seats[contract.winner(cards)]
            assert trick.points == contract.trick_points(cards)
            leader = trick.winner
