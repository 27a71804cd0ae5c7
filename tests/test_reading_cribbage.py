"""The referee's reading of a cribbage table, fed from observation lines.

Whole games played by the automatic players are told as a camera over the table
would see them (:mod:`tests.reading_helpers`) and read back: the engine must get
the same cut, starter, plays, goes and shows, and end with the same scores. Then
the camera misses and misreads cards, and the reading must ask, not guess.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reading_helpers import cribbage_told

from rules.cards import Card
from rules.cribbage.autoplay import play_game
from rules.cribbage.events import Cut, Go, NewGame, Play, Show, Starter
from rules.cribbage.game import CribbageGame
from rules.cribbage.variants import CribbageRules
from rules.errors import InvalidInputError
from rules.reading import Command, TableObservation, TableReading, TableSetup

SEEN = (Cut, Starter, Play, Go, Show, NewGame)


def played(variant: str, players: int, seed: int, game_to: int = 61) -> CribbageGame:
    game = CribbageGame(CribbageRules(variant=variant, players=players, game_to=game_to))
    for _ in play_game(game, random.Random(seed), reveal_hands=False):
        pass
    return game


def read(game: CribbageGame, lines: list[TableObservation]) -> TableReading:
    r = game.rules
    reading = TableReading(
        TableSetup("cribbage", {"variant": r.variant, "players": r.players, "game_to": r.game_to})
    )
    for obs in lines:
        reading.feed(obs)
    # A game won by a go at the end of the play is won where no camera sees it: the
    # goes are said, and the operator says them (a button, the web view).
    for _ in range(4):
        if game.phase == "over" and reading.game.phase == "play":
            reading.feed(Command("go"))
    return reading


def seen(events) -> list:
    """The events a camera can give, a shown hand's cards in any order."""
    out = []
    for e in events:
        if isinstance(e, Show):
            out.append(("show", e.seat, e.crib, sorted(e.shown, key=str)))
        elif isinstance(e, SEEN):
            out.append(e)
    return out


def card(text: str) -> Card:
    return Card.parse(text)


def obs(kind: str, c: str, zone: str | None) -> TableObservation:
    if zone is None:
        return TableObservation(kind, card(c))
    zk, _, seat = zone.partition(".")
    return TableObservation(kind, card(c), zone, zk, int(seat) if seat else None)


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [
        ("six-card", 2, 1),
        ("five-card", 2, 2),
        ("eight-card", 2, 3),
        ("six-card", 3, 4),
        ("six-card", 4, 5),
    ],
)
def test_a_whole_game_read_from_the_table_is_the_game_played(variant, players, seed):
    game = played(variant, players, seed)
    reading = read(game, cribbage_told(list(game.events), players).lines())
    assert seen(reading.game.events) == seen(game.events)
    assert reading.game.scores == game.scores and reading.game.phase == "over"
    assert reading.alerts == [] and reading.verdicts() == []


@settings(max_examples=12)
@given(
    seed=st.integers(0, 10_000),
    variant=st.sampled_from(["five-card", "six-card"]),
    players=st.sampled_from([2, 3, 4]),
    shuffle=st.integers(0, 10_000),
)
def test_observations_shuffled_within_a_frame_and_repeated_read_the_same(
    seed, variant, players, shuffle
):
    game = played(variant, players, seed)
    lines = cribbage_told(list(game.events), players).lines(random.Random(shuffle), duplicate=0.3)
    reading = read(game, lines)
    assert seen(reading.game.events) == seen(game.events)
    assert reading.game.scores == game.scores
    assert reading.alerts == []


def _deal_one(*plays: str, dealer: int = 0) -> TableReading:
    """Dealer 0, starter 7S, then the given plays ``"CARD@SEAT"``."""
    reading = TableReading(TableSetup("cribbage", dealer=dealer))
    reading.feed(obs("placed", "7S", "starter"))
    for p in plays:
        c, _, seat = p.partition("@")
        reading.feed(obs("placed", c, f"play.{seat}"))
    return reading


def test_a_skipped_turn_at_a_low_count_is_one_alert_and_the_plays_wait():
    r = _deal_one("9H@1", "2C@1", "3D@1")
    assert [(a.kind, a.seat) for a in r.alerts] == [("missing-card", 0)]
    assert r.verdicts() == [] and r.game.verdicts == ()
    assert [p["card"] for p in r.plays()] == ["9H"]  # the rest wait behind the gap
    assert r.summary()["pending"] == [{"seat": 1, "card": "2C"}, {"seat": 1, "card": "3D"}]
    # seat 0's next card is not taken for the missing one: that would be a guess
    r.feed(obs("placed", "4S", "play.0"))
    assert [p["card"] for p in r.plays()] == ["9H"] and len(r.alerts) == 1


def test_a_missing_card_supplied_by_the_operator_recounts_in_order():
    r = _deal_one("9H@1", "10C@1")
    alert = r.alerts[0]
    up = r.feed(Command("supply", seat=0, card=card("2D")))
    assert up.error is None and alert.id in up.cleared
    assert [p["card"] for p in r.plays()] == ["9H", "2D", "10C"]
    assert r.game.count == 21 and r.alerts == []


def test_a_skipped_turn_at_a_high_count_is_a_go_the_show_may_prove_false():
    # 10H 10C (20) 5D (25) by seat 1... seat 1 plays twice: seat 0 said go at 25
    r = _deal_one("KH@1", "10C@0", "5D@1", "6S@1")
    assert [type(e).__name__ for e in r.game.events][-2:] == ["Go", "Play"]
    assert r.alerts == []


def test_the_missing_card_is_found_in_the_hand_shown():
    game = played("six-card", 2, 11)
    told = cribbage_told(list(game.events), 2)
    lines = told.lines()
    # drop the second card of the first play whose count was low enough to need it
    plays = [i for i, o in enumerate(lines) if o.zone_kind == "play"]
    dropped = lines.pop(plays[3])
    reading = read(game, lines)
    assert seen(reading.game.events) == seen(game.events), dropped
    assert reading.game.scores == game.scores and reading.alerts == []


def test_a_card_seen_twice_is_an_alert_and_is_not_played_twice():
    r = _deal_one("9H@1", "9H@0")
    assert [a.kind for a in r.alerts] == ["duplicate-card"]
    assert [p["card"] for p in r.plays()] == ["9H"]


def test_a_play_before_the_starter_waits_for_it():
    reading = TableReading(TableSetup("cribbage", dealer=0))
    reading.feed(obs("placed", "9H", "play.1"))
    assert [a.kind for a in reading.alerts] == ["no-starter"]
    reading.feed(obs("placed", "JS", "starter"))
    assert reading.alerts == [] and [p["card"] for p in reading.plays()] == ["9H"]
    assert reading.game.scores == (2, 0)  # two for his heels, to the dealer


def test_a_play_before_the_starter_seen_again_and_again_is_held_once():
    # A camera that says "placed" again for a card lying in its row held a copy each
    # time: 10,000 such lines held 10,000 plays, every read listed them all, and the
    # replay took two minutes. The same card where it lies is held once.
    reading = TableReading(TableSetup("cribbage", dealer=0))
    for _ in range(50):
        reading.feed(obs("placed", "9H", "play.1"))
        up = reading.feed(obs("placed", "4C", "play.0"))
    assert not up.changed
    assert reading.summary()["pending"] == [
        {"seat": 1, "card": "9H"},
        {"seat": 0, "card": "4C"},
    ]
    reading.feed(obs("placed", "JS", "starter"))
    assert reading.alerts == [] and [p["card"] for p in reading.plays()] == ["9H", "4C"]
    assert reading.game.count == 13


def test_undo_sets_the_last_card_aside_and_replace_recounts_the_deal():
    r = _deal_one("10H@1", "5C@0")
    assert r.game.scores == (2, 0)
    up = r.feed(Command("undo"))
    assert up.since is not None and r.game.scores == (0, 0) and len(r.plays()) == 1
    r.feed(obs("placed", "5D", "play.0"))
    assert r.game.scores == (2, 0)
    event = next(i for i, e in enumerate(r.game.events) if isinstance(e, Play) and e.seat == 0)
    up = r.feed(Command("replace", event=event, old=card("5D"), new=card("4D")))
    assert up.error is None and r.game.scores == (0, 0) and r.game.count == 14
    # the card is 4D from now on, wherever the camera still calls it 5D
    r.feed(obs("placed", "5D", "play.0"))
    assert [p["card"] for p in r.plays()] == ["10H", "4D"]


def test_commands_that_cannot_apply_say_why_and_change_nothing():
    r = _deal_one("10H@1")
    before = r.game.events
    assert r.feed(Command("supply", seat=0, card=card("2D"))).error
    assert r.feed(Command("replace", event=99, old=card("2D"), new=card("3D"))).error
    assert r.feed(Command("confirm", alert="nope")).error
    assert r.game.events == before


def test_an_observation_in_a_zone_of_no_seat_at_the_table_is_refused_and_opens_no_alert():
    r = _deal_one("10H@1")
    before = (r.game.events, r.summary()["pending"])
    up = r.feed(obs("placed", "5C", "play.7"))
    assert up.error is not None
    assert "'play.7' is seat 7" in up.error and "seats 0..1" in up.error
    assert r.alerts == [] and (r.game.events, r.summary()["pending"]) == before
    # nor does a recount (an undo of the next card) read it again
    r.feed(obs("placed", "5D", "play.0"))
    assert r.feed(Command("undo")).error is None
    assert r.alerts == [] and [p["card"] for p in r.plays()] == ["10H"]
    assert r.feed(obs("placed", "5D", "play.0")).error is None
    assert [p["card"] for p in r.plays()] == ["10H", "5D"]


def test_malformed_input_is_refused_naming_the_field():
    with pytest.raises(InvalidInputError, match="card"):
        TableObservation.from_json({"kind": "placed", "card": "ZZ", "zone": "play.0"})
    with pytest.raises(InvalidInputError, match="kind"):
        TableObservation.from_json({"kind": "thrown", "card": "QS"})
    with pytest.raises(InvalidInputError, match="unknown command"):
        Command.from_json({"command": "shuffle"})
    with pytest.raises(InvalidInputError, match="unknown field"):
        Command.from_json({"command": "undo", "extra": 1})


def test_an_observation_line_of_vision_watch_reads_its_zone_from_the_name():
    line = {
        "kind": "placed",
        "card": "QH",
        "zone": "play.0",
        "from_zone": None,
        "t": 3.2,
        "since": 2.9,
        "frames": 4,
        "confidence": 0.98,
        "position_mm": [400.0, 250.0],
    }
    o = TableObservation.from_json(line)
    assert (o.zone_kind, o.seat, o.card) == ("play", 0, card("QH"))


def test_replaying_the_inputs_gives_the_same_events_and_alert_ids():
    lines = [
        obs("placed", "7S", "starter"),
        obs("placed", "9H", "play.1"),
        obs("placed", "10C", "play.1"),
        obs("placed", "9H", "play.0"),
    ]
    a = TableReading(TableSetup("cribbage", dealer=0))
    b = TableReading(TableSetup("cribbage", dealer=0))
    for o in lines:
        a.feed(o)
        b.feed(o)
    assert a.game.events == b.game.events
    assert [x.id for x in a.alerts] == [x.id for x in b.alerts] and len(a.alerts) == 2


def test_an_undo_late_in_a_match_takes_back_only_its_deal(monkeypatch):
    # an undo recounted the deal on an engine rebuilt from the match's first event:
    # a log of 10,000 lines with an undo every fourth or so took 134 s (2,119 undos
    # replayed 3.2 million events). Cribbage keeps its state before every event, so
    # an undo pops the deal's events and reads the deal's inputs again, no more; the
    # match reads as it does without the undos
    game = played("six-card", 2, seed=5, game_to=121)
    lines = cribbage_told(list(game.events), 2).lines()
    plain = read(game, lines)
    reading = TableReading(TableSetup("cribbage", {"game_to": 121}))
    applied: list[object] = []
    real = CribbageGame.apply

    def counted(self, event):  # type: ignore[no-untyped-def]
        applied.append(event)
        return real(self, event)

    monkeypatch.setattr(CribbageGame, "apply", counted)
    undos = 0
    for o in lines:
        if not reading.feed(o).changed:
            continue
        said = reading.summary()
        deal = len(reading.game.events) - reading.reader.deal_start
        applied.clear()
        up = reading.feed(Command("undo"))
        assert up.error is None and up.since == reading.reader.deal_start
        assert len(applied) < deal  # none of the deals before this one
        assert reading.summary()["engine"] == reading.game.summary()
        reading.feed(o)
        assert reading.summary() == said
        undos += 1
    assert undos > 100 and reading.reader.deal_start > 100
    for _ in range(4):  # the goes of a game won in the play, said (as `read` does)
        if game.phase == "over" and reading.game.phase == "play":
            reading.feed(Command("go"))
    assert reading.game.events == plain.game.events and reading.game.scores == game.scores


def test_the_state_after_an_undo_and_another_card_is_the_engines_own():
    # the state's engine summary is kept while the engine's log has the same length;
    # an undo and another card give that length again with another count
    reading = _deal_one("9H@1")
    assert reading.summary()["engine"]["count"] == 9
    reading.feed(Command("undo"))
    reading.feed(obs("placed", "5C", "play.1"))
    assert reading.summary()["engine"]["count"] == 5
    assert reading.summary()["engine"] == reading.game.summary()


def test_without_a_cut_or_a_dealer_the_first_to_play_tells_the_dealer():
    reading = TableReading(TableSetup("cribbage"))
    reading.feed(obs("placed", "JS", "starter"))
    assert [a.kind for a in reading.alerts] == ["no-dealer"]
    up = reading.feed(obs("placed", "9H", "play.0"))
    assert reading.alerts == [] and reading.game.dealer == 1
    assert reading.game.scores == (0, 2)  # his heels, to the dealer
    assert any("seat 1 dealt" in n for n in up.notes)
    reading.feed(obs("placed", "6C", "play.1"))
    assert reading.game.scores == (0, 4)  # fifteen two for the dealer
    reading.feed(Command("undo"))
    assert reading.game.scores == (0, 2) and reading.game.dealer == 1


def test_a_refused_or_failing_command_does_not_break_later_recounts():
    r = _deal_one()
    assert r.feed(Command("go", seat=5)).error  # not a seat at this table
    assert r.feed(Command("replace", event=0, old=card("AS"), new=card("KS"))).error
    for c, seat in [("10H", 1), ("5C", 0), ("6D", 1)]:
        r.feed(obs("placed", c, f"play.{seat}"))
    event = len(r.game.events) - 1
    up = r.feed(Command("replace", event=event, old=card("6D"), new=card("6H")))
    assert up.error is None and [p["card"] for p in r.plays()] == ["10H", "5C", "6H"]
    assert r.game.scores == (2, 0)
    r.feed(Command("undo"))
    assert [p["card"] for p in r.plays()] == ["10H", "5C"]


def test_undo_of_a_command_before_the_first_deal_keeps_the_setups_dealer():
    r = TableReading(TableSetup("cribbage", dealer=0))
    r.feed(Command("penalty", seat=0, points=2))
    r.feed(Command("undo"))
    assert r.game.dealer == 0
    r.feed(obs("placed", "7S", "starter"))
    assert r.alerts == [] and r.game.phase == "play"


def test_a_refused_penalty_names_its_command_once():
    # "penalty: penalty: 10000 points is more than a whole game (121)" (a sweep's find)
    r = TableReading(TableSetup("cribbage", dealer=0))
    up = r.feed(Command("penalty", seat=0, points=10000))
    assert up.error == "penalty: 10000 points is more than a whole game (121)"
    assert r.feed(Command("undo")).error == "undo: nothing read in this deal to undo"


def test_a_supplied_card_can_be_replaced_too():
    r = _deal_one("9H@1", "10C@1")
    r.feed(Command("supply", seat=0, card=card("5D")))
    event = next(i for i, e in enumerate(r.game.events) if isinstance(e, Play) and e.seat == 0)
    r.feed(Command("replace", event=event, old=card("5D"), new=card("5H")))
    assert [p["card"] for p in r.plays()] == ["9H", "5H", "10C"]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": []},
        {"kind": "placed", "card": "QS", "zone_kind": []},
        {"command": []},
        {"kind": "placed", "card": "QS", "zone": "play.²"},
        {"kind": "placed", "card": "QS", "t": 10**400},
        {"command": "contract", "turned": 7},
        [1, 2],
        "text",
    ],
)
def test_hostile_inputs_raise_only_the_documented_error(data):
    from rules.reading import parse_input

    try:
        parsed = parse_input(data)
    except InvalidInputError:
        return
    assert parsed.zone_kind == "play" and parsed.seat is None  # play.² names no seat


def test_an_observation_line_with_null_zone_kind_takes_it_from_the_zone_name():
    o = TableObservation.from_json(
        {
            "kind": "placed",
            "card": "QH",
            "zone": "play.1",
            "zone_kind": None,
            "seat": None,
            "t": 1.0,
        }
    )
    assert (o.zone_kind, o.seat) == ("play", 1)


def _played_deal():
    """Dealer 0, starter 7S; every card of both hands played, in the engine's order."""
    r = _deal_one("KH@1", "10S@0", "9D@1", "3C@0", "JH@1", "5S@0", "9C@1", "QD@0")
    assert r.game.phase == "show", r.alerts
    return r


def test_a_card_misread_in_a_show_row_does_not_count_in_place_of_the_hand():
    r = _played_deal()
    for c in ["KH", "9D", "8H", "JH"]:  # 8H: the half-covered 9C read as another card
        r.feed(obs("moved" if c != "8H" else "placed", c, "show.1"))
    assert not any(isinstance(e, Show) for e in r.game.events)
    r.feed(obs("moved", "9C", "show.1"))
    shows = [e for e in r.game.events if isinstance(e, Show)]
    assert sorted(map(str, shows[0].shown)) == ["9C", "9D", "JH", "KH"]


def test_a_new_starter_during_the_show_counts_the_rows_as_they_lay():
    r = _played_deal()
    for c in ["KH", "9D", "JH", "9C"]:
        r.feed(obs("moved", c, "show.1"))
    for c in ["10S", "3C", "5S"]:  # seat 0's QD never seen in its row
        r.feed(obs("moved", c, "show.0"))
    up = r.feed(obs("placed", "2H", "starter"))  # the next deal's starter
    assert any("counted as they lay" in n for n in up.notes)
    assert r.game.state.deal_number == 2 and r.game.phase == "play"
    assert r.game.dealer == 1


def test_a_seat_out_of_range_is_named_as_no_seat_not_as_no_integer():
    # "seat": 99 said "must be an integer, got 99": it is one, but no seat
    from rules.reading import parse_input

    with pytest.raises(InvalidInputError, match=r"'seat' must be a seat from 0 to 7, got 99"):
        parse_input({"command": "undo", "seat": 99})
    with pytest.raises(InvalidInputError, match=r"'seat' must be an integer, got 'x'"):
        parse_input({"command": "undo", "seat": "x"})
    # an event number past any table's was "must be an integer" too (found on the bus)
    with pytest.raises(InvalidInputError, match=r"'event' is out of range \(at most 1,000,000\)"):
        parse_input({"command": "undo", "event": 10**30})
    with pytest.raises(InvalidInputError, match=r"'event' must be an integer, got 1.5"):
        parse_input({"command": "undo", "event": 1.5})


def test_a_time_past_any_tables_is_out_of_range_as_an_integer_or_a_float():
    # an integer t over 10**15 was refused and a float of 1e308 taken (a probe)
    from rules.reading import parse_input

    card = {"kind": "placed", "card": "5H", "zone": "crib"}
    for t in (10**16, 1e16, -1e308):
        with pytest.raises(InvalidInputError, match=r"field 't' is out of range"):
            parse_input({**card, "t": t})
    assert parse_input({**card, "t": 1733580000.5}).t == 1733580000.5  # epoch seconds
