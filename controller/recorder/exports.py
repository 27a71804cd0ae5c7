"""A stored match in the forms clubs keep: ``kiebitz records export``.

Every export but ``json`` is made by replaying the match through the engine
(:mod:`controller.recorder.replay`), so counts, values and settlements are the
rules' own, not copies of what was stored:

==================  =====================================================================
``json``            the whole record: setup, every event with what the referee said it did,
                    games, deals, plays, alerts and notes, and the replay's verdict
``iss``             Skat: each deal as an International Skat Server record (docs/records.md)
``pad``             Skat: the score pad of Law 58, deal by deal, and the Law 59 settlement
``seeger-fabian``   Skat (ISkO): the tournament list, games won and lost, points
``cribbage-log``    cribbage: deal by deal, every count with its reasons, the pegs after
                    each deal, each game's end (lurch, skunk)
``csv``             one row a deal: the deal's result and the scores after it
==================  =====================================================================
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from controller.recorder.replay import ReplayError, check, replay_events, steps
from controller.recorder.store import MatchRecord

__all__ = ["FORMATS", "ExportError", "export"]


class ExportError(ValueError):
    """This match cannot be written in this form (another game, events missing)."""


def export_json(record: MatchRecord) -> str:
    row = record.row
    try:
        differences: list[str] | None = check(record)
        replayed = True
    except ReplayError as exc:
        differences, replayed = [str(exc)], False
    data = {
        "kiebitz_record": 1,
        "match": {
            "id": row.id,
            "table": row.table_id,
            "game": row.game,
            "started_at": row.started_at,
            "ended_at": row.ended_at,
            "events": row.events,
            "complete": record.complete,
            "missing": record.missing,
        },
        "setup": row.setup,
        "events": [{"index": i, "event": e, **o} for i, e, o in record.events],
        "games": record.games,
        "deals": record.deals,
        "plays": record.plays,
        "said": record.said,
        "state": row.state,
        "replay": {
            "replayed": replayed,
            "agrees": replayed and not differences,
            "differences": differences,
        },
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _skat(record: MatchRecord) -> None:
    if record.row.game != "skat":
        raise ExportError(f"match {record.row.id} is {record.row.game}, not skat")


def _deal_ends(record: MatchRecord) -> set[int]:
    """The positions (in ``record.events``) of each deal's last event: the one before
    the next deal begins, or the last."""
    starts = [i for i, (_, e, _) in enumerate(record.events) if e.get("type") == "deal"]
    return {i - 1 for i in starts[1:]} | ({len(record.events) - 1} if starts else set())


def export_iss(record: MatchRecord) -> str:
    """One ISS line a deal; a deal whose hands are not known (read by the camera,
    which sees cards played, not the deal) is a comment line saying so."""
    from rules.skat.iss import write_record

    _skat(record)
    ends = _deal_ends(record)
    out = []
    for i, (_, _, game) in enumerate(steps(record)):
        if i not in ends:
            continue
        n = len(out) + 1
        try:
            out.append(write_record(game, {"ID": f"{record.row.table_id}-{record.row.id}-{n}"}))
        except ValueError as exc:
            out.append(f"# deal {n}: no ISS record: {exc}")
    return "\n".join(out) + ("\n" if out else "")


def _pad_items(record: MatchRecord) -> tuple[Any, list[tuple[str, list[int]]]]:
    """The match replayed event by event: every entry on the score pad, in order, as
    (what, the change of each seat): a deal's result, and anything else that moved the
    pad (a penalty of Laws 20, 23, 24, 27; a correction that scored a deal again)."""
    game = replay_events(record.row.setup, [])
    items: list[tuple[str, list[int]]] = []
    before = list(game.pad)
    for data, out, game in steps(record):
        change = [a - b for a, b in zip(game.pad, before, strict=True)]
        before = list(game.pad)
        if out.result is not None:
            r = out.result.to_json()
            items.append((f"deal {r['deal']}: {_what(r)}", change))
        elif any(change):
            kind = data.get("type")
            if kind == "penalty":
                why = f" ({data['reason']})" if data.get("reason") else ""
                items.append((f"penalty, seat {data.get('seat')}{why}", change))
            elif kind == "correct":
                items.append((f"event {data.get('index')} corrected: scored again", change))
            else:
                items.append((str(kind), change))
    return game, items


def _head(label: str, n: int) -> str:
    return f"  {label:<40}" + "".join(f"{'seat ' + str(i):>9}" for i in range(n))


def _row(label: str, values: list[int], *, sign: bool = False, blank_zero: bool = False) -> str:
    cells = [
        f"{'':>9}" if blank_zero and not v else (f"{v:>+9}" if sign else f"{v:>9}") for v in values
    ]
    return f"  {label[:40]:<40}{''.join(cells)}"


def export_pad(record: MatchRecord) -> str:
    """Law 58: "the amount won or lost shall be entered on the score pad under the name
    of the individual player, and each following item shall be added to or deducted
    from the previous total, so that the last entry shall at all times show the exact
    state of the player's score"; Law 59: "each player wins from or loses to each of the
    others at the table the full amount of his score". Each entry is a line with the
    seat's new total under the seat it changed."""
    _skat(record)
    game, items = _pad_items(record)
    n = game.rules.players
    lines = [
        f"Skat score pad (Law 58): match {record.row.id}, table {record.row.table_id}, "
        f"rules {game.rules.rule_set}",
        "",
        _head("entry", n),
    ]
    running = [0] * n
    for what, change in items:
        running = [a + b for a, b in zip(running, change, strict=True)]
        cells = "".join(
            f"{r:>9}" if c else f"{'':>9}" for c, r in zip(change, running, strict=True)
        )
        lines.append(f"  {what[:40]:<40}{cells}")
    assert running == list(game.pad), (running, game.pad)
    lines += ["", _row("total", list(game.pad))]
    lines.append(_row("settlement (Law 59)", list(game.settlement()), sign=True))
    return "\n".join(lines) + "\n"


def _what(r: dict[str, Any]) -> str:
    if r["kind"] == "passed":
        return "passed"
    if r["kind"] == "ramsch":
        return "ramsch"
    who = f"seat {r['declarer']}" if r.get("declarer") is not None else "?"
    word = "won" if r.get("won") else "lost"
    value = "?" if r.get("value") is None else r["value"]
    return f"{who} {r.get('name') or r.get('game')} {word} {value}"


def export_seeger_fabian(record: MatchRecord) -> str:
    """The ISkO tournament list (Seeger-Fabian): each game's value to its player, then
    per seat the games won and lost, 50 points for each won and 50 off for each lost,
    and 40 (three at the table) or 30 (four) to each other seat for each game lost; the
    engine scores each deal so (``DealResult.tournament``). Penalties entered on the
    score pad are not tournament points; they are listed apart."""
    _skat(record)
    game, _ = _pad_items(record)
    if not game.rules.isko:
        raise ExportError(
            f"match {record.row.id} is played by the {game.rules.rule_set} rules: the "
            "Seeger-Fabian list is the ISkO's tournament scoring"
        )
    n = game.rules.players
    results = [r.to_json() for r in game.results]
    lines = [
        f"Seeger-Fabian list: match {record.row.id}, table {record.row.table_id}",
        "",
        _head("deal", n),
    ]
    values = [0] * n
    for r in results:
        pts = r.get("tournament") or [0] * n
        lines.append(_row(f"deal {r['deal']}: {_what(r)}", pts, sign=True, blank_zero=True))
        if r.get("declarer") is not None and r.get("value") is not None:
            values[r["declarer"]] += r["value"]
    st = game.state
    opp = 40 if n == 3 else 30
    others_lost = [sum(st.lost) - st.lost[i] for i in range(n)]
    total = [values[i] + 50 * st.won[i] - 50 * st.lost[i] + opp * others_lost[i] for i in range(n)]
    assert total == list(st.tournament), (total, st.tournament)
    in_games = [0] * n
    for r in results:
        in_games = [a + b for a, b in zip(in_games, r.get("changes") or [0] * n, strict=True)]
    penalties = [p - g for p, g in zip(game.pad, in_games, strict=True)]
    lines.append("")
    lines += [
        _row("game values", values),
        _row("games won", list(st.won)),
        _row("games lost", list(st.lost)),
        _row("won x 50", [50 * w for w in st.won]),
        _row("lost x -50", [-50 * x for x in st.lost]),
        _row(f"games lost by the others x {opp}", [opp * x for x in others_lost]),
        _row("total", list(st.tournament)),
    ]
    if any(penalties):
        lines += ["", _row("penalties on the score pad (not counted)", penalties)]
    return "\n".join(lines) + "\n"


def export_cribbage_log(record: MatchRecord) -> str:
    if record.row.game != "cribbage":
        raise ExportError(f"match {record.row.id} is {record.row.game}, not cribbage")
    rules = replay_events(record.row.setup, []).rules
    teams = rules.teams
    side = "team" if teams != rules.players else "seat"
    lines = [
        f"Cribbage match log: match {record.row.id}, table {record.row.table_id}, "
        f"{rules.variant} to {rules.game_to}, {rules.players} players",
    ]
    deal_no = 0
    winner_before = None
    for data, out, game in steps(record):
        st = game.state
        kind = data.get("type")
        if kind == "deal":
            deal_no += 1
            dealer = "?" if st.deal is None else st.deal.dealer
            lines += ["", f"deal {deal_no} (game {st.game_number}), dealer seat {dealer}"]
        elif kind == "new_game":
            lines += ["", f"game {st.game_number} begins"]
        elif kind == "starter":
            lines.append(f"  starter {data.get('card')}")
        elif kind == "play":
            lines.append(f"  seat {data['seat']} plays {data['card']} (count {game.count})")
        elif kind == "go":
            lines.append(f"  seat {data['seat']} says go")
        elif kind == "show":
            what = "crib" if data.get("crib") else "hand"
            lines.append(f"  seat {data['seat']} shows {what} {' '.join(data.get('cards', []))}")
        elif kind == "correct":
            lines.append(f"  event {data['index']}: {data['old']} corrected to {data['new']}")
        elif kind == "penalty":
            lines.append(f"  penalty: {data}")
        for p in out.pegged:
            reasons = ", ".join(
                f"{i.kind} {' '.join(str(c) for c in i.cards)} for {i.points}" for i in p.items
            )
            who = p.team if side == "team" else p.seat
            lines.append(
                f"    {side} {who} pegs {p.points}{': ' + reasons if reasons else ''} -> {p.score}"
            )
        for v in out.verdicts:
            lines.append(f"    verdict {v.kind}: {v.detail}")
        over = st.winner is not None and winner_before is None
        if (kind == "show" and data.get("crib")) or over:
            pegs = ", ".join(
                f"{side} {i} {f} (back {b})"
                for i, (f, b) in enumerate(zip(st.scores, st.back_pegs, strict=True))
            )
            lines.append(f"  pegs: {pegs}")
        if over:
            lines.append(
                f"  game over: {side} {st.winner} wins, {st.result}; games won {list(st.games_won)}"
            )
        winner_before = st.winner
    return "\n".join(lines) + "\n"


def export_csv(record: MatchRecord) -> str:
    """One row a deal: match, table, game, deal, dealer, the deal's result (Skat's and
    Frog's value; cribbage's points pegged by side) and the scores after it."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "match",
            "table",
            "game",
            "deal",
            "game_number",
            "dealer",
            "declarer",
            "contract",
            "won",
            "value",
            "points",
            "scores_after",
        ]
    )
    ends = _deal_ends(record)
    after = [game.summary() for i, (_, _, game) in enumerate(steps(record)) if i in ends]
    for n, (deal, summary) in enumerate(zip(record.deals, after, strict=False)):
        res = deal.get("result") or {}
        pegged = deal.get("pegged") or {}
        w.writerow(
            [
                record.row.id,
                record.row.table_id,
                record.row.game,
                n + 1,
                deal["game"] + 1,
                "" if deal.get("dealer") is None else deal["dealer"],
                "" if res.get("declarer") is None else res["declarer"],
                res.get("name") or res.get("game") or "",
                "" if res.get("won") is None else str(bool(res["won"])).lower(),
                "" if res.get("value") is None else res["value"],
                " ".join(f"{k}:{v['points']}" for k, v in sorted(pegged.items())),
                " ".join(str(s) for s in summary.get("scores", [])),
            ]
        )
    return buf.getvalue()


FORMATS: dict[str, Callable[[MatchRecord], str]] = {
    "json": export_json,
    "iss": export_iss,
    "pad": export_pad,
    "seeger-fabian": export_seeger_fabian,
    "cribbage-log": export_cribbage_log,
    "csv": export_csv,
}


def export(record: MatchRecord, fmt: str) -> str:
    """``record`` in ``fmt`` (:data:`FORMATS`); :class:`ExportError` or
    :class:`ReplayError` (both ``ValueError``) when it cannot be."""
    try:
        writer = FORMATS[fmt]
    except KeyError:
        raise ExportError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}") from None
    return writer(record)
