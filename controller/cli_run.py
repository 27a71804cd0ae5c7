"""``kiebitz run`` (one table on one machine) and ``kiebitz referee`` (the referee service).

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["run", "--observations", "game.jsonl", "--game", "skat",
...                           "--declarer", "1", "--contract", "spades", "--headless"])
>>> args.game, args.contract, args.headless, args.table_id
('skat', 'spades', True, 'table1')
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli_io import (
    port_number,
    positive_number,
    serve,
    service_logging,
    table_id,
    table_ids,
)
from controller.errors import UsageError
from controller.run.options import add_game_options, setup_from_args

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["register"]


def register(commands: Commands) -> None:
    _add_run(commands)
    _add_referee(commands)


def _add_run(commands: Commands) -> None:
    run = commands.add_parser(
        "run",
        help="run a whole table on this machine: broker, referee, table service, peg board",
        description=(
            "Start everything one table needs on this machine: a private Mosquitto on a free "
            "port (unless --broker), the referee, the table service reading --source (a camera, "
            "a video file, an image folder) or --observations, and an emulated peg board "
            "(unless --board). Tells the game as it is played; Ctrl-C stops every part."
        ),
    )
    what = run.add_mutually_exclusive_group(required=True)
    what.add_argument("--source", help="picamera, a camera number, a video file or an image folder")
    what.add_argument(
        "--observations",
        metavar="FILE.jsonl",
        help="recorded observation lines instead of a camera",
    )
    run.add_argument(
        "--table",
        metavar="LAYOUT.toml",
        dest="layout",
        help="the table layout (zones and markers); needed with --source",
    )
    run.add_argument(
        "--table-id", default="table1", help="the table's id on the bus (default table1)"
    )
    add_game_options(run)
    run.add_argument("--broker", metavar="URL", help="an MQTT broker instead of a private one")
    run.add_argument("--board", metavar="PORT", help="the peg board's serial port (pyserial URL)")
    run.add_argument("--board-layout", help="the board's layout (default: by game and players)")
    run.add_argument(
        "--db",
        metavar="FILE",
        type=Path,
        help="the referee's log (default: a fresh one for this run)",
    )
    records = run.add_mutually_exclusive_group()
    records.add_argument(
        "--records",
        metavar="URL",
        default="kiebitz-records.db",
        help="record the match here: a file or postgresql://… (default ./kiebitz-records.db)",
    )
    records.add_argument("--no-records", action="store_true", help="do not record the match")
    run.add_argument(
        "--web",
        metavar="PORT",
        type=port_number,
        nargs="?",
        const=8080,
        help="serve the live web view (read only) on this port (default 8080; 0: a free one)",
    )
    run.add_argument("--headless", action="store_true", help="run the source to its end, then exit")
    run.add_argument(
        "--summary",
        metavar="FILE",
        type=Path,
        help="write one JSON object: game, scores, plays, verdicts, alerts, pegs",
    )
    run.add_argument(
        "--fps", type=positive_number, default=5.0, help="frames a second to read (default 5)"
    )
    run.add_argument(
        "--gpio",
        metavar="FACTORY",
        help="the buttons, buzzer and LED: mock, lgpio (Pi 5), rpigpio, native",
    )
    run.set_defaults(handler=_run)


def _layout_defaults(args: argparse.Namespace) -> None:
    """The table layout names its game and players: they are the defaults."""
    from vision.errors import LayoutError
    from vision.layout import load_layout

    try:
        layout = load_layout(args.layout)
    except LayoutError as exc:
        raise UsageError(str(exc)) from exc
    if args.game is None:
        from rules.reading.games import READERS

        if layout.game not in READERS:  # it was refused as "--game", a flag not given
            raise UsageError(
                f"--table {args.layout}: table.game {layout.game!r} is no game the referee "
                f"plays ({', '.join(sorted(READERS))}): give --game"
            )
        args.game = layout.game
    if args.players is None and layout.game == args.game:
        args.players = layout.players


def _check_run_paths(args: argparse.Namespace) -> None:
    """The broker URL, the board's layout and the referee's log, checked before any
    service starts: each a line naming the option, not a traceback from a thread."""
    from controller.board.layouts import LayoutFileError, load_layout
    from controller.config import broker_url
    from controller.referee import InputLog, StoreError

    if args.broker is not None:
        try:
            broker_url(args.broker)  # the check `config check` makes of broker.url
        except ValueError as exc:
            if "@" in args.broker:  # an account in the URL: its password not echoed
                raise UsageError(f"--broker: {exc}") from exc
            raise UsageError(
                f"--broker {args.broker}: expected mqtt://host:port, mqtts://host:port or "
                f"memory://NAME ({exc})"
            ) from exc
    if args.board_layout is not None:
        try:
            load_layout(args.board_layout)
        except LayoutFileError as exc:
            raise UsageError(f"--board-layout: {exc}") from exc
    if args.db is not None:
        db = Path(args.db)
        if not db.exists() and not db.is_symlink():
            # not made here: a run refused after this check (its observations) left an
            # empty log behind (a bad-input sweep's find); its folder must take one
            folder = db.parent if str(db.parent) else Path(".")
            if not folder.is_dir():
                raise UsageError(f"--db {args.db}: no such folder {folder}")
            if not os.access(folder, os.W_OK | os.X_OK):
                raise UsageError(f"--db {args.db}: the folder {folder} cannot be written")
            return
        try:
            InputLog(args.db).close()
        except StoreError as exc:
            raise UsageError(f"--db {args.db}: {exc}") from exc


def _run(args: argparse.Namespace) -> int:
    from controller.bus.errors import BrokerError
    from controller.run.machine import RunConfig, run_table
    from controller.stopping import stop_on_sigterm

    if args.layout is not None:
        _layout_defaults(args)
    setup = setup_from_args(args)
    table_id(args.table_id)
    # a pipe is read as a file is (`--observations <(kiebitz vision watch …)`, /dev/stdin)
    said = Path(args.observations) if args.observations is not None else None
    if said is not None and (said.is_dir() or not said.exists()):
        what = "a folder, not a file" if said.is_dir() else "no such file"
        raise UsageError(f"--observations {args.observations}: {what}")
    if args.source is not None and args.layout is None:
        raise UsageError("--source needs --table LAYOUT.toml (the zones and markers)")
    if args.summary is not None and not args.summary.parent.is_dir():
        raise UsageError(f"--summary {args.summary}: no such folder {args.summary.parent}")
    if args.summary is not None and args.summary.is_dir():
        raise UsageError(f"--summary {args.summary}: a folder; name the file to write")
    _check_run_paths(args)
    cfg = RunConfig(
        setup=setup,
        table_id=args.table_id,
        source=args.source,
        observations=None if args.observations is None else Path(args.observations),
        layout=None if args.layout is None else Path(args.layout),
        broker=args.broker,
        board=args.board,
        board_layout=args.board_layout,
        db=args.db,
        records=None if args.no_records else args.records,
        web=args.web,
        headless=args.headless,
        summary=args.summary,
        fps=args.fps,
        gpio=args.gpio,
    )
    # SIGTERM stops the run as Ctrl-C does: its own broker stopped, its folder removed,
    # the summary printed (Python's default left the broker running); status 0, the
    # stop a service manager asked for
    stop_on_sigterm()
    try:
        summary = run_table(cfg)
    except BrokerError as exc:
        raise UsageError(str(exc)) from exc
    print(_summary_words(summary))
    if not summary.get("board_synced"):
        print(
            f"warning: the peg board did not show the last state: {summary.get('board_link')}",
            file=sys.stderr,
        )
    if not summary.get("observations"):
        print("warning: no observation was read from the source", file=sys.stderr)
    record = summary.get("record") or {}
    if record.get("error") or "referee_log" in record:
        said = record.get("error") or f"the match in {record.get('db')} is not whole"
        kept = record.get("referee_log")
        print(
            f"warning: {said}"
            + (
                f"; the referee's log is kept at {kept}: `kiebitz records --db FILE import "
                f"--referee-db {kept} --table {args.table_id}` records the match"
                if kept
                else "; the referee's log could not be kept (said above)"
                if "referee_log" in record
                else ""
            ),
            file=sys.stderr,
        )
    if summary.get("unreadable_frames"):
        print(
            f"warning: {summary['unreadable_frames']} frame(s) of the source could not be read",
            file=sys.stderr,
        )
    # Ctrl-C: the shell's status for an interrupt; SIGTERM: the stop that was asked for
    return 130 if summary.get("interrupted") and not summary.get("terminated") else 0


def _summary_words(s: dict) -> str:
    verdicts = (
        ", ".join(f"{v['kind']} by seat {v['seat']} at trick {v['trick']}" for v in s["verdicts"])
        or "none"
    )
    lines = [
        f"Summary: {s['game']}, {len(s['plays'])} cards played, scores {s['scores']}, "
        f"verdicts: {verdicts}; {len(s['alerts'])} alert(s) open.",
    ]
    board = s.get("board") or {}
    if board.get("pegs"):
        lines.append(
            "Board: "
            + ", ".join(f"track {i}: front {f}, back {b}" for i, (f, b) in enumerate(board["pegs"]))
        )
    elif board.get("displays"):
        lines.append(f"Board displays: {board['displays']}")
    if s.get("log"):
        lines.append(f"Referee's log: {s['log']}")
    record = s.get("record")
    if record and "match" in record:  # (not one that could not be read back: warned)
        whole = "" if record.get("complete", True) else ", not whole"
        lines.append(
            f"Recorded as match {record['match']} in {record['db']}{whole} "
            f"(kiebitz records --db {record['db']} show {record['match']})"
        )
    return "\n".join(lines)


def _add_referee(commands: Commands) -> None:
    ref = commands.add_parser(
        "referee",
        help="the referee: table observations and commands to game events and state",
        description=(
            "Referee one or many tables over MQTT: read kiebitz/v1/<table>/table/observation and "
            "table/command, publish game/event and the retained game/state, keep every input "
            "in an SQLite log and resume from it on start. With --replay, read a file of "
            "observation and command lines without a broker and print the table's state."
        ),
    )
    ref.add_argument("--config", metavar="FILE", help="the Pi's TOML config (docs/install.md)")
    ref.add_argument("--broker", metavar="URL", help="the MQTT broker (mqtt://host:port)")
    ref.add_argument(
        "--db", metavar="FILE", type=Path, help="the log (default ./kiebitz-referee.db)"
    )
    ref.add_argument("--tables", metavar="ID,...", help="serve only these tables")
    ref.add_argument(
        "--replay",
        metavar="FILE.jsonl",
        help="read observation/command lines offline and print the state as JSON",
    )
    add_game_options(ref)
    ref.set_defaults(handler=_referee)


def _referee(args: argparse.Namespace) -> int:
    bus_options: dict[str, Any] = {}
    if args.config is not None:
        # what the command line gives wins; the rest from the Pi's config
        from controller.cli_config import read_config

        cfg = read_config(args.config)
        if args.broker is None or args.broker == cfg.broker.url:
            args.broker = cfg.broker.url
            bus_options = (
                cfg.referee.bus_options(cfg.broker)
                if cfg.referee is not None
                else cfg.broker.bus_options()
            )
        if cfg.referee is not None:
            args.db = args.db or Path(cfg.referee.db)
            args.tables = args.tables or ",".join(cfg.referee.tables) or None
        if args.game is None:
            args.game = cfg.game.game
            opts = cfg.game.options
            args.variant = args.variant or opts.get("variant")
            args.players = args.players if args.players is not None else opts.get("players")
            args.game_to = args.game_to if args.game_to is not None else opts.get("game_to")
            if "rules" in opts and args.rules is None:
                args.rules = opts["rules"]
            args.dealer = args.dealer if args.dealer is not None else cfg.game.dealer
    args.db = args.db or Path("kiebitz-referee.db")
    setup = setup_from_args(args)
    if args.replay is not None:
        return _replay(args.replay, setup)
    if args.broker is None:
        raise UsageError("give --broker URL (or --replay FILE)")
    service_logging()
    from controller.bus.bus import open_bus
    from controller.bus.envelope import Stamper
    from controller.referee import InputLog, Referee, StoreError
    from controller.table.service import status_will

    tables = table_ids(args.tables)
    status: dict[str, Stamper] = {}
    try:
        store = InputLog(args.db)
    except StoreError as exc:
        raise UsageError(str(exc)) from exc
    try:
        # a session the broker keeps a day: what tables publish while the referee
        # restarts is queued for it, not lost
        if args.broker.startswith("mqtt"):
            bus_options["session_expiry"] = 86400
        # one table: the broker says offline for it if the referee dies (a connection
        # has one last will; with more tables each is said offline at a clean stop)
        if tables is not None and len(tables) == 1:
            status[tables[0]] = Stamper(f"{tables[0]}/referee-status")
            bus_options["will"] = status_will(tables[0], status[tables[0]], "referee")
        bus = open_bus(args.broker, "kiebitz-referee", **bus_options)
    except ValueError as exc:
        raise UsageError(f"--broker: {exc}") from exc
    referee = Referee(bus, store, setup_for=lambda _t: setup, tables=tables, status=status)
    which = ", ".join(tables) if tables else "every table"
    # "serving" once the broker has the subscriptions: what tables send from then on
    # is the referee's, even while it restarts (its session); before the very first
    # subscription the broker keeps nothing for it
    try:
        serve(
            bus,
            referee,
            lambda where: f"referee: serving {which} on {args.broker}; log {args.db}{where}",
        )
    finally:
        referee.close()  # says offline for its tables while the bus is still up
        bus.close()
    return 0


_NOT_INPUTS = frozenset({"status", "reading", "warning", "error"})


def _replay(path: str, setup) -> int:
    from controller.cli_io import OverlongLine, read_byte_lines
    from rules.errors import RulesError
    from rules.reading import TableReading, parse_input

    reading = TableReading(setup)
    bad = 0
    number = 0
    try:
        handle = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"--replay {path}: {exc.strerror or exc}") from exc

    def fault(why: str) -> None:
        nonlocal bad
        bad += 1
        print(f"kiebitz: {path}: line {number}: {why[:200]}", file=sys.stderr)

    from controller.cli_io import looked_at

    try:  # a file of UTF-16 text: one line for the file, not one for each of its lines
        handle = looked_at(handle, f"--replay {path}")
    except UsageError:
        if path != "-":
            handle.close()
        raise
    try:
        with handle:
            # lines of at most MAX_LINE bytes: one of 200 MB was held whole (640 MB)
            for number, raw in enumerate(read_byte_lines(handle), 1):
                if isinstance(raw, OverlongLine):
                    fault(raw.error())
                    continue
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    fault(f"not UTF-8 text (byte {exc.start + 1})")
                    continue
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except (ValueError, RecursionError) as exc:
                    fault(f"not JSON: {getattr(exc, 'msg', exc)}")
                    continue
                if isinstance(data, dict) and set(data) & _NOT_INPUTS:
                    continue  # the lines of `kiebitz vision watch` that are not observations
                try:
                    item = parse_input(data)
                    up = reading.feed(item)
                except (ValueError, RulesError) as exc:
                    fault(str(exc))
                    continue
                unread = item.unread()
                if unread is not None:  # (it was dropped without a word: a sweep's find)
                    print(f"kiebitz: {path}: line {number}: ignored: {unread}", file=sys.stderr)
                if up.error:
                    print(f"kiebitz: {path}: line {number}: refused: {up.error}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"stopped at line {number}", file=sys.stderr)
        return 130
    if number == 0:
        print(f"warning: {path} is empty: nothing was read", file=sys.stderr)
    summary = reading.summary()
    summary["plays"] = reading.plays()
    print(json.dumps(summary))
    return 1 if bad else 0
