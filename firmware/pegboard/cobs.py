# ruff: noqa: UP031 - MicroPython code: %-formatting is smaller and runs everywhere
"""Consistent Overhead Byte Stuffing: a frame without zero bytes, so 0x00 can end it.

>>> encode(b"\\x11\\x22\\x00\\x33")
b'\\x03\\x11"\\x023'
>>> decode(encode(b"\\x00\\x00"))
b'\\x00\\x00'
>>> decode(b"\\x05\\x01")
Traceback (most recent call last):
...
ValueError: COBS code 5 at offset 0 runs past the end (2 bytes)
"""


def encode(data):
    """``data`` with every zero byte stuffed away (no delimiter added)."""
    out = bytearray([0])
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            if i == last:
                return bytes(out)  # a full block ends the data: no empty block after it
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def decode(data):
    """The original bytes of one encoded frame (no delimiter); ``ValueError`` if malformed."""
    out = bytearray()
    size = len(data)
    i = 0
    while i < size:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte at offset %d inside a COBS frame" % i)
        end = i + code
        if end > size:
            raise ValueError(
                "COBS code %d at offset %d runs past the end (%d bytes)" % (code, i, size)
            )
        for j in range(i + 1, end):
            byte = data[j]
            if byte == 0:
                raise ValueError("zero byte at offset %d inside a COBS frame" % j)
            out.append(byte)
        i = end
        if code < 0xFF and i < size:
            out.append(0)
    return bytes(out)
