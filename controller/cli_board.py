"""``kiebitz board …``: the LED peg board — emulate it, set it by hand, flash it, build it.

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["board", "show", "--port", "loop://", "--pegs", "5:0"])
>>> args.pegs, args.layout
('5:0', 'two-player-121')
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli_io import name_commands, positive_number
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["register"]

DEFAULT_LAYOUT = "two-player-121"


def register(commands: Commands) -> None:
    """Add ``board`` and its commands to the top-level command list."""
    board = commands.add_parser(
        "board",
        help="the LED peg board: emulate, show a state, flash, drilling template, power budget",
        description="The LED cribbage peg board and score displays (Raspberry Pi Pico).",
    )
    sub = board.add_commands("board_command")
    _add_emulate(sub)
    _add_show(sub)
    _add_flash(sub)
    _add_template(sub)
    _add_power(sub)
    _add_check(sub)
    name_commands(sub)


def _layout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layout",
        default=DEFAULT_LAYOUT,
        help=f"a layout name from config/boards or a TOML file (default {DEFAULT_LAYOUT})",
    )


def _not_a_serial_port(path: Path) -> str | None:
    """Why ``path`` (which exists) cannot be a board's serial port, or None: a folder,
    a plain file, or a device that is no terminal (a USB CDC port and the emulator's
    pseudo-terminal are terminals)."""
    import os
    import stat

    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"cannot look at it: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "a folder, not a serial port"
    if not stat.S_ISCHR(mode):
        return "not a device: a serial port is one (ls /dev/ttyACM*)"
    try:
        fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None  # busy or not ours to open: the link says why, and retries
    try:
        return None if os.isatty(fd) else "a device that is no serial port (ls /dev/ttyACM*)"
    finally:
        os.close(fd)


@contextmanager
def _board_errors() -> Iterator[None]:
    from controller.board.errors import LayoutFileError, StateError

    try:
        yield
    except (LayoutFileError, StateError) as exc:
        raise UsageError(str(exc)) from exc


def _load(name: str) -> Any:
    from controller.board.layouts import load_layout

    with _board_errors():
        return load_layout(name)


# -- emulate ------------------------------------------------------------------------


def _add_emulate(sub: Commands) -> None:
    emulate = sub.add_parser(
        "emulate",
        help="run the firmware on a pseudo-terminal with fake hardware; print its port",
        description=(
            "Run the board's firmware on a pseudo-terminal with fake pins, PIO and displays. "
            "Prints the port to give 'kiebitz board show --port' (or the table service), "
            "then draws the board whenever it changes, until Ctrl-C or --duration."
        ),
    )
    _layout_option(emulate)
    emulate.add_argument(
        "--link", metavar="PATH", help="a symlink to the port that survives replugs"
    )
    emulate.add_argument(
        "--micropython",
        action="store_true",
        help="run the firmware on the unix port of MicroPython instead of CPython",
    )
    emulate.add_argument("--svg", metavar="FILE", help="write the picture as SVG on each change")
    emulate.add_argument("--png", metavar="FILE", help="write the picture as PNG on each change")
    emulate.add_argument("--duration", type=positive_number, help="stop after this many seconds")
    emulate.add_argument("--no-colour", action="store_true", help="no ANSI colours")
    emulate.add_argument("--quiet", action="store_true", help="print the port only, no pictures")
    emulate.set_defaults(handler=_emulate)


def _emulate(args: argparse.Namespace) -> int:
    from controller.board import picture
    from controller.board.emulator import Emulator, MicroPythonEmulator

    layout = _load(args.layout)
    for option, value in (("--link", args.link), ("--svg", args.svg), ("--png", args.png)):
        if value is not None and not Path(value).parent.is_dir():
            raise UsageError(f"{option} {value}: no folder {str(Path(value).parent)!r}")
        if value is not None and Path(value).is_dir():
            raise UsageError(f"{option} {value}: it is a folder, not a file")
    emulator: Any
    if args.micropython:
        workdir = tempfile.TemporaryDirectory(prefix="kiebitz-board-")
        try:
            emulator = MicroPythonEmulator(layout).start(Path(workdir.name))
        except FileNotFoundError as exc:
            workdir.cleanup()
            raise UsageError(str(exc)) from exc
    else:
        workdir = None
        try:  # the link is replaced on each plug and removed at the end: never a user's file
            emulator = Emulator(layout, link=args.link).start()
        except FileExistsError as exc:
            raise UsageError(f"--link {args.link}: {exc.strerror}") from exc
    deadline = None if args.duration is None else time.monotonic() + args.duration
    shown: Any = None
    # Stopped by a service manager or a closed terminal (SIGTERM, SIGHUP) as by Ctrl-C:
    # the board is closed and --link removed, so it never names a freed
    # pseudo-terminal (only SIGKILL leaves it; the next start replaces it).
    stopped = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        print(f"port: {emulator.port}", flush=True)
        while deadline is None or time.monotonic() < deadline:
            snap = emulator.snapshot()
            if (snap.leds, snap.displays) != shown:
                shown = (snap.leds, snap.displays)
                if not args.quiet:
                    print(picture.terminal(layout, snap, colour=not args.no_colour), flush=True)
                if args.svg:
                    Path(args.svg).write_text(picture.svg(layout, snap), encoding="utf-8")
                if args.png:
                    Path(args.png).write_bytes(picture.png(layout, snap))
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        emulator.close()
        if workdir is not None:
            workdir.cleanup()
        for sig, handler in stopped.items():
            signal.signal(sig, handler)
    return 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


# -- show ---------------------------------------------------------------------------


def _add_show(sub: Commands) -> None:
    show = sub.add_parser(
        "show",
        help="set the board to a state by hand (bench testing)",
        description=(
            "Open the board's port, say HELLO, send one state and wait until the board shows it. "
            "Pegs per track as FRONT:BACK, e.g. --pegs 12:6,30:22; scores per seat, '-' blank."
        ),
    )
    show.add_argument(
        "--port", required=True, help="a pyserial URL: /dev/ttyACM0, socket://…, spy://…"
    )
    _layout_option(show)
    show.add_argument("--pegs", default="", help="FRONT:BACK per track, e.g. 12:6,30:22")
    show.add_argument("--games", default="", help="games won per track, e.g. 1,0")
    show.add_argument("--dealer", type=int, help="the dealer's track")
    show.add_argument("--turn", type=int, help="whose turn (track)")
    show.add_argument("--scores", default="", help="score per seat's display, e.g. 12,-1200,-")
    show.add_argument(
        "--alert", default="none", help="none, revoke, dispute or win (flashes on --alert-tracks)"
    )
    show.add_argument("--alert-tracks", default="", help="tracks that flash, e.g. 1 (default all)")
    show.add_argument("--brightness", type=int, default=255, help="0-255 of the board's cap")
    show.add_argument("--selftest", action="store_true", help="run the self-test pattern first")
    show.add_argument(
        "--baud", type=int, default=115200, help="baud rate for a UART (default 115200)"
    )
    show.add_argument(
        "--timeout", type=positive_number, default=5.0, help="seconds to wait (default 5)"
    )
    show.set_defaults(handler=_show)


def _show(args: argparse.Namespace) -> int:
    from controller.board.errors import BoardRefusedError, BoardTimeoutError
    from controller.board.link import BoardLink
    from controller.board.model import BoardState

    layout = _load(args.layout)
    with _board_errors():
        state = BoardState.parse(
            pegs=args.pegs,
            games=args.games,
            dealer=args.dealer,
            turn=args.turn,
            alert=args.alert,
            alert_tracks=args.alert_tracks,
            scores=args.scores,
            brightness=args.brightness,
        )
        state.to_wire(layout)
    holes = layout.games_won_holes
    for track, won in enumerate(state.games_won):
        # The board has this many games-won holes (seed 000: "nine extra pegs for
        # counting games won"); 99 was taken, and the board showed nine.
        if won > holes:
            raise UsageError(
                f"--games {args.games}: track {track} has {won} games won, but the board "
                f"({layout.name}) has {holes} games-won holes (0 to {holes})"
            )
    if "://" not in args.port and not Path(args.port).exists():
        # a device that is not there: say so now, not after waiting out --timeout
        raise UsageError(
            f"--port {args.port}: no such device (is the board plugged in? ls /dev/ttyACM*)"
        )
    if "://" not in args.port and (why := _not_a_serial_port(Path(args.port))) is not None:
        # a folder, a file or /dev/zero: not a board that may yet answer (exit 1 after
        # --timeout, where the docs give 2 for a port that is not a board's)
        raise UsageError(f"--port {args.port}: {why}")
    with BoardLink(args.port, layout, baudrate=args.baud) as link:
        if args.selftest:
            with suppress(BoardTimeoutError, BoardRefusedError):
                link.wait_synced(args.timeout)
            link.self_test()
        link.set_state(state)
        try:
            health = link.wait_synced(args.timeout)
        except (BoardTimeoutError, BoardRefusedError) as exc:
            print(f"kiebitz: board: {exc}", file=sys.stderr)
            return 1
    print(health.summary())
    return 0


# -- flash --------------------------------------------------------------------------


def _add_flash(sub: Commands) -> None:
    flash = sub.add_parser(
        "flash",
        help="copy the firmware and a layout to a Pico with mpremote",
        description=(
            "Copy firmware/pegboard, main.py and the layout (as board_config.py) to a Pico "
            "running MicroPython, with mpremote, then reset it."
        ),
    )
    flash.add_argument("--port", default="auto", help="the Pico's port (default: mpremote's auto)")
    _layout_option(flash)
    flash.add_argument("--mpremote", default="mpremote", help="the mpremote program")
    flash.add_argument("--stage", metavar="DIR", help="stage the files here (default: a temp dir)")
    flash.add_argument(
        "--dry-run", action="store_true", help="stage the files and print the command, run nothing"
    )
    flash.set_defaults(handler=_flash)


def _flash(args: argparse.Namespace) -> int:
    import shlex

    from controller.board import flash
    from controller.board.layouts import layout_from_data, read_layout_data

    with _board_errors():
        path, data = read_layout_data(args.layout)
        layout_from_data(data, str(path))
    temp = None
    if args.stage:
        target = Path(args.stage)
    else:
        temp = tempfile.TemporaryDirectory(prefix="kiebitz-flash-")
        target = Path(temp.name)
    try:
        files = flash.stage(data, str(path), target)
        command = flash.mpremote_command(args.port, args.mpremote)
        print(f"staged {len(files)} files in {target}")
        print(f"(cd {shlex.quote(str(target))} && {shlex.join(command)})")
        if args.dry_run:
            return 0
        try:
            result = subprocess.run(command, cwd=target, check=False)
        except FileNotFoundError as exc:
            raise UsageError(f"cannot run {args.mpremote!r}: pip install mpremote") from exc
        if result.returncode != 0:  # mpremote says why above; this says what failed
            print(
                f"kiebitz: error: {args.mpremote} ended with status {result.returncode}: "
                "the Pico was not flashed (is it plugged in, running MicroPython?)",
                file=sys.stderr,
            )
            return 1
        return 0
    finally:
        if temp is not None:
            temp.cleanup()


# -- template, power, check ---------------------------------------------------------


def _add_template(sub: Commands) -> None:
    template = sub.add_parser(
        "template",
        help="the drilling template (SVG, 1:1) from a layout",
        description="Write the drilling template of a layout as SVG at 1:1 scale.",
    )
    _layout_option(template)
    template.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    template.set_defaults(handler=_template)


def _template(args: argparse.Namespace) -> int:
    from controller.board.template import template_svg

    text = template_svg(_load(args.layout))
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _add_power(sub: Commands) -> None:
    power = sub.add_parser(
        "power",
        help="the power budget of layouts (supply, fuse, injection points)",
        description=(
            "The power budget from the layout and the firmware's brightness cap and limiter."
        ),
    )
    power.add_argument(
        "layouts", nargs="*", metavar="LAYOUT", help="names or TOML files (default: all shipped)"
    )
    power.set_defaults(handler=_power)


def _power(args: argparse.Namespace) -> int:
    from controller.board.layouts import available
    from controller.board.power import markdown

    names = args.layouts or available()
    sys.stdout.write(markdown([_load(name) for name in names]))
    return 0


def _add_check(sub: Commands) -> None:
    check = sub.add_parser(
        "check",
        help="validate board layout files",
        description=(
            "Load and validate layouts: 'ok: …' on stdout for each good one; each bad one "
            "is a line on stderr naming its file and key path, and the status is 2."
        ),
    )
    check.add_argument("layouts", nargs="*", metavar="LAYOUT", help="default: all shipped")
    check.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> int:
    from controller.board.errors import LayoutFileError
    from controller.board.layouts import available, load_layout

    # Bad input, as every board command has it (docs/cli.md): status 2 and the
    # error on stderr, one line a bad layout; it was 'error: …' on stdout, status 1.
    errors: list[str] = []
    for name in args.layouts or available():
        try:
            layout = load_layout(name)
        except LayoutFileError as exc:
            errors.append(str(exc))
            continue
        print(
            f"ok: {layout.name}: {layout.tracks} tracks of {layout.game} holes, "
            f"{layout.led_count} LEDs, fingerprint 0x{layout.fingerprint():04x}"
        )
    if errors:
        sys.stdout.flush()
        for line in errors[:-1]:
            print(f"kiebitz: error: {line}", file=sys.stderr)
        raise UsageError(errors[-1])
    return 0
