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

from controller.recorder.replay import ReplayError, check, replay, replay_events
from controller.recorder.store import MatchRecord
from rules.events import event_from_json

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


def _deal_prefixes(record: MatchRecord) -> list[list[dict[str, Any]]]:
    """The match's events up to the end of each deal (each deal's last event is the
    one before the next deal begins)."""
    evs = [e for _, e, _ in record.events]
    starts = [i for i, e in enumerate(evs) if e.get("type") == "deal"]
    ends = [*starts[1:], len(evs)]
    return [evs[:end] for end in ends]


def export_iss(record: MatchRecord) -> str:
    """One ISS line a deal; a deal whose hands are not known (read by the camera,
    which sees cards played, not the deal) is a comment line saying so."""
    from rules.skat.iss import write_record

    _skat(record)
    replay(record)  # every event there and accepted, or ReplayError
    out = []
    for n, prefix in enumerate(_deal_prefixes(record)):
        game = replay_events(record.row.setup, prefix)
        tags = {"ID": f"{record.row.table_id}-{record.row.id}-{n + 1}"}
        try:
            out.append(write_record(game, tags))
        except ValueError as exc:
            out.append(f"# deal {n + 1}: no ISS record: {exc}")
    return "\n".join(out) + ("\n" if out else "")


def _results(record: MatchRecord) -> tuple[Any, list[dict[str, Any]]]:
    game = replay(record)
    return game, [r.to_json() for r in game.results]


def export_pad(record: MatchRecord) -> str:
    """Law 58: "the amount won or lost shall be entered on the score pad under the name
    of the individual player, and each following item shall be added to or deducted
    from the previous total"; Law 59: "each player wins from or loses to each of the
    others at the table the full amount of his score"."""
    _skat(record)
    game, results = _results(record)
    n = game.rules.players
    names = [f"seat {i}" for i in range(n)]
    lines = [
        f"Skat score pad (Law 58): match {record.row.id}, table {record.row.table_id}, "
        f"rules {game.rules.rule_set}",
        "",
        f"{'deal':>4}  {'game':<28}{''.join(f'{s:>9}' for s in names)}",
    ]
    running = [0] * n
    for r in results:
        running = [a + b for a, b in zip(running, r["changes"], strict=True)]
        cells = [
            (f"{t:>9}" if c else f"{'':>9}") for c, t in zip(r["changes"], running, strict=True)
        ]
        lines.append(f"{r['deal'] + 1:>4}  {_what(r):<28}{''.join(cells)}")
    lines += ["", f"{'':>4}  {'total':<28}{''.join(f'{t:>9}' for t in game.pad)}"]
    lines.append(
        f"{'':>4}  {'settlement (Law 59)':<28}{''.join(f'{t:>+9}' for t in game.settlement())}"
    )
    return "\n".join(lines) + "\n"


def _what(r: dict[str, Any]) -> str:
    if r["kind"] == "passed":
        return "passed"
    if r["kind"] == "ramsch":
        return "ramsch"
    who = f"seat {r['declarer']}" if r.get("declarer") is not None else "?"
    word = "won" if r.get("won") else "lost"
    value = "?" if r.get("value") is None else r["value"]
    return f"{who} {r.get('name') or r.get('game')} {word} {value}"[:27]


def export_seeger_fabian(record: MatchRecord) -> str:
    """The ISkO tournament list (Seeger-Fabian): each game's value to its player,
    then per seat the games won and lost, 50 points for each won and 50 off for each
    lost, and 40 (three at the table) or 30 (four) to each other seat for each game
    lost; the engine scores each deal so (``DealResult.tournament``)."""
    _skat(record)
    game, results = _results(record)
    if not game.rules.isko:
        raise ExportError(
            f"match {record.row.id} is played by the {game.rules.rule_set} rules: the "
            "Seeger-Fabian list is the ISkO's tournament scoring"
        )
    n = game.rules.players
    names = [f"seat {i}" for i in range(n)]
    lines = [
        f"Seeger-Fabian list: match {record.row.id}, table {record.row.table_id}",
        "",
        f"{'deal':>4}  {'game':<28}{''.join(f'{s:>9}' for s in names)}",
    ]
    for r in results:
        pts = r.get("tournament") or [0] * n
        cells = [f"{p:>+9}" if p else f"{'':>9}" for p in pts]
        lines.append(f"{r['deal'] + 1:>4}  {_what(r):<28}{''.join(cells)}")
    st = game.state
    opp = 40 if n == 3 else 30
    lost_by_others = [sum(st.lost) - st.lost[i] for i in range(n)]
    rows = [
        ("score pad", list(game.pad)),
        ("games won", list(st.won)),
        ("games lost", list(st.lost)),
        ("won x 50", [50 * w for w in st.won]),
        ("lost x -50", [-50 * x for x in st.lost]),
        (f"others lost x {opp}", [opp * x for x in lost_by_others]),
        ("total", list(st.tournament)),
    ]
    lines.append("")
    lines += [f"{'':>4}  {label:<28}{''.join(f'{v:>9}' for v in vals)}" for label, vals in rows]
    return "\n".join(lines) + "\n"


def export_cribbage_log(record: MatchRecord) -> str:
    if record.row.game != "cribbage":
        raise ExportError(f"match {record.row.id} is {record.row.game}, not cribbage")
    replay(record)  # every event there and accepted, or ReplayError
    game = replay_events(record.row.setup, [])
    teams = game.rules.teams
    side = "team" if teams != game.rules.players else "seat"
    lines = [
        f"Cribbage match log: match {record.row.id}, table {record.row.table_id}, "
        f"{game.rules.variant} to {game.rules.game_to}, {game.rules.players} players",
    ]
    deal_no = 0
    for _, data, _ in record.events:
        event = event_from_json(dict(data), game.event_types)
        winner_before = game.state.winner
        out = game.apply(event)
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
    replay(record)
    evs = [e for _, e, _ in record.events]
    starts = [i for i, e in enumerate(evs) if e.get("type") == "deal"]
    ends = [*starts[1:], len(evs)]
    for n, (deal, end) in enumerate(zip(record.deals, ends, strict=False)):
        game = replay_events(record.row.setup, evs[:end])
        summary = game.summary()
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
