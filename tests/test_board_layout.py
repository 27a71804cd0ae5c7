"""Board layouts: the rule texts' holes, the LED chain, geometry, and errors with key paths."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

import controller.board  # noqa: F401 - puts firmware/ on sys.path
from controller.board.errors import LayoutFileError
from controller.board.layouts import available, load_layout, read_layout_data

# isort: split
from pegboard.layout import Layout, LayoutError, example

SHIPPED = available()


def test_shipped_layouts() -> None:
    assert SHIPPED == ["three-player-121", "three-player-61", "two-player-121", "two-player-61"]


@pytest.mark.parametrize("name", SHIPPED)
def test_holes_as_the_rule_texts_count_them(name: str) -> None:
    layout = load_layout(name)
    holes = layout.holes()
    assert len(holes) == layout.led_count
    assert sorted(h.led for h in holes) == list(range(layout.led_count))
    for track in range(layout.tracks):
        mine = [h for h in holes if h.track == track]
        kinds = [h.kind for h in mine]
        # 60 (or 120) holes plus the game hole, two start holes, nine games-won holes.
        assert kinds.count("hole") + kinds.count("game") == layout.game
        assert layout.game in (61, 121)
        assert kinds.count("game") == 1
        assert kinds.count("start") == 2
        assert kinds.count("won") == 9
        assert kinds.count("deal") == kinds.count("turn") == 1
        # Each score has its own LED; score 0 is a start hole, the game its game hole.
        pegs = [layout.peg_led(track, s) for s in range(layout.game + 1)]
        assert len(set(pegs)) == len(pegs)
        assert layout.led_kind(pegs[0])[1] == "start"
        assert layout.led_kind(pegs[-1])[1] == "game"


@pytest.mark.parametrize("name", SHIPPED)
def test_pegging_path_is_a_double_row_with_the_corner_at_the_end_of_a_row(name: str) -> None:
    layout = load_layout(name)
    where = {(h.track, h.kind, h.index): h for h in layout.holes()}
    row = layout.holes_per_row
    for track in range(layout.tracks):
        step = [
            math.dist(
                (where[(track, "hole", s)].x, where[(track, "hole", s)].y),
                (where[(track, "hole", s + 1)].x, where[(track, "hole", s + 1)].y),
            )
            for s in range(1, layout.game - 1)
        ]
        # Neighbours along a row are a pitch apart (plus the gap between groups of five) ...
        for s, d in enumerate(step, start=1):
            if s % row:
                assert d == pytest.approx(layout.pitch + (layout.group_gap if s % 5 == 0 else 0))
            else:  # ... and turning the corner crosses to the other row, straight across.
                assert d == pytest.approx(layout.row_gap)
        assert math.dist(
            (where[(track, "hole", layout.game - 1)].x, where[(track, "hole", layout.game - 1)].y),
            (where[(track, "game", 0)].x, where[(track, "game", 0)].y),
        ) == pytest.approx(layout.pitch + layout.group_gap)


@pytest.mark.parametrize("name", SHIPPED)
def test_no_two_leds_overlap(name: str) -> None:
    layout = load_layout(name)
    points = [(h.x, h.y) for h in layout.holes()]
    closest = min(math.dist(a, b) for a, b in itertools.combinations(points, 2))
    assert closest >= layout.led_mm + 1.0
    width, height = layout.size()
    assert all(0 < x < width and 0 < y < height for x, y in points)


@pytest.mark.parametrize("name", SHIPPED)
def test_serpentine_chain_runs_from_hole_to_neighbouring_hole(name: str) -> None:
    """Consecutive LEDs along the pegging path sit next to each other (short wires)."""
    layout = load_layout(name)
    holes = layout.holes()
    for a, b in itertools.pairwise(holes):
        if a.kind == b.kind == "hole" and a.track == b.track:
            assert (
                math.dist((a.x, a.y), (b.x, b.y))
                <= max(layout.pitch + layout.group_gap, layout.row_gap) + 1e-9
            )


def test_three_players_sit_round_a_triangle() -> None:
    layout = load_layout("three-player-61")
    holes = layout.holes()
    cx = sum(h.x for h in holes) / len(holes)
    cy = sum(h.y for h in holes) / len(holes)
    angles = []
    for track in range(3):
        mine = [h for h in holes if h.track == track and h.kind == "hole"]
        mx = sum(h.x for h in mine) / len(mine)
        my = sum(h.y for h in mine) / len(mine)
        angles.append(math.degrees(math.atan2(my - cy, mx - cx)) % 360)
    angles.sort()
    gaps = [(angles[(i + 1) % 3] - angles[i]) % 360 for i in range(3)]
    assert gaps == pytest.approx([120, 120, 120], abs=1)


def test_progressive_order_changes_only_the_led_numbers() -> None:
    data = example(game=61)
    serpentine = Layout(data)
    data["leds"]["order"] = "progressive"
    progressive = Layout(data)
    assert serpentine.fingerprint() != progressive.fingerprint()
    # Row 1 runs right to left in the pegging path, left to right on the wire.
    assert progressive.peg_led(0, 31) == progressive.peg_led(0, 60) + 29
    place = {(h.kind, h.index, h.track): (h.x, h.y) for h in serpentine.holes()}
    assert place == {(h.kind, h.index, h.track): (h.x, h.y) for h in progressive.holes()}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def shipped_text(name: str = "two-player-61") -> str:
    return read_layout_data(name)[0].read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("game = 61", "game = 62"), "game: 62 does not match rows x holes_per_row + 1 = 61"),
        (
            ('colours = ["#ff2000", "#0050ff"]', 'colours = ["#ff2000", "blue"]'),
            "leds.colours[1]: expected a colour '#rrggbb', got 'blue'",
        ),
        (
            ("pitch_mm = 8.0", "pitch_mm = -8"),
            "geometry.pitch_mm: expected a number of at least 2.0",
        ),
        # TOML writes nan and inf; nan passed every "at least" test
        (
            ("pitch_mm = 8.0", "pitch_mm = nan"),
            "geometry.pitch_mm: expected a number of at least 2.0, got nan",
        ),
        (
            ("pitch_mm = 8.0", "pitch_mm = inf"),
            "geometry.pitch_mm: expected a number of at least 2.0, got inf",
        ),
        (
            ("[[lines]]\nafter = 30", "[[lines]]\nafter = 300"),
            "lines[0].after: expected an integer",
        ),
        (("dio = 13", "dio = 2"), "displays[1].dio: pin 2 is already leds.pin"),
        (("seat = 1", "seat = 1\nwhat = 3"), "displays[1].what: unknown key"),
        (("tracks = 2", "tracks = 5"), "tracks: expected an integer from 2 to 3, got 5"),
        (
            ("host_timeout_s = 5", "host_timeout_s = true"),
            "firmware.host_timeout_s: expected an integer",
        ),
        (('name = "two-player-61"\n', ""), "name: missing"),
    ],
)
def test_broken_toml_names_file_and_key_path(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = shipped_text()
    assert change[0] in text
    path = write(tmp_path, text.replace(change[0], change[1], 1))
    with pytest.raises(LayoutFileError) as info:
        load_layout(path)
    assert str(info.value).startswith(f"{path}: ")
    assert message in str(info.value)


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "name = [unclosed\n")
    with pytest.raises(LayoutFileError, match=r"board.toml: not valid TOML: .*line 1"):
        load_layout(path)
    path.write_bytes(b"\xff\xfename = 1\n")  # another encoding: was a UnicodeDecodeError
    with pytest.raises(LayoutFileError, match=r"board\.toml: not UTF-8 text \(byte 0\)"):
        load_layout(path)
    with pytest.raises(LayoutFileError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
    with pytest.raises(LayoutFileError, match="no board layout named 'five-player'"):
        load_layout("five-player")


def test_a_utf8_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    # Windows Notepad writes one: it was "not valid TOML: Invalid statement (at line 1,
    # column 1)"
    path = tmp_path / "board.toml"
    path.write_bytes(b"\xef\xbb\xbf" + shipped_text().encode("utf-8"))
    assert load_layout(path).fingerprint() == load_layout("two-player-61").fingerprint()


def test_a_symlink_loop_is_named_not_taken_for_a_layout_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # it said "no board layout named 'loop1'"
    monkeypatch.chdir(tmp_path)
    Path("loop2").symlink_to("loop1")
    Path("loop1").symlink_to("loop2")
    with pytest.raises(LayoutFileError) as info:
        load_layout("loop1")
    assert str(info.value) == "loop1: cannot read: Too many levels of symbolic links"
    Path("dangling").symlink_to("nowhere")
    with pytest.raises(LayoutFileError, match=r"^dangling: cannot read: No such file"):
        load_layout("dangling")


def test_layout_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="layout: expected a table"):
        Layout([])  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match=r"geometry\.hole_mm: 9\.0 does not fit"):
        data = example(game=61)
        data["geometry"]["hole_mm"] = 9.0
        Layout(data)
