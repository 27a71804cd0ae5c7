"""``kiebitz web`` (the live web view) and ``kiebitz web-passwd`` (its operators).

>>> parser = __import__("controller.cli", fromlist=["build_parser"]).build_parser()
>>> args = parser.parse_args(["web", "--broker", "mqtt://h:1883", "--port", "0"])
>>> args.port, args.host, args.read_only
(0, None, False)
"""

from __future__ import annotations

import argparse
import getpass
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

from controller.cli_io import service_logging
from controller.errors import UsageError
from controller.stopping import wait_for_stop

if TYPE_CHECKING:
    from controller.cli_io import Commands

__all__ = ["register"]


def register(commands: Commands) -> None:
    web = commands.add_parser(
        "web",
        help="the live web view: every table for spectators, corrections for operators",
        description=(
            "Serve the club page, each table live (peg board, cards, scores, alerts) and the "
            "match records. Spectators need no login; operators (--users FILE, made with "
            "kiebitz web-passwd) can correct a table: their commands go out on the bus."
        ),
    )
    web.add_argument("--config", metavar="FILE", help="the TOML config (its [web] section)")
    web.add_argument("--broker", metavar="URL", help="the MQTT broker (mqtt://host:port)")
    web.add_argument("--host", default=None, help="listen on this address (default 127.0.0.1)")
    web.add_argument("--port", type=int, default=None, help="listen on this port (default 8080)")
    web.add_argument("--users", metavar="FILE", help="the operators (name:argon2 hash a line)")
    web.add_argument("--records", metavar="URL", help="the records database, for the match pages")
    web.add_argument(
        "--secret-file", metavar="FILE", help="the key session cookies are signed with"
    )
    web.add_argument("--read-only", action="store_true", help="no corrections, whoever logs in")
    web.add_argument(
        "--https-only",
        action="store_true",
        help="session cookies only over HTTPS (behind a TLS proxy)",
    )
    web.set_defaults(handler=_web)
    pw = commands.add_parser(
        "web-passwd",
        help="add an operator of the web view, or change a password",
        description=(
            "Write NAME with an Argon2 hash of the password into the operators' file (the "
            "password read from the terminal, or the first line of standard input)."
        ),
    )
    pw.add_argument("--users", metavar="FILE", required=True, help="the operators' file")
    pw.add_argument("name", metavar="NAME")
    pw.set_defaults(handler=_passwd)


def _passwd(args: argparse.Namespace) -> int:
    from controller.web.auth import Users, UsersError

    try:
        users = Users.load(args.users)
        if sys.stdin.isatty():
            password = _utf8(getpass.getpass(f"password for {args.name}: "), "the password")
            if getpass.getpass("again: ") != password:
                raise UsageError("the passwords differ")
        else:
            password = _stdin_password()
        users.set(args.name, password)
        users.save()
    except (UsersError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    print(f"{args.users}: operator {args.name} set")
    return 0


def _stdin_password() -> str:
    """The first line of standard input, which must be UTF-8 text: bytes that are not
    (``printf '\\xff\\xfe…'``) were taken for a password too short, or one that
    could not be hashed (a traceback)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream standing in for stdin (tests)
        return _utf8(sys.stdin.readline().rstrip("\r\n"), "the password on standard input")
    raw = binary.readline().rstrip(b"\r\n")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"the password on standard input is not UTF-8 text (byte {exc.start})"
        ) from None


def _utf8(text: str, what: str) -> str:
    """``text`` where it is UTF-8 text; bytes that were not are :class:`UsageError`
    (a terminal or a stream that decodes them to surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UsageError(f"{what} is not UTF-8 text (character {exc.start + 1})") from None
    return text


def _web(args: argparse.Namespace) -> int:
    from controller.config import WebConfig

    bus_options: dict[str, Any] = {}
    # a host or port the view cannot listen on is named where it was given: a flag,
    # the config, or neither (the default, and the flag that changes it)
    said = {
        "host": "--host" if args.host is not None else "the default host (see --host)",
        "port": "--port" if args.port is not None else "the default port (see --port)",
    }
    if args.config is not None:
        from controller.cli_config import read_config

        cfg = read_config(args.config)
        if args.broker is None or args.broker == cfg.broker.url:
            args.broker = cfg.broker.url
            bus_options = (
                cfg.web.bus_options(cfg.broker) if cfg.web is not None else cfg.broker.bus_options()
            )
        if cfg.web is not None:
            w = cfg.web
            # the config's [web] always has both (its defaults are the view's own): one
            # the same as the default is named as the default
            if args.host is None and w.host != WebConfig.host:
                said["host"] = f"web.host in {args.config}"
            if args.port is None and w.port != WebConfig.port:
                said["port"] = f"web.port in {args.config}"
            args.host = args.host or w.host
            args.port = args.port if args.port is not None else w.port
            args.users = args.users or w.users
            args.records = args.records or w.records
            args.secret_file = args.secret_file or w.secret_file
            args.https_only = args.https_only or w.https_only
    if args.broker is None:
        raise UsageError("give --broker URL (or --config FILE)")
    host = args.host or WebConfig.host
    port = WebConfig.port if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: expected 0..65535")
    service_logging()
    from controller.bus.bus import open_bus

    users, records, secret = _parts(args)
    try:
        bus = open_bus(args.broker, "kiebitz-web", **bus_options)
    except ValueError as exc:
        raise UsageError(f"--broker: {exc}") from exc
    from controller.web.server import WebServer

    server = WebServer(
        bus, host=host, port=port, users=users, records=records, secret=secret,
        read_only=args.read_only, https_only=args.https_only,
    )  # fmt: skip
    if users.hashes and not args.https_only and host not in ("127.0.0.1", "::1", "localhost"):
        print(
            f"web: warning: operators log in over plain HTTP on {host}: their passwords and "
            "sessions cross the network in clear; serve it behind TLS with --https-only",
            file=sys.stderr,
        )
    bus.start()
    try:
        server.start()
    except OSError as exc:
        bus.close()
        which = getattr(exc, "which", "port")
        raise UsageError(f"{said[which]}: {exc}") from exc
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if users.hashes:
        who = f"{len(users.hashes)} operator(s) (the file read again when it changes)"
    elif args.users:
        who = (
            f"no operators in {args.users} yet: nobody can log in until "
            f"`kiebitz web-passwd --users {args.users} NAME` adds one (read when it changes)"
        )
    else:
        who = "no operators (read only: give --users FILE for operators)"
    print(f"web: serving {server.url} from {args.broker}; {who}", file=sys.stderr, flush=True)
    try:
        wait_for_stop(stop)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        bus.close()
        if records is not None:
            records.close()
    return 0


def _parts(args: argparse.Namespace) -> tuple[Any, Any, str | None]:
    from controller.web.auth import Users, UsersError

    try:
        users = Users.load(args.users) if args.users else Users({})
    except UsersError as exc:
        raise UsageError(str(exc)) from exc
    records = None
    if args.records:
        from controller.recorder.store import RecordsError, RecordStore

        try:
            records = RecordStore(args.records)
        except RecordsError as exc:
            raise UsageError(f"--records: {exc}") from exc
    secret = None
    if args.secret_file:
        from controller.config import MAX_KEY_BYTES
        from vision.files import read_capped

        try:  # bounded: /dev/zero was read until memory ran out, a named pipe waited
            data = read_capped(args.secret_file, MAX_KEY_BYTES + 1)
            if len(data) > MAX_KEY_BYTES:
                raise UsageError(
                    f"--secret-file {args.secret_file}: more than {MAX_KEY_BYTES:,} bytes: "
                    "not a key, not read"
                )
            secret = data.decode("utf-8").strip()
        except UnicodeDecodeError as exc:  # random bytes (head -c 32 /dev/urandom)
            raise UsageError(
                f"--secret-file {args.secret_file}: not UTF-8 text (byte {exc.start}); "
                "write the key as text, e.g. openssl rand -hex 32"
            ) from None
        except OSError as exc:
            raise UsageError(f"--secret-file {args.secret_file}: {exc.strerror or exc}") from exc
        if len(secret) < 32:
            raise UsageError(f"--secret-file {args.secret_file}: at least 32 characters")
    return users, records, secret
