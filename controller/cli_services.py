"""``kiebitz table``: run one table's service (camera → MQTT, ``game/state`` → board and panel).

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["table", "--table-id", "t1", "--broker", "mqtt://127.0.0.1:1883",
...                           "--observations", "game.jsonl"])
>>> args.observations, args.board_layout, args.fps
('game.jsonl', 'two-player-121', 10.0)
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from controller.cli_io import positive_number
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["register"]

DEFAULT_BOARD_LAYOUT = "two-player-121"


def register(commands: Commands) -> None:
    """Add ``table`` to the top-level command list."""
    table = commands.add_parser(
        "table",
        help="run a table's service: camera to observations, game state to peg board and panel",
        description=(
            "Watch the table (a camera, video or image folder, or recorded observations) and "
            "publish what is played on kiebitz/v1/<table>/table/observation; show the referee's "
            "retained game/state on the peg board (--board) and the GPIO panel (--gpio), whose "
            "buttons publish commands. Runs until the source ends or Ctrl-C."
        ),
    )
    table.add_argument("--table-id", required=True, help="the table id, e.g. t1")
    table.add_argument("--broker", required=True, help="mqtt://host:port or memory://NAME")
    what = table.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--source", help="picamera, a camera number or /dev/video0, rtsp://…, a video or a folder"
    )
    what.add_argument(
        "--observations",
        metavar="FILE.jsonl",
        help="recorded observation lines (as 'kiebitz vision watch' prints them)",
    )
    table.add_argument(
        "--layout", metavar="TABLE.toml", help="the table layout (zones, markers); needs --source"
    )
    table.add_argument("--board", metavar="PORT", help="the peg board's port (a pyserial URL)")
    table.add_argument(
        "--board-layout",
        default=DEFAULT_BOARD_LAYOUT,
        help=f"a board layout name or TOML file (default {DEFAULT_BOARD_LAYOUT})",
    )
    table.add_argument(
        "--gpio", metavar="FACTORY", help="the panel's pin factory: mock, lgpio, rpigpio, native"
    )
    table.add_argument(
        "--fps", type=positive_number, default=10.0, help="frames a second (default 10)"
    )
    table.add_argument("--model", help="the ONNX card model (default: the shipped one)")
    table.set_defaults(handler=_table)


@contextmanager
def _usage(what: str) -> Iterator[None]:
    """Bad input from the command line (a file, a URL, a name) as one line, status 2."""
    try:
        yield
    except (ValueError, OSError, KeyError) as exc:
        text = str(exc) if not isinstance(exc, KeyError) else f"unknown {exc}"
        raise UsageError(f"{what}: {text}") from exc


def _table(args: argparse.Namespace) -> int:
    from controller.bus.bus import open_bus
    from controller.bus.envelope import Stamper
    from controller.bus.topics import check_table_id
    from controller.table.observations import read_observation_lines
    from controller.table.service import TableService, status_will

    with _usage("--table-id"):
        table = check_table_id(args.table_id)
    if args.source is not None and args.layout is None:
        raise UsageError("--source needs --layout TABLE.toml (the zones the cards lie in)")
    layout = None
    if args.layout is not None:
        from vision.layout import load_layout

        with _usage("--layout"):
            layout = load_layout(args.layout)
    observations = None
    if args.observations is not None:
        with _usage("--observations"):
            observations = list(read_observation_lines(args.observations, layout=layout))
    source = watcher = None
    if args.source is not None:
        from vision.model import DEFAULT_MODEL
        from vision.recognize import Recognizer
        from vision.sources import open_source
        from vision.watch import TableWatcher

        with _usage("--source"):
            source = open_source(args.source, fps=args.fps)
        with _usage("--model"):
            watcher = TableWatcher(Recognizer(args.model or DEFAULT_MODEL), layout=layout)
    board = None
    tracks = 2
    if args.board is not None:
        from controller.board.layouts import load_layout as load_board_layout
        from controller.board.link import BoardLink

        with _usage("--board-layout"):
            board_layout = load_board_layout(args.board_layout)
        board = BoardLink(args.board, board_layout)
        tracks = board_layout.tracks
    panel: Any = None
    if args.gpio is not None:
        from controller.gpio.factory import make_pin_factory
        from controller.gpio.panel import Panel
        from controller.gpio.pins import PanelPins

        with _usage("--gpio"):
            factory = make_pin_factory(args.gpio, where="--gpio")

        def panel(on_command: Any) -> Panel:
            return Panel(PanelPins(), pin_factory=factory, on_command=on_command)

    stamper = Stamper(f"{table}/table")
    status = Stamper(f"{table}/table-status")
    with _usage("--broker"):
        bus = open_bus(args.broker, f"{table}-table", will=status_will(table, status))
    with _usage("--gpio"):
        service = TableService(
            table,
            bus,
            source=source,
            watcher=watcher,
            layout=layout,
            observations=observations,
            board=board,
            board_tracks=tracks,
            panel=panel,
            stamper=stamper,
            status_stamper=status,
        )
    stop = threading.Event()
    _stop_on_sigterm(stop)
    try:
        with _usage("--source"):
            service.start()
        service.run(stop)
        if not service.flush(timeout=5.0):
            print(
                f"kiebitz: warning: the broker at {args.broker} did not acknowledge everything "
                f"sent: {bus.health().status}",
                file=sys.stderr,
            )
            return 1
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
    return 0


def _stop_on_sigterm(stop: threading.Event) -> None:
    """systemd stops a service with SIGTERM: end the loop cleanly, as Ctrl-C does."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
