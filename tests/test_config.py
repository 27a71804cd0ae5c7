"""The one TOML config of a table's Pi, its check, the services that read it, the
systemd units that run them, and ``kiebitz status`` (issue 12)."""

from __future__ import annotations

import configparser
import json
import shlex
import time
from pathlib import Path

import pytest
from test_table_service import OBS, TABLE, WATCH_BODIES, WATCH_LINES, Listener, write_lines

from controller.bus.bus import MemoryBroker, MemoryBus, open_bus
from controller.bus.envelope import Stamper, encode
from controller.bus.topics import status_topic
from controller.cli import build_parser, main

CONFIG = Path(__file__).resolve().parent.parent / "config"


def example(tmp_path: Path, **replace: str) -> Path:
    """The shipped example with its paths made private; ``replace`` swaps whole lines'
    values by key (``port="…"``)."""
    password = tmp_path / "broker.password"
    password.write_text("secret\n")
    text = (CONFIG / "kiebitz.example.toml").read_text()
    text = text.replace("/etc/kiebitz/broker.password", str(password))
    referee = tmp_path / "referee.password"
    referee.write_text("referee-secret\n")
    text = text.replace("/etc/kiebitz/referee.password", str(referee))
    watch = tmp_path / "watch.password"
    watch.write_text("watch-secret\n")
    text = text.replace("/etc/kiebitz/watch.password", str(watch))
    for name in ("web.password", "web.secret"):
        (tmp_path / name).write_text("w" * 40 + "\n")
        text = text.replace(f"/etc/kiebitz/{name}", str(tmp_path / name))
    text = text.replace("/etc/kiebitz/operators", str(tmp_path / "operators"))
    text = text.replace("/var/lib/kiebitz/", f"{tmp_path}/")
    lines, todo = [], dict(replace)
    for line in text.splitlines():  # the first line of each key (table.layout, not the board's)
        key = line.partition("=")[0].strip()
        lines.append(f"{key} = {todo.pop(key)}" if key in todo else line)
    assert not todo, f"no such key in the example: {todo}"
    path = tmp_path / "kiebitz.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_shipped_example_checks_clean(tmp_path, capsys):
    status, out, err = run(capsys, "config", "check", str(example(tmp_path)))
    assert (status, err) == (0, "")
    assert out.startswith(f"{tmp_path / 'kiebitz.toml'}: ok: broker mqtt://127.0.0.1:1883 as t1")
    assert "table t1 (picamera" in out and "referee for t1" in out and "game cribbage" in out
    assert f"recorder for t1 (records {tmp_path}/records.db)" in out


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"fps": '"fast"'}, "table.fps: expected a number above 0, got 'fast'"),
        ({"fps": "nan"}, "table.fps: expected a number above 0, got nan"),
        ({"id": '"Table 1"'}, "table.id: table id 'Table 1' must match"),
        ({"url": '"ftp://x"'}, "broker.url: 'ftp://x' must be mqtt://host:port"),
        # each passed the check, and the bus dropped the account (the broker then
        # refused an anonymous client) or the path without a word, or tried port 0
        (
            {"url": '"mqtt://t1:secret@127.0.0.1:1883"'},
            "broker.url: broker URL 'mqtt://…@127.0.0.1:1883': no account in the URL",
        ),
        ({"url": '"mqtt://host:1883/t1"'}, "broker.url: broker URL 'mqtt://host:1883/t1' has a"),
        ({"url": '"mqtt://host:0"'}, "broker.url: broker URL 'mqtt://host:0' has a bad port"),
        ({"url": '"mqtt:// h:1"'}, "broker.url: broker URL 'mqtt:// h:1' has a space in its host"),
        (
            {"layout": '"cribbage-9"'},
            "table.layout: no table layout 'cribbage-9' (shipped: cribbage-2",
        ),
        ({"password_file": '"/no/such/file"'}, "broker.password_file: cannot read '/no/such/file'"),
        ({"gpio": '"wiringpi"'}, "table.panel.gpio: 'wiringpi': expected one of mock"),
        ({"players": "7"}, "game: players 7: cribbage is for 2, 3 or 4"),
        ({"players": '"2"'}, "game: players '2': expected a whole number"),
        ({"tables": '"t1"'}, "referee.tables: expected a list of table ids, got 't1'"),
        ({"tables": '["t1", "t2", "t1"]'}, "referee.tables: table 't1' is named twice"),
        # passed, and the web view could not listen (a probe)
        ({"host": '"999.1.1.1"'}, "web.host: '999.1.1.1' is no IP address"),
        ({"host": '"club room"'}, "web.host: 'club room' is no host name or IP address"),
    ],
)
def test_a_bad_value_names_file_and_key_path(tmp_path, capsys, change, expected):
    path = example(tmp_path, **change)
    status, out, err = run(capsys, "config", "check", str(path))
    assert (status, out) == (2, "")
    assert err == f"kiebitz: error: {path}: {expected}" + err.partition(expected)[2]
    assert len(err.splitlines()) == 1


def test_a_config_of_many_problems_says_fifty_and_counts_the_rest(tmp_path, capsys):
    # 300,000 unknown keys were 300,000 lines (and 6 s)
    path = tmp_path / "many.toml"
    path.write_text("".join(f"k{i} = 1\n" for i in range(300)), encoding="utf-8")
    status, out, err = run(capsys, "config", "check", str(path))
    lines = err.splitlines()
    assert (status, out, len(lines)) == (2, "", 51)
    assert lines[0] == (
        f"kiebitz: error: {path}: k0: unknown key "
        "(the file has: broker, table, referee, recorder, web, game)"
    )
    assert lines[-1] == f"kiebitz: error: {path}: and 250 more problems"


@pytest.mark.parametrize(
    "text",
    ["", "# the table's config, to be written\n\n# later\n", "[game]\n[web]\n"],
)
def test_a_config_that_sets_nothing_is_ok_and_says_so(tmp_path, capsys, text):
    # an empty file (or comments only) is the defaults, status 0; it printed the
    # defaults as if the file had set them up ("ok: broker mqtt://127.0.0.1:1883; …")
    path = tmp_path / "kiebitz.toml"
    path.write_text(text)
    status, out, err = run(capsys, "config", "check", str(path))
    assert (status, err) == (0, "")
    assert out == (
        f"{path}: ok: {path} sets nothing; every setting is its default "
        "(broker mqtt://127.0.0.1:1883; game cribbage)\n"
    )
    path.write_text('# set\n[game]\ngame = "cribbage"\n')  # the default, but set
    status, out, _ = run(capsys, "config", "check", str(path))
    assert (status, out) == (0, f"{path}: ok: broker mqtt://127.0.0.1:1883; game cribbage\n")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfesecret\n", "is not UTF-8 text (byte 0)"),
        (b"", "has no password on its first line"),
        (b"\nsecret\n", "has no password on its first line"),
    ],
)
def test_a_password_file_the_services_cannot_use_is_found_by_the_check(
    tmp_path, capsys, content, expected
):
    # the services read the password when they connect: a file in another encoding
    # crashed every one of them (UnicodeDecodeError) after `config check` said ok
    path = example(tmp_path)
    (tmp_path / "broker.password").write_bytes(content)
    status, out, err = run(capsys, "config", "check", str(path))
    assert (status, out) == (2, "")
    assert f"{path}: broker.password_file: '{tmp_path / 'broker.password'}' {expected}" in err
    # and a service that reads it anyway says so, naming the file
    from controller.config import BrokerConfig, ConfigError

    if content.startswith(b"\xff"):
        broker = BrokerConfig("mqtt://x:1", "t1", str(tmp_path / "broker.password"))
        with pytest.raises(ConfigError, match=r"broker\.password: cannot read the password"):
            broker.password()


def test_a_database_that_is_a_folder_or_not_a_database_is_found_by_the_check(tmp_path, capsys):
    # `config check` said ok; the referee, the recorder or the table failed at start
    path = example(tmp_path)
    (tmp_path / "referee.db").mkdir()
    (tmp_path / "records.db").write_text("not a database\n")
    (tmp_path / "outbox-t1.db").mkdir()
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2
    assert f"referee.db: '{tmp_path / 'referee.db'}' is a folder, not a file" in err
    assert f"recorder.db: '{tmp_path / 'records.db'}' is not an SQLite database" in err
    assert f"outbox: '{tmp_path / 'outbox-t1.db'}' is a folder, not a file" in err
    # an empty file is a database SQLite makes; a real one stands
    import sqlite3

    (tmp_path / "referee.db").rmdir()
    (tmp_path / "outbox-t1.db").rmdir()
    (tmp_path / "records.db").write_text("")
    sqlite3.connect(tmp_path / "referee.db").execute("create table t (x)").connection.close()
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 0, err


def test_a_web_secret_under_32_characters_is_found_by_the_check(tmp_path, capsys):
    path = example(tmp_path)
    (tmp_path / "web.secret").write_text("short\n")
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2
    assert "web.secret_file:" in err and "holds 5 characters, at least 32 are needed" in err


def test_a_dealer_the_table_has_no_seat_for_is_found_by_the_check(tmp_path, capsys):
    # `config check` said ok; the referee then refused it at every start, as `--dealer`
    path = tmp_path / "c.toml"
    for game, dealer, seats in (("cribbage", 7, 2), ("cribbage", -1, 2), ("skat", 3, 3)):
        path.write_text(f'[game]\ngame = "{game}"\ndealer = {dealer}\n')
        status, _, err = run(capsys, "config", "check", str(path))
        assert status == 2, err
        assert err.strip() == (
            f"kiebitz: error: {path}: game.dealer: {dealer}: seats are 0 to {seats - 1}"
        )
    path.write_text('[game]\ngame = "cribbage"\nplayers = 3\ndealer = 2\n')
    assert run(capsys, "config", "check", str(path))[0] == 0


@pytest.mark.parametrize("value", ["5", "true", "1.5", "1979-05-27", "[1, 2]"])
def test_a_section_that_is_a_plain_value_is_one_line(tmp_path, capsys, value):
    # `table = 5` was a TypeError traceback from every command that reads the config
    # (a bad-input sweep's find); `table = "x"` was said already
    path = tmp_path / "c.toml"
    path.write_text(f"table = {value}\n")
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and len(err.splitlines()) == 1, err
    assert err.startswith(f"kiebitz: error: {path}: table: expected a table of keys, got ")


def test_the_table_layout_names_the_game_and_a_game_not_its_own_is_found(tmp_path, capsys):
    # a Skat layout alone was checked "ok ... game cribbage", and the referee then
    # played cribbage on a three-seat Skat table; a layout of a game the referee does
    # not play passed the check (`run --table` refused it)
    path = tmp_path / "c.toml"
    path.write_text('[table]\nid = "t1"\nlayout = "skat-3"\n')
    status, out, _ = run(capsys, "config", "check", str(path))
    assert status == 0 and out.rstrip().endswith("game skat")
    path.write_text('[table]\nid = "t1"\nlayout = "cribbage-3"\n[game]\ndealer = 2\n')
    assert run(capsys, "config", "check", str(path))[0] == 0  # three seats: 0 to 2
    path.write_text('[table]\nid = "t1"\nlayout = "skat-3"\n[game]\ngame = "cribbage"\n')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and err.strip() == (
        f"kiebitz: error: {path}: game.game: 'cribbage', but table.layout is a skat table "
        "(3 seats): give the layout of a cribbage table, or game = 'skat'"
    )
    poker = tmp_path / "poker.toml"
    poker.write_text(
        (CONFIG / "tables" / "cribbage-2.toml")
        .read_text()
        .replace('game = "cribbage"', 'game = "poker"')
    )
    path.write_text(f'[table]\nid = "t1"\nlayout = "{poker}"\n')
    status, _, err = run(capsys, "config", "check", str(path))
    assert (
        status == 2 and "table.layout: its table.game 'poker' is no game the referee plays" in err
    )


def test_a_skat_rule_set_not_known_is_named_as_given(tmp_path, capsys):
    # it was named `rule_set`, the engine's own name, not the key the file gives
    path = tmp_path / "c.toml"
    path.write_text('[game]\ngame = "skat"\nrules = "foo"\n')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and err.strip() == (
        f"kiebitz: error: {path}: game: rules 'foo': expected one of isko, foster1906"
    )


def test_a_config_saved_with_a_byte_order_mark_reads(tmp_path, capsys):
    # Windows Notepad's UTF-8 starts with one: "not valid TOML: Invalid statement
    # (at line 1, column 1)" before
    path = example(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    status, out, err = run(capsys, "config", "check", str(path))
    assert (status, err) == (0, "") and ": ok: broker" in out


def test_a_table_source_outbox_or_frame_rate_the_service_would_refuse_is_found(tmp_path, capsys):
    # each passed the check and failed when the table started (a NUL in the outbox's
    # name with a traceback); 1e-300 frames a second waited for ever
    garbage, video = tmp_path / "garbage.bin", tmp_path / "no.mp4"
    garbage.write_bytes(b"\x00\x01not sqlite")
    # a folder of no pictures and a file that is no video passed the check too
    (empty := tmp_path / "frames").mkdir()
    (notvideo := tmp_path / "table.mp4").write_text("not a video\n")
    for key, value, why in (
        ("source", f'"{video}"', f"table.source: no such file, folder or camera: {video}"),
        ("source", f'"{empty}"', f"table.source: no images in folder {empty}"),
        ("source", f'"{notvideo}"', f"table.source: cannot open video file {notvideo}: not a "
         "video this FFmpeg reads (an unknown format, or a file cut short before its index)"),
        (
            "source",
            '"picamera:x"',
            "table.source: bad Pi camera number in 'picamera:x' (picamera:0, picamera:1)",
        ),
        (
            "source",
            '"picamera@4608"',
            "table.source: bad camera size in 'picamera@4608' "
            "(WIDTHxHEIGHT after the @: picamera@4608x2592)",
        ),
        (  # a camera unplugged while the config is checked: its size is checked still
            "source",
            '"/dev/video99@1920x1081"',
            "table.source: bad camera size in '/dev/video99@1920x1081': each side even, "
            "from 64 to 16384 pixels",
        ),
        ("outbox", f'"{garbage}"', f"table.outbox: '{garbage}' is not an SQLite database"),
        ("outbox", '"a\\u0000b.db"', "table.outbox: 'a\\x00b.db' has a NUL byte in it"),
        ("fps", "1e-300", "table.fps: expected frames a second from 0.1 to 120, got 1e-300"),
        ("fps", "1e308", "table.fps: expected frames a second from 0.1 to 120, got 1e+308"),
    ):  # fmt: skip
        path = example(tmp_path, **{key: value})
        status, _, err = run(capsys, "config", "check", str(path))
        assert status == 2 and err.strip() == f"kiebitz: error: {path}: {why}", err
    # a camera device need not be plugged in when the config is checked (status says)
    status, _, err = run(capsys, "config", "check", str(example(tmp_path, source='"/dev/video9"')))
    assert status == 0, err


def test_unknown_keys_and_every_problem_are_listed(tmp_path, capsys):
    path = tmp_path / "k.toml"
    path.write_text(
        '[broker]\nurl = "mqtt://127.0.0.1:1"\nuser = "t1"\n'
        '[table]\nfps = 0\n[table.board]\nprot = "/dev/ttyACM0"\n[cameras]\nx = 1\n'
    )
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2
    assert err.splitlines() == [
        f"kiebitz: error: {path}: broker.user: unknown key "
        "(broker has: url, username, password_file, ca_file)",
        f"kiebitz: error: {path}: table.fps: expected a number above 0, got 0",
        f"kiebitz: error: {path}: table.board.prot: unknown key (table.board has: port, layout)",
        f"kiebitz: error: {path}: cameras: unknown key "
        "(the file has: broker, table, referee, recorder, web, game)",
        f"kiebitz: error: {path}: table.id: missing (the table id, e.g. t1)",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[table\nid = 't1'\n", "not valid TOML: Expected ']' at the end of a table declaration"),
        (b"\xff\xfe", "not UTF-8 text (byte 0)"),
        (None, "cannot read: No such file or directory"),
        # tracebacks before (RecursionError from tomllib): nested 1,000 deep
        ("a = " + "[" * 1000 + "]" * 1000, "not valid TOML: arrays or tables nested too deep"),
        ("a = " + "{b = " * 600 + "1" + "}" * 600, "not valid TOML: arrays or tables nested"),
        # /dev/zero was read until memory ran out (a MemoryError traceback)
        ("/dev/zero", "more than 1,048,576 bytes: no config, not read"),
        ("# " + "x" * (1 << 20), "more than 1,048,576 bytes: no config, not read"),
    ],
)
def test_a_file_that_is_not_a_config_is_one_line(tmp_path, capsys, text, expected):
    path = tmp_path / "k.toml"
    if text == "/dev/zero":
        path = Path(text)
    elif isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"kiebitz: error: {path}: {expected}")


def test_the_table_service_runs_from_the_config(tmp_path, capsys):
    name = f"config-{id(tmp_path)}"
    bus = MemoryBus(MemoryBroker.named(name), "listener")
    bus.start()
    listener = Listener(bus)
    recorded = write_lines(tmp_path / "game.jsonl", WATCH_LINES)
    path = example(tmp_path, url=f'"memory://{name}"', username='"t1"')
    text = path.read_text()
    text = text.replace('source = "picamera"', f'observations = "{recorded}"')
    text = text.replace('layout = "cribbage-2"', f'layout = "{TABLE}"')
    text = "\n".join(
        ln for ln in text.splitlines() if not ln.startswith(("port =", "gpio ="))
    )  # no Pico and no pins here
    path.write_text(text + "\n")
    status, _, err = run(capsys, "table", "--config", str(path))
    assert status == 0, err
    assert listener.bodies(OBS) == WATCH_BODIES
    # the command line wins over the config
    bus.subscribe("kiebitz/v1/t9/#", listener._take)
    status, _, err = run(capsys, "table", "--config", str(path), "--table-id", "t9")
    assert status == 0, err
    assert [s["state"] for s in listener.bodies(status_topic("t9", "table"))] == [
        "online",
        "offline",
    ]


def test_a_value_the_config_gave_is_named_by_its_key_when_it_fails(tmp_path, capsys):
    # a camera that is not there, named in the config: the error said "--source", a
    # flag the installer never gave
    name = f"config-{id(tmp_path)}"
    path = example(tmp_path, url=f'"memory://{name}"', username='"t1"')
    text = path.read_text().replace('source = "picamera"', f'source = "{tmp_path}/no.mp4"')
    text = text.replace('layout = "cribbage-2"', f'layout = "{TABLE}"')
    path.write_text(
        "\n".join(ln for ln in text.splitlines() if not ln.startswith(("port =", "gpio =")))
    )
    status, out, err = run(capsys, "table", "--config", str(path))
    assert (status, out) == (2, "")
    # (since 2026-12-04 the config's check finds a file that is not there, as it finds
    # every other value's fault: the file and the key named)
    assert err.startswith(f"kiebitz: error: {path}: table.source: no such file") and "no.mp4" in err
    assert len(err.splitlines()) == 1
    # given on the command line, it is the flag's (the config's a folder of a picture,
    # which its check opens)
    import cv2
    import numpy as np

    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "a.png"), np.zeros((8, 8, 3), np.uint8))
    path.write_text(path.read_text().replace(f"{tmp_path}/no.mp4", f"{tmp_path}/frames"))
    status, _, err = run(capsys, "table", "--config", str(path), "--source", f"{tmp_path}/x.mp4")
    assert status == 2 and err.startswith("kiebitz: error: --source: ")


def test_a_service_with_a_bad_config_does_not_start(tmp_path, capsys):
    path = example(tmp_path, fps="-1")
    for command in ("table", "referee", "recorder", "web"):
        status, out, err = run(capsys, command, "--config", str(path))
        assert (status, out) == (2, "")
        assert err == f"kiebitz: error: {path}: table.fps: expected a number above 0, got -1\n"


def test_every_shipped_unit_is_checked():
    shipped = sorted(p.name for p in (CONFIG / "systemd").glob("*.service"))
    assert shipped == sorted(UNITS)


UNITS = [
    "kiebitz-table.service",
    "kiebitz-referee.service",
    "kiebitz-recorder.service",
    "kiebitz-web.service",
]


@pytest.mark.parametrize("unit", UNITS)
def test_the_systemd_units_run_commands_that_exist(unit):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(CONFIG / "systemd" / unit)
    service = parser["Service"]
    assert service["Restart"] == "on-failure"
    assert service["StandardError"] == "journal" and service["KillSignal"] == "SIGTERM"
    assert parser["Install"]["WantedBy"] == "multi-user.target"
    for key in ("ExecStartPre", "ExecStart"):
        words = shlex.split(service[key])
        assert words[0] == "/opt/kiebitz/venv/bin/kiebitz"
        args = build_parser().parse_args(words[1:])  # every option is one the CLI has
        assert callable(args.handler)
        assert "/etc/kiebitz/kiebitz.toml" in words
    assert shlex.split(service["ExecStartPre"])[1:3] == ["config", "check"]


# -- kiebitz status ---------------------------------------------------------------


def _say(url: str, table: str, component: str, state: str) -> None:
    bus = open_bus(url, f"say-{component}")
    bus.start()
    stamper = Stamper(f"{table}/{component}")
    body = {"state": state, "component": component, "detail": "kiebitz 0.1.0"}
    bus.publish(status_topic(table, component), encode(stamper.stamp("status", body)), retain=True)
    time.sleep(0.1)
    bus.close()


def test_status_says_how_each_part_stands(mosquitto, tmp_path, capsys):
    _say(mosquitto.url, "t1", "table", "online")
    _say(mosquitto.url, "t1", "referee", "online")
    status, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    assert status == 0, out
    lines = out.splitlines()
    assert lines[0] == f"broker   {mosquitto.url}: connected"
    assert lines[1].startswith("table    t1: online for ") and lines[1].endswith("(kiebitz 0.1.0)")
    assert lines[2].startswith("referee  t1: online for ")
    _say(mosquitto.url, "t1", "referee", "offline")
    status, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    assert status == 1 and "referee  t1: offline" in out
    status, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t7")
    assert status == 1 and "table    t7: no status on the broker" in out


def test_status_ages_count_from_the_start_and_a_last_will_has_none(mosquitto, capsys):
    # "online for 1 s" counted from the last change of the status's detail, and
    # "offline for 7 s" 1.5 s after a stop (the will is stamped when a service starts)
    from controller.table.service import WILL_DETAIL

    bus = open_bus(mosquitto.url, "say")
    bus.start()
    stamper = Stamper("t1/say")
    for component, body in (
        ("table", {"state": "online", "detail": "board synced", "since": time.time() - 3600}),
        ("referee", {"state": "offline", "detail": WILL_DETAIL}),
    ):
        env = stamper.stamp("status", {"component": component, **body})
        bus.publish(status_topic("t1", component), encode(env), retain=True)
    time.sleep(0.1)
    bus.close()
    _, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    lines = out.splitlines()
    assert lines[1] == "table    t1: online for 60 min (board synced)"
    assert lines[2] == "referee  t1: offline (connection lost)"


def _retain(url: str, table: str, payloads: dict[str, bytes]) -> None:
    bus = open_bus(url, "say-raw")
    bus.start()
    for component, payload in payloads.items():
        bus.publish(status_topic(table, component), payload, retain=True)
    time.sleep(0.1)
    bus.close()


def _status_env(component: str, ts: float | None = None, **body: object) -> dict:
    env = Stamper(f"t1/{component}").stamp("status", {"component": component, "state": "online"})
    return {**env.to_json(), "ts": time.time() if ts is None else ts, "body": {**env.body, **body}}


def test_status_says_a_retained_status_it_cannot_read_and_keeps_to_one_line(mosquitto, capsys):
    # garbage retained on a status topic, and a newer Kiebitz's status (a field this
    # one does not know), said "no status on the broker (never started here)"; a
    # status stamped ahead of this clock said "offline for -1000000…0 s" (300
    # digits), and a newline or a terminal's escape in a detail was printed as such
    _retain(
        mosquitto.url,
        "t1",
        {
            "table": b"\x00garbage",
            "referee": json.dumps(_status_env("referee", mood="sunny")).encode(),
        },
    )
    status, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 3
    assert lines[1].startswith("table    t1: a status that cannot be read (envelope: not JSON")
    assert lines[2] == (
        "referee  t1: a status that cannot be read (body: Additional properties are not "
        "allowed ('mood' was unexpected))"
    )
    ahead = _status_env("table", ts=1e300, state="offline", detail="x\n\x1b[2Jonline")
    since = _status_env("referee", since=1e300, detail="kiebitz 0.1.0")
    _retain(mosquitto.url, "t1", {"table": json.dumps(ahead).encode()})
    _retain(mosquitto.url, "t1", {"referee": json.dumps(since).encode()})
    status, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    assert status == 1 and out.splitlines()[1:] == [
        "table    t1: offline for an unknown time (its clock is ahead of this machine's) "
        "(x\\n\\x1b[2Jonline)",
        "referee  t1: online for an unknown time (its clock is ahead of this machine's) "
        "(kiebitz 0.1.0)",
    ]
    old = _status_env("referee", since=1.0, detail="kiebitz 0.1.0")  # a Pi's clock at 1970
    _retain(mosquitto.url, "t1", {"referee": json.dumps(old).encode()})
    _, out, _ = run(capsys, "status", "--broker", mosquitto.url, "--table-id", "t1")
    assert out.splitlines()[2] == "referee  t1: online for over a year (kiebitz 0.1.0)"


def test_a_clean_stop_says_offline_when_it_stops_not_when_it_started(tmp_path):
    from controller.table.service import TableService, status_will

    broker = MemoryBroker()
    old = Stamper("t1/table-status", clock=lambda: 1000.0)  # the will: stamped long ago
    bus = MemoryBus(broker, "t1-table", will=status_will("t1", old))
    service = TableService("t1", bus, observations=[], status_stamper=Stamper("t1/table-status"))
    service.start()
    online = json.loads(broker.retained()[status_topic("t1", "table")])
    assert online["body"]["since"] == pytest.approx(time.time(), abs=60)
    service.close()
    said = json.loads(broker.retained()[status_topic("t1", "table")])
    assert said["body"] == {"state": "offline", "component": "table", "detail": "stopped"}
    assert said["ts"] == pytest.approx(time.time(), abs=60)


def test_status_names_a_missing_board_and_camera(mosquitto, tmp_path, capsys):
    path = example(
        tmp_path, url=f'"{mosquitto.url}"', port='"/dev/ttyNOSUCH"', source='"/dev/video99"'
    )
    text = path.read_text().replace("username", "# username").replace("password_file", "# p")
    path.write_text(text)
    status, out, _ = run(capsys, "status", "--config", str(path), "--timeout", "2")
    assert status == 1
    assert "board    /dev/ttyNOSUCH: missing (is the board plugged in?" in out
    assert "camera   /dev/video99: missing" in out


def test_status_without_a_broker_says_so(tmp_path, capsys):
    from controller.bus.broker import free_port

    url = f"mqtt://127.0.0.1:{free_port()}"
    # a refused connection is the answer at once: `--timeout 1e9` waited that long
    start = time.monotonic()
    status, out, _ = run(capsys, "status", "--broker", url, "--table-id", "t1", "--timeout", "1e9")
    assert status == 1 and time.monotonic() - start < 60
    assert out.splitlines()[0] == f"broker   {url}: not connected: cannot reach {url}"
    assert json.dumps(out)  # printable, one line a part


def test_status_over_tls_to_a_plain_listener_says_the_handshake_failed(mosquitto, capsys):
    # mqtts:// pointed at a plain MQTT port: the TCP connection comes up, the listener
    # resets it at the TLS hello; that was "cannot reach", which sent an installer
    # looking for a broker that is running
    host_port = mosquitto.url.removeprefix("mqtt://")
    url = f"mqtts://{host_port}"
    status, out, _ = run(capsys, "status", "--broker", url, "--table-id", "t1", "--timeout", "10")
    first = out.splitlines()[0]
    assert status == 1
    assert first.startswith(f"broker   {url}: not connected: TLS handshake with {host_port} failed")
    assert "is that port a TLS listener" in first and "cannot reach" not in first


def test_a_model_that_is_no_card_network_is_found_by_the_check(tmp_path, capsys):
    # `config check` only opened the file: a text file or the gate network as
    # `table.model` passed, and the table service failed at start
    text_model = tmp_path / "cards.onnx"
    text_model.write_text("not a network\n")
    path = example(tmp_path, source=f'"picamera"\nmodel = "{text_model}"')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2
    assert f"{path}: table.model: model file {text_model} is not a readable ONNX model" in err
    gate = Path(__file__).resolve().parent.parent / "vision" / "models" / "cards.gate.onnx"
    path = example(tmp_path, source=f'"picamera"\nmodel = "{gate}"')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and "table.model: model file" in err and "does not" in err
    shipped = gate.with_name("cards.onnx")
    path = example(tmp_path, source=f'"picamera"\nmodel = "{shipped}"')
    status, _, err = run(capsys, "config", "check", str(path))
    assert (status, err) == (0, ""), err
    # a card network saved as the gate beside the model: it was a cv2.error traceback
    import shutil

    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(shipped, mine / "cards.onnx")
    shutil.copy(shipped, mine / "cards.gate.onnx")
    path = example(tmp_path, source=f'"picamera"\nmodel = "{mine / "cards.onnx"}"')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 2 and f"gate file {mine / 'cards.gate.onnx'} does not read 18 x 12" in err


@pytest.mark.parametrize("host", ["pi.local.", "table_1", "127.1", "::1", "0.0.0.0", "kiebitz"])
def test_a_web_host_that_is_one_passes_the_check(tmp_path, capsys, host):
    # a name ending in a dot, a container's name with an underscore, the short form
    # of an IPv4 address: each one the system listens on (a review's find: refused)
    path = example(tmp_path, host=f'"{host}"')
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 0, err
