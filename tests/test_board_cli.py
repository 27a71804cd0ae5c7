"""``kiebitz board …`` end to end: show (against the emulator), emulate, template, flash,
power, check."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_board_support import shows

from controller.board.emulator import Emulator
from controller.board.layouts import load_layout
from controller.board.model import BoardState
from controller.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_show_sets_the_emulated_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layout = load_layout("two-player-61")
    with Emulator(layout, link=tmp_path / "tty") as emulator:
        status, out, _ = run(
            capsys,
            "board",
            "show",
            "--port",
            emulator.port,
            "--layout",
            "two-player-61",
            "--pegs",
            "12:6,30:22",
            "--games",
            "1,0",
            "--dealer",
            "0",
            "--turn",
            "1",
            "--scores",
            "12,30",
            "--selftest",
        )
        assert status == 0, out
        assert "synced; firmware 1.0.1" in out
        state = BoardState.parse(pegs="12:6,30:22", games="1,0", dealer=0, turn=1, scores="12,30")
        assert emulator.wait_for(shows(layout, state), 2) is not None


def test_show_rejects_bad_input_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "board", "show", "--port", "loop://", "--layout", "two-player-61", "--pegs", "99:1"
    )
    assert status == 2
    assert err == "kiebitz: error: track 0: front peg 99 is past the game hole (61)\n"
    status, _, err = run(capsys, "board", "show", "--port", "loop://", "--pegs", "x")
    assert status == 2 and "--pegs: expected FRONT:BACK pairs, got 'x'" in err
    # FRONT:BACK given the wrong way round was shown as it came
    status, _, err = run(capsys, "board", "show", "--port", "loop://", "--pegs", "6:12")
    assert status == 2
    assert err == (
        "kiebitz: error: --pegs 6:12: the back peg 12 is ahead of the front peg 6 "
        "(FRONT:BACK, the back peg trails)\n"
    )
    status, _, err = run(capsys, "board", "show", "--port", "loop://", "--layout", "nine-player")
    assert status == 2 and "no board layout named 'nine-player'" in err
    # a count for a track the board has not was dropped without a word
    status, _, err = run(
        capsys,
        "board",
        "show",
        "--port",
        "loop://",
        "--layout",
        "two-player-61",
        "--games",
        "1,0,2",
    )
    assert status == 2
    assert err == "kiebitz: error: 3 games-won counts for a board of 2 tracks\n"


def test_show_without_a_board_times_out(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "board", "show", "--port", "loop://", "--timeout", "0.3", "--pegs", "1:0"
    )
    assert status == 1 and "did not show the state within 0.3 s" in err


def test_show_on_a_device_that_is_not_there_says_so_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it waited out --timeout and exited 1, as if a board had failed to answer
    status, out, err = run(capsys, "board", "show", "--port", "/dev/ttyNOSUCH", "--timeout", "60")
    assert (status, out) == (2, "")
    assert err == (
        "kiebitz: error: --port /dev/ttyNOSUCH: no such device "
        "(is the board plugged in? ls /dev/ttyACM*)\n"
    )


@pytest.mark.parametrize("option", ["--link", "--png", "--svg"])
def test_emulate_into_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    status, _, err = run(capsys, "board", "emulate", option, str(tmp_path / "no" / "file"))
    assert status == 2
    assert (
        err
        == f"kiebitz: error: {option} {tmp_path / 'no' / 'file'}: no folder '{tmp_path / 'no'}'\n"
    )


def test_emulate_stopped_by_sigterm_removes_its_link(tmp_path: Path) -> None:
    # a service manager stops it with SIGTERM: the link must not be left naming a
    # pseudo-terminal that is freed (and may be handed to another program)
    link = tmp_path / "tty"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller.cli",
            "board",
            "emulate",
            "--link",
            str(link),
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == f"port: {link}"
    assert link.is_symlink()
    proc.terminate()
    assert proc.wait(timeout=20) == 0
    assert not link.is_symlink()


def test_emulate_prints_its_port_and_draws(tmp_path: Path) -> None:
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller.cli",
            "board",
            "emulate",
            "--layout",
            "two-player-61",
            "--link",
            str(tmp_path / "tty"),
            "--duration",
            "3",
            "--no-colour",
            "--svg",
            str(svg),
            "--png",
            str(png),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    assert port == f"port: {tmp_path / 'tty'}"
    result: dict[str, int] = {}
    thread = threading.Thread(
        target=lambda: result.setdefault(
            "status",
            main(
                [
                    "board",
                    "show",
                    "--port",
                    str(tmp_path / "tty"),
                    "--layout",
                    "two-player-61",
                    "--pegs",
                    "5:0,9:4",
                    "--scores",
                    "5,9",
                ]
            ),
        )
    )
    thread.start()
    thread.join(10)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0 and result["status"] == 0
    assert "track 0  ●·   ····● ····· ····· ····· ····· ·····" in out
    assert "seat 0 [   5]  seat 1 [   9]" in out
    assert svg.read_text().count("<circle") == 148
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_template_writes_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run(
        capsys, "board", "template", "--layout", "three-player-61", "-o", str(tmp_path / "t.svg")
    )
    assert status == 0
    text = (tmp_path / "t.svg").read_text()
    assert text.count('class="hole"') == 222 and text.count('data-kind="game"') == 3


def test_flash_dry_run_builds_the_mpremote_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys,
        "board",
        "flash",
        "--port",
        "/dev/ttyACM0",
        "--layout",
        "two-player-61",
        "--stage",
        str(tmp_path),
        "--dry-run",
    )
    assert status == 0
    assert (
        "mpremote connect /dev/ttyACM0 fs cp -r pegboard : + fs cp board_config.py :board_config.py"
        " + fs cp main.py :main.py + reset" in out
    )
    assert (tmp_path / "main.py").exists() and (tmp_path / "pegboard" / "app.py").exists()
    namespace: dict[str, object] = {}
    exec((tmp_path / "board_config.py").read_text(), namespace)
    assert namespace["LAYOUT"]["name"] == "two-player-61"  # type: ignore[index]


def test_flash_without_mpremote_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(
        capsys,
        "board",
        "flash",
        "--layout",
        "two-player-61",
        "--mpremote",
        str(tmp_path / "none"),
    )
    assert status == 2 and "cannot run" in err
    # an mpremote that fails (no Pico there) ended with status 1 and no word of ours
    status, _, err = run(
        capsys, "board", "flash", "--layout", "two-player-61", "--mpremote", "/bin/false"
    )
    assert status == 1
    assert err.strip() == (
        "kiebitz: error: /bin/false ended with status 1: the Pico was not flashed "
        "(is it plugged in, running MicroPython?)"
    )


def test_check_names_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    text = Path("config/boards/two-player-61.toml").read_text().replace("pin = 2 ", "pin = 40 ")
    bad.write_text(text)
    status, out, err = run(capsys, "board", "check", "two-player-61", str(bad))
    # bad input as every board command has it (docs/cli.md): status 2, stderr; it was
    # 'error: …' on stdout and status 1
    assert status == 2
    assert out.splitlines() == [
        "ok: two-player-61: 2 tracks of 61 holes, 148 LEDs, fingerprint 0xa5b0",
    ]
    assert err == f"kiebitz: error: {bad}: leds.pin: expected an integer from 0 to 29, got 40\n"


def test_check_of_a_bad_layout_is_one_line_on_stderr_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("empty.txt").write_text("")
    status, out, err = run(capsys, "board", "check", "empty.txt")
    assert (status, out, err) == (2, "", "kiebitz: error: empty.txt: name: missing\n")
    # a symlink loop is named as one, not taken for a shipped layout's name
    Path("loop2").symlink_to("loop1")
    Path("loop1").symlink_to("loop2")
    status, out, err = run(capsys, "board", "check", "loop1")
    assert (status, out) == (2, "")
    assert err == "kiebitz: error: loop1: cannot read: Too many levels of symbolic links\n"
    # several bad layouts: a line each, in order
    status, out, err = run(capsys, "board", "check", "loop1", "two-player-61", "empty.txt")
    assert status == 2 and out.startswith("ok: two-player-61: ")
    assert err.splitlines() == [
        "kiebitz: error: loop1: cannot read: Too many levels of symbolic links",
        "kiebitz: error: empty.txt: name: missing",
    ]


def test_show_refuses_more_games_won_than_the_board_has_holes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the board has nine games-won holes: 99 was taken and sent
    status, out, err = run(
        capsys, "board", "show", "--port", "loop://", "--layout", "two-player-61", "--games", "99,0"
    )
    assert (status, out) == (2, "")
    assert err == (
        "kiebitz: error: --games 99,0: track 0 has 99 games won, but the board "
        "(two-player-61) has 9 games-won holes (0 to 9)\n"
    )


def test_power_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "board", "power", "two-player-61")
    assert status == 0 and out.startswith("| layout | LEDs |") and "| two-player-61 | 148 |" in out


@pytest.mark.parametrize(
    ("port", "said"),
    [
        ("/dev/zero", "a device that is no serial port"),
        ("/tmp", "a folder, not a serial port"),
        ("/etc/hostname", "not a device: a serial port is one"),
    ],
)
def test_show_on_something_that_is_no_serial_port_says_so_at_once(
    capsys: pytest.CaptureFixture[str], port: str, said: str
) -> None:
    # /dev/zero or a folder waited out --timeout and exited 1, as a silent board does
    status, out, err = run(capsys, "board", "show", "--port", port, "--timeout", "60")
    assert (status, out) == (2, "")
    assert err.startswith(f"kiebitz: error: --port {port}: {said}"), err
