"""``kiebitz skat …``: replay recorded Skat games through the referee.

``kiebitz skat replay FILE`` reads game records of the International Skat Server
(one a line; ``-`` is stdin), replays each through :class:`rules.skat.game.SkatGame`
and prints one line per record: the result the referee reached (declarer, won,
value, matadors, points, tricks, schneider, schwarz, overbid), the verdicts, and
whether the record's own result field agrees (``no result in the record`` where it
has none). A malformed record prints ``error: line N: <why>`` and the rest go on.
Exit status 0 when every record was read and none differs from its result field,
1 otherwise; an input with no record at all is bad input (status 2, one line on
stderr naming the file).

>>> import io
>>> from rules.cards import SKAT_DECK
>>> deal = ".".join(c.suit.value + {10: "T"}.get(c.rank, c.rank_name) for c in SKAT_DECK)
>>> out = io.StringIO()
>>> replay_lines([f"(;GM[Skat]ID[7]MV[w {deal} 1 p 2 p 0 p ]R[passed] ;)", "(;GM[Go];)"],
...              rules="isko", as_json=False, out=out)
1
>>> print(out.getvalue(), end="")
7: passed in (agrees)
error: line 2: not a Skat record: GM[Go]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from controller.cli_io import MAX_LINE, STDIN, OverlongLine, name_commands, open_input
from controller.errors import UsageError
from rules.errors import RulesError
from rules.skat.iss import Replay, parse_record, replay
from rules.skat.rulesets import RULE_SETS, SkatRules

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["format_replay", "register", "replay_lines"]

#: The verdicts a plain replay line lists; the rest are counted (``--json`` has all).
MAX_VERDICTS_SHOWN = 10


def register(commands: Commands) -> None:
    """Add ``skat`` and its commands to the top-level command list."""
    skat = commands.add_parser(
        "skat",
        help="replay recorded Skat games through the referee",
        description="Skat by the International Skat Order or the Laws of Skat of 1906.",
    )
    games = skat.add_commands("skat_command")
    replay_parser = games.add_parser(
        "replay",
        help="replay International Skat Server game records and check their results",
        description=(
            "Replay game records of the International Skat Server (one a line, "
            "'(;GM[Skat]…MV[…]R[…];)') through the referee: one line per record with "
            "the result reached, the verdicts, and whether the record's R field agrees."
        ),
    )
    replay_parser.add_argument("file", metavar="FILE", help="the records; '-' reads stdin")
    replay_parser.add_argument(
        "--rules", choices=RULE_SETS, default="isko", help="the rule set (default isko)"
    )
    replay_parser.add_argument("--json", action="store_true", help="one JSON object a record")
    replay_parser.set_defaults(handler=_replay)
    name_commands(games)


def _replay(args: argparse.Namespace) -> int:
    # a line not UTF-8 is read as Windows-1252 or Latin-1: ISS records kept from
    # before UTF-8 (a player's name with an umlaut) were read with U+FFFD in its place
    with open_input(args.file, latin1=True) as lines:
        return replay_lines(
            lines, rules=args.rules, as_json=args.json, out=sys.stdout, name=args.file
        )


def replay_lines(
    lines: Iterable[str], *, rules: str, as_json: bool, out: TextIO, name: str = STDIN
) -> int:
    """Replay every record of ``lines``; write a line for each; return the status (1
    where a record is refused or differs). Where there is no record at all, raise
    :class:`UsageError` naming the input ``name`` (``-``: stdin)."""
    rule_set = SkatRules(rules)
    status = 0
    records = 0  # records met, replayed or not

    def refused(number: int, why: str) -> None:
        # with --json, one JSON object a line all through (a plain line among them
        # broke a reader taking one object a line: a bad-input sweep's find)
        text = (
            json.dumps({"line": number, "error": why})
            if as_json
            else f"error: line {number}: {why}"
        )
        out.write(text + "\n")

    for number, text, why in record_texts(lines):
        records += 1
        if why is not None:
            status = 1
            refused(number, why)
            continue
        try:
            result = replay(parse_record(text), rule_set)
        except RulesError as exc:
            status = 1
            refused(number, str(exc))
            continue
        if result.differs:
            status = 1
        data = result.to_json()
        out.write((json.dumps(data) if as_json else format_replay(result, data)) + "\n")
    if records == 0 and status == 0:  # an empty file, or comments only: nothing was checked
        # bad input (docs/cli.md): one line on stderr naming the file, status 2; it was
        # on stdout and named no file
        where = "stdin" if name == STDIN else name
        raise UsageError(f"{where}: no game record in the input (one a line: '(;GM[Skat]…;)')")
    return status


def record_texts(lines: Iterable[str]) -> Iterator[tuple[int, str, str | None]]:
    r"""Each record of ``lines`` with the number of its first line, and ``None``; or
    what cannot be read, with why. Blank lines and ``#`` comments are skipped. A
    record wrapped over several lines (SGF breaks lines between and inside values;
    each line was "not an ISS record") is read to the line that ends with its ``)``,
    its lines joined by line ends, which part tags and moves as spaces do. A record
    not closed before the next begins, or before the input ends, is named at its
    first line; one longer than a line may be (64 KiB) is not read on.

    >>> for found in record_texts(["(;GM[Skat]", "MV[w ?? ]", ";)", "", "(;GM[Skat]"]):
    ...     print(found)
    (1, '(;GM[Skat]\nMV[w ?? ]\n;)', None)
    (5, '(;GM[Skat]', "the record has no ')' before the input ends: cut short?")
    """
    start, parts, size = 0, list[str](), 0
    skipping = False  # the rest of a record too long to read
    for number, line in enumerate(lines, start=1):
        text = "" if isinstance(line, OverlongLine) else line.strip()
        if parts or skipping:
            if not text.startswith("(;"):
                if skipping or isinstance(line, OverlongLine) or size + len(text) > MAX_LINE:
                    if not skipping:
                        yield start, parts[0], f"a record longer than {MAX_LINE:,} bytes: not read"
                    parts, skipping = [], not text.endswith(")")
                    continue
                parts.append(text)
                size += len(text) + 1
                if text.endswith(")"):
                    yield start, "\n".join(parts), None
                    parts = []
                continue
            if parts:
                yield start, parts[0], "the record has no ')' before the next begins: cut short?"
            parts, skipping = [], False
        if isinstance(line, OverlongLine):
            yield number, "", line.error()
            continue
        if not text or text.startswith("#"):
            continue
        if text.startswith("(;") and not text.endswith(")"):
            start, parts, size = number, [text], len(text)
            continue
        yield number, text, None
    if parts:
        yield start, parts[0], "the record has no ')' before the input ends: cut short?"


def format_replay(result: Replay, data: dict[str, Any] | None = None) -> str:
    """One line for people: ``ID: seat 2 diamonds lost -54 (…) (agrees)``."""
    data = data or result.to_json()
    name = data["id"] or "?"
    if result.agrees is None:  # no R[…]: nothing to agree with
        agreement = "no result in the record"
    else:
        agreement = "agrees" if result.agrees else "differs: " + ", ".join(result.differs)
    if data["kind"] == "passed":
        head = "passed in"
    elif data["kind"] == "ramsch":
        head = "Ramsch"
    elif data.get("ended"):  # an ISS game cut short: timeout or a player who left
        ended = data["ended"]
        where = f"trick {ended['trick']}" if ended.get("trick") else ended.get("phase", "?")
        how = "by timeout" if ended["by"] == "timeout" else "as a player left"
        head = f"ended {how} (seat {ended['seat']}, {where})"
    elif data["kind"] != "game":
        head = "not finished"
    else:
        outcome = "won" if data["won"] else "lost"
        extras = [f"matadors {data['matadors']}", f"{data['points']} points"]
        extras.append(f"{data['tricks']} tricks")
        extras += [k for k in ("schneider", "schwarz", "overbid") if data[k]]
        head = (
            f"seat {data['declarer']} {data['game']} {outcome} {data['value']} "
            f"({', '.join(extras)})"
        )
    shown = data["verdicts"][:MAX_VERDICTS_SHOWN]
    verdicts = "; ".join(
        # a verdict of the bidding has no trick: it said "trick None"
        " ".join(
            [v["kind"], f"seat {v['seat']}"]
            + ([f"trick {v['trick']}"] if v["trick"] is not None else [])
            + v["cards"]
        )
        for v in shown
    )
    if len(data["verdicts"]) > len(shown):  # a hostile record's thousands: --json has all
        verdicts += f"; {len(data['verdicts']) - len(shown)} more"
    return f"{name}: {head}" + (f" [{verdicts}]" if verdicts else "") + f" ({agreement})"
