"""``kiebitz recorder`` (the recorder service) and ``kiebitz records`` (what it kept).

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["records", "--db", "r.db", "export", "3", "--format", "pad"])
>>> args.match, args.format, str(args.db)
(3, 'pad', 'r.db')
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from controller.cli_io import counting_number, serve, service_logging, table_ids
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands
    from controller.recorder.store import MatchRow, RecordStore

__all__ = ["register"]

DEFAULT_DB = "kiebitz-records.db"


def register(commands: Commands) -> None:
    _add_recorder(commands)
    _add_records(commands)


def _add_recorder(commands: Commands) -> None:
    rec = commands.add_parser(
        "recorder",
        help="the recorder: every match played, from the referee's events into a database",
        description=(
            "Follow kiebitz/v1/<table>/game/event and game/state on the broker and keep every "
            "match, game, deal and card played in SQLite (a file) or PostgreSQL "
            "(postgresql://user@host:port/name). The broker keeps the recorder's session "
            "while it restarts, so nothing played meanwhile is lost."
        ),
    )
    rec.add_argument("--config", metavar="FILE", help="the Pi's TOML config (docs/install.md)")
    rec.add_argument("--broker", metavar="URL", help="the MQTT broker (mqtt://host:port)")
    rec.add_argument("--db", metavar="URL", help=f"the records (default ./{DEFAULT_DB})")
    rec.add_argument("--tables", metavar="ID,...", help="record only these tables")
    rec.set_defaults(handler=_recorder)


def _open(db: str | None, config: str | None = None, *, existing: bool = False) -> RecordStore:
    """The records store named by ``--db``, the config's ``[recorder] db`` or the
    default. ``existing``: only read from (list, show, export), so nothing is made
    or migrated: a file that is not there is a mistyped name, and an empty one is
    no records database, not new ones to make (:class:`RecordStore`'s ``read_only``)."""
    from controller.recorder.store import RecordsError, RecordStore

    if db is None and config is not None:
        from controller.cli_config import read_config

        cfg = read_config(config)
        db = cfg.recorder.db if cfg.recorder is not None else None
    where = db or DEFAULT_DB
    try:
        return RecordStore(where, read_only=existing)
    except RecordsError as exc:
        raise UsageError(str(exc)) from exc


def _recorder(args: argparse.Namespace) -> int:
    bus_options: dict[str, Any] = {}
    if args.config is not None:
        from controller.cli_config import read_config

        cfg = read_config(args.config)
        if args.broker is None or args.broker == cfg.broker.url:
            args.broker = cfg.broker.url
            bus_options = (
                cfg.recorder.bus_options(cfg.broker)
                if cfg.recorder is not None
                else cfg.broker.bus_options()
            )
        if cfg.recorder is not None:
            args.db = args.db or cfg.recorder.db
            args.tables = args.tables or ",".join(cfg.recorder.tables) or None
    if args.broker is None:
        raise UsageError("give --broker URL (or --config FILE)")
    service_logging()
    from controller.bus.bus import open_bus
    from controller.recorder.service import Recorder

    tables = table_ids(args.tables)
    store = _open(args.db)
    try:
        if args.broker.startswith("mqtt"):
            # the broker keeps the recorder's session a day: what the referee says while
            # the recorder restarts is queued for it
            bus_options["session_expiry"] = 86400
        bus = open_bus(args.broker, "kiebitz-recorder", **bus_options)
    except ValueError as exc:
        store.close()
        raise UsageError(f"--broker: {exc}") from exc
    recorder = Recorder(bus, store, tables=tables)
    which = ", ".join(tables) if tables else "every table"
    try:
        serve(
            bus,
            recorder,
            lambda where: (
                f"recorder: recording {which} from {args.broker} into {store.shown}{where}"
            ),
        )
    finally:
        bus.close()
        recorder.close()
    return 0


# -- records --------------------------------------------------------------------------


def _add_records(commands: Commands) -> None:
    recs = commands.add_parser(
        "records",
        help="the matches the recorder kept: list, show, export",
        description=(
            "Read the records (SQLite file or postgresql:// URL). Exports replay the match "
            "through the rules: json, iss (Skat deals as ISS records), pad (Skat score pad, "
            "Law 58, with the Law 59 settlement), seeger-fabian (ISkO tournament list), "
            "cribbage-log (deal by deal, every count), csv (one row a deal)."
        ),
    )
    recs.add_argument("--db", metavar="URL", help=f"the records (default ./{DEFAULT_DB})")
    recs.add_argument("--config", metavar="FILE", help="take recorder.db from this config")
    sub = recs.add_subparsers(dest="records_command", metavar="{list,show,export,import}")
    sub.required = True
    ls = sub.add_parser("list", help="the matches, newest first")
    ls.add_argument("--table", metavar="ID", help="only this table's")
    ls.add_argument("--game", metavar="GAME", help="only this game's")
    ls.add_argument(
        "--limit", type=counting_number, default=50, metavar="N", help="at most N (default 50)"
    )
    ls.add_argument("--json", action="store_true", help="one JSON object a line")
    ls.set_defaults(handler=_list)
    show = sub.add_parser("show", help="one match: its deals, scores and the replay's verdict")
    show.add_argument("match", type=counting_number, metavar="MATCH", help="the match's number")
    show.set_defaults(handler=_show)
    exp = sub.add_parser("export", help="one match in one of the forms clubs keep")
    exp.add_argument("match", type=counting_number, metavar="MATCH", help="the match's number")
    from controller.recorder.exports import FORMATS

    exp.add_argument("--format", choices=list(FORMATS), default="json", help="default json")
    exp.add_argument("--out", metavar="FILE", help="write here (default: standard output)")
    exp.set_defaults(handler=_export)
    imp = sub.add_parser(
        "import",
        help="record a table's match whole from a referee's log (for a recorder that started late)",
    )
    imp.add_argument("--referee-db", metavar="FILE", required=True, help="the referee's log")
    imp.add_argument("--table", metavar="ID", required=True, help="the table")
    imp.set_defaults(handler=_import)


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return datetime.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def _scores(row: MatchRow) -> str:
    state = row.state or {}
    scores = state.get("scores")
    return " ".join(str(s) for s in scores) if isinstance(scores, list) else "-"


def _list(args: argparse.Namespace) -> int:
    """The matches; one whose row is damaged is named on its own line on stderr (the
    others are listed all the same) and makes the status 1, as a bad line of a batch."""
    from controller.recorder.store import DamagedRecord, RecordsError

    store = _open(args.db, args.config, existing=True)
    damaged: list[DamagedRecord] = []
    try:
        rows = store.matches(table=args.table, game=args.game, limit=args.limit, damaged=damaged)
    except (RecordsError, DamagedRecord) as exc:  # the file itself damaged, or away
        raise UsageError(str(exc)) from exc
    finally:
        store.close()
    for r in rows:
        if args.json:
            print(
                json.dumps(
                    {
                        "match": r.id,
                        "table": r.table_id,
                        "game": r.game,
                        "started_at": r.started_at,
                        "ended_at": r.ended_at,
                        "events": r.events,
                        "scores": (r.state or {}).get("scores"),
                    }
                )
            )
        else:
            status = "playing" if r.open else f"ended {_when(r.ended_at)}"
            print(
                f"{r.id:>5}  {r.table_id:<12} {r.game:<9} {_when(r.started_at)}  "
                f"{r.events:>5} events  scores {_scores(r):<14} {status}"
            )
    sys.stdout.flush()
    for exc in damaged:
        print(f"kiebitz: {' '.join(str(exc).split())}; not listed", file=sys.stderr)
    if not rows and not damaged and not args.json:
        print("no matches recorded", file=sys.stderr)
    return 1 if damaged else 0


def _record(args: argparse.Namespace) -> Any:
    from controller.recorder.store import DamagedRecord, RecordsError

    store = _open(args.db, args.config, existing=True)
    try:
        return store.match(args.match)
    except (RecordsError, DamagedRecord) as exc:
        raise UsageError(str(exc)) from exc
    finally:
        store.close()


def _show(args: argparse.Namespace) -> int:
    from controller.recorder.replay import ReplayError, check
    from rules.errors import RulesError

    record = _record(args)
    r = record.row
    print(
        f"match {r.id}: {r.game} at table {r.table_id}, {_when(r.started_at)} to "
        f"{_when(r.ended_at) if r.ended_at else 'now (playing)'}"
    )
    print(f"setup    {json.dumps(r.setup)}")
    print(
        f"recorded {r.events} events, {len(record.games)} game(s), {len(record.deals)} deal(s), "
        f"{len(record.plays)} cards played, {len(record.said)} alerts and notes"
    )
    print(f"scores   {_scores(r)}")
    try:
        differences = check(record)
        verdict = "agrees with the referee" if not differences else "; ".join(differences)
    except ReplayError as exc:
        verdict = str(exc)
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        # events or a setup the rules refuse (a record mended by hand): said, as the web does
        verdict = f"cannot be replayed: {' '.join(str(exc).split())[:300]}"
    print(f"replay   {verdict}")
    for d in record.deals:
        res = d.get("result") or {}
        what = res.get("name") or ""
        if res.get("value") is not None:
            what += f" {'won' if res.get('won') else 'lost'} {res['value']}"
        pegged = d.get("pegged") or {}
        if pegged:
            what += " pegged " + ", ".join(
                f"{k}: {v['points']} to {v['score']}" for k, v in sorted(pegged.items())
            )
        dealer = "?" if d.get("dealer") is None else d["dealer"]
        print(
            f"  deal {d['number'] + 1:>3} (game {d['game'] + 1}), dealer {dealer}: {what.strip()}"
        )
    return 0


def _export(args: argparse.Namespace) -> int:
    from controller.recorder.exports import export

    record = _record(args)
    try:
        text = export(record, args.format)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: {exc.strerror or exc}") from exc
    return 0


def _import(args: argparse.Namespace) -> int:
    from controller.recorder.imports import check_referee_log, import_referee_log
    from controller.recorder.store import RecordsError

    try:  # (before the records are opened: a refused import made an empty database)
        check_referee_log(args.referee_db, args.table)
    except RecordsError as exc:
        raise UsageError(str(exc)) from exc
    store = _open(args.db, args.config)
    try:
        match, inputs = import_referee_log(store, args.referee_db, args.table, at=time.time())
    except RecordsError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        store.close()
    if match is None:
        print(f"{args.referee_db}: table {args.table} ({inputs} inputs) was imported before")
    else:
        print(f"{args.referee_db}: table {args.table} ({inputs} inputs) recorded as match {match}")
    return 0
