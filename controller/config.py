"""One TOML file configures a table's Pi: the broker, the table service, the referee, the game.

``kiebitz config check FILE`` validates it, and ``kiebitz table --config FILE`` /
``kiebitz referee --config FILE`` read it at start-up (their systemd units check
it first: ``config/systemd/``). Unknown keys are refused, every value is checked
for its type and meaning (a table id, a layout that exists, a readable password
file, game options the rules accept), and each error names the file and the key
path::

    /etc/kiebitz/kiebitz.toml: table.board.prot: unknown key (table.board has: port, layout)

The shipped example is ``config/kiebitz.example.toml``; every key is in
``docs/install.md``.

>>> cfg = parse_config({"broker": {"url": "mqtt://127.0.0.1:1883"}, "table": {"id": "t1"}}, "k")
>>> cfg.broker.url, cfg.table.id, cfg.table.fps
('mqtt://127.0.0.1:1883', 't1', 10.0)
>>> parse_config({"table": {"id": "T 1"}, "broker": {"urll": "x"}}, "x.toml")
Traceback (most recent call last):
...
controller.config.ConfigError: x.toml: table.id: table id 'T 1' must match [a-z0-9][a-z0-9_-]{0,31}
x.toml: broker.urll: unknown key (broker has: url, username, password_file, ca_file)
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "BrokerConfig",
    "ConfigError",
    "GameConfig",
    "KiebitzConfig",
    "RecorderConfig",
    "RefereeConfig",
    "TableConfig",
    "WebConfig",
    "broker_url",
    "load_config",
    "parse_config",
]


#: The problems of a config said one a line; past these, how many more.
MAX_PROBLEMS = 50


class ConfigError(ValueError):
    """A configuration that cannot be used: every problem, one a line, each naming
    the file and the key path."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class BrokerConfig:
    url: str = "mqtt://127.0.0.1:1883"
    username: str | None = None
    password_file: str | None = None
    ca_file: str | None = None

    def password(self) -> str | None:
        """The password, read from ``password_file`` (its first line)."""
        if self.password_file is None:
            return None
        try:
            text = _small_text(self.password_file)
        except ValueError as exc:
            raise ConfigError([f"{self.password_file}: cannot read the password: {exc}"]) from None
        return text.splitlines()[0] if text else ""

    def bus_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`controller.bus.bus.open_bus`."""
        out: dict[str, Any] = {}
        if self.username is not None:
            out.update(username=self.username, password=self.password())
        if self.ca_file is not None:
            out["ca_file"] = self.ca_file
        return out


@dataclass(frozen=True)
class TableConfig:
    id: str
    source: str | None = None
    observations: str | None = None
    layout: str | None = None
    fps: float = 10.0
    model: str | None = None
    outbox: str | None = None
    board_port: str | None = None
    board_layout: str = "two-player-121"
    gpio: str | None = None


def _with_account(
    broker: BrokerConfig, username: str | None, password_file: str | None
) -> dict[str, Any]:
    """The broker's options with a service's own account (if it has one)."""
    out = broker.bus_options()
    if username is not None:
        account = BrokerConfig(broker.url, username, password_file)
        out.update(username=username, password=account.password())
    return out


@dataclass(frozen=True)
class RefereeConfig:
    db: str = "kiebitz-referee.db"
    tables: tuple[str, ...] = ()
    #: The referee's own broker account (``kiebitz.referee``: docs/security.md); the
    #: ``[broker]`` account is the table's, which may not write game topics.
    username: str | None = None
    password_file: str | None = None

    def bus_options(self, broker: BrokerConfig) -> dict[str, Any]:
        """The broker's options with the referee's account in place of the table's."""
        return _with_account(broker, self.username, self.password_file)


@dataclass(frozen=True)
class RecorderConfig:
    #: a file (SQLite) or ``postgresql://user@host:port/name`` (docs/records.md)
    db: str = "kiebitz-records.db"
    tables: tuple[str, ...] = ()
    #: The recorder's broker account (read only: ``kiebitz.watch``, docs/security.md).
    username: str | None = None
    password_file: str | None = None

    def bus_options(self, broker: BrokerConfig) -> dict[str, Any]:
        """The broker's options with the recorder's account in place of the table's."""
        return _with_account(broker, self.username, self.password_file)


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    #: the operators' file (``kiebitz web-passwd``); none: read only
    users: str | None = None
    #: the records database, for the match pages
    records: str | None = None
    #: the key session cookies are signed with (32 characters or more)
    secret_file: str | None = None
    #: session cookies only over HTTPS (the web view behind a TLS proxy)
    https_only: bool = False
    #: The web view's broker account (``kiebitz.web``: reads all, writes commands).
    username: str | None = None
    password_file: str | None = None

    def bus_options(self, broker: BrokerConfig) -> dict[str, Any]:
        """The broker's options with the web view's account in place of the table's."""
        return _with_account(broker, self.username, self.password_file)


@dataclass(frozen=True)
class GameConfig:
    game: str = "cribbage"
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int | None = None


@dataclass(frozen=True)
class KiebitzConfig:
    path: str
    broker: BrokerConfig
    table: TableConfig | None
    referee: RefereeConfig | None
    game: GameConfig
    recorder: RecorderConfig | None = None
    web: WebConfig | None = None
    #: The file set nothing at all (empty, or comments only): every setting is its default.
    sets_nothing: bool = False


# -- checking values ----------------------------------------------------------------

Check = Callable[[Any], Any]  # returns the value to keep, or raises ValueError saying why


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected text, got {_shown(value)}")
    if len(value) > 4096:
        raise ValueError(f"text of {len(value)} characters is too long")
    return value


def _positive(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"expected a number above 0, got {_shown(value)}")
    if value <= 0:
        raise ValueError(f"expected a number above 0, got {_shown(value)}")
    return float(value)


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {_shown(value)}")
    return value


def _table_id(value: Any) -> str:
    from controller.bus.topics import check_table_id

    return check_table_id(_text(value))


def _table_ids(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of table ids, got {_shown(value)}")
    ids = tuple(_table_id(v) for v in value)
    twice = sorted({t for t in ids if ids.count(t) > 1})
    if twice:
        raise ValueError(f"table {twice[0]!r} is named twice")
    return ids


def broker_url(value: Any) -> str:
    """A broker URL the bus opens (``mqtt://host:port``, ``mqtts://…``, ``memory://name``),
    checked; a ``ValueError`` says what is wrong (``config check``, ``run --broker``)."""
    url = _text(value)
    if url.partition("://")[0] not in ("mqtt", "mqtts", "memory"):
        raise ValueError(f"{url!r} must be mqtt://host:port, mqtts://host:port or memory://name")
    if url.startswith("mqtt"):
        from controller.bus.bus import _parse_url

        _parse_url(url)
    return url


def _readable_file(value: Any) -> str:
    path = Path(_text(value))
    try:  # opened without waiting: a named pipe with no writer blocked for ever
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as exc:
        raise ValueError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    return str(path)


def _source(value: Any) -> str:
    """What the table reads frames from, as ``--source`` takes it (``picamera``, a
    camera's number or device, a network camera's URL, a video file, a folder of
    pictures): a file or folder that is not there was found only when the service
    started. A camera device (``/dev/video0``) may be unplugged while the config is
    checked: ``kiebitz status`` says whether it is there."""
    from vision.errors import SourceError
    from vision.sources import ImageFolderSource, VideoFileSource, camera_size, open_source

    text = _text(value)
    if "\x00" in text:
        raise ValueError(f"{_shown(text)} has a NUL byte in it")
    device, at, size = text.rpartition("@") if "@" in text else (text, "", "")
    if text.startswith("/dev/") and not Path(device).exists():
        if at:  # a camera asked for a size: the size is checked all the same
            try:
                camera_size(text, size)
            except SourceError as exc:
                raise ValueError(str(exc)) from None
        return text  # a camera unplugged while the config is checked
    try:
        source = open_source(text)  # made, not opened: no camera is touched
        if isinstance(source, (VideoFileSource, ImageFolderSource)):
            # a video or a folder is opened (and closed): a folder of no pictures or
            # a file no video passed the check and stopped the service at its start
            try:
                source.open()
            finally:
                source.close()
    except SourceError as exc:
        raise ValueError(str(exc)) from None
    return text


# Frames a second a table may ask for: a frame every ten seconds to a fast camera's
# 120 (1e-300 waited for ever between frames and passed the check)
FPS_RANGE = (0.1, 120.0)


def _fps(value: Any) -> float:
    fps = _positive(value)
    low, high = FPS_RANGE
    if not low <= fps <= high:
        raise ValueError(f"expected frames a second from {low:g} to {high:g}, got {_shown(value)}")
    return fps


def _model_file(value: Any) -> str:
    """A card model the vision loop can load: an ONNX network that reads index patches
    (and its gate and second network beside it, where they are), loaded once here as
    the table service will load it, so a wrong file is named before the service
    starts rather than after."""
    from vision.model import IndexClassifier, ModelError

    path = _readable_file(value)
    try:
        IndexClassifier(path)
    except ModelError as exc:
        raise ValueError(str(exc)) from None
    return path


#: The most a password or key file may hold (one is a line of some dozen characters:
#: /dev/zero was read until memory ran out, a named pipe waited for ever)
MAX_KEY_BYTES = 1 << 16


def _small_text(path: str) -> str:
    """The text of a password's or key's file; a ``ValueError`` says why not (its
    reason alone, for the caller to name the file)."""
    from vision.files import read_capped

    try:
        data = read_capped(path, MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None
    if len(data) > MAX_KEY_BYTES:
        raise ValueError(f"more than {MAX_KEY_BYTES:,} bytes: not a password or key, not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"not UTF-8 text (byte {exc.start}); write it as text (a key: openssl rand -hex 32)"
        ) from None


def _utf8_text(path: str) -> str:
    """A small file's text (a password, a secret): a ``ValueError`` where it is not
    UTF-8, is larger than :data:`MAX_KEY_BYTES` or cannot be read (a folder opens,
    and reads as nothing)."""
    try:
        return _small_text(path)
    except ValueError as exc:
        why = str(exc)
        if why.startswith(("not UTF-8", "more than")):
            raise ValueError(f"{path!r} is {why}") from None
        raise ValueError(f"cannot read {path!r}: {why}") from None


def _password_file(value: Any) -> str:
    """A broker password's file: readable, UTF-8 text, a password on its first line
    (the services read it when they connect; ``config check`` reads it now)."""
    path = _readable_file(value)
    text = _utf8_text(path)
    if not text.splitlines() or not text.splitlines()[0]:
        raise ValueError(f"{path!r} has no password on its first line")
    return path


def _secret_file(value: Any) -> str:
    """The web view's session secret's file: readable UTF-8 text of at least 32
    characters (``kiebitz web`` refuses a shorter one)."""
    path = _readable_file(value)
    text = _utf8_text(path).strip()
    if len(text) < 32:
        raise ValueError(f"{path!r} holds {len(text)} characters, at least 32 are needed")
    return path


#: The most a CA file may hold (Debian's whole bundle of CAs is some 200 KiB)
MAX_CA_BYTES = 4 << 20


def _ca_file(value: Any) -> str:
    """The CA certificates (PEM) a TLS broker is checked against, read as the bus will
    read them: any readable file passed (/dev/zero, a key, an empty file), and a
    named pipe nobody writes to then held ``kiebitz status`` for ever."""
    import ssl

    from vision.files import read_capped

    path = _readable_file(value)
    try:
        data = read_capped(path, MAX_CA_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_CA_BYTES:
        raise ValueError(f"{path!r} is more than {MAX_CA_BYTES:,} bytes: no CA file, not read")
    text = data.decode("ascii", errors="replace")
    if "-----BEGIN CERTIFICATE-----" not in text:
        raise ValueError(f"{path!r} holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    try:
        ssl.create_default_context().load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError) as exc:
        raise ValueError(f"{path!r}: not a CA certificate OpenSSL reads: {exc}") from None
    return path


def _users_file(value: Any) -> str:
    """The web view's operators' file: not there yet is right (``kiebitz web-passwd``
    makes it); where it is, it must read as ``kiebitz web`` reads it (a folder, a
    device or a file of another kind passed the check and failed the service)."""
    from controller.web.auth import Users, UsersError

    path = _text(value)
    try:
        Users.load(path)
    except UsersError as exc:
        raise ValueError(str(exc)) from None
    return path


def _new_file(value: Any) -> str:
    """A file the service writes (a log, an outbox): its folder must exist."""
    path = Path(_text(value))
    if "\x00" in str(path):  # no file system names a file so (open() raised ValueError)
        raise ValueError(f"{_shown(str(path))} has a NUL byte in it")
    if not path.parent.is_dir():
        raise ValueError(f"no folder {str(path.parent)!r} for {path.name!r}")
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a folder, not a file")
    return str(path)


_SQLITE_HEADER = b"SQLite format 3\x00"


def _sqlite_file(value: Any) -> str:
    """A database file SQLite can make, or one that is already a database: a text
    file in its place was found only when the service started."""
    from vision.files import read_capped

    path = _new_file(value)
    try:
        head = read_capped(path, len(_SQLITE_HEADER))
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    if head and head != _SQLITE_HEADER:
        raise ValueError(f"{path!r} is not an SQLite database")
    return path


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {_shown(value)}")
    return value


_DOTTED = re.compile(r"[0-9.]+")
# a host name: letters, digits, hyphens, underscores (a container's), a final dot
_HOST_NAME = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?\.?")


def _host(value: Any) -> str:
    """An address to listen on: a name, or an IP address that is one (999.1.1.1 passed
    the check and the view could not listen). A name is not looked up: the Pi may
    check its config before its network is up."""
    import ipaddress
    import socket

    text = _text(value).strip()
    if _DOTTED.fullmatch(text):
        try:  # as the system reads an IPv4 address (127.1 too)
            socket.inet_aton(text)
        except OSError:
            raise ValueError(f"{text!r} is no IP address") from None
    elif ":" in text:
        try:
            ipaddress.ip_address(text)
        except ValueError:
            raise ValueError(f"{text!r} is no IP address") from None
    elif not _HOST_NAME.fullmatch(text):
        raise ValueError(f"{text!r} is no host name or IP address")
    return text


def _port(value: Any) -> int:
    port = _whole(value)
    if not 1 <= port <= 65535:
        raise ValueError(f"expected a port 1..65535, got {port}")
    return port


def _records_db(value: Any) -> str:
    """A PostgreSQL URL, or a file SQLite can make (its folder must exist)."""
    text = _text(value)
    if "://" in text:
        from controller.recorder.store import RecordsError, database_url

        try:
            database_url(text)
        except RecordsError as exc:
            raise ValueError(str(exc)) from None
        return text
    return _sqlite_file(text)


def _table_layout(value: Any) -> str:
    """A shipped table layout's name (``cribbage-2``) or a TOML file; checked whole."""
    from vision.errors import LayoutError
    from vision.layout import LAYOUT_DIR, load_layout

    text = _text(value)
    path = (
        LAYOUT_DIR / f"{text}.toml"
        if "/" not in text and not text.endswith(".toml")
        else Path(text)
    )
    if not path.exists():
        names = ", ".join(sorted(p.stem for p in LAYOUT_DIR.glob("*.toml")))
        raise ValueError(f"no table layout {text!r} (shipped: {names}; or a .toml file)")
    try:
        load_layout(path)
    except LayoutError as exc:
        raise ValueError(str(exc)) from None
    return str(path)


def _board_layout(value: Any) -> str:
    from controller.board.errors import LayoutFileError
    from controller.board.layouts import load_layout

    text = _text(value)
    try:
        load_layout(text)
    except (LayoutFileError, ValueError) as exc:
        raise ValueError(str(exc)) from None
    return text


def _gpio(value: Any) -> str:
    from controller.gpio.factory import FACTORIES

    text = _text(value)
    if text not in FACTORIES:
        raise ValueError(f"{text!r}: expected one of {', '.join(FACTORIES)}")
    return text


def _game(value: Any) -> str:
    from rules.reading.games import READERS

    text = _text(value)
    if text not in READERS:
        raise ValueError(f"{text!r}: expected one of {', '.join(sorted(READERS))}")
    return text


def _any(value: Any) -> Any:
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


# -- the schema -----------------------------------------------------------------------

#: Each section's keys and their checks; a dict is a sub-table.
SCHEMA: dict[str, dict[str, Any]] = {
    "broker": {
        "url": broker_url,
        "username": _text,
        "password_file": _password_file,
        "ca_file": _ca_file,
    },
    "table": {
        "id": _table_id,
        "source": _source,
        "observations": _readable_file,
        "layout": _table_layout,
        "fps": _fps,
        "model": _model_file,
        "outbox": _sqlite_file,
        "board": {"port": _text, "layout": _board_layout},
        "panel": {"gpio": _gpio},
    },
    "referee": {
        "db": _sqlite_file,
        "tables": _table_ids,
        "username": _text,
        "password_file": _password_file,
    },
    "recorder": {
        "db": _records_db,
        "tables": _table_ids,
        "username": _text,
        "password_file": _password_file,
    },
    "web": {
        "host": _host,
        "port": _port,
        "users": _users_file,
        "records": _records_db,
        "secret_file": _secret_file,
        "https_only": _flag,
        "username": _text,
        "password_file": _password_file,
    },
    "game": {
        "game": _game,
        "variant": _any,
        "players": _any,
        "game_to": _any,
        "rules": _any,
        "dealer": _whole,
    },
}


def _walk(data: Any, schema: dict[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    """The checked values of one table, by key; problems appended as ``key.path: why``."""
    out: dict[str, Any] = {}
    if not isinstance(data, dict):
        problems.append(f"{where}: expected a table of keys, got {_shown(data)}")
        return out
    for key, value in data.items():
        path = f"{where}.{key}" if where else str(key)
        if key not in schema:
            shown = ", ".join(schema)
            problems.append(f"{path}: unknown key ({where or 'the file'} has: {shown})")
            continue
        check = schema[key]
        if isinstance(check, dict):
            out[key] = _walk(value, check, path, problems)
            continue
        try:
            out[key] = check(value)
        except ValueError as exc:  # TopicError is a ValueError too
            problems.append(f"{path}: {exc}")
    return out


def parse_config(data: dict[str, Any], path: str) -> KiebitzConfig:
    """A checked :class:`KiebitzConfig` from parsed TOML; :class:`ConfigError` lists
    every problem, each as ``PATH: key.path: why``."""
    problems: list[str] = []
    values = _walk(data, SCHEMA, "", problems)
    broker = BrokerConfig(**values.get("broker", {}))
    if broker.password_file is not None and broker.username is None:
        problems.append("broker.password_file: needs broker.username (the account it is for)")
    table = None
    if "table" in data:
        t = values.get("table", {})
        # (a table that is no table of keys, `table = 5`, is said by the walk)
        raw = data["table"] if isinstance(data["table"], dict) else None
        if raw is not None and "id" not in t and "id" not in raw:
            problems.append("table.id: missing (the table id, e.g. t1)")
        if t.get("source") is not None and t.get("observations") is not None:
            problems.append("table: give source (a camera) or observations (a file), not both")
        if t.get("source") is not None and raw is not None and "layout" not in raw:
            problems.append("table.layout: missing (a camera source needs the table's layout)")
        board, panel = t.get("board", {}), t.get("panel", {})
        table = TableConfig(
            id=t.get("id", ""),
            source=t.get("source"),
            observations=t.get("observations"),
            layout=t.get("layout"),
            fps=t.get("fps", 10.0),
            model=t.get("model"),
            outbox=t.get("outbox"),
            board_port=board.get("port"),
            board_layout=board.get("layout", "two-player-121"),
            gpio=panel.get("gpio"),
        )
    referee = None
    if "referee" in data:
        r = values.get("referee", {})
        referee = RefereeConfig(
            db=r.get("db", "kiebitz-referee.db"),
            tables=r.get("tables", ()),
            username=r.get("username"),
            password_file=r.get("password_file"),
        )
        if referee.password_file is not None and referee.username is None:
            problems.append("referee.password_file: needs referee.username (its account)")
    recorder = None
    if "recorder" in data:
        r = values.get("recorder", {})
        recorder = RecorderConfig(
            db=r.get("db", "kiebitz-records.db"),
            tables=r.get("tables", ()),
            username=r.get("username"),
            password_file=r.get("password_file"),
        )
        if recorder.password_file is not None and recorder.username is None:
            problems.append("recorder.password_file: needs recorder.username (its account)")
    web = None
    if "web" in data:
        w = values.get("web", {})
        web = WebConfig(**{k: v for k, v in w.items()})
        if web.password_file is not None and web.username is None:
            problems.append("web.password_file: needs web.username (its account)")
    g = dict(values.get("game", {}))
    # the table's layout names its game and players: the defaults, as `run --table`
    # takes them; a game given that is not the layout's is a mistake to say
    laid = _layout_game(table, problems)
    named = g.pop("game", None)
    if laid is not None:
        if named is None:
            named = laid[0]
            if "players" not in g:
                g["players"] = laid[1]
        elif named != laid[0]:
            problems.append(
                f"game.game: {named!r}, but table.layout is a {laid[0]} table "
                f"({laid[1]} seats): give the layout of a {named} table, or game = {laid[0]!r}"
            )
    game = GameConfig(game=named or "cribbage", dealer=g.pop("dealer", None), options=g)
    if (laid is not None or "game" in values) and not any(p.startswith("game.") for p in problems):
        from rules.errors import RulesError
        from rules.reading.games import engine_for

        try:
            engine = engine_for(game.game, game.options)
        except RulesError as exc:
            problems.append(f"game: {exc}")
        else:
            seats = engine.rules.players
            if game.dealer is not None and not 0 <= game.dealer < seats:
                # the referee refused it at every start, as `--dealer`
                problems.append(f"game.dealer: {game.dealer}: seats are 0 to {seats - 1}")
    if problems:
        said = [f"{path}: {p}" for p in problems[:MAX_PROBLEMS]]
        if len(problems) > MAX_PROBLEMS:  # 300,000 unknown keys were 300,000 lines
            said.append(f"{path}: and {len(problems) - MAX_PROBLEMS:,} more problems")
        raise ConfigError(said)
    nothing = _sets_nothing(data)
    return KiebitzConfig(path, broker, table, referee, game, recorder, web, sets_nothing=nothing)


def _layout_game(table: TableConfig | None, problems: list[str]) -> tuple[str, int] | None:
    """The game and seats of the table's layout (checked whole by the walk), where one
    is given and the referee plays its game; a layout of a game it does not play is
    a problem (``run --table`` refused it; ``config check`` passed it)."""
    if table is None or table.layout is None or any(p.startswith("table.") for p in problems):
        return None
    from rules.reading.games import READERS
    from vision.errors import LayoutError
    from vision.layout import load_layout

    try:
        layout = load_layout(table.layout)
    except LayoutError:  # (said by the walk)
        return None
    if layout.game not in READERS:
        problems.append(
            f"table.layout: its table.game {layout.game!r} is no game the referee plays "
            f"({', '.join(sorted(READERS))})"
        )
        return None
    return layout.game, layout.players


def _sets_nothing(data: dict[str, Any]) -> bool:
    """Whether a config's tables hold no setting at all (an empty file, comments, or
    only empty tables such as ``[game]``)."""
    return all(isinstance(v, dict) and _sets_nothing(v) for v in data.values())


#: The most a config or board layout file may hold: the example config is 3 KiB
#: (/dev/zero, or a log written over the config, was read whole until memory ran out)
MAX_CONFIG_BYTES = 1 << 20


def read_toml_file(path: Path, what: str) -> dict[str, Any]:
    """A small TOML file read whole (a config, a board layout): :class:`ValueError`
    in one line naming ``path`` where it cannot be read, is larger than
    :data:`MAX_CONFIG_BYTES` ("no ``what``"), is not UTF-8 or not TOML."""
    from vision.files import read_capped

    try:  # a named pipe nobody writes to waited for ever
        raw = read_capped(path, MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ValueError(f"{path}: more than {MAX_CONFIG_BYTES:,} bytes: no {what}, not read")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        # a byte-order mark before the first line (Windows Notepad writes one):
        # tomllib calls it an "Invalid statement" at line 1, column 1
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once a level: `a = [[[[…]]]]` 1,000 deep
        raise ValueError(f"{path}: not valid TOML: arrays or tables nested too deep") from None


def load_config(path: str | Path) -> KiebitzConfig:
    """Read and check one config file; :class:`ConfigError` names the file in every line."""
    p = Path(path)
    try:
        data = read_toml_file(p, "config")
    except ValueError as exc:
        raise ConfigError([str(exc)]) from None
    return parse_config(data, str(p))
