"""Reading a picture from a file: whole, or not at all.

OpenCV decodes a JPEG cut short (a copy interrupted, a card full) without a
word: the missing part comes out grey, and the cards in it are silently not
there. :func:`read_image` checks that the file ends as its format says a whole
file ends before it decodes it, and raises :class:`ImageError` naming the file
and what is wrong: missing, not a picture, or cut short.

* JPEG: the last marker is EOI (``FF D9``); a few bytes of padding after it (some
  cameras write zeros or a newline) are allowed. A phone's photo may carry more
  after the picture's own EOI: a Pixel's motion photo its video, a Samsung's its
  trailer (``SEFH`` … ``SEFT``), others a second picture; there the picture's
  markers and scans are followed to its EOI (:func:`_jpeg_end`), and what follows is
  not read.
* JPEG damaged inside (a flipped byte, a lost stretch, a run of zeros from a failing
  card): OpenCV's decoder says "Corrupt JPEG data" on the console and goes on, and
  what it returns is garbage from that point on (a real deal photo with 400 bytes
  zeroed mid-scan read 11 cards, 2 of them false, with status 0). The file is
  first decoded at an eighth of its size by libjpeg-turbo through ``simplejpeg``,
  whose warnings are errors there; the warnings that mean lost picture data name
  the file as damaged (:func:`_jpeg_damage`). A damaged byte that leaves the
  Huffman codes in step changes a block or two and cannot be seen by any decoder;
  most damage puts them out of step and is seen.
* PNG: the last chunk is ``IEND``, and every critical chunk's checksum (CRC) is right: a
  PNG with a damaged byte (a bad copy, a failing card) is named as damaged, with
  the chunk and where it lies, before libpng says something of its own on the
  console and OpenCV gives up (``crc.png`` in ``tests/test_vision_images.py``).
* WebP: as long as its RIFF header says; BMP: as long as its header says.
* Other formats (TIFF, GIF): what OpenCV decodes; OpenCV's own log of why it
  could not is kept off the console (the one line says it).

A picture whose header says it has more than ``MAX_DECODE_PIXELS`` is refused
before it is decoded (a PNG of 30,000 x 30,000 blank pixels is a few megabytes on
disc and 2.7 GB decoded): the header's size is read from a PNG's IHDR, a JPEG's
frame header, a BMP's info header, a TIFF's first directory, a WebP's frame or
canvas header and a GIF's screen descriptor.

>>> import tempfile, pathlib, cv2, numpy as np
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = cv2.imwrite(str(folder / "a.jpg"), np.full((40, 60, 3), 128, np.uint8))
>>> read_image(folder / "a.jpg").shape
(40, 60, 3)
>>> data = (folder / "a.jpg").read_bytes()
>>> _ = (folder / "cut.jpg").write_bytes(data[: len(data) // 2])
>>> read_image(folder / "cut.jpg")
Traceback (most recent call last):
...
vision.images.ImageError: cannot read image .../cut.jpg: the JPEG is cut short (no end marker): ...
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import simplejpeg
from numpy.typing import NDArray

from vision.errors import VisionError

__all__ = ["ImageError", "as_bgr", "decode_image", "read_image"]

_JPEG_START = b"\xff\xd8\xff"
_JPEG_END = b"\xff\xd9"
_PNG_START = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"
_TIFF_STARTS = (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")  # classic and BigTIFF
_PADDING = 16  # bytes after the end marker that some writers add
# The longest file read as a picture: a phone's 200-megapixel JPEG is some 100 MB,
# a 50-megapixel PNG of a photograph about as much; a device (/dev/zero) or a stream
# that does not end is refused after this many bytes, not read to its end (and so
# is a PNG of pure noise near MAX_DECODE_PIXELS, up to 750 MB).
MAX_FILE_BYTES = 256 << 20
# The most pixels a picture may have: a 200-megapixel phone photograph (16,320 x
# 12,240) and a little over; more is refused before it is decoded.
MAX_DECODE_PIXELS = 250_000_000
# JPEG frame headers (SOF0-SOF15 but DHT, JPG and DAC) carry the picture's size
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


class ImageError(VisionError, ValueError):
    """A picture file that is missing, not a picture, or not whole."""


def as_bgr(image: NDArray[Any]) -> NDArray[np.uint8]:
    """A decoded picture as the recogniser reads it: 8-bit, three channels (BGR). A
    grey picture is made BGR and a BGRA one loses its alpha; anything else (another
    depth, another shape) is an :class:`ImageError` saying what it is."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        what = type(image).__name__ if not isinstance(image, np.ndarray) else image.dtype
        raise ImageError(f"a picture to read must be 8-bit (uint8), not {what}")
    if image.size == 0:
        raise ImageError(f"a picture to read must have pixels, not the shape {image.shape}")
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ImageError(f"a picture to read must be grey, BGR or BGRA, not of shape {image.shape}")
    return image


def as_grey(patch: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A picture or a patch cut from one, grey (it may be grey, colour or with alpha)."""
    if patch.ndim == 2:
        return patch
    code = cv2.COLOR_BGRA2GRAY if patch.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return np.asarray(cv2.cvtColor(patch, code), np.uint8)


def _whole(data: bytes) -> str | None:
    """Why ``data`` is not a whole picture, or ``None`` when it looks whole."""
    if data.startswith(_JPEG_START):
        tail = data[-(_PADDING + 2) :].rstrip(b"\x00\r\n\t ")
        if not tail.endswith(_JPEG_END) and _jpeg_end(data) is None:
            return f"the JPEG is cut short (no end marker): {len(data):,} bytes"
    elif data.startswith(_PNG_START):
        if _PNG_END not in data[-(_PADDING + 12) :]:
            return f"the PNG is cut short (no IEND chunk): {len(data):,} bytes"
        return _png_damage(data)
    elif data.startswith(b"BM") and len(data) >= 14:
        (size,) = struct.unpack_from("<I", data, 2)
        if size > 0 and len(data) < size:
            return f"the BMP is cut short: {len(data):,} of {size:,} bytes"
    elif data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        size = struct.unpack_from("<I", data, 4)[0] + 8
        if len(data) < size:
            return f"the WebP is cut short: {len(data):,} of {size:,} bytes"
    return None


# a marker inside a JPEG's coded data: 0xFF and a byte that is neither a stuffed
# zero, a restart marker (RST0-RST7, inside the scan) nor another fill byte
_SCAN_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


def _jpeg_markers(data: bytes) -> Iterator[tuple[int, int]]:
    """The markers of the JPEG in ``data`` in order, each as (its offset, its code),
    fill bytes skipped, the scans' coded data stepped over to the marker after it;
    stops at EOI (yielded) or where the data ends or is no marker (cut short)."""
    i = 2
    while i + 2 <= len(data):
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        yield i, marker
        if marker == 0xD9:
            return
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # TEM, RSTn: no length
            i += 2
            continue
        if i + 4 > len(data):
            return
        i += 2 + struct.unpack_from(">H", data, i + 2)[0]
        if marker == 0xDA:  # the scan's coded data runs to the next marker
            found = _SCAN_MARKER.search(data, i)
            if found is None:
                return
            i = found.start()


def _jpeg_end(data: bytes) -> int | None:
    """Where the JPEG picture in ``data`` ends (just after its EOI), following its
    marker segments and scans; ``None`` where it ends first (cut short). A phone's
    file may go on after it (a motion photo's video, a Samsung trailer)."""
    for i, marker in _jpeg_markers(data):
        if marker == 0xD9:
            return i + 2
    return None


# libjpeg-turbo's warnings (jerror.h, JWRN_*) that say picture data was lost: the
# decoder met a byte it could not read as a Huffman or arithmetic code, a marker
# where data should be (or one that is none), data where a marker should be, or
# the file's end. The others leave the picture whole: an unknown JFIF revision or
# Adobe transform, a bad ICC profile, a thumbnail of the wrong size, and "Invalid
# SOS parameters for sequential JPEG", which many phones' files give and decode
# whole (the first warning stops the check, so damage after such a one is not seen)
_JPEG_LOST = (
    "Corrupt JPEG data",
    "Premature end of JPEG file",
    "Inconsistent progression",
    # a byte 0xFF and one that is no marker inside the coded data: a damaged byte
    # (libjpeg stops; OpenCV here returned what it had decoded, garbage after it)
    "Unsupported marker type",
)
_JPEG_WHOLE = ("Corrupt JPEG data: bad ICC marker",)
# a few bytes before the end marker are a writer's padding (USB webcams' MJPEG
# frames give "1 extraneous bytes before marker 0xd9"); more are the tail of a scan
# the decoder lost step in
_JPEG_END_PAD = 4
_EXTRANEOUS = re.compile(r"(\d+) extraneous bytes before marker 0xd9")


def _jpeg_damage(data: bytes) -> str | None:
    """Why the JPEG ``data`` is damaged inside, or ``None``: it is decoded at an
    eighth of its size (the Huffman decoding, where damage shows, is all done; about
    15 ms for a 4608 x 2592 frame) with libjpeg-turbo's warnings raised as errors.
    A warning that leaves the picture whole passes, and so does an error that is not
    about the data (a colour conversion this decoder lacks): OpenCV then decodes it
    or says it cannot."""
    try:
        header = simplejpeg.decode_jpeg_header(data)
        space = "CMYK" if header[2] in ("CMYK", "YCCK") else "GRAY"
        simplejpeg.decode_jpeg(data, space, min_height=1, min_width=1, min_factor=8, strict=True)
    except ValueError as exc:
        why = str(exc).strip()
        if not why.startswith(_JPEG_LOST) or why.startswith(_JPEG_WHOLE):
            return None
        pad = _EXTRANEOUS.search(why)
        if pad is not None and int(pad.group(1)) <= _JPEG_END_PAD:
            return None
        return f"the JPEG is damaged: {why[0].lower()}{why[1:]}"
    return None


def _png_damage(data: bytes) -> str | None:
    """Where a PNG that ends whole is damaged: a chunk that runs past the file's
    end, or whose checksum is wrong; ``None`` when every chunk up to ``IEND`` is
    sound. zlib's CRC runs at about a gigabyte a second."""
    view = memoryview(data)
    i = len(_PNG_START)
    while i + 12 <= len(data):
        (length,) = struct.unpack_from(">I", data, i)
        kind = data[i + 4 : i + 8]
        name = kind.decode("latin-1") if kind.isalpha() else repr(kind)
        end = i + 12 + length
        if end > len(data):
            return f"the PNG is damaged: its {name} chunk at byte {i:,} runs past the file's end"
        (crc,) = struct.unpack_from(">I", data, end - 4)
        # a critical chunk (its name's first letter upper case: IHDR, PLTE, IDAT, IEND)
        # must be whole; libpng only warns of an ancillary one (a tEXt comment) and
        # decodes the picture, and so does this
        critical = not kind[0] & 0x20
        if critical and zlib.crc32(view[i + 4 : end - 4]) != crc:
            return f"the PNG is damaged: its {name} chunk at byte {i:,} fails its checksum"
        if kind == b"IEND":
            return None
        i = end
    return f"the PNG is damaged: no IEND chunk where its chunks end ({len(data):,} bytes)"


def _size(data: bytes) -> tuple[int, int] | None:
    """The width and height a picture's header gives (PNG, JPEG, BMP, TIFF, WebP,
    GIF), or ``None``."""
    if data.startswith(_PNG_START) and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack_from(">II", data, 16)
        return w, h
    if data.startswith(_JPEG_START):
        for i, marker in _jpeg_markers(data):
            if marker in _JPEG_FRAMES:
                if i + 9 > len(data):
                    return None
                h, w = struct.unpack_from(">HH", data, i + 5)
                return w, h
            if marker == 0xDA:  # the scan begins: no frame header before it
                return None
        return None
    if data.startswith(b"BM") and len(data) >= 26:
        (header,) = struct.unpack_from("<I", data, 14)
        if header == 12:  # the OS/2 core header: 16-bit sizes
            w, h = struct.unpack_from("<HH", data, 18)
        else:
            w, h = struct.unpack_from("<ii", data, 18)
        return abs(w), abs(h)
    if data[:4] in _TIFF_STARTS:
        return _tiff_size(data)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP" and len(data) >= 30:
        kind = data[12:16]
        if kind == b"VP8X":  # the canvas, 24 bits each less one
            w = int.from_bytes(data[24:27], "little") + 1
            h = int.from_bytes(data[27:30], "little") + 1
            return w, h
        if kind == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":  # a key frame's 14 bits
            w, h = struct.unpack_from("<HH", data, 26)
            return w & 0x3FFF, h & 0x3FFF
        if kind == b"VP8L" and data[20] == 0x2F:  # lossless: 14 bits each less one
            (bits,) = struct.unpack_from("<I", data, 21)
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return None
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack_from("<HH", data, 6)
        return w, h
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """ImageWidth and ImageLength (tags 256, 257) of a TIFF's first directory, the
    picture OpenCV decodes; ``None`` where they are not both there."""
    order = "<" if data[:2] == b"II" else ">"
    big = data[2:4] in (b"+\x00", b"\x00+")
    offset, count, entry, value = ("Q", "Q", 20, 12) if big else ("I", "H", 12, 8)
    try:
        (at,) = struct.unpack_from(order + offset, data, 8 if big else 4)
        (entries,) = struct.unpack_from(order + count, data, at)
        at += struct.calcsize(count)
        found: dict[int, int] = {}
        for k in range(min(entries, 4096)):
            tag, kind = struct.unpack_from(order + "HH", data, at + k * entry)
            if tag in (256, 257) and kind in (3, 4, 16):  # SHORT, LONG, LONG8
                form = {3: "H", 4: "I", 16: "Q"}[kind]
                found[tag] = struct.unpack_from(order + form, data, at + k * entry + value)[0]
    except struct.error:  # a directory past the file's end
        return None
    return (found[256], found[257]) if len(found) == 2 else None


def decode_image(data: bytes, name: str = "image") -> NDArray[np.uint8]:
    """A whole picture (BGR) from the bytes of its file; :class:`ImageError` if not."""
    if not data:
        raise ImageError(f"cannot read image {name}: it is empty")
    why = _whole(data)
    if why is not None:
        raise ImageError(f"cannot read image {name}: {why}")
    size = _size(data)
    if size is not None and size[0] * size[1] > MAX_DECODE_PIXELS:
        raise ImageError(
            f"cannot read image {name}: it is {size[0]:,} x {size[1]:,} pixels, more than "
            f"{MAX_DECODE_PIXELS // 1_000_000} megapixels"
        )
    if data.startswith(_JPEG_START):
        why = _jpeg_damage(data)
        if why is not None:
            raise ImageError(f"cannot read image {name}: {why}")
    image = _decoded(data)
    if image is None or image.size == 0:
        heif = _heif_brand(data)
        if heif is not None:
            raise ImageError(
                f"cannot read image {name}: it is a picture in the {heif} format (a phone's "
                "high-efficiency setting), which OpenCV here does not decode: save or export "
                "it as JPEG or PNG"
            )
        raise ImageError(f"cannot read image {name}: not a readable image")
    return image


def _decoded(data: bytes) -> NDArray[np.uint8] | None:
    """OpenCV's decoding of ``data``, its own log kept off the console: a TIFF of
    32-bit samples printed ``[ WARN:0@0.008] global grfmt_tiff.cpp:811 … can not
    handle images with 32-bit samples``, and a TIFF or GIF cut short two or three
    ``[ERROR:0@0.016] … TIFFFillStrip: Read error …`` lines, above the one line that
    names the file."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    finally:
        cv2.utils.logging.setLogLevel(level)
    return None if image is None else np.asarray(image, np.uint8)


# ISO base media file brands of HEIF and AVIF stills (an iPhone's default, and
# many Android phones' high-efficiency setting)
_HEIF_BRANDS = {b"heic": "HEIC", b"heix": "HEIC", b"hevc": "HEIC", b"heim": "HEIC",
                b"heis": "HEIC", b"mif1": "HEIF", b"msf1": "HEIF", b"avif": "AVIF",
                b"avis": "AVIF"}  # fmt: skip


def _heif_brand(data: bytes) -> str | None:
    """``HEIC``, ``HEIF`` or ``AVIF`` where ``data`` opens with such a file's
    ``ftyp`` box (its major brand, or failing that a compatible one), else ``None``."""
    if len(data) < 16 or data[4:8] != b"ftyp":
        return None
    (size,) = struct.unpack_from(">I", data, 0)
    brands = [data[8:12]] + [data[i : i + 4] for i in range(16, min(size, len(data)) - 3, 4)]
    for brand in brands:
        if brand in _HEIF_BRANDS:
            return _HEIF_BRANDS[brand]
    return None


def read_image(path: str | Path) -> NDArray[np.uint8]:
    """A whole picture (BGR) from ``path``; :class:`ImageError` naming what is wrong."""
    path = Path(path)
    try:
        with path.open("rb") as fh:  # a device (/dev/zero) or a runaway file: bounded
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ImageError(f"cannot read image {path}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"cannot read image {path}: it is a folder") from None
    except OSError as exc:
        raise ImageError(f"cannot read image {path}: {exc.strerror or exc}") from None
    too_large(data, str(path))
    return decode_image(data, str(path))


def too_large(data: bytes, name: str) -> None:
    """:class:`ImageError` where ``data`` (read up to ``MAX_FILE_BYTES`` and one more)
    is longer than any picture read."""
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            f"cannot read image {name}: it is more than {MAX_FILE_BYTES >> 20} MiB, "
            "larger than any picture read"
        )
