"""Keeping freed memory for the next frame: the C library's allocator told once per
process (``mallopt``) to take large blocks from its heap and to keep what is freed
there, instead of handing each large block back to the kernel.

A reading of a 4608 x 2592 frame makes a few dozen arrays of 12 to 48 MB (the grey
picture, the ink masks, the labels of its blobs) and frees them again. glibc
gives every block over its mmap threshold (128 kB at first, raised as blocks are
freed, never past 32 MB) pages of its own and hands them back when it is freed,
and hands back the free top of its heap past its trim threshold; the next frame's
arrays then took every page afresh, each a fault the kernel fills with zeros. On
this machine that was a third of a full reading: ``bench/vision.py --only
speed``'s eight 4608 x 2592 tables, read three times over in one process, took
1.74 s of system time and 3.7 s of user time; with the blocks kept, 0.28 s and
3.5 s (median 80 -> 59 ms, 90th percentile 163 -> 123 ms, in the same minutes).
The process's peak memory is the same; it keeps it between frames.

With ``M_MMAP_MAX`` at 0 every block comes from a heap: the main heap grows as far
as it must, and a thread whose own heap cannot hold a block takes it from the
main heap. Only glibc has ``mallopt`` (Raspberry Pi OS and Debian do); elsewhere
this does nothing. It is the process's setting, made by whatever reads frames
(:class:`vision.recognize.Recognizer`), once.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

# mallopt's parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_MMAP_MAX = -4
# Blocks up to this size come from the heap (glibc's most for the threshold), and with
# M_MMAP_MAX 0 every larger one too.
MMAP_THRESHOLD = 32 * 1024 * 1024
# The free top of the heap is kept up to this size: more than a 4608 x 2592 reading
# frees at once.
TRIM_THRESHOLD = 512 * 1024 * 1024


@functools.cache
def keep_freed_memory() -> bool:
    """Tell the allocator to keep what a frame's reading frees for the next one;
    whether it took the setting (``False`` without glibc)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    mmap_ok = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    trim_ok = mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    heap_ok = mallopt(M_MMAP_MAX, 0) == 1
    return mmap_ok and trim_ok and heap_ok
