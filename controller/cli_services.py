"""``kiebitz table``: run one table's service (camera → MQTT, ``game/state`` → board and panel).

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["table", "--table-id", "t1", "--broker", "mqtt://127.0.0.1:1883",
...                           "--observations", "game.jsonl"])
>>> args.observations, args.board_layout, args.fps
('game.jsonl', None, None)

``--config FILE`` reads the Pi's one TOML config (:mod:`controller.config`; what
the command line gives wins): the broker and its account, the table id, the
source, layouts, board and panel. Without it, ``--table-id``, ``--broker`` and a
source are needed on the command line.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli_io import positive_number, service_logging, table_id
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
    table.add_argument("--config", metavar="FILE", help="the Pi's TOML config (docs/install.md)")
    table.add_argument("--table-id", help="the table id, e.g. t1")
    table.add_argument("--broker", help="mqtt://host:port, mqtts://host:port or memory://NAME")
    what = table.add_mutually_exclusive_group()
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
        help=f"a board layout name or TOML file (default {DEFAULT_BOARD_LAYOUT})",
    )
    table.add_argument(
        "--gpio", metavar="FACTORY", help="the panel's pin factory: mock, lgpio, rpigpio, native"
    )
    table.add_argument("--fps", type=positive_number, help="frames a second (default 10)")
    table.add_argument("--model", help="the ONNX card model (default: the shipped one)")
    table.add_argument(
        "--pace",
        type=positive_number,
        metavar="SECONDS",
        help="--observations: wait this long before each line (as a game is played)",
    )
    table.add_argument(
        "--outbox",
        metavar="FILE",
        help="keep each observation on disk until the broker acknowledges it (SQLite)",
    )
    table.set_defaults(handler=_table)


@contextmanager
def _usage(what: str) -> Iterator[None]:
    """Bad input from the command line (a file, a URL, a name) as one line, status 2."""
    try:
        yield
    except (ValueError, OSError, KeyError) as exc:
        text = str(exc) if not isinstance(exc, KeyError) else f"unknown {exc}"
        if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
            text = exc.strerror  # the path is named in ``what`` already
        # an error that names its source itself is not named twice ("--gpio: --gpio:")
        raise UsageError(text if text.startswith(f"{what}: ") else f"{what}: {text}") from exc


def _table(args: argparse.Namespace) -> int:
    from controller.bus.bus import open_bus
    from controller.bus.envelope import Stamper
    from controller.table.observations import read_observation_lines
    from controller.table.service import TableService, status_will

    bus_options = _with_config(args)
    service_logging()
    table = table_id(args.table_id)
    if args.source is not None and args.layout is None:
        raise UsageError("--source needs --layout TABLE.toml (the zones the cards lie in)")
    layout = None
    if args.layout is not None:
        from vision.layout import load_layout

        with _usage(_named(args, "layout", "--layout")):
            layout = load_layout(args.layout)
    observations = None
    if args.observations is not None:
        with _usage(f"{_named(args, 'observations', '--observations')} {args.observations}"):
            observations = list(read_observation_lines(args.observations, layout=layout))
    source = watcher = None
    if args.source is not None:
        from vision.model import DEFAULT_MODEL
        from vision.recognize import Recognizer
        from vision.sources import open_source
        from vision.watch import TableWatcher

        with _usage(_named(args, "source", "--source")):
            source = open_source(args.source, fps=args.fps)
        with _usage(_named(args, "model", "--model")):
            watcher = TableWatcher(Recognizer(args.model or DEFAULT_MODEL), layout=layout)
    board = None
    tracks = 2
    from controller.board.layouts import load_layout as load_board_layout

    # read even without a board: a broken layout given passed, to fail the day the
    # board was plugged in
    with _usage(_named(args, "board_layout", "--board-layout")):
        board_layout = load_board_layout(args.board_layout)
    if args.board is not None:
        from controller.board.link import BoardLink

        board = BoardLink(args.board, board_layout)
        tracks = board_layout.tracks
    panel: Any = None
    if args.gpio is not None:
        from controller.gpio.factory import make_pin_factory
        from controller.gpio.panel import Panel
        from controller.gpio.pins import PanelPins

        gpio_said = _named(args, "gpio", "--gpio")
        with _usage(gpio_said):
            factory = make_pin_factory(args.gpio, where=gpio_said)

        def panel(on_command: Any) -> Panel:
            return Panel(PanelPins(), pin_factory=factory, on_command=on_command)

    status = Stamper(f"{table}/table-status")
    with _usage("--broker"):
        bus = open_bus(
            args.broker, f"{table}-table", will=status_will(table, status), **bus_options
        )
    outbox = None
    if args.outbox is not None:
        from controller.table.outbox import Outbox, OutboxError

        try:
            outbox = Outbox(args.outbox)
        except OutboxError as exc:
            raise UsageError(f"{_named(args, 'outbox', '--outbox')}: {exc}") from exc
    else:
        print(
            "kiebitz: warning: no --outbox: what the broker has not acknowledged when "
            "the service stops is lost",
            file=sys.stderr,
        )
    with _usage(_named(args, "gpio", "--gpio")):
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
            status_stamper=status,
            outbox=outbox,
            pace=args.pace or 0.0,
            recorded_as=None if args.observations is None else _recording_key(args.observations),
        )
    stop = threading.Event()
    _stop_on_sigterm(stop)
    try:
        with _usage(_named(args, "source", "--source")):
            service.start()
        service.run(stop)
        if not service.flush(timeout=5.0):
            if outbox is not None and len(outbox):
                # nothing is lost: the outbox sends it at the next start (a SIGTERM while
                # the broker was down said status 1, as if something were)
                print(
                    f"kiebitz: the broker at {args.broker} did not acknowledge {len(outbox)} "
                    f"message(s) ({bus.health().status}): kept in the outbox {args.outbox}, "
                    "sent at the next start",
                    file=sys.stderr,
                )
                return 0
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


def _named(args: argparse.Namespace, attr: str, flag: str) -> str:
    """What to call a value in an error: its config key where the config gave it
    (``table.source in /etc/kiebitz/kiebitz.toml``), else its flag."""
    return str(getattr(args, "said", {}).get(attr, flag))


def _recording_key(path: str) -> str:
    """A recorded file as the outbox knows it: its path, size and time, so that a new
    recording at the same path starts from its first line."""
    p = Path(path).resolve()
    st = p.stat()
    return f"{p}:{st.st_size}:{st.st_mtime_ns}"


def _with_config(args: argparse.Namespace) -> dict[str, Any]:
    """Fill what the command line left out from ``--config``; check what is needed.
    Returns the broker account's options for :func:`open_bus`."""
    options: dict[str, Any] = {}
    said: dict[str, str] = {}
    args.said = {}
    if args.config is not None:
        from controller.cli_config import read_config

        cfg = read_config(args.config)
        if cfg.table is None:
            raise UsageError(f"{args.config}: no [table] section: this Pi's table is not set up")
        t = cfg.table
        args.table_id = args.table_id or t.id
        if args.broker is None or args.broker == cfg.broker.url:
            args.broker = cfg.broker.url
            options = cfg.broker.bus_options()
        elif cfg.broker.username is not None:
            print(
                f"kiebitz: warning: --broker {args.broker} is not the config's "
                f"{cfg.broker.url}: its account ({cfg.broker.username}) is not used there",
                file=sys.stderr,
            )
        if args.source is None and args.observations is None:
            args.source, args.observations = t.source, t.observations
            said.update({a: f"table.{a}" for a in ("source", "observations") if getattr(t, a)})
        for attr, key, value in (
            ("layout", "table.layout", t.layout),
            ("board", "table.board.port", t.board_port),
            ("board_layout", "table.board.layout", t.board_layout),
            ("gpio", "table.panel.gpio", t.gpio),
            ("fps", "table.fps", t.fps),
            ("model", "table.model", t.model),
            ("outbox", "table.outbox", t.outbox),
        ):
            if not getattr(args, attr) and value is not None:
                setattr(args, attr, value)
                said[attr] = key  # (a value the config left out is no key of it)
        # an error in a value the config gave names its key there, not the flag
        args.said = {attr: f"{key} in {args.config}" for attr, key in said.items()}
    args.board_layout = args.board_layout or DEFAULT_BOARD_LAYOUT
    args.fps = args.fps or 10.0
    for name, value in (("--table-id", args.table_id), ("--broker", args.broker)):
        if value is None:
            raise UsageError(f"missing {name} (or --config FILE)")
    if args.source is None and args.observations is None:
        raise UsageError("missing --source or --observations (or --config FILE)")
    return options


def _stop_on_sigterm(stop: threading.Event) -> None:
    """systemd stops a service with SIGTERM: end the loop cleanly, as Ctrl-C does."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
