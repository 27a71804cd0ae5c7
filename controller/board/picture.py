"""Pictures of the board: the terminal, SVG and PNG renderings of what the LEDs show.

The places come from :meth:`pegboard.layout.Layout.holes` (the same numbers as
the drilling template), the colours from the words the firmware sent to the
(fake) LEDs.

>>> from controller.board.layouts import load_layout
>>> from controller.board.emulator import Snapshot
>>> layout = load_layout("two-player-61")
>>> leds = [0] * layout.led_count
>>> leds[layout.peg_led(0, 5)] = 0x003f08
>>> print(terminal(layout, Snapshot(tuple(leds), {0: "   5"}), colour=False).splitlines()[3])
track 0  ··   ····● ····· ····· ····· ····· ·····
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

from pegboard.layout import Layout

from controller.board import _firmware  # noqa: F401
from controller.board.emulator import Snapshot

__all__ = ["png", "svg", "terminal", "visible_rgb"]

BOARD_COLOUR = (92, 62, 38)
DARK_HOLE = (40, 28, 20)


def visible_rgb(layout: Layout, word: int) -> tuple[int, int, int]:
    """An LED's colour brightened for a picture (the cap makes real LEDs dim on screen)."""
    r, g, b = Snapshot.rgb(word)
    gain = 100 / layout.cap_percent
    return tuple(min(255, round(c * gain)) for c in (r, g, b))  # type: ignore[return-value]


def _cell(layout: Layout, word: int, colour: bool) -> str:
    if not word:
        return "·"
    if not colour:
        return "●"
    r, g, b = visible_rgb(layout, word)
    return f"\x1b[38;2;{r};{g};{b}m●\x1b[0m"


def terminal(layout: Layout, snap: Snapshot, *, colour: bool = True) -> str:
    """Each track as rows of holes (row 0 at the bottom), then games won, deal, turn, digits."""
    words = snap.leds
    lines = [f"{layout.name}: {layout.game} holes a track, {layout.tracks} tracks"]
    for track in range(layout.tracks):
        lines.append("")
        for row in range(layout.rows - 1, -1, -1):
            left = ""
            if row == 0:
                starts = [layout.back_start_led(track), layout.peg_led(track, 0)]
                left = "".join(
                    _cell(layout, words[i], colour) for i in starts[: layout.start_holes]
                )
            elif row == layout.rows - 1 and layout.rows % 2 == 0:
                left = " " + _cell(layout, words[layout.peg_led(track, layout.game)], colour)
            cells = []
            for column in range(layout.holes_per_row):
                k = column if row % 2 == 0 else layout.holes_per_row - 1 - column
                led = layout.peg_led(track, row * layout.holes_per_row + k + 1)
                if column and column % layout.group == 0:
                    cells.append(" ")
                cells.append(_cell(layout, words[led], colour))
            right = ""
            if row == layout.rows - 1 and layout.rows % 2 == 1:
                right = " " + _cell(layout, words[layout.peg_led(track, layout.game)], colour)
            label = f"track {track}" if row == 0 else ""
            lines.append(f"{label:<8} {left:>2}   {''.join(cells)}{right}")
        won = "".join(
            _cell(layout, words[layout.won_led(track, n)], colour)
            for n in range(1, layout.games_won_holes + 1)
        )
        deal = _cell(layout, words[layout.deal_led(track)], colour)
        turn = _cell(layout, words[layout.turn_led(track)], colour)
        lines.append(f"{'':<8}      games {won}   deal {deal} turn {turn}")
    if snap.displays:
        lines.append("")
        lines.append(
            "  ".join(f"seat {seat} [{text}]" for seat, text in sorted(snap.displays.items()))
        )
    return "\n".join(lines)


def svg(layout: Layout, snap: Snapshot) -> str:
    """The board as an SVG picture, one circle per LED (``data-led`` names it), in mm."""
    width, height = layout.size()
    radius = layout.led_mm / 2
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{width:.1f}mm" height="{height:.1f}mm" viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{layout.name}</title>",
        f'<rect width="{width:.2f}" height="{height:.2f}" rx="6" fill="rgb{BOARD_COLOUR}"/>',
    ]
    for hole in layout.holes():
        word = snap.leds[hole.led]
        fill = visible_rgb(layout, word) if word else DARK_HOLE
        out.append(
            f'<circle data-led="{hole.led}" data-track="{hole.track}" data-kind="{hole.kind}" '
            f'data-index="{hole.index}" cx="{hole.x:.2f}" cy="{hole.y:.2f}" r="{radius:.2f}" '
            f'fill="rgb{fill}"/>'
        )
    y = height - 3
    for seat, text in sorted(snap.displays.items()):
        out.append(
            f'<text x="{4 + 40 * seat}" y="{y:.1f}" font-family="monospace" font-size="6" '
            f'fill="#ff4030">{seat}:[{text.replace(" ", "&#160;")}]</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _png_bytes(width: int, height: int, rows: Sequence[bytearray]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def png(layout: Layout, snap: Snapshot, *, px_per_mm: float = 2.0) -> bytes:
    """The same picture as :func:`svg`, rasterised (no imaging library needed)."""
    width_mm, height_mm = layout.size()
    width, height = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    rows = [bytearray(bytes(BOARD_COLOUR) * width) for _ in range(height)]
    radius = layout.led_mm / 2 * px_per_mm
    for hole in layout.holes():
        word = snap.leds[hole.led]
        colour = bytes(visible_rgb(layout, word) if word else DARK_HOLE)
        cx, cy = hole.x * px_per_mm, hole.y * px_per_mm
        for y in range(max(0, int(cy - radius)), min(height, int(cy + radius) + 1)):
            for x in range(max(0, int(cx - radius)), min(width, int(cx + radius) + 1)):
                if (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius * radius:
                    rows[y][3 * x : 3 * x + 3] = colour
    return _png_bytes(width, height, rows)
