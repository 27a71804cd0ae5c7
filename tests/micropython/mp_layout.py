# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""The layout maths under MicroPython: the same LED map as CPython (printed for the host)."""

import json
import sys

from pegboard.layout import Layout, LayoutError, example


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_example_map():
    layout = Layout(example(game=61))
    check(layout.led_count == 148, "leds %d" % layout.led_count)
    check([layout.peg_led(0, s) for s in (0, 1, 30, 31, 61)] == [1, 2, 31, 32, 62], "pegs")


def test_bad_layout_names_key():
    data = example(game=61)
    data["leds"]["colours"] = ["#ff0000", "red"]
    try:
        Layout(data)
    except LayoutError as exc:
        check(str(exc).startswith("leds.colours[1]:"), str(exc))
    else:
        raise AssertionError("no error")


def test_dump_maps():
    """With KIEBITZ_LAYOUTS (a JSON file of layouts) print every layout's LED map."""
    import os

    path = os.getenv("KIEBITZ_LAYOUTS")
    if not path:
        return
    with open(path) as handle:
        layouts = json.load(handle)
    for data in layouts:
        layout = Layout(data)
        out = sys.stdout
        out.write("MAP %s %d\n" % (layout.name, layout.fingerprint()))
        for led in range(layout.led_count):
            track, kind, index = layout.led_kind(led)
            out.write("LED %d %d %s %d\n" % (led, track, kind, index))
        for track in range(layout.tracks):
            pegs = [layout.peg_led(track, s) for s in range(layout.game + 1)]
            out.write("PEGS %d %s\n" % (track, " ".join(str(x) for x in pegs)))
