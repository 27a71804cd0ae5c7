"""Numbers as seven-segment patterns (TM1637) and Code-B digits (MAX7219).

Right-aligned, a minus sign right before the digits; what does not fit, shows
dashes with the decimal points lit (an overflow no score can be mistaken for).

>>> text(-12, 4)
' -12'
>>> text(-1200, 4)
'----'
>>> text(None, 4)
'    '
>>> list(segments(-12, 4))
[0, 64, 6, 91]
"""

# Segment bits: dp g f e d c b a.
_SEGMENTS = {
    "0": 0x3F,
    "1": 0x06,
    "2": 0x5B,
    "3": 0x4F,
    "4": 0x66,
    "5": 0x6D,
    "6": 0x7D,
    "7": 0x07,
    "8": 0x7F,
    "9": 0x6F,
    "-": 0x40,
    " ": 0x00,
}
# MAX7219 Code B: 0-9, then '-', E, H, L, P, blank.
_CODE_B = {str(d): d for d in range(10)}
_CODE_B["-"] = 0x0A
_CODE_B[" "] = 0x0F
DP = 0x80
OVERFLOW = "overflow"
WAITING = "waiting"


def text(value, width):
    """The characters shown for ``value`` on ``width`` digits (None: blank)."""
    if value is None:
        return " " * width
    if value == WAITING:
        return "-" * width
    digits = str(value)
    if len(digits) > width:
        return "-" * width
    return " " * (width - len(digits)) + digits


def overflows(value, width):
    return value is not None and value != WAITING and len(str(value)) > width


def segments(value, width=4):
    """Segment bytes, leftmost digit first."""
    out = bytearray(_SEGMENTS[c] for c in text(value, width))
    if overflows(value, width):
        for i in range(width):
            out[i] |= DP
    return bytes(out)


def code_b(value, width=8):
    """MAX7219 Code-B bytes, leftmost digit first."""
    out = bytearray(_CODE_B[c] for c in text(value, width))
    if overflows(value, width):
        for i in range(width):
            out[i] |= DP
    return bytes(out)
