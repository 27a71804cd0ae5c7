"""``kiebitz config check FILE`` and ``kiebitz status``: is the Pi set up, is it running?

``config check`` validates the one TOML config (:mod:`controller.config`): every
problem on its own line, naming the file and the key path, status 2; else one
line saying what the file sets up (or that it sets nothing: every setting its
default), status 0. The systemd units run it before the
services start.

``status`` says how each part stands, one line each: the broker link (connected,
or refused and why), each component's retained status on the broker (the table
service, the referee: online or offline, and since when), the peg board's port
and the camera (present on this machine, without opening them: a running table
service holds them). Status 0 when everything configured is up, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.cli_io import name_commands, positive_number, table_id
from controller.errors import UsageError

if TYPE_CHECKING:
    from controller.cli_io import Commands
    from controller.config import KiebitzConfig

__all__ = ["register"]


def register(commands: Commands) -> None:
    config = commands.add_parser(
        "config",
        help="check the one TOML config of a table's Pi",
        description="The configuration of a table's Pi (docs/install.md).",
    )
    sub = config.add_commands("config_command")
    check = sub.add_parser(
        "check",
        help="validate a config file: unknown keys, types, files, layouts, game options",
        description=(
            "Validate FILE: every problem on its own line, naming the file and the key "
            "path (status 2); else one line saying what it sets up (status 0; a file "
            "that sets nothing is said to leave every setting at its default)."
        ),
    )
    check.add_argument("file", metavar="FILE")
    check.set_defaults(handler=_check)
    name_commands(sub)

    status = commands.add_parser(
        "status",
        help="how each part stands: broker link, table service, referee, board, camera",
        description=(
            "One line for each part: the broker link, each component's retained status, "
            "the peg board's port and the camera. Status 0 when everything configured "
            "is up, 1 otherwise."
        ),
    )
    status.add_argument("--config", metavar="FILE", help="the Pi's config (docs/install.md)")
    status.add_argument("--broker", metavar="URL", help="the broker (default: the config's)")
    status.add_argument("--table-id", help="the table (default: the config's)")
    status.add_argument(
        "--timeout", type=positive_number, default=3.0, help="seconds to wait (default 3)"
    )
    status.set_defaults(handler=_status)


def read_config(path: str) -> KiebitzConfig:
    """The config at ``path``; a bad one is a :class:`UsageError` listing its problems."""
    from controller.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        for line in exc.problems[:-1]:
            print(f"kiebitz: error: {line}", file=sys.stderr)
        raise UsageError(exc.problems[-1]) from None


def _check(args: argparse.Namespace) -> int:
    cfg = read_config(args.file)
    parts = [
        f"broker {cfg.broker.url}" + (f" as {cfg.broker.username}" if cfg.broker.username else "")
    ]
    if cfg.table is not None:
        t = cfg.table
        what = t.source or t.observations or "no source"
        parts.append(
            f"table {t.id} ({what}" + (f", board {t.board_port}" if t.board_port else "") + ")"
        )
    if cfg.referee is not None:
        tables = ", ".join(cfg.referee.tables) or "every table"
        parts.append(f"referee for {tables} (log {cfg.referee.db})")
    if cfg.recorder is not None:
        tables = ", ".join(cfg.recorder.tables) or "every table"
        parts.append(f"recorder for {tables} (records {_hide_password(cfg.recorder.db)})")
    parts.append(f"game {cfg.game.game}")
    if cfg.sets_nothing:
        # an empty file (or one of comments only) is a valid config, the defaults; it
        # printed the defaults as if the file had set them up
        print(
            f"{args.file}: ok: {args.file} sets nothing; every setting is its default ("
            + "; ".join(parts)
            + ")"
        )
        return 0
    print(f"{args.file}: ok: " + "; ".join(parts))
    return 0


def _hide_password(url: str) -> str:
    if "://" not in url:
        return url
    from controller.recorder.store import database_url, shown_url

    return shown_url(database_url(url))


# -- status -------------------------------------------------------------------------


def _status(args: argparse.Namespace) -> int:
    from controller.table.service import WILL_DETAIL

    cfg = read_config(args.config) if args.config else None
    url = args.broker or (cfg.broker.url if cfg else None)
    if url is None:
        raise UsageError("give --config FILE or --broker URL")
    table = args.table_id or (cfg.table.id if cfg and cfg.table else None)
    if args.table_id is not None:
        table_id(args.table_id)
    tables = [table] if table else list(cfg.referee.tables) if cfg and cfg.referee else []
    options = cfg.broker.bus_options() if cfg and url == cfg.broker.url else {}
    good = True
    lines: list[str] = []
    statuses, link = _read_statuses(url, tables, options, args.timeout)
    lines.append(f"broker   {url}: {link}")
    good &= link.startswith("connected")
    if link.startswith("connected"):
        if not tables:
            lines.append("tables   none named (give --table-id, or table.id / referee.tables)")
        for t in tables:
            for component in ("table", "referee"):
                body, age = statuses.get((t, component), (None, None))
                if body is None:
                    lines.append(
                        f"{component:<8} {t}: no status on the broker (never started here)"
                    )
                    good = False
                    continue
                if isinstance(body, str):  # retained, but no status this Kiebitz reads
                    lines.append(f"{component:<8} {t}: a status that cannot be read ({body})")
                    good = False
                    continue
                state = str(body.get("state", "?"))
                since = "" if age is None else f" for {_age(age)}"
                if isinstance(body.get("since"), (int, float)):  # online since its start
                    since = f" for {_age(time.time() - float(body['since']))}"
                if state == "offline" and body.get("detail") == WILL_DETAIL:
                    since = ""  # a last will: the broker said it when, nobody stamped
                detail = f" ({_printable(body['detail'])})" if body.get("detail") else ""
                lines.append(f"{component:<8} {t}: {state}{since}{detail}")
                good &= state == "online"
    if cfg is not None and cfg.table is not None:
        if cfg.table.board_port:
            ok, what = _device(cfg.table.board_port)
            lines.append(f"board    {cfg.table.board_port}: {what}")
            good &= ok
        if cfg.table.source:
            ok, what = _camera(cfg.table.source)
            lines.append(f"camera   {cfg.table.source}: {what}")
            good &= ok
    print("\n".join(lines))
    return 0 if good else 1


def _age(seconds: float) -> str:
    if seconds < -5:  # a moment's drift is none; more is a clock set wrong here or there
        return "an unknown time (its clock is ahead of this machine's)"
    seconds = max(0.0, seconds)
    if seconds >= 3600 * 24 * 365:  # a Pi without a clock, once, stamped 1970
        return "over a year"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _printable(text: str) -> str:
    """A status's words as one line of plain text: a newline or a terminal's escape
    in a retained detail (any client may publish one) shown as its escape, not done."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _read_statuses(
    url: str, tables: list[str], options: dict[str, Any], timeout: float
) -> tuple[dict[tuple[str, str], tuple[dict[str, Any] | str | None, float | None]], str]:
    """The retained status of each table's components, and how the link went."""
    from controller.bus.bus import open_bus
    from controller.bus.envelope import decode
    from controller.bus.topics import PREFIX, STATUS, parse_topic

    found: dict[tuple[str, str], tuple[dict[str, Any] | str | None, float | None]] = {}
    lock = threading.Lock()

    def on_status(topic: str, payload: bytes) -> None:
        try:
            table, suffix = parse_topic(topic)
        except ValueError:
            return
        key = (table, suffix.rpartition("/")[2])
        try:
            env = decode(payload, kind="status")
        except ValueError as exc:
            # garbage retained there, or a newer Kiebitz's status: said so, not
            # "never started here"
            with lock:
                found[key] = (_printable(str(exc)[:120]), None)
            return
        with lock:
            found[key] = (dict(env.body), time.time() - env.ts)

    try:
        bus = open_bus(url, f"kiebitz-status-{int(time.time() * 1000) % 10**8}", **options)
    except (ValueError, OSError) as exc:
        raise UsageError(f"--broker: {exc}") from exc
    try:
        for t in tables:
            bus.subscribe(f"{PREFIX}/{t}/{STATUS}/+", on_status)
        bus.start()
        end = time.monotonic() + timeout
        # a refused or failed attempt is the answer: waiting out --timeout for the
        # retries of a broker that is down said nothing more, only later
        while time.monotonic() < end and not bus.connected and bus.health().last_error is None:
            time.sleep(0.02)
        health = bus.health()
        if not bus.connected:
            if health.last_error is not None:
                return found, f"not connected: {health.last_error}"
            return found, f"not connected within {timeout:g} s: {health.status}"
        # retained messages come at once after the subscription: wait until the
        # expected ones are in, or a moment more
        wanted = {(t, c) for t in tables for c in ("table", "referee")}
        settle = time.monotonic() + min(timeout, 1.0)
        while time.monotonic() < settle:
            with lock:
                if wanted <= set(found):
                    break
            time.sleep(0.02)
        return found, "connected" + (
            f" as {options['username']}" if options.get("username") else ""
        )
    finally:
        bus.close()


def _device(port: str) -> tuple[bool, str]:
    if "://" in port:
        return True, "a network port (not checked from here)"
    path = Path(port)
    if not path.exists():
        return False, "missing (is the board plugged in? ls /dev/ttyACM* /dev/serial/by-id)"
    return True, f"present ({path.resolve()})"


def _camera(source: str) -> tuple[bool, str]:
    if source == "picamera":
        cams = sorted(Path("/dev").glob("video*")) + sorted(Path("/dev").glob("media*"))
        if not cams:
            return False, "no camera device (/dev/video*, /dev/media*): is the ribbon seated?"
        return True, f"camera devices present ({', '.join(p.name for p in cams[:4])})"
    if source.isdigit():
        device = Path(f"/dev/video{source}")
        return (True, f"present ({device})") if device.exists() else (False, f"{device} missing")
    if "://" in source:
        return True, "a network stream (not checked from here)"
    path = Path(source)
    return (True, "present") if path.exists() else (False, "missing")
