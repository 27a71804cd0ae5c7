"""The ``kiebitz`` command line.

Commands come in groups, one function or module each, registered in
:data:`COMMAND_GROUPS`: ``kiebitz cribbage …`` (:mod:`controller.cli_cribbage`) and
``kiebitz demo``. A later group (``vision``, ``board``, ``skat``, ``config``) is a
``register(commands)`` function that adds its parser and sets ``handler``, a
function from the parsed arguments to the exit status.

Exit statuses: 0 success; 1 a batch run with a bad line (or whatever the command
reports, e.g. the demo); 2 bad command-line input, reported as exactly one line
on stderr, ``kiebitz: error: <why>``. Unexpected errors are not caught: they end
with Python's traceback and status 1.

>>> main(["cribbage", "peg", "3S", "4H", "5D"])
3: a run of three for three
  run                3  3S 4H 5D
count 12
0
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from controller import (
    cli_board,
    cli_config,
    cli_cribbage,
    cli_records,
    cli_run,
    cli_services,
    cli_skat,
    cli_vision,
    cli_web,
)
from controller.cli_io import KiebitzArgumentParser, name_commands
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["COMMAND_GROUPS", "DEMO_VARIANTS", "KiebitzArgumentParser", "build_parser", "main"]

PROG = "kiebitz"
DEMO_VARIANTS = ("five-card", "six-card", "eight-card")


def _version() -> str:
    try:
        return version("kiebitz")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _add_demo(commands: Commands) -> None:
    demo = commands.add_parser(
        "demo",
        help="the running table on the bundled videos (or, --rules-only, a whole game of "
        "cribbage between two automatic players)",
        description=(
            "Play the bundled synthetic videos (a cribbage deal, a Skat deal with a revoke) "
            "through the whole loop: a private broker, the table service, the referee and an "
            "emulated peg board, telling each game and ending with its summary. With "
            "--rules-only, play a whole game of cribbage between two automatic players "
            "through the rules engine alone."
        ),
    )
    demo.add_argument(
        "--rules-only", action="store_true", help="the rules engine alone, no camera or broker"
    )
    demo.add_argument("--seed", type=int, default=2026, help="--rules-only: the shuffle's seed")
    demo.add_argument(
        "--game-to", type=int, choices=(61, 121), default=121, help="--rules-only: game length"
    )
    demo.add_argument(
        "--variant", choices=DEMO_VARIANTS, default="six-card", help="--rules-only: the deal"
    )
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    # Imported here so the scoring commands start without loading the game engine.
    if args.rules_only:
        from controller import demo

        return demo.run(seed=args.seed, game_to=args.game_to, variant=args.variant, out=sys.stdout)
    from controller.run.demo import run_demo

    return run_demo(out=sys.stdout)


#: Each adds one command (or group of commands) to the top-level list.
COMMAND_GROUPS: tuple[Callable[[Commands], None], ...] = (
    cli_cribbage.register,
    _add_demo,
    cli_board.register,
    cli_vision.register,
    cli_skat.register,
    cli_services.register,
    cli_run.register,
    cli_records.register,
    cli_web.register,
    cli_config.register,
)


def build_parser() -> KiebitzArgumentParser:
    """The whole command line, every group registered."""
    parser = KiebitzArgumentParser(
        prog=PROG,
        description="Kiebitz, the onlooker at the card table: scoring and refereeing tools.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    commands = parser.add_commands("command")
    for register in COMMAND_GROUPS:
        register(commands)
    name_commands(commands)
    return parser


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _here() -> bool:
    """Whether the current folder still exists."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (the console script exits with it)."""
    from controller.stopping import note_ctrl_c

    forget_ctrl_c = note_ctrl_c()  # a Ctrl-C a native import swallows is obeyed all the same
    try:
        parser = build_parser()  # (its commands' imports take a second or more: Ctrl-C too)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help and --version, which print and exit 0
            return exc.code if isinstance(exc.code, int) else 0
        status: int = args.handler(args)
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(f"{PROG}: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        # Ctrl-C: what was printed stands (every command writes whole lines as it goes);
        # one line, the shell's status for an interrupt, no traceback. SIGTERM where a
        # command took it so (stopping.Terminated): the stop asked for, status 0
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        from controller.stopping import Terminated

        if isinstance(exc, Terminated):
            print(f"{PROG}: stopped (SIGTERM)", file=sys.stderr)
            return 0
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`kiebitz … | head`): not an error worth a traceback.
        # Point stdout at /dev/null so the interpreter's final flush does not fail again.
        _drop_stdout()
        return 1
    except OSError as exc:
        if exc.errno not in _WRITE_FAILURES:
            if exc.filename is None and not _here():
                # a shell left in a folder removed under it: a relative path (the
                # records' own kiebitz-records.db) was a FileNotFoundError traceback
                print(
                    f"{PROG}: error: the current folder was removed: change to one that exists",
                    file=sys.stderr,
                )
                return 2
            if exc.filename is None:
                raise
            # a path the user gave that cannot be opened or written (a missing folder,
            # a folder where a file goes, a file where a folder goes): one line naming it
            print(f"{PROG}: error: {_one_line(_os_error(exc))}", file=sys.stderr)
            return 2
        # A full disk (or /dev/full): one line and status 2, as for any error the
        # user can act on; stdout goes to /dev/null so the final flush cannot fail again.
        print(f"{PROG}: error: cannot write: {exc.strerror}", file=sys.stderr)
        _drop_stdout()
        return 2
    finally:
        forget_ctrl_c()


def _os_error(exc: OSError) -> str:
    """An error about a path, as one line: the path, then what is wrong (and the
    second path of a rename or link)."""
    what = exc.strerror or type(exc).__name__
    if exc.filename2 is not None:
        return f"{exc.filename} -> {exc.filename2}: {what}"
    return f"{exc.filename}: {what}"


#: The errors of a write that found no room: no space, over quota, too large.
_WRITE_FAILURES = frozenset((errno.ENOSPC, errno.EDQUOT, errno.EFBIG))


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what is
    still buffered does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    status = main()
    # `python -m controller.cli` on CPython 3.11: a Ctrl-C raised inside an exec() of a
    # string (a dataclass being made while a module imports, the first seconds of a
    # run) marks the interpreter to die by SIGINT at exit, though main caught it and
    # returns 130 (Python/pythonrun.c run_eval_code_obj; Modules/main.c Py_RunMain).
    # The next exec() of a string clears the mark. The console script `kiebitz` exits
    # by another path and never had it.
    exec("")
    sys.exit(status)
