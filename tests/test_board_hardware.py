"""The hardware files agree with the code: template, emulator picture and firmware hole by hole;
the generated power and camera tables are up to date; the BOM lists what the issue asks for."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import controller.board  # noqa: F401 - puts firmware/ on sys.path
from controller.board.emulator import Snapshot
from controller.board.layouts import available, load_layout
from controller.board.picture import svg
from controller.board.power import markdown
from controller.board.template import template_svg

# isort: split
from pegboard import frame as fr
from pegboard import protocol as p
from pegboard_emu.board import make_board

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
_ATTR = re.compile(r'(data-[a-z]+|cx|cy)="([^"]*)"')


def _elements(text: str, tag: str) -> list[dict[str, str]]:
    return [dict(_ATTR.findall(m)) for m in re.findall(rf"<{tag} [^>]*>", text)]


class _Wire:
    def __init__(self) -> None:
        self.inbox = bytearray()

    def read(self) -> bytearray:
        data, self.inbox = self.inbox, bytearray()
        return data

    def write(self, data: bytes) -> None:
        pass


@pytest.mark.parametrize("name", available())
def test_template_picture_and_firmware_agree_hole_by_hole(name: str) -> None:
    layout = load_layout(name)
    template = {
        int(g["data-led"]): (
            int(g["data-track"]),
            g["data-kind"],
            int(g["data-index"]),
            float(g["data-x"]),
            float(g["data-y"]),
        )
        for g in _elements(template_svg(layout), 'g class="hole"')
    }
    picture = {
        int(c["data-led"]): (float(c["cx"]), float(c["cy"]))
        for c in _elements(svg(layout, Snapshot((0,) * layout.led_count)), "circle")
    }
    assert sorted(template) == sorted(picture) == list(range(layout.led_count))
    for led, (_t, _k, _i, x, y) in template.items():
        assert picture[led] == (x, y), led

    # The firmware: light one hole at a time through the real main loop, renderer,
    # WS2812 driver and (fake) PIO; the LED that lights is the template's hole.
    now = [0]
    wire = _Wire()
    board, hardware = make_board(layout, wire, clock=lambda: now[0])
    board.start()
    now[0] = 10_000

    def lit_after(tracks: list[tuple[int, int, int]], **extra: int) -> set[int]:
        state = p.State(tracks=tracks, **extra)
        wire.inbox += fr.encode_frame(1, 1, p.STATE, p.encode_state(state))
        board.poll()
        return {i for i, w in enumerate(hardware.led_words()) if w}

    rest = [(0, 0, 0)] * layout.tracks
    base = lit_after(rest)
    for track in range(layout.tracks):
        for score in range(1, layout.game + 1):
            tracks = list(rest)
            tracks[track] = (score, score, 0)
            lit = lit_after(tracks) - base
            kind = "game" if score == layout.game else "hole"
            (led,) = lit
            assert template[led][:3] == (track, kind, 0 if kind == "game" else score)
        for won in range(1, layout.games_won_holes + 1):
            tracks = list(rest)
            tracks[track] = (0, 0, won)
            (led,) = lit_after(tracks) - lit_after(
                [*rest[:track], (0, 0, won - 1), *rest[track + 1 :]]
            )
            assert template[led][:3] == (track, "won", won)
        (deal,) = lit_after(rest, dealer=track) - base
        (turn,) = lit_after(rest, turn=track) - base
        assert template[deal][:2] == (track, "deal") and template[turn][:2] == (track, "turn")
    starts = {template[led][:3] for led in base}
    assert starts == {(t, "start", i) for t in range(layout.tracks) for i in (0, 1)}


def test_power_budget_file_is_up_to_date() -> None:
    text = (HARDWARE / "power-budget.md").read_text(encoding="utf-8")
    table = markdown([load_layout(name) for name in available()])
    assert table in text, "regenerate: kiebitz board power, into hardware/power-budget.md"


def test_camera_mounting_file_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "camera_mounting", HARDWARE / "camera_mounting.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["camera_mounting"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["camera_mounting"]
    text = (HARDWARE / "camera-mounting.md").read_text(encoding="utf-8")
    assert module.table() in text, "regenerate: python hardware/camera_mounting.py"
    height, width, depth = module.mount(module.CAMERAS[0], 860, 860)
    assert width >= 860 * 1.1 - 1e-6 and depth >= 860 * 1.1 - 1e-6
    assert 1200 < height < 1300


def test_bom_lists_the_parts() -> None:
    bom = (HARDWARE / "BOM.md").read_text(encoding="utf-8")
    for part in (
        "Raspberry Pi 5",
        "Raspberry Pi 4",
        "Camera Module 3",
        "SC0915",  # Pico
        "WS2812B",
        "TM1637",
        "MAX7219",
        "74AHCT125",
        "5 V 4 A power supply",
        "fuse",
        "buttons",
        "buzzer",
        "ArUco",
    ):
        assert part.lower() in bom.lower(), part
    rows = [r for r in bom.splitlines() if r.startswith("| ") and not r.startswith("| part")]
    assert all(re.search(r"\| \d+\.\d\d \|", r) or "| (" in r or "| — |" in r for r in rows)
