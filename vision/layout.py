"""Table layouts: where the markers are and which zone of the table is which.

A layout lives in ``config/tables/<name>.toml``; all positions are in table
millimetres, x to the right and y away from seat 0 (south), origin at the
table's south-west corner. Example (abridged)::

    [table]
    name = "Cribbage, two players"
    game = "cribbage"
    players = 2
    width_mm = 900
    depth_mm = 900

    [markers]
    dictionary = "DICT_4X4_50"
    size_mm = 40
    positions = { 0 = [30, 30], 1 = [870, 30], 2 = [870, 870], 3 = [30, 870] }

    [[zones]]
    name = "play.0"
    kind = "play"
    seat = 0
    rect = [150, 180, 750, 330]      # x0, y0, x1, y1; or polygon = [[x, y], ...]
    then = ["show.0"]                # optional: zones its cards are carried on to in
                                     # play (a cribbage play row's to the show row);
                                     # [] for none (a Skat trick, gathered face down)

    [deck]                           # optional: the game's own pack when left out
    name = "french-52"               # see vision.decks: french-52, skat-32, frog-36,
                                     # skat-32-four-colour (the German tournament pack), ...
    index_mm = 14                    # optional: a "jumbo index" pack's index, rank to
                                     # suit centre to centre (a typical pack's 8.5)

Loading checks everything and raises :class:`~vision.errors.LayoutError` naming
the file and the key path (``zones[2].rect``) of the first thing that is wrong.

>>> layout = load_layout(LAYOUT_DIR / "cribbage-2.toml")
>>> layout.zone_at(450, 250).name, layout.zone_at(5, 5)
('play.0', None)
"""

from __future__ import annotations

import importlib.resources
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vision.decks import DECKS, INDEX_MM_RANGE, Deck, deck_for_game
from vision.errors import LayoutError
from vision.files import read_capped

__all__ = ["LAYOUT_DIR", "TableLayout", "Zone", "load_layout"]

#: The shipped layouts.
LAYOUT_DIR = Path(str(importlib.resources.files("kiebitz_config"))) / "tables"

ZONE_KINDS = frozenset(
    {"play", "show", "crib", "starter", "trick", "skat", "tricks", "hand", "widow", "pack"}
)
#: The ArUco dictionaries a layout may name, and how many markers each has (ids 0 to
#: count - 1): a marker id past them is never detected, and the calibration then
#: failed on every frame while ``run`` exited 0 having played nothing.
ARUCO_DICTIONARIES: Mapping[str, int] = MappingProxyType(
    {
        "DICT_4X4_50": 50,
        "DICT_4X4_100": 100,
        "DICT_5X5_50": 50,
        "DICT_5X5_100": 100,
        "DICT_6X6_50": 50,
        "DICT_6X6_250": 250,
    }
)
#: The largest table, marker or distance a layout may give, in millimetres (10 m):
#: ``width_mm = 1e300`` was taken, and ``inf`` and ``nan`` too (TOML writes them).
MAX_MM = 10_000.0

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Zone:
    """One named area of the table, a polygon in millimetres."""

    name: str
    kind: str
    seat: int | None
    polygon: tuple[Point, ...]
    # the zones a card lying here is carried on to in play, face up (a cribbage play
    # row's cards laid out in its player's show row): a card taken up here under a
    # hand that is over one of them may be on its way there (vision.watch CARRY_S);
    # () where the layout says none (a Skat trick, gathered face down), None where it
    # does not say: as () where the layout says it of other zones, and where it says it
    # of none, a card read in a hand carrying it off may be laid elsewhere
    then: tuple[str, ...] | None = None

    def contains(self, x: float, y: float) -> bool:
        """Point in polygon (even-odd rule); points on the boundary may go either way."""
        inside = False
        pts = self.polygon
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


@dataclass(frozen=True, slots=True)
class TableLayout:
    """A table: its size, its ArUco markers and its zones."""

    name: str
    game: str
    players: int
    width_mm: float
    depth_mm: float
    dictionary: str
    marker_size_mm: float
    markers: dict[int, Point]
    zones: tuple[Zone, ...]
    source: str = "<memory>"
    deck_name: str = ""  # empty: the game's own pack
    deck_index_mm: float | None = None  # None: the pack's own (a typical 8.5)

    @property
    def deck(self) -> Deck:
        """The pack played at this table (:mod:`vision.decks`), with the index size the
        layout gives."""
        deck = DECKS[self.deck_name] if self.deck_name else deck_for_game(self.game)
        if self.deck_index_mm is not None:
            deck = replace(deck, index_mm=self.deck_index_mm)
        return deck

    def zone_at(self, x: float, y: float) -> Zone | None:
        """The first zone that holds the point, or ``None`` (the table elsewhere)."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        return None

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)


class _Checker:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, key: str, why: str) -> LayoutError:
        return LayoutError(f"{self.path}: {key}: {why}")

    def table(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            raise self.fail(key, "missing table" if value is None else "must be a table")
        return value

    def size(self, data: dict[str, Any], key: str, where: str) -> float:
        """A length in millimetres: a finite number above 0 and at most :data:`MAX_MM`."""
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"{where}.{key}", f"expected a number, got {value!r}")
        if not (math.isfinite(value) and 0 < value <= MAX_MM):
            raise self.fail(
                f"{where}.{key}",
                f"must be a finite number above 0 and at most {MAX_MM:g} (mm), got {value!r}",
            )
        return float(value)

    def text(self, data: dict[str, Any], key: str, where: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}", f"expected text, got {value!r}")
        return value

    def point(self, value: Any, where: str) -> Point:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        ):
            raise self.fail(where, f"expected [x, y] in millimetres, got {value!r}")
        # TOML writes nan and inf; 1e300 overflowed the markers' spread test
        if not all(math.isfinite(v) and abs(v) <= MAX_MM for v in value):
            raise self.fail(
                where,
                f"expected [x, y] in millimetres, got {value!r}: "
                f"each a finite number from {-MAX_MM:g} to {MAX_MM:g}",
            )
        return (float(value[0]), float(value[1]))

    def unknown(self, data: dict[str, Any], allowed: Sequence[str], where: str) -> None:
        extra = sorted(set(data) - set(allowed))
        if extra:
            raise self.fail(f"{where}.{extra[0]}", "unknown key")


def parse_layout(data: dict[str, Any], source: str = "<memory>") -> TableLayout:
    """Check and build a layout from parsed TOML."""
    c = _Checker(source)
    c.unknown(data, ("table", "markers", "zones", "deck"), "(top)")
    deck_name = ""
    deck_index_mm: float | None = None
    if "deck" in data:
        deck = c.table(data, "deck")
        c.unknown(deck, ("name", "index_mm"), "deck")
        if "name" in deck:
            deck_name = c.text(deck, "name", "deck")
            if deck_name not in DECKS:
                raise c.fail("deck.name", f"expected one of {', '.join(sorted(DECKS))}")
        if "index_mm" in deck:
            deck_index_mm = c.size(deck, "index_mm", "deck")
            lo, hi = INDEX_MM_RANGE
            if not lo <= deck_index_mm <= hi:
                raise c.fail(
                    "deck.index_mm",
                    f"a pack's index, rank to suit, is {lo:g} to {hi:g} mm (a typical "
                    f"one's 8.5, a jumbo index's 12 to 19), got {deck_index_mm:g}",
                )
    table = c.table(data, "table")
    c.unknown(table, ("name", "game", "players", "width_mm", "depth_mm"), "table")
    players = table.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in range(2, 7):
        raise c.fail("table.players", f"expected 2 to 6, got {players!r}")
    width = c.size(table, "width_mm", "table")
    depth = c.size(table, "depth_mm", "table")
    markers = c.table(data, "markers")
    c.unknown(markers, ("dictionary", "size_mm", "positions"), "markers")
    dictionary = c.text(markers, "dictionary", "markers")
    if dictionary not in ARUCO_DICTIONARIES:
        raise c.fail(
            "markers.dictionary", f"expected one of {', '.join(sorted(ARUCO_DICTIONARIES))}"
        )
    marker_size = c.size(markers, "size_mm", "markers")
    positions = c.table(markers, "positions")
    if len(positions) < 4:
        raise c.fail("markers.positions", f"need at least 4 markers, got {len(positions)}")
    marker_points: dict[int, Point] = {}
    count = ARUCO_DICTIONARIES[dictionary]
    for key, value in positions.items():
        where = f"markers.positions.{key}"
        # ASCII digits only: '²' is a digit to str.isdigit and a ValueError to int()
        if not (key.isascii() and key.isdigit()):
            raise c.fail(where, "marker ids are whole numbers")
        marker_id = int(key)
        if marker_id >= count:
            raise c.fail(where, f"not a marker of {dictionary} (ids 0 to {count - 1})")
        if marker_id in marker_points:
            raise c.fail(where, f"marker {marker_id} is given twice")
        marker_points[marker_id] = c.point(value, where)
    _spread(c, marker_points, marker_size)
    raw_zones = data.get("zones", [])
    if not isinstance(raw_zones, list) or not raw_zones:
        raise c.fail("zones", "expected at least one [[zones]] entry")
    zones: list[Zone] = []
    names: set[str] = set()
    for i, raw in enumerate(raw_zones):
        where = f"zones[{i}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be a table")
        c.unknown(raw, ("name", "kind", "seat", "rect", "polygon", "then"), where)
        name = c.text(raw, "name", where)
        if name in names:
            raise c.fail(f"{where}.name", f"duplicate zone name {name!r}")
        names.add(name)
        kind = c.text(raw, "kind", where)
        if kind not in ZONE_KINDS:
            raise c.fail(f"{where}.kind", f"expected one of {', '.join(sorted(ZONE_KINDS))}")
        seat = raw.get("seat")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(players)
        ):
            raise c.fail(f"{where}.seat", f"expected a seat 0..{players - 1}, got {seat!r}")
        if ("rect" in raw) == ("polygon" in raw):
            raise c.fail(where, "give exactly one of rect or polygon")
        if "rect" in raw:
            rect = raw["rect"]
            if not isinstance(rect, list) or len(rect) != 4:
                raise c.fail(f"{where}.rect", f"expected [x0, y0, x1, y1], got {rect!r}")
            (x0, y0), (x1, y1) = (
                c.point(rect[:2], f"{where}.rect"),
                c.point(rect[2:], f"{where}.rect"),
            )
            if x1 <= x0 or y1 <= y0:
                raise c.fail(f"{where}.rect", "x1 and y1 must be greater than x0 and y0")
            polygon: tuple[Point, ...] = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        else:
            pts = raw["polygon"]
            if not isinstance(pts, list) or len(pts) < 3:
                raise c.fail(f"{where}.polygon", "expected at least three [x, y] points")
            polygon = tuple(c.point(p, f"{where}.polygon[{j}]") for j, p in enumerate(pts))
        for j, (x, y) in enumerate(polygon):
            if not (0 <= x <= width and 0 <= y <= depth):
                raise c.fail(f"{where}", f"point {j} ({x:g}, {y:g}) lies off the table")
        then = raw.get("then")
        if then is not None and (
            not isinstance(then, list) or not all(isinstance(z, str) for z in then)
        ):
            raise c.fail(f"{where}.then", f"expected a list of zone names, got {then!r}")
        zones.append(Zone(name, kind, seat, polygon, None if then is None else tuple(then)))
    for i, zone in enumerate(zones):  # (a zone named before it is laid out is fine)
        for j, onward in enumerate(zone.then or ()):
            if onward not in names or onward == zone.name:
                raise c.fail(
                    f"zones[{i}].then[{j}]",
                    f"expected the name of another zone of this table, got {onward!r}",
                )
    return TableLayout(
        name=c.text(table, "name", "table"),
        game=c.text(table, "game", "table"),
        players=int(players),
        width_mm=width,
        depth_mm=depth,
        dictionary=dictionary,
        marker_size_mm=marker_size,
        markers=marker_points,
        zones=tuple(zones),
        source=source,
        deck_name=deck_name,
        deck_index_mm=deck_index_mm,
    )


def _spread(c: _Checker, points: dict[int, Point], size: float) -> None:
    """Markers that can be laid and calibrate from: no two nearer than a marker's size
    (they would lie on each other), and not all on one line (the camera's tilt
    across it could not be measured). Four markers at one point were taken, and the
    calibration said an error of 55 mm with status 0."""
    ids = sorted(points)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            (ax, ay), (bx, by) = points[a], points[b]
            if ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 < size:
                raise c.fail(
                    "markers.positions",
                    f"markers {a} and {b} lie nearer than their size ({size:g} mm): "
                    "they would lie on each other",
                )
    pts = [points[k] for k in ids]
    (x0, y0) = pts[0]
    far = max(pts, key=lambda p: (p[0] - x0) ** 2 + (p[1] - y0) ** 2)
    dx, dy = far[0] - x0, far[1] - y0
    length = (dx * dx + dy * dy) ** 0.5
    # the greatest distance of a marker from the line through the first and the
    # marker furthest from it
    off = max(abs((px - x0) * dy - (py - y0) * dx) / length for px, py in pts)
    if off < size:
        raise c.fail(
            "markers.positions", "the markers lie on one line: spread them round the table"
        )


#: The most a table layout file may hold (the shipped ones are 2 KiB)
MAX_LAYOUT_BYTES = 1 << 20


def load_layout(path: str | Path) -> TableLayout:
    """Read and check a layout file: a path, or the name of a shipped layout
    (``cribbage-2``, as the config names it) where no such file is here."""
    p = Path(path)
    if not p.exists() and p.suffix == "" and p.name == str(path):
        shipped = LAYOUT_DIR / f"{p.name}.toml"
        if shipped.is_file():
            p = shipped
        else:
            names = ", ".join(sorted(q.stem for q in LAYOUT_DIR.glob("*.toml")))
            raise LayoutError(f"{p}: no such file, nor a shipped layout ({names})")
    try:
        # at most MAX_LAYOUT_BYTES: /dev/zero was read until memory ran out; a named
        # pipe nobody writes to waited for ever
        raw = read_capped(p, MAX_LAYOUT_BYTES + 1)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise LayoutError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise LayoutError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    if len(raw) > MAX_LAYOUT_BYTES:
        raise LayoutError(f"{p}: more than {MAX_LAYOUT_BYTES:,} bytes: no table layout, not read")
    try:
        # a UTF-8 byte-order mark (Windows Notepad writes one) is no TOML statement
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{p}: not valid TOML: {exc}") from exc
    except RecursionError:  # tomllib recurses once a level: `a = [[[[…]]]]` 1,000 deep
        raise LayoutError(f"{p}: not valid TOML: arrays or tables nested too deep") from None
    return parse_layout(data, str(p))
