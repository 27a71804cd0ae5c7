"""What the command line reads: arguments, files or stdin, batch lines; what the user got wrong.

Batch discipline, shared by every ``--batch`` command: one output line per input
line, so the outputs line up with the inputs (``paste FILE <(kiebitz … --batch
FILE)``). A blank line or a ``#`` comment line gives an empty output line; text
after ``#`` on a card line is a comment. A bad line gives ``error: line N:
<why>`` on its own line and the rest go on; the run's exit status is 0 when
every line was good and 1 when any was bad.

>>> import io
>>> out = io.StringIO()
>>> def double(text: str) -> str:
...     if not text.isdigit():
...         raise MalformedLineError(f"not a number: {text!r}")
...     return str(2 * int(text))
>>> run_batch(["21", "# a note", "", "x  # bad", "4"], double, out)
1
>>> print(out.getvalue(), end="")
42
<BLANKLINE>
<BLANKLINE>
error: line 4: not a number: 'x'
8
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from controller.errors import MalformedLineError, UsageError
from rules.errors import RulesError

if TYPE_CHECKING:
    from typing import TypeAlias

    #: What a command group's ``register`` function adds its parsers to.
    Commands: TypeAlias = argparse._SubParsersAction["KiebitzArgumentParser"]

__all__ = [
    "STDIN",
    "KiebitzArgumentParser",
    "name_commands",
    "open_input",
    "run_batch",
    "strip_comment",
    "user_input",
]

#: The file name that means standard input.
STDIN = "-"

#: What a bad batch line may raise: malformed text, never a bug in the code.
_LINE_ERRORS = (RulesError, MalformedLineError)


class KiebitzArgumentParser(argparse.ArgumentParser):
    """An :class:`~argparse.ArgumentParser` whose errors are one line, not a usage block.

    :meth:`error` raises :class:`~controller.errors.UsageError`; :func:`main` prints
    it and returns 2. Abbreviated options are off, so a later option cannot
    change what an old command line means. Sub-parsers inherit the class.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def add_commands(self, dest: str) -> Commands:
        """A choice of sub-command; call :func:`name_commands` once they are added.

        Not ``required=True``: argparse would then report a missing command before an
        unknown option (``kiebitz --frob`` would not name ``--frob``). A missing
        command is reported by the handler this parser gets instead.
        """
        commands = self.add_subparsers(dest=dest, parser_class=type(self))
        self.set_defaults(handler=partial(_missing_command, self.prog, commands))
        return commands


def _missing_command(prog: str, commands: Commands, args: argparse.Namespace) -> int:
    choices = ", ".join(repr(name) for name in commands.choices)
    raise UsageError(f"missing command after {prog!r}: choose from {choices}")


def name_commands(commands: Commands) -> None:
    """Name the command list by its choices, ``{score,peg}``, also in error messages.

    Without this a missing command is reported by its ``dest``, which the user never
    typed.
    """
    commands.metavar = "{" + ",".join(commands.choices) + "}"


def strip_comment(line: str) -> str:
    """The line without its ``#`` comment and surrounding white space.

    >>> strip_comment("5H 5S 5C JD | 5D   # the best hand\\n")
    '5H 5S 5C JD | 5D'
    >>> strip_comment("# only a comment")
    ''
    """
    return line.split("#", 1)[0].strip()


def run_batch(lines: Iterable[str], score_line: Callable[[str], str], out: TextIO) -> int:
    """Write ``score_line`` of each line to ``out``, one output line per input line.

    Returns the exit status: 0 if every line was good, 1 if any was bad. Only
    malformed input (:class:`~rules.errors.RulesError`,
    :class:`~controller.errors.MalformedLineError`) becomes an ``error:`` line;
    anything else is a bug and propagates.
    """
    status = 0
    for number, line in enumerate(lines, start=1):
        text = strip_comment(line)
        if not text:
            out.write("\n")
            continue
        try:
            result = score_line(text)
        except _LINE_ERRORS as exc:
            status = 1
            result = f"error: line {number}: {exc}"
        out.write(result + "\n")
    return status


@contextmanager
def open_input(path: str) -> Iterator[TextIO]:
    """Open ``path`` for reading as UTF-8 text; ``-`` is standard input (left open).

    Undecodable bytes become U+FFFD, so they show up as a bad card on their own
    line instead of ending the run. A file that cannot be opened raises
    :class:`~controller.errors.UsageError` naming it.
    """
    if path == STDIN:
        stream = sys.stdin
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")
        yield stream
        return
    try:
        handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from exc
    with handle:
        yield handle


@contextmanager
def user_input() -> Iterator[None]:
    """Turn malformed input from the command line into a :class:`UsageError`.

    >>> from rules.cards import parse_card
    >>> with user_input():
    ...     parse_card("ZZ")
    Traceback (most recent call last):
    ...
    controller.errors.UsageError: invalid card 'ZZ': unknown suit 'Z' (use S H D C)
    """
    try:
        yield
    except RulesError as exc:
        raise UsageError(str(exc)) from exc
