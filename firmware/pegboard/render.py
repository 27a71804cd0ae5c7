"""What the LEDs show: pegs, games won, indicators, alerts, self-test, no host.

Pure: from a layout, a :class:`~pegboard.protocol.State` and the time, fill an
``array('I')`` of ``0x00GGRRBB`` words (the WS2812's colour order), one per LED.
Colours are scaled by the board's brightness cap and the state's brightness,
then the whole frame by the current limiter, so no state can draw more than
the power budget allows.

>>> from pegboard.layout import Layout, example
>>> from pegboard.protocol import State
>>> layout = Layout(example(game=61))
>>> renderer = Renderer(layout)
>>> frame = renderer.frame(State(tracks=[(5, 0, 0), (0, 0, 0)]), now=0)
>>> [led for led, word in enumerate(frame) if word]
[0, 6, 74, 75]
>>> hex(frame[6])   # front peg of track 0: '#ff2000' at the 25 % cap, GRB
'0x83f00'
"""

from array import array

from pegboard import protocol as p

BLINK_MS = 250
BREATH_MS = 4000
WHITE = (255, 255, 255)
RED = (255, 0, 0)
AMBER = (255, 120, 0)

# What the board is doing besides showing a state.
MODE_STATE = 0
MODE_SELFTEST = 1
MODE_WAITING = 2
MODE_HOST_LOST = 3


def breath(now):
    """A slow triangle wave from 20 to 100 (percent), one breath per ``BREATH_MS``."""
    phase = now % BREATH_MS
    half = BREATH_MS // 2
    up = phase if phase < half else BREATH_MS - phase
    return 20 + 80 * up // half


class Renderer:
    def __init__(self, layout):
        self.layout = layout
        self.words = array("I", [0] * layout.led_count)
        self.estimated_ma = 0

    def _put(self, led, colour, percent=100):
        if led == 0xFFFF:
            return
        r, g, b = colour
        scale = self._scale * percent
        self.words[led] = (
            ((g * scale // 2550000) << 16) | ((r * scale // 2550000) << 8) | (b * scale // 2550000)
        )

    def frame(self, state, now, mode=MODE_STATE, elapsed=0):
        """Fill and return the frame (the same array each call)."""
        layout = self.layout
        words = self.words
        for i in range(len(words)):
            words[i] = 0
        # 0..25500: the cap (percent) times the state's brightness (0..255).
        self._scale = layout.cap_percent * (255 if state is None else state.brightness)
        if mode == MODE_SELFTEST:
            self._selftest(elapsed)
        elif mode == MODE_WAITING or state is None:
            for track in range(layout.tracks):
                self._put(layout.peg_led(track, 0), WHITE, breath(now))
                self._put(layout.back_start_led(track), WHITE, breath(now))
        else:
            self._state(state, now)
            if mode == MODE_HOST_LOST:
                self._dim(breath(now))
        self._limit()
        return words

    def _selftest(self, elapsed):
        layout = self.layout
        total = max(layout.selftest_ms, 1)
        reach = (elapsed * layout.leds_per_track) // total + 1
        for track in range(layout.tracks):
            base = track * layout.leds_per_track
            for offset in range(min(reach, layout.leds_per_track)):
                self._put(base + offset, layout.colours[track])

    def _state(self, state, now):
        layout = self.layout
        blink = (now // BLINK_MS) % 2 == 0
        for track, (front, back, won) in enumerate(state.tracks[: layout.tracks]):
            colour = layout.colours[track]
            alerted = state.alert_mask >> track & 1
            front = min(front, layout.game)
            back = min(back, layout.game)
            if state.flags & p.FLAG_PEGS:
                for number in range(1, min(won, layout.games_won_holes) + 1):
                    self._put(layout.won_led(track, number), colour, 50)
                if alerted and state.alert == p.ALERT_REVOKE and blink:
                    for score in range(1, layout.game + 1):
                        self._put(layout.peg_led(track, score), RED, 40)
                if alerted and state.alert == p.ALERT_DISPUTE and blink:
                    for score in range(min(back, front) + 1, max(back, front)):
                        self._put(layout.peg_led(track, score), AMBER, 60)
                if back != front or front == 0:
                    led = layout.back_start_led(track) if back == 0 else layout.peg_led(track, back)
                    self._put(led, colour, layout.back_percent)
                front_colour = colour
                if alerted and state.alert == p.ALERT_WIN and not blink:
                    front_colour = WHITE
                self._put(layout.peg_led(track, front), front_colour)
                if alerted and state.alert == p.ALERT_WIN and blink:
                    for number in range(1, layout.games_won_holes + 1):
                        if number > won:
                            self._put(layout.won_led(track, number), colour, 20)
            if state.flags & p.FLAG_INDICATORS:
                if state.dealer == track:
                    self._put(layout.deal_led(track), WHITE, 60)
                if state.turn == track:
                    self._put(layout.turn_led(track), colour)

    def _dim(self, percent):
        words = self.words
        for i in range(len(words)):
            word = words[i]
            if word:
                g = (word >> 16) * percent // 100
                r = ((word >> 8) & 0xFF) * percent // 100
                b = (word & 0xFF) * percent // 100
                words[i] = (g << 16) | (r << 8) | b

    def _limit(self):
        """Scale the frame down if it would draw more than ``leds.max_ma``."""
        layout = self.layout
        words = self.words
        units = 0
        for word in words:
            if word:
                units += (word >> 16) + ((word >> 8) & 0xFF) + (word & 0xFF)
        idle = int(layout.idle_ma_per_led * layout.led_count)
        budget = layout.max_ma - idle
        drawn = units * layout.ma_per_channel // 255
        if drawn > budget > 0:
            percent = budget * 100 // drawn
            self._dim(percent)
            drawn = drawn * percent // 100
        self.estimated_ma = drawn + idle


def worst_case_ma(layout):
    """Current (mA) of every LED white at the cap, before the limiter, plus idle current."""
    per_led = 3 * layout.ma_per_channel * layout.cap_percent / 100
    return per_led * layout.led_count + layout.idle_ma_per_led * layout.led_count
