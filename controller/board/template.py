"""The drilling template: an SVG at 1:1 scale (mm) generated from the layout.

Print at 100 % (check the 50 mm scale bar), tape to the board, centre-punch
each cross. Every hole carries ``data-led``/``data-track``/``data-kind``/
``data-index`` so tests (and the builder) can match it to the LED chain; the
dashed squares are the LED bodies, numbered in chain order. Lurch and skunk
lines are drawn between the holes they separate, for engraving.

>>> from controller.board.layouts import load_layout
>>> text = template_svg(load_layout("two-player-61"))
>>> text.count('class="hole"')
148
>>> 'data-kind="game"' in text and "lurch" in text
True
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from pegboard.layout import Hole, Layout

from controller.board import _firmware  # noqa: F401

__all__ = ["line_segments", "template_svg"]


def line_segments(layout: Layout) -> list[tuple[int, str, float, float, float, float]]:
    """``(track, name, x1, y1, x2, y2)`` of each lurch/skunk line, across the path.

    Drawn between hole N and hole N + 1 of each track.
    """
    where = {(h.track, h.kind, h.index): h for h in layout.holes()}
    out = []
    for track in range(layout.tracks):
        for after, name in layout.lines:
            a, b = where[(track, "hole", after)], where[(track, "hole", after + 1)]
            mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
            dx, dy = b.x - a.x, b.y - a.y
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length, dx / length
            half = 0.4 * layout.row_gap
            out.append(
                (track, name, mx - nx * half, my - ny * half, mx + nx * half, my + ny * half)
            )
    return out


def _label(hole: Hole, layout: Layout) -> str | None:
    if hole.kind == "hole" and hole.index % layout.group == 0:
        return str(hole.index)
    return {"game": "G", "deal": "D", "turn": "T", "start": "S"}.get(hole.kind)


def template_svg(layout: Layout) -> str:
    width, height = layout.size()
    r = layout.hole_mm / 2
    led = layout.led_mm
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{width:.2f}mm" height="{height:.2f}mm" viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>Kiebitz peg board {escape(layout.name)}: "
        "drilling template, print at 100 %</title>",
        f'<rect class="outline" x="0" y="0" width="{width:.2f}" height="{height:.2f}" '
        'fill="none" stroke="black" stroke-width="0.3"/>',
        f'<g font-family="sans-serif" font-size="2.2" fill="black">'
        f'<text x="3" y="4">{escape(layout.name)} — holes {layout.hole_mm:g} mm, '
        f"pitch {layout.pitch:g} mm, rows {layout.row_gap:g} mm apart, "
        f"LEDs {led:g} mm, {layout.led_count} LEDs</text></g>",
    ]
    for hole in layout.holes():
        x, y = hole.x, hole.y
        out.append(
            f'<g class="hole" data-led="{hole.led}" data-track="{hole.track}" '
            f'data-kind="{hole.kind}" data-index="{hole.index}" data-x="{x:.2f}" data-y="{y:.2f}">'
            f'<rect x="{x - led / 2:.2f}" y="{y - led / 2:.2f}" '
            f'width="{led:.2f}" height="{led:.2f}" '
            'fill="none" stroke="#999" stroke-width="0.15" stroke-dasharray="0.6 0.4"/>'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="none" stroke="black" '
            'stroke-width="0.2"/>'
            f'<path d="M{x - r:.2f} {y:.2f}h{2 * r:.2f}M{x:.2f} {y - r:.2f}v{2 * r:.2f}" '
            'stroke="black" stroke-width="0.1"/>'
            "</g>"
        )
        label = _label(hole, layout)
        if label:
            out.append(
                f'<text x="{x:.2f}" y="{y + r + 2.2:.2f}" font-family="sans-serif" '
                f'font-size="1.8" text-anchor="middle">{label}</text>'
            )
    for track, name, x1, y1, x2, y2 in line_segments(layout):
        out.append(
            f'<line class="board-line" data-track="{track}" data-name="{escape(name)}" '
            f'x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="red" '
            'stroke-width="0.4"/>'
        )
        out.append(
            f'<text x="{x2:.2f}" y="{y2 - 0.8:.2f}" font-family="sans-serif" font-size="1.8" '
            f'fill="red">{escape(name)}</text>'
        )
    bar_y = height - 5
    out.append(
        f'<g class="scale"><path d="M5 {bar_y:.2f}h50" stroke="black" stroke-width="0.5"/>'
        f'<text x="5" y="{bar_y - 1.2:.2f}" font-family="sans-serif" font-size="2.2">'
        "50 mm: measure after printing</text></g>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
