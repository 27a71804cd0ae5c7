"""The one game interface: every game through `rules.game` alike (protocol, registry,
outcome, summary keys, undo and corrections)."""

from __future__ import annotations

import json
import random

import pytest

from rules.allfours.autoplay import random_deal as allfours_deal
from rules.cribbage.autoplay import play_game
from rules.errors import InvalidOptionError
from rules.events import Correct
from rules.frog.autoplay import random_deal as frog_deal
from rules.game import GAMES, SUMMARY_KEYS, Game, find_game, new_game
from rules.outcome import Outcome
from rules.skat.autoplay import random_deal as skat_deal
from rules.skat.rulesets import SkatRules
from rules.verdicts import Verdict


def events_for(name: str, seed: int) -> list:
    rng = random.Random(seed)
    if name == "skat":
        return list(skat_deal(rng, SkatRules()).events)
    if name == "frog":
        return list(frog_deal(rng).events)
    if name == "allfours":
        return list(allfours_deal(rng).events)
    game = new_game("cribbage")
    return [event for event, _ in play_game(game, rng)][:40]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_offers_the_one_interface(name):
    game = new_game(name)
    assert isinstance(game, Game) and isinstance(game, GAMES[name].game_type)
    events = events_for(name, 7)
    states = [json.dumps(game.summary())]
    for event in events:
        out = game.apply(event)
        assert isinstance(out, Outcome)
        assert all(isinstance(v, Verdict) for v in out.verdicts)
        assert set(out.to_json()) == {"verdicts", "notes", "result", "pegged", "scored"}
        states.append(json.dumps(game.summary()))
    summary = game.summary()
    assert set(SUMMARY_KEYS) <= set(summary)
    assert summary["score_by"] in ("seat", "team")
    assert summary["game"] == game.name
    # The JSON log rebuilds the same table; undo walks it back state by state.
    rebuilt = type(game).from_json(json.loads(json.dumps(game.to_json())))
    assert json.dumps(rebuilt.summary()) == states[-1]
    for expected in reversed(states[:-1]):
        game.undo()
        assert json.dumps(game.summary()) == expected
    assert game.events == ()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_correction_is_undone_like_any_event(name):
    game = new_game(name)
    events = events_for(name, 11)
    for event in events:
        game.apply(event)
    before = json.dumps(game.summary())
    index, card = next((i, e.cards()[0]) for i, e in enumerate(events) if e.cards())
    other = next(c for e in events for c in e.cards() if c != card)
    out = game.apply(Correct(index, card, other))
    assert out.notes and out.notes[0].startswith(f"event {index}: {card} corrected to {other}")
    assert game.verdicts  # the card now stands twice: a duplicate at least
    game.undo()
    assert json.dumps(game.summary()) == before


def test_partnership_scores_are_by_team():
    assert new_game("cribbage", players=4).summary()["score_by"] == "team"
    assert new_game("cribbage", players=3).summary()["scores"] == [0, 0, 0]
    assert new_game("allfours", players=4).summary()["score_by"] == "team"


def test_options_build_the_rules_and_bad_ones_name_the_option():
    assert new_game("skat", rules="isko", players=4).rules == SkatRules(players=4)
    assert new_game("cribbage", variant="eight-card", game_to=61).rules.game_to == 61
    assert new_game("allfours", game_to=7, game_tie="eldest").rules.game_to == 7
    with pytest.raises(InvalidOptionError, match="skat option 'rules': 'whist'"):
        new_game("skat", rules="whist")
    with pytest.raises(InvalidOptionError, match="cribbage option 'variant'"):
        new_game("cribbage", variant="seven-card")
    with pytest.raises(InvalidOptionError, match="cribbage option 'game_to': expected an integer"):
        new_game("cribbage", game_to="121")
    with pytest.raises(InvalidOptionError, match="frog option 'players': 6"):
        new_game("frog", players=6)
    with pytest.raises(InvalidOptionError, match="allfours option 'players': expected an integer"):
        new_game("allfours", players=True)
    with pytest.raises(InvalidOptionError, match="frog option 'widow': unknown"):
        new_game("frog", widow=3)
    with pytest.raises(InvalidOptionError, match="skat: players 5"):
        new_game("skat", players=5)  # ISkO tables are three or four
    assert new_game("skat", rules="foster1906", players=5).rules.players == 5


def test_find_game_lists_the_choices():
    assert find_game("skat").title == "Skat" and find_game("all-fours").name == "allfours"
    with pytest.raises(InvalidOptionError, match="allfours, cribbage, frog, skat"):
        find_game("bridge")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_reads_back_its_plain_text_record(name):
    options = {"rules": "foster1906", "ramsch": True} if name == "skat" else {}
    game = new_game(name, **options)
    events = events_for(name, 5)
    if name == "skat":
        events = list(skat_deal(random.Random(5), game.rules).events)
    for event in events:
        game.apply(event)
    text = game.to_record()
    assert text.splitlines()[0].startswith(f"kiebitz-record 1 {game.name} ")
    again = type(game).from_record(text)
    assert again.rules == game.rules and again.events == game.events
    assert again.summary() == game.summary()


# Mistyped rule options from JSON (issue 12): each is refused naming the option, for
# every game, never a TypeError from deeper down.
HOSTILE_OPTIONS = [
    {"players": [1]},
    {"players": "3"},
    {"players": 3.0},
    {"players": True},
    {"players": None},
    {"players": {"n": 3}},
    {"game_to": "x"},
    {"game_to": 121.5},
    {"variant": 6},
    {"rules": ["isko"]},
    {"no_such_option": 1},
]


@pytest.mark.parametrize("game", ["cribbage", "skat", "frog", "allfours"])
@pytest.mark.parametrize("options", HOSTILE_OPTIONS, ids=lambda o: json.dumps(o))
def test_mistyped_rule_options_are_named_not_a_type_error(game, options):
    from rules.reading.games import engine_for

    if (game == "skat" and "game_to" in options) or (game != "cribbage" and "variant" in options):
        options = {**options, "players": "3"}  # an option the game has, mistyped
    with pytest.raises(InvalidOptionError) as err:
        engine_for(game, options)
    assert len(str(err.value)) < 120


@pytest.mark.parametrize("options", [["x"], "players=3", 3, None])
def test_rule_options_that_are_not_an_object_are_refused(options):
    from rules.reading.games import engine_for

    with pytest.raises(InvalidOptionError, match="an object"):
        engine_for("cribbage", options)
