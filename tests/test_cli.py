"""The ``kiebitz`` command line: contracts other tools rely on.

Most cases run ``main(argv)`` in-process; a few run the installed console script
(and ``python -m controller.cli``) as a real process to prove the entry point.

Every expected score below is counted by hand from the rule texts, with the
count written beside it; none is copied from the code under test.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import pytest

import controller.cli_cribbage
import controller.demo
from controller.cli import main

REPO = Path(__file__).resolve().parent.parent

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run ``main`` on the words given; return (status, stdout, stderr)."""

    def _run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return _run


def assert_usage_error(result: tuple[int, str, str], *needles: str) -> None:
    """Exit 2, nothing on stdout, exactly one stderr line naming what was wrong."""
    status, out, err = result
    assert status == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("kiebitz: error: ")
    for needle in needles:
        assert needle in lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- version and help ----------------------------------------------------------


def test_version(run: Run) -> None:
    with (REPO / "pyproject.toml").open("rb") as handle:
        declared = tomllib.load(handle)["project"]["version"]
    assert run("--version") == (0, f"kiebitz {declared}\n", "")


@pytest.mark.parametrize(
    "argv", [["--help"], ["cribbage", "--help"], ["cribbage", "score", "--help"], ["demo", "-h"]]
)
def test_help_exits_zero(run: Run, argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert status == 0
    assert out.startswith("usage: kiebitz")
    assert err == ""


# --- cribbage score --------------------------------------------------------------

# 5H 5S 5C JD with the 5D: the jack with each five (4 fifteens), each three of the
# four fives (4 fifteens) = 16; double pair royal 12 = 28; his nobs (JD, starter a
# diamond) = 29.
BEST_HAND_SPEECH = (
    "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
    "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight "
    "and his nobs is twenty-nine"
)


def test_score_human_format(run: Run) -> None:
    status, out, err = run("cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5D")
    assert (status, err) == (0, "")
    first, *items = out.splitlines()
    assert first == "29: " + BEST_HAND_SPEECH
    assert len(items) == 10
    parsed = []
    for line in items:
        assert line.startswith("  ")
        kind, points, cards = line[2:19].rstrip(), int(line[19:22]), line[24:].split()
        parsed.append((kind, points, frozenset(cards)))
    assert sum(points for _, points, _ in parsed) == 29
    fives = {"5H", "5S", "5C", "5D"}
    jack_fifteens = {frozenset({five, "JD"}) for five in fives}
    three_fives = {frozenset(fives - {left_out}) for left_out in fives}
    assert {c for k, p, c in parsed if k == "fifteen" and p == 2} == jack_fifteens | three_fives
    assert ("double pair royal", 12, frozenset(fives)) in parsed
    assert ("his nobs", 1, frozenset({"JD"})) in parsed


def test_score_json_shape(run: Run) -> None:
    status, out, err = run("cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5D", "--json")
    assert (status, err) == (0, "")
    assert out.count("\n") == 1  # exactly one JSON object, on one line
    data: dict[str, Any] = json.loads(out)
    assert data["total"] == 29
    assert data["hand"] == ["5H", "5S", "5C", "JD"]
    assert data["starter"] == "5D"
    assert data["crib"] is False
    assert data["speech"] == BEST_HAND_SPEECH
    for item in data["items"]:
        assert set(item) == {"kind", "points", "cards"}
        assert isinstance(item["kind"], str) and isinstance(item["points"], int)
        assert all(isinstance(card, str) for card in item["cards"])
    kinds = [item["kind"] for item in data["items"]]
    assert kinds == ["fifteen"] * 8 + ["double pair royal", "his nobs"]
    assert sum(item["points"] for item in data["items"]) == 29
    assert {"kind": "his nobs", "points": 1, "cards": ["JD"]} in data["items"]


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total"),
    [
        # Fifteens 7+8 four ways (8), two pairs (4), four runs of three 7-8-9 (12).
        ("7H 7S 8C 8D", "9D", False, 24),
        # Pips 1 2 3 4 4 sum to 14: no fifteen; pair of fours 2; double run of four 8.
        ("2H 3C 4H 4S", "AD", False, 10),
        # Pips 2 6 8 10 10: no fifteen; a four-card flush in hand counts 4 ...
        ("2H 6H 8H 10H", "KD", False, 4),
        # ... but not in the crib unless the starter is of the suit (seed 003) ...
        ("2H 6H 8H 10H", "KD", True, 0),
        # ... and with a heart starter it is five, hand or crib.
        ("2H 6H 8H 10H", "KH", True, 5),
        # All pips even, so no fifteen; no pair, no run: nineteen, i.e. nothing.
        ("2S 4D 6C 8H", "KC", False, 0),
        # Pips 10 2 4 6 8: no fifteen, no run; his nobs (jack of the starter's suit) 1.
        ("JH 2S 4D 6C", "8H", False, 1),
        # Five-card cribbage, three in hand: J+5 three ways and 5+5+5 (8), pair royal 6,
        # his nobs 1.
        ("5H 5S JD", "5D", False, 15),
        # Eight-card cribbage, six in hand: all pips even, three pairs (6), no run.
        ("2S 2D 4C 4H 6S 6D", "8C", False, 6),
    ],
)
def test_score_totals(run: Run, hand: str, starter: str, crib: bool, total: int) -> None:
    argv = ["cribbage", "score", *hand.split(), "--starter", starter]
    if crib:
        argv.append("--crib")
    status, out, err = run(*argv, "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["total"] == total
    assert data["crib"] is crib
    assert sum(item["points"] for item in data["items"]) == total
    status, out, _ = run(*argv)
    assert status == 0
    assert out.splitlines()[0].split(":")[0] == str(total)


def test_score_nothing_is_said_as_nothing(run: Run) -> None:
    assert run("cribbage", "score", "2S", "4D", "6C", "8H", "--starter", "KC") == (
        0,
        "0: nothing\n",
        "",
    )


def test_score_accepts_other_card_spellings(run: Run) -> None:
    status, out, _ = run("cribbage", "score", "5h,5s", "5♣", "🃋", "--starter", "5D", "--json")
    assert status == 0
    assert json.loads(out)["hand"] == ["5H", "5S", "5C", "JD"]
    assert json.loads(out)["total"] == 29


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["cribbage", "score", "5H", "5S", "ZZ", "JD", "--starter", "5D"], ["invalid card 'ZZ'"]),
        (
            ["cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "ZZ"],
            ["invalid card 'ZZ': unknown suit 'Z' (use S H D C)"],
        ),
        (["cribbage", "score", "5H", "5S", "11C", "JD", "--starter", "5D"], ["'11C'", "'11'"]),
        (["cribbage", "score", "5H", "5S", "5C", "JD"], ["--starter"]),
        (["cribbage", "score", "--starter", "5D"], ["no cards"]),
        (["cribbage", "score", "5H", "5S", "5C", "JD", "4D", "--starter", "5D"], ["not 5"]),
        (["cribbage", "score", "5H", "5S", "--starter", "5D"], ["not 2"]),
        (["cribbage", "score", "5H", "5S", "JD", "--starter", "5D", "--crib"], ["crib", "not 3"]),
        (["cribbage", "score", "5H", "5H", "5C", "JD", "--starter", "5D"], ["duplicate", "5H"]),
        (["cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5H"], ["duplicate", "5H"]),
        (["cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5D", "--bogus"], ["--bogus"]),
        # Abbreviations are off, so a later option cannot change an old command line.
        (["cribbage", "score", "5H", "5S", "5C", "JD", "--start", "5D"], ["--start"]),
        (["cribbage", "score", "--batch", "no-such-file.txt"], ["'no-such-file.txt'"]),
        (["cribbage", "score", "--batch", "-", "5H"], ["--batch"]),
        (["cribbage", "score", "--batch", "-", "--starter", "5D"], ["--batch"]),
        (["cribbage", "score", "--batch", "-", "--json"], ["--json", "--batch"]),
        (["cribbage", "peg", "5H", "ZZ"], ["invalid card 'ZZ'"]),
        (["cribbage", "peg", "KS", "QS", "JS", "5S"], ["thirty-one", "35", "5S"]),
        (["cribbage", "peg", "5H", "5H"], ["duplicate", "5H"]),
        (["cribbage", "peg"], ["no cards"]),
        (["cribbage", "peg", "--batch", "missing.txt"], ["'missing.txt'"]),
        (["cribbage", "peg", "--batch", "-", "5H"], ["--batch"]),
        (["cribbage", "peg", "--batch", "-", "--json"], ["--json"]),
        ([], ["missing command after 'kiebitz'", "'cribbage', 'demo'"]),
        (["cribbage"], ["missing command after 'kiebitz cribbage'", "'score', 'peg'"]),
        (["cribbage", "frob"], ["'frob'"]),
        (["skittles"], ["'skittles'"]),
        (["--frob"], ["--frob"]),
        (["demo", "--game-to", "60"], ["--game-to", "60"]),
        (["demo", "--variant", "seven-card"], ["'seven-card'"]),
        (["demo", "--seed", "x"], ["--seed", "'x'"]),
    ],
)
def test_bad_command_line_is_one_line_and_status_2(
    run: Run, argv: list[str], needles: list[str]
) -> None:
    assert_usage_error(run(*argv), *needles)


def test_exact_bad_card_message(run: Run) -> None:
    assert run("cribbage", "score", "ZZ", "5S", "5C", "JD", "--starter", "5D") == (
        2,
        "",
        "kiebitz: error: invalid card 'ZZ': unknown suit 'Z' (use S H D C)\n",
    )


def test_unreadable_batch_file_is_named(run: Run, tmp_path: Path) -> None:
    assert_usage_error(run("cribbage", "score", "--batch", str(tmp_path)), str(tmp_path))


# --- cribbage score --batch ------------------------------------------------------

MIXED_HANDS = """\
# the best hand and friends
5H 5S 5C JD | 5D
5H 5S ZZ JD | 5D

2H 6H 8H 10H | KD crib
2H 6H 8H 10H | KD
5H 5S 5C JD
7H 7S 8C 8D | 9D   # two pairs and four runs
5H 5S 5C JD 4D | 5D
5H 5H 5C JD | 5D
2H 6H 8H 10H | KD KH
5H 5S JD | 5D
"""


def test_score_batch_mixed_lines_stay_aligned(run: Run, tmp_path: Path) -> None:
    path = write(tmp_path, "hands.txt", MIXED_HANDS)
    status, out, err = run("cribbage", "score", "--batch", str(path))
    assert status == 1
    assert err == ""
    assert out.splitlines() == [
        "",
        "29",
        "error: line 3: invalid card 'ZZ': unknown suit 'Z' (use S H D C)",
        "",
        "0",  # crib: the heart flush does not count with a diamond starter
        "4",  # hand: it does
        "error: line 7: expected 'HAND | STARTER', e.g. '5H 5S 5C JD | 5D'",
        "24",
        "error: line 9: a hand has 3, 4 or 6 cards, not 5",
        "error: line 10: duplicate card 5H",
        "error: line 11: expected one starter after '|', found 2",
        "15",
    ]
    assert len(out.splitlines()) == len(MIXED_HANDS.splitlines())


def test_score_batch_all_good_exits_0(run: Run, tmp_path: Path) -> None:
    path = write(tmp_path, "good.txt", "5H 5S 5C JD | 5D\n\n# note\n7H 7S 8C 8D | 9D\n")
    assert run("cribbage", "score", "--batch", str(path)) == (0, "29\n\n\n24\n", "")


def test_score_batch_crib_option_makes_every_line_a_crib(run: Run, tmp_path: Path) -> None:
    path = write(tmp_path, "cribs.txt", "2H 6H 8H 10H | KD\n2H 6H 8H 10H | KH\n5H 5S JD | 5D\n")
    status, out, _ = run("cribbage", "score", "--batch", str(path), "--crib")
    assert status == 1
    assert out.splitlines() == ["0", "5", "error: line 3: a crib has 4 cards, not 3"]


def test_score_batch_from_stdin(run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("5H 5S 5C JD | 5D\n7H 7S 8C 8D|9D crib\n"))
    assert run("cribbage", "score", "--batch", "-") == (0, "29\n24\n", "")


def test_score_batch_undecodable_bytes_are_a_bad_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "bytes.txt"
    path.write_bytes(b"\xff\xfe 5S 5C JD | 5D\n5H 5S 5C JD | 5D\n5\x00H\x00 | 5D\n")
    status, out, _ = run("cribbage", "score", "--batch", str(path))
    assert status == 1
    # named for what they are, not echoed back as an invalid card
    assert out.splitlines() == [
        "error: line 1: bytes that are not UTF-8 text at column 1",
        "29",
        "error: line 3: a NUL byte: the input is not UTF-8 text (UTF-16? save it as UTF-8)",
    ]


def test_score_batch_reads_a_lone_cr_alike_from_a_file_and_stdin(tmp_path: Path) -> None:
    # A line ends at LF alone: a lone CR is inside its line (read as a space), from a
    # file as from stdin, so every answer stays beside its line. It split the line
    # in a file but not on stdin, and the answers drifted.
    data = b"5H 5S 5C JD | 5D\r7H 7S 8C 8D | 9D\n5H 5S\r5C JD | 5D\r\n"
    path = tmp_path / "cr.txt"
    path.write_bytes(data)
    want = ["error: line 1: more than one '|': expected 'HAND | STARTER'", "29"]
    for argv, stdin in (([str(path)], None), (["-"], data.decode())):
        done = run_process(kiebitz_command(), "cribbage", "score", "--batch", *argv, stdin=stdin)
        assert done.stdout.splitlines() == want, argv


def test_score_batch_skips_a_byte_order_mark(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf5H 5S 5C JD | 5D\n7H 7S 8C 8D | 9D crib\n")
    assert run("cribbage", "score", "--batch", str(path)) == (0, "29\n24\n", "")


def test_score_batch_refuses_an_overlong_line_without_holding_it(run: Run, tmp_path: Path) -> None:
    from controller.cli_io import MAX_LINE, read_lines

    path = tmp_path / "long.txt"
    path.write_bytes(b"5H " * 100_000 + b"\n5H 5S 5C JD | 5D\n")
    status, out, _ = run("cribbage", "score", "--batch", str(path))
    assert status == 1
    assert out.splitlines() == [
        f"error: line 1: a line of 300,000 bytes, longer than {MAX_LINE:,}: not read",
        "29",
    ]

    class Counting(io.BytesIO):  # the most one read hands over
        most = 0

        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            Counting.most = max(Counting.most, len(line))
            return line

    lines = list(read_lines(Counting(b"x" * 5_000_000 + b"\nKD\n")))
    assert [getattr(line, "length", line) for line in lines] == [5_000_000, "KD"]
    assert Counting.most <= MAX_LINE + 5  # a line, its CRLF and a byte-order mark


def test_score_batch_names_a_huge_bad_token_without_echoing_it(run: Run, tmp_path: Path) -> None:
    path = write(tmp_path, "token.txt", "Z" * 60_000 + "H 5S 5C JD | 5D\n")
    status, out, _ = run("cribbage", "score", "--batch", str(path))
    assert status == 1
    assert out.startswith("error: line 1: invalid card 'ZZZZ") and len(out) < 150


def test_a_full_disk_is_one_line_and_status_2(tmp_path: Path) -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [*kiebitz_command(), "cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5D"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "kiebitz: error: cannot write: No space left on device\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["board", "show", "--port", "socket://localhost:1", "--timeout", "nan"],
        ["board", "show", "--port", "socket://localhost:1", "--timeout", "-1"],
        ["board", "emulate", "--duration", "inf"],
        ["run", "--fps", "nan"],
        ["vision", "watch", "x.mp4", "--fps", "0"],
        ["vision", "train", "--hard", "nan"],
    ],
)
def test_a_wait_or_rate_that_is_not_a_positive_number_is_refused(run: Run, argv: list[str]) -> None:
    assert_usage_error(run(*argv), "expected a number")


@pytest.mark.parametrize(
    "argv",
    [
        ["vision", "train", "--scenes", "-1"],  # was a ValueError deep in training
        ["vision", "train", "--epochs", "0"],  # was a ValueError from the scheduler
        ["vision", "train", "--scenes", "many"],
        ["records", "list", "--limit", "-3"],  # SQLite reads LIMIT -3 as no limit
        ["records", "list", "--limit", "1" + "0" * 20],  # was an OverflowError from SQLite
    ],
)
def test_a_count_that_is_not_a_whole_number_from_one_is_refused(run: Run, argv: list[str]) -> None:
    assert_usage_error(run(*argv), "expected a whole number from 1")


def test_score_batch_does_not_swallow_bugs(
    run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug, not bad input")

    monkeypatch.setattr(controller.cli_cribbage, "score_show", broken)
    path = write(tmp_path, "one.txt", "5H 5S 5C JD | 5D\n")
    with pytest.raises(ZeroDivisionError):
        run("cribbage", "score", "--batch", str(path))


# --- cribbage peg ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("10S 5C", 2),  # fifteen two
        ("5H 10S 5C", 0),  # count 20; 5C does not pair the 10S before it
        ("5H 3C 2S 4D AH", 7),  # count 15 (2) and a run of five, A-5, in any order (5)
        ("3H 4S 3D 5C", 5),  # count 15 (2); 4-3-5 at the end is a run of three (3)
        ("4S 4H", 2),  # a pair
        ("10S 10H 10D", 6),  # count 30, a pair royal
        ("10S 10H 10D AC", 2),  # thirty-one for two; the ace pairs nothing
        ("7H 7S 7D 7C", 12),  # count 28, a double pair royal
        ("KS", 0),  # a lead scores nothing
    ],
)
def test_peg_points(run: Run, cards: str, points: int) -> None:
    status, out, err = run("cribbage", "peg", *cards.split(), "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["points"] == points
    assert data["cards"] == cards.split()
    assert sum(item["points"] for item in data["items"]) == points
    status, out, _ = run("cribbage", "peg", *cards.split())
    assert status == 0
    assert out.splitlines()[0].split(":")[0] == str(points)


def test_peg_human_format(run: Run) -> None:
    assert run("cribbage", "peg", "5H", "3C", "2S", "4D", "AH") == (
        0,
        "7: fifteen two and a run of five for five\n"
        "  fifteen            2  5H 3C 2S 4D AH\n"
        "  run                5  5H 3C 2S 4D AH\n"
        "count 15\n",
        "",
    )


def test_peg_json_shape(run: Run) -> None:
    status, out, _ = run("cribbage", "peg", "10S", "10H", "10D", "--json")
    assert status == 0
    assert out.count("\n") == 1
    assert json.loads(out) == {
        "cards": ["10S", "10H", "10D"],
        "count": 30,
        "points": 6,
        "items": [{"kind": "pair royal", "points": 6, "cards": ["10S", "10H", "10D"]}],
        "speech": "a pair royal for six",
    }


MIXED_COUNTS = """\
5H 10S 5C
5H 3C 2S 4D AH
KS QS JS 5S

# a comment line
5H 5H
10S 10H 10D AC   # thirty-one
7H 7S 7D 7C
4S XX
"""


def test_peg_batch_mixed_lines_stay_aligned(run: Run, tmp_path: Path) -> None:
    path = write(tmp_path, "counts.txt", MIXED_COUNTS)
    status, out, err = run("cribbage", "peg", "--batch", str(path))
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        "0",
        "7",
        "error: line 3: count past thirty-one: 35 with 5S",
        "",
        "",
        "error: line 6: duplicate card 5H",
        "2",
        "12",
        "error: line 9: invalid card 'XX': unknown suit 'X' (use S H D C)",
    ]


def test_peg_batch_from_stdin_all_good(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("10S 5C\n4S 4H\n"))
    assert run("cribbage", "peg", "--batch", "-") == (0, "2\n2\n", "")


# --- demo ------------------------------------------------------------------------


class FakeDemo:
    def __init__(self, status: int = 0) -> None:
        self.status = status
        self.calls: list[dict[str, Any]] = []

    def __call__(self, *, seed: int, game_to: int, variant: str, out: TextIO) -> int:
        self.calls.append({"seed": seed, "game_to": game_to, "variant": variant, "out": out})
        out.write("a game\n")
        return self.status


def test_demo_defaults(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDemo()
    monkeypatch.setattr(controller.demo, "run", fake)
    assert run("demo", "--rules-only") == (0, "a game\n", "")
    (call,) = fake.calls
    assert call["out"] is sys.stdout
    assert {k: v for k, v in call.items() if k != "out"} == {
        "seed": 2026,
        "game_to": 121,
        "variant": "six-card",
    }


def test_demo_options_and_status(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDemo(status=3)
    monkeypatch.setattr(controller.demo, "run", fake)
    status, _, _ = run(
        "demo", "--rules-only", "--seed", "7", "--game-to", "61", "--variant", "five-card"
    )
    assert status == 3
    assert fake.calls[0]["seed"] == 7
    assert fake.calls[0]["game_to"] == 61
    assert fake.calls[0]["variant"] == "five-card"


@pytest.mark.parametrize("variant", ["five-card", "six-card", "eight-card"])
def test_demo_variants(run: Run, monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    fake = FakeDemo()
    monkeypatch.setattr(controller.demo, "run", fake)
    assert run("demo", "--rules-only", "--variant", variant)[0] == 0
    assert fake.calls[0]["variant"] == variant


def test_demo_errors_are_not_swallowed(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**kwargs: object) -> int:
        raise RuntimeError("engine trouble")

    monkeypatch.setattr(controller.demo, "run", broken)
    with pytest.raises(RuntimeError, match="engine trouble"):
        run("demo", "--rules-only")


def test_demo_without_options_is_the_running_table(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import controller.run.demo

    calls: list[object] = []

    def loop(*, out: object) -> int:
        calls.append(out)
        return 0

    monkeypatch.setattr(controller.run.demo, "run_demo", loop)
    assert run("demo")[0] == 0
    assert calls == [sys.stdout]


# --- the installed entry point, as a real process --------------------------------


def kiebitz_command() -> list[str]:
    """The console script beside this interpreter, else on PATH, else ``python -m``."""
    beside = Path(sys.executable).parent / "kiebitz"
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("kiebitz")
    if found:
        return [found]
    return [sys.executable, "-m", "controller.cli"]


def run_process(
    command: list[str], *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
        cwd=cwd,
    )


def test_entry_point_scores_json(tmp_path: Path) -> None:
    done = run_process(
        kiebitz_command(), "cribbage", "score", "5H", "5S", "5C", "JD", "--starter", "5D", "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 29
    assert done.stderr == ""


def test_entry_point_bad_card_is_one_line_status_2(tmp_path: Path) -> None:
    done = run_process(
        kiebitz_command(), "cribbage", "score", "5H", "5S", "ZZ", "JD", "--starter", "5D",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "kiebitz: error: invalid card 'ZZ': unknown suit 'Z' (use S H D C)\n"


def test_entry_point_batch_from_stdin(tmp_path: Path) -> None:
    done = run_process(
        kiebitz_command(), "cribbage", "score", "--batch", "-",
        stdin="5H 5S 5C JD | 5D\n# note\n5H 5S 5C ZZ | 5D\n7H 7S 8C 8D | 9D\n",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "29",
        "",
        "error: line 3: invalid card 'ZZ': unknown suit 'Z' (use S H D C)",
        "24",
    ]


def test_entry_point_peg_batch_from_stdin(tmp_path: Path) -> None:
    done = run_process(
        kiebitz_command(), "cribbage", "peg", "--batch", "-", stdin="10S 5C\n", cwd=tmp_path
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "2\n", "")


def test_python_dash_m_runs_the_same_main(tmp_path: Path) -> None:
    done = run_process([sys.executable, "-m", "controller.cli"], "--version", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("kiebitz ")
    done = run_process([sys.executable, "-m", "controller.cli"], "cribbage", "peg", "10S", "5C")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == "2: fifteen two"


def test_entry_point_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """``kiebitz … --batch big | head -1`` ends without a traceback."""
    path = write(tmp_path, "big.txt", "5H 5S 5C JD | 5D\n" * 50_000)  # ~150 kB out, > a pipe
    with subprocess.Popen(
        [*kiebitz_command(), "cribbage", "score", "--batch", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline() == "29\n"
        process.stdout.close()
        err = process.stderr.read()
        status = process.wait(timeout=60)
    assert "Traceback" not in err
    assert status == 1


def test_ctrl_c_while_the_commands_are_being_built_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the parser's commands import their modules (a second or more on a loaded Pi):
    # a Ctrl-C then was a traceback from inside build_parser
    import controller.cli as cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["vision", "identify", "x.jpg"]) == 130
    assert capsys.readouterr().err == "kiebitz: interrupted\n"


@pytest.mark.parametrize(
    "argv", [["skat", "replay", "-"], ["cribbage", "score", "--batch", "-"]], ids=["skat", "batch"]
)
def test_ctrl_c_while_reading_stdin_is_one_line_and_status_130(argv: list[str]) -> None:
    # a line read and answered, then Ctrl-C while the command waits for the next
    import signal
    import time

    first = {
        "skat": "(;GM[Skat]ID[7]MV[w " + ".".join(["CJ"]) + "];)\n",
        "batch": "5H 5S 5C JD | 5D\n",
    }["skat" if argv[0] == "skat" else "batch"]
    child = subprocess.Popen(
        [*kiebitz_command(), *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(first)
    child.stdin.flush()
    answer = child.stdout.readline()
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert err == "kiebitz: interrupted\n"
    assert answer.endswith("\n") and out == ""  # what was answered stands, whole
