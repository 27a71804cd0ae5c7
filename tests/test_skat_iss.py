"""International Skat Server game records: the reader, the writer, the replay,
and ``kiebitz skat replay``. The records in tests/data/skat/iss_records.txt were
written by hand and their results worked out on paper (see the file)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cli import main
from controller.cli_skat import replay_lines
from controller.errors import UsageError
from rules.cards import Card
from rules.errors import InvalidEventError
from rules.skat.autoplay import random_deal
from rules.skat.game import SkatGame
from rules.skat.iss import (
    iss_card,
    parse_iss_card,
    parse_record,
    read_records,
    record_events,
    replay,
    write_record,
)

RECORDS = Path(__file__).parent / "data" / "skat" / "iss_records.txt"


def records() -> list[str]:
    with RECORDS.open(encoding="utf-8") as f:
        return [text for _, text in read_records(f)]


# What each record's R field says, as worked out by hand in the data file.
EXPECTED = {
    "k1": {"declarer": 0, "won": True, "value": 192, "matadors": 4, "points": 120,
           "tricks": 10, "schneider": True, "schwarz": True, "overbid": False},
    "k2": {"declarer": 0, "won": False, "value": -192, "matadors": 1, "points": 4,
           "tricks": 1, "schneider": True, "schwarz": False, "overbid": False},
    "k3": {"declarer": 1, "won": True, "value": 35, "matadors": 0, "points": 20,
           "tricks": 0, "schneider": False, "schwarz": False, "overbid": False},
    "k5": {"declarer": 0, "won": False, "value": -96, "matadors": -2, "points": 78,
           "tricks": 6, "schneider": False, "schwarz": False, "overbid": True},
    "k6": {"declarer": 1, "won": False, "value": -92, "matadors": 0, "points": 42,
           "tricks": 1, "schneider": False, "schwarz": False, "overbid": False},
}  # fmt: skip


def test_cards_are_suit_then_rank():
    assert parse_iss_card("CJ") == Card.parse("JC")
    assert parse_iss_card("HT") == Card.parse("10H")
    assert iss_card(Card.parse("10H")) == "HT"
    for bad in ("JC", "C1", "CJX", "", "X7"):
        with pytest.raises(InvalidEventError, match="bad ISS card"):
            parse_iss_card(bad)


@pytest.mark.parametrize("text", records())
def test_every_record_replays_to_its_result_field_without_a_verdict(text):
    result = replay(parse_record(text))
    data = result.to_json()
    assert data["verdicts"] == [] and result.differs == ()
    if data["id"] in EXPECTED:
        assert {k: data[k] for k in EXPECTED[data["id"]]} == EXPECTED[data["id"]]
    else:
        assert data["kind"] == "passed"


def test_the_record_fields():
    rec = parse_record(records()[4])
    assert rec.id == "k5" and rec.tags["P0"] == "Anna"
    assert rec.moves[:3] == (("w", rec.moves[0][1]), ("1", "18"), ("0", "y"))
    assert rec.result["d"] == "0" and "overbid" in rec.result
    events = record_events(rec)
    assert [e.type for e in events[-33:-30]] == ["pick_up", "discard", "declare"]


@pytest.mark.parametrize("text", records())
def test_write_reads_back_the_same_moves(text):
    rec = parse_record(text)
    game = replay(rec).game
    written = parse_record(write_record(game, {"ID": rec.id or ""}))
    assert _normalised(written.moves) == _normalised(rec.moves)
    assert written.tags["ID"] == rec.id
    assert replay(written).to_json()["value"] == replay(rec).to_json()["value"]
    assert written.result.get("v") == rec.result.get("v")


def _normalised(moves):
    """A deal written with '|' is written back as one list of 32 cards."""
    out = []
    for who, what in moves:
        out.append((who, what.replace("|", ".") if who == "w" else what))
    return out


def test_a_random_deal_round_trips_through_the_record():
    for seed in range(20):
        deal = random_deal(random.Random(seed))
        game = SkatGame()
        for e in deal.events:
            game.apply(e)
        rec = parse_record(write_record(game))
        again = replay(rec)
        assert again.differs == () and again.game.verdicts == ()
        assert again.result == game.results[-1]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("GM[Skat]", "not an ISS record"),
        ("(;GM[Go]MV[w x];)", "not a Skat record"),
        ("(;GM[Skat];)", "no moves"),
        ("(;GM[Skat]MV[w];)", "in pairs"),
        ("(;GM[Skat]MV[w CJ.SJ];)", "the deal has 2 cards"),
        ("(;GM[Skat]MV[3 p];)", "move by '3'"),
        ("(;GM[Skat]MV[w ??.??];)", "world view"),
        ("(;GM[Skat]MV[w CJ.SJ] junk;)", "unexpected text"),
        # cut short inside its moves: it was "unexpected text 'MV[w CJ.SJ 1 p'"
        ("(;GM[Skat]MV[w CJ.SJ 1 p ;)", r"MV\[ is not closed by '\]': the record cut short\?"),
    ],
)
def test_malformed_records_name_what_is_wrong(text, why):
    with pytest.raises(InvalidEventError, match=why):
        record_events(parse_record(text))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="(;)[]GMSkatVw .CSHDJQKAT987pys0123RE", max_size=120))
def test_random_text_never_crashes_the_reader(text):
    try:
        rec = parse_record(text)
        replay(rec)
    except InvalidEventError:
        pass


# Hostile records (issue 12): each class of defect found by trying the command on bad
# input is refused with a short message naming it; nothing raises but InvalidEventError.

DEAL = (
    "CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK."
    "HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8.C7.D7"
)
PASSED = f"(;GM[Skat]ID[p]MV[w {DEAL} 1 p 2 p 0 p ]R[passed] ;)"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"(;GM[Skat]MV[w {DEAL} 1 p 2 p 0 p ]R[d:0 win v:abc] ;)", "v must be a whole number"),
        (f"(;GM[Skat]MV[w {DEAL} 1 p 2 p 0 p ]R[passed to:²] ;)", "to must be a whole number"),
        (f"(;GM[Skat]MV[w {DEAL} 1 18² 2 p 0 p ]R[passed] ;)", "not a bid"),
        (f"(;GM[Skat]MV[w {DEAL} 1 {'9' * 5000} 2 p ]R[passed] ;)", "not a bid"),
        (f"(;GM[Skat]MV[w {DEAL} 1 p 2 TI.² ]R[passed] ;)", "seat must be 0, 1 or 2"),
        ("(;GM[Skat]MV[w ||| 1 p 2 p 0 p ]R[passed] ;)", "hands of 0, 0, 0 cards"),
        ("(;GM[Skat]MV[w CJ|SJ|HJ|DJ.CA 1 p ]R[passed] ;)", "expected 10, 10, 10 and 2"),
    ],
)
def test_hostile_records_are_refused_naming_the_fault(text, why):
    with pytest.raises(InvalidEventError, match=why):
        replay(parse_record(text))


def test_an_error_never_echoes_a_huge_token_whole():
    for text in (
        "(;GM[Skat]" + "A" * 100_000 + ";)",
        f"(;GM[Skat]MV[w {DEAL} 1 " + "x" * 100_000 + " ]R[passed] ;)",
        f"(;GM[Skat]MV[w {DEAL} 1 p ]R[" + "q" * 100_000 + "] ;)",
        "(;GM[Skat]MV[w " + "CJ." * 30_000 + "ZZ ]R[passed] ;)",
    ):
        with pytest.raises(InvalidEventError) as err:
            replay(parse_record(text))
        assert len(str(err.value)) < 120, str(err.value)[:200]


def test_a_long_malformed_line_is_read_in_one_pass():
    # The tag reader searched for the next tag from every position of a malformed
    # line: a 40 kB line took 14 s. Anchored at each tag, a megabyte is one pass (a
    # quadratic reader would not finish this test).
    line = "(;GM[Skat]" + "ABC" * 350_000 + ";)"
    with pytest.raises(InvalidEventError, match="unexpected text 'ABCABC"):
        parse_record(line)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=len(PASSED)),
    st.integers(min_value=0, max_value=6),
    st.text(max_size=12),
)
def test_a_record_with_any_text_spliced_in_replays_or_is_refused(at, cut, text):
    # Any characters at all (superscript digits, other scripts, control characters)
    # put anywhere into a good record, replacing up to six of its own.
    mutated = PASSED[:at] + text + PASSED[at + cut :]
    try:
        replay(parse_record(mutated))
    except InvalidEventError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200


def test_every_record_after_hostile_ones_is_still_replayed(tmp_path, capsys):
    bad = tmp_path / "records.txt"
    bad.write_text(
        "\n".join(
            [
                f"(;GM[Skat]ID[a]MV[w {DEAL} 1 p 2 p 0 p ]R[d:0 win v:abc] ;)",
                f"(;GM[Skat]ID[b]MV[w {DEAL} 1 18² 2 p 0 p ]R[passed] ;)",
                f"(;GM[Skat]ID[c]MV[w {DEAL} 1 {'9' * 5000} ]R[passed] ;)",
                PASSED,
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    assert main(["skat", "replay", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["error", "error", "error", "p"]
    assert lines[3] == "p: passed in (agrees)"


def _lost_before_the_end(text: str, value: int) -> str:
    """The record replayed: a game lost for ``value`` before its last trick, agreeing
    with its result field, no verdict; the note that said so."""
    done = replay(parse_record(text))
    assert done.result is not None and done.result.kind == "game"
    assert done.result.won is False and done.result.value == value
    assert done.differs == () and done.game.verdicts == ()
    game = SkatGame()
    notes = [n for e in record_events(parse_record(text)) for n in game.apply(e).notes]
    return notes[-1]


# Spades hand, schneider announced, the defenders at 37 after trick 4 (no result field)
_SCHNEIDER_LOST = (
    "(;GM[Skat]ID[s]MV[w SJ.HJ.SA.ST.SK.SQ.S9.S8.H7.D7.CJ.DJ.HA.HT.DA.DT.CA.CT.C7.C8."
    "S7.HK.HQ.H9.H8.DK.DQ.D9.CK.CQ.C9.D8 1 p 2 p 0 18 0 SHS 0 H7 1 HA 2 H8 1 DA 2 DK "
    "0 D7 1 CJ 2 S7 0 S9 1 DJ 2 CK 0 SQ ]R[] ;)"
)


def test_an_ouvert_suit_game_is_lost_at_the_defenders_first_trick():
    # Spades ouvert (hand): the defenders take trick 1 and the game is lost there
    # (schwarz announced: Law 39, ISkO); a record that stops there is that loss.
    # Schneider and schwarz are counted as announced, but neither happened: the
    # adversaries have not reached 90 nor won every trick (Law 57), so s:0 z:0, as
    # the real ISS record 13577 in iss_public.txt writes it (this record said s:1
    # z:1, and the replay agreed with it).
    hand = "SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK"
    text = (
        f"(;GM[Skat]ID[o]MV[w {DEAL} 1 18 0 p 2 p 1 SOH.{hand} 0 CJ 1 S7 2 H7 ]"
        "R[d:1 loss v:-242 m:-4 bidok p:0 t:0 s:0 z:0] ;)"
    )
    note = _lost_before_the_end(text, -242)
    assert note == "trick 1: the defenders take a trick; the game announced schwarz is lost"
    # the declarer wins a trick first: nothing is decided until the defenders take one
    own = text.replace("0 CJ 1 S7 2 H7", "0 C8 1 SA 2 H7").replace("v:-242", "v:0")
    assert replay(parse_record(own)).result is None


def test_a_game_announced_schneider_is_lost_once_the_defenders_have_31():
    """Spades hand, schneider announced: the International Skat Server ends the game
    with the trick that gives the defenders 31 points (its records stop there), and
    the replay said "not finished" (a probe built on the server's own source). Lost
    there: spades 11 x (without 1, game, hand, schneider, announced) x 2 = -110; the
    flags s and z as the server writes them for a game stopped early (real record
    13577, the ouvert game above): neither happened."""
    text = _SCHNEIDER_LOST.replace("]R[]", "]R[d:0 loss v:-110 m:-1 bidok p:0 t:0 s:0 z:0]")
    assert _lost_before_the_end(text, -110) == (
        "trick 4: the defenders have taken 31 points or more; the game announced schneider is lost"
    )
    # three tricks in, the defenders have 28: nothing is decided yet
    three = text.replace(" 1 DJ 2 CK 0 SQ", "").replace("v:-110", "v:0")
    assert replay(parse_record(three)).result is None


def _schneider_lost_at_trick_4(rules: str = "isko") -> SkatGame:
    from rules.skat.rulesets import SkatRules

    game = SkatGame(SkatRules(rule_set=rules))
    for event in record_events(parse_record(_SCHNEIDER_LOST)):
        game.apply(event)
    assert len(game.results) == 1 and game.results[0].won is False
    assert rules != "isko" or game.results[0].value == -110
    return game


def test_a_claim_or_concession_after_an_early_loss_is_scored_once():
    """A review: a game lost before its last trick (a nullo, schwarz or, now,
    schneider announced) was scored then, and a concession or a claim after it
    was scored on top (the pad -110, then -242, two results), and the adversaries'
    right claim 'defeated' was judged mistaken against 60 and handed the player
    the game (Law 50). Scored again now, not twice; 'defeated' is the player short
    of what he announced (Law 39: 31 against a schneider)."""
    from rules.events import Claim, Concede

    game = _schneider_lost_at_trick_4()
    game.apply(Concede(0))
    assert len(game.results) == 1 and game.results[0].won is False
    assert list(game.pad) == list(game.results[0].changes)
    game = _schneider_lost_at_trick_4()
    out = game.apply(Claim(1, "defeated"))
    assert not [x for x in out.verdicts if x.kind == "claim-mistaken"], out
    assert len(game.results) == 1 and game.results[0].won is False
    assert list(game.pad) == list(game.results[0].changes)


def test_the_laws_of_1906_lose_an_announced_schneider_early_too():
    # schneider is 91 in the laws of 1906 (Law 56): 30 against leaves the player
    # short of it (the line is 120 - schneider_at, not the ISkO's 30); 37 here
    game = _schneider_lost_at_trick_4("foster1906")
    assert game.results[0].won is False and game.deal is not None
    assert game.deal.decided_at == 4


# The command line ------------------------------------------------------------------------


def test_kiebitz_skat_replay_json_one_line_a_record(capsys):
    assert main(["skat", "replay", str(RECORDS), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(records())
    first = json.loads(lines[0])
    for key in ("declarer", "won", "value", "matadors", "points", "tricks", "schneider",
                "schwarz", "overbid", "verdicts"):  # fmt: skip
        assert key in first
    assert first["value"] == 192 and first["agrees"] is True


def test_kiebitz_skat_replay_goes_on_after_a_malformed_record(tmp_path, capsys):
    bad = tmp_path / "records.txt"
    good = records()
    bad.write_text("\n".join([good[0], "(;GM[Skat]MV[w CJ];)", good[1]]) + "\n")
    assert main(["skat", "replay", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("k1: seat 0 grand hand won 192")
    assert lines[1] == "error: line 2: the deal has 1 cards, expected 32"
    assert lines[2].startswith("k2: seat 0 grand hand lost -192")


def test_replay_json_says_a_refused_record_as_json_too():
    # a plain "error: line 2: ..." among the JSON objects broke a reader taking one
    # object a line (a bad-input sweep's find)
    good = records()[0]
    out = io.StringIO()
    assert replay_lines([good, "garbage line", good], rules="isko", as_json=True, out=out) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 3 and lines[0] == lines[2] and "declarer" in json.dumps(lines[0])
    assert lines[1] == {"line": 2, "error": lines[1]["error"]}
    assert lines[1]["error"].startswith("not an ISS record")


def test_replay_lists_verdicts_with_seat_trick_and_cards():
    # Record k2 with Mittelhand's HA (ace of hearts) and DJ swapped.
    text = records()[1].replace("0 CJ 1 DJ 2 D9", "0 CJ 1 HA 2 D9")
    text = text.replace("1 HA 2 H7", "1 DJ 2 H7")
    out = io.StringIO()
    assert replay_lines([text], rules="isko", as_json=True, out=out) == 1
    data = json.loads(out.getvalue())
    # Mittelhand did not follow the jack of clubs (AH) holding three jacks: the
    # record gives the deal, so the revoke is flagged at once, with the best jack he
    # held as evidence; Law 53 gives the player the game.
    assert data["verdicts"] == [{"kind": "revoke", "seat": 1, "trick": 1, "cards": ["AH", "JS"]}]
    assert data["won"] is True and "won" in data["differs"]


def test_replay_under_the_laws_of_1906(capsys):
    assert main(["skat", "replay", str(RECORDS), "--rules", "foster1906"]) == 1
    out = capsys.readouterr().out
    # Record k1 is a grand hand, a solo grand of 20: with 4, schwarz unannounced
    # (Law 2: 3), (4 + 3) x 20 = 140.
    assert out.splitlines()[0].startswith("k1: seat 0 grand hand won 140")


# Games cut short ---------------------------------------------------------------------------


def _cut_short(after: str, move: str, result: str) -> str:
    """Record k1 with its moves stopped after ``after`` by ``move``, and ``result``."""
    text = records()[0]
    head, _, _ = text.partition(after)
    return f"{head}{after} {move} ]R[{result}] ;)"


def test_a_game_ended_by_a_timeout_is_reported_as_such_not_as_half_a_game():
    text = _cut_short(
        "0 SJ 1 S8",
        "2 TI.2",
        "d:0 penalty v:0 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:2 r:0",
    )
    data = replay(parse_record(text)).to_json()
    assert data["kind"] == "timeout"
    # Seat 2 ran out of time in trick 2, five cards played: no result of the game.
    assert data["ended"] == {
        "by": "timeout",
        "seat": 2,
        "phase": "play",
        "trick": 2,
        "cards_played": 5,
    }
    assert all(data[k] is None for k in ("won", "value", "points", "tricks", "declarer"))
    assert data["verdicts"] == [] and data["agrees"] is True
    # The record naming another seat does not agree.
    other = text.replace("to:2", "to:1")
    assert replay(parse_record(other)).to_json()["differs"] == ["ended"]


# Real deals (10327743, 684159 in iss_public.txt) cut short in their ninth trick, the
# result fields as the server's own source settles such a game (a helper's probe)
_DEFENDER_OUT_LOST = (
    "(;GM[Skat]PC[probe]CO[]SE[469759]ID[10327743_defender_timeout_after_"
    "def_61]DT[2026-09-23/23:18:34/UTC]P0[SkatAI]P1[zoot]P2[kermit]R0[0.0]R1[]R2[]MV[w CJ.H8."
    "SK.H9.DJ.C9.S7.H7.CA.CQ.S8.DT.CK.SQ.ST.HQ.S9.D8.D9.HK.DQ.DK.D7.HA.SJ.DA.C8.HT.HJ.SA.C7.C"
    "T 1 p 2 18 0 y 2 20 0 y 2 22 0 y 2 23 0 y 2 24 0 y 2 27 0 y 2 30 0 y 2 33 0 y 2 35 0 y 2"
    " 36 0 y 2 40 0 y 2 44 0 y 2 45 0 y 2 46 0 y 2 48 0 y 2 p 0 s w C7.CT 0 G 0 SK.S7 0 CJ 1 "
    "CK 2 HJ 0 C7 1 HK 2 C8 2 SJ 0 DJ 1 HQ 2 HT 0 H7 1 SQ 2 DQ 0 CT 1 D9 2 SA 0 C9 1 S9 2 D7 "
    "0 CQ 1 DT 1 ST 2 DA 0 H8 w TI.1 ]R[d:0 loss v:-96 m:1 bidok p:38 t:3 s:0 z:0 p0:0 p1:0 p"
    "2:0 l:-1 to:1 r:0] ;)"
)
_PLAYER_OUT_WON = (
    "(;GM[Skat]PC[probe]ID[t_decl_timeout_with_61]P0[foo]P1[xskat:2]P2[xskat]MV[w SQ.DK.ST.S7"
    ".CT.HK.S9.SK.H7.C7.DT.CA.CQ.CK.DJ.DA.H8.SA.D7.C8.SJ.HA.CJ.S8.C9.DQ.HJ.HQ.D9.D8.HT.H9 1 1"
    "8 0 y 1 20 0 y 1 22 0 y 1 23 0 y 1 24 0 y 1 p 2 27 0 p 2 s w HT.H9 2 G.S8.C9 0 DK 1 DA 2"
    " D8 1 DT 2 D9 0 ST 1 SA 2 CJ 0 S7 2 HJ 0 CT 1 DJ 2 DQ 0 C7 1 D7 2 HA 0 H7 1 H8 2 HT 0 HK"
    " 1 C8 2 HQ 0 S9 1 CQ w TI.2 ]R[d:2 win v:96 m:3 bidok p:61 t:6 s:0 z:0 p0:0 p1:0 p2:0 l:"
    "-1 to:2 r:0] ;)"
)


def test_a_game_cut_short_is_won_by_the_side_it_was_decided_for():
    """The replay took it that the side that ran out of time or left lost. The ISkO
    ends a game at a party's breach and lets a game already decided stand, won "with
    the points it had" (4.1.3; 4.3.3 for a defender giving up), and the server scores
    it so: a defender's timeout gives the player the rest of the tricks, but the
    defenders holding 82 already, he loses; the player timing out with 61 already
    (the skat counted), he wins."""
    for text, won in ((_DEFENDER_OUT_LOST, False), (_PLAYER_OUT_WON, True)):
        done = replay(parse_record(text))
        assert done.ended is not None and done.to_json()["kind"] == "timeout"
        assert done.differs == (), text
        flipped = text.replace("win", "loss") if won else text.replace("loss", "win")
        assert replay(parse_record(flipped)).differs == ("won",)


def test_a_player_leaving_in_the_auction_and_a_finished_game_say_how_they_ended():
    text = _cut_short("1 p 2 p", "w LE.0", "d:-1 penalty v:0 l:0 to:-1")
    data = replay(parse_record(text)).to_json()
    assert (data["kind"], data["ended"]) == (
        "left",
        {"by": "left", "seat": 0, "phase": "bidding", "trick": None, "cards_played": 0},
    )
    assert replay(parse_record(records()[0])).to_json()["ended"] is None


def test_the_plain_replay_line_says_how_a_cut_short_game_ended():
    from controller.cli_skat import format_replay

    text = _cut_short(
        "0 SJ 1 S8",
        "2 TI.2",
        "d:0 penalty v:0 m:0 bidok p:0 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:2 r:0",
    )
    line = format_replay(replay(parse_record(text)))
    assert "ended by timeout (seat 2, trick 2)" in line and line.endswith("(agrees)")
    left = _cut_short("1 p 2 p", "w LE.0", "d:-1 penalty v:0 l:0 to:-1")
    assert "ended as a player left (seat 0, bidding)" in format_replay(replay(parse_record(left)))


@pytest.mark.parametrize("text", ["", "# the club's records, to come\n\n"])
def test_a_file_with_no_record_is_an_error_not_silence(text, tmp_path, capsys, monkeypatch):
    # an empty file, or comments only, printed nothing with status 0: nothing checked;
    # then it was status 2 with the message on stdout, naming no file. Bad input
    # (docs/cli.md): one line on stderr naming the file, nothing on stdout.
    out = io.StringIO()
    with pytest.raises(UsageError, match=r"^stdin: no game record in the input"):
        replay_lines(text.splitlines(), rules="isko", as_json=False, out=out)
    assert out.getvalue() == ""
    empty = tmp_path / "empty.txt"
    empty.write_text(text, encoding="utf-8")
    assert main(["skat", "replay", str(empty)]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert got.err == (
        f"kiebitz: error: {empty}: no game record in the input (one a line: '(;GM[Skat]…;)')\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["skat", "replay", "-"]) == 2
    got = capsys.readouterr()
    assert got.out == "" and got.err.startswith("kiebitz: error: stdin: no game record")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "records.txt"
    path.write_text(text + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("cut", [r"R\[[^]]*\]", r"(?<=R\[)[^]]*(?=\])"])
def test_a_record_without_a_result_does_not_agree_or_differ(tmp_path, capsys, cut):
    # no R[…] (or an empty one) said "(agrees)" and "agrees": true: nothing compared
    import re

    text = re.sub(cut, "", records()[0], count=1)
    assert parse_record(text).result == {}
    done = replay(parse_record(text))
    assert done.agrees is None and done.to_json()["agrees"] is None
    path = _write(tmp_path, text)
    assert main(["skat", "replay", str(path)]) == 0
    assert capsys.readouterr().out == (
        "k1: seat 0 grand hand won 192 (matadors 4, 120 points, 10 tricks, schneider, "
        "schwarz) (no result in the record)\n"
    )
    assert main(["skat", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["agrees"], data["differs"]) == (None, [])
    assert replay(parse_record(records()[0])).agrees is True


def test_the_servers_unknown_result_is_no_result():
    """The server writes R[unknown] for a game it did not finish (GameResult in its
    source); the replay refused the line, "unknown result token 'unknown'"."""
    import re

    text = re.sub(r"(?<=R\[)[^]]*(?=\])", "unknown", records()[0], count=1)
    assert "R[unknown]" in text and parse_record(text).result == {}
    assert replay(parse_record(text)).agrees is None
    with pytest.raises(InvalidEventError, match="unknown result token 'unknowns'"):
        parse_record(text.replace("R[unknown]", "R[unknowns]"))


def test_a_deal_that_is_no_skat_pack_is_refused(tmp_path, capsys):
    # CJ twice and no SJ: replayed, with the referee's verdicts beside the result
    text = records()[0].replace("CJ.SJ", "CJ.CJ", 1)
    with pytest.raises(InvalidEventError) as info:
        replay(parse_record(text))
    assert str(info.value) == "the deal has CJ twice and lacks SJ (an imperfect pack: Law 19)"
    assert main(["skat", "replay", str(_write(tmp_path, text))]) == 1
    assert capsys.readouterr().out == (
        "error: line 1: the deal has CJ twice and lacks SJ (an imperfect pack: Law 19)\n"
    )
    three = DEAL.replace("SJ", "CJ").replace("HJ", "CJ")
    with pytest.raises(InvalidEventError, match="has CJ three times and lacks SJ, HJ"):
        record_events(parse_record(f"(;GM[Skat]MV[w {three} 1 p 2 p 0 p ]R[passed] ;)"))
    hands = "CJ.CJ.HJ.DJ.CA.CT.CK.CQ.C9.C8|SA.ST.SK.SQ.S9.S8.S7.HA.HT.HK|"
    hands += "HQ.H9.H8.H7.DA.DT.DK.DQ.D9.D8|C7.D7"  # written with '|': the same check
    with pytest.raises(InvalidEventError, match="the deal has CJ twice and lacks SJ"):
        record_events(parse_record(f"(;GM[Skat]MV[w {hands} 1 p 2 p 0 p ]R[passed] ;)"))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # H7 played twice by seat 2: the verdict was listed, and "(agrees)", status 0
        (
            "0 CJ 1 S7 2 D8",
            "0 CJ 1 S7 2 H7",
            "move 2 'H7' (trick 7): seat 2 does not hold H7 (H7 already played by seat 2)",
        ),
        (
            "2 D8 0 SJ",
            "2 D8 0 D9",
            "move 0 'D9' (trick 2): seat 0 does not hold D9 (D9 is in seat 2's hand)",
        ),
        (
            "2 D8 0 SJ",
            "2 D8 0 C7",
            "move 0 'C7' (trick 2): seat 0 does not hold C7 (C7 is in the skat)",
        ),
    ],
)
def test_a_card_the_player_does_not_hold_is_refused_naming_the_move(
    tmp_path, capsys, old, new, message
):
    text = records()[0]
    assert old in text
    text = text.replace(old, new, 1)
    with pytest.raises(InvalidEventError) as info:
        replay(parse_record(text))
    assert str(info.value) == message
    assert main(["skat", "replay", str(_write(tmp_path, text))]) == 1
    assert capsys.readouterr().out == f"error: line 1: {message}\n"


def test_cards_laid_away_that_the_player_does_not_hold_are_refused():
    text = next(r for r in records() if "ID[k5]" in r)
    assert replay(parse_record(text)).differs == ()
    broken = text.replace("0 C.S8.H7", "0 C.S8.SJ", 1)
    with pytest.raises(InvalidEventError) as info:
        replay(parse_record(broken))
    assert str(info.value) == "move 0 'C.S8.SJ': seat 0 does not hold SJ (SJ is not the player's)"


def _record(ident: str) -> str:
    return next(r for r in records() if f"ID[{ident}]" in r)


def _refused(tmp_path, capsys, broken: str) -> str:
    """Why the replay refuses ``broken``, which `skat replay` says on its line."""
    with pytest.raises(InvalidEventError) as info:
        replay(parse_record(broken))
    assert main(["skat", "replay", str(_write(tmp_path, broken))]) == 1
    assert capsys.readouterr().out == f"error: line 1: {info.value}\n"
    return str(info.value)


@pytest.mark.parametrize(
    ("ident", "old", "new", "message"),
    [
        # SA laid away twice: replayed with SA's points counted twice (43 for 42) and
        # no word, ST kept as an eleventh card
        ("k6", "1 NO.SA.ST.CA.H7.H8.H9.D7.D8.D9.SJ.SQ.SK", "1 N.SA.SA", "move 1 'N.SA.SA'"),
        ("k5", "0 C.S8.H7", "0 C.S8.S8", "move 0 'C.S8.S8'"),
    ],
)
def test_a_card_laid_away_twice_is_refused(tmp_path, capsys, ident, old, new, message):
    text = _record(ident)
    assert old in text
    card = new[-2:]
    why = f"seat {new[0]} does not hold {card} ({card} laid out twice)"
    assert _refused(tmp_path, capsys, text.replace(old, new, 1)) == f"{message}: {why}"


def test_a_card_laid_away_twice_is_a_duplicate_to_the_engine_and_counted_once():
    from rules.cards import SKAT_DECK
    from rules.skat.events import Bid, Deal, Discard, Pass, PickUp

    g = SkatGame()
    hands = (SKAT_DECK[:10], SKAT_DECK[10:20], SKAT_DECK[20:30])
    for e in [Deal(dealer=2, hands=hands, skat=SKAT_DECK[30:]), Bid(1, 18), Pass(0), Pass(2)]:
        g.apply(e)
    g.apply(PickUp(1, ()))
    ace = SKAT_DECK[10]  # the ace of spades, Mittelhand's
    assert [x.kind for x in g.apply(Discard(1, (ace, ace))).verdicts] == ["duplicate-card"]
    assert g.deal is not None and g.deal.laid == [ace]


@pytest.mark.parametrize(
    ("shown", "message"),
    [
        # four cards of the ten: listed beside "(agrees)", status 0
        ("CA.H7", "the open hand shows 2 cards, not the ten the player holds"),
        # C7 is Vorhand's: listed beside "(agrees)", status 0
        (
            "CA.H7.H8.H9.D7.D8.D9.SJ.SQ.C7",
            "(trick 1): seat 1 does not hold C7 (C7 is in seat 0's hand)",
        ),
        # SQ twice and SK left out: taken without a word, "(agrees)"
        (
            "CA.H7.H8.H9.D7.D8.D9.SJ.SQ.SQ",
            "(trick 1): seat 1 does not hold SQ (SQ laid down twice)",
        ),
    ],
)
def test_an_open_hand_that_is_not_the_players_is_refused(tmp_path, capsys, shown, message):
    text = _record("k6")
    hand = "CA.H7.H8.H9.D7.D8.D9.SJ.SQ.SK"
    assert f"1 NO.SA.ST.{hand}" in text
    said = _refused(tmp_path, capsys, text.replace(f"1 NO.SA.ST.{hand}", f"1 NO.SA.ST.{shown}", 1))
    assert said.startswith("move 1 'NO.SA.ST.")
    assert said.endswith(message)


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        # two of Vorhand's nine: a "wrong-number-of-cards" verdict beside "(agrees)"
        ("SC.CA.CT", "the hand shown with the claim has 2 cards, not the 9 seat 0 holds"),
        ("SC.DJ.CA.CT.CK.CQ.C9.S7.HK.DA.CA", "seat 0 does not hold CA (CA laid down twice)"),
        (
            "SC.DJ.CA.CT.CK.CQ.C9.S7.HK",
            "the hand shown with the claim has 8 cards, not the 9 seat 0 holds",
        ),
        ("SC.DJ.CA.CT.CK.CQ.C9.S7.HK.SJ", "seat 0 does not hold SJ (SJ is in seat 1's hand)"),
    ],
)
def test_laws_49_50_a_claim_showing_a_hand_not_the_claimants_is_refused(
    tmp_path, capsys, claim, message
):
    text = _record("k5")
    old = " 0 HJ 1 CJ 2 D7 "
    assert old in text
    # Vorhand, the player, shows his cards after trick 1: the record still agrees
    whole = text.replace(old, f"{old}0 SC.DJ.CA.CT.CK.CQ.C9.S7.HK.DA ", 1)
    assert replay(parse_record(whole)).differs == ()
    said = _refused(tmp_path, capsys, text.replace(old, f"{old}0 {claim} ", 1))
    assert said.startswith("move 0 'SC.") and " (trick 2): " in said
    assert said.endswith(message)


@pytest.mark.parametrize(
    ("new", "message"),
    [
        # taken up again: replayed without a word, "(agrees)"
        (
            "0 s w S8.H7 0 s w S8.H7 0 C.S8.H7",
            "move 0 's': the skat taken up twice in deal 1: the player takes it up once "
            "and lays out two cards in its place (Law 32)",
        ),
        (
            "0 s w S8.H7 0 C.S8.H7 0 s",
            "move 0 's': the skat taken up twice in deal 1: the player takes it up once "
            "and lays out two cards in its place (Law 32)",
        ),
        (
            "0 s w S8.H7 1 s 0 C.S8.H7",
            "move 1 's': seat 1 is not the single player (seat 0) (Laws 24, 36)",
        ),
        ("0 s w S8.H8 0 C.S8.H7", "move 0 's': H8 is not in the skat"),
    ],
)
def test_law_32_the_skat_taken_up_twice_is_refused(tmp_path, capsys, new, message):
    text = _record("k5")
    old = "0 s w S8.H7 0 C.S8.H7"
    assert old in text
    assert _refused(tmp_path, capsys, text.replace(old, new, 1)) == message


@pytest.mark.parametrize(
    ("ident", "old", "new", "message"),
    [
        # each was an "out-of-phase" verdict listed beside "(agrees)", status 0
        ("k1", " 2 HQ ]", " 2 HQ 0 CJ ]", "move 0 'CJ': a card after the deal was over"),
        ("k1", " 0 CJ 1 S7", " 0 18 0 CJ 1 S7", "move 0 '18' (trick 1): a bid in the play"),
        (
            "k1",
            " 0 18 0 GH",
            " 0 18 1 20 0 GH",
            "move 1 '20': a bid after the bidding, before the game was declared",
        ),
        ("k1", " 2 HQ ]", " 2 HQ 0 RE ]", "move 0 'RE': a resignation after the deal was over"),
        ("k4", " 0 p ]", " 0 p 0 GH ]", "move 0 'GH': a game declared after the deal was over"),
        # a card in a game passed in: it said "unknown game code 'CJ'"
        ("k4", " 0 p ]", " 0 p 0 CJ ]", "move 0 'CJ': a card before any game"),
    ],
)
def test_a_move_out_of_its_phase_is_refused(tmp_path, capsys, ident, old, new, message):
    text = _record(ident)
    assert old in text
    assert _refused(tmp_path, capsys, text.replace(old, new, 1)) == message


def test_a_record_wrapped_over_lines_is_read_whole(tmp_path, capsys):
    # An SGF writer breaks lines between tags and moves (and Windows ends them with
    # CRLF): each line was "error: line N: not an ISS record", nothing replayed.
    text = records()[0]
    wrapped = text.replace("MV[", "\r\nMV[").replace(" 0 SJ ", "\r\n0 SJ ")
    wrapped = wrapped.replace("]R[", "]\r\nR[")
    path = tmp_path / "records.txt"
    path.write_bytes(f"{wrapped}\r\n\r\n{text}\r\n".encode())
    assert main(["skat", "replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.endswith("(agrees)") for line in lines)
    assert lines[0] == lines[1]


def test_a_record_cut_short_is_named_at_its_first_line_and_the_rest_go_on(tmp_path, capsys):
    text = records()[0]
    path = _write(tmp_path, f"{text[:200]}\n{text}\n# a comment\n{text[:300]}")
    assert main(["skat", "replay", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "error: line 1: the record has no ')' before the next begins: cut short?",
        "k1: seat 0 grand hand won 192 (matadors 4, 120 points, 10 tricks, schneider, "
        "schwarz) (agrees)",
        "error: line 4: the record has no ')' before the input ends: cut short?",
    ]
    # a record wrapped past the length of a line is not held: named once
    body = "\n".join(["(;GM[Skat]MV[w", *(["CJ " * 30] * 2000), "];)", text])
    assert main(["skat", "replay", str(_write(tmp_path, body))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "error: line 1: a record longer than 65,536 bytes: not read"
    assert out[1].startswith("k1: ") and len(out) == 2


def test_two_records_on_one_line_are_named_so():
    text = records()[0]
    with pytest.raises(InvalidEventError, match=r"^a second record on the line: one record a"):
        parse_record(text + text)


def test_a_verdict_of_the_bidding_is_listed_without_a_trick(tmp_path, capsys):
    # 19 is no game's value (Law 33): the verdict was listed as "trick None"
    text = records()[0].replace(" 0 18 0 GH", " 0 19 0 GH", 1)
    assert main(["skat", "replay", str(_write(tmp_path, text))]) == 0
    assert "[invalid-bid seat 0] (agrees)" in capsys.readouterr().out
