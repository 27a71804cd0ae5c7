"""Real International Skat Server records, from public repositories, replayed.

tests/data/skat/iss_public.txt holds game records the server wrote (copied from
client test fixtures, bot logs and notebooks; each line names its source above it).
Every one must replay through Kiebitz and agree with its own R field. Unlike the
hand-written records of iss_records.txt, nobody here chose what the result says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from rules.errors import InvalidEventError
from rules.skat.iss import parse_record, read_records, replay

PUBLIC = Path(__file__).parent / "data" / "skat" / "iss_public.txt"


def public_records() -> list[tuple[str, str]]:
    """(source, record) for every record of the file; fails if the file is missing."""
    assert PUBLIC.is_file(), f"{PUBLIC} is missing: the real ISS records are the test"
    out: list[tuple[str, str]] = []
    previous = ""
    for line in PUBLIC.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text.startswith("(;"):
            # the line just above a record names its source
            out.append((previous[2:] if previous.startswith("# ") else "", text))
        previous = text
    return out


def _by_id(ident: str) -> str:
    for _, text in public_records():
        if parse_record(text).id == ident:
            return text
    raise AssertionError(f"record {ident} is not in {PUBLIC.name}")


def test_the_file_holds_thirty_real_records_each_with_its_source():
    records = public_records()
    assert len(records) >= 30
    assert all(source for source, _ in records), "every record names where it came from"
    ids = [parse_record(text).id for _, text in records]
    assert len(set(ids)) == len(ids), "no record twice"
    # the file's records are exactly what read_records reads from it
    with PUBLIC.open(encoding="utf-8") as f:
        assert [t for _, t in read_records(f)] == [t for _, t in records]


@pytest.mark.parametrize(
    "text", [t for _, t in public_records()], ids=lambda t: parse_record(t).id or "?"
)
def test_every_public_record_replays_and_agrees_with_its_result(text):
    done = replay(parse_record(text))
    assert done.differs == (), (done.differs, done.to_json())
    assert done.agrees is True


def test_the_command_line_replay_agrees_with_every_public_record(capsys):
    assert main(["skat", "replay", str(PUBLIC)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(public_records())
    assert all(line.endswith("(agrees)") for line in lines), lines


# The faults the real records found ----------------------------------------------------


def test_a_game_lost_at_the_defenders_first_trick_was_not_made_schneider_or_schwarz():
    # ISS 13577: clubs ouvert (hand, schneider and schwarz announced), lost when the
    # defenders take trick 1 (SA S8 SK); the player has the skat's 13 points and no
    # trick. The record: v:-192 (12 x 8, doubled) with s:0 z:0. Kiebitz said
    # schneider and schwarz (13 <= 30, 0 tricks) as if the game had been played out;
    # but "If they get to 90, they make him schneider; and if they win every trick
    # they make him schwarz" (Law 57), and neither happened before it stopped.
    data = replay(parse_record(_by_id("13577"))).to_json()
    assert (data["won"], data["value"], data["points"], data["tricks"]) == (False, -192, 13, 0)
    assert (data["schneider"], data["schwarz"]) == (False, False)
    assert data["agrees"] is True


def test_an_unknown_card_before_a_player_leaves_ends_the_replay_there():
    # ISS 18358: '2 G.DT.ST 0 ?? w LE.1': Vorhand's card is not shown, Mittelhand
    # leaves. It was refused ("move 0 '??': not a move of the record format").
    text = _by_id("18358")
    data = replay(parse_record(text)).to_json()
    assert data["kind"] == "left"
    assert data["ended"] == {
        "by": "left", "seat": 1, "phase": "play", "trick": 1, "cards_played": 0,
    }  # fmt: skip
    # The server gave the game to the single player whose adversary left: 'd:2 win'.
    assert data["agrees"] is True
    lost = text.replace("d:2 win", "d:2 loss")
    assert replay(parse_record(lost)).differs == ("won",)
    other = text.replace("d:2 win", "d:0 win")
    assert replay(parse_record(other)).differs == ("declarer",)


def test_a_player_running_out_of_time_before_laying_away_ends_the_replay_there():
    # ISS 10330141: '1 s w DA.H7 1 C w TI.1': clubs named, the two cards never laid
    # away, the player runs out of time. It was refused ("move 1 'C': two cards laid
    # away expected").
    text = _by_id("10330141")
    data = replay(parse_record(text)).to_json()
    assert data["kind"] == "timeout"
    assert data["ended"] == {
        "by": "timeout", "seat": 1, "phase": "declaring", "trick": None, "cards_played": 0,
    }  # fmt: skip
    # The server scored the single player who timed out as losing ('d:1 loss', with
    # its own 'm:-11', which is not reproduced): that agrees; a win would not.
    assert data["agrees"] is True
    won = text.replace("d:1 loss", "d:1 win")
    assert replay(parse_record(won)).differs == ("won",)


def test_an_unknown_card_not_followed_by_an_end_is_refused_in_one_line():
    text = _by_id("18358").replace("0 ?? w LE.1 ", "0 ?? 1 S7 ")
    with pytest.raises(InvalidEventError) as err:
        replay(parse_record(text))
    message = str(err.value)
    assert "\n" not in message and message.startswith("move 0 '??'")
    assert "does not show" in message


def test_a_game_named_without_its_cards_laid_away_and_no_end_is_still_refused():
    text = _by_id("10330141").replace("1 C w TI.1 ", "1 C ")
    with pytest.raises(InvalidEventError, match="two cards laid away expected"):
        replay(parse_record(text))


def test_the_json_replay_of_the_public_records(capsys):
    assert main(["skat", "replay", str(PUBLIC), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["agrees"] for r in rows] == [True] * len(public_records())
    kinds = {r["kind"] for r in rows}
    assert {"game", "passed", "timeout", "left"} <= kinds
