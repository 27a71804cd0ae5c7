"""Keeping freed memory for the next frame: the C library's allocator told once per
process (``mallopt``) to serve blocks up to 32 MB from its heap and to keep what is
freed there, instead of handing each block back to the kernel.

A reading of a 4608 x 2592 frame makes a few dozen arrays of 12 MB (the grey
picture, the ink masks) and frees them again. glibc gives every block over its
mmap threshold (128 kB at first, raised as blocks are freed) pages of its own and
hands them back when it is freed, and hands back the free top of its heap past its
trim threshold; the next frame's arrays then took their pages afresh, each a
fault the kernel fills with zeros (23,000 faults a pass over the bench's eight
4608 x 2592 tables). With the threshold at glibc's most (32 MB) and a trim
threshold of 256 MB, a steady loop of frames takes no fresh page after its first
frames; blocks over 32 MB (a 4608 x 2592 frame's blob labels, 48 MB) still come
and go as pages of their own.

What it costs: the process keeps up to 256 MB of freed heap. A reading that is no
frame of the loop (a single picture of unknown scale, read at several scales and
perhaps sharpened and unsmeared) would leave its peak behind, so
:meth:`vision.recognize.Recognizer.read_any_scale` hands the free heap back when it
is done (:func:`release_memory`). A first version also took every block over 32 MB
from a heap (``M_MMAP_MAX`` 0); a review measured what that kept: one smeared
picture then 4608 frames held 644 MB against 200, threads freeing 40 MB blocks 120
MB against 1. It was taken out.

Only glibc has ``mallopt`` (Raspberry Pi OS and Debian do); elsewhere, and where
glibc refuses the threshold (32-bit systems take at most 512 kB), this does
nothing. It is the process's setting, made by whatever reads frames
(:class:`vision.recognize.Recognizer`), once.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

# mallopt's parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Blocks up to this size come from the heap (glibc's most for the threshold).
MMAP_THRESHOLD = 32 * 1024 * 1024
# The free top of the heap is kept up to this size: more than a 4608 x 2592 reading
# frees at once.
TRIM_THRESHOLD = 256 * 1024 * 1024


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.mallopt.restype = ctypes.c_int
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
    except (OSError, AttributeError):
        return None
    return libc


@functools.cache
def keep_freed_memory() -> bool:
    """Tell the allocator to keep what a frame's reading frees for the next one;
    whether it took the setting (``False`` without glibc, or where it refuses the
    threshold: then nothing is set)."""
    libc = _libc()
    if libc is None or libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    return bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1)


def release_memory() -> None:
    """Hand the heap's free memory back to the kernel (after a reading that is no
    frame of a loop); nothing without glibc."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
