# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""Board layouts: which LED sits under which hole, and where each hole is drilled.

One layout (a dict, as ``tomllib`` reads a ``config/boards/*.toml`` file, or as
``board_config.py`` holds it on the Pico) drives the firmware's LED index map,
the emulator's picture and the drilling template, so they cannot disagree.

Per track (one player, or one side of partners): ``rows`` rows of
``holes_per_row`` holes, pegged out along row 0 and back along row 1 (seed 000:
"a double row of 30 holes on each side ... crosses over to the inner row of
holes, and goes down from right to left"), then the game hole; two start holes
before hole 1; a row of ``games_won_holes`` holes for games won (seed 000: "nine
extra pegs for counting games won"); a deal and a turn indicator. Two tracks
face each other; three make the triangular board.

>>> layout = Layout(example(game=61))
>>> layout.game, layout.tracks, layout.led_count
(61, 2, 148)
>>> [layout.peg_led(0, s) for s in (0, 1, 30, 31, 60, 61)]
[1, 2, 31, 32, 61, 62]
>>> layout.led_kind(32)
(0, 'hole', 31)
"""

import math

from pegboard.crc import crc16

ORDERS = ("serpentine", "progressive")
DISPLAY_KINDS = ("tm1637", "max7219")
NONE = 0xFFFF


class LayoutError(ValueError):
    """A layout that cannot be built; the message starts with the key path."""


def _fail(path, expected, value):
    raise LayoutError("%s: expected %s, got %r" % (path, expected, value))


def _is_int(value):
    return type(value) is int


def _is_number(value):
    return type(value) is int or type(value) is float


def _keys(table, path, required, optional):
    if type(table) is not dict:
        _fail(path or "layout", "a table", table)
    for key in table:
        if key not in required and key not in optional:
            where = "%s.%s" % (path, key) if path else key
            allowed = ", ".join(sorted(list(required) + list(optional)))
            raise LayoutError("%s: unknown key (allowed: %s)" % (where, allowed))
    for key in required:
        if key not in table:
            where = "%s.%s" % (path, key) if path else key
            raise LayoutError("%s: missing" % where)


def _join(path, key):
    return "%s.%s" % (path, key) if path else key


def _int(table, key, path, low, high, default=None):
    value = table.get(key, default)
    if not _is_int(value) or not low <= value <= high:
        _fail(_join(path, key), "an integer from %d to %d" % (low, high), value)
    return value


def _number(table, key, path, low, default=None):
    value = table.get(key, default)
    # value - value is 0 for every finite number, nan for nan and for infinities
    # (TOML writes both: a drill template of "nanmm" was drawn)
    if not _is_number(value) or value - value != 0 or value < low:
        _fail(_join(path, key), "a number of at least %s" % low, value)
    return float(value)


def _text(table, key, path, choices=None, default=None):
    value = table.get(key, default)
    if type(value) is not str or (choices is not None and value not in choices):
        want = "one of " + ", ".join(repr(c) for c in choices) if choices else "a string"
        _fail(_join(path, key), want, value)
    return value


def parse_colour(value, path):
    """``'#rrggbb'`` as ``(r, g, b)``.

    >>> parse_colour("#ff8000", "leds.colours[0]")
    (255, 128, 0)
    """
    if type(value) is str and len(value) == 7 and value[0] == "#":
        try:
            return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        except ValueError:
            pass
    _fail(path, "a colour '#rrggbb'", value)


class Hole:
    """One LED position: its track, kind, index within the kind, LED number and place (mm).

    Kinds: ``start`` (0, 1), ``hole`` (score 1 to game - 1), ``game`` (0),
    ``won`` (1 to games_won_holes), ``deal`` (0), ``turn`` (0).
    """

    def __init__(self, track, kind, index, led, x=0.0, y=0.0):
        self.track = track
        self.kind = kind
        self.index = index
        self.led = led
        self.x = x
        self.y = y

    def __repr__(self):
        return "Hole(track=%d, kind=%r, index=%d, led=%d, x=%.2f, y=%.2f)" % (
            self.track,
            self.kind,
            self.index,
            self.led,
            self.x,
            self.y,
        )


class Display:
    """One score display: a TM1637 (one seat) or a MAX7219 chain (one seat per module)."""

    def __init__(self, kind, pins, seats, brightness):
        self.kind = kind
        self.pins = pins
        self.seats = seats
        self.brightness = brightness


class Layout:
    """A validated layout with its LED index map; ``LayoutError`` names a bad key."""

    def __init__(self, data):
        _keys(
            data,
            "",
            ("name", "game", "tracks", "rows", "holes_per_row", "geometry", "leds"),
            (
                "description",
                "start_holes",
                "games_won_holes",
                "lines",
                "displays",
                "firmware",
                "power",
            ),
        )
        self.data = data
        self.name = _text(data, "name", "")
        self.tracks = _int(data, "tracks", "", 2, 3)
        self.rows = _int(data, "rows", "", 1, 8)
        self.start_holes = _int(data, "start_holes", "", 0, 2, 2)
        self.games_won_holes = _int(data, "games_won_holes", "", 0, 9, 9)
        self.holes_per_row = _int(data, "holes_per_row", "", self.games_won_holes + 3, 60)
        self.game = _int(data, "game", "", 2, 481)
        if self.game != self.rows * self.holes_per_row + 1:
            raise LayoutError(
                "game: %d does not match rows x holes_per_row + 1 = %d"
                % (self.game, self.rows * self.holes_per_row + 1)
            )
        self.lines = []
        lines = data.get("lines", [])
        if type(lines) is not list:
            _fail("lines", "a list of tables", lines)
        for i, line in enumerate(lines):
            path = "lines[%d]" % i
            _keys(line, path, ("after", "name"), ())
            after = _int(line, "after", path, 1, self.game - 2)
            self.lines.append((after, _text(line, "name", path)))
        self._geometry(data["geometry"])
        self._leds(data["leds"])
        self._displays(data.get("displays", []))
        self._firmware(data.get("firmware", {}))
        self._build_map()

    # -- validation of the sub-tables -------------------------------------------------

    def _geometry(self, table):
        path = "geometry"
        _keys(
            table,
            path,
            ("pitch_mm", "row_gap_mm", "track_gap_mm"),
            ("group", "group_gap_mm", "hole_mm", "led_mm", "margin_mm"),
        )
        self.pitch = _number(table, "pitch_mm", path, 2.0)
        self.row_gap = _number(table, "row_gap_mm", path, 2.0)
        self.track_gap = _number(table, "track_gap_mm", path, 0.0)
        self.group = _int(table, "group", path, 1, 60, 5)
        self.group_gap = _number(table, "group_gap_mm", path, 0.0, 0.0)
        self.hole_mm = _number(table, "hole_mm", path, 0.5, 3.2)
        self.led_mm = _number(table, "led_mm", path, 0.5, 5.0)
        self.margin = _number(table, "margin_mm", path, 0.0, 10.0)
        if self.hole_mm > self.pitch or self.hole_mm > self.row_gap:
            raise LayoutError(
                "geometry.hole_mm: %s does not fit between holes %s mm apart"
                % (self.hole_mm, min(self.pitch, self.row_gap))
            )

    def _leds(self, table):
        path = "leds"
        _keys(
            table,
            path,
            ("pin", "colours"),
            (
                "order",
                "back_percent",
                "cap_percent",
                "max_ma",
                "ma_per_channel",
                "idle_ma_per_led",
                "state_machine",
            ),
        )
        self.led_pin = _int(table, "pin", path, 0, 29)
        self.state_machine = _int(table, "state_machine", path, 0, 7, 0)
        self.order = _text(table, "order", path, ORDERS, "serpentine")
        colours = table["colours"]
        if type(colours) is not list or len(colours) != self.tracks:
            _fail(path + ".colours", "a list of %d colours, one per track" % self.tracks, colours)
        self.colours = [
            parse_colour(c, "%s.colours[%d]" % (path, i)) for i, c in enumerate(colours)
        ]
        self.back_percent = _int(table, "back_percent", path, 1, 100, 30)
        self.cap_percent = _int(table, "cap_percent", path, 1, 100, 25)
        self.max_ma = _int(table, "max_ma", path, 50, 20000, 2000)
        self.ma_per_channel = _int(table, "ma_per_channel", path, 1, 100, 20)
        self.idle_ma_per_led = _number(table, "idle_ma_per_led", path, 0.0, 1.0)

    def _displays(self, displays):
        if type(displays) is not list:
            _fail("displays", "a list of tables", displays)
        self.displays = []
        used = {}
        for i, table in enumerate(displays):
            path = "displays[%d]" % i
            if type(table) is not dict:
                _fail(path, "a table", table)
            kind = _text(table, "kind", path, DISPLAY_KINDS)
            if kind == "tm1637":
                _keys(table, path, ("kind", "clk", "dio", "seat"), ("brightness",))
                pins = {
                    "clk": _int(table, "clk", path, 0, 29),
                    "dio": _int(table, "dio", path, 0, 29),
                }
                seats = [_int(table, "seat", path, 0, 15)]
                brightness = _int(table, "brightness", path, 0, 7, 4)
            else:
                _keys(table, path, ("kind", "spi", "sck", "mosi", "cs", "seats"), ("brightness",))
                pins = {
                    "spi": _int(table, "spi", path, 0, 1),
                    "sck": _int(table, "sck", path, 0, 29),
                    "mosi": _int(table, "mosi", path, 0, 29),
                    "cs": _int(table, "cs", path, 0, 29),
                }
                raw = table["seats"]
                if type(raw) is not list or not 1 <= len(raw) <= 8:
                    _fail(path + ".seats", "a list of 1 to 8 seats, one per module", raw)
                seats = [
                    _int({"s": s}, "s", "%s.seats[%d]" % (path, j), 0, 15)
                    for j, s in enumerate(raw)
                ]
                brightness = _int(table, "brightness", path, 0, 15, 6)
            for name, pin in pins.items():
                if name == "spi":
                    continue
                if pin == self.led_pin or pin in used:
                    other = "leds.pin" if pin == self.led_pin else used[pin]
                    raise LayoutError("%s.%s: pin %d is already %s" % (path, name, pin, other))
                used[pin] = "%s.%s" % (path, name)
            self.displays.append(Display(kind, pins, seats, brightness))
        self.seats = 0
        for display in self.displays:
            for seat in display.seats:
                self.seats = max(self.seats, seat + 1)

    def _firmware(self, table):
        path = "firmware"
        _keys(table, path, (), ("host_timeout_s", "watchdog_ms", "selftest_ms", "frame_ms"))
        self.host_timeout_ms = 1000 * _int(table, "host_timeout_s", path, 1, 255, 5)
        self.watchdog_ms = _int(table, "watchdog_ms", path, 1000, 8000, 5000)
        self.selftest_ms = _int(table, "selftest_ms", path, 0, 2000, 400)
        self.frame_ms = _int(table, "frame_ms", path, 5, 200, 20)

    # -- the LED index map ----------------------------------------------------------

    def _column(self, row, k):
        """The column of the ``k``-th hole pegged along ``row``."""
        return k if row % 2 == 0 else self.holes_per_row - 1 - k

    def _score(self, row, column):
        k = column if row % 2 == 0 else self.holes_per_row - 1 - column
        return row * self.holes_per_row + k + 1

    def chain(self):
        """``(kind, index)`` of each LED of one track, in the order the data line runs."""
        out = []
        for i in range(self.start_holes - 1, -1, -1):
            out.append(("start", i))
        for row in range(self.rows):
            if self.order == "serpentine":
                columns = [self._column(row, k) for k in range(self.holes_per_row)]
            else:
                columns = list(range(self.holes_per_row))
            for column in columns:
                out.append(("hole", self._score(row, column)))
        out.append(("game", 0))
        for i in range(1, self.games_won_holes + 1):
            out.append(("won", i))
        out.append(("deal", 0))
        out.append(("turn", 0))
        return out

    def _build_map(self):
        chain = self._chain = self.chain()
        self.leds_per_track = len(chain)
        self.led_count = self.leds_per_track * self.tracks
        self._score_led = []
        self._start_led = []
        self._won_led = []
        self._deal_led = []
        self._turn_led = []
        for track in range(self.tracks):
            base = track * self.leds_per_track
            score = [NONE] * (self.game + 1)
            start = [NONE, NONE]
            won = [NONE] * (self.games_won_holes + 1)
            for offset, (kind, index) in enumerate(chain):
                led = base + offset
                if kind == "hole":
                    score[index] = led
                elif kind == "game":
                    score[self.game] = led
                elif kind == "start":
                    start[index] = led
                elif kind == "won":
                    won[index] = led
                elif kind == "deal":
                    self._deal_led.append(led)
                else:
                    self._turn_led.append(led)
            score[0] = start[0]
            self._score_led.append(score)
            self._start_led.append(start)
            self._won_led.append(won)

    def peg_led(self, track, score):
        """The LED of a peg at ``score`` (0: the first start hole; the game: the game hole)."""
        return self._score_led[track][score]

    def back_start_led(self, track):
        """The second start hole, where the back peg waits before its first move."""
        led = self._start_led[track][1]
        return self._start_led[track][0] if led == NONE else led

    def won_led(self, track, number):
        return self._won_led[track][number]

    def deal_led(self, track):
        return self._deal_led[track]

    def turn_led(self, track):
        return self._turn_led[track]

    def led_kind(self, led):
        """``(track, kind, index)`` of an LED number."""
        track, offset = divmod(led, self.leds_per_track)
        kind, index = self._chain[offset]
        return track, kind, index

    def fingerprint(self):
        """CRC-16 of the LED index map: the board and the host compare it at HELLO.

        Integers only, so the Pico (single-precision floats) and CPython agree.
        """
        crc = crc16(bytes([self.tracks, self.rows, self.holes_per_row, self.start_holes]))
        crc = crc16(bytes([self.games_won_holes, self.game >> 8, self.game & 0xFF]), crc)
        for track in range(self.tracks):
            leds = list(self._score_led[track]) + list(self._start_led[track])
            leds += list(self._won_led[track])
            leds.append(self._deal_led[track])
            leds.append(self._turn_led[track])
            for led in leds:
                crc = crc16(bytes([led >> 8, led & 0xFF]), crc)
        return crc

    # -- geometry (drilling template, emulator picture) ------------------------------

    def _x(self, column):
        return column * self.pitch + (column // self.group) * self.group_gap

    def local_position(self, kind, index):
        """Where a hole sits in its track's own frame (mm): x along, y away from the player."""
        last = self.rows - 1
        if kind == "hole":
            row = (index - 1) // self.holes_per_row
            column = self._column(row, (index - 1) % self.holes_per_row)
            return self._x(column), row * self.row_gap
        if kind == "start":
            return -(index + 1) * self.pitch - self.group_gap, 0.0
        if kind == "game":
            if self.rows % 2 == 0:
                return -self.pitch - self.group_gap, last * self.row_gap
            return self._x(
                self.holes_per_row - 1
            ) + self.pitch + self.group_gap, last * self.row_gap
        if kind == "won":
            return self._x(index - 1), -self.row_gap
        if kind == "deal":
            return self._x(self.holes_per_row - 2), -self.row_gap
        if kind == "turn":
            return self._x(self.holes_per_row - 1), -self.row_gap
        raise LayoutError("unknown hole kind %r" % (kind,))

    def holes(self):
        """Every LED position of the board, in LED order, in mm (x right, y down)."""
        chain = self.chain()
        local = [self.local_position(kind, index) for kind, index in chain]
        xs = [p[0] for p in local]
        ys = [p[1] for p in local]
        centre = (min(xs) + max(xs)) / 2
        inner = max(ys)
        half = (max(xs) - min(xs)) / 2 + self.led_mm / 2
        if self.tracks == 2:
            distance = self.track_gap / 2
        else:
            distance = max(self.track_gap / 2, (half + self.track_gap) / math.sqrt(3))
        self.inner_distance = distance
        placed = []
        for track in range(self.tracks):
            angle = 2 * math.pi * track / self.tracks
            cos, sin = math.cos(angle), math.sin(angle)
            for offset, (kind, index) in enumerate(chain):
                x = local[offset][0] - centre
                y = local[offset][1] - inner - distance
                placed.append(
                    (
                        track,
                        kind,
                        index,
                        track * self.leds_per_track + offset,
                        x * cos - y * sin,
                        x * sin + y * cos,
                    )
                )
        low_x = min(p[4] for p in placed) - self.margin - self.led_mm / 2
        high_y = max(p[5] for p in placed) + self.margin + self.led_mm / 2
        return [Hole(t, k, i, led, x - low_x, high_y - y) for t, k, i, led, x, y in placed]

    def size(self):
        """Width and height of the board outline (mm)."""
        holes = self.holes()
        edge = self.margin + self.led_mm / 2
        return (max(h.x for h in holes) + edge, max(h.y for h in holes) + edge)


def example(game=121, tracks=2):
    """A small valid layout dict, for doctests and tests."""
    rows = 2
    return {
        "name": "example-%d" % game,
        "game": game,
        "tracks": tracks,
        "rows": rows,
        "holes_per_row": (game - 1) // rows,
        "lines": [{"after": (game - 1) // 2, "name": "lurch"}],
        "geometry": {"pitch_mm": 8.0, "row_gap_mm": 10.0, "track_gap_mm": 16.0},
        "leds": {"pin": 2, "colours": ["#ff2000", "#0040ff", "#00c040"][:tracks]},
        "displays": [
            {"kind": "tm1637", "clk": 10 + 2 * i, "dio": 11 + 2 * i, "seat": i}
            for i in range(tracks)
        ],
    }
