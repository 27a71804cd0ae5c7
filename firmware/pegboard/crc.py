"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

The same checksum as CPython's ``binascii.crc_hqx(data, 0xFFFF)``, which
MicroPython lacks; written out so both ends compute it with one piece of code.

>>> hex(crc16(b"123456789"))
'0x29b1'
>>> crc16(b"")
65535
"""

from array import array


def _table():
    table = array("H", [0] * 256)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[byte] = crc & 0xFFFF
    return table


_TABLE = _table()


def crc16(data, crc=0xFFFF):
    """The checksum of ``data`` (bytes-like), continuing from ``crc``."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc
