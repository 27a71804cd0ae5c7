"""Bad input at the command line, as a club member or installer gives it (a sweep of
every command that reads a file or an option, 2026-12-03): each is one line naming
what was wrong and where, status 2, no traceback, and nothing of the user's lost.
(`kiebitz run`'s options: tests/test_run_e2e.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main

REPO = Path(__file__).resolve().parent.parent
SKAT3 = str(REPO / "config" / "tables" / "skat-3.toml")


def one_line_error(capfd: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    out, err = capfd.readouterr()
    assert status == 2, (status, out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_the_emulators_link_never_replaces_a_users_file(tmp_path, capfd):
    # the link is replaced on each plug and removed at the end: an ordinary file named
    # as --link was replaced by a symlink to the pseudo-terminal and then deleted
    keep = tmp_path / "keep.txt"
    keep.write_text("the club's notes\n")
    err = one_line_error(capfd, "board", "emulate", "--duration", "0.2", "--link", str(keep))
    assert f"--link {keep}: a file is there, not a link to replace" in err
    assert keep.read_text() == "the club's notes\n"
    err = one_line_error(capfd, "board", "emulate", "--duration", "0.2", "--svg", str(tmp_path))
    assert f"--svg {tmp_path}: it is a folder, not a file" in err
    # the emulator itself refuses too (a program that builds one)
    from controller.board.emulator import Emulator
    from controller.board.layouts import load_layout

    with pytest.raises(FileExistsError, match="not a link to replace"):
        Emulator(load_layout("two-player-61"), link=keep)
    assert keep.read_text() == "the club's notes\n"


def test_a_path_that_cannot_be_written_is_named(tmp_path, capfd):
    err = one_line_error(capfd, "board", "template", "-o", "/nonexistent/x.svg")
    assert "/nonexistent/x.svg: No such file or directory" in err
    err = one_line_error(capfd, "board", "template", "-o", str(tmp_path))
    assert f"{tmp_path}: Is a directory" in err
    stage = tmp_path / "stage"
    stage.write_text("")
    err = one_line_error(capfd, "board", "flash", "--dry-run", "--stage", str(stage))
    assert f"{stage}: File exists" in err
    # calibrate's picture is checked before the markers are looked for
    err = one_line_error(capfd, "calibrate", "--table", SKAT3, "x.png", str(tmp_path / "o.txt"))
    assert "the picture is PNG or JPEG" in err


def test_a_layout_file_in_another_encoding_is_named(tmp_path, capfd):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'\xff\xfe[table]\nname = "x"\n')
    frames = tmp_path / "frames"
    frames.mkdir()
    err = one_line_error(capfd, "vision", "watch", "--table", str(bad), str(frames))
    assert f"{bad}: not UTF-8 text (byte 0)" in err
    err = one_line_error(capfd, "board", "template", "--layout", str(bad))
    assert f"{bad}: not UTF-8 text (byte 0)" in err


@pytest.mark.parametrize("kind", ["nested", "endless"])
def test_a_layout_nested_too_deep_or_endless_is_named(tmp_path, capfd, kind):
    # tomllib recursed into `a = [[[[…]]]]` 1,000 deep (a RecursionError traceback in
    # run, table, calibrate, board check), and /dev/zero was read until memory ran out
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 1000 + "]" * 1000 + "\n")
    path, says = (
        (str(deep), "not valid TOML: arrays or tables nested too deep")
        if kind == "nested"
        else ("/dev/zero", "more than 1,048,576 bytes")
    )
    obs = tmp_path / "o.jsonl"
    obs.write_text("")
    err = one_line_error(capfd, "run", "--observations", str(obs), "--table", path)
    assert f"{path}: {says}" in err
    err = one_line_error(capfd, "run", "--observations", str(obs), "--board-layout", path)
    assert f"--board-layout: {path}: {says}" in err
    err = one_line_error(capfd, "board", "check", path)
    assert f"{path}: {says}" in err
    table = ["table", "--table-id", "t1", "--broker", "memory://deep", "--observations"]
    err = one_line_error(capfd, *table, str(obs), "--layout", path)
    assert f"--layout: {path}: {says}" in err


def test_table_ids_and_match_numbers_out_of_range_are_usage_errors(tmp_path, capfd):
    err = one_line_error(
        capfd, "status", "--broker", "mqtt://127.0.0.1:1", "--table-id", "A/#", "--timeout", "1"
    )
    assert "--table-id: table id 'A/#' must match" in err
    err = one_line_error(capfd, "referee", "--broker", "memory://x", "--tables", "t1,A/#")
    assert "--tables: table id 'A/#' must match" in err
    err = one_line_error(capfd, "recorder", "--broker", "memory://x", "--tables", "A/#")
    assert "--tables: table id 'A/#' must match" in err
    db = str(tmp_path / "r.db")
    err = one_line_error(capfd, "records", "--db", db, "show", "99999999999999999999")
    assert "argument MATCH: expected a whole number from 1 to" in err


def test_an_observation_line_in_another_encoding_is_named_by_file_and_line(tmp_path, capfd):
    # `table` named neither the file nor the line ("'utf-8' codec can't decode byte
    # 0xff in position 8"), `run` not the line
    lines = tmp_path / "game.jsonl"
    lines.write_bytes(b'{"status": "calibrated"}\n\n\xff\xfe{"kind": "placed"}\n')
    err = one_line_error(
        capfd, "table", "--table-id", "t1", "--broker", "memory://x", "--observations", str(lines)
    )
    assert f"--observations {lines}: line 3: not UTF-8 text (byte 0)" in err
    err = one_line_error(capfd, "run", "--observations", str(lines), "--headless", "--no-records")
    assert f"--observations {lines}: line 3: not UTF-8 text (byte 0)" in err


def test_a_layout_for_another_game_reads_but_does_not_referee(tmp_path, capfd):
    # a layout's game that the referee does not play was refused by `run` as
    # "--game: unknown game", a flag not given; vision reads any game's table (a
    # pinochle layout with its deck profile)
    from vision.layout import load_layout

    text = Path(SKAT3).read_text().replace('game = "skat"', 'game = "pinochle"')
    layout = tmp_path / "pinochle.toml"
    layout.write_text(text)
    assert load_layout(layout).game == "pinochle"
    observations = tmp_path / "obs.jsonl"
    observations.write_text("")
    err = one_line_error(
        capfd, "run", "--observations", str(observations), "--table", str(layout), "--headless",
        "--no-records",
    )  # fmt: skip
    assert f"--table {layout}: table.game 'pinochle' is no game the referee plays" in err


def test_observation_files_with_an_old_macs_line_ends_read_as_before(tmp_path):
    from controller.table.observations import read_observation_lines

    lines = tmp_path / "game.jsonl"
    body = '{"kind": "placed", "card": "QH", "zone": "play.0", "t": 1.0}'
    lines.write_bytes(('{"status": "calibrated"}\r' + body + "\r\r").encode())
    assert [b["card"] for b in read_observation_lines(lines)] == ["QH"]
    lines.write_bytes(('{"status": "calibrated"}\r{oops\r' + body).encode())
    with pytest.raises(ValueError, match="line 2: not JSON"):
        list(read_observation_lines(lines))


def test_an_observation_line_with_a_number_json_does_not_allow_is_named(tmp_path, capfd):
    # {"t": Infinity} (or NaN, or 1e999) was taken, then not sent because the bus
    # cannot encode it, with a warning that named no line, and the run said status 0
    good = '{"kind": "placed", "card": "QH", "zone": "play.0", "t": 1.0}\n'
    lines = tmp_path / "game.jsonl"
    for bad, why in (
        ("Infinity", "Infinity is not allowed in a payload"),
        ("NaN", "NaN is not allowed in a payload"),
        ("1e999", "number 1e999 is out of range"),
    ):
        lines.write_text(good + good.replace("1.0", bad))
        err = one_line_error(
            capfd, "run", "--observations", str(lines), "--headless", "--no-records"
        )
        assert f"--observations {lines}: line 2: {why}" in err
    lines.write_text(good.replace('"t": 1.0', '"t": 1.0, "t": 2.0'))
    err = one_line_error(capfd, "run", "--observations", str(lines), "--headless", "--no-records")
    assert "line 1: duplicate key 't'" in err


def test_an_observation_line_the_referee_would_refuse_is_named_at_read(tmp_path, capfd):
    """A time in epoch microseconds (an integer over 10**15) passed the file's check
    and was refused by the referee: every card of the game lost, status 0 (a probe).
    A line nested thousands deep, or with an integer of 5,000 digits, was an error
    that named no line. Each is now its line's error, before anything is sent."""
    good = '{"kind": "placed", "card": "QH", "zone": "play.0", "t": 1.0}\n'
    lines = tmp_path / "game.jsonl"
    for bad, why in (
        (str(1733580000000000 + 1_000_000), "observation: field 't' is out of range"),
        ("1e308", "observation: field 't' is out of range"),
        ("9" * 5000, "not JSON: a number too long to read"),
    ):
        lines.write_text(good + good.replace("1.0", bad))
        err = one_line_error(
            capfd, "run", "--observations", str(lines), "--headless", "--no-records"
        )
        assert f"--observations {lines}: line 2: {why}" in err
    lines.write_text(good + "[" * 30000 + "]" * 30000 + "\n")
    err = one_line_error(capfd, "run", "--observations", str(lines), "--headless", "--no-records")
    assert f"--observations {lines}: line 2: not JSON: nested too deeply" in err
    confident = good.replace('"t": 1.0', '"t": 1.0, "confidence": 1.5')
    lines.write_text(good + confident)
    err = one_line_error(capfd, "run", "--observations", str(lines), "--headless", "--no-records")
    assert "line 2: " in err and "confidence" in err


def test_an_observation_line_too_long_is_named_not_held(tmp_path, capfd):
    good = '{"kind": "placed", "card": "QH", "zone": "play.0", "t": 1.0}\n'
    lines = tmp_path / "game.jsonl"
    lines.write_text(good + '{"kind": "placed", "card": "' + "x" * 100_000 + '"}\n' + good)
    err = one_line_error(capfd, "run", "--observations", str(lines), "--headless", "--no-records")
    assert f"--observations {lines}: line 2: longer than 65,536 bytes" in err


def test_an_unknown_pin_factory_is_named_once(tmp_path, capfd):
    # `kiebitz table --gpio bogus` said "--gpio: --gpio: unknown pin factory"
    lines = tmp_path / "game.jsonl"
    lines.write_text("")
    err = one_line_error(
        capfd, "table", "--table-id", "t1", "--broker", "memory://gpio",
        "--observations", str(lines), "--gpio", "bogus",
    )  # fmt: skip
    assert err.startswith("kiebitz: error: --gpio: unknown pin factory 'bogus'"), err


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_batch_or_labels_file_of_utf16_text_is_one_line_naming_it(tmp_path, capfd, codec):
    # a file saved by a spreadsheet as "Unicode text" was an error for each of its
    # lines (their NUL bytes), status 1, for the one fault of the file; labels.csv
    # said its header lacked the columns, or that it was not UTF-8 without why
    import io

    hands = tmp_path / "hands.txt"
    hands.write_bytes("5H 5S 5C JD | 5D\n7H 7S 8C 8D | 9D\n".encode(codec))
    says = "UTF-16 text (" if codec == "utf-16" else "UTF-16 text (a NUL byte "
    for argv in (
        ["cribbage", "score", "--batch"],
        ["cribbage", "peg", "--batch"],
        ["skat", "replay"],
    ):
        err = one_line_error(capfd, *argv, str(hands))
        assert f"kiebitz: error: {hands}: {says}" in err and "not UTF-8" in err, err
    labels = tmp_path / "eval"
    labels.mkdir()
    (labels / "labels.csv").write_bytes("file\tcards\nx.png\t10H\n".encode(codec))
    err = one_line_error(capfd, "vision", "eval", str(labels))
    assert f"kiebitz: error: {labels / 'labels.csv'}: {says}" in err and "not UTF-8" in err, err
    # recorded observations, for the referee's replay and a run (one error a line, or
    # "line 1: not UTF-8 text (byte 0)")
    observations = tmp_path / "seen.jsonl"
    line = '{"kind": "placed", "card": "7S", "zone": "starter", "zone_kind": "starter", '
    line += '"seat": null, "from_zone": null, "t": 1.0, "confidence": 0.99}\n'
    observations.write_bytes((line * 3).encode(codec))
    err = one_line_error(capfd, "referee", "--replay", str(observations), "--game", "cribbage")
    assert f"kiebitz: error: --replay {observations}: {says}" in err, err
    from controller.table.observations import read_observation_lines

    with pytest.raises(ValueError, match=r"^UTF-16 text \(.*not UTF-8: save it as UTF-8$"):
        list(read_observation_lines(observations))
    # from standard input alike
    stdin = io.TextIOWrapper(io.BytesIO("5H 5S 5C JD | 5D\n".encode(codec)), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", stdin)
        err = one_line_error(capfd, "cribbage", "score", "--batch", "-")
    assert f"kiebitz: error: standard input: {says}" in err, err
    # a UTF-8 file whose first bytes are damaged is still that line's error
    hands.write_bytes(b"\xff\xfe 5S 5C JD | 5D\n5H 5S 5C JD | 5D\n")
    assert main(["cribbage", "score", "--batch", str(hands)]) == 1
    out, _ = capfd.readouterr()
    assert out.splitlines() == ["error: line 1: bytes that are not UTF-8 text at column 1", "29"]


def test_a_password_that_is_not_utf8_text_is_said_so_not_too_short(tmp_path, capfd, monkeypatch):
    # bytes piped in (printf '\xff\xfe…') were taken for a password too short, and a
    # longer run of them was a traceback (the hash could not encode them)
    import io
    import subprocess
    import sys

    users = tmp_path / "operators"
    for data, at in ((b"\xff\xfe\xfdabc\n", 0), (b"a-long-\xe9-password\n", 7)):
        stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
        monkeypatch.setattr("sys.stdin", stdin)
        err = one_line_error(capfd, "web-passwd", "--users", str(users), "ben")
        assert f"the password on standard input is not UTF-8 text (byte {at})" in err, err
        assert not users.exists()
    # a stream that decoded them itself (to surrogates)
    monkeypatch.setattr("sys.stdin", io.StringIO("a-long-\udce9-password\n"))
    err = one_line_error(capfd, "web-passwd", "--users", str(users), "ben")
    assert "the password on standard input is not UTF-8 text (character 8)" in err, err
    # as a shell pipes them
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "web-passwd", "--users", str(users), "ben"],
        input=b"\xff\xfe\xfdabc\n",
        capture_output=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 2 and done.stderr.decode() == (
        "kiebitz: error: the password on standard input is not UTF-8 text (byte 0)\n"
    )
    assert not users.exists()
    # a password of UTF-8 text beyond ASCII is one
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("pässwört-lang\n".encode())))
    assert main(["web-passwd", "--users", str(users), "ben"]) == 0
    from controller.web.auth import Users

    assert Users.load(users).verify("ben", "pässwört-lang")


def test_a_command_run_in_a_folder_removed_under_the_shell_is_one_line(tmp_path):
    # `kiebitz run` resolving its records' relative path there was a FileNotFoundError
    # traceback; a command that needs no folder still works
    import subprocess
    import sys
    from pathlib import Path

    kiebitz = Path(sys.executable).parent / "kiebitz"
    gone = tmp_path / "gone"
    gone.mkdir()
    # (a file of observations, read before the run starts anything: one line will do)
    observations = tmp_path / "observations.jsonl"
    observations.write_text('{"kind": "placed", "card": "5H", "zone": "starter", "t": 1}\n')
    script = (
        f'cd "{gone}" && rmdir "{gone}" && "{kiebitz}" run --headless --observations '
        f'"{observations}"; echo "status $?"; "{kiebitz}" cribbage score 5H 5D 5S JC --starter 5C'
    )
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stderr == (
        "kiebitz: error: the current folder was removed: change to one that exists\n"
    ), done.stderr
    assert done.stdout.startswith("status 2\n29: fifteen two"), done.stdout


def test_a_device_or_binary_file_of_nuls_is_one_line_not_read_for_ever(capfd):
    # `skat replay /dev/zero` and `referee --replay /dev/zero` read one line of NULs
    # that never ends, for ever (its length counted, nothing held)
    for argv in (
        ["skat", "replay", "/dev/zero"],
        ["cribbage", "score", "--batch", "/dev/zero"],
        ["referee", "--replay", "/dev/zero", "--game", "cribbage"],
    ):
        err = one_line_error(capfd, *argv)
        assert err.rstrip().endswith("/dev/zero: not text: 512 of its first 512 bytes are NUL"), err


def test_an_operators_file_that_never_ends_is_one_line(capfd, monkeypatch):
    # `web-passwd --users /dev/zero NAME` read the operators' file for ever
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    err = one_line_error(capfd, "web-passwd", "--users", "/dev/zero", "op")
    assert err.rstrip().endswith(
        "/dev/zero: more than 1,048,576 bytes: no operators' file, not read"
    ), err


def _within(seconds: float, fn, unblock: list[str]):
    """``fn()`` in a thread, failing where it is not done in ``seconds`` (a named pipe
    nobody writes to was waited on for ever); the pipes in ``unblock`` are then opened
    for writing, so the thread ends."""
    import os
    import threading

    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in unblock:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail(f"still waiting after {seconds} s")
    return done[0]


def test_a_named_pipe_nobody_writes_to_is_one_line_not_a_wait(tmp_path, capfd, monkeypatch):
    # configs, layouts, the operators' file, a key, a database, labels.csv: open()
    # of a FIFO with no writer blocked for ever (config check, the services, the web
    # view re-reading its operators)
    import io
    import os

    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    says = f"{fifo}: cannot read: a named pipe (FIFO) with no writer: nothing to read"
    frames = tmp_path / "frames"
    frames.mkdir()
    labels = tmp_path / "eval"
    labels.mkdir()
    (labels / "labels.csv").symlink_to(fifo)
    config = tmp_path / "kiebitz.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    for argv, expected in (
        (["config", "check", fifo], says),
        (["board", "check", fifo], says),
        (["vision", "watch", str(frames), "--table", fifo], says),
        (["web-passwd", "--users", fifo, "op"], "cannot read the operators: a named pipe"),
        (["vision", "eval", str(labels)], "labels.csv: a named pipe (FIFO) with no writer"),
        (["web", "--broker", "memory://w", "--port", "0", "--secret-file", fifo], "a named pipe"),
        (["config", "check", str(config)], f"cannot read {fifo!r}: a named pipe (FIFO)"),
    ):
        config.write_text(f'[referee]\ndb = "{fifo}"\n')
        err = _within(10, lambda argv=argv: one_line_error(capfd, *argv), [fifo])
        assert expected in err, (argv, err)
    # a pipe that is written to (a shell's <(…)) reads as a file does
    import subprocess
    import sys

    kiebitz = Path(sys.executable).parent / "kiebitz"
    board = REPO / "config" / "boards" / "two-player-61.toml"
    done = subprocess.run(
        ["bash", "-c", f'"{kiebitz}" board check <(cat "{board}")'],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("ok: two-player-61"), done


def test_a_key_or_password_file_without_end_is_one_line_not_read_whole(tmp_path, capfd):
    # a password or session key file was read whole: /dev/zero until memory ran out
    # (9 GB, then a MemoryError traceback), a 10 GB sparse file at once, a 200 MB one
    # taken for a key
    import os

    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as fh:
        fh.truncate(10 << 30)
    big = tmp_path / "big"
    big.write_text("k" * 100_000)
    says = "bytes: not a password or key, not read"
    for path in (sparse, big):
        config = tmp_path / "kiebitz.toml"
        config.write_text(f'[web]\nsecret_file = "{path}"\n')
        err = one_line_error(capfd, "config", "check", str(config))
        assert f"web.secret_file: '{path}' is more than 65,536 {says}" in err, err
        config.write_text(
            f'[broker]\nurl = "mqtt://127.0.0.1:1"\nusername = "t1"\npassword_file = "{path}"\n'
        )
        err = one_line_error(capfd, "config", "check", str(config))
        assert f"broker.password_file: '{path}' is more than 65,536 {says}" in err, err
        err = one_line_error(
            capfd, "web", "--broker", "memory://w", "--port", "0", "--secret-file", str(path)
        )
        assert f"--secret-file {path}: more than 65,536 bytes: not a key, not read" in err, err
    os.remove(sparse)


def test_a_labels_file_with_a_header_too_long_or_too_large_is_named(tmp_path, capfd, monkeypatch):
    # a header line longer than csv's field limit was an UnboundLocalError traceback
    # (200 MB of it held 1.4 GB); a labels.csv is read to a bound
    import vision.evaluate
    from vision.errors import SourceError

    folder = tmp_path / "eval"
    folder.mkdir()
    (folder / "labels.csv").write_text("f" * 200_000 + "\n")
    err = one_line_error(capfd, "vision", "eval", str(folder))
    assert "labels.csv is not readable CSV (line 1): field larger than field limit" in err, err
    (folder / "labels.csv").write_text("file,cards\n" + "x.png,10H\n" * 20)
    monkeypatch.setattr(vision.evaluate, "MAX_LABELS_BYTES", 100)
    with pytest.raises(SourceError, match=r"labels.csv: more than 100 bytes: no labels, not read"):
        vision.evaluate.read_labels(folder)


def test_a_binary_file_read_as_lines_is_one_line_not_an_error_a_line(tmp_path, capfd):
    # random bytes (/dev/urandom, a picture) read as batch or record lines were an
    # error line for each "line", for ever from a device
    import random

    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(7).randbytes(8192))
    labels = tmp_path / "eval"
    labels.mkdir()
    (labels / "labels.csv").write_bytes(noise.read_bytes())
    for argv in (
        ["cribbage", "score", "--batch", str(noise)],
        ["skat", "replay", str(noise)],
        ["referee", "--replay", str(noise), "--game", "cribbage"],
        ["vision", "eval", str(labels)],
    ):
        err = one_line_error(capfd, *argv)
        assert "bytes are control codes or not UTF-8 (a binary file or a device?)" in err, err


def test_a_device_that_is_no_camera_or_a_pipe_is_no_source(tmp_path, capfd):
    # /dev/zero was opened as a camera, "lost" and retried for ever (vision watch, run,
    # table), and passed the config check
    import os

    from vision.errors import SourceError
    from vision.sources import open_source

    with pytest.raises(SourceError, match=r"^/dev/zero is not a camera \(a device, not a video"):
        open_source("/dev/zero")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match="is not a video, a folder of pictures or a camera"):
        open_source(str(fifo))
    config = tmp_path / "kiebitz.toml"
    config.write_text('[table]\nid = "t1"\nsource = "/dev/zero"\nlayout = "cribbage-2"\n')
    err = one_line_error(capfd, "config", "check", str(config))
    assert "table.source: /dev/zero is not a camera" in err, err
    err = one_line_error(capfd, "vision", "watch", "/dev/zero")
    assert "/dev/zero is not a camera" in err, err


def test_photo_faces_that_are_no_folder_of_pictures_are_named(tmp_path, capfd, monkeypatch):
    # a file, a device or an empty folder trained on no photo at all and said nothing
    def trained(config):
        raise AssertionError("trained")

    monkeypatch.setattr("vision.train.train", trained)
    empty = tmp_path / "faces"
    empty.mkdir()
    for path, why in (
        ("/dev/zero", "not a folder"),
        (str(tmp_path / "nosuch"), "no such folder"),
        (str(empty), "no pictures in it (<rank><suit>.jpg)"),
    ):
        err = one_line_error(capfd, "vision", "train", "--photo-faces", path)
        assert f"--photo-faces {path}: {why}" in err, err


def test_the_operators_file_in_the_config_is_checked_where_it_is(tmp_path, capfd):
    # web.users was any text: a folder or /dev/zero passed the check, and the web view
    # then refused to start
    for path, why in ((tmp_path, "cannot read the operators: Is a directory"),
                      ("/dev/zero", "more than 1,048,576 bytes: no operators' file")):  # fmt: skip
        config = tmp_path / "kiebitz.toml"
        config.write_text(f'[web]\nusers = "{path}"\n')
        err = one_line_error(capfd, "config", "check", str(config))
        assert f"web.users: {path}: {why}" in err, err
    config.write_text(f'[web]\nusers = "{tmp_path / "not-yet"}"\n')
    assert main(["config", "check", str(config)]) == 0


def test_a_ca_file_that_is_no_certificate_is_named_by_the_config_check(tmp_path, capfd):
    # broker.ca_file was any readable file (/dev/zero, an empty file passed), and a
    # named pipe nobody writes to held `kiebitz status --config` for ever
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    empty = tmp_path / "empty.crt"
    empty.write_text("")
    config = tmp_path / "kiebitz.toml"
    for path, why in (
        ("/dev/zero", "is more than 4,194,304 bytes: no CA file, not read"),
        (str(empty), "holds no PEM certificate"),
        (str(fifo), "a named pipe (FIFO) with no writer"),
    ):
        config.write_text(f'[broker]\nurl = "mqtts://127.0.0.1:1"\nca_file = "{path}"\n')
        err = _within(10, lambda: one_line_error(capfd, "config", "check", str(config)), [])
        assert "broker.ca_file: " in err and why in err, err


def test_a_board_layout_given_without_a_board_is_still_read(tmp_path, capfd):
    # it was read only with --board: a broken layout passed, to fail the day the board
    # was plugged in
    lines = tmp_path / "game.jsonl"
    lines.write_text("")
    err = one_line_error(
        capfd, "table", "--table-id", "t1", "--broker", "memory://layout",
        "--observations", str(lines), "--board-layout", str(tmp_path / "no.toml"),
    )  # fmt: skip
    assert err.startswith(f"kiebitz: error: --board-layout: {tmp_path / 'no.toml'}: "), err


def test_a_rank_without_its_suit_or_an_empty_card_is_named(capfd):
    # "10" was "unknown suit '0'"; an empty argument ("", a shell variable unset) was
    # dropped and the other three cards counted as the hand (a bad-input sweep's finds)
    err = one_line_error(capfd, "cribbage", "peg", "10")
    assert "invalid card '10': a rank without its suit (add S H D C, e.g. 10H)" in err
    err = one_line_error(capfd, "cribbage", "score", "", "5S", "5C", "JD", "--starter", "5D")
    assert "card 1 of 4 is empty: give a rank and a suit, e.g. 5H" in err
    err = one_line_error(capfd, "cribbage", "peg", "5H", " ")
    assert "card 2 of 2 is empty" in err
    assert main(["cribbage", "score", "5S", "5C", "JD", "--starter", "5D"]) == 0  # five-card


def test_an_observation_file_reads_the_cards_as_the_referee_does():
    # `referee --replay` read TH, 10h, Q♠; `run --observations` refused the same file
    # ("body.card: 'TH' does not match ...": a bad-input sweep's find)
    import io

    from controller.table.observations import read_observation_lines

    text = "".join(
        f'{{"kind": "placed", "card": "{c}", "zone": "play.1", "t": {i}}}\n'
        for i, c in enumerate(["TH", "10h", "Q♠", "5D"])
    )
    assert [b["card"] for b in read_observation_lines(io.StringIO(text))] == [
        "10H",
        "10H",
        "QS",
        "5D",
    ]
    with pytest.raises(ValueError, match=r"line 1: body.card: 'ZZ' does not match"):
        list(read_observation_lines(io.StringIO('{"kind": "placed", "card": "ZZ", "t": 1}\n')))


def test_an_observation_in_a_zone_the_referee_does_not_read_is_said(tmp_path, capfd):
    # `play.9` (no table's seat) and `nowhere` were read and dropped without a word
    log = tmp_path / "obs.jsonl"
    log.write_text(
        '{"kind": "placed", "card": "9H", "zone": "play.9", "t": 1}\n'
        '{"kind": "placed", "card": "5H", "zone": "nowhere", "t": 2}\n'
        '{"kind": "placed", "card": "5D", "zone": "starter", "t": 3}\n'
    )
    assert main(["referee", "--replay", str(log), "--game", "cribbage", "--dealer", "0"]) == 0
    err = capfd.readouterr().err.splitlines()
    assert err[0] == f"kiebitz: {log}: line 1: ignored: zone 'play.9' names no seat of a table"
    assert err[1].startswith(f"kiebitz: {log}: line 2: ignored: zone 'nowhere' is none the")
    assert len(err) == 2


def test_a_refused_observation_file_leaves_no_databases(tmp_path, capfd):
    # the referee's log and the records were made before the file was read, and left
    # behind empty when it was refused (a bad-input sweep's find)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "placed", "card": "ZZ", "zone": "play.1", "t": 1}\n')
    ref, recs = tmp_path / "ref.db", tmp_path / "recs.db"
    args = ["run", "--headless", "--observations", str(bad), "--db", str(ref)]
    err = one_line_error(capfd, *args, "--records", str(recs))
    assert "line 1: body.card: 'ZZ' does not match" in err
    assert not ref.exists() and not recs.exists()
    err = one_line_error(capfd, *args[:-1], str(tmp_path / "none" / "ref.db"))
    assert f"--db {tmp_path / 'none' / 'ref.db'}: no such folder {tmp_path / 'none'}" in err


def test_an_iss_record_in_latin_1_is_read_as_written(tmp_path, capfd):
    # bytes not UTF-8 in a record line became U+FFFD ("move 0 'S\ufffd'"); records kept
    # from before UTF-8 are Latin-1 (a player's name with an umlaut)
    from tests.test_skat_iss import DEAL

    good = f"(;GM[Skat]ID[p]P0[M\xfcller]MV[w {DEAL} 1 p 2 p 0 p ]R[passed] ;)\n"
    bad = f"(;GM[Skat]ID[q]P0[M\xfcller]MV[w {DEAL} 1 p 2 p 0 \xe4 ]R[passed] ;)\n"
    path = tmp_path / "old.iss"
    path.write_bytes((good + bad).encode("latin-1"))
    assert main(["skat", "replay", str(path)]) == 1
    out = capfd.readouterr().out.splitlines()
    assert out[0].startswith("p: passed in") and "agrees" in out[0]
    assert out[1] == "error: line 2: move 0 '\xe4': unknown game code '\xe4'"


def test_a_host_or_port_the_web_view_cannot_listen_on_is_named_in_one_line(tmp_path, capfd):
    """uvicorn printed its own error line, and the view said '--port N: could not
    listen on HOST' whichever was at fault, a flag not given where the config gave
    it (a probe). The socket is bound first: one line naming the setting at fault."""
    import socket

    err = one_line_error(capfd, "web", "--broker", "memory://w", "--host", "999.1.1.1")
    assert err.startswith("kiebitz: error: --host: cannot listen on 999.1.1.1: "), err
    err = one_line_error(capfd, "web", "--broker", "memory://w", "--host", "192.0.2.1")
    assert "--host: cannot listen on 192.0.2.1 port 8080: " in err  # not this machine's
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        err = one_line_error(capfd, "web", "--broker", "memory://w", "--port", str(port))
        assert f"--port: cannot listen on 127.0.0.1 port {port}: Address already in use" in err
        config = tmp_path / "kiebitz.toml"
        config.write_text(
            f'[broker]\nurl = "memory://w"\n\n[web]\nhost = "127.0.0.1"\nport = {port}\n'
        )
        err = one_line_error(capfd, "web", "--config", str(config))
        assert f"web.port in {config}: cannot listen on 127.0.0.1 port {port}" in err
    finally:
        taken.close()


def test_the_default_port_the_web_view_cannot_listen_on_is_named_as_the_default(tmp_path, capfd):
    """A config whose [web] gave no port was said to: 'web.port in F' for the default
    8080 taken by another program, a setting the installer would look for in vain."""
    import socket

    taken = socket.socket()
    # as the view's own socket does: a connection to 8080 lately closed (TIME_WAIT)
    # would refuse this bind and not the view's, which would then serve for good
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        taken.bind(("127.0.0.1", 8080))
        taken.listen()
    except OSError:
        pass  # another program has it: the view cannot listen there all the same
    config = tmp_path / "kiebitz.toml"
    config.write_text('[broker]\nurl = "memory://w"\n\n[web]\nhttps_only = false\n')
    try:
        for extra in ([], ["--config", str(config)]):
            err = one_line_error(capfd, "web", "--broker", "memory://w", *extra)
            assert "kiebitz: error: the default port (see --port): cannot listen on " in err
            assert "127.0.0.1 port 8080: Address already in use" in err
    finally:
        taken.close()


def test_the_web_view_listens_on_localhost_over_ipv4_as_uvicorn_did():
    # the first answer for "localhost" may be ::1 (an /etc/hosts that lists it first),
    # where IPv6 may be off: the family is chosen as uvicorn chose it (a review's find)
    import socket

    from controller.bus.bus import MemoryBus
    from controller.web.server import WebServer

    view = WebServer(MemoryBus(), host="localhost", port=0, read_only=True)
    sock = view._listen()
    try:
        assert sock.family == socket.AF_INET
    finally:
        sock.close()
