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
import codecs
import io
import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO

from controller.errors import MalformedLineError, UsageError
from controller.stopping import wait_for_stop
from rules.errors import RulesError

if TYPE_CHECKING:
    from typing import TypeAlias

    #: What a command group's ``register`` function adds its parsers to.
    Commands: TypeAlias = argparse._SubParsersAction["KiebitzArgumentParser"]

__all__ = [
    "MAX_LINE",
    "STDIN",
    "KiebitzArgumentParser",
    "OverlongLine",
    "looked_at",
    "name_commands",
    "not_utf8",
    "open_input",
    "positive_number",
    "read_byte_lines",
    "read_lines",
    "run_batch",
    "serve",
    "service_logging",
    "share",
    "strip_comment",
    "subscribed_note",
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


def service_logging() -> None:
    """A long-running service's log lines on stderr, which systemd sends to the journal
    (``journalctl -u kiebitz-table``): level and logger, no time (the journal stamps
    each line). Does nothing when logging is already set up."""
    import logging

    class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
        """Writes to whatever ``sys.stderr`` is now (a test may swap it)."""

        @property  # type: ignore[override]
        def stream(self) -> Any:
            return sys.stderr

        @stream.setter
        def stream(self, value: Any) -> None:
            pass

    handler = _Stderr()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])


def positive_number(text: str) -> float:
    """An argparse type: a finite number above 0 (seconds, frames a second). ``nan``
    and ``inf`` are refused: a wait of ``nan`` seconds never ends.

    >>> positive_number("2.5")
    2.5
    >>> positive_number("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number above 0, got 'nan'
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text[:24]!r}")
    return value


MAX_COUNT = 1_000_000_000


def counting_number(text: str) -> int:
    """An argparse type: a whole number from 1 to ``MAX_COUNT`` (scenes, epochs, rows
    to list; SQLite takes no larger).

    >>> counting_number("12")
    12
    >>> counting_number("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 1 to 1000000000, got '0'
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 1 to {MAX_COUNT}, got {text[:24]!r}"
        )
    return value


def table_id(value: str, option: str = "--table-id") -> str:
    """A table id given as ``option``, checked (:func:`~controller.bus.topics.
    check_table_id`); a bad one is a :class:`UsageError` naming the option."""
    from controller.bus.topics import check_table_id

    try:
        return check_table_id(value)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from exc


def table_ids(text: str | None, option: str = "--tables") -> list[str] | None:
    """The table ids of a comma list (``t1,t2``) given as ``option``, each checked;
    ``None`` where none is given (every table).

    >>> table_ids("t1, t2,"), table_ids(None)
    (['t1', 't2'], None)
    """
    if not text:
        return None
    return [table_id(t.strip(), option) for t in text.split(",") if t.strip()]


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (a free one) to 65535.

    >>> port_number("8080")
    8080
    >>> port_number("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a port from 0 to 65535, got '99999'
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text[:24]!r}")
    return value


def share(text: str) -> float:
    """An argparse type: a finite number from 0 to 1 (a chance, a share)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:  # False for nan
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text[:24]!r}")
    return value


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
        if isinstance(line, OverlongLine):
            status = 1
            out.write(f"error: line {number}: {line.error()}\n")
            continue
        text = strip_comment(line)
        if not text:
            out.write("\n")
            continue
        garbled = _not_text(text)
        if garbled is not None:
            status = 1
            out.write(f"error: line {number}: {garbled}\n")
            continue
        try:
            result = score_line(text)
        except _LINE_ERRORS as exc:
            status = 1
            result = f"error: line {number}: {exc}"
        out.write(result + "\n")
    return status


def _not_text(line: str) -> str | None:
    """Why a line is not text at all (binary data, UTF-16), or None. Such a line was
    echoed back as an invalid card, NULs and replacement marks included."""
    if "\x00" in line:
        return "a NUL byte: the input is not UTF-8 text (UTF-16? save it as UTF-8)"
    if "\ufffd" in line:
        return f"bytes that are not UTF-8 text at column {line.index(chr(0xFFFD)) + 1}"
    return None


#: The longest input line read, in bytes; a longer one is an error of its own, read
#: past in pieces and never held whole (a 50 MB line cost 2.3 GB before it was refused).
MAX_LINE = 1 << 16
_BOM = b"\xef\xbb\xbf"


class OverlongLine(str):
    """Stands in for an input line longer than :data:`MAX_LINE`: empty text that
    carries the line's ``length`` in bytes, for the error that names it."""

    length: int

    def __new__(cls, length: int) -> OverlongLine:
        line = super().__new__(cls, "")
        line.length = length
        return line

    def error(self) -> str:
        return f"a line of {self.length:,} bytes, longer than {MAX_LINE:,}: not read"


def read_lines(
    stream: BinaryIO, max_line: int = MAX_LINE, *, latin1: bool = False
) -> Iterator[str]:
    r"""The lines of a byte stream as text, read the same from a file and from stdin.

    A line ends at LF (CRLF too); a lone CR is inside its line, where the card
    parsers take it for a space. A UTF-8 byte-order mark at the start is dropped;
    bytes that are not UTF-8 become U+FFFD, so a batch names that line as not text;
    with ``latin1``, such a line is read as Windows-1252, or Latin-1 where it is not
    that (records written before UTF-8, a player's name with an umlaut in it, read as
    written).
    A line longer than ``max_line`` bytes comes as an :class:`OverlongLine`.

    >>> import io
    >>> data = b"\xef\xbb\xbf5H 5S\r5C\r\n\nx" + b"y" * 9 + b"\nKD"
    >>> [(line, getattr(line, "length", None)) for line in read_lines(io.BytesIO(data), 8)]
    [('5H 5S\r5C', None), ('', None), ('', 10), ('KD', None)]
    >>> list(read_lines(io.BytesIO(b"P0[M\xfcller]\nP0[M\xc3\xbcller]\n\x80\n\x81"), latin1=True))
    ['P0[Müller]', 'P0[Müller]', '€', '\x81']
    """
    for line in read_byte_lines(stream, max_line):
        if isinstance(line, OverlongLine):
            yield line
            continue
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            if not latin1:
                yield line.decode("utf-8", errors="replace")
                continue
            try:  # Windows' Western code page first (its €, its quotes), then Latin-1
                yield line.decode("cp1252")
            except UnicodeDecodeError:
                yield line.decode("latin-1")


def read_byte_lines(stream: BinaryIO, max_line: int = MAX_LINE) -> Iterator[bytes | OverlongLine]:
    r"""The lines of a byte stream, as :func:`read_lines` reads them but not decoded
    (for a reader that names a line's bytes that are not UTF-8 itself): a line
    longer than ``max_line`` bytes is an :class:`OverlongLine`, never held whole.

    >>> import io
    >>> list(read_byte_lines(io.BytesIO(b"\xef\xbb\xbf{}\r\n\xe9\n"), 8))
    [b'{}', b'é']
    """
    limit = max_line + 2  # the line and its CRLF
    first = True
    while True:
        line = stream.readline(limit + (len(_BOM) if first else 0))
        if not line:
            return
        if first:
            first = False
            line = line.removeprefix(_BOM)
        ended = line.endswith(b"\n")
        if ended:
            line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
        if len(line) > max_line:
            length = len(line)
            while not ended:  # read past the rest of it, a piece at a time
                more = stream.readline(limit)
                ended = not more or more.endswith(b"\n")
                length += len(more) - more.endswith(b"\n")
            yield OverlongLine(length)
            continue
        yield line


def not_utf8(head: bytes) -> str | None:
    r"""Why a file that begins with ``head`` is not UTF-8 text as a whole (UTF-16 or
    UTF-32, as a spreadsheet saves "Unicode text"), or None. Read line by line, each
    of its lines was an error of its own (NUL bytes) for the one fault of the file.
    A UTF-16 byte-order mark counts where what follows it is UTF-16 too (not a
    UTF-8 file whose first bytes are damaged: those are that line's error).

    >>> not_utf8("5H 5S\n".encode("utf-16"))
    'UTF-16 text (byte-order mark FF FE), not UTF-8: save it as UTF-8'
    >>> not_utf8("5H 5S\n".encode("utf-16-be"))
    'UTF-16 text (a NUL byte before every character), not UTF-8: save it as UTF-8'
    >>> not_utf8(b"5H 5S\n") is None and not_utf8(b"\xff\xfe 5S 5C JD | 5D\n") is None
    True
    >>> not_utf8(bytes(512))
    'not text: 512 of its first 512 bytes are NUL'
    >>> not_utf8(bytes(range(1, 256)) * 2)[:60]
    'not text: 310 of its first 510 bytes are control codes or no'
    >>> not_utf8("Grüße, 5H 5S 5C JD | 5D\n".encode("latin-1") * 20) is None
    True
    """
    for bom, shown in ((b"\xff\xfe\x00\x00", "FF FE 00 00"), (b"\x00\x00\xfe\xff", "00 00 FE FF")):
        if head.startswith(bom):
            return f"UTF-32 text (byte-order mark {shown}), not UTF-8: save it as UTF-8"
    for bom, shown, codec in (
        (b"\xff\xfe", "FF FE", "utf-16-le"),
        (b"\xfe\xff", "FE FF", "utf-16-be"),
    ):
        if head.startswith(bom):
            rest = head[len(bom) :]
            # UTF-16 of Latin or Cyrillic letters: half its bytes NULs or controls
            controls = sum(b < 0x20 and b not in b"\t\n\r" for b in rest)
            if (
                not rest
                or controls * 4 >= len(rest)
                or (not _decodes(rest, "utf-8") and _decodes(rest, codec))
            ):
                return f"UTF-16 text (byte-order mark {shown}), not UTF-8: save it as UTF-8"
            return None
    where = _nul_beside(head)
    if where is not None:
        return f"UTF-16 text (a NUL byte {where} every character), not UTF-8: save it as UTF-8"
    # a device (/dev/zero) or a binary file: read line by line, a line of NULs that
    # never ends was read past for ever
    nuls = head.count(0)
    if nuls * 2 > len(head):
        return f"not text: {nuls} of its first {len(head)} bytes are NUL"
    # random bytes (/dev/urandom, a picture, a program): read line by line, an endless
    # device was an error line for each of its "lines" for ever
    if len(head) >= _BINARY_MIN:
        text = codecs.getincrementaldecoder("utf-8")("replace").decode(head, final=False)
        bad = text.count("\ufffd") + sum(
            (c < 0x20 and c not in b"\t\n\r\x0c\x1b") or c == 0x7F for c in head
        )
        if bad * 4 > len(head):
            return (
                f"not text: {bad} of its first {len(head)} bytes are control codes or "
                "not UTF-8 (a binary file or a device?)"
            )
    return None


#: The least of a file's start that :func:`not_utf8` judges as binary or not (a short
#: file of a few bad bytes is those lines' errors, as before).
_BINARY_MIN = 64


def _nul_beside(data: bytes) -> str | None:
    """Where text of Latin letters in UTF-16 has its NUL bytes, one beside each
    character (``after``: little-endian; ``before``: big-endian), or None."""
    pairs = data[: len(data) // 2 * 2]
    if b"\x00" not in pairs:
        return None
    for nuls, chars, where in (
        (pairs[1::2], pairs[0::2], "after"),
        (pairs[0::2], pairs[1::2], "before"),
    ):
        if nuls.count(0) * 4 >= len(nuls) * 3 and chars.count(0) * 4 <= len(chars):
            return where
    return None


def _decodes(data: bytes, codec: str) -> bool:
    """Is ``data`` (a file's start, perhaps cut inside a character) text in ``codec``?"""
    try:
        codecs.getincrementaldecoder(codec)().decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


#: How much of a file's start :func:`open_input` looks at for :func:`not_utf8`.
_HEAD = 512


def looked_at(binary: BinaryIO, name: str) -> BinaryIO:
    """``binary``, its start looked at first: a file of UTF-16 (or UTF-32) text is one
    :class:`~controller.errors.UsageError` naming it, not an error for each line."""
    if not hasattr(binary, "peek"):
        binary = io.BufferedReader(binary)  # type: ignore[arg-type]
    head = binary.peek(_HEAD)[:_HEAD]  # type: ignore[attr-defined]
    why = not_utf8(head)
    if why is not None:
        raise UsageError(f"{name}: {why}")
    return binary


@contextmanager
def open_input(path: str, *, latin1: bool = False) -> Iterator[Iterator[str]]:
    """The lines of ``path`` (:func:`read_lines`, with its ``latin1``); ``-`` is
    standard input (left open).

    A file that cannot be opened, or one of UTF-16 text (:func:`not_utf8`), raises
    :class:`~controller.errors.UsageError` naming it.
    """
    if path == STDIN:
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:  # a text stream standing in for stdin (tests): its bytes
            binary = io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
        yield read_lines(looked_at(binary, "standard input"), latin1=latin1)
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from exc
    with handle:
        yield read_lines(looked_at(handle, path), latin1=latin1)


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


def subscribed_note(bus: Any, wanted: int, timeout: float = 10.0) -> str:
    """Wait (up to ``timeout``) until the broker has a service's ``wanted``
    subscriptions; what its "serving" line adds: nothing, or that the broker is away.
    From the first subscription on, a session the broker keeps queues what the
    service misses while it restarts; before it, nothing is kept for it."""
    deadline = time.monotonic() + timeout
    while bus.health().subscriptions < wanted and time.monotonic() < deadline:
        time.sleep(0.02)
    if bus.health().subscriptions >= wanted:
        return ""
    return " (not yet subscribed: the broker is away)"


def serve(bus: Any, service: Any, serving: Callable[[str], str]) -> None:
    """Run a bus service (the referee, the recorder) until SIGTERM or Ctrl-C: its
    routes first (a resumed session delivers what was queued at once on connect),
    then the bus and the service's ticks; the line ``serving(note)`` once the broker
    has its subscriptions (:func:`subscribed_note`). Closing is the caller's: the
    order differs (the referee says offline while the bus is still up; the recorder
    stops taking messages before it closes its store)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        service.start()
        bus.start()
        service.run_ticks(stop)
        print(serving(subscribed_note(bus, 2)), file=sys.stderr, flush=True)
        wait_for_stop(stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()  # the ticks end before the caller closes the service (Ctrl-C too)
